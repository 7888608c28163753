"""Simulated students (issue: questions that make the student think, mastery that means
something): the goals are checked on every shipped lesson with the tutor's own session code."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from functools import cache
from pathlib import Path
from typing import Any

import pytest

import tutor.commands.simulate as sim
from tutor.commands.goals import (
    GOALS,
    LESSON_MISTAKES,
    goal_profiles,
    judge,
    lesson_mistake,
    mistake_pairs,
    pair_result,
    teaching_goals,
)
from tutor.commands.learners import ProfileError, learner, typo, working
from tutor.commands.simulate import MAX_ATTEMPTS, Run, simulate, simulate_one
from tutor.course.lessons import LESSON_DIR, load_lesson
from tutor.teaching.answers import parse_answer
from tutor.teaching.coverage import item_tells
from tutor.teaching.diagnosis import CATALOG, mistake_value
from tutor.teaching.hints import hint_ladder
from tutor.teaching.mastery import SKILLS

ROOT = Path(__file__).resolve().parents[2]
LESSONS = sorted(p.stem for p in LESSON_DIR.glob("*.json"))


@cache
def report(lesson: str, profile: str, students: int = 50, seed: int = 1) -> dict[str, Any]:
    return simulate(lesson, students, profile, seed)


@pytest.mark.slow
@pytest.mark.parametrize("lesson", LESSONS)
def test_questions_are_arithmetic(lesson: str) -> None:
    """Goal: questions that are not arithmetic are at most 10% of all questions (50 perfect
    students per lesson). Before, 65% were the ±30 case."""
    r = report(lesson, "perfect")
    assert r["questions"] > 0
    assert r["non_arithmetic_share"] <= 0.10, r["kinds"]


@pytest.mark.slow
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


@pytest.mark.slow
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


@pytest.mark.slow
@pytest.mark.parametrize("lesson", ["01-other-end", "04-times"])
def test_students_play_until_the_lesson_is_over_and_its_length_is_reported(lesson: str) -> None:
    """docs/rules.md §4 (issue 32 part 4): simulated students play until the lesson is over. A
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
                                     "scaffold:one_half_only:0.5", "slips:0.1", "facts:5",
                                     "learner:0.15",
                                     "mixed:one_half_only,forgot_to_double:0.3"])
def test_every_profile_is_accepted_with_a_hidden_state(profile: str) -> None:
    student = learner(profile)()
    assert all(isinstance(student.knows(s), bool) for s in SKILLS)


def test_the_calculator_types_the_working_never_the_number() -> None:
    """docs/rules.md §4 ("The answer is a number"): a calculator copies the numbers it sees with the
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
    """docs/rules.md §4: a reply the tutor does not count keeps the question open. A count in tens
    is ``28/10`` to a calculator, which the answer box refuses (no division): it tries again up
    to the attempt limit, never counted, then asks to see the answer."""
    tens = [r for run in runs("11-ponce", "calculator", students=6)
            for r in run.replies if r.question.step == "tens"]
    assert tens
    for r in tens:
        assert (r.counted, r.uncounted, r.revealed, r.first_counted) == \
            (0, MAX_ATTEMPTS, True, None)


def test_the_hints_learner_takes_every_hint_before_answering() -> None:
    """docs/rules.md §4: hints come before the first attempt; this learner climbs the whole ladder
    to the answer, then types it."""
    replies = [r for run in runs("04-times", "hints", students=3) for r in run.replies]
    assert replies
    for r in replies:
        assert r.hints == len(hint_ladder(r.question)) >= 2
        assert r.first_text == str(r.question.expected) and r.counted == 1


def test_the_scaffold_learner_errs_only_without_a_scaffold() -> None:
    """docs/rules.md §4 (scaffolds): the mistake shows only where no formula with blanks shows and
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
    """docs/rules.md §4: asking T first is a scaffold of the points that follow it."""
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
    return {r.goal.key: r for r in teaching_goals(lesson, students=20, seed=GOALS_SEED)}


GOALS_SEED = 2
"""The slice's seed: the benchmark's first (issue 42: seed 1 is the seed the rules before it
were tuned on, so the benchmark plays seeds 2 and 3). On seed 1, 02-plus's slow learner
(``bkt``) masters adding 55% of the time with 20 students (62% with 50; 76–80% on seeds 2
and 3): the goal (≥ 70%) sits at its bound there, as docs/teaching.md says."""


@pytest.mark.slow
@pytest.mark.parametrize("lesson, key", [(lesson, g.key) for lesson in
                                         ("04-times", "02-plus", "03-minus") for g in GOALS])
