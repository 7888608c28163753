"""Property tests over every variant (docs/rules.md §1, §3): random seeded games, some moves
deliberately illegal, checked after every step.

* legality: every move applied was listed by ``legal_actions()`` (and placed a tile whose half
  matches the open end, or a double on a 13 in Doble 15); every other candidate raises
  ``IllegalMoveError`` and changes nothing;
* conservation: each tile is in exactly one place (hands, line, pile, or set aside unseen);
* termination: a round ends within a bound of steps, a match within a bound of rounds;
* score = events: each seat's gains are the sum of its Bonus (and power) events, the losses
  of the power events, and RoundEnded, the match and its pairs say the same;
* records replay: a match's JSON record replays to the same results, and to the same record.
"""

from __future__ import annotations

import json
import random
from dataclasses import replace

import pytest
from dealing import snapshot
from hypothesis import given, settings
from hypothesis import strategies as st

import engine
from engine import (
    ANNUL,
    DRAW,
    PASS,
    VARIANTS,
    Bonus,
    Drew,
    HouseRules,
    IllegalMoveError,
    Match,
    Placed,
    Play,
    PowerEffect,
    Round,
    RoundEnded,
    Variant,
)

GAMES = ["leonard", "block", "traditional", "venezuela", "ponce", "cuban", "doble15"]
MAX_STEPS = 3000  # Doble 15: 136 tiles, one draw a turn; a round that runs longer never ends

seeds = st.integers(min_value=0, max_value=2**32 - 1)
games = st.sampled_from(GAMES)
house_rules = st.builds(
    HouseRules,
    draw=st.sampled_from(["until-playable", "one"]),
    tranque_tie=st.sampled_from(["nobody", "split"]),
    options=st.fixed_dictionaries({}, optional={
        name: st.sampled_from(values)
        for v in VARIANTS.values() for name, values in v.options.items()}),
)


def players_for(variant: Variant, seed: int) -> int:
    top = min(variant.max_players, 6)
    return variant.min_players + seed % (top - variant.min_players + 1)


def places(rnd: Round) -> list:
    out = [t for s in range(rnd.players) for t in rnd.hand(s)]
    return out + rnd.line_tiles() + rnd.pile_tiles


def check_conserved(rnd: Round, aside: frozenset) -> None:
    where = places(rnd) + list(aside)
    assert len(where) == len(rnd.tileset), "a tile is missing or in two places"
    assert set(where) == set(rnd.tileset.tiles)


def check_scores(rnd: Round) -> None:
    gains = [0] * rnd.players
    losses = [0] * rnd.players
    for e in rnd.log:
        if isinstance(e, PowerEffect):
            gains[e.seat] += e.gain
            losses[e.target] += e.loss
        elif isinstance(e, Bonus):
            gains[e.seat] += e.points
    assert gains == rnd.gains and losses == rnd.losses
    if rnd.over:
        end = rnd.result
        assert isinstance(end, RoundEnded) and rnd.log[-1] == end
        assert list(end.gains) == gains and list(end.losses) == losses
        assert [e for e in rnd.log if isinstance(e, RoundEnded)] == [end]
        assert list(end.hand_totals) == [
            sum(int(h) if isinstance(h, int) else rnd.rules.symbol_value
                for t in rnd.hand(s) for h in (t.a, t.b)) for s in range(rnd.players)]
        if end.teams:
            assert end.team_totals == tuple(sum(end.hand_totals[s] for s in seats)
                                            for seats in end.teams)


def candidates(rnd: Round, rng: random.Random) -> list:
    tiles = rnd.hand(rnd.turn) + [rng.choice(rnd.tileset.tiles)]
    ends = [None, "L", "R", *rnd.end_names]
    out: list = [DRAW, PASS, ANNUL]
    for t in tiles:
        t = t if rng.random() < 0.5 else t.flipped()
        out += [Play(t, e) for e in set(ends)]
    return out


def placed_fits(rnd: Round, before_ends, move: Play, events: list) -> None:
    """The placed tile's written first half is the open suit of the end it went to (a double
    on a 13 in Doble 15 is written as it is); an opening has no end."""
    placed = [e for e in events if isinstance(e, Placed)]
    assert len(placed) == 1
    p = placed[0]
    if before_ends is None:
        assert p.end is None and p.opening
        return
    suit = before_ends[rnd.end_names.index(p.end)]
    if suit in (p.tile.a, p.tile.b):
        assert p.tile.a == suit
    else:
        assert rnd.variant.name == "doble15" and suit == 13 and p.tile.a == p.tile.b


