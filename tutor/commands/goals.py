"""The teaching goals (issue 32, part 8, and issue 42), measured with simulated students
(:mod:`tutor.commands.simulate`): each goal is a profile's measure on a lesson and the bound it
must keep (:data:`GOALS`, :func:`teaching_goals`); the catalogue mistakes are judged per
(lesson, skill, mistake) (:func:`mistake_pairs`, :data:`PAIR_BOUND`); and the review trial
(:func:`review_trial`) checks that forgotten skills lose their mastery.
``benchmarks/teaching_rates.py`` prints them all.
"""

from __future__ import annotations

import random
import tempfile
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from engine.bots import GreedyBot
from tutor.commands.learners import RULE_SKILL, Forgetful, Perfect, SimClock
from tutor.commands.simulate import (
    Report,
    Run,
    SkillReport,
    drive,
    simulate,
    simulate_days,
    simulate_one,
    student_seed,
)
from tutor.course.lessons import Lesson, lesson_coverage, load_lesson
from tutor.session.session import Session
from tutor.storage.store import Store
from tutor.teaching.diagnosis import CATALOG, mistake_value
from tutor.teaching.mastery import SKILLS
from tutor.teaching.review import is_review

__all__ = ["GOALS", "LESSON_MISTAKES", "PAIR_BOUND", "PAIR_SHARE", "Goal", "GoalResult",
           "ReviewTrial", "goal_profiles", "judge", "lesson_mistake", "mistake_pairs",
           "pair_result", "review_trial", "teaching_goals"]

LESSON_MISTAKES: dict[str, str] = {
    "01-other-end": "one_half_only",
    "02-plus": "forgot_own_number",
    "03-minus": "dropped_the_minus",
    "04-times": "added_instead_of_multiplied",
    "05-squares": "doubled_instead_of_squared",
    "06-doubles": "forgot_to_double",
    "07-all-power": "one_half_only",
    "08-full-match": "used_near_end",
    "09-traditional": "added_the_hands",
    "10-venezuela": "missed_a_hand",
    "11-ponce": "did_not_round",
    "12-cuban": "missed_a_hand",
    "13-doble15": "missed_a_hand",
    "free-play": "multiplied_instead_of_added",
}
"""Per shipped lesson, the catalogue mistake its ``mistake:`` and ``scaffold:`` goals use: one
of a target skill's mistakes that its questions give room for (each was seen on at least 15 of
50 questions of 10 perfect students)."""


def lesson_mistake(lesson: Lesson | str, seed: int = 1, lang: str = "en") -> str | None:
    """The mistake the goals of ``lesson`` (a Lesson or its id) use: the table's, else the
    catalogue mistake of a target skill that ten perfect students' questions gave most room
    for (None when there is none)."""
    lesson_id = lesson.id if isinstance(lesson, Lesson) else lesson
    if lesson_id in LESSON_MISTAKES:
        return LESSON_MISTAKES[lesson_id]
    if not isinstance(lesson, Lesson):
        lesson = load_lesson(lesson, lang)
    room: Counter[str] = Counter()
    for k in range(10):
        run, focus = simulate_one(lesson, Perfect, seed * 100_003 + k, lang)
        for q, _ok in run.questions:
            for rule in CATALOG:
                if rule.skill in focus and mistake_value(q, rule.id) is not None:
                    room[rule.id] += 1
    return room.most_common(1)[0][0] if room else None


@dataclass(frozen=True)
class Goal:
    """A teaching goal: a profile's measure on a lesson, and the bound it must keep."""

    key: str
    profile: str
    """The profile, ``{mistake}`` standing for the lesson's mistake (:func:`lesson_mistake`)."""
    measure: str
    """``all_targets``: the share of students who mastered every target skill; ``mastered``:
    the largest share mastering one target skill; ``mistake_skill``: the share mastering the
    skill the mistake is about; ``unknown_mastered``: of the students who do not know a target
    skill, the largest share called mastered in it; ``mastered_while_wrong``: of the students
    called mastered in a target skill, the largest share who do not know it."""
    at_least: bool
    bound: float
    text: str
    """The goal in words, for the table."""
    needs_targets: bool = False
    """The goal is about a lesson that goes on until its targets are mastered or its cap: it
    does not apply to a lesson without targets (free play, which ends with its match)."""


