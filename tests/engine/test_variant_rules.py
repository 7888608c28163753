"""One test (or a small group) per rule of docs/rules.md §3, the classic variants, named after its
section or D-number (D-17 … D-28 are the house rules this engine settles; see the README).

Deals are prepared by hand through the ``kit`` fixture, or are frozen game records in
``tests/engine/data`` (made by ``make_fixtures.py`` there) for rules that need a whole hand to
show: those are replayed with ``engine.replay`` (which checks every turn) and scored again
here, from the hands left at the end, independently of the engine's scoring code.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

import engine
from engine import (
    ANNUL,
    CUBAN,
    DOBLE15,
    DOUBLE_FIFTEEN,
    DOUBLE_NINE,
    DOUBLE_SIX,
    DRAW,
    PASS,
    PONCE,
    TRADITIONAL,
    VENEZUELA,
    Annulled,
    Bonus,
    DealError,
    Drew,
    HouseRules,
    IllegalMoveError,
    Match,
    Placed,
    Play,
    Round,
    RoundContext,
    RulesError,
    Special,
    Tile,
)
from engine.bots import make_bot, play_match
from engine.variants import round_count
from tests.deals import cuban_hands

DATA = Path(__file__).parent / "data"


def bonuses(events: list) -> list[tuple[int, str, int]]:
    return [(b.seat, b.kind, b.points) for b in events if isinstance(b, Bonus)]


def pips(tiles: list[Tile]) -> int:
    """A hand's points, computed here: the pips of every half."""
    return sum(int(t.a) + int(t.b) for t in tiles)


def fixture(name: str) -> dict:
    return json.loads((DATA / f"{name}.json").read_text(encoding="utf-8"))


def replayed(name: str) -> tuple[dict, Round]:
    """A frozen record and its round, replayed turn by turn."""
    record = fixture(name)
    return record, engine.replay(record).rounds[0]


def hand_points(rnd: Round) -> list[int]:
    return [pips(rnd.hand(s)) for s in range(rnd.players)]


# --- 3 Common: pairs sit opposite ---------------------------------------------------------

@pytest.mark.parametrize("game", ["venezuela", "ponce", "cuban"])
def test_3_partners_sit_opposite(game):
    m = Match(game, 4, seed=1)
    assert m.teams == ((0, 2), (1, 3)) and m.pairs
    assert [m.team_of(s) for s in range(4)] == [0, 1, 0, 1]
    assert m.current.right_of(0) == 1  # play goes to the right, seat + 1


@pytest.mark.parametrize("game", ["traditional", "doble15"])
def test_3_solo_games_have_one_team_per_seat(game):
    m = Match(game, 3, seed=1)
    assert m.teams == ((0,), (1,), (2,)) and not m.pairs and m.team_scores == m.scores


# --- 3.1 Traditional draw game --------------------------------------------------------------

@pytest.mark.parametrize("players,size", [(2, 6), (3, 5), (4, 4), (5, 3)])
def test_3_1_double_six_8_minus_players_tiles_each(players, size):
    rnd = Round.deal(TRADITIONAL, HouseRules(), players, random.Random(players))
    assert rnd.tileset is DOUBLE_SIX and len(rnd.tileset) == 28
    assert rnd.hand_sizes == [size] * players
    assert rnd.pile_count == 28 - size * players
    with pytest.raises(RulesError):
        Round.deal(TRADITIONAL, HouseRules(), 6, random.Random(0))


def test_3_1_highest_double_opens_fallback_D2(kit):
    rnd = kit.make_round([["1/2"], ["5/5"], ["4/4"]], variant=TRADITIONAL,
                         fill_order=["0/1", "0/2", "1/3", "2/3", "0/3", "1/4", "2/4", "3/4"],
                         reserve=["6/6"])
    assert rnd.starter == 1 and rnd.legal_actions() == [Play(Tile(5, 5))]
    # nobody holds a double: the heaviest tile opens (D-2)
    rnd = kit.make_round([["0/1", "0/2", "1/2"], ["5/6", "0/3", "1/3"], ["4/6", "2/3", "0/4"]],
                         variant=TRADITIONAL, reserve=["0/0", "1/1", "2/2", "3/3", "4/4",
                                                       "5/5", "6/6"])
    assert rnd.starter == 1 and rnd.legal_actions() == [Play(Tile(5, 6))]


SEVEN_SIXES = ["6/6", "6/5", "6/4", "6/3", "6/2", "6/1"]


def test_3_1_draw_until_playable_leaves_two_tiles_with_two_players(kit):
    """Two players: 6 tiles each, a pile of 16; the only 6 left is the last tile but one."""
    no_six = [t for t in DOUBLE_SIX.tiles if 6 not in (t.a, t.b)]
    hands = [SEVEN_SIXES, [str(t) for t in no_six[:6]]]
    pile = [str(t) for t in no_six[6:]] + ["6/0"]
    rnd = kit.make_round(hands, pile, variant=TRADITIONAL)
    assert rnd.pile_count == 16
    kit.run(rnd, ["6/6"])
    for _ in range(14):
        assert rnd.legal_actions() == [DRAW]
        rnd.apply(DRAW)
    assert rnd.pile_count == 2 and rnd.legal_actions() == [PASS]
    with pytest.raises(IllegalMoveError, match="nothing left to draw"):
        rnd.apply(DRAW)
    rnd.apply(PASS)
    assert rnd.turn == 0 and not rnd.over


