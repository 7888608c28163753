"""Property tests over thousands of seeded random games (docs/rules.md §1, the block variant).

Each example is a seed (and a player count and house rules); the game it deals is played with
random moves, some of them deliberately illegal, and checked after every step.
"""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import engine
from engine import (
    BLOCK_VARIANT,
    DRAW,
    LEONARD_VARIANT,
    PASS,
    Bonus,
    HouseRules,
    IllegalMoveError,
    Match,
    Placed,
    Play,
    PowerEffect,
    RecordError,
    Round,
    RoundEnded,
    Variant,
)

MAX_STEPS = 600  # 45 placements + 27 draws + passes; a round that runs longer never ends

seeds = st.integers(min_value=0, max_value=2**32 - 1)
house_rules = st.builds(
    HouseRules,
    symbol_value=st.sampled_from([0, 0, 1, 3]),
    opener=st.sampled_from(["rule", "rotate"]),
    draw=st.sampled_from(["until-playable", "one"]),
    both_pass_bonuses=st.booleans(),
    capicua_kind=st.sampled_from(["last-tile", "end-tiles"]),
    tranque_tie=st.sampled_from(["nobody", "split"]),
)
leonard_players = st.integers(min_value=2, max_value=5)
block_players = st.integers(min_value=2, max_value=4)


def tile_places(rnd: Round, unused: frozenset) -> list:
    """Every tile of the set, once per place it is in: hands, line, pile, unused."""
    out = [t for s in range(rnd.players) for t in rnd.hand(s)]
    out += rnd.line_tiles()
    out += rnd.pile_tiles
    out += list(unused)
    return out


def check_conserved(rnd: Round, unused: frozenset) -> None:
    places = tile_places(rnd, unused)
    assert len(places) == len(rnd.tileset), "a tile is missing or in two places"
    assert set(places) == set(rnd.tileset.tiles)
    assert sum(rnd.hand_sizes) + len(rnd.line_tiles()) + rnd.pile_count + len(unused) == \
        len(rnd.tileset)


def check_scores(rnd: Round) -> None:
    """Gains and losses are the sum of the round's events, and RoundEnded says the same."""
    gains = [0] * rnd.players
    losses = [0] * rnd.players
    for e in rnd.log:
        if isinstance(e, PowerEffect):
            assert e.target == rnd.right_of(e.seat)
            gains[e.seat] += e.gain
            losses[e.target] += e.loss
        elif isinstance(e, Bonus):
            gains[e.seat] += e.points
    assert gains == list(rnd.gains) and losses == list(rnd.losses)
    if rnd.over:
        end = rnd.result
        assert isinstance(end, RoundEnded) and rnd.log[-1] == end
        assert list(end.gains) == gains and list(end.losses) == losses
        assert [e for e in rnd.log if isinstance(e, RoundEnded)] == [end]


def candidates(rnd: Round, rng: random.Random) -> list:
    """Legal and illegal actions for the player to move."""
    seat = rnd.turn
    tiles = rnd.hand(seat) + [rng.choice(rnd.tileset.tiles)]
    out: list = [DRAW, PASS]
    for t in tiles:
        t = t if rng.random() < 0.5 else t.flipped()
        out += [Play(t, None), Play(t, "L"), Play(t, "R")]
    return out


def play_checked(rnd: Round, rng: random.Random, illegal_rate: float = 0.3) -> int:
    """Play a round to its end with random moves, checking every step. Returns the steps."""
    unused = frozenset(rnd.tileset.tiles) - set(tile_places(rnd, frozenset()))
    # Leonard deals every tile (hands, pile, table); the block game sets the rest aside
    assert len(unused) == (0 if rnd.variant.pile else len(rnd.tileset) - 7 * rnd.players)
    check_conserved(rnd, unused)
    oracle = Oracle(rnd)
    steps = 0
    while not rnd.over:
        legal = rnd.legal_actions()
        assert legal, "a round that is not over always has a move"
        if rng.random() < illegal_rate:
            move = rng.choice(candidates(rnd, rng))
            if move not in legal:
                before = (list(map(str, rnd.line_tiles())), rnd.hand_sizes, rnd.pile_count,
                          rnd.turn, list(rnd.gains), list(rnd.losses), len(rnd.log))
                try:
                    rnd.apply(move)
                except IllegalMoveError:
                    pass
                else:
                    raise AssertionError(f"{move} was applied but not in legal_actions()")
                assert before == (list(map(str, rnd.line_tiles())), rnd.hand_sizes,
                                  rnd.pile_count, rnd.turn, list(rnd.gains), list(rnd.losses),
                                  len(rnd.log))
                continue
        else:
            move = rng.choice(legal)
        assert move in legal
        seat = rnd.turn
        before = Before(rnd)
        events = rnd.apply(move, seat)
        assert events and rnd.log[-len(events):] == events
        oracle.check(rnd, before, move, seat, events)
        steps += 1
        assert steps < MAX_STEPS, "the round does not end"
        check_conserved(rnd, unused)
        check_scores(rnd)
    assert rnd.legal_actions() == []
    placed = [e for e in rnd.log if isinstance(e, Placed)]
    assert len(placed) == len(rnd.line_tiles()) - (rnd.table is not None)
    return steps


