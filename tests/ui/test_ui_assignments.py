"""The teacher page's assignments as widgets (issue 45): a teacher makes one with a few fields
and gets the link to send, edits it, closes it and opens it again; every bad input (a past
due date, a date that is not one, an empty roster, names given twice, a lesson removed after
it was assigned, a link edited by hand) is said in a sentence and nothing typed is lost; the
table says who is done, in progress or not started, from games really played, and agrees
with the class table; files that are not the assignment's are named, not mixed in."""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Callable
from datetime import datetime, timezone
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlencode

from test_ui_pages import downloaded, upload

from tutor.classroom.assignments import (
    assignment_csv,
    assignment_query,
    assignment_table,
    read_assignment,
)
from tutor.classroom.link import read_link
from tutor.classroom.overview import class_table
from tutor.storage.class_rows import Assignment
from tutor.storage.store import Store
from tutor.ui import teacher_page

NOW = datetime(2026, 12, 7, 9, 0, tzinfo=timezone.utc)


def _page(link: Any, store: Store | None, query: str = "lang=en&class=6B") -> Any:
    link(query)
    return teacher_page(store=store, clock=lambda: NOW)


def _fill(panel: Any, *, title: str = "Week 12: times", lessons: tuple[str, ...] = ("04-times",),
          due: str = "2026-12-11", time: str = "15:00") -> None:
    panel.title_in.value = title
    for lesson in lessons:
        panel.lesson_dd.value = lesson  # choosing a lesson adds it, in order
    panel.due_date.value, panel.due_time.value = due, time


def _form(panel: Any) -> tuple[str, ...]:
    return (panel.class_in.value, panel.title_in.value, panel.lessons_in.value,
            panel.due_date.value, panel.due_time.value)


def _text(html_text: str) -> str:
    return re.sub(r"<[^>]+>", " ", html_text).replace("&#x27;", "'")


def test_a_teacher_makes_an_assignment_gets_its_link_edits_and_closes_it(
        link: Any, tmp_path: Path) -> None:
    with Store(tmp_path / "class.sqlite3") as store:
        page = _page(link, store)
        panel = page.assignments
        assert panel.class_in.value == "6B"  # the page's class code, prefilled
        assert not panel.settings.selected_index  # the settings are folded away
        _fill(panel, lessons=("04-times", "06-doubles"))
        assert panel.lessons_in.value == "04-times, 06-doubles"
        panel.save_btn.click()
        (a,) = store.assignments()
        assert (a.class_code, a.title, a.lessons, a.due) == (
            "6B", "Week 12: times", ("04-times", "06-doubles"), "2026-12-11T15:00")
        # The link to send: the lessons page, carrying the assignment whole.
        assert panel.link_out.value == "Lessons.ipynb?" + urlencode(assignment_query(a))
        assert "Send your class this link" in panel.result.value
        query = panel.link_out.value.split("?", 1)[1]
        carried, notes = read_assignment(read_link(query, env={}).values, ["04-times",
                                                                           "06-doubles"])
        assert carried == a and notes == []
        # Edit: the same form, the same id and link; one row.
        panel.new_btn.click()
        assert _form(panel) == ("6B", "", "", "", "")
        panel.edit_btn.click()
        assert _form(panel) == ("6B", "Week 12: times", "04-times, 06-doubles", "2026-12-11",
                                "15:00")
        panel.title_in.value = "Week 12: times and doubles"
        assert panel.save_btn.description == "Save the changes"
        panel.save_btn.click()
        (edited,) = store.assignments()
        assert (edited.id, edited.title) == (a.id, "Week 12: times and doubles")
        # Close it (students no longer see it), then open it again.
        panel.close_btn.click()
        assert store.assignments()[0].closed and panel.close_btn.description == "Reopen"
        assert "closed" in panel.pick_dd.options[0][0]
        panel.close_btn.click()
        assert not store.assignments()[0].closed and panel.close_btn.description == "Close"


