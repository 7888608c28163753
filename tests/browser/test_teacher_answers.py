"""The teacher page in a real browser (issue 33 part 4): three students' progress files
uploaded, one student's name opens their answers (by a click, or by Enter on another
student's name), and the class table sorts by a column and back, the table saying how it is
sorted. Served as a class serves it: ``voila notebooks/`` with one progress file."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browsing import audit, need_chromium
from test_pages import no_errors, open_page, serve

from tutor.classroom.overview import MISTAKE_NAMES
from tutor.classroom.student_answers import student_answers
from tutor.commands.server import stop_server
from tutor.storage.store_files import read_attempts


@pytest.fixture(scope="module")
def pages(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    """The class's server (named ``pages`` as in test_pages.py, so conftest reads its log
    for the kernel's errors)."""
    need_chromium()
    folder = tmp_path_factory.mktemp("answers")
    proc, url = serve(folder)
    yield {"url": url, "db": folder / "class.sqlite3", "folder": folder}
    stop_server(proc)


def _mastery(page: Any) -> list[int]:
    """The class table's mastery column, as numbers (the 4th data cell of each row: "16 %
    (2 of 3 right)", the mastery and the evidence it rests on)."""
    texts = page.locator("table.ld-class-table tbody tr > td:nth-of-type(4)").all_inner_texts()
    return [int(t.split("%", 1)[0].strip()) for t in texts]


def test_the_teacher_opens_a_students_answers_and_sorts_the_class(
        page: Any, pages: dict[str, Any], class_files: list[tuple[str, bytes]],
        tmp_path: Path, artifacts: Path) -> None:
    paths = []
    for name, content in class_files[:3]:
        (tmp_path / name).write_bytes(content)
        paths.append(tmp_path / name)
    open_page(page, pages["url"] + "Teacher.ipynb?lang=en", ".ld-class-upload")
    with page.expect_file_chooser() as chooser:
        page.get_by_role("button", name=re.compile("Upload progress files")).click()
    chooser.value.set_files([str(p) for p in paths])
    page.locator(".ld-merge-result", has_text="Students in the files: 3.").wait_for(
        timeout=60_000)

    # A student's name opens their answers, question by question.
    mine = student_answers(read_attempts(paths[1]))
    answers = page.locator("details.ld-student-answers[data-student='student-01']")
    answers.wait_for(timeout=30_000)
    table = answers.locator("table.ld-answers")
    assert not table.is_visible()
    answers.locator("summary").click()
    table.wait_for(state="visible", timeout=10_000)
    assert table.locator("caption").inner_text() == "The answers of student-01"
    assert table.locator("tbody tr").count() == len(mine)
    typed = table.locator("tbody tr > td.ld-typed-cell").all_inner_texts()
    for cell, q in zip(typed, mine, strict=True):
        assert [t.input for t in q.tries] == re.findall(r"(-?[\d,.]+) [✔✗]", cell)
    named = [MISTAKE_NAMES[m] for q in mine for m in q.mistakes]
    assert named and named[0] in table.inner_text()
    # The keyboard opens another student's answers: Enter on their name.
    other = page.locator("details.ld-student-answers[data-student='student-02']")
    other.locator("summary").focus()
    page.keyboard.press("Enter")
    other.locator("table.ld-answers").wait_for(state="visible", timeout=10_000)
    answers.scroll_into_view_if_needed()
    page.screenshot(path=str(artifacts / "teacher-student-answers.png"), full_page=True)

    # One click sorts the class table by a column; a second, the other way.
    page.get_by_role("button", name="Mastery", exact=True).click()
    caption = page.locator("table.ld-class-table caption")
    caption.filter(has_text="sorted by Mastery (ascending)").wait_for(timeout=30_000)
    ascending = _mastery(page)
    assert ascending == sorted(ascending) and len(ascending) >= 3
    header = page.locator("table.ld-class-table th[data-sort='mastery']")
    assert header.get_attribute("aria-sort") == "ascending"
    page.get_by_role("button", name="Mastery ▲").click()
    caption.filter(has_text="sorted by Mastery (descending)").wait_for(timeout=30_000)
    assert _mastery(page) == sorted(ascending, reverse=True)
    assert header.get_attribute("aria-sort") == "descending"
    # By skill: the multiplying rows, weakest first.
    page.get_by_role("button", name="Skill", exact=True).click()
    caption.filter(has_text="sorted by Skill (ascending)").wait_for(timeout=30_000)
    rows = page.locator("table.ld-class-table tbody tr[data-skill='multiply']")
    times = [int(t.split("%", 1)[0].strip()) for t in
             rows.locator("td:nth-of-type(4)").all_inner_texts()]
    assert times == sorted(times) and len(times) == 3
    assert answers.locator("table.ld-answers").is_visible()  # the open answers stay open
    page.locator("table.ld-class-table").scroll_into_view_if_needed()
    page.screenshot(path=str(artifacts / "teacher-class-sorted.png"), full_page=True)
    assert audit(page, "teacher-answers", artifacts) == []  # axe: nothing serious
    no_errors(page)
