"""One test (or a small group) per rule of docs/rules.md §1, named after its section or D-number.

Deals are prepared with ``Round.from_deal`` through the ``kit`` fixture (tests/engine/
conftest.py), which completes short hands and the pile from the tiles a test does not name.
Scripts are lists of actions in turn order: ``"6/6"`` (the first tile), ``"6/5 R"``,
``"draw"``, ``"pass"``.
"""

from __future__ import annotations

import random

import pytest

from engine import (
    BLOCK_VARIANT,
    DOUBLE_SIX,
    DRAW,
    LEONARD,
    LEONARD_VARIANT,
    PASS,
    Bonus,
    DealError,
    Drew,
    HouseRules,
    IllegalMoveError,
    Match,
    MatchEnded,
    Passed,
    Placed,
    Play,
    PowerEffect,
    Round,
    RoundEnded,
    RoundStarted,
    RulesError,
    Tile,
    TileError,
    parse_tile,
    power_effect,
)

T = parse_tile

NUMBERS = (1, 2, 3, 4, 5, 6)
SYMBOLS = ("+", "-", "x")


def total(tile: Tile, symbol_value: int = 0) -> int:
    """A tile's total, computed here (not by the engine): docs/rules.md §1.1, D-1."""
    return sum(h if isinstance(h, int) else symbol_value for h in (tile.a, tile.b))


def events_of(events: list, kind: type) -> list:
    return [e for e in events if isinstance(e, kind)]


def bonuses(events: list) -> list[tuple[int, str, int]]:
    return [(b.seat, b.kind, b.points) for b in events_of(events, Bonus)]


def random_round(rnd: Round, rng: random.Random) -> Round:
    while not rnd.over:
        rnd.apply(rng.choice(rnd.legal_actions()))
    return rnd


def chain_round(kit, script: list[str], players: int = 2, rules: HouseRules | None = None,
                extra: dict[int, list[str]] | None = None, **kw) -> Round:
    """A Leonard round in which seat k (in turn order, no passes) holds the tiles it plays in
    ``script``, plus ``extra[k]``; the rest is filled in."""
    hands: list[list[str]] = [list((extra or {}).get(s, [])) for s in range(players)]
    for k, text in enumerate(script):
        hands[k % players].append(text.split()[0])
    return kit.make_round(hands, rules=rules, **kw)


# --- 1.1 Tiles -----------------------------------------------------------------------------

def test_1_1_leonard_set_has_45_tiles_21_basic_24_power():
    tiles = list(LEONARD.tiles)
    assert len(tiles) == 45 == len(LEONARD)
    assert len(set(tiles)) == 45
    basic = [t for t in tiles if not t.is_power]
    power = [t for t in tiles if t.is_power]
    assert len(basic) == 21 and len(power) == 24
    suits = NUMBERS + SYMBOLS
    pairs = {frozenset((a, b)) for i, a in enumerate(suits) for b in suits[i:]}
    assert {frozenset((t.a, t.b)) for t in tiles} == pairs
    # no blanks: every basic half is 1…6
    assert all(h in NUMBERS for t in basic for h in (t.a, t.b))
    assert all(any(h in SYMBOLS for h in (t.a, t.b)) for t in power)
    for text in ["+/+", "-/-", "x/x", "+/-", "x/+", "x/-", "+/1", "-/6", "x/3"]:
        assert T(text).is_power
    with pytest.raises(TileError):
        T("0/0")


def test_1_1_value_and_total_D1_symbol_value_0():
    assert T("5/x").total() == 5
    assert T("x/x").total() == 0
    assert T("6/6").total() == 12
    assert T("+/3").total(symbol_value=2) == 5


@pytest.mark.parametrize("text, expected", [
    ("x/5", "x/5"), ("×/5", "x/5"), ("*/5", "x/5"), ("X/5", "x/5"), ("−/3", "-/3"),
    ("5|x", "5/x"), (" 3 / 4 ", "3/4"), ("  + | × ", "+/x"), ("-|-", "-/-"), ("6/6", "6/6"),
])
def test_1_1_aliases(text, expected):
    tile = parse_tile(text)
    assert str(tile) == expected
    assert all(c in "123456+-x/" for c in str(tile))


def test_1_1_tile_identity_ignores_orientation():
    assert T("x/5") == T("5/x") and hash(T("x/5")) == hash(T("5/x"))
    assert repr(T("x/5")) == "Tile('x', 5)"
    assert T("3/4") != T("3/5")


# --- 1.2 Matching --------------------------------------------------------------------------

def test_1_2_matching_symbol_to_symbol(kit):
    # seat 0 opens 6/6, seat 1 plays 6/+ at R: the ends are 6 (L) and + (R).
    rnd = kit.make_round([["6/6", "6/5", "+/3", "+/-", "x/3", "x/+", "-/-", "+/+", "-/4"],
                          ["6/+"]])
    kit.run(rnd, ["6/6", "6/+ R"])
    assert rnd.ends == (6, "+")
    moves = {(m.tile, m.end) for m in rnd.legal_actions()}
    assert moves == {
        (T("6/5"), "L"), (T("+/-"), "R"), (T("+/3"), "R"), (T("x/+"), "R"), (T("+/+"), "R"),
    }
    # x/3 and -/4 have no 6 and no +: a symbol matches only the same symbol
    for bad in ["x/3", "-/4", "-/-"]:
        for end in "LR":
            with pytest.raises(IllegalMoveError):
                rnd.apply(Play(T(bad), end))


def test_1_2_matching_number_to_number_and_new_open_end(kit):
    rnd = kit.make_round([["6/6", "4/5"], ["6/5"]])
    kit.run(rnd, ["6/6"])
    # a one-tile line has both ends on the same tile
    assert rnd.ends == (6, 6)
    assert rnd.end_tile("L") == rnd.end_tile("R") == T("6/6")
    events = kit.run(rnd, ["5/6 R"])
    placed = events_of(events, Placed)[0]
    assert str(placed.tile) == "6/5"  # matched half first
    assert rnd.ends == (6, 5)
    kit.run(rnd, ["4/5 R"])
    assert rnd.ends == (6, 4)
    assert [str(t) for t in rnd.line_tiles()] == ["6/6", "6/5", "5/4"]