def test_bad_assignments_are_said_in_a_sentence_and_the_form_keeps_what_was_typed(
        link: Any, tmp_path: Path) -> None:
    with Store(tmp_path / "class.sqlite3") as store:
        page = _page(link, store)
        panel = page.assignments
        for due, time, said in [
                ("2026-12-01", "15:00", "The due date 2026-12-01 15:00 (UTC) has already "
                                        "passed; choose a later one."),
                ("2026-02-30", "", 'The due date "2026-02-30" and time "" are not a date and '
                                   "time; write them as 2026-12-11 and 15:00."),
                ("next friday", "15:00", 'The due date "next friday" and time "15:00" are not '
                                         "a date and time")]:
            _fill(panel, due=due, time=time)
            typed = _form(panel)
            panel.save_btn.click()
            assert said in _text(panel.result.value).replace("&quot;", '"')
            assert _form(panel) == typed  # nothing typed is lost
            assert store.assignments() == []
            panel.lessons_in.value = ""
        panel.lessons_in.value = "04-times, 99-nowhere"
        panel.title_in.value = "x" * 10_000
        panel.save_btn.click()
        assert "A title can have at most 120 characters; this one has 10000." in \
            _text(panel.result.value)
        assert panel.title_in.value == "x" * 10_000
        panel.title_in.value = "Week 12"
        panel.save_btn.click()
        assert 'There is no lesson "99-nowhere" here.' in _text(
            panel.result.value).replace("&quot;", '"')
        # The sentence follows the page's language, and the form stays as typed.
        typed = _form(panel)
        page.header.lang_toggle.value = "es"
        assert "Aquí no hay ninguna lección «99-nowhere»." in _text(panel.result.value)
        assert _form(panel) == typed and store.assignments() == []


def test_a_lesson_removed_after_it_was_assigned_is_named(link: Any, tmp_path: Path) -> None:
    with Store(tmp_path / "class.sqlite3") as store:
        store.save_assignment(Assignment(id="wk12abcd", class_code="6B", title="Week 12",
                                         lessons=("04-times", "77-removed")))
        page = _page(link, store)
        panel = page.assignments
        assert ("These lessons of the assignment are no longer here and are left out of its "
                "table: 77-removed.") in _text(panel.summary.value)
        panel.edit_btn.click()
        panel.save_btn.click()  # saving it again asks to leave the removed lesson out
        assert 'There is no lesson "77-removed" here.' in _text(
            panel.result.value).replace("&quot;", '"')
        assert panel.lessons_in.value == "04-times, 77-removed"
        assert store.assignment("wk12abcd") is not None


def test_a_roster_is_pasted_or_uploaded_and_bad_ones_are_refused_keeping_the_names(
        link: Any, tmp_path: Path) -> None:
    with Store(tmp_path / "class.sqlite3") as store:
        panel = _page(link, store).assignments
        assert panel.roster.roster_class.value == "6B"
        panel.roster.roster_in.value = "nombre\n\n   \n"
        panel.roster.roster_btn.click()
        assert "The roster is empty" in _text(panel.roster.roster_result.value)
        twice = "Ana\nana \nBeto\n"
        panel.roster.roster_in.value = twice
        panel.roster.roster_btn.click()
        assert ('These names are on the roster twice: "Ana" / "ana". Keep each student once; '
                'nothing was saved.') in _text(
                    panel.roster.roster_result.value).replace("&quot;", '"')
        assert panel.roster.roster_in.value == twice and store.roster("6B") == []
        # Names that only look alike are shown, never merged.
        panel.roster.roster_in.value = "Ana\nBeto\nCarla\nCarlo\n"
        panel.roster.roster_btn.click()
        assert store.roster("6B") == ["Ana", "Beto", "Carla", "Carlo"]
        said = _text(panel.roster.roster_result.value)
        assert "Saved the roster of 6B: 4 students." in said
        assert "look alike: check they are two students" in said and "“Carla” / “Carlo”" in said
        # Another class's roster: its names replace the box's; a CSV file gives its first
        # column, its title line skipped.
        panel.roster.roster_class.value = "6C"
        assert panel.roster.roster_in.value == ""
        upload(panel.roster.roster_upload,
               [("6C.csv", b'"nombre","grupo"\n"Dora","6C"\n"Eli","6C"\n')])
        assert store.roster("6C") == ["Dora", "Eli"]
        assert store.roster("6B") == ["Ana", "Beto", "Carla", "Carlo"]
        panel.roster.roster_class.value = "6B"
        assert panel.roster.roster_in.value == "Ana\nBeto\nCarla\nCarlo"


