"""The teaching goals, measured with simulated students (tutor.simulate) in one run:

    python benchmarks/teaching_rates.py [--students 50] [--seed 1]

Per shipped lesson: the share of questions that are not arithmetic (goal ≤ 10%), the share of
`perfect` students who master every target skill (goal ≥ 95%) and of `random` guessers who do
(goal ≤ 5%). Then, for every mistake in the diagnosis catalogue, how often a student who always
makes it is named as making it (goal for added_instead_of_multiplied on x/n: ≥ 80%).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tutor.diagnosis import CATALOG  # noqa: E402
from tutor.lessons import list_lessons  # noqa: E402
from tutor.simulate import simulate  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--students", type=int, default=50)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    print(f"{'lesson':24} {'questions':>9} {'not arith.':>10} {'perfect ✔':>10} "
          f"{'random ✔':>9}")
    for lesson in list_lessons():
        perfect = simulate(lesson.id, args.students, "perfect", args.seed)
        guesser = simulate(lesson.id, args.students, "random", args.seed)
        print(f"{lesson.id:24} {perfect['questions_per_student']:9.1f} "
              f"{perfect['non_arithmetic_share']:10.1%} "
              f"{perfect['all_targets_mastered_share']:10.0%} "
              f"{guesser['all_targets_mastered_share']:9.0%}")
    print()
    print(f"mistake named when made (free-play, {args.students} students each, always making it)")
    print(f"{'mistake':30} {'named':>7} {'of':>6} {'rate':>6}  by question rule")
    for rule in CATALOG:
        r = simulate("free-play", args.students, f"mistake:{rule.id}:1", args.seed)
        d = r["diagnosis"]
        rate = f"{d['named'] / d['of']:6.0%}" if d["of"] else "     -"
        rules = ", ".join(f"{k} {v['named']}/{v['of']}" for k, v in d["by_rule"].items())
        print(f"{rule.id:30} {d['named']:7} {d['of']:6} {rate}  {rules}")


if __name__ == "__main__":
    main()