def test_1_2_doubles_are_ordinary_tiles(kit):
    rnd = kit.make_round([["6/6", "5/5"], ["6/5"]])
    kit.run(rnd, ["6/6", "6/5 R", "5/5 R"])
    assert rnd.ends == (6, 5)  # no spinner: the double just continues the line
    assert len(rnd.line_tiles()) == 3


# --- 1.3 Players, seats, turn order --------------------------------------------------------

@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_1_3_play_passes_to_the_right(players):
    rnd = Round.deal(LEONARD_VARIANT, HouseRules(), players, random.Random(players))
    for s in range(players):
        assert rnd.right_of(s) == (s + 1) % players
    seat = rnd.turn
    rnd.apply(rnd.legal_actions()[0])
    while rnd.turn == seat and not rnd.over:  # a draw keeps the turn
        rnd.apply(rnd.legal_actions()[0])
    assert rnd.turn == (seat + 1) % players


@pytest.mark.parametrize("players", [1, 6])
def test_1_3_two_to_five_players(players):
    with pytest.raises(RulesError):
        Round.deal(LEONARD_VARIANT, HouseRules(), players, random.Random(0))
    with pytest.raises(RulesError):
        Match("leonard", players)


def test_1_3_loss_hits_the_right_hand_player_three_players(kit):
    rnd = chain_round(kit, ["6/6", "6/3 L", "6/- R"], players=3)
    events = kit.run(rnd, ["6/6", "6/3 L", "6/- R"])
    eff = events_of(events, PowerEffect)[-1]
    assert (eff.seat, eff.target, eff.loss) == (2, 0, 15)
    assert rnd.losses == [15, 0, 0]


# --- 1.4 Deal and opening ------------------------------------------------------------------

def _highest_double_holder(rnd: Round) -> tuple[int, Tile] | None:
    best = None
    for s in range(rnd.players):
        for t in rnd.hand(s):
            if t.is_double and isinstance(t.a, int) and (best is None or t.a > best[1].a):
                best = (s, t)
    return best


@pytest.mark.parametrize("players, pile", [(2, 27), (3, 18), (5, 0)])
def test_1_4_two_three_five_players_nine_each_and_pile(players, pile):
    for seed in range(30):
        rnd = Round.deal(LEONARD_VARIANT, HouseRules(), players, random.Random(seed))
        assert rnd.hand_sizes == [9] * players
        assert rnd.pile_count == pile
        assert rnd.line_tiles() == []
        started = rnd.log[0]
        assert isinstance(started, RoundStarted) and started.table is None
        assert started.pile == pile and started.hand_sizes == (9,) * players
        holder = _highest_double_holder(rnd)
        if holder is not None:
            # the highest numeric double opens: it is the only legal move
            assert rnd.turn == holder[0]
            assert rnd.legal_actions() == [Play(holder[1], None)]


def test_1_4_two_players_nine_each_pile_27():
    rnd = Round.deal(LEONARD_VARIANT, HouseRules(), 2, random.Random(1))
    assert rnd.hand_sizes == [9, 9] and rnd.pile_count == 27


def test_1_4_opener_holds_highest_double(kit):
    rnd = kit.make_round([["5/5", "2/2"], ["4/4", "1/1"]], reserve=["6/6"])
    assert rnd.turn == 0 and rnd.legal_actions() == [Play(T("5/5"))]
    with pytest.raises(IllegalMoveError, match="opens with 5/5"):
        rnd.apply(Play(T("2/2")))
    rnd = kit.make_round([["5/5"], ["6/6"]])
    assert rnd.turn == 1 and rnd.legal_actions() == [Play(T("6/6"))]
    with pytest.raises(DealError, match="seat 0 cannot open"):
        kit.make_round([["5/5"], ["6/6"]], starter=0)


def test_1_4_four_players_table_tile_and_starter():
    for seed in range(30):
        rnd = Round.deal(LEONARD_VARIANT, HouseRules(), 4, random.Random(seed))
        assert rnd.hand_sizes == [11] * 4 and rnd.pile_count == 0
        started = rnd.log[0]
        assert started.table is not None
        assert rnd.line_tiles() == [started.table]
        assert rnd.turn == started.starter
        ends = set(rnd.ends)
        for m in rnd.legal_actions():  # the starter plays onto the table tile
            if isinstance(m, Play):
                assert m.end in ("L", "R") and ({m.tile.a, m.tile.b} & ends)


def test_1_4_four_players_from_deal(kit):
    rnd = kit.make_round([["x/6"], [], [], []], table="6/6", starter=0)
    assert rnd.line_tiles() == [T("6/6")] and rnd.turn == 0
    events = kit.run(rnd, ["x/6 R"])
    placed = events_of(events, Placed)[0]
    assert placed.opening  # the first tile placed by a player is the opening
    eff = events_of(events, PowerEffect)[0]
    # onto the one-tile line: T is the table tile itself, so it is not neutralized
    assert (eff.rule, eff.t, eff.t_tile, eff.gain, eff.target) == ("x/n", 12, T("6/6"), 72, 1)
    with pytest.raises(DealError, match="starter"):
        kit.make_round([[], [], [], []], table="6/6")
    with pytest.raises(DealError, match="table tile"):
        kit.make_round([[], [], [], []], starter=0)
    with pytest.raises(DealError, match="no table tile"):
        kit.make_round([[], []], table="6/6")


@pytest.mark.parametrize("holder", [0, 1])
def test_D2_heaviest_tile_opens_without_numeric_double(kit, holder):
    # nobody holds a numeric double; 3/6 (9, 6) beats 4/5 (9, 5) on the highest single half
    heavy = [["4/5", "1/2", "1/3", "1/4", "+/+", "-/-", "x/x", "+/1", "+/2"],
             ["3/6", "2/3", "2/4", "1/5", "-/1", "-/2", "x/1", "x/2", "+/-"]]
    if holder == 0:
        heavy.reverse()
    rnd = kit.make_round(heavy)
    assert rnd.turn == holder
    assert rnd.legal_actions() == [Play(T("3/6"))]


