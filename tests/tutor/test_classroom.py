"""The lessons page's and the teacher page's data (tutor.classroom.overview, tutor.course.builder):
progress per
lesson, the hand-in round trip, a class of 30 merged, the class table, frequent mistakes, and
lessons built from the builder's form."""

from __future__ import annotations

import csv
import io
import json
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import pytest

from tests import driving as drive
from tutor.classroom.overview import (
    class_csv,
    class_table,
    frequent_mistakes,
    lesson_progress,
    merge_files,
)
from tutor.course.builder import build_lesson, lesson_links, save_lesson
from tutor.course.lessons import LessonError, lesson_params, list_lessons, load_lesson
from tutor.session.saving import load_mastery
from tutor.session.session import Session
from tutor.storage.store import Store
from tutor.teaching.replay import rebuild_mastery


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


def test_lesson_progress_of_free_play_lists_the_lessons_own_games_skills(
        tmp_path: Path, student_plays: Any) -> None:
    """docs/rules.md §4: a lesson without targets practises what its game's scoring asks
    (tutor.games), and the lessons page lists those skills, not Leonard-Domino's: the same
    plan a session of the lesson plays by. No shipped lesson is like this one."""
    from tutor.course.lessons import Lesson
    from tutor.games import game

    lesson = Lesson(id="free-traditional", title={"en": "Free traditional play"},
                    variant="traditional", rounds=1, seed=5)
    assert [s for s, _, _ in lesson_progress([], [lesson])[0].skills] == ["add", "subtract"]
    db = tmp_path / "p.sqlite3"
    student_plays(lesson, "ana", db, seed=5)
    with Store(db) as store:
        played = lesson_progress(store.attempts("ana"), [lesson])[0]
    assert [s for s, _, _ in played.skills] == ["add", "subtract"]
    assert set(game("traditional").skills) == {"add", "subtract"}
    assert played.asked > 0 and {c.skill for c in played.evidence} <= {"add", "subtract"}
    session = drive.start(Session.from_lesson(lesson, lang="en", student="ana"))
    assert session.plan == lesson.plan and session.plan.focus == {"add", "subtract"}
    session.close()
    for shipped in list_lessons("en"):
        played = drive.start(Session.from_lesson(shipped, lang="en", student="ana"))
        assert played.plan == shipped.plan, shipped.id
        played.close()


def test_download_then_upload_loses_and_duplicates_nothing(tmp_path: Path,
                                                          student_plays: Any) -> None:
    """The hand-in: a student's progress file loaded into a new (Binder) store twice adds
    every attempt once, and rebuilds the same mastery the student had."""
    db = tmp_path / "own.sqlite3"
    student_plays("02-plus", "ana", db, seed=3, wrong_every=3)
    handed_in = export(db, "ana")
    with Store(db) as store:
        before = store.attempts("ana")
        expected_mastery = rebuild_mastery(before, lesson_params())
    fresh = tmp_path / "binder.sqlite3"
    with Store(fresh) as store:
        first = merge_files(store, [("ana.csv", handed_in)], "en")
        again = merge_files(store, [("ana.csv", handed_in)], "en")
        after = store.attempts("ana")
        saved = load_mastery(store, "ana")
    assert first.added == len(before) > 0 and first.known == 0 and not first.refused
    assert again.added == 0 and again.known == len(before)
    assert after == before
    assert saved.states == expected_mastery.states  # the play page starts where they were


@pytest.mark.slow
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
        from tutor.storage.store_files import read_attempts

        mastery = rebuild_mastery(read_attempts(own), lesson_params())
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
    from tutor.classroom.overview import ClassRow

    out = class_csv([ClassRow("add", 1, 1, 0.5, False, mean_seconds=2.0, student="=HYPERLINK(1)",
                              hints=0)])
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
    s = drive.start(Session.from_lesson("my-squares", lang="en", seed=2, store=None))
    assert s.legal_actions() or s.pending_question
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


