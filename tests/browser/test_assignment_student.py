"""A student opens an assignment's link in a real browser (issue 45), on the Binder path:
the link carries the whole assignment (class, title, lessons, due date, id; no server knows
it), the student has not said their name yet, the page speaks Spanish, and the window is a
phone's (390 px). The lessons page shows the assignment first with its due date and state,
fitting the phone; its lesson opens the play page with the assignment carried, and the
answers the student then gives are stored tagged with it.

Served as conftest's ``pages`` (one server for the session): its progress file holds no
assignment rows, as a Binder's does not.
"""

from __future__ import annotations

import re
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlencode, urlsplit

from browsing import audit, give_a_name, past_the_edge
from test_dashboard import CHOICE, IDLE, _answer, _click_first_move, _ready
from test_pages import no_errors, open_page

from tutor.classroom.assignments import (
    assignment_query,
    check_assignment,
    due_text,
    session_assignment,
)
from tutor.course.lessons import list_lessons
from tutor.storage.store import Store

PHONE_390 = {"width": 390, "height": 844}


def _first_answer(page: Any, steps: int = 300) -> None:
    """Play the page's first offered move until a question waits, then answer it (any
    number: right or wrong, the answer is stored)."""
    for _step in range(steps):
        page.wait_for_function(IDLE, timeout=30_000)
        box = page.locator(".ld-answer input")
        if box.is_visible():
            _answer(page, "12")
            return
        summary = page.locator(".ld-round-end .ld-summary")
        assert not summary.is_visible(), "the round ended before a question"
        _click_first_move(page)
    raise AssertionError(f"no question in {steps} steps")


def test_a_student_opens_an_assignment_link_on_a_phone(page: Any, pages: dict[str, Any],
                                                       artifacts: Path) -> None:
    now = datetime.now(timezone.utc)
    due = (now + timedelta(days=9)).strftime("%Y-%m-%d")
    lessons = {lesson.id: lesson for lesson in list_lessons("es")}
    a = check_assignment(class_code="6B", title="Semana 12: multiplicar", lessons=["04-times"],
                         installed=lessons, now=now, due_date=due, due_time="15:00",
                         tz="Europe/Madrid", lang="es")
    page.set_viewport_size(PHONE_390)
    open_page(page, pages["url"] + "Lessons.ipynb?" + urlencode(assignment_query(a)),
              ".ld-assignment")
    # The name form asks first; the assignment is right under it, above the lessons.
    page.locator(".ld-name-in input").wait_for(timeout=30_000)
    card = page.locator(f"article.ld-assignment[data-assignment='{a.id}']")
    assert card.locator("h4").inner_text() == "Semana 12: multiplicar"
    assert card.locator(".ld-assignment-due").inner_text() == \
        f"Fecha de entrega: {due_text(a, 'es')}"
    assert card.locator(".ld-assignment-state").inner_text() == "Sin empezar"
    tops = page.evaluate("""() => [".ld-assignments-panel", ".ld-reviews", ".ld-lesson-list",
        ".ld-progress"].map(s => { const e = document.querySelector(s);
          return e && e.offsetParent !== null ? e.getBoundingClientRect().top : null; })""")
    assert tops[0] is not None and all(t is None or t >= tops[0] for t in tops[1:]), tops
    assert past_the_edge(page, ".ld-assignments") == []  # readable at 390 px: nothing cut
    assert card.bounding_box()["width"] <= PHONE_390["width"]
    page.screenshot(path=str(artifacts / "assignment-student-phone.png"), full_page=True)
    assert audit(page, "assignment-student", artifacts) == []  # axe finds nothing serious

    # The class the link names is in the name form's class box already.
    assert page.locator(".ld-class-in input").input_value() == "6B"
    link = card.locator("a.ld-assignment-link")
    assert link.inner_text() == lessons["04-times"].text("title", "es")
    link.click()
    page.wait_for_url(re.compile(r"/Play\.ipynb\?"), timeout=60_000)
    carried = {k: v[0] for k, v in parse_qs(urlsplit(page.url).query).items()}
    # (No name yet: the play page asks for it. The assignment goes whole, with its class, so
    # that the lesson's end leads to its next lesson and back to it: issue 52.)
    assert carried == {"lesson": "04-times", "lang": "es", "assignment": a.id,
                       "class": "6B", "title": a.title, "lessons": "04-times",
                       "due": a.due, "tz": a.tz}
    give_a_name(page, "Inés")  # the play page asks the name the link did not give
    _ready(page)
    page.wait_for_url(re.compile(r"[?&]student=In%C3%A9s"), timeout=20_000)
    assert f"assignment={a.id}" in page.url  # a reload keeps the assignment too
    assert "no cuenta" not in page.locator(".ld-status").inner_text()
    _first_answer(page)
    # The page answers once the kernel has the answer, which it stored first, in a session
    # tagged with the assignment.
    # (Not the feedback line: a right answer's feedback may already be gone when looked for,
    # the game going on; the stored row stays.)
    with Store(pages["db"]) as store:
        for _ in range(600):  # at most a minute
            rows = store.attempts("Inés")
            if rows:
                break
            time.sleep(0.1)
    assert rows and {session_assignment(r.session) for r in rows} == {a.id}
    no_errors(page)


