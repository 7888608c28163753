"""What a session's rows cannot say, kept by the store (issue 52 part 3, schema version 6):
the play page's end of a lesson, and the sessions an uploaded file brought. "Finished" on the
teacher page is the play page's record, nothing else: a student playing out the match after
mastering is playing; "from files" survives a reload. On SQLite and PostgreSQL; the store
service's side is in test_store_service.py."""

from __future__ import annotations

import random
from collections.abc import Callable
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from tutor.classroom.assignments import assignment_table, check_assignment
from tutor.classroom.live import live_rows, live_view, parse_time
from tutor.classroom.overview import merge_files
from tutor.course.lessons import Lesson, list_lessons
from tutor.session.session import Session
from tutor.storage.records import FROM_FILE, StoreError
from tutor.storage.store import SCHEMA_VERSION, Store, StoreAccessError

LESSONS: dict[str, Lesson] = {lesson.id: lesson for lesson in list_lessons("en")}


def mastered_now(s: Session) -> bool:
    """Every skill of the lesson mastered, and no question waiting."""
    return s.pending_question is None and all(k.mastered for k in s.lesson_summary().skills)


def test_the_play_page_records_why_it_ended_the_lesson_after_mastery_mid_match(
        store_url: str, plays_until: Callable[..., bool]) -> None:
    """Ana masters multiplying before the lesson's first match is over: the page plays the
    match out, so she is playing (never finished) until the page ends the lesson; then the
    store has one record of why, dated after her last answer, and she is finished."""
    s = Session.from_lesson("04-times", lang="en", student="Ana", store=store_url, seed=1)
    rng = random.Random(1)
    assert plays_until(s, rng, mastered_now)
    assert not s.lesson_over  # mastered, the lesson not over: the page goes on
    with Store(store_url) as store:
        assert store.session_marks() == []  # nothing recorded yet
        now = max(parse_time(a.time) for a in store.attempts())
        view = live_view(store, now + timedelta(minutes=1), lessons=LESSONS)
    assert [(r.student, r.state) for r in view.rows] == [("Ana", "playing")]
    assert plays_until(s, rng, lambda s: s.lesson_over)
    s.close()
    with Store(store_url) as store:
        (mark,) = store.session_marks()
        rows = store.attempts()
        assert (mark.student, mark.session, mark.lesson, mark.mark) == (
            "Ana", s.session_id, "04-times", "mastered")
        assert parse_time(mark.time) >= max(parse_time(a.time) for a in rows)
        now = parse_time(mark.time) + timedelta(minutes=1)
        view = live_view(store, now, lessons=LESSONS)
    assert [(r.student, r.state, r.finished) for r in view.rows] == [
        ("Ana", "finished", "mastered")]
    # Hours later (past the stuck minutes) she is still finished, never "left".
    later = live_rows(rows, now + timedelta(minutes=30), lessons=LESSONS,
                      marks=[mark])
    assert later.rows[0].state == "finished"


def test_a_lesson_ended_by_a_cap_the_rows_cannot_show_is_done(
        tmp_path: Path, student_plays: Callable[..., None]) -> None:
    """The round cap: the rows do not say how many rounds were played. The page's record
    does, and the assignment table counts it (as the live view does)."""
    lesson = LESSONS["04-times"]
    a = check_assignment(class_code="6B", title="Times", lessons=["04-times"],
                         installed=LESSONS, now=datetime(2026, 12, 7, tzinfo=timezone.utc))
    db = tmp_path / "class.sqlite3"
    student_plays(lesson, "Beto", db, seed=2, rounds=1, wrong_every=1, assignment=a.id)
    with Store(db) as store:
        rows = store.attempts()
        assert store.session_marks() == []  # one round played; the lesson goes on
        session = rows[0].session
        last = max(parse_time(r.time) for r in rows)
        store.mark_session("Beto", session, "04-times", "rounds",
                           (last + timedelta(seconds=1)).isoformat())
        marks = store.session_marks()
    now = last + timedelta(minutes=2)
    live = live_rows(rows, now, lessons=LESSONS, marks=marks)
    assert [(r.state, r.finished) for r in live.rows] == [("finished", "rounds")]
    table = assignment_table(a, ["Beto"], rows, LESSONS, now, live=live, marks=marks)
    assert [(r.state, r.how) for r in table.rows] == [("done", "cap")]
    without = assignment_table(a, ["Beto"], rows, LESSONS, now)
    assert [r.state for r in without.rows] == ["in progress"]


