"""Review that spaces (issue 32 part 5; docs/rules.md §4: "A review miss after mastery can take it
away"): the schedule of mastered skills (1, 3, 7, 21 days, stretched by a review passed,
reset by a miss), review items mixed into any lesson opened when one is due, a miss taking
mastery away, the lessons page's list of what is due, and the ``forget:DAYS`` simulated
student. Every time here comes from an injected clock: no test sleeps or reads the real
clock."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from tests import driving as drive
from tutor.classroom.overview import reviews_due
from tutor.commands.learners import Forgetful, ProfileError, SimClock, learner
from tutor.commands.simulate import simulate_days
from tutor.session.saving import load_mastery, save_mastery
from tutor.session.session import Session, SessionError
from tutor.storage.records import Attempt, Outcome
from tutor.storage.store import Store
from tutor.teaching.mastery import STREAK_TO_MASTER, BKTParams, Mastery
from tutor.teaching.replay import rebuild_mastery
from tutor.teaching.review import INTERVALS, REVIEW_ITEMS, ReviewSchedule, due_reviews, is_review

T0 = datetime(2024, 5, 1, 9, 0, tzinfo=timezone.utc)
DAY = timedelta(days=1)
PARAMS: dict[str, BKTParams] = {}  # every lesson at the default tracing


class Answers:
    """One student's first answers, written as the store keeps them (ISO UTC times)."""

    def __init__(self) -> None:
        self.rows: list[Attempt] = []

    def add(self, when: datetime, skill: str, right: bool, *, review: bool = False,
            hints: int = 0) -> None:
        n = len(self.rows)
        problem = f"{'review-' if review else ''}m1r1t{n}-5/x"
        for k in range(hints):  # hints asked before the answer are rows of their own
            self.rows.append(Attempt(
                "ana", "s1", when.isoformat(), "04-times", problem, "gain", Outcome.HINT, "",
                f"hint-{k + 1}", skill, k + 1, k == 0, k + 1, 1.0, 45, None))
        self.rows.append(Attempt(
            "ana", "s1", when.isoformat(), "04-times", problem, "gain",
            Outcome.CORRECT if right else Outcome.INCORRECT, "45" if right else "14", "", skill,
            hints + 1, not hints, hints, 3.0, 45, 45 if right else 14))

    def master(self, when: datetime, skill: str = "multiply") -> None:
        # STREAK_TO_MASTER right first answers take the default tracing to mastery
        for k in range(STREAK_TO_MASTER):
            self.add(when + timedelta(minutes=k), skill, True)
        assert rebuild_mastery(self.rows, PARAMS).state(skill).mastered

    def due(self, now: datetime) -> list[tuple[str, int, int]]:
        return [(d.skill, d.interval, d.days) for d in reviews_due(self.rows, now, PARAMS)]


def test_a_mastered_skill_is_due_one_day_after_mastery() -> None:
    a = Answers()
    a.master(T0)
    mastered_at = T0 + timedelta(minutes=STREAK_TO_MASTER - 1)  # the last of the row
    assert INTERVALS[:2] == (1, 3)
    assert a.due(mastered_at) == []
    assert a.due(mastered_at + DAY - timedelta(seconds=1)) == []
    assert a.due(mastered_at + DAY) == [("multiply", 1, 0)]
    assert a.due(mastered_at + 3 * DAY) == [("multiply", 1, 2)]
    (due,) = reviews_due(a.rows, mastered_at + 3 * DAY, PARAMS)
    assert due.since == mastered_at + DAY
    # A skill never mastered is never due.
    a.add(T0, "square", True)
    assert [d[0] for d in a.due(T0 + 30 * DAY)] == ["multiply"]


def test_a_review_passed_stretches_the_wait_to_the_next_interval() -> None:
    a = Answers()
    a.master(T0)
    review_at = T0 + DAY + timedelta(hours=5)
    a.add(review_at, "multiply", True, review=True)
    assert a.due(review_at) == []
    assert a.due(review_at + 3 * DAY - timedelta(seconds=1)) == []
    assert a.due(review_at + 3 * DAY) == [("multiply", 3, 0)]
    # A second review item right away is no new review: the wait stays 3 days from the first.
    a.add(review_at + timedelta(minutes=1), "multiply", True, review=True)
    assert a.due(review_at + 3 * DAY) == [("multiply", 3, 0)]
    # Passed again when due: 7 days, then 21, and 21 from there on.
    waits = []
    when = review_at + 3 * DAY
    for _ in range(4):
        a.add(when, "multiply", True, review=True)
        (due,) = reviews_due(a.rows, when + 100 * DAY, PARAMS)
        waits.append(due.interval)
        when = due.since
    assert waits == [7, 21, 21, 21]


