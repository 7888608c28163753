"""The teacher's live view (issue 35, part 3; tutor.classroom.live): who plays which lesson,
answers so far, and who is stuck — three wrong first answers in a row, with an answer in the
last N minutes — or has left (no answer for N minutes, issue 52), with time from the store's
timestamps against an injected clock (no wall clock). A question, its first answer and
"right at the first try" are docs/rules.md §4's, as tutor.teaching.counts counts them; a
student's state is one function's (tutor.classroom.live.student_state, issue 52 part 3).
"""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from pathlib import Path

from tutor.classroom.live import (
    STUCK_MINUTES,
    WRONG_IN_A_ROW,
    CountsMemo,
    live_rows,
    live_view,
    student_state,
)
from tutor.storage.store import Store

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=timezone.utc)


def at(seconds: float) -> str:
    return (T0 + timedelta(seconds=seconds)).isoformat(timespec="microseconds")


class Class:
    """Writes questions into a real store (SQLite here), one step each, at given times."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.sessions: dict[str, str] = {}
        self.n = 0

    def question(self, student: str, lesson: str, t: float, *answers: str,
                 hint: bool = False) -> None:
        """A question met at ``t`` s: its rows ("right", "wrong", "show"), one second apart."""
        session = self.sessions.setdefault(student, self.store.start_session(student,
                                                                             started=at(0)))
        self.n += 1
        rows = (["hint"] if hint else []) + list(answers)
        for k, what in enumerate(rows):
            outcome = {"right": "CORRECT", "wrong": "INCORRECT", "show": "GIVEUP",
                       "hint": "HINT"}[what]
            self.store.record_attempt(
                student, session, lesson=lesson, problem=f"p{self.n}", step="T",
                outcome=outcome, input_text="12" if what in ("right", "wrong") else "",
                feedback="" if what != "hint" else "rung-1", kc="multiply",
                hints=int(hint), expected=12,
                answered=12 if what == "right" else 13 if what == "wrong" else None,
                time=at(t + k))


def test_who_is_on_which_lesson_and_their_answers_so_far(tmp_path: Path) -> None:
    with Store(tmp_path / "p.sqlite3") as store:
        c = Class(store)
        c.question("ana", "01-match", 0, "right")
        c.question("ana", "04-times", 30, "wrong", "right")   # ana moved on to 04-times
        c.question("ana", "04-times", 60, "right")
        c.question("ana", "04-times", 70, "right", hint=True)  # right after a hint: not first
        c.question("beto", "01-match", 40, "right")
        view = live_view(store, now=T0 + timedelta(seconds=90))
    ana, beto = view.rows
    assert (ana.student, ana.lesson, ana.questions, ana.answers, ana.right_first) == (
        "ana", "04-times", 3, 4, 1)
    assert (beto.student, beto.lesson, beto.questions, beto.answers, beto.right_first) == (
        "beto", "01-match", 1, 1, 1)
    assert ana.last == T0 + timedelta(seconds=71)
    assert ana.idle_seconds == 19.0 and ana.stuck is None and beto.stuck is None
    assert view.away == 0 and view.stuck == ()


def test_three_wrong_first_answers_in_a_row_is_stuck_and_a_right_one_ends_it(
        tmp_path: Path) -> None:
    assert WRONG_IN_A_ROW == 3
    with Store(tmp_path / "p.sqlite3") as store:
        c = Class(store)
        c.question("ana", "04-times", 0, "right")
        c.question("ana", "04-times", 10, "wrong", "right")
        c.question("ana", "04-times", 20, "wrong", "wrong", "right")
        c.question("ana", "04-times", 30, "hint")          # left after a hint: not judged
        c.question("ana", "04-times", 40, "show")          # "Show me" first: wrong
        c.question("beto", "04-times", 0, "wrong", "right")
        c.question("beto", "04-times", 10, "wrong", "right")
        c.question("beto", "04-times", 20, "right")        # the run ends here
        c.question("beto", "04-times", 30, "wrong", "right")
        now = T0 + timedelta(seconds=50)
        view = live_view(store, now)
        assert [(r.student, r.wrong_in_a_row, r.stuck) for r in view.rows] == [
            ("ana", 3, "wrong"), ("beto", 1, None)]
        c.question("ana", "04-times", 45, "right")
        assert live_view(store, now).rows[0].stuck is None


def test_stuck_needs_an_answer_in_the_last_n_minutes_and_no_answer_for_n_is_left(
        tmp_path: Path) -> None:
    """Issue 52: Beto answered 3 questions and closed the tab; 14 minutes later he was
    "stuck: no answer for 14 min" on every view. Stuck is active in the last N minutes and
    failing; no answer for N minutes is left."""
    assert STUCK_MINUTES == 10
    n = STUCK_MINUTES * 60
    with Store(tmp_path / "p.sqlite3") as store:
        c = Class(store)
        c.question("beto", "04-times", 0, "wrong", "right")   # three answers, then gone
        c.question("beto", "04-times", 10, "wrong", "right")
        c.question("beto", "04-times", 20, "wrong", "right")  # last row at 21 s
        c.question("ana", "04-times", 0, "right")             # one answer, then gone
        attempts = store.attempts()
    soon = live_rows(attempts, T0 + timedelta(seconds=60))
    assert [(r.student, r.state, r.stuck) for r in soon.rows] == [
        ("beto", "stuck", "wrong"), ("ana", "playing", None)]
    # Ana's two minutes without an answer are not "stuck" (the old rule): still playing.
    assert live_rows(attempts, T0 + timedelta(seconds=130)).rows[1].state == "playing"
    later = live_rows(attempts, T0 + timedelta(seconds=21 + n))
    assert [(r.student, r.state, r.stuck) for r in later.rows] == [
        ("ana", "left", None), ("beto", "left", None)]
    assert later.stuck == ()
    fourteen = live_rows(attempts, T0 + timedelta(minutes=14))
    assert {r.state for r in fourteen.rows} == {"left"}
    # A clock behind the store's times: no negative idleness.
    assert live_rows(attempts, T0 - timedelta(seconds=5)).rows[0].idle_seconds == 0.0


def test_the_one_state_rule() -> None:
    """Finished with the lesson over by its rows, at once; from files before all else;
    stuck and left split by N minutes."""
    n = STUCK_MINUTES * 60
    assert student_state(idle_seconds=5, wrong_in_a_row=0, over="mastered",
                         from_files=False) == ("finished", None)
    assert student_state(idle_seconds=5, wrong_in_a_row=0, over=None,
                         from_files=False) == ("playing", None)
    assert student_state(idle_seconds=n, wrong_in_a_row=0, over="mastered",
                         from_files=False) == ("finished", None)
    assert student_state(idle_seconds=n, wrong_in_a_row=5, over=None,
                         from_files=False) == ("left", None)
    assert student_state(idle_seconds=n - 1, wrong_in_a_row=3, over=None,
                         from_files=False) == ("stuck", "wrong")
    assert student_state(idle_seconds=5, wrong_in_a_row=3, over=None,
                         from_files=True) == ("files", None)


def test_a_student_not_playing_now_is_counted_not_listed(tmp_path: Path) -> None:
    with Store(tmp_path / "p.sqlite3") as store:
        c = Class(store)
        c.question("ana", "04-times", 0, "right")
        c.question("beto", "04-times", 3600, "wrong", "right")  # an hour later
        view = live_view(store, T0 + timedelta(seconds=3650))
    assert [r.student for r in view.rows] == ["beto"] and view.away == 1
    # Only the window's rows count: beto's answers are the ones of this hour.
    assert view.rows[0].answers == 2
    assert live_rows([], T0).rows == () and live_rows([], T0).away == 0


def test_the_pages_memo_replays_a_student_again_on_a_new_row(tmp_path: Path) -> None:
    """The page reads the class every few seconds and keeps each student's counts
    (issue 43): a student with no new row keeps them, a new row is counted at once."""
    with Store(tmp_path / "p.sqlite3") as store:
        c = Class(store)
        c.question("ana", "04-times", 0, "right")
        c.question("beto", "04-times", 5, "wrong", "right")
        memo: CountsMemo = {}
        now = T0 + timedelta(seconds=30)
        first = live_rows(store.attempts(), now, memo=memo)
        kept = dict(memo)
        assert first == live_rows(store.attempts(), now)
        c.question("ana", "04-times", 20, "wrong", "right")
        again = live_rows(store.attempts(), now, memo=memo)
        assert again == live_rows(store.attempts(), now)  # never a stale count
        ana = next(r for r in again.rows if r.student == "ana")
        assert (ana.questions, ana.right_first) == (2, 1)
        assert memo["beto"] is kept["beto"] and memo["ana"] is not kept["ana"]
