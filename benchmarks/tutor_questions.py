"""Speed of the tutor's questions: one question with LaTeX and hints, and `import tutor` cold.

Run: ``PYTHONPATH=. .venv/bin/python benchmarks/tutor_questions.py [--repeat 300]``
"""

from __future__ import annotations

import argparse
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def sample_events(count: int, seed: int = 0) -> list[object]:
    """Real power effects (not neutralized) from seeded random rounds."""
    from engine import LEONARD_VARIANT, HouseRules, PowerEffect
    from engine.round import Round

    rng = random.Random(seed)
    out: list[object] = []
    while len(out) < count:
        rnd = Round.deal(LEONARD_VARIANT, HouseRules(), rng.choice((2, 3, 4)), rng)
        while not rnd.over:
            for e in rnd.apply(rng.choice(rnd.legal_actions())):
                if isinstance(e, PowerEffect) and not e.neutralized:
                    out.append(e)
    return out[:count]


def pct(values: list[float], p: float) -> float:
    values = sorted(values)
    k = min(len(values) - 1, max(0, round(p / 100 * (len(values) - 1))))
    return values[k]


def bench_questions(repeat: int) -> dict[str, float]:
    from tutor.teaching.hints import hint_ladder
    from tutor.teaching.questions import question_for

    events = sample_events(repeat)
    t0 = time.perf_counter()
    question_for(events[0], t_first=True)  # the first call loads what the formulas need
    first = (time.perf_counter() - t0) * 1000
    times = []
    for i, ev in enumerate(events):
        lang = "es" if i % 2 else "en"
        t = time.perf_counter()
        for q in question_for(ev, lang=lang, t_first=True):  # type: ignore[arg-type]
            assert q.latex
            hint_ladder(q, lang)
        times.append((time.perf_counter() - t) * 1000)
    return {"first_call_ms": first, "median_ms": statistics.median(times),
            "p95_ms": pct(times, 95), "max_ms": max(times), "plays": len(times)}


def bench_import(runs: int) -> dict[str, float]:
    code = ("import time; t = time.perf_counter(); import tutor; "
            "print((time.perf_counter() - t) * 1000)")
    times = []
    for _ in range(runs):
        out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                             text=True, check=True, env={"PYTHONPATH": str(ROOT)})
        times.append(float(out.stdout))
    return {"median_ms": statistics.median(times), "min_ms": min(times), "max_ms": max(times),
            "runs": runs}


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--repeat", type=int, default=300, help="power plays to build questions for")
    p.add_argument("--imports", type=int, default=7, help="fresh interpreters to time")
    args = p.parse_args()
    q = bench_questions(args.repeat)
    print(f"question_for + LaTeX + 3 hints per play (T asked first, {q['plays']:.0f} real "
          f"plays):")
    print(f"  median {q['median_ms']:.2f} ms · p95 {q['p95_ms']:.2f} ms · max "
          f"{q['max_ms']:.2f} ms · first call {q['first_call_ms']:.0f} ms")
    i = bench_import(args.imports)
    print(f"import tutor in a fresh interpreter ({i['runs']:.0f} runs): median "
          f"{i['median_ms']:.1f} ms (min {i['min_ms']:.1f}, max {i['max_ms']:.1f})")


if __name__ == "__main__":
    main()
