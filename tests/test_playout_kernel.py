"""The fast random-play kernel (Round.playout) plays by exactly the rules of Round.apply."""

import random

import pytest

from engine import BLOCK_VARIANT, DRAW, LEONARD_VARIANT, PASS, VARIANTS, HouseRules, Play, Round

CASES = [(LEONARD_VARIANT, p) for p in (2, 3, 4, 5)] + [(BLOCK_VARIANT, p) for p in (2, 3, 4)]


def _replay_trace(rnd: Round, trace: list[tuple[int, int]]) -> None:
    """Drive ``rnd`` through apply(): the traced placements in order, draws and passes when
    the player cannot place."""
    tiles = rnd.tileset.tiles
    suits = rnd.tileset.suits
    steps = iter(trace)
    while not rnd.over:
        legal = rnd.legal_actions()
        if legal == [DRAW] or legal == [PASS]:
            rnd.apply(legal[0])
            continue
        tid, end = next(steps)
        tile = tiles[tid]
        if end < 0:
            rnd.apply(Play(tile, None))
        else:
            first = suits[rnd.line.open[end]]
            rnd.apply(Play(tile.oriented(first), "L" if end == 0 else "R"))
    assert next(steps, None) is None


BOOKKEEPING = ("turn", "opened", "opener", "placements", "last_placer", "mover", "passes",
               "pass_count", "pile_pos", "drew_this_turn", "over")
"""What a round keeps besides its tiles and scores: the next round's opener and the ending's
details are read from it, and the kernel works most of it out when it writes back instead of
at every step."""


def _same_state(fast: Round, slow: Round) -> None:
    """The kernel's round (``fast``) ended as apply()'s (``slow``) did, field by field."""
    assert fast.result == slow.result
    assert fast.hands == slow.hands
    assert list(fast.line) == list(slow.line)
    assert fast.voids == slow.voids
    assert (fast.gains, fast.losses) == (slow.gains, slow.losses)
    assert {k: getattr(fast, k) for k in BOOKKEEPING} == {k: getattr(slow, k)
                                                         for k in BOOKKEEPING}
    assert (fast.line.open, fast.line.tips) == (slow.line.open, slow.line.tips)


@pytest.mark.parametrize("variant,players", CASES, ids=lambda c: str(getattr(c, "name", c)))
def test_playout_matches_apply(variant, players):
    """Same deal, same placements: the kernel and apply() end in the same state and score."""
    for seed in range(150):
        rng = random.Random(seed)
        fast = Round.deal(variant, HouseRules(), players, rng, record=False)
        slow = fast.copy(record=True)
        trace: list[tuple[int, int]] = []
        fast.playout(random.Random(seed), trace)
        _replay_trace(slow, trace)
        _same_state(fast, slow)


def test_playout_with_record_emits_events():
    rng = random.Random(3)
    rnd = Round.deal(LEONARD_VARIANT, HouseRules(), 2, rng)
    rnd.playout(rng)
    assert rnd.over and rnd.log[-1] == rnd.result
    assert sum(1 for t in rnd.turns if t["play"]) == len(rnd.line)


# --- every variant (docs/rules.md §3): the same check with end names from the line's shape ------

VARIANT_CASES = [(v, p) for name, v in sorted(VARIANTS.items())
                 if name not in ("leonard", "block")
                 for p in sorted({v.min_players, min(v.max_players, 5)})]


def _replay_named_trace(rnd: Round, trace: list[tuple[int, int]]) -> None:
    """Drive ``rnd`` through apply() with the traced (tile id, end index) placements; draws
    and passes where the player has no placement."""
    tiles = rnd.tileset.tiles
    steps = iter(trace)
    while not rnd.over:
        legal = rnd.legal_actions()
        plays = [m for m in legal if isinstance(m, Play)]
        if not plays:
            rnd.apply(legal[0])
            continue
        tid, end = next(steps)
        name = None if end < 0 else rnd.end_names[end]
        move = next(m for m in plays if m.tile == tiles[tid] and m.end == name)
        rnd.apply(move)
    assert next(steps, None) is None


@pytest.mark.parametrize("variant,players", VARIANT_CASES,
                         ids=lambda c: str(getattr(c, "name", c)))
def test_every_variant_playout_matches_apply(variant, players):
    for seed in range(100):
        rng = random.Random(seed)
        fast = Round.deal(variant, HouseRules(), players, rng, record=False)
        slow = fast.copy(record=True)
        trace: list[tuple[int, int]] = []
        fast.playout(random.Random(seed), trace)
        _replay_named_trace(slow, trace)
        _same_state(fast, slow)


@pytest.mark.parametrize("symbol_value", [0, 5])
def test_power_effect_tables_match_the_rules_table(symbol_value):
    """The playout kernel and apply() both read a power play's points from Tables; every pair
    (power tile, tile at the other end) gives what docs/rules.md §1.6's table (power_effect)
    says."""
    from engine.round import tables
    from engine.rules import power_effect

    rules = HouseRules(symbol_value=symbol_value)
    rnd = Round.deal(LEONARD_VARIANT, rules, 2, random.Random(1))
    tab = tables(rnd.tileset, symbol_value, True)
    tiles = rnd.tileset.tiles
    checked = 0
    for i, tile in enumerate(tiles):
        for j, other in enumerate(tiles):
            expected = power_effect(tile, other, symbol_value) if tile.is_power else (0, 0)
            k = i * tab.n + j
            assert (tab.effect_gain[k], tab.effect_loss[k]) == expected, (tile, other)
            if tile.is_power:
                assert rnd.effect(i, j)[1:3] == expected
                checked += 1
    assert checked == 24 * 45
