"""Deals chosen for a lesson: a seeded search among random deals for the one richest in the
plays the lesson practises (e.g. the ``x/n`` tiles in the student's hand).

The search is bounded by a number of candidate deals, never by time, so a seed gives the same
deals on any machine; the deals themselves come from the engine's own dealing.
"""

from __future__ import annotations

import random
from collections.abc import Collection, Sequence

from engine.round import Round
from engine.rules import HouseRules, effect_rule, variant

__all__ = ["POWER_ROWS", "deal_head", "richness", "search_deals"]

POWER_ROWS = ("x/n", "+/n", "-/n", "x/x", "+/+", "-/-", "+/-", "x/+", "x/-")
"""The §1.6 rows a lesson may ask its deals to be rich in."""


def deal_head(variant: object, players: object, seed: object) -> str:
    """The start of a played deal's key (:func:`tutor.session.settings.deal_key`, which a
    class's store records): its game, players and seed. The store service finds the deal of
    a game record a page sends by it (:mod:`tutor.classroom.played_games`)."""
    return f"{variant}:{players}:{seed}:"


def richness(rnd: Round, humans: Collection[int], rows: Collection[str]) -> int:
    """How good a deal is for practising ``rows``: 3 points per tile of those rows in a
    human's hand, 1 per basic tile there (a power tile needs a basic tile at the other end to
    score by its rule), and −1 per other power tile dealt to anyone (those make ±30 plays)."""
    score = 0
    for seat in range(rnd.players):
        for tile in rnd.hand(seat):
            row = effect_rule(tile)
            if seat in humans:
                score += 3 if row in rows else 1 if not row else 0
            if row and row not in rows:
                score -= 1
    return score


def search_deals(variant_name: str, players: int, humans: Sequence[int], rules: HouseRules,
                 rows: Collection[str], seed: int, rounds: int,
                 candidates: int = 200) -> list[dict[str, object]]:
    """One deal per round: the richest in ``rows`` (:func:`richness`) of ``candidates``
    random deals drawn from ``random.Random(seed)``; the first best wins a tie."""
    var = variant(variant_name)
    rng = random.Random(seed)
    deals: list[dict[str, object]] = []
    for number in range(1, rounds + 1):
        best: Round | None = None
        best_score = 0
        for _ in range(candidates):
            rnd = Round.deal(var, rules, players, random.Random(rng.getrandbits(64)),
                             number=number, record=False)
            score = richness(rnd, humans, rows)
            if best is None or score > best_score:
                best, best_score = rnd, score
        assert best is not None
        deals.append(best.dealt().to_dict())  # the engine's Deal, in its saved form
    return deals
