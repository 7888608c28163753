"""One state per student, the same on every view (issue 52 part 3): a scripted class —
finished (half an hour ago, and a minute ago), playing, stuck, left after three answers, from
uploaded files —
really played through the tutor, its rows moved in time, measured at three times. The live
view, the assignment table and "What to do now" take each student's state from one rule
(tutor.classroom.live.student_state) and never contradict one another."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from datetime import datetime, timedelta, timezone
from pathlib import Path

from tutor.classroom.assignments import assignment_table, check_assignment
from tutor.classroom.live import STUCK_MINUTES, class_counts, live_rows, parse_time
from tutor.classroom.next_steps import next_steps
from tutor.course.lessons import Lesson, list_lessons
from tutor.storage.records import Attempt
from tutor.storage.store import Store

T = datetime(2026, 12, 7, 9, 0, tzinfo=timezone.utc)
LESSONS: dict[str, Lesson] = {lesson.id: lesson for lesson in list_lessons("en")}


def _ending_at(rows: Sequence[Attempt], last: datetime, questions: int | None = None
               ) -> list[Attempt]:
    """``rows`` (their first ``questions`` questions' rows), moved so the last is at
    ``last``."""
    if questions is not None:
        keep: list[Attempt] = []
        seen: list[str] = []
        for a in rows:
            if a.problem not in seen:
                if len(seen) == questions:
                    break
                seen.append(a.problem)
            keep.append(a)
        rows = keep
    shift = last - max(parse_time(a.time) for a in rows)
    return [dataclasses.replace(a, time=(parse_time(a.time) + shift).isoformat())
            for a in rows]


def test_every_view_says_the_same_state_at_three_times(
        tmp_path: Path, student_plays: Callable[..., None]) -> None:
    a = check_assignment(class_code="6B", title="Times", lessons=["04-times"],
                         installed=LESSONS, now=T, due_date="2026-12-11", due_time="15:00",
                         tz="Europe/Madrid")
    db = tmp_path / "class.sqlite3"
    lesson = LESSONS["04-times"]
    student_plays(lesson, "Ana", db, seed=1, assignment=a.id)        # the whole lesson
    student_plays(lesson, "Pia", db, seed=1, assignment=a.id)        # the same, still on it
    student_plays(lesson, "Eli", db, seed=1, assignment=a.id)        # the same, just over
    student_plays(lesson, "Beto", db, seed=2, wrong_every=1, assignment=a.id)
    student_plays(lesson, "Carla", db, seed=3, wrong_every=1, assignment=a.id)
    student_plays(lesson, "Dora", db, seed=4, rounds=1, assignment=a.id)
    with Store(db) as store:
        rows = {name: store.attempts(name)
                for name in ("Ana", "Pia", "Eli", "Beto", "Carla", "Dora")}
    minute = timedelta(minutes=1)
    attempts = (_ending_at(rows["Ana"], T - 30 * minute)       # finished half an hour ago
                + _ending_at(rows["Pia"], T - minute, questions=6)  # half-way, answering
                + _ending_at(rows["Eli"], T - minute)          # the lesson over a minute ago
                + _ending_at(rows["Beto"], T - 14 * minute, questions=3)  # closed the tab
                + _ending_at(rows["Carla"], T - minute, questions=4)      # failing now
                + _ending_at(rows["Dora"], T - 5 * minute))    # handed in as a file
    from_files = {rows["Dora"][0].session}
    roster = ["Ana", "Pia", "Eli", "Beto", "Carla", "Dora"]
    expected = {
        T: {"Ana": "finished", "Pia": "playing", "Eli": "finished", "Beto": "left",
            "Carla": "stuck", "Dora": "files"},
        T + 3 * minute: {"Ana": "finished", "Pia": "playing", "Eli": "finished",
                         "Beto": "left", "Carla": "stuck", "Dora": "files"},
        T + (STUCK_MINUTES + 1) * minute: {"Ana": "finished", "Pia": "left",
                                           "Eli": "finished", "Beto": "left", "Carla": "left",
                                           "Dora": "files"},
    }
    counts = class_counts(attempts, LESSONS)
    for now, states in expected.items():
        live = live_rows(attempts, now, lessons=LESSONS, from_files=from_files)
        assert {r.student: r.state for r in live.rows} == states, now
        stuck = {r.student for r in live.rows if r.state == "stuck"}
        table = assignment_table(a, roster, attempts, LESSONS, now, counts=counts, live=live)
        assert {r.student for r in table.stuck} == stuck, now
        # Done in the assignment table exactly when the live view says finished: Pia, still
        # answering, is not; Eli, whose lesson ended a minute ago, is at once (issue 52).
        assert {r.student for r in table.rows if r.state == "done"} == {
            s for s, state in states.items() if state == "finished"}, now
        steps = next_steps(attempts, list(LESSONS.values()), now, by_student=counts,
                           live=live)
        assert {s.student for s in steps if s.stuck is not None} <= stuck, now
        # Without the page's live view, "What to do now" makes the same one.
        alone = next_steps(attempts, list(LESSONS.values()), now, by_student=counts)
        assert [s.stuck for s in alone] == [s.stuck for s in steps], now