def test_a_link_edited_by_hand_opens_saying_what_it_left_out(link: Any, tmp_path: Path) -> None:
    with Store(tmp_path / "class.sqlite3") as store:
        panel = _page(link, store).assignments
        damaged = "Lessons.ipynb?assignment=no%20good!&class=6B&lessons=04-times"
        panel.paste_in.value = damaged
        panel.open_btn.click()
        assert "The assignment in this link is damaged" in _text(panel.paste_result.value)
        assert panel.paste_in.value == damaged and store.assignments() == []
        edited = ("https://school.example/voila/render/Lessons.ipynb?assignment=wk12abcd"
                  f"&class=6B&title={'t' * 10_000}&lessons=04-times,99-nowhere"
                  "&due=2026-13-45T15:00")
        panel.paste_in.value = edited
        panel.open_btn.click()
        said = _text(panel.paste_result.value).replace("&quot;", '"')
        assert "Opened" in said
        for note in ("keeping its first 120 characters",
                     'The lesson "99-nowhere" of this assignment is not here; it is left out.',
                     "The due date in the link is not a date"):
            assert note in said
        (a,) = store.assignments()  # saved to the page's store
        assert (a.id, a.lessons, a.due, len(a.title)) == ("wk12abcd", ("04-times",), "", 120)
        assert panel.shown == a and "wk12abcd" in panel.table.value + panel.summary.value


