"""A student's assignments on the lessons page (issue 45): listed first, each with its due
date in the student's language and their state (not started, in progress, done by mastery
or at a cap, overdue), its lessons linked to the play page with the assignment and its
settings; a closed one hidden; another class's link refused with a sentence; a Binder link
edited by hand still opens, saying what it left out; a game played from such a link tags
its rows, and the tag survives the progress file's download, seal and upload."""

from __future__ import annotations

import base64
import dataclasses
import re
from collections.abc import Callable
from datetime import datetime, timedelta, timezone
from html import unescape
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlencode, urlsplit

import pytest

from tutor.classroom.assignments import (
    MAX_TITLE,
    assignment_query,
    check_assignment,
    session_assignment,
    with_closed,
)
from tutor.course.lessons import Lesson, list_lessons
from tutor.storage.records import StoreError
from tutor.storage.store import Store, StoreBusyError
from tutor.ui import lessons_page, play_page

NOW = datetime(2026, 12, 7, 9, 0, tzinfo=timezone.utc)
LESSONS: dict[str, Lesson] = {lesson.id: lesson for lesson in list_lessons("en")}


def make(lessons: list[str], title: str, *, class_code: str = "6B", now: datetime = NOW,
         due_date: str = "2026-12-11", **given: Any) -> Any:
    return check_assignment(class_code=class_code, title=title, lessons=lessons,
                            installed=LESSONS, now=now, due_date=due_date,
                            due_time="15:00" if due_date else "",
                            tz="Europe/Madrid", **given)


def shown(page: Any) -> list[dict[str, Any]]:
    """Each assignment the page lists, in order: id, title, due line, state, how, and each
    lesson's (id, link, mark)."""
    out = []
    for art in re.findall(r"<article class='ld-assignment'(.*?)</article>",
                          page.assignments.value, re.S):
        lessons = re.findall(r"data-lesson='([^']+)'><a class='ld-assignment-link' "
                             r"href='([^']+)'>.*?</a> <span[^>]*>(.*?)</span>", art)
        out.append({
            "id": re.search(r"data-assignment='([^']+)'", art).group(1),  # type: ignore[union-attr]
            "title": unescape(re.search(r"<h4[^>]*>(.*?)</h4>", art).group(1)),  # type: ignore[union-attr]
            "due": unescape(re.search(r"ld-assignment-due'>(.*?)</p>", art).group(1)),  # type: ignore[union-attr]
            "state": unescape(re.search(r"data-state='[^']*' data-how='[^']*'>(.*?)</p>",
                                        art).group(1)),  # type: ignore[union-attr]
            "lessons": [(lid, unescape(href), unescape(mark)) for lid, href, mark in lessons],
            "notes": [unescape(n) for n in re.findall(r"<li class='ld-msg'>(.*?)</li>", art)],
        })
    return out


def page_notes(page: Any) -> list[str]:
    return [unescape(n) for n in re.findall(r"ld-assignments-note'>(.*?)</p>",
                                            page.assignments.value)]


def query_of(href: str) -> dict[str, str]:
    return {k: v[0] for k, v in parse_qs(urlsplit(href).query).items()}


@pytest.fixture(scope="module")
def class_db(tmp_path_factory: pytest.TempPathFactory,
             student_plays: Callable[..., None]) -> tuple[Path, dict[str, Any]]:
    """6B's store: Ana on its roster masters 04-times from the first assignment's link and
    starts 06-doubles; five assignments of 6B (one closed) and one of 6C."""
    db = tmp_path_factory.mktemp("class") / "class.sqlite3"
    made = {
        "done": make(["04-times"], "Times tables", due_date="2026-12-18"),
        "progress": make(["04-times", "06-doubles"], "Week 12", scaffolds="off"),
        "new": make(["05-squares"], "Squares", due_date=""),
        "late": make(["06-doubles"], "Doubles", now=NOW - timedelta(days=7),
                     due_date="2026-12-04"),
        "closed": with_closed(make(["02-plus"], "Old plus"), True),
        "other": make(["04-times"], "6C only", class_code="6C"),
    }
    student_plays("04-times", "Ana", db, seed=1, assignment=made["done"].id)
    student_plays("06-doubles", "Ana", db, seed=3, rounds=1, wrong_every=2)
    with Store(db) as store:
        store.save_roster("6B", ["Ana", "Beto"])
        store.save_roster("6C", ["Carla"])
        for a in made.values():
            store.save_assignment(a)
    return db, made