def test_3_1_draw_until_playable_leaves_one_tile_and_a_tranque_counts_differences(kit):
    """The seed's example, 15, 19, 22 → 4 + 7 = 11 (a deal found by random play, seed
    81414): seat 0 draws until only one tile is left and passes; seat 1's 5/5 then blocks
    the game although a tile is still in the pile."""
    hands = [["0/3", "0/5", "3/6", "4/4", "6/6"], ["0/6", "1/4", "2/3", "4/6", "5/5"],
             ["0/0", "1/5", "1/6", "2/5", "3/4"]]
    pile = ["4/5", "3/5", "0/1", "1/3", "2/2", "0/4", "1/1", "2/4", "3/3", "5/6", "1/2",
            "2/6", "0/2"]
    rnd = kit.make_round(hands, pile, variant=TRADITIONAL)
    kit.run(rnd, ["6/6", "6/0 R", "6/1 L", "0/3 R", "3/2 R", "1/5 L", "5/0 L",
                  "draw", "draw", "draw", "0/1 L", "2/5 R", "draw", "1/3 L", "5/4 R",
                  "4/3 R", "3/6 R", "3/5 L"] + ["draw"] * 6 + ["6/5 R", "draw", "draw"])
    assert rnd.pile_count == 1 and rnd.legal_actions() == [PASS]  # the last tile stays
    kit.run(rnd, ["pass"])
    events = kit.run(rnd, ["5/5 R"])
    end = rnd.result
    assert end.reason == "tranque" and rnd.pile_count == 1
    assert hand_points(rnd) == [19, 15, 22] == list(end.hand_totals)
    assert end.differences == (4, 0, 7)
    assert end.winner == 1 and bonuses(events) == [(1, "tranque", 11)]
    assert end.count == end.points == 11


def test_3_1_D9_block_tie_nobody_scores():
    _, rnd = replayed("traditional_block_tie")
    points = hand_points(rnd)
    low = min(points)
    assert rnd.result.reason == "tranque" and points.count(low) == 2
    assert rnd.result.winner is None and bonuses(rnd.log) == [] and rnd.result.count == 0
    assert rnd.result.differences == tuple(p - low for p in points)


def test_3_1_domino_collects_every_other_hand():
    record, rnd = replayed("traditional_domino")
    end = rnd.result
    assert end.reason == "domino" and rnd.hand(end.winner) == []
    others = sum(hand_points(rnd))
    assert rnd.gains[end.winner] == others == end.count
    assert [b for b in bonuses(rnd.log)] == [(end.winner, "domino", others)]
    assert rnd.pile_count == 1  # drawing never took the last tile


def test_3_1_highest_hand_opens_the_next_round_with_any_tile(kit):
    record, rnd = replayed("traditional_domino")
    match = engine.replay(record | {"rules": {**record["rules"], "target": 500}})
    totals = hand_points(match.current)
    match.start_round()
    nxt = match.current
    assert nxt.starter == totals.index(max(totals)) and nxt.open_tile is None
    assert len(nxt.legal_actions()) == len(nxt.hand(nxt.starter))  # any tile opens


def test_D19_highest_hand_tie_lower_seat_opens():
    record = fixture("traditional_highest_tie")
    match = engine.replay(record | {"rules": {**record["rules"], "target": 500}})
    totals = hand_points(match.current)
    high = max(totals)
    assert totals.count(high) == 2
    match.start_round()
    assert match.current.starter == totals.index(high)


@pytest.mark.parametrize("target", [100, 50])
def test_3_1_first_to_100_or_50_wins(target):
    rules = HouseRules(target=target if target != 100 else 0)
    for seed in range(5):
        m = play_match(Match("traditional", 3, rules, seed=seed),
                       [make_bot("random", seed * 10 + s) for s in range(3)])
        assert m.target == target and max(m.scores) >= target
        before = [sum(r.gains[s] - r.losses[s] for r in m.rounds[:-1]) for s in range(3)]
        assert max(before) < target  # the match ended with the first round that reached it
        assert m.match_end.winners == tuple(s for s in range(3) if m.scores[s] == max(m.scores))


# --- 3.2 Venezuela --------------------------------------------------------------------------

def test_3_2_two_pairs_seven_tiles_each_no_pile():
    rnd = Round.deal(VENEZUELA, HouseRules(), 4, random.Random(3))
    assert rnd.hand_sizes == [7, 7, 7, 7] and rnd.pile_count == 0
    assert rnd.legal_actions() == [Play(Tile(6, 6))] and Tile(6, 6) in rnd.hand(rnd.starter)
    for n in (2, 3, 5):
        with pytest.raises(RulesError, match="played by 4 players"):
            Match("venezuela", n)