def test_D2_seat_order_breaks_a_tie(kit):
    low = ["1/2", "1/3", "1/4", "2/3", "+/+", "-/-", "x/x", "+/1"]
    for first, second in [("x/6", "+/6"), ("+/6", "x/6")]:
        rnd = kit.make_round([[first, *low], [second, "-/1", "-/2", "-/3", "x/1", "x/2", "x/3",
                                              "+/2", "+/-"]])
        assert rnd.turn == 0 and rnd.legal_actions() == [Play(T(first))]


def test_D3_rotate_opener():
    rng = random.Random(5)
    for opener_rule in ["rotate", "rule"]:
        match = Match("leonard", 3, HouseRules(opener=opener_rule), seed=11)
        for number in (1, 2, 3):
            rnd = match.current
            if number == 1 or opener_rule == "rule":
                holder = _highest_double_holder(rnd)
                if holder:
                    assert rnd.turn == holder[0]
                    assert rnd.legal_actions() == [Play(holder[1])]
            else:
                prev = match.rounds[-2]
                assert rnd.starter == rnd.turn == (prev.opener + 1) % 3
                # any tile may open
                assert sorted(str(m.tile) for m in rnd.legal_actions()) == \
                    sorted(str(t) for t in rnd.hand(rnd.turn))
            while not rnd.over:
                match.apply(rng.choice(rnd.legal_actions()))
            if number < 3:
                match.start_round()
        assert match.over


# --- 1.5 A turn / D-4 ----------------------------------------------------------------------

NO_SIX = ["1/1", "2/2", "3/3", "4/4", "5/5", "+/+", "-/-", "x/x", "1/4"]


def test_D4_draw_until_playable(kit):
    rnd = kit.make_round([["6/6"], NO_SIX], pile=["1/2", "1/3", "6/5"])
    kit.run(rnd, ["6/6"])
    assert rnd.turn == 1 and rnd.legal_actions() == [DRAW]
    with pytest.raises(IllegalMoveError, match="must draw"):
        rnd.apply(PASS)
    drawn = []
    for _ in range(3):
        assert rnd.legal_actions() == [DRAW] and rnd.turn == 1
        drawn += [e.tile for e in rnd.apply(DRAW) if isinstance(e, Drew)]
    assert drawn == [T("1/2"), T("1/3"), T("6/5")]
    assert rnd.turn == 1 and rnd.pile_count == 24
    assert {(m.tile, m.end) for m in rnd.legal_actions()} == {(T("6/5"), "L"), (T("6/5"), "R")}
    with pytest.raises(IllegalMoveError, match="fits"):
        rnd.apply(DRAW)
    with pytest.raises(IllegalMoveError, match="fits"):
        rnd.apply(PASS)
    kit.run(rnd, ["6/5 R"])
    assert rnd.turn == 0
    turn = rnd.turns[1]
    assert turn["player"] == 1 and turn["play"] == {"tile": "6/5", "end": "R"}
    assert [T(t) for t in turn["drew"]] == [T("1/2"), T("1/3"), T("6/5")]


def test_D4_draw_one(kit):
    rnd = kit.make_round([["6/6"], NO_SIX], pile=["1/2", "6/5"], rules=HouseRules(draw="one"))
    kit.run(rnd, ["6/6", "draw"])
    assert rnd.turn == 1 and rnd.legal_actions() == [PASS]
    with pytest.raises(IllegalMoveError, match="nothing left to draw"):
        rnd.apply(DRAW)
    events = rnd.apply(PASS)
    assert events_of(events, Passed)[0].seat == 1
    assert rnd.turn == 0 and rnd.pile_count == 26


def test_1_5_pass_only_when_nothing_fits_and_nothing_to_draw(kit):
    # five players: no pile, so a player without a 6 passes at once
    rnd = kit.make_round([["6/6", "6/1"], NO_SIX, [], [], []])
    kit.run(rnd, ["6/6"])
    assert rnd.legal_actions() == [PASS]
    with pytest.raises(IllegalMoveError, match="nothing left to draw"):
        rnd.apply(DRAW)


# --- 1.6 Power plays -----------------------------------------------------------------------

# (played, other end tile, gain, loss): every seed example of the effect table, D-5, D-6.
SEED_EXAMPLES = [
    ("5/x", "6/6", 60, 0),    # item 2: x/n, 5 · 12
    ("+/6", "3/6", 15, 0),    # item 4: +/n, 6 + 9
    ("-/6", "3/6", 0, 15),    # item 7: -/n, 6 + 9
    ("x/x", "3/4", 49, 0),    # item 3: square, 7 · 7
    ("+/+", "4/5", 18, 0),    # item 5: 2 · 9
    ("-/-", "4/5", 0, 18),    # item 6: 2 · 9
    ("+/-", "4/5", 9, 9),     # item 8
    ("x/+", "6/6", 24, 0),    # item 1 read as x/+ (D-5): 12 + 12
    ("x/-", "4/5", 9, 9),     # item 9 read as x/- (D-6)
]


@pytest.mark.parametrize("played, other, gain, loss", SEED_EXAMPLES)
def test_1_6_seed_examples_power_effect(played, other, gain, loss):
    assert power_effect(played, other) == (gain, loss)
    assert power_effect(T(played), T(other)) == (gain, loss)


# The same examples through a real round: (script, seat, rule, n, T, T tile, gain, loss).
ROUND_EXAMPLES = [
    (["6/6", "6/5 R", "5/x R"], 0, "x/n", 5, 12, "6/6", 60, 0),
    (["6/6", "6/3 L", "6/+ R"], 0, "+/n", 6, 9, "3/6", 15, 0),
    (["6/6", "6/3 L", "6/- R"], 0, "-/n", 6, 9, "3/6", 0, 15),
    (["6/6", "6/1 L", "6/x R", "x/x R"], 1, "x/x", 0, 7, "1/6", 49, 0),
    (["6/6", "6/3 L", "6/+ R", "+/+ R"], 1, "+/+", 0, 9, "3/6", 18, 0),
    (["6/6", "6/3 L", "6/- R", "-/- R"], 1, "-/-", 0, 9, "3/6", 0, 18),
    (["6/6", "6/3 L", "6/+ R", "+/- R"], 1, "+/-", 0, 9, "3/6", 9, 9),
    (["6/6", "6/+ R", "+/x R"], 0, "x/+", 0, 12, "6/6", 24, 0),
    (["6/6", "6/3 L", "6/- R", "-/x R"], 1, "x/-", 0, 9, "3/6", 9, 9),
]


