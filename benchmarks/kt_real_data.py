"""Knowledge tracing on real students (issue 44), beside pyBKT in the same run:

    python benchmarks/kt_real_data.py [--data ../shared/data/assistments-2009-builder-train.csv]
        [--pybkt-python .venv-pybkt/bin/python] [--skills N] [--folds 5] [--seed 0]
        [--no-cv] [--no-pybkt] [--json results.json]

The data: 533 students of ASSISTments 2009–2010 (skill builders), 123 skills, 407,967
answers (``../shared/data/README.md``). Training-file figures (the held-out split is not
here). It reports:

1. reading the file (``tutor.storage.response_logs``): time and the peak of Python's memory;
2. per skill, ours beside pyBKT: the parameters, the log-likelihood (both computed by the same
   exact forward pass, :func:`tutor.teaching.fitting.log_likelihood`), the fit time of the
   skill alone; then all the skills fitted at once, CPU and wall seconds and the ratio;
3. pyBKT's own ``predict()`` against ours with pyBKT's parameters (the largest difference);
4. degenerate fits (NaN, guess + slip ≥ 1), guess above one half, parameters at a bound;
5. ``--folds``-fold cross-validation by student (the same folds for both): AUC and RMSE of
   the held-out predictions, per skill and pooled;
6. the tutor's mastery rule (:class:`tutor.teaching.mastery.Mastery`, every answer replayed
   as an unscaffolded, unhinted first answer, with the fitted parameters) beside BKT ≥ 0.95
   and ASSISTments' 3 right in a row: share mastered, median answers to mastery, accuracy
   on the next 5 answers, share mastered then fewer than 4 of the next 5 right, and missed
   mastery (never mastered, though at least 9 of the last 10 right). Rerun it after a change
   to the rule: it calls the rule as the tutor does.

**pyBKT** 1.4.3 needs numpy 1.26.4, pandas < 2.3 and scikit-learn 1.5.2, which the tutor's
pins do not allow beside it, so it lives in a venv of its own, and
``benchmarks/kt_pybkt_worker.py`` runs there (``--pybkt-python``). PyPI's wheel is the pure-
Python build; the C++ build (OpenMP, much faster) comes from the source package::

    python3 -m venv .venv-pybkt          # git-ignored
    .venv-pybkt/bin/pip install numpy==1.26.4 "pandas<2.3" scikit-learn==1.5.2 \
                                setuptools wheel requests
    .venv-pybkt/bin/pip install --no-binary pyBKT --no-build-isolation pyBKT==1.4.3

(``pip install pyBKT==1.4.3`` alone gives the pure-Python build: this script says which build
ran; with the pure build pass ``--skills 10`` or less, and ``--no-cv``, or it takes hours.)
pyBKT runs on one core (``OMP_NUM_THREADS=1`` and ``parallel=False``; ``--pybkt-threads 2``
lets it use two): our fit uses one core too. Times are CPU seconds (a child process's
included) and wall seconds.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import subprocess
import sys
import time
import tracemalloc
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tutor.storage.response_logs import read_logs  # noqa: E402
from tutor.teaching.fitting import (  # noqa: E402
    LOW,
    MIN_GAP,
    FitParams,
    SkillFit,
    fit_skills,
    log_likelihood,
    predict,
)
from tutor.teaching.mastery import BKTParams, Mastery  # noqa: E402

DATA = ROOT.parent / "shared" / "data" / "assistments-2009-builder-train.csv"
WORKER = Path(__file__).with_name("kt_pybkt_worker.py")
LARGEST = 10
STAND_IN = "add"
"""The tutor's skill the real skills are replayed as (the rule is the same for every skill;
only the parameters, the fitted ones, differ)."""

Seqs = dict[str, list[bytes]]


def _timed(fn: Callable[[], object]) -> tuple[object, float, float]:
    wall, cpu = time.perf_counter(), time.process_time()
    out = fn()
    return out, time.perf_counter() - wall, time.process_time() - cpu


def read(path: Path) -> tuple[Seqs, dict[str, list[str]], float, float]:
    """Per skill the sequences and the students (same order); the read's CPU seconds and
    the peak of Python's memory in a second read (traced, so slower)."""
    log, _wall, cpu = _timed(lambda: read_logs([path]))
    tracemalloc.start()
    read_logs([path])
    peak = tracemalloc.get_traced_memory()[1] / 2**20
    tracemalloc.stop()
    assert not isinstance(log, float) and hasattr(log, "sequences")
    seqs = log.sequences()  # type: ignore[attr-defined]
    students = {skill: list(by) for skill, by in log._seqs.items()}  # type: ignore[attr-defined]
    return seqs, students, cpu, peak


