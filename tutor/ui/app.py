"""The dashboard: board, moves, tutor panel, scores, score sheet and game setup around a Session."""

from __future__ import annotations

import asyncio
import html
from collections.abc import Callable
from dataclasses import replace
from typing import Any

import ipywidgets as widgets

from engine.events import Drew, Passed
from engine.round import Action, Draw, Pass, Play
from engine.tiles import Tile
from tutor.i18n import N_, normalize_lang, translator
from tutor.questions import seat_name
from tutor.session import Session, SessionError
from tutor.snapshot import Snapshot

from . import panels
from .board import Board
from .layout import Hit
from .panels import SEAT_KINDS, VARIANT_NAMES
from .style import CSS

__all__ = ["TutorApp"]

PACE = 0.5
"""Seconds between two bot moves (a draw is quicker)."""
SAVE_RETRY = 2.0
"""Seconds between two tries to save answers a busy progress file could not take."""


def _running_loop() -> asyncio.AbstractEventLoop | None:
    """The kernel's event loop, when there is a live kernel to pace the bots in.

    Outside a kernel (tests, scripts) there is nobody to watch, and another library's loop
    (e.g. Playwright's in the same test process) must not be borrowed: no pacing then.
    """
    try:
        from IPython import get_ipython
    except ImportError:
        return None
    shell = get_ipython()
    if shell is None or getattr(shell, "kernel", None) is None:
        return None
    try:
        return asyncio.get_running_loop()
    except RuntimeError:
        return None


def _classed(widget: widgets.Widget, *classes: str) -> Any:
    for c in classes:
        widget.add_class(c)
    return widget


