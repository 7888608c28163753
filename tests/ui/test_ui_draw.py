"""The tile layer's painter: every tile of the line and the hand is drawn with its face colour,
its pips and its symbols, in a few batch calls (the board's redraw was most of a click)."""

from __future__ import annotations

from typing import Any

import numpy as np

from engine.tiles import LEONARD
from tutor.ui.play import draw
from tutor.ui.play.layout import layout


class Recorder:
    """Stands in for an ipycanvas layer: keeps every call with the style in force."""

    def __init__(self) -> None:
        object.__setattr__(self, "calls", [])
        object.__setattr__(self, "style", {})

    def __setattr__(self, name: str, value: Any) -> None:
        self.style[name] = value

    def __getattr__(self, name: str) -> Any:
        return lambda *args, **kw: self.calls.append((name, args, dict(self.style)))

    def named(self, name: str) -> list[tuple[tuple[Any, ...], dict[str, Any]]]:
        return [(args, style) for n, args, style in self.calls if n == name]


def _paint(line: list, hand: list, **kw: Any) -> tuple[Recorder, Any]:
    view = {"line": line, "ends": (line[0].a, line[-1].b) if line else None, "hand": hand}
    lay = layout(view, 800, 470)
    c = Recorder()
    draw.paint_tiles(c, lay, **kw)
    return c, lay


def _pips(tiles: list) -> int:
    return sum(h for t in tiles for h in (t.a, t.b) if isinstance(h, int))


def test_each_tile_gets_its_face_its_pips_and_its_symbols() -> None:
    line, hand = list(LEONARD.tiles[:36]), list(LEONARD.tiles[36:])
    c, lay = _paint(line, hand)
    tiles = [p.tile for p in (*lay.line, *lay.hand)]
    (faces, _style), = c.named("fill_styled_polygons")
    points, colours = faces
    assert len(points) == len(colours) == 45
    for p, colour in zip((*lay.line, *lay.hand), colours, strict=True):
        want = draw.FACE_POWER if p.tile.is_power else draw.FACE
        assert tuple(colour) == draw._rgb(want), p.tile
    # Every face lies on its tile's rectangle (the rounded corners inside it).
    for p, poly in zip((*lay.line, *lay.hand), points, strict=True):
        assert np.allclose([poly[:, 0].min(), poly[:, 0].max()], [p.x, p.x + p.w])
        assert np.allclose([poly[:, 1].min(), poly[:, 1].max()], [p.y, p.y + p.h])
    (circles, style), = c.named("fill_circles")
    assert len(circles[0]) == _pips(tiles) and style["fill_style"] == draw.PIP
    strokes: dict[str, int] = {}
    for (segments,), style in c.named("stroke_line_segments"):
        strokes[style["stroke_style"]] = strokes.get(style["stroke_style"], 0) + len(segments)
    want = {draw.DIVIDER: 45}
    for symbol, lines in (("+", 2), ("-", 1), ("x", 2)):
        colour = draw.SYMBOL_COLOURS[symbol]
        want[colour] = sum(lines for t in tiles for h in (t.a, t.b) if h == symbol)
    assert strokes == want


def test_tiles_that_do_not_fit_are_veiled_and_fitting_ones_underlined() -> None:
    line, hand = list(LEONARD.tiles[:5]), list(LEONARD.tiles[30:37])
    c, lay = _paint(line, hand, playable=[1, 4])
    polygons = {style["fill_style"]: args[0] for args, style in c.named("fill_polygons")}
    assert len(polygons["rgba(42,61,79,0.38)"]) == len(hand) - 2
    assert len(polygons[draw.FIT]) == 2
    marks = polygons[draw.FIT]
    for p, mark in zip((lay.hand[1], lay.hand[4]), marks, strict=True):
        assert p.x < mark[:, 0].mean() < p.x + p.w and mark[:, 1].min() > p.y + p.h


def test_a_hidden_hand_shows_only_tile_backs() -> None:
    line, hand = list(LEONARD.tiles[:5]), list(LEONARD.tiles[30:37])
    c, lay = _paint(line, hand, hidden_hand=True, playable=[1])
    (faces, _), = c.named("fill_styled_polygons")
    assert len(faces[0]) == len(line)
    (circles, _), = c.named("fill_circles")
    assert len(circles[0]) == _pips(line)
    polygons = {style["fill_style"]: args[0] for args, style in c.named("fill_polygons")}
    assert len(polygons["#6b7c8d"]) == len(hand) and draw.FIT not in polygons


def test_an_empty_board_paints_no_tiles() -> None:
    c, _lay = _paint([], [])
    assert not c.named("fill_styled_polygons") and not c.named("fill_circles")


def test_big_sets_show_numbers_instead_of_pips() -> None:
    """Doble 15 and double-nine halves are written as numbers, one text per half."""
    from engine.tiles import Tile

    lay = layout({"line": [Tile(12, 9), Tile(9, 15)], "ends": (12, 15), "hand": []}, 800, 470)
    batch = draw.TileBatch(numbers=True)
    for p in lay.line:
        batch.add(p)
    c = Recorder()
    batch.paint(c)
    assert [args[0] for args, _ in c.named("fill_text")] == ["12", "9", "9", "15"]
    assert not c.named("fill_circles")


def test_style_and_line_dash_send_what_the_canvas_setters_send() -> None:
    """draw.style and draw.line_dash bypass ipycanvas's slow setters: the commands they send
    must be the ones the setters send (else the browser draws with the wrong colours or
    dashes)."""
    from ipycanvas import Canvas

    sent: list[Any] = []
    canvas = Canvas(width=20, height=20)
    manager = canvas._canvas_manager
    original = manager.send_command
    manager.send_command = lambda c, command, buffers=[]: sent.append(command)  # noqa: B006
    try:
        canvas.fill_style = "#123456"
        canvas.line_width = 3
        canvas.font = "bold 11px sans-serif"
        canvas.set_line_dash([6, 4])
        canvas.set_line_dash([])
        theirs = list(sent)
        sent.clear()
        draw.style(canvas, fill_style="#123456", line_width=3, font="bold 11px sans-serif")
        draw.line_dash(canvas, [6, 4])
        draw.line_dash(canvas, [])
    finally:
        manager.send_command = original
    assert sent == theirs and len(theirs) == 5
