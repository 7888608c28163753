"""Painting a :class:`~tutor.ui.play.layout.BoardLayout` onto ipycanvas layers (tiles, pips,
glyphs)."""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence

import numpy as np
import numpy.typing as npt
from ipycanvas import Canvas
from ipycanvas.canvas import COMMANDS

from engine.tiles import Half
from tutor.ui.play.layout import BoardLayout, Cursor, EndSpot, PlacedTile
from tutor.ui.shared.panel import CanvasLayer

# Colours: a green felt, ivory basic tiles, power tiles on a warm tinted face.
FELT = "#1f5f46"
FELT_EDGE = "#174a36"
BAND = "#2a3d4f"
FACE = "#fbf8ef"
FACE_POWER = "#ffe7b3"
EDGE = "#3b3b3b"
PIP = "#1d1d1d"
DIVIDER = "#8a8a8a"
SYMBOL_COLOURS = {"+": "#166b31", "-": "#c0262d", "x": "#1f4fa8"}  # >= 4.5:1 on FACE_POWER
END_MARK = "#ffd84d"
SELECT = "#ff9f1c"
FIT = "#7cf29c"
LAST = "#4dc3ff"
TABLE_MARK = "#ecc8ff"
CURSOR = "#ffffff"
_SET = COMMANDS["set"]
"""ipycanvas's command that sets a drawing attribute (see :func:`style`)."""
_SET_LINE_DASH = COMMANDS["setLineDash"]
"""ipycanvas's command that sets the line dash (see :func:`line_dash`)."""

COORDS = np.float32
"""The board's coordinates as ipycanvas sends them in its batch calls' binary buffers: single
precision (within a 1/10 000 px on a board under 1000 px), half the bytes of numpy's default
double. A move's redraws sent about 50 KiB of polygons, the most of a click's bytes."""

# Pip positions on a 3×3 grid (column, row), the classic layouts.
PIPS: dict[int, tuple[tuple[int, int], ...]] = {
    0: (),
    1: ((1, 1),),
    2: ((0, 0), (2, 2)),
    3: ((0, 0), (1, 1), (2, 2)),
    4: ((0, 0), (2, 0), (0, 2), (2, 2)),
    5: ((0, 0), (2, 0), (1, 1), (0, 2), (2, 2)),
    6: ((0, 0), (2, 0), (0, 1), (2, 1), (0, 2), (2, 2)),
}


def half_boxes(p: PlacedTile) -> tuple[tuple[float, float, float], tuple[float, float, float]]:
    """(x, y, side) of the two half-squares of a placed tile, first half first."""
    if p.orientation == "h":
        s = p.h
        return (p.x, p.y, s), (p.x + s, p.y, s)
    s = p.w
    return (p.x, p.y, s), (p.x, p.y + s, s)


# A rounded corner as CORNER_STEPS straight pieces: at a tile's corner radius (about 5 px) it
# draws as round as the canvas's own arcs.
CORNER_STEPS = 4
_ANGLES = [math.radians(start + 90 * k / CORNER_STEPS)
           for start in (-90, 0, 90, 180) for k in range(CORNER_STEPS + 1)]
_COS = np.array([math.cos(a) for a in _ANGLES])
_SIN = np.array([math.sin(a) for a in _ANGLES])
# Per corner point: is it a right corner, a bottom corner (top-right, bottom-right,
# bottom-left, top-left, clockwise).
_RIGHT = np.repeat([1.0, 1.0, 0.0, 0.0], CORNER_STEPS + 1)
_BOTTOM = np.repeat([0.0, 1.0, 1.0, 0.0], CORNER_STEPS + 1)


def style(c: CanvasLayer, **attrs: str | float) -> None:
    """Set a layer's drawing attributes (``fill_style``, ``line_width``, ``font`` …).

    On an ipycanvas canvas each is sent as the canvas's own "set" command: its attribute
    setter first runs the value through traitlets (validation and change notification),
    about 28 µs a set against 1.6 µs for the command, and a redraw makes some forty sets, a
    quarter of its time. Anything else (a recording canvas in the tests) gets attributes.
    """
    if isinstance(c, Canvas):
        send = c._canvas_manager.send_command
        for name, value in attrs.items():
            send(c, [_SET, [Canvas.ATTRS[name], value]])
    else:
        for name, value in attrs.items():
            setattr(c, name, value)


