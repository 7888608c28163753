"""The block game with the capicúa bonus (house rule H-1, engine/variants/block_capicua.py):
the block game's deal and play (docs/rules.md §1.4, §1.5), Leonard's capicúa bonus of 20 (§1.8),
a match of rounds (§1.9, D-10).

Rounds come from seeds; what they score is worked out here from the tiles, independently of
the engine's scoring: the hands left, and whether the last tile fitted both open ends."""

from __future__ import annotations

import random

import pytest

from engine import (
    BLOCK_VARIANT,
    PASS,
    VARIANTS,
    Bonus,
    HouseRules,
    Match,
    Passed,
    Placed,
    Round,
    RulesError,
    Tile,
)
from engine.bots import make_bot, play_match
from engine.game_file import replay
from engine.sheet import ScoreSheet
from engine.variants.block_capicua import BLOCK_CAPICUA

GAME = VARIANTS["block_capicua"]


def pips(tiles: list[Tile]) -> int:
    return sum(int(t.a) + int(t.b) for t in tiles)


def played(seed: int, players: int = 2) -> tuple[Round, bool]:
    """A seeded round played out at random through ``apply``, and whether its last tile could
    have gone at either open end (worked out here from the ends before it was placed)."""
    rng = random.Random(seed)
    rnd = Round.deal(GAME, HouseRules(), players, rng)
    both = False
    while not rnd.over:
        moves = rnd.legal_actions()
        move = moves[int(rng.random() * len(moves))]
        ends = rnd.ends
        if rnd.hand_sizes[rnd.turn] == 1 and ends is not None and hasattr(move, "tile"):
            tile = move.tile
            both = all(e in (tile.a, tile.b) for e in ends)
        rnd.apply(move)
    return rnd, both


def test_the_registry_found_the_module_by_itself():
    assert GAME is BLOCK_CAPICUA and GAME.round_type is None  # the base round plays it
    assert (GAME.tileset, GAME.hand_sizes, GAME.pile) == \
        (BLOCK_VARIANT.tileset, BLOCK_VARIANT.hand_sizes, BLOCK_VARIANT.pile)
    assert GAME.capicua_bonus == 20 and BLOCK_VARIANT.capicua_bonus == 0 and not GAME.power


@pytest.mark.parametrize("players", [2, 3, 4])
def test_deal_is_the_block_games(players):
    """§1.4: 7 tiles each from the double-six set, no pile, the rest aside unseen; the highest
    double (else the heaviest tile, D-2) opens."""
    rnd = Round.deal(GAME, HouseRules(), players, random.Random(players))
    assert rnd.hand_sizes == [7] * players and rnd.pile_count == 0 and rnd.table is None
    dealt = [t for s in range(players) for t in rnd.hand(s)]
    assert len(set(dealt)) == 7 * players and set(dealt) <= set(GAME.tileset.tiles)
    opener = max(dealt, key=lambda t: (t.a == t.b, pips([t]) if t.a == t.b else -1))
    if opener.a == opener.b:
        assert opener in rnd.hand(rnd.starter)
    with pytest.raises(RulesError):
        Round.deal(GAME, HouseRules(), 5, random.Random(0))


def test_capicua_gives_20_more_and_only_then():
    """§1.8: a domino whose last tile fitted both open ends gains the other hands and 20 more
    (``K``); one that did not gains the other hands alone. The same deal in the block game
    gives no bonus."""
    seen = {True: 0, False: 0}
    for seed in range(120):
        rnd, both = played(seed)
        end = rnd.ended
        if end.reason != "domino":
            continue
        seen[both] += 1
        winner = end.winner
        others = sum(pips(rnd.hand(s)) for s in range(rnd.players) if s != winner)
        bonuses = [(b.kind, b.points, b.detail) for b in rnd.log if isinstance(b, Bonus)]
        if both:
            assert bonuses == [("capicua", 20, "K"), ("domino", others, "")]
            assert end.capicua == "K" and end.gains[winner] == others + 20
        else:
            assert bonuses == [("domino", others, "")]
            assert end.capicua == "" and end.gains[winner] == others
        plain = Round.from_deal(BLOCK_VARIANT, HouseRules(), rnd.dealt())
        for ev in rnd.log:
            if isinstance(ev, Placed):
                plain.apply(plain.parse_move(f"{ev.tile} {ev.end or ''}".strip()))
            elif isinstance(ev, Passed):
                plain.apply(PASS)
        assert plain.over and plain.ended.gains[winner] == others  # no capicúa there
    assert seen[True] >= 2 and seen[False] >= 10, seen


def test_a_tranque_goes_to_the_lowest_hand_without_a_bonus():
    """§1.8, D-9: nobody can place a tile: the single lowest hand gains the others."""
    for seed in range(120):
        rnd, _ = played(seed, 4)
        end = rnd.ended
        if end.reason != "tranque":
            continue
        totals = [pips(rnd.hand(s)) for s in range(4)]
        assert list(end.hand_totals) == totals
        low = min(totals)
        if totals.count(low) == 1:
            assert end.winner == totals.index(low)
            assert end.gains[end.winner] == sum(totals) - low
        assert not any(isinstance(b, Bonus) and b.kind == "capicua" for b in rnd.log)
        return
    pytest.fail("no tranque in 120 seeded rounds")


def test_a_whole_seeded_match():
    """§1.9, D-10: three rounds; the match score is the sum of the rounds' gains; the record
    replays move for move; the score sheet names the game and marks a capicúa ``K``."""
    bots = [make_bot("greedy", 1), make_bot("random", 2), make_bot("greedy", 3)]
    match = play_match(Match("block_capicua", 3, HouseRules(rounds=3), seed=11), bots)
    assert match.over and len(match.rounds) == 3
    sums = [sum(r.ended.scores[s] for r in match.rounds) for s in range(3)]
    assert list(match.scores) == sums
    again = replay(match.to_record())
    assert [r.log for r in again.rounds] == [r.log for r in match.rounds]
    for rnd in match.rounds:
        sheet = ScoreSheet.from_round(rnd)
        assert sheet.title().startswith("block game with capicúa (double six) · Round")
        assert sheet.losses == BLOCK_VARIANT.sheet_losses  # the block game's columns
        marks = [m for row in sheet.rows for c in row.cells for m in c.marks]
        assert ("K" in marks) == (rnd.ended.capicua == "K")
    same = play_match(Match("block_capicua", 3, HouseRules(rounds=3), seed=11),
                      [make_bot("greedy", 1), make_bot("random", 2), make_bot("greedy", 3)])
    assert same.scores == match.scores  # seeded: the same match again
