"""A tutored game: the one object the dashboard, the terminal and the simulated students
share. It holds the engine's match and the bots in their seats, owns the game loop
(:meth:`Session.advance`: the only place that decides what happens next), wires the asking
(:mod:`tutor.teaching.asking`), the narration (:mod:`tutor.play.narration`) and the progress
recorder
(:mod:`tutor.play.saving`), and builds the :class:`~tutor.play.snapshot.Snapshot` a screen
draws from.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime, timezone
from os import PathLike
from typing import TYPE_CHECKING, TypedDict

from engine.bots import Bot, bot_move, make_bot
from engine.deal import Deal
from engine.events import Drew, Event
from engine.match import Match
from engine.round import DRAW, Action, Draw, Pass, Round
from engine.rules import HouseRules, RulesError
from engine.tiles import Tile
from engine.view import view_of
from tutor.course.lesson_end import (
    DEFAULT_MAX_MINUTES,
    DEFAULT_MAX_QUESTIONS,
    EndReason,
    LessonSummary,
    LessonTally,
    SkillSummary,
    end_reason,
    next_step,
)
from tutor.games import game
from tutor.i18n import N_, TranslatableError, normalize_lang, translator
from tutor.play.narration import describe_event
from tutor.play.snapshot import (
    LOG_KEEP,
    WAIT_MOVE,
    WAIT_QUESTION,
    WAIT_ROUND,
    ExtraMoveView,
    MatchEndView,
    MatchRow,
    ProgressFile,
    QuestionView,
    RoundSummary,
    SkillView,
    Snapshot,
    StudentAnswers,
    export_progress,
)
from tutor.play.saving import NOT_SAVED_YET, Recorder
from tutor.teaching.asking import ASK_KINDS, Asker, Feedback, Pending, note_text
from tutor.teaching.hints import Hint
from tutor.teaching.mastery import SKILL_NAMES, SKILLS, Mastery, Params, default_params
from tutor.teaching.practice import SCAFFOLDS, Plan
from tutor.teaching.questions import Question, seat_name
from tutor.teaching.review import Due

if TYPE_CHECKING:
    from typing import Unpack

    from engine.sheet import ScoreSheet
    from tutor.course.lessons import Lesson
    from tutor.storage.store import Store

__all__ = ["ASK_KINDS", "NOT_SAVED_YET", "WAIT_MOVE", "WAIT_QUESTION", "WAIT_ROUND", "Deals",
           "Feedback", "GameSettings", "LessonOverrides", "LessonSettings", "LessonSummary",
           "MatchChanges", "Session", "SessionError", "SessionKeywords", "SkillSummary", "Step",
           "bot_names", "describe_event"]

_WHY_NOT = {
    WAIT_QUESTION: N_("Answer the question first (or ask to see the answer)."),
    WAIT_ROUND: N_("The round is over: start the next round."),
    None: N_("It is not your turn."),
}
"""Why :meth:`Session.play` refuses a move, by what the game waits for."""


@dataclass(frozen=True)
class Step:
    """What one :meth:`Session.advance` did: ``events`` (none: nothing could happen without a
    human or an answer, see ``waiting``)."""

    events: tuple[Event, ...] = ()
    seat: int | None = None
    """Whose step it was (None: nothing happened)."""
    forced: bool = False
    """A human's only move, made for them: a run of draws, or a pass."""
    waiting: str | None = None
    """What the game waits for now (:meth:`Session.waiting`); None: the next step is the
    session's own (a bot's move)."""
    number: int = 0
    """The step's number (:attr:`Session.steps`, and the snapshot's ``step``)."""


def bot_names(spec: str | Sequence[str | None], players: int,
              humans: tuple[int, ...]) -> list[str | None] | None:
    """The bot of each non-human seat from ``spec`` (one name, one per seat, or one per bot
    seat), or None if ``spec`` has the wrong length."""
    seats = [s for s in range(players) if s not in humans]
    if isinstance(spec, str):
        return [spec] * len(seats)
    if len(spec) == players:
        return [spec[s] for s in seats]
    if len(spec) == len(seats):
        return list(spec)
    return None


DealList = Sequence[Deal | Mapping[str, object]]
"""A match's deals, in order (a round past the last is dealt at random)."""
Deals = DealList | Callable[[int | None], DealList | None]
"""A match's deals, or how to find them for a match's seed (a lesson's ``deals_for``)."""


class _MatchSettings(TypedDict, total=False):
    """A match's settings but its seed."""

    players: int
    humans: Sequence[int]
    bots: str | Sequence[str | None]
    rounds: int
    ask: Iterable[str]
    scaffold: bool | Iterable[str]
    ask_bot_plays: bool
    variant: str
    rules: HouseRules | None
    deals: Deals | None
    auto_bots: bool
    targets: Iterable[str]
    drill: bool
    students: dict[int, str] | None


class GameSettings(_MatchSettings, total=False):
    """A match's settings (:data:`_SETTINGS`): the :class:`Session` keywords that
    :meth:`Session.new_match` may change."""

    seed: int | None


class MatchChanges(GameSettings, total=False):
    """What :meth:`Session.new_match` changes: a match's settings and the language."""

    lang: str


