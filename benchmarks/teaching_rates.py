"""The teaching goals, measured with simulated students (tutor.commands.simulate) in one run:

    python benchmarks/teaching_rates.py [--students 50] [--seeds 2,3] [--lessons 04-times,...]
                                        [--jobs 1] [--json FILE] [--no-pairs] [--no-review]
                                        [--naming]

Every figure is measured on each seed (two by default, neither of them 1, the seed the rules
were once tuned on), each cell reads ``seed2/seed3`` and is met (✔) only when every seed
meets it. Per shipped lesson (tutor.course.lessons.list_lessons):

1. The goals (tutor.commands.goals.GOALS; issue 32 part 8 and issue 42): ``calculator``,
   ``hints`` and ``random`` master 0%; ``scaffold:NAME:0.6`` ≤ 10% (NAME: the lesson's
   mistake of LESSON_MISTAKES); ``perfect`` ≥ 95%; ``learner:0.15`` ≥ 95% by the lesson's end;
   ``slips:0.1`` ≥ 90%; ``bkt:0.1,0.05,0.1,0.2`` ≥ 70% by the lesson's end; ``facts:5``
   masters × or ² 0%; of the ``bkt`` and ``learner`` students called mastered, ≤ 5% do not
   know the skill (``mastered_while_wrong``); ``slips:0.1``'s typos named as a catalogue
   mistake ≤ 10%. (Lessons without targets end with their match: the goals "by the
   lesson's end" are n/a there, printed with the value measured all the same.)
2. What a perfect student pays: questions per student, and per target the median number of
   questions of that skill asked when it was first mastered.
3. Every (lesson, skill it practises, catalogue mistake of that skill its questions can show)
   — tutor.commands.goals.mistake_pairs, from tutor.teaching.coverage — played by
   ``mistake:NAME:0.3``: called mastered in that skill ≤ 20%.
4. Review: ``forget:5`` students master the lesson on day 0 and open it again 6.5 days later;
   each skill mastered and forgotten must have lost mastery once its review items are
   answered (≥ 95%).

``--naming`` adds the older table: for every catalogue mistake, how often a student who always
makes it is named as making it in free play. ``--jobs N`` plays in N processes (on a shared
2-core machine keep 1). ``--json FILE`` also writes every figure.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tutor.commands.goals import (  # noqa: E402
    GOALS,
    PAIR_BOUND,
    PAIR_SHARE,
    GoalResult,
    goal_profiles,
    judge,
    mistake_pairs,
    pair_result,
    review_trial,
)
from tutor.commands.simulate import simulate  # noqa: E402
from tutor.course.lessons import list_lessons, load_lesson  # noqa: E402
from tutor.teaching.diagnosis import CATALOG  # noqa: E402

REVIEW_GOAL = 0.95


def _play(task: tuple[str, int, str, int]) -> tuple[str, str, int, dict[str, Any]]:
    lesson, students, profile, seed = task
    return lesson, profile, seed, dict(simulate(lesson, students, profile, seed))


def _review(task: tuple[str, int, int]) -> tuple[str, int, tuple[int, int]]:
    lesson, students, seed = task
    trial = review_trial(lesson, students, seed)
    return lesson, seed, (trial.forgotten, trial.lost)


def _pct(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.0%}"


def _cell(results: list[GoalResult]) -> str:
    if all(r.value is None for r in results):
        return "n/a"
    met = all(r.met for r in results)
    return "/".join(_pct(r.value) for r in results) + (" ✔" if met else " ✘")


def _map(fn: Any, tasks: list[Any], jobs: int) -> list[Any]:
    if jobs > 1:
        from multiprocessing import Pool

        with Pool(jobs) as pool:
            return pool.map(fn, tasks, chunksize=1)
    return [fn(t) for t in tasks]


def goals_and_pairs(lessons: list[str], students: int, seeds: list[int], jobs: int,
                    with_pairs: bool, out: dict[str, Any]) -> None:
    """The goals' table, what a perfect student pays, and the catalogue pairs."""
    profiles = {lesson: goal_profiles(lesson) for lesson in lessons}
    pairs = {} if not with_pairs else {lesson: mistake_pairs(lesson) for lesson in lessons}
    tasks = sorted({(lesson, students, p, seed) for lesson in lessons for seed in seeds
                    for p in [*profiles[lesson].values(),
                              *(f"mistake:{m}:{PAIR_SHARE}" for _, m in pairs.get(lesson, []))]
                    if p})
    reports: dict[tuple[str, str, int], dict[str, Any]] = {}
    for lesson, profile, seed, report in _map(_play, tasks, jobs):
        reports[(lesson, profile, seed)] = report
    results = {(lesson, seed): judge(lesson, profiles[lesson],
                                     {p: reports[(lesson, p, seed)]
                                      for p in profiles[lesson].values() if p})
               for lesson in lessons for seed in seeds}

    print(f"teaching goals: {students} students per profile, seeds "
          f"{'/'.join(map(str, seeds))} (each cell: the seeds' values; ✔ when every seed "
          "meets the goal)")
    print(f"{'lesson':16} " + " ".join(f"{g.key[:11]:>13}" for g in GOALS))
    met = total = 0
    for lesson in lessons:
        cells = []
        for k, g in enumerate(GOALS):
            row = [results[(lesson, seed)][k] for seed in seeds]
            cells.append(_cell(row))
            if any(r.value is not None for r in row):
                total += 1
                met += all(r.met for r in row)
            for seed, r in zip(seeds, row, strict=True):
                out["goals"].append({"lesson": lesson, "seed": seed, "goal": g.key,
                                     "text": g.text, "profile": r.profile, "value": r.value,
                                     "met": r.met, "not_applicable": r.reason})
        print(f"{lesson:16} " + " ".join(f"{c:>13}" for c in cells))
    print(f"goals met (on every seed): {met} of {total}")
    for g in GOALS:
        print(f"  {g.key:11} {g.text}")
    for lesson in lessons:
        for seed in seeds:
            for r in results[(lesson, seed)]:
                if r.value is None and r.reason:
                    print(f"  n/a: {lesson} seed {seed} {r.goal.key}: {r.reason}")
    print("  NAME per lesson: " + ", ".join(
        f"{lesson} {profiles[lesson]['scaffold'].split(':')[1]}"
        for lesson in lessons if profiles[lesson]["scaffold"]))

    print()
    print("what a perfect student pays: questions per student; per target, the median "
          "questions of it asked when first mastered")
    for lesson in lessons:
        targets = sorted(load_lesson(lesson).plan.focus)
        parts = []
        for seed in seeds:
            r = reports[(lesson, "perfect", seed)]
            per = {s: r["skills"][s]["questions_to_mastery"] for s in targets
                   if s in r["skills"]}
            parts.append(f"{r['questions_per_student']:.1f}")
            out["questions"].append({"lesson": lesson, "seed": seed,
                                     "questions_per_student": r["questions_per_student"],
                                     "to_mastery": per})
        r0 = reports[(lesson, "perfect", seeds[0])]
        per0 = ", ".join(f"{s} {r0['skills'][s]['questions_to_mastery']}" for s in targets
                         if s in r0["skills"])
        print(f"  {lesson:16} {'/'.join(parts):>11}  (seed {seeds[0]}: {per0})")

    if pairs:
        print()
        print(f"every (lesson, skill, mistake its questions can show): mistake:NAME:{PAIR_SHARE}"
              f" called mastered in the skill (goal ≤ {PAIR_BOUND:.0%} on every seed)")
        over = count = 0
        for lesson in lessons:
            for skill, m in pairs[lesson]:
                values = [pair_result(reports[(lesson, f"mistake:{m}:{PAIR_SHARE}", seed)],
                                      skill) for seed in seeds]
                bad = any(v > PAIR_BOUND for v in values)
                over += bad
                count += 1
                print(f"  {lesson:16} {skill:10} {m:28} "
                      + "/".join(f"{v:.0%}" for v in values) + (" ✘" if bad else " ✔"))
                out["pairs"].append({"lesson": lesson, "skill": skill, "mistake": m,
                                     "values": values, "met": not bad})
        print(f"pairs above {PAIR_BOUND:.0%} on some seed: {over} of {count}")



