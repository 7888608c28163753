"""Issue 45 on a class server with PostgreSQL, in a real browser: the pages served as a class
serves them (``voila notebooks/``), the progress store a PostgreSQL database of the test
run's cluster. A teacher makes an assignment for a class of three on the teacher page and
saves its roster; Ana finishes it from its link, Beto starts it, Carla never opens it (their
games really played through the tutor into the same database, as their play pages would).
The teacher's table says done / in progress / not started, in step with the class table;
and each student's lessons page shows them their own state.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any
from urllib.parse import urljoin

import pytest
from browsing import NOTEBOOKS, ROOT, need_chromium
from test_assignment_teacher import table_states
from test_pages import no_errors, open_page

from tutor.commands.server import start_voila, stop_server
from tutor.course.lessons import list_lessons
from tutor.session.session import Session
from tutor.storage.store import Store


def live_states(page: Any) -> dict[str, str]:
    """Each student's state in the teacher page's live view."""
    return {row.get_attribute("data-student"): row.get_attribute("data-state")
            for row in page.locator("tr.ld-live-row").all()}


@pytest.fixture(scope="module")
def pg_pages(pg_cluster: Any, tmp_path_factory: pytest.TempPathFactory
             ) -> Iterator[dict[str, Any]]:
    """The pages served with a PostgreSQL store (one server for this module)."""
    need_chromium()
    folder = tmp_path_factory.mktemp("pg-class")
    db = pg_cluster.new_database()
    env = {"LEONARD_TUTOR_DB": db, "LEONARD_LESSONS": str(folder / "lessons")}
    proc, base = start_voila(NOTEBOOKS, folder / "voila.log", env, cwd=ROOT)
    yield {"url": base + "voila/render/", "db": db}
    stop_server(proc)


def test_a_class_of_three_on_postgresql(page: Any, pg_pages: dict[str, Any],
                                        student_plays: Any, plays_until: Any,
                                        artifacts: Path) -> None:
    titles = {lesson.id: lesson.text("title", "en") for lesson in list_lessons("en")}
    url, db = pg_pages["url"], pg_pages["db"]
    open_page(page, url + "Teacher.ipynb?lang=en&class=6E", ".ld-assign-title input")
    form = page.locator(".ld-assign-form")
    form.locator(".ld-assign-title input").fill("Week 12: times")
    form.locator(".ld-assign-add-lesson select").select_option(
        label=f"{titles['04-times']} (04-times)")
    lessons = form.locator(".ld-assign-lessons input")
    page.wait_for_function("(el) => el.value === '04-times'", arg=lessons.element_handle(),
                           timeout=30_000)
    form.locator(".ld-assign-due-date input").fill("2099-12-11")
    form.locator("button.ld-assign-save").click()
    box = form.locator(".ld-assign-link input")
    # The whole address of the lessons page (issue 52), which urljoin below keeps as it is.
    page.wait_for_function("(el) => /^https?:\\/\\/.*\\/Lessons\\.ipynb\\?assignment=/"
                           ".test(el.value)", arg=box.element_handle(), timeout=60_000)
    link = box.input_value()
    page.locator(".ld-roster-names textarea").fill("Ana\nBeto\nCarla")
    page.locator("button.ld-roster-save").click()
    page.locator(".ld-roster-result", has_text="Saved the roster of 6E: 3 students.").wait_for(
        timeout=60_000)
    with Store(db) as store:
        (a,) = store.assignments("6E")
        assert store.roster("6E") == ["Ana", "Beto", "Carla"]
    assert (a.title, a.lessons, a.due) == ("Week 12: times", ("04-times",), "2099-12-11T23:59")

    # Ana plays the whole lesson from the link, Beto one round; Carla does not open it.
    student_plays("04-times", "Ana", db, seed=1, assignment=a.id)
    student_plays("04-times", "Beto", db, seed=2, rounds=1, wrong_every=2, assignment=a.id)

    page.locator("button.ld-live-refresh").click()
    assert table_states(page, a.id, "tr[data-student='Ana'][data-state='done']") == {
        "Ana": "done", "Beto": "in progress", "Carla": "not started"}
    # The class table has the same students who played (Carla has no row: no answers).
    played = {row.get_attribute("data-student")
              for row in page.locator("table.ld-class-table tbody tr").all()}
    assert played == {"Ana", "Beto"}
    # The live view (issue 52 part 3): Ana's play page ended her lesson, so she is
    # finished; Beto, one round in, is playing.
    assert live_states(page) == {"Ana": "finished", "Beto": "playing"}

    # Ivo masters multiplying and plays the match's last rounds: the page has not ended his
    # lesson, so he is playing, never finished, in the live view and in the table.
    ivo = Session.from_lesson("04-times", lang="en", student="Ivo", store=db, seed=1,
                              assignment=a.id)
    assert plays_until(ivo, random.Random(1), lambda s: s.pending_question is None and all(
        k.mastered for k in s.lesson_summary().skills)) and not ivo.lesson_over
    ivo.close()  # the page still open: nothing more happens
    page.locator("tr.ld-live-row[data-student='Ivo']").wait_for(timeout=60_000)  # a tick
    assert live_states(page)["Ivo"] == "playing"
    table = page.locator(f"table.ld-assign-table[data-assignment='{a.id}']")
    assert table.locator("tr[data-student='Ivo']").get_attribute("data-state") == "in progress"

    # Lea answered 3 questions wrong at first, 14 minutes ago, and closed the tab: she has
    # left (no answer for 10 minutes), she is not stuck.
    lea = Session.from_lesson("04-times", lang="en", student="Lea", store=db, seed=3,
                              assignment=a.id,
                              clock=lambda: datetime.now(timezone.utc) - timedelta(minutes=14))
    assert plays_until(lea, random.Random(3), lambda s: s.pending_question is None and (
        s.lesson_summary().questions >= 3), wrong_every=1)
    lea.close()
    page.locator("tr.ld-live-row[data-student='Lea']").wait_for(timeout=60_000)  # a tick
    assert live_states(page)["Lea"] == "left"
    assert "stuck" not in table.locator("tr[data-student='Lea']").inner_text()
    page.screenshot(path=str(artifacts / "assignment-class-pg.png"), full_page=True)
    no_errors(page)

    # Each student's lessons page (the link, with their name) shows their own state first.
    student = page.context.new_page()
    for name, state in (("Ana", "done"), ("Beto", "in progress"), ("Carla", "not started")):
        student.goto(urljoin(page.url, f"{link}&lang=en&student={name}"), timeout=120_000)
        card = student.locator(f"article.ld-assignment[data-assignment='{a.id}']")
        card.wait_for(timeout=120_000)
        assert card.locator(".ld-assignment-state").get_attribute("data-state") == state
        assert "Week 12: times" in card.inner_text()
        first = student.locator(".ld-assignments, .ld-lesson-link").first
        assert first.evaluate("(el) => el.classList.contains('ld-assignments')")
    student.close()
