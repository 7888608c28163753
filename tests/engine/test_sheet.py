"""Tests for engine.sheet: the Leonard score sheet of docs/rules.md §2, built from a round's log."""

from __future__ import annotations

import csv
import io
import random
from html.parser import HTMLParser

import pytest
from dealing import make_round, run

from engine import HouseRules, Match, Passed, Round
from engine.sheet import ScoreSheet, SheetCell, match_sheets, play_quality

RULES = HouseRules()


def play(rnd: Round, *moves: str) -> Round:
    """Apply moves for the player to move (checked by the engine); the round, for chaining."""
    run(rnd, moves)
    return rnd


# --- the scenarios ------------------------------------------------------------------------

# Two players. A opens 6/6, B answers 6/5 on the right: ends 6 (tile 6/6, T=12) and 5
# (tile 6/5, T=11). A then may play x/6 on the 6 (6·11 = 66), x/5 on the 5 (5·12 = 60),
# -/6 on the 6 (loss 6+11 = 17) or 1/6 (0). B holds no x and no 5, so B draws 1/2 (no fit)
# and 5/- (fits the 5, against the power tile x/6 at the other end: ±30).
POWER_HANDS = [["6/6", "x/6", "1/6", "x/5", "-/6", "1/1", "2/2", "3/3", "4/4"],
               ["6/5", "1/3", "1/4", "2/3", "2/4", "3/4", "1/+", "2/+", "3/+"]]
POWER_PILE = ("1/2", "5/-")


def power_round(a_second: str = "6/x L") -> Round:
    return play(make_round(POWER_HANDS, POWER_PILE), "6/6", "6/5 R", a_second)


# Two players, 17 placements to a domino by A. The last tile fits both ends: a basic capicúa
# (3/6 onto ends 3 and 3) or a power capicúa (+/+ onto ends + and +).
def capicua_round(kind: str) -> Round:
    last = "3/6" if kind == "K" else "+/+"
    a = ["6/6", "6/2", "2/4", "4/1", "1/5", "5/4", "4/3", "3/3", last]
    b = ["6/1", "1/3", "3/5", "5/2", "2/3", "x/3", "x/+", "+/3", "1/1"]
    rnd = make_round([a, b])
    play(rnd, "6/6", "6/1 L", "6/2 R", "1/3 L", "2/4 R", "3/5 L", "4/1 R", "5/2 L", "1/5 R",
         "2/3 L", "5/4 R", "x/3 L", "4/3 R", "x/+ L", "3/3 R",
         "+/3 L" if kind == "K" else "+/3 R", f"{last} L")
    return rnd


# Five players, no pile. A holds all nine 6-tiles: after the opening 6/6 everybody passes
# (paso a la salida and paso corrido, D-7), and A plays again.
def five_round(a_second: str = "-/6 R") -> Round:
    a = ["6/6", "1/6", "2/6", "3/6", "4/6", "5/6", "+/6", "-/6", "x/6"]
    return play(make_round([a, [], [], [], []]), "6/6", "pass", "pass", "pass", "pass",
                a_second)


# --- layout -------------------------------------------------------------------------------

def test_columns_are_lettered_by_seat_section_2() -> None:
    sheet = ScoreSheet.from_round(capicua_round("K"))
    assert sheet.columns == ["A", "+a", "-a", "B", "+b", "-b"]
    assert sheet.header == ["#", "A", "+a", "-a", "B", "+b", "-b", "Σa", "Σb"]
    assert [r.number for r in sheet.rows] == list(range(1, 10))
    five = ScoreSheet.from_round(five_round())
    assert five.columns[-3:] == ["E", "+e", "-e"]


def test_row_k_holds_each_players_kth_turn_section_2() -> None:
    rnd = capicua_round("K")
    sheet = ScoreSheet.from_round(rnd)
    for seat in range(2):
        own = [t for t in rnd.turns if t["player"] == seat]
        for k, turn in enumerate(own, 1):
            assert str(sheet.cell(k, seat).tile) == turn["play"]["tile"]
    assert sheet.cell(1, 1).play == "6/1"       # matched half first
    assert sheet.cell(6, 1).play.startswith("3/x")


# --- points and marks ---------------------------------------------------------------------

def test_power_play_gain_and_victims_loss_in_the_causing_row_section_1_6() -> None:
    """A's -/6 (loss 6 + 12 to B) sits in A's row 2: B's -b on row 2, before B's own 2nd turn."""
    sheet = ScoreSheet.from_round(five_round("-/6 R"))
    a, b = sheet.cell(2, 0), sheet.cell(2, 1)
    assert a.play.startswith("6/-")
    assert (a.gain, a.loss, b.gain, b.loss) == (0, 0, 0, 18)
    assert not b.played                      # B's 2nd turn has not happened yet
    assert b.total == -18


