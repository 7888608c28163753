"""All fives (a house game, engine/variants/fives.py), the game added as one unit (issue 46
part 3): after each placement the open ends are added up, a double at an end counting both
halves (the first tile alone: its two halves), and a sum that is a multiple of five scores
at once for the player who placed the tile; the game's own event (``Fives``) shows the sum,
its own bonus kind (``fives``) pays it, ``F`` on the score sheet.

Rounds come from seeds; which placements score, and what, is worked out here from the
placements alone (a line of tiles kept by this test), independently of the engine."""

from __future__ import annotations

import random

import pytest

from engine import VARIANTS, Bonus, HouseRules, Match, Placed, Round, ScoreSheet, Tile
from engine.bots import make_bot, play_match
from engine.events import GameEvent
from engine.game_file import replay
from engine.variants.fives import FIVES_VARIANT, Fives

GAME = VARIANTS["fives"]


def ends_sum(line: list[Tile]) -> tuple[int, int]:
    """What each end of ``line`` (tiles as placed, left to right, each written with its
    left half first) counts: its outer half, twice for a double; one tile: its halves."""
    if len(line) == 1:
        return int(line[0].a), int(line[0].b)
    left, right = line[0], line[-1]
    return (int(left.a) * (2 if left.a == left.b else 1),
            int(right.b) * (2 if right.a == right.b else 1))


def expected_fives(log: list) -> list[tuple[int, int, int, int]]:
    """(seat, left, right, total) for each placement of ``log`` that leaves the ends at a
    multiple of five, from the placements alone."""
    line: list[Tile] = []
    out = []
    for ev in log:
        if not isinstance(ev, Placed):
            continue
        t = ev.tile  # the matched half first
        if ev.end is None:
            line = [t]
        elif ev.end == "L":
            line.insert(0, Tile(t.b, t.a))
        else:
            line.append(t)
        left, right = ends_sum(line)
        if (left + right) % 5 == 0 and left + right:
            out.append((ev.seat, left, right, left + right))
    return out


def played(seed: int, players: int) -> Round:
    rng = random.Random(seed)
    rnd = Round.deal(GAME, HouseRules(), players, rng)
    while not rnd.over:
        moves = rnd.legal_actions()
        rnd.apply(moves[int(rng.random() * len(moves))])
    return rnd


def test_the_registry_found_the_module_by_itself():
    assert GAME is FIVES_VARIANT and list(VARIANTS)[-1] == "fives"
    assert (GAME.tileset.tiles[-1], GAME.pile, GAME.power) == (Tile(6, 6), True, False)
    assert issubclass(Fives, GameEvent)
    for players, size in ((2, 7), (3, 5), (4, 5)):
        rnd = Round.deal(GAME, HouseRules(), players, random.Random(players))
        assert rnd.hand_sizes == [size] * players and rnd.pile_count == 28 - size * players


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_ends_score_when_they_add_up_to_a_multiple_of_five(players):
    """Every placement leaving the ends at a multiple of five logs ``Fives`` with the
    ends' counts, then a ``fives`` bonus of the sum to the placer; no other placement does;
    the round's gains are those bonuses plus the hand count."""
    scored = 0
    for seed in range(40):
        rnd = played(seed, players)
        events = [(e.seat, e.left, e.right, e.total) for e in rnd.log if isinstance(e, Fives)]
        assert events == expected_fives(rnd.log)
        bonuses = [b for b in rnd.log if isinstance(b, Bonus) and b.kind == "fives"]
        assert [(b.seat, b.points) for b in bonuses] == [(s, t) for s, _, _, t in events]
        for i, ev in enumerate(rnd.log):  # the bonus right after the event that shows it
            if isinstance(ev, Fives):
                assert rnd.log[i + 1] == Bonus(ev.seat, "fives", ev.total)
        end = rnd.ended
        for seat in range(players):
            paid = sum(b.points for b in rnd.log if isinstance(b, Bonus) and b.seat == seat)
            assert end.gains[seat] == paid
        scored += len(events)
    assert scored >= 20


def test_a_double_at_an_end_counts_both_halves():
    """5/5 opens (10: scores), 5/0 on it leaves 5/5 at one end and a 0 at the other (10:
    scores); 0/3 then leaves 10 + 3 (no score)."""
    hands = [["5/5", "0/3", "1/2", "1/3", "1/4", "2/3", "2/4"],
             ["5/0", "6/6", "0/1", "0/2", "3/4", "3/6", "4/6"]]
    dealt = [GAME.tileset.parse(t) for hand in hands for t in hand]
    pile = [t for t in GAME.tileset.tiles if t not in dealt]
    rnd = Round.from_deal(GAME, HouseRules(), hands, pile=pile, starter=0, opening="any")
    rnd.apply(rnd.parse_move("5/5"))
    rnd.apply(rnd.parse_move("5/0 R"))
    rnd.apply(rnd.parse_move("0/3 R"))
    assert [(e.left, e.right, e.total) for e in rnd.log if isinstance(e, Fives)] == \
        [(5, 5, 10), (10, 0, 10)]
    assert rnd.gains == [10, 10]


def test_a_seeded_match_replays_and_its_sheet_marks_the_fives():
    bots = [make_bot("greedy", 1), make_bot("random", 2), make_bot("greedy", 3)]
    match = play_match(Match("fives", 3, HouseRules(rounds=3), seed=5), bots)
    assert match.over and len(match.rounds) == 3
    again = replay(match.to_record())
    assert [r.log for r in again.rounds] == [r.log for r in match.rounds]
    marks = 0
    for rnd in match.rounds:
        sheet = ScoreSheet.from_round(rnd)
        assert sheet.title().startswith("all fives (double six) · Round")
        assert list(sheet.totals) == list(rnd.ended.scores)
        fives = [e for e in rnd.log if isinstance(e, Fives)]
        cells = [c for row in sheet.rows for c in row.cells]
        assert sum(c.marks.count("F") for c in cells) == len(fives)
        marks += len(fives)
    assert marks
