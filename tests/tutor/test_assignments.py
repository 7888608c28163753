"""Assignments (issue 45): what a teacher types is checked with a sentence that says what is
wrong; a link edited by hand still opens, saying what it left out; a roster matches names
whatever their case, accents' spelling or spaces, refuses a name given twice and shows the
names that only look alike; and an assignment's table says who is done (and how), in
progress, not started or overdue, from games really played through the tutor."""

from __future__ import annotations

import dataclasses
import sqlite3
from collections.abc import Callable
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import pytest

from tutor.classroom.assignments import (
    MAX_TITLE,
    AssignmentError,
    RosterError,
    assignment_csv,
    assignment_query,
    assignment_table,
    check_assignment,
    check_roster,
    due_text,
    files_for_assignment,
    open_for,
    read_assignment,
    read_roster,
    school_zone,
    session_assignment,
    with_closed,
)
from tutor.classroom.link import read_link
from tutor.classroom.live import class_counts, live_rows
from tutor.classroom.overview import class_table
from tutor.course.lessons import Lesson, list_lessons
from tutor.storage.store import SCHEMA_VERSION, Store, StoreAccessError

NOW = datetime(2026, 12, 7, 9, 0, tzinfo=timezone.utc)
LESSONS: dict[str, Lesson] = {lesson.id: lesson for lesson in list_lessons("en")}


def make(**given: Any) -> Any:
    values: dict[str, Any] = dict(class_code="6B", title="Week 12: times",
                                  lessons=["04-times", "06-doubles"], installed=LESSONS,
                                  now=NOW, due_date="2026-12-11", due_time="15:00",
                                  tz="Europe/Madrid")
    values.update(given)
    return check_assignment(**values)


def test_a_teachers_assignment_is_checked_and_its_due_date_read_in_the_school_zone() -> None:
    a = make(title="  Week 12:   times ", lessons=["04-times", "06-doubles", "04-times"])
    assert (a.class_code, a.title, a.lessons) == ("6B", "Week 12: times",
                                                  ("04-times", "06-doubles"))
    assert a.due == "2026-12-11T15:00" and a.tz == "Europe/Madrid"
    assert due_text(a, "es") == "vie, 11 dic 2026 15:00 (hora de España (Madrid))"
    assert due_text(a, "en") == "Fri, Dec 11, 2026 15:00 (Spain (Madrid) Time)"
    assert make(due_time="").due == "2026-12-11T23:59"  # a day without a time: its end
    assert make(due_date="", due_time="").due == ""
    assert school_zone({"LEONARD_TIMEZONE": "America/Bogota"}) == "America/Bogota"
    assert school_zone({"LEONARD_TIMEZONE": "Narnia/Cair"}) == school_zone({}) == "UTC"


@pytest.mark.parametrize(("given", "says"), [
    ({"due_date": "2026-12-06"}, "The due date 2026-12-06 15:00 (Europe/Madrid) has already "
                                 "passed; choose a later one."),
    ({"due_date": "11/12/2026"}, 'The due date "11/12/2026" and time "15:00" are not a date '
                                 "and time; write them as 2026-12-11 and 15:00."),
    ({"due_time": "3pm"}, "are not a date and time"),
    ({"due_date": "", "due_time": "15:00"}, "A due time needs a due date too."),
    ({"lessons": ["04-times", "99-gone"]}, 'There is no lesson "99-gone" here.'),
    ({"lessons": []}, "Choose at least one lesson."),
    ({"lessons": ["13-free-play"]}, "is free play: it has no skill to master"),
    ({"title": "   "}, "An assignment needs a title"),
    ({"title": "x" * 10_000}, f"at most {MAX_TITLE} characters; this one has 10000."),
    ({"class_code": " "}, "An assignment needs a class code"),
    ({"tz": "Mars/Olympus"}, '"Mars/Olympus" is not a time zone'),
])
def test_a_bad_assignment_says_what_is_wrong(given: dict[str, Any], says: str) -> None:
    if given.get("lessons") == ["13-free-play"]:
        free = next(ls.id for ls in LESSONS.values() if not ls.plan.targets)
        given = {"lessons": [free]}
    with pytest.raises(AssignmentError) as caught:
        make(**given)
    assert says in str(caught.value)
    assert caught.value.message("es") != str(caught.value)  # the teacher's Spanish too


