"""Where every tile goes on the board: a pure function of the view state (no widgets).

The board is one canvas in two bands. The upper band holds the line of play as a *snake*:
row 0 runs left to right, row 1 right to left under it, and so on, so a line of 45 tiles
stays inside the canvas; tiles shrink when the rows would not fit. The lower band holds the
hand of the student to move, as upright tiles. Each open end gets a hotspot the size of a
tile in the next free slot of the snake, and :func:`hit_test` turns a click into "this hand
tile" or "this end".
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal, TypeAlias, TypedDict

from engine.tiles import LEONARD, Half, Tile, TileSet

if TYPE_CHECKING:
    from tutor.session.snapshot import Snapshot

__all__ = ["BoardDict", "BoardLayout", "BoardView", "Cursor", "EndSpot", "Hit", "PlacedTile",
           "TileLike", "css_max_width", "hit_test", "layout", "view_get"]

TileLike = Tile | str | tuple[Half, Half]
"""A tile as a view may give it: a :class:`Tile`, its text (``"5/x"``) or its two halves."""


class BoardDict(TypedDict, total=False):
    """A board's view state as a mapping (tests, benchmarks): the :class:`Snapshot`'s fields
    the layout reads, each optional."""

    tileset: TileSet | None
    line: Sequence[TileLike]
    hand: Sequence[TileLike] | None
    table: TileLike | None
    ends: Sequence[Half] | None
    arms: Sequence[Sequence[TileLike]]
    end_names: Sequence[str]


BoardView: TypeAlias = "Snapshot | BoardDict"
"""What the board draws: the session's snapshot, or a mapping of its fields."""

Orientation = Literal["h", "v"]
Cursor = tuple[Literal["hand"], int] | tuple[Literal["end"], str]
"""Where the keyboard is on the board: a hand tile (by index) or an open end ("L"/"R")."""

MARGIN = 14
GAP = 6
HAND_BAND = 0.3  # share of the height for the hand band (when there is a hand to show)
MAX_HALF = 34  # the side of one half-square, at most (pixels)
MIN_HALF = 12
WINDOW_MARGIN = 8
"""CSS pixels the board leaves free under it in a window too short for it (see
:func:`css_max_width`)."""


def css_max_width(width: int, height: int) -> str:
    """The CSS ``max-width`` of a ``width`` × ``height`` board bitmap: its own width, and no
    wider than keeps the whole board inside the window's height. A phone turned sideways is a
    laptop's width (it gets the laptop's bitmap) and about 400 px tall: without the second
    bound the board was taller than the screen. CSS keeps the ratio (the height is ``auto``),
    and the clicks are scaled back to bitmap pixels whatever the size shown."""
    return f"min({width}px, calc((100vh - {WINDOW_MARGIN}px) * {width / height:.4f}))"


@dataclass(frozen=True)
class PlacedTile:
    """A tile drawn at ``(x, y, w, h)``. ``first`` is drawn on the left (``h``) or top (``v``)."""

    x: float
    y: float
    w: float
    h: float
    tile: Tile
    """Oriented as drawn: ``tile.a`` is the left/top half."""
    kind: Literal["line", "hand"]
    index: int
    """Position in the line (left to right) or in the hand."""
    orientation: Orientation = "h"
    table: bool = False
    """The 4-player table tile (the line's first tile, dealt face up)."""

    def contains(self, x: float, y: float) -> bool:
        return self.x <= x <= self.x + self.w and self.y <= y <= self.y + self.h

    @property
    def center(self) -> tuple[float, float]:
        return self.x + self.w / 2, self.y + self.h / 2


@dataclass(frozen=True)
class EndSpot:
    """The hotspot of an open end: click it to place the selected tile there."""

    end: str
    """``"L"``/``"R"``, or a hub's arm ``"1"`` … ``"6"``."""
    suit: Half
    x: float
    y: float
    w: float
    h: float
    anchor: tuple[float, float]
    """The middle of the open half it continues (for the marker's connecting line)."""

    def contains(self, x: float, y: float) -> bool:
        pad = 4
        return (self.x - pad <= x <= self.x + self.w + pad
                and self.y - pad <= y <= self.y + self.h + pad)


@dataclass(frozen=True)
class BoardLayout:
    width: int
    height: int
    half: float
    """Side of one half-square of a line tile."""
    line: tuple[PlacedTile, ...]
    ends: tuple[EndSpot, ...]
    hand: tuple[PlacedTile, ...]
    band_y: float
    """Where the hand band starts (== height when no hand is shown)."""
    rows: int
    turns: tuple[tuple[float, float, float, float], ...] = ()
    """Connectors between snake rows: (x, y_top, x, y_bottom) of the bend."""
    spokes: tuple[tuple[float, float, float, float], ...] = ()
    """A hub's connectors: (x1, y1, x2, y2) from the hub to the start of each arm."""
    arm_labels: tuple[tuple[str, float, float, int], ...] = ()
    """A hub's arm names where they are painted: (end, x, y, tiles not drawn)."""
    numbers: bool = False
    """Halves are drawn as numbers, not pips (sets beyond double-six: pips of 7 to 15 would
    be too small to count)."""


