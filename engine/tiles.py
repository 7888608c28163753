"""Tiles and tile sets: the 45-tile Leonard set and double-N sets, with text notation both ways."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cached_property

Half = int | str
"""A tile half: pips as an ``int``, or one of the power symbols ``"+"``, ``"-"``, ``"x"``."""

SYMBOLS: tuple[str, ...] = ("+", "-", "x")

# docs/rules.md §1.1: on input accept these spellings; on output always + - x and /.
_ALIASES = {"×": "x", "*": "x", "X": "x", "−": "-", "–": "-"}


class TileError(ValueError):
    """A tile that is not in the set being played, or text that is not a tile."""


def _rank(half: Half) -> int:
    """Sort order of suits: numbers ascending, then + - x."""
    if isinstance(half, int):
        return half
    if half in SYMBOLS:
        return 1000 + SYMBOLS.index(half)
    return 2000  # not a suit at all: the tile set's lookup rejects it with a TileError


@dataclass(frozen=True, eq=False)
class Tile:
    """A domino tile. ``a``/``b`` keep the orientation it was written or placed in;
    equality and hashing ignore orientation (``Tile(5, "x") == Tile("x", 5)``).

    >>> t = parse_tile("x/5")
    >>> str(t), repr(t), t == parse_tile("5 | ×")
    ('x/5', "Tile('x', 5)", True)
    """

    a: Half
    b: Half

    @cached_property
    def key(self) -> tuple[Half, Half]:
        """The orientation-free identity: halves in suit order."""
        return (self.a, self.b) if _rank(self.a) <= _rank(self.b) else (self.b, self.a)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Tile) and self.key == other.key

    def __hash__(self) -> int:
        return hash(self.key)

    def __str__(self) -> str:
        return f"{self.a}/{self.b}"

    def __repr__(self) -> str:
        return f"Tile({self.a!r}, {self.b!r})"

    def flipped(self) -> Tile:
        return Tile(self.b, self.a)

    @property
    def is_double(self) -> bool:
        return self.a == self.b

    @property
    def is_power(self) -> bool:
        """A Leonard power tile has at least one symbol half (docs/rules.md §1.1)."""
        return isinstance(self.a, str) or isinstance(self.b, str)

    def total(self, symbol_value: int = 0) -> int:
        """Sum of both halves; a symbol half is worth ``symbol_value`` (D-1, default 0)."""
        return sum(h if isinstance(h, int) else symbol_value for h in (self.a, self.b))

    def oriented(self, first: Half) -> Tile:
        """This tile with ``first`` as its first half (raises TileError if it has no such half)."""
        if self.a == first:
            return self  # tiles are immutable: no copy needed
        if self.b == first:
            return Tile(self.b, self.a)
        raise TileError(f"{self} has no half {first}")


class TileSet:
    """An ordered set of tiles with the lookup tables the engine plays on.

    Tiles are numbered 0…n-1 (their *id*), suits 0…s-1, so the engine can keep
    hands as bit masks.
    """

    def __init__(self, name: str, suits: tuple[Half, ...], description: str) -> None:
        self.name = name
        self.suits = suits
        self.description = description
        self.tiles: tuple[Tile, ...] = tuple(
            Tile(suits[i], suits[j]) for i in range(len(suits)) for j in range(i, len(suits))
        )
        self._id = {t.key: i for i, t in enumerate(self.tiles)}
        self._suit = {s: i for i, s in enumerate(suits)}
        # Per tile id: suit index of each half, in canonical order.
        self.half_a: tuple[int, ...] = tuple(self._suit[t.a] for t in self.tiles)
        self.half_b: tuple[int, ...] = tuple(self._suit[t.b] for t in self.tiles)
        # Per suit: bit mask of the tiles that carry it.
        self.suit_mask: tuple[int, ...] = tuple(
            sum(1 << i for i, t in enumerate(self.tiles) if s in (t.a, t.b)) for s in suits
        )
        self.is_symbol: tuple[bool, ...] = tuple(isinstance(s, str) for s in suits)

    def __len__(self) -> int:
        return len(self.tiles)

    def __repr__(self) -> str:
        return f"<TileSet {self.name}: {len(self.tiles)} tiles>"

    def __contains__(self, tile: object) -> bool:
        return isinstance(tile, Tile) and tile.key in self._id

    def id(self, tile: Tile) -> int:
        try:
            return self._id[tile.key]
        except KeyError:
            raise TileError(f"'{tile}' is not a {self.name} tile: {self.description}") from None

    def suit(self, half: Half) -> int:
        try:
            return self._suit[half]
        except KeyError:
            raise TileError(f"'{half}' is not a suit of the {self.name} set: {self.description}")\
                from None

    def mask(self, tiles: object) -> int:
        """Bit mask of an iterable of tiles."""
        m = 0
        for t in tiles:  # type: ignore[attr-defined]
            m |= 1 << self.id(t)
        return m

    def from_mask(self, mask: int) -> list[Tile]:
        out = []
        while mask:
            low = mask & -mask
            out.append(self.tiles[low.bit_length() - 1])
            mask ^= low
        return out

    def parse(self, text: str | Tile) -> Tile:
        """Read a tile of this set from text (``"x/5"``, ``"5|×"``, ``" 3 / 4 "``)."""
        if isinstance(text, Tile):
            self.id(text)
            return text
        if not isinstance(text, str):
            raise TileError(f"{text!r} is not a tile: write it like 3/4 or x/5")
        halves = _split(text)
        if halves is None:
            raise TileError(
                f"'{text.strip()}' is not a {self.name} tile: write it as two halves with a "
                f"slash, like {self.tiles[-2]}; {self.description}"
            )
        tile = Tile(*(parse_half(h) for h in halves))
        if tile.key not in self._id:
            raise TileError(f"'{tile}' is not a {self.name} tile: {self.description}")
        return tile


_SPLIT = re.compile(r"^\s*([^/|\s]+)\s*[/|]\s*([^/|\s]+)\s*$")


def _split(text: str) -> tuple[str, str] | None:
    m = _SPLIT.match(text)
    if not m:
        return None
    return m.group(1), m.group(2)


def parse_half(text: str) -> Half:
    text = _ALIASES.get(text, text)
    if text in SYMBOLS:
        return text
    if text.isascii() and text.isdigit():
        return int(text)
    return text  # not a suit of any set: the set's lookup names the problem


LEONARD = TileSet("Leonard", (1, 2, 3, 4, 5, 6, "+", "-", "x"), "halves are 1–6, +, -, x")
"""The 45 Leonard-Domino tiles (docs/rules.md §1.1): 21 basic, 24 power."""


def double_n(n: int) -> TileSet:
    """The double-``n`` set: every pair of 0…n (double-six: 28 tiles)."""
    names = {6: "double-six", 9: "double-nine", 12: "double-twelve", 15: "double-fifteen"}
    return TileSet(names.get(n, f"double-{n}"), tuple(range(n + 1)), f"halves are 0–{n}")


DOUBLE_SIX = double_n(6)
DOUBLE_NINE = double_n(9)
DOUBLE_FIFTEEN = double_n(15)


def parse_tile(text: str | Tile, tileset: TileSet = LEONARD) -> Tile:
    """Parse a tile in text form, Leonard set by default (docs/rules.md §1.1 aliases accepted).

    >>> parse_tile("X|5")
    Tile('x', 5)
    >>> parse_tile("7/x")
    Traceback (most recent call last):
    ...
    engine.tiles.TileError: '7/x' is not a Leonard tile: halves are 1–6, +, -, x
    """
    return tileset.parse(text)
