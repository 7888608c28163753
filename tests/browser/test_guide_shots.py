"""The guides' screenshots (docs/teacher-guide.md, docs/student-guide.md and their Spanish
twins), taken of the real pages, and checked to show what the guides say (issue 33 part 7).

Served as a class serves them (``voila notebooks/``, one progress file): the play page of
lesson 04-times opened without a student asks a name, then plays to a power play's question
(a mirror Session with the same lesson and seed knows the moves), where working such as
``4*8`` is sent back; the lessons page lists the lessons with the student's progress; the
teacher page, after uploading the demo files ``python -m tutor simulate-students --lesson
04-times --students 4 --write-progress DIR`` writes, shows the class now (the live view:
who plays which lesson, who is stuck), the class table (a "Shown the answer" column, mastery
with its evidence, sorted by a click), a student's answers and the lesson builder. The
pictures (cropped to the part a guide shows; each kept small) go to the test's artifacts
folder, ``test-artifacts/guide-shots/``: a test run leaves the checkout as it was.
``python tools/guide_shots.py`` runs this test with ``LEONARD_GUIDE_SHOTS=docs/img`` to
refresh the guides' pictures when a page changes.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browsing import ARTIFACTS, ROOT, need_chromium
from test_dashboard import _answer, _play_to_a_question
from test_pages import no_errors, open_page, serve
from test_working import WORK_IT_OUT, working_for

from tests import driving as drive
from tutor.commands.server import stop_server
from tutor.session.session import Session

SHOTS_ENV = "LEONARD_GUIDE_SHOTS"
"""Where the pictures go when set (``tools/guide_shots.py``: the guides' ``docs/img``)."""
IMG = Path(os.environ.get(SHOTS_ENV) or ARTIFACTS / "guide-shots")
SEED = 19
"""Lesson 04-times with this deal reaches a power play's question within its first round."""
MAX_BYTES = 200_000
"""Each picture stays small enough to keep in the repository."""


@pytest.fixture(scope="module")
def pages(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    """The class's server (named ``pages`` as in test_pages.py, so conftest reads its log
    for the kernel's errors)."""
    need_chromium()
    folder = tmp_path_factory.mktemp("guides")
    proc, url = serve(folder)
    yield {"url": url, "folder": folder}
    stop_server(proc)


def shot(locator: Any, name: str) -> Path:
    """A screenshot of one part of the page into :data:`IMG`/NAME.png, checked to be small."""
    IMG.mkdir(parents=True, exist_ok=True)
    path = IMG / f"{name}.png"
    locator.scroll_into_view_if_needed()
    locator.screenshot(path=str(path), animations="disabled")
    assert 0 < path.stat().st_size < MAX_BYTES, (path, path.stat().st_size)
    return path


def test_the_student_guide_pictures(page: Any, pages: dict[str, Any]) -> None:
    """Student guide: type your name; at a power play type the number (working is sent
    back); Hint and Show me beside the answer box; the lesson's title and goal on top."""
    open_page(page, pages["url"] + f"Play.ipynb?lesson=04-times&lang=en&seed={SEED}",
              ".ld-name-in input")
    form = page.locator(".ld-name-form")
    assert page.get_by_label("Your name", exact=True).is_visible()
    assert page.get_by_role("button", name="Start").is_visible()
    shot(form, "student-name")
    page.get_by_label("Your name", exact=True).fill("Ana")
    page.get_by_role("button", name="Start").click()
    page.wait_for_url(re.compile(r"[?&]student=Ana(&|$)"), timeout=30_000)
    page.locator(".ld-move").first.wait_for(timeout=120_000)
    assert "x/n tiles: multiplying" in page.locator(".ld-lesson").inner_text()

    mirror = drive.start(Session.from_lesson("04-times", lang="en", seed=SEED, store=None))
    q = _play_to_a_question(page, mirror, power=True)
    page.wait_for_function("(p) => document.querySelector('.ld-question').innerText.includes(p)",
                           arg=q.prompt, timeout=10_000)
    for name in ("Check", "Hint", "Show me"):
        assert page.get_by_role("button", name=name, exact=True).is_visible(), name
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=str(IMG / "play-page.png"), animations="disabled")
    assert (IMG / "play-page.png").stat().st_size < MAX_BYTES

    # Working is not an answer: the page sends it back and the question stays open.
    working = working_for(q)
    assert re.fullmatch(r"\d+[*^+]\d+", working), working
    _answer(page, working)
    page.locator(".ld-feedback").filter(has_text=WORK_IT_OUT).wait_for(timeout=10_000)
    assert page.locator(".ld-answer input").is_visible()
    page.locator(".ld-answer input").fill(working)  # the picture shows what was typed
    shot(page.locator(".ld-tutor"), "student-working")
    no_errors(page)


def test_the_lessons_page_picture(page: Any, pages: dict[str, Any]) -> None:
    """Student guide: the lessons page lists the lessons, each a link, with the student's
    progress, and "Download my progress" / "Load my progress" for Binder."""
    open_page(page, pages["url"] + "Lessons.ipynb?lang=en&student=Ana", ".ld-lesson-link")
    row = page.locator("tr[data-lesson='04-times']")
    assert row.locator("a.ld-lesson-link").inner_text() == "x/n tiles: multiplying"
    assert page.get_by_text("Load my progress").first.is_visible()
    # The top of the page: its title, the table's head and the first lessons.
    box = page.locator(".ld-lessons-page").bounding_box()
    end = page.locator("tr[data-lesson='04-times']").bounding_box()
    path = IMG / "lessons-page.png"
    page.screenshot(path=str(path), animations="disabled",
                    clip={"x": box["x"], "y": box["y"], "width": box["width"],
                          "height": end["y"] + end["height"] - box["y"]})
    assert path.stat().st_size < MAX_BYTES
    progress = page.locator(".ld-progress-files")
    assert "Download my progress" in progress.inner_text()
    shot(progress, "lessons-progress")
    no_errors(page)


def test_the_teacher_guide_pictures(page: Any, pages: dict[str, Any], tmp_path: Path) -> None:
    """Teacher guide: upload the demo class's files; the class now (the live view: who plays
    which lesson, who is stuck); the class table with its "Shown the answer" column and
    mastery with its evidence, sorted by a click; a student's name opens their answers; the
    lesson builder."""
    demo = tmp_path / "demo-class"
    made = subprocess.run(
        [sys.executable, "-m", "tutor", "simulate-students", "--lesson", "04-times",
         "--students", "4", "--profile", "bkt:0.3,0.2,0.1,0.2", "--seed", "3",
         "--write-progress", str(demo), "--lang", "en"],
        cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert made.returncode == 0, made.stderr
    files = sorted(demo.glob("leonard-progress-*.csv"))
    assert len(files) == 4, made.stdout

    open_page(page, pages["url"] + "Teacher.ipynb?lang=en", ".ld-class-upload")
    with page.expect_file_chooser() as chooser:
        page.get_by_role("button", name=re.compile("Upload progress files")).click()
    chooser.value.set_files([str(p) for p in files])
    page.locator(".ld-merge-result", has_text="Students in the files: 4.").wait_for(
        timeout=60_000)
    # The class now: the demo students just played (their answers carry the real time).
    live = page.locator(".ld-live-panel")
    assert "The class now" in live.inner_text()
    assert live.get_by_role("button", name="Refresh").is_visible()
    live.locator("tr.ld-live-row[data-student='sim-04']").wait_for(timeout=30_000)
    assert live.locator("thead th").all_inner_texts() == [
        "Student", "Lesson", "Questions", "Right at the first try", "Last answer", "Now"]
    assert live.locator("tbody tr.ld-live-row").count() == 4
    # Issue 43: the students of uploaded files are never stuck (finished, or from files).
    assert live.locator("tr.ld-live-row[data-state='stuck']").count() == 0
    assert set(live.locator("tbody tr td:nth-child(2)").all_inner_texts()) == {
        "x/n tiles: multiplying"}
    shot(live, "teacher-live")

    table = page.locator("table.ld-class-table")
    heads = table.locator("thead th").all_inner_texts()
    assert heads == ["Student", "Skill", "Questions", "Right at the first try", "Mastery",
                     "Mastered", "Hints", "Shown the answer", "Mean seconds to answer"]
    evidence = table.locator("td .ld-evidence").all_inner_texts()
    assert evidence and all(re.search(r"\d+ of \d+ right", e) for e in evidence), evidence
    # Issue 42: the evidence says which mistakes the right answers ruled out.
    assert any(re.search(r"; ruled out: [a-z]", e) for e in evidence), evidence
    # "Who needs help with multiplying" is one click: by skill, weakest first.
    page.get_by_role("button", name="Skill", exact=True).click()
    table.locator("caption").filter(has_text="sorted by Skill (ascending)").wait_for(
        timeout=30_000)
    assert table.locator("tbody tr[data-skill='multiply']").count() == 4
    shot(page.locator(".ld-class-table-panel"), "teacher-class-table")

    # A student's name opens their answers.
    answers = page.locator("details.ld-student-answers[data-student='sim-01']")
    answers.locator("summary").click()
    listed = answers.locator("table.ld-answers")
    listed.wait_for(state="visible", timeout=10_000)
    assert listed.locator("caption").inner_text() == "The answers of sim-01"
    assert listed.locator("tbody tr").count() > 0
    shot(answers, "teacher-answers")

    builder = page.locator(".ld-builder")
    assert "Lesson builder" in builder.inner_text()
    assert page.get_by_role("button", name="Save the lesson").is_visible()
    shot(builder, "teacher-builder")
    no_errors(page)
