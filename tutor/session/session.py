"""A tutored game: the one object the dashboard, the terminal and the simulated students
share. It holds its parts and calls them: the game's loop (:mod:`tutor.session.game_loop`:
the engine's match and the bots in their seats), the questions (asked by
:mod:`tutor.teaching.asking`), the lesson's tally (:mod:`tutor.session.lesson_tally`) and the
saving (:mod:`tutor.session.saving`); the snapshot a screen draws from is built from their
views (:func:`build_snapshot`).

Its interface, in the manner of OpenSpiel's, is the loop's: :meth:`Session.current_player`,
:meth:`Session.waiting`, :meth:`Session.legal_actions`, :meth:`Session.apply_action`,
:meth:`Session.returns`; :meth:`Session.advance` is the one loop (a bot's move, a human's
forced draw or pass).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from os import PathLike
from typing import TYPE_CHECKING

from engine.bots import Bot, make_bot
from engine.events import Event, Placed
from engine.match import Match
from engine.round import Action, Round
from engine.rules import HouseRules, RulesError
from engine.sheet import ScoreSheet
from engine.tiles import Tile
from tutor.course.lesson_end import (
    DEFAULT_MAX_MINUTES,
    DEFAULT_MAX_QUESTIONS,
    EndReason,
    LessonSummary,
    SkillSummary,
)
from tutor.course.lessons import Lesson, lesson_params, load_lesson
from tutor.games import game
from tutor.i18n import N_, normalize_lang, translator
from tutor.session.game_loop import GameLoop, GameView, Step
from tutor.session.lesson_tally import LessonTally
from tutor.session.narration import describe_event
from tutor.session.saving import NOT_SAVED_YET, REFUSED, STORE_DOWN, Recorder
from tutor.session.settings import (
    SETTINGS,
    Deals,
    GameSettings,
    LessonOverrides,
    LessonSettings,
    MatchChanges,
    SessionError,
    SessionKeywords,
    bot_names,
    check_settings,
    checked_clock,
    deal_key,
    open_store,
)
from tutor.session.snapshot import (
    WAIT_MOVE,
    WAIT_QUESTION,
    WAIT_ROUND,
    ExtraMoveView,
    MatchEndView,
    MatchRow,
    ProgressFile,
    QuestionView,
    RoundSummary,
    ScoreSheetView,
    Snapshot,
    StudentAnswers,
    export_progress,
)
from tutor.teaching.asking import ASK_KINDS, Asker, AskingView, Feedback, Pending, note_text
from tutor.teaching.counts import SkillCounts
from tutor.teaching.hints import Hint
from tutor.teaching.mastery import Mastery, Params, default_params
from tutor.teaching.practice import Plan
from tutor.teaching.questions import Question, seat_name
from tutor.teaching.replay import reviews_due

if TYPE_CHECKING:
    from typing import Unpack

    from tutor.course.lessons import Lesson
    from tutor.storage.progress_store import ProgressStore
    from tutor.teaching.review import Due

__all__ = ["ASK_KINDS", "NOT_SAVED_YET", "WAIT_MOVE", "WAIT_QUESTION", "WAIT_ROUND", "Deals",
           "Feedback", "GameSettings", "LessonOverrides", "LessonSettings", "LessonSummary",
           "MatchChanges", "Session", "SessionError", "SessionKeywords", "SkillSummary", "Step",
           "bot_names", "describe_event"]

_WHY_NOT = {
    WAIT_QUESTION: N_("Answer the question first (or ask to see the answer)."),
    WAIT_ROUND: N_("The round is over: start the next round."),
    None: N_("It is not your turn."),
}
"""Why :meth:`Session.apply_action` refuses a move, by what the game waits for."""


PRACTICE_DEAL = N_("You have played this deal before, so this game is practice: your answers "
                   "here do not count toward mastery. For answers that count, start a new game "
                   "with a new seed (or none).")
"""Said on the play page when a match replays a deal the student played before (issue 51)."""


class Session:
    """Students playing a match against bots, with questions on what they compute.

    The dashboard, the terminal and the simulated students drive the same object:
    :meth:`advance` (the game's next step, the only loop: nothing else moves a bot),
    :meth:`apply_action`, :meth:`answer`, :meth:`hint`, :meth:`reveal`, :meth:`snapshot`.
    The score is decided by the engine when a tile is placed; answers never change it. Each
    human seat is a student of its own (``students``; by default the first is ``student``
    and the others ``student (C)`` …).
    """

    def __init__(
        self,
        players: int = 2,
        humans: Sequence[int] = (0,),
        bots: str | Sequence[str | None] = "greedy",
        rounds: int = 3,
        seed: int | None = None,
        lang: str = "es",
        ask: Iterable[str] = ("power", "round_end"),
        scaffold: bool | Iterable[str] = False,
        ask_bot_plays: bool = False,
        student: str = "anon",
        store: ProgressStore | str | PathLike[str] | None = None,
        lesson: str = "free-play",
        bkt: Params | None = None,
        *,
        variant: str = "leonard",
        rules: HouseRules | None = None,
        deals: Deals | None = None,
        targets: Iterable[str] = (),
        drill: bool = True,
        students: dict[int, str] | None = None,
        max_questions: int | None = DEFAULT_MAX_QUESTIONS,
        max_minutes: float | None = DEFAULT_MAX_MINUTES,
        clock: Callable[[], datetime] | None = None,
        assignment: str | None = None,
    ) -> None:
        self.lang = normalize_lang(lang)
        self.student = student
        self.lesson = lesson
        self.params = bkt or default_params()
        self.clock = checked_clock(clock, self.lang)
        self.store, self._owns_store = open_store(store, self.lang)
        self.recorder = (Recorder(self.store, lesson, self.clock, assignment)
                         if self.store is not None else None)
        self.session_id = self.recorder.session_id if self.recorder else ""
        self._ends_noted: set[tuple[int, str]] = set()
        """The lesson ends recorded (match number, reason): each once (:meth:`_note_end`)."""
        self.lesson_info: Lesson | None = None
        """The :class:`tutor.course.lessons.Lesson` the session plays (set by
        :meth:`from_lesson`)."""
        self.match_number = 0
        self.revealed: dict[str, set[tuple[str, str, int | None]]] = {}
        """Per student, the numbers of the questions "Show me" revealed in this session (the
        lesson's): a right answer to them later is no proof, in any match (issue 51)."""
        self.notes_said: list[str] = []
        """The notes the tutor said in this session, in order (:data:`tutor.teaching.asking.NOTES`:
        each once per student, e.g. why a power tile against a power tile asks nothing)."""
        self.tally = LessonTally(lesson=lesson, params=self.params, recorder=self.recorder,
                                  clock=self.clock, max_questions=max_questions,
                                  max_minutes=max_minutes)
        """The lesson's counts: each student's mastery, the lesson's and the match's tallies,
        why the lesson ends (:class:`~tutor.session.lesson_tally.LessonTally`)."""
        self._setup(players=players, humans=humans, bots=bots, rounds=rounds, seed=seed,
                    ask=ask, scaffold=scaffold, ask_bot_plays=ask_bot_plays, variant=variant,
                    rules=rules, deals=deals, targets=targets,
                    drill=drill, students=students)

    @property
    def max_questions(self) -> int | None:
        """A lesson's cap: questions on its targets per student (None: no such cap)."""
        return self.tally.max_questions

    @property
    def max_minutes(self) -> float | None:
        """A lesson's cap in minutes, read off ``clock`` (None: no such cap)."""
        return self.tally.max_minutes

    @classmethod
    def from_lesson(cls, lesson: Lesson | str, *, lang: str = "es", student: str = "anon",
                    store: ProgressStore | str | PathLike[str] | None = None,
                    seed: int | None = None, assignment: str | None = None,
                    **overrides: Unpack[LessonOverrides]) -> Session:
        """A session with a lesson's settings (a :class:`tutor.course.lessons.Lesson` or its id);
        ``overrides`` change single settings (e.g. ``players=3``); ``assignment``: the id of
        the assignment whose link opened it (its rows carry it)."""
        if not isinstance(lesson, Lesson):
            lesson = load_lesson(lesson, lang)
        settings: LessonSettings = {
            "variant": lesson.variant, "players": lesson.players, "humans": lesson.humans,
            "bots": list(lesson.bots), "rounds": lesson.rounds,
            "seed": lesson.seed if seed is None else seed, "ask": lesson.ask,
            "scaffold": lesson.scaffold, "ask_bot_plays": lesson.ask_bot_plays,
            "bkt": lesson.mastery, "rules": lesson.rules, "targets": lesson.targets,
            "drill": lesson.drill, "max_questions": lesson.max_questions,
            "max_minutes": lesson.max_minutes, **overrides}
        if "deals" not in overrides and not {"variant", "players", "humans", "rounds",
                                             "rules"} & set(overrides):
            # prepared deals are the same whatever the seed (the same game each time: issue
            # 51 keys them by their tiles); else searched again for each match's seed
            settings["deals"] = ([dict(d) for d in lesson.deals] if lesson.deals
                                 else lesson.deals_for)
        bots = settings["bots"]
        seats = settings["players"] - len(settings["humans"])
        if not isinstance(bots, str) and bots and len(bots) not in (seats, settings["players"]):
            settings["bots"] = [bots[i % len(bots)] for i in range(seats)]  # lesson's bots cycle
        session = cls(lang=lang, student=student, store=store, lesson=lesson.id,
                      assignment=assignment, **settings)
        session.lesson_info = lesson
        return session


    # --- setup ------------------------------------------------------------------------------

    def _setup(self, **s: Unpack[GameSettings]) -> None:
        if s.get("seed") is None and self.recorder is not None and self.recorder.shared \
                and not isinstance(s.get("deals"), list):
            # A class's store deals every match from a seed it records (issue 51): its
            # service deals the game again from it to check the answers about its moves. A
            # lesson's prepared deals are one game without a seed (:func:`deal_key`).
            s["seed"] = random.SystemRandom().randrange(2**31)
        c = check_settings(s, self.lang)
        players, humans, rules = c.players, c.humans, c.rules
        deals = s["deals"](s["seed"]) if callable(s["deals"]) else s["deals"]
        bot_seats = [seat for seat in range(players) if seat not in humans]
        try:
            match = Match(s["variant"], players, rules, seed=s["seed"], deals=deals)
            bots: dict[int, Bot] = {
                seat: make_bot(name or "greedy",
                               None if s["seed"] is None else s["seed"] * 1009 + seat)
                for seat, name in zip(bot_seats, c.bots, strict=True)}
        except RulesError as err:
            raise self._error(N_("The game settings are not valid: {error}."),
                              error=str(err)) from None
        students = self._students(humans, s["students"])
        self.settings: GameSettings = {**s, "ask": c.ask, "humans": humans, "rules": rules,
                                       "targets": c.targets}
        self.ask = c.ask
        self.seed = s["seed"]
        if self.match_number == 0:
            self.game = GameLoop(match, bots, humans, players,
                                 question_waits=lambda: self.asker.pending is not None,
                                 moved=self._moved)
            """The game's loop: the match, the bots, whose move it is (:class:`GameLoop`)."""
        else:
            self.game.next_match(match, bots, humans, players)
        self.students = students
        self.match_number += 1
        if self.recorder is not None:
            self.recorder.playing(self.match_number, match)
        self.tally.start_match()
        self.plan = Plan(targets=c.targets, scaffolds=c.scaffolds, drill=bool(s["drill"]),
                         ask_bot_plays=bool(s["ask_bot_plays"]), game=s["variant"])
        rng = random.Random(None if self.seed is None else self.seed * 7919 + self.match_number)
        self.deal = deal_key(s, c)
        """What makes this match the same game as another (:func:`deal_key`; None: no seed)."""
        self.replayed = frozenset(
            seat for seat, name in students.items()
            if self.recorder is not None and not self.recorder.first_deal(name, self.deal))
        """The seats whose student played this deal before, on a class server (issue 51):
        the match is practice for them, its answers no evidence (:attr:`practice_note`)."""
        self.asker = Asker(lang=self.lang, plan=self.plan, ask=c.ask, students=students,
                           masteries={seat: self.tally.mastery(name) for seat, name in
                                      students.items()},
                           players=players, rng=rng, recorder=self.recorder,
                           symbol_value=rules.symbol_value, tileset=match.current.tileset,
                           id_prefix=f"m{self.match_number}-", rules=rules,
                           replayed=self.replayed, shown=self.revealed)
        self._mix_in_reviews()

    def warm_up(self) -> None:
        """Compute ahead what the first question's evidence needs: what the lesson's questions
        can tell apart (:class:`tutor.teaching.coverage.LazyCoverage`, a tenth of a second
        once per kernel). A live page calls it once the board is out."""
        len(self.asker.cover)

    def _students(self, humans: tuple[int, ...], given: dict[int, str] | None) -> dict[int, str]:
        names = dict(given or {})
        for k, seat in enumerate(humans):
            names.setdefault(seat, self.student if k == 0
                             else f"{self.student} ({seat_name(seat)})")
        students = {seat: names[seat] for seat in humans}
        if self.recorder is not None:
            for name in students.values():
                self.recorder.start(name)
        return students

    def new_match(self, **changes: Unpack[MatchChanges]) -> list[Event]:
        """Start a new match with the same settings except ``changes`` (any constructor
        setting but the student's). Without a ``seed`` a seeded session moves to seed + 1,
        so the new match has a new deal. Mastery and the progress store carry over; the
        lesson starts again (its tally, its clock and its minimum of rounds: see
        :attr:`lesson_over`)."""
        unknown = set(changes) - set(SETTINGS) - {"lang"}
        if unknown:
            raise self._error(N_("new_match cannot change {settings}."),
                              settings=", ".join(sorted(unknown)))
        if "lang" in changes:
            self.set_lang(changes.pop("lang"))
        self.game.forget_log()
        self._next_match(changes)
        self.tally.start_lesson(first=self.match_number)
        return list(self.game.last_events)

    def _next_match(self, changes: GameSettings | None = None) -> None:
        s = self.settings.copy()
        changes = GameSettings() if changes is None else changes
        if "seed" not in changes and s["seed"] is not None:
            changes["seed"] = s["seed"] + 1
        if "rounds" in changes and "rules" not in changes:
            rules = s["rules"] or HouseRules()  # always set: _setup stores the rules it used
            s["rules"] = replace(rules, rounds=changes["rounds"])
        if "humans" in changes and "students" not in changes:
            s["students"] = None
        s.update(changes)
        self._setup(**s)

    def set_lang(self, lang: str) -> None:
        """Speak ``lang`` from now on; the game, the questions and the hints so far stay."""
        self.lang = normalize_lang(lang)
        self.asker.set_lang(self.lang)


    # --- the lesson (its counts are the tally's) -----------------------------------------------

    def _t(self, message: str) -> str:
        return translator(self.lang)(message)

    def reviews_due(self, seat: int | None = None) -> list[Due]:
        """What ``seat``'s student (default: the first human's) has due for review now, by
        the session's clock (:class:`tutor.teaching.review.Due` items; none without a store)."""
        if self.store is None:
            return []
        # lazy: `import tutor` loads no store, no sqlite3 (test_loading_a_lesson_loads_no_store)
        from tutor.storage.store import StoreBusyError

        try:
            attempts = self.store.attempts(self.student_of(seat))
        except StoreBusyError:
            return []  # the file is busy: review waits for the next lesson
        return reviews_due(attempts, self.clock(), lesson_params())

    def _mix_in_reviews(self) -> None:
        """Review (tutor.teaching.review): a lesson opened when reviews are due starts with review
        items for them (each due skill's, as drill positions)."""
        due = {seat: [d.skill for d in self.reviews_due(seat)] for seat in self.students}
        self.asker.review(due, f"m{self.match_number}-")

    def student_of(self, seat: int | None) -> str:
        """The student at ``seat`` (None: the first human seat's, else ``student``)."""
        if seat is None:
            seat = self.humans[0] if self.humans else None
        return self._student_at(seat) if seat is not None else self.student

    def _student_at(self, seat: int) -> str:
        return self.students.get(seat, self.student)

    @property
    def mastery(self) -> Mastery:
        """The mastery of the first human seat's student (or of ``student``)."""
        return self.tally.mastery(self.student_of(None))

    def mastery_of(self, seat: int) -> Mastery:
        return self.tally.mastery(self.students[seat])

    def right_and_asked(self, student: str) -> tuple[int, int]:
        """``student``'s questions in this session: (right at the first try, asked)
        (:meth:`~tutor.session.lesson_tally.LessonTally.right_and_asked`)."""
        return self.tally.right_and_asked(student)

    @property
    def lesson_minutes(self) -> float:
        """Minutes since the lesson started, by the session's ``clock``."""
        return self.tally.minutes

    @property
    def lesson_rounds(self) -> int:
        """Rounds played in this lesson so far (the current one included)."""
        return self.tally.rounds(self.match)

    def lesson_questions(self, seat: int | None = None) -> int:
        """Questions on the lesson's targets (free play: its focus) answered by ``seat``'s
        student (default: the first human) in this lesson."""
        return self.tally.questions(self.student_of(seat), self.plan.focus)

    def _end_reason(self) -> EndReason | None:
        """Why the lesson ends once the round is over, or None (it goes on):
        :meth:`~tutor.session.lesson_tally.LessonTally.end_reason` for this match and its
        students."""
        return self.tally.end_reason(self.match, self.match_number, self.plan.targets,
                                     list(self.students.values()) or [self.student])

    @property
    def lesson_over(self) -> bool:
        """The lesson is over: its round is over, no question waits, and (a lesson with
        targets) every target is mastered or a cap is reached, after the first match's
        rounds at least; (free play) the match is over. :meth:`lesson_summary` says how it
        went. Until then :meth:`new_round` goes on, with a new match when one is over."""
        if self.asker.pending is not None or not self.round.over:
            return False
        return self._end_reason() is not None

    def lesson_summary(self, seat: int | None = None) -> LessonSummary:
        """How the lesson went for ``seat``'s student (default: the first human): each target
        skill (free play: the skills its game practises) with the questions asked and right
        at the first answer in this lesson, mastered or not, and what to practise next.
        ``reason`` is why it ended (None while it goes on)."""
        return self.tally.summary(
            self.student_of(seat), self.plan.focus, self.lang,
            self._end_reason() if self.lesson_over else None, self.lesson_rounds)

    def match_answers(self, seat: int | None = None) -> StudentAnswers:
        """``seat``'s student's answers in this match (default: the first human's): each skill
        asked, with the questions asked and right at the first answer (docs/rules.md §4: a
        question counts once, at its first answer; a reveal before any answer is wrong)."""
        return self.tally.match_answers(self.student_of(seat), self.lang)

    def next_lesson(self) -> tuple[str, str] | None:
        """The lesson after this one in the lessons page's order: its id and its title in the
        session's language; None after the last lesson."""
        return self.tally.next_lesson(self.lang)

    # --- the game: its loop is the game's (tutor.session.game_loop) ---------------------------

    @property
    def match(self) -> Match:
        return self.game.match

    @property
    def round(self) -> Round:
        return self.game.round

    @property
    def players(self) -> int:
        return self.game.players

    @property
    def humans(self) -> tuple[int, ...]:
        return self.game.humans

    def current_player(self) -> int | None:
        """The human seat whose move the game waits for (:meth:`GameLoop.current_player`)."""
        return self.game.current_player()

    def waiting(self) -> str | None:
        """What the game waits for (:meth:`GameLoop.waiting`): :data:`WAIT_QUESTION`,
        :data:`WAIT_ROUND`, :data:`WAIT_MOVE`, or None (a bot is to move)."""
        return self.game.waiting()

    def legal_actions(self) -> list[Action | object]:
        """The moves of the human whose turn it is (:meth:`GameLoop.legal_actions`)."""
        return self.game.legal_actions()

    def apply_action(self, action: Action | int | object) -> list[Event]:
        """Apply the human's move (one of :meth:`legal_actions`, or its index there); the bots
        reply in the steps :meth:`advance` takes next. The engine refuses an illegal move
        (:class:`~engine.round.IllegalMoveError`, its message) and nothing changes."""
        waiting = self.waiting()
        if waiting != WAIT_MOVE:
            raise self._error(_WHY_NOT[waiting])
        if isinstance(action, int):
            legal = self.legal_actions()
            if not 0 <= action < len(legal):
                raise self._error(N_("Choose a move from 1 to {count}."), count=len(legal))
            action = legal[action]
        return self.game.play(action)

    def returns(self) -> tuple[int, ...]:
        """Each seat's match score as the engine keeps it (:meth:`GameLoop.returns`)."""
        return self.game.returns()

    def advance(self, *, forced: bool = True) -> Step:
        """The game's next step (:meth:`GameLoop.advance`, the only loop): a bot's move, or
        (``forced``) a human's only move made for them."""
        return self.game.advance(forced=forced)

    def new_round(self) -> list[Event]:
        """Start the next round of the match (after the round's questions, if any). A lesson
        not over when its match is (:attr:`lesson_over`) goes on with a new match: a new
        deal, the scores start again, mastery and the lesson's tally carry over."""
        if self.asker.pending is not None:
            raise self._error(N_("Answer the question first (or ask to see the answer)."))
        if not self.round.over:
            raise self._error(N_("The round is not over yet."))
        if self.plan.targets and self.lesson_over:
            raise self._error(N_("The lesson is over."))
        if self.match.over and not self.plan.targets:
            raise self._error(N_("The match is over."))
        if self.match.over:
            self.tally.match_played(len(self.match.rounds))
            self._next_match()
            return list(self.game.last_events)
        events = self.game.start_round()
        self.asker.new_round()
        return events

    def _moved(self, events: list[Event], rnd: Round, before: list[int]) -> None:
        """After each move (:class:`GameLoop`'s ``moved``): the questions it raises, the
        notes said, the round's drill, the lesson's end."""
        prefix = f"m{self.match_number}r{rnd.number}t{rnd.placements}-"
        self.asker.consider(events, rnd, before, prefix)
        notes = self.asker.take_notes()
        if notes:
            self.notes_said += [note for _seat, note in notes]
            if self.recorder is not None:
                self.recorder.flush()  # said once: a page opened again does not say it again
        if rnd.over and not (self.plan.targets and self._end_reason()):
            self.asker.drill(f"m{self.match_number}r{rnd.number}-")
        self._note_end()

    def _note_end(self) -> None:
        """Once the play page ends the lesson (:attr:`lesson_over`: free play, its match),
        the store records why for each student of the session, once: the teacher's
        "finished" is that record, nothing else (issue 52 part 3). A new match played
        after it (free play) ends again, and is recorded again."""
        if self.recorder is None or not self.lesson_over:
            return
        reason = self._end_reason()
        if reason is None or (self.match_number, reason) in self._ends_noted:
            return
        self._ends_noted.add((self.match_number, reason))
        for name in dict.fromkeys(self.students.values() or [self.student]):
            self.recorder.lesson_ended(name, reason)


    # --- questions --------------------------------------------------------------------------

    @property
    def pending_question(self) -> Question | None:
        p = self.asker.pending
        return None if p is None else p.question

    @property
    def queued_questions(self) -> list[Question]:
        return [p.question for p in self.asker.queue]

    def asked_about(self, event: Event) -> bool:
        """Whether ``event`` (from this session) became a question."""
        return self.asker.asked_about(event)

    def is_hidden(self, event: Event) -> bool:
        """True while ``event`` holds points a pending question asks for."""
        return self.asker.is_hidden(event)

    def answer(self, text: str) -> Feedback:
        """Check the student's typed answer to the pending question."""
        p = self._need_question()
        first = p.attempts == 0
        fb, done = self.asker.answer(text)
        if first and p.attempts > 0:
            self.tally.count(self._student_at(p.seat), p.evidence,
                             fb.diagnosis.rule if fb.diagnosis is not None else None)
        self._note_end()
        return fb

    def hint(self) -> str:
        """The next rung of the pending question's hint ladder (the last rung gives the answer
        and then repeats)."""
        self._need_question()
        return self.asker.hint().text

    def hints_given(self) -> list[Hint]:
        p = self.asker.pending
        return list(p.given) if p is not None else []

    def reveal(self) -> Feedback:
        """Give up on the pending question: show the answer (a wrong first attempt if the
        student had not answered yet) and move on."""
        p = self._need_question()
        first = p.attempts == 0 and p.evidence is None
        fb = self.asker.reveal()
        if first:
            self.tally.count(self._student_at(p.seat), p.evidence, None)
        self._note_end()
        return fb

    def _need_question(self) -> Pending:
        """The pending question (a :class:`SessionError` if none waits)."""
        p = self.asker.pending
        if p is None:
            raise self._error(N_("There is no question to answer right now."))
        return p

    # --- saving -----------------------------------------------------------------------------

    @property
    def unsaved(self) -> int:
        """How many writes wait for a busy progress file (see :meth:`flush`)."""
        return self.recorder.unsaved if self.recorder is not None else 0

    @property
    def practice_note(self) -> str | None:
        """What the page says when this match replays a deal the student played before (on
        a class server: :attr:`replayed`), before the first question; else None."""
        return self._t(PRACTICE_DEAL) if self.replayed else None

    @property
    def unsaved_message(self) -> str | None:
        """What to tell the student while :attr:`unsaved` is not 0, or while the page that
        started with the store down has not read their saved progress yet, or after the store
        refused an answer (else None)."""
        if self.recorder is not None and self.recorder.unread:
            return self._t(STORE_DOWN)
        if self.unsaved:
            return self._t(NOT_SAVED_YET)
        refused = self.recorder.refused if self.recorder is not None else None
        if refused is not None:
            return self._t(REFUSED).format(reason=refused.message(self.lang))
        return None

    def flush(self) -> bool:
        """Write what waits for the progress file, oldest first; True once nothing waits."""
        return self.recorder.flush() if self.recorder is not None else True

    def close(self) -> None:
        """Write what waits (see :meth:`flush`) and close the store the session opened.

        If the progress file is still busy, nothing is lost: the store stays open and
        :class:`SessionError` says so; call :meth:`flush` or :meth:`close` again later.
        """
        if not self.flush():
            raise self._error(NOT_SAVED_YET)
        if self.store is not None and self._owns_store:
            self.store.close()

    # --- what a screen shows ----------------------------------------------------------------

    def snapshot(self, seat: int | None = None, *, sheet: bool = False,
                 progress: bool = False) -> Snapshot:
        """Everything a screen draws, once (:func:`build_snapshot`, from each part's view).
        ``seat``: whose hand to show (default: the human to move, else the first human).
        ``sheet``, ``progress``: with the round's score sheet, the student's progress file."""
        game = self.game.view()
        asking = self.asker.view()
        humans = game.humans
        to_move = game.to_move
        if seat is None:
            seat = to_move if to_move is not None else (humans[0] if humans else None)
        student_seat = (asking.seat if asking.question is not None
                        else seat if seat in self.students else (humans[0] if humans else None))
        student = self.students.get(student_seat, self.student) \
            if student_seat is not None else self.student
        return build_snapshot(
            game, asking, self._lesson_view(game, asking, student_seat),
            self._saving_view(student if progress else None),
            Told(log=tuple(self.describe(e) for e in game.log_events),
                 news=tuple(self.describe(e) for e in game.last_events),
                 notes=tuple(note_text(n, self.lang) for n in self.notes_said)),
            lang=self.lang, settings=self.settings.copy(), seat=seat, student=student,
            sheet=sheet)

    def _lesson_view(self, game: GameView, asking: AskingView,
                     student_seat: int | None) -> LessonView:
        """The lesson as the snapshot shows it: the tally's counts for this session's
        students, its focus and its file (:class:`LessonView`)."""
        lesson_over = self.lesson_over
        match_ended = game.match.match_end is not None and asking.question is None
        names = tuple(self.students.get(s, "") for s in range(game.players))
        info = self.lesson_info
        return LessonView(
            over=lesson_over,
            summary=self.lesson_summary() if lesson_over and self.plan.targets else None,
            following=self.next_lesson() if lesson_over or match_ended else None,
            skills=self.skill_counts(student_seat), seat_students=names,
            counts=tuple(self.right_and_asked(n) if n else (0, 0) for n in names),
            answers=tuple(self.match_answers(seat) for seat in game.humans)
            if match_ended else (),
            lesson=self.lesson, first_student=self.student_of(None),
            title=info.text("title", self.lang) if info is not None else "",
            goal=info.goal_text(self.lang) if info is not None else "")

    def _saving_view(self, progress_of: str | None) -> SavingView:
        """What the snapshot says of the saving (the recorder's): what waits, and
        ``progress_of``'s progress file (None: not asked for)."""
        return SavingView(unsaved=self.unsaved, note=self.unsaved_message or "",
                          practice_note=self.practice_note or "",
                          progress=None if progress_of is None
                          else self.export_progress(progress_of))

    def describe(self, event: Event) -> str:
        """One line of what happened; a bot's power play is shown worked out."""
        worked = getattr(event, "seat", None) not in self.humans
        return describe_event(event, self.lang, hidden=self.is_hidden(event), worked=worked,
                              symbol_value=self.match.rules.symbol_value)

    def skill_counts(self, seat: int | None = None) -> tuple[SkillCounts, ...]:
        """The skills to show for ``seat``'s student (the snapshot's ``skills``; default, or
        a seat not a student's: the first human's): the lesson's targets (every skill in free
        play), and any other skill they have been asked about."""
        name = self.student_of(seat if seat in self.students else None)
        return self.tally.skill_counts(name, self.plan.focus)

    def export_progress(self, student: str | None = None) -> ProgressFile | None:
        """``student``'s (default: the first human's) attempts in the progress store as a
        CSV file to download and hand in (None: no store, nothing is being saved)."""
        return export_progress(self.store, self.student_of(None) if student is None
                               else student)

    def _error(self, msgid: str, **params: object) -> SessionError:
        """A :class:`SessionError` in the session's language."""
        return SessionError(msgid, lang=self.lang, **params)


# --- building a snapshot (:meth:`Session.snapshot`) from the parts' views: the game's
# --- (:class:`GameView`), the asker's (:class:`AskingView`), the lesson's (its tally's) and
# --- the saving's (the recorder's); none of them reaches into the session -------------------


@dataclass(frozen=True)
class LessonView:
    """What a screen reads of the lesson now (:meth:`Session.snapshot`): the tally's counts
    for the session's students (:class:`~tutor.session.lesson_tally.LessonTally`), whether
    the lesson is over, its file's words."""

    over: bool
    """:attr:`Session.lesson_over`."""
    summary: LessonSummary | None
    """Once over, a lesson with targets: how it went (:meth:`Session.lesson_summary`)."""
    following: tuple[str, str] | None
    """Once the lesson or the match is over and no question waits: the next lesson's id and
    title (:meth:`Session.next_lesson`)."""
    skills: tuple[SkillCounts, ...]
    """The shown student's skills (:meth:`Session.skill_counts`)."""
    seat_students: tuple[str, ...]
    """Each seat's student ("" for a bot's)."""
    counts: tuple[tuple[int, int], ...]
    """Each seat's questions of this session: (right at the first try, asked)."""
    answers: tuple[StudentAnswers, ...]
    """Once the match is over and no question waits: each human's answers in it."""
    lesson: str
    first_student: str
    """The first human's student (whose links the match's end gives)."""
    title: str
    goal: str


@dataclass(frozen=True)
class SavingView:
    """What a screen reads of the saving (the recorder's, :meth:`Session.snapshot`)."""

    unsaved: int
    note: str
    """What the page says while answers wait (:attr:`Session.unsaved_message`, or "")."""
    practice_note: str
    progress: ProgressFile | None
    """The student's progress file, when asked for."""


@dataclass(frozen=True)
class Told:
    """The game's events and the tutor's notes, told in the snapshot's language."""

    log: tuple[str, ...]
    news: tuple[str, ...]
    notes: tuple[str, ...]


def build_snapshot(game: GameView, asking: AskingView, lesson: LessonView, saving: SavingView,
                   told: Told, *, lang: str, settings: GameSettings, seat: int | None,
                   student: str, sheet: bool = False) -> Snapshot:
    """Everything a screen draws, once, from the parts' views. ``seat``: whose hand to show;
    ``student``: whose skills and question. Scores leave out the points a pending question
    asks for. ``sheet``: add the round's score sheet (a page asks for it only while it shows
    it)."""
    rnd = game.round
    match = game.match
    humans = game.humans
    to_move = game.to_move
    hidden_g, hidden_l = asking.hidden_gains, asking.hidden_losses
    scores = match.scores
    q = asking.question
    question = None
    if q is not None:
        question = QuestionView(
            id=q.id, prompt=q.prompt, step=q.step, skill=q.skill, situation=q.situation,
            attempts=asking.attempts, hints=asking.hints, scaffold=asking.scaffold,
            queued=asking.queued, student=student, more_hints=asking.more_hints)
    end = rnd.result
    line = rnd.line_tiles()
    lesson_over = lesson.over
    match_end = _match_end_view(game, asking, lesson)
    following = lesson.following
    waiting = game.waiting
    hiding = any(hidden_g) or any(hidden_l)
    players = game.players
    counts = lesson.counts
    return Snapshot(
        lang=lang, variant=rnd.variant.name, tileset=rnd.tileset,
        players=players, names=tuple(seat_name(s) for s in range(players)),
        humans=humans, round=rnd.number, rounds=match.rules.rounds,
        target=match.target if match.variant.goal == "points" else 0,
        line=tuple(line), end_names=rnd.end_names,
        arms=tuple(tuple(rnd.arm_tiles(e)) for e in rnd.end_names)
        if rnd.line.shape.kind == "hub" else (),
        ends=rnd.ends,
        table=None if rnd.table is None else rnd.tileset.tiles[rnd.table],
        last_placed=_last_placed(game.last_events, line),
        turn=rnd.turn, human_to_move=to_move, bot_pending=waiting is None,
        hand_sizes=tuple(rnd.hand_sizes), hand_seat=seat,
        hand=() if seat is None else tuple(rnd.hand(seat)),
        legal=tuple(rnd.legal_actions()) if seat == to_move is not None else (),
        pile=rnd.pile_count,
        scores_shown=tuple(scores[s] - hidden_g[s] + hidden_l[s] for s in range(players)),
        round_gains_shown=tuple(rnd.gains[s] - hidden_g[s] for s in range(players)),
        round_losses_shown=tuple(rnd.losses[s] - hidden_l[s] for s in range(players)),
        hiding=hiding, teams=tuple(match.teams)
        if len(match.teams) < players else (),
        question=question, student=student,
        skills=lesson.skills,
        log=told.log,
        round_over=rnd.over, round_winner=None if end is None else end.winner,
        round_end=None if end is None else end.reason, match_over=match.over,
        match_winners=None if match.match_end is None
        else tuple(match.match_end.winners),
        unsaved=saving.unsaved, unsaved_note=saving.note,
        practice_note=saving.practice_note,
        lesson_over=lesson_over,
        lesson_end=lesson.summary,
        hand_points=tuple(end.hand_totals) if end is not None and q is None else (),
        match_end=match_end, next_lesson=None if following is None else following[0],
        next_lesson_title="" if following is None else following[1],
        step=game.steps, news=told.news,
        notes=told.notes,
        waiting=waiting, seat_kinds=game.seat_kinds,
        round_summary=None if end is None
        else RoundSummary.of(end, game.round_events, players),
        match_rows=_match_rows(match) if rnd.over else (),
        sheet_available=True,  # engine.sheet is part of every engine build
        extra=_extra_views(rnd, lang) if seat == to_move is not None else (),
        seat_students=lesson.seat_students, first_try_right=tuple(c[0] for c in counts),
        asked=tuple(c[1] for c in counts),
        lesson_title=lesson.title,
        lesson_goal=lesson.goal,
        settings=settings,
        sheet=_sheet(rnd) if sheet and not hiding else None,
        progress=saving.progress)


def _extra_views(rnd: Round, lang: str) -> tuple[ExtraMoveView, ...]:
    """The game's own moves on offer (the round's ``extra_moves``: Cuban's redeal), with their
    words from the game's :mod:`tutor.games` entry."""
    entry = game(rnd.variant.name)
    t = translator(lang)
    views = []
    for move in rnd.extra_moves():
        label, why = entry.extra_move_words(str(move))
        views.append(ExtraMoveView(move=move, text=str(move), label=t(label),
                                   explanation=t(why) if why else ""))
    return tuple(views)


def _match_rows(m: Match) -> tuple[MatchRow, ...]:
    return tuple(MatchRow(number=r.number, points=tuple(
        r.gains[i] - r.losses[i] for i in range(m.players)), current=r is m.current)
        for r in m.rounds)


def _match_end_view(game: GameView, asking: AskingView,
                    lesson: LessonView) -> MatchEndView | None:
    """The match's end for the snapshot: once it is over and no question waits."""
    match = game.match
    end = match.match_end
    if end is None or asking.question is not None:
        return None
    pairs = len(match.teams) < game.players
    return MatchEndView(
        scores=tuple(end.scores),
        team_scores=tuple(end.team_scores) if pairs and end.team_scores else (),
        winners=tuple(end.winners),
        answers=lesson.answers,
        lesson=lesson.lesson, student=lesson.first_student)


def _sheet(rnd: Round) -> ScoreSheetView | None:
    """The Leonard score sheet of the current round."""
    return ScoreSheet.from_round(rnd)


def _last_placed(events: Sequence[Event], line: Sequence[Tile]) -> int | None:
    placed = [e for e in events if isinstance(e, Placed)]
    if not placed:
        return None
    tile = placed[-1].tile
    for i, t in enumerate(line):
        if t == tile:
            return i
    return None
