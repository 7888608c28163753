"""Records and score sheets of the classic variants (docs/rules.md §2, §3; README "Game records").

* records written before the variants existed (two-ended L/R ends, house rules D-1…D-10 only)
  still replay to the same scores and turns;
* a Doble 15 record names arms ``"1"`` … ``"6"`` and the draws a 15 forced; a wrong arm or a
  wrong forced draw is named by round and turn;
* every variant's score sheet adds up to the round's scores, drops the ``-x`` columns where
  there are no power tiles, adds the pairs' totals and writes the variant marks.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

import engine
from engine import (
    CUBAN,
    DOBLE15,
    DOUBLE_FIFTEEN,
    DOUBLE_NINE,
    DOUBLE_SIX,
    PONCE,
    HouseRules,
    Match,
    RecordError,
    Round,
    ScoreSheet,
)
from engine.bots import make_bot, play_match

DATA = Path(__file__).parent / "data"


def test_records_made_before_the_variants_still_replay():
    """Three matches recorded by the engine as it was before this change (Leonard with 3 and
    4 players, the block game): their rules name only D-1…D-10, their ends only L and R."""
    old = json.loads((DATA / "records_before_variants.json").read_text(encoding="utf-8"))
    assert [r["variant"] for r in old] == ["leonard", "leonard", "block"]
    for record in old:
        assert "target" not in record["rules"]
        ends = {t["play"]["end"] for rd in record["rounds"] for t in rd["turns"] if t["play"]}
        assert ends <= {"L", "R", None}
        match = engine.replay(record)
        assert match.scores == record["scores"]
        again = match.to_record()
        assert again["rounds"] == record["rounds"]
        assert {k: v for k, v in again["rules"].items() if k in record["rules"]} == \
            record["rules"]


def _doble15_record(seed: int = 3) -> dict:
    m = play_match(Match("doble15", 3, HouseRules(rounds=1), seed=seed),
                   [make_bot("random", seed * 3 + s) for s in range(3)])
    return json.loads(json.dumps(m.to_record()))


def test_doble15_records_name_arms_and_forced_draws():
    for seed in range(40):
        record = _doble15_record(seed)
        turns = record["rounds"][0]["turns"]
        forced = [(k, t) for k, t in enumerate(turns) if t.get("forced")]
        if forced:
            break
    else:
        raise AssertionError("no 15 was played in 40 games")
    ends = {t["play"]["end"] for t in turns if t["play"]}
    assert ends - {None} <= {"1", "2", "3", "4", "5", "6"}
    assert engine.replay(record).scores == record["scores"]
    k, turn = forced[0]
    assert turn["play"]["tile"].split("/")[1] == "15" or turn["play"]["tile"] == "15/15"
    other = dict(turn["forced"][0], player=(turn["forced"][0]["player"] + 1) % 3)
    turns[k]["forced"] = [other]
    with pytest.raises(RecordError, match=rf"round 1, turn {k + 1} .*made seat"):
        engine.replay(record)


@pytest.mark.parametrize("bad", ["L", "7", 3])
def test_a_wrong_arm_is_named(bad):
    record = _doble15_record()
    turns = record["rounds"][0]["turns"]
    k = next(k for k, t in enumerate(turns) if t["play"] and t["play"]["end"])
    turns[k]["play"]["end"] = bad
    with pytest.raises(RecordError, match=rf"round 1, turn {k + 1} .*end must be \"1\""):
        engine.replay(record)


def test_an_L_R_end_in_a_hub_or_an_arm_in_a_line_is_refused():
    record = json.loads(json.dumps(play_match(
        Match("venezuela", 4, HouseRules(target=10), seed=1),
        [make_bot("random", s) for s in range(4)]).to_record()))
    turns = record["rounds"][0]["turns"]
    k = next(k for k, t in enumerate(turns) if t["play"] and t["play"]["end"])
    turns[k]["play"]["end"] = "1"
    with pytest.raises(RecordError, match=r'end must be "L", "R" or null'):
        engine.replay(record)


# --- score sheets ------------------------------------------------------------------------

@pytest.mark.parametrize("game,players", [("traditional", 3), ("venezuela", 4), ("ponce", 4),
                                          ("cuban", 4), ("doble15", 3)])
def test_every_variant_sheet_adds_up_and_drops_the_loss_columns(game, players):
    for seed in range(8):
        m = play_match(Match(game, players, HouseRules(rounds=1, target=60 if game != "ponce"
                                                        else 0), seed=seed),
                       [make_bot("random", seed * 5 + s) for s in range(players)])
        for rnd in m.rounds:
            sheet = ScoreSheet.from_round(rnd)
            assert sheet.totals == tuple(g - lo for g, lo in
                                         zip(rnd.gains, rnd.losses, strict=True))
            assert not any(c.startswith("-") for c in sheet.columns)
            letters = "abcd"[:players]
            assert sheet.columns[:2] == ["A", "+a"]
            if m.pairs:
                assert sheet.total_columns[-2:] == ["Σac", "Σbd"]
                last = sheet.rows[-1].values()
                assert last[-2:] == [str(v) for v in rnd.team_scores]
            else:
                assert sheet.total_columns == [f"Σ{x}" for x in letters]
            assert sheet.title().startswith(engine.VARIANTS[game].title)
            assert sheet.title(game="Juego").startswith("Juego · Round ")
            sheet.to_csv()
            assert sheet.to_html().count('<td class="loss">') == 0


def test_leonard_and_block_sheets_keep_their_loss_columns():
    for game in ("leonard", "block"):
        m = play_match(Match(game, 2, HouseRules(rounds=1), seed=1),
                       [make_bot("random", s) for s in range(2)])
        sheet = ScoreSheet.from_round(m.current)
        assert sheet.columns == ["A", "+a", "-a", "B", "+b", "-b"]
        assert sheet.title().startswith("Round 1")


def test_ponce_sheet_marks_pass_points_on_the_play_that_made_them(kit):
    sixes = ["6/6", "6/5", "6/4", "6/3", "6/2", "6/1", "6/0"]
    others = [str(t) for t in DOUBLE_SIX.tiles if 6 not in (t.a, t.b)]
    hands = [sixes] + [others[k * 7:(k + 1) * 7] for k in range(3)]
    rnd = Round.from_deal(PONCE, HouseRules(), hands)
    kit.run(rnd, ["6/6", "pass", "pass", "pass"])
    sheet = ScoreSheet.from_round(rnd)
    first = sheet.cell(1, 0)
    assert first.play == "6/6 P P" and first.gain == 3  # 2 (first pass) + 0 + 1
    assert [sheet.cell(1, s).play for s in (1, 2, 3)] == ["—", "—", "—"]


def test_doble15_sheet_marks_the_special_numbers(kit):
    named = ["0/0", "0/13", "0/14", "0/2", "0/15"]
    inert = [str(t) for t in DOUBLE_FIFTEEN.tiles if t.a != t.b and 5 <= int(t.a)
             and int(t.b) <= 12]  # fit nothing below: no 0, 13, 14 or 15, no double
    hands = [["0/0", "0/14", "0/2"], [], ["0/13", "0/15"]]
    rnd = kit.make_round(hands, variant=DOBLE15, fill_order=inert, reserve=[
        t for t in map(str, DOUBLE_FIFTEEN.tiles) if t not in named and t not in inert])
    # play goes 0, 2, 1: seat 2 leaves a 13 and hexes seat 1, who draws two and passes; the
    # hex passes on to seat 0, who draws two, leaves a 14 and plays again; seat 2, hexed in
    # turn, draws two and leaves a 15: two seats on, seat 0 draws a tile
    kit.run(rnd, ["0/0", "0/13 1", "draw", "draw", "pass", "draw", "draw", "0/14 2", "0/2 3",
                  "draw", "draw", "0/15 4"], seats=[0, 2, 1, 1, 1, 0, 0, 0, 0, 2, 2, 2])
    sheet = ScoreSheet.from_round(rnd)
    assert [sheet.cell(r, 0).play for r in (1, 2, 3)] == ["0/0", "↓2 0/14 A", "0/2"]
    assert [sheet.cell(r, 2).play for r in (1, 2)] == ["0/13 H", "↓2 0/15 ↓A"]
    assert sheet.cell(1, 1).play == "↓2" and sheet.cell(1, 1).passed
    assert rnd.hand_sizes == [9, 11, 9]  # seat 0: 9 - 3 played + 2 drawn + 1 forced
    assert sheet.totals == tuple(g - lo for g, lo in zip(rnd.gains, rnd.losses, strict=True))


def test_cuban_sheet_marks_the_redeal():
    free = [str(t) for t in DOUBLE_NINE.tiles if t.a != t.b]
    five = ["0/0", "1/1", "2/2", "3/3", "4/4"]
    hands = [["9/9"] + free[:9], five + free[9:14], free[14:24], free[24:34]]
    rnd = Round.from_deal(CUBAN, HouseRules(), hands)
    rnd.apply(engine.Play(engine.Tile(9, 9)))
    rnd.apply(engine.ANNUL)
    sheet = ScoreSheet.from_round(rnd)
    assert sheet.cell(1, 1).play == "5D" and sheet.title().endswith("annulled: nobody wins")
    # the redealt hand counts for nobody (Variant.void_ends): no result marks, not a tie
    from engine.sheet import LOSE, TIE, WIN

    assert not [m for r in sheet.rows for c in r.cells for m in c.marks if m in (WIN, TIE, LOSE)]


def test_sheet_of_a_random_hub_round_replays_from_its_deal():
    rnd = Round.deal(DOBLE15, HouseRules(), 4, random.Random(9))
    rnd.playout(random.Random(9))
    sheet = ScoreSheet.from_round(rnd)  # raises if the log does not replay from the deal
    assert sheet.totals == tuple(g - lo for g, lo in zip(rnd.gains, rnd.losses, strict=True))