@pytest.mark.parametrize("game", ["venezuela", "ponce"])
def test_3_2_3_3_6_6_opens_then_the_opening_moves_right_with_any_tile(game):
    m = Match(game, 4, HouseRules(target=10_000), seed=5)
    openers = []
    for _ in range(4):
        rnd = m.current
        if rnd.number == 1:
            assert rnd.legal_actions() == [Play(Tile(6, 6))]
        else:
            assert rnd.open_tile is None and len(rnd.legal_actions()) == 7
        openers.append(rnd.starter)
        rng = random.Random(rnd.number)
        while not rnd.over:
            m.apply(rng.choice(rnd.legal_actions()))
        m.start_round()
    assert openers[1:] == [(openers[0] + k) % 4 for k in (1, 2, 3)]


# The same ten plays block the game (every 6 is out, both ends show 6): S1's 5/6 makes the
# tranque. The other 18 tiles are dealt three ways below.
BLOCK_SCRIPT = ["6/6", "6/1 L", "6/2 R", "1/0 L", "2/3 R", "0/6 L", "3/6 R", "6/4 R", "4/5 R",
                "5/6 R"]
BLOCK_PLAYED = [["6/6", "2/3", "4/5"], ["6/1", "0/6", "5/6"], ["6/2", "3/6"], ["1/0", "6/4"]]
FILLERS = {
    # 7, 16, 28, 39: pairs 35 against 55; the lowest single hand is seat 0's
    "lowest": [["0/0", "1/1", "0/2", "1/2"], ["0/3", "0/4", "0/5", "1/3"],
               ["1/4", "1/5", "2/2", "2/4", "2/5"], ["3/3", "3/4", "3/5", "4/4", "5/5"]],
    # 7, 16, 38, 29: pairs 45 and 45
    "equal-pairs": [["0/0", "1/1", "0/2", "1/2"], ["0/3", "0/4", "1/3", "1/4"],
                    ["5/5", "4/4", "3/5", "3/4", "0/5"], ["1/5", "2/2", "2/4", "2/5", "3/3"]],
    # 15, 15, 21, 39: two lowest single hands
    "tied-lowest": [["0/3", "0/4", "1/3", "2/2"], ["0/0", "1/2", "0/5", "2/5"],
                    ["1/1", "0/2", "1/4", "1/5", "2/4"], ["3/3", "3/4", "3/5", "4/4", "5/5"]],
}


def block_round(kit, game, fillers: str, **kw) -> tuple[Round, list]:
    hands = [BLOCK_PLAYED[s] + FILLERS[fillers][s] for s in range(4)]
    rnd = kit.make_round(hands, variant=engine.variant(game), **kw)
    events = kit.run(rnd, BLOCK_SCRIPT, seats=[k % 4 for k in range(len(BLOCK_SCRIPT))])
    assert rnd.over and rnd.result.reason == "tranque" and rnd.result.blocker == 1
    return rnd, events


def test_3_2_domino_the_pair_scores_the_opposing_hands():
    _, rnd = replayed("venezuela_domino")
    end = rnd.result
    w = end.winner
    points = hand_points(rnd)
    opponents = sum(points[s] for s in range(4) if s % 2 != w % 2)
    assert points[w ^ 2] > 0  # the partner's tiles are not counted
    assert bonuses(rnd.log) == [(w, "domino", opponents)] and end.team == w % 2
    assert end.team_totals == (points[0] + points[2], points[1] + points[3])


def test_3_2_block_the_lower_pair_scores_the_opposing_pair_D22(kit):
    rnd, events = block_round(kit, "venezuela", "lowest")
    end = rnd.result
    assert hand_points(rnd) == [7, 16, 28, 39] and end.team_totals == (35, 55)
    # the pair's points are written to its lower hand (D-22)
    assert end.team == 0 and end.winner == 0 and bonuses(events) == [(0, "tranque", 55)]


def test_3_2_block_equal_pairs_score_nothing(kit):
    rnd, events = block_round(kit, "venezuela", "equal-pairs")
    assert rnd.result.team_totals == (45, 45)
    assert rnd.result.winner is None and rnd.result.team is None and bonuses(events) == []


def test_3_2_first_pair_to_100_wins():
    for seed in range(4):
        m = play_match(Match("venezuela", 4, seed=seed),
                       [make_bot("greedy", seed * 10 + s) for s in range(4)])
        team = m.team_scores
        assert m.target == 100 and max(team) >= 100
        winners = m.teams[team.index(max(team))]
        assert m.match_end.winners == winners and m.match_end.team_scores == tuple(team)
        assert m.to_record()["team_scores"] == team


# --- 3.3 Ponce ------------------------------------------------------------------------------

# Seat 0 holds every 6: after its 6/6 nobody else can play.
ALL_SIXES = [["6/6", "6/5", "6/4", "6/3", "6/2", "6/1", "6/0"]]


def ponce_sixes(kit, context: RoundContext | None = None) -> Round:
    others = [t for t in DOUBLE_SIX.tiles if 6 not in (t.a, t.b)]
    hands = ALL_SIXES + [[str(t) for t in others[k * 7:(k + 1) * 7]] for k in range(3)]
    full, _ = kit.complete_deal(hands, variant=PONCE)
    return Round.from_deal(PONCE, HouseRules(), full, context=context)