def _rows(table_html: str) -> list[list[str]]:
    body = table_html.split("<tbody>", 1)[1]
    return [[re.sub(r"<[^>]+>", "", c).strip() for c in
             re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", row)]
            for row in re.findall(r"<tr[^>]*>(.*?)</tr>", body)]


def test_the_table_says_who_is_done_in_progress_or_not_started_and_agrees_with_the_class(
        link: Any, tmp_path: Path, student_plays: Callable[..., None]) -> None:
    db = tmp_path / "class.sqlite3"
    with Store(db) as store:
        panel = _page(link, store).assignments
        _fill(panel)
        panel.save_btn.click()
        (a,) = store.assignments()
        panel.roster.roster_in.value = "Ana\nBeto\nCarla"
        panel.roster.roster_btn.click()
    student_plays("04-times", "Ana", db, seed=1, assignment=a.id)
    student_plays("04-times", "Beto", db, seed=2, rounds=1, wrong_every=2, assignment=a.id)
    student_plays("04-times", "Dora", db, seed=3, rounds=1)  # not of this assignment
    with Store(db) as store:
        page = _page(link, store)
        panel = page.assignments
        attempts = store.attempts()
        rows = _rows(panel.table.value)
        assert [(r[0], r[1], r[2], r[3]) for r in rows] == [
            ("Ana", "yes", "done", "1 / 1"), ("Beto", "yes", "in progress", "0 / 1"),
            ("Carla", "yes", "not started", "0 / 1")]
        assert rows[0][5] == "every target mastered" and rows[0][6] != "–"
        assert [r[5:7] for r in rows[1:]] == [["–", "–"], ["–", "–"]]
        assert "Done: 1 · In progress: 1 · Not started: 1 · Overdue: 0 · Stuck now: 0" in \
            _text(panel.summary.value)
        # The same as the class table: the targets mastered are its "Mastered: yes" rows.
        mastered = {(r.student, r.skill) for r in class_table(attempts) if r.mastered}
        table = panel.table_now()
        for row in table.rows:
            assert row.targets_mastered == sum((row.student, t) in mastered
                                               for t in page._lessons["04-times"].plan.targets)
        assert table.rows == assignment_table(a, ["Ana", "Beto", "Carla"], attempts,
                                              page._lessons, NOW).rows
        # Sorted by any column: by state, the other way on a second click.
        panel.sort_buttons["state"].click()
        assert [r[2] for r in _rows(panel.table.value)] == ["not started", "in progress",
                                                           "done"]
        panel.sort_buttons["state"].click()
        assert [r[2] for r in _rows(panel.table.value)] == ["done", "in progress",
                                                           "not started"]
        # The CSV download: the same table, named with the class code.
        got = downloaded(panel.csv_link.value, "ld-assign-csv").decode("utf-8")
        assert got == assignment_csv(table, "en")
        assert [r[0] for r in csv.reader(io.StringIO(got))][1:] == ["Ana", "Beto", "Carla"]
        assert f"download='assignment-{a.id}-6B.csv'" in panel.csv_link.value
        # In Spanish, the states in Spanish.
        page.header.lang_toggle.value = "es"
        assert [r[2] for r in _rows(panel.table.value)] == ["terminada", "en curso",
                                                           "sin empezar"]


def test_uploaded_files_not_of_the_assignment_are_named_not_mixed_in(
        link: Any, tmp_path: Path, student_plays: Callable[..., None]) -> None:
    """Binder: the teacher opens the assignment from its link, then uploads the class's
    files; Dora's file (not on the roster, not from the link) is named and left out of the
    assignment's table, and the class table still has her."""
    a_link = "Lessons.ipynb?assignment=wk12abcd&class=6B&title=Week+12&lessons=04-times"
    files = []
    for name, seed, tag in [("Ana", 1, "wk12abcd"), ("Eli", 4, "wk12abcd"), ("Dora", 3, None)]:
        db = tmp_path / f"{name}.sqlite3"
        student_plays("04-times", name, db, seed=seed, rounds=1, assignment=tag)
        with Store(db) as own:
            own.export_csv(tmp_path / f"{name}.csv", name)
        files.append((f"{name}.csv", (tmp_path / f"{name}.csv").read_bytes()))
    with Store(tmp_path / "teacher.sqlite3") as store:
        page = _page(link, store)
        panel = page.assignments
        panel.roster.roster_in.value = "Ana\nBeto"
        panel.roster.roster_btn.click()
        panel.paste_in.value = a_link
        panel.open_btn.click()
        upload(page.upload.upload, files)
        assert "Students in the files: 3." in page.upload.result.value
        assert [r[0] for r in _rows(panel.table.value)] == ["Ana", "Beto", "Eli"]
        others = _text(panel.summary.value)
        assert ("Dora.csv: its student is not on this class's list and played no lesson "
                "from this assignment's link.") in others
        assert "Ana.csv" not in others and "Eli.csv" not in others
        assert {r.student for r in page.rows} == {"Ana", "Eli", "Dora"}  # the class table


def test_a_store_that_refuses_says_why_and_keeps_the_form(link: Any, tmp_path: Path) -> None:
    """A store that is not the teacher's (one opened for a student) refuses to save an
    assignment or a roster: the page says the store's sentence, and the form keeps what was
    typed."""
    db = tmp_path / "class.sqlite3"
    Store(db).close()
    with Store(db, owner="ana") as store:
        panel = _page(link, store).assignments
        _fill(panel)
        typed = _form(panel)
        panel.save_btn.click()
        assert "Only a teacher can make or change" in _text(panel.result.value)
        assert _form(panel) == typed
        panel.roster.roster_in.value = "Ana\nBeto"
        panel.roster.roster_btn.click()
        assert "Only a teacher can make or change" in _text(panel.roster.roster_result.value)
        assert panel.roster.roster_in.value == "Ana\nBeto"
    with Store(db) as store:
        assert store.assignments() == [] and store.roster("6B") == []


def test_on_a_hub_the_roster_is_taken_from_a_group(link: Any, tmp_path: Path) -> None:
    """The hub's store (its service asks the hub for a group's members) offers the group
    box; a plain store hides it. The members become the roster, shown in the names box; a
    group the hub does not know is said, and the names typed stay."""
    from tutor.storage.records import StoreError

    class HubStore(Store):
        hub_groups = True

        def roster_from_group(self, group: str, class_code: str | None = None) -> list[str]:
            if group != "6b-hub":
                raise StoreError("The hub has no group {group}.", group=group)
            names = ["ana", "beto", "carla"]
            self.save_roster(class_code or group, names)
            return names

    with Store(tmp_path / "plain.sqlite3") as plain:
        assert _page(link, plain).assignments.roster.group_box.layout.display == "none"
    with HubStore(tmp_path / "hub.sqlite3") as store:
        panel = _page(link, store).assignments
        assert panel.roster.group_box.layout.display != "none"
        panel.roster.roster_in.value = "typed by hand"
        panel.roster.group_in.value = "6c-nope"
        panel.roster.group_btn.click()
        assert "The hub has no group 6c-nope." in _text(panel.roster.roster_result.value)
        assert panel.roster.roster_in.value == "typed by hand" and store.roster("6B") == []
        panel.roster.group_in.value = "6b-hub"
        panel.roster.group_btn.click()
        assert store.roster("6B") == ["ana", "beto", "carla"]
        assert panel.roster.roster_in.value == "ana\nbeto\ncarla"
        assert ("Saved the roster of 6B from the hub group 6b-hub: 3 students."
                in _text(panel.roster.roster_result.value))


SERVER = {"SERVER_NAME": "school.example", "SERVER_PORT": "8866",
          "SCRIPT_NAME": "/voila/render/notebooks/Teacher.ipynb"}


def _env(monkeypatch: Any, values: dict[str, str]) -> None:
    for name in ("SERVER_NAME", "SERVER_PORT", "SCRIPT_NAME", "JUPYTERHUB_SERVICE_PREFIX",
                 "JUPYTERHUB_BASE_URL", "BINDER_LAUNCH_HOST", "BINDER_REPO_URL",
                 "BINDER_REF_URL", "LEONARD_BINDER_REPO", "LEONARD_BINDER_REF"):
        monkeypatch.delenv(name, raising=False)
    for name, value in values.items():
        monkeypatch.setenv(name, value)


def test_the_link_to_send_is_this_servers_whole_address_with_copy_and_qr(
        link: Any, tmp_path: Path, monkeypatch: Any) -> None:
    """Issue 52, part 1: "Link to send" was a relative path a teacher could not send. On a
    server it is the server's whole address (the browser's origin once the page reports it:
    https behind a proxy), the Copy button copies that, and its QR code is named for screen
    readers."""
    _env(monkeypatch, SERVER)
    with Store(tmp_path / "class.sqlite3") as store:
        panel = _page(link, store).assignments
        _fill(panel)
        panel.save_btn.click()
        (a,) = store.assignments()
        query = urlencode(assignment_query(a))
        assert panel.link_out.value == (
            "http://school.example:8866/voila/render/notebooks/Lessons.ipynb?" + query)
        assert panel.links.copy.text == panel.link_out.value
        assert panel.links.copy.button_label == "Copy"
        assert "This server's address" in _text(panel.links.where.value)
        qr = panel.links.qr.value
        assert "<svg role=\"img\" aria-label=\"QR code of the link to send" in qr
        assert "<path" in qr
        # The page's own origin, as the browser tells it (https through the proxy).
        panel.links.copy.origin = "https://school.example"
        assert panel.link_out.value == (
            "https://school.example/voila/render/notebooks/Lessons.ipynb?" + query)
        assert panel.links.copy.text == panel.link_out.value
        # What the link carries is the assignment, read back whole.
        carried, notes = read_assignment(
            read_link(panel.link_out.value.split("?", 1)[1], env={}).values,
            ["04-times"])
        assert carried == a and notes == []


def test_on_a_hub_the_link_goes_through_user_redirect(link: Any, tmp_path: Path,
                                                        monkeypatch: Any) -> None:
    """On a class hub the teacher's page is on the teacher's own server: the link opens the
    lessons page on each student's server (``/hub/user-redirect/``), never the teacher's."""
    _env(monkeypatch, {"SERVER_NAME": "hub.school.example", "SERVER_PORT": "",
                       "SCRIPT_NAME": "/user/ms-ruiz/voila/render/notebooks/Teacher.ipynb",
                       "JUPYTERHUB_SERVICE_PREFIX": "/user/ms-ruiz/",
                       "JUPYTERHUB_BASE_URL": "/"})
    with Store(tmp_path / "class.sqlite3") as store:
        panel = _page(link, store).assignments
        panel.links.copy.origin = "https://hub.school.example"
        _fill(panel)
        panel.save_btn.click()
        assert panel.link_out.value.startswith(
            "https://hub.school.example/hub/user-redirect/voila/render/notebooks/"
            "Lessons.ipynb?assignment=")
        assert "ms-ruiz" not in panel.link_out.value
        assert "through the hub" in panel.links.where.value


def test_on_binder_the_link_is_a_binder_link_saying_what_it_was_made_from(
        link: Any, monkeypatch: Any) -> None:
    """On Binder the server's address is the teacher's temporary one: the link to send starts
    a Binder session of the repository at the ref this one was built from, the page says so,
    and the Binder link pasted back opens the assignment."""
    _env(monkeypatch, {**SERVER, "BINDER_LAUNCH_HOST": "https://mybinder.org/",
                       "BINDER_REPO_URL": "https://github.com/school/leonard",
                       "BINDER_REF_URL": "https://github.com/school/leonard/tree/4f2a9c1"})
    panel = _page(link, None).assignments
    _fill(panel)
    a = panel.save()
    assert a is not None
    query = urlencode(assignment_query(a))
    assert panel.link_out.value == (
        "https://mybinder.org/v2/gh/school/leonard/4f2a9c1?urlpath="
        + quote("voila/render/notebooks/Lessons.ipynb?" + query, safe=""))
    where = _text(panel.links.where.value)
    assert "github.com/school/leonard at 4f2a9c1" in where
    assert "BINDER_REPO_URL, BINDER_REF_URL" in where
    panel.paste_in.value = panel.link_out.value
    assert panel.open_link() == a
    # Without a repository named, the page says which setting to give.
    _env(monkeypatch, {"BINDER_LAUNCH_HOST": "https://mybinder.org/"})
    panel.new_btn.click()
    _fill(panel, title="Week 13")
    panel.save_btn.click()
    assert "LEONARD_BINDER_REPO" in panel.links.where.value
    assert panel.links.qr.value == ""  # no QR code of a link that cannot open


def test_after_save_a_second_assignment_is_new_and_editing_is_explicit(
        link: Any, tmp_path: Path) -> None:
    """Issue 52, part 5: after Save the form stayed in edit mode, and a second assignment
    typed into it replaced the first under the same id. Now Save says "Saved" (pressing it
    again saves nothing), typing makes a new assignment, and only Edit changes one."""
    with Store(tmp_path / "class.sqlite3") as store:
        panel = _page(link, store).assignments
        _fill(panel)
        panel.save_btn.click()
        (first,) = store.assignments()
        assert panel.save_btn.description == "Saved" and panel.save_btn.disabled
        assert "New assignment" in _text(panel.result.value)
        panel.save_btn.click()  # a second press saves nothing
        assert len(store.assignments()) == 1
        # The teacher types a second assignment over the first without pressing New.
        panel.title_in.value = "Week 13: doubles"
        assert panel.save_btn.description == "Save the assignment"
        assert not panel.save_btn.disabled
        assert panel.link_out.value == ""  # the first one's link is not shown for it
        panel.lessons_in.value = "06-doubles"
        panel.save_btn.click()
        made = {a.id: a for a in store.assignments()}
        assert len(made) == 2 and made[first.id] == first
        (second,) = [a for a in made.values() if a.id != first.id]
        assert (second.title, second.lessons) == ("Week 13: doubles", ("06-doubles",))
        # Editing is the Edit button's: it changes the one shown, keeping its id.
        panel.edit_btn.click()
        assert panel.save_btn.description == "Save the changes"
        panel.title_in.value = "Week 13: doubles and squares"
        panel.save_btn.click()
        made = {a.id: a for a in store.assignments()}
        assert len(made) == 2 and made[second.id].title == "Week 13: doubles and squares"
        assert made[first.id] == first


def test_a_lesson_the_builder_saves_is_offered_at_once(link: Any, tmp_path: Path,
                                                       monkeypatch: Any) -> None:
    """Issue 52, part 5: a lesson made with the lesson builder on the same page appeared in
    *Add a lesson* only after Refresh."""
    monkeypatch.setenv("LEONARD_LESSONS", str(tmp_path / "lessons"))
    with Store(tmp_path / "class.sqlite3") as store:
        page = _page(link, store)
        b = page.builder
        b.id_in.value = "my-squares"
        b.title_en.value, b.title_es.value = "My squares", "Mis cuadrados"
        b.about_en.value, b.about_es.value = "Squares.", "Cuadrados."
        b.skill_cbs["multiply"].value = True
        assert b.save() is not None
        options = [value for _label, value in page.assignments.lesson_dd.options]
        assert "my-squares" in options
        page.assignments.lesson_dd.value = "my-squares"
        assert page.assignments.lessons_in.value == "my-squares"


def test_the_builders_server_link_is_made_as_the_link_to_send(link: Any, tmp_path: Path,
                                                                monkeypatch: Any) -> None:
    """Issue 52: the builder's "Link for this server" was guessed from the kernel's request
    (http behind an https proxy) while the assignment's came from the browser's origin; both
    are made from the origin now."""
    _env(monkeypatch, SERVER)
    monkeypatch.setenv("LEONARD_LESSONS", str(tmp_path / "lessons"))
    with Store(tmp_path / "class.sqlite3") as store:
        page = _page(link, store)
        page.assignments.links.copy.origin = "https://school.example"  # the browser's
        b = page.builder
        b.id_in.value = "my-squares"
        b.title_en.value, b.title_es.value = "My squares", "Mis cuadrados"
        b.skill_cbs["multiply"].value = True
        assert b.save() is not None
        found = re.search(r"<a class='ld-built-voila' href='([^']*)'", b.result.value)
        assert found is not None and found[1].replace("&amp;", "&") == (
            "https://school.example/voila/render/notebooks/Play.ipynb?lesson=my-squares&lang=en")


def test_with_no_answers_the_next_steps_do_not_say_everything_is_mastered(
        link: Any, tmp_path: Path) -> None:
    """Issue 52, part 5: an empty class read "Nothing to do: every skill asked is
    mastered."."""
    with Store(tmp_path / "class.sqlite3") as store:
        page = _page(link, store)
        text = _text(page.next_steps.table.value)
        assert "mastered" not in text
        assert "No answers yet" in text


def test_the_next_steps_show_the_whole_address_to_send(link: Any, tmp_path: Path,
                                                       monkeypatch: Any) -> None:
    """Issue 52: the next steps' "Link to send" showed a relative path, no link to paste in a
    message. Under each link is now the whole address, as the assignment's link box makes it
    (the browser's origin once the page reports it), with the student's name and class; the
    link itself still opens the lesson beside this page."""
    _env(monkeypatch, SERVER)
    with Store(tmp_path / "class.sqlite3") as store:
        session = store.start_session("Bea")
        for k in range(3):
            store.record_attempt("Bea", session, lesson="04-times", problem=f"p{k}",
                                 step="gain", outcome="INCORRECT", input_text="7",
                                 kc="multiply", expected=12, answered=7,
                                 time=f"2026-12-07T08:5{k}:00+00:00")
        page = _page(link, store)
        relative = "Play.ipynb?lesson=04-times&lang=en&student=Bea&class=6B"
        row = page.next_steps.table.value.split("data-student='Bea' data-skill='multiply'")[1]
        assert f"href='{relative.replace('&', '&amp;')}'" in row
        code = re.search(r"<code class='ld-next-href'>([^<]*)</code>", row)
        assert code is not None and code[1].replace("&amp;", "&") == (
            "http://school.example:8866/voila/render/notebooks/" + relative)
        page.assignments.links.copy.origin = "https://school.example"  # the browser's
        row = page.next_steps.table.value.split("data-student='Bea' data-skill='multiply'")[1]
        code = re.search(r"<code class='ld-next-href'>([^<]*)</code>", row)
        assert code is not None and code[1].replace("&amp;", "&") == (
            "https://school.example/voila/render/notebooks/" + relative)