@dataclass(frozen=True)
class Hit:
    kind: Literal["hand", "end", "line", "none"]
    index: int = -1
    end: str | None = None


def view_get(view: Snapshot | Mapping[str, object], key: str,
             default: object = None) -> object:
    """Read ``key`` from a mapping or an object (the session's view state may be either)."""
    if isinstance(view, Mapping):
        return view.get(key, default)
    return getattr(view, key, default)


def _board(view: BoardView) -> BoardDict:
    """What the layout reads of ``view``, as a mapping."""
    if isinstance(view, Mapping):
        return view
    return BoardDict(tileset=view.tileset, line=view.line, hand=view.hand, table=view.table,
                     ends=view.ends, arms=view.arms, end_names=view.end_names)


def _tile(t: TileLike, tileset: TileSet | None) -> Tile:
    if isinstance(t, Tile):
        return t
    if isinstance(t, str):
        return (tileset or LEONARD).parse(t)
    a, b = t
    return Tile(a, b)


def _grid(n: int, width: int, height: float, half: float) -> tuple[int, int]:
    """Columns per row and rows needed for ``n`` tiles plus the two end slots."""
    step = 2 * half + GAP
    usable = width - 2 * MARGIN
    cols = max(2, int((usable + GAP) // step) - 1)  # one column kept for the left end slot
    slots = n + 1  # the right end's slot continues the snake
    rows = max(1, -(-slots // cols))
    return cols, rows


def layout(view: BoardView, width: int, height: int) -> BoardLayout:
    """Place the line (snake), the two end hotspots and the hand of ``view``.

    ``view`` needs ``line`` (tiles left to right, each with its left half first), and may
    give ``table`` (the 4-player table tile), ``ends`` (the open suits, left and right) and
    ``hand`` (the tiles of the student to move; empty or None to hide the hand band).
    """
    board = _board(view)
    tileset = board.get("tileset")
    line = [_tile(t, tileset) for t in (board.get("line") or ())]
    hand = [_tile(t, tileset) for t in (board.get("hand") or ())]
    given_table = board.get("table")
    table = _tile(given_table, tileset) if given_table is not None else None
    ends = board.get("ends")

    band_y = float(height) if not hand else round(height * (1 - HAND_BAND))
    hand_placed = _hand(hand, width, height, band_y)
    numbers = tileset is not None and any(isinstance(s, int) and s > 6 for s in tileset.suits)
    arms = board.get("arms") or ()
    if arms and line:
        names = tuple(board.get("end_names") or ())
        return _hub_layout(line[0], [[_tile(t, tileset) for t in a] for a in arms], names,
                           ends, width, height, band_y, hand_placed, numbers)
    area_h = band_y - 2 * MARGIN
    n = len(line)

    half = float(MAX_HALF)
    while True:
        cols, rows = _grid(n, width, area_h, half)
        row_h = half + 2 * GAP + 4
        if rows * row_h <= area_h or half <= MIN_HALF:
            break
        half -= 1
    tw, th = 2 * half, half
    step = tw + GAP
    row_h = th + 2.2 * GAP + 6
    used_cols = min(cols, n + 1) if rows == 1 else cols
    grid_w = (used_cols + 1) * step - GAP
    left = (width - grid_w) / 2
    top = MARGIN + (area_h - rows * row_h) / 2 + GAP

    def slot(i: int) -> tuple[float, float, bool]:
        """Top-left of snake slot ``i`` (-1 is the left end's slot) and whether the row runs
        right to left."""
        if i < 0:
            return left, top, False
        row, col = divmod(i, cols)
        rev = row % 2 == 1
        if rev:
            col = cols - 1 - col
        return left + (col + 1) * step, top + row * row_h, rev

    placed: list[PlacedTile] = []
    for i, t in enumerate(line):
        x, y, rev = slot(i)
        shown = t.flipped() if rev else t
        placed.append(PlacedTile(x, y, tw, th, shown, "line", i, "h",
                                 table is not None and t == table))

    turns = []
    for r in range(rows - 1):
        if (r + 1) * cols >= n + 1:
            break
        x_last, y_last, _ = slot((r + 1) * cols - 1)
        x_edge = x_last + tw + GAP / 2 if r % 2 == 0 else x_last - GAP / 2
        turns.append((x_edge, y_last + th / 2, x_edge, y_last + row_h + th / 2))

    spots: list[EndSpot] = []
    if ends is not None and n:
        el, er = ends
        x0, y0, _ = slot(-1)
        first = placed[0]
        spots.append(EndSpot("L", el, x0, y0, tw, th, (first.x + half / 2, first.y + th / 2)))
        xr, yr, rev = slot(n)
        last = placed[-1]
        _, _, last_rev = slot(n - 1)
        ax = last.x + half / 2 if last_rev else last.x + tw - half / 2
        spots.append(EndSpot("R", er, xr, yr, tw, th, (ax, last.y + th / 2)))

    return BoardLayout(width, height, half, tuple(placed), tuple(spots), hand_placed,
                       band_y, rows, tuple(turns), numbers=numbers)


def _hand(hand: Sequence[Tile], width: int, height: int,
          band_y: float) -> tuple[PlacedTile, ...]:
    """The hand band: upright tiles, in as many rows as they need."""
    hand_placed: list[PlacedTile] = []
    if hand:
        band_h = height - band_y
        hh = min(float(MAX_HALF + 4), (band_h - 2 * MARGIN) / 2)
        per_row = len(hand)
        hrows = 1
        while True:
            need = per_row * (hh + GAP * 1.5) - GAP
            if need <= width - 2 * MARGIN:
                break
            if hh > 22:
                hh -= 1
                continue
            hrows += 1
            per_row = -(-len(hand) // hrows)
            hh = min(float(MAX_HALF + 4), (band_h - 2 * MARGIN - (hrows - 1) * GAP) / (2 * hrows))
            if hh <= 8:
                break
        hstep = hh + GAP * 1.5
        for i, t in enumerate(hand):
            r, c = divmod(i, per_row)
            in_row = min(per_row, len(hand) - r * per_row)
            row_w = in_row * hstep - GAP * 1.5
            x = (width - row_w) / 2 + c * hstep
            y = band_y + MARGIN + 4 + r * (2 * hh + GAP)
            hand_placed.append(PlacedTile(x, y, hh, 2 * hh, t, "hand", i, "v"))
    return tuple(hand_placed)


HUB_LABEL = 22
"""Room for an arm's name (and the count of tiles not drawn) at the start of its row."""


def _hub_layout(hub: Tile, arms: Sequence[Sequence[Tile]], names: Sequence[str],
                ends: Sequence[Half] | None, width: int, height: int, band_y: float,
                hand: tuple[PlacedTile, ...], numbers: bool) -> BoardLayout:
    """A Doble 15 hub: the hub upright on the left, one row per arm going right from it,
    each arm's open end in the slot after its last tile. An arm longer than its row shows
    its outer tiles (the open end is what play needs); its label says how many are not
    drawn. Line indices follow the snapshot's order: the hub, then arm 1 outward, arm 2, …"""
    k = len(arms)
    area_h = band_y - 2 * MARGIN
    row_h = area_h / k
    half = float(min(MAX_HALF, max(MIN_HALF, row_h - 2 * GAP - 2)))
    tw, th = 2 * half, half
    hub_w, hub_h = half, 2 * half
    left = MARGIN + GAP
    x0 = left + hub_w + 2 * GAP + HUB_LABEL
    cols = max(2, int((width - MARGIN - x0 + GAP) // (tw + GAP)))  # tiles + the end slot
    top = MARGIN
    hub_y = top + area_h / 2 - hub_h / 2
    placed = [PlacedTile(left, hub_y, hub_w, hub_h, hub, "line", 0, "v")]
    spots: list[EndSpot] = []
    spokes: list[tuple[float, float, float, float]] = []
    labels: list[tuple[str, float, float, int]] = []
    index = 1
    for a, arm in enumerate(arms):
        name = names[a] if a < len(names) else str(a + 1)
        y = top + a * row_h + (row_h - th) / 2
        shown_from = max(0, len(arm) - (cols - 1))
        spokes.append((left + hub_w, hub_y + hub_h / 2, x0 - GAP, y + th / 2))
        labels.append((name, left + hub_w + GAP + HUB_LABEL / 2, y + th / 2, shown_from))
        for j, t in enumerate(arm):
            if j >= shown_from:
                x = x0 + (j - shown_from) * (tw + GAP)
                placed.append(PlacedTile(x, y, tw, th, t, "line", index + j, "h"))
        if ends is not None and a < len(ends):
            slot_x = x0 + (len(arm) - shown_from) * (tw + GAP)
            anchor = ((slot_x - GAP - half / 2, y + th / 2) if arm
                      else (left + hub_w / 2, hub_y + hub_h / 2))
            spots.append(EndSpot(name, ends[a], slot_x, y, tw, th, anchor))
        index += len(arm)
    return BoardLayout(width, height, half, tuple(placed), tuple(spots), hand, band_y, k,
                       (), tuple(spokes), tuple(labels), numbers)


def hit_test(x: float, y: float, lay: BoardLayout, ends: Sequence[str] | None = None) -> Hit:
    """What a click at canvas pixel ``(x, y)`` touched: a hand tile, an end hotspot (only the
    ``ends`` given, when given), a line tile, or nothing."""
    for p in lay.hand:
        if p.contains(x, y):
            return Hit("hand", p.index)
    for s in lay.ends:
        if (ends is None or s.end in ends) and s.contains(x, y):
            return Hit("end", end=s.end)
    for p in lay.line:
        if p.contains(x, y):
            return Hit("line", p.index)
    return Hit("none")
