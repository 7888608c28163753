"""The teaching goals, measured with simulated students (tutor.commands.simulate) in one run:

    python benchmarks/teaching_rates.py [--students 50] [--seed 1] [--lessons 04-times,02-plus]
                                        [--jobs 1] [--json]

First, per shipped lesson (tutor.course.lessons.list_lessons), the goals of issue 32 part 8
(tutor.commands.simulate.GOALS), each cell the measured share and ✔ (met) or ✘ (not met):

* ``calculator`` (types the working, never the number) masters 0% of every target skill;
* ``hints`` (asks every hint to the answer) masters 0% of the skills it only saw worked out;
* ``scaffold:NAME:0.6`` masters the mistake's skill in ≤ 10% of students, ``mistake:NAME:0.3``
  in ≤ 20% (NAME: the lesson's mistake, tutor.commands.simulate.LESSON_MISTAKES, printed below);
* ``perfect`` masters every target skill in ≥ 95%, ``bkt:0.1,0.05,0.1,0.2`` in ≥ 70%;
* ``random`` masters ≤ 2% of every target skill;
  (a lesson without targets ends with its match: this goal is "n/a" there, with the reason
  and the value measured all the same printed under the table);
* ``bkt:0.1,0.05,0.1,0.2``: of the students called mastered in a skill, ≤ 5% do not know it
  (``mastered_while_wrong``, the largest over the target skills).

Beside them, the lesson's length for a perfect student: questions and tiles it placed. Then, for
every mistake in the diagnosis catalogue, how often a student who always makes it is named as
making it in free play (goal for added_instead_of_multiplied on x/n: ≥ 80%).

``--jobs N`` plays the lessons' profiles in N processes (on a shared 2-core machine 1 is as fast).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tutor.commands.simulate import GOALS, goal_profiles, judge, simulate  # noqa: E402
from tutor.course.lessons import list_lessons  # noqa: E402
from tutor.teaching.diagnosis import CATALOG  # noqa: E402


def _play(task: tuple[str, int, str, int]) -> tuple[str, str, dict[str, Any]]:
    lesson, students, profile, seed = task
    return lesson, profile, simulate(lesson, students, profile, seed)


def _cell(value: float | None, met: bool) -> str:
    return "   n/a  " if value is None else f"{value:5.0%} {'✔' if met else '✘'} "


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--students", type=int, default=50)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--lessons", default="",
                    help="comma-separated lesson ids (default: every shipped lesson)")
    ap.add_argument("--jobs", type=int, default=1, help="processes to play in (default 1)")
    ap.add_argument("--no-naming", action="store_true",
                    help="leave out the second table (mistake named when made)")
    ap.add_argument("--json", action="store_true", help="print the goals as JSON")
    args = ap.parse_args()
    started = time.perf_counter()
    lessons = [lesson.id for lesson in list_lessons()]
    if args.lessons:
        wanted = args.lessons.split(",")
        unknown = sorted(set(wanted) - set(lessons))
        if unknown:
            ap.error(f"unknown lessons: {', '.join(unknown)}; the lessons: {', '.join(lessons)}")
        lessons = [lesson for lesson in lessons if lesson in wanted]
    profiles = {lesson: goal_profiles(lesson, seed=args.seed) for lesson in lessons}
    tasks = [(lesson, args.students, p, args.seed) for lesson in lessons
             for p in dict.fromkeys(profiles[lesson].values()) if p]
    if args.jobs > 1:
        from multiprocessing import Pool

        with Pool(args.jobs) as pool:
            played = pool.map(_play, tasks, chunksize=1)
    else:
        played = [_play(t) for t in tasks]
    reports: dict[str, dict[str, dict[str, Any]]] = {}
    for lesson, profile, report in played:
        reports.setdefault(lesson, {})[profile] = report
    results = {lesson: judge(lesson, profiles[lesson], reports[lesson]) for lesson in lessons}
    if args.json:
        print(json.dumps([{"lesson": r.lesson, "goal": r.goal.text, "profile": r.profile,
                           "value": r.value, "met": r.met, "not_applicable": r.reason}
                          for lesson in lessons for r in results[lesson]], indent=2,
                         ensure_ascii=False))
        return
    print(f"teaching goals: {args.students} students per profile, seed {args.seed}")
    print(f"{'lesson':15} {'questions':>9} {'tiles':>5} "
          + " ".join(f"{g.key[:8]:>8}" for g in GOALS) + "  met")
    met = total = 0
    for lesson in lessons:
        perfect = reports[lesson]["perfect"]
        row = results[lesson]
        met += sum(r.met for r in row if r.value is not None)
        total += sum(r.value is not None for r in row)
        print(f"{lesson:15} {perfect['questions_per_student']:9.1f} "
              f"{perfect['tiles_placed_per_student']:5.1f} "
              + " ".join(_cell(r.value, r.met) for r in row)
              + f" {sum(r.met for r in row if r.value is not None)}/"
                f"{sum(r.value is not None for r in row)}")
    print(f"goals met: {met} of {total}")
    for lesson in lessons:
        for r in results[lesson]:
            if r.value is None:
                print(f"  n/a: {lesson} {r.goal.key}: {r.reason}")
    print("questions: per perfect student; tiles: tiles the student placed itself (not the "
          "bots'), per perfect student")
    for g in GOALS:
        print(f"  {g.key:10} {g.text}")
    print("  NAME per lesson: " + ", ".join(f"{lesson} {profiles[lesson]['mistake'].split(':')[1]}"
                                           for lesson in lessons if profiles[lesson]["mistake"]))
    print(f"({time.perf_counter() - started:.0f} s)")
    if args.no_naming:
        return
    print()
    print(f"mistake named when made (free-play, {args.students} students each, always making it)")
    print(f"{'mistake':30} {'named':>7} {'of':>6} {'rate':>6}  by question rule")
    for rule in CATALOG:
        r = simulate("free-play", args.students, f"mistake:{rule.id}:1", args.seed)
        d = r["diagnosis"]
        rate = f"{d['named'] / d['of']:6.0%}" if d["of"] else "     -"
        rules = ", ".join(f"{k} {v['named']}/{v['of']}" for k, v in d["by_rule"].items())
        print(f"{rule.id:30} {d['named']:7} {d['of']:6} {rate}  {rules}")
    print(f"({time.perf_counter() - started:.0f} s in all)")


if __name__ == "__main__":
    main()
