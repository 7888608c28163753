"""Benchmark: time to read and check typed answers (as the tutor does: read_answer, and working
is not an answer), and import time of the tutor's core modules."""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tutor.teaching.answers import MAX_LENGTH, AnswerError, read_answer  # noqa: E402

TYPICAL = ["45", "-15", "5x9", "7^2", "7²", "-(6+9)", "2·9", "5 x 9 =", "1.000", "4,5"]
AT_CAP = "(" * 10 + "+".join(["9x9"] * 20) + ")" * 10
AT_CAP = (AT_CAP + " " * MAX_LENGTH)[:MAX_LENGTH]
OVER_CAP = "9" * 1_000_000


def check(text: str, expected: int, lang: str) -> bool:
    try:
        reading = read_answer(text, lang)
    except AnswerError:
        return False
    return not reading.working and reading.value == expected


def timed(fn: Callable[[], object], runs: int) -> tuple[float, float]:
    """Median and p95 of ``runs`` calls, in milliseconds."""
    samples = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        samples.append((time.perf_counter() - start) * 1000)
    samples.sort()
    return statistics.median(samples), samples[min(len(samples) - 1, int(0.95 * len(samples)))]


def import_ms(module: str, repeats: int = 5) -> float:
    """Median wall time of ``import module`` in a fresh interpreter, from ``-X importtime``."""
    totals = []
    for _ in range(repeats):
        proc = subprocess.run(
            [sys.executable, "-X", "importtime", "-c", f"import {module}"],
            capture_output=True, text=True, cwd=ROOT, check=True,
            env={"PYTHONPATH": str(ROOT), "PATH": ""},
        )
        for line in proc.stderr.splitlines():  # "import time: self | cumulative | name"
            parts = [p.strip() for p in line.split("|")]
            if len(parts) == 3 and parts[2] == module:
                totals.append(int(parts[1]) / 1000)
    return statistics.median(totals)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("-n", "--runs", type=int, default=2000)
    args = parser.parse_args()
    rows: list[tuple[str, float, float]] = []
    for lang in ("en", "es"):
        rows.append((f"typical answers ({lang}, 10 kinds)",
                     *timed(lambda lang=lang: [check(t, 45, lang) for t in TYPICAL], args.runs)))
    rows.append(("one typical answer '5 x 9 ='", *timed(lambda: check("5 x 9 =", 45, "en"),
                                                          args.runs)))
    rows.append((f"input at the cap ({len(AT_CAP)} chars)",
                 *timed(lambda: check(AT_CAP, 0, "en"), args.runs)))
    rows.append(("1,000,000 digits (refused by cap)",
                 *timed(lambda: check(OVER_CAP, 0, "en"), args.runs)))
    rows.append(("'9^9^9' (refused)", *timed(lambda: check("9^9^9", 0, "en"), args.runs)))
    print(f"read_answer + compare, {args.runs} runs (goal: <= 5 ms each)")
    print(f"{'case':44} {'median ms':>10} {'p95 ms':>10}")
    for name, median, p95 in rows:
        print(f"{name:44} {median:10.4f} {p95:10.4f}")
    print()
    print("import time in a fresh interpreter (median of 5, -X importtime cumulative)")
    print(f"{'module':44} {'ms':>10}")
    for module in ("tutor.teaching.answers", "tutor.teaching.mastery", "tutor.storage.store"):
        print(f"{module:44} {import_ms(module):10.2f}")


if __name__ == "__main__":
    main()
