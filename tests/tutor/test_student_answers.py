"""Each student's answers as data (tutor.classroom.student_answers), from a scripted session whose
answers, hints, reveal and clock are known: every question with its skill, what was typed,
the named mistake, the hints seen and the seconds; and the same counts as the class table
(docs/rules.md §4: only first attempts count, a hint before the first answer makes it not right)."""

from __future__ import annotations

import random
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from tests import driving as drive
from tutor import hint_ladder
from tutor.classroom.overview import MISTAKE_NAMES, class_table
from tutor.classroom.student_answers import STEP_NAMES, answers_by_student, student_answers
from tutor.session.session import Session
from tutor.storage.records import Attempt, Outcome
from tutor.storage.store import Store
from tutor.teaching.diagnosis import diagnose


class Clock:
    """The session's clock (time.monotonic), moved by the script only."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def _wrong(q: Any) -> int:
    """A wrong answer with a named mistake: adding where the tile multiplies."""
    return int(q.context.n + (q.context.t or 0))


@pytest.fixture()
def scripted(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    """Lesson 04-times, one round, seed 7, played by "ana" with a known script:
    Q1 hint pressed 6 times (past the last rung), then right; Q2 wrong (added instead of
    multiplying), then right; Q3 wrong, a hint, then "Show me"; every later question right.
    Each step moves the clock by a known number of seconds."""
    clock = Clock()
    monkeypatch.setattr(time, "monotonic", clock)
    db = tmp_path / "ana.sqlite3"
    s = drive.start(Session.from_lesson("04-times", lang="en", student="ana", store=str(db), seed=7,
                            rounds=1))
    rng = random.Random(7)
    script: list[dict[str, Any]] = []
    for _ in range(10_000):
        q = s.pending_question
        if q is not None:
            k = len(script) + 1
            done: dict[str, Any] = {"q": q, "typed": [], "seconds": 5.0}
            clock.now += 5
            if k == 1:
                done["ladder"] = len(hint_ladder(q, "en"))
                for _press in range(6):
                    s.hint()
                    clock.now += 1
                done["seconds"] += 6
                drive.answer(s, str(q.expected))
                done["typed"] = [str(q.expected)]
            elif k == 2:
                assert diagnose(q, _wrong(q), "en").rule == "added_instead_of_multiplied"
                drive.answer(s, str(_wrong(q)))
                clock.now += 3
                drive.answer(s, str(q.expected))
                done["typed"] = [str(_wrong(q)), str(q.expected)]
                done["seconds"] += 3
            elif k == 3:
                assert diagnose(q, _wrong(q), "en").rule == "added_instead_of_multiplied"
                drive.answer(s, str(_wrong(q)))
                clock.now += 2
                s.hint()
                clock.now += 4
                drive.reveal(s)
                done["typed"] = [str(_wrong(q))]
                done["seconds"] += 6
            else:
                drive.answer(s, str(q.expected))
                done["typed"] = [str(q.expected)]
            script.append(done)
        elif s.current_player() is not None:
            drive.play(s, rng.randrange(len(s.legal_actions())))
        else:
            break
    s.close()
    with Store(db) as store:
        attempts = store.attempts()
    assert len(script) >= 4, "the seed's round asks at least four questions"
    return {"script": script, "attempts": attempts, "db": db}


def test_the_answer_list_of_a_scripted_session(scripted: dict[str, Any]) -> None:
    script, attempts = scripted["script"], scripted["attempts"]
    got = student_answers(attempts)
    assert [(a.problem, a.step_kind) for a in got] == [(d["q"].problem, d["q"].step)
                                                      for d in script]
    assert [a.skill for a in got] == [d["q"].skill for d in script]
    assert [a.expected for a in got] == [d["q"].expected for d in script]
    assert [[t.input for t in a.tries] for a in got] == [d["typed"] for d in script]
    assert [a.seconds for a in got] == [d["seconds"] for d in script]
    assert all(a.finished and a.student == "ana" and a.lesson == "04-times" for a in got)
    q1, q2, q3, *rest = got
    # Q1: hints pressed past the last rung count once per rung; hinted, so not right at the
    # first try (docs/rules.md §4: a hint before the first attempt counts as wrong).
    assert q1.hints == q1.hints_before_answer == script[0]["ladder"]
    assert not q1.right_first and not q1.revealed and q1.mistakes == ()
    # Q2: the wrong try is named; its feedback showed the first rung, which is no hint: no
    # "Hint" was pressed (issue 43).
    assert [t.correct for t in q2.tries] == [False, True]
    assert [t.mistake for t in q2.tries] == ["added_instead_of_multiplied", None]
    assert q2.mistakes == ("added_instead_of_multiplied",)
    assert (q2.hints, q2.hints_before_answer, q2.right_first) == (0, 0, False)
    # Q3: wrong (the first rung as feedback), one press (the second rung), then the answer
    # shown: one hint.
    assert q3.revealed and q3.hints == 1 and q3.hints_before_answer == 0
    assert q3.mistakes == ("added_instead_of_multiplied",) and len(q3.tries) == 1
    assert all(a.right_first and a.hints == 0 and not a.revealed for a in rest)
    assert "added_instead_of_multiplied" in MISTAKE_NAMES


def test_the_list_counts_as_the_class_table(scripted: dict[str, Any]) -> None:
    """One definition: questions and right-at-the-first-try agree with the class table,
    which replays the attempts through mastery (tutor.teaching.replay.rebuild_mastery)."""
    got = student_answers(scripted["attempts"])
    rows = class_table(scripted["attempts"])
    assert sum(r.asked for r in rows) == len(got)
    assert sum(r.first_try_right for r in rows) == sum(a.right_first for a in got)
    for r in rows:
        mine = [a for a in got if a.skill == r.skill]
        assert (len(mine), sum(a.right_first for a in mine)) == (r.asked, r.first_try_right)


def test_the_list_reads_the_same_from_the_progress_file(scripted: dict[str, Any],
                                                        tmp_path: Path) -> None:
    """A file handed in and merged on the teacher's server lists the same answers."""
    out = tmp_path / "ana.csv"
    with Store(scripted["db"]) as store:
        store.export_csv(out, "ana")
    with Store(tmp_path / "teacher.sqlite3") as teacher:
        teacher.import_file(out)
        assert student_answers(teacher.attempts()) == student_answers(scripted["attempts"])


