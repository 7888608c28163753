"""Tiles and moves in words, for a screen reader (tutor.session.words): es and en, every tile
set."""

from __future__ import annotations

import doctest

import pytest

import tutor.session.words
from engine.round import DRAW, PASS, Play
from engine.tiles import DOUBLE_FIFTEEN, DOUBLE_SIX, LEONARD, Tile, parse_tile
from tutor.session.words import half_words, move_words, spoken, tile_words


@pytest.mark.parametrize(("tile", "es", "en"), [
    ("4/x", "cuatro por", "four-times"),
    ("x/4", "por cuatro", "times-four"),
    ("2/+", "dos más", "two-plus"),
    ("-/6", "menos seis", "minus-six"),
    ("6/3", "seis tres", "six-three"),
    ("5/5", "doble cinco", "double five"),
    ("x/x", "doble por", "double times"),
])
def test_leonard_tiles_in_words(tile: str, es: str, en: str) -> None:
    t = parse_tile(tile)
    assert tile_words(t, "es") == es
    assert tile_words(t, "en") == en


def test_every_half_of_every_set_has_words_in_both_languages() -> None:
    for tiles in (LEONARD, DOUBLE_SIX, DOUBLE_FIFTEEN):
        for half in tiles.suits:
            for lang in ("es", "en"):
                word = half_words(half, lang)
                assert word.isalpha(), (half, lang, word)  # a word, never "4" or "x"
    assert half_words(0, "es") == "blanca" and half_words(0, "en") == "blank"
    assert tile_words(Tile(0, 0), "es") == "doble blanca"
    assert half_words(15, "es") == "quince"


def test_moves_in_words() -> None:
    assert move_words(Play(parse_tile("4/x"), "L"), "es") == "cuatro por en el extremo izquierdo"
    assert move_words(Play(parse_tile("6/3"), "R"), "en") == "six-three at the right end"
    assert move_words(Play(parse_tile("6/6")), "en") == "double six"
    assert move_words(DRAW, "es") == "Robar" and move_words(PASS, "en") == "Pass"


def test_spoken_writes_the_tiles_of_a_text_as_words() -> None:
    assert spoken("Player B places 6/3 at the left end.", "en") == \
        "Player B places six-three at the left end."
    assert spoken("Jugaste 5/x. Línea: [4/5] [5/x]", "es") == \
        "Jugaste cinco por. Línea: [cuatro cinco] [cinco por]"
    # Not tiles: arithmetic, a date, a tile of another set, a fraction of a word.
    for text in ("5 × (2 + 6) = 40", "1/12/2026", "0/7 in Leonard", "and/or", "x/y"):
        assert spoken(text, "en") == text
    assert spoken("0/3", "es", DOUBLE_SIX) == "blanca tres"


def test_doctests() -> None:
    assert doctest.testmod(tutor.session.words).failed == 0


def test_a_tile_and_its_turned_self_are_told_as_written() -> None:
    """Words and log lines are remembered between redraws; a tile equals its turned self,
    yet each is told in the order its halves are written."""
    from engine.events import Placed
    from tutor.session.narration import describe_event

    x4, four_x = Tile("x", 4), Tile(4, "x")
    assert x4 == four_x
    assert [tile_words(x4, "en"), tile_words(four_x, "en")] == ["times-four", "four-times"]
    told = [describe_event(Placed(seat=1, tile=t, end="L", opening=False), "en")
            for t in (x4, four_x, x4)]
    assert told == ["Player B places x/4 at the left end.",
                    "Player B places 4/x at the left end.",
                    "Player B places x/4 at the left end."]
