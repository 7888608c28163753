"""The answer → feedback click, first ones in a fresh kernel (issue 35 part 5).

    python benchmarks/answer_click.py [--seeds 8] [--answers 4] [--cold]

Each seed runs in a fresh process: the play page's app (two players, greedy bot), what a live
page runs once the board is out (:func:`tutor.teaching.questions.warm_up`; ``--cold`` skips it),
then
moves until a question is pending and answers it right, ``--answers`` times. It reports the
CPU milliseconds of each answer click (the session's check and record, the feedback with its
worked solution, the redraw), first answer apart: the first pays for whatever the formulas
load.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

from serving import run_child

ROOT = Path(__file__).resolve().parents[1]

CHILD = r"""
import json, os, sys, time
from tutor.teaching.questions import warm_up
from tutor.ui.play.app import TutorApp
app = TutorApp(players=2, bots="greedy", seed=int(os.environ["AC_SEED"]), lang="en", pace=0.0,
               store=None)
if os.environ["AC_COLD"] != "1":
    warm_up("en")
from tests.playing import play_to_question  # the repository is on the path
times = []
while len(times) < int(os.environ["AC_ANSWERS"]):
    q = play_to_question(app)
    if q is None:
        break
    t0 = time.process_time()
    app._submit(str(q.expected))
    times.append((time.process_time() - t0) * 1000)
print(json.dumps({"times": times, "sympy": "sympy" in sys.modules}))
"""


def run(seed: int, answers: int, cold: bool) -> dict:
    return run_child(CHILD, {"AC_SEED": str(seed), "AC_ANSWERS": str(answers),
                             "AC_COLD": "1" if cold else "0"})


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", type=int, default=8)
    parser.add_argument("--answers", type=int, default=4)
    parser.add_argument("--cold", action="store_true", help="no warm_up before playing")
    args = parser.parse_args(argv)
    first: list[float] = []
    later: list[float] = []
    sympy = False
    for seed in range(args.seeds):
        out = run(seed, args.answers, args.cold)
        first += out["times"][:1]
        later += out["times"][1:]
        sympy = sympy or out["sympy"]
    print(f"answer click, CPU ms ({'cold' if args.cold else 'after warm_up'}, "
          f"{args.seeds} fresh kernels): first median {statistics.median(first):.1f} "
          f"max {max(first):.1f}; later median {statistics.median(later):.1f} "
          f"max {max(later):.1f} ({len(later)}); sympy loaded: {'yes' if sympy else 'no'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
