"""The lessons page and the teacher page in a real browser, served as a class would serve
them: ``voila notebooks/`` (every page of the folder, linked relatively), one progress file
and one lessons folder for the class (conftest's ``pages``, one server for the session).

The lessons page opens a lesson in the play page; "Download my progress" then "Load my
progress" on a new server loses and duplicates nothing; the teacher page shows the class
table and the heat map after an upload; a lesson made with the lesson builder opens and
plays (a mirror Session with the same lesson and seed knows the answers).
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path
from typing import Any

import pytest
from browsing import (
    NOTEBOOKS,
    ROOT,
    audit,
    cut_in_each_language,
    need_chromium,
    panels_outside_regions,
    past_the_edge_on_a_phone,
    serve,
)
from test_dashboard import IDLE, _answer_and_move_on, _open, _play_to_a_question, _ready

from tests import driving as drive
from tutor.commands.server import PREHEAT, start_voila, stop_server, wait_for_pool
from tutor.session.session import Session
from tutor.storage.store import Store
from tutor.ui.shared.panel import LOGGED


def open_page(page: Any, url: str, ready: str) -> None:
    page.goto(url, timeout=120_000)
    page.locator(ready).first.wait_for(timeout=120_000)


def no_errors(page: Any) -> None:
    assert page.locator('[data-mime-type="application/vnd.jupyter.stderr"]').count() == 0
    assert page.page_errors == []


def test_the_lessons_page_opens_a_lesson(page: Any, pages: dict[str, Any],
                                        artifacts: Path) -> None:
    open_page(page, pages["url"] + "Lessons.ipynb?lang=en&student=pat", ".ld-lesson-link")
    row = page.locator("tr[data-lesson='04-times']")
    assert "not yet" in row.inner_text()
    assert audit(page, "lessons", artifacts) == []  # issue 12: axe finds nothing serious
    assert panels_outside_regions(page) == []  # each panel a landmark named by its heading
    assert past_the_edge_on_a_phone(page, ".ld-page") == []  # a phone: the table scrolls
    row.locator("a.ld-lesson-link").click()
    page.wait_for_url(re.compile(r"/voila/render/Play\.ipynb\?lesson=04-times&lang=en"
                                 r"&student=pat$"), timeout=60_000)
    page.locator(".ld-move").first.wait_for(timeout=120_000)
    # The play page plays that lesson: its one target skill is the one shown.
    skills = page.locator(".ld-mastery").inner_text()
    assert "Skills of pat" in skills and "multiplying" in skills and "adding" not in skills
    assert "There is no lesson" not in page.locator(".ld-status").inner_text()
    no_errors(page)


def test_the_lessons_page_without_a_student_asks_and_its_links_carry_the_name(
        page: Any, pages: dict[str, Any]) -> None:
    """Issue 33: the class's shared link names nobody; the page asks, the address bar and
    every lesson link then carry the name, and the play page opened from it does not ask."""
    open_page(page, pages["url"] + "Lessons.ipynb?lang=en", ".ld-name-in input")
    assert not page.locator(".ld-lesson-link").first.is_visible()
    page.get_by_label("Your name", exact=True).fill("Lía")
    page.get_by_role("button", name="Start").click()
    link = page.locator("tr[data-lesson='04-times'] a.ld-lesson-link")
    link.wait_for(timeout=30_000)
    page.wait_for_url(re.compile(r"[?&]student=L%C3%ADa$"), timeout=20_000)
    assert link.get_attribute("href") == "Play.ipynb?lesson=04-times&lang=en&student=L%C3%ADa"
    link.click()
    page.locator(".ld-move").first.wait_for(timeout=120_000)
    assert not page.locator(".ld-name-in input").is_visible()
    assert "Skills of Lía" in page.locator(".ld-mastery").inner_text()
    no_errors(page)


def test_download_then_load_on_a_new_server_loses_and_duplicates_nothing(
        page: Any, pages: dict[str, Any], class_files: list[tuple[str, bytes]],
        tmp_path: Path) -> None:
    name, content = class_files[3]
    student = name[:-4]
    (tmp_path / name).write_bytes(content)
    with Store(pages["db"]) as store:
        store.import_file(tmp_path / name)
        before = store.attempts(student)
    open_page(page, pages["url"] + f"Lessons.ipynb?lang=en&student={student}",
              ".ld-progress-download")
    shown = page.locator(".ld-lessons-table").inner_text()
    with page.expect_download() as info:
        page.locator("a.ld-progress-download").click()
    handed_in = tmp_path / "download.csv"
    info.value.save_as(handed_in)

    # A new Binder of the same repository: the same lessons (the ones teachers made on this
    # server included), an empty progress file.
    if pages["lessons"].exists():
        shutil.copytree(pages["lessons"], tmp_path / "binder" / "lessons")
    proc, url = serve(tmp_path / "binder")
    try:
        open_page(page, url + f"Lessons.ipynb?lang=en&student={student}", ".ld-lesson-link")
        assert page.locator(".ld-lessons-table").inner_text() != shown
        for load in range(2):
            with page.expect_file_chooser() as chooser:
                page.get_by_role("button", name=re.compile("Load my progress")).click()
            chooser.value.set_files(str(handed_in))
            want = (f"New answers loaded: {len(before)}. Already here, so skipped: 0." if load == 0
                    else f"New answers loaded: 0. Already here, so skipped: {len(before)}.")
            page.locator(".ld-load-result", has_text=want).wait_for(timeout=30_000)
        assert page.locator(".ld-lessons-table").inner_text() == shown
        with Store(tmp_path / "binder" / "class.sqlite3") as fresh:
            assert fresh.attempts(student) == before
        no_errors(page)
    finally:
        stop_server(proc)


def test_the_teacher_page_shows_the_class_after_an_upload(
        page: Any, pages: dict[str, Any], class_files: list[tuple[str, bytes]],
        artifacts: Path) -> None:
    folder = pages["folder"] / "hand-ins"
    folder.mkdir()
    paths = []
    for name, content in class_files:
        (folder / name).write_bytes(content)
        paths.append(str(folder / name))
    (folder / "notes.txt").write_text("not a progress file\n", encoding="utf-8")
    open_page(page, pages["url"] + "Teacher.ipynb?lang=en", ".ld-class-upload")
    with page.expect_file_chooser() as chooser:
        page.get_by_role("button", name=re.compile("Upload progress files")).click()
    chooser.value.set_files([*paths, str(folder / "notes.txt")])
    page.locator(".ld-merge-result", has_text="Students in the files: 30.").wait_for(
        timeout=60_000)
    refused = page.locator(".ld-merge-result li").all_inner_texts()
    assert len(refused) == 1 and refused[0].startswith("notes.txt, line 1:")
    heat = page.locator("table.ld-heat")
    for name, _content in class_files:  # every student of the files has a row
        heat.locator(f"tbody tr[data-student='{name[:-4]}']").wait_for(timeout=30_000)
    assert re.fullmatch(r"\d+ %( ✔)?", heat.locator("td.ld-cell:not(.ld-not-asked)").first
                        .inner_text())
    table = page.locator("table.ld-class-table")
    assert table.locator("thead th").all_inner_texts()[:3] == ["Student", "Skill", "Questions"]
    assert table.locator("tbody tr[data-student='student-07']").count() >= 1
    assert page.locator("a.ld-class-csv").get_attribute("download") == "class-table.csv"
    assert "added instead of multiplying" in page.locator(".ld-mistakes-box").inner_text()
    page.screenshot(path=str(artifacts / "teacher-page.png"), full_page=True)
    assert audit(page, "teacher", artifacts) == []  # issue 12: with the class's data shown
    assert panels_outside_regions(page) == []  # each panel a landmark named by its heading
    no_errors(page)


def test_a_lesson_from_the_lesson_builder_opens_and_plays(
        page: Any, pages: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> None:
    open_page(page, pages["url"] + "Teacher.ipynb?lang=en", ".ld-build-save")
    # Nothing on the page is cut off, in both languages.
    assert cut_in_each_language(page, ".ld-build-id input",
                                "made from the title, e.g. tabla-del-6",
                                "body") == {"es": [], "en": []}
    assert past_the_edge_on_a_phone(page, ".ld-page") == []  # a phone: the form fits
    page.get_by_label("Lesson name").fill("browser-squares")
    page.get_by_label("Title in Spanish").fill("Cuadrados")
    page.get_by_label("Title in English").fill("Squares")
    page.get_by_label("squaring (T × T)").check()
    page.get_by_label("x/x", exact=True).check()
    page.get_by_label("Rounds").fill("1")
    page.get_by_label("Rounds").press("Tab")
    page.get_by_role("button", name="Save the lesson").click()
    here = page.locator(".ld-build-result a.ld-built-here")
    here.wait_for(timeout=30_000)
    assert (pages["lessons"] / "browser-squares.json").is_file()
    no_errors(page)  # the teacher page, before its link is followed
    voila_link = page.locator(".ld-build-result a.ld-built-voila").get_attribute("href")
    assert voila_link and voila_link.endswith(
        "/voila/render/Play.ipynb?lesson=browser-squares&lang=en")
    here.click()  # the builder's own link opens the play page on this lesson
    page.wait_for_url(re.compile(r"Play\.ipynb\?lesson=browser-squares&lang=en$"),
                      timeout=60_000)
    # The teacher's link names no student: the page asks for the name first (issue 33).
    name = page.get_by_label("Your name", exact=True)
    name.wait_for(timeout=120_000)
    name.fill("squares-student")
    page.get_by_role("button", name="Start").click()
    # The linked page is ready for the student, and clean, before the test leaves it.
    _ready(page)
    page.wait_for_function(IDLE, timeout=30_000)
    assert "squaring" in page.locator(".ld-mastery").inner_text()
    no_errors(page)

    # Played with a seed, a mirror session knows the answers: play to the first question
    # and answer it right.
    seed = 5
    monkeypatch.setenv("LEONARD_LESSONS", str(pages["lessons"]))
    _open(page, pages["url"], f"Play.ipynb?lesson=browser-squares&lang=en&seed={seed}"
          "&student=builder")
    mirror = drive.start(Session.from_lesson("browser-squares", lang="en", seed=seed, store=None))
    q = _play_to_a_question(page, mirror, steps=200)
    page.locator(".ld-answer input").wait_for(state="visible", timeout=10_000)
    _answer_and_move_on(page, mirror, str(q.expected))
    page.locator(".ld-feedback-done .ld-answer-value").filter(
        has_text=f"The answer is {q.expected:,}.").wait_for(timeout=10_000)
    no_errors(page)


def test_preheated_kernels_honour_the_link(page: Any, tmp_path: Path) -> None:
    """Standalone Voilà with the README's preheat flags: the pool's kernels ran their notebook
    before the request, yet each page reads its own link (lesson, language, student)."""
    need_chromium()
    env = {"LEONARD_TUTOR_DB": str(tmp_path / "class.sqlite3")}
    proc, base = start_voila(NOTEBOOKS, tmp_path / "voila.log", env, cwd=ROOT,
                             args=list(PREHEAT))
    try:
        # A request before the pool's kernels have started gets a fresh kernel (a busy CI
        # machine once took that long): wait for the pool, as a class arriving later would.
        wait_for_pool(base, tmp_path / "voila.log", kernels=2)
        url = base + "voila/render/"
        _open(page, url, "Play.ipynb?lesson=02-plus&lang=en&student=early")  # built, then left
        skills = page.locator(".ld-mastery").inner_text()
        assert "Skills of early" in skills and "adding" in skills
        assert "multiplying" not in skills
        no_errors(page)
        open_page(page, url + "Lessons.ipynb?lang=en&student=early", ".ld-lesson-link")
        assert page.locator(".ld-lessons-table caption").inner_text() == "Lessons of early"
        assert "lang=en&student=early" in (page.locator("a.ld-lesson-link").first
                                           .get_attribute("href") or "")
        no_errors(page)
    finally:
        stop_server(proc)
    log = (tmp_path / "voila.log").read_text(errors="replace")
    assert "Using pre-heated kernel" in log and "for Play.ipynb" in log
    assert "for Lessons.ipynb" in log and "for Teacher.ipynb" not in log


def test_a_class_upload_of_12_mib_is_merged(page: Any, tmp_path: Path) -> None:
    """Issue 36 (failure 1): over Tornado's 10 MiB websocket limit an upload closed the
    page's connection and was lost without a word. A class of 30 files, 12 MiB in all, goes
    through the real page (the server's config: voila.json) and every answer is merged.
    On a server of its own: its 91,500 answers would make every later test's teacher page
    a million elements (each student's answers), minutes for the browser and for axe."""
    from datetime import datetime, timedelta, timezone

    from tutor.storage.records import Attempt, Outcome

    t0 = datetime(2026, 3, 2, tzinfo=timezone.utc)
    folder = tmp_path / "term"
    folder.mkdir()
    paths, rows_in_files = [], 0
    for k in range(30):
        student = f"term-{k:02d}"
        # As the tutor records answers: one question at a time (each after the last was
        # over), a right answer's feedback "correct" (tutor.classroom.hand_in).
        rows = [Attempt(student, f"{student}-s{i // 200}",
                        (t0 + timedelta(seconds=4 * i)).isoformat(timespec="microseconds"),
                        "04-times", f"p{i}", "gain", Outcome.CORRECT, "12", "correct",
                        "multiply", 1, True, 0, 3.0, 12, 12) for i in range(3_050)]
        with Store(folder / "src.sqlite3") as src:
            src.merge(rows)
            src.export_csv(folder / f"{student}.csv", student)
        paths.append(str(folder / f"{student}.csv"))
        rows_in_files += len(rows)
    total = sum(Path(p).stat().st_size for p in paths)
    assert total > 12 * 1024 * 1024, total
    proc, url = serve(tmp_path / "server")
    try:
        open_page(page, url + "Teacher.ipynb?lang=en", ".ld-class-upload")
        with page.expect_file_chooser() as chooser:
            page.get_by_role("button", name=re.compile("Upload progress files")).click()
        chooser.value.set_files(paths)
        page.locator(".ld-merge-result", has_text="Students in the files: 30.").wait_for(
            timeout=300_000)
        assert page.locator(".ld-merge-result li").count() == 0  # nothing refused
        no_errors(page)
    finally:
        stop_server(proc)
    with Store(tmp_path / "server" / "class.sqlite3") as store:
        merged = [a for a in store.attempts() if a.student.startswith("term-")]
    assert len(merged) == rows_in_files
    log = (tmp_path / "server" / "voila.log").read_text(errors="replace")
    assert LOGGED not in log, log[log.find(LOGGED):][:4000]  # no page action failed