def test_3_3_first_pass_of_the_match_scores_2(kit):
    rnd = ponce_sixes(kit)
    events = kit.run(rnd, ["6/6", "pass"])
    assert bonuses(events) == [(0, "pass", 2)]
    assert [b.detail for b in events if isinstance(b, Bonus)] == ["first"]


def test_3_3_later_passes_score_1_and_a_partners_pass_is_free(kit):
    rnd = ponce_sixes(kit, RoundContext(passes=3))
    assert bonuses(kit.run(rnd, ["6/6", "pass"])) == [(0, "pass", 1)]
    events = kit.run(rnd, ["pass"])  # seat 2, seat 0's partner
    assert bonuses(events) == [(0, "pass", 0)]
    assert [b.detail for b in events if isinstance(b, Bonus)] == ["partner"]


def test_3_3_a_play_all_three_others_pass_on_scores_2(kit):
    rnd = ponce_sixes(kit, RoundContext(passes=3))
    events = kit.run(rnd, ["6/6", "pass", "pass", "pass"])
    assert sum(p for _, kind, p in bonuses(events) if kind == "pass") == 2
    assert rnd.turn == 0 and rnd.team_scores == [2, 0]


def test_D17_pass_points_are_counted_pass_by_pass(kit):
    """The three passes of a match's first pass round: 2 + 0 + 1 = 3."""
    rnd = ponce_sixes(kit)
    events = kit.run(rnd, ["6/6", "pass", "pass", "pass"])
    assert bonuses(events) == [(0, "pass", 2), (0, "pass", 0), (0, "pass", 1)]


def test_3_3_pass_points_count_across_the_match():
    """The match hands each round the passes made before it: only the first scores 2."""
    m = Match("ponce", 4, HouseRules(target=10_000), seed=2)
    firsts = []
    for _ in range(3):
        rng = random.Random(m.current.number)
        while not m.current.over:
            firsts += [b.detail == "first" for b in m.apply(rng.choice(m.current.legal_actions()))
                       if isinstance(b, Bonus) and b.kind == "pass"]
        m.start_round()
    assert firsts.count(True) == 1 and firsts[0]


def test_3_3_tranque_2_for_the_blocker_then_the_lowest_single_hand_counts_all(kit):
    rnd, events = block_round(kit, "ponce", "lowest")
    assert hand_points(rnd) == [7, 16, 28, 39]
    # seat 1 made the tranque: its pair gets 2, whoever wins; seat 0's 7 is the lowest hand
    # and wins the sum of all four hands, 90, counted in tens: 9
    assert bonuses(events) == [(1, "block", 2), (0, "tranque", 9)]
    assert rnd.result.count == 90 and rnd.result.points == 9 and rnd.result.team == 0
    assert rnd.team_scores == [9, 2]


def test_3_3_tranque_tie_only_the_2(kit):
    rnd, events = block_round(kit, "ponce", "tied-lowest")
    assert sorted(hand_points(rnd))[:2] == [15, 15]
    assert bonuses(events) == [(1, "block", 2)] and rnd.result.winner is None


@pytest.mark.parametrize("count,points", [(14, 1), (15, 2), (24, 2), (25, 3), (4, 0), (90, 9)])
def test_3_3_counts_round_to_tens_half_up(count, points):
    assert round_count(count) == points


def test_3_3_domino_the_team_scores_all_hands_rounded_no_capicua():
    """Seed 59: the winner's last tile fitted both ends, and the hands left add up to 25."""
    record, rnd = replayed("ponce_domino")
    end = rnd.result
    assert sum(hand_points(rnd)) == 25 == end.count and end.points == 3
    assert (end.winner, "domino", 3) in bonuses(rnd.log)
    last = Tile(*map(int, record["rounds"][0]["turns"][-1]["play"]["tile"].split("/")))
    line = rnd.line_tiles()
    assert {line[0].a, line[-1].b} <= {last.a, last.b}  # it could have gone on either end
    assert end.capicua == "" and not [b for b in rnd.log if getattr(b, "kind", "") == "capicua"]


def test_3_3_the_match_ends_the_moment_a_pair_reaches_20_even_mid_hand(kit):
    others = [t for t in DOUBLE_SIX.tiles if 6 not in (t.a, t.b)]
    hands = ALL_SIXES + [[str(t) for t in others[k * 7:(k + 1) * 7]] for k in range(3)]
    m = Match("ponce", 4, HouseRules(target=2), deals=[{"hands": hands}])
    events = m.apply(Play(Tile(6, 6)))
    assert not m.over
    events = m.apply(PASS)  # the match's first pass: 2 points, and the target is 2
    assert m.over and m.current.result.reason == "target" and m.current.result.team == 0
    assert m.match_end.winners == (0, 2) and m.team_scores == [2, 0]
    assert events[-1] == m.match_end
    assert m.current.legal_actions() == []
    with pytest.raises(IllegalMoveError):
        m.start_round()
    # the same with a pair at 19 from earlier hands: one more pass point ends it
    rnd = ponce_sixes(kit, RoundContext(scores=(10, 0, 9, 0), passes=4, target=20))
    kit.run(rnd, ["6/6", "pass"])
    assert rnd.over and rnd.result.reason == "target"


