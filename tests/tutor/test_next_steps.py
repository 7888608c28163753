"""Issue 43 part 3: a next step for each struggling student. Real sessions of the installed
lessons, answered by a script, saved in one class store; the teacher page's next steps say,
for each student and skill not mastered, the misconception their answers show and the lesson
that targets it (with scaffolds), or "needs more practice: N questions so far"; each gives
the play page's link with the student's name; students stuck now come first."""

from __future__ import annotations

import random
from collections.abc import Callable
from datetime import datetime, timedelta

import pytest

from tests import driving as drive
from tutor.classroom.live import parse_time
from tutor.classroom.next_steps import lesson_for, next_steps
from tutor.course.lessons import lesson_params, list_lessons
from tutor.session.session import Session
from tutor.storage.store import Store
from tutor.teaching.counts import student_counts
from tutor.teaching.diagnosis import CATALOG, diagnose
from tutor.teaching.questions import Question
from tutor.ui.teacher.next_steps_panel import next_steps_html

MISTAKE = "added_instead_of_multiplied"
Answer = Callable[[Question, int], list[str]]
"""The answers typed to the k-th question, the last one right (or the only one)."""


def _mistaken(q: Question, rule_id: str) -> int | None:
    """A wrong value the diagnosis names as ``rule_id`` on ``q`` (None if it has none)."""
    rule = next(r for r in CATALOG if r.id == rule_id)
    for value in rule.values(q):
        if value != q.expected and diagnose(q, value, "en").rule == rule_id:
            return value
    return None


def _play(store: Store, lesson: str, student: str, questions: int, answer: Answer,
          seed: int = 5) -> None:
    """Play ``lesson`` as ``student``, answering its first ``questions`` questions (or all,
    to the lesson's end) by ``answer`` (each typed in turn; a question not ended by them is
    answered right)."""
    s = drive.start(Session.from_lesson(lesson, lang="en", student=student, store=store, seed=seed,
                            drill=False))
    rng = random.Random(seed)
    k = 0
    for _ in range(20_000):
        q = s.pending_question
        if q is not None:
            if k == questions:
                break
            fb = None
            for typed in answer(q, k):
                fb = drive.answer(s, typed)
                if fb.done:
                    break
            if fb is None or not fb.done:
                drive.answer(s, str(q.expected))
            k += 1
        elif s.current_player() is not None:
            drive.play(s, rng.randrange(len(s.legal_actions())))
        elif s.round.over:
            if s.lesson_over:  # every target mastered (or a cap): what a student sees
                break
            drive.new_round(s)
        else:
            break
    assert k == questions or s.lesson_over, f"{student} reached {k} questions"
    assert s.flush()


def _right(q: Question, k: int) -> list[str]:
    return [str(q.expected)]


def _misconceived(q: Question, k: int) -> list[str]:
    """The mistake on every other multiplication (when the question has it), else right;
    the last answers right, so the student is not stuck now."""
    wrong = _mistaken(q, MISTAKE) if q.skill == "multiply" and k % 2 == 0 else None
    return [str(wrong), str(q.expected)] if wrong is not None else [str(q.expected)]


def _slipping(q: Question, k: int) -> list[str]:
    """Right and wrong by turns, the wrong numbers no catalogue mistake gives."""
    return [str(q.expected + 1000), str(q.expected)] if k % 2 else [str(q.expected)]


def _stuck_at_the_end(questions: int) -> Answer:
    def answer(q: Question, k: int) -> list[str]:
        if k >= questions - 3:
            return [str(q.expected + 1000), str(q.expected)]
        return [str(q.expected)]
    return answer


@pytest.fixture(scope="module")
def class_store(tmp_path_factory: pytest.TempPathFactory) -> Store:
    store = Store(tmp_path_factory.mktemp("class") / "class.sqlite3", lang="en")
    _play(store, "04-times", "Bea", 12, _misconceived)
    _play(store, "02-plus", "Ciro", 6, _slipping)
    _play(store, "02-plus", "Zoe", 8, _stuck_at_the_end(8))
    _play(store, "04-times", "Dan", 200, _right)
    return store


