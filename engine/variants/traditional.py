"""The traditional draw game (docs/rules.md §3.1): double-six, 2–5 players with 8 − players tiles
each, a pile that always keeps 1 tile (2 with two players), the block counted by differences,
and the highest hand opening the next round. Played to 100 (or 50)."""

from __future__ import annotations

from collections.abc import Sequence

from ..events import RoundEnded
from ..round import Round
from ..rules import HouseRules, Variant
from ..tiles import DOUBLE_SIX


def block_differences(totals: Sequence[int]) -> tuple[int, ...]:
    """§3.1: each hand minus the lowest hand; the lowest hand collects their sum.

    >>> block_differences([15, 19, 22])
    (0, 4, 7)
    """
    low = min(totals)
    return tuple(t - low for t in totals)


def practice_block(totals: Sequence[int], seat: int) -> RoundEnded | None:
    """A practice round end of this game's own (the tutor's ``subtract`` drill): a block with
    these hand totals counted by differences (§3.1), when ``seat`` holds the single lowest
    hand and so collects; None when it does not.

    >>> practice_block((15, 19, 22), 0).count
    11
    """
    totals = tuple(totals)
    low = min(totals)
    if totals.count(low) != 1 or totals[seat] != low:
        return None
    differences = block_differences(totals)
    return RoundEnded("tranque", seat, totals, (0,) * len(totals), totals,
                      count=sum(differences), points=sum(differences), differences=differences)


class TraditionalRound(Round):
    """Domino as in every game (the winner collects the other hands); the hooks below."""

    def finish_tranque(self) -> None:
        """§3.1: the lowest hand collects the difference to each other hand (15, 19, 22 →
        4 + 7 = 11); a shared lowest hand collects nothing (D-9; ``split`` shares it)."""
        totals = self.hand_totals()
        differences = block_differences(totals)
        lowest = [s for s, d in enumerate(differences) if d == 0]
        winner, collected = self.pay_lowest(lowest, sum(differences))
        self._finish("tranque", winner, totals, "", count=collected, differences=differences)

    @classmethod
    def next_starter(cls, previous: list[Round], rules: HouseRules) -> int | None:
        """§3.1: the highest hand at the end of the round opens the next, with any tile;
        equal highest hands: the lower seat (D-19)."""
        if not previous or previous[-1].result is None:
            return None
        totals = previous[-1].result.hand_totals
        return totals.index(max(totals))


OPTIONS: dict[str, tuple[str, ...]] = {
    "opener_tie": ("seat-order",),
    # D-19 (settled here): when two hands tie for the highest hand, the lower seat opens the
    # next round (:meth:`TraditionalRound.next_starter`).
}
"""The traditional game's own house rules (``HouseRules.option("opener_tie")``) and their
values, the default first."""


TRADITIONAL = Variant(
    name="traditional",
    section="3.1",
    title="traditional draw game",
    tileset=DOUBLE_SIX,
    min_players=2,
    max_players=5,
    hand_sizes={p: 8 - p for p in range(2, 6)},
    pile=True,
    power=False,
    keep={2: 2, 3: 1, 4: 1, 5: 1},
    goal="points",
    target=100,
    sheet_losses=False,
    round_type=TraditionalRound,
    options=OPTIONS,
)
