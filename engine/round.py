"""One round of play: deal, opening, legal moves, drawing, passes, power effects and the end.

The state is kept as small integers and bit masks (hands are masks over tile ids) so that
bots can play thousands of rollouts a second; the public face is tiles, actions and events.

:class:`Round` plays Leonard and the block game. The classic variants (``engine/variants/``)
subclass it and override a few hooks, python-chess style: ``_on_pass`` (pass points),
``_after_place`` (special numbers), ``_next_seat`` (direction of play), ``_finish_domino`` /
``_finish_tranque`` (how a hand is counted), ``_annul`` (a redeal) and ``next_starter``
(who opens the next round). Where tiles go is the round's :class:`~engine.line.Line`.
"""

from __future__ import annotations

import random
import types
from dataclasses import dataclass
from functools import lru_cache
from itertools import repeat, starmap
from operator import itemgetter
from typing import Any, Final, Literal

from .events import (
    Bonus,
    Drew,
    End,
    EndReason,
    Event,
    Passed,
    Placed,
    PowerEffect,
    RoundEnded,
    RoundStarted,
)
from .line import Line, Placement
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
    """Place ``tile`` at ``end`` (``"L"``/``"R"``, or an arm ``"1"`` … ``"6"`` of a Doble 15
    hub; ``None`` for the round's first tile, which is placed with ``tile.a`` on the left)."""

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


@dataclass(frozen=True)
class Annul:
    """Ask for a redeal: Cuban double-nine, five or more doubles, on one's first turn (§3.4)."""

    def __str__(self) -> str:
        return "annul"


DRAW = Draw()
PASS = Pass()
ANNUL = Annul()
Action = Play | Draw | Pass
"""What :meth:`Round.legal_moves` lists. :data:`ANNUL`, the Cuban redeal, is never listed:
it is an option on top of them (:meth:`Round.may_annul`), which :meth:`Round.apply` takes."""


@dataclass(frozen=True)
class RoundContext:
    """What a round needs to know of the match around it."""

    scores: tuple[int, ...] = ()
    """Each seat's match score before this round (empty: all 0)."""
    passes: int = 0
    """Passes made in the match's earlier rounds (Ponce's first pass, §3.3)."""
    target: int = 0
    """The score that ends the match at once, even mid-hand (Ponce); 0: none."""


NO_CONTEXT = RoundContext()
"""A round's context when it is given none (frozen, so shared): building one per round costs a
microsecond in the compiled build, where a dataclass's generated ``__init__`` is not
compiled (3 % of a block game)."""


