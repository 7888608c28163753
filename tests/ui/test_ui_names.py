"""Issue 33 part 1, "every student has a name", and its small fixes, as widgets (no browser):
the name form of a page opened without a student, the name in the page's state, its link and
every file downloaded, the teacher's refusals of nameless and same-named files; the hint
button after the last rung (docs/rules.md §4: a hint is evidence, so it is saved once), the score
sheet's columns in words (docs/rules.md §2), the upload's count, and the focus after a move."""

from __future__ import annotations

import base64
import csv
import io
import re
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import pytest
from ui_views import browser_sends

from tests import driving as drive
from tests.playing import play_to_question
from tutor.classroom.link import page_link, read_link
from tutor.classroom.overview import ClassFiles, merge_files
from tutor.session.session import Session
from tutor.storage.records import Attempt, Outcome
from tutor.storage.store import Store
from tutor.storage.store_files import write_csv
from tutor.teaching.hints import hint_ladder
from tutor.ui import TutorApp, dashboard, lessons_page, play_page
from tutor.ui.play.moves import CHOICE, MOVES_GROUP
from tutor.ui.play.sheet import SHEET_MARKS, column_name, readable_sheet_html
from tutor.ui.shared.name_form import NAME_INPUT, read_name
from tutor.ui.shared.uploads import ProgressUpload

FIXED_TIME = datetime(2026, 1, 5, 9, 0, tzinfo=timezone.utc)


def _find(widget: Any, cls: str) -> list[Any]:
    found, stack = [], [widget]
    while stack:
        w = stack.pop()
        if cls in getattr(w, "_dom_classes", ()):
            found.append(w)
        stack.extend(getattr(w, "children", ()) or ())
    return found


def _downloaded(html_text: str, css_class: str) -> tuple[str, bytes]:
    """The name and the bytes of the file a data: link of class ``css_class`` downloads."""
    m = re.search(rf"class='[^']*{css_class}[^']*' download='([^']*)' "
                  r"href='data:text/\w+;charset=utf-8;base64,([^']*)'", html_text)
    assert m, html_text[:300]
    return m.group(1), base64.b64decode(m.group(2))


# --- the play page asks for a name ------------------------------------------------------------


def test_the_play_page_without_a_student_asks_before_the_game_starts(link: Any,
                                                                     tmp_path: Path) -> None:
    link("lesson=free-play&lang=en&seed=3")
    with Store(tmp_path / "p.sqlite3") as store:
        app = play_page(store=store)
        # The form alone: the board, the setup and the sheet wait; the bots do not move and
        # nothing is saved under "anon".
        assert app.asking and app.name_form.layout.display is None
        assert {app.main_area.layout.display, app.setup.layout.display,
                app.sheet.layout.display} == {"none"}
        assert app.access.focus_request["selector"] == NAME_INPUT
        assert app.session.store is None and app.session.round.log == app.session.game.round_events
        app.new_game()  # the header's button does nothing yet
        assert app.asking
        # One box for the name, one for the class code, one button; labelled for a screen
        # reader, in the page's language.
        attrs = app.access.attributes
        assert attrs[NAME_INPUT]["aria-label"] == "Your name"
        assert attrs[".ld-class-in input"]["aria-label"].startswith("Class code")
        assert attrs[".ld-name-form"]["role"] == "form"
        assert app.name_form.start_btn.description == "Start"

        app.name_form.start_btn.click()  # no name: the page says why and waits
        assert "Type your name" in app.name_form.problem.value and app.asking
        # The page's access layer hands in the text typed (the box's value may lag behind).
        browser_sends(app.access, {"event": "name", "value": "  Ana\tMaría ",
                                          "code": "6-B"})
        assert not app.asking and app.session.student == "Ana María"
        assert app.session.store is store and app.main_area.layout.display is None
        # The address bar's link will say it (access.js rewrites it), so a reload keeps it.
        assert (app.access.student, app.access.class_code) == ("Ana María", "6-B")
        assert app.session.legal_actions() or app.session.pending_question is not None
        assert "Welcome, Ana María" in app.status.value
        # A reload is the link with student= (and class=): the page does not ask again.
        link("lesson=free-play&lang=en&seed=3&student=Ana+Mar%C3%ADa&class=6-B")
        again = play_page(store=store)
        assert not again.asking and again.session.student == "Ana María"
        assert again.class_code == "6-B" and again.name_form.layout.display == "none"
        app.session.flush()
        assert store.students() == ["Ana María"]