def test_open_assignments_come_first_with_due_date_and_state(
        link: Any, class_db: tuple[Path, dict[str, Any]]) -> None:
    db, made = class_db
    link("lang=en&student=Ana")
    with Store(db) as store:
        page = lessons_page(store=store, clock=lambda: NOW)
    order = [c for c in page.children if c in (page.assignments, page.lesson_list)]
    assert order == [page.assignments, page.lesson_list]  # assignments above the lessons
    got = shown(page)
    # Soonest due first; no due date last; the closed one and 6C's are not listed.
    assert [g["id"] for g in got] == [made[k].id for k in ("late", "progress", "done", "new")]
    late, progress, done, new = got
    assert late["state"] == "Overdue: 0 of 1 lesson done, 0 of 1 target mastered"
    assert late["due"] == "Due: Fri, Dec 4, 2026 15:00 (Spain (Madrid) Time)"
    assert progress["state"] == "In progress: 1 of 2 lessons done, 1 of 2 targets mastered"
    assert [mark for _id, _href, mark in progress["lessons"]] == ["✔ mastered", "started"]
    assert done["state"] == "Done: every target mastered"
    assert done["due"] == "Due: Fri, Dec 18, 2026 15:00 (Spain (Madrid) Time)"
    assert new == {**new, "state": "Not started", "due": "No due date",
                   "lessons": [("05-squares", new["lessons"][0][1], "not yet")]}
    assert "Old plus" not in page.assignments.value and "6C only" not in page.assignments.value
    assert page_notes(page) == []
    # The lesson list is still there, whole.
    assert len(re.findall(r"class='ld-lesson-link'", page.lesson_list.value)) == len(LESSONS)


def test_the_same_page_in_spanish(link: Any, class_db: tuple[Path, dict[str, Any]]) -> None:
    db, made = class_db
    link("lang=es&student=ana")  # the roster's "Ana", however typed
    with Store(db) as store:
        got = shown(lessons_page(store=store, clock=lambda: NOW))
    assert got[0]["due"] == "Fecha de entrega: vie, 4 dic 2026 15:00 (hora de España (Madrid))"
    assert [g["state"] for g in got] == [
        "Atrasada: 0 de 1 lección hecha, 0 de 1 objetivo dominado",
        "En curso: 1 de 2 lecciones hechas, 1 de 2 objetivos dominados",
        "Terminada: todos los objetivos dominados", "Sin empezar"]


def test_the_play_links_carry_the_assignment_and_its_settings(
        link: Any, class_db: tuple[Path, dict[str, Any]]) -> None:
    db, made = class_db
    link("lang=en&student=Ana&class=6B")
    with Store(db) as store:
        got = shown(lessons_page(store=store, clock=lambda: NOW))
    progress = next(g for g in got if g["id"] == made["progress"].id)
    hrefs = [href for _id, href, _mark in progress["lessons"]]
    assert [urlsplit(h).path for h in hrefs] == ["Play.ipynb", "Play.ipynb"]
    a = made["progress"]
    # The whole assignment goes with it (issue 52: the lesson's end leads to its next lesson
    # and back to it, on Binder too).
    assert [query_of(h) for h in hrefs] == [
        {"lesson": lesson, "lang": "en", "student": "Ana", "class": "6B",
         "assignment": a.id, "title": a.title, "lessons": "04-times,06-doubles",
         "due": a.due, "tz": a.tz, "scaffolds": "off"}
        for lesson in ("04-times", "06-doubles")]
    done = next(g for g in got if g["id"] == made["done"].id)
    assert "scaffolds" not in query_of(done["lessons"][0][1])  # the lesson's own