def test_an_ordinary_question_is_not_a_review() -> None:
    a = Answers()
    a.master(T0)
    a.add(T0 + 2 * DAY, "multiply", True)  # asked in a game, not as a review item
    assert a.due(T0 + 3 * DAY) == [("multiply", 1, 1)]


@pytest.mark.parametrize("hints", [0, 1])
def test_a_review_missed_takes_mastery_away_and_resets_the_schedule(hints: int) -> None:
    """docs/rules.md §4: a review miss after mastery can take it away (a hint before the first
    answer counts as a wrong answer)."""
    a = Answers()
    a.master(T0)
    passed = T0 + 2 * DAY
    a.add(passed, "multiply", True, review=True)  # the wait is now 3 days
    missed = passed + 3 * DAY
    a.add(missed, "multiply", bool(hints), review=True, hints=hints)  # right but hinted: a miss
    mastery = rebuild_mastery(a.rows, PARAMS)
    assert not mastery.state("multiply").mastered
    assert mastery.state("multiply").p_known <= BKTParams().p_init
    assert a.due(missed + 30 * DAY) == []  # not mastered: not on the schedule
    # Mastered again: the schedule starts over at the first interval.
    a.master(missed + DAY)
    again = missed + DAY + timedelta(minutes=STREAK_TO_MASTER - 1)
    assert a.due(again + DAY) == [("multiply", 1, 0)]


def test_an_ordinary_wrong_answer_does_not_take_mastery_away_at_once() -> None:
    """Only a review item's miss takes mastery away outright; a slip in the game is weighed
    by the knowledge tracing alone."""
    m = Mastery()
    for _ in range(STREAK_TO_MASTER + 1):
        m.record("multiply", True)
    m.record("multiply", False)
    assert m.state("multiply").mastered
    st = m.review_missed("multiply")
    assert not st.mastered and st.p_known == m.params_for("multiply").p_init
    for _ in range(STREAK_TO_MASTER - 1):
        m.record("multiply", True)
    assert not m.state("multiply").mastered  # mastery must be shown again
    m.record("multiply", True)
    assert m.state("multiply").mastered


def test_due_reviews_needs_an_aware_time() -> None:
    with pytest.raises(ValueError):
        due_reviews(ReviewSchedule(), datetime(2024, 5, 1))  # noqa: DTZ001 - the point


def _store_with_multiply_mastered(path: Path) -> Store:
    store = Store(path)
    a = Answers()
    a.master(T0)
    store.merge(a.rows)
    save_mastery(store, "ana", rebuild_mastery(a.rows, PARAMS))
    return store


def test_a_lesson_opened_when_a_review_is_due_starts_with_review_items(tmp_path: Path) -> None:
    with _store_with_multiply_mastered(tmp_path / "p.sqlite3") as store:
        early = drive.start(Session.from_lesson("02-plus", lang="en", student="ana", store=store,
                                    seed=3, clock=lambda: T0 + timedelta(hours=12)))
        assert not any(is_review(q.problem) for q in early.queued_questions)

        now = T0 + 2 * DAY
        s = drive.start(
                Session.from_lesson("02-plus", lang="en", student="ana", store=store, seed=3,
                                clock=lambda: now))
        assert [d.skill for d in s.reviews_due()] == ["multiply"]
        queued = s.queued_questions
        assert len(queued) == REVIEW_ITEMS
        assert all(is_review(q.problem) and q.skill == "multiply" and q.situation.drill
                   for q in queued)
        assert s.current_player() is None  # the review comes before the game goes on
        assert s.asker.pending is not None and s.asker.pending.scaffold == ""  # unscaffolded
        for _ in queued:
            q = s.pending_question
            assert q is not None
            drive.answer(s, str(q.expected))
        assert s.mastery.state("multiply").mastered
        rows = [r for r in store.attempts("ana") if is_review(r.problem)]
        assert len(rows) == REVIEW_ITEMS
        assert {r.time for r in rows} == {now.isoformat(timespec="microseconds")}
        # Passed: the next review is 3 days on, so a lesson opened now asks none.
        (due,) = reviews_due(store.attempts("ana"), now + 3 * DAY, PARAMS)
        assert (due.skill, due.interval) == ("multiply", 3)
        again = drive.start(
                Session.from_lesson("02-plus", lang="en", student="ana", store=store, seed=4,
                                    clock=lambda: now + DAY))
        assert not any(is_review(q.problem) for q in again.queued_questions)