class TutorApp(widgets.VBox):  # type: ignore[misc]
    """The whole dashboard as one widget. ``app.session`` is the game; every panel is redrawn
    from ``session.snapshot()`` by :meth:`refresh`."""

    def __init__(self, session: Session | None = None, *, pace: float = PACE,
                 board_size: tuple[int, int] = (800, 470), **settings: Any) -> None:
        super().__init__()
        settings.setdefault("lang", "es")
        self.lang = normalize_lang(settings["lang"])
        self.session = session or Session(**{**settings, "auto_bots": False})
        self.session.auto_bots = False  # the board paces the bots itself
        self.lang = self.session.lang
        self.pace = pace
        self._generation = 0
        self._task: asyncio.Task[None] | None = None
        self._saver: asyncio.Task[None] | None = None
        self._selected: int | None = None
        self._hand: list[Tile] = []
        self._shown_seat: int | None = None
        self._message = ""
        self._message_kind = "info"
        self._log: list[Any] = []
        self._shown_scores: list[int] | None = None
        self._feedback_html = ""
        self._build()
        self._sync_setup_from_session()
        self.relabel()
        self._log_events(self.session.round_events)
        self.refresh()
        self.kick()

    # --- building -----------------------------------------------------------------------------

    def _build(self) -> None:
        W = widgets
        self.style_html = W.HTML(CSS)
        self.title = _classed(W.HTML(), "ld-title")
        self.lang_toggle = _classed(W.ToggleButtons(options=[("Español", "es"), ("English", "en")],
                                                    value=self.lang,
                                                    style={"button_width": "80px"}), "ld-lang")
        self.lang_toggle.observe(self._on_lang, "value")
        self.new_game_btn = _classed(W.Button(button_style="success", icon="refresh"),
                                     "ld-new-game")
        self.new_game_btn.on_click(lambda _b: self.new_game())
        header = _classed(W.HBox([self.title, self.lang_toggle, self.new_game_btn]), "ld-header")

        # Setup.
        self.variant_dd = _classed(W.Dropdown(options=list(VARIANT_NAMES),
                                              layout=W.Layout(width="300px")), "ld-variant")
        self.players_dd = _classed(W.Dropdown(options=[2, 3, 4, 5], value=2,
                                              layout=W.Layout(width="160px")), "ld-players")
        self.players_dd.observe(lambda _c: self._seat_visibility(), "value")
        self.seat_dds = [_classed(W.Dropdown(options=[], layout=W.Layout(width="190px")),
                                  "ld-seat") for _ in range(5)]
        self.rounds_in = _classed(W.BoundedIntText(value=3, min=1, max=20,
                                                   layout=W.Layout(width="160px")), "ld-rounds")
        self.seed_in = _classed(W.Text(value="", layout=W.Layout(width="220px")), "ld-seed")
        self.ask_power = _classed(W.Checkbox(value=True, indent=False), "ld-ask-power")
        self.ask_round = _classed(W.Checkbox(value=True, indent=False), "ld-ask-round-end")
        self.ask_bots = _classed(W.Checkbox(value=False, indent=False), "ld-ask-bots")
        self.scaffold_cb = _classed(W.Checkbox(value=False, indent=False), "ld-scaffold")
        self.setup_hint = W.HTML()
        setup_box = W.VBox([
            W.HBox([self.variant_dd, self.players_dd, self.rounds_in, self.seed_in]),
            W.HBox(self.seat_dds, layout=W.Layout(flex_flow="row wrap")),
            W.HBox([self.ask_power, self.ask_round, self.ask_bots, self.scaffold_cb]),
            self.setup_hint,
        ])
        self.setup = _classed(W.Accordion(children=[setup_box]), "ld-setup")
        self.setup.selected_index = None

        # Board and side panel.
        bw, bh = 800, 470
        self.board = Board(bw, bh)
        self.board.on_click(self._on_board_click)
        self.status = _classed(W.HTML(), "ld-status")
        self.scores = _classed(W.HTML(), "ld-scores", "ld-card")
        self.mastery_html = _classed(W.HTML(), "ld-mastery", "ld-card")
        self.log_html = _classed(W.HTML(), "ld-log", "ld-card")
        side = _classed(W.VBox([self.scores, self.mastery_html, self.log_html],
                               layout=W.Layout(width="360px")), "ld-side")
        self.cover_text = W.HTML()
        self.cover_btn = _classed(W.Button(button_style="primary",
                                           layout=W.Layout(width="auto")), "ld-cover-ok")
        self.cover_btn.on_click(lambda _b: self._uncover())
        self.cover = _classed(W.VBox([self.cover_text, self.cover_btn],
                                     layout=W.Layout(width=f"{bw}px", height=f"{bh}px",
                                                     justify_content="center")), "ld-cover")
        self.board_slot = W.Box([self.board.canvas])
        # Moves.
        self.moves = _classed(W.HBox(layout=W.Layout(width=f"{bw}px")), "ld-moves")

        # Tutor panel.
        self.question = _classed(W.HTMLMath(), "ld-question")
        # The value follows every keystroke and Enter sends a "submit" message, so leaving the
        # box (e.g. to press Hint) never hands in a half-typed answer.
        self.answer_in = _classed(W.Text(continuous_update=True,
                                         layout=W.Layout(width="200px")), "ld-answer")
        self.answer_in.on_msg(self._on_answer_msg)
        self.submit_btn = _classed(W.Button(button_style="primary"), "ld-submit")
        self.submit_btn.on_click(lambda _b: self._submit(self.answer_in.value))
        self.hint_btn = _classed(W.Button(button_style="warning", icon="lightbulb-o"), "ld-hint")
        self.hint_btn.on_click(lambda _b: self._hint())
        self.reveal_btn = _classed(W.Button(icon="eye"), "ld-reveal")
        self.reveal_btn.on_click(lambda _b: self._reveal())
        self.feedback = _classed(W.HTMLMath(), "ld-feedback")
        self.tutor = _classed(W.VBox([
            self.question,
            W.HBox([self.answer_in, self.submit_btn, self.hint_btn, self.reveal_btn]),
            self.feedback]), "ld-tutor")
        self.last_feedback = _classed(W.HTMLMath(), "ld-feedback-done")

        # Round end.
        self.summary = _classed(W.HTML(), "ld-summary")
        self.match_table = _classed(W.HTML(), "ld-match")
        self.next_round_btn = _classed(W.Button(button_style="success"), "ld-next-round")
        self.next_round_btn.on_click(lambda _b: self.next_round())
        self.new_match_btn = _classed(W.Button(button_style="info"), "ld-new-match")
        self.new_match_btn.on_click(lambda _b: self.new_game())
        self.round_end = _classed(W.VBox([self.summary, self.match_table,
                                          W.HBox([self.next_round_btn, self.new_match_btn])]),
                                  "ld-round-end")

        # Score sheet.
        self.sheet_html = _classed(W.HTML(), "ld-sheet-table")
        self.sheet_links = _classed(W.HTML(), "ld-downloads")
        self.progress_html = _classed(W.HTML(), "ld-progress")
        self.sheet = _classed(W.Accordion(children=[W.VBox([self.sheet_links,
                                                            self.sheet_html]),
                                                    self.progress_html]), "ld-sheet")
        self.sheet.selected_index = None
        # The sheet replays the round and the progress file is read only when they are open.
        self.sheet.observe(lambda _c: self._render_sheet(self.session.snapshot()),
                           "selected_index")

        play_col = W.VBox([self.board_slot, self.moves, self.tutor, self.last_feedback,
                           self.round_end], layout=W.Layout(width=f"{bw + 4}px"))
        main = _classed(W.HBox([play_col, side]), "ld-main")
        self.children = [self.style_html, header, self.setup, self.status, main, self.sheet]
        self.add_class("ld-app")

    # --- language -----------------------------------------------------------------------------

    def _t(self, message: str) -> str:
        return translator(self.lang)(message)

    def relabel(self) -> None:
        """Every fixed label in the current language."""
        _ = translator(self.lang)
        self.title.value = "<h2>" + html.escape(_("Leonard-Domino Tutor")) + "</h2>"
        self.new_game_btn.description = _("New game")
        self.setup.set_title(0, _("Game setup (applies to the next new game)"))
        variant = self.variant_dd.value
        self.variant_dd.options = [(_(label), key) for key, label in VARIANT_NAMES.items()]
        self.variant_dd.value = variant
        self.variant_dd.description = _("Game")
        self.players_dd.description = _("Players")
        self.rounds_in.description = _("Rounds")
        self.seed_in.description = _("Seed")
        self.seed_in.placeholder = _("blank = random")
        for i, dd in enumerate(self.seat_dds):
            value = dd.value
            dd.options = [(_(label), key) for key, label in SEAT_KINDS.items()]
            dd.value = value if value in SEAT_KINDS else ("human" if i == 0 else "greedy")
            dd.description = _("Seat {seat}").format(seat=seat_name(i))
        self.ask_power.description = _("Ask about power plays")
        self.ask_round.description = _("Ask at the round's end")
        self.ask_bots.description = _("Ask about the bots' plays too")
        self.scaffold_cb.description = _("Ask for T first")
        self.setup_hint.value = ("<span class='ld-legend'>" + html.escape(
            _("Several human seats play at one screen: the hands are hidden between turns.")) +
            "</span>")
        self.submit_btn.description = _("Check")
        self.hint_btn.description = _("Hint")
        self.reveal_btn.description = _("Show me")
        self.answer_in.placeholder = _("your answer, then Enter")
        self.next_round_btn.description = _("Next round")
        self.new_match_btn.description = _("New match")
        self.sheet.set_title(0, _("Score sheet (Leonard system)"))
        self.sheet.set_title(1, _("My progress (download it to hand it in)"))

    def set_lang(self, lang: str) -> None:
        """Switch the language now; the game goes on where it was."""
        self.lang = normalize_lang(lang)
        self.session.set_lang(self.lang)
        if self.lang_toggle.value != self.lang:
            self.lang_toggle.value = self.lang
        self.relabel()
        self._feedback_html = ""
        self.refresh()

    def _on_lang(self, change: dict[str, Any]) -> None:
        if change["new"] != self.lang:
            self.set_lang(change["new"])

    # --- setup --------------------------------------------------------------------------------

    def _sync_setup_from_session(self) -> None:
        s = self.session.settings
        self.variant_dd.value = s["variant"]
        self.players_dd.value = s["players"]
        self.rounds_in.value = s["rules"].rounds
        self.seed_in.value = "" if s["seed"] is None else str(s["seed"])
        bots = s["bots"]
        for i, dd in enumerate(self.seat_dds):
            if i in s["humans"]:
                kind = "human"
            elif isinstance(bots, str):
                kind = bots
            else:
                kind = (bots[i] if len(bots) == s["players"] else "greedy") or "greedy"
            dd.options = [(k, k) for k in SEAT_KINDS]
            dd.value = kind if kind in SEAT_KINDS else "greedy"
        self.ask_power.value = "power" in s["ask"]
        self.ask_round.value = "round_end" in s["ask"]
        self.ask_bots.value = bool(s["ask_bot_plays"])
        self.scaffold_cb.value = bool(s["scaffold"])
        self._seat_visibility()

    def _seat_visibility(self) -> None:
        for i, dd in enumerate(self.seat_dds):
            dd.layout.display = None if i < self.players_dd.value else "none"

    def setup_settings(self) -> dict[str, Any]:
        """The settings the setup panel describes (for :meth:`Session.new_match`)."""
        players = self.players_dd.value
        kinds = [dd.value for dd in self.seat_dds[:players]]
        humans = tuple(i for i, k in enumerate(kinds) if k == "human")
        bots = [None if k == "human" else k for k in kinds]
        seed_text = self.seed_in.value.strip()
        seed = int(seed_text) if seed_text.lstrip("-").isdigit() else None
        ask = {k for k, on in (("power", self.ask_power.value),
                               ("round_end", self.ask_round.value)) if on}
        return dict(variant=self.variant_dd.value, players=players, humans=humans, bots=bots,
                    rounds=self.rounds_in.value,
                    seed=seed, ask=ask, scaffold=self.scaffold_cb.value,
                    ask_bot_plays=self.ask_bots.value, auto_bots=False)

    def new_game(self) -> None:
        """Start a new match with the setup panel's settings (mastery carries over)."""
        self._generation += 1
        try:
            events = self.session.new_match(**self.setup_settings())
        except (SessionError, ValueError) as err:
            self._say(str(err), "msg")
            self.refresh()
            return
        self._reset_round_state()
        self._log = []
        self._shown_scores = None
        self._log_events(events)
        self._say(self._t(N_("A new game starts.")))
        self.refresh()
        self.kick()

    def next_round(self) -> None:
        try:
            events = self.session.new_round()
        except SessionError as err:
            self._say(str(err), "msg")
            self.refresh()
            return
        self._reset_round_state()
        self._log_events(events)
        self._say("")
        self.refresh()
        self.kick()

    def _reset_round_state(self) -> None:
        self._selected = None
        self._shown_seat = None
        self._feedback_html = ""
        self.last_feedback.value = ""

    # --- messages and log ---------------------------------------------------------------------

    def _say(self, text: str, kind: str = "info") -> None:
        self._message, self._message_kind = text, kind

    def _log_events(self, events: list[Any]) -> None:
        self._log = (self._log + list(events))[-8:]

    # --- the board ----------------------------------------------------------------------------

    def _covered(self, view: Snapshot) -> bool:
        """Hot seat: several humans, one to move who has not taken the screen yet."""
        seat = view.human_to_move
        return len(self.session.humans) > 1 and seat is not None and seat != self._shown_seat

    def _uncover(self) -> None:
        view = self.session.snapshot()
        self._shown_seat = view.human_to_move
        self.refresh()
        self.kick()

    def legal_moves(self) -> list[Action]:
        return self.session.legal_moves()

    def _plays_for(self, index: int) -> list[Play]:
        tile = self._hand[index]
        return [m for m in self.legal_moves() if isinstance(m, Play) and m.tile == tile]

    def _on_board_click(self, hit: Hit, x: float, y: float) -> None:
        if hit.kind == "hand":
            self.select(hit.index)
        elif hit.kind == "end" and hit.end is not None:
            self.place_at(hit.end)

    def select(self, index: int) -> None:
        """A click on hand tile ``index``: place it when it fits one way only, else light up
        the ends it fits."""
        view = self.session.snapshot()
        if self.session.pending_question is not None:
            self._say(self._t(N_("Answer the question first (or press Show me).")), "msg")
        elif view.human_to_move is None or self._covered(view):
            self._say(self._t(N_("Wait: it is not your turn.")), "msg")
        elif not 0 <= index < len(self._hand):
            return
        else:
            plays = self._plays_for(index)
            if not plays:
                self._selected = None
                self._say(self._t(N_("{tile} does not fit either open end.")).format(
                    tile=self._hand[index]), "msg")
            elif len(plays) == 1:
                self.play(plays[0])
                return
            else:
                self._selected = index
                self._say(self._t(N_("{tile} fits both ends: click the lit end where it "
                                     "goes.")).format(tile=self._hand[index]))
                self.board.mark(selected=index, fit_ends=tuple(str(p.end) for p in plays))
                self._render_status(view)
                return
        self._render_status(view)

    def place_at(self, end: str) -> None:
        """A click on an open end: place the selected tile there."""
        view = self.session.snapshot()
        if self._selected is None:
            if view.human_to_move is not None and not self._covered(view):
                self._say(self._t(N_("First click one of your tiles, then an end.")), "msg")
                self._render_status(view)
            return
        plays = [p for p in self._plays_for(self._selected) if p.end == end]
        if not plays:
            self._say(self._t(N_("That tile does not fit there.")), "msg")
            self._render_status(view)
            return
        self.play(plays[0])

    def play(self, move: Action) -> None:
        """Play ``move`` for the human to move (buttons and board clicks both end here)."""
        self._selected = None
        try:
            events = self.session.play(move)
        except (SessionError, ValueError) as err:
            self._say(str(err), "msg")
            self.refresh()
            return
        self._log_events(events)
        self._say("")
        self.refresh()
        self.kick()

    # --- bots and forced moves ----------------------------------------------------------------

    def _forced(self) -> Action | None:
        """The human's move when there is no choice (draw or pass)."""
        moves = self.legal_moves()
        if len(moves) == 1 and isinstance(moves[0], (Draw, Pass)):
            return moves[0]
        return None

    def _step(self) -> float | None:
        """Take one automatic step (a bot's move or a forced draw/pass). Returns the pause
        to show it before the next step, or None when it is someone's choice now."""
        s = self.session
        view = s.snapshot()
        if s.pending_question is not None or view.round_over:
            return None
        if s.bot_pending():
            events = s.step_bot()
            self._log_events(events)
            self.refresh()
            return PACE * 0.5 if any(isinstance(e, Drew) for e in events) else self.pace
        forced = self._forced()
        if forced is not None and not self._covered(view):
            seat = view.human_to_move
            assert seat is not None  # a forced move is a human's
            events = s.play(forced)
            self._log_events(events)
            drew = [e for e in events if isinstance(e, Drew)]
            if drew:
                self._say(self._t(N_("No tile fits, so you draw: {tile}.")).format(
                    tile=drew[-1].tile))
            elif any(isinstance(e, Passed) for e in events):
                self._say(self._t(N_("No tile fits and the pile is empty: player {seat} "
                                     "passes.")).format(seat=seat_name(seat)))
            self.refresh()
            return self.pace
        return None

    def kick(self) -> None:
        """Let the bots (and forced moves) go on, one step every ``pace`` seconds."""
        if self._task is not None and not self._task.done():
            return
        loop = _running_loop()
        if loop is None or self.pace <= 0:
            self.run_steps()
            return
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
                self._say(str(err), "msg")
                self.refresh()
                return
            if pause is None:
                return
            await asyncio.sleep(pause)

    # --- the tutor panel ----------------------------------------------------------------------

    def _on_answer_msg(self, _widget: Any, content: dict[str, Any], _buffers: Any) -> None:
        if isinstance(content, dict) and content.get("event") == "submit":
            self._submit(self.answer_in.value)

    def _submit(self, text: str) -> None:
        text = str(text).strip()
        if not text or self.session.pending_question is None:
            return
        before = list(self.session.snapshot().scores_shown)
        fb = self.session.answer(text)
        self._show_feedback(fb, before)

    def _hint(self) -> None:
        if self.session.pending_question is None:
            return
        hint = self.session.hint()
        self._saving()
        self._feedback_html = "<span class='ld-warn'>" + html.escape(hint) + "</span>"
        self.refresh()

    def _reveal(self) -> None:
        if self.session.pending_question is None:
            return
        before = list(self.session.snapshot().scores_shown)
        fb = self.session.reveal()
        self._show_feedback(fb, before)

    def _saving(self) -> None:
        """After an answer: if the progress file was busy, say so and keep trying to save in
        the background (the answers wait in memory, in order, until it is free)."""
        if not self.session.unsaved:
            return
        self._say(self.session.unsaved_message or "", "msg")
        loop = _running_loop()
        if loop is not None and (self._saver is None or self._saver.done()):
            self._saver = loop.create_task(self._save_when_free())

    async def _save_when_free(self) -> None:
        while self.session.unsaved:
            await asyncio.sleep(SAVE_RETRY)
            if self.session.flush():
                self._say(self._t(N_("Your answers are saved.")))
                self.refresh()

    def _show_feedback(self, fb: Any, before: list[int]) -> None:
        body = panels.feedback_html(fb)
        self.answer_in.value = ""
        self._saving()
        if fb.done:
            self._feedback_html = ""
            self.last_feedback.value = panels.answered_html(fb, body)
            self._log_events(list(fb.events))
            self.refresh(animate_from=before)
            self.kick()
        else:
            self._feedback_html = body
            self.refresh()

    # --- rendering ----------------------------------------------------------------------------

    def refresh(self, animate_from: list[int] | None = None) -> None:
        """Redraw every panel from the session's view state."""
        s = self.session
        view = s.snapshot()
        _ = translator(self.lang)
        covered = self._covered(view)
        hand_view = view
        humans = s.humans
        if not humans or covered or (len(humans) > 1 and view.human_to_move is None):
            hand_view = replace(view, hand=())  # hot seat: no hand on show between turns
        self._hand = list(hand_view.hand)
        legal = self.legal_moves() if not covered else []
        playable = tuple(i for i, t in enumerate(self._hand)
                         if any(isinstance(m, Play) and m.tile == t for m in legal))
        if self._selected is not None and self._selected not in playable:
            self._selected = None
        fit: tuple[str, ...] = ()
        if self._selected is not None:
            fit = tuple(str(p.end) for p in self._plays_for(self._selected))
        labels = panels.board_labels(view, self.lang)
        self.board.show(hand_view, labels=labels, selected=self._selected, fit_ends=fit,
                        playable=playable if legal else (), last=view.last_placed)
        self.board_slot.children = [self.cover if covered else self.board.canvas]
        if covered and view.human_to_move is not None:
            who = seat_name(view.human_to_move)
            self.cover_text.value = panels.cover_html(view.human_to_move, self.lang)
            self.cover_btn.description = _("I am player {seat}: show my tiles").format(seat=who)
        self._render_moves(legal, covered)
        self._render_status(view)
        self._render_scores(view, animate_from)
        self._render_mastery(view)
        self._render_log()
        self._render_tutor(view)
        self._render_round_end(view)
        self._render_sheet(view)

    def move_label(self, move: Action) -> str:
        return panels.move_label(move, self.lang)

    def _render_moves(self, legal: list[Action], covered: bool) -> None:
        buttons = []
        for m in legal:
            b = _classed(widgets.Button(description=self.move_label(m),
                                        tooltip=str(m),
                                        layout=widgets.Layout(width="auto")), "ld-move")
            if isinstance(m, Play) and m.tile.is_power:
                b.button_style = "warning"
            b.on_click(self._move_handler(m))
            buttons.append(b)
        self.moves.children = buttons

    def _move_handler(self, move: Action) -> Callable[[Any], None]:
        return lambda _b: self.play(move)

    def _render_status(self, view: Snapshot) -> None:
        self.status.value = panels.status_html(
            view, self.lang, pending=self.session.pending_question is not None,
            message=self._message, message_kind=self._message_kind)

    def _render_scores(self, view: Snapshot, animate_from: list[int] | None) -> None:
        new = list(view.scores_shown)
        if animate_from is not None and animate_from != new and _running_loop() is not None:
            _running_loop().create_task(self._animate(animate_from, new))  # type: ignore[union-attr]
        else:
            self.scores.value = self._scores_html(view, new)
        self._shown_scores = new

    async def _animate(self, old: list[int], new: list[int]) -> None:
        steps = 8
        for k in range(1, steps + 1):
            cur = [round(o + (n - o) * k / steps) for o, n in zip(old, new, strict=False)]
            self.scores.value = self._scores_html(self.session.snapshot(), cur, flash=(old, new))
            await asyncio.sleep(0.07)
        await asyncio.sleep(0.9)
        self.scores.value = self._scores_html(self.session.snapshot(),
                                              list(self.session.snapshot().scores_shown))

    def _scores_html(self, view: Snapshot, scores: list[int],
                     flash: tuple[list[int], list[int]] | None = None) -> str:
        return panels.scores_html(view, self.lang, humans=self.session.humans,
                                  bots=self.session.bots, scores=scores, flash=flash)

    def _render_mastery(self, view: Snapshot) -> None:
        self.mastery_html.value = panels.mastery_html(view, self.lang)

    def _render_log(self) -> None:
        self.log_html.value = panels.log_html(map(self.session.describe, self._log), self.lang)

    def _render_tutor(self, view: Snapshot) -> None:
        q = view.question
        self.tutor.layout.display = None if q else "none"
        if not q:
            return
        self.question.value = panels.question_html(q, self.lang)
        self.feedback.value = self._feedback_html

    def _render_round_end(self, view: Snapshot) -> None:
        over = view.round_over
        self.round_end.layout.display = None if over else "none"
        if not over:
            return
        s = self.session
        pending = s.pending_question is not None
        self.summary.value = panels.round_summary_html(
            s.round.result, s.round_events, s.round.players, self.lang, pending=pending)
        self.match_table.value = panels.match_html(s.match, view, self.lang, pending=pending)
        self.next_round_btn.layout.display = (
            None if not view.match_over and not pending else "none")
        self.new_match_btn.layout.display = None if not pending else "none"

    def _render_sheet(self, view: Snapshot) -> None:
        if self.sheet.selected_index == 1:
            self.progress_html.value = panels.progress_html(self.session.store, view.student,
                                                            self.lang)
            return
        if self.sheet.selected_index != 0 or view.hiding:
            return  # closed, or it would show the points the question asks for
        sheet = self.session.sheet()
        if sheet is None:
            self.sheet_html.value = ""
            return
        table = sheet.to_html()
        self.sheet_links.value = panels.sheet_links_html(table, sheet.to_csv(), view.round,
                                                         self.lang)
        self.sheet_html.value = table