def _now(store: Store) -> datetime:
    """Just after the last answer stored: nobody is idle, Zoe's wrong answers are recent."""
    return max(parse_time(a.time) for a in store.attempts()) + timedelta(seconds=5)


def test_each_student_gets_a_next_step_from_their_answers(class_store: Store) -> None:
    attempts = class_store.attempts()
    lessons = list_lessons("en")
    steps = next_steps(attempts, lessons, _now(class_store))
    by = {(s.student, s.skill): s for s in steps}

    # Bea showed "added instead of multiplying": the lesson targeting multiplying, with its
    # scaffolds, under her name.
    bea = by[("Bea", "multiply")]
    assert bea.mistake == MISTAKE and bea.times >= 2
    assert bea.lesson == "04-times" and bea.scaffolds
    assert bea.link("en") == "Play.ipynb?lesson=04-times&lang=en&student=Bea"
    assert "added instead of multiplying" in bea.shows("en")
    assert "step by step, with scaffolds" in bea.advice("en", {"04-times": "x/n"})

    # The skills 04-times met now and then (the other end of a ×1 play, a score below
    # zero), asked once or twice with no misconception, are no step of their own.
    met = student_counts(class_store.attempts("Bea"), lesson_params())
    incidental = [c.skill for c in met.skills if c.skill != "multiply" and not c.mastered]
    assert incidental
    assert [s.skill for s in steps if s.student == "Bea"] == ["multiply"]

    # Ciro's wrong numbers are no catalogue mistake: more practice, with his count of
    # questions and what the mastery rule still needs, in the lesson he practised it in.
    ciro = by[("Ciro", "add")]
    counts = student_counts(class_store.attempts("Ciro"), lesson_params()).skill("add")
    assert counts is not None and not counts.mastered
    assert ciro.mistake is None and ciro.asked == counts.asked >= 3
    assert ciro.shows("en") == f"needs more practice: {counts.asked} questions so far"
    assert ciro.to_master == counts.to_master and ciro.to_master > 0
    assert f"{ciro.to_master} more right in a row" in ciro.advice("en", {})
    assert ciro.lesson == "02-plus"
    assert ciro.link("es") == "Play.ipynb?lesson=02-plus&lang=es&student=Ciro"

    # Dan answered every question right: his mastered skills get no step.
    dan = student_counts(class_store.attempts("Dan"), lesson_params())
    assert [c.skill for c in dan.skills if c.mastered]
    assert not [s for s in steps if s.student == "Dan"
                and dan.skill(s.skill) is not None and dan.skill(s.skill).mastered]

    # Zoe is stuck now (three wrong first answers in a row): she comes first, though her
    # name sorts last; the others follow by name.
    assert steps[0].student == "Zoe" and steps[0].stuck == "wrong"
    order = list(dict.fromkeys(s.student for s in steps))
    assert order[0] == "Zoe" and order[1:] == sorted(order[1:], key=str.casefold)
    assert all(s.stuck is None for s in steps if s.student != "Zoe")


def test_the_panel_shows_each_step_and_its_link(class_store: Store) -> None:
    steps = next_steps(class_store.attempts(), list_lessons("es"), _now(class_store))
    page = next_steps_html(steps, "es", {"04-times": "Fichas x/n: multiplicar"})
    rows = page.split("<tr class='ld-next-step")[1:]
    assert len(rows) == len(steps)
    assert "data-student='Zoe'" in rows[0] and "atascad" in rows[0]
    bea = next(r for r in rows if "data-student='Bea' data-skill='multiply'" in r)
    assert "sumó en lugar de multiplicar" in bea
    assert "href='Play.ipynb?lesson=04-times&amp;lang=es&amp;student=Bea'" in bea
    assert "Fichas x/n: multiplicar" in bea


def test_a_misconception_gets_the_scaffolded_lesson_of_its_skill() -> None:
    lessons = list_lessons("en")
    add = lesson_for("add", lessons, scaffolds=True, current="10-venezuela")
    assert add is not None and add.scaffold and "add" in add.targets  # not Venezuela's
    practice = lesson_for("add", lessons, scaffolds=False, current="10-venezuela")
    assert practice is not None and practice.id == "10-venezuela"
    assert lesson_for("rules", lessons) is None