def test_done_at_a_cap_says_so(link: Any, tmp_path: Path,
                               student_plays: Callable[..., None]) -> None:
    capped = dataclasses.replace(LESSONS["04-times"], max_questions=3)
    installed = [capped if lesson.id == "04-times" else lesson for lesson in LESSONS.values()]
    a = make(["04-times"], "Times, quickly")
    db = tmp_path / "cap.sqlite3"
    student_plays(capped, "Beto", db, seed=2, wrong_every=1, assignment=a.id)
    link("lang=en&student=Beto&class=6B")  # off a hub: the class code typed counts
    with Store(db) as store:
        store.save_assignment(a)
        (got,) = shown(lessons_page(store=store, clock=lambda: NOW, lessons=installed))
    assert got["state"] == "Done: reached the cap without mastery"
    assert got["lessons"][0][2] == "✔ over at its limit"


def test_another_classs_link_is_refused_with_a_sentence(
        link: Any, class_db: tuple[Path, dict[str, Any]]) -> None:
    """On a hub the student's store is opened for them (``owner=``): a link passed from 6C,
    even carrying its title and lessons, shows nothing of it, only why."""
    db, made = class_db
    other = made["other"]
    link("lang=en&" + urlencode(assignment_query(other)))
    with Store(db, owner="Ana") as store:
        page = lessons_page(store=store, student="Ana", clock=lambda: NOW)
    assert page_notes(page) == [
        "This link's assignment is for another class, so it is not shown here. Your own "
        "class's assignments are listed; ask your teacher if one is missing."]
    assert other.id not in page.assignments.value and "6C only" not in page.assignments.value
    assert {g["id"] for g in shown(page)} == {made[k].id for k in ("late", "progress", "done",
                                                                   "new")}


def test_a_link_cannot_override_the_stores_assignment(
        link: Any, class_db: tuple[Path, dict[str, Any]]) -> None:
    db, made = class_db
    forged = {**assignment_query(made["progress"]), "title": "No homework", "due": "",
              "lessons": "01-other-end", "scaffolds": "on"}
    link("lang=en&" + urlencode(forged))
    with Store(db, owner="Ana") as store:
        got = shown(lessons_page(store=store, student="Ana", clock=lambda: NOW))
    progress = next(g for g in got if g["id"] == made["progress"].id)
    assert progress["title"] == "Week 12" and progress["due"].startswith("Due: Fri, Dec 11")
    assert [(lid, query_of(href)["scaffolds"]) for lid, href, _m in progress["lessons"]] == [
        ("04-times", "off"), ("06-doubles", "off")]
    closed = {**assignment_query(made["closed"])}
    link("lang=en&" + urlencode(closed))
    with Store(db, owner="Ana") as store:
        page = lessons_page(store=store, student="Ana", clock=lambda: NOW)
    assert page_notes(page) == ["The assignment “Old plus” in this link is closed: your "
                                "teacher no longer asks for it."]
    assert made["closed"].id not in {g["id"] for g in shown(page)}


def test_an_edited_binder_link_opens_and_says_what_it_left_out(link: Any,
                                                               tmp_path: Path) -> None:
    a = make(["04-times", "06-doubles"], "Week 12", lang="en", scaffolds="on")
    edited = {**assignment_query(a), "lessons": "04-times,99-gone", "due": "next friday",
              "title": "t" * 10_000}
    link(urlencode(edited))
    with Store(tmp_path / "binder.sqlite3") as store:  # Binder: no assignment rows
        page = lessons_page(store=store, clock=lambda: NOW)
    (got,) = shown(page)
    assert got["title"] == "t" * MAX_TITLE and got["due"] == "No due date"
    assert got["notes"] == [
        f"The assignment's title in the link is long; keeping its first {MAX_TITLE} "
        "characters.",
        'The lesson "99-gone" of this assignment is not here; it is left out.',
        "The due date in the link is not a date; showing the assignment without one."]
    (lesson,) = got["lessons"]
    # What was left out stays out of the play link, which carries the rest (and the class:
    # the student is not named yet).
    assert lesson[0] == "04-times" and query_of(lesson[1]) == {
        "lesson": "04-times", "lang": "en", "assignment": a.id, "title": "t" * MAX_TITLE,
        "lessons": "04-times", "scaffolds": "on", "class": "6B"}
    assert len(re.findall(r"class='ld-lesson-link'", page.lesson_list.value)) == len(LESSONS)
    assert page.asking and page.name_form.class_in.value == "6B"  # the link's class, kept
    link("lang=en&assignment=%3Cscript%3E&title=x")
    page = lessons_page(store=None, clock=lambda: NOW)
    assert page_notes(page) == ["The assignment in this link is damaged (its id); ask your "
                                "teacher for the link again."]
    assert shown(page) == [] and "<script>" not in page.assignments.value