class LessonOverrides(_MatchSettings, total=False):
    """What :meth:`Session.from_lesson` may change of a lesson's settings (its
    ``overrides``; the seed is a keyword of its own)."""

    bkt: Params | None
    max_questions: int | None
    max_minutes: float | None
    clock: Callable[[], datetime] | None


class LessonSettings(LessonOverrides, total=False):
    """A lesson's settings as :meth:`Session.from_lesson` takes them: its ``overrides`` and
    the seed."""

    seed: int | None


class SessionKeywords(LessonSettings, total=False):
    """Every keyword of :class:`Session` (a page that makes its own session takes them)."""

    lang: str
    student: str
    store: Store | str | PathLike[str] | None
    lesson: str


class _AccuracyFields(TypedDict):
    """The snapshot's per-seat arithmetic and the lesson's title and goal."""

    seat_students: tuple[str, ...]
    first_try_right: tuple[int, ...]
    asked: tuple[int, ...]
    lesson_title: str
    lesson_goal: str


class SessionError(TranslatableError):
    """Something the game does not allow right now (answer first, not your turn, …).

    ``str(err)`` speaks the session's language; ``err.message(lang)`` any other.
    """


_SETTINGS = ("players", "humans", "bots", "rounds", "seed", "ask", "scaffold", "ask_bot_plays",
             "variant", "rules", "deals", "auto_bots", "targets", "drill", "students")


def scaffolds(value: bool | Iterable[str]) -> frozenset[str]:
    """A lesson's scaffold setting: ``True`` (all), ``False`` (none) or a list of kinds."""
    if isinstance(value, bool):
        return SCAFFOLDS if value else frozenset()
    return frozenset(value)