@pytest.mark.parametrize("script, seat, rule, n, t, t_tile, gain, loss", ROUND_EXAMPLES,
                         ids=[r[2] for r in ROUND_EXAMPLES])
def test_1_6_seed_examples_in_a_round(kit, script, seat, rule, n, t, t_tile, gain, loss):
    rnd = chain_round(kit, script)
    events = kit.run(rnd, script)
    eff = events_of(events, PowerEffect)[-1]
    assert eff.seat == seat and eff.target == rnd.right_of(seat) == 1 - seat
    assert eff.tile == T(script[-1].split()[0])
    assert (eff.rule, eff.n, eff.t, eff.t_tile, eff.gain, eff.loss) == \
        (rule, n, t, T(t_tile), gain, loss)
    assert not eff.neutralized
    # effects count at once, and the totals are the sum of every effect so far
    effects = events_of(events, PowerEffect)
    assert rnd.gains == [sum(e.gain for e in effects if e.seat == s) for s in (0, 1)]
    assert rnd.losses == [sum(e.loss for e in effects if e.target == s) for s in (0, 1)]


def test_1_6_two_power_tiles_at_the_ends_30(kit):
    assert power_effect("+/-", "x/3") == (30, 30)
    assert power_effect("x/x", "-/-") == (30, 30)
    assert power_effect("+/6", "6/x") == (30, 30)
    script = ["6/6", "6/x L", "6/+ R"]
    rnd = chain_round(kit, script)
    events = kit.run(rnd, script)
    first, second = events_of(events, PowerEffect)
    assert (first.rule, first.gain, first.t) == ("x/n", 72, 12)  # x/6 against 6/6
    assert second.seat == 0 and second.target == 1 and second.t_tile == T("x/6")
    assert (second.rule, second.gain, second.loss) == ("power-vs-power", 30, 30)
    assert rnd.gains == [30, 72] and rnd.losses == [0, 30]


def test_1_6_power_tile_at_the_same_end_does_not_count(kit):
    # the power tile at the end where the new tile goes is not "the other end"
    script = ["6/6", "6/x R", "x/+ R"]
    rnd = chain_round(kit, script)
    eff = events_of(kit.run(rnd, script), PowerEffect)[-1]
    assert (eff.rule, eff.t_tile, eff.gain) == ("x/+", T("6/6"), 24)


def test_1_6_neutralized_opening_any_tile(kit):
    assert power_effect("x/5", None) == (0, 0)
    rnd = kit.make_round([[], ["x/5"]], starter=1, opening="any")
    assert rnd.turn == 1
    events = kit.run(rnd, ["x/5"])
    eff = events_of(events, PowerEffect)[0]
    assert eff.neutralized and eff.rule == "neutralized"
    assert (eff.gain, eff.loss, eff.t, eff.t_tile) == (0, 0, None, None)
    assert rnd.gains == [0, 0] and rnd.losses == [0, 0]


def test_1_6_neutralized_opening_heaviest_power_tile_D2(kit):
    # no numeric double dealt, and the heaviest tile (D-2) is x/6: (6, 6) beats 1/5 (6, 5)
    rnd = kit.make_round([["x/6", "1/2", "1/3", "1/4", "1/5", "2/3", "2/4", "+/+", "-/-"],
                          ["+/1", "+/2", "+/3", "-/1", "-/2", "-/3", "x/1", "x/2", "x/3"]])
    assert rnd.turn == 0 and rnd.legal_actions() == [Play(T("x/6"))]
    eff = events_of(kit.run(rnd, ["x/6"]), PowerEffect)[0]
    assert eff.neutralized and (eff.gain, eff.loss) == (0, 0)


def _reference_effect(tile: Tile, t: int) -> tuple[int, int]:
    """The §1.6 table, written out independently of the engine."""
    halves = sorted([tile.a, tile.b], key=str)
    syms = [h for h in halves if isinstance(h, str)]
    nums = [h for h in halves if isinstance(h, int)]
    if len(syms) == 1:
        n = nums[0]
        return {"x": (n * t, 0), "+": (n + t, 0), "-": (0, n + t)}[syms[0]]
    pair = frozenset(syms)
    table = {
        frozenset("x"): (t * t, 0), frozenset("+"): (2 * t, 0), frozenset("-"): (0, 2 * t),
        frozenset("+-"): (t, t), frozenset("x+"): (t + t, 0), frozenset("x-"): (t, t),
    }
    return table[pair]


def test_D5_D6_every_power_tile_has_exactly_one_rule():
    power = [t for t in LEONARD.tiles if t.is_power]
    basic = [t for t in LEONARD.tiles if not t.is_power]
    assert len(power) == 24
    for p in power:
        for b in basic:
            assert power_effect(p, b) == _reference_effect(p, total(b)), (p, b)
            assert power_effect(p.flipped(), b.flipped()) == power_effect(p, b)
        for q in power:
            assert power_effect(p, q) == (30, 30)
    for b in basic:
        for c in basic:
            assert power_effect(b, c) == (0, 0)


def test_D5_x_plus_reading():
    # seed item 1, printed "X/2": × multiplies the other end by 1, + adds it again
    for other in ["6/6", "4/5", "1/2"]:
        t = total(T(other))
        assert power_effect("x/+", other) == (1 * t + t, 0)


def test_D6_x_minus_reading():
    # seed item 9, printed "x/.": 1·T gained, 1·T lost by the right-hand player
    for other in ["6/6", "4/5", "1/2"]:
        t = total(T(other))
        assert power_effect("x/-", other) == (t, t)


# --- 1.7 Passes ----------------------------------------------------------------------------

ALL_SIXES = ["6/6", "6/1", "6/2", "6/3", "6/4", "6/5", "6/+", "6/-", "6/x"]