def test_an_edit_keeps_its_id_and_may_keep_a_due_date_that_has_passed() -> None:
    a = make()
    later = NOW + timedelta(days=10)
    edited = make(title="Week 12 (again)", previous=a, now=later)
    assert (edited.id, edited.title, edited.due) == (a.id, "Week 12 (again)", a.due)
    with pytest.raises(AssignmentError, match="already passed"):
        make(previous=a, now=later, due_date="2026-12-12")
    assert with_closed(a, True).closed and not with_closed(a, True).id != a.id


def test_an_assignment_link_carries_it_whole() -> None:
    a = make(lang="en", scaffolds="off")
    link = read_link("&".join(f"{k}={v}" for k, v in assignment_query(a).items()))
    back, notes = read_assignment(link.values, LESSONS)
    assert notes == [] and back == a


def test_a_link_edited_by_hand_opens_and_says_what_it_left_out() -> None:
    from urllib.parse import urlencode

    a = make()
    values = {**assignment_query(a), "lessons": "04-times,99-gone", "due": "next friday",
              "title": "t" * 10_000}
    link = read_link(urlencode(values), {}, lang="en")
    assert link.notes == () and link.class_code == "6B"  # the long link is still read
    back, notes = read_assignment(link.values, LESSONS)
    assert back is not None
    assert (back.id, back.lessons, back.due, len(back.title)) == (a.id, ("04-times",), "",
                                                                  MAX_TITLE)
    said = [n.translate("en") for n in notes]
    assert said == [f"The assignment's title in the link is long; keeping its first "
                    f"{MAX_TITLE} characters.",
                    'The lesson "99-gone" of this assignment is not here; it is left out.',
                    "The due date in the link is not a date; showing the assignment "
                    "without one."]
    damaged, notes = read_assignment({"assignment": "<script>"}, LESSONS)
    assert damaged is None and "damaged" in notes[0].translate("en")
    none_here, notes = read_assignment({"assignment": a.id, "lessons": "zz"}, LESSONS)
    assert none_here is not None and none_here.lessons == ()
    assert "names no lesson that is here" in notes[-1].translate("en")


def test_a_roster_matches_names_however_written_and_refuses_one_given_twice() -> None:
    check = read_roster("nombre\r\n  Ana  \nJose\u0301 Pérez\nMaría Gómez\nMaria Gomes\n\n"
                        "Luis\n")
    assert check.names == ("Ana", "José Pérez", "María Gómez", "Maria Gomes", "Luis")
    assert check.alike == (("María Gómez", "Maria Gomes"),)  # shown, never merged
    assert check_roster(check) == list(check.names)
    twice = read_roster("Ana\nana \nJosé\nJose\u0301\n")
    with pytest.raises(RosterError, match='on the roster twice: "Ana" / "ana"; "José". Keep '
                                          "each student once; nothing was saved."):
        check_roster(twice)
    with pytest.raises(RosterError, match="The roster is empty"):
        check_roster(read_roster("nombre\n\n  \n"))
    from_csv = read_roster('"name","class"\n"Ana","6B"\n"Beto","6B"\n')
    assert from_csv.names == ("Ana", "Beto")


@pytest.mark.parametrize("lang", ["en", "es"])
def test_a_roster_refuses_a_look_alike_name_as_the_store_would(lang: str) -> None:
    """Issue 51 part 6: Cyrillic "а" in "аna" looks like "ana" on every page; the store
    refuses such a name when the student plays, so the roster refuses it when the teacher
    saves it, with the store's own sentence, and saves nothing."""
    check = read_roster("Ana\n\u0430na\nBeto\n")
    with pytest.raises(RosterError) as refused:
        check_roster(check)
    said = refused.value.message(lang)
    assert "\u0430na" in said
    assert said.endswith("Nothing was saved." if lang == "en" else "No se guardó nada.")
    assert check_roster(read_roster("Ana\nБорис\nBeto\n")) == ["Ana", "Борис", "Beto"]