def test_D18_the_blockers_2_come_first_and_can_end_the_match(kit):
    context = RoundContext(scores=(0, 9, 0, 9), passes=4, target=20)
    rnd, events = block_round(kit, "ponce", "lowest", )  # without a target: counted
    assert (0, "tranque", 9) in bonuses(events)
    hands = [BLOCK_PLAYED[s] + FILLERS["lowest"][s] for s in range(4)]
    full, _ = kit.complete_deal(hands, variant=PONCE)
    rnd = Round.from_deal(PONCE, HouseRules(), full, context=context)
    events = kit.run(rnd, BLOCK_SCRIPT)
    assert bonuses(events) == [(1, "block", 2)]  # 18 + 2 = 20: nothing is counted
    assert rnd.result.reason == "tranque" and rnd.result.team == 1 and rnd.result.count == 0


# --- 3.4 Cuban double-nine ------------------------------------------------------------------

def test_3_4_55_tiles_10_each_15_aside_never_drawn_cannot_play_pass():
    rnd = Round.deal(CUBAN, HouseRules(), 4, random.Random(4))
    assert rnd.tileset is DOUBLE_NINE and len(rnd.tileset) == 55
    assert rnd.hand_sizes == [10] * 4 and rnd.pile_count == 0
    rng = random.Random(4)
    passes = 0
    while not rnd.over:
        legal = rnd.legal_actions()
        assert DRAW not in legal
        passes += legal == [PASS]
        rnd.apply(rng.choice(legal))
    dealt = {t for h in rnd.initial_hands for t in rnd.tileset.from_mask(h)}
    assert len(dealt) == 40 and passes > 0
    assert set(rnd.line_tiles()) <= dealt  # the 15 set aside never come into play


def test_3_4_highest_double_opens_the_first_hand(kit):
    # 9/9 is set aside: the 8/8 opens
    rnd = Round.from_deal(CUBAN, HouseRules(), cuban_hands({2: ["8/8"], 3: ["7/7"]}))
    assert rnd.starter == 2 and rnd.legal_actions() == [Play(Tile(8, 8))]
    with pytest.raises(DealError, match="seat 3 cannot open"):
        Round.from_deal(CUBAN, HouseRules(), cuban_hands({2: ["8/8"], 3: ["7/7"]}), starter=3)


FIVE_DOUBLES = ["0/0", "1/1", "2/2", "3/3", "4/4"]


def test_3_4_five_doubles_may_ask_for_a_redeal_on_their_first_turn_D21():
    hands = cuban_hands({0: ["9/9"], 1: FIVE_DOUBLES})
    m = Match("cuban", 4, deals=[{"hands": hands}], seed=3)
    rnd = m.current
    assert not rnd.may_annul()  # seat 0 holds one double
    with pytest.raises(IllegalMoveError, match="needs 5 doubles"):
        rnd.apply(ANNUL)
    m.apply(Play(Tile(9, 9)))
    assert rnd.turn == 1 and rnd.may_annul() and ANNUL not in rnd.legal_actions()
    events = m.apply(ANNUL, 1)
    assert isinstance(events[0], Annulled) and events[0].seat == 1
    assert set(events[0].doubles) == {Tile(d, d) for d in range(5)}
    assert rnd.over and rnd.result.reason == "annulled" and rnd.gains == [0] * 4
    assert rnd.turns[-1] == {"player": 1, "drew": [], "play": None, "annul": True}
    nxt = m.start_round()
    assert nxt.starter == 0 and nxt.open_tile is None  # the same opener, any tile
    # the record replays, redeal included
    record = json.loads(json.dumps(m.to_record()))
    record["rounds"] = record["rounds"][:1]
    again = engine.replay(record)
    assert again.rounds[0].result.reason == "annulled"


def test_3_4_the_redeal_is_only_asked_on_ones_first_turn():
    hands = cuban_hands({0: ["9/9"], 2: ["9/8"] + FIVE_DOUBLES, 1: ["9/7"]})
    rnd = Round.from_deal(CUBAN, HouseRules(), hands)
    rnd.apply(Play(Tile(9, 9)))
    rnd.apply(Play(Tile(9, 7), "L"))
    rnd.apply(Play(Tile(9, 8), "R"))  # seat 2's first turn: it plays instead
    while rnd.turn != 2:
        rnd.apply(rnd.legal_actions()[0])
    assert not rnd.may_annul()
    with pytest.raises(IllegalMoveError, match="first turn"):
        rnd.apply(ANNUL)


def test_3_4_bots_may_ask_for_the_redeal():
    hands = cuban_hands({0: ["9/9"], 1: FIVE_DOUBLES})
    asked = 0
    for seed in range(20):
        m = Match("cuban", 4, HouseRules(target=1), deals=[{"hands": hands}], seed=seed)
        play_match(m, [make_bot("random", seed * 4 + s) for s in range(4)])
        asked += m.rounds[0].result.reason == "annulled"
    assert 0 < asked < 20