T0 = datetime(2026, 3, 2, 10, 0, tzinfo=timezone.utc)


def tiny_export(tmp_path: Path, student: str, times: list[datetime] | None = None) -> bytes:
    """A progress export of ``student`` with one right answer at each of ``times``."""
    db = tmp_path / f"tiny-{len(list(tmp_path.iterdir()))}.sqlite3"
    with Store(db) as store:
        session = store.start_session(student)
        for i, when in enumerate(times or [T0]):
            store.record_attempt(student, session, lesson="04-times", problem=f"p{i}",
                                 step="gain", outcome="CORRECT", input_text="12",
                                 feedback="correct", kc="multiply",
                                 duration=3.0, expected=12, answered=12,
                                 time=when.isoformat(timespec="microseconds"))
    return export(db, student)


def test_an_upload_name_is_data_never_a_path(tmp_path: Path, hostile_names: Any) -> None:
    """Issue 36 (failure 2): "..", a NUL, 300 characters, 60 emoji … crashed the merge and
    skipped the files after it. Every name now merges its file, or refuses it in one line."""
    files = [(name, tiny_export(tmp_path, f"s{i}")) for i, name in enumerate(hostile_names)]
    files.append(("last.csv", tiny_export(tmp_path, "last")))
    with Store(tmp_path / "class.sqlite3") as store:
        result = merge_files(store, files, "en")
        students = set(store.students())
    assert result.files == len(files) and not result.refused, result.refused
    assert students == {f"s{i}" for i in range(len(hostile_names))} | {"last"}
    assert not list(Path("/etc").glob("passwd.tmp*"))


def test_an_upload_name_is_shown_printable_and_short(tmp_path: Path,
                                                     hostile_names: Any) -> None:
    files = [(name, b"not a progress file\n") for name in hostile_names]
    with Store(tmp_path / "class.sqlite3") as store:
        result = merge_files(store, files, "en")
    assert len(result.refused) == len(files)
    for line in result.refused:  # the refusal is ~420 characters, and the name at most 80
        assert line.isprintable() and len(line) < 520 and "x" * 100 not in line, line


def test_attempts_from_the_future_are_refused_with_how_many(tmp_path: Path) -> None:
    """Issue 36: times in the year 2999 were accepted; beyond a day of clock skew a file is
    refused with a line saying how many of its answers are from the future."""
    now = T0 + timedelta(days=30)
    skewed = tiny_export(tmp_path, "ana", [now + timedelta(hours=20)])  # a wrong clock
    future = tiny_export(tmp_path, "beto", [T0, now + timedelta(days=2),
                                            datetime(2999, 1, 1, tzinfo=timezone.utc)])
    with Store(tmp_path / "class.sqlite3") as store:
        result = merge_files(store, [("ana.csv", skewed), ("beto.csv", future)], "en", now=now)
        assert set(store.students()) == {"ana"}
    assert result.added == 1 and len(result.refused) == 1
    assert "beto.csv" in result.refused[0] and "2 answers" in result.refused[0]


def test_a_builder_id_is_as_long_as_a_link_allows(tmp_path: Path) -> None:
    """Issue 36 (failure 3): an id of 65–200 characters was saved, then refused by the
    links; the schema has the links' limit (64 characters)."""
    long_id = "a" * 65
    with pytest.raises(LessonError, match="id: .*64"):
        build_lesson(lesson_id=long_id, title={"es": "x", "en": "x"},
                     description={"es": "", "en": ""}, targets=[], rich_in=[], bots=[],
                     players=2, rounds=1, scaffold=[])
    with pytest.raises(LessonError, match="64"):
        save_lesson({"id": long_id, "title": {"es": "x", "en": "x"}}, tmp_path)
    assert not list(tmp_path.iterdir())
    ok = build_lesson(lesson_id="a" * 64, title={"es": "x", "en": "x"},
                      description={"es": "", "en": ""}, targets=[], rich_in=[], bots=[],
                      players=2, rounds=1, scaffold=[])
    assert lesson_links(save_lesson(ok, tmp_path).stem)["relative"]


