"""Simulated students (issue: questions that make the student think, mastery that means
something): the goals are checked on every shipped lesson with the tutor's own session code."""

from __future__ import annotations

import json
import subprocess
import sys
from functools import cache
from pathlib import Path
from typing import Any

import pytest

import tutor.commands.simulate as sim
from tutor.commands.simulate import (
    GOALS,
    LESSON_MISTAKES,
    MAX_ATTEMPTS,
    ProfileError,
    Run,
    goal_profiles,
    judge,
    learner,
    lesson_mistake,
    simulate,
    simulate_one,
    teaching_goals,
    working,
)
from tutor.course.lessons import LESSON_DIR, load_lesson
from tutor.teaching.answers import parse_answer
from tutor.teaching.diagnosis import CATALOG, mistake_value
from tutor.teaching.hints import hint_ladder
from tutor.teaching.mastery import SKILLS

ROOT = Path(__file__).resolve().parents[2]
LESSONS = sorted(p.stem for p in LESSON_DIR.glob("*.json"))


@cache
def report(lesson: str, profile: str, students: int = 50, seed: int = 1) -> dict[str, Any]:
    return simulate(lesson, students, profile, seed)


@pytest.mark.parametrize("lesson", LESSONS)
def test_questions_are_arithmetic(lesson: str) -> None:
    """Goal: questions that are not arithmetic are at most 10% of all questions (50 perfect
    students per lesson). Before, 65% were the ±30 case."""
    r = report(lesson, "perfect")
    assert r["questions"] > 0
    assert r["non_arithmetic_share"] <= 0.10, r["kinds"]


@pytest.mark.parametrize("lesson", LESSONS)
def test_target_skills_are_most_of_the_questions(lesson: str) -> None:
    """Issue (curriculum): target-skill questions are ≥ 60% of each lesson's questions."""
    assert report(lesson, "perfect")["target_share"] >= 0.6


@pytest.mark.parametrize("lesson", LESSONS)
def test_mastery_is_reachable(lesson: str) -> None:
    """Goal: a perfect student masters every target skill within the lesson in ≥ 95% of
    runs (RULES §4: 7 unscaffolded right first answers in a row), free play and the full
    match too (no targets: the skills of their game), whose drills between rounds give each
    skill short of practice up to 2 items (docs/teaching.md)."""
    r = report(lesson, "perfect")
    assert r["all_targets_mastered_share"] >= 0.95, r["skills"]
    for skill, row in r["skills"].items():
        if row["target"]:
            assert row["questions_to_mastery"] is not None, skill


@pytest.mark.parametrize("lesson", LESSONS)
def test_mastery_is_not_given_away(lesson: str) -> None:
    """Goal: a random guesser reaches mastery of the lesson's targets in ≤ 5% of runs."""
    assert report(lesson, "random")["all_targets_mastered_share"] <= 0.05


def test_the_multiplication_mistake_is_named() -> None:
    """Goal: a mistake:added_instead_of_multiplied:1 student is named on ≥ 80% of its x/n
    answers."""
    r = report("free-play", "mistake:added_instead_of_multiplied:1", students=30)
    row = r["diagnosis"]["by_rule"]["x/n"]
    assert row["of"] >= 30 and row["named"] / row["of"] >= 0.8


def test_a_bkt_learner_sits_between_random_and_perfect() -> None:
    r = report("free-play", "bkt:0.3,0.3,0.1,0.2", students=30)
    acc = [row["first_try_accuracy"] for row in r["skills"].values()
           if row["first_try_accuracy"] is not None and row["target"]]
    assert acc and 0.2 < sum(acc) / len(acc) < 1.0


