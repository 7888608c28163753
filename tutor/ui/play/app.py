"""The dashboard: the panels put together around a Session. The app is the page's controller:
it wires the panels' intents (play, answer, open the sheet, …) to the session, paces the
session's steps (:meth:`Session.advance` decides what they are), refreshes every panel from
one snapshot, and tells the page's access layer what to announce and where the focus goes
next."""

from __future__ import annotations

import asyncio
import html
from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING

import ipywidgets as widgets

from engine.events import Drew
from engine.round import Action
from tutor.i18n import N_, normalize_lang, translator
from tutor.session.session import Feedback, GameSettings, Session, SessionError, SessionKeywords
from tutor.session.snapshot import ExtraMoveView, QuestionView, Snapshot
from tutor.session.words import spoken
from tutor.teaching.questions import warm_up
from tutor.ui.play.board import BoardPanel
from tutor.ui.play.focus import follow, forced_words
from tutor.ui.play.game_setup import SetupPanel
from tutor.ui.play.header import Header, LessonLine, SavingNote, Status
from tutor.ui.play.keys import HelpPanel, shortcut_map
from tutor.ui.play.log import LogPanel
from tutor.ui.play.moves import MOVES_GROUP, MovesPanel, move_label
from tutor.ui.play.question import AnsweredCard, TutorPanel
from tutor.ui.play.round_end import Onward, RoundEndPanel
from tutor.ui.play.scores import ScoresPanel
from tutor.ui.play.sheet import SheetPanel
from tutor.ui.play.skills import SkillsPanel
from tutor.ui.shared.access import Attributes, PageAccess
from tutor.ui.shared.name_form import NAME_INPUT, NameForm
from tutor.ui.shared.panel import P, classed, freeze_heap, guarded, logged, running_loop, unforeseen
from tutor.ui.shared.style import stylesheet

if TYPE_CHECKING:
    from typing import Unpack

__all__ = ["TutorApp"]

PACE = 0.5
"""Seconds between two bot moves (a draw is quicker)."""
SAVE_RETRY = 2.0
"""Seconds between two tries to save answers a busy progress file could not take."""
BOARD_SIZE = (800, 470)
"""The board's bitmap on a laptop or a tablet (CSS scales it down to a narrower column)."""
PHONE_BOARD = (420, 480)
"""The board's bitmap in a window narrower than :data:`PHONE_BELOW` CSS pixels: the laptop's
board scaled to a phone's 412 px showed its hand tiles 18 px wide and its words at 6 px; this
one, scaled by about 0.9, keeps them tappable and legible (taller, as the snake needs more
rows and a grown hand a second row)."""
PHONE_BELOW = 600

StartSession = Callable[[str, str], Session]
"""``start(student, lang)``: the game of a student just named (see ``ask_name``)."""


