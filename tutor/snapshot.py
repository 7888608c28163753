"""What a screen shows, as one typed, frozen value built once per refresh: the board, the
hands, the scores as far as they are shown, the question waiting, the skills and the log.

The dashboard's panels and the terminal read a :class:`Snapshot`; none of them reaches into
the session's game or questions while drawing.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.round import Action
from engine.tiles import Half, Tile, TileSet
from tutor.hints import Hint
from tutor.lesson_end import LessonSummary
from tutor.questions import Situation

__all__ = ["QuestionView", "SkillView", "Snapshot"]


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


@dataclass(frozen=True)
class SkillView:
    skill: str
    name: str
    p_known: float
    mastered: bool
    asked: int
    first_try_right: int
    target: bool
    """A skill the lesson practises."""

    @property
    def accuracy(self) -> float | None:
        return self.first_try_right / self.asked if self.asked else None


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
    skills: tuple[SkillView, ...]
    log: tuple[str, ...]
    round_over: bool
    round_winner: int | None
    round_end: str | None
    match_over: bool
    match_winners: tuple[int, ...] | None
    unsaved: int
    """Answers not yet written to the progress file (it was busy)."""
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
    before (RULES.md §4); 0 for a bot seat."""
    lesson_title: str = ""
    """The open lesson's title, in the snapshot's language ("" without a lesson file)."""
    lesson_goal: str = ""
    """The open lesson's one-line goal, in the snapshot's language."""

    @property
    def team_scores_shown(self) -> tuple[int, ...]:
        """Pair games: each pair's match score, as far as it is shown."""
        return tuple(sum(self.scores_shown[s] for s in seats) for seats in self.teams)

    @property
    def round_scores_shown(self) -> tuple[int, ...]:
        return tuple(g - lo for g, lo in zip(self.round_gains_shown, self.round_losses_shown,
                                               strict=True))