def line_dash(c: CanvasLayer, segments: list[int]) -> None:
    """``c.set_line_dash(segments)``, sent as the canvas's command for the reason given in
    :func:`style` (its setter goes through traitlets); ``segments`` of even length."""
    if isinstance(c, Canvas):
        c._canvas_manager.send_draw_command(c, _SET_LINE_DASH, [segments])
    else:
        c.set_line_dash(segments)


Box = tuple[float, float, float, float, float]
"""A rounded rectangle: x, y, width, height, corner radius."""


def rounded_polygons(boxes: Sequence[Box]) -> npt.NDArray[np.float32]:
    """Rounded rectangles (x, y, w, h, radius) as an (n, points, 2) array of polygons, for
    ipycanvas's batch calls (one message for all the tiles instead of a path per tile)."""
    b = np.array(boxes, dtype=COORDS).reshape(-1, 5)
    x, y, w, h, r = (b[:, k:k + 1] for k in range(5))
    pts = np.empty((len(b), len(_ANGLES), 2), dtype=COORDS)
    pts[:, :, 0] = x + r + _RIGHT * (w - 2 * r) + r * _COS
    pts[:, :, 1] = y + r + _BOTTOM * (h - 2 * r) + r * _SIN
    return pts


def _rgb(colour: str) -> tuple[int, int, int]:
    return int(colour[1:3], 16), int(colour[3:5], 16), int(colour[5:7], 16)


_FACE_RGB = {False: _rgb(FACE), True: _rgb(FACE_POWER)}
"""A tile's face colour by ``is_power``."""
SHADOW_OFFSET = np.array([2.0, 3.0], dtype=COORDS)


class TileBatch:
    """Every tile of a layer collected first, then painted in a few batch calls: shadows,
    faces, edges, dividers, pips, symbols (grouped by colour and width), numbers, and the dim
    veil of the tiles that do not fit. A board of 40 tiles is about a dozen canvas commands
    instead of 40 paths of 20 commands each, which made a redraw most of a click's time."""

    def __init__(self, numbers: bool = False) -> None:
        self.numbers = numbers
        self.faces: list[Box] = []
        self.face_colours: list[tuple[int, int, int]] = []
        self.dividers: list[tuple[tuple[float, float], tuple[float, float]]] = []
        self.pips: tuple[list[float], list[float], list[float]] = ([], [], [])
        self.strokes: dict[tuple[str, float], list[tuple[tuple[float, float],
                                                         tuple[float, float]]]] = {}
        self.texts: list[tuple[str, float, float, float]] = []
        self.veils: list[Box] = []

    def add(self, p: PlacedTile, *, dim: bool = False) -> None:
        t = p.tile
        r = min(p.w, p.h) * 0.16
        self.faces.append((p.x, p.y, p.w, p.h, r))
        self.face_colours.append(_FACE_RGB[t.is_power])
        (x1, y1, s1), (x2, y2, s2) = half_boxes(p)
        if p.orientation == "h":
            self.dividers.append(((x2, p.y + s1 * 0.16), (x2, p.y + p.h - s1 * 0.16)))
        else:
            self.dividers.append(((p.x + s1 * 0.16, y2), (p.x + p.w - s1 * 0.16, y2)))
        self._half(t.a, x1, y1, s1)
        self._half(t.b, x2, y2, s2)
        if dim:
            self.veils.append((p.x, p.y, p.w, p.h, r))

    def _half(self, half: Half, x: float, y: float, s: float) -> None:
        """Pips for a number (the number itself with ``numbers``), a bold + − × glyph for a
        symbol."""
        if isinstance(half, int) and half in PIPS and not self.numbers:
            r = max(1.6, s * 0.085)
            pad = s * 0.24
            step = (s - 2 * pad) / 2
            xs, ys, rs = self.pips
            for col, row in PIPS[half]:
                xs.append(x + pad + col * step)
                ys.append(y + pad + row * step)
                rs.append(r)
            return
        if isinstance(half, str):
            cx, cy = x + s / 2, y + s / 2
            arm = s * 0.27
            lines = self.strokes.setdefault(
                (SYMBOL_COLOURS.get(half, PIP), max(2.5, s * 0.14)), [])
            if half == "+":
                lines.append(((cx - arm, cy), (cx + arm, cy)))
                lines.append(((cx, cy - arm), (cx, cy + arm)))
            elif half == "-":
                lines.append(((cx - arm, cy), (cx + arm, cy)))
            else:
                d = arm * 0.85
                lines.append(((cx - d, cy - d), (cx + d, cy + d)))
                lines.append(((cx - d, cy + d), (cx + d, cy - d)))
            return
        # Big sets (double-nine, double-fifteen): the number itself.
        self.texts.append((str(half), x + s / 2, y + s / 2 + 1, s))

    def paint(self, c: CanvasLayer) -> None:
        if not self.faces:
            return
        faces = rounded_polygons(self.faces)
        style(c, fill_style="rgba(0,0,0,0.28)")
        c.fill_polygons(faces + SHADOW_OFFSET)  # each face's shadow, moved down and right
        c.fill_styled_polygons(faces, np.array(self.face_colours, dtype=np.uint8))
        style(c, stroke_style=EDGE, line_width=1.5)
        c.stroke_polygons(faces)
        style(c, stroke_style=DIVIDER, line_width=1.2)
        c.stroke_line_segments(np.array(self.dividers, dtype=COORDS))
        xs, ys, rs = self.pips
        if xs:
            style(c, fill_style=PIP)
            c.fill_circles(*(np.array(v, dtype=COORDS) for v in (xs, ys, rs)))
        if self.strokes:
            style(c, line_cap="round")
            for (colour, width), lines in self.strokes.items():
                style(c, stroke_style=colour, line_width=width)
                c.stroke_line_segments(np.array(lines, dtype=COORDS))
            style(c, line_cap="butt")
        if self.texts:
            style(c, fill_style=PIP, text_align="center", text_baseline="middle")
            font = ""
            for text, x, y, s in self.texts:
                size = f"bold {int(s * 0.5)}px sans-serif"
                if size != font:
                    font = size
                    style(c, font=size)
                c.fill_text(text, x, y)
        if self.veils:
            style(c, fill_style="rgba(42,61,79,0.38)")
            c.fill_polygons(rounded_polygons(self.veils))


