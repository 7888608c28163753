"""The moves a player makes, as values that print and read back: :class:`Play` (a tile at an
end), :data:`DRAW` and :data:`PASS`; a variant's own moves (Cuban's redeal,
:mod:`engine.variants.cuban`) are values of its module that print as one word.

``str(move)`` is what a game record and the terminal show (``5/x R``, ``7/4 3``, ``6/6`` for
the first tile, ``draw``, ``pass``), and :func:`parse_action` reads it back:
``parse_action(str(m)) == m`` for every move. It also reads the longer forms people write
(``5/x → R``, ``7/4 → arm 3``, ``5/x at left``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from .events import End
from .tiles import SYMBOLS, Half, Tile, TileError, TileSet, parse_half


class IllegalMoveError(ValueError):
    """A move the rules do not allow now; the message names the tile, the end and why."""


class ActionError(ValueError):
    """Text that is not a move: the message says what a move looks like."""


HOW = ("write a tile and the end it goes to, like 5/x R or 7/4 → arm 3 (the first tile "
       "alone, like 6/6), or draw, or pass")
"""What a move looks like, for error messages."""

_END_WORDS = {"l": "L", "left": "L", "r": "R", "right": "R"}
_PLAY = re.compile(
    r"^\s*(?P<tile>[^\s/|]+\s*[/|]\s*[^\s/|]+)"
    r"(?:\s*(?:→|->|\bat\b)?\s*(?:\barm\b\s*)?(?P<end>[^\s→]+))?\s*$",
    re.IGNORECASE)


def _end(text: str) -> End:
    word = text.strip()
    named = _END_WORDS.get(word.lower())
    if named is not None:
        return named
    if word.isascii() and word.isdigit():
        return str(int(word))
    raise ActionError(f"'{word}' is not an end of the line: the ends are L and R, or the "
                      f"arms 1–6 of a Doble 15 hub")


def _is_word(text: object, word: str) -> bool:
    return isinstance(text, str) and text.strip().lower() == word


def _tile(text: str, tileset: TileSet | None) -> Tile:
    if tileset is not None:
        try:
            return tileset.parse(text)
        except TileError as e:
            raise ActionError(str(e)) from None
    out: list[Half] = []
    for h in re.split(r"[/|]", text):
        half = parse_half(h.strip())  # the spellings docs/rules.md §1.1 accepts (×, X, −)
        if isinstance(half, int) or half in SYMBOLS:
            out.append(half)
        else:
            raise ActionError(f"'{text.strip()}' is not a tile: each half is a number or one "
                              f"of {', '.join(SYMBOLS)}")
    return Tile(out[0], out[1])


@dataclass(frozen=True)
class Play:
    """Place ``tile`` at ``end`` (``"L"``/``"R"``, or an arm ``"1"`` … ``"6"`` of a Doble 15
    hub; ``None`` for the round's first tile, which is placed with ``tile.a`` on the left)."""

    tile: Tile
    end: End | None = None

    def __str__(self) -> str:
        return str(self.tile) if self.end is None else f"{self.tile} {self.end}"

    @staticmethod
    def parse(text: str, tileset: TileSet | None = None) -> Play:
        """The play ``text`` writes: what ``str`` prints (``"5/x R"``, ``"7/4 3"``, ``"6/6"``)
        or the longer forms (``"5/x → R"``, ``"7/4 → arm 3"``, ``"5/x at left"``). The tile
        keeps the orientation written. ``tileset`` given: the tile must be one of its tiles.
        Raises :class:`ActionError`.

        >>> Play.parse("5/x → R"), Play.parse("7/4 → arm 3")
        (Play(tile=Tile(5, 'x'), end='R'), Play(tile=Tile(7, 4), end='3'))
        """
        if not isinstance(text, str):
            raise ActionError(f"{text!r} is not a move: {HOW}")
        found = _PLAY.match(text)
        if found is None:
            raise ActionError(f"'{text.strip()}' is not a move: {HOW}")
        end = found.group("end")
        return Play(_tile(found.group("tile"), tileset), None if end is None else _end(end))


@dataclass(frozen=True)
class Draw:
    """Draw one tile from the pile (only when no tile in hand fits)."""

    def __str__(self) -> str:
        return "draw"

    @staticmethod
    def parse(text: str) -> Draw:
        """:data:`DRAW` from ``"draw"`` (any case). Raises :class:`ActionError`."""
        if not _is_word(text, "draw"):
            raise ActionError(f"{text!r} is not 'draw': {HOW}")
        return DRAW


@dataclass(frozen=True)
class Pass:
    """Pass (only when no tile fits and nothing can be drawn)."""

    def __str__(self) -> str:
        return "pass"

    @staticmethod
    def parse(text: str) -> Pass:
        """:data:`PASS` from ``"pass"`` (any case). Raises :class:`ActionError`."""
        if not _is_word(text, "pass"):
            raise ActionError(f"{text!r} is not 'pass': {HOW}")
        return PASS


DRAW = Draw()
PASS = Pass()
Action = Play | Draw | Pass
"""What :meth:`Round.legal_actions <engine.round.Round.legal_actions>` lists. A variant's own
moves (Cuban's redeal) are listed by :meth:`~engine.round.Round.extra_moves`."""


def parse_action(text: str, tileset: TileSet | None = None,
                 extra: Iterable[object] = ()) -> object:
    """The move ``text`` writes: ``draw``, ``pass``, one of the ``extra`` moves by the word it
    prints (a variant's own: ``Round.extra_moves``), else a :class:`Play`
    (:meth:`Play.parse`). Raises :class:`ActionError` saying what a move looks like.

    >>> parse_action("draw"), parse_action(" 6/6 ")
    (Draw(), Play(tile=Tile(6, 6), end=None))
    """
    if not isinstance(text, str):
        raise ActionError(f"{text!r} is not a move: {HOW}")
    word = text.strip().lower()
    if word == "draw":
        return DRAW
    if word == "pass":
        return PASS
    for move in extra:
        if str(move) == word:
            return move
    return Play.parse(text, tileset)
