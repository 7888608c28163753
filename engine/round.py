"""One round of play: deal, opening, legal moves, drawing, passes, power effects and the end.

The state is kept as small integers and bit masks (hands are masks over tile ids) so that
bots can play thousands of rollouts a second; the public face is tiles, actions and events.
"""

from __future__ import annotations

import random
from collections import deque
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Literal

from .events import (
    Bonus,
    Drew,
    End,
    Event,
    Passed,
    Placed,
    PowerEffect,
    RoundEnded,
    RoundStarted,
)
from .rules import (
    POWER_VS_POWER,
    HouseRules,
    Variant,
    effect_from_total,
    effect_rule,
    number_half,
)
from .tiles import Half, Tile, TileError, TileSet


class IllegalMoveError(ValueError):
    """A move the rules do not allow now; the message names the tile, the end and why."""


class DealError(ValueError):
    """Given hands, pile or table that cannot be a deal of this game."""


@dataclass(frozen=True)
class Play:
    """Place ``tile`` at ``end`` (``"L"``/``"R"``; ``None`` for the round's first tile, which is
    placed with ``tile.a`` on the left)."""

    tile: Tile
    end: End | None = None

    def __str__(self) -> str:
        return str(self.tile) if self.end is None else f"{self.tile} {self.end}"


@dataclass(frozen=True)
class Draw:
    """Draw one tile from the pile (only when no tile in hand fits)."""

    def __str__(self) -> str:
        return "draw"


@dataclass(frozen=True)
class Pass:
    """Pass (only when no tile fits and nothing can be drawn)."""

    def __str__(self) -> str:
        return "pass"


DRAW = Draw()
PASS = Pass()
Action = Play | Draw | Pass

_END_NAMES: tuple[End, End] = ("L", "R")


class Tables:
    """Per-tile lookup tables for one tile set, symbol value and power setting."""

    def __init__(self, tileset: TileSet, symbol_value: int, power: bool) -> None:
        self.tileset = tileset
        ts = tileset
        self.n = len(ts)
        self.half_a = ts.half_a
        self.half_b = ts.half_b
        self.suit_mask = ts.suit_mask
        value = [symbol_value if sym else s for s, sym in zip(ts.suits, ts.is_symbol,
                                                              strict=True)]
        self.value = tuple(int(v) for v in value)
        self.total = tuple(self.value[a] + self.value[b]
                           for a, b in zip(ts.half_a, ts.half_b, strict=True))
        self.power = tuple(power and t.is_power for t in ts.tiles)
        self.rule = tuple(effect_rule(t) if power else "" for t in ts.tiles)
        self.number = tuple(number_half(t) for t in ts.tiles)
        # D-2 weight: highest total, then highest single half.
        self.weight = tuple((self.total[i], max(self.value[a], self.value[b]))
                            for i, (a, b) in enumerate(zip(ts.half_a, ts.half_b, strict=True)))
        self.numeric_double = tuple(
            a == b and not ts.is_symbol[a] for a, b in zip(ts.half_a, ts.half_b, strict=True))
        # Opening priority (RULES.md §1.4, D-2): numeric doubles first, then by weight.
        self.open_order = tuple(sorted(
            ((1 if self.numeric_double[i] else 0, self.weight[i]), i) for i in range(self.n)
        )[::-1])
        self.bit = tuple(1 << i for i in range(self.n))

    def hand_total(self, mask: int) -> int:
        total = 0
        tot = self.total
        while mask:
            low = mask & -mask
            total += tot[low.bit_length() - 1]
            mask ^= low
        return total


@lru_cache(maxsize=32)
def tables(tileset: TileSet, symbol_value: int, power: bool) -> Tables:
    return Tables(tileset, symbol_value, power)