def test_1_7_paso_a_la_salida(kit):
    # five players: seat 0 opens 6/6; seat 1 holds no 6 and there is no pile
    rnd = kit.make_round([["6/6"], NO_SIX, ["6/1"], [], []])
    events = kit.run(rnd, ["6/6", "pass"])
    assert bonuses(events) == [(0, "paso-a-la-salida", 20)]
    assert rnd.gains == [20, 0, 0, 0, 0]
    events = kit.run(rnd, ["6/1 R"])
    assert bonuses(events) == []


def test_1_7_paso_a_la_salida_after_drawing_D4_one(kit):
    rnd = kit.make_round([["6/6", "1/2", "1/3", "1/5", "2/3", "2/4", "2/5", "3/4", "3/5"],
                          NO_SIX], pile=["+/1"], rules=HouseRules(draw="one"))
    events = kit.run(rnd, ["6/6", "draw", "pass"])
    # seat 0 holds no 6 and no + either, so it cannot play on: no paso corrido
    assert bonuses(events) == [(0, "paso-a-la-salida", 20)]


def test_1_7_no_paso_a_la_salida_for_a_later_pass(kit):
    no_six_no_one = ["2/2", "3/3", "4/4", "5/5", "+/+", "-/-", "x/x", "2/3", "4/5"]
    rnd = kit.make_round([["6/6"], ["6/1"], no_six_no_one, [], []])
    events = kit.run(rnd, ["6/6", "6/1 R", "pass"])
    assert bonuses(events) == []


def test_1_7_paso_corrido(kit):
    # seat 3 closes both ends on 6 and holds every six left; seats 4, 0, 1, 2 hold none
    rnd = kit.make_round([["6/6"], ["6/1"], ["1/2"],
                          ["2/6", "6/3", "6/4", "6/5", "6/+", "6/-", "6/x"], []])
    events = kit.run(rnd, ["6/6", "6/1 L", "1/2 L", "2/6 L"])
    assert rnd.ends == (6, 6)
    events = kit.run(rnd, ["pass", "pass", "pass"])
    assert bonuses(events) == []
    events = kit.run(rnd, ["pass"])
    assert bonuses(events) == [(3, "paso-corrido", 20)]
    assert rnd.turn == 3 and rnd.gains == [0, 0, 0, 20, 0]
    kit.run(rnd, ["6/3 R"])  # then plays again


def test_1_7_two_players_every_pass_back_to_a_player_who_can_play_is_paso_corrido(kit):
    rnd = kit.make_round([["6/6", "6/5"], NO_SIX], pile=["1/2"],
                         rules=HouseRules(draw="one"))
    kit.run(rnd, ["6/6"])
    events = kit.run(rnd, ["draw", "pass"])
    # on the opening tile: both (D-7)
    assert bonuses(events) == [(0, "paso-a-la-salida", 20), (0, "paso-corrido", 20)]


def test_D7_both_pass_bonuses(kit):
    rnd = kit.make_round([ALL_SIXES, NO_SIX, [], [], []])
    events = kit.run(rnd, ["6/6", "pass", "pass", "pass", "pass"])
    assert bonuses(events) == [(0, "paso-a-la-salida", 20), (0, "paso-corrido", 20)]
    assert rnd.gains[0] == 40 and rnd.turn == 0


def test_D7_both_pass_bonuses_false(kit):
    rnd = kit.make_round([ALL_SIXES, NO_SIX, [], [], []],
                         rules=HouseRules(both_pass_bonuses=False))
    events = kit.run(rnd, ["6/6", "pass", "pass", "pass", "pass"])
    assert bonuses(events) == [(0, "paso-a-la-salida", 20)]
    assert rnd.gains[0] == 20 and rnd.turn == 0


def test_1_7_four_players_paso_a_la_salida_after_the_table_tile(kit):
    ones = ["1/1", "1/2", "1/3", "1/4", "1/6", "1/+", "1/-", "1/x"]
    fives = ["5/1", "5/2", "5/3", "5/4", "5/6", "5/+", "5/-", "5/x"]
    rnd = kit.make_round([[], [], ones, fives], table="5/5", starter=2)
    assert rnd.turn == 2 and rnd.legal_actions() == [PASS]
    events = kit.run(rnd, ["pass"])  # the starter cannot play: no opening yet, no bonus
    assert bonuses(events) == []
    events = kit.run(rnd, ["5/1 R"])
    assert events_of(events, Placed)[0].opening
    events = kit.run(rnd, ["pass"])
    assert bonuses(events) == [(3, "paso-a-la-salida", 20)]


# --- 1.8 End of a round --------------------------------------------------------------------

# Seat 0 opens 6/6 and plays every other tile; the line grows at R. Seat 1 keeps a filler.
K_CHAIN = ["6/6", "6/5 R", "5/5 R", "5/4 R", "4/4 R", "4/3 R", "3/3 R", "3/2 R", "2/2 R",
           "2/1 R", "1/1 R", "1/3 R", "3/5 R", "5/1 R", "1/4 R", "4/2 R"]


def test_1_8_domino(kit):
    script = [*K_CHAIN, "2/5 R"]  # 2/5 matches the 2 only: no capicúa
    rnd = chain_round(kit, script, extra={1: ["6/3"]})
    events = kit.run(rnd, script)
    end = rnd.result
    assert isinstance(end, RoundEnded) and events[-1] == end
    assert (end.reason, end.winner, end.capicua) == ("domino", 0, "")
    assert end.hand_totals == (0, 9)
    assert bonuses(events) == [(0, "domino", 9)]
    assert end.gains == (9, 0) and end.losses == (0, 0) and end.scores == (9, 0)
    assert rnd.legal_actions() == []
    with pytest.raises(IllegalMoveError, match="over"):
        rnd.apply(Play(T("6/3"), "L"))


def test_1_8_capicua_K(kit):
    script = [*K_CHAIN, "2/6 R"]  # fits the 2 at R and the 6 at L
    rnd = chain_round(kit, script, extra={1: ["6/3"]})
    events = kit.run(rnd, script)
    end = rnd.result
    assert (end.reason, end.winner, end.capicua) == ("domino", 0, "K")
    assert bonuses(events) == [(0, "capicua", 20), (0, "domino", 9)]
    assert [b.detail for b in events_of(events, Bonus) if b.kind == "capicua"] == ["K"]
    assert end.gains == (29, 0)


