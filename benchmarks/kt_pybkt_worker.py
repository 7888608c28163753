"""pyBKT's side of ``benchmarks/kt_real_data.py``: run by pyBKT's own interpreter (its venv,
see that script), never imported by the tutor. Reads one JSON request on stdin and writes
one JSON answer on stdout:

- ``{"probe": true}``: pyBKT's version and build (C++ or pure Python);
- ``{"data": CSV, "skills": [...], "solo": [...], "folds": {student: fold}, "num_fits": 5,
  "seed": 0, "parallel": false}``: fit the skills together (timed), each ``solo`` skill
  alone (timed), the parameters, pyBKT's own ``predict()`` on the data with them, and for
  each fold a fit on the other folds' students with ``predict()`` on the fold's (with
  ``folds``).

Predictions come back per skill and student, in the file's order of that student's rows.
"""

from __future__ import annotations

import json
import sys
import time


def _build() -> str:
    try:
        from pyBKT.fit import E_step  # noqa: F401  (the C++ extension, when it was built)
    except ImportError:
        return "pure Python"
    return "C++"


def _cpu() -> float:
    """This process's CPU seconds and its children's (the pure build's pool, if parallel)."""
    import resource

    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + children.ru_utime + children.ru_stime


def _timed(fn):
    wall, cpu = time.perf_counter(), _cpu()
    out = fn()
    return out, time.perf_counter() - wall, _cpu() - cpu


def _coef(model, skills):
    out = {}
    for s in skills:
        c = model.coef_[s]
        out[s] = {"p_init": float(c["prior"]), "p_learn": float(c["learns"][0]),
                  "p_guess": float(c["guesses"][0]), "p_slip": float(c["slips"][0]),
                  "p_forget": float(c["forgets"][0])}
    return out


def _predictions(model, frame):
    pred = model.predict(data=frame).sort_values("row")
    out: dict[str, dict[str, list[float]]] = {}
    for skill, user, p in zip(pred["skill_name"], pred["user_id"], pred["correct_predictions"],
                              strict=True):
        out.setdefault(skill, {}).setdefault(user, []).append(float(p))
    return out


def main() -> None:
    req = json.load(sys.stdin)
    if req.get("probe"):
        from importlib.metadata import version

        json.dump({"version": version("pyBKT"), "build": _build()}, sys.stdout)
        return
    import pandas as pd
    from pyBKT.models import Model

    frame = pd.read_csv(req["data"], dtype={"user_id": str, "skill_name": str})
    frame = frame[frame["skill_name"].isin(req["skills"])].copy()
    frame["row"] = range(len(frame))
    seed, num_fits, forgets = req["seed"], req["num_fits"], req.get("forgets", False)
    from importlib.metadata import version

    answer: dict[str, object] = {"build": _build(), "version": version("pyBKT")}

    parallel = req.get("parallel", False)

    def fit(data):
        model = Model(seed=seed, num_fits=num_fits, parallel=parallel)
        model.fit(data=data, forgets=forgets)
        return model

    model, wall, cpu = _timed(lambda: fit(frame))
    answer["all"] = {"wall": wall, "cpu": cpu, "skills": len(req["skills"])}
    answer["params"] = _coef(model, req["skills"])
    answer["predictions"] = _predictions(model, frame)
    solo = {}
    for skill in req.get("solo", []):
        _m, wall, cpu = _timed(lambda s=skill: fit(frame[frame["skill_name"] == s]))
        solo[skill] = {"wall": wall, "cpu": cpu}
    answer["solo"] = solo
    folds = req.get("folds")
    if folds:
        fold_of = frame["user_id"].map(folds)
        cv: dict[str, dict[str, list[float]]] = {}
        cv_time = {"wall": 0.0, "cpu": 0.0}
        for k in sorted(set(folds.values())):
            train, test = frame[fold_of != k], frame[fold_of == k]
            test = test[test["skill_name"].isin(set(train["skill_name"]))]
            if test.empty:
                continue
            fitted, wall, cpu = _timed(lambda t=train: fit(t))
            cv_time["wall"] += wall
            cv_time["cpu"] += cpu
            for skill, by in _predictions(fitted, test).items():
                cv.setdefault(skill, {}).update(by)
        answer["cv"] = cv
        answer["cv_time"] = cv_time
    json.dump(answer, sys.stdout)


if __name__ == "__main__":
    main()
