"""Which moves are legal now: the plays a hand may make, and the checks that refuse an illegal
play, draw or pass with a message that says why (docs/rules.md §1.5). Plain functions over a round,
which :class:`~engine.round.Round`'s ``legal_moves``, ``apply`` and its hooks ``_plays`` and
``_check_play`` call; a variant's round type overrides the hooks (Doble 15's 13s and arms)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .actions import IllegalMoveError, Play
from .kernel import set_bits
from .tiles import TileError

if TYPE_CHECKING:
    from .round import Action, Round


def plays(rnd: Round, mask: int) -> list[Action]:
    """Every (tile, end) play of the tiles in ``mask`` (which all fit somewhere)."""
    tiles = rnd.tab.tileset.tiles
    line = rnd.line
    names = line.shape.ends
    out: list[Action] = []
    started = line.started
    for i in set_bits(mask):
        t = tiles[i]
        if not started:
            out.append(Play(t, None))
            continue
        for end, suit in enumerate(line.open):
            if rnd.fits(i, suit):
                first = rnd.suit_of(suit)
                out.append(Play(t.oriented(first) if first in (t.a, t.b) else t, names[end]))
    return out


def check_play(rnd: Round, play: Play) -> tuple[int, int, int]:
    """The tile id, end index (-1: the opening) and matched suit of a legal ``play`` by the
    player to move; :class:`IllegalMoveError` saying what is wrong otherwise."""
    seat = rnd.turn
    ts = rnd.tab.tileset
    try:
        tid = ts.id(play.tile)
    except TileError as e:
        raise IllegalMoveError(str(e)) from None
    where = f"{play.tile} at {'the start' if play.end is None else 'end ' + play.end}"
    if not rnd.hands[seat] >> tid & 1:
        raise IllegalMoveError(f"{where}: {play.tile} is not in seat {seat}'s hand")
    line = rnd.line
    if not line.started:
        if play.end is not None:
            raise IllegalMoveError(f"{where}: the line is empty, so the tile has no end "
                                   f"to go to (give no end)")
        if rnd.open_tile is not None and tid != rnd.open_tile:
            raise IllegalMoveError(f"{where}: the round opens with "
                                   f"{ts.tiles[rnd.open_tile]}")
        return tid, -1, ts.suit(play.tile.a)
    shape = line.shape
    if play.end not in shape.ends:
        raise IllegalMoveError(f"{where}: choose the end, {shape.describe()}")
    end = shape.index(play.end)
    suit = line.open[end]
    if not rnd.fits(tid, suit):
        raise IllegalMoveError(f"{where}: {play.tile} does not match the open "
                               f"{rnd.suit_of(suit)} at end {play.end}")
    return tid, end, suit


def check_draw(rnd: Round) -> None:
    """Refuse a draw unless no tile fits and the pile has one to give (§1.5, D-4)."""
    if rnd.playable_mask(rnd.turn):
        raise IllegalMoveError("draw: you have a tile that fits, so you must play it")
    if not rnd.can_draw():
        raise IllegalMoveError("draw: there is nothing left to draw")


def check_pass(rnd: Round) -> None:
    """Refuse a pass unless no tile fits and there is nothing to draw (§1.5)."""
    if rnd.playable_mask(rnd.turn):
        raise IllegalMoveError("pass: you have a tile that fits, so you must play it")
    if rnd.can_draw():
        raise IllegalMoveError("pass: you must draw from the pile first")
