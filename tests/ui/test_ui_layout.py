"""The board's pure geometry: layout() and hit_test() (no widgets drawn)."""

from __future__ import annotations

import itertools

import pytest

from engine.tiles import LEONARD, Tile
from tutor.ui.play.layout import hit_test, layout


def _overlap(a, b) -> bool:
    return not (a.x + a.w <= b.x or b.x + b.w <= a.x or a.y + a.h <= b.y or b.y + b.h <= a.y)


def _inside(r, w, h) -> bool:
    return r.x >= 0 and r.y >= 0 and r.x + r.w <= w and r.y + r.h <= h


@pytest.mark.parametrize("n", [1, 2, 9, 15, 16, 30, 44, 45])
@pytest.mark.parametrize("size", [(800, 470), (600, 400)])
def test_line_of_any_length_stays_inside_without_overlaps(n: int, size: tuple[int, int]) -> None:
    w, h = size
    line = list(LEONARD.tiles[:n])
    view = {"line": line, "ends": (line[0].a, line[-1].b), "hand": LEONARD.tiles[:9]}
    lay = layout(view, w, h)
    assert len(lay.line) == n
    rects = [*lay.line, *lay.ends, *lay.hand]
    for r in rects:
        assert _inside(r, w, h), r
    for a, b in itertools.combinations(rects, 2):
        assert not _overlap(a, b), (a, b)
    for p in lay.line:
        assert p.y + p.h <= lay.band_y  # the line keeps out of the hand band
    assert lay.half >= 12


def test_snake_keeps_matching_halves_next_to_each_other() -> None:
    """A right-to-left row shows each tile flipped, so its left half still touches the tile
    before it in the line."""
    line = [Tile(1, 2), Tile(2, 3)] * 10
    lay = layout({"line": line, "ends": (1, 3)}, 800, 470)
    assert lay.rows >= 2
    for i, p in enumerate(lay.line):
        assert p.tile == line[i]
    rows = sorted({p.y for p in lay.line})
    reversed_row = [p for p in lay.line if p.y == rows[1]]
    assert reversed_row and all(p.tile.a == line[p.index].b for p in reversed_row)
    # Along a reversed row the line runs right to left.
    xs = [p.x for p in sorted(reversed_row, key=lambda p: p.index)]
    assert xs == sorted(xs, reverse=True)


def test_table_tile_is_marked() -> None:
    line = [Tile(3, 4), Tile(4, "x"), Tile("x", 6)]
    lay = layout({"line": line, "ends": (3, 6), "table": "4/x"}, 800, 470)
    assert [p.table for p in lay.line] == [False, True, False]


def test_hit_test_finds_hand_tiles_and_ends() -> None:
    line = [Tile(6, 6)]
    hand = [Tile(6, 1), Tile(2, 3), Tile("x", "+")]
    lay = layout({"line": line, "ends": (6, 6), "hand": hand}, 800, 470)
    for p in lay.hand:
        hit = hit_test(*p.center, lay)
        assert (hit.kind, hit.index) == ("hand", p.index)
    for s in lay.ends:
        hit = hit_test(s.x + s.w / 2, s.y + s.h / 2, lay)
        assert (hit.kind, hit.end) == ("end", s.end)
    assert hit_test(2, 2, lay).kind == "none"
    assert hit_test(*lay.line[0].center, lay).kind == "line"
    left = lay.ends[0]
    assert hit_test(left.x + 1, left.y + 1, lay, ends=("R",)).kind == "none"


def test_empty_view_and_text_tiles() -> None:
    lay = layout({}, 800, 470)
    assert lay.line == () and lay.ends == () and lay.hand == () and lay.band_y == 470
    lay = layout({"line": ["6/6", "6/x"], "ends": ["6", "x"], "hand": ["x/x"]}, 800, 470)
    assert lay.line[1].tile == Tile(6, "x") and lay.hand[0].tile == Tile("x", "x")


def test_a_big_hand_wraps_and_stays_inside() -> None:
    hand = list(LEONARD.tiles[:36])
    lay = layout({"line": [Tile(1, 1)], "ends": (1, 1), "hand": hand}, 800, 470)
    assert len(lay.hand) == 36
    for a, b in itertools.combinations(lay.hand, 2):
        assert not _overlap(a, b)
    assert all(_inside(p, 800, 470) and p.y >= lay.band_y for p in lay.hand)
