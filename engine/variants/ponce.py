"""Ponce (docs/rules.md §3.3): Venezuela's table, scored by passes and by counts rounded to tens.

Pass points go to the pair of the player who played last, pass by pass: 1 a pass, 2 for the
first pass of the match, nothing for a partner's pass (so a play all three others pass on
scores 2, or 3 when it makes the match's first pass, D-17). A tranque gives its maker's pair
2, then the lowest single hand wins the sum of all four hands for its pair (D-18: the 2
first). The first pair to reach 20 wins at once, even in the middle of a hand (the round ends
with reason ``"target"``). No capicúa.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..events import RoundEnded
from ..round import Round
from ..rules import Variant
from ..tiles import DOUBLE_SIX
from .pairs import RotatingOpener

BLOCK_POINTS = 2
"""§3.3: the tranque's points for the pair of the player who made it."""

PASS_KIND = "pass"
"""Ponce's bonus for the passes a play made the others take (§3.3, D-17)."""
BLOCK_KIND = "block"
"""Ponce's bonus for making the tranque (§3.3, D-18)."""
BONUS_KINDS = (PASS_KIND, BLOCK_KIND)
"""Ponce's own kinds of :class:`~engine.events.Bonus` (their words: its entry in
:mod:`tutor.games`)."""
TARGET_END = "target"
"""The round's end reason (``RoundEnded.reason``) when a pair reaches the match's target in
the middle of the hand (§3.3)."""
END_REASONS = (TARGET_END,)
"""Ponce's own ways a round ends, beyond :data:`engine.events.EndReason`'s (their words: its
entry in :mod:`tutor.games`)."""


def round_count(points: int) -> int:
    """A count in tens, half up (§3.3).

    >>> [round_count(p) for p in (14, 15, 24, 25, 4, 5)]
    [1, 2, 2, 3, 0, 1]
    """
    return (points + 5) // 10


def practice_domino(totals: tuple[int, ...], seat: int) -> RoundEnded | None:
    """A practice round end of this game's own (the tutor's ``round`` drill): ``seat`` went
    out and collects the other hands (``totals``, its own 0), rounded to tens (§3.3); None
    when the count is whole tens already (nothing to round).

    >>> practice_domino((0, 14, 11), 0).points
    3
    """
    count = sum(totals)
    if count % 10 == 0:
        return None
    return RoundEnded("domino", seat, totals, (0,) * len(totals), totals, count=count,
                      points=round_count(count))


@dataclass(frozen=True)
class PonceContext:
    """What a Ponce round needs to know of the match around it
    (:meth:`PonceRound.match_context`)."""

    scores: tuple[int, ...] = ()
    """Each seat's match score before this round (empty: all 0)."""
    passes: int = 0
    """Passes made in the match's earlier rounds (Ponce's first pass, §3.3)."""
    target: int = 0
    """The score that ends the match at once, even mid-hand (Ponce); 0: none."""


RoundContext = PonceContext
"""Its older name (``engine.RoundContext``), from when the base round kept it."""
NO_CONTEXT = PonceContext()
"""A round's context when it is given none (frozen, so shared)."""


class PonceRound(RotatingOpener):
    @classmethod
    def match_context(cls, previous: list[Round], target: int) -> object:
        """The match's scores before this round, its passes so far and its target."""
        players = previous[0].players if previous else 0
        scores = [0] * players
        for r in previous:
            for s in range(players):
                scores[s] += r.gains[s] - r.losses[s]
        return PonceContext(scores=tuple(scores), passes=sum(r.pass_count for r in previous),
                            target=target)

    @property
    def ponce_context(self) -> PonceContext:
        """:attr:`context` as Ponce's (:data:`NO_CONTEXT` when the round was given none)."""
        context = self.context
        return context if isinstance(context, PonceContext) else NO_CONTEXT

    def passes_score(self) -> bool:
        return True

    def _reached(self, seat: int) -> bool:
        """``seat``'s pair has reached the match target (counting this round so far)."""
        context = self.ponce_context
        target = context.target
        if not target:
            return False
        team = self.seat_team[seat]
        before = context.scores or (0,) * self.players
        score = sum(before[s] + self.gains[s] - self.losses[s] for s in self.teams[team])
        return score >= target

    def on_pass(self, seat: int) -> None:
        placer = self.last_placer
        if placer < 0:
            return
        if self.seat_team[placer] == self.seat_team[seat]:
            self.add_bonus(placer, PASS_KIND, 0, "partner")
            return
        # The pass right after a play is an opponent's, so the match's first pass always
        # scores; a play all three others pass on scores pass by pass (D-17).
        first = self.ponce_context.passes + self.pass_count == 1
        self.add_bonus(placer, PASS_KIND, 2 if first else 1, "first" if first else "")
        if self._reached(placer):
            self._finish(TARGET_END, None, self.hand_totals(), "", team=self.seat_team[placer])

    def finish_domino(self, seat: int, capicua: str) -> None:
        """The winner's pair scores the sum of all hands, rounded to tens."""
        totals = self.hand_totals()
        raw = sum(totals)
        points = round_count(raw)
        self.add_bonus(seat, "domino", points, str(raw))
        self._finish("domino", seat, totals, "", count=raw, points=points)

    def finish_tranque(self) -> None:
        totals = self.hand_totals()
        blocker = self.mover
        self.add_bonus(blocker, BLOCK_KIND, BLOCK_POINTS)
        if self._reached(blocker):  # D-18: the 2 come first and may end the match
            self._finish("tranque", None, totals, "", team=self.seat_team[blocker])
            return
        low = min(totals)
        lowest = [s for s, t in enumerate(totals) if t == low]
        if len(lowest) > 1:
            self._finish("tranque", None, totals, "")
            return
        winner = lowest[0]
        raw = sum(totals)
        points = round_count(raw)
        self.add_bonus(winner, "tranque", points, str(raw))
        self._finish("tranque", winner, totals, "", count=raw, points=points)


PONCE = Variant(
    name="ponce",
    section="3.3",
    title="Ponce (pairs)",
    tileset=DOUBLE_SIX,
    min_players=4,
    max_players=4,
    hand_sizes={4: 7},
    pile=False,
    power=False,
    pairs=True,
    goal="points",
    target=20,
    sheet_losses=False,
    round_type=PonceRound,
    sheet_marks={PASS_KIND: "P"},
    # the sheet's P: pass points, on the row of the placement that made the others pass (the
    # points in +x; a partner's free pass adds nothing)
)