def _row(n: int, **changes: Any) -> Attempt:
    base = Attempt("bo", "s1", f"2024-05-01T12:00:{n:02d}+00:00", "04-times", "m1r1t3-x/4",
                   "gain", Outcome.INCORRECT, "9", "added_instead_of_multiplied", "multiply",
                   1, True, 0, float(n), 36, 9)
    return replace(base, **changes)


def test_questions_are_runs_ordered_by_time_and_an_open_one_is_not_finished() -> None:
    rows = [
        # session s2 started later but was stored first (a merged file)
        _row(30, session="s2", problem="m1r1t1-x/2", input="5", answered=5, expected=10),
        _row(1),
        _row(2, outcome=Outcome.CORRECT, input="36", answered=36, feedback="correct",
             attempt_at_step=2, first_attempt=False),
        # the same step asked again later in the session is another question
        _row(5, outcome=Outcome.HINT, input="", feedback="hint-1", hints=1, attempt_at_step=3,
             first_attempt=False),
        _row(6, outcome=Outcome.CORRECT, input="36", answered=36, feedback="correct", hints=1,
             attempt_at_step=4, first_attempt=False),
        _row(8, student="al", problem="m1r2-round", step="total", kc="negative",
             outcome=Outcome.INCORRECT, input="12", answered=12, expected=-3,
             feedback="dropped_the_minus"),
    ]
    got = student_answers(rows)
    assert [(a.student, a.session, a.time[-8:-6]) for a in got] == [
        ("bo", "s1", "01"), ("bo", "s1", "05"), ("al", "s1", "08"), ("bo", "s2", "30")]
    first, again, open_total, later = got
    assert [t.input for t in first.tries] == ["9", "36"] and first.finished
    assert again.tries[0].correct and again.hints_before_answer == 1 and not again.right_first
    assert not open_total.finished and open_total.mistakes == ("dropped_the_minus",)
    assert open_total.tile is None and STEP_NAMES[open_total.step]
    assert first.tile == "x/4" and later.tile == "x/2" and not later.finished
    assert list(answers_by_student(rows)) == ["al", "bo"]
    # A remediation's drill names its tile too; a step's notes are not its kind.
    fix = replace(first, problem="fix2-drill1-0-x/3", step="gain[blanks,trivial]")
    assert (fix.tile, fix.step_kind) == ("x/3", "gain")
    assert len(answers_by_student(rows)["bo"]) == 3


def test_a_wrong_answer_under_another_skill_keeps_the_questions_skill() -> None:
    """A wrong answer is stored under the skill its mistake concerns (docs/rules.md §4); the list
    shows the skill the question asked, from its other rows."""
    rows = [_row(1, kc="other-end", feedback="used_near_end"),
            _row(2, outcome=Outcome.CORRECT, feedback="correct", input="36", answered=36,
                 attempt_at_step=2)]
    (q,) = student_answers(rows)
    assert q.skill == "multiply" and q.mistakes == ("used_near_end",)
    # An unnamed wrong answer names no mistake.
    (q,) = student_answers([_row(1, feedback="wrong")])
    assert q.tries[0].mistake is None and q.mistakes == ()