@pytest.mark.parametrize("lesson", ["01-other-end", "04-times"])
def test_students_play_until_the_lesson_is_over_and_its_length_is_reported(lesson: str) -> None:
    """RULES.md §4 (issue 32 part 4): simulated students play until the lesson is over. A
    perfect student stops at the lesson's rounds; a slow learner (bkt:0.1,0.05,0.1,0.2)
    plays on and masters the lesson within the default cap ≥ 70% of the time (before:
    24–54%), in more questions and tiles."""
    fast, slow = report(lesson, "perfect"), report(lesson, "bkt:0.1,0.05,0.1,0.2")
    # a deal with few plays of the skill can leave a perfect student one round more: it needs
    # 2 scaffolded and 7 bare right answers (issue 32 part 2, docs/teaching.md "Why 7"), and
    # ×1 items prove nothing (measured, 50 students: 04-times 2.32 rounds, 01-other-end 2.0)
    assert 2 <= fast["rounds_per_student"] <= 2.4 and fast["tiles_placed_per_student"] > 10
    assert slow["all_targets_mastered_share"] >= 0.7
    assert slow["rounds_per_student"] > fast["rounds_per_student"]
    assert slow["tiles_placed_per_student"] > fast["tiles_placed_per_student"]
    assert slow["target_questions_per_student"] > 2 * fast["target_questions_per_student"]
    assert slow["target_questions_per_student"] <= 40  # the default cap, per student


def test_same_seed_same_report() -> None:
    assert simulate("01-other-end", 3, "random", 9) == simulate("01-other-end", 3, "random", 9)
    assert simulate("01-other-end", 3, "random", 9) != simulate("01-other-end", 3, "random", 10)


@pytest.mark.parametrize("bad", ["genius", "bkt:1,2", "bkt:0.1,0.1,0.1,2",
                                 "mistake:no_such:1", "mistake:stopped_at_t:7", "perfect:1",
                                 "calculator:1", "hints:all", "scaffold:no_such:0.5",
                                 "scaffold:one_half_only:2", "scaffold:one_half_only"])
def test_unknown_profiles_are_refused(bad: str) -> None:
    with pytest.raises(ProfileError, match="Unknown profile"):
        learner(bad)


def test_command_prints_the_json_report() -> None:
    out = subprocess.run([sys.executable, "-m", "tutor", "simulate-students", "--lesson",
                          "01-other-end", "--students", "4", "--profile",
                          "mistake:one_half_only:0.5", "--seed", "3", "--json"],
                         cwd=ROOT, capture_output=True, text=True, check=True)
    data = json.loads(out.stdout)
    assert data["lesson"] == "01-other-end" and data["students"] == 4
    row = data["skills"]["other-end"]
    assert set(row) >= {"questions", "share", "first_try_accuracy", "final_mastery",
                        "mastered_share", "questions_to_mastery", "mastered_while_wrong"}
    assert data["tiles_placed_per_student"] > 0
    assert data["kinds"] and set(data["diagnosis"]) >= {"named", "of"}
    assert data["tiles_placed_per_student"] > 0 and data["questions_per_student"] > 0
    bad = subprocess.run([sys.executable, "-m", "tutor", "simulate-students", "--lesson",
                          "../etc", "--lang", "en"], cwd=ROOT, capture_output=True, text=True)
    assert bad.returncode == 2 and "Traceback" not in bad.stderr
    assert bad.stderr.strip().count("\n") == 0


# --- issue 32, part 8: the new profiles, the hidden state, the goals ---------------------------

OPERATORS = set("+-*^/")


def runs(lesson: str, profile: str, students: int = 4, seed: int = 5) -> list[Run]:
    loaded = load_lesson(lesson, "en")
    return [simulate_one(loaded, learner(profile), seed * 1000 + k)[0] for k in range(students)]


@pytest.mark.parametrize("profile", ["perfect", "random", "calculator", "hints",
                                     "bkt:0.3,0.3,0.1,0.2", "mistake:one_half_only:0.5",
                                     "scaffold:one_half_only:0.5"])
def test_every_profile_is_accepted_with_a_hidden_state(profile: str) -> None:
    student = learner(profile)()
    assert all(isinstance(student.knows(s), bool) for s in SKILLS)


def test_the_calculator_types_the_working_never_the_number() -> None:
    """RULES.md §4 ("The answer is a number"): a calculator copies the numbers it sees with the
    operation between them (``5*(4+2)``, ``4+2``, ``6^2``, ``12-15``): every reply has an
    operator, none is a plain number, and (read by the tutor's own whitelist parser) the
    working is the question's computation: the number the engine expects."""
    seen = 0
    for lesson in ("04-times", "03-minus", "01-other-end", "09-traditional"):
        for run in runs(lesson, "calculator", students=3):
            for r in run.replies:
                q = r.question
                for stage in range(3):
                    text = working(q, stage)
                    assert OPERATORS & set(text[1:]), text
                    assert not text.lstrip("-").isdigit()
                    if q.context.rule != "power-vs-power":
                        assert parse_answer(text) == q.expected, (q.step, q.context.rule, text)
                assert r.first_text == working(q, 0)
                seen += 1
    assert seen > 20