def test_the_builder_checks_what_the_loader_checks(tmp_path: Path) -> None:
    """Issue 36 (failure 4): a 2,000,000-character title was saved "ready to play" but did
    not load (over the 1 MB limit): the builder now refuses it with the loader's words."""
    big = {"id": "big", "title": {"es": "a" * 2_000_000, "en": "b"}}
    (tmp_path / "loaded").mkdir()
    (tmp_path / "loaded" / "big.json").write_text(json.dumps(big), encoding="utf-8")
    with pytest.raises(LessonError) as loaded:
        load_lesson(tmp_path / "loaded" / "big.json", "en")
    with pytest.raises(LessonError) as built:
        build_lesson(lesson_id="big", title=big["title"], description={"es": "", "en": ""},
                     targets=[], rich_in=[], bots=[], players=2, rounds=1, scaffold=[])
    assert built.value.problem == loaded.value.problem
    with pytest.raises(LessonError):
        save_lesson(big, tmp_path / "mine")
    assert not (tmp_path / "mine").exists() or not list((tmp_path / "mine").iterdir())


def test_a_lone_surrogate_in_a_title_is_refused_and_leaves_no_file(tmp_path: Path) -> None:
    """Issue 36 (failure 5): "\\ud800" in a title crashed the save and left <id>.json.tmp."""
    with pytest.raises(LessonError, match="title.es"):
        build_lesson(lesson_id="odd", title={"es": "a\ud800", "en": "b"},
                     description={"es": "", "en": ""}, targets=[], rich_in=[], bots=[],
                     players=2, rounds=1, scaffold=[])
    with pytest.raises(LessonError, match="title.es"):
        save_lesson({"id": "odd", "title": {"es": "a\ud800", "en": "b"}}, tmp_path)
    assert list(tmp_path.iterdir()) == []


def test_a_builder_lesson_named_like_a_shipped_one_asks_first(tmp_path: Path) -> None:
    """Issue 36: a builder lesson 04-times silently replaced the shipped lesson for the whole
    class; now it is saved only when the teacher asks to replace it."""
    data = {"id": "04-times", "title": {"es": "Mía", "en": "Mine"}}
    with pytest.raises(LessonError, match="shipped"):
        save_lesson(data, tmp_path, lang="en")
    assert not list(tmp_path.iterdir())
    assert save_lesson(data, tmp_path, lang="en", replace=True) == tmp_path / "04-times.json"


@pytest.mark.slow
def test_a_big_merge_lets_students_save_within_a_second(tmp_path: Path) -> None:
    """Issue 36: a big merge held the write lock for a minute and students' saves waited.
    Merged in batches, a student's save never waits a second: the student's store here
    waits at most 1 s for the lock (busy_timeout) and tries once, so a longer wait is a
    failed save, counted. Every answer of the file is merged."""
    import threading

    from tutor.storage.records import Attempt, Outcome
    from tutor.storage.store import StoreBusyError

    rows = [Attempt(f"s{i % 30:02d}", f"sess-{i % 30}-{i // 500}",
                    (T0 + timedelta(seconds=i)).isoformat(timespec="microseconds"), "04-times",
                    f"p{i}", "gain", Outcome.CORRECT, "12", "correct", "multiply", 1, True, 0,
                    3.0, 12, 12) for i in range(60_000)]
    with Store(tmp_path / "src.sqlite3") as src:
        src.merge(rows)
        src.export_csv(tmp_path / "big.csv")
    big = (tmp_path / "big.csv").read_bytes()
    db = tmp_path / "class.sqlite3"
    with Store(db) as store:
        store.start_session("ana")
    merging, done = threading.Event(), threading.Event()
    saved: list[int] = []
    failed: list[StoreBusyError] = []

    def student() -> None:
        with Store(db, busy_timeout=1.0, retries=0) as own:
            session = own.start_session("ana")
            merging.wait()
            k = 0
            while not done.is_set():
                k += 1
                try:
                    own.record_attempt("ana", session, lesson="04-times", problem=f"q{k}",
                                       step="gain", outcome="CORRECT", input_text="12",
                                       kc="multiply", duration=1.0, expected=12, answered=12,
                                       time=T0.isoformat())
                    saved.append(k)
                except StoreBusyError as err:
                    failed.append(err)
                done.wait(0.02)  # a class saving often, not a loop hogging the file

    thread = threading.Thread(target=student)
    thread.start()
    try:
        with Store(db) as store:
            merging.set()
            result = merge_files(store, [("big.csv", big)], "en", now=T0)
            done.set()
            thread.join()
            assert len(store.attempts()) == 60_000 + len(saved)
    finally:
        done.set()
        merging.set()
        thread.join()
    assert result.added == 60_000 and not result.refused
    assert len(saved) >= 3 and not failed, (len(saved), len(failed))


