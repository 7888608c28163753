"""Venezuela (docs/rules.md §3.2): double-six, two pairs, 7 tiles each, no pile; a pair scores the
opposing pair's hands. Played to 100."""

from __future__ import annotations

from ..rules import Variant
from ..tiles import DOUBLE_SIX
from .pairs import RotatingOpener, lower_partner, opponents_total, pair_totals


class VenezuelaRound(RotatingOpener):
    def finish_domino(self, seat: int, capicua: str) -> None:
        """The domino's pair scores the opposing pair's hands."""
        totals = self.hand_totals()
        points = opponents_total(self, totals, seat)
        self.add_bonus(seat, "domino", points)
        self._finish("domino", seat, totals, "", count=points)

    def finish_tranque(self) -> None:
        """The pair with the lower combined hand scores the opposing pair's; equal: 0 each."""
        totals = self.hand_totals()
        sums = pair_totals(self, totals)
        if sums[0] == sums[1]:
            self._finish("tranque", None, totals, "")
            return
        team = 0 if sums[0] < sums[1] else 1
        seat = lower_partner(self, totals, team)
        points = sums[1 - team]
        self.add_bonus(seat, "tranque", points)
        self._finish("tranque", seat, totals, "", count=points, team=team)


VENEZUELA = Variant(
    name="venezuela",
    section="3.2",
    title="Venezuela (pairs)",
    tileset=DOUBLE_SIX,
    min_players=4,
    max_players=4,
    hand_sizes={4: 7},
    pile=False,
    power=False,
    pairs=True,
    goal="points",
    target=100,
    sheet_losses=False,
    round_type=VenezuelaRound,
)