def review_table(lessons: list[str], students: int, seeds: list[int], jobs: int,
                 out: dict[str, Any]) -> None:
    """The review trial (tutor.commands.goals.review_trial) on every lesson with targets."""
    print()
    print(f"review: forget:5 students, a skill mastered on day 0 and forgotten by day 6.5 "
          f"loses mastery at its first review (goal ≥ {REVIEW_GOAL:.0%} in every lesson)")
    trials = _map(_review, [(lesson, students, seed) for lesson in lessons for seed in seeds
                            if load_lesson(lesson).targets], jobs)
    forgotten = lost = 0
    for lesson, seed, (f, lo) in trials:
        forgotten += f
        lost += lo
        out["review"].append({"lesson": lesson, "seed": seed, "forgotten": f, "lost": lo})
        share = lo / f if f else 1.0
        print(f"  {lesson:16} seed {seed}: {lo} of {f} lost mastery ({share:.0%}) "
              f"{'✔' if share >= REVIEW_GOAL else '✘'}")
    share = lost / forgotten if forgotten else 0.0
    print(f"in all: {lost} of {forgotten} ({share:.1%})")


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    ap.add_argument("--students", type=int, default=50)
    ap.add_argument("--seeds", default="2,3", help="comma-separated seeds (default 2,3)")
    ap.add_argument("--lessons", default="",
                    help="comma-separated lesson ids (default: every shipped lesson)")
    ap.add_argument("--jobs", type=int, default=1, help="processes to play in (default 1)")
    ap.add_argument("--json", default="", help="also write every figure to this file")
    ap.add_argument("--no-pairs", action="store_true", help="leave out the mistake pairs")
    ap.add_argument("--no-review", action="store_true", help="leave out the review trial")
    ap.add_argument("--review-only", action="store_true",
                    help="only the review trial (no goals, no pairs)")
    ap.add_argument("--naming", action="store_true",
                    help="add the table of each mistake named when made (free play)")
    args = ap.parse_args()
    started = time.perf_counter()
    seeds = [int(s) for s in args.seeds.split(",")]
    lessons = [lesson.id for lesson in list_lessons()]
    if args.lessons:
        wanted = args.lessons.split(",")
        unknown = sorted(set(wanted) - set(lessons))
        if unknown:
            ap.error(f"unknown lessons: {', '.join(unknown)}; the lessons: {', '.join(lessons)}")
        lessons = [lesson for lesson in lessons if lesson in wanted]
    out: dict[str, Any] = {"students": args.students, "seeds": seeds, "goals": [],
                           "questions": [], "pairs": [], "review": []}
    if not args.review_only:
        goals_and_pairs(lessons, args.students, seeds, args.jobs, not args.no_pairs, out)
    if not args.no_review:
        review_table(lessons, args.students, seeds, args.jobs, out)
    print(f"({time.perf_counter() - started:.0f} s)")
    if args.naming:
        print()
        print(f"mistake named when made (free-play, {args.students} students each, always "
              "making it)")
        print(f"{'mistake':30} {'named':>7} {'of':>6} {'rate':>6}  by question rule")
        for rule in CATALOG:
            r = simulate("free-play", args.students, f"mistake:{rule.id}:1", seeds[0])
            d = r["diagnosis"]
            rate = f"{d['named'] / d['of']:6.0%}" if d["of"] else "     -"
            rules = ", ".join(f"{k} {v['named']}/{v['of']}" for k, v in d["by_rule"].items())
            print(f"{rule.id:30} {d['named']:7} {d['of']:6} {rate}  {rules}")
        print(f"({time.perf_counter() - started:.0f} s in all)")
    if args.json:
        Path(args.json).write_text(json.dumps(out, indent=1, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main()