class Before:
    """What a move is judged against: the ends and end tiles before it."""

    def __init__(self, rnd: Round) -> None:
        self.ends = rnd.ends
        self.end_tiles = (rnd.end_tile("L"), rnd.end_tile("R")) if rnd.ends else (None, None)


def hand_total(rnd: Round, seat: int) -> int:
    v = rnd.rules.symbol_value
    return sum(h if isinstance(h, int) else v for t in rnd.hand(seat) for h in (t.a, t.b))


class Oracle:
    """docs/rules.md §1.6–1.8 written out again, independently of the engine, and checked
    against the events of every move."""

    def __init__(self, rnd: Round) -> None:
        self.placements = 0
        self.passes = 0
        self.opener = -1
        self.last_placer = -1
        self.salida = False

    def check(self, rnd: Round, before: Before, move, seat: int, events: list) -> None:
        bonus = [(b.seat, b.kind, b.points) for b in events if isinstance(b, Bonus)]
        expected: list = []
        v = rnd.variant
        if isinstance(move, Play):
            placed = [e for e in events if isinstance(e, Placed)]
            assert len(placed) == 1 and placed[0].seat == seat
            tile = placed[0].tile
            assert placed[0].opening == (self.placements == 0)
            if self.placements == 0:
                self.opener = seat
            self.placements += 1
            self.passes = 0
            self.last_placer = seat
            if before.ends is None:
                other = None
            else:
                # the matched half is written first, the other half is the new open end
                k = 0 if move.end == "L" else 1
                assert tile.a == before.ends[k]
                assert rnd.ends[k] == tile.b and rnd.ends[1 - k] == before.ends[1 - k]
                other = rnd.end_tile("R" if k == 0 else "L")
            effects = [e for e in events if isinstance(e, PowerEffect)]
            if v.power and tile.is_power:
                assert len(effects) == 1
                eff = effects[0]
                assert (eff.seat, eff.target) == (seat, rnd.right_of(seat))
                assert eff.t_tile == other
                assert (eff.gain, eff.loss) == engine.power_effect(tile, other,
                                                                    rnd.rules.symbol_value)
                assert eff.neutralized == (other is None)
            else:
                assert effects == []
            if rnd.over and rnd.result.reason == "domino":
                assert rnd.hand(seat) == [] and rnd.result.winner == seat
                fits_both = before.ends is not None and \
                    before.ends[0] in (tile.a, tile.b) and before.ends[1] in (tile.a, tile.b)
                kind = ""
                if fits_both and v.capicua_bonus:
                    if rnd.rules.capicua_kind == "last-tile":
                        kind = "KP" if tile.is_power else "K"
                    else:
                        kind = "KP" if any(t.is_power for t in before.end_tiles) else "K"
                    expected.append((seat, "capicua", v.capicua_bonus))
                assert rnd.result.capicua == kind
                others = sum(hand_total(rnd, s) for s in range(rnd.players))
                expected.append((seat, "domino", others))
        elif move == engine.PASS:
            if v.pass_bonus and self.placements == 1 and self.passes == 0 \
                    and seat == rnd.right_of(self.opener):
                self.salida = True
                expected.append((self.opener, "paso-a-la-salida", v.pass_bonus))
            self.passes += 1
            if not rnd.over and v.pass_bonus and self.passes == rnd.players - 1 \
                    and self.last_placer >= 0:
                assert rnd.turn == self.last_placer
                can_play = any(isinstance(m, Play) for m in rnd.legal_actions())
                only_salida = self.salida and self.placements == 1 \
                    and not rnd.rules.both_pass_bonuses
                if can_play and not only_salida:
                    expected.append((self.last_placer, "paso-corrido", v.pass_bonus))
        if rnd.over and rnd.result.reason == "tranque":
            assert rnd.pile_count == 0
            ends = set(rnd.ends)
            assert not any({t.a, t.b} & ends for s in range(rnd.players) for t in rnd.hand(s))
            totals = [hand_total(rnd, s) for s in range(rnd.players)]
            assert list(rnd.result.hand_totals) == totals
            low = min(totals)
            lowest = [s for s, t in enumerate(totals) if t == low]
            others = sum(t for t in totals if t != low)
            if len(lowest) == 1:
                assert rnd.result.winner == lowest[0]
                expected.append((lowest[0], "tranque", others))
            else:
                assert rnd.result.winner is None
                if rnd.rules.tranque_tie == "split":
                    expected += [(s, "tranque", others // len(lowest)) for s in lowest]
        assert bonus == expected


def run_games(variant: Variant, players: int, rules: HouseRules, seed: int) -> None:
    rng = random.Random(seed)
    rnd = Round.deal(variant, rules, players, rng)
    play_checked(rnd, rng)
    # a second deal, opened by a given seat with any tile (D-3 "rotate")
    rnd = Round.deal(variant, rules, players, rng, number=2, starter=seed % players)
    play_checked(rnd, rng)


@pytest.mark.slow
@settings(max_examples=1500, deadline=None)
@given(seed=seeds, players=leonard_players, rules=house_rules)
def test_leonard_random_rounds_keep_the_invariants(seed, players, rules):
    run_games(LEONARD_VARIANT, players, rules, seed)


@pytest.mark.slow
@settings(max_examples=1000, deadline=None)
@given(seed=seeds, players=block_players, rules=house_rules)
def test_block_random_rounds_keep_the_invariants(seed, players, rules):
    run_games(BLOCK_VARIANT, players, rules, seed)


def play_match(match: Match, rng: random.Random) -> None:
    while True:
        rnd = match.current
        while not rnd.over:
            match.apply(rng.choice(rnd.legal_actions()))
        if match.over:
            return
        match.start_round()


@pytest.mark.slow
@settings(max_examples=600, deadline=None)
@given(seed=seeds, players=leonard_players, rules=house_rules, block=st.booleans())
def test_match_record_replays_to_the_same_scores(seed, players, rules, block):
    variant = "block" if block else "leonard"
    players = min(players, 4) if block else players
    match = Match(variant, players, rules, seed=seed)
    play_match(match, random.Random(seed ^ 0x5EED))
    assert len(match.rounds) == rules.rounds
    for rnd in match.rounds:
        check_scores(rnd)
    record = json.loads(json.dumps(match.to_record()))
    again = engine.replay(record)
    assert again.scores == match.scores == record["scores"]
    assert [r.result for r in again.rounds] == [r.result for r in match.rounds]
    assert json.loads(json.dumps(again.to_record())) == record


@pytest.mark.slow
@settings(max_examples=1500, deadline=None)
@given(seed=seeds, players=leonard_players, rules=house_rules, block=st.booleans())
def test_playout_ends_with_conserved_tiles_and_consistent_scores(seed, players, rules, block):
    variant = BLOCK_VARIANT if block else LEONARD_VARIANT
    players = min(players, 4) if block else players
    match = Match(variant, players, rules, seed=seed)
    rnd = match.current
    unused = frozenset(rnd.tileset.tiles) - set(tile_places(rnd, frozenset()))
    fast = rnd.copy()  # no event log: the bots' rollout path
    rnd.playout(random.Random(seed))
    assert rnd.over
    check_conserved(rnd, unused)
    check_scores(rnd)
    fast.playout(random.Random(seed))
    assert fast.over and fast.log == []
    check_conserved(fast, unused)
    assert list(fast.result.gains) == list(fast.gains)
    assert list(fast.result.losses) == list(fast.losses)
    assert fast.result == rnd.result  # same moves with the same random numbers
    # every move the fast path made was legal: its record replays through apply()
    record = json.loads(json.dumps(match.to_record()))
    again = engine.replay(record)
    assert again.scores == match.scores
    assert again.rounds[0].result == rnd.result


@settings(max_examples=200, deadline=None)
@given(seed=seeds, players=leonard_players)
def test_tampered_record_names_round_and_turn(seed, players):
    match = Match("leonard", players, seed=seed)
    play_match(match, random.Random(seed))
    record = json.loads(json.dumps(match.to_record()))
    rd = record["rounds"][0]
    rng = random.Random(seed)
    plays = [k for k, turn in enumerate(rd["turns"]) if turn["play"] is not None]
    k = rng.choice(plays)
    seat = rd["turns"][k]["player"]
    other = (seat + 1) % players
    # a tile of another seat's deal is never in this seat's hand (tiles only leave the pile)
    rd["turns"][k]["play"]["tile"] = rng.choice(rd["hands"][other])
    try:
        engine.replay(record)
    except RecordError as e:
        msg = str(e)
    else:
        raise AssertionError("a tampered record replayed")
    assert msg.startswith(f"round 1, turn {k + 1} (seat {seat})"), msg
    assert "not in seat" in msg
