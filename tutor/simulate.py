"""Simulated students, for lesson designers and for tests: scripted learners play whole lessons
through the same :class:`~tutor.session.Session` the page uses, and the tutor's own records
say how the lesson went (which skills it asked, how often, whether mastery was reached).

    python -m tutor simulate-students --lesson 04-times --students 50 --profile perfect \\
        --seed 1 --json

Profiles: ``perfect``; ``random`` (guesses of about the right size); ``bkt:L0,T,S,G`` (a
learner who knows a skill with probability L0, learns it at each question with probability
T, slips with S and guesses with G); ``mistake:NAME:p`` (makes the catalogue mistake NAME
with probability p where it can happen, otherwise answers right).
"""

from __future__ import annotations

import random
import statistics
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from engine.bots import GreedyBot
from engine.events import Placed
from engine.view import view_of
from tutor.diagnosis import CATALOG, diagnose, mistake_value
from tutor.i18n import N_, TranslatableError
from tutor.mastery import SKILLS
from tutor.questions import Question

__all__ = ["Learner", "ProfileError", "learner", "simulate", "simulate_one"]

MAX_ATTEMPTS = 3
"""A learner who is still wrong after this many answers asks to see the answer."""


class ProfileError(TranslatableError):
    """A learner profile the simulator does not know."""


class Learner:
    """A scripted student: what they answer to a question (as typed text)."""

    name = "learner"

    @property
    def mistake(self) -> str | None:
        """The catalogue mistake this learner makes, if any."""
        return None

    def answer(self, q: Question, attempt: int, rng: random.Random) -> int:
        raise NotImplementedError


class Perfect(Learner):
    name = "perfect"

    def answer(self, q: Question, attempt: int, rng: random.Random) -> int:
        return q.expected