def _short_lesson(folder: Path, lesson_id: str, title: str) -> None:
    """A lesson that ends after its first round with a question on its target (the lessons
    folder's: ``LEONARD_LESSONS``): 01-other-end's game in one round, one question."""
    import json

    from tutor.course.paths import shipped_dir

    data = json.loads((shipped_dir("lessons") / "01-other-end.json").read_text("utf-8"))
    data["id"] = lesson_id
    data["title"] = {"es": title, "en": title}
    data["game"]["rounds"] = 1
    data["game"]["seed"] = 5
    data["tutor"]["max_questions"] = 1
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"{lesson_id}.json").write_text(json.dumps(data), encoding="utf-8")


def _play_to_the_lesson_end(page: Any, steps: int = 600) -> None:
    """Play the first move offered, give up on every question ("Show me") and start the next
    round, until the lesson's end is shown."""
    end = page.locator(".ld-lesson-end")
    for _step in range(steps):
        page.wait_for_function(
            "() => [...document.querySelectorAll('.ld-lesson-end, .ld-reveal, .ld-next-round,"
            " .ld-move')].some(e => e.offsetParent !== null && e.title !== 'draw'"
            " && e.title !== 'pass')", timeout=30_000)
        if end.is_visible():
            return
        reveal = page.locator(".ld-reveal")
        if reveal.is_visible():
            reveal.click()
            page.wait_for_timeout(200)
            continue
        following = page.locator(".ld-next-round")
        if following.is_visible():
            following.click()
            page.wait_for_timeout(500)
            continue
        if not page.locator(CHOICE).first.is_visible():
            continue  # the moves seen above went (the bots played on, a question came): look again
        _click_first_move(page)
    raise AssertionError(f"the lesson did not end in {steps} steps")


FIRST, SECOND = "z52-b-start", "z52-a-next"
"""The two lessons of the stay-in-the-assignment tests: the second comes before the first
in the course's order (by id), so the course's next lesson after the first is not it."""


def two_short_lessons(folder: Path) -> None:
    """The assignment's two lessons, written into a lessons folder the server reads."""
    _short_lesson(folder, FIRST, "Primera de la tarea")
    _short_lesson(folder, SECOND, "Segunda de la tarea")


def stays_in_the_assignment(page: Any, assignment: str, class_code: str,
                            artifacts: Path) -> None:
    """From the lessons page an assignment's link opened (no name in it), the student plays
    its first lesson to the end: the lesson's end offers its second (not the course's next),
    and "Back to the lessons" keeps the assignment and the class, so the lessons page still
    lists it and the progress file is named with the class code."""
    page.locator(f"article.ld-assignment[data-assignment='{assignment}'] a.ld-assignment-link"
                 ).first.click()
    page.wait_for_url(re.compile(r"/Play\.ipynb\?"), timeout=60_000)
    give_a_name(page, "Ana")
    _ready(page)
    page.wait_for_url(re.compile(r"[?&]student=Ana"), timeout=20_000)
    _play_to_the_lesson_end(page)
    end = page.locator(".ld-lesson-end")
    following = end.locator("a.ld-next-lesson-link")
    assert following.get_attribute("data-lesson") == SECOND
    assert "Segunda de la tarea" in following.inner_text()
    query = {k: v[0] for k, v in parse_qs(urlsplit(following.get_attribute("href") or "")
                                          .query).items()}
    assert (query["lesson"], query["assignment"], query["class"], query["student"]) == (
        SECOND, assignment, class_code, "Ana")
    back = end.locator("a.ld-lessons-link")
    back_query = {k: v[0] for k, v in parse_qs(urlsplit(back.get_attribute("href") or "")
                                               .query).items()}
    assert (back_query["assignment"], back_query["class"], back_query["student"]) == (
        assignment, class_code, "Ana")
    page.screenshot(path=str(artifacts / "assignment-lesson-end.png"), full_page=True)
    no_errors(page)
    back.click()
    page.wait_for_url(re.compile(r"/Lessons\.ipynb\?"), timeout=60_000)
    page.locator(f"article.ld-assignment[data-assignment='{assignment}']").wait_for(
        timeout=120_000)
    download = page.locator("a.ld-progress-download")
    download.wait_for(timeout=60_000)
    assert download.get_attribute("download") == f"leonard-progress-Ana-{class_code}.csv"
    no_errors(page)


def test_a_student_stays_in_the_assignment_from_lesson_to_lesson(
        page: Any, pages: dict[str, Any], artifacts: Path, monkeypatch: Any) -> None:
    """Issue 52, part 2, on the Binder path (the link carries the whole assignment): see
    :func:`stays_in_the_assignment`; the Binder image's own shape (a regular install under
    Jupyter Server, the teacher's Copy button) is test_binder.py's."""
    two_short_lessons(pages["lessons"])
    now = datetime.now(timezone.utc)
    monkeypatch.setenv("LEONARD_LESSONS", str(pages["lessons"]))  # the server's, here too
    lessons = {lesson.id: lesson for lesson in list_lessons("es")}
    a = check_assignment(class_code="6B", title="Dos lecciones", lessons=[FIRST, SECOND],
                         installed=lessons, now=now, due_date="", due_time="",
                         tz="Europe/Madrid", lang="es")
    open_page(page, pages["url"] + "Lessons.ipynb?" + urlencode(assignment_query(a)),
              ".ld-assignment")
    stays_in_the_assignment(page, a.id, "6B", artifacts)
