"""All fives on a line: a house game, the draw game that scores the ends as they are played.

*All fives* ("todos los cincos", the game known in English as All Fives or Muggins), as
houses play it on a line without a spinner (its rules are stated here, in its module):

* double-six, 2 to 4 players, 7 tiles each with two players and 5 with three or four; the
  rest is a pile to draw from, until a tile fits (D-4); the first round is opened by the
  highest double (else the heaviest tile, D-2), later rounds as the house rule D-3 says;
* **the ends count**: after each placement the open ends are added up, a double at an end
  counting both its halves (the first tile alone: its two halves). When that sum is a
  multiple of five, the player who placed the tile scores it at once (6 and 4 open: 10;
  a 5/5 at one end and a 5 at the other: 15). The round logs it as a :class:`Fives` event,
  which shows the sum, and a bonus of kind ``fives``, which pays it (``F`` on the score
  sheet);
* **domino**: the player who places their last tile gains the totals of every tile left in
  the other hands (docs/rules.md §1.8); a **tranque**: the lowest hand gains them (D-9);
* a match is ``rules.rounds`` rounds (D-10); the highest total wins.

The whole game is this module: the registry finds it by itself (:mod:`engine.variants`).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace

from ..actions import Play
from ..events import GameEvent
from ..round import Round
from ..rules import BLOCK_VARIANT

FIVES = 5
"""The ends score when their sum is a multiple of this."""
FIVES_KIND = "fives"
"""The game's own kind of :class:`~engine.events.Bonus`: the ends' sum, paid."""


@dataclass(frozen=True)
class Fives(GameEvent):
    """All fives' own event: ``seat``'s placement left the ends counting ``left`` and
    ``right`` (a double at an end counted twice; the first tile: its two halves), whose sum,
    ``total``, is a multiple of five. The bonus that pays it follows."""

    left: int
    right: int
    total: int

    def numbers(self) -> dict[str, int]:
        return {"left": self.left, "right": self.right, "total": self.total}


class FivesRound(Round):
    """The base round, with the ends counted after each placement."""

    def ends_count(self) -> tuple[int, int]:
        """What each open end counts now: its number, twice for a double at the end;
        the first tile alone counts its two halves."""
        tab, line = self.tab, self.line
        left, right = line.tips[0], line.tips[-1]
        if left == right:  # the first tile alone
            return tab.value[tab.half_a[left]], tab.value[tab.half_b[left]]
        counts = [tab.value[line.open[end]] * (2 if tab.double_mask >> tip & 1 else 1)
                  for end, tip in ((0, left), (1, right))]
        return counts[0], counts[1]

    def _after_place(self, seat: int, tid: int, matched: int, open_: int) -> None:
        left, right = self.ends_count()
        total = left + right
        if total and total % FIVES == 0:
            if self.record:
                self.log.append(Fives(seat, left, right, total))
            self.add_bonus(seat, FIVES_KIND, total)

    def playout(self, rng: random.Random,
                trace: list[tuple[int, int]] | None = None) -> None:
        """Play to the end with uniformly random legal moves, move by move through
        :meth:`apply`, whose placements count the ends (the playout kernel's inline
        placements would skip :meth:`_after_place`)."""
        while not self.over:
            moves = self.legal_actions()
            move = moves[int(rng.random() * len(moves))] if len(moves) > 1 else moves[0]
            if trace is not None and isinstance(move, Play):
                end = -1 if move.end is None else self.line.shape.index(move.end)
                trace.append((self.tab.tileset.id(move.tile), end))
            self.apply(move)


FIVES_VARIANT = replace(
    BLOCK_VARIANT,  # its tiles and its count of a hand
    name="fives",
    title="all fives (double six)",
    hand_sizes={2: 7, 3: 5, 4: 5},
    pile=True,
    sheet_losses=False,
    sheet_named=True,
    round_type=FivesRound,
    sheet_marks={FIVES_KIND: "F"},
)