def test_power_gain_and_power_vs_power_row_two_players() -> None:
    sheet = ScoreSheet.from_round(play(power_round(), "draw", "draw", "5/- R"))
    a, b = sheet.cell(2, 0), sheet.cell(2, 1)
    assert a.play == "6/x !!" and a.gain == 66
    assert b.play == "↓2 5/-" and b.gain == 30      # x/6 at the other end: seed item 10
    assert a.loss == 30 and b.loss == 0
    assert sheet.rows[1].totals == (66 - 30, 30)
    assert sheet.result is None                     # the round goes on


def test_draw_mark_counts_the_tiles_drawn() -> None:
    rnd = play(power_round(), "draw")
    assert ScoreSheet.from_round(rnd).cell(2, 1).play == "↓1"    # a turn still going on
    sheet = ScoreSheet.from_round(play(rnd, "draw", "5/- R"))
    assert sheet.cell(2, 1).drew == 2
    assert sheet.cell(2, 1).play.startswith("↓2 ")


def test_pass_without_drawing_and_paso_a_la_salida_and_paso_corrido_d7() -> None:
    sheet = ScoreSheet.from_round(five_round())
    opening = sheet.cell(1, 0)
    assert opening.play == "6/6 PS PC"
    assert opening.gain == 40
    for seat in range(1, 5):
        assert sheet.cell(1, seat).play == "—"
        assert sheet.cell(1, seat).passed
    # A's second play is on row 2: a paso corrido does not shift the row numbering of others
    assert sheet.cell(2, 0).tile is not None


def test_neutralized_opening_power_tile() -> None:
    """D-3 rotate opening with any tile: a power tile opening the line has no effect (N)."""
    rnd = play(make_round([["x/5"], []], starter=0, opening="any"), "x/5")
    sheet = ScoreSheet.from_round(rnd)
    cell = sheet.cell(1, 0)
    assert cell.play == "x/5 N"
    assert (cell.gain, cell.loss) == (0, 0)


@pytest.mark.parametrize(("kind", "gain_a", "loss_b"), [("K", 2 + 20, 0), ("KP", 30 + 20 + 2, 30)])
def test_capicua_and_winner_marks_section_1_8(kind: str, gain_a: int, loss_b: int) -> None:
    rnd = capicua_round(kind)
    assert rnd.result is not None and rnd.result.reason == "domino"
    sheet = ScoreSheet.from_round(rnd)
    last = sheet.cell(9, 0)
    assert last.play == ("3/6 K $" if kind == "K" else "+/+ KP $")
    assert last.gain == gain_a
    assert sheet.cell(9, 1).play == "∅"
    assert sheet.cell(9, 1).loss == loss_b
    assert sheet.totals == rnd.result.scores
    assert "domino: A wins" in sheet.to_text().splitlines()[0]


@pytest.mark.parametrize(("players", "seeds"), [(2, 40), (3, 40), (5, 60)])
def test_tranque_is_marked_on_the_turn_that_made_it_section_1_8(players: int,
                                                                seeds: int) -> None:
    """T on the last turn's cell; $ / ∅ (or = for a shared lowest hand, D-9) on that row."""
    found = ties = 0
    for seed in range(seeds):
        m = Match("leonard", players, seed=seed)
        rng = random.Random(seed)
        rnd = m.current
        while not rnd.over:
            m.apply(rng.choice(rnd.legal_actions()))
        assert rnd.result is not None
        sheet = ScoreSheet.from_round(rnd)
        cells = [c for r in sheet.rows for c in r.cells]
        if rnd.result.reason != "tranque":
            assert not any("T" in c.marks for c in cells)
            continue
        found += 1
        last = rnd.turns[-1]["player"]
        row = sum(1 for t in rnd.turns if t["player"] == last)
        assert row == len(sheet.rows) or sheet.cell(row, last).played
        assert [(c.row, c.seat) for c in cells if "T" in c.marks] == [(row, last)]
        low = min(rnd.result.hand_totals)
        ties += rnd.result.winner is None
        for seat in range(players):
            marks = sheet.cell(row, seat).marks
            if rnd.result.winner is None:
                assert ("=" in marks) == (rnd.result.hand_totals[seat] == low)
            else:
                assert ("$" in marks) == (seat == rnd.result.winner)
            assert sum(m in ("$", "=", "∅") for m in marks) == 1
        assert sheet.totals == rnd.result.scores
    assert found >= 1
    if players == 5:
        assert ties >= 1