def test_the_calculators_working_follows_the_play() -> None:
    """The forms of the brief: x/5 on 4/2 is ``5*(4+2)`` then ``5*6``; its T ``4+2``."""
    from engine import PowerEffect, Tile
    from tutor.teaching.questions import question_for

    t_q, gain = question_for(PowerEffect(0, 1, Tile(5, "x"), "x/n", 30, 0, 6, Tile(4, 2), 5),
                             t_first=True)
    assert [working(t_q), working(gain), working(gain, 1), working(gain, 9)] == \
        ["4+2", "5*(4+2)", "5*6", "5*6"]
    square = question_for(PowerEffect(0, 1, Tile("x", "x"), "x/x", 36, 0, 6, Tile(4, 2), 0))[0]
    assert working(square) == "6^2"


def test_a_refused_reply_is_tried_again_then_the_answer_is_asked_for() -> None:
    """RULES.md §4: a reply the tutor does not count keeps the question open. A count in tens
    is ``28/10`` to a calculator, which the answer box refuses (no division): it tries again up
    to the attempt limit, never counted, then asks to see the answer."""
    tens = [r for run in runs("11-ponce", "calculator", students=6)
            for r in run.replies if r.question.step == "tens"]
    assert tens
    for r in tens:
        assert (r.counted, r.uncounted, r.revealed, r.first_counted) == \
            (0, MAX_ATTEMPTS, True, None)


def test_the_hints_learner_takes_every_hint_before_answering() -> None:
    """RULES.md §4: hints come before the first attempt; this learner climbs the whole ladder
    to the answer, then types it."""
    replies = [r for run in runs("04-times", "hints", students=3) for r in run.replies]
    assert replies
    for r in replies:
        assert r.hints == len(hint_ladder(r.question)) >= 2
        assert r.first_text == str(r.question.expected) and r.counted == 1


def test_the_scaffold_learner_errs_only_without_a_scaffold() -> None:
    """RULES.md §4 (scaffolds): the mistake shows only where no formula with blanks shows and
    the points are not the second step after T; everywhere else the answer is right."""
    rule = "added_instead_of_multiplied"
    shown = hidden = 0
    for run in runs("04-times", f"scaffold:{rule}:1", students=6):
        for r in run.replies:
            value = mistake_value(r.question, rule)
            if value is None:
                assert r.first_text == str(r.question.expected)
            elif r.seen.scaffolded:
                assert r.first_text == str(r.question.expected)
                hidden += 1
            else:
                assert r.first_text == str(value)
                shown += 1
    assert shown and hidden


def test_after_t_the_points_are_scaffolded() -> None:
    """RULES.md §4: asking T first is a scaffold of the points that follow it."""
    after = [r for run in runs("01-other-end", "scaffold:one_half_only:1", students=4)
             for r in run.replies if r.seen.after_t]
    assert after and all(r.question.step in ("gain", "loss") for r in after)
    assert all(r.first_text == str(r.question.expected) for r in after)


def test_hidden_states() -> None:
    mistake = learner("mistake:added_instead_of_multiplied:0.3")()
    scaffold = learner("scaffold:one_half_only:0.6")()
    assert not mistake.knows("multiply") and mistake.knows("add")
    assert not scaffold.knows("other-end") and scaffold.knows("multiply")
    assert learner("perfect")().knows("square")
    assert not any(learner(p)().knows(s) for p in ("random", "calculator", "hints")
                   for s in SKILLS)
    bkt = learner("bkt:0.5,0.1,0.1,0.2")()
    assert not bkt.knows("add")  # never met: not known
    for run in runs("04-times", "bkt:0.5,0.1,0.1,0.2", students=3):
        assert set(run.knows) == set(SKILLS)


