"""The lessons page's and the teacher page's data (tutor.classroom, tutor.builder): progress per
lesson, the hand-in round trip, a class of 30 merged, the class table, frequent mistakes, and
lessons built from the builder's form."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path
from typing import Any

import pytest

from tutor.builder import build_lesson, lesson_links, save_lesson
from tutor.classroom import (
    class_csv,
    class_table,
    frequent_mistakes,
    lesson_progress,
    merge_files,
)
from tutor.lessons import LessonError, list_lessons, load_lesson
from tutor.session import Session
from tutor.store import Store
from tutor.teacher import rebuild_mastery


def export(db: Path, student: str) -> bytes:
    with Store(db) as store:
        out = db.with_name(f"{student}.csv")
        store.export_csv(out, student)
    return out.read_bytes()


def test_lesson_progress_shows_targets_and_done(tmp_path: Path, student_plays: Any) -> None:
    db = tmp_path / "p.sqlite3"
    student_plays("04-times", "ana", db, seed=1)
    with Store(db) as store:
        rows = lesson_progress(store.attempts("ana"), list_lessons())
    by_id = {r.lesson.id: r for r in rows}
    assert [r.lesson.id for r in rows][:8] == [f"0{i}-" + n for i, n in enumerate(
        ["other-end", "plus", "minus", "times", "squares", "doubles", "all-power",
         "full-match"], start=1)]
    times = by_id["04-times"]
    assert [s for s, _, _ in times.skills] == ["multiply"] and times.done and times.asked
    assert not by_id["05-squares"].done and by_id["05-squares"].asked == 0


def test_download_then_upload_loses_and_duplicates_nothing(tmp_path: Path,
                                                          student_plays: Any) -> None:
    """The hand-in: a student's progress file loaded into a new (Binder) store twice adds
    every attempt once, and rebuilds the same mastery the student had."""
    db = tmp_path / "own.sqlite3"
    student_plays("02-plus", "ana", db, seed=3, wrong_every=3)
    handed_in = export(db, "ana")
    with Store(db) as store:
        before = store.attempts("ana")
        expected_mastery = rebuild_mastery(before)
    fresh = tmp_path / "binder.sqlite3"
    with Store(fresh) as store:
        first = merge_files(store, [("ana.csv", handed_in)], "en")
        again = merge_files(store, [("ana.csv", handed_in)], "en")
        after = store.attempts("ana")
        saved = store.load_mastery("ana")
    assert first.added == len(before) > 0 and first.known == 0 and not first.refused
    assert again.added == 0 and again.known == len(before)
    assert after == before
    assert saved.states == expected_mastery.states  # the play page starts where they were


def test_teacher_merges_a_class_of_30_and_the_table_matches_the_files(
        tmp_path: Path, student_plays: Any) -> None:
    files = []
    for k in range(30):
        db = tmp_path / f"s{k}.sqlite3"
        student_plays("04-times", f"student-{k:02d}", db, seed=100 + k, wrong_every=2 + k % 3)
        files.append((f"student-{k:02d}.csv", export(db, f"student-{k:02d}")))
    files.append(("notes.txt", b"not a progress file\n"))
    seen: list[tuple[int, int]] = []
    with Store(tmp_path / "class.sqlite3") as store:
        result = merge_files(store, files, "en", on_progress=lambda i, n: seen.append((i, n)))
        attempts = store.attempts()
    assert seen == [(i, 31) for i in range(1, 32)]  # the progress bar moves per file
    assert len(result.students) == 30 and len(result.refused) == 1
    assert "notes.txt, line 1" in result.refused[0]
    rows = class_table(attempts)
    for name, content in files[:30]:
        own = Path(tmp_path / "own.csv")
        own.write_bytes(content)
        from tutor.store_files import read_attempts

        mastery = rebuild_mastery(read_attempts(own))
        mine = {r.skill: r for r in rows if r.student == name[:-4]}
        assert set(mine) == {s for s, st in mastery.states.items() if st.asked}
        for skill, row in mine.items():
            st = mastery.states[skill]
            assert (row.asked, row.first_try_right, round(row.p_known, 9)) == (
                st.asked, st.first_try_right, round(st.p_known, 9))
    table = list(csv.reader(io.StringIO(class_csv(rows))))
    assert table[0][:3] == ["student", "skill", "asked"] and len(table) == len(rows) + 1
    mistakes = frequent_mistakes(attempts)
    top = mistakes["multiply"][0]
    assert top.rule == "added_instead_of_multiplied" and top.students > 5
    assert top.example_input and top.example_expected is not None


def test_class_csv_neutralises_formulas() -> None:
    from tutor.classroom import ClassRow

    out = class_csv([ClassRow("=HYPERLINK(1)", "add", 1, 1, 0.5, False, 0, 2.0)])
    assert '"\'=HYPERLINK(1)"' in out


def test_the_lesson_builder_writes_a_checked_lesson_that_plays(tmp_path: Path,
                                                               monkeypatch) -> None:
    monkeypatch.setenv("LEONARD_LESSONS", str(tmp_path))
    data = build_lesson(lesson_id="my-squares", title={"es": "Mis cuadrados", "en": "My squares"},
                        description={"es": "", "en": ""}, targets=["square"], rich_in=["x/x"],
                        bots=["random"], players=2, rounds=1, scaffold=["blanks"], lang="en")
    path = save_lesson(data, lang="en")
    assert path == tmp_path / "my-squares.json" and json.loads(path.read_text()) == data
    lesson = load_lesson("my-squares")
    assert lesson.targets == {"square"} and lesson.rich_in == {"x/x"}
    s = Session.from_lesson("my-squares", lang="en", seed=2, store=None)
    assert s.legal_moves() or s.pending_question
    with pytest.raises(LessonError, match="exists already"):
        save_lesson(data, lang="en")
    with pytest.raises(LessonError, match="game.players: must be 2 to 5, got 9"):
        build_lesson(lesson_id="x", title={"es": "x", "en": "x"}, description={"es": "", "en": ""},
                     targets=[], rich_in=[], bots=[], players=9, rounds=1, scaffold=[])
    with pytest.raises(LessonError, match="title.en: must not be empty"):
        build_lesson(lesson_id="x", title={"es": "x", "en": " "}, description={"es": "", "en": ""},
                     targets=[], rich_in=[], bots=[], players=2, rounds=1, scaffold=[])


def test_lesson_links() -> None:
    env = {"SERVER_NAME": "127.0.0.1", "SERVER_PORT": "8888",
           "SCRIPT_NAME": "/voila/render/notebooks/Teacher.ipynb",
           "BINDER_REPO_URL": "https://github.com/school/leonard"}
    links = lesson_links("my-squares", "es", env=env)
    assert links["binder"] == ("https://mybinder.org/v2/gh/school/leonard/main?urlpath=voila%2F"
                               "render%2Fnotebooks%2FPlay.ipynb%3Flesson%3Dmy-squares%26lang%3Des")
    assert links["voila"] == ("http://127.0.0.1:8888/voila/render/notebooks/Play.ipynb?"
                              "lesson=my-squares&lang=es")
    assert links["relative"] == "Play.ipynb?lesson=my-squares&lang=es"
    with pytest.raises(LessonError):
        lesson_links("../etc/passwd")