def paint_table(c: CanvasLayer, lay: BoardLayout, labels: dict[str, str]) -> None:
    """Layer 0: the felt and the hand band (changes only when the layout's bands change)."""
    c.clear()
    style(c, fill_style=FELT)
    c.fill_rect(0, 0, lay.width, lay.band_y)
    style(c, stroke_style=FELT_EDGE, line_width=6)
    c.stroke_rect(3, 3, lay.width - 6, lay.band_y - 6)
    if lay.band_y < lay.height:
        style(c, fill_style=BAND)
        c.fill_rect(0, lay.band_y, lay.width, lay.height - lay.band_y)
        label = labels.get("hand", "")
        if label:
            style(c, fill_style="#c9d6e3", font="bold 13px sans-serif", text_align="left",
                  text_baseline="top")
            c.fill_text(label, 12, lay.band_y + 6)
    if not lay.line:
        msg = labels.get("empty", "")
        if msg:
            style(c, fill_style="#cfe8dc", font="16px sans-serif", text_align="center",
                  text_baseline="middle")
            c.fill_text(msg, lay.width / 2, lay.band_y / 2)


def paint_tiles(c: CanvasLayer, lay: BoardLayout, hidden_hand: bool = False,
                playable: Iterable[int] = ()) -> None:
    """Layer 1: the line (with the bends of the snake) and the hand."""
    c.clear()
    style(c, stroke_style="rgba(255,255,255,0.35)", line_width=3)
    for x1, y1, x2, y2 in lay.turns:
        c.begin_path()
        c.move_to(x1, y1)
        c.bezier_curve_to(x1 + (8 if x1 > lay.width / 2 else -8) * 2, y1,
                          x2 + (8 if x1 > lay.width / 2 else -8) * 2, y2, x2, y2)
        c.stroke()
    for x1, y1, x2, y2 in lay.spokes:
        c.stroke_line(x1, y1, x2, y2)
    style(c, fill_style="#ffffff", text_align="center", text_baseline="middle")
    for name, x, y, hidden in lay.arm_labels:
        style(c, font="bold 13px sans-serif")
        c.fill_text(name, x, y - (5 if hidden else 0))
        if hidden:  # tiles of a long arm that are not drawn
            style(c, font="10px sans-serif")
            c.fill_text(f"+{hidden}", x, y + 8)
    tiles = TileBatch(numbers=lay.numbers)
    for p in lay.line:
        tiles.add(p)
    play = set(playable)
    if not hidden_hand:
        for p in lay.hand:
            tiles.add(p, dim=bool(play) and p.index not in play)
    tiles.paint(c)
    if hidden_hand and lay.hand:
        style(c, fill_style="#6b7c8d")
        c.fill_polygons(rounded_polygons([(p.x, p.y, p.w, p.h, p.w * 0.16) for p in lay.hand]))
    fits: list[Box] = [(p.x + 3, p.y + p.h + 5, p.w - 6, 4.0, 2.0) for p in lay.hand
            if not hidden_hand and p.index in play]
    if fits:
        style(c, fill_style=FIT)
        c.fill_polygons(rounded_polygons(fits))


