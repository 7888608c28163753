"""Setting up a round: its starting state from a deal (shuffled or given, docs/rules.md §1.4) and
its copies (a deal as a value is :mod:`engine.deal`'s). Plain functions over a round, which
:class:`~engine.round.Round`'s ``__init__``, ``deal``, ``from_deal`` and ``copy`` call; a
variant's round type extends ``__init__`` and ``_copy_into`` and overrides the opening hooks
(``_rule_starter``, ``_check_rule_starter``, ``rule_opening``), which these call."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any, Literal

from .deal import Deal, DealError, tile_ids
from .events import Event, RoundStarted
from .kernel import Tables, tables
from .line import Line
from .opening import shuffled
from .rules import HouseRules, Variant
from .tiles import Tile

if TYPE_CHECKING:
    from .round import Round


def setup(rnd: Round, variant: Variant, rules: HouseRules, tab: Tables, hands: list[int],
          pile: list[int], table: int | None, starter: int, number: int,
          opening: Literal["rule", "any"], record: bool, context: object,
          open_tile: int = -1) -> None:
    """``rnd``'s starting state (what ``Round.__init__`` does, with every argument given in
    order: ``Round.deal`` calls it on a plain round, where the type call's keyword arguments
    cost a compiled block game a sixth of its time). The round keeps ``hands`` and ``pile``
    (the callers pass new lists). ``open_tile``: the tile the rule opens with, when the caller
    has found it already. The fields are described in :class:`~engine.round.Round`,
    which sets its private ones (the end and the turn in progress) itself."""
    rnd.variant = variant
    rnd.rules = rules
    rnd.tab = tab
    rnd.players = players = len(hands)
    rnd.number = number
    rnd.context = context
    rnd.hands = hands
    rnd.pile = pile
    rnd.pile_pos = 0
    rnd.keep = variant.keep.get(players, 0)
    rnd.table = table
    rnd.starter = starter
    rnd.turn = starter
    rnd.gains = [0] * players
    rnd.losses = [0] * players
    line: Line = variant.line.new()
    rnd.line = line
    rnd.open_tile = None
    rnd.opened = False
    rnd.opener = -1
    rnd.placements = 0
    rnd.last_placer = -1
    rnd.mover = -1
    rnd.passes = 0
    rnd.pass_count = 0
    rnd.drew_this_turn = 0
    rnd.salida_paid = False
    rnd.over = False
    rnd.voids = [0] * players
    rnd.record = record
    log: list[Event] = []
    rnd.log = log
    turns: list[dict[str, Any]] = []
    rnd.turns = turns
    rnd.initial_hands = list(hands)
    rnd.teams, rnd.seat_team = variant.teams_and_seats(players)
    if table is not None:
        line.start(table, tab.half_a[table], tab.half_b[table])
    elif opening == "rule":
        rnd.open_tile = open_tile if open_tile >= 0 else rnd.rule_opening(starter)
    if record:
        log.append(RoundStarted(number, players, starter, rnd.tile_of(table),
                                tuple(rnd.hand_sizes), len(pile)))


def shuffle(cls: type[Round], variant: Variant, rules: HouseRules, players: int,
            rng: random.Random, starter: int | None
            ) -> tuple[Tables, list[int], list[int], int | None, int, Literal["rule", "any"]]:
    """A shuffled deal for a variant's round type (``Round.deal``, §1.4): the tables, the hands,
    the pile, the table tile, the starter (by ``cls``'s opening rule unless given) and the
    opening. ``starter`` given means the D-3 "rotate" opening. (``Round.deal`` does the same
    inline for the base round, finding its opener and opening tile in one search.)"""
    variant.check_players(players)
    tab = tables(variant.tileset, rules.symbol_value, variant.power)
    hands, rest, table, first = shuffled(variant, tab, players, rng, starter)
    opening: Literal["rule", "any"] = "rule"
    if first is None:
        first = cls._rule_starter(tab, hands)
    elif table is None:
        opening = "any"
    return tab, hands, rest, table, first, opening


def from_deal(cls: type[Round], variant: Variant, rules: HouseRules,
              hands: Deal | list[list[Tile | str]], pile: list[Tile | str] | tuple[()],
              table: Tile | str | None, starter: int | None, number: int,
              opening: Literal["rule", "any"], record: bool, context: object) -> Round:
    """``Round.from_deal``, with every argument given. Raises :class:`DealError`."""
    if isinstance(hands, Deal):
        deal = hands
        if pile or table is not None:
            raise DealError("give the pile and the table tile in the Deal, not beside it")
        return cls.from_deal(variant, rules, [list(h) for h in deal.hands], list(deal.pile),
                             deal.table, deal.starter if starter is None else starter,
                             number=number, opening=opening, record=record, context=context)
    rt = variant.round_type
    if rt is not None and cls is not rt:
        return rt.from_deal(variant, rules, hands, pile, table, starter, number=number,
                            opening=opening, record=record, context=context)
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


def copy_into(rnd: Round, new: Round, record: bool) -> None:
    """Every field of ``rnd`` onto ``new`` (made by ``__new__`` alone): the mutable ones
    copied, the rest shared; the event log and turns only if ``record``. The round copies
    its private fields itself (``Round._copy_into``)."""
    new.variant = rnd.variant
    new.rules = rnd.rules
    new.tab = rnd.tab
    new.players = rnd.players
    new.number = rnd.number
    new.context = rnd.context
    new.hands = list(rnd.hands)
    new.pile = list(rnd.pile)
    new.pile_pos = rnd.pile_pos
    new.keep = rnd.keep
    new.table = rnd.table
    new.starter = rnd.starter
    new.turn = rnd.turn
    new.gains = list(rnd.gains)
    new.losses = list(rnd.losses)
    new.line = rnd.line.copy()
    new.open_tile = rnd.open_tile
    new.opened = rnd.opened
    new.opener = rnd.opener
    new.placements = rnd.placements
    new.last_placer = rnd.last_placer
    new.mover = rnd.mover
    new.passes = rnd.passes
    new.pass_count = rnd.pass_count
    new.drew_this_turn = rnd.drew_this_turn
    new.salida_paid = rnd.salida_paid
    new.over = rnd.over
    new.voids = list(rnd.voids)
    new.record = record
    new.log = list(rnd.log) if record else []
    new.turns = [dict(t) for t in rnd.turns] if record else []
    new.initial_hands = rnd.initial_hands
    new.teams = rnd.teams
    new.seat_team = rnd.seat_team
