"""How often the diagnosis blames a mistake that was not made (docs/rules.md §4, issue 32 part 6):

    python benchmarks/false_naming.py [--seed 1] [--games 4] [--drills 30] [--guesses 3]

A student with no misconception who answers wrong gives a guess of about the right size (the
``random`` profile of :mod:`tutor.commands.learners`: the right answer ± half of it, at least ± 3).
Such an answer should be called a slip ("check your arithmetic"), not a named mistake. The
questions come from real seeded games (every shipped lesson, played by a perfect student, so
its questions are the ones the game's plays produce) and from drills of every drill skill;
each question gets ``guesses`` wrong guesses. The false-naming rate is the share of those
wrong answers whose diagnosis is ``named`` or ``likely`` (goal: at most 10%).

The functions are reused by tests/tutor/test_diagnosis.py on a fixed seed.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.tiles import LEONARD, double_n  # noqa: E402
from tutor.teaching.diagnosis import diagnose  # noqa: E402
from tutor.teaching.questions import Question  # noqa: E402

NAMED_KINDS = frozenset({"named", "likely"})
MAX_DRAWS = 50
"""Draws per wrong guess at most (a question whose every near value is right gets none)."""


def near_guess(q: Question, rng: random.Random) -> int:
    """A guess of about the right size, as tutor.commands.learners's ``random`` profile makes."""
    spread = max(3, abs(q.expected) // 2)
    return q.expected + rng.randint(-spread, spread)


def game_questions(seed: int = 1, games: int = 4) -> list[Question]:
    """The questions of ``games`` seeded games of every shipped lesson, answered right."""
    from tutor.commands.learners import learner
    from tutor.commands.simulate import simulate_one
    from tutor.course.lessons import list_lessons

    out: list[Question] = []
    for lesson in list_lessons():
        for k in range(games):
            run, _focus = simulate_one(lesson, learner("perfect"), seed * 100_003 + k)
            out.extend(q for q, _ok in run.questions)
    return out


def drill_questions(seed: int = 1, per_skill: int = 30) -> list[Question]:
    """About ``per_skill`` drill questions of each drill skill (docs/rules.md §4), as the tutor
    makes them between rounds for a student who has mastered nothing."""
    from tutor.teaching.asking import Asker
    from tutor.teaching.mastery import Mastery
    from tutor.teaching.practice import DRILL_SKILLS, POWER_DRILLS, Plan

    rng = random.Random(seed)
    out: list[Question] = []
    for skill in sorted(DRILL_SKILLS):
        tileset = LEONARD if skill in POWER_DRILLS else double_n(6)
        game = "leonard" if skill in POWER_DRILLS else "traditional"
        asker = Asker(lang="en", plan=Plan(targets=frozenset({skill}), game=game),
                      ask=frozenset({"power", "round_end"}), students={0: "s"},
                      masteries={0: Mastery()}, players=2, rng=rng, tileset=tileset)
        got: list[Question] = []
        for r in range(per_skill):  # bounded: each call queues 2-4 questions
            if len(got) >= per_skill:
                break
            asker.queue.clear()
            asker.drill(f"d{r}-")
            got.extend(p.question for p in asker.queue)
        out.extend(got[:per_skill])
    return out


def false_naming(questions: list[Question], seed: int = 1, guesses: int = 3) -> dict[str, Any]:
    """Diagnose ``guesses`` wrong near guesses per question; the share named, by kind, by
    rule and by skill."""
    rng = random.Random(seed)
    kinds: Counter[str] = Counter()
    rules: Counter[str] = Counter()
    by_skill: dict[str, Counter[str]] = {}
    for q in questions:
        for _ in range(guesses):
            value = None
            for _draw in range(MAX_DRAWS):
                v = near_guess(q, rng)
                if not q.is_right(v):
                    value = v
                    break
            if value is None:
                continue
            d = diagnose(q, value, "en")
            kinds[d.kind] += 1
            row = by_skill.setdefault(q.skill, Counter())
            row["of"] += 1
            if d.kind in NAMED_KINDS:
                rules[d.rule or ""] += 1
                row["named"] += 1
    wrong = sum(kinds.values())
    named = sum(kinds[k] for k in NAMED_KINDS)
    return {"wrong": wrong, "named": named, "rate": named / wrong if wrong else 0.0,
            "kinds": dict(kinds), "rules": dict(rules.most_common()),
            "by_skill": {s: dict(c) for s, c in sorted(by_skill.items())}}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--games", type=int, default=4)
    ap.add_argument("--drills", type=int, default=30)
    ap.add_argument("--guesses", type=int, default=3)
    args = ap.parse_args()
    qs = game_questions(args.seed, args.games) + drill_questions(args.seed, args.drills)
    r = false_naming(qs, args.seed, args.guesses)
    print(f"{len(qs)} questions, {r['wrong']} wrong near guesses: {r['named']} named "
          f"({r['rate']:.1%}); kinds {r['kinds']}")
    print(f"{'skill':12} {'named':>6} {'of':>6} {'rate':>6}")
    for skill, row in r["by_skill"].items():
        print(f"{skill:12} {row.get('named', 0):6} {row['of']:6} "
              f"{row.get('named', 0) / row['of']:6.1%}")
    print("named rules:", ", ".join(f"{k} {v}" for k, v in r["rules"].items()))


if __name__ == "__main__":
    main()
