"""Prepared deals that several test files build (the engine's rule tests and the tutor's
session tests)."""

from __future__ import annotations

from engine.tiles import DOUBLE_NINE


def cuban_hands(extra: dict[int, list[str]]) -> list[list[str]]:
    """Four Cuban hands of 10 (docs/rules.md §3.4): the tiles ``extra`` names for a seat, then
    non-doubles in set order (0/1, 0/2 …). Name the 9/9 where it is wanted: the seat holding
    it opens the first hand."""
    named = {str(DOUBLE_NINE.parse(t)) for h in extra.values() for t in h}
    free = [str(t) for t in DOUBLE_NINE.tiles if t.a != t.b and str(t) not in named]
    hands = []
    for s in range(4):
        hand = list(extra.get(s, []))
        while len(hand) < 10:
            hand.append(free.pop(0))
        hands.append(hand)
    return hands