# --- play quality -------------------------------------------------------------------------

@pytest.mark.parametrize(("move", "written", "mark"), [
    ("6/x L", "6/x", "!!"),    # 66: the best
    ("5/x R", "5/x", "!"),     # 60 ≥ 0 + ¾·66
    ("6/- L", "6/-", ""),      # 17: between ¼ and ¾
    ("6/1 L", "6/1", "XX"),    # 0: the worst
])
def test_play_quality_against_the_legal_alternatives_section_2(
        move: str, written: str, mark: str) -> None:
    sheet = ScoreSheet.from_round(power_round(move))
    cell = sheet.cell(2, 0)
    assert cell.tile is not None and str(cell.tile) == written
    assert cell.quality == mark
    assert sorted(cell.choices) == [0, 17, 60, 66]
    assert cell.play == f"{written} {mark}".strip()


def test_play_quality_bad_play_x() -> None:
    """+/6 on 6/6 gains 18 where x/6 would gain 72: 18 ≤ 0 + ¼·72 is X."""
    cell = ScoreSheet.from_round(five_round("+/6 R")).cell(2, 0)
    assert (cell.value, cell.quality) == (18, "X")
    assert max(cell.choices) == 72


def test_forced_play_gets_no_mark() -> None:
    sheet = ScoreSheet.from_round(capicua_round("K"))
    forced = sheet.cell(1, 1)                 # B's only 6 is 6/1
    assert forced.quality == "" and len(set(forced.choices)) == 1
    assert sheet.cell(1, 0).quality == ""     # the opening by rule


def test_play_quality_thresholds() -> None:
    values = [0, 10, 25, 50, 75, 90, 100]
    assert [play_quality(v, values) for v in values] == ["XX", "X", "X", "", "!", "!", "!!"]
    assert play_quality(5, [5, 5]) == ""
    assert play_quality(7, [7]) == ""


# --- cumulative scores and outputs ----------------------------------------------------------

def test_cumulative_scores_end_at_the_rounds_gains_minus_losses() -> None:
    rnd = capicua_round("KP")
    sheet = ScoreSheet.from_round(rnd)
    for seat in range(2):
        gains = sum(r.cells[seat].gain for r in sheet.rows)
        losses = sum(r.cells[seat].loss for r in sheet.rows)
        assert (gains, losses) == (rnd.gains[seat], rnd.losses[seat])
    running = [0, 0]
    for r in sheet.rows:
        for seat, c in enumerate(r.cells):
            running[seat] += c.gain - c.loss
        assert list(r.totals) == running
    assert sheet.totals == (rnd.gains[0] - rnd.losses[0], rnd.gains[1] - rnd.losses[1])


def test_csv_reads_back_to_the_same_cells() -> None:
    sheet = ScoreSheet.from_round(five_round())
    rows = list(csv.reader(io.StringIO(sheet.to_csv())))
    assert rows[0] == sheet.header
    assert rows[1:] == [r.values() for r in sheet.rows]
    assert rows[1][1] == "6/6 PS PC" and rows[1][2] == "40"


def test_text_table_is_aligned() -> None:
    sheet = ScoreSheet.from_round(capicua_round("K"))
    text = str(sheet)
    assert text == sheet.to_text()
    lines = text.splitlines()
    assert lines[0].startswith("Round 1")
    assert lines[1].split() == sheet.header
    assert len(lines) == 3 + len(sheet.rows)
    # the capital columns are left-aligned at the same offset on every line
    col = lines[1].index(" B ") + 1
    assert all(line[col - 2:col] == "  " for line in lines[3:])


class _Checker(HTMLParser):
    VOID = {"br", "hr", "img"}

    def __init__(self) -> None:
        super().__init__()
        self.stack: list[str] = []
        self.errors: list[str] = []
        self.tables: list[dict[str, str | None]] = []
        self.text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "table":
            self.tables.append(dict(attrs))
        if tag not in self.VOID:
            self.stack.append(tag)

    def handle_endtag(self, tag: str) -> None:
        if not self.stack or self.stack[-1] != tag:
            self.errors.append(f"</{tag}> closes {self.stack[-1:]}")
        else:
            self.stack.pop()

    def handle_data(self, data: str) -> None:
        self.text.append(data)


