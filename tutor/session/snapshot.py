"""What a screen shows, as one typed, frozen value built once per refresh: the board, the
hands, the scores as far as they are shown, the question waiting, the skills and the log.

The dashboard's panels and the terminal read a :class:`Snapshot`; none of them reaches into
the session's game, questions or store while drawing. What they show of the game's events
(the log, what to announce, the round's summary) is told here once, by the session.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol

from engine.events import Bonus, Event, PowerEffect, RoundEnded
from engine.round import Action
from engine.tiles import Half, Tile, TileSet
from tutor.course.lesson_end import LessonSummary, SkillSummary
from tutor.session.settings import GameSettings
from tutor.teaching.counts import SkillCounts
from tutor.teaching.hints import Hint
from tutor.teaching.questions import Situation

if TYPE_CHECKING:
    from tutor.storage.progress_store import ProgressStore

__all__ = ["LOG_KEEP", "WAIT_MOVE", "WAIT_QUESTION", "WAIT_ROUND", "ExtraMoveView",
           "MatchEndView", "MatchRow",
           "ProgressFile", "QuestionView", "RoundSummary", "Snapshot",
           "StudentAnswers", "export_progress"]

LOG_KEEP = 8
"""Events the log keeps (the log panel shows the last six lines)."""
WAIT_QUESTION = "question"
""":attr:`Snapshot.waiting`: a question waits for its answer."""
WAIT_MOVE = "move"
""":attr:`Snapshot.waiting`: a human is to move."""
WAIT_ROUND = "round"
""":attr:`Snapshot.waiting`: the round is over (the next round, or the lesson's end)."""


@dataclass(frozen=True)
class RoundSummary:
    """How the round ended and who gained what in it (the round-end panel's summary)."""

    reason: str
    """``domino``, ``tranque``, ``target`` or ``annulled``."""
    winner: int | None
    capicua: str
    hand_totals: tuple[int, ...]
    bonuses: tuple[tuple[int, str, int], ...]
    """Each bonus of the round, in order: (seat, kind, points)."""
    power_gains: tuple[int, ...]
    """Each seat's gains from power plays this round."""
    power_losses: tuple[int, ...]

    @classmethod
    def of(cls, result: RoundEnded, events: Iterable[Event], players: int) -> RoundSummary:
        """The summary of a round's ``result`` (its ``RoundEnded``) and ``events``."""
        gains, losses = [0] * players, [0] * players
        bonuses = []
        for e in events:
            if isinstance(e, Bonus):
                bonuses.append((e.seat, e.kind, e.points))
            elif isinstance(e, PowerEffect):
                gains[e.seat] += e.gain
                losses[e.target] += e.loss
        return cls(reason=result.reason, winner=result.winner,
                   capicua=getattr(result, "capicua", "") or "",
                   hand_totals=tuple(result.hand_totals), bonuses=tuple(bonuses),
                   power_gains=tuple(gains), power_losses=tuple(losses))


@dataclass(frozen=True)
class ExtraMoveView:
    """One of the game's own moves the student to move may make now (the session's
    :meth:`~tutor.session.session.Session.extra_moves`, e.g. Cuban's redeal), with its words
    from the game's :mod:`tutor.games` entry in the snapshot's language. A screen hands
    :attr:`move` back to the session to play it, as it hands a legal move."""

    move: object
    """The engine's move (``Session.play`` takes it)."""
    text: str
    """Its notation, ``str(move)`` (a button's title)."""
    label: str
    """What a button says."""
    explanation: str
    """Why the move is on offer, with the rule it comes from ("" if the game says nothing)."""


@dataclass(frozen=True)
class MatchRow:
    """One round of the match: its number and each seat's points in it (gains less losses)."""

    number: int
    points: tuple[int, ...]
    current: bool
    """The round being played (its points wait while a question is pending)."""


class ScoreSheetView(Protocol):
    """What a page reads of a round's score sheet (an :class:`engine.sheet.ScoreSheet`)."""

    @property
    def header(self) -> list[str]: ...

    def title(self, words: Mapping[str, str] = ..., game: str | None = None) -> str: ...

    def to_html(self, caption: str | None = None) -> str: ...

    def to_csv(self) -> str: ...


@dataclass(frozen=True)
class ProgressFile:
    """The student's attempts as a CSV file to download and hand in."""

    count: int
    """Attempts in it."""
    data: bytes
    away: bool = False
    """The class's store could not be reached: no file yet (``count`` 0, ``data`` empty);
    the page says it can be downloaded when the store is back."""


def export_progress(store: ProgressStore | None, student: str) -> ProgressFile | None:
    """``student``'s attempts in ``store`` as a :class:`ProgressFile` (None: no store, so
    nothing is being saved; one ``away`` when the class's store cannot be reached)."""
    if store is None:
        return None
    import tempfile
    from pathlib import Path

    # lazy: `import tutor` loads no store, no sqlite3 (test_loading_a_lesson_loads_no_store)
    from tutor.storage.store_base import StoreBusyError

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "progress.csv"
        try:
            count = store.export_csv(path, student=student)
        except StoreBusyError:
            return ProgressFile(count=0, data=b"", away=True)
        return ProgressFile(count=count, data=path.read_bytes())


@dataclass(frozen=True)
class QuestionView:
    """The question waiting for an answer, as the student may see it before answering."""

    id: str
    prompt: str
    step: str
    skill: str
    situation: Situation
    attempts: int
    hints: tuple[Hint, ...]
    """The rungs of the hint ladder given so far."""
    scaffold: str
    """The formula with blanks (LaTeX) when the lesson's scaffold shows for this skill."""
    queued: int
    """How many more questions wait after this one."""
    student: str
    """Whose question it is (hot seat: each human seat is its own student)."""
    more_hints: bool = True
    """Hints are left: the ladder's last rung has not been given (after it, no hint)."""


@dataclass(frozen=True)
class StudentAnswers:
    """One student's answers in the match that just ended, per skill (docs/rules.md §4)."""

    student: str
    skills: tuple[SkillSummary, ...]
    """Each skill asked in this match (in :data:`tutor.teaching.mastery.SKILLS` order): questions
    asked (each once, at its first answer), right at the first answer, mastered or not."""

    @property
    def asked(self) -> int:
        return sum(s.asked for s in self.skills)

    @property
    def first_try_right(self) -> int:
        return sum(s.first_try_right for s in self.skills)


@dataclass(frozen=True)
class MatchEndView:
    """The match's end as the student sees it once no question waits: the final scores, each
    student's answers of the match, and where to go next."""

    scores: tuple[int, ...]
    """The final match scores, every point counted (the engine's ``MatchEnded``)."""
    team_scores: tuple[int, ...]
    """Pair games: each pair's final score, in the order of :attr:`Snapshot.teams` (else
    empty)."""
    winners: tuple[int, ...]
    answers: tuple[StudentAnswers, ...]
    """Each human seat's student, in seat order."""
    lesson: str
    student: str
    """The first human's student: whose links these are."""


@dataclass(frozen=True)
class Snapshot:
    lang: str
    variant: str
    tileset: TileSet
    players: int
    names: tuple[str, ...]
    humans: tuple[int, ...]
    round: int
    rounds: int
    target: int
    """A game played to a score: the score that wins the match (0: a number of rounds)."""
    line: tuple[Tile, ...]
    """Left to right, each tile with its left half first (a hub: the hub, then its arms)."""
    end_names: tuple[str, ...]
    """``("L", "R")``, or a Doble 15 hub's arms ``("1", … "6")``."""
    arms: tuple[tuple[Tile, ...], ...]
    """A hub's arms, each from the hub outward (empty for a two-ended line)."""
    ends: tuple[Half, ...] | None
    """The open number at each end, in the order of :attr:`end_names`."""
    table: Tile | None
    last_placed: int | None
    """Index in :attr:`line` of the tile placed last."""
    turn: int
    human_to_move: int | None
    bot_pending: bool
    hand_sizes: tuple[int, ...]
    hand_seat: int | None
    hand: tuple[Tile, ...]
    legal: tuple[Action, ...]
    pile: int
    scores_shown: tuple[int, ...]
    """Match scores without the points a pending question asks for."""
    round_gains_shown: tuple[int, ...]
    round_losses_shown: tuple[int, ...]
    hiding: bool
    teams: tuple[tuple[int, ...], ...]
    """Pair games: the pairs (empty when everyone plays alone)."""
    question: QuestionView | None
    student: str
    skills: tuple[SkillCounts, ...]
    """The skills to show for :attr:`student`: the lesson's targets (every skill in free
    play) and any other skill they have been asked about, from the session's live mastery."""
    log: tuple[str, ...]
    """The game's last :data:`LOG_KEEP` events, told now (a point a question asks for is
    left out until it is answered; a language switch tells them again)."""
    round_over: bool
    round_winner: int | None
    round_end: str | None
    match_over: bool
    match_winners: tuple[int, ...] | None
    unsaved: int
    """Answers not yet written to the progress file (it was busy)."""
    unsaved_note: str = ""
    """While :attr:`unsaved` is not 0: what the page says of them, in the snapshot's language
    (they wait on the page and are saved as soon as the store answers)."""
    practice_note: str = ""
    """The match replays a deal the student played before, on a class server (issue 51):
    what the page says of it before the first question (its answers are no evidence)."""
    lesson_over: bool = False
    """The lesson is over (free play: the match); no further round."""
    lesson_end: LessonSummary | None = None
    """A lesson with target skills, once over: how it went (:meth:`Session.lesson_summary`)."""
    seat_students: tuple[str, ...] = ()
    """Each seat's student ("" for a bot seat)."""
    asked: tuple[int, ...] = ()
    """Each seat's questions asked in this session, i.e. this lesson since the page opened (a
    question counts once however many tries it takes; 0 for a bot seat)."""
    first_try_right: tuple[int, ...] = ()
    """Each seat's questions of this session answered right at the first try, with no hint
    before (docs/rules.md §4); 0 for a bot seat."""
    lesson_title: str = ""
    """The open lesson's title, in the snapshot's language ("" without a lesson file)."""
    lesson_goal: str = ""
    """The open lesson's one-line goal, in the snapshot's language."""
    hand_points: tuple[int, ...] = ()
    """The round is over and no question waits: the points of the tiles left in each hand
    (the round's count; a symbol half is worth ``symbol_value``, docs/rules.md D-1). Empty
    otherwise. The tiles left are :attr:`hand_sizes`."""
    match_end: MatchEndView | None = None
    """The match is over and no question waits: its final scores and the answers."""
    next_lesson: str | None = None
    """The lesson or the match is over and no question waits: the next lesson's id in the
    lessons page's order (:meth:`Session.next_lesson`); None otherwise or after the last."""
    next_lesson_title: str = ""
    """The next lesson's title in the page's language."""
    step: int = 0
    """The number of the last step (:attr:`tutor.session.game_loop.GameLoop.steps`): a screen that
    announces :attr:`news` does so once per step."""
    news: tuple[str, ...] = ()
    """The last step's events, told."""
    notes: tuple[str, ...] = ()
    """What the tutor explained once in this session, in order, in the snapshot's language
    (:attr:`tutor.session.session.Session.notes_said`: the first power tile against a power
    tile, why nothing is asked). A screen says each new one once."""
    waiting: str | None = None
    """What the game waits for (:attr:`tutor.session.game_loop.Step.waiting`): ``question``,
    ``move`` (a human's), ``round`` (its end), or None (a bot is to move). A move may be
    played only while it is ``move``."""
    seat_kinds: tuple[str, ...] = ()
    """Each seat's player: ``human``, or its bot's level (``greedy``, ``expert``, …)."""
    round_summary: RoundSummary | None = None
    """The round is over: how it ended and who gained what."""
    match_rows: tuple[MatchRow, ...] = ()
    """The round is over: the match's rounds so far."""
    sheet_available: bool = False
    """The engine can write the round's score sheet."""
    extra: tuple[ExtraMoveView, ...] = ()
    """The game's own moves the shown hand's player may make now, besides :attr:`legal`
    (only while it is their turn, as :attr:`legal`)."""
    settings: GameSettings = field(default_factory=lambda: GameSettings())
    """The match's settings (a copy of the session's; a setup panel shows them)."""
    sheet: ScoreSheetView | None = None
    """Asked for (``snapshot(sheet=True)``), the engine writes sheets and no question hides
    points: the round's score sheet."""
    progress: ProgressFile | None = None
    """Asked for (``snapshot(progress=True)``) and saved to a store: :attr:`student`'s attempts
    as a file to download."""

    @property
    def team_scores_shown(self) -> tuple[int, ...]:
        """Pair games: each pair's match score, as far as it is shown."""
        return tuple(sum(self.scores_shown[s] for s in seats) for seats in self.teams)

    @property
    def round_scores_shown(self) -> tuple[int, ...]:
        return tuple(g - lo for g, lo in zip(self.round_gains_shown, self.round_losses_shown,
                                               strict=True))