# -- pyBKT ----------------------------------------------------------------------------------

def pybkt(python: str, request: dict[str, object], threads: int) -> dict[str, object]:
    env = dict(os.environ, OMP_NUM_THREADS=str(threads))
    done = subprocess.run([python, str(WORKER)], input=json.dumps(request), text=True,
                          capture_output=True, env=env, check=False)
    if done.returncode != 0:
        sys.exit(f"pyBKT's worker failed ({python}):\n{done.stderr[-3000:]}")
    answer: dict[str, object] = json.loads(done.stdout)
    return answer


def _fp(d: dict[str, float]) -> FitParams:
    return FitParams(d["p_init"], d["p_learn"], d["p_guess"], d["p_slip"],
                     d.get("p_forget", 0.0))


# -- metrics --------------------------------------------------------------------------------

def auc(y: np.ndarray, p: np.ndarray) -> float:
    """Area under the ROC curve (ties count one half), as scikit-learn's roc_auc_score."""
    pos = int(y.sum())
    neg = len(y) - pos
    if not pos or not neg:
        return math.nan
    order = np.argsort(p, kind="mergesort")
    ps = p[order]
    first = np.flatnonzero(np.r_[True, ps[1:] != ps[:-1]])
    counts = np.diff(np.r_[first, len(ps)])
    ranks = np.empty(len(p))
    ranks[order] = np.repeat(first + (counts + 1) / 2, counts)
    return float((ranks[y == 1].sum() - pos * (pos + 1) / 2) / (pos * neg))


def rmse(y: np.ndarray, p: np.ndarray) -> float:
    return float(np.sqrt(np.mean((y - p) ** 2)))


# -- mastery rules --------------------------------------------------------------------------

def rule_ours(params: BKTParams) -> Callable[[bytes], int | None]:
    """The tutor's rule (:class:`Mastery`): the answer after which it first says mastered."""
    def first(seq: bytes) -> int | None:
        m = Mastery(params=params)
        for i, c in enumerate(seq):
            m.record(STAND_IN, bool(c))
            if m.state(STAND_IN).mastered:
                return i
        return None
    return first


def rule_bkt(params: FitParams, threshold: float = 0.95) -> Callable[[bytes], int | None]:
    """P(known) after the answer (and the learning step) first at ``threshold``: BKT's
    update, written out so that a pyBKT fit with guess + slip ≥ 1 runs too."""
    lrn, g, s = params.p_learn, params.p_guess, params.p_slip

    def first(seq: bytes) -> int | None:
        p = params.p_init
        for i, c in enumerate(seq):
            k, u = (p * (1 - s), (1 - p) * g) if c else (p * s, (1 - p) * (1 - g))
            p = k / (k + u) if k + u > 0 else p
            p += (1 - p) * lrn
            if p >= threshold:
                return i
        return None
    return first


def rule_streak(n: int = 3) -> Callable[[bytes], int | None]:
    def first(seq: bytes) -> int | None:
        run = 0
        for i, c in enumerate(seq):
            run = run + 1 if c else 0
            if run >= n:
                return i
        return None
    return first


def below_4_of_5(slip: float) -> float:
    """The chance that a student who knows the skill gets fewer than 4 of 5 answers right,
    each wrong with probability ``slip``."""
    right = 1 - slip
    return 1 - right**5 - 5 * slip * right**4


def mastery_stats(seqs: Seqs, rule_of: Callable[[str], Callable[[bytes], int | None]],
                  slip_of: Callable[[str], float] | None = None) -> dict[str, float]:
    """The rule's figures; with ``slip_of`` (each skill's fitted slip) also ``slip_floor``:
    the share "mastered then < 4 of the next 5 right" to expect from slips alone, if every
    student the rule calls mastered knew the skill."""
    total = mastered = 0
    to_mastery: list[int] = []
    next5: list[int] = []
    floor: list[float] = []
    ending_well = missed = 0
    for skill, group in seqs.items():
        rule = rule_of(skill)
        for seq in group:
            total += 1
            at = rule(seq)
            if at is not None:
                mastered += 1
                to_mastery.append(at + 1)
                after = seq[at + 1:at + 6]
                if len(after) == 5:
                    next5.append(sum(after))
                    if slip_of is not None:
                        floor.append(below_4_of_5(slip_of(skill)))
            if len(seq) >= 10 and sum(seq[-10:]) >= 9:
                ending_well += 1
                missed += at is None
    n5 = np.asarray(next5)
    return {"sequences": total, "mastered": mastered / total,
            "median_to_mastery": float(np.median(to_mastery)) if to_mastery else math.nan,
            "with_next5": len(next5), "next5_accuracy": float(n5.mean() / 5),
            "next5_below_4": float((n5 < 4).mean()), "ending_9_of_10": ending_well,
            "missed": missed / ending_well if ending_well else math.nan,
            "slip_floor": float(np.mean(floor)) if floor else math.nan}