def _near(q: Question, rng: random.Random) -> int:
    """A guess of about the right size."""
    spread = max(3, abs(q.expected) // 2)
    return q.expected + rng.randint(-spread, spread)


def _wrong(q: Question, rng: random.Random) -> int:
    value = q.expected
    while q.is_right(value):
        value = _near(q, rng)
    return value


class RandomGuesser(Learner):
    name = "random"

    def answer(self, q: Question, attempt: int, rng: random.Random) -> int:
        return _near(q, rng)


@dataclass
class BKTLearner(Learner):
    """Knows each skill or not, following BKT's own story (RULES.md §4's tracing)."""

    p_init: float
    p_learn: float
    p_slip: float
    p_guess: float
    known: dict[str, bool] = field(default_factory=dict)
    name = "bkt"

    def answer(self, q: Question, attempt: int, rng: random.Random) -> int:
        knows = self.known.setdefault(q.skill, rng.random() < self.p_init)
        right = rng.random() < ((1 - self.p_slip) if knows else self.p_guess)
        if attempt == 1 and not knows:
            self.known[q.skill] = rng.random() < self.p_learn
        return q.expected if right else _wrong(q, rng)


@dataclass
class MistakeMaker(Learner):
    """Makes one catalogue mistake with probability ``p`` wherever it can happen."""

    rule: str
    p: float
    name = "mistake"

    @property
    def mistake(self) -> str | None:
        return self.rule

    def answer(self, q: Question, attempt: int, rng: random.Random) -> int:
        value = mistake_value(q, self.rule)
        if value is not None and attempt == 1 and rng.random() < self.p:
            return value
        return q.expected


def learner(profile: str) -> Callable[[], Learner]:
    """A factory of fresh learners for ``profile`` (each simulated student starts anew)."""
    kind, _, rest = profile.partition(":")
    try:
        if kind == "perfect" and not rest:
            return Perfect
        if kind == "random" and not rest:
            return RandomGuesser
        if kind == "bkt":
            values = [float(v) for v in rest.split(",")]
            if len(values) != 4 or not all(0 <= v <= 1 for v in values):
                raise ValueError
            return lambda: BKTLearner(values[0], values[1], values[2], values[3])
        if kind == "mistake":
            name, _, p = rest.rpartition(":")
            if name not in {r.id for r in CATALOG} or not 0 <= float(p) <= 1:
                raise ValueError
            return lambda: MistakeMaker(name, float(p))
    except ValueError:
        pass
    raise ProfileError(N_("Unknown profile {profile}: use perfect, random, bkt:L0,T,S,G or "
                          "mistake:NAME:p (NAME from the mistake catalogue)."),
                       profile=repr(profile))


@dataclass
class Run:
    """One simulated student's lesson."""

    questions: list[tuple[Question, bool]] = field(default_factory=list)
    """Every question asked, with whether the first answer was right."""
    mastered_after: dict[str, int] = field(default_factory=dict)
    """Per skill, how many questions of it were asked when it was first mastered."""
    final: dict[str, float] = field(default_factory=dict)
    mastered: dict[str, bool] = field(default_factory=dict)
    tiles_placed: int = 0
    """Tiles the student placed in the lesson (every match of it)."""
    rounds: int = 0
    shown: list[tuple[str, bool]] = field(default_factory=list)
    """Mistake profiles: each answer that showed the mistake, as (the question's rule, whether
    the diagnosis named that mistake)."""


def simulate_one(lesson: Any, make: Callable[[], Learner], seed: int,
                 lang: str = "en") -> tuple[Run, frozenset[str]]:
    """Play ``lesson`` once with a fresh learner; return the run and the lesson's focus
    skills. Moves are chosen by a seeded greedy player; the lesson's own seed is replaced
    by ``seed`` so each student gets a different deal."""
    from tutor.session import Session

    rng = random.Random(seed)
    student = make()
    s = Session.from_lesson(lesson, lang=lang, store=None, seed=seed)
    mover = GreedyBot(seed)
    run = Run()
    asked: Counter[str] = Counter()
    for _ in range(100_000):  # bounded: a lesson is a few hundred steps
        q = s.pending_question
        if q is not None:
            attempt, first = 0, None
            while True:
                attempt += 1
                value = student.answer(q, attempt, rng)
                if attempt == 1 and student.mistake is not None \
                        and value == mistake_value(q, student.mistake) \
                        and not q.is_right(value):
                    run.shown.append((q.context.rule,
                                      diagnose(q, value).rule == student.mistake))
                fb = s.answer(str(value))
                if first is None:
                    first = fb.kind == "correct"
                if fb.done:
                    break
                if attempt >= MAX_ATTEMPTS:
                    s.reveal()
                    break
            run.questions.append((q, bool(first)))
            asked[q.skill] += 1
            mastery = s.mastery
            for skill in SKILLS:
                if skill not in run.mastered_after and mastery.state(skill).mastered \
                        and asked[skill]:
                    run.mastered_after[skill] = asked[skill]
            continue
        seat = s.human_to_move
        if seat is not None:
            if any(isinstance(e, Placed) and e.seat == seat
                   for e in s.play(mover.choose(view_of(s.round, seat)))):
                run.tiles_placed += 1
        elif s.lesson_over:  # every target mastered, or the lesson's cap (free play: match)
            break
        elif s.round.over:
            s.new_round()
        else:  # pragma: no cover - auto_bots moves every bot
            raise RuntimeError("the simulated lesson is stuck")
    run.rounds = s.lesson_rounds
    for skill in SKILLS:
        st = s.mastery.state(skill)
        run.final[skill], run.mastered[skill] = st.p_known, st.mastered
    return run, s.plan.focus


def simulate(lesson_id: str, students: int, profile: str, seed: int,
             lang: str = "en") -> dict[str, Any]:
    """Play ``lesson_id`` with ``students`` simulated students of ``profile``; the summary
    the command prints as JSON (see the module docstring)."""
    from tutor.lessons import load_lesson

    lesson = load_lesson(lesson_id, lang)
    make = learner(profile)
    runs = []
    focus: frozenset[str] = frozenset()
    for k in range(students):
        run, focus = simulate_one(lesson, make, seed * 100_003 + k, lang)
        runs.append(run)
    total = sum(len(r.questions) for r in runs)
    skills: dict[str, Any] = {}
    for skill in SKILLS:
        firsts = [ok for r in runs for q, ok in r.questions if q.skill == skill]
        if not firsts and skill not in focus:
            continue
        to_mastery = [r.mastered_after[skill] for r in runs if skill in r.mastered_after]
        skills[skill] = {
            "target": skill in focus,
            "questions": len(firsts),
            "share": round(len(firsts) / total, 4) if total else 0.0,
            "first_try_accuracy": round(sum(firsts) / len(firsts), 4) if firsts else None,
            "final_mastery": round(statistics.mean(r.final[skill] for r in runs), 4),
            "mastered_share": round(sum(r.mastered[skill] for r in runs) / len(runs), 4),
            "questions_to_mastery": statistics.median(to_mastery) if to_mastery else None,
        }
    kinds: Counter[str] = Counter()
    for r in runs:
        for q, _ok in r.questions:
            kinds["T" if q.step == "T" else q.context.rule] += 1
    out: dict[str, Any] = {
        "lesson": lesson.id, "profile": profile, "students": students, "seed": seed,
        "questions": total,
        "questions_per_student": round(total / students, 2) if students else 0,
        "target_questions_per_student": round(
            sum(q.skill in focus for r in runs for q, _ in r.questions) / students, 2)
        if students else 0,
        "tiles_placed_per_student": round(sum(r.tiles_placed for r in runs) / students, 2)
        if students else 0,
        "rounds_per_student": round(sum(r.rounds for r in runs) / students, 2)
        if students else 0,
        "target_share": round(sum(q.skill in focus for r in runs for q, _ in r.questions)
                              / total, 4) if total else 0.0,
        "non_arithmetic_share": round(sum(not q.arithmetic for r in runs
                                          for q, _ in r.questions) / total, 4) if total
        else 0.0,
        "all_targets_mastered_share": round(sum(all(r.mastered[s] for s in focus)
                                                for r in runs) / len(runs), 4)
        if runs else 0.0,
        "skills": skills,
        "kinds": dict(sorted(kinds.items())),
    }
    if profile.startswith("mistake:"):
        shown = [x for r in runs for x in r.shown]
        by_rule: dict[str, dict[str, int]] = {}
        for rule, named in shown:
            row = by_rule.setdefault(rule, {"named": 0, "of": 0})
            row["named"] += named
            row["of"] += 1
        out["diagnosis"] = {"named": sum(n for _, n in shown), "of": len(shown),
                            "by_rule": dict(sorted(by_rule.items()))}
    return out
