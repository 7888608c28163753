"""The command line (issue part 8): `python -m engine simulate` and `python -m engine replay`."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def engine_cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "engine", *args], cwd=ROOT, text=True,
                          capture_output=True, timeout=300)


def test_simulate_prints_final_scores_and_is_reproducible():
    args = ("simulate", "--variant", "leonard", "--players", "3", "--rounds", "2",
            "--seed", "4", "--bots", "search,greedy,random")
    out = engine_cli(*args)
    assert out.returncode == 0, out.stderr
    assert out.stdout.count("round ") == 2 and "final: seat 0:" in out.stdout
    assert engine_cli(*args).stdout == out.stdout


def test_simulate_json_record_replays(tmp_path):
    out = engine_cli("simulate", "--variant", "block", "--players", "4", "--rounds", "1",
                     "--seed", "2", "--bots", "random", "--json")
    assert out.returncode == 0, out.stderr
    record = json.loads(out.stdout)
    assert record["variant"] == "block" and record["players"] == 4
    assert set(record["rounds"][0]) >= {"hands", "pile", "table", "starter", "turns", "end",
                                        "winner", "gains", "losses"}
    path = tmp_path / "game.json"
    path.write_text(out.stdout, encoding="utf-8")
    rep = engine_cli("replay", str(path))
    assert rep.returncode == 0, rep.stderr
    assert "every turn is legal" in rep.stdout
    assert f"final: {' '.join(f'seat {s}: {v}' for s, v in enumerate(record['scores']))}" \
        in rep.stdout


def test_simulate_sheet_prints_the_score_sheets():
    out = engine_cli("simulate", "--players", "2", "--rounds", "2", "--seed", "1", "--sheet")
    assert out.returncode == 0, out.stderr
    assert out.stdout.count("Round ") == 2 and " A " in out.stdout and "+a" in out.stdout


@pytest.mark.parametrize("content,words", [
    ("{\"x\":", "is not valid JSON"),
    ("[]", "a game record is a JSON object"),
    ("{\"variant\": \"leonard\", \"players\": 2, \"rules\": {}, \"rounds\": []}",
     "\"rounds\" is empty"),
])
def test_replay_of_a_bad_file_is_one_line_and_exit_2(tmp_path, content, words):
    path = tmp_path / "bad.json"
    path.write_text(content, encoding="utf-8")
    out = engine_cli("replay", str(path))
    assert out.returncode == 2
    assert words in out.stderr and len(out.stderr.strip().splitlines()) == 1
    assert "Traceback" not in out.stderr


def test_replay_names_the_first_illegal_turn(tmp_path):
    out = engine_cli("simulate", "--players", "2", "--rounds", "1", "--seed", "3", "--json")
    record = json.loads(out.stdout)
    turn = next(k for k, t in enumerate(record["rounds"][0]["turns"]) if k > 0 and t["play"])
    hand = record["rounds"][0]["hands"][record["rounds"][0]["turns"][turn]["player"]]
    not_held = next(t for t in ("6/6", "5/5", "4/4", "x/x") if t not in hand)
    record["rounds"][0]["turns"][turn]["play"] = {"tile": not_held, "end": "L"}
    path = tmp_path / "tampered.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    rep = engine_cli("replay", str(path))
    assert rep.returncode == 2
    assert f"round 1, turn {turn + 1}" in rep.stderr and "Traceback" not in rep.stderr


# --- the classic variants (docs/rules.md §3) --------------------------------------------------

VARIANT_RUNS = [("traditional", "3"), ("venezuela", "4"), ("ponce", "4"), ("cuban", "4"),
                ("doble15", "3")]


@pytest.mark.parametrize("variant,players", VARIANT_RUNS)
def test_simulate_and_replay_every_variant(tmp_path, variant, players):
    args = ("simulate", "--variant", variant, "--players", players, "--seed", "5",
            "--bots", "greedy,random", "--rounds", "2", "--json")
    out = engine_cli(*args)
    assert out.returncode == 0, out.stderr
    record = json.loads(out.stdout)
    assert record["variant"] == variant and record["players"] == int(players)
    assert engine_cli(*args).stdout == out.stdout  # same seed, same game
    path = tmp_path / "game.json"
    path.write_text(out.stdout, encoding="utf-8")
    rep = engine_cli("replay", str(path))
    assert rep.returncode == 0, rep.stderr
    assert "every turn is legal" in rep.stdout
    if variant in ("venezuela", "ponce", "cuban"):
        assert record["teams"] == [[0, 2], [1, 3]]
        assert f"pairs: 0 & 2: {record['team_scores'][0]}" in rep.stdout
    if variant == "doble15":
        ends = {t["play"]["end"] for r in record["rounds"] for t in r["turns"] if t["play"]}
        assert ends - {None} <= {"1", "2", "3", "4", "5", "6"} and len(record["rounds"]) == 2


def test_simulate_a_variant_to_its_target_prints_results_and_sheets():
    out = engine_cli("simulate", "--variant", "ponce", "--seed", "2", "--bots", "greedy")
    assert out.returncode == 0, out.stderr
    final = out.stdout.strip().splitlines()[-1]
    assert final.startswith("pairs: 0 & 2: ")
    assert max(int(final.split(": ")[2].split()[0]), int(final.split(": ")[3])) >= 20
    sheet = engine_cli("simulate", "--variant", "traditional", "--players", "3", "--seed", "2",
                       "--bots", "random", "--target", "30", "--sheet")
    assert sheet.returncode == 0, sheet.stderr
    assert "traditional draw game · Round 1" in sheet.stdout and "-a" not in sheet.stdout


def test_simulate_refuses_a_target_the_game_does_not_allow():
    out = engine_cli("simulate", "--variant", "cuban", "--target", "600")
    assert out.returncode == 2 and "at most 500" in out.stderr
    out = engine_cli("simulate", "--variant", "venezuela", "--players", "3")
    assert out.returncode == 2 and "played by 4 players" in out.stderr


def test_replay_names_a_bad_arm(tmp_path):
    out = engine_cli("simulate", "--variant", "doble15", "--players", "2", "--rounds", "1",
                     "--seed", "1", "--bots", "random", "--json")
    record = json.loads(out.stdout)
    turns = record["rounds"][0]["turns"]
    k = next(k for k, t in enumerate(turns) if t["play"] and t["play"]["end"])
    turns[k]["play"]["end"] = "L"
    path = tmp_path / "bad-arm.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    rep = engine_cli("replay", str(path))
    assert rep.returncode == 2
    assert f"round 1, turn {k + 1}" in rep.stderr and '"1", "2", "3", "4", "5", "6"' in rep.stderr