def test_marks_are_checked_once_each_and_each_students_own(store_url: str) -> None:
    with Store(store_url) as store:
        session = store.start_session("ana")
        for mark, time, said in (
                ("done", "2026-12-07T10:00:00+00:00", "'done' is not why a lesson ends"),
                (FROM_FILE, "2026-12-07T10:00:00+00:00", "'file' is not why a lesson ends"),
                ("mastered", "yesterday", "not a date and time")):
            with pytest.raises(StoreError, match=said) as refused:
                store.mark_session("ana", session, "04-times", mark, time)
            assert str(refused.value).startswith("This lesson's end cannot be stored:")
        with pytest.raises(StoreError, match="the lesson is empty or too long"):
            store.mark_session("ana", session, "", "mastered")
        assert store.session_marks() == []
        for _again in range(2):  # a write tried again: one record
            store.mark_session("ana", session, "04-times", "mastered",
                               "2026-12-07T10:00:00+00:00")
        # One device, two players: the same session is each one's own.
        store.mark_session("beto", session, "04-times", "mastered",
                           "2026-12-07T10:00:01+00:00")
        assert [(m.student, m.mark) for m in store.session_marks()] == [
            ("ana", "mastered"), ("beto", "mastered")]
        assert [m.student for m in store.session_marks("2026-12-07T10:00:01+00:00")] == [
            "beto"]
    with Store(store_url, owner="ana") as ana:
        assert [m.student for m in ana.session_marks()] == ["ana"]
        with pytest.raises(StoreAccessError):
            ana.session_marks(student="beto")
        with pytest.raises(StoreAccessError):
            ana.mark_session("beto", session, "04-times", "mastered")


def test_a_merged_file_marks_the_sessions_it_brought(
        store_url: str, tmp_path: Path, student_plays: Callable[..., None]) -> None:
    """The teacher uploads Dora's file: her session is marked as from a file (so the page
    says so after a reload); the same file again adds nothing and marks nothing more. A
    student who played here and whose own download comes back is not marked."""
    binder = tmp_path / "binder.sqlite3"
    student_plays("04-times", "Dora", binder, seed=4, rounds=1)
    with Store(binder) as own:
        own.export_csv(tmp_path / "dora.csv", "Dora")
        dora_session = own.attempts()[0].session
    student_plays("04-times", "Eli", store_url, seed=5, rounds=1)
    with Store(store_url) as store:
        store.export_csv(tmp_path / "eli.csv", "Eli")
        files = [(p.name, p.read_bytes()) for p in (tmp_path / "dora.csv", tmp_path / "eli.csv")]
        result = merge_files(store, files, "en")
        assert result.refused == [] and result.added > 0
        marks = store.session_marks()
        assert [(m.student, m.session, m.mark) for m in marks] == [
            ("Dora", dora_session, FROM_FILE)]
        merge_files(store, files, "en")
        assert store.session_marks() == marks
        rows = store.attempts()
    now = max(parse_time(m.time) for m in marks)
    view = live_rows(rows, now, lessons=LESSONS, marks=marks)
    assert {r.student: r.state for r in view.rows} == {"Dora": "files", "Eli": "playing"}


def test_a_version_5_store_gets_the_marks_table(store_url: str,
                                                student_plays: Callable[..., None]) -> None:
    """A store of version 5 (before the marks) opens at today's version (7) with
    every row kept."""
    student_plays("04-times", "Ana", store_url, seed=1, rounds=1)
    with Store(store_url) as store:
        store.db.conn.execute("DROP TABLE session_marks")
        store.db.conn.execute("UPDATE schema_version SET version = 5")
        before = store.attempts()
        session = before[0].session
    with Store(store_url) as store:
        assert SCHEMA_VERSION == 7
        assert store.db.conn.execute("SELECT version FROM schema_version").fetchall() == [(7,)]
        assert store.attempts() == before
        store.mark_session("Ana", session, "04-times", "questions")
        assert [m.mark for m in store.session_marks()] == ["questions"]
