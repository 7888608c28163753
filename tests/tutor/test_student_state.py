"""One state per student, the same on every view (issue 52 part 3): a scripted class of 30 —
finished (half an hour ago, and a minute ago: the play page ended the lesson and the store
recorded it), playing (half-way, and after mastering with the match still on), stuck, left
after three answers, from uploaded files (the store's mark) —
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
from tutor.storage.records import FROM_FILE, Attempt, SessionMark
from tutor.storage.store import Store

T = datetime(2026, 12, 7, 9, 0, tzinfo=timezone.utc)
LESSONS: dict[str, Lesson] = {lesson.id: lesson for lesson in list_lessons("en")}


def _ending_at(rows: Sequence[Attempt], last: datetime, questions: int | None = None,
               marks: Sequence[SessionMark] = ()) -> tuple[list[Attempt], list[SessionMark]]:
    """``rows`` (their first ``questions`` questions' rows), moved so the last is at
    ``last``, and the store's ``marks`` of them moved as much (none once rows are cut: the
    page did not end that lesson)."""
    if questions is not None:
        keep: list[Attempt] = []
        seen: list[str] = []
        for a in rows:
            if a.problem not in seen:
                if len(seen) == questions:
                    break
                seen.append(a.problem)
            keep.append(a)
        rows, marks = keep, ()
    shift = last - max(parse_time(a.time) for a in rows)
    return ([dataclasses.replace(a, time=(parse_time(a.time) + shift).isoformat())
             for a in rows],
            [dataclasses.replace(m, time=(parse_time(m.time) + shift).isoformat())
             for m in marks])


def test_every_view_says_the_same_state_at_three_times(
        tmp_path: Path, student_plays: Callable[..., None]) -> None:
    a = check_assignment(class_code="6B", title="Times", lessons=["04-times"],
                         installed=LESSONS, now=T, due_date="2026-12-11", due_time="15:00",
                         tz="Europe/Madrid")
    db = tmp_path / "class.sqlite3"
    lesson = LESSONS["04-times"]
    names = ("Ana", "Pia", "Eli", "Ivo", "Beto", "Carla", "Dora")
    for name in ("Ana", "Pia", "Eli", "Ivo"):                       # the whole lesson
        student_plays(lesson, name, db, seed=1, assignment=a.id)
    student_plays(lesson, "Beto", db, seed=2, wrong_every=1, assignment=a.id)
    student_plays(lesson, "Carla", db, seed=3, wrong_every=1, assignment=a.id)
    student_plays(lesson, "Dora", db, seed=4, rounds=1, assignment=a.id)
    with Store(db) as store:
        rows = {name: store.attempts(name) for name in names}
        marks = {name: store.session_marks(student=name) for name in names}
    assert [m.mark for m in marks["Ana"]] == ["mastered"]  # the play page ended it
    minute = timedelta(minutes=1)
    played = [
        _ending_at(rows["Ana"], T - 30 * minute, marks=marks["Ana"]),  # finished long ago
        _ending_at(rows["Pia"], T - minute, questions=6),  # half-way, answering
        _ending_at(rows["Eli"], T - minute, marks=marks["Eli"]),  # the lesson just over
        # Every target mastered, but the match's last rounds still to play: the page has
        # not ended the lesson (no mark yet), so Ivo is playing, never finished.
        _ending_at(rows["Ivo"], T - minute),
        _ending_at(rows["Beto"], T - 14 * minute, questions=3),  # closed the tab
        _ending_at(rows["Carla"], T - minute, questions=4),  # failing now
        _ending_at(rows["Dora"], T - 5 * minute),  # handed in as a file
    ]
    played.append((played.pop()[0], [  # Dora's session: the store's mark of an upload
        SessionMark("Dora", rows["Dora"][0].session, "04-times", FROM_FILE,
                    (T - 4 * minute).isoformat())]))
    # A class of 30: each kind of student above, again and again under new names.
    attempts: list[Attempt] = []
    stored: list[SessionMark] = []
    kind_of: dict[str, str] = {}
    for k in range(30):
        kind = names[k % len(names)]
        name = f"{kind}{k // len(names) + 1}"
        kind_of[name] = kind
        moved, its_marks = played[k % len(names)]
        attempts += [dataclasses.replace(x, student=name) for x in moved]
        stored += [dataclasses.replace(m, student=name) for m in its_marks]
    roster = sorted(kind_of)
    by_kind = {
        T: {"Ana": "finished", "Pia": "playing", "Eli": "finished", "Ivo": "playing",
            "Beto": "left", "Carla": "stuck", "Dora": "files"},
        T + 3 * minute: {"Ana": "finished", "Pia": "playing", "Eli": "finished",
                         "Ivo": "playing", "Beto": "left", "Carla": "stuck",
                         "Dora": "files"},
        T + (STUCK_MINUTES + 1) * minute: {"Ana": "finished", "Pia": "left",
                                           "Eli": "finished", "Ivo": "left", "Beto": "left",
                                           "Carla": "left", "Dora": "files"},
    }
    expected = {now: {name: kinds[kind] for name, kind in kind_of.items()}
                for now, kinds in by_kind.items()}
    counts = class_counts(attempts, LESSONS)
    for now, states in expected.items():
        live = live_rows(attempts, now, lessons=LESSONS, marks=stored)
        assert {r.student: r.state for r in live.rows} == states, now
        stuck = {r.student for r in live.rows if r.state == "stuck"}
        table = assignment_table(a, roster, attempts, LESSONS, now, counts=counts, live=live,
                                 marks=stored)
        assert {r.student for r in table.stuck} == stuck, now
        # Done in the assignment table whenever the live view says finished, and never while
        # it says playing or stuck: Pia, still answering, and Ivo, playing out the match
        # after mastering, are not; Eli, whose lesson ended a minute ago, is at once. Once
        # Ivo has left, his mastered lesson is done (mastery is the student's).
        done = {r.student for r in table.rows if r.state == "done"}
        finished = {s for s, state in states.items() if state == "finished"}
        active = {s for s, state in states.items() if state in ("playing", "stuck")}
        assert finished <= done and not done & active, now
        assert all((name in done) == (states[name] == "left")
                   for name, kind in kind_of.items() if kind == "Ivo"), now
        steps = next_steps(attempts, list(LESSONS.values()), now, by_student=counts,
                           live=live)
        assert {s.student for s in steps if s.stuck is not None} <= stuck, now
        # Without the page's live view, "What to do now" makes the same one.
        alone = next_steps(attempts, list(LESSONS.values()), now, by_student=counts)
        assert [s.stuck for s in alone] == [s.stuck for s in steps], now
