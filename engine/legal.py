"""Which plays the player to move has, and whether a given play is one of them (RULES.md
§1.5). Plain functions over a round, which :class:`~engine.round.Round`'s ``_plays`` and
``_check_play`` hooks call (Doble 15's round type extends those hooks, not these)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .actions import IllegalMoveError, Play
from .kernel import _bits
from .tiles import TileError

if TYPE_CHECKING:
    from .round import Action, Round


def plays(rnd: Round, mask: int) -> list[Action]:
    """Every (tile, end) play of the tiles in ``mask`` (which all fit somewhere), each tile
    with the half that touches its end first."""
    tiles = rnd.tab.tileset.tiles
    names = rnd.line.shape.ends
    out: list[Action] = []
    started = rnd.line.started
    for i in _bits(mask):
        t = tiles[i]
        if not started:
            out.append(Play(t, None))
            continue
        for end, suit in enumerate(rnd.line.open):
            if rnd._fits(i, suit):
                first = rnd._suit(suit)
                out.append(Play(t.oriented(first) if first in (t.a, t.b) else t, names[end]))
    return out


def check_play(rnd: Round, play: Play) -> tuple[int, int, int]:
    """``play`` by the player to move as (tile id, end index, the suit it goes on; -1 and the
    tile's first half for the opening). Raises :class:`IllegalMoveError` saying why it is not
    legal."""
    seat = rnd.turn
    ts = rnd.tab.tileset
    try:
        tid = ts.id(play.tile)
    except TileError as e:
        raise IllegalMoveError(str(e)) from None
    where = f"{play.tile} at {'the start' if play.end is None else 'end ' + play.end}"
    if not rnd.hands[seat] >> tid & 1:
        raise IllegalMoveError(f"{where}: {play.tile} is not in seat {seat}'s hand")
    if not rnd.line.started:
        if play.end is not None:
            raise IllegalMoveError(f"{where}: the line is empty, so the tile has no end "
                                   f"to go to (give no end)")
        if rnd.open_tile is not None and tid != rnd.open_tile:
            raise IllegalMoveError(f"{where}: the round opens with {ts.tiles[rnd.open_tile]}")
        return tid, -1, ts.suit(play.tile.a)
    shape = rnd.line.shape
    if play.end not in shape.ends:
        raise IllegalMoveError(f"{where}: choose the end, {shape.describe()}")
    end = shape.index(play.end)
    suit = rnd.line.open[end]
    if not rnd._fits(tid, suit):
        raise IllegalMoveError(f"{where}: {play.tile} does not match the open "
                               f"{rnd._suit(suit)} at end {play.end}")
    return tid, end, suit