class TutorApp(widgets.VBox):
    """The whole dashboard as one widget. ``app.session`` is the game; every panel is redrawn
    from one ``session.snapshot()`` by :meth:`refresh`.

    ``ask_name``: the page asks for the student's name (and a class code) before the game
    starts, then plays ``ask_name(student, lang)``'s session instead of ``session`` (which
    only gives the panels something to draw meanwhile). ``class_code``: the class code the
    link gave with the student's name; it goes into the names of the files downloaded.
    ``saving``: whether the page's answers are saved (False: its progress store could not
    be opened, and the name form says they will not be kept)."""

    def __init__(self, session: Session | None = None, *, pace: float = PACE,
                 board_size: tuple[int, int] = BOARD_SIZE,
                 ask_name: StartSession | None = None, class_code: str = "",
                 saving: bool = True, **settings: Unpack[SessionKeywords]) -> None:
        super().__init__()
        self._saving_on = saving
        """Whether the page saves the answers (its name form says so only then)."""
        self._start: StartSession | None = ask_name
        """Set while the page waits for the student's name."""
        self.class_code = class_code
        settings.setdefault("lang", "es")
        self.session = session or Session(**settings)  # the app paces its steps (advance)
        first = self.session.snapshot()
        self.lang = first.lang
        self.pace = pace
        self._generation = 0
        self._task: asyncio.Task[None] | None = None
        self._task_generation = 0  # the game the pacing task steps (it ends with its game)
        self._saver: asyncio.Task[None] | None = None
        self._view: Snapshot | None = None
        self._said: list[str] = []
        """What happened since the last refresh, to announce with it."""
        self._told_step: int | None = None
        """The last step whose news was told (None: the page's first, which tells none)."""
        self._notes_said = 0
        """The session's notes (:attr:`Snapshot.notes`) the status line has said so far."""
        self._board_size = board_size
        self._build(board_size)
        self.setup.show_settings(first.settings)
        self.relabel()
        self._show_name_form(self.asking)
        self.refresh(view=first)
        if self.asking:
            self.access.focus(NAME_INPUT)
        self.kick()
        loop = running_loop()
        if loop is not None:  # once the board is out: MathML and number formats, ready
            loop.call_soon(warm_up, self.lang)
            loop.call_soon(self.session.warm_up)  # what the lesson's questions tell apart
            loop.call_soon(freeze_heap)  # then the heap, out of full collections

    # --- building -----------------------------------------------------------------------------

    def _build(self, board_size: tuple[int, int]) -> None:
        bw, bh = board_size
        W = widgets
        self.access = PageAccess(lang=self.lang, shortcuts=shortcut_map())
        act = self._guarded
        self.access.on_submit(act(self.submit))
        self.header = Header(self.lang)
        self.header.on_lang(act(self._on_lang))
        self.header.on_new_game(act(self.new_game))
        self.help = HelpPanel()
        self.setup = SetupPanel()
        self.status = Status()
        self.saving_note = SavingNote()
        self.lesson_line = LessonLine()
        self.board_slot = BoardPanel(bw, bh, on_play=self.play, on_message=self._message,
                                     on_speak=self.access.announce, on_uncover=self._uncovered,
                                     guard=act)
        self.access.on_repaint(act(self.board_slot.board.page_ready))
        self.access.on_width(act(self._window_width))
        self.moves = MovesPanel(on_move=act(self._move_button))
        self.tutor = TutorPanel(on_submit=act(self.submit), on_hint=act(self.hint),
                                on_reveal=act(self._reveal))
        self.last_feedback = AnsweredCard()
        self.round_end = RoundEndPanel(on_next_round=act(self.next_round),
                                       on_new_match=act(self.new_game))
        self.scores = ScoresPanel()
        self.mastery_html = SkillsPanel()
        self.log_panel = LogPanel()
        self.sheet = SheetPanel(on_open=act(self._sheet_opened))
        self.name_form = NameForm(saving=self._saving_on)
        if self.class_code:  # the link's class (an assignment's): not typed again
            self.name_form.class_in.value = self.class_code
        self.name_form.on_name(act(self._named))
        self.access.on_name(act(self.name_form.hand_in))
        for accordion in (self.setup, self.sheet):  # their headers say whether they are open
            accordion.observe(lambda _c: self._send_attributes(), "selected_index")
        # Reading and tabbing order: the board, the moves, then the question beside the board
        # (on a narrow screen, under it), then the scores.
        play_col = classed(W.VBox([self.board_slot, self.board_slot.words, self.moves,
                                   self.round_end]), "ld-play")
        side = classed(W.VBox([self.saving_note, self.tutor, self.last_feedback, self.scores,
                               self.mastery_html, self.log_panel]), "ld-side")
        main = classed(W.HBox([play_col, side]), "ld-main")
        top = classed(W.HBox([self.header, self.help]), "ld-top")
        self.main_area = main
        self.children = [stylesheet(), self.access, top, self.lesson_line, self.status,
                         self.name_form, main,
                         self.setup, self.sheet]
        self.add_class("ld-app")
        self._handles()

    def _handles(self) -> None:
        """The panels' parts by the names scripts and tests reach them."""
        h, s, b, t, r, sh = (self.header, self.setup, self.board_slot, self.tutor,
                             self.round_end, self.sheet)
        self.lang_toggle, self.new_game_btn = h.lang_toggle, h.new_game_btn
        self.variant_dd, self.players_dd, self.seat_dds = s.variant_dd, s.players_dd, s.seat_dds
        self.rounds_in, self.seed_in = s.rounds_in, s.seed_in
        self.ask_power, self.ask_round, self.ask_bots = s.ask_power, s.ask_round, s.ask_bots
        self.scaffold_cb = s.scaffold_cb
        self.board, self.cover, self.cover_btn = b.board, b.cover, b.cover.button
        self.question, self.answer_in, self.feedback = t.question, t.answer_in, t.feedback
        self.submit_btn, self.hint_btn, self.reveal_btn = t.submit_btn, t.hint_btn, t.reveal_btn
        self.summary, self.match_table = r.summary, r.match_table
        self.next_round_btn, self.new_match_btn = r.next_round_btn, r.new_match_btn
        self.sheet_html, self.sheet_links = sh.sheet_html, sh.sheet_links
        self.progress_html = sh.progress_html

    # --- the student's name ------------------------------------------------------------------

    @property
    def asking(self) -> bool:
        """The page waits for the student's name (the game has not started)."""
        return self._start is not None

    def _show_name_form(self, shown: bool) -> None:
        """The name form alone, or the game without it."""
        self.name_form.layout.display = None if shown else "none"
        for part in (self.main_area, self.setup, self.sheet, self.new_game_btn):
            part.layout.display = "none" if shown else None

    def lead_on(self, onward: Onward) -> None:
        """Where the lesson's end leads (:class:`~tutor.ui.play.round_end.Onward`: the page's
        class code and the assignment its link carried: its next lesson comes next)."""
        self.round_end.onward = replace(onward, class_code=onward.class_code or self.class_code)

    def _named(self, student: str, class_code: str) -> None:
        """The student said their name: their game starts (the session that only filled
        the panels is dropped, having saved nothing), and the page's link says the name, so
        a reload keeps it."""
        start, self._start = self._start, None
        if start is None:
            return
        self.session = start(student, self.lang)
        self._notes_said = 0
        view = self._snapshot()
        self.lang = view.lang
        self.class_code = class_code
        self.round_end.onward = replace(self.round_end.onward, class_code=class_code)
        with self.access.hold_sync():
            self.access.student, self.access.class_code = student, class_code
        self._generation += 1
        self._view = None
        self.setup.show_settings(view.settings)
        self._reset_round_state()
        self._told_step = None
        self._show_name_form(False)
        self.say(self._t(N_("Welcome, {student}: the game starts.")).format(student=student))
        self.refresh(view=view)
        self.kick()

    def _window_width(self, pixels: int) -> None:
        """The page's window is ``pixels`` wide: a phone's gets :data:`PHONE_BOARD`."""
        self.board_slot.resize(*(PHONE_BOARD if pixels < PHONE_BELOW else self._board_size))

    def _guarded(self, action: Callable[P, object]) -> Callable[P, None]:
        """``action`` as a page callback whose unforeseen error the page says (see
        :func:`~tutor.ui.shared.panel.guarded`)."""
        return guarded(action, self._failed)

    def _failed(self, err: Exception, go_on: bool = True) -> None:
        """Say an unforeseen error on the page, redraw, and (``go_on``: the error was not the
        bots' own) let the bots go on."""
        self.say(unforeseen(err, self.lang), "msg")
        try:
            self.refresh()
        except Exception as again:  # the page keeps what it showed; the log says why
            logged(again)
        if go_on:
            self.kick()

    def _bots_failed(self, err: Exception) -> None:
        """A bot step's unforeseen error: logged and said, and the bots stop (going on would
        fail the same way)."""
        logged(err)
        self._failed(err, go_on=False)

    # --- language -----------------------------------------------------------------------------

    def _t(self, message: str) -> str:
        return translator(self.lang)(message)

    def relabel(self) -> None:
        """Every fixed label in the current language."""
        for panel in (self.header, self.help, self.setup, self.tutor, self.round_end,
                      self.sheet, self.name_form):
            panel.relabel(self.lang)
        self.access.lang = self.lang

    def set_lang(self, lang: str) -> None:
        """Switch the language now; the game goes on where it was."""
        self.lang = normalize_lang(lang)
        self.session.set_lang(self.lang)
        self.relabel()
        self.tutor.clear()
        self.refresh()

    def _on_lang(self, lang: str) -> None:
        if lang != self.lang:
            self.set_lang(lang)

    # --- the game -----------------------------------------------------------------------------

    def setup_settings(self) -> GameSettings:
        """The settings the setup panel describes (for :meth:`Session.new_match`)."""
        return self.setup.settings()

    def new_game(self) -> None:
        """Start a new match with the setup panel's settings (mastery carries over)."""
        if self.asking:
            return  # the game starts once the student is named
        self._generation += 1
        try:
            self.session.new_match(**self.setup_settings())
        except (SessionError, ValueError) as err:
            self.say(str(err), "msg")
            self.refresh()
            return
        self._reset_round_state()
        self.say(self._t(N_("A new game starts.")))
        self.refresh()
        self.kick()

    def next_round(self) -> None:
        try:
            self.session.new_round()
        except SessionError as err:
            self.say(str(err), "msg")
            self.refresh()
            return
        self._reset_round_state()
        self.say("")
        self.refresh()
        self.kick()

    def _reset_round_state(self) -> None:
        self.board_slot.reset()
        self.tutor.clear()
        self.last_feedback.value = ""

    def legal_actions(self) -> list[Action]:
        """The moves of the human to move now, as the session's snapshot has them (for
        scripts; the panels read the last refresh's)."""
        return list(self.session.snapshot().legal)

    def play(self, move: Action | object) -> None:
        """Play ``move`` for the human to move (buttons, board clicks and keys end here): a
        legal move, or a game's own move the snapshot offers (its ``extra``)."""
        self.board_slot.selected = None
        try:
            self.session.apply_action(move)
        except (SessionError, ValueError) as err:
            self.say(str(err), "msg")
            self.refresh()
            return
        self.say("")
        self.refresh()
        self.kick()

    def _move_button(self, move: Action | object) -> None:
        """A move button pressed: the move is played and the focus goes to the group of
        moves, not to a button: the moves are drawn again for the next turn, and a focus on
        the first of them made a second Enter (a double press) play a second tile."""
        with self.access.hold_sync():  # the focus goes with the refresh's words: one message
            self.play(move)
            view = self._view
            if view is not None and view.question is None and not view.round_over \
                    and not self.board_slot.covered(view):
                self.access.focus(MOVES_GROUP)

    def move_label(self, move: Action) -> str:
        return move_label(move, self.lang)

    # --- the board's intents ----------------------------------------------------------------

    def select(self, index: int) -> None:
        """A click on hand tile ``index`` (see :meth:`BoardPanel.select`)."""
        self.board_slot.select(index)

    def place_at(self, end: str) -> None:
        """A click on an open end (see :meth:`BoardPanel.place_at`)."""
        self.board_slot.place_at(end)

    def _uncovered(self) -> None:
        self.refresh()
        self.kick()

    # --- messages -----------------------------------------------------------------------------

    def say(self, text: str, kind: str = "info") -> None:
        """Put ``text`` in the status line (and announce it with the next refresh)."""
        self.status.say(text, kind)
        if text:
            self._said.append(text)

    def _message(self, text: str, kind: str) -> None:
        """A panel tells the student something (nothing else changed)."""
        self.say(text, kind)
        if self._view is not None:
            self.status.render(self._view, pending=self._view.question is not None)
        self._announce()

    def _announce(self) -> None:
        """Say what happened since the last announcement, with its tiles in words."""
        said, self._said = self._said, []
        if said:
            tiles = self._view.tileset if self._view is not None else None
            self.access.announce(spoken(" ".join(said), self.lang, tiles))

    # --- the session's steps ----------------------------------------------------------------

    def _step(self) -> float | None:
        """Let the session take its next step (:meth:`Session.advance`: a bot's move, or a
        human's forced draw or pass once they have the screen). Returns the pause to show it
        before the next step, or None when it is someone's choice now."""
        view = self._view
        step = self.session.advance(forced=view is None or not self.board_slot.covered(view))
        if not step.events:
            return None
        if not step.forced:
            self.refresh()
            return PACE * 0.5 if any(isinstance(e, Drew) for e in step.events) else self.pace
        words = forced_words(step, self.lang)
        if words:
            self.say(words)
        self._told_step = step.number  # the message above says it for the student
        self.refresh()
        return self.pace

    def kick(self) -> None:
        """Let the bots (and forced moves) go on, one step every ``pace`` seconds."""
        if self.asking:
            return
        if self._task is not None and not self._task.done() \
                and self._task_generation == self._generation:
            return  # already pacing this game; a task left from an earlier game ends by itself
        loop = running_loop()
        if loop is None or self.pace <= 0:
            try:
                self.run_steps()
            except Exception as err:
                self._bots_failed(err)
            return
        self._task_generation = self._generation
        self._task = loop.create_task(self._paced(self._generation))

    def run_steps(self, limit: int = 10_000) -> int:
        """Take every automatic step now, without pauses (tests, no event loop)."""
        n = 0
        while n < limit and self._step() is not None:
            n += 1
        return n

    async def _paced(self, generation: int) -> None:
        await asyncio.sleep(self.pace)
        while generation == self._generation:
            try:
                pause = self._step()
            except Exception as err:  # never leave a dead task silently: say what went wrong
                self._bots_failed(err)
                return
            if pause is None:
                return
            await asyncio.sleep(pause)

    # --- answers ------------------------------------------------------------------------------

    def _question(self) -> QuestionView | None:
        """The question the page shows (its last snapshot's)."""
        return self._view.question if self._view is not None else None

    def submit(self, text: str) -> None:
        """The student hands in ``text`` as the answer to the question shown (Enter, the
        Submit button, or the keyboard layer): nothing without a question or a text."""
        text = str(text).strip()
        if not text or self._question() is None:
            return
        before = list(self._shown_scores())
        fb = self.session.answer(text)
        self._show_feedback(fb, before)

    def hint(self) -> None:
        """The student asks for the next hint (the Hint button, or H)."""
        q = self._question()
        if q is None or not q.more_hints:
            return  # the last rung was given: the button is disabled, H does nothing
        hint = self.session.hint()
        view = self._snapshot()
        self._saving(view)
        self.tutor.show_hint(hint, self.lang)
        self._said.append(hint)
        self.refresh(view=view)

    def _reveal(self) -> None:
        if self._question() is None:
            return
        before = list(self._shown_scores())
        fb = self.session.reveal()
        self._show_feedback(fb, before)

    def _shown_scores(self) -> tuple[int, ...]:
        view = self._view if self._view is not None else self._snapshot()
        return view.scores_shown

    def _saving(self, view: Snapshot) -> None:
        """After an answer (``view``: the snapshot after it): if the progress file was busy,
        say so and keep trying to save in the background (the answers wait in memory, in
        order, until it is free)."""
        if not view.unsaved:
            return
        self._said.append(view.unsaved_note)  # the status line shows it
        loop = running_loop()
        if loop is not None and (self._saver is None or self._saver.done()):
            self._saver = loop.create_task(self._save_when_free())

    async def _save_when_free(self) -> None:
        while self._view is not None and self._view.unsaved:
            await asyncio.sleep(SAVE_RETRY)
            if self.session.flush():
                self.say(self._t(N_("Your answers are saved.")))
                self.refresh()

    def _show_feedback(self, fb: Feedback, before: list[int]) -> None:
        self.answer_in.value = ""
        self._said.append(fb.message)
        if fb.hint is not None and not fb.done:
            self._said.append(fb.hint.text)
        view = self._snapshot()
        self._saving(view)
        if fb.done:
            self.tutor.clear()
            self.last_feedback.show(fb)
            self._said.extend(self.last_feedback.spoken_answer(fb))
            self.refresh(animate_from=before, view=view)
            self.kick()
        else:
            self.tutor.show_feedback(fb)
            self.refresh(view=view)

    # --- rendering ----------------------------------------------------------------------------

    def _snapshot(self) -> Snapshot:
        """The session's snapshot, with the sheet panel's open section (sheet or progress)."""
        section = self.sheet.selected_index
        return self.session.snapshot(sheet=section == 0, progress=section == 1)

    def refresh(self, animate_from: list[int] | None = None,
                view: Snapshot | None = None) -> None:
        """Redraw every panel from one snapshot of the session (``view``, if just taken),
        then announce what happened and move the focus where the game goes on."""
        before, view = self._view, view or self._snapshot()
        self._view = view
        self.board_slot.render(view)
        legal = self.board_slot.legal(view)
        self.moves.render(legal, view.lang, self._extra(view))
        self.lesson_line.render(view)
        for note in view.notes[self._notes_said:]:  # said once (the first power on power)
            self.say(note)
        self._notes_said = len(view.notes)
        self.status.render(view, pending=view.question is not None)
        self.saving_note.render(view)
        if self.asking:  # no game yet: only what the page has to say about its link
            self.status.value = (f"<div class='ld-msg'>{html.escape(self.status.message)}</div>"
                                 if self.status.message else "")
        self.scores.render(view, animate_from=animate_from)
        self.mastery_html.render(view)
        self.log_panel.render(view)
        self.tutor.render(view)
        self.round_end.render(view)
        self._render_sheet(view)
        if self._told_step is None:  # the page's first: nothing to tell yet
            self._told_step = view.step
        if view.step != self._told_step:  # the step's news, told once by the session
            self._told_step = view.step
            self._said.extend(view.news)
        with self.access.hold_sync():  # focus, words and attributes in one message, not three
            self._follow(before, view)
            self._announce()
            self._send_attributes()

    def _extra(self, view: Snapshot) -> tuple[ExtraMoveView, ...]:
        """The game's own moves on offer (none while the cover is up, as the legal moves)."""
        return () if self.board_slot.covered(view) else view.extra

    def _render_sheet(self, view: Snapshot) -> None:
        """The sheet panel, with what its open section shows (the snapshot has the round's
        score sheet or the student's progress file only while that section is open)."""
        self.sheet.render(view, sheet=view.sheet, progress=view.progress,
                          class_code=self.class_code)

    def _sheet_opened(self) -> None:
        if self._view is not None:
            self._render_sheet(self._snapshot())

    def _follow(self, before: Snapshot | None, view: Snapshot) -> None:
        """Say what changed and move the focus (:func:`tutor.ui.play.focus.follow`)."""
        if self.asking:
            return  # the name form holds the focus; the game has not started
        then = follow(before, view, self.board_slot.covered(view))
        self._said.extend(then.say)
        if then.focus is not None:
            self.access.focus(then.focus, soft=then.soft)

    def _send_attributes(self) -> None:
        """The ARIA attributes of every panel, in the page's language."""
        lang = self.lang
        view = self._view
        legal = self.board_slot.legal(view) if view is not None else ()
        extra = self._extra(view) if view is not None else ()
        attributes: Attributes = {
            ".ld-app": {"role": "main", "aria-label": self._t(N_("Leonard-Domino Tutor"))},
            **self.header.attributes(lang), **self.help.attributes(lang),
            **self.board_slot.attributes(lang), **self.moves.attributes(legal, lang, extra),
            **self.tutor.attributes(lang), **self.round_end.attributes(lang),
            **self.setup.attributes(lang), **self.sheet.attributes(lang),
            **self.scores.attributes(lang), **self.mastery_html.attributes(lang),
            **self.log_panel.attributes(lang), **self.name_form.attributes(lang),
        }
        self.access.set_attributes(attributes)

