"""One round of play: deal, opening, legal moves, drawing, passes, power effects and the end.

The state is kept as small integers and bit masks (hands are masks over tile ids) so that
bots can play thousands of rollouts a second; the public face is tiles, actions and events.

:class:`Round` plays Leonard and the block game. The classic variants (``engine/variants/``)
subclass it and override a few hooks, python-chess style: ``on_pass`` (pass points),
``_after_place`` (special numbers), ``_next_seat`` (direction of play), ``finish_domino`` /
``finish_tranque`` (how a hand is counted), ``extra_moves``/``_apply_extra`` (a variant's
own moves: Cuban's redeal), ``_start`` (a variant's own state), ``match_context`` (what a
round needs of the match: Ponce's) and ``next_starter`` (who opens the next round). Where
tiles go is the round's :class:`~engine.line.Line`. The base round knows none of its
subclasses.

The round is one unit, and this module is all of it: its state and setup, the checks of a
move, :meth:`Round.apply` and the steps it takes (placing, drawing, passing, with the power
effects and the pass bonuses), the end and its result, the read-only views as tiles, and
:meth:`Round.playout`, the playout kernel that plays a whole round inline for the bots'
rollouts. What it builds on sits below it and knows no round: :mod:`engine.opening` (the
shuffled deal, who opens, with which tile), :mod:`engine.kernel` (the per-tile tables),
:mod:`engine.actions` (the moves, which print and parse), :mod:`engine.deal` (a deal as a
value), :mod:`engine.events` and :mod:`engine.rules`.
"""

from __future__ import annotations

import random
from typing import Any, Literal

from .actions import (
    DRAW,
    PASS,
    Action,
    ActionError,
    Draw,
    IllegalMoveError,
    Pass,
    Play,
    parse_action,
)
from .deal import Deal, DealError, tile_ids
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
from .kernel import NATIVE, NEXT_SEATS, Tables, set_bits, tables
from .line import Line, Placement
from .opening import rule_start, rule_tile, shuffled, wrong_starter
from .rules import HouseRules, Variant
from .tiles import Half, Tile, TileError, TileSet

__all__ = ["Action", "ActionError", "DRAW", "Deal", "DealError", "Draw",
           "IllegalMoveError", "NATIVE", "NEXT_SEATS", "PASS", "Pass", "Play", "Round",
           "Tables", "parse_action", "round_type", "tables"]


def round_type(variant: Variant) -> type[Round]:
    """The class that plays ``variant``'s rounds: its :attr:`~engine.rules.Variant.round_type`
    (a subclass of :class:`Round`), or :class:`Round` itself."""
    rt = variant.round_type
    if rt is None:
        return Round
    if not issubclass(rt, Round):
        raise TypeError(f"{variant.name}: round_type {rt!r} is not a Round")
    return rt


