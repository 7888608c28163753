"""``python -m tutor fit-bkt``: BKT parameters per skill fitted from exports (docs/rules.md §4
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
from tutor.teaching.fitting import (
    LOW,
    MIN_GAP,
    PRACTICE,
    RIGHT,
    WRONG,
    FitParams,
    fit_sequences,
    fit_skills,
    log_likelihood,
    predict,
    sequences,
)
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


# -- issue 44: the fitter at pyBKT's level --------------------------------------------------

ROOT = Path(__file__).resolve().parents[2]
SHARED = ROOT.parent / "shared" / "data" / "assistments-2009-builder-train.csv"
FIXTURE = Path(__file__).with_name("data") / "pybkt_assistments.json"


def answers(students: int, length: int, p: dict[str, float], seed: int) -> list[list[int]]:
    """Answer sequences (1 right, 0 wrong) of students with known BKT parameters (and
    ``p_forget``, if given)."""
    rng = random.Random(seed)
    out = []
    for _ in range(students):
        known = rng.random() < p["p_init"]
        seq = []
        for _ in range(length):
            seq.append(int(rng.random() < (1 - p["p_slip"] if known else p["p_guess"])))
            known = (rng.random() >= p.get("p_forget", 0.0) if known
                     else rng.random() < p["p_learn"])
        out.append(seq)
    return out


def test_guess_above_one_half_is_fitted() -> None:
    """Issue 44 part 1: real items are guessed more than half the time (a true/false item);
    the fit no longer caps guess (or slip) at 0.5, only guess + slip below 1."""
    true = {"p_init": 0.1, "p_learn": 0.1, "p_guess": 0.6, "p_slip": 0.05}
    fit = fit_skills({"tf": answers(500, 30, true, seed=5)})["tf"]
    for name in ("p_learn", "p_guess", "p_slip"):
        assert getattr(fit.params, name) == pytest.approx(true[name], abs=0.05), (name, fit)
    # When a guess is right 60% of the time, an answer says little about knowing at the
    # start: p_init's own spread is wider (up to 0.08 from the truth over 30 seeds of 500
    # students; the fit is then more likely than the true parameters).
    assert fit.params.p_init == pytest.approx(true["p_init"], abs=0.1)
    assert fit.at_bound == () and fit.converged


def test_students_who_get_worse_end_at_the_guess_slip_bound() -> None:
    """Answers that get worse over time (right, then wrong) would make "known" the state
    of wrong answers: the fit keeps guess + slip at its limit and says so."""
    rng = random.Random(5)
    worse = [[int(rng.random() < (0.9 if t < rng.randint(3, 8) else 0.1)) for t in range(20)]
             for _ in range(100)]
    fit = fit_skills({"w": worse})["w"]
    assert fit.params.p_guess + fit.params.p_slip == pytest.approx(1 - MIN_GAP)
    assert "p_guess+p_slip" in fit.at_bound


def test_a_parameter_at_a_bound_is_reported(tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    """Students who know the skill never slip: the slip ends at its lower bound, which the
    fit, the table (a *) and the JSON (at_bound) report."""
    true = {"p_init": 0.4, "p_learn": 0.2, "p_guess": 0.1, "p_slip": 0.0}
    fit = fit_skills({"z": answers(200, 20, true, seed=7)})["z"]
    assert fit.params.p_slip == pytest.approx(LOW) and fit.at_bound == ("p_slip",)
    path = tmp_path / "never-slip.csv"
    path.write_text("student,skill,correct\n" + "".join(
        f"s{i},multiply,{c}\n" for i, seq in enumerate(answers(200, 20, true, seed=7))
        for c in seq))
    assert main(["fit-bkt", str(path), "--lang", "en"]) == 0
    out = capsys.readouterr().out
    row = next(line for line in out.splitlines() if line.startswith("multiply"))
    assert "0.000*" in row and "* at a bound of the fit" in out
    assert main(["fit-bkt", str(path), "--json", "--lang", "en"]) == 0
    assert json.loads(capsys.readouterr().out)["at_bound"] == {"multiply": ["p_slip"]}


def test_forgetting_behind_a_flag() -> None:
    """pyBKT's forgets: with forgets=True the forgetting of simulated students is recovered
    (±0.05); without it the fit has none."""
    true = {"p_init": 0.3, "p_learn": 0.15, "p_guess": 0.1, "p_slip": 0.05, "p_forget": 0.1}
    data = {"f": answers(300, 40, true, seed=11)}
    fit = fit_skills(data, forgets=True)["f"]
    for name in ("p_init", "p_learn", "p_guess", "p_slip"):
        assert getattr(fit.params, name) == pytest.approx(true[name], abs=0.05), (name, fit)
    assert fit.p_forget == pytest.approx(true["p_forget"], abs=0.05)
    plain = fit_skills(data)["f"]
    assert plain.p_forget == 0.0 and plain.log_likelihood < fit.log_likelihood


def test_skills_fitted_together_as_alone() -> None:
    """All skills are fitted in one packed batch: each skill's fit is the one it gets
    alone (the batch shares only the work)."""
    a = answers(120, 25, TRUE, seed=3)
    b = answers(60, 8, {"p_init": 0.6, "p_learn": 0.3, "p_guess": 0.3, "p_slip": 0.1}, seed=4)
    c = [s[:n] for n, s in enumerate(answers(40, 60, TRUE, seed=6), start=1)]
    together = fit_skills({"a": a, "b": b, "c": c})
    for name, seqs in (("a", a), ("b", b), ("c", c)):
        alone = fit_skills({name: seqs})[name]
        assert together[name].log_likelihood == pytest.approx(alone.log_likelihood, abs=1e-9)
        assert together[name].iterations == alone.iterations
        for field in ("p_init", "p_learn", "p_guess", "p_slip"):
            assert getattr(together[name].fit, field) == pytest.approx(
                getattr(alone.fit, field), abs=1e-12)


def test_the_best_of_several_starts_is_kept() -> None:
    """pyBKT's num_fits: the fit keeps the most likely of its starting points, so more starts
    never give a less likely fit."""
    seqs = answers(150, 20, {"p_init": 0.5, "p_learn": 0.05, "p_guess": 0.55, "p_slip": 0.05},
                   seed=9)
    likelihoods = [fit_skills({"s": seqs}, num_fits=n)["s"].log_likelihood for n in (1, 3, 6)]
    assert likelihoods == sorted(likelihoods)
    assert fit_skills({"s": seqs}, num_fits=6)["s"].log_likelihood == pytest.approx(
        log_likelihood(seqs, fit_skills({"s": seqs}, num_fits=6)["s"].fit))


def test_predictions_and_likelihood_match_pybkt_recorded() -> None:
    """pyBKT's predict() (recorded in the fixture, for the first students of each skill) is
    what ours gives with pyBKT's parameters."""
    fixture = json.loads(FIXTURE.read_text())
    if not SHARED.is_file():
        pytest.skip(f"the shared data is not at {SHARED}")
    seqs, students = _real_slice(list(fixture["skills"]))
    for skill, rec in fixture["skills"].items():
        params = FitParams(rec["p_init"], rec["p_learn"], rec["p_guess"], rec["p_slip"])
        for student, expected in rec["predictions"].items():
            seq = seqs[skill][students[skill].index(student)]
            assert predict([seq], params)[0][:10].tolist() == pytest.approx(expected, abs=1e-5)