class Session:
    """Students playing a match against bots, with questions on what they compute.

    The dashboard, the terminal and the simulated students drive the same object:
    :meth:`advance` (the game's next step, the only loop), :meth:`play`, :meth:`answer`,
    :meth:`hint`, :meth:`reveal`, :meth:`snapshot`. The score is decided by
    the engine when a tile is placed; answers never change it. Each human seat is a student
    of its own (``students``; by default the first is ``student`` and the others
    ``student (C)`` …).
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
        store: Store | str | PathLike[str] | None = None,
        lesson: str = "free-play",
        bkt: Params | None = None,
        *,
        variant: str = "leonard",
        rules: HouseRules | None = None,
        deals: Deals | None = None,
        auto_bots: bool = True,
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
        self.clock = _checked_clock(clock, self.lang)
        self.store, self._owns_store = _open_store(store, self.lang)
        self.recorder = (Recorder(self.store, lesson, self.clock, assignment)
                         if self.store is not None else None)
        self.session_id = self.recorder.session_id if self.recorder else ""
        self.masteries: dict[str, Mastery] = {}
        self.counted_from: dict[str, tuple[int, int]] = {}
        """Each student's (asked, first-try right) when this session loaded their mastery:
        the counts since are this session's (:meth:`arithmetic`)."""
        self.lesson_info: Lesson | None = None
        """The :class:`tutor.course.lessons.Lesson` the session plays (set by
        :meth:`from_lesson`)."""
        self.match_number = 0
        self.last_events: list[Event] = []
        """The events of the last step (a move, a bot's move, a round's start)."""
        self.steps = 0
        """Steps taken so far: a move, a bot's move, a round or a match started."""
        self.log_events: list[Event] = []
        """The game's last :data:`~tutor.play.snapshot.LOG_KEEP` events (the snapshot's log); a
        new match the student chooses starts it again."""
        self.max_questions = max_questions
        """A lesson's cap: questions on its targets per student (None: no such cap)."""
        self.max_minutes = max_minutes
        """A lesson's cap in minutes, read off ``clock`` (None: no such cap)."""
        self._next_lessons: dict[str, tuple[str, str] | None] = {}
        """:meth:`next_lesson` by language."""
        self.notes_said: list[str] = []
        """The notes the tutor said in this session, in order (:data:`tutor.teaching.asking.NOTES`:
        each once per student, e.g. why a power tile against a power tile asks nothing)."""
        self._start_lesson()
        self._setup(players=players, humans=humans, bots=bots, rounds=rounds, seed=seed,
                    ask=ask, scaffold=scaffold, ask_bot_plays=ask_bot_plays, variant=variant,
                    rules=rules, deals=deals, auto_bots=auto_bots, targets=targets,
                    drill=drill, students=students)

    @classmethod
    def from_lesson(cls, lesson: Lesson | str, *, lang: str = "es", student: str = "anon",
                    store: Store | str | PathLike[str] | None = None, seed: int | None = None,
                    assignment: str | None = None,
                    **overrides: Unpack[LessonOverrides]) -> Session:
        """A session with a lesson's settings (a :class:`tutor.course.lessons.Lesson` or its id);
        ``overrides`` change single settings (e.g. ``players=3``); ``assignment``: the id of
        the assignment whose link opened it (its rows carry it)."""
        from tutor.course.lessons import Lesson, load_lesson

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
            settings["deals"] = lesson.deals_for  # searched again for each match's seed
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
        ask = frozenset(s["ask"])
        if ask - ASK_KINDS:
            raise self._error(N_("ask can hold {allowed}, not {given}."),
                              allowed=", ".join(sorted(ASK_KINDS)),
                              given=", ".join(sorted(ask - ASK_KINDS)))
        players = s["players"]
        humans = tuple(s["humans"])
        if not isinstance(players, int) or players < 2:
            raise self._error(N_("A game needs at least 2 players, not {players}."),
                              players=repr(players))
        if len(set(humans)) != len(humans) or any(
                not isinstance(h, int) or not 0 <= h < players for h in humans):
            raise self._error(N_("humans must be different seats from 0 to {last}, not "
                                 "{humans}."), last=players - 1, humans=repr(humans))
        targets = frozenset(s["targets"])
        if targets - set(SKILLS):
            raise self._error(N_("Unknown skill {skill}; the skills are: {skills}."),
                              skill=", ".join(sorted(targets - set(SKILLS))),
                              skills=", ".join(SKILLS))
        kinds = scaffolds(s["scaffold"])
        if kinds - SCAFFOLDS:
            raise self._error(N_("scaffold can hold {allowed}, not {given}."),
                              allowed=", ".join(sorted(SCAFFOLDS)),
                              given=", ".join(sorted(kinds - SCAFFOLDS)))
        rules = s["rules"] or HouseRules()
        if s["rounds"] != rules.rounds:
            rules = replace(rules, rounds=s["rounds"])
        names = bot_names(s["bots"], players, humans)
        if names is None:
            raise self._error(N_("bots: give one name, one per seat ({players}) or one per bot "
                                 "seat ({bot_seats}), not {given}."), players=players,
                              bot_seats=players - len(humans), given=len(s["bots"]))
        deals = s["deals"](s["seed"]) if callable(s["deals"]) else s["deals"]
        bot_seats = [seat for seat in range(players) if seat not in humans]
        try:
            match = Match(s["variant"], players, rules, seed=s["seed"], deals=deals)
            bots: dict[int, Bot] = {
                seat: make_bot(name or "greedy",
                               None if s["seed"] is None else s["seed"] * 1009 + seat)
                for seat, name in zip(bot_seats, names, strict=True)}
        except RulesError as err:
            raise self._error(N_("The game settings are not valid: {error}."),
                              error=str(err)) from None
        students = self._students(humans, s["students"])
        self.settings: GameSettings = {**s, "ask": ask, "humans": humans, "rules": rules,
                                       "targets": targets}
        self.players, self.humans, self.ask = players, humans, ask
        self.auto_bots = bool(s["auto_bots"])
        self.seed = s["seed"]
        self.match = match
        self.bots = bots
        self.students = students
        self.match_number += 1
        self._match_tallies: dict[str, LessonTally] = {}
        """Each student's questions in this match (the match end's answers)."""
        self.plan = Plan(targets=targets, scaffolds=kinds, drill=bool(s["drill"]),
                         ask_bot_plays=bool(s["ask_bot_plays"]), game=s["variant"])
        rng = random.Random(None if self.seed is None else self.seed * 7919 + self.match_number)
        self.asker = Asker(lang=self.lang, plan=self.plan, ask=ask, students=students,
                           masteries={seat: self._mastery(name) for seat, name in
                                      students.items()},
                           players=players, rng=rng, recorder=self.recorder,
                           symbol_value=rules.symbol_value, tileset=match.current.tileset,
                           id_prefix=f"m{self.match_number}-", rules=rules)
        self.round_events: list[Event] = list(self.round.log)
        self._log(self.round.log)
        self._news(list(self.round.log))
        self._mix_in_reviews()
        if self.auto_bots:
            self._news(self.last_events + self.run_bots())

    def warm_up(self) -> None:
        """Compute ahead what the first question's evidence needs: what the lesson's questions
        can tell apart (:class:`tutor.teaching.coverage.LazyCoverage`, a tenth of a second
        once per kernel). A live page calls it once the board is out."""
        len(self.asker.cover)

    def reviews_due(self, seat: int | None = None) -> list[Due]:
        """What ``seat``'s student (default: the first human's) has due for review now, by
        the session's clock (:class:`tutor.teaching.review.Due` items; none without a store)."""
        if self.store is None:
            return []
        from tutor.classroom.overview import reviews_due
        from tutor.storage.store import StoreBusyError

        name = self.students[seat] if seat is not None else (
            self.students[self.humans[0]] if self.humans else self.student)
        try:
            attempts = self.store.attempts(name)
        except StoreBusyError:
            return []  # the file is busy: review waits for the next lesson
        return reviews_due(attempts, self.clock())

    def _mix_in_reviews(self) -> None:
        """Review (tutor.teaching.review): a lesson opened when reviews are due starts with review
        items for them (each due skill's, as drill positions)."""
        due = {seat: [d.skill for d in self.reviews_due(seat)] for seat in self.students}
        self.asker.review(due, f"m{self.match_number}-")

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

    def _mastery(self, name: str) -> Mastery:
        if name not in self.masteries:
            self.masteries[name] = (self.recorder.load_mastery(name, self.params)
                                    if self.recorder is not None else Mastery(self.params))
            self.counted_from[name] = _counts(self.masteries[name])
        return self.masteries[name]

    def arithmetic(self, student: str) -> tuple[int, int]:
        """``student``'s questions in this session: (right at the first try, asked). A
        question counts once, by its first answer (a hint before it makes it wrong); the
        counts are the mastery's, less what it held when this session loaded it."""
        asked, right = _counts(self._mastery(student))
        asked0, right0 = self.counted_from[student]
        return right - right0, asked - asked0

    @property
    def mastery(self) -> Mastery:
        """The mastery of the first human seat's student (or of ``student``)."""
        return self._mastery(self.students[self.humans[0]] if self.humans else self.student)

    def mastery_of(self, seat: int) -> Mastery:
        return self._mastery(self.students[seat])

    def new_match(self, **changes: Unpack[MatchChanges]) -> list[Event]:
        """Start a new match with the same settings except ``changes`` (any constructor
        setting but the student's). Without a ``seed`` a seeded session moves to seed + 1,
        so the new match has a new deal. Mastery and the progress store carry over; the
        lesson starts again (its tally, its clock and its minimum of rounds: see
        :attr:`lesson_over`)."""
        unknown = set(changes) - set(_SETTINGS) - {"lang"}
        if unknown:
            raise self._error(N_("new_match cannot change {settings}."),
                              settings=", ".join(sorted(unknown)))
        if "lang" in changes:
            self.set_lang(changes.pop("lang"))
        self.log_events = []
        self._next_match(changes)
        self._start_lesson(first=self.match_number)
        return list(self.last_events)

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

    # --- the game ---------------------------------------------------------------------------

    @property
    def round(self) -> Round:
        return self.match.current

    @property
    def human_to_move(self) -> int | None:
        """The human seat whose turn it is (None: a bot's turn, a question, or the round over)."""
        rnd = self.round
        if self.asker.queue or rnd.over or rnd.turn not in self.humans:
            return None
        return rnd.turn

    def legal_moves(self) -> list[Action]:
        """The moves of the human whose turn it is (empty while a question waits or a bot
        is to move)."""
        return self.round.legal_moves() if self.human_to_move is not None else []

    def waiting(self) -> str | None:
        """What the game waits for: :data:`WAIT_QUESTION` (an answer), :data:`WAIT_ROUND`
        (the round is over), :data:`WAIT_MOVE` (a human's move), or None (a bot is to move:
        :meth:`advance` moves it). Every check of whether a move may be played is this one."""
        if self.asker.queue:
            return WAIT_QUESTION
        if self.round.over:
            return WAIT_ROUND
        if self.round.turn in self.humans:
            return WAIT_MOVE
        return None

    def extra_moves(self) -> list[object]:
        """The game's own moves the human whose turn it is may make now, on top of
        :meth:`legal_moves` (the round's ``extra_moves``: Cuban's redeal); :meth:`play`
        takes them as it takes a move. Empty while a question waits or a bot is to move."""
        return self.round.extra_moves() if self.human_to_move is not None else []

    def play(self, action: Action | int | object) -> list[Event]:
        """Apply the human's move (an action, one of the game's own moves from
        :meth:`extra_moves`, or an index into :meth:`legal_moves`), then let the bots move
        (with ``auto_bots``) until a human's turn or a question. The engine refuses an
        illegal move (:class:`~engine.round.IllegalMoveError`, its message) and nothing
        changes."""
        waiting = self.waiting()
        if waiting != WAIT_MOVE:
            raise self._error(_WHY_NOT[waiting])
        if isinstance(action, int):
            legal = self.legal_moves()
            if not 0 <= action < len(legal):
                raise self._error(N_("Choose a move from 1 to {count}."), count=len(legal))
            action = legal[action]
        events = self._move(action)
        if self.auto_bots:
            events += self.run_bots()
        self._news(events)
        return events

    def _move(self, action: object) -> list[Event]:
        """Apply the move of the player to move (the engine checks it)."""
        return self._apply(lambda: self.match.apply(action, self.round.turn))

    def bot_pending(self) -> bool:
        """A bot is to move and nothing waits for the student."""
        return self.waiting() is None

    def step_bot(self) -> list[Event]:
        """Apply one bot move: the bot to move chooses from what its seat sees, a game's own
        move it wants first (:func:`engine.bots.bot_move`, as the engine's matches play)."""
        if not self.bot_pending():
            return []
        rnd = self.round
        seat = rnd.turn
        events = self._apply(lambda: self.match.apply(
            bot_move(self.bots[seat], view_of(rnd, seat)), seat))
        self._news(events)
        return events

    def _forced_move(self) -> Action | None:
        """The human's move when there is no choice (a draw or a pass; not while the game
        offers a move of its own, which is a choice)."""
        if self.extra_moves():
            return None
        moves = self.legal_moves()
        if len(moves) == 1 and isinstance(moves[0], (Draw, Pass)):
            return moves[0]
        return None

    def advance(self, *, forced: bool = True) -> Step:
        """The game's next step, the only place that decides it: a bot's move, or
        (``forced``) a human's only move made for them (a draw or a pass); a player who drew
        and still has no tile that fits draws again in the same step, so a run of draws is
        one step. Nothing happens while a question, a human's choice or the round's end
        waits (the returned step says which). The dashboard paces calls to it; the terminal
        and the simulated students loop on it."""
        waiting = self.waiting()
        if waiting is None:
            seat = self.round.turn
            events = self._with_draws(self.step_bot(), self.step_bot)
            is_forced = False
        else:
            move = self._forced_move() if forced and waiting == WAIT_MOVE else None
            if move is None:
                return Step(waiting=waiting, number=self.steps)
            seat = self.round.turn
            events = self._with_draws(self._move(move), lambda: self._move(DRAW))
            is_forced = True
        self._news(events)
        return Step(events=tuple(events), seat=seat, forced=is_forced, waiting=self.waiting(),
                    number=self.steps)

    def _with_draws(self, events: list[Event], again: Callable[[], list[Event]]) -> list[Event]:
        """``events`` and, while their player drew and still has nothing but draws, their
        next draws (``again()``), as one step."""
        rnd = self.round
        while (events and isinstance(events[-1], Drew) and not events[-1].forced
               and not rnd.over and not self.asker.queue and rnd.turn == events[-1].seat
               and all(isinstance(m, Draw) for m in rnd.legal_moves())):
            more = again()
            if not more:
                break
            events += more
        return events

    def run_bots(self) -> list[Event]:
        """Let the bots move until a human's turn, a question or the round's end (the
        :meth:`advance` loop, without the humans' forced moves)."""
        events: list[Event] = []
        while self.waiting() is None:
            events += self.advance(forced=False).events
        self._news(events)
        return events

    def new_round(self) -> list[Event]:
        """Start the next round of the match (after the round's questions, if any). A lesson
        not over when its match is (:attr:`lesson_over`) goes on with a new match: a new
        deal, the scores start again, mastery and the lesson's tally carry over."""
        if self.asker.queue:
            raise self._error(N_("Answer the question first (or ask to see the answer)."))
        if not self.round.over:
            raise self._error(N_("The round is not over yet."))
        if self.plan.targets and self.lesson_over:
            raise self._error(N_("The lesson is over."))
        if self.match.over and not self.plan.targets:
            raise self._error(N_("The match is over."))
        if self.match.over:
            self._lesson_rounds += len(self.match.rounds)
            self._next_match()
            return list(self.last_events)
        events = list(self.match.start_round().log)
        self.asker.new_round()
        self.round_events = list(events)
        self._log(events)
        if self.auto_bots:
            events += self.run_bots()
        self._news(events)
        return events

    def _news(self, events: list[Event]) -> None:
        """``events`` are the last step's."""
        self.last_events = events
        self.steps += 1

    def _log(self, events: Iterable[Event]) -> None:
        self.log_events = (self.log_events + list(events))[-LOG_KEEP:]

    def _apply(self, move: Callable[[], list[Event]]) -> list[Event]:
        rnd = self.round
        before = list(self.match.scores)
        events: list[Event] = move()
        self.round_events += events
        self._log(events)
        prefix = f"m{self.match_number}r{rnd.number}t{rnd.placements}-"
        self.asker.consider(events, rnd, before, prefix)
        notes = self.asker.take_notes()
        if notes:
            self.notes_said += [note for _seat, note in notes]
            if self.recorder is not None:
                self.recorder.flush()  # said once: a page opened again does not say it again
        if rnd.over and not (self.plan.targets and self._end_reason()):
            self.asker.drill(f"m{self.match_number}r{rnd.number}-")
        return events

    # --- the lesson -------------------------------------------------------------------------

    def _start_lesson(self, first: int | None = None) -> None:
        """A lesson starts (the session, or a new match the student chose): its tally, its
        clock, and its first match (``first``, else the next), whose rounds it plays at
        least."""
        self._tallies: dict[str, LessonTally] = {}
        self._lesson_started = self.clock()
        self._lesson_first = self.match_number + 1 if first is None else first
        self._lesson_rounds = 0
        """Rounds of the lesson's matches before the current one."""

    def _tally(self, seat: int, skill: str, right: bool, mistake: str | None = None) -> None:
        name = self.students.get(seat, self.student)
        self._tallies.setdefault(name, LessonTally()).add(skill, right, mistake)
        self._match_tallies.setdefault(name, LessonTally()).add(skill, right, mistake)

    @property
    def lesson_minutes(self) -> float:
        """Minutes since the lesson started, by the session's ``clock``."""
        return max(0.0, (self.clock() - self._lesson_started).total_seconds()) / 60

    @property
    def lesson_rounds(self) -> int:
        """Rounds played in this lesson so far (the current one included)."""
        return self._lesson_rounds + len(self.match.rounds)

    def lesson_questions(self, seat: int | None = None) -> int:
        """Questions on the lesson's targets (free play: its focus) answered by ``seat``'s
        student (default: the first human) in this lesson."""
        tally = self._tallies.get(self._student_of(seat))
        return tally.questions(self.plan.focus) if tally is not None else 0

    def _student_of(self, seat: int | None) -> str:
        if seat is None:
            seat = self.humans[0] if self.humans else None
        return self.students.get(seat, self.student) if seat is not None else self.student

    def _all_mastered(self, name: str) -> bool:
        mastery = self._mastery(name)
        return all(mastery.state(skill).mastered for skill in self.plan.targets)

    def _end_reason(self) -> EndReason | None:
        """Why the lesson ends once the round is over, or None (it goes on). Free play ends
        with its match; a lesson plays its first match's rounds at least, then ends when
        every student has mastered every target, or at a cap (docs/rules.md §4)."""
        if not self.plan.targets:
            return "match" if self.match.over else None
        if self.match_number == self._lesson_first and not self.match.over:
            return None
        names = list(self.students.values()) or [self.student]
        return end_reason(
            [(self._all_mastered(n), self._tallies[n].questions(self.plan.targets)
              if n in self._tallies else 0) for n in names],
            len(self.plan.targets), minutes=self.lesson_minutes, rounds=self.lesson_rounds,
            max_questions=self.max_questions, max_minutes=self.max_minutes)

    @property
    def lesson_over(self) -> bool:
        """The lesson is over: its round is over, no question waits, and (a lesson with
        targets) every target is mastered or a cap is reached, after the first match's
        rounds at least; (free play) the match is over. :meth:`lesson_summary` says how it
        went. Until then :meth:`new_round` goes on, with a new match when one is over."""
        if self.asker.queue or not self.round.over:
            return False
        return self._end_reason() is not None

    def lesson_summary(self, seat: int | None = None) -> LessonSummary:
        """How the lesson went for ``seat``'s student (default: the first human): each target
        skill (free play: the skills its game practises) with the questions asked and right
        at the first answer in this lesson, mastered or not, and what to practise next.
        ``reason`` is why it ended (None while it goes on)."""
        name = self._student_of(seat)
        mastery = self._mastery(name)
        tally = self._tallies.get(name, LessonTally())
        skills = []
        for skill in SKILLS:
            if skill not in self.plan.focus:
                continue
            st = mastery.state(skill)
            mistake = tally.mistake(skill)
            skills.append(SkillSummary(
                skill=skill, name=self._t(SKILL_NAMES[skill]), asked=tally.asked[skill],
                right=tally.right[skill], mastered=st.mastered, p_known=st.p_known,
                mistake=mistake,
                next_step=next_step(st.mastered, tally.asked[skill], mistake, self.lang)))
        return LessonSummary(
            lesson=self.lesson, student=name, lang=self.lang,
            reason=self._end_reason() if self.lesson_over else None, skills=tuple(skills),
            questions=tally.questions(self.plan.focus), rounds=self.lesson_rounds,
            minutes=round(self.lesson_minutes, 2))

    # --- the match's end --------------------------------------------------------------------

    def match_answers(self, seat: int | None = None) -> StudentAnswers:
        """``seat``'s student's answers in this match (default: the first human's): each skill
        asked, with the questions asked and right at the first answer (docs/rules.md §4: a
        question counts once, at its first answer; a reveal before any answer is wrong)."""
        name = self._student_of(seat)
        mastery = self._mastery(name)
        tally = self._match_tallies.get(name, LessonTally())
        skills = []
        for skill in SKILLS:
            if not tally.asked[skill]:
                continue
            st = mastery.state(skill)
            skills.append(SkillSummary(
                skill=skill, name=self._t(SKILL_NAMES[skill]), asked=tally.asked[skill],
                right=tally.right[skill], mastered=st.mastered, p_known=st.p_known,
                mistake=tally.mistake(skill)))
        return StudentAnswers(student=name, skills=tuple(skills))

    def next_lesson(self) -> tuple[str, str] | None:
        """The lesson after this one in the lessons page's order (by id, of
        :func:`tutor.course.lessons.list_lessons`): its id and its title in the session's language;
        None after the last lesson. Read once per language."""
        if self.lang not in self._next_lessons:
            from tutor.course.lessons import list_lessons

            # the lessons page's order: by id (the shipped lessons are numbered 01-…)
            lessons = sorted(list_lessons(self.lang), key=lambda lesson: lesson.id)
            ids = [lesson.id for lesson in lessons]
            after = ids.index(self.lesson) + 1 if self.lesson in ids else len(ids)
            self._next_lessons[self.lang] = (
                (lessons[after].id, lessons[after].text("title", self.lang))
                if after < len(lessons) else None)
        return self._next_lessons[self.lang]

    def _match_end_view(self) -> MatchEndView | None:
        """The match's end for the snapshot: once it is over and no question waits."""
        end = self.match.match_end
        if end is None or self.asker.queue:
            return None
        pairs = len(self.match.teams) < self.players
        return MatchEndView(
            scores=tuple(end.scores),
            team_scores=tuple(end.team_scores) if pairs and end.team_scores else (),
            winners=tuple(end.winners),
            answers=tuple(self.match_answers(seat) for seat in self.humans),
            lesson=self.lesson, student=self._student_of(None))

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
        self._need_question()
        p = self.asker.queue[0]
        first = p.attempts == 0
        fb, done = self.asker.answer(text)
        if first and p.attempts > 0:
            self._tally_evidence(p, fb.diagnosis.rule if fb.diagnosis is not None else None)
        return self._after(fb) if done else fb

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
        self._need_question()
        p = self.asker.queue[0]
        first = p.attempts == 0 and p.evidence is None
        fb = self.asker.reveal()
        if first:
            self._tally_evidence(p, None)
        return self._after(fb)

    def _tally_evidence(self, p: Pending, mistake: str | None) -> None:
        """Count a question's first answer in the lesson's and the match's tallies as
        :mod:`tutor.classroom.counts` counts it: once, under the skill its evidence is about, right
        only when right with no hint before it; a repeated number (no evidence) not at
        all."""
        ev = p.evidence
        if ev is None or ev.kind == "none":
            return
        right = ev.correct and not ev.hints
        self._tally(p.seat, ev.skill, right, None if right else mistake)

    def _need_question(self) -> None:
        if not self.asker.queue:
            raise self._error(N_("There is no question to answer right now."))

    def _after(self, fb: Feedback) -> Feedback:
        """A question is over: with no other waiting, the bots go on."""
        if self.asker.queue or not self.auto_bots:
            return fb
        events = self.run_bots()
        from dataclasses import replace

        return replace(fb, events=tuple(events))

    # --- saving -----------------------------------------------------------------------------

    @property
    def unsaved(self) -> int:
        """How many writes wait for a busy progress file (see :meth:`flush`)."""
        return self.recorder.unsaved if self.recorder is not None else 0

    @property
    def unsaved_message(self) -> str | None:
        """What to tell the student while :attr:`unsaved` is not 0 (else None)."""
        return self._t(NOT_SAVED_YET) if self.unsaved else None

    def flush(self) -> bool:
        """Write what waits for the progress file, oldest first; True once nothing waits."""
        return self.recorder.flush() if self.recorder is not None else True

    # --- what a screen shows ----------------------------------------------------------------

    def snapshot(self, seat: int | None = None) -> Snapshot:
        """Everything a screen draws, once. ``seat``: whose hand to show (default: the human
        to move, else the first human). Scores leave out the points a pending question asks
        for."""
        rnd = self.round
        to_move = self.human_to_move
        if seat is None:
            seat = to_move if to_move is not None else (self.humans[0] if self.humans
                                                        else None)
        hidden_g, hidden_l = self.asker.hidden()
        scores = self.match.scores
        pending = self.asker.pending
        student_seat = (pending.seat if pending is not None
                        else seat if seat in self.students else
                        (self.humans[0] if self.humans else None))
        student = self.students.get(student_seat, self.student) if student_seat is not None \
            else self.student
        question = None
        if pending is not None:
            question = QuestionView(
                id=pending.question.id, prompt=pending.question.prompt,
                step=pending.question.step, skill=pending.question.skill,
                situation=pending.question.situation, attempts=pending.attempts,
                hints=tuple(pending.given), scaffold=pending.scaffold,
                queued=len(self.asker.queue) - 1, student=student)
        end = rnd.result
        line = rnd.line_tiles()
        lesson_over = self.lesson_over
        match_end = self._match_end_view()
        following = (self.next_lesson() if lesson_over or match_end is not None else None)
        return Snapshot(
            lang=self.lang, variant=rnd.variant.name, tileset=rnd.tileset,
            players=self.players, names=tuple(seat_name(s) for s in range(self.players)),
            humans=self.humans, round=rnd.number, rounds=self.match.rules.rounds,
            target=self.match.target if self.match.variant.goal == "points" else 0,
            line=tuple(line), end_names=rnd.end_names,
            arms=tuple(tuple(rnd.arm_tiles(e)) for e in rnd.end_names)
            if rnd.line.shape.kind == "hub" else (),
            ends=rnd.ends,
            table=None if rnd.table is None else rnd.tileset.tiles[rnd.table],
            last_placed=_last_placed(self.last_events, line),
            turn=rnd.turn, human_to_move=to_move, bot_pending=self.bot_pending(),
            hand_sizes=tuple(rnd.hand_sizes), hand_seat=seat,
            hand=() if seat is None else tuple(rnd.hand(seat)),
            legal=tuple(self.legal_moves()) if seat == to_move else (),
            pile=rnd.pile_count,
            scores_shown=tuple(scores[s] - hidden_g[s] + hidden_l[s]
                               for s in range(self.players)),
            round_gains_shown=tuple(rnd.gains[s] - hidden_g[s] for s in range(self.players)),
            round_losses_shown=tuple(rnd.losses[s] - hidden_l[s]
                                     for s in range(self.players)),
            hiding=any(hidden_g) or any(hidden_l), teams=tuple(self.match.teams)
            if len(self.match.teams) < self.players else (),
            question=question, student=student,
            skills=self.skill_views(student_seat),
            log=tuple(self.describe(e) for e in self.log_events),
            round_over=rnd.over, round_winner=None if end is None else end.winner,
            round_end=None if end is None else end.reason, match_over=self.match.over,
            match_winners=None if self.match.match_end is None
            else tuple(self.match.match_end.winners),
            unsaved=self.unsaved, unsaved_note=self.unsaved_message or "",
            lesson_over=lesson_over,
            lesson_end=self.lesson_summary() if lesson_over and self.plan.targets else None,
            hand_points=tuple(end.hand_totals) if end is not None and pending is None
            else (),
            match_end=match_end, next_lesson=None if following is None else following[0],
            next_lesson_title="" if following is None else following[1],
            step=self.steps, news=tuple(self.describe(e) for e in self.last_events),
            notes=tuple(note_text(n, self.lang) for n in self.notes_said),
            waiting=self.waiting(), seat_kinds=self._seat_kinds(),
            round_summary=None if end is None
            else RoundSummary.of(end, self.round_events, self.players),
            match_rows=self._match_rows() if rnd.over else (),
            sheet_available=_SHEETS,
            extra=self._extra_views() if seat == to_move else (),
            **self._accuracy_fields())

    def _extra_views(self) -> tuple[ExtraMoveView, ...]:
        """The game's own moves on offer (:meth:`extra_moves`), with their words from the
        game's :mod:`tutor.games` entry."""
        entry = game(self.round.variant.name)
        views = []
        for move in self.extra_moves():
            label, why = entry.extra_move_words(str(move))
            views.append(ExtraMoveView(move=move, text=str(move), label=self._t(label),
                                       explanation=self._t(why) if why else ""))
        return tuple(views)

    def _seat_kinds(self) -> tuple[str, ...]:
        """Each seat's player: ``human`` or its bot's level."""
        return tuple("human" if seat in self.students
                     else type(self.bots[seat]).__name__.replace("Bot", "").lower()
                     if seat in self.bots else "" for seat in range(self.players))

    def _match_rows(self) -> tuple[MatchRow, ...]:
        m = self.match
        return tuple(MatchRow(number=r.number, points=tuple(
            r.gains[i] - r.losses[i] for i in range(m.players)), current=r is m.current)
            for r in m.rounds)

    def _accuracy_fields(self) -> _AccuracyFields:
        """The snapshot's per-seat arithmetic of this session and the lesson's title and
        goal."""
        names = tuple(self.students.get(s, "") for s in range(self.players))
        counts = [self.arithmetic(n) if n else (0, 0) for n in names]
        info = self.lesson_info
        return _AccuracyFields(seat_students=names, first_try_right=tuple(c[0] for c in counts),
                    asked=tuple(c[1] for c in counts),
                    lesson_title=info.text("title", self.lang) if info is not None else "",
                    lesson_goal=info.goal_text(self.lang) if info is not None else "")

    def describe(self, event: Event) -> str:
        """One line of what happened; a bot's power play is shown worked out."""
        worked = getattr(event, "seat", None) not in self.humans
        return describe_event(event, self.lang, hidden=self.is_hidden(event), worked=worked,
                              symbol_value=self.match.rules.symbol_value)

    def skill_views(self, seat: int | None = None) -> tuple[SkillView, ...]:
        """The skills to show for ``seat``'s student: the lesson's targets (every skill in free
        play), and any other skill they have been asked about."""
        mastery = self.mastery if seat is None or seat not in self.students \
            else self.mastery_of(seat)
        out = []
        for skill in SKILLS:
            st = mastery.state(skill)
            target = skill in self.plan.focus
            if not target and not st.asked:
                continue
            out.append(SkillView(skill, self._t(SKILL_NAMES[skill]), st.p_known, st.mastered,
                                 st.asked, st.first_try_right, target, st.streak,
                                 tuple(mastery.ruled_out(st)), mastery.answers_to_master(st)))
        return tuple(out)

    def export_progress(self, student: str | None = None) -> ProgressFile | None:
        """``student``'s (default: the first human's) attempts in the progress store as a
        CSV file to download and hand in (None: no store, nothing is being saved)."""
        return export_progress(self.store, self._student_of(None) if student is None
                               else student)

    def sheet(self) -> ScoreSheet | None:
        """The Leonard score sheet of the current round (None if the engine has no sheets)."""
        try:
            from engine.sheet import ScoreSheet
        except ImportError:
            return None
        return ScoreSheet.from_round(self.round)

    def _t(self, message: str) -> str:
        return translator(self.lang)(message)

    def _error(self, msgid: str, **params: object) -> SessionError:
        """A :class:`SessionError` in the session's language."""
        return SessionError(msgid, lang=self.lang, **params)

    def close(self) -> None:
        """Write what waits (see :meth:`flush`) and close the store the session opened.

        If the progress file is still busy, nothing is lost: the store stays open and
        :class:`SessionError` says so; call :meth:`flush` or :meth:`close` again later.
        """
        if not self.flush():
            raise self._error(NOT_SAVED_YET)
        if self.store is not None and self._owns_store:
            self.store.close()


