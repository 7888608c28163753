"""Doble 15 (docs/rules.md §3.5): 136 tiles, a hub of six arms, and special numbers.

The first player with a double lays it as the hub: six arms, each open on its number (when
nobody holds a double, players draw in turn until one draws a double, and open with it).
Play goes clockwise, to the left: seat ``s`` is followed by ``s - 1`` (D-23). A player who
cannot play draws one tile and plays it if it fits, else passes (D-13). A double may go on
its own number or on a 13. The number a play leaves open at its arm's end (D-14; the hub's
own number too, D-24) may be special:

* 13 hexes the next player: they must play on a 13 (a tile with a 13, or a double); without
  one they draw two tiles and then play anything that fits, if they can. The hex passes on
  until someone plays a double or a 13 (D-25);
* 14: the same player plays again, if they can place a tile without drawing (D-26);
* 15: the player two seats after draws a tile from the pool (D-15; before any count, D-28);
* 3 reverses the direction of play (not with two players).

Emptying one's hand wins the sum of the other hands; a blocked hand (pool empty) goes to the
lowest hand the same way (D-16, D-9). A match is ``rules.rounds`` rounds (D-27).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Literal

from ..events import GameEvent
from ..kernel import set_bits
from ..line import hub
from ..round import Action, IllegalMoveError, Play, Round, Tables
from ..rules import HouseRules, Variant
from ..tiles import DOUBLE_FIFTEEN

HEX = 13
AGAIN = 14
DRAW_ONE = 15
REVERSE = 3
HEX_DRAWS = 2
"""§3.5: a hexed player without a 13 or a double draws two tiles."""

SpecialEffect = Literal["hex", "again", "draw", "reverse"]


@dataclass(frozen=True)
class Special(GameEvent):
    """Doble 15's own event (docs/rules.md §3.5, D-14): the number ``number`` left open by
    ``seat``'s play. ``target`` is the seat it hits: the hexed player (13), the player who
    plays again (14), the player who draws (15); for a reversal (3) the next player."""

    number: int
    effect: SpecialEffect
    target: int

    @property
    def key(self) -> str:
        """Its words go by its effect: ``hex``, ``again``, ``draw`` or ``reverse``."""
        return self.effect

    def seats(self) -> dict[str, int]:
        return {"seat": self.seat, "target": self.target}


class Doble15Round(Round):
    s13: int
    """The suit index of 13."""
    direction: int
    """+1 or -1: the seat after ``s`` is ``s + direction`` (§3.5: to the left, -1)."""
    hexed: bool
    """The player to move is under a 13's hex."""
    hex_live: bool
    """A hex is in force and passes to the next player (D-25)."""
    again: bool
    seeking: bool
    """Nobody held a double: players draw in turn until one draws a double."""
    draw_until_playable: bool
    """D-13, read once: a player who cannot play draws until a tile fits (else one)."""

    def _start(self) -> None:
        self.s13 = self.tab.tileset.suit(HEX)
        self.direction = -1
        self.hexed = False
        self.hex_live = False
        self.again = False
        self.seeking = False
        self.draw_until_playable = self.rules.option("doble15_draw") == "until-playable"
        # ``starter`` is the round's first player; the first holder of a double from there
        # on, in the direction of play, opens (players before them are skipped).
        dm = self.tab.double_mask
        seat = self.starter
        for _ in range(self.players):
            if self.hands[seat] & dm:
                break
            seat = (seat + self.direction) % self.players
        else:
            self.seeking = True
            seat = self.starter
        self.turn = seat

    def _copy_into(self, new: Round, record: bool) -> None:
        super()._copy_into(new, record)
        assert isinstance(new, Doble15Round)
        new.s13 = self.s13
        new.direction = self.direction
        new.hexed = self.hexed
        new.hex_live = self.hex_live
        new.again = self.again
        new.seeking = self.seeking
        new.draw_until_playable = self.draw_until_playable

    # --- opening ------------------------------------------------------------------------

    @classmethod
    def _rule_starter(cls, tab: Tables, hands: list[int]) -> int:
        return 0  # D-23: the first round's first player is seat 0

    @classmethod
    def _check_rule_starter(cls, tab: Tables, hands: list[int], starter: int) -> None:
        """Any seat may be the first player; the first double holder from there opens."""

    def rule_opening(self, seat: int) -> int | None:
        return None  # any double

    @classmethod
    def next_starter(cls, previous: list[Round], rules: HouseRules) -> int | None:
        """D-23: the first player moves one seat on, in the direction of play (to the left)."""
        if not previous:
            return None
        prev = previous[-1]
        return (prev.starter - 1) % prev.players

    # --- where a tile fits ----------------------------------------------------------------

    def fits(self, tid: int, suit: int) -> bool:
        tab = self.tab
        a, b = tab.half_a[tid], tab.half_b[tid]
        return a == suit or b == suit or (a == b and suit == self.s13)

    def _reach(self) -> int:
        """Every tile that fits some arm: its numbers, and every double when a 13 is open."""
        m = self._ends_mask()
        if self.s13 in self.line.open:
            m |= self.tab.double_mask
        return m

    def _hex_answers(self, seat: int) -> int:
        """The tiles of ``seat`` that answer a hex on an open 13: a 13 or a double."""
        if self.s13 not in self.line.open:
            return 0
        return self.hands[seat] & (self.tab.suit_mask[self.s13] | self.tab.double_mask)

    def _answering(self) -> bool:
        """The player to move is hexed, has not drawn, and holds an answer: they must play
        it on a 13."""
        return self.hexed and self.drew_this_turn == 0 and bool(self._hex_answers(self.turn))

    def _hex_draws_due(self) -> bool:
        """A hexed player without an answer must still draw (two tiles, as the pool allows)."""
        if not self.hexed or self.pile_pos >= len(self.pile):
            return False
        if self.drew_this_turn == 0:
            return not self._hex_answers(self.turn)
        return self.drew_this_turn < HEX_DRAWS

    def playable_mask(self, seat: int) -> int:
        h = self.hands[seat]
        if not self.line.started:
            if self.open_tile is not None:
                return h & (1 << self.open_tile)
            return 0 if self.seeking else h & self.tab.double_mask
        if self.hexed and seat == self.turn:
            if self._answering():
                return self._hex_answers(seat)
            if self._hex_draws_due():
                return 0
        return h & self._reach()

    def can_draw(self) -> bool:
        if self.pile_pos >= len(self.pile):
            return False
        if not self.line.started:
            return self.seeking and self.open_tile is None and self.drew_this_turn == 0
        if self._hex_draws_due():
            return True
        return self.draw_until_playable or self.drew_this_turn == 0

    def _plays(self, mask: int) -> list[Action]:
        if not (self.line.started and self._answering()):
            return super()._plays(mask)
        tiles = self.tab.tileset.tiles
        names = self.line.shape.ends
        out: list[Action] = []
        for i in set_bits(mask):
            t = tiles[i]
            for end, suit in enumerate(self.line.open):
                if suit == self.s13:
                    out.append(Play(t.oriented(HEX) if HEX in (t.a, t.b) else t, names[end]))
        return out

    def _check_play(self, play: Play) -> tuple[int, int, int]:
        tid, end, suit = super()._check_play(play)
        where = f"{play.tile} at {'the start' if play.end is None else 'arm ' + play.end}"
        if end < 0:
            if self.seeking and self.open_tile is None:
                raise IllegalMoveError(f"{where}: nobody holds a double, so each player draws "
                                       f"a tile in turn until one draws a double")
            if not self.tab.double_mask >> tid & 1:
                raise IllegalMoveError(f"{where}: Doble 15 opens with a double, the hub of "
                                       f"six arms")
        elif self._answering() and suit != self.s13:
            raise IllegalMoveError(f"{where}: seat {self.turn} is hexed and must play on a 13 "
                                   f"(a tile with a 13, or a double)")
        elif self._hex_draws_due():
            raise IllegalMoveError(f"{where}: seat {self.turn} is hexed and holds no 13 and no "
                                   f"double, so draws two tiles first")
        return tid, end, suit

    # --- turns ----------------------------------------------------------------------------

    def draw_tile(self, seat: int | None = None) -> None:
        super().draw_tile(seat)
        if seat is None and self.seeking and not self.line.started:
            tid = self.pile[self.pile_pos - 1]
            if self.tab.double_mask >> tid & 1:
                self.open_tile = tid

    def sheet_event(self, event: object) -> tuple[str, int, object]:
        """A special number's mark (:data:`SHEET_MARKS`) goes on the row of the play."""
        if isinstance(event, Special):
            return event.effect, event.seat, None
        return super().sheet_event(event)

    def _special(self, seat: int, number: int, effect: SpecialEffect, target: int) -> None:
        if self.record:
            self.log.append(Special(seat, number, effect, target))

    def _after_place(self, seat: int, tid: int, matched: int, open_: int) -> None:
        tab = self.tab
        self.seeking = False
        a, b = tab.half_a[tid], tab.half_b[tid]
        if a == b or a == self.s13 or b == self.s13:
            self.hex_live = False  # a double or a 13 ends the hex
        number = tab.value[open_]
        n = self.players
        if number == HEX:
            self.hex_live = True
            self._special(seat, HEX, "hex", (seat + self.direction) % n)
        elif number == AGAIN:
            if self.hands[seat] & self._reach():
                self.again = True
                self._special(seat, AGAIN, "again", seat)
        elif number == DRAW_ONE:
            target = (seat + 2 * self.direction) % n
            self._special(seat, DRAW_ONE, "draw", target)
            if self.pile_pos < len(self.pile):
                self.draw_tile(target)
        elif number == REVERSE and n > 2:
            self.direction = -self.direction
            self._special(seat, REVERSE, "reverse", (seat + self.direction) % n)

    def _next_seat(self) -> int:
        if self.again:
            self.again = False
            self.hexed = False  # the extra turn is free; the hex waits for the next player
            return self.turn
        self.hexed = self.hex_live
        return (self.turn + self.direction) % self.players

    def is_blocked(self) -> bool:
        if self.pile_pos < len(self.pile) or not self.line.started:
            return False
        m = self._reach()
        return not any(h & m for h in self.hands)

    # --- random play --------------------------------------------------------------------

    def playout(self, rng: random.Random,
                trace: list[tuple[int, int]] | None = None) -> None:
        """Play to the end with uniformly random legal moves, through the same ``place_tile`` /
        ``draw_tile`` / ``pass_turn`` as :meth:`apply` (no inline kernel for the hub)."""
        rnd = rng.random
        ha = self.tab.half_a
        line = self.line
        while not self.over:
            m = self.playable_mask(self.turn)
            if not m:
                if self.can_draw():
                    self.draw_tile()
                else:
                    self.pass_turn()
                continue
            options: list[tuple[int, int]] = []
            if not line.started:
                options = [(tid, -1) for tid in set_bits(m)]
            else:
                only13 = self._answering()
                for tid in set_bits(m):
                    for end, suit in enumerate(line.open):
                        if self.fits(tid, suit) and (not only13 or suit == self.s13):
                            options.append((tid, end))
            tid, end = options[int(rnd() * len(options))] if len(options) > 1 else options[0]
            if trace is not None:
                trace.append((tid, end))
            self.place_tile(tid, end, ha[tid])  # the first half only matters for the hub