@pytest.mark.parametrize("broken", [StoreBusyError("the store is busy"),
                                    RuntimeError("the disk is on fire")])
def test_a_store_that_cannot_answer_leaves_the_lessons_listed(
        link: Any, class_db: tuple[Path, dict[str, Any]], monkeypatch: pytest.MonkeyPatch,
        broken: Exception) -> None:
    db, _made = class_db

    def refuse(*_args: Any, **_kw: Any) -> Any:
        raise broken

    monkeypatch.setattr(Store, "classes_of", refuse)
    link("lang=en&student=Ana")
    with Store(db) as store:
        page = lessons_page(store=store, clock=lambda: NOW)
    assert shown(page) == []
    (said,) = page_notes(page)
    assert said.startswith("Your assignments cannot be shown right now (") and \
        str(broken) in said
    assert len(re.findall(r"class='ld-lesson-link'", page.lesson_list.value)) == len(LESSONS)
    assert isinstance(broken, StoreError) or "Something went wrong" not in said


def _play_a_little(app: Any, answers: int = 3) -> None:
    """Play the page's game until ``answers`` questions were answered (right)."""
    import random

    s, rng, asked = app.session, random.Random(0), 0
    for _ in range(2_000):
        q = s.pending_question
        if q is not None:
            s.answer(str(q.expected))
            asked += 1
            if asked >= answers:
                return
        elif s.current_player() is not None:
            s.apply_action(rng.randrange(len(s.legal_actions())))
        elif s.round.over and not s.match.over:
            s.new_round()
        elif s.match.over:
            return
        else:
            s.advance()  # the bots' moves (the page paces them)


def test_a_game_from_the_link_tags_its_rows_and_the_tag_survives_the_progress_file(
        link: Any, tmp_path: Path) -> None:
    """Binder: the lessons page's link to 07-all-power (no scaffolds of its own) with the
    assignment turning scaffolds on; the game is tagged and scaffolded, its rows go out in
    the "Download my progress" file, whose seal and replay the teacher's upload and a new
    Binder's "Load my progress" accept, tag and all."""
    from tutor.classroom.overview import merge_files
    from tutor.teaching.practice import SCAFFOLDS

    a = make(["07-all-power"], "Everything", scaffolds="on")
    link(urlencode({**assignment_query(a), "lang": "en"}))
    db = tmp_path / "binder.sqlite3"
    with Store(db) as store:
        page = lessons_page(store=store, clock=lambda: NOW)
        page.name("Ana", "6B")
        ((_id, href, _mark),) = shown(page)[0]["lessons"]
    link(urlsplit(href).query)
    app = play_page(store=str(db))
    assert session_assignment(app.session.session_id) == a.id
    assert app.session.plan.scaffolds == SCAFFOLDS  # the assignment's "on"
    _play_a_little(app)
    app.session.close()
    with Store(db) as store:
        rows = store.attempts("Ana")
        assert rows and {session_assignment(r.session) for r in rows} == {a.id}
        assert any("blanks" in r.step for r in rows)  # scaffolded: the lesson alone is not
        link(urlencode({**assignment_query(a), "lang": "en", "student": "Ana"}))
        page = lessons_page(store=store, clock=lambda: NOW)
        assert shown(page)[0]["state"].startswith("In progress: 0 of 1 lesson done")
        download = re.search(r"href='data:text/csv;charset=utf-8;base64,([^']*)'",
                             page.files.download.value)
        assert download is not None
    handed_in = base64.b64decode(download.group(1))
    with Store(tmp_path / "teacher.sqlite3") as teacher:
        result = merge_files(teacher, [("Ana.csv", handed_in)])
        assert result.refused == [] and result.added == len(rows)
        assert teacher.attempts("Ana") == rows  # the tag kept, row for row
    link("lang=en&student=Ana")
    with Store(tmp_path / "new-binder.sqlite3") as fresh:
        again = lessons_page(store=fresh, clock=lambda: NOW)
        again.load([("my-progress.csv", handed_in)])
        assert fresh.attempts("Ana") == rows
    assert f"New answers loaded: {len(rows)}." in again.files.result.value


