"""``python -m tutor fit-bkt``: BKT parameters per skill fitted from exports (RULES.md §4
"Evidence": the same rule decides which first answers are observations)."""

from __future__ import annotations

import json
import random
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from tutor.__main__ import main
from tutor.storage.records import Attempt, Outcome
from tutor.storage.store_files import write_csv, write_datashop
from tutor.teaching.fitting import PRACTICE, RIGHT, WRONG, fit_sequences, sequences
from tutor.teaching.mastery import load_params

TRUE = {"p_init": 0.05, "p_learn": 0.15, "p_slip": 0.1, "p_guess": 0.03}
"""A skill like squaring: few know it at first, a typed three-digit answer is rarely
guessed."""
T0 = datetime(2026, 3, 2, 10, 0, tzinfo=timezone.utc)


def simulate(students: int, attempts: int, params: dict[str, float], seed: int,
             skill: str = "square", scaffolded_every: int = 0) -> list[Attempt]:
    """Students answering with known BKT parameters, as stored attempt rows: each question
    its own problem; every ``scaffolded_every``-th question shows the blanks (practice:
    answered right, the student may learn, nothing is observed)."""
    rng = random.Random(seed)
    rows: list[Attempt] = []
    for s in range(students):
        known = rng.random() < params["p_init"]
        for i in range(attempts):
            scaffolded = bool(scaffolded_every) and i % scaffolded_every == scaffolded_every - 1
            right = scaffolded or rng.random() < (1 - params["p_slip"] if known
                                                  else params["p_guess"])
            rows.append(Attempt(
                f"{skill}{s}", f"sess{s}", (T0 + timedelta(seconds=i)).isoformat(), "sim",
                f"q{i}", "gain[blanks]" if scaffolded else "gain",
                Outcome.CORRECT if right else Outcome.INCORRECT, "1", "", skill, 1, True, 0,
                2.0, 1, 1 if right else 2))
            if not right:
                rows.append(Attempt(
                    f"{skill}{s}", f"sess{s}", (T0 + timedelta(seconds=i, milliseconds=500))
                    .isoformat(), "sim", f"q{i}", "gain", Outcome.GIVEUP, "", "revealed",
                    skill, 2, False, 0, 1.0, 1, None))
            if not known and rng.random() < params["p_learn"]:
                known = True
    return rows


def fit(paths: list[Path], capsys: pytest.CaptureFixture[str]) -> dict:  # type: ignore[type-arg]
    assert main(["fit-bkt", *map(str, paths), "--json", "--lang", "en"]) == 0
    return json.loads(capsys.readouterr().out)  # type: ignore[no-any-return]


def test_parameter_recovery(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 32 part 3: 200 simulated students (30 questions each, seeded) with known
    parameters; fit-bkt finds each parameter within ±0.05."""
    path = tmp_path / "sim.csv"
    write_csv(path, simulate(200, 30, TRUE, seed=1))
    out = fit([path], capsys)
    row = out["skills"]["square"]
    for name, value in TRUE.items():
        assert row[name] == pytest.approx(value, abs=0.05), (name, row)
    assert (row["students"], row["attempts"]) == (200, 200 * 30)
    assert row["log_likelihood"] < 0
    # the file is a parameters file the server and lessons read
    (tmp_path / "fit.json").write_text(json.dumps(out))
    assert load_params(tmp_path / "fit.json").for_skill("square").p_guess == row["p_guess"]


def test_scaffolded_answers_are_steps_without_observation(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """RULES §4: a scaffolded right answer is practice: a step where the student may learn,
    not an observation. Counted as proof it would make the guess rate look far higher."""
    rows = simulate(200, 30, TRUE, seed=2, scaffolded_every=3)
    seqs = sequences(rows)["square"]
    assert sum(c == PRACTICE for s in seqs for c in s) == 200 * 10
    assert {c for s in seqs for c in s} == {RIGHT, WRONG, PRACTICE}
    path = tmp_path / "sim.txt"
    write_datashop(path, rows)  # a DataShop export reads the same
    row = fit([path], capsys)["skills"]["square"]
    assert row["attempts"] == 200 * 20
    assert row["p_guess"] == pytest.approx(TRUE["p_guess"], abs=0.05)
    as_proof = fit_sequences([[RIGHT if c == PRACTICE else c for c in s] for s in seqs])[0]
    assert as_proof.p_guess > row["p_guess"] + 0.05


def test_table_output_and_skills_with_too_few_answers(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "two.csv"
    write_csv(path, simulate(30, 10, TRUE, seed=3)
              + simulate(1, 5, TRUE, seed=4, skill="negative"))
    assert main(["fit-bkt", str(path), "--lang", "en"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].split() == ["Skill", "p_init", "p_learn", "p_slip", "p_guess",
                              "Log-likelihood", "Students", "Attempts"]
    assert out[2].split()[0] == "square" and out[2].split()[-2:] == ["30", "300"]
    assert "negative: not fitted, 5 first answers (at least 10 are needed)." in out


def test_bad_files_get_one_clear_line(tmp_path: Path,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.csv"
    bad.write_text("name,score\nana,3\n")
    assert main(["fit-bkt", str(bad), "--lang", "en"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("bad.csv") and "\n" not in err
    assert main(["fit-bkt", str(tmp_path / "none.csv"), "--lang", "en"]) == 2
    assert "Cannot read none.csv" in capsys.readouterr().err
    empty = tmp_path / "empty.csv"
    write_csv(empty, [])
    assert main(["fit-bkt", str(empty), "--lang", "es"]) == 1
    assert capsys.readouterr().err.strip()