def test_the_name_form_speaks_spanish_and_refuses_anon(link: Any) -> None:
    link("lang=es&seed=3")
    app = play_page()
    assert app.name_form.name_in.description == "Tu nombre"
    assert app.access.attributes[NAME_INPUT]["aria-label"] == "Tu nombre"
    app.name_form.hand_in("anon", "")
    assert "«anon»" in app.name_form.problem.value and app.asking
    app.set_lang("en")
    assert app.name_form.name_in.description == "Your name"
    assert read_name("anon (B)", "", "en").problem.startswith("“anon (B)”")
    assert read_name("\x1b\x07 \t", "", "en").problem.startswith("Type your name")
    assert read_name("x" * 100, "c" * 100, "en") == read_name("x" * 60, "c" * 30, "en")


def test_no_form_with_a_student_on_a_hub_or_for_scripts(link: Any,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    link("lang=en&seed=3&student=beto")
    assert not play_page().asking
    link("lang=en&seed=3")
    monkeypatch.setenv("JUPYTERHUB_USER", "alumna-7")
    app = play_page()
    assert not app.asking and app.session.student == "alumna-7"
    monkeypatch.delenv("JUPYTERHUB_USER")
    assert not dashboard(seed=3).asking  # the Python call plays at once, as before


def test_every_download_carries_the_name(link: Any, tmp_path: Path) -> None:
    link("lesson=free-play&lang=en&seed=3")
    with Store(tmp_path / "p.sqlite3") as store:
        app = play_page(store=store)
        app.name_form.name_in.value = "Ana María"
        app.name_form.class_in.value = "6B"
        app.name_form.start_btn.click()
        s = app.session
        q = play_to_question(app)  # to the first question, answered right
        assert q is not None
        app.submit(str(q.expected))
        s.flush()
        app.sheet.selected_index = 1
        name, data = _downloaded(app.progress_html.value, "ld-progress-download")
        assert name == "leonard-progress-Ana_María-6B.csv"
        rows = list(csv.DictReader(io.StringIO(data.decode("utf-8"))))
        assert rows and {r["student"] for r in rows} == {"Ana María"}
        app.sheet.selected_index = 0
        assert "download='leonard-round-1-Ana_María-6B.csv'" in app.sheet_links.value
        m = re.search(r"download='leonard-round-1-Ana_María-6B.html' "
                      r"href='data:text/html;charset=utf-8;base64,([^']*)'",
                      app.sheet_links.value)
        assert m and "<title>Leonard · Ana María</title>" in base64.b64decode(
            m.group(1)).decode("utf-8")


# --- the lessons page -------------------------------------------------------------------------


def test_the_lessons_page_asks_and_its_links_carry_the_name(link: Any, tmp_path: Path) -> None:
    link("lang=en")
    with Store(tmp_path / "p.sqlite3") as store:
        page = lessons_page(store=store)
        assert page.asking and page.lesson_list.layout.display == "none"
        assert page.access.focus_request["selector"] == NAME_INPUT
        browser_sends(page.access, {"event": "name", "value": "Ana María",
                                           "code": "6B"})
        assert not page.asking and page.student == "Ana María"
        assert page.access.student == "Ana María"
        hrefs = re.findall(r"href='([^']*)'", page.lesson_list.value)
        assert hrefs and all(h.endswith("&student=Ana+Mar%C3%ADa&amp;class=6B")
                             or h.endswith("student=Ana+Mar%C3%ADa&class=6B")
                             for h in (x.replace("&amp;", "&") for x in hrefs)), hrefs[:2]
    link("lang=en&student=beto")
    assert not lessons_page(store=None).asking


def test_a_loaded_file_names_the_lessons_page(link: Any, tmp_path: Path) -> None:
    link("lang=en")
    with Store(tmp_path / "own.sqlite3") as own:
        sid = own.start_session("carla")
        own.record_attempt("carla", sid, lesson="01-other-end", problem="p1", step="gain",
                           outcome="CORRECT", input_text="5", feedback="correct",
                           kc="other-end", first_attempt=True, expected=5, answered=5,
                           time="2026-01-05T09:00:00+00:00")
        own.export_csv(tmp_path / "carla.csv", student="carla")
    with Store(tmp_path / "fresh.sqlite3") as fresh:
        page = lessons_page(store=fresh)
        assert page.asking
        page.load([("carla.csv", (tmp_path / "carla.csv").read_bytes())])
        assert not page.asking and page.student == "carla" and page.access.student == "carla"


def test_links_between_pages_carry_a_known_student() -> None:
    from tutor.course.builder import lesson_links

    assert page_link("Play.ipynb", lesson="a", student="anon (B)") == "Play.ipynb?lesson=a"
    assert page_link("Play.ipynb", lesson="a", student="ana", class_code="6B") == \
        "Play.ipynb?lesson=a&student=ana&class=6B"
    links = lesson_links("tabla-6", "en", env={}, student="ana", class_code="6B")
    assert links["relative"] == "Play.ipynb?lesson=tabla-6&lang=en&student=ana&class=6B"
    assert "student%3Dana" in links["binder"]
    assert lesson_links("tabla-6", "en", env={})["relative"] == "Play.ipynb?lesson=tabla-6&lang=en"
    assert read_link("student=ana&class=%206B%0A", env={}).class_code == "6B"
    assert read_link("class=6B", env={}).class_code == "6B"


# --- the teacher's merge ----------------------------------------------------------------------


def _file(tmp_path: Path, student: str, session: str, n: int = 2,
          seconds: float = 3.0) -> tuple[str, bytes]:
    """``student``'s file of ``n`` right answers in ``session``, each taking ``seconds`` (two
    students' answers never take the same time to the microsecond: the same answers with
    the same seconds are one student's copied, :mod:`tutor.classroom.hand_in`)."""
    rows = [Attempt(student=student, session=session, time=f"2026-01-05T09:0{i}:00+00:00",
                    lesson="01-other-end", problem=f"p{i}", step="gain", outcome=Outcome.CORRECT,
                    input="5", feedback="correct", kc="other-end", attempt_at_step=1,
                    first_attempt=True, hints=0, duration=seconds + i / 7, expected=5,
                    answered=5)
            for i in range(n)]
    path = tmp_path / f"{student}-{session}.csv"
    write_csv(path, rows)
    return path.name, path.read_bytes()


def test_the_teacher_refuses_nameless_files_and_two_students_under_one_name(
        tmp_path: Path) -> None:
    anon = _file(tmp_path, "anon", "s-anon")
    ana1 = _file(tmp_path, "ana", "s-1")
    ana2 = _file(tmp_path, "ana", "s-2", seconds=4.125)  # another "ana": no session in common
    beto = _file(tmp_path, "beto", "s-3")
    with Store(tmp_path / "class.sqlite3") as store:
        result = merge_files(store, [anon, ana1, ana2, beto], "en")
        assert result.students == {"ana", "beto"} and result.added == 4
        assert len(result.refused) == 2
        assert result.refused[0].startswith("anon-s-anon.csv holds answers without a "
                                            "student's name (“anon”)")
        assert "ana-s-2.csv and ana-s-1.csv both hold answers of “ana”" in result.refused[1]
        assert {a.session for a in store.attempts("ana")} == {"s-1"}
        # Uploaded on its own (the teacher knows it is one student's), it is taken.
        again = merge_files(store, [ana2], "es")
        assert again.added == 2 and not again.refused
    assert ClassFiles().problem("empty.csv", []) is None


# --- the small things -------------------------------------------------------------------------


def test_the_hint_button_stops_at_the_last_rung_and_saves_each_rung_once(
        tmp_path: Path) -> None:
    """docs/rules.md §4: hints are evidence (a hint before the first answer counts as wrong), so
    each rung is saved once; after the answer's rung the button is disabled."""
    with Store(tmp_path / "p.sqlite3") as store:
        app = TutorApp(session=Session(seed=3, lang="en", student="ana", store=store))
        s = app.session
        for _ in range(300):
            if s.pending_question is not None:
                break
            app.play(s.legal_actions()[0])
            app.run_steps()
        q = s.pending_question
        assert q is not None and not app.hint_btn.disabled
        ladder = hint_ladder(q, "en")
        for _rung in ladder:
            app.hint_btn.click()
        assert app.hint_btn.disabled and ladder[-1].reveals
        app.hint()  # the H key, pressed again
        s.asker.hint()  # and the session asked directly
        s.flush()
        hints = [a for a in store.attempts("ana") if a.outcome == "HINT"]
        assert [a.feedback for a in hints] == [f"hint-{h.level}" for h in ladder]
        app.reveal_btn.click()  # the next question's button is enabled again
        if s.pending_question is not None:
            assert not app.hint_btn.disabled


def test_the_score_sheet_names_its_columns_and_explains_its_marks() -> None:
    """docs/rules.md §2: the seed's abbreviations stay, in brackets, after words a child reads."""
    assert column_name("#", "en") == "Turn"
    assert column_name("A", "en") == "A: play"
    assert column_name("+a", "en") == "A: points won (+a)"
    assert column_name("-b", "es") == "B: puntos perdidos (−b)"
    assert column_name("Σa", "en") == "A: score (Σa)"
    assert column_name("Σac", "en") == "pair AC: score (Σac)"
    s = drive.start(Session(seed=3, lang="en"))
    for _ in range(5):
        if s.pending_question is not None:
            drive.reveal(s)
        elif s.legal_actions():
            drive.play(s, s.legal_actions()[0])
    sheet = s.snapshot(sheet=True).sheet
    out = readable_sheet_html(sheet, "Round 1", "en")
    heads = re.findall(r'<th scope="col">([^<]*)</th>', out)
    assert heads == [column_name(h, "en") for h in sheet.header]
    assert "+a" not in heads and "A: points won (+a)" in heads
    assert out.count("<dt>") == len(SHEET_MARKS) and "the best play on offer" in out
    for mark, _words in SHEET_MARKS:
        assert f"<code>{mark}</code>" in out


def test_the_upload_button_counts_the_files_chosen() -> None:
    """The button's caption is "Upload progress files (N)", N the length of its value: it
    said "(0)" after 4 files, since the value was emptied once they were read."""
    upload = ProgressUpload(multiple=True)
    got: list[list[tuple[str, bytes]]] = []
    upload.on_files(lambda files: got.append(list(files)))
    chosen = tuple({"name": f"f{i}.csv", "type": "text/csv", "size": 1,
                    "content": memoryview(b"x"), "last_modified": FIXED_TIME} for i in range(4))
    upload.value = chosen
    assert got == [[(f"f{i}.csv", b"x") for i in range(4)]]
    # The caption's count stays 4; the contents are forgotten.
    assert len(upload.value) == 4 and {bytes(f["content"]) for f in upload.value} == {b""}
    upload.value = chosen  # the same files chosen again are read again
    assert len(got) == 2 and got[1] == got[0]


def test_after_a_move_button_the_focus_goes_to_the_moves_group() -> None:
    """A double Enter on a move button played a second tile: the focus went back to move 1.
    Now it goes to the group of moves, which Enter does not press, and stays there when the
    student's turn comes back."""
    app = dashboard(seed=3, lang="en")
    s = app.session
    for _ in range(300):
        if s.pending_question is not None:
            app.reveal_btn.click()
            continue
        if s.round.over:
            app.next_round()
            continue
        _find(app.moves, "ld-move")[0].click()
        if s.pending_question is None and not s.round.over:
            break
    request = app.access.focus_request
    assert request["selector"] == MOVES_GROUP and not request["soft"]
    assert app.access.attributes[MOVES_GROUP]["tabindex"] == "-1"
    # The student's turn is back (no pace: the bots played at once); the focus request was
    # not replaced by the first move's.
    assert s.current_player() is not None and app.access.focus_request["selector"] != CHOICE


# --- the class code in every download (issue 43, finding 7) -----------------------------------


def _download_names(widget: Any) -> list[str]:
    """The file names of every download link the page's widgets show (``download='…'``)."""
    names, stack = [], [widget]
    while stack:
        w = stack.pop()
        value = getattr(w, "value", None)
        if isinstance(value, str):
            names += re.findall(r"download='([^']*)'", value)
        stack.extend(getattr(w, "children", ()) or ())
    return sorted(names)


def test_every_page_names_its_downloads_with_the_class_code(link: Any, tmp_path: Path) -> None:
    """A link with ``class=6B`` (``Lessons.ipynb?student=Mateo&class=6B``, a reload of the
    play page, the teacher's ``Teacher.ipynb?class=6B``): every file its page offers to
    download is named with the class code (issue 43: the lessons page's progress file was
    ``leonard-progress-Mateo.csv``)."""
    from tutor.ui import teacher_page

    with Store(tmp_path / "p.sqlite3") as store:
        link("lesson=free-play&lang=en&seed=3&student=Mateo&class=6B")
        app = play_page(store=store)
        q = play_to_question(app)
        assert q is not None
        app.submit(str(q.expected))
        app.session.flush()
        app.sheet.selected_index = 1
        played = _download_names(app)
        app.sheet.selected_index = 0
        played += _download_names(app)
        assert sorted(set(played)) == ["leonard-progress-Mateo-6B.csv",
                                       "leonard-round-1-Mateo-6B.csv",
                                       "leonard-round-1-Mateo-6B.html"]

        link("lang=en&student=Mateo&class=6B")
        assert _download_names(lessons_page(store=store)) == ["leonard-progress-Mateo-6B.csv"]
        link("lang=en&student=Mateo")  # no class code: none in the name
        assert _download_names(lessons_page(store=store)) == ["leonard-progress-Mateo.csv"]

        link("lang=en&class=6B")
        assert _download_names(teacher_page(store=store)) == ["class-table-6B.csv"]
        link("lang=en")
        assert _download_names(teacher_page(store=store)) == ["class-table.csv"]


def test_a_play_link_with_a_class_but_no_name_keeps_the_class_in_its_downloads(
        link: Any, tmp_path: Path) -> None:
    """Issue 52, part 2: an assignment's play link for a student not named yet carries the
    class (``Play.ipynb?lesson=…&class=6B&assignment=…``); the play page asks the name with the
    class box already filled, so the progress file is still named with the class code (it
    was ``leonard-progress-Ana.csv`` unless the student typed the class again)."""
    link("lesson=free-play&lang=en&seed=3&class=6B")
    with Store(tmp_path / "p.sqlite3") as store:
        app = play_page(store=store)
        assert app.asking and app.name_form.class_in.value == "6B"
        app.name_form.name_in.value = "Ana"
        app.name_form.start_btn.click()
        q = play_to_question(app)
        assert q is not None
        app.submit(str(q.expected))
        app.session.flush()
        app.sheet.selected_index = 1
        assert _download_names(app) == ["leonard-progress-Ana-6B.csv"]