def test_the_play_page_tags_only_what_the_store_allows(
        link: Any, class_db: tuple[Path, dict[str, Any]], tmp_path: Path) -> None:
    """A hub student's store refuses another class's assignment: the game is not tagged and
    the page says so; their own class's is tagged, with its scaffolds setting whatever the
    link says; a damaged id is not tagged; no assignment: the lesson's own scaffolds."""
    db, made = class_db
    seen: dict[str, Any] = {}
    for name, query in [
            ("other", f"lesson=04-times&lang=en&assignment={made['other'].id}"),
            ("own", f"lesson=04-times&lang=en&assignment={made['progress'].id}&scaffolds=on"),
            ("damaged", "lesson=04-times&lang=en&assignment=%3Cb%3E&scaffolds=off"),
            ("plain", "lesson=04-times&lang=en")]:
        link(query)
        with Store(db, owner="Ana") as store:
            app = play_page(store=store, student="Ana")
            seen[name] = (session_assignment(app.session.session_id),
                          bool(app.session.plan.scaffolds), unescape(app.status.value))
            app.session.close()
    assert seen["other"][:2] == (None, True)
    assert ("This link's assignment is for another class, so this game does not count for "
            "it") in seen["other"][2]
    assert seen["own"][:2] == (made["progress"].id, False)  # the store's "off", not "on"
    assert seen["damaged"][:2] == (None, False)
    assert "damaged (its id), so this game does not count for it" in seen["damaged"][2]
    assert seen["plain"][:2] == (None, True)  # 04-times's own blanks