def test_D12_the_winners_pair_scores_the_opposing_hands():
    _, rnd = replayed("cuban_domino")
    end = rnd.result
    points = hand_points(rnd)
    w = end.winner
    assert points[w ^ 2] > 0
    assert bonuses(rnd.log) == [(w, "domino", sum(points[s] for s in (w ^ 1, w ^ 3)))]


def test_D12_all_hands_option():
    record = fixture("cuban_domino")
    record["rules"]["cuban_count"] = "all"
    for key in ("gains", "losses"):
        del record["rounds"][0][key]
    rnd = engine.replay(record).rounds[0]
    assert bonuses(rnd.log) == [(rnd.result.winner, "domino", sum(hand_points(rnd)))]


def test_3_4_block_the_single_lowest_hand_wins_for_its_pair():
    _, rnd = replayed("cuban_block_single")
    points = hand_points(rnd)
    low = min(points)
    w = points.index(low)
    assert points.count(low) == 1 and rnd.result.winner == w and rnd.result.team == w % 2
    assert bonuses(rnd.log) == [(w, "tranque", sum(points[s] for s in (w ^ 1, w ^ 3)))]


def test_D11_the_winner_opens_the_next_hand():
    record = fixture("cuban_domino")
    m = engine.replay(record | {"rules": {**record["rules"], "target": 500}})
    winner = m.current.result.winner
    assert m.start_round().starter == winner and m.current.open_tile is None


def test_3_4_block_tie_nobody_scores_and_the_opening_pair_loses_the_opening_D20():
    record = fixture("cuban_block_tie")
    m = engine.replay(record | {"rules": {**record["rules"], "target": 500}})
    rnd = m.current
    points = hand_points(rnd)
    low = min(points)
    assert {s % 2 for s in range(4) if points[s] == low} == {0, 1}  # a tie across the pairs
    assert rnd.result.winner is None and bonuses(rnd.log) == []
    nxt = m.start_round()
    assert nxt.starter == (rnd.opener + 1) % 4 and nxt.starter % 2 != rnd.opener % 2


def test_3_4_match_to_200_settable_up_to_500():
    assert Match("cuban", 4, seed=1).target == 200
    assert Match("cuban", 4, HouseRules(target=500), seed=1).target == 500
    with pytest.raises(RulesError, match="at most 500"):
        Match("cuban", 4, HouseRules(target=501))


# --- 3.5 Doble 15 ---------------------------------------------------------------------------

def d15(kit, hands, pile=(), starter=0, rules=None):
    """A Doble 15 round: the named tiles, then non-double fillers of 5…12 (no special number,
    no double); the pile starts with ``pile`` and goes on with the rest in set order."""
    named = {str(DOUBLE_FIFTEEN.parse(t)) for h in hands for t in h} | \
        {str(DOUBLE_FIFTEEN.parse(t)) for t in pile}
    inert = [str(t) for t in DOUBLE_FIFTEEN.tiles if t.a != t.b and 5 <= int(t.a) and
             int(t.b) <= 12 and str(t) not in named]
    rest = [str(t) for t in DOUBLE_FIFTEEN.tiles if str(t) not in named and str(t) not in inert]
    return kit.make_round(hands, pile, variant=DOBLE15, starter=starter, rules=rules,
                          fill_order=inert + rest)


def test_3_5_136_tiles_9_each_the_rest_is_the_pool():
    for players in (2, 5, 15):
        rnd = Round.deal(DOBLE15, HouseRules(), players, random.Random(players))
        assert len(rnd.tileset) == 136 and rnd.hand_sizes == [9] * players
        assert rnd.pile_count == 136 - 9 * players
    with pytest.raises(RulesError):
        Round.deal(DOBLE15, HouseRules(), 16, random.Random(0))


def test_3_5_the_first_player_with_a_double_lays_a_hub_of_six_arms_D23(kit):
    # three players, play to the left: 0, then 2, then 1. Seats 0 and 2 hold no double.
    rnd = d15(kit, [[], ["1/1", "2/2"], []])
    assert rnd.starter == 0 and rnd.turn == 1
    assert sorted(map(str, rnd.legal_actions())) == ["1/1", "2/2"]  # any of its doubles
    with pytest.raises(IllegalMoveError, match="opens with a double"):
        rnd.apply(Play(next(t for t in rnd.hand(1) if t.a != t.b)))
    kit.run(rnd, ["2/2"])
    assert rnd.end_names == ("1", "2", "3", "4", "5", "6")
    assert rnd.ends == (2,) * 6 and all(rnd.end_tile(e) == Tile(2, 2) for e in rnd.end_names)
    assert rnd.turn == 0  # seat 1's left-hand neighbour


def test_3_5_play_goes_clockwise_to_the_left(kit):
    rnd = d15(kit, [["0/0", "0/1"], ["0/2"], ["0/4"], ["0/5"]])
    order = []
    for text in ["0/0", "0/5 1", "0/4 2", "0/2 3", "0/1 4"]:
        order.append(rnd.turn)
        kit.run(rnd, [text])
    assert order == [0, 3, 2, 1, 0]


