"""The knowledge-tracing estimate on real learners, kept as P(known) and as log-odds, side by
side (issue 42 part 3):

    python benchmarks/saturation.py [--data ../shared/data/assistments-2009-builder-train.csv]
                                    [--skill multiply] [--min-answers 1]

Every (student, skill) sequence of the ASSISTments 2009 skill-builder training data (real
students' right and wrong answers, in order; /work/shared/data/README.md) is replayed through
the tutor's knowledge tracing with one skill's default parameters and the tutor's mastery rule
without a catalogue (the estimate at 0.95 and 7 right in a row; a wrong answer after mastery
keeps it while the estimate stays at 0.95). Printed, for the estimate kept as P(known)
(``tutor.teaching.mastery.update``, as before issue 42) and as log-odds
(``observe_log_odds``, now):

- how many sequences meet a wrong answer while P(known) is exactly 1.0 in floating point;
- of those, how many end mastered with at most 2 of their last 5 answers right;
- how many end mastered in all.
"""

from __future__ import annotations

import argparse
import csv
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tutor.teaching.mastery import (  # noqa: E402
    DEFAULT_SKILL_PARAMS,
    STREAK_TO_MASTER,
    BKTParams,
    logit,
    observe_log_odds,
    probability,
    update,
)

DATA = ROOT.parent / "shared" / "data" / "assistments-2009-builder-train.csv"


def replay(answers: list[bool], params: BKTParams, log_odds: bool) -> tuple[bool, bool]:
    """(met a wrong answer while P(known) was exactly 1.0, mastered at the end)."""
    x = logit(params.p_init) if log_odds else params.p_init
    streak, mastered, at_one = 0, False, False
    for right in answers:
        p = probability(x) if log_odds else x
        at_one = at_one or (not right and p == 1.0)
        x = observe_log_odds(x, right, params) if log_odds else update(x, right, params)
        p = probability(x) if log_odds else x
        if right:
            streak += 1
            mastered = mastered or (p >= params.mastery_threshold and streak >= STREAK_TO_MASTER)
        else:
            streak = 0
            mastered = mastered and p >= params.mastery_threshold
    return at_one, mastered


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    ap.add_argument("--data", default=str(DATA))
    ap.add_argument("--skill", default="multiply", help="whose default parameters to use")
    ap.add_argument("--min-answers", type=int, default=1)
    args = ap.parse_args()
    params = DEFAULT_SKILL_PARAMS[args.skill]
    sequences: dict[tuple[str, str], list[bool]] = {}
    with open(args.data, newline="") as f:
        for row in csv.DictReader(f):
            sequences.setdefault((row["user_id"], row["skill_name"]), []).append(
                row["correct"] == "1")
    kept = [s for s in sequences.values() if len(s) >= args.min_answers]
    print(f"{len(kept)} sequences (student, skill) of at least {args.min_answers} answers, "
          f"{sum(map(len, kept))} answers; {args.skill}'s parameters {params}")
    marked = [replay(s, params, False)[0] for s in kept]  # under the old arithmetic
    print(f"  {sum(marked)} met a wrong answer while P(known) was exactly 1.0 (kept as "
          f"P(known), as before issue 42)")
    for name, log_odds in (("P(known)", False), ("log-odds", True)):
        late = mastered = 0
        for s, hit in zip(kept, marked, strict=True):
            done = replay(s, params, log_odds)[1]
            mastered += done
            late += hit and done and sum(s[-5:]) <= 2
        print(f"  kept as {name:8}: of those, {late} end mastered with at most 2 of the "
              f"last 5 right; {mastered} sequences end mastered in all")

if __name__ == "__main__":
    main()