def test_1_8_capicua_KP(kit):
    script = [*K_CHAIN[:-1], "4/+ R", "+/6 R"]
    rnd = chain_round(kit, script, extra={1: ["6/3"]})
    events = kit.run(rnd, script)
    end = rnd.result
    assert (end.reason, end.winner, end.capicua) == ("domino", 0, "KP")
    last = events_of(events, PowerEffect)
    assert [(e.seat, e.rule, e.gain, e.loss) for e in last] == [
        (1, "+/n", 4 + 12, 0),   # 4/+ against 6/6
        (0, "+/n", 6 + 12, 0),   # the capicúa's own effect counts as usual
    ]
    assert bonuses(events) == [(0, "capicua", 20), (0, "domino", 9)]
    assert end.gains == (18 + 20 + 9, 16)


CHAIN_POWER_END = [*K_CHAIN[:13], "5/1 R", "1/+ R", "+/2 R", "2/6 R"]


def test_D8_end_tiles(kit):
    # the last tile 2/6 is basic, the end tile it closes (+/2) is a power tile
    rnd = chain_round(kit, CHAIN_POWER_END, extra={1: ["6/3"]})
    kit.run(rnd, CHAIN_POWER_END)
    assert rnd.result.capicua == "K"  # default D-8: by the last tile alone
    rnd = chain_round(kit, CHAIN_POWER_END, extra={1: ["6/3"]},
                      rules=HouseRules(capicua_kind="end-tiles"))
    kit.run(rnd, CHAIN_POWER_END)
    assert rnd.result.capicua == "KP"


def test_D1_symbol_value_changes_hand_totals(kit):
    script = [*K_CHAIN, "2/5 R"]
    for value in (0, 1, 5):
        rnd = chain_round(kit, script, extra={1: ["x/3"]}, rules=HouseRules(symbol_value=value))
        events = kit.run(rnd, script)
        assert rnd.result.hand_totals == (0, 3 + value)
        assert bonuses(events) == [(0, "domino", 3 + value)]


def _check_tranque(rnd: Round, symbol_value: int = 0) -> None:
    """Independent check of §1.8's tranque: blocked, pile empty, totals, lowest."""
    end = rnd.result
    assert end.reason == "tranque"
    assert rnd.pile_count == 0
    ends = set(rnd.ends)
    for s in range(rnd.players):
        assert not any({t.a, t.b} & ends for t in rnd.hand(s))
    totals = tuple(sum(total(t, symbol_value) for t in rnd.hand(s)) for s in range(rnd.players))
    assert end.hand_totals == totals


def _find_round(players: int, rules: HouseRules, want, seeds=range(4000)) -> Round:
    for seed in seeds:
        rng = random.Random(seed)
        rnd = random_round(Round.deal(LEONARD_VARIANT, rules, players, rng), rng)
        if want(rnd):
            return rnd
    raise AssertionError("no such round found")


def test_1_8_tranque(kit):
    for players in (2, 3, 4, 5):
        rnd = _find_round(players, HouseRules(), lambda r: r.result.reason == "tranque"
                          and r.result.winner is not None)
        _check_tranque(rnd)
        end = rnd.result
        low = min(end.hand_totals)
        assert end.hand_totals.count(low) == 1 and end.hand_totals[end.winner] == low
        tranque = [b for b in events_of(rnd.log, Bonus) if b.kind == "tranque"]
        assert [(b.seat, b.points) for b in tranque] == \
            [(end.winner, sum(end.hand_totals) - low)]


def test_1_8_tranque_ends_at_once_after_a_placement():
    rnd = _find_round(5, HouseRules(), lambda r: r.result.reason == "tranque"
                      and isinstance([e for e in r.log if not isinstance(e, Bonus)][-2], Placed))
    _check_tranque(rnd)
    # nobody passed round the table to find it out; no paso corrido was scored for it
    last_placed = max(i for i, e in enumerate(rnd.log) if isinstance(e, Placed))
    tail = rnd.log[last_placed + 1:]
    assert not events_of(tail, Passed)
    assert all(b.kind == "tranque" for b in events_of(tail, Bonus))


def test_1_8_tranque_after_a_pass_with_the_pile_drawn():
    rnd = _find_round(2, HouseRules(), lambda r: r.result.reason == "tranque"
                      and isinstance([e for e in r.log if not isinstance(e, Bonus)][-2], Passed))
    _check_tranque(rnd)


def test_1_8_power_tile_that_made_the_tranque_keeps_its_effect():
    def want(r: Round) -> bool:
        placed = [e for e in r.log if isinstance(e, Placed)]
        last = [e for e in r.log if not isinstance(e, (Bonus, RoundEnded))][-1]
        return r.result.reason == "tranque" and isinstance(last, PowerEffect) \
            and placed[-1].tile.is_power and (last.gain or last.loss)
    rnd = _find_round(4, HouseRules(), want)
    _check_tranque(rnd)
    eff = [e for e in rnd.log if isinstance(e, PowerEffect)][-1]
    effects = events_of(rnd.log, PowerEffect)
    bonus = events_of(rnd.log, Bonus)
    for s in range(rnd.players):
        assert rnd.result.gains[s] == sum(e.gain for e in effects if e.seat == s) + \
            sum(b.points for b in bonus if b.seat == s)
        assert rnd.result.losses[s] == sum(e.loss for e in effects if e.target == s)
    assert eff.gain or eff.loss


def _tied(r: Round) -> bool:
    end = r.result
    if end.reason != "tranque":
        return False
    low = min(end.hand_totals)
    return end.hand_totals.count(low) >= 2 and end.hand_totals.count(low) < r.players


@pytest.mark.parametrize("players", [3, 4, 5])
def test_D9_tranque_tie_nobody(players):
    rnd = _find_round(players, HouseRules(), _tied)
    _check_tranque(rnd)
    assert rnd.result.winner is None
    assert [b for b in events_of(rnd.log, Bonus) if b.kind == "tranque"] == []