def play_checked(rnd: Round, rng: random.Random, illegal_rate: float = 0.25) -> int:
    aside = frozenset(rnd.tileset.tiles) - set(places(rnd))
    expected_aside = 0 if rnd.variant.pile else \
        len(rnd.tileset) - sum(rnd.hand_sizes) - (rnd.table is not None)
    assert len(aside) == expected_aside
    check_conserved(rnd, aside)
    steps = 0
    while not rnd.over:
        legal = rnd.legal_actions()
        assert legal, "a round that is not over always has a move"
        assert len(set(legal)) == len(legal)
        if rng.random() < illegal_rate:
            move = rng.choice(candidates(rnd, rng))
            allowed = move in legal or move in rnd.extra_moves()
            if not allowed:
                before = snapshot(rnd)
                try:
                    rnd.apply(move)
                except IllegalMoveError:
                    pass
                else:
                    raise AssertionError(f"{move} was applied but is not legal")
                assert snapshot(rnd) == before
                continue
        else:
            move = rng.choice(legal)
        seat = rnd.turn
        before_ends = rnd.ends
        pile = rnd.pile_count
        events = rnd.apply(move, seat)
        assert events and rnd.log[-len(events):] == events
        if isinstance(move, Play):
            placed_fits(rnd, before_ends, move, events)
        drawn = [e for e in events if isinstance(e, Drew)]
        assert pile - rnd.pile_count == len(drawn)
        assert rnd.pile_count >= rnd.keep  # §3.1: the kept tiles are never drawn
        steps += 1
        assert steps < MAX_STEPS, "the round does not end"
        check_conserved(rnd, aside)
        check_scores(rnd)
    assert rnd.legal_actions() == [] and rnd.extra_moves() == []
    return steps


@pytest.mark.slow
@settings(max_examples=1500, deadline=None)
@given(seed=seeds, game=games, rules=house_rules)
def test_every_variant_random_rounds_keep_the_invariants(seed, game, rules):
    variant = VARIANTS[game]
    rng = random.Random(seed)
    rnd = Round.deal(variant, rules, players_for(variant, seed), rng)
    play_checked(rnd, rng)
    # a later round: a given seat opens with any tile
    rnd = Round.deal(variant, rules, rnd.players, rng, number=2, starter=seed % rnd.players)
    play_checked(rnd, rng)


def play_match(match: Match, rng: random.Random, max_rounds: int = 400) -> None:
    while True:
        rnd = match.current
        while not rnd.over:
            if rnd.extra_moves() and rng.random() < 0.5:
                match.apply(rnd.extra_moves()[0])
            else:
                match.apply(rng.choice(rnd.legal_actions()))
        if match.over:
            return
        assert len(match.rounds) < max_rounds, "the match does not end"
        match.start_round()


def short_rules(game: str, rules: HouseRules, seed: int) -> HouseRules:
    """Targets low enough for a quick match (Ponce's own 20 is quick already)."""
    if VARIANTS[game].goal != "points":
        return replace(rules, rounds=1 + seed % 3)
    target = {"ponce": 20}.get(game, 40 + seed % 80)
    return replace(rules, target=target)


@pytest.mark.slow
@settings(max_examples=400, deadline=None)
@given(seed=seeds, game=games, rules=house_rules)
def test_every_variant_match_scores_and_record_replay(seed, game, rules):
    variant = VARIANTS[game]
    rules = short_rules(game, rules, seed)
    match = Match(variant, players_for(variant, seed), rules, seed=seed)
    play_match(match, random.Random(seed ^ 0x5EED))
    for rnd in match.rounds:
        check_scores(rnd)
    totals = [sum(r.gains[s] - r.losses[s] for r in match.rounds) for s in range(match.players)]
    assert match.scores == totals
    assert match.team_scores == [sum(totals[s] for s in team) for team in match.teams]
    end = match.match_end
    assert end is not None
    if match.target:
        assert max(match.team_scores) >= match.target
        earlier = [sum(r.gains[s] - r.losses[s] for r in match.rounds[:-1] for s in team)
                   for team in match.teams]
        assert max(earlier) < match.target  # it ended as soon as a side reached the target
        best = max(match.team_scores)
        assert end.winners == tuple(sorted(s for t, team in enumerate(match.teams)
                                           if match.team_scores[t] == best for s in team))
    else:
        assert len(match.rounds) == rules.rounds
    record = json.loads(json.dumps(match.to_record()))
    again = engine.replay(record)
    assert again.scores == match.scores == record["scores"]
    assert [r.result for r in again.rounds] == [r.result for r in match.rounds]
    assert json.loads(json.dumps(again.to_record())) == record


@pytest.mark.slow
@settings(max_examples=1000, deadline=None)
@given(seed=seeds, game=games, rules=house_rules)
def test_every_variant_playout_ends_conserved_consistent_and_replays(seed, game, rules):
    """The bots' rollout path (``Round.playout``, no event log) plays legal games: the same
    random numbers give the same result with and without the log, and the logged game's
    record replays through ``apply()``."""
    variant = VARIANTS[game]
    rules = short_rules(game, rules, seed)
    match = Match(variant, players_for(variant, seed), rules, seed=seed)
    rnd = match.current
    aside = frozenset(rnd.tileset.tiles) - set(places(rnd))
    fast = rnd.copy()
    rnd.playout(random.Random(seed))
    assert rnd.over
    check_conserved(rnd, aside)
    check_scores(rnd)
    fast.playout(random.Random(seed))
    assert fast.over and fast.log == []
    check_conserved(fast, aside)
    assert fast.result == rnd.result and (fast.gains, fast.losses) == (rnd.gains, rnd.losses)
    record = json.loads(json.dumps(match.to_record()))
    record["scores"] = match.scores
    again = engine.replay(record)
    assert again.rounds[0].result == rnd.result