def test_page_urls_for_a_server_a_hub_and_binder() -> None:
    """Issue 52, part 1: one function makes the links a page opens, for the lesson builder and
    the assignment's link to send. The browser's origin wins over the kernel's guess (https
    behind a proxy, which the kernel cannot see); a hub user's server is reached through the
    hub's user-redirect; on Binder the ref is the one this session was built from, and an
    origin that is not one is not used."""
    from tutor.course.builder import page_urls

    server = {"SERVER_NAME": "school.example", "SERVER_PORT": "443",
              "SCRIPT_NAME": "/voila/render/notebooks/Teacher.ipynb"}
    urls = page_urls("Lessons.ipynb", "class=6B", env=server)
    assert urls.to_send == "https://school.example/voila/render/notebooks/Lessons.ipynb?class=6B"
    assert not urls.on_binder and urls.binder_repo == ""
    assert page_urls("Lessons.ipynb", "class=6B", env=server,
                     origin="http://10.0.0.5:8866").to_send == (
        "http://10.0.0.5:8866/voila/render/notebooks/Lessons.ipynb?class=6B")
    assert page_urls("Lessons.ipynb", env=server, origin="javascript:alert(1)//").server == (
        "https://school.example/voila/render/notebooks/Lessons.ipynb")
    hub = {**server, "SCRIPT_NAME": "/jh/user/ana/voila/render/Teacher.ipynb",
           "JUPYTERHUB_SERVICE_PREFIX": "/jh/user/ana/", "JUPYTERHUB_BASE_URL": "/jh/"}
    assert page_urls("Lessons.ipynb", env=hub).server == (
        "https://school.example/jh/hub/user-redirect/voila/render/Lessons.ipynb")
    binder = {**hub, "BINDER_LAUNCH_HOST": "https://mybinder.org/",
              "BINDER_REPO_URL": "https://github.com/school/leonard",
              "BINDER_REF_URL": "https://github.com/school/leonard/tree/9c1e2f0"}
    urls = page_urls("Play.ipynb", "lesson=04-times", env=binder)
    assert urls.on_binder and urls.to_send == urls.binder == (
        "https://mybinder.org/v2/gh/school/leonard/9c1e2f0?urlpath=voila%2Frender%2F"
        "notebooks%2FPlay.ipynb%3Flesson%3D04-times")
    assert (urls.binder_repo, urls.binder_ref, urls.binder_from) == (
        "school/leonard", "9c1e2f0", ("BINDER_REPO_URL", "BINDER_REF_URL"))
    # The lesson builder's Binder link opens the same build.
    assert lesson_links("04-times", "en", env=binder)["binder"].startswith(
        "https://mybinder.org/v2/gh/school/leonard/9c1e2f0?")
    named = {"LEONARD_BINDER_REPO": "school/leonard", "LEONARD_BINDER_REF": "term-2"}
    assert page_urls("Lessons.ipynb", env=named).binder.startswith(
        "https://mybinder.org/v2/gh/school/leonard/term-2?")