@pytest.mark.parametrize("players", [3, 4, 5])
def test_D9_tranque_tie_split(players):
    rnd = _find_round(players, HouseRules(tranque_tie="split"), _tied)
    _check_tranque(rnd)
    end = rnd.result
    low = min(end.hand_totals)
    lowest = [s for s, v in enumerate(end.hand_totals) if v == low]
    others = sum(v for v in end.hand_totals if v != low)
    tranque = [(b.seat, b.points) for b in events_of(rnd.log, Bonus) if b.kind == "tranque"]
    assert end.winner is None
    assert tranque == [(s, others // len(lowest)) for s in lowest]


# --- 1.9 Match / D-10 ----------------------------------------------------------------------

def _play_match(match: Match, rng: random.Random) -> list:
    events = []
    while True:
        rnd = match.current
        while not rnd.over:
            events += match.apply(rng.choice(rnd.legal_actions()))
        if match.over:
            return events
        match.start_round()


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_1_9_match_scores(players):
    for seed in range(12):
        match = Match("leonard", players, seed=seed)
        events = _play_match(match, random.Random(seed))
        ended = [e for e in events if isinstance(e, MatchEnded)]
        assert len(ended) == 1 and events[-1] == ended[0] == match.match_end
        results = [r.result for r in match.rounds]
        scores = tuple(sum(res.gains[s] - res.losses[s] for res in results)
                       for s in range(players))
        assert ended[0].scores == scores == tuple(match.scores)
        best = max(scores)
        assert ended[0].winners == tuple(s for s in range(players) if scores[s] == best)
        with pytest.raises(IllegalMoveError):
            match.start_round()


def test_1_9_scores_may_be_negative():
    for seed in range(200):
        match = Match("leonard", 5, seed=seed)
        _play_match(match, random.Random(seed))
        if min(match.scores) < 0:
            return
    pytest.fail("no negative match score in 200 matches")


def test_D10_default_three_rounds():
    assert HouseRules().rounds == 3
    match = Match("leonard", 2, seed=3)
    _play_match(match, random.Random(3))
    assert len(match.rounds) == 3 and [r.number for r in match.rounds] == [1, 2, 3]
    match = Match("leonard", 2, HouseRules(rounds=1), seed=3)
    _play_match(match, random.Random(3))
    assert len(match.rounds) == 1
    with pytest.raises(RulesError):
        HouseRules(rounds=0)


def test_1_9_next_round_only_after_the_current_one():
    match = Match("leonard", 2, seed=1)
    with pytest.raises(IllegalMoveError):
        match.start_round()


# --- errors --------------------------------------------------------------------------------

def test_errors_tile_text():
    with pytest.raises(TileError) as e:
        parse_tile("7/x")
    assert str(e.value) == "'7/x' is not a Leonard tile: halves are 1–6, +, -, x"
    assert isinstance(e.value, ValueError)
    for bad in ["", "55", "5/", "a/b", "1/2/3", "0/1"]:
        with pytest.raises(TileError):
            parse_tile(bad)
    with pytest.raises(TileError):
        parse_tile("x/1", DOUBLE_SIX)


def test_errors_not_your_turn(kit):
    rnd = kit.make_round([["6/6"], ["6/5"]])
    before = kit.snapshot(rnd)
    with pytest.raises(IllegalMoveError) as e:
        rnd.apply(Play(T("6/6")), seat=1)
    assert "not seat 1's turn" in str(e.value) and "seat 0" in str(e.value)
    assert kit.snapshot(rnd) == before


def test_errors_not_in_hand(kit):
    rnd = kit.make_round([["6/6", "6/1"], ["6/5"]])
    kit.run(rnd, ["6/6"])
    before = kit.snapshot(rnd)
    with pytest.raises(IllegalMoveError) as e:
        rnd.apply(Play(T("6/1"), "R"), seat=1)
    msg = str(e.value)
    assert "6/1" in msg and "end R" in msg and "not in seat 1's hand" in msg
    assert kit.snapshot(rnd) == before


def test_errors_does_not_match(kit):
    rnd = kit.make_round([["6/6", "6/1"], ["6/5", "4/3"]])
    kit.run(rnd, ["6/6", "6/5 R"])
    kit.run(rnd, ["6/1 L"])
    before = kit.snapshot(rnd)
    with pytest.raises(IllegalMoveError) as e:
        rnd.apply(Play(T("4/3"), "L"))
    msg = str(e.value)
    assert "4/3" in msg and "end L" in msg and "does not match the open 1" in msg
    assert kit.snapshot(rnd) == before


def test_errors_other_illegal_actions_change_nothing(kit):
    rnd = kit.make_round([["6/6", "6/1"], ["6/5"]])
    cases = [Play(T("6/6"), "L"), Play(T("6/1")), DRAW, PASS, "6/6", Play(Tile(7, 7))]
    for bad in cases:
        before = kit.snapshot(rnd)
        with pytest.raises(IllegalMoveError):
            rnd.apply(bad)  # type: ignore[arg-type]
        assert kit.snapshot(rnd) == before
    kit.run(rnd, ["6/6"])
    for bad in [Play(T("6/5")), Play(T("6/5"), "M"), PASS]:  # type: ignore[arg-type]
        before = kit.snapshot(rnd)
        with pytest.raises(IllegalMoveError):
            rnd.apply(bad)
        assert kit.snapshot(rnd) == before


def test_errors_deal(kit):
    hands, pile = kit.complete_deal([["6/6"], ["6/5"]])
    Round.from_deal(LEONARD_VARIANT, HouseRules(), hands, pile)  # the complete deal is fine
    dup = [list(hands[0]), list(hands[1])]
    dup[1][1] = dup[0][1]
    with pytest.raises(DealError, match="dealt twice"):
        Round.from_deal(LEONARD_VARIANT, HouseRules(), dup, pile)
    with pytest.raises(DealError, match="holds 8 tiles"):
        Round.from_deal(LEONARD_VARIANT, HouseRules(), [hands[0][:8], hands[1]],
                        [hands[0][8], *pile])
    with pytest.raises(DealError, match="all 45 tiles"):
        Round.from_deal(LEONARD_VARIANT, HouseRules(), hands, pile[:-1])
    with pytest.raises(DealError, match="7/7"):
        Round.from_deal(LEONARD_VARIANT, HouseRules(), hands, [*pile[:-1], "7/7"])
    with pytest.raises(DealError, match="is not a Leonard tile"):
        Round.from_deal(LEONARD_VARIANT, HouseRules(), [["0/1", *hands[0][1:]], hands[1]],
                        pile)
    with pytest.raises(DealError, match="6 players|not 6"):
        Round.from_deal(LEONARD_VARIANT, HouseRules(), [hands[0]] * 6, pile)
    with pytest.raises(DealError, match="starter"):
        Round.from_deal(LEONARD_VARIANT, HouseRules(), hands, pile, starter=2)


def test_errors_house_rules():
    with pytest.raises(RulesError, match="draw"):
        HouseRules(draw="never")  # type: ignore[arg-type]
    with pytest.raises(RulesError, match="unknown house rule"):
        HouseRules.from_dict({"spinners": True})
    assert HouseRules.from_dict(HouseRules(opener="rotate").to_dict()) == \
        HouseRules(opener="rotate")


# --- block variant (double-six, 2–4 players, 7 each, no pile, no power) ---------------------

@pytest.mark.parametrize("players", [2, 3, 4])
def test_block_deal_and_highest_double_opens(players):
    for seed in range(30):
        rnd = Round.deal(BLOCK_VARIANT, HouseRules(), players, random.Random(seed))
        assert rnd.hand_sizes == [7] * players and rnd.pile_count == 0
        assert rnd.log[0].table is None
        doubles = [(t.a, s, t) for s in range(players) for t in rnd.hand(s) if t.is_double]
        if doubles:
            _, seat, tile = max(doubles)
            assert rnd.turn == seat and rnd.legal_actions() == [Play(tile)]


def test_block_players_2_to_4():
    with pytest.raises(RulesError):
        Round.deal(BLOCK_VARIANT, HouseRules(), 5, random.Random(0))
    with pytest.raises(DealError):
        Round.from_deal(BLOCK_VARIANT, HouseRules(), [["0/0"] * 7] * 5)


def test_block_cannot_play_means_pass(kit):
    rnd = kit.make_round([["6/6"], ["0/0", "0/1", "0/2", "1/1", "1/2", "2/2", "0/3"]],
                         variant=BLOCK_VARIANT)
    kit.run(rnd, ["6/6"])
    assert rnd.legal_actions() == [PASS]
    events = kit.run(rnd, ["pass"])
    assert bonuses(events) == []  # no pass bonus in the block game


def test_block_domino_scoring_no_capicua_no_power(kit):
    script = ["6/6", "6/5 R", "5/5 R", "5/4 R", "4/4 R", "4/3 R", "3/3 R", "3/2 R", "2/2 R",
              "2/1 R", "1/1 R", "1/0 R", "0/6 R"]  # 0/6 fits both ends: no capicúa here
    hands: list[list[str]] = [[], ["5/3"]]
    for k, text in enumerate(script):
        hands[k % 2].append(text.split()[0])
    rnd = kit.make_round(hands, variant=BLOCK_VARIANT)
    events = kit.run(rnd, script)
    end = rnd.result
    assert (end.reason, end.winner, end.capicua) == ("domino", 0, "")
    assert end.hand_totals == (0, 8)
    assert bonuses(events) == [(0, "domino", 8)]
    assert events_of(events, PowerEffect) == []
    assert end.gains == (8, 0)


BLOCK_TRANQUE = ["6/6", "6/5 R", "5/4 R"]


def test_block_tranque_scoring(kit):
    rnd = kit.make_round([["6/6", "5/4", "0/0", "0/1", "1/1", "0/2", "1/2"],
                          ["6/5", "2/2", "0/3", "1/3", "2/3", "3/3", "0/5"]],
                         variant=BLOCK_VARIANT)
    events = kit.run(rnd, BLOCK_TRANQUE)
    end = rnd.result
    assert rnd.ends == (6, 4)
    assert (end.reason, end.winner, end.hand_totals) == ("tranque", 0, (8, 27))
    assert bonuses(events) == [(0, "tranque", 27)]


@pytest.mark.parametrize("tie, gains", [("nobody", (0, 0)), ("split", (0, 0))])
def test_block_D9_tranque_tie(kit, tie, gains):
    rnd = kit.make_round([["6/6", "5/4", "0/0", "0/1", "0/2", "3/5", "5/5"],
                          ["6/5", "0/3", "0/5", "1/1", "1/2", "1/3", "2/2"]],
                         variant=BLOCK_VARIANT, rules=HouseRules(tranque_tie=tie))
    kit.run(rnd, BLOCK_TRANQUE)
    end = rnd.result
    assert (end.reason, end.winner, end.hand_totals) == ("tranque", None, (21, 21))
    assert end.gains == gains


def test_D10_D1_reject_true_false_as_numbers():
    """D-10 rounds and D-1 symbol_value are whole numbers; true/false is a teacher's typo."""
    import pytest

    from engine import HouseRules, RulesError

    with pytest.raises(RulesError, match="rounds"):
        HouseRules(rounds=True)
    with pytest.raises(RulesError, match="symbol_value"):
        HouseRules(symbol_value=False)


@pytest.mark.parametrize("n,count", [(6, 28), (9, 55), (15, 136)])
def test_1_1_double_n_sets_and_their_notation(n, count):
    """Part 1: the double-six, -nine and -fifteen sets, text notation both ways."""
    from engine import DOUBLE_FIFTEEN, DOUBLE_NINE, DOUBLE_SIX, TileError, double_n

    ts = {6: DOUBLE_SIX, 9: DOUBLE_NINE, 15: DOUBLE_FIFTEEN}[n]
    assert len(ts) == count == len(double_n(n)) == (n + 1) * (n + 2) // 2
    assert all(ts.parse(str(t)) == t and str(ts.parse(str(t))) == str(t) for t in ts.tiles)
    assert str(ts.parse(f" {n} | 0 ")) == f"{n}/0"
    with pytest.raises(TileError, match=f"is not a {ts.name} tile: halves are 0–{n}"):
        ts.parse(f"{n + 1}/0")
    with pytest.raises(TileError):
        ts.parse("x/3")