def test_mastered_while_wrong_is_counted_among_the_mastered(monkeypatch) -> None:
    """Per skill, mastered_while_wrong = (called mastered and not known) / (called mastered);
    null when nobody is called mastered. A constructed set of four students."""
    states = [(True, True), (True, False), (True, True), (False, False)]  # (mastered, knows)

    def fake_one(lesson, make, seed, lang="en"):
        mastered, knows = states[seed % 100_003]
        run = Run(mastered={s: False for s in SKILLS}, knows={s: True for s in SKILLS},
                  final={s: 0.5 for s in SKILLS}, tiles_placed=10)
        run.mastered["multiply"], run.knows["multiply"] = mastered, knows
        return run, frozenset({"multiply", "square"})

    monkeypatch.setattr(sim, "simulate_one", fake_one)
    out = simulate("04-times", 4, "perfect", 0)
    assert out["skills"]["multiply"]["mastered_while_wrong"] == round(1 / 3, 4)
    assert out["skills"]["multiply"]["mastered_when_unknown"] == 0.5
    assert out["skills"]["square"]["mastered_while_wrong"] is None
    assert out["tiles_placed_per_student"] == 10


@pytest.mark.parametrize("lesson", LESSONS)
def test_each_lesson_has_a_mistake_its_questions_allow(lesson: str) -> None:
    """The goals' NAME is a mistake of one of the lesson's target skills that can happen
    there."""
    rule = lesson_mistake(lesson)  # the table's, or (a lesson not in it) the one found
    assert rule is not None and (lesson not in LESSON_MISTAKES or rule == LESSON_MISTAKES[lesson])
    skill = {r.id: r.skill for r in CATALOG}[rule]
    loaded = load_lesson(lesson, "en")
    found = 0
    for k in range(5):
        run, focus = simulate_one(loaded, learner("perfect"), 77 + k)
        assert skill in focus
        found += sum(mistake_value(q, rule) is not None for q, _ in run.questions)
    assert found


@cache
def goals(lesson: str) -> dict[str, Any]:
    return {r.goal.key: r for r in teaching_goals(lesson, students=20, seed=1)}


@pytest.mark.parametrize("lesson, key", [(lesson, g.key) for lesson in
                                         ("04-times", "02-plus", "03-minus") for g in GOALS])
def test_teaching_goal(lesson: str, key: str) -> None:
    """Issue 32, part 8: the simulated students' goals (RULES.md §4: the answer is a number,
    evidence without crutches, mastered), 20 students, seed 1, on three lessons with the
    formula-with-blanks scaffold, 03-minus with two targets (its mistake was mastered by
    40–50% before mastery needed 5 in a row). The full table, 50 students on every lesson,
    is benchmarks/teaching_rates.py."""
    result = goals(lesson)[key]
    assert result.profile, key
    assert result.met, (result.goal.text, result.profile, result.value)


def _report(targets: list[str], share: float) -> dict[str, Any]:
    row = {"target": True, "mastered_share": share, "mastered_while_wrong": share,
           "mastered_when_unknown": share}
    return {"skills": {"add": dict(row), "multiply": dict(row)}, "lesson_targets": targets,
            "rounds": 3, "all_targets_mastered_share": share,
            "typos": {"named": round(share * 10), "of": 10}}


def test_goals_about_mastery_by_the_lesson_end_are_not_applicable_without_targets() -> None:
    """RULES.md §4 (issue 32 part 4): a lesson with targets goes on until they are mastered or
    its cap; free play (no targets) ends with its match. "Masters every target by the
    lesson's end" is judged where there are targets, and is n/a without them — with the
    reason and the value measured all the same, never silently dropped. The other goals are
    judged on the skills a lesson without targets practises (its game's)."""
    profiles = goal_profiles("04-times")
    for targets, n_a in (([], True), (["multiply"], False)):
        reports = {p: _report(targets, 0.1) for p in set(profiles.values()) if p}
        results = {r.goal.key: r for r in judge("x", profiles, reports)}
        for g in GOALS:
            r = results[g.key]
            if g.needs_targets and n_a:
                assert r.value is None and r.met and "no target skills" in r.reason
                assert "10% of" in r.reason and "add, multiply" in r.reason
            else:
                assert r.value == 0.1 and not r.reason
                assert r.met == (not g.at_least and g.bound >= 0.1)
    assert {g.key for g in GOALS if g.needs_targets} >= {"bkt"}