def _sheets() -> bool:
    try:
        import engine.sheet  # noqa: F401
    except ImportError:
        return False
    return True


_SHEETS = _sheets()
"""The engine can write score sheets (:meth:`Session.sheet`)."""


def _counts(mastery: Mastery) -> tuple[int, int]:
    """(asked, right at the first try) over all of ``mastery``'s skills."""
    states = mastery.states.values()
    return sum(st.asked for st in states), sum(st.first_try_right for st in states)


def _last_placed(events: Sequence[Event], line: Sequence[Tile]) -> int | None:
    from engine.events import Placed

    placed = [e for e in events if isinstance(e, Placed)]
    if not placed:
        return None
    tile = placed[-1].tile
    for i, t in enumerate(line):
        if t == tile:
            return i
    return None


def _utc_now() -> datetime:
    return datetime.now(timezone.utc)


def _checked_clock(clock: Callable[[], datetime] | None, lang: str) -> Callable[[], datetime]:
    """The session's clock: ``clock`` (which must give aware datetimes), else the real time."""
    if clock is None:
        return _utc_now
    if clock().utcoffset() is None:
        raise SessionError(N_("The clock must give the time with its time zone (UTC)."),
                           lang=lang)
    return clock


def _open_store(store: Store | str | PathLike[str] | None,
                lang: str) -> tuple[Store | None, bool]:
    """The store to use and whether the session opened it (and so closes it)."""
    if isinstance(store, (str, PathLike)):
        from tutor.storage.store import Store

        return Store(store, lang=lang), True
    if store is None or hasattr(store, "record_attempt"):
        return store, False
    raise SessionError(N_("store must be a tutor.storage.store.Store, a file path or None, not "
                          "{store}."), store=repr(store), lang=lang)