def test_3_5_nobody_holds_a_double_players_draw_in_turn_until_one_does(kit):
    rnd = d15(kit, [[], []], pile=["7/8", "9/10", "4/4"])
    assert rnd.turn == 0 and rnd.legal_actions() == [DRAW]
    kit.run(rnd, ["draw"])
    assert rnd.legal_actions() == [PASS]  # 7/8 is no double
    kit.run(rnd, ["pass", "draw", "pass"])
    assert rnd.turn == 0 and rnd.legal_actions() == [DRAW]
    kit.run(rnd, ["draw"])
    assert rnd.legal_actions() == [Play(Tile(4, 4))]  # it opens with the double it drew
    kit.run(rnd, ["4/4"])
    assert rnd.ends == (4,) * 6


def test_3_5_each_turn_one_tile_on_the_end_of_any_arm(kit):
    rnd = d15(kit, [["1/1", "1/4"], ["1/2"]])
    kit.run(rnd, ["1/1"])
    assert [m.end for m in rnd.legal_actions()] == ["1", "2", "3", "4", "5", "6"]
    events = kit.run(rnd, ["1/2 4"])
    assert [e for e in events if isinstance(e, Placed)][0].end == "4"
    assert rnd.ends == (1, 1, 1, 2, 1, 1) and rnd.arm_tiles("4") == [Tile(1, 2)]
    with pytest.raises(IllegalMoveError, match="an arm 1–6"):
        rnd.apply(Play(Tile(1, 4), "L"))


def test_D13_cannot_play_draw_one_and_play_it_if_it_fits_else_pass(kit):
    rnd = d15(kit, [["1/1"], []], pile=["1/9", "7/9"])
    kit.run(rnd, ["1/1"])
    assert rnd.legal_actions() == [DRAW]
    kit.run(rnd, ["draw"])
    assert {m.tile for m in rnd.legal_actions()} == {Tile(1, 9)}  # the drawn tile fits: play it
    kit.run(rnd, ["1/9 2"])
    rnd2 = d15(kit, [["1/1"], []], pile=["7/9", "1/9"])
    kit.run(rnd2, ["1/1", "draw"])
    assert rnd2.legal_actions() == [PASS] and rnd2.pile_count == 136 - 18 - 1  # one draw only


def test_D13_until_playable_option(kit):
    rnd = d15(kit, [["1/1"], []], pile=["7/9", "8/9", "1/9"],
              rules=HouseRules(options={"doble15_draw": "until-playable"}))
    kit.run(rnd, ["1/1", "draw", "draw", "draw"])
    assert {m.tile for m in rnd.legal_actions()} == {Tile(1, 9)}


def test_3_5_a_double_goes_on_its_own_number_or_on_a_13(kit):
    rnd = d15(kit, [["0/0", "4/4"], ["0/13", "9/10"]])
    kit.run(rnd, ["0/0", "0/13 1"])  # leaves a 13: seat 0 is hexed (see below)
    moves = rnd.legal_actions()
    assert Play(Tile(4, 4), "1") in moves  # a 4/4 on the 13
    events = kit.run(rnd, ["4/4 1"])
    placed = [e for e in events if isinstance(e, Placed)][0]
    assert placed.tile == Tile(4, 4) and placed.end == "1" and rnd.ends[0] == 4
    assert rnd.turns[-1]["play"] == {"tile": "4/4", "end": "1"}


def test_3_5_14_the_same_player_plays_again_D26(kit):
    rnd = d15(kit, [["0/0", "9/10"], ["0/14", "0/1"]])
    events = kit.run(rnd, ["0/0", "0/14 1"])
    assert [(e.seat, e.number, e.effect) for e in events if isinstance(e, Special)] == \
        [(1, 14, "again")]
    assert rnd.turn == 1
    kit.run(rnd, ["0/1 2"])
    assert rnd.turn == 0
    # without a tile that fits, the turn moves on (no drawing for it)
    rnd = d15(kit, [["0/0", "0/2"], ["0/14", "9/10"]])
    events = kit.run(rnd, ["0/0", "0/14 1"])
    assert not [e for e in events if isinstance(e, Special)] and rnd.turn == 0


def test_D15_15_the_player_two_seats_after_draws_a_tile(kit):
    rnd = d15(kit, [["0/0"], ["0/1"], ["0/15"]], pile=["7/8"])
    events = kit.run(rnd, ["0/0", "0/15 1"])  # seat 2 plays (0 → 2 → 1 → 0 …)
    assert [(e.number, e.effect, e.target) for e in events if isinstance(e, Special)] == \
        [(15, "draw", 0)]  # two seats to the left of seat 2: 1, then 0
    assert [(e.seat, e.tile, e.forced) for e in events if isinstance(e, Drew)] == \
        [(0, Tile(7, 8), True)]
    assert rnd.hand_sizes == [9, 9, 8] and rnd.turn == 1
    assert rnd.turns[-1]["forced"] == [{"player": 0, "tile": "7/8"}]