GOALS: tuple[Goal, ...] = (
    Goal("calculator", "calculator", "mastered", False, 0.0, "calculator masters 0%"),
    Goal("hints", "hints", "unknown_mastered", False, 0.0,
         "hints masters 0% of the skills it only saw worked out"),
    Goal("random", "random", "mastered", False, 0.0, "random masters 0%"),
    Goal("scaffold", "scaffold:{mistake}:0.6", "mistake_skill", False, 0.10,
         "scaffold:NAME:0.6 masters ≤ 10%"),
    Goal("perfect", "perfect", "all_targets", True, 0.95, "perfect masters ≥ 95%"),
    Goal("learner", "learner:0.15", "all_targets", True, 0.95,
         "learner:0.15 masters ≥ 95% by the lesson's end", needs_targets=True),
    Goal("slips", "slips:0.1", "all_targets", True, 0.90, "slips:0.1 masters ≥ 90%"),
    Goal("bkt", "bkt:0.1,0.05,0.1,0.2", "all_targets", True, 0.70,
         "bkt:0.1,0.05,0.1,0.2 masters ≥ 70% by the lesson's end with the default cap",
         needs_targets=True),
    Goal("facts", "facts:5", "facts_mastered", False, 0.0, "facts:5 masters × or ² 0%"),
    Goal("bkt_wrong", "bkt:0.1,0.05,0.1,0.2", "mastered_while_wrong", False, 0.05,
         "bkt: mastered_while_wrong ≤ 5%"),
    Goal("learn_wrong", "learner:0.15", "mastered_while_wrong", False, 0.05,
         "learner: mastered_while_wrong ≤ 5%"),
    Goal("typos", "slips:0.1", "typos_named", False, 0.10,
         "typos named as a catalogue mistake ≤ 10%"),
)
"""The teaching goals of issue 32 part 8 and issue 42 (each profile's measure on a lesson);
the mistakes themselves are judged per (lesson, skill, mistake) by :func:`mistake_pairs` and
:data:`PAIR_BOUND`."""
PAIR_BOUND = 0.20
"""``mistake:NAME:0.3``: called mastered in the mistake's skill at most this often, for every
(lesson, target skill, catalogue mistake of that skill the lesson can show)."""
PAIR_SHARE = 0.3


@dataclass(frozen=True)
class GoalResult:
    lesson: str
    goal: Goal
    profile: str
    """The profile played (the lesson's mistake filled in); empty when the goal does not
    apply (no mistake of a target skill can happen in the lesson)."""
    value: float | None
    met: bool
    reason: str = ""
    """Why the goal does not apply (``value`` None), with what was measured all the same."""


def goal_profiles(lesson: Lesson | str, goals: tuple[Goal, ...] = GOALS, seed: int = 1,
                  lang: str = "en") -> dict[str, str]:
    """Per goal key, the profile to play on ``lesson`` ("" when the goal does not apply)."""
    mistake = None
    if any("{mistake}" in g.profile for g in goals):
        mistake = lesson_mistake(lesson, seed, lang)
    return {g.key: "" if "{mistake}" in g.profile and mistake is None
            else g.profile.format(mistake=mistake) for g in goals}


def _measure(goal: Goal, report: Report, profile: str) -> float | None:
    targets = {k: v for k, v in report["skills"].items() if v["target"]}
    if goal.measure == "all_targets":
        return float(report["all_targets_mastered_share"])
    if goal.measure == "facts_mastered":
        facts = [float(v["mastered_share"]) for k, v in targets.items()
                 if k in ("multiply", "square")]
        return max(facts) if facts else None
    if goal.measure == "typos_named":
        typos = report.get("typos", {"named": 0, "of": 0})
        return typos["named"] / typos["of"] if typos["of"] else None
    if goal.measure == "mistake_skill":
        skill = RULE_SKILL[profile.split(":")[1]]
        row = report["skills"].get(skill) if skill is not None else None
        return float(row["mastered_share"]) if row is not None else 0.0
    return max((_skill_measure(goal.measure, v) for v in targets.values()), default=0.0)


def _skill_measure(measure: str, row: SkillReport) -> float:
    if measure == "mastered":
        return float(row["mastered_share"])
    if measure == "unknown_mastered":
        return float(row["mastered_when_unknown"] or 0.0)
    if measure == "mastered_while_wrong":
        return float(row["mastered_while_wrong"] or 0.0)
    raise KeyError(measure)


def judge(lesson_id: str, profiles: dict[str, str], reports: dict[str, Report],
          goals: tuple[Goal, ...] = GOALS) -> list[GoalResult]:
    """The goals of one lesson from its reports (by profile; see :func:`goal_profiles`)."""
    out = []
    for g in goals:
        profile = profiles[g.key]
        if not profile:
            out.append(GoalResult(lesson_id, g, "", None, True,
                                   "no mistake of a target skill can happen in the lesson"))
            continue
        report = reports[profile]
        measured = _measure(g, report, profile)
        if measured is None:
            out.append(GoalResult(lesson_id, g, profile, None, True,
                                  "nothing to measure in the lesson (no × or ² to practise, "
                                  "or no typo made)"))
            continue
        value = measured
        if g.needs_targets and not report.get("lesson_targets", True):
            practised = sorted(k for k, v in report["skills"].items() if v["target"])
            out.append(GoalResult(
                lesson_id, g, profile, None, True,
                f"no target skills: the lesson ends with its match ({report.get('rounds')} "
                f"rounds), not at mastery or a cap (measured all the same: {value:.0%} of "
                f"{profile} master all {len(practised)} skills it practises, "
                f"{', '.join(practised)})"))
            continue
        met = value >= g.bound if g.at_least else value <= g.bound
        out.append(GoalResult(lesson_id, g, profile, round(value, 4), met))
    return out