def test_html_is_well_formed_and_escaped() -> None:
    sheet = ScoreSheet.from_round(capicua_round("KP"))
    out = sheet.to_html()
    checker = _Checker()
    checker.feed(out)
    checker.close()
    assert checker.errors == [] and checker.stack == []
    assert checker.tables == [{"class": "ld-sheet"}]
    assert out.count("<tr>") + out.count("<tr ") == len(sheet.rows) + 1
    assert "<sup>3</sup>&frasl;<sub>+</sub>" in out        # B's 3/+ as a fraction
    assert "KP" in "".join(checker.text)
    cell = SheetCell(0, 1, marks=["<b>&"])
    assert "&lt;b&gt;&amp;" in cell.play_html()


def test_a_round_without_a_record_has_no_sheet() -> None:
    m = Match("leonard", 2, seed=1, record=False)
    with pytest.raises(ValueError, match="without an event log"):
        ScoreSheet.from_round(m.current)


# --- whole matches ------------------------------------------------------------------------

def random_match(players: int, seed: int) -> Match:
    m = Match("leonard", players, seed=seed)
    rng = random.Random(seed)
    while not m.over:
        if m.current.over:
            m.start_round()
        m.apply(rng.choice(m.current.legal_actions()))
    return m


def test_match_sheets_match_the_match_scores_section_1_9() -> None:
    m = random_match(3, 5)
    sheets = match_sheets(m)
    assert len(sheets) == len(m.rounds) == 3
    for sheet, rnd in zip(sheets, m.rounds, strict=True):
        assert sheet.totals == tuple(g - lo for g, lo in zip(rnd.gains, rnd.losses, strict=True))
    assert [sum(s.totals[p] for s in sheets) for p in range(3)] == m.scores


@pytest.mark.parametrize(("players", "seed"), [(2, 11), (3, 12), (4, 13), (5, 14), (4, 15)])
def test_every_turn_and_point_lands_on_the_sheet(players: int, seed: int) -> None:
    m = random_match(players, seed)
    for sheet, rnd in zip(match_sheets(m), m.rounds, strict=True):
        if players == 4:
            assert sheet.table is not None and "table" in sheet.title()
        assert len(sheet.rows) == max(sum(1 for t in rnd.turns if t["player"] == p)
                                      for p in range(players))
        for p in range(players):
            own = [t for t in rnd.turns if t["player"] == p]
            for k, turn in enumerate(own, 1):
                c = sheet.cell(k, p)
                assert c.drew == len(turn["drew"])
                if turn["play"] is None:
                    assert c.passed and c.tile is None
                else:
                    assert str(c.tile) == turn["play"]["tile"]
            assert sum(r.cells[p].gain for r in sheet.rows) == rnd.gains[p]
            assert sum(r.cells[p].loss for r in sheet.rows) == rnd.losses[p]
        passes = sum(isinstance(e, Passed) for e in rnd.log)
        cells = [c for r in sheet.rows for c in r.cells]
        assert sum(c.passed for c in cells) == passes
        assert sum(c.play.startswith("—") for c in cells) == sum(
            1 for t in rnd.turns if t["play"] is None and not t["drew"])


def test_a_title_in_other_words_keeps_its_parts() -> None:
    """The title's words can be given (the tutor's Spanish page), every part kept: the round,
    the game, the table tile, how it ended and who won; the caption of the HTML too."""
    from typing import get_args

    from engine.events import EndReason
    from engine.sheet import TITLE_WORDS
    from engine.variants.cuban import END_REASONS as CUBAN_ENDS
    from engine.variants.ponce import END_REASONS as PONCE_ENDS

    assert set(get_args(EndReason)) <= set(TITLE_WORDS)
    assert not (set(CUBAN_ENDS) | set(PONCE_ENDS)) & set(TITLE_WORDS)  # the game's own
    words = {**{key: f"<{key}>" for key in TITLE_WORDS}, "round": "<round> {number}",
             "table": "<table> {tile}", "pair wins": "<pair wins> {how} {pair}",
             "seat wins": "<seat wins> {how} {seat}", "nobody wins": "<nobody wins> {how}"}
    sheet = ScoreSheet.from_round(capicua_round("KP"))
    english = sheet.title()
    assert english.startswith("Round 1 · ") and english.endswith("wins")
    winner = sheet.letters[sheet.result.winner]
    assert sheet.title(words) == f"<round> 1 · <seat wins> <domino> {winner}"
    assert sheet.title(words, game="Juego") == sheet.title(words)  # Leonard's title is bare
    assert "<caption>Ronda 1</caption>" in sheet.to_html("Ronda 1")
    assert f"<caption>{english}</caption>" in sheet.to_html()