# -- the run --------------------------------------------------------------------------------

def folds_of(students: Sequence[str], k: int, seed: int) -> dict[str, int]:
    order = np.random.default_rng(seed).permutation(len(students))
    return {students[j]: int(i % k) for i, j in enumerate(order)}


def cross_validate(seqs: Seqs, students: dict[str, list[str]], folds: dict[str, int],
                   k: int, num_fits: int, seed: int) -> tuple[dict[str, dict[str, list[float]]],
                                                               float, float]:
    """Our held-out predictions per skill and student, and the fits' CPU and wall time."""
    out: dict[str, dict[str, list[float]]] = {}
    wall = cpu = 0.0
    for fold in range(k):
        train = {s: [q for q, st in zip(seqs[s], students[s], strict=True) if folds[st] != fold]
                 for s in seqs}
        train = {s: v for s, v in train.items() if v}
        fits, w, c = _timed(lambda t=train: fit_skills(t, num_fits=num_fits, seed=seed))
        assert isinstance(fits, dict)
        wall, cpu = wall + w, cpu + c
        for s, f in fits.items():
            test = [(st, q) for q, st in zip(seqs[s], students[s], strict=True)
                    if folds[st] == fold]
            if not test:
                continue
            preds = predict([q for _st, q in test], f.fit)
            out.setdefault(s, {}).update({st: p.tolist() for (st, _q), p in
                                          zip(test, preds, strict=True)})
    return out, cpu, wall