def _class(tmp_path: Path, student_plays: Callable[..., None], a: Any,
           lessons: dict[str, Lesson] | None = None) -> str:
    """A class of 6B: Ana finishes the assignment from its link, Beto starts it, Carla never
    opens it; Eli (not on the roster) plays it from the link; Dora (another class) plays
    the same lesson from the plain lessons page."""
    db = str(tmp_path / "class.sqlite3")
    lesson: Any = (lessons or LESSONS)["04-times"]
    student_plays(lesson, "Ana", db, seed=1, assignment=a.id)
    student_plays(lesson, "Beto", db, seed=2, rounds=1, wrong_every=2, assignment=a.id)
    student_plays(lesson, "Eli", db, seed=4, rounds=1, assignment=a.id)
    student_plays(lesson, "Dora", db, seed=3, rounds=1)
    return db


def test_the_table_says_who_is_done_in_progress_not_started_and_overdue(
        tmp_path: Path, student_plays: Callable[..., None]) -> None:
    a = make(lessons=["04-times"])
    db = _class(tmp_path, student_plays, a)
    with Store(db) as store:
        attempts = store.attempts()
    assert {session_assignment(x.session) for x in attempts} == {a.id, None}
    roster = ["ana", "Beto", "Carla"]
    table = assignment_table(a, roster, attempts, LESSONS, NOW)
    got = [(r.student, r.on_roster, r.state, r.how, r.done_lessons) for r in table.rows]
    assert got == [("ana", True, "done", "mastered", 1), ("Beto", True, "in progress", "", 0),
                   ("Carla", True, "not started", "", 0),
                   ("Eli", False, "in progress", "", 0)]  # Dora: not of this assignment
    ana = table.rows[0]
    assert ana.finished is not None and ana.targets_mastered == ana.targets == 1
    # After the due time: who has not finished is overdue; done stays done.
    late = assignment_table(a, roster, attempts, LESSONS, NOW + timedelta(days=30))
    assert [r.state for r in late.rows] == ["done", "overdue", "overdue", "overdue"]
    assert late.overdue and not table.overdue
    csv_text = assignment_csv(table, "en").splitlines()
    assert csv_text[1] == (f'"ana","1","done","1","1","1","1","mastered",'
                           f'"{ana.finished.isoformat(timespec="minutes")}","0"')
    # A lesson removed after it was assigned is named and left out; nothing else changes.
    gone = dataclasses.replace(a, lessons=("04-times", "77-removed"))
    kept = assignment_table(gone, roster, attempts, LESSONS, NOW)
    assert kept.missing == ("77-removed",)
    assert [r.state for r in kept.rows] == [r.state for r in table.rows]


def test_a_lesson_over_by_its_cap_is_done_without_mastery(
        tmp_path: Path, student_plays: Callable[..., None]) -> None:
    capped = dataclasses.replace(LESSONS["04-times"], max_questions=3)
    lessons = {**LESSONS, "04-times": capped}
    a = make(lessons=["04-times"])
    db = str(tmp_path / "cap.sqlite3")
    # Wrong at the first try of every question: never mastered, over at the cap.
    student_plays(capped, "Beto", db, seed=2, wrong_every=1, assignment=a.id)
    with Store(db) as store:
        table = assignment_table(a, ["Beto"], store.attempts(), lessons, NOW)
    (beto,) = table.rows
    assert (beto.state, beto.how, beto.lessons[0].over) == ("done", "cap", "questions")
    assert beto.targets_mastered == 0


def test_the_table_agrees_with_the_class_table_and_the_live_view(
        tmp_path: Path, student_plays: Callable[..., None]) -> None:
    a = make(lessons=["04-times"])
    db = _class(tmp_path, student_plays, a)
    with Store(db) as store:
        attempts = store.attempts()
        marks = store.session_marks()  # the lessons the play page ended
    counts = class_counts(attempts, LESSONS)
    live = live_rows(attempts, NOW, lessons=LESSONS, marks=marks)
    table = assignment_table(a, ["Ana", "Beto", "Carla"], attempts, LESSONS, NOW,
                             counts=counts, live=live)
    alone = assignment_table(a, ["Ana", "Beto", "Carla"], attempts, LESSONS, NOW)
    assert table.rows == alone.rows  # the page's counts or its own: one answer
    mastered = {(r.student, r.skill) for r in class_table(attempts, by_student=counts)
                if r.mastered}
    for row in table.rows:
        assert row.targets_mastered == sum((row.student, t) in mastered
                                           for t in LESSONS["04-times"].plan.targets)