def test_a_review_missed_in_a_lesson_takes_mastery_away(tmp_path: Path) -> None:
    with _store_with_multiply_mastered(tmp_path / "p.sqlite3") as store:
        now = T0 + 2 * DAY
        s = drive.start(
                Session.from_lesson("05-squares", lang="en", student="ana", store=store, seed=5,
                                clock=lambda: now))
        q = s.pending_question
        assert q is not None and is_review(q.problem) and s.mastery.state("multiply").mastered
        fb = drive.answer(s, str(q.expected + 1))
        assert fb.kind == "wrong"
        assert not s.mastery.state("multiply").mastered
        assert not load_mastery(store, "ana").state("multiply").mastered
        # The replay of the attempts (the pages, the teacher's report) agrees.
        assert not rebuild_mastery(store.attempts("ana"), PARAMS).state("multiply").mastered
        assert reviews_due(store.attempts("ana"), now + 30 * DAY, PARAMS) == []


def test_the_session_clock_must_say_its_time_zone() -> None:
    with pytest.raises(SessionError):
        drive.start(Session(clock=lambda: datetime(2024, 5, 1), seed=1))  # noqa: DTZ001 - the point


def test_the_lessons_page_lists_what_is_due_in_both_languages(tmp_path: Path) -> None:
    from tutor.ui.lessons.lessons_app import LessonsPage
    from tutor.ui.lessons.reviews import reviews_html

    with _store_with_multiply_mastered(tmp_path / "p.sqlite3") as store:
        due = reviews_due(store.attempts("ana"), T0 + 4 * DAY, PARAMS)
        assert [(d.skill, d.days) for d in due] == [("multiply", 2)]
        assert "Due for review: multiplying (due for 2 days)" in reviews_html(due, "en")
        assert "Toca repasar: multiplicar (pendiente desde hace 2 días)" in reviews_html(
            due, "es")
        page = LessonsPage(store=store, student="ana", lang="en",
                           clock=lambda: T0 + 4 * DAY)
        assert "data-skill='multiply'" in page.reviews.value
        assert "Due for review: multiplying" in page.reviews.value
        assert page.reviews_due() == due
        today = LessonsPage(store=store, student="ana", lang="es",
                            clock=lambda: T0 + DAY + timedelta(hours=1))
        assert "multiplicar (pendiente desde hoy)" in today.reviews.value
        fresh = LessonsPage(store=store, student="ana", lang="en", clock=lambda: T0)
        assert fresh.reviews.value == ""  # nothing due: nothing shown


def test_forget_profile_parses() -> None:
    made = learner("forget:2.5")()
    assert isinstance(made, Forgetful) and made.days == 2.5
    for bad in ("forget:0", "forget:-1", "forget:x", "forget:", "forget:nan"):
        with pytest.raises(ProfileError):
            learner(bad)


def test_a_forgetful_student_misses_a_review_and_loses_mastery(tmp_path: Path) -> None:
    """forget:2 across days on one store: multiply mastered on day 0; on day 1 it is due,
    mixed into another lesson and passed (remembered); 3 days later (more than 2 without
    practice) it is due again, mixed in, missed, and mastery is taken away."""
    clock = SimClock(T0)
    student = learner("forget:2")()
    with Store(tmp_path / "p.sqlite3") as store:
        day0, day1, day4 = simulate_days(
            [(0, "04-times"), (1.1, "02-plus"), (3.1, "02-plus")], student, store,
            clock=clock, name="ana")
        assert not any(is_review(q.problem) for q, _ in day0)
        reviews1 = [(q.skill, ok) for q, ok in day1 if is_review(q.problem)]
        assert ("multiply", True) in reviews1 and all(ok for _, ok in reviews1)
        reviews4 = [(q.skill, ok) for q, ok in day4 if is_review(q.problem)]
        assert reviews4[:1] and ("multiply", False) in reviews4
        first_multiply = next(ok for s, ok in reviews4 if s == "multiply")
        assert first_multiply is False  # forgotten: its first review answer is wrong
        taken: list[str] = []

        def watch(a: Attempt, hints: int, was: dict[str, bool], mastery: Mastery) -> None:
            if is_review(a.problem) and was.get("multiply") \
                    and not mastery.state("multiply").mastered:
                taken.append(a.time[:10])

        rebuilt = rebuild_mastery(store.attempts("ana"), PARAMS, watch=watch)
        assert taken == ["2024-05-05"]  # the day-4 review miss took mastery away
        assert not rebuilt.state("multiply").mastered
        assert not load_mastery(store, "ana").state("multiply").mastered
        times = {a.time[:10] for a in store.attempts("ana")}
        assert times == {"2024-05-01", "2024-05-02", "2024-05-05"}