def _bits(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


class Round:
    """A round in progress. Build it with :meth:`deal` (random) or :meth:`from_deal` (given)."""

    def __init__(
        self,
        variant: Variant,
        rules: HouseRules,
        hands: list[int],
        pile: list[int],
        table: int | None,
        starter: int,
        *,
        number: int = 1,
        opening: Literal["rule", "any"] = "rule",
        record: bool = True,
    ) -> None:
        self.variant = variant
        self.rules = rules
        self.tab = tables(variant.tileset, rules.symbol_value, variant.power)
        self.players = len(hands)
        self.number = number
        self.hands = list(hands)
        self.pile = list(pile)
        self.pile_pos = 0
        self.table = table
        self.starter = starter
        self.turn = starter
        self.gains = [0] * self.players
        self.losses = [0] * self.players
        self.line: deque[tuple[int, int, int]] = deque()  # (tile id, left suit, right suit)
        self.el = self.er = self.tl = self.tr = -1
        self.open_tile: int | None = None
        self.opened = False  # a player has placed a tile
        self.opener = -1
        self.placements = 0
        self.last_placer = -1
        self.passes = 0
        self.drew_this_turn = 0
        self.salida_paid = False
        self.over = False
        self.result: RoundEnded | None = None
        self.voids = [0] * self.players  # suits each seat is known not to hold
        self.record = record
        self.log: list[Event] = []
        self.turns: list[dict[str, Any]] = []
        self._turn: dict[str, Any] | None = None
        self.initial_hands = list(hands)
        if table is not None:
            a, b = self.tab.half_a[table], self.tab.half_b[table]
            self.line.append((table, a, b))
            self.el, self.er, self.tl, self.tr = a, b, table, table
        elif opening == "rule":
            self.open_tile = self._rule_opening(starter)
        if record:
            self.log.append(RoundStarted(number, self.players, starter, self._tile(table),
                                         tuple(self.hand_sizes), len(self.pile)))

    # --- construction ---------------------------------------------------------------------

    @classmethod
    def deal(
        cls,
        variant: Variant,
        rules: HouseRules,
        players: int,
        rng: random.Random,
        *,
        number: int = 1,
        starter: int | None = None,
        record: bool = True,
    ) -> Round:
        """A shuffled deal (RULES.md §1.4). ``starter`` given means the D-3 "rotate" opening:
        that seat opens with any tile (with a table tile, it plays first onto it)."""
        variant.check_players(players)
        tab = tables(variant.tileset, rules.symbol_value, variant.power)
        n = tab.n
        size = variant.hand_sizes[players]
        table: int | None = None
        rnd = rng.random
        # Sorting by random keys is a uniform shuffle, and twice as fast as random.shuffle.
        if players in variant.table_tile_players:
            if starter is None:
                draws = rng.sample(range(n), players)
                starter = max(range(players), key=lambda s: (tab.weight[draws[s]], -s))
            order = sorted(range(n), key=lambda _: rnd())
            table = order[players * size]
            rest: list[int] = []
        else:
            order = sorted(range(n), key=lambda _: rnd())
            rest = order[players * size:] if variant.pile else []
        bit = tab.bit.__getitem__
        # The bits are distinct, so their sum is the hand's mask.
        hands = [sum(map(bit, order[s * size:(s + 1) * size])) for s in range(players)]
        opening: Literal["rule", "any"] = "rule"
        if starter is None:
            starter = cls._rule_starter(tab, hands)
        elif table is None:
            opening = "any"
        return cls(variant, rules, hands, rest, table, starter, number=number,
                   opening=opening, record=record)

    @classmethod
    def from_deal(
        cls,
        variant: Variant,
        rules: HouseRules,
        hands: list[list[Tile | str]],
        pile: list[Tile | str] | tuple[()] = (),
        table: Tile | str | None = None,
        starter: int | None = None,
        *,
        number: int = 1,
        opening: Literal["rule", "any"] = "rule",
        record: bool = True,
    ) -> Round:
        """A round from a prepared deal (lessons, tests, replays). Raises :class:`DealError`."""
        ts = variant.tileset
        players = len(hands)
        try:
            variant.check_players(players)
        except ValueError as e:
            raise DealError(str(e)) from None
        tab = tables(ts, rules.symbol_value, variant.power)
        seen: dict[int, str] = {}

        def ident(text: Tile | str, where: str) -> int:
            try:
                tile = ts.parse(text)
            except TileError as e:
                raise DealError(f"{where}: {e}") from None
            i = ts.id(tile)
            if i in seen:
                raise DealError(f"{where}: {tile} is dealt twice (also in {seen[i]})")
            seen[i] = where
            return i

        size = variant.hand_sizes[players]
        masks = []
        for s, hand in enumerate(hands):
            if len(hand) != size:
                raise DealError(f"seat {s} holds {len(hand)} tiles; {variant.name} with "
                                f"{players} players deals {size} each")
            m = 0
            for t in hand:
                m |= 1 << ident(t, f"seat {s}'s hand")
            masks.append(m)
        pile_ids = [ident(t, "the pile") for t in pile]
        table_id = None if table is None else ident(table, "the table tile")
        with_table = players in variant.table_tile_players
        if with_table and table_id is None:
            raise DealError(f"{variant.name} with {players} players needs a table tile")
        if not with_table and table_id is not None:
            raise DealError(f"{variant.name} with {players} players has no table tile")
        if pile_ids and not variant.pile:
            raise DealError(f"{variant.name} has no pile to draw from")
        if variant.pile and len(seen) != tab.n:
            missing = [str(ts.tiles[i]) for i in range(tab.n) if i not in seen]
            raise DealError(f"the deal must use all {tab.n} tiles; missing: "
                            f"{', '.join(missing[:6])}{' …' if len(missing) > 6 else ''}")
        if starter is not None and not (isinstance(starter, int) and 0 <= starter < players):
            raise DealError(f"starter must be a seat from 0 to {players - 1}, not {starter!r}")
        if starter is None:
            if with_table:
                raise DealError("a 4-player Leonard deal must name its starter")
            starter = cls._rule_starter(tab, masks)
        elif opening == "rule" and not with_table:
            expected = cls._rule_starter(tab, masks)
            if starter != expected:
                raise DealError(f"seat {starter} cannot open: seat {expected} holds "
                                f"{ts.tiles[cls._rule_tile(tab, masks[expected])]}, which opens")
        return cls(variant, rules, masks, pile_ids, table_id, starter, number=number,
                   opening=opening, record=record)

    @staticmethod
    def _rule_tile(tab: Tables, mask: int) -> int:
        """The tile a hand would open with by rule: its highest numeric double, else (D-2)
        its heaviest tile."""
        for _, tid in tab.open_order:
            if mask >> tid & 1:
                return tid
        raise DealError("an empty hand cannot open")

    @classmethod
    def _rule_starter(cls, tab: Tables, hands: list[int]) -> int:
        """The seat holding the best opening tile; equal tiles (D-2) go by seat order."""
        best_key = None
        best = -1
        for key, tid in tab.open_order:
            if best_key is not None and key != best_key:
                break
            for s, h in enumerate(hands):
                if h >> tid & 1:
                    if best < 0 or s < best:
                        best, best_key = s, key
                    break
        if best < 0:
            raise DealError("nobody holds a tile to open with")
        return best

    def _rule_opening(self, seat: int) -> int:
        return self._rule_tile(self.tab, self.hands[seat])

    # --- reading the state ----------------------------------------------------------------

    def _tile(self, tid: int | None) -> Tile | None:
        return None if tid is None or tid < 0 else self.tab.tileset.tiles[tid]

    def _suit(self, s: int) -> Half:
        return self.tab.tileset.suits[s]

    @property
    def tileset(self) -> TileSet:
        return self.tab.tileset

    @property
    def hand_sizes(self) -> list[int]:
        return [h.bit_count() for h in self.hands]

    def hand(self, seat: int) -> list[Tile]:
        return self.tab.tileset.from_mask(self.hands[seat])

    @property
    def pile_count(self) -> int:
        return len(self.pile) - self.pile_pos

    @property
    def pile_tiles(self) -> list[Tile]:
        return [self.tab.tileset.tiles[i] for i in self.pile[self.pile_pos:]]

    def line_tiles(self) -> list[Tile]:
        """The line left to right, each tile with its left half first."""
        suits = self.tab.tileset.suits
        return [Tile(suits[a], suits[b]) for _, a, b in self.line]

    @property
    def ends(self) -> tuple[Half, Half] | None:
        if self.el < 0:
            return None
        return self._suit(self.el), self._suit(self.er)

    def end_tile(self, end: End) -> Tile | None:
        return self._tile(self.tl if end == "L" else self.tr)

    def right_of(self, seat: int) -> int:
        """The right-hand player: the one who plays after ``seat`` (RULES.md §1.3)."""
        return (seat + 1) % self.players

    def _playable_mask(self, seat: int) -> int:
        h = self.hands[seat]
        if self.el < 0:
            return h if self.open_tile is None else h & (1 << self.open_tile)
        sm = self.tab.suit_mask
        return h & (sm[self.el] | sm[self.er])

    def _can_draw(self) -> bool:
        if self.pile_pos >= len(self.pile):
            return False
        return self.rules.draw == "until-playable" or self.drew_this_turn == 0

    def legal_moves(self) -> list[Action]:
        """Every action the player to move may take: plays (tile, end), else draw, else pass."""
        if self.over:
            return []
        m = self._playable_mask(self.turn)
        if not m:
            return [DRAW] if self._can_draw() else [PASS]
        tiles = self.tab.tileset.tiles
        ha, hb = self.tab.half_a, self.tab.half_b
        out: list[Action] = []
        for i in _bits(m):
            t = tiles[i]
            if self.el < 0:
                out.append(Play(t, None))
                continue
            for end, suit in ((0, self.el), (1, self.er)):
                if ha[i] == suit or hb[i] == suit:
                    first = self._suit(suit)
                    out.append(Play(t.oriented(first), _END_NAMES[end]))
        return out

    # --- applying actions -----------------------------------------------------------------

    def apply(self, action: Action, seat: int | None = None) -> list[Event]:
        """Apply one action of the player to move (``seat`` checks whose turn it is) and return
        the events it caused. An illegal action raises :class:`IllegalMoveError` and changes
        nothing."""
        if self.over:
            raise IllegalMoveError(f"{action}: the round is over")
        if seat is not None and seat != self.turn:
            raise IllegalMoveError(f"{action}: it is not seat {seat}'s turn but seat "
                                   f"{self.turn}'s")
        start = len(self.log)
        if isinstance(action, Play):
            tid, end, first = self._check_play(action)
            self._place(tid, end, first)
        elif isinstance(action, Draw):
            if self._playable_mask(self.turn):
                raise IllegalMoveError("draw: you have a tile that fits, so you must play it")
            if not self._can_draw():
                raise IllegalMoveError("draw: there is nothing left to draw")
            self._draw()
        elif isinstance(action, Pass):
            if self._playable_mask(self.turn):
                raise IllegalMoveError("pass: you have a tile that fits, so you must play it")
            if self._can_draw():
                raise IllegalMoveError("pass: you must draw from the pile first")
            self._pass()
        else:
            raise IllegalMoveError(f"{action!r} is not a move: play a tile, draw or pass")
        return self.log[start:]

    def _check_play(self, play: Play) -> tuple[int, int, int]:
        seat = self.turn
        ts = self.tab.tileset
        try:
            tid = ts.id(play.tile)
        except TileError as e:
            raise IllegalMoveError(str(e)) from None
        where = f"{play.tile} at {'the start' if play.end is None else 'end ' + play.end}"
        if not self.hands[seat] >> tid & 1:
            raise IllegalMoveError(f"{where}: {play.tile} is not in seat {seat}'s hand")
        if self.el < 0:
            if play.end is not None:
                raise IllegalMoveError(f"{where}: the line is empty, so the tile has no end "
                                       f"to go to (give no end)")
            if self.open_tile is not None and tid != self.open_tile:
                raise IllegalMoveError(f"{where}: the round opens with "
                                       f"{ts.tiles[self.open_tile]}")
            return tid, -1, ts.suit(play.tile.a)
        if play.end not in ("L", "R"):
            raise IllegalMoveError(f"{where}: choose the end, L or R")
        end = 0 if play.end == "L" else 1
        suit = self.el if end == 0 else self.er
        if self.tab.half_a[tid] != suit and self.tab.half_b[tid] != suit:
            raise IllegalMoveError(f"{where}: {play.tile} does not match the open "
                                   f"{self._suit(suit)} at end {play.end}")
        return tid, end, suit

    def _begin_turn(self) -> dict[str, Any]:
        if self._turn is None:
            self._turn = {"player": self.turn, "drew": [], "play": None}
        return self._turn

    def _end_turn(self) -> None:
        if self.record:
            self.turns.append(self._begin_turn())
            self._turn = None
        self.drew_this_turn = 0
        if not self.over:
            self.turn = (self.turn + 1) % self.players

    def _draw(self) -> None:
        seat = self.turn
        tid = self.pile[self.pile_pos]
        self.pile_pos += 1
        self.hands[seat] |= 1 << tid
        self.drew_this_turn += 1
        self.voids[seat] = 0  # the drawn tile is unseen: no suit is known missing any more
        if self.record:
            tile = self.tab.tileset.tiles[tid]
            self._begin_turn()["drew"].append(str(tile))
            self.log.append(Drew(seat, tile))

    def _pass(self) -> None:
        seat = self.turn
        self.passes += 1
        if self.el >= 0:
            self.voids[seat] |= (1 << self.el) | (1 << self.er)
        if self.record:
            self._begin_turn()
            self.log.append(Passed(seat, (self._suit(self.el), self._suit(self.er))
                                   if self.el >= 0 else ()))
        bonus = self.variant.pass_bonus
        if bonus and self.passes == 1 and self.placements == 1 and seat == \
                (self.opener + 1) % self.players:
            self.salida_paid = True
            self._bonus(self.opener, "paso-a-la-salida", bonus)
        self._end_turn()
        if self._blocked():
            self._finish_tranque()
        elif bonus and self.passes == self.players - 1 and self.turn == self.last_placer \
                and self._playable_mask(self.turn):
            if not (self.salida_paid and self.placements == 1
                    and not self.rules.both_pass_bonuses):
                self._bonus(self.turn, "paso-corrido", bonus)

    def _bonus(self, seat: int, kind: Any, points: int, detail: str = "") -> None:
        self.gains[seat] += points
        if self.record:
            self.log.append(Bonus(seat, kind, points, detail))

    def _blocked(self) -> bool:
        """RULES.md §1.8: nobody can place a tile and there is nothing to draw."""
        if self.pile_pos < len(self.pile) or self.el < 0:
            return False
        sm = self.tab.suit_mask
        m = sm[self.el] | sm[self.er]
        for h in self.hands:
            if h & m:
                return False
        return True

    def _place(self, tid: int, end: int, first: int) -> None:
        tab = self.tab
        seat = self.turn
        h = self.hands[seat] ^ (1 << tid)
        self.hands[seat] = h
        a = tab.half_a[tid]
        b = tab.half_b[tid]
        capicua = False
        end_tiles = (self.tl, self.tr)
        if end < 0:
            left, right = (a, b) if first == a else (b, a)
            self.line.append((tid, left, right))
            self.el, self.er, self.tl, self.tr = left, right, tid, tid
            other = -1
            matched, open_ = left, right
        elif end == 0:
            matched = self.el
            open_ = b if a == matched else a
            capicua = a == self.er or b == self.er
            other = self.tr
            self.line.appendleft((tid, open_, matched))
            self.el, self.tl = open_, tid
        else:
            matched = self.er
            open_ = b if a == matched else a
            capicua = a == self.el or b == self.el
            other = self.tl
            self.line.append((tid, matched, open_))
            self.er, self.tr = open_, tid
        opening = not self.opened
        if opening:
            self.opened = True
            self.opener = seat
        self.placements += 1
        self.last_placer = seat
        self.passes = 0
        if self.record:
            suits = tab.tileset.suits
            tile = Tile(suits[matched], suits[open_])
            self._begin_turn()["play"] = {"tile": str(tile),
                                          "end": None if end < 0 else _END_NAMES[end]}
            self.log.append(Placed(seat, tile, None if end < 0 else _END_NAMES[end], opening))
        if tab.power[tid]:
            self._power(seat, tid, other)
        if not h:
            kind = ""
            if capicua and self.variant.capicua_bonus:
                if self.rules.capicua_kind == "last-tile":
                    kind = "KP" if tab.power[tid] else "K"
                else:
                    kind = "KP" if tab.power[end_tiles[0]] or tab.power[end_tiles[1]] else "K"
                self._bonus(seat, "capicua", self.variant.capicua_bonus, kind)
            self._finish_domino(seat, kind)
            self._end_turn()
            return
        self._end_turn()
        if self._blocked():
            self._finish_tranque()

    def _effect(self, tid: int, other: int) -> tuple[str, int, int, int | None]:
        """RULES.md §1.6 for tile ``tid`` placed with tile ``other`` at the other end
        (-1: none, an opening): the rule applied, gain, loss and T."""
        tab = self.tab
        if other < 0:
            return "neutralized", 0, 0, None
        t = tab.total[other]
        if tab.power[other]:
            return "power-vs-power", POWER_VS_POWER, POWER_VS_POWER, t
        rule = tab.rule[tid]
        gain, loss = effect_from_total(rule, tab.number[tid], t)
        return rule, gain, loss, t

    def play_points(self, play: Play) -> tuple[int, int]:
        """``(gain, loss inflicted)`` that placing ``play`` now would score at once from its
        power effect; ``(0, 0)`` for a basic tile or an opening. Reads only the line."""
        tid = self.tab.tileset.id(play.tile)
        if not self.tab.power[tid] or play.end is None:
            return 0, 0
        _, gain, loss, _ = self._effect(tid, self.tr if play.end == "L" else self.tl)
        return gain, loss

    def _power(self, seat: int, tid: int, other: int) -> None:
        target = (seat + 1) % self.players
        rule, gain, loss, t = self._effect(tid, other)
        self.gains[seat] += gain
        self.losses[target] += loss
        if self.record:
            self.log.append(PowerEffect(seat, target, self.log[-1].tile,  # type: ignore[union-attr]
                                        rule, gain, loss, t, self._tile(other),
                                        self.tab.number[tid]))

    def _finish_domino(self, seat: int, capicua: str) -> None:
        totals = [self.tab.hand_total(h) for h in self.hands]
        self._bonus(seat, "domino", sum(totals))
        self._finish("domino", seat, totals, capicua)

    def _finish_tranque(self) -> None:
        totals = [self.tab.hand_total(h) for h in self.hands]
        low = min(totals)
        lowest = [s for s, t in enumerate(totals) if t == low]
        others = sum(totals) - low * len(lowest)
        winner: int | None = None
        if len(lowest) == 1:
            winner = lowest[0]
            self._bonus(winner, "tranque", others)
        elif self.rules.tranque_tie == "split":
            for s in lowest:
                self._bonus(s, "tranque", others // len(lowest))
        self._finish("tranque", winner, totals, "")

    def _finish(self, reason: Any, winner: int | None, totals: list[int], capicua: str) -> None:
        self.over = True
        self.result = RoundEnded(reason, winner, tuple(self.gains), tuple(self.losses),
                                 tuple(totals), capicua)
        if self.record:
            self.log.append(self.result)

    # --- fast random play (bots' rollouts, benchmarks) -------------------------------------

    def playout(self, rng: random.Random,
                trace: list[tuple[int, int]] | None = None) -> None:
        """Play the round to its end with uniformly random legal moves (the bots' rollouts).

        The common step, a placement that neither opens, ends the round nor scores a power
        effect, runs inline on local variables; every other step goes through the same
        ``_place``/``_draw``/``_pass`` as :meth:`apply`. ``trace`` collects (tile id, end)
        per placement so tests can replay the same game through :meth:`apply`.
        """
        rnd = rng.random
        tab = self.tab
        sm, ha, hb, power = tab.suit_mask, tab.half_a, tab.half_b, tab.power
        hands, line, players = self.hands, self.line, self.players
        pile_len = len(self.pile)
        voids = self.voids
        # Passes run inline only where they score nothing (no paso bonuses) and with no events.
        quiet_pass = not self.variant.pass_bonus and not self.record
        fast = not self.record
        while not self.over:
            # Load the state into locals; the inline loop writes it back before any method.
            el, er, tl, tr, turn = self.el, self.er, self.tl, self.tr, self.turn
            placements, passes, last = self.placements, self.passes, self.last_placer
            drawable = self.pile_pos < pile_len
            opened = self.opened
            drew = self.drew_this_turn
            held = 0  # every tile in any hand: a tranque is "no held tile fits an end"
            for hh in hands:
                held |= hh
            while True:
                if el < 0:
                    m = hands[turn]
                    if self.open_tile is not None:
                        m &= 1 << self.open_tile
                else:
                    m = hands[turn] & (sm[el] | sm[er])
                if not m:
                    if drawable or not quiet_pass or el < 0:
                        break
                    passes += 1
                    voids[turn] |= (1 << el) | (1 << er)
                    turn += 1
                    if turn == players:
                        turn = 0
                    drew = 0
                    if not held & (sm[el] | sm[er]):
                        tid = -2
                        m = 1
                        break
                    continue
                if m & (m - 1):
                    k = int(rnd() * m.bit_count())
                    while k:
                        m &= m - 1
                        k -= 1
                tid = (m & -m).bit_length() - 1
                a = ha[tid]
                b = hb[tid]
                if el < 0:
                    end = -1
                elif a == el or b == el:
                    end = 1 if (a == er or b == er) and rnd() < 0.5 else 0
                else:
                    end = 1
                if trace is not None:
                    trace.append((tid, end))
                bit = 1 << tid
                h = hands[turn] ^ bit
                if not h or not opened or power[tid] or drew or not fast:
                    break
                hands[turn] = h
                held ^= bit
                if end == 0:
                    el = b if a == el else a
                    line.appendleft((tid, el, a + b - el))
                    tl = tid
                else:
                    er = b if a == er else a
                    line.append((tid, a + b - er, er))
                    tr = tid
                placements += 1
                last = turn
                passes = 0
                turn += 1
                if turn == players:
                    turn = 0
                if not drawable and not held & (sm[el] | sm[er]):
                    tid = -2  # tranque: finish through the shared code below
                    break
            self.el, self.er, self.tl, self.tr, self.turn = el, er, tl, tr, turn
            self.placements, self.passes, self.last_placer = placements, passes, last
            if not m:
                if self._can_draw():
                    self._draw()
                else:
                    self._pass()
            elif tid == -2:
                self._finish_tranque()
            else:
                self._place(tid, end, a)

    # --- views and copies -----------------------------------------------------------------

    def copy(self, record: bool = False) -> Round:
        """An independent copy (without the event log unless ``record``)."""
        new = object.__new__(Round)
        new.__dict__.update(self.__dict__)
        new.hands = list(self.hands)
        new.pile = list(self.pile)
        new.gains = list(self.gains)
        new.losses = list(self.losses)
        new.voids = list(self.voids)
        new.line = deque(self.line)
        new.record = record
        new.log = list(self.log) if record else []
        new.turns = [dict(t) for t in self.turns] if record else []
        new._turn = None
        return new

    def __repr__(self) -> str:
        line = " ".join(map(str, self.line_tiles()))
        return (f"<Round {self.variant.name} {self.players}p #{self.number} turn={self.turn} "
                f"line=[{line}] over={self.over}>")