def test_uploaded_files_that_are_not_of_the_assignment_are_named(
        tmp_path: Path, student_plays: Callable[..., None]) -> None:
    a = make(lessons=["04-times"])
    other = make(lessons=["04-times"], class_code="6C")
    db = _class(tmp_path, student_plays, a)
    student_plays("04-times", "Fer", db, seed=5, rounds=1, assignment=other.id)
    with Store(db) as store:
        files = [(f"{name}.csv", store.attempts(name))
                 for name in ("Ana", "Beto", "Eli", "Dora", "Fer")]
    belong, others = files_for_assignment(files + [("empty.csv", [])], a, ["Ana", "Beto"])
    assert belong == ["Ana.csv", "Beto.csv", "Eli.csv"]
    assert [(name, why.translate("en")) for name, why in others] == [
        ("Dora.csv", "Dora.csv: its student is not on this class's list and played no "
                     "lesson from this assignment's link."),
        ("Fer.csv", "Fer.csv: played from another assignment's link, and its student is not "
                    "on this class's list."),
        ("empty.csv", "empty.csv: no answers in it.")]


def test_open_assignments_are_listed_soonest_due_first() -> None:
    soon, later, none = make(due_date="2026-12-08"), make(), make(due_date="", due_time="")
    closed = with_closed(make(due_date="2026-12-07", due_time="23:00"), True)
    assert open_for([none, later, closed, soon]) == [soon, later, none]


def test_classes_and_assignments_are_rows_a_student_reads_only_for_their_class(
        store_url: str) -> None:
    a, b = make(), make(class_code="6C", title="Other class")
    with Store(store_url) as store:
        store.save_roster("6B", ["Ana", "José"])
        store.save_assignment(a)
        store.save_assignment(b)
        store.save_assignment(with_closed(a, True))  # an edit: the same row
        assert store.roster("6B") == ["Ana", "José"] and store.class_codes() == ["6B", "6C"]
        assert [x.id for x in store.assignments()] == [a.id, b.id]
        assert store.assignments("6B")[0].closed
        assert store.classes_of("JOSE\u0301") == ["6B"]
    with Store(store_url, owner="ana") as mine:
        assert [x.id for x in mine.assignments()] == [a.id]
        with pytest.raises(StoreAccessError, match="for another class; ana is not on its"):
            mine.assignment(b.id)
        for refused in (lambda: mine.save_assignment(b), lambda: mine.roster("6B"),
                        lambda: mine.save_roster("6B", ["Ana"]), mine.class_codes):
            with pytest.raises(StoreAccessError, match="Only a teacher can make or change"):
                refused()


def _raw(url: str) -> Any:
    """The store's database opened without the tutor (which would migrate it at once)."""
    if url.startswith("postgresql"):
        import psycopg

        return psycopg.connect(url, autocommit=True)
    return sqlite3.connect(url, isolation_level=None)


def test_a_store_from_before_assignments_opens_and_keeps_every_row(
        store_url: str, student_plays: Callable[..., None]) -> None:
    """A version-3 store (the tutor before issue 45: no class tables), SQLite or PostgreSQL,
    with a class's games in it, opens at today's version (4 added the class tables, 5 the
    deals played, 6 the session marks, 7 when each answer was received): every attempt,
    session, student and mastery row kept, and assignments can be made in it."""
    student_plays("04-times", "Ana", store_url, seed=1)
    student_plays("04-times", "Beto", store_url, seed=2, rounds=1, wrong_every=2)
    tables = ("students", "sessions", "attempts", "mastery", "name_merges")
    conn = _raw(store_url)
    for table in ("assignments", "roster", "classes", "deals", "session_marks"):
        conn.execute(f"DROP TABLE {table}")
    conn.execute("UPDATE schema_version SET version = 3")
    before = {t: conn.execute(f"SELECT * FROM {t} ORDER BY 1, 2").fetchall() for t in tables}
    conn.close()
    with Store(store_url) as store:
        assert store.db.conn.execute("SELECT version FROM schema_version").fetchone()[0] == \
            SCHEMA_VERSION == 7
        store.save_roster("6B", ["Ana", "Beto"])
        store.save_assignment(make())
        assert store.roster("6B") == ["Ana", "Beto"] and len(store.assignments()) == 1
    conn = _raw(store_url)
    after = {t: conn.execute(f"SELECT * FROM {t} ORDER BY 1, 2").fetchall() for t in tables}
    conn.close()
    assert after == before and sum(map(len, before.values())) > 20