class Round:
    """A round in progress. Build it with :meth:`deal` (random) or :meth:`from_deal` (given);
    :meth:`_setup` fills in these fields."""

    # Its fields, in slots: more than 30 fields in an instance dict would cost every deal a
    # dict of its own and every read a lookup (CPython shares the dict's keys for at most 30).
    # A variant's round type adds its own fields in a dict as usual.
    __slots__ = ("variant", "rules", "tab", "players", "number", "context", "hands", "pile",
                 "pile_pos", "keep", "table", "starter", "turn", "gains", "losses", "line",
                 "open_tile", "opened", "opener", "placements", "last_placer", "mover",
                 "passes", "pass_count", "drew_this_turn", "salida_paid", "over", "_result",
                 "_ending", "voids", "record", "log", "turns", "_turn", "initial_hands",
                 "teams", "seat_team")

    variant: Variant
    rules: HouseRules
    tab: Tables
    players: int
    number: int
    context: object
    """What the variant's round needs of the match around it, made by its
    :meth:`match_context` (None: nothing; the base round reads none)."""
    hands: list[int]  # each seat's hand as a mask over tile ids
    pile: list[int]  # the whole pile in drawing order; pile_pos: the next to draw
    pile_pos: int
    keep: int
    """Tiles that always stay in the pile (§3.1)."""
    table: int | None
    starter: int
    turn: int
    gains: list[int]
    losses: list[int]
    line: Line
    open_tile: int | None  # the tile the round must open with (None: any)
    opened: bool  # a player has placed a tile
    opener: int
    placements: int
    last_placer: int
    mover: int  # the seat whose turn ended last
    passes: int  # passes since the last placement
    pass_count: int  # passes in this round
    drew_this_turn: int
    salida_paid: bool
    over: bool
    _result: RoundEnded | None
    _ending: tuple[Any, ...] | None
    """What :attr:`result` needs besides the round's state, once over (see :meth:`_finish`)."""
    voids: list[int]  # suits each seat is known not to hold
    record: bool
    log: list[Event]
    turns: list[dict[str, Any]]
    _turn: dict[str, Any] | None
    initial_hands: list[int]
    teams: tuple[tuple[int, ...], ...]
    seat_team: tuple[int, ...]
    """Who scores together (see :meth:`Variant.teams`), and the index in :attr:`teams` of
    each seat's team."""

    def __init__(self, variant: Variant, rules: HouseRules, hands: list[int], pile: list[int],
                 table: int | None, starter: int, *, number: int = 1,
                 opening: Literal["rule", "any"] = "rule", record: bool = True,
                 context: object = None) -> None:
        self._setup(variant, rules, tables(variant.tileset, rules.symbol_value, variant.power),
                    list(hands), list(pile), table, starter, number, opening, record, context)
        self._start()

    def _start(self) -> None:
        """Hook: a variant's own state, set once the common state is dealt (``__init__`` calls
        it; Cuban's first turns, Doble 15's direction and hex). A variant with state of its own
        extends :meth:`_copy_into` too. The base round has none."""

    # --- construction ---------------------------------------------------------------------

    def _setup(self, variant: Variant, rules: HouseRules, tab: Tables, hands: list[int],
               pile: list[int], table: int | None, starter: int, number: int,
               opening: Literal["rule", "any"], record: bool, context: object,
               open_tile: int = -1) -> None:
        """The starting state (what ``__init__`` does, with every argument given in order:
        :meth:`deal` calls it on a plain round, where the type call's keyword arguments cost a
        compiled block game a sixth of its time). The round keeps ``hands`` and ``pile`` (the
        callers pass new lists). ``open_tile``: the tile the rule opens with, when the caller
        has found it already."""
        self.variant = variant
        self.rules = rules
        self.tab = tab
        self.players = players = len(hands)
        self.number = number
        self.context = context
        self.hands = hands
        self.pile = pile
        self.pile_pos = 0
        self.keep = variant.keep.get(players, 0)
        self.table = table
        self.starter = starter
        self.turn = starter
        self.gains = [0] * players
        self.losses = [0] * players
        line: Line = variant.line.new()
        self.line = line
        self.open_tile = None
        self.opened = False
        self.opener = -1
        self.placements = 0
        self.last_placer = -1
        self.mover = -1
        self.passes = 0
        self.pass_count = 0
        self.drew_this_turn = 0
        self.salida_paid = False
        self.over = False
        self._result = None
        self._ending = None
        self._turn = None
        self.voids = [0] * players
        self.record = record
        log: list[Event] = []
        self.log = log
        turns: list[dict[str, Any]] = []
        self.turns = turns
        self.initial_hands = list(hands)
        self.teams, self.seat_team = variant.teams_and_seats(players)
        if table is not None:
            line.start(table, tab.half_a[table], tab.half_b[table])
        elif opening == "rule":
            self.open_tile = open_tile if open_tile >= 0 else self.rule_opening(starter)
        if record:
            log.append(RoundStarted(number, players, starter, self.tile_of(table),
                                    tuple(self.hand_sizes), len(pile)))

    @classmethod
    def deal(cls, variant: Variant, rules: HouseRules, players: int, rng: random.Random, *,
             number: int = 1, starter: int | None = None, record: bool = True,
             context: object = None) -> Round:
        """A shuffled deal (docs/rules.md §1.4). ``starter`` given means the D-3 "rotate" opening:
        that seat opens with any tile (with a table tile, it plays first onto it)."""
        rt = variant.round_type
        if rt is not None and cls is not rt:
            return round_type(variant).deal(variant, rules, players, rng, number=number,
                                            starter=starter, record=record, context=context)
        if cls is Round:  # inline (a call costs the pure block game 0.5%): _shuffle
            variant.check_players(players)
            tab = tables(variant.tileset, rules.symbol_value, variant.power)
            hands, rest, table, first = shuffled(variant, tab, players, rng, starter)
            opening: Literal["rule", "any"] = "rule"
            open_tile = -1
            if first is None:
                first, open_tile = rule_start(tab, hands)
            elif table is None:
                opening = "any"
            # __new__ is there for the compiled class (see __new__); run as Python, the plain
            # object.__new__ saves the call into it. A variant's round type may extend __init__.
            new = Round.__new__(Round) if NATIVE else object.__new__(Round)
            new._setup(variant, rules, tab, hands, rest, table, first, number, opening, record,
                       context, open_tile)
            return new
        tab, hands, rest, table, first, opening = cls._shuffle(variant, rules, players, rng,
                                                               starter)
        return cls(variant, rules, hands, rest, table, first, number=number,
                   opening=opening, record=record, context=context)

    @classmethod
    def _shuffle(cls, variant: Variant, rules: HouseRules, players: int, rng: random.Random,
                 starter: int | None
                 ) -> tuple[Tables, list[int], list[int], int | None, int, Literal["rule", "any"]]:
        """A shuffled deal for a variant's round type (:meth:`deal`, §1.4): the tables, the
        hands, the pile, the table tile, the starter (by ``cls``'s opening rule unless given)
        and the opening. ``starter`` given means the D-3 "rotate" opening. (:meth:`deal` does
        the same inline for the base round, finding its opener and opening tile in one
        search.)"""
        variant.check_players(players)
        tab = tables(variant.tileset, rules.symbol_value, variant.power)
        hands, rest, table, first = shuffled(variant, tab, players, rng, starter)
        opening: Literal["rule", "any"] = "rule"
        if first is None:
            first = cls._rule_starter(tab, hands)
        elif table is None:
            opening = "any"
        return tab, hands, rest, table, first, opening

    @classmethod
    def from_deal(cls, variant: Variant, rules: HouseRules, hands: Deal | list[list[Tile | str]],
                  pile: list[Tile | str] | tuple[()] = (), table: Tile | str | None = None,
                  starter: int | None = None, *, number: int = 1,
                  opening: Literal["rule", "any"] = "rule", record: bool = True,
                  context: object = None) -> Round:
        """A round from a prepared deal (lessons, tests, replays): a :class:`~engine.deal.Deal`
        (``starter`` given overrides the deal's), or its hands, pile, table tile and starter.
        Raises :class:`DealError`."""
        if isinstance(hands, Deal):
            deal = hands
            if pile or table is not None:
                raise DealError("give the pile and the table tile in the Deal, not beside it")
            return cls.from_deal(variant, rules, [list(h) for h in deal.hands], list(deal.pile),
                                 deal.table, deal.starter if starter is None else starter,
                                 number=number, opening=opening, record=record,
                                 context=context)
        rt = variant.round_type
        if rt is not None and cls is not rt:
            return round_type(variant).from_deal(variant, rules, hands, pile, table, starter,
                                                 number=number, opening=opening,
                                                 record=record, context=context)
        masks, pile_ids, table_id = tile_ids(variant, hands, pile, table)
        players = len(hands)
        tab = tables(variant.tileset, rules.symbol_value, variant.power)
        with_table = players in variant.table_tile_players
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

    # The opening rules (engine.opening), as hooks a variant overrides (Doble 15's doubles).
    @classmethod
    def _rule_starter(cls, tab: Tables, hands: list[int]) -> int:
        """The seat holding the best opening tile; equal tiles (D-2) go by seat order."""
        return rule_start(tab, hands)[0]

    @classmethod
    def _check_rule_starter(cls, tab: Tables, hands: list[int], starter: int) -> None:
        """Raise :class:`DealError` unless ``starter`` opens these hands by rule."""
        expected, tile = rule_start(tab, hands)
        if starter != expected:
            raise wrong_starter(tab, hands, starter, expected, tile)

    def rule_opening(self, seat: int) -> int | None:
        return rule_tile(self.tab, self.hands[seat])

    @classmethod
    def next_starter(cls, previous: list[Round], rules: HouseRules) -> int | None:
        """Who opens the round after ``previous`` (the match's rounds so far), with any tile;
        None: the round opens by rule (docs/rules.md §1.4). Leonard and the block game: D-3,
        the right-hand player of the previous opener (``opener="rotate"``)."""
        if not previous or rules.opener == "rule":
            return None
        prev = previous[-1]
        opener = prev.opener if prev.opener >= 0 else prev.starter
        return (opener + 1) % prev.players

    @classmethod
    def match_context(cls, previous: list[Round], target: int) -> object:
        """Hook: what a round of this game needs of the match around it, given the match's
        rounds so far and its target score (0: none); kept as :attr:`context`. The base round
        needs nothing; a variant that scores passes against the match's target overrides it."""
        return None

    # --- reading the state as tiles -------------------------------------------------------

    def dealt(self) -> Deal:
        """The deal this round was played from (hands as dealt, the whole pile, the table tile,
        the starter): :meth:`from_deal` of it plays the same round again."""
        ts = self.tab.tileset
        return Deal(tuple(tuple(str(t) for t in ts.from_mask(h)) for h in self.initial_hands),
                    tuple(str(ts.tiles[i]) for i in self.pile),
                    None if self.table is None else str(ts.tiles[self.table]), self.starter)

    def tile_of(self, tid: int | None) -> Tile | None:
        return None if tid is None or tid < 0 else self.tab.tileset.tiles[tid]

    def suit_of(self, s: int) -> Half:
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
        """The tiles left in the pile, in the order they will be drawn."""
        return [self.tab.tileset.tiles[i] for i in self.pile[self.pile_pos:]]

    def _placed(self, p: Placement) -> Tile:
        suits = self.tab.tileset.suits
        return Tile(suits[p[1]], suits[p[2]])

    def line_tiles(self) -> list[Tile]:
        """The line left to right, each tile with its left half first. For a hub: the hub,
        then each arm from the hub outward (see :meth:`arm_tiles`)."""
        return [self._placed(p) for p in self.line]

    def arm_tiles(self, end: End) -> list[Tile]:
        """The tiles of one arm of a hub, from the hub outward, the half towards the hub first
        (empty for a two-ended line)."""
        return [self._placed(p) for p in self.line.arm(self.line.shape.index(end))]

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
        tid = self.line.tips[self.line.shape.index(end)]
        return None if tid < 0 else self.tab.tileset.tiles[tid]

    def right_of(self, seat: int) -> int:
        """The right-hand player: the one who plays after ``seat`` (docs/rules.md §1.3)."""
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

    def fits(self, tid: int, suit: int) -> bool:
        """Tile ``tid`` may be placed on an end showing ``suit``."""
        return self.tab.half_a[tid] == suit or self.tab.half_b[tid] == suit

    def playable_mask(self, seat: int) -> int:
        h = self.hands[seat]
        if not self.line.started:
            return h if self.open_tile is None else h & (1 << self.open_tile)
        return h & self._ends_mask()

    def can_draw(self) -> bool:
        if self.pile_pos >= len(self.pile) - self.keep:
            return False
        return self.rules.draw == "until-playable" or self.drew_this_turn == 0

    def _plays(self, mask: int) -> list[Action]:
        """Hook: every (tile, end) play of the tiles in ``mask`` (which all fit somewhere)."""
        tiles = self.tab.tileset.tiles
        line = self.line
        names = line.shape.ends
        out: list[Action] = []
        started = line.started
        for i in set_bits(mask):
            t = tiles[i]
            if not started:
                out.append(Play(t, None))
                continue
            for end, suit in enumerate(line.open):
                if self.fits(i, suit):
                    first = self.suit_of(suit)
                    out.append(Play(t.oriented(first) if first in (t.a, t.b) else t, names[end]))
        return out

    def legal_actions(self, extra: bool = False) -> list[Action]:
        """Every action the player to move may take: plays (tile, end), else draw, else pass.
        ``extra``: the variant's own moves too (:meth:`extra_moves`, e.g. Cuban's redeal),
        after them; the default lists only the moves every game has, which is what the bots'
        random choices and the tutor's numbered moves read."""
        if self.over:
            return []
        m = self.playable_mask(self.turn)
        if not m:
            moves: list[Action] = [DRAW] if self.can_draw() else [PASS]
        else:
            moves = self._plays(m)
        if extra:
            moves += self.extra_moves()  # type: ignore[arg-type]  # a variant's own actions
        return moves

    # --- applying actions -----------------------------------------------------------------

    def extra_moves(self) -> list[object]:
        """Hook: the moves of this variant's own that the player to move may make now, on top
        of :meth:`legal_actions` (Cuban's redeal); :meth:`apply` hands them to
        :meth:`_apply_extra`. The base round has none."""
        return []

    def parse_move(self, text: str) -> object:
        """The move ``text`` writes (:func:`engine.actions.parse_action`), with this game's
        tiles and its own moves. Raises :class:`~engine.actions.ActionError`."""
        return parse_action(text, self.tab.tileset, self.extra_moves())

    def apply(self, action: object, seat: int | None = None) -> list[Event]:
        """Apply one action of the player to move (``seat`` checks whose turn it is) and return
        the events it caused. An illegal action raises :class:`IllegalMoveError` and changes
        nothing. ``action`` is an :data:`Action` or one of the variant's own moves
        (:meth:`extra_moves`, which :meth:`_apply_extra` applies); it is typed ``object``
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
            self.place_tile(tid, end, first)
        elif isinstance(action, Draw):
            self._check_draw()
            self.draw_tile()
        elif isinstance(action, Pass):
            self._check_pass()
            self.pass_turn()
        else:
            self._apply_extra(action)
        return self.log[start:]

    def _apply_extra(self, action: object) -> None:
        """Hook: apply one of the variant's own moves (:meth:`extra_moves`), or raise
        :class:`IllegalMoveError` for what is not a move of this game."""
        raise IllegalMoveError(f"{action!r} is not a move of "
                               f"{self.variant.title or self.variant.name}: play a tile, draw "
                               f"or pass")

    def recorded_extra(self, turn: dict[str, object]) -> object:
        """Hook for replaying a record: the game's own move (:meth:`extra_moves`) that a
        recorded turn says was made, as :meth:`_apply_extra` writes it (None: the turn made
        none). The base round records none."""
        return None

    def sheet_event(self, event: object) -> tuple[str, int, object]:
        """Hook for the score sheet: one of this variant's own events (not one every game
        logs) as its key in :attr:`Variant.sheet_marks` (``""``: no mark), the seat whose
        cell it marks, and the move of :meth:`extra_moves` that made it, which a replay
        applies (None: the seat's last placement made it, and the mark goes on that row).
        The base round logs no event of its own."""
        return "", -1, None

    # --- checking a move (docs/rules.md §1.5): why an illegal one is refused ---------------

    def _check_play(self, play: Play) -> tuple[int, int, int]:
        """Hook: the tile id, end index (-1: the opening) and matched suit of a legal ``play``
        by the player to move; :class:`IllegalMoveError` saying what is wrong otherwise."""
        seat = self.turn
        ts = self.tab.tileset
        try:
            tid = ts.id(play.tile)
        except TileError as e:
            raise IllegalMoveError(str(e)) from None
        where = f"{play.tile} at {'the start' if play.end is None else 'end ' + play.end}"
        if not self.hands[seat] >> tid & 1:
            raise IllegalMoveError(f"{where}: {play.tile} is not in seat {seat}'s hand")
        line = self.line
        if not line.started:
            if play.end is not None:
                raise IllegalMoveError(f"{where}: the line is empty, so the tile has no end "
                                       f"to go to (give no end)")
            if self.open_tile is not None and tid != self.open_tile:
                raise IllegalMoveError(f"{where}: the round opens with "
                                       f"{ts.tiles[self.open_tile]}")
            return tid, -1, ts.suit(play.tile.a)
        shape = line.shape
        if play.end not in shape.ends:
            raise IllegalMoveError(f"{where}: choose the end, {shape.describe()}")
        end = shape.index(play.end)
        suit = line.open[end]
        if not self.fits(tid, suit):
            raise IllegalMoveError(f"{where}: {play.tile} does not match the open "
                                   f"{self.suit_of(suit)} at end {play.end}")
        return tid, end, suit

    def _check_draw(self) -> None:
        """Refuse a draw unless no tile fits and the pile has one to give (§1.5, D-4)."""
        if self.playable_mask(self.turn):
            raise IllegalMoveError("draw: you have a tile that fits, so you must play it")
        if not self.can_draw():
            raise IllegalMoveError("draw: there is nothing left to draw")

    def _check_pass(self) -> None:
        """Refuse a pass unless no tile fits and there is nothing to draw (§1.5)."""
        if self.playable_mask(self.turn):
            raise IllegalMoveError("pass: you have a tile that fits, so you must play it")
        if self.can_draw():
            raise IllegalMoveError("pass: you must draw from the pile first")

    # --- the steps of a turn ---------------------------------------------------------------

    def begin_turn(self) -> dict[str, Any]:
        if self._turn is None:
            self._turn = {"player": self.turn, "drew": [], "play": None}
        return self._turn

    def note_draw(self, seat: int, tile: str, forced: bool) -> None:
        """Write a drawn tile in the turn's record (``forced``: ``seat`` was made to draw it)."""
        turn = self._turn
        if turn is None:
            turn = self.begin_turn()
        if forced:
            turn.setdefault("forced", []).append({"player": seat, "tile": tile})
        else:
            turn["drew"].append(tile)

    def end_turn(self) -> None:
        if self.record:
            self.turns.append(self.begin_turn())
            self._turn = None
        self.drew_this_turn = 0
        self.mover = self.turn
        if not self.over:
            self.turn = self._next_seat()

    def _next_seat(self) -> int:
        """Who plays after the turn that just ended (hook: Doble 15's direction and 14)."""
        return (self.turn + 1) % self.players

    def draw_tile(self, seat: int | None = None) -> None:
        """The player to move draws a tile from the pile (D-4; ``seat``: another seat is made
        to draw one)."""
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
            self.note_draw(who, str(tile), forced)
            self.log.append(Drew(who, tile, forced))

    def pass_turn(self) -> None:
        """The player to move passes: the seat is known to lack the open suits, §1.7's bonuses
        are paid (paso a la salida, paso corrido; D-7), and a pass that leaves nobody able to
        play blocks the round (§1.8)."""
        seat = self.turn
        self.passes += 1
        self.pass_count += 1
        line = self.line
        started = line.started
        if started:
            for s in line.open:
                self.voids[seat] |= 1 << s
        if self.record:
            self.begin_turn()
            self.log.append(Passed(seat, tuple(self.suit_of(s) for s in line.open)
                                   if started else ()))
        self.on_pass(seat)
        if self.over:  # the pass ended the match (Ponce's target)
            self.end_turn()
            return
        bonus = self.variant.pass_bonus
        if bonus and self.passes == 1 and self.placements == 1 and seat == \
                (self.opener + 1) % self.players:
            self.salida_paid = True
            self.add_bonus(self.opener, "paso-a-la-salida", bonus)
        self.end_turn()
        if self.is_blocked():
            self.finish_tranque()
        elif bonus and self.passes == self.players - 1 and self.turn == self.last_placer \
                and self.playable_mask(self.turn):
            if not (self.salida_paid and self.placements == 1
                    and not self.rules.both_pass_bonuses):
                self.add_bonus(self.turn, "paso-corrido", bonus)

    def on_pass(self, seat: int) -> None:
        """Hook: a pass was just made by ``seat`` (Ponce scores it)."""

    def passes_score(self) -> bool:
        """Hook: a pass can score or end the round, so the playout kernel must not skip it."""
        return bool(self.variant.pass_bonus)

    def add_bonus(self, seat: int, kind: str, points: int, detail: str = "") -> None:
        self.gains[seat] += points
        if self.record:
            self.log.append(Bonus(seat, kind, points, detail))

    def is_blocked(self) -> bool:
        """docs/rules.md §1.8: nobody can place a tile and there is nothing to draw."""
        if self.pile_pos < len(self.pile) - self.keep or not self.line.started:
            return False
        m = self._ends_mask()
        for h in self.hands:
            if h & m:
                return False
        return True

    def place_tile(self, tid: int, end: int, first: int) -> None:
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
            self.begin_turn()["play"] = {"tile": str(tile), "end": name}
            self.log.append(Placed(seat, tile, name, opening))
        if tab.power[tid]:
            self._power(seat, tid, other)
        self._after_place(seat, tid, matched, open_)
        if not h:
            kind = ""
            if capicua and self.variant.capicua_bonus:
                kind = self.capicua_kind(tid, end_tiles)
                self.add_bonus(seat, "capicua", self.variant.capicua_bonus, kind)
            self.finish_domino(seat, kind)
            self.end_turn()
            return
        self.end_turn()
        if self.is_blocked():
            self.finish_tranque()

    def _after_place(self, seat: int, tid: int, matched: int, open_: int) -> None:
        """Hook: ``seat`` just placed ``tid`` on ``matched``, leaving ``open_`` open (Doble 15's
        special numbers)."""

    # --- what a placement scores at once: a power tile's effect (§1.6), the capicúa (§1.8) --

    def effect(self, tid: int, other: int) -> tuple[str, int, int, int | None]:
        """§1.6 for tile ``tid`` placed with tile ``other`` at the other end (-1: none, an
        opening): the rule applied, gain, loss and T."""
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
        _, gain, loss, _ = self.effect(tid, self.line.other_tip(end))
        return gain, loss

    def _power(self, seat: int, tid: int, other: int) -> None:
        """``seat`` just placed power tile ``tid`` with ``other`` at the other end: it gains,
        and the next seat loses, by §1.6 (logged as the last placement's
        :class:`PowerEffect`)."""
        target = (seat + 1) % self.players
        rule, gain, loss, t = self.effect(tid, other)
        self.gains[seat] += gain
        self.losses[target] += loss
        if self.record:
            self.log.append(PowerEffect(seat, target, self.log[-1].tile,  # type: ignore[union-attr]
                                        rule, gain, loss, t, self.tile_of(other),
                                        self.tab.number[tid]))

    def capicua_kind(self, tid: int, end_tiles: tuple[int, int]) -> str:
        """The capicúa's kind when ``tid``, the last tile, fits both ends, whose tiles were
        ``end_tiles``: "KP" with a power tile (the last one, or one at an end, by the house
        rule), else "K"."""
        power = self.tab.power
        if self.rules.capicua_kind == "last-tile":
            return "KP" if power[tid] else "K"
        return "KP" if power[end_tiles[0]] or power[end_tiles[1]] else "K"

    # --- the end of a round (docs/rules.md §1.8, D-9; hooks: how each game counts a hand) ---

    def hand_totals(self) -> list[int]:
        return self.tab.hand_totals(self.hands)

    def finish_domino(self, seat: int, capicua: str) -> None:
        """``seat`` placed its last tile: it collects every other hand (§1.8)."""
        # every hand's tiles at once (the hands hold distinct tiles: their sum is their union)
        count = self.tab.hand_totals([sum(self.hands)])[0]
        self.add_bonus(seat, "domino", count)
        self.end_round("domino", seat, None, capicua, count, count, (), None)

    def finish_tranque(self) -> None:
        """Nobody can play: the lowest hand collects the others (§1.8, D-9)."""
        totals = self.hand_totals()
        low = min(totals)
        lowest = [s for s, t in enumerate(totals) if t == low]
        winner, count = self.pay_lowest(lowest, sum(totals) - low * len(lowest))
        self.end_round("tranque", winner, totals, "", count, count, (), None)

    def pay_lowest(self, lowest: list[int], amount: int) -> tuple[int | None, int]:
        """A blocked round's gain (§1.8, D-9): the single lowest hand (``lowest``: the seats
        that hold it) gains ``amount``; a lowest hand shared by several gains nothing, or with
        ``tranque_tie == "split"`` they share it (rounded down). Returns the winner (None on a
        tie) and the count the round ends with (``amount``, or 0 when nobody gains)."""
        if len(lowest) == 1:
            self.add_bonus(lowest[0], "tranque", amount)
            return lowest[0], amount
        if self.rules.tranque_tie == "split":
            for s in lowest:
                self.add_bonus(s, "tranque", amount // len(lowest))
            return None, amount
        return None, 0

    def _finish(self, reason: str, winner: int | None, totals: list[int] | None,
                capicua: str, *, count: int = 0, points: int | None = None,
                differences: tuple[int, ...] = (), team: int | None = None) -> None:
        """End the round. ``totals`` None: each hand's total, worked out when :attr:`result`
        is first read (the hands no longer change). ``points`` None: ``count``."""
        self.end_round(reason, winner, totals, capicua, count, count if points is None else points,
                  differences, team)

    def end_round(self, reason: str, winner: int | None, totals: list[int] | None, capicua: str,
             count: int, points: int, differences: tuple[int, ...], team: int | None) -> None:
        """:meth:`_finish` with every argument given in order (the base round's own ends)."""
        self.over = True
        # what :attr:`result` needs beyond the round's state, which no longer changes: the
        # rest (scores as tuples, pairs' totals, the blocker) is worked out when it is read,
        # as most rollouts only read the scores
        self._ending = (reason, winner, totals, capicua, count, points, differences, team)
        if self.record:
            self.log.append(self.ended)

    @property
    def result(self) -> RoundEnded | None:
        """How the round ended (None while it is in progress), built once
        (:meth:`_build_result`)."""
        if self._result is None and self._ending is not None:
            self._result = self._build_result(self._ending)
        return self._result

    @property
    def ended(self) -> RoundEnded:
        """:attr:`result` of a round that is over."""
        result = self._result
        if result is None:
            assert self._ending is not None, "the round is not over"
            result = self._result = self._build_result(self._ending)
        return result

    def _build_result(self, ending: tuple[Any, ...]) -> RoundEnded:
        """How the round ended, from what :meth:`end_round` kept (``ending``); built once, when
        :attr:`result` is first read: the event is a dataclass, whose generated ``__init__``
        mypyc leaves interpreted, and a rollout that only reads the scores would spend a tenth
        of its time on it."""
        reason, winner, totals, capicua, count, points, differences, team = ending
        if totals is None:
            totals = self.hand_totals()
        pairs = len(self.teams) < self.players
        team_totals = tuple(sum(totals[s] for s in seats) for seats in self.teams) \
            if pairs and totals else ()
        if pairs and team is None and winner is not None:
            team = self.seat_team[winner]
        return RoundEnded(
            reason, winner, tuple(self.gains), tuple(self.losses), tuple(totals), capicua,
            count, points, differences, self.teams if pairs else (), team_totals,
            team if pairs else None, self.mover if reason == "tranque" else None)

    # --- fast random play (bots' rollouts, benchmarks) -------------------------------------

    def playout(self, rng: random.Random,
                trace: list[tuple[int, int]] | None = None) -> None:
        """Play the round to its end with uniformly random legal moves (the bots' rollouts),
        by exactly the rules of :meth:`apply`: the playout kernel (:func:`_playout`), which
        runs Leonard's and the block game's whole rounds inline. ``trace`` collects (tile id,
        end) per placement so tests can replay the same game through :meth:`apply`."""
        _playout(self, rng, trace, type(self) is Round)

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
        ones copied, the rest shared; the event log and turns only if ``record``. A subclass
        with attributes of its own extends it."""
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
        new.voids = list(self.voids)
        new.record = record
        new.log = list(self.log) if record else []
        new.turns = [dict(t) for t in self.turns] if record else []
        new.initial_hands = self.initial_hands
        new.teams = self.teams
        new.seat_team = self.seat_team
        new._result = self._result
        new._ending = self._ending
        new._turn = None

    def __repr__(self) -> str:
        line = " ".join(map(str, self.line_tiles()))
        return (f"<Round {self.variant.name} {self.players}p #{self.number} turn={self.turn} "
                f"line=[{line}] over={self.over}>")


def _playout(game: Round, rng: random.Random, trace: list[tuple[int, int]] | None,
             plain_hooks: bool) -> None:
    """The playout kernel: :meth:`Round.playout`, which calls it (a function of the round's
    module rather than the method's body: compiled, the same loop as a method costs a block
    game 0.1% more instructions). It plays by exactly the rules of :meth:`Round.apply`
    (tests/test_playout_kernel.py replays its games through ``apply`` and compares every
    field).

    The common steps run inline on local variables: a placement (with its power effect, read
    from the tables :meth:`Round.effect` reads), a draw, and a pass that scores nothing.
    With ``plain_hooks`` (Leonard and the block game: the base round's hooks) the opening and
    the last tile (with its capicúa) run inline too; a variant's go through ``place_tile`` and its
    hooks. Every other step goes through the same ``place_tile``/``draw_tile``/``pass_turn`` as
    ``Round.apply``, and so does every step of a round that records its events. ``trace``
    collects (tile id, end) per placement so tests can replay the same game through
    ``apply``. The kernel never asks for a variant's extra moves (a Cuban player may ask for a
    redeal, but need not).
    """
    rnd = rng.random
    tab = game.tab
    (sm, ha, hb, half_sum, power, powered, n, effect_gain, effect_loss, end_suits,
     suits) = tab.kernel
    hands, players = game.hands, game.players
    gains, losses = game.gains, game.losses
    line = game.line
    opens, tips = line.open, line.tips
    # looked up once, not per tile (compiled, m.bit_count() looks the method up each time)
    bit_count = int.bit_count
    native = NATIVE
    pile = game.pile
    limit = len(pile) - game.keep
    draw_until = game.rules.draw == "until-playable"
    voids = game.voids
    # Passes run inline only where they score nothing (no pass bonus, no pass points) and
    # with no events.
    quiet_pass = not game.passes_score() and not game.record
    fast = not game.record
    # Leonard and the block game (the base hooks): their opening and their last tile run
    # inline too, as place_tile does them; a variant's go through place_tile and its hooks.
    plain = fast and plain_hooks
    capicua_bonus = game.variant.capicua_bonus
    kind = ""
    nxt = NEXT_SEATS[players]  # the next seat (as _next_seat)
    while not game.over:
        # Load the state into locals; the inline loop writes it back before any method.
        # The tiles at the ends, the placements, the last placer and the last mover are
        # not kept per step: they are read off the line and the turn when writing back.
        el, er, turn = opens[0], opens[1], game.turn
        tl, tr = tips[0], tips[1]
        passes = game.passes
        # the tiles placed at each end go on lists the line turns into its placements
        # when it is next read: the kernel makes no placement per step
        lefts, rights = line.adding(half_sum)  # type: ignore[attr-defined]  # two-ended
        add_left, add_right = lefts.append, rights.append
        laid = len(lefts) + len(rights) + (el >= 0)  # the first tile counts too
        tid = -1
        pos = game.pile_pos
        drawable = pos < limit
        opened, opener = game.opened, game.opener
        # a placement here runs inline, as the common case (a trace is kept in the branch
        # for the other cases)
        go = opened and fast and trace is None
        drew = game.drew_this_turn
        pass_count = game.pass_count
        stepped = pass_count  # changes when this loop ends a turn by a pass
        # the tiles that fit each end, and those that may be placed now: the tiles that
        # fit an end, or open the line
        if el >= 0:
            sml, smr = sm[el], sm[er]
            ends = sml | smr
        else:
            sml = smr = 0
            ends = -1 if game.open_tile is None else 1 << game.open_tile
        while True:
            m = hands[turn] & ends
            if not m:
                if drawable:
                    if not (fast and el >= 0 and (draw_until or not drew)):
                        break
                    # a draw (as draw_tile): the tile is unseen, so no void is known any more
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
                    # blocked, and nothing has changed since: the state place_tile or pass_turn
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
                if not opened:  # the opening (as place_tile)
                    opened = True
                    go = trace is None
                    opener = turn
                if not h and end >= 0 and capicua_bonus and bit & (smr if end == 0
                                                                     else sml):
                    # the capicúa (as place_tile), read before the line changes
                    kind = game.capicua_kind(tid, (tl, tr))
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
        opens[0], opens[1], game.turn, game.passes = el, er, turn, passes
        # placements made here, each then the turn moved on
        laid = len(lefts) + len(rights) + (el >= 0) - laid
        if laid:
            tips[0], tips[1] = tl, tr
            game.placements += laid
            # the domino's turn stays; passes since the last placement moved it on
            game.last_placer = turn if tid == -3 else (turn - 1 - passes) % players
        if laid or pass_count != stepped:
            game.mover = turn if tid == -3 else (turn - 1) % players
        game.opened, game.opener = opened, opener
        game.pile_pos = pos
        game.drew_this_turn = drew
        game.pass_count = pass_count
        if not m:
            if game.can_draw():
                game.draw_tile()
            else:
                game.pass_turn()
        elif tid == -2:
            game.finish_tranque()
        elif tid == -3:  # as place_tile's last tile: the bonuses, then the end
            if kind:
                game.add_bonus(turn, "capicua", capicua_bonus, kind)
            game.finish_domino(turn, kind)
        else:
            game.place_tile(tid, end, ha[tid])
