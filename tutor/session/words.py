"""The game in words, for a screen reader: tiles, halves and moves read aloud in the page's
language ("4/x" is "four-times" in English, "cuatro por" in Spanish), and any text with its
tiles written as words.

>>> tile_words(Tile(4, "x"), "es"), tile_words(Tile(6, 6), "en")
('cuatro por', 'double six')
"""

from __future__ import annotations

import re
from functools import lru_cache

from engine.round import Action, Draw, Pass
from engine.tiles import LEONARD, Half, Tile, TileError, TileSet
from tutor.i18n import N_, translator

__all__ = ["half_words", "move_words", "spoken", "tile_words"]

# Halves as words: pips (up to the double-fifteen set), and the power symbols.
_NUMBERS: tuple[str, ...] = (
    N_("blank"), N_("one"), N_("two"), N_("three"), N_("four"), N_("five"), N_("six"),
    N_("seven"), N_("eight"), N_("nine"), N_("ten"), N_("eleven"), N_("twelve"),
    N_("thirteen"), N_("fourteen"), N_("fifteen"),
)
_SYMBOLS: dict[str, str] = {"+": N_("plus"), "-": N_("minus"), "x": N_("times")}
# How two halves are joined: "six-three" in English, "seis tres" in Spanish.
_TILE = N_("{first}-{second}")
_DOUBLE = N_("double {half}")
_AT_END = {"L": N_("{tile} at the left end"), "R": N_("{tile} at the right end")}
# A tile as the game writes it: two halves (pips or + - x) around a slash.
_TILE_TEXT = re.compile(r"(?<![\w/.])(\d{1,2}|[-+x])/(\d{1,2}|[-+x])(?![\w/])")


def half_words(half: Half, lang: str) -> str:
    """One half in words: ``6`` → "six" / "seis", ``"x"`` → "times" / "por"."""
    _ = translator(lang)
    if isinstance(half, int) and 0 <= half < len(_NUMBERS):
        return _(_NUMBERS[half])
    if isinstance(half, str) and half in _SYMBOLS:
        return _(_SYMBOLS[half])
    return str(half)


def tile_words(tile: Tile, lang: str) -> str:
    """A tile in words, halves in the order written: "four-times" / "cuatro por",
    "double blank" / "doble blanca"."""
    return _halves_words(tile.a, tile.b, lang)


@lru_cache(maxsize=4096)
def _halves_words(a: Half, b: Half, lang: str) -> str:
    """Remembered by the halves as written (a tile equals its turned self, its words do not):
    the board's words tell every tile at each redraw."""
    _ = translator(lang)
    if a == b:
        return _(_DOUBLE).format(half=half_words(a, lang))
    return _(_TILE).format(first=half_words(a, lang), second=half_words(b, lang))


def move_words(move: Action, lang: str) -> str:
    """A move in words: "six-three at the left end", "Draw", "Pass"."""
    _ = translator(lang)
    if isinstance(move, Draw):
        return _("Draw")
    if isinstance(move, Pass):
        return _("Pass")
    words = tile_words(move.tile, lang)
    if move.end is None:
        return words
    return _(_AT_END.get(move.end, N_("{tile} on arm {arm}"))).format(tile=words, arm=move.end)


def spoken(text: str, lang: str, tileset: TileSet | None = None) -> str:
    """``text`` with every tile of ``tileset`` (default: Leonard's) written as words, for a
    screen reader: "Player B places 6/3 at the left end." → "Player B places six-three at
    the left end." Anything that is not a tile of the set stays as it is.

    >>> spoken("You played 5/x. Line: [4/5] [5/x]", "en")
    'You played five-times. Line: [four-five] [five-times]'
    """
    tiles = tileset or LEONARD

    def words(m: re.Match[str]) -> str:
        try:
            return tile_words(tiles.parse(m.group(0)), lang)  # halves in the order written
        except TileError:
            return m.group(0)

    return _TILE_TEXT.sub(words, text)