def test_the_hubs_store_client_out_of_reach_breaks_neither_page(
        link: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """A hub student's pages talk to the class's store service (``ServiceStore``; here its
    progress rows answer, none yet, and the assignments' requests find no service): the
    lessons page still lists every lesson and says in a sentence why it shows no
    assignment (not the link's instead: on a hub only the store's row counts); the play
    page opens; neither fails in a way nobody foresaw (which the server's log would show)."""
    import io
    import sys

    from tutor.storage.store import ServiceStore
    from tutor.ui.shared.panel import LOGGED

    log = io.StringIO()
    monkeypatch.setattr(sys, "__stderr__", log)
    monkeypatch.setattr(ServiceStore, "attempts", lambda self, student=None: [])
    a = make(["04-times"], "Week 12")
    link("lang=en&" + urlencode(assignment_query(a)))
    store = ServiceStore("http://127.0.0.1:9/services/leonard-store/", token="t", owner="Ana",
                         busy_timeout=0.1, retries=0)
    page = lessons_page(store=store, student="Ana", clock=lambda: NOW)
    assert len(re.findall(r"class='ld-lesson-link'", page.lesson_list.value)) == len(LESSONS)
    (said,) = page_notes(page)
    assert said.startswith("Your assignments cannot be shown right now (The class's store "
                           "cannot be reached now")
    assert shown(page) == [] and "Week 12" not in page.assignments.value
    link(f"lesson=04-times&lang=en&assignment={a.id}")
    app = play_page(store=store, student="Ana")
    assert "Something went wrong" not in app.status.value
    assert LOGGED not in log.getvalue()


def _end_links(app: Any, lesson: str) -> dict[str, Any]:
    """The links the lesson's end shows on ``app``'s page once ``lesson`` is over: the way
    the page reaches it (its round-end panel's ``onward``, from the page's link)."""
    from tutor.course.lesson_end import LessonSummary
    from tutor.ui.play.round_end import lesson_end_html

    following = app.session.next_lesson()
    summary = LessonSummary(lesson, "Ana", "en", "mastered", (), questions=9, rounds=2,
                            minutes=8.0)
    out = lesson_end_html(summary, "en", next_lesson=following[0] if following else None,
                          next_title=following[1] if following else "",
                          onward=app.round_end.onward)
    back = re.search(r"class='ld-lessons-link' href='([^']+)'", out)
    nxt = re.search(r"class='ld-next-lesson-link' data-lesson='([^']+)' href='([^']+)'", out)
    return {"html": unescape(out), "back": unescape(back.group(1)) if back else None,
            "next": (nxt.group(1), unescape(nxt.group(2))) if nxt else None}


def test_an_assignments_lesson_ends_on_its_next_lesson_and_leads_back_to_it(
        link: Any, tmp_path: Path) -> None:
    """Issue 52, part 2, on Binder (no store knows the assignment): after 01-other-end the
    page offered the curriculum's 02-plus, and "back to the lessons" dropped the assignment
    and the class, so the lessons page lost "Your assignments" and the progress file its
    class code. Now the end offers the assignment's next lesson, then "Assignment done", and
    the way back keeps the assignment, the class and the student."""
    a = make(["01-other-end", "04-times"], "Week 12")
    link(urlencode({**assignment_query(a), "lang": "en"}))
    db = tmp_path / "binder.sqlite3"
    with Store(db) as store:
        page = lessons_page(store=store, clock=lambda: NOW)
        page.name("Ana", "6B")
        first_href = shown(page)[0]["lessons"][0][1]
    link(urlsplit(first_href).query)
    app = play_page(store=str(db))
    end = _end_links(app, "01-other-end")
    assert end["next"] is not None
    lesson, href = end["next"]
    assert lesson == "04-times"  # not the curriculum's 02-plus
    assert {k: query_of(href)[k] for k in ("lesson", "assignment", "class", "student")} == {
        "lesson": "04-times", "assignment": a.id, "class": "6B", "student": "Ana"}
    back = query_of(end["back"])
    assert urlsplit(end["back"]).path == "Lessons.ipynb"
    assert {k: back[k] for k in ("assignment", "class", "student", "lang")} == {
        "assignment": a.id, "class": "6B", "student": "Ana", "lang": "en"}
    # The lessons page it leads back to lists the assignment (from the link alone) and names
    # the progress file with the class code.
    link(urlsplit(end["back"]).query)
    app.session.close()
    with Store(db) as store:
        again = lessons_page(store=store, clock=lambda: NOW)
        assert [g["id"] for g in shown(again)] == [a.id]
        assert "leonard-progress-Ana-6B.csv" in again.files.download.value
    # The next lesson is the assignment's last: its end says the assignment is done.
    link(urlsplit(href).query)
    last = play_page(store=str(db))
    end = _end_links(last, "04-times")
    assert end["next"] is None
    assert "Assignment done" in end["html"]
    assert query_of(end["back"])["assignment"] == a.id
    last.session.close()


def test_outside_an_assignment_the_lesson_end_keeps_the_class_code(link: Any,
                                                                    tmp_path: Path) -> None:
    """The lesson's end outside an assignment offers the curriculum's next lesson, and both
    of its links keep the class code the page was opened with (the lessons page names the
    progress file with it)."""
    link("lesson=01-other-end&lang=en&student=Ana&class=6B")
    app = play_page(store=str(tmp_path / "p.sqlite3"))
    end = _end_links(app, "01-other-end")
    assert end["next"] is not None and end["next"][0] == "02-plus"
    assert query_of(end["next"][1])["class"] == "6B"
    assert query_of(end["back"])["class"] == "6B"
    app.session.close()
