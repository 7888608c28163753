"""Read-only views of a round's state as tiles (the state itself is small integers and bit
masks, :mod:`engine.round`): the deal it was played from, the line, its ends, the pile.
:class:`~engine.round.Round`'s methods of the same names call these."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .deal import Deal
from .events import End
from .line import Placement
from .tiles import Half, Tile

if TYPE_CHECKING:
    from .round import Round


def dealt(rnd: Round) -> Deal:
    """The deal ``rnd`` was played from (hands as dealt, the whole pile, the table tile, the
    starter): :meth:`Round.from_deal` of it plays the same round again."""
    ts = rnd.tab.tileset
    return Deal(tuple(tuple(str(t) for t in ts.from_mask(h)) for h in rnd.initial_hands),
                tuple(str(ts.tiles[i]) for i in rnd.pile),
                None if rnd.table is None else str(ts.tiles[rnd.table]), rnd.starter)


def pile_tiles(rnd: Round) -> list[Tile]:
    """The tiles left in the pile, in the order they will be drawn."""
    return [rnd.tab.tileset.tiles[i] for i in rnd.pile[rnd.pile_pos:]]


def _placed(rnd: Round, p: Placement) -> Tile:
    suits = rnd.tab.tileset.suits
    return Tile(suits[p[1]], suits[p[2]])


def line_tiles(rnd: Round) -> list[Tile]:
    """The line left to right, each tile with its left half first. For a hub: the hub, then
    each arm from the hub outward (see :func:`arm_tiles`)."""
    return [_placed(rnd, p) for p in rnd.line]


def arm_tiles(rnd: Round, end: End) -> list[Tile]:
    """The tiles of one arm of a hub, from the hub outward, the half towards the hub first
    (empty for a two-ended line)."""
    return [_placed(rnd, p) for p in rnd.line.arm(rnd.line.shape.index(end))]


def ends(rnd: Round) -> tuple[Half, ...] | None:
    """The open suit at each end, in the order of :attr:`Round.end_names` (None before the
    first tile)."""
    if not rnd.line.started:
        return None
    suits = rnd.tab.tileset.suits
    return tuple(suits[s] for s in rnd.line.open)


def end_tile(rnd: Round, end: End) -> Tile | None:
    """The tile at end ``end`` (the hub itself for an arm with no tile yet)."""
    if not rnd.line.started:
        return None
    tid = rnd.line.tips[rnd.line.shape.index(end)]
    return None if tid < 0 else rnd.tab.tileset.tiles[tid]


def team_scores(rnd: Round) -> list[int]:
    """This round's score (gains − losses) per team (:attr:`Round.teams`)."""
    return [sum(rnd.gains[s] - rnd.losses[s] for s in seats) for seats in rnd.teams]