def test_teaching_goal(lesson: str, key: str) -> None:
    """Issue 32, part 8 and issue 42: the simulated students' goals (docs/rules.md §4: the answer
    is a number, evidence without crutches, mastered), 20 students, seed 2
    (:data:`GOALS_SEED`), on three lessons with the formula-with-blanks scaffold, 03-minus
    with two targets (its mistake was mastered by 40–50% before mastery needed 5 in a row).
    The full table, 50 students on two seeds and every lesson, is
    benchmarks/teaching_rates.py."""
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
    """docs/rules.md §4 (issue 32 part 4): a lesson with targets goes on until they are mastered or
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


# --- issue 42 part 5: learners nobody tuned the rules on -------------------------------------

@pytest.mark.parametrize("bad", ["slips:2", "slips:x", "facts:-1", "facts:2.5", "learner:",
                                 "mixed:one_half_only:0.3x", "mixed:no_such_mistake:0.3",
                                 "mixed::0.3"])
def test_the_new_profiles_refuse_what_they_cannot_read(bad: str) -> None:
    with pytest.raises(ProfileError, match="slips:p, facts:N, learner:p or mixed"):
        learner(bad)


def test_a_typist_knows_everything_and_mistypes_by_the_four_kinds() -> None:
    """``slips:p``: right but for a share p of its first answers, each a typo of the right
    number (one off, neighbouring digits swapped, a digit dropped or doubled), right at the
    second try; the report counts its typos and how many the diagnosis named."""
    rng = random.Random(3)
    made = {typo(45, rng) for _ in range(300)}
    assert made == {44, 46, 54, 4, 5, 445, 455}
    assert {typo(7, rng) for _ in range(100)} == {6, 8, 77}
    out = report("04-times", "slips:0.1", 20, 2)
    assert out["typos"]["of"] > 0 and out["typos"]["named"] <= out["typos"]["of"]
    assert all(v["mastered_while_wrong"] in (0.0, None) for v in out["skills"].values())
    for run in runs("04-times", "slips:0.3", students=2):
        firsts = [r for r in run.replies if r.first_counted is not None]
        wrong = [r for r in firsts if not r.first_counted]
        assert wrong and all(r.counted == 2 for r in wrong)  # right at the second try


def test_facts_knows_products_up_to_n_and_adds_or_misses_beyond() -> None:
    """``facts:N``: x/n and x/x are right where both factors are at most N; beyond, the first
    answer is n + T (T + T) or the product off by 1 to 3; ×1 and every other skill right."""
    student = learner("facts:5")()
    assert not student.knows("multiply") and not student.knows("square")
    assert student.knows("add") and learner("facts:12")().knows("multiply")
    seen = 0
    for run in runs("04-times", "facts:5", students=3):
        for r in run.replies:
            q = r.question
            if q.context.rule != "x/n" or q.step != "gain" or q.context.n == 1:
                continue
            seen += 1
            a, b = q.context.n, q.context.t or 0
            value = int(r.first_text)
            if max(a, b) <= 5:
                assert value == q.expected
            else:
                assert value == a + b or 1 <= abs(value - q.expected) <= 3, (q, value)
    assert seen > 10


def test_a_learner_starts_with_a_mistake_and_drops_it_after_feedback() -> None:
    """``learner:p``: each skill starts with one of its mistakes (one its first question can
    show), made wherever it can be; after each wrong first answer, the mistake goes with
    probability p. Its hidden state is whether it still holds it."""
    never = runs("06-doubles", "learner:0", students=2)
    for run in never:
        assert not run.knows["double"] and not run.mastered["double"]
    always = runs("06-doubles", "learner:1", students=3)
    for run in always:  # it learns from the first feedback on each skill
        wrong = [r for r in run.replies if r.first_counted is False
                 and item_tells(r.question)[0] == "double"]
        assert len(wrong) <= 1 and run.knows["double"] and run.mastered["double"]


def test_mixed_makes_each_of_its_mistakes() -> None:
    student = learner("mixed:added_instead_of_multiplied,one_half_only:1")()
    assert not student.knows("multiply") and not student.knows("other-end")
    for run in runs("04-times", "mixed:added_instead_of_multiplied,one_half_only:1",
                    students=2):
        assert any(r.first_text != str(r.question.expected) for r in run.replies)
        assert not run.mastered["multiply"]


SLICE = [("06-doubles", "double", "squared_instead_of_doubled"),
         ("02-plus", "add", "subtracted_own_number"),
         ("04-times", "multiply", "times_table_slip"),
         ("11-ponce", "round", "rounded_down")]


@pytest.mark.slow
@pytest.mark.parametrize(("lesson", "skill", "mistake"), SLICE)
def test_a_slice_of_the_catalogue_pairs(lesson: str, skill: str, mistake: str) -> None:
    """Issue 42 part 5: a fixed-seed slice of benchmarks/teaching_rates.py's catalogue table,
    20 students on seed 1: each of these (lesson, skill, mistake) was called mastered 34–82%
    of the time before mastery counted the row per mistake (50 students, seeds 2 and 3);
    goal ≤ 20%."""
    assert (skill, mistake) in mistake_pairs(lesson)
    out = report(lesson, f"mistake:{mistake}:0.3", 20, 1)
    assert pair_result(out, skill) <= 0.20, out["skills"][skill]