def test_a_forgetful_student_who_practises_in_time_remembers(tmp_path: Path) -> None:
    student = learner("forget:5")()
    with Store(tmp_path / "p.sqlite3") as store:
        _day0, day1, day4 = simulate_days(
            [(0, "04-times"), (1.1, "02-plus"), (3.1, "02-plus")], student, store,
            clock=SimClock(T0), name="bo")
        assert all(ok for q, ok in day1 + day4 if is_review(q.problem))
        assert load_mastery(store, "bo").state("multiply").mastered


def test_days_apart_every_profile_plays_as_in_one_lesson(tmp_path: Path) -> None:
    """simulate_days plays through the simulator's one loop, so every profile plays there as
    in ``simulate``: a calculator, which types only the working it sees, is never right at
    the first reply, and its attempts are recorded."""
    with Store(tmp_path / "p.sqlite3") as store:
        (day0,) = simulate_days([(0, "04-times")], learner("calculator")(), store,
                                clock=SimClock(T0), name="cy")
        assert day0 and not any(ok for _q, ok in day0)
        assert store.attempts("cy")


def test_a_review_item_tests_the_skill_never_a_times_one_item() -> None:
    """Issue 42 cause 4: a multiply review item could be a ×1 position (about 1 in 6 of the
    drill positions), which counts for the other end: a student who had forgotten multiplying
    missed it and kept the mastery. Every review item (and every drill item) of a skill now
    tests that skill: its right answer is evidence for it, and its first wrong answer takes a
    mastered skill's mastery away."""
    import random

    from tutor.teaching.asking import Asker
    from tutor.teaching.coverage import item_tells
    from tutor.teaching.practice import Plan

    for seed in range(40):
        m = Mastery()
        for _ in range(STREAK_TO_MASTER):
            m.record("multiply", True)
        assert m.state("multiply").mastered
        asker = Asker(lang="en", plan=Plan(targets=frozenset({"add"})),
                      ask=frozenset({"power"}), students={0: "ana"}, masteries={0: m},
                      players=2, rng=random.Random(seed))
        assert asker.review({0: ["multiply"]}, "m1-") == REVIEW_ITEMS
        assert all(not p.trivial and item_tells(p.question)[0] == "multiply"
                   for p in asker.queue), seed
        first = asker.pending
        assert first is not None and is_review(first.question.problem)
        asker.answer(str(first.question.expected + 1))
        assert not m.state("multiply").mastered, seed


def test_a_review_miss_blamed_on_the_other_end_still_misses_the_review() -> None:
    """A review item reviews its skill: answered with the near end's total (a wrong answer
    the diagnosis blames on finding the other end), the multiply review is missed all the
    same, live and on replay."""
    import random

    from tutor.teaching.asking import Asker
    from tutor.teaching.diagnosis import diagnose, mistake_value
    from tutor.teaching.practice import Plan
    from tutor.teaching.review import reviewed_skill

    tried = 0
    for seed in range(40):
        m = Mastery()
        for _ in range(STREAK_TO_MASTER):
            m.record("multiply", True)
        asker = Asker(lang="en", plan=Plan(targets=frozenset({"add"})),
                      ask=frozenset({"power"}), students={0: "ana"}, masteries={0: m},
                      players=2, rng=random.Random(seed))
        asker.review({0: ["multiply"]}, "m1-")
        first = asker.pending
        assert first is not None and reviewed_skill(first.question.problem) == "multiply"
        near = mistake_value(first.question, "used_near_end")
        if near is None or diagnose(first.question, near).kind != "named":
            continue
        tried += 1
        asker.answer(str(near))
        assert first.evidence is not None and first.evidence.skill == "other-end"
        assert not m.state("multiply").mastered, seed
    assert tried >= 5