def test_3_5_13_hexes_the_next_player_until_a_double_or_a_13_D25(kit):
    rnd = d15(kit, [["0/0", "13/5", "0/6"], ["0/2"], ["0/13"]], pile=["7/8", "9/10"])
    kit.run(rnd, ["0/0"])
    events = kit.run(rnd, ["0/13 1"])  # seat 2 leaves a 13: seat 1 is hexed
    assert [(e.effect, e.target) for e in events if isinstance(e, Special)] == [("hex", 1)]
    assert rnd.turn == 1 and rnd.legal_actions() == [DRAW]  # no 13, no double: draw two
    with pytest.raises(IllegalMoveError, match="draws two tiles first"):
        rnd.apply(Play(Tile(0, 2), "2"))
    kit.run(rnd, ["draw"])
    assert rnd.legal_actions() == [DRAW]
    kit.run(rnd, ["draw"])
    assert Play(Tile(0, 2), "2") in rnd.legal_actions()  # then anything that fits
    kit.run(rnd, ["0/2 2"])  # neither a double nor a 13: the hex passes on to seat 0
    assert rnd.turn == 0 and rnd.hexed
    assert rnd.legal_actions() == [Play(Tile(13, 5), "1")]  # on the 13 only
    with pytest.raises(IllegalMoveError, match="hexed and must play on a 13"):
        rnd.apply(Play(Tile(0, 6), "3"))
    kit.run(rnd, ["13/5 1"])  # a 13: the hex ends
    assert rnd.turn == 2 and not rnd.hexed


def test_3_5_3_reverses_the_direction_not_with_two_players(kit):
    rnd = d15(kit, [["0/0"], ["0/1"], ["0/3"]])
    events = kit.run(rnd, ["0/0", "0/3 1"])  # seat 2 plays a 3; seat 1 was next
    assert [(e.effect, e.target) for e in events if isinstance(e, Special)] == [("reverse", 0)]
    assert rnd.turn == 0 and rnd.direction == 1
    rnd = d15(kit, [["0/0", "9/10"], ["0/3", "0/1"]])
    events = kit.run(rnd, ["0/0", "0/3 1"])
    assert not [e for e in events if isinstance(e, Special)] and rnd.direction == -1
    assert rnd.turn == 0


def test_D14_the_number_left_open_counts_not_the_number_covered(kit):
    rnd = d15(kit, [["13/13", "13/1"], ["9/9"]])
    # 13/13 opens: its number is left open on every arm (D-24: the hub counts too)
    events = kit.run(rnd, ["13/13"])
    assert [(e.number, e.effect) for e in events if isinstance(e, Special)] == [(13, "hex")]
    assert len(rnd.legal_actions()) == 6  # seat 1 answers with its double, on any 13
    kit.run(rnd, ["9/9 1"])
    assert rnd.turn == 0 and not rnd.hexed  # a double ends the hex
    events = kit.run(rnd, ["13/1 2"])  # covers a 13 and leaves a 1: nothing special
    assert [e for e in events if isinstance(e, Special)] == [] and not rnd.hexed


def test_D24_the_hub_triggers_its_own_number(kit):
    rnd = d15(kit, [["14/14", "14/2"], ["9/10"]])
    events = kit.run(rnd, ["14/14"])
    assert [(e.number, e.effect) for e in events if isinstance(e, Special)] == [(14, "again")]
    assert rnd.turn == 0


def test_D16_blocked_the_lowest_hand_wins_the_other_hands():
    """A frozen game (random play from seed 88) that ends with the pool empty and no tile
    that fits an arm: the lowest hand collects the other hand."""
    _, rnd = replayed("doble15_blocked")
    assert rnd.result.reason == "tranque" and rnd.pile_count == 0
    reach = set(rnd.ends)
    doubles_fit = 13 in reach
    for s in range(rnd.players):
        assert not any({t.a, t.b} & reach or (doubles_fit and t.a == t.b)
                       for t in rnd.hand(s))
    points = hand_points(rnd)
    low = min(points)
    w = points.index(low)
    assert points.count(low) == 1 and rnd.result.winner == w
    assert bonuses(rnd.log)[-1] == (w, "tranque", sum(points) - low)


def test_3_5_domino_the_first_to_empty_their_hand_scores_all_other_hands():
    for seed in range(30):
        rnd = Round.deal(DOBLE15, HouseRules(), 3, random.Random(seed))
        rnd.playout(random.Random(seed))
        if rnd.result.reason == "domino":
            w = rnd.result.winner
            assert rnd.hand(w) == [] and bonuses(rnd.log) == [(w, "domino",
                                                               sum(hand_points(rnd)))]
            return
    raise AssertionError("no domino in 30 games")


def test_D27_a_doble15_match_is_a_number_of_rounds():
    m = play_match(Match("doble15", 3, HouseRules(rounds=2), seed=4),
                   [make_bot("greedy", s) for s in range(3)])
    assert len(m.rounds) == 2 and m.target == 0
    assert [r.starter for r in m.rounds] == [0, 2]  # the first player moves one seat left