def scores(seqs: Seqs, students: dict[str, list[str]], skills: Sequence[str],
           preds: dict[str, dict[str, list[float]]]) -> tuple[float, float, int]:
    ys, ps = [], []
    for s in skills:
        for q, st in zip(seqs[s], students[s], strict=True):
            if s in preds and st in preds[s]:
                ys.append(np.frombuffer(q, dtype=np.uint8).astype(float))
                ps.append(np.asarray(preds[s][st]))
    if not ys:
        return math.nan, math.nan, 0
    y, p = np.concatenate(ys), np.concatenate(ps)
    return auc(y, p), rmse(y, p), len(y)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--data", type=Path, default=DATA)
    ap.add_argument("--pybkt-python", default=str(ROOT / ".venv-pybkt" / "bin" / "python"))
    ap.add_argument("--pybkt-threads", type=int, default=1)
    ap.add_argument("--no-pybkt", action="store_true")
    ap.add_argument("--skills", type=int, default=0, help="only the N largest skills")
    ap.add_argument("--solo", type=int, default=LARGEST,
                    help="time this many of the largest skills fitted alone (default 10)")
    ap.add_argument("--folds", type=int, default=5)
    ap.add_argument("--no-cv", action="store_true")
    ap.add_argument("--num-fits", type=int, default=0,
                    help="starts per skill (default: ours and pyBKT's own defaults)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--json", type=Path, default=None, help="write every figure here")
    ap.add_argument("--fixture", type=Path, default=None,
                    help="write pyBKT's figures for --fixture-skills here (the test fixture "
                         "tests/tutor/data/pybkt_assistments.json)")
    ap.add_argument("--fixture-skills", default="7,90,33,11")
    args = ap.parse_args()

    seqs, students, read_cpu, peak = read(args.data)
    by_size = sorted(seqs, key=lambda s: (-sum(map(len, seqs[s])), s))
    if args.skills:
        by_size = by_size[:args.skills]
        seqs = {s: seqs[s] for s in by_size}
        students = {s: students[s] for s in by_size}
    largest = by_size[:LARGEST]
    answers = sum(len(q) for g in seqs.values() for q in g)
    print(f"# Knowledge tracing on {args.data.name}: {len(seqs)} skills, "
          f"{len({st for g in students.values() for st in g})} students, {answers:,} answers")
    print(f"read in {read_cpu:.2f} CPU s, Python's memory peak {peak:.1f} MiB\n")
    ours_kw = {"num_fits": args.num_fits} if args.num_fits else {}
    fitted, wall, cpu = _timed(lambda: fit_skills(seqs, seed=args.seed, **ours_kw))
    assert isinstance(fitted, dict)
    ours_fits = fitted
    ours_time = {"wall": wall, "cpu": cpu}
    ours_solo = {}
    for s in largest[:args.solo]:
        _f, w, c = _timed(lambda s=s: fit_skills({s: seqs[s]}, seed=args.seed, **ours_kw))
        ours_solo[s] = {"wall": w, "cpu": c}

    pb: dict[str, object] = {}
    folds = folds_of(sorted({st for g in students.values() for st in g}), args.folds,
                     args.seed)
    if not args.no_pybkt:
        probe = pybkt(args.pybkt_python, {"probe": True}, args.pybkt_threads)
        print(f"pyBKT {probe['version']} ({probe['build']} build, "
              f"{args.pybkt_threads} thread{'s' if args.pybkt_threads > 1 else ''}) from "
              f"{args.pybkt_python}\n")
        request = {"data": str(args.data), "skills": list(seqs), "solo": largest[:args.solo],
                   "num_fits": args.num_fits or 5, "seed": args.seed,
                   "parallel": args.pybkt_threads > 1,
                   "folds": None if args.no_cv else folds}
        pb = pybkt(args.pybkt_python, request, args.pybkt_threads)
    pb_params = {s: _fp(d) for s, d in pb.get("params", {}).items()}  # type: ignore[union-attr]
    if args.fixture and pb_params:
        write_fixture(args, pb, pb_params, seqs, students)

    # 2. parameters and log-likelihood
    ll_ours = {s: f.log_likelihood for s, f in ours_fits.items()}
    ll_pb = {s: log_likelihood(seqs[s], p) for s, p in pb_params.items()}
    print("## The 10 largest skills: parameters (prior/learn/guess/slip), log-likelihood, "
          "fit time of the skill alone (CPU s)\n")
    print("| skill | answers | ours | pyBKT | LL ours | LL pyBKT | ours − pyBKT | "
          "time ours | time pyBKT |")
    print("|---|---|---|---|---|---|---|---|---|")
    solo_pb = pb.get("solo", {})
    for s in largest:
        f = ours_fits[s].fit
        p = pb_params.get(s)
        lp = ll_pb.get(s, math.nan)
        tp = solo_pb.get(s, {}).get("cpu", math.nan)  # type: ignore[union-attr]
        to = ours_solo.get(s, {}).get("cpu", math.nan)
        times = ("— | —" if math.isnan(to) or math.isnan(tp)  # type: ignore[arg-type]
                 else f"{to:.2f} | {tp:.2f}")
        print(f"| {s} | {sum(map(len, seqs[s])):,} | {_p(f)} | {_p(p) if p else '—'} | "
              f"{ll_ours[s]:,.1f} | {lp:,.1f} | {ll_ours[s] - lp:+.1f} "
              f"({(ll_ours[s] - lp) / abs(lp):+.3%}) | {times} |")
    worse = [s for s in pb_params if ll_ours[s] < ll_pb[s] - 1e-3 * abs(ll_pb[s])]
    worse_any = [s for s in pb_params if ll_ours[s] < ll_pb[s] - 1e-6 * abs(ll_pb[s])]
    outside = [s for s in worse_any if _outside(pb_params[s])]
    print(f"\nAll {len(seqs)} skills: ours below pyBKT's log-likelihood by more than 0.1% on "
          f"{len(worse)} ({', '.join(worse) or 'none'}); by more than 0.0001% on "
          f"{len(worse_any)} ({', '.join(worse_any) or 'none'}), of which {len(outside)} where "
          f"pyBKT's fit is outside our bounds (a probability below {LOW} or above 1 − {LOW}, "
          f"or guess + slip above 1 − {MIN_GAP}); total ours {sum(ll_ours.values()):,.1f}, "
          f"pyBKT {sum(ll_pb.values()):,.1f}.")
    pb_all = pb.get("all", {})
    print(f"\nAll {len(seqs)} skills at once: ours {ours_time['cpu']:.2f} CPU s "
          f"({ours_time['wall']:.2f} wall)", end="")
    if pb_all:
        pc, pw = pb_all["cpu"], pb_all["wall"]  # type: ignore[index]
        ratio = ours_time["cpu"] / pc
        said = (f"ours takes {ratio:.2f}× pyBKT's CPU time" if ratio >= 0.1
                else f"pyBKT takes {1 / ratio:,.0f}× ours")
        print(f", pyBKT {pc:.2f} CPU s ({pw:.2f} wall): {said}.")
    else:
        print(".")

    # 3. predictions agree
    if pb_params:
        worst = 0.0
        pb_pred = pb["predictions"]
        assert isinstance(pb_pred, dict)
        for s, p in pb_params.items():
            mine = predict(seqs[s], p)
            for q_pred, st in zip(mine, students[s], strict=True):
                worst = max(worst, float(np.abs(q_pred - np.asarray(pb_pred[s][st])).max()))
        print(f"\npyBKT's predict() and ours with pyBKT's parameters differ by at most "
              f"{worst:.2e} over all {answers:,} answers.")

    # 4. degenerate fits
    def degenerate(ps: dict[str, FitParams]) -> list[str]:
        return [s for s, p in ps.items()
                if any(math.isnan(v) for v in (p.p_init, p.p_learn, p.p_guess, p.p_slip))
                or p.p_guess + p.p_slip >= 1]
    ours_fp = {s: f.fit for s, f in ours_fits.items()}
    print(f"\nDegenerate fits (NaN, guess + slip ≥ 1): ours {len(degenerate(ours_fp))}"
          + (f", pyBKT {len(degenerate(pb_params))} ({', '.join(degenerate(pb_params))})"
             if pb_params else "")
          + f". Guess above 0.5: ours {sum(p.p_guess > 0.5 for p in ours_fp.values())}"
          + (f", pyBKT {sum(p.p_guess > 0.5 for p in pb_params.values())}" if pb_params else "")
          + f". Ours at a bound: {sum(bool(f.at_bound) for f in ours_fits.values())} skills "
            f"({_bounds(ours_fits)}); guess + slip at its limit 1 − {MIN_GAP} on "
            f"{sum('p_guess+p_slip' in f.at_bound for f in ours_fits.values())}."
          + f" Not converged in the iteration limit: "
            f"{sum(not f.converged for f in ours_fits.values())}.")

    # 5. cross-validation
    cv: dict[str, object] = {}
    if not args.no_cv:
        preds, c_cpu, c_wall = cross_validate(seqs, students, folds, args.folds,
                                              args.num_fits or 6, args.seed)
        pb_cv = pb.get("cv", {})
        assert isinstance(pb_cv, dict)
        print(f"\n## {args.folds}-fold cross-validation by student (the same folds): held-out "
              f"AUC and RMSE\n")
        print("| skill | AUC ours | AUC pyBKT | RMSE ours | RMSE pyBKT |")
        print("|---|---|---|---|---|")
        for s in largest:
            a1, r1, _n = scores(seqs, students, [s], preds)
            a2, r2, _n = scores(seqs, students, [s], pb_cv) if pb_cv else (math.nan,) * 3
            print(f"| {s} | {a1:.4f} | {a2:.4f} | {r1:.4f} | {r2:.4f} |")
        for label, group in ((f"pooled, {len(largest)} largest", largest),
                             (f"pooled, all {len(seqs)}", list(seqs))):
            a1, r1, n1 = scores(seqs, students, group, preds)
            a2, r2, n2 = scores(seqs, students, group, pb_cv) if pb_cv else (math.nan,) * 3
            print(f"| **{label}** ({n1:,} answers) | **{a1:.4f}** | **{a2:.4f}** | "
                  f"{r1:.4f} | {r2:.4f} |")
            cv[label] = {"auc_ours": a1, "auc_pybkt": a2, "rmse_ours": r1, "rmse_pybkt": r2}
        pt = pb.get("cv_time", {})
        print(f"\nThe {args.folds} fits: ours {c_cpu:.2f} CPU s ({c_wall:.2f} wall)"
              + (f", pyBKT {pt['cpu']:.2f} CPU s ({pt['wall']:.2f} wall)."  # type: ignore[index]
                 if pt else "."))

    # 6. mastery rules
    print("\n## Mastery rules replayed on every student and skill (each answer an "
          "unscaffolded first answer)\n")
    print("| rule | mastered | median answers to mastery | next 5 right | mastered then "
          "< 4 of the next 5 right | from slips alone (our slips) | missed (never mastered, "
          "≥ 9 of the last 10 right) |")
    print("|---|---|---|---|---|---|---|")
    rules: list[tuple[str, Callable[[str], Callable[[bytes], int | None]]]] = [
        ("the tutor's rule, our parameters", lambda s: rule_ours(ours_fits[s].params)),
    ]
    if pb_params:
        bad = degenerate(pb_params)  # the tutor refuses guess + slip ≥ 1: 3 in a row there
        rules.append(("the tutor's rule, pyBKT's parameters"
                      + (f" (3 in a row on {', '.join(bad)}: guess + slip ≥ 1)" if bad else ""),
                      lambda s: rule_streak(3) if s in bad else rule_ours(pb_params[s].bkt())))
        rules.append(("BKT ≥ 0.95, pyBKT's parameters", lambda s: rule_bkt(pb_params[s])))
    rules.append(("BKT ≥ 0.95, our parameters", lambda s: rule_bkt(ours_fits[s].fit)))
    rules.append(("7 right in a row (the tutor's streak alone)", lambda s: rule_streak(7)))
    rules.append(("3 right in a row (ASSISTments)", lambda s: rule_streak(3)))
    mastery: dict[str, dict[str, float]] = {}
    for label, rule in rules:
        st, _w, c = _timed(lambda r=rule: mastery_stats(
            seqs, r, lambda s: ours_fits[s].fit.p_slip))
        assert isinstance(st, dict)
        mastery[label] = st
        print(f"| {label} | {st['mastered']:.1%} | {st['median_to_mastery']:.0f} | "
              f"{st['next5_accuracy']:.1%} | {st['next5_below_4']:.1%} "
              f"(of {st['with_next5']:,}) | {st['slip_floor']:.1%} | {st['missed']:.1%} "
              f"(of {st['ending_9_of_10']:,}) |")

    if args.json:
        args.json.write_text(json.dumps({
            "ours": {s: {**vars(f.fit), "log_likelihood": f.log_likelihood,
                         "at_bound": list(f.at_bound), "iterations": f.iterations}
                     for s, f in ours_fits.items()},
            "pybkt": {s: {**vars(p), "log_likelihood": ll_pb[s]} for s, p in pb_params.items()},
            "time": {"ours": ours_time, "pybkt": pb_all, "ours_solo": ours_solo,
                     "pybkt_solo": solo_pb},
            "cv": cv, "mastery": mastery}, indent=1))