def _real_slice(skills: list[str]) -> tuple[dict[str, list[bytes]], dict[str, list[str]]]:
    from tutor.storage.response_logs import read_logs

    log = read_logs([SHARED])
    seqs = log.sequences()
    return ({s: seqs[s] for s in skills},
            {s: list(log._seqs[s]) for s in skills})


def test_real_slice_against_pybkt() -> None:
    """Issue 44: four skills of the real ASSISTments data, fitted as pyBKT 1.4.3 fitted them
    in the benchmark (the fixture's command). Each log-likelihood is at least pyBKT's, less
    0.1%, and where both reach the same optimum the parameters agree within ±0.05 (skill 7
    is the issue's: guess 0.57, which the old fit capped at 0.5, losing 16% of the
    likelihood); on skill 90 pyBKT's best start stopped at a worse optimum than ours."""
    fixture = json.loads(FIXTURE.read_text())
    if not SHARED.is_file():
        pytest.skip(f"the shared data is not at {SHARED}")
    seqs, _students = _real_slice(list(fixture["skills"]))
    fits = fit_skills(seqs)
    for skill, rec in fixture["skills"].items():
        theirs = FitParams(rec["p_init"], rec["p_learn"], rec["p_guess"], rec["p_slip"])
        assert log_likelihood(seqs[skill], theirs) == pytest.approx(rec["log_likelihood"],
                                                                     abs=0.01)
        ours = fits[skill].log_likelihood
        assert ours >= rec["log_likelihood"] - 1e-3 * abs(rec["log_likelihood"]), skill
        if ours - rec["log_likelihood"] < 1e-3 * abs(rec["log_likelihood"]):
            for name in ("p_init", "p_learn", "p_guess", "p_slip"):
                assert getattr(fits[skill].fit, name) == pytest.approx(rec[name], abs=0.05)
    assert fits["7"].params.p_guess > 0.5
    assert fits["90"].log_likelihood > fixture["skills"]["90"]["log_likelihood"] + 50