def _ring(c: CanvasLayer, p: PlacedTile | EndSpot, colour: str, width: float = 3.5,
          pad: float = 3) -> None:
    style(c, stroke_style=colour, line_width=width)
    c.stroke_polygon(rounded_polygons([(p.x - pad, p.y - pad, p.w + 2 * pad, p.h + 2 * pad, 6)])[0])


def paint_marks(c: CanvasLayer, lay: BoardLayout, *, selected: int | None = None,
                fit_ends: Iterable[str] = (), last: int | None = None,
                labels: dict[str, str] | None = None, cursor: Cursor | None = None) -> None:
    """Layer 2: the open ends, the table tile, the last play, the selection, where it fits
    and the keyboard's cursor."""
    labels = labels or {}
    c.clear()
    fits = set(fit_ends)
    for p in lay.line:
        if p.table:
            _ring(c, p, TABLE_MARK, 3, 4)
            style(c, fill_style=TABLE_MARK, font="bold 11px sans-serif", text_align="center",
                  text_baseline="bottom")
            c.fill_text(labels.get("table", ""), p.x + p.w / 2, p.y - 6)
    shown_last = next((p for p in lay.line if p.index == last), None)
    if shown_last is not None:
        _ring(c, shown_last, LAST, 3, 2)
    line_dash(c, [6, 4])  # the open ends' outlines (the only strokes in this loop)
    for s in lay.ends:
        lit = s.end in fits
        colour = FIT if lit else END_MARK
        style(c, stroke_style=colour, line_width=3 if lit else 2)
        outline = rounded_polygons([(s.x, s.y, s.w, s.h, 6)])[0]
        c.stroke_polygon(outline)
        if lit:
            style(c, fill_style="rgba(124,242,156,0.25)")
            c.fill_polygon(outline)
        style(c, fill_style=colour, font=f"bold {int(max(11, s.h * 0.42))}px sans-serif",
              text_align="center", text_baseline="middle")
        arrow = "◀" if s.end == "L" else "▶"
        name = labels.get("end_" + s.end, s.end)
        c.fill_text(f"{arrow} {name}" if s.end == "L" else f"{name} {arrow}",
                    s.x + s.w / 2, s.y + s.h / 2 + 1)
        if lay.spokes:  # a hub: the open number, since the arm's last tile may be far off
            style(c, font=f"bold {int(max(10, s.h * 0.3))}px sans-serif", text_baseline="bottom")
            c.fill_text(str(s.suit), s.x + s.w / 2, s.y + s.h - 1)
        # A dot on the open half the end continues.
        ax, ay = s.anchor
        c.fill_circle(ax, ay + s.h / 2 - 4, 3)
    line_dash(c, [])
    if selected is not None and 0 <= selected < len(lay.hand):
        p = lay.hand[selected]
        _ring(c, p, SELECT, 4, 3)
    if cursor is not None:
        spot: PlacedTile | EndSpot | None = None
        if cursor[0] == "hand" and isinstance(cursor[1], int) and 0 <= cursor[1] < len(lay.hand):
            spot = lay.hand[cursor[1]]
        elif cursor[0] == "end":
            spot = next((s for s in lay.ends if s.end == cursor[1]), None)
        if spot is not None:  # a dashed ring outside the selection's, seen on felt and band
            line_dash(c, [5, 3])
            _ring(c, spot, CURSOR, 3, 7)
            line_dash(c, [])