def teaching_goals(lesson_id: str, students: int = 50, seed: int = 1, lang: str = "en",
                   goals: tuple[Goal, ...] = GOALS) -> list[GoalResult]:
    """Play ``lesson_id`` with each goal's profile (``students`` each, ``seed``) and say which
    goals are met (issue 32, part 8; ``benchmarks/teaching_rates.py`` prints the table)."""
    profiles = goal_profiles(lesson_id, goals, seed, lang)
    reports = {p: simulate(lesson_id, students, p, seed, lang)
               for p in dict.fromkeys(profiles.values()) if p}
    return judge(lesson_id, profiles, reports, goals)


def mistake_pairs(lesson: Lesson | str, lang: str = "en") -> list[tuple[str, str]]:
    """Every (skill, mistake) of ``lesson`` a ``mistake:NAME:0.3`` goal judges (issue 42 part
    5): each skill the lesson practises (its targets, else its game's) with each catalogue
    mistake of that skill its questions can show."""
    loaded = load_lesson(lesson, lang) if isinstance(lesson, str) else lesson
    cover = lesson_coverage(loaded)
    return [(skill, m) for skill in SKILLS if skill in loaded.plan.focus and skill in cover
            for m in sorted(cover[skill].shows)]


def pair_result(report: Report, skill: str) -> float:
    """The share of ``mistake:`` students called mastered in ``skill``."""
    row = report["skills"].get(skill)
    return float(row["mastered_share"]) if row is not None else 0.0


@dataclass(frozen=True)
class ReviewTrial:
    """How reviews of forgotten skills went (:func:`review_trial`)."""

    forgotten: int
    """Reviews of a skill mastered and since forgotten (one per student and skill)."""
    lost: int
    """Of those, how many took mastery away by the end of the review items."""
    by_skill: dict[str, tuple[int, int]]


def _reviews_over(s: Session) -> bool:
    """No review item waits at the front of the questions (or none at all)."""
    return s.asker.pending is None or not any(is_review(r.question.problem)
                                              for r in s.asker.queue)


def review_trial(lesson_id: str, students: int = 50, seed: int = 1, days: float = 5.0,
                 gap: float = 6.5, lang: str = "en") -> ReviewTrial:
    """``forget:DAYS`` students (issue 42 part 4's trial): each plays ``lesson_id`` on day 0
    (its mastered skills then fall due a day later) and opens it again ``gap`` days later,
    having forgotten what it did not practise for more than ``days`` days; the lesson starts
    with its review items. Counted: each skill mastered on day 0 and forgotten by then, and
    whether mastery was gone once its review items were answered."""
    forgotten = lost = 0
    by_skill: dict[str, list[int]] = {}
    with tempfile.TemporaryDirectory(prefix="leonard-review-") as tmp:
        for k in range(students):
            clock = SimClock()
            student = Forgetful(days, clock)
            name = f"sim-{k}"
            with Store(Path(tmp) / f"{k}.sqlite", lang=lang) as store:
                simulate_days([(0, lesson_id)], student, store, seed=student_seed(seed, k),
                              clock=clock, name=name, lang=lang)
                clock.advance(gap)
                s = Session.from_lesson(lesson_id, lang=lang, student=name, store=store,
                                        seed=student_seed(seed, k) + 1, clock=clock)
                due = [d.skill for d in s.reviews_due()]
                was = {skill: s.mastery.state(skill).mastered and not student.knows(skill)
                       for skill in due}
                # the review items come first (an item that tells a named mistake apart may
                # come between them): answered until none waits
                drive(s, student, random.Random(student_seed(seed, k)), GreedyBot(seed), Run(),
                      until=_reviews_over, steps=50)
                for skill, counted in was.items():
                    if counted:
                        gone = not s.mastery.state(skill).mastered
                        forgotten += 1
                        lost += gone
                        row = by_skill.setdefault(skill, [0, 0])
                        row[0] += 1
                        row[1] += gone
                s.close()
    return ReviewTrial(forgotten, lost, {s: (v[0], v[1]) for s, v in by_skill.items()})