OPTIONS = {
    "doble15_draw": ("one", "until-playable"),
    # D-13: a player who cannot play draws one tile and plays it if it fits, else passes
    # ("until-playable": draws until a tile fits or the pool is empty).
    "doble15_trigger": ("open-end",),
    # D-14: a special number counts when a play leaves it open at its arm's end.
    "doble15_fifteen": ("two-after",),
    # D-15: a 15 makes the player two seats after the one who played draw a tile.
    "doble15_block": ("lowest-hand",),
    # D-16: a blocked hand (nobody can play, pool empty) is won by the lowest hand, who scores
    # the sum of all other hands.
}
"""Doble 15's own house rules (``HouseRules.option("doble15_…")``) and their values, the
default first."""

SHEET_MARKS = {"hex": "H", "again": "A", "reverse": "R"}
"""Doble 15's marks on the score sheet, on the row of the play that left the number open:
``H`` a 13 (the next player is hexed), ``A`` a 14 (the player plays again), ``R`` a 3 (the
direction of play reversed). A 15 is written ``↓C`` by every sheet: seat C was made to draw
(C's hand grows, but it is not C's turn, so C's own cells are untouched)."""


DOBLE15 = Variant(
    name="doble15",
    section="3.5",
    title="Doble 15",
    tileset=DOUBLE_FIFTEEN,
    min_players=2,
    max_players=15,
    hand_sizes={p: 9 for p in range(2, 16)},
    pile=True,
    power=False,
    line=hub(6),
    sheet_losses=False,
    round_type=Doble15Round,
    options=OPTIONS,
    sheet_marks=SHEET_MARKS,
)