class Tables:
    """Per-tile lookup tables for one tile set, symbol value and power setting."""

    def __init__(self, tileset: TileSet, symbol_value: int, power: bool) -> None:
        self.tileset = tileset
        ts = tileset
        self.n = len(ts)
        self.bit = tuple(1 << i for i in range(self.n))
        """``1 << id`` by tile id."""
        self.half_sum = tuple(a + b for a, b in zip(ts.half_a, ts.half_b, strict=True))
        """Each tile's two suits added: the one a tile does not match is this less the
        matched one."""
        self.half_a = ts.half_a
        self.half_b = ts.half_b
        self.suit_mask = ts.suit_mask
        value = [symbol_value if sym else s for s, sym in zip(ts.suits, ts.is_symbol,
                                                              strict=True)]
        self.value = tuple(int(v) for v in value)
        self.total = tuple(self.value[a] + self.value[b]
                           for a, b in zip(ts.half_a, ts.half_b, strict=True))
        self.byte_totals = tuple(tuple(sum(self.total[8 * c + i] for i in range(8)
                                           if byte >> i & 1 and 8 * c + i < self.n)
                                       for byte in range(256))
                                 for c in range((self.n + 7) // 8))
        """``byte_totals[c][byte]``: the total of the tiles ``8 * c + i`` for each bit ``i``
        set in ``byte`` (a hand's total is a sum over its bytes)."""
        self.power = tuple(power and t.is_power for t in ts.tiles)
        self.powered = any(self.power)
        """Some tile has a power effect (Leonard): the playout kernel skips the check if not."""
        self.rule = tuple(effect_rule(t) if power else "" for t in ts.tiles)
        self.number = tuple(number_half(t) for t in ts.tiles)
        # D-2 weight: highest total, then highest single half.
        self.weight = tuple((self.total[i], max(self.value[a], self.value[b]))
                            for i, (a, b) in enumerate(zip(ts.half_a, ts.half_b, strict=True)))
        self.numeric_double = tuple(
            a == b and not ts.is_symbol[a] for a, b in zip(ts.half_a, ts.half_b, strict=True))
        self.double_mask = sum(1 << i for i in range(self.n) if ts.half_a[i] == ts.half_b[i])
        # Opening priority (RULES.md §1.4, D-2): numeric doubles first, then by weight.
        self.open_order = tuple(sorted(
            ((1 if self.numeric_double[i] else 0, self.weight[i]), i) for i in range(self.n)
        )[::-1])
        # RULES.md §1.6 for power tile i placed with tile j at the other end of the line, at
        # [i * n + j]: the gain and the loss it inflicts (0 for a basic tile i). Both
        # :meth:`Round._effect` and the playout kernel read them.
        n = self.n
        gain = [0] * (n * n)
        loss = [0] * (n * n)
        for i in range(n):
            if not self.power[i]:
                continue
            for j in range(n):
                if self.power[j]:
                    g, lo = POWER_VS_POWER, POWER_VS_POWER
                else:
                    g, lo = effect_from_total(self.rule[i], self.number[i], self.total[j])
                gain[i * n + j] = g
                loss[i * n + j] = lo
        self.effect_gain = tuple(gain)
        self.effect_loss = tuple(loss)
        suits = len(ts.suits)
        self.end_suits = tuple((1 << a) | (1 << b) for a in range(suits) for b in range(suits))
        """``end_suits[a * suits + b]``: the bits of suits ``a`` and ``b`` (a pass with those
        ends open tells that the seat holds neither)."""
        self.kernel = (self.suit_mask, self.half_a, self.half_b, self.half_sum, self.power,
                       self.powered, n, self.effect_gain, self.effect_loss, self.end_suits,
                       suits)
        """The tables :meth:`Round.playout` reads, in the order it unpacks them."""

    def hand_totals(self, hands: list[int]) -> list[int]:
        """The total of each hand (one call for all: the round's end counts every hand)."""
        out = []
        byte_totals = self.byte_totals
        for mask in hands:
            total = 0
            for table in byte_totals:  # eight tiles at a time, by table: no step per tile
                if not mask:
                    break
                total += table[mask & 255]
                mask >>= 8
            out.append(total)
        return out


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


NATIVE: Final = not isinstance(_bits, types.FunctionType)
"""This module runs compiled (mypyc makes its functions built-in ones). The hot loops read it
where the two builds are fastest with different code for the same result."""


NEXT_SEATS: Final = tuple(tuple(range(1, p)) + (0,) for p in range(65))
"""``NEXT_SEATS[players][seat]``: the seat after ``seat`` (the playout kernel's table)."""


class Round:
    """A round in progress. Build it with :meth:`deal` (random) or :meth:`from_deal` (given)."""

    # Its fields, in slots: more than 30 fields in an instance dict would cost every deal a
    # dict of its own and every read a lookup (CPython shares the dict's keys for at most 30).
    # A variant's round type adds its own fields in a dict as usual.
    __slots__ = ("variant", "rules", "tab", "players", "number", "context", "hands", "pile",
                 "pile_pos", "keep", "table", "starter", "turn", "gains", "losses", "line",
                 "open_tile", "opened", "opener", "placements", "last_placer", "mover",
                 "passes", "pass_count", "drew_this_turn", "salida_paid", "over", "_result",
                 "_ending", "voids", "record", "log", "turns", "_turn", "initial_hands",
                 "teams", "seat_team")

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
        context: RoundContext | None = None,
    ) -> None:
        self._setup(variant, rules, tables(variant.tileset, rules.symbol_value, variant.power),
                    list(hands), list(pile), table, starter, number, opening, record, context)

    def _setup(self, variant: Variant, rules: HouseRules, tab: Tables, hands: list[int],
               pile: list[int], table: int | None, starter: int, number: int,
               opening: Literal["rule", "any"], record: bool,
               context: RoundContext | None, open_tile: int = -1) -> None:
        """What ``__init__`` does, with every argument given in order: :meth:`deal` calls it
        on a plain round, where the type call's keyword arguments cost a compiled block game a
        sixth of its time. The round keeps ``hands`` and ``pile`` (the callers pass new lists).
        ``open_tile``: the tile the rule opens with, when the caller has found it already."""
        self.variant = variant
        self.rules = rules
        self.tab = tab
        self.players = players = len(hands)
        self.number = number
        self.context = context or NO_CONTEXT
        self.hands = hands
        self.pile = pile
        self.pile_pos = 0
        self.keep = variant.keep.get(players, 0)
        """Tiles that always stay in the pile (§3.1)."""
        self.table = table
        self.starter = starter
        self.turn = starter
        self.gains = [0] * players
        self.losses = [0] * players
        self.line: Line = variant.line.new()
        self.open_tile: int | None = None
        self.opened = False  # a player has placed a tile
        self.opener = -1
        self.placements = 0
        self.last_placer = -1
        self.mover = -1  # the seat whose turn ended last
        self.passes = 0  # passes since the last placement
        self.pass_count = 0  # passes in this round
        self.drew_this_turn = 0
        self.salida_paid = False
        self.over = False
        self._result: RoundEnded | None = None
        self._ending: tuple[Any, ...] | None = None
        """What :attr:`result` needs besides the round's state, once over (see :meth:`_finish`)."""
        self.voids = [0] * players  # suits each seat is known not to hold
        self.record = record
        self.log: list[Event] = []
        self.turns: list[dict[str, Any]] = []
        self._turn: dict[str, Any] | None = None
        self.initial_hands = list(hands)
        self.teams, self.seat_team = variant._teams(players)
        """Who scores together (see :meth:`Variant.teams`), and the index in :attr:`teams` of
        each seat's team."""
        if table is not None:
            self.line.start(table, self.tab.half_a[table], self.tab.half_b[table])
        elif opening == "rule":
            self.open_tile = open_tile if open_tile >= 0 else self._rule_opening(starter)
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
        context: RoundContext | None = None,
    ) -> Round:
        """A shuffled deal (RULES.md §1.4). ``starter`` given means the D-3 "rotate" opening:
        that seat opens with any tile (with a table tile, it plays first onto it)."""
        rt = variant.round_type
        if rt is not None and cls is not rt:
            return rt.deal(variant, rules, players, rng, number=number, starter=starter,
                           record=record, context=context)
        variant.check_players(players)
        tab = tables(variant.tileset, rules.symbol_value, variant.power)
        n = tab.n
        size = variant.hand_sizes[players]
        table: int | None = None
        if players in variant.table_tile_players and starter is None:
            draws = rng.sample(range(n), players)
            starter = max(range(players), key=lambda s: (tab.weight[draws[s]], -s))
        # Sorting by random keys is a uniform shuffle, and twice as fast as random.shuffle.
        if NATIVE:
            rnd = rng.random
            order = sorted(range(n), key=lambda _: rnd())
        else:  # the same keys in the same order, drawn in C: no Python call per tile
            order = sorted(range(n), key=list(starmap(rng.random, repeat((), n))).__getitem__)
        if players in variant.table_tile_players:
            table = order[players * size]
            rest: list[int] = []
        else:
            rest = order[players * size:] if variant.pile else []
        if NATIVE:
            hands = [0] * players
            for s in range(players):  # each hand in a local int: a list item's |= is generic
                h = 0
                for k in range(s * size, s * size + size):
                    h |= 1 << order[k]
                hands[s] = h
        else:  # in C: the dealt tiles' bits, grouped ``size`` at a time (the hands), each group
            # summed (distinct bits: their union)
            bits = itemgetter(*order[:players * size])(tab.bit)
            hands = list(map(sum, zip(*[iter(bits)] * size, strict=True)))
        opening: Literal["rule", "any"] = "rule"
        open_tile = -1
        if starter is None:
            if cls is Round:  # the rule's opener and the tile it opens with, in one search
                starter, open_tile = Round._rule_start(tab, hands)
            else:
                starter = cls._rule_starter(tab, hands)
        elif table is None:
            opening = "any"
        if cls is Round:  # a variant's round type may extend __init__
            # __new__ is there for the compiled class (see __new__); run as Python, the plain
            # object.__new__ saves the call into it
            new = Round.__new__(Round) if NATIVE else object.__new__(Round)
            new._setup(variant, rules, tab, hands, rest, table, starter, number, opening, record,
                       context, open_tile)
            return new
        return cls(variant, rules, hands, rest, table, starter, number=number,
                   opening=opening, record=record, context=context)

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
        context: RoundContext | None = None,
    ) -> Round:
        """A round from a prepared deal (lessons, tests, replays). Raises :class:`DealError`."""
        rt = variant.round_type
        if rt is not None and cls is not rt:
            return rt.from_deal(variant, rules, hands, pile, table, starter, number=number,
                                opening=opening, record=record, context=context)
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
            cls._check_rule_starter(tab, masks, starter)
        return cls(variant, rules, masks, pile_ids, table_id, starter, number=number,
                   opening=opening, record=record, context=context)

    @staticmethod
    def _rule_tile(tab: Tables, mask: int) -> int:
        """The tile a hand would open with by rule: its highest numeric double, else (D-2)
        its heaviest tile."""
        for _, tid in tab.open_order:
            if mask >> tid & 1:
                return tid
        raise DealError("an empty hand cannot open")

    @staticmethod
    def _rule_start(tab: Tables, hands: list[int]) -> tuple[int, int]:
        """The seat holding the best opening tile, and that tile (the one it opens with by
        rule); equal tiles (D-2) go by seat order."""
        best_key = None
        best = best_tid = -1
        for key, tid in tab.open_order:
            if best_key is not None and key != best_key:
                break
            for s, h in enumerate(hands):
                if h >> tid & 1:
                    if best < 0 or s < best:
                        best, best_key, best_tid = s, key, tid
                    break
        if best < 0:
            raise DealError("nobody holds a tile to open with")
        return best, best_tid

    @classmethod
    def _rule_starter(cls, tab: Tables, hands: list[int]) -> int:
        """The seat holding the best opening tile; equal tiles (D-2) go by seat order."""
        return Round._rule_start(tab, hands)[0]

    @classmethod
    def _check_rule_starter(cls, tab: Tables, hands: list[int], starter: int) -> None:
        """Raise :class:`DealError` unless ``starter`` opens these hands by rule."""
        expected = cls._rule_starter(tab, hands)
        if starter != expected:
            raise DealError(f"seat {starter} cannot open: seat {expected} holds "
                            f"{tab.tileset.tiles[cls._rule_tile(tab, hands[expected])]}, "
                            f"which opens")

    def _rule_opening(self, seat: int) -> int | None:
        return self._rule_tile(self.tab, self.hands[seat])

    @classmethod
    def next_starter(cls, previous: list[Round], rules: HouseRules) -> int | None:
        """Who opens the round after ``previous`` (the match's rounds so far), with any tile;
        None: the round opens by rule (RULES.md §1.4). Leonard and the block game: D-3."""
        if not previous or rules.opener == "rule":
            return None
        prev = previous[-1]
        opener = prev.opener if prev.opener >= 0 else prev.starter
        return (opener + 1) % prev.players

    # --- reading the state ----------------------------------------------------------------

    def _tile(self, tid: int | None) -> Tile | None:
        return None if tid is None or tid < 0 else self.tab.tileset.tiles[tid]

    def _suit(self, s: int) -> Half:
        return self.tab.tileset.suits[s]

    @property
    def tileset(self) -> TileSet:
        return self.tab.tileset

    @property
    def end_names(self) -> tuple[str, ...]:
        """The names of the line's ends: ``("L", "R")`` or the hub's arms ``("1", … "6")``."""
        return self.line.shape.ends

    @property
    def hand_sizes(self) -> list[int]:
        return [h.bit_count() for h in self.hands]

    def hand(self, seat: int) -> list[Tile]:
        return self.tab.tileset.from_mask(self.hands[seat])

    @property
    def pile_count(self) -> int:
        """Tiles left in the pile (those that must stay there included, §3.1)."""
        return len(self.pile) - self.pile_pos

    @property
    def pile_tiles(self) -> list[Tile]:
        return [self.tab.tileset.tiles[i] for i in self.pile[self.pile_pos:]]

    def _placed_tile(self, p: Placement) -> Tile:
        suits = self.tab.tileset.suits
        return Tile(suits[p[1]], suits[p[2]])

    def line_tiles(self) -> list[Tile]:
        """The line left to right, each tile with its left half first. For a hub: the hub,
        then each arm from the hub outward (see :meth:`arm_tiles`)."""
        return [self._placed_tile(p) for p in self.line]

    def arm_tiles(self, end: End) -> list[Tile]:
        """The tiles of one arm of a hub, from the hub outward, the half towards the hub
        first (empty for a two-ended line)."""
        return [self._placed_tile(p) for p in self.line.arm(self.line.shape.index(end))]

    @property
    def ends(self) -> tuple[Half, ...] | None:
        """The open suit at each end, in the order of :attr:`end_names` (None before the
        first tile)."""
        if not self.line.started:
            return None
        suits = self.tab.tileset.suits
        return tuple(suits[s] for s in self.line.open)

    def end_tile(self, end: End) -> Tile | None:
        """The tile at end ``end`` (the hub itself for an arm with no tile yet)."""
        if not self.line.started:
            return None
        return self._tile(self.line.tips[self.line.shape.index(end)])

    # The two ends of a two-ended line by their old names (open suit, tile id; -1 if none).
    @property
    def el(self) -> int:
        return self.line.open[0]

    @property
    def er(self) -> int:
        return self.line.open[1]

    @property
    def tl(self) -> int:
        return self.line.tips[0]

    @property
    def tr(self) -> int:
        return self.line.tips[-1]

    def right_of(self, seat: int) -> int:
        """The right-hand player: the one who plays after ``seat`` (RULES.md §1.3)."""
        return (seat + 1) % self.players

    @property
    def team_scores(self) -> list[int]:
        """This round's score (gains − losses) per team (:attr:`teams`)."""
        return [sum(self.gains[s] - self.losses[s] for s in seats) for seats in self.teams]

    def _ends_mask(self) -> int:
        """Every tile that fits some open end."""
        sm = self.tab.suit_mask
        m = 0
        for s in self.line.open:
            m |= sm[s]
        return m

    def _fits(self, tid: int, suit: int) -> bool:
        """Tile ``tid`` may be placed on an end showing ``suit``."""
        return self.tab.half_a[tid] == suit or self.tab.half_b[tid] == suit

    def _playable_mask(self, seat: int) -> int:
        h = self.hands[seat]
        if not self.line.started:
            return h if self.open_tile is None else h & (1 << self.open_tile)
        return h & self._ends_mask()

    def _can_draw(self) -> bool:
        if self.pile_pos >= len(self.pile) - self.keep:
            return False
        return self.rules.draw == "until-playable" or self.drew_this_turn == 0

    def _plays(self, mask: int) -> list[Action]:
        """Every (tile, end) play of the tiles in ``mask`` (which all fit somewhere)."""
        tiles = self.tab.tileset.tiles
        names = self.line.shape.ends
        out: list[Action] = []
        started = self.line.started
        for i in _bits(mask):
            t = tiles[i]
            if not started:
                out.append(Play(t, None))
                continue
            for end, suit in enumerate(self.line.open):
                if self._fits(i, suit):
                    first = self._suit(suit)
                    out.append(Play(t.oriented(first) if first in (t.a, t.b) else t,
                                    names[end]))
        return out

    def legal_moves(self) -> list[Action]:
        """Every action the player to move may take: plays (tile, end), else draw, else pass."""
        if self.over:
            return []
        m = self._playable_mask(self.turn)
        if not m:
            return [DRAW] if self._can_draw() else [PASS]
        return self._plays(m)

    # --- applying actions -----------------------------------------------------------------

    def may_annul(self) -> bool:
        """The player to move may ask for a redeal (:data:`ANNUL`): only in Cuban double-nine,
        with five doubles, on one's first turn (§3.4)."""
        return False

    def apply(self, action: object, seat: int | None = None) -> list[Event]:
        """Apply one action of the player to move (``seat`` checks whose turn it is) and return
        the events it caused. An illegal action raises :class:`IllegalMoveError` and changes
        nothing. ``action`` is an :data:`Action` or :data:`ANNUL`; it is typed ``object``
        because anything else is an illegal move too (the compiled build checks argument
        types at the call, and would raise TypeError instead)."""
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
        elif isinstance(action, Annul):
            self._annul()
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
        if not self.line.started:
            if play.end is not None:
                raise IllegalMoveError(f"{where}: the line is empty, so the tile has no end "
                                       f"to go to (give no end)")
            if self.open_tile is not None and tid != self.open_tile:
                raise IllegalMoveError(f"{where}: the round opens with "
                                       f"{ts.tiles[self.open_tile]}")
            return tid, -1, ts.suit(play.tile.a)
        shape = self.line.shape
        if play.end not in shape.ends:
            raise IllegalMoveError(f"{where}: choose the end, {shape.describe()}")
        end = shape.index(play.end)
        suit = self.line.open[end]
        if not self._fits(tid, suit):
            raise IllegalMoveError(f"{where}: {play.tile} does not match the open "
                                   f"{self._suit(suit)} at end {play.end}")
        return tid, end, suit

    def _annul(self) -> None:
        raise IllegalMoveError(f"annul: only Cuban double-nine lets a player with five doubles "
                               f"ask for a redeal, not {self.variant.name}")

    def _begin_turn(self) -> dict[str, Any]:
        if self._turn is None:
            self._turn = {"player": self.turn, "drew": [], "play": None}
        return self._turn

    def _end_turn(self) -> None:
        if self.record:
            self.turns.append(self._begin_turn())
            self._turn = None
        self.drew_this_turn = 0
        self.mover = self.turn
        if not self.over:
            self.turn = self._next_seat()

    def _next_seat(self) -> int:
        """Who plays after the turn that just ended (hook: Doble 15's direction and 14)."""
        return (self.turn + 1) % self.players

    def _draw(self, seat: int | None = None) -> None:
        """The player to move draws a tile (``seat``: another seat is made to draw one)."""
        forced = seat is not None
        who = self.turn if seat is None else seat
        tid = self.pile[self.pile_pos]
        self.pile_pos += 1
        self.hands[who] |= 1 << tid
        if not forced:
            self.drew_this_turn += 1
        self.voids[who] = 0  # the drawn tile is unseen: no suit is known missing any more
        if self.record:
            tile = self.tab.tileset.tiles[tid]
            if forced:
                self._begin_turn().setdefault("forced", []).append(
                    {"player": who, "tile": str(tile)})
            else:
                self._begin_turn()["drew"].append(str(tile))
            self.log.append(Drew(who, tile, forced))

    def _pass(self) -> None:
        seat = self.turn
        self.passes += 1
        self.pass_count += 1
        started = self.line.started
        if started:
            for s in self.line.open:
                self.voids[seat] |= 1 << s
        if self.record:
            self._begin_turn()
            self.log.append(Passed(seat, tuple(self._suit(s) for s in self.line.open)
                                   if started else ()))
        self._on_pass(seat)
        if self.over:  # the pass ended the match (Ponce's target)
            self._end_turn()
            return
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

    def _on_pass(self, seat: int) -> None:
        """Hook: a pass was just made by ``seat`` (Ponce scores it)."""

    def _passes_score(self) -> bool:
        """Hook: a pass can score or end the round, so the playout kernel must not skip it."""
        return bool(self.variant.pass_bonus)

    def _bonus(self, seat: int, kind: Any, points: int, detail: str = "") -> None:
        self.gains[seat] += points
        if self.record:
            self.log.append(Bonus(seat, kind, points, detail))

    def _blocked(self) -> bool:
        """RULES.md §1.8: nobody can place a tile and there is nothing to draw."""
        if self.pile_pos < len(self.pile) - self.keep or not self.line.started:
            return False
        m = self._ends_mask()
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
        line = self.line
        capicua = False
        end_tiles = (line.tips[0], line.tips[-1])
        if end < 0:
            left, right = (a, b) if first == a else (b, a)
            line.start(tid, left, right)
            other = -1
            matched, open_ = left, right
        else:
            matched = line.open[end]
            open_ = b if a == matched else a
            if len(line.open) == 2:
                far = line.open[1 - end]
                capicua = a == far or b == far
            other = line.other_tip(end)
            # the half that touches the end: a Doble 15 double on a 13 touches it with its own
            # number, so the line keeps the tile as it is
            line.put(tid, end, matched if matched in (a, b) else open_, open_)
        opening = not self.opened
        if opening:
            self.opened = True
            self.opener = seat
        self.placements += 1
        self.last_placer = seat
        self.passes = 0
        if self.record:
            suits = tab.tileset.suits
            # The matched half first; a tile placed where none of its halves matches (a
            # Doble 15 double on a 13) is written as it is.
            tile = Tile(suits[matched], suits[open_]) if matched in (a, b) else \
                Tile(suits[a], suits[b])
            name = None if end < 0 else line.shape.ends[end]
            self._begin_turn()["play"] = {"tile": str(tile), "end": name}
            self.log.append(Placed(seat, tile, name, opening))
        if tab.power[tid]:
            self._power(seat, tid, other)
        self._after_place(seat, tid, matched, open_)
        if not h:
            kind = ""
            if capicua and self.variant.capicua_bonus:
                kind = self._capicua_kind(tid, end_tiles)
                self._bonus(seat, "capicua", self.variant.capicua_bonus, kind)
            self._finish_domino(seat, kind)
            self._end_turn()
            return
        self._end_turn()
        if self._blocked():
            self._finish_tranque()

    def _capicua_kind(self, tid: int, end_tiles: tuple[int, int]) -> str:
        """The capicúa's kind when ``tid``, the last tile, fits both ends, whose tiles were
        ``end_tiles``: "KP" with a power tile (the last one, or one at an end, by the house
        rule), else "K"."""
        power = self.tab.power
        if self.rules.capicua_kind == "last-tile":
            return "KP" if power[tid] else "K"
        return "KP" if power[end_tiles[0]] or power[end_tiles[1]] else "K"

    def _after_place(self, seat: int, tid: int, matched: int, open_: int) -> None:
        """Hook: ``seat`` just placed ``tid`` on ``matched``, leaving ``open_`` open (Doble 15's
        special numbers)."""

    def _effect(self, tid: int, other: int) -> tuple[str, int, int, int | None]:
        """RULES.md §1.6 for tile ``tid`` placed with tile ``other`` at the other end
        (-1: none, an opening): the rule applied, gain, loss and T."""
        tab = self.tab
        if other < 0:
            return "neutralized", 0, 0, None
        k = tid * tab.n + other
        rule = "power-vs-power" if tab.power[other] else tab.rule[tid]
        return rule, tab.effect_gain[k], tab.effect_loss[k], tab.total[other]

    def play_points(self, play: Play) -> tuple[int, int]:
        """``(gain, loss inflicted)`` that placing ``play`` now would score at once from its
        power effect; ``(0, 0)`` for a basic tile or an opening. Reads only the line."""
        tid = self.tab.tileset.id(play.tile)
        if not self.tab.power[tid] or play.end is None:
            return 0, 0
        end = self.line.shape.index(play.end)
        _, gain, loss, _ = self._effect(tid, self.line.other_tip(end))
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

    # --- the end of a round (hooks: how each game counts a hand) ----------------------------

    def _totals(self) -> list[int]:
        return self.tab.hand_totals(self.hands)

    def _finish_domino(self, seat: int, capicua: str) -> None:
        """``seat`` placed its last tile: it collects every other hand (§1.8)."""
        # every hand's tiles at once (the hands hold distinct tiles: their sum is their union)
        count = self.tab.hand_totals([sum(self.hands)])[0]
        self._bonus(seat, "domino", count)
        self._finish("domino", seat, None, capicua, count=count)

    def _finish_tranque(self) -> None:
        """Nobody can play: the lowest hand collects the others (§1.8, D-9)."""
        totals = self._totals()
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
        self._finish("tranque", winner, totals, "", count=others if winner is not None
                     or self.rules.tranque_tie == "split" else 0)

    def _finish(self, reason: EndReason, winner: int | None, totals: list[int] | None,
                capicua: str, *, count: int = 0, points: int | None = None,
                differences: tuple[int, ...] = (), team: int | None = None) -> None:
        """End the round. ``totals`` None: each hand's total, worked out when :attr:`result`
        is first read (the hands no longer change)."""
        self.over = True
        # what :attr:`result` needs beyond the round's state, which no longer changes: the
        # rest (scores as tuples, pairs' totals, the blocker) is worked out when it is read,
        # as most rollouts only read the scores
        self._ending = (reason, winner, totals, capicua, count,
                        count if points is None else points, differences, team)
        if self.record:
            self.log.append(self.ended)

    @property
    def result(self) -> RoundEnded | None:
        """How the round ended (None while it is in progress). Built when first read: the
        event is a dataclass, whose generated ``__init__`` mypyc leaves interpreted, and
        a rollout that only reads the scores would spend a tenth of its time on it."""
        ending = self._ending
        if self._result is None and ending is not None:
            reason, winner, totals, capicua, count, points, differences, team = ending
            if totals is None:
                totals = self._totals()
            pairs = len(self.teams) < self.players
            team_totals = tuple(sum(totals[s] for s in seats) for seats in self.teams) \
                if pairs and totals else ()
            if pairs and team is None and winner is not None:
                team = self.seat_team[winner]
            self._result = RoundEnded(
                reason, winner, tuple(self.gains), tuple(self.losses), tuple(totals), capicua,
                count, points, differences, self.teams if pairs else (), team_totals,
                team if pairs else None, self.mover if reason == "tranque" else None)
        return self._result

    @property
    def ended(self) -> RoundEnded:
        """:attr:`result` of a round that is over."""
        result = self.result
        assert result is not None, "the round is not over"
        return result

    # --- fast random play (bots' rollouts, benchmarks) -------------------------------------

    def playout(self, rng: random.Random,
                trace: list[tuple[int, int]] | None = None) -> None:
        """Play the round to its end with uniformly random legal moves (the bots' rollouts).

        The common steps run inline on local variables: a placement (with its power effect,
        read from the tables :meth:`_effect` reads), a draw, and a pass that scores nothing.
        In Leonard and the block game the opening and the last tile (with its capicúa) run
        inline too; a variant's go through ``_place`` and its hooks. Every other step goes
        through the same ``_place``/``_draw``/``_pass`` as :meth:`apply`, and so does every
        step of a round that records its events. ``trace`` collects (tile id, end) per
        placement so tests can replay the same game through :meth:`apply`. The kernel never
        asks for a redeal (a Cuban player may, but need not).
        """
        rnd = rng.random
        tab = self.tab
        (sm, ha, hb, half_sum, power, powered, n, effect_gain, effect_loss, end_suits,
         suits) = tab.kernel
        hands, players = self.hands, self.players
        gains, losses = self.gains, self.losses
        line = self.line
        opens, tips = line.open, line.tips
        # looked up once, not per tile (compiled, m.bit_count() looks the method up each time)
        bit_count = int.bit_count
        native = NATIVE
        pile = self.pile
        limit = len(pile) - self.keep
        draw_until = self.rules.draw == "until-playable"
        voids = self.voids
        # Passes run inline only where they score nothing (no pass bonus, no pass points) and
        # with no events.
        quiet_pass = not self._passes_score() and not self.record
        fast = not self.record
        # Leonard and the block game (the base hooks): their opening and their last tile run
        # inline too, as _place does them; a variant's go through _place and its hooks.
        plain = fast and type(self) is Round
        capicua_bonus = self.variant.capicua_bonus
        kind = ""
        nxt = NEXT_SEATS[players]  # the next seat (as _next_seat)
        while not self.over:
            # Load the state into locals; the inline loop writes it back before any method.
            # The tiles at the ends, the placements, the last placer and the last mover are
            # not kept per step: they are read off the line and the turn when writing back.
            el, er, turn = opens[0], opens[1], self.turn
            tl, tr = tips[0], tips[1]
            passes = self.passes
            # the tiles placed at each end go on lists the line turns into its placements
            # when it is next read: the kernel makes no placement per step
            lefts, rights = line.adding(half_sum)  # type: ignore[attr-defined]  # two-ended
            add_left, add_right = lefts.append, rights.append
            laid = len(lefts) + len(rights) + (el >= 0)  # the first tile counts too
            tid = -1
            pos = self.pile_pos
            drawable = pos < limit
            opened, opener = self.opened, self.opener
            # a placement here runs inline, as the common case (a trace is kept in the branch
            # for the other cases)
            go = opened and fast and trace is None
            drew = self.drew_this_turn
            pass_count = self.pass_count
            stepped = pass_count  # changes when this loop ends a turn by a pass
            # the tiles that fit each end, and those that may be placed now: the tiles that
            # fit an end, or open the line
            if el >= 0:
                sml, smr = sm[el], sm[er]
                ends = sml | smr
            else:
                sml = smr = 0
                ends = -1 if self.open_tile is None else 1 << self.open_tile
            while True:
                m = hands[turn] & ends
                if not m:
                    if drawable:
                        if not (fast and el >= 0 and (draw_until or not drew)):
                            break
                        # a draw (as _draw): the tile is unseen, so no void is known any more
                        tid = pile[pos]
                        pos += 1
                        drawable = pos < limit
                        bit = 1 << tid
                        hands[turn] |= bit
                        drew += 1
                        voids[turn] = 0
                        continue
                    if not drew:
                        # a tranque is found here rather than after each placement: nothing
                        # to draw, no tile in any hand fits, and this seat has not drawn, so
                        # the last placement (or the pass before this turn) left the line
                        # blocked, and nothing has changed since: the state _place or _pass
                        # ends it in
                        for hh in hands:
                            if hh & ends:
                                break
                        else:
                            tid = -2
                            m = 1
                            break
                    if not quiet_pass or el < 0:
                        break
                    passes += 1
                    pass_count += 1
                    voids[turn] |= end_suits[el * suits + er]
                    turn = nxt[turn]
                    drew = 0
                    continue
                if m & (m - 1):
                    if native:  # count the bits in C, not by a Python method call
                        k = 0
                        x = m
                        while x:
                            x &= x - 1
                            k += 1
                        k = int(rnd() * k)
                    else:
                        k = int(rnd() * bit_count(m))
                    while k:
                        m &= m - 1
                        k -= 1
                bit = m & -m
                tid = bit.bit_length() - 1
                if bit & sml:
                    end = 1 if bit & smr and rnd() < 0.5 else 0
                else:
                    end = 1 if el >= 0 else -1  # -1: the first tile
                h = hands[turn] ^ bit
                if not (h and go):  # not the common case (go is False while tracing)
                    if trace is not None:
                        trace.append((tid, end))
                    if not (plain or h and opened and fast):
                        break  # the shared code below: events, or a variant's hooks
                    if not opened:  # the opening (as _place)
                        opened = True
                        go = trace is None
                        opener = turn
                    if not h and end >= 0 and capicua_bonus and bit & (smr if end == 0
                                                                         else sml):
                        # the capicúa (as _place), read before the line changes
                        kind = self._capicua_kind(tid, (tl, tr))
                hands[turn] = h
                if end == 0:  # the open half: the tile's two halves less the matched one
                    el = half_sum[tid] - el
                    add_left(tid)
                    sml = sm[el]
                    tl = tid
                elif end > 0:
                    er = half_sum[tid] - er
                    add_right(tid)
                    smr = sm[er]
                    tr = tid
                else:  # the first tile: no other end, no power effect
                    el, er = ha[tid], hb[tid]
                    line.start(tid, el, er)
                    sml, smr = sm[el], sm[er]
                    tl = tr = tid
                if powered and power[tid] and end >= 0:  # as _power: the other end scores
                    k = tid * n + (tr if end == 0 else tl)
                    gains[turn] += effect_gain[k]
                    losses[nxt[turn]] += effect_loss[k]
                passes = 0
                drew = 0
                if not h:
                    tid = -3  # domino: finish below
                    break
                turn = nxt[turn]
                ends = sml | smr
            opens[0], opens[1], self.turn, self.passes = el, er, turn, passes
            # placements made here, each then the turn moved on
            laid = len(lefts) + len(rights) + (el >= 0) - laid
            if laid:
                tips[0], tips[1] = tl, tr
                self.placements += laid
                # the domino's turn stays; passes since the last placement moved it on
                self.last_placer = turn if tid == -3 else (turn - 1 - passes) % players
            if laid or pass_count != stepped:
                self.mover = turn if tid == -3 else (turn - 1) % players
            self.opened, self.opener = opened, opener
            self.pile_pos = pos
            self.drew_this_turn = drew
            self.pass_count = pass_count
            if not m:
                if self._can_draw():
                    self._draw()
                else:
                    self._pass()
            elif tid == -2:
                self._finish_tranque()
            elif tid == -3:  # as _place's last tile: the bonuses, then the end
                if kind:
                    self._bonus(turn, "capicua", capicua_bonus, kind)
                self._finish_domino(turn, kind)
            else:
                self._place(tid, end, ha[tid])

    # --- views and copies -----------------------------------------------------------------

    def __new__(cls, *args: Any, **kwargs: Any) -> Round:
        # Only allocates; ``__init__`` deals. :meth:`copy` calls this alone, which a compiled
        # (mypyc) class allows where ``object.__new__`` is refused.
        return super().__new__(cls)

    def copy(self, record: bool = False) -> Round:
        """An independent copy (without the event log unless ``record``)."""
        new = type(self).__new__(type(self))
        self._copy_into(new, record)
        return new

    def _copy_into(self, new: Round, record: bool) -> None:
        """Every attribute of ``self`` onto ``new`` (made by ``__new__`` alone): the mutable
        ones copied, the rest shared. A subclass with attributes of its own extends it."""
        new.variant = self.variant
        new.rules = self.rules
        new.tab = self.tab
        new.players = self.players
        new.number = self.number
        new.context = self.context
        new.hands = list(self.hands)
        new.pile = list(self.pile)
        new.pile_pos = self.pile_pos
        new.keep = self.keep
        new.table = self.table
        new.starter = self.starter
        new.turn = self.turn
        new.gains = list(self.gains)
        new.losses = list(self.losses)
        new.line = self.line.copy()
        new.open_tile = self.open_tile
        new.opened = self.opened
        new.opener = self.opener
        new.placements = self.placements
        new.last_placer = self.last_placer
        new.mover = self.mover
        new.passes = self.passes
        new.pass_count = self.pass_count
        new.drew_this_turn = self.drew_this_turn
        new.salida_paid = self.salida_paid
        new.over = self.over
        new._result = self._result
        new._ending = self._ending
        new.voids = list(self.voids)
        new.record = record
        new.log = list(self.log) if record else []
        new.turns = [dict(t) for t in self.turns] if record else []
        new._turn = None
        new.initial_hands = self.initial_hands
        new.teams = self.teams
        new.seat_team = self.seat_team

    def __repr__(self) -> str:
        line = " ".join(map(str, self.line_tiles()))
        return (f"<Round {self.variant.name} {self.players}p #{self.number} turn={self.turn} "
                f"line=[{line}] over={self.over}>")
