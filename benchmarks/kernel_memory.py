"""What a student's kernel holds after a lesson's first question (issue 35 part 5).

    python benchmarks/kernel_memory.py [--lesson 04-times] [--seed 100] [--json]

Each measure runs in a fresh Python process that loads what a Voilà kernel loads
(``ipykernel``), makes the play page's one call (``tutor.ui.dashboard``, for a lesson link),
plays the first offered move until the tutor asks its first question, then runs what a live
page runs once the board is shown (:func:`tutor.teaching.questions.warm_up`: the MathML converter
and
number formats; formulas need no sympy since tutor.teaching.formula). It reports:

- resident memory (``VmRSS`` from /proc) after the kernel's own imports, after the page is
  built, at the first question and after the warm-up;
- Python's allocations still held at the end (``tracemalloc``, in a second process: tracing
  itself costs memory), by package: the project, each third-party package, the standard
  library;
- the modules loaded, by package.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from serving import run_child

ROOT = Path(__file__).resolve().parents[1]

CHILD = r"""
import json, os, re, sys, tracemalloc
trace = os.environ.get("KM_TRACE") == "1"
if trace:
    tracemalloc.start(1)

def rss():
    for line in open("/proc/self/status"):
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0

out = {"rss_mib": {}}
import ipykernel.ipkernel, ipykernel.kernelapp  # what every kernel has loaded
out["rss_mib"]["kernel"] = rss()
from tutor.ui import dashboard
app = dashboard(os.environ["KM_LESSON"], lang="en", seed=int(os.environ["KM_SEED"]),
                student="memory")
out["rss_mib"]["page"] = rss()
from tests.playing import play_to_question  # the repository is on the path
out["question"] = play_to_question(app) is not None
out["rss_mib"]["first_question"] = rss()
from tutor.teaching.questions import warm_up
warm_up("en")
out["rss_mib"]["warmed_up"] = rss()

def group(name):
    top = name.split(".")[0]
    return top

mods = {}
for name in list(sys.modules):
    g = group(name)
    mods[g] = mods.get(g, 0) + 1
out["modules"] = mods
out["has"] = {m: m in sys.modules for m in ("sympy", "babel", "babel.dates", "numpy",
                                               "mpmath", "latex2mathml")}
if trace:
    snap = tracemalloc.take_snapshot()
    sizes = {}
    site = re.compile(r"site-packages/([^/]+)")
    std = re.compile(r"python3\.\d+/([^/]+)")
    root = os.environ["KM_ROOT"]
    for stat in snap.statistics("filename"):
        f = stat.traceback[0].filename
        if f.startswith(root):
            key = "project:" + f[len(root):].lstrip("/").split("/")[0]
        elif m := site.search(f):
            key = m.group(1).split(".")[0].split("-")[0]
        elif m := std.search(f):
            key = "stdlib"
        else:
            key = "other"
        sizes[key] = sizes.get(key, 0) + stat.size
    out["traced_mib"] = {k: v / 2**20 for k, v in sorted(sizes.items(), key=lambda kv: -kv[1])}
print(json.dumps(out))
"""


def run(lesson: str, seed: int, trace: bool) -> dict:
    return run_child(CHILD, {"KM_LESSON": lesson, "KM_SEED": str(seed), "KM_ROOT": str(ROOT),
                             "KM_TRACE": "1" if trace else "0"})


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--lesson", default="04-times")
    parser.add_argument("--seed", type=int, default=100)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    plain = run(args.lesson, args.seed, trace=False)
    traced = run(args.lesson, args.seed, trace=True)
    report = {"lesson": args.lesson, "seed": args.seed, "rss_mib": plain["rss_mib"],
              "reached_question": plain["question"], "loaded": plain["has"],
              "modules": plain["modules"], "traced_mib": traced.get("traced_mib", {})}
    if args.json:
        print(json.dumps(report, indent=2))
        return 0
    print(f"lesson {args.lesson}, seed {args.seed}: resident memory (MiB) "
          + ", ".join(f"{k} {v:.1f}" for k, v in report["rss_mib"].items())
          + ("" if report["reached_question"] else "  (no question reached)"))
    print("loaded: " + ", ".join(f"{k} {'yes' if v else 'no'}"
                                 for k, v in report["loaded"].items()))
    big = sorted(report["modules"].items(), key=lambda kv: -kv[1])[:12]
    print("modules by package: " + ", ".join(f"{k} {n}" for k, n in big))
    print("Python allocations held (tracemalloc, MiB): " + ", ".join(
        f"{k} {v:.1f}" for k, v in list(report["traced_mib"].items())[:14]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