def write_fixture(args: argparse.Namespace, pb: dict[str, object],
                  params: dict[str, FitParams], seqs: Seqs,
                  students: dict[str, list[str]]) -> None:
    """pyBKT's parameters for a few skills, the log-likelihood of the data under them (by
    the exact forward pass) and its predict() for the first students, with the command."""
    preds = pb["predictions"]
    assert isinstance(preds, dict)
    skills = args.fixture_skills.split(",")
    fixture = {
        "command": "python benchmarks/kt_real_data.py " + " ".join(sys.argv[1:]),
        "pybkt": f"pyBKT {pb.get('version', '1.4.3')} ({pb['build']} build), "
                 f"Model(seed={args.seed}, num_fits={args.num_fits or 5}), all "
                 f"{len(seqs)} skills fitted in one call",
        "data": args.data.name,
        "skills": {s: {**{k: round(v, 6) for k, v in vars(params[s]).items()
                          if k != "p_forget"},
                       "log_likelihood": round(log_likelihood(seqs[s], params[s]), 4),
                       "predictions": {st: [round(x, 9) for x in preds[s][st][:10]]
                                       for st in students[s][:3]}}
                   for s in skills},
    }
    args.fixture.write_text(json.dumps(fixture, indent=1) + "\n")


def _outside(p: FitParams) -> bool:
    values = (p.p_init, p.p_learn, p.p_guess, p.p_slip)
    return any(not LOW <= v <= 1 - LOW for v in values) or p.p_guess + p.p_slip > 1 - MIN_GAP


def _p(p: FitParams | None) -> str:
    if p is None:
        return "—"
    return f"{p.p_init:.3f}/{p.p_learn:.3f}/{p.p_guess:.3f}/{p.p_slip:.3f}"


def _bounds(fits: dict[str, SkillFit]) -> str:
    counts: dict[str, int] = {}
    for f in fits.values():
        for name in f.at_bound:
            counts[name] = counts.get(name, 0) + 1
    return ", ".join(f"{k} {v}" for k, v in sorted(counts.items())) or "none"


if __name__ == "__main__":
    main()
