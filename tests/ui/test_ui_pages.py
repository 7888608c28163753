"""The lessons page and the teacher page as widgets (no browser): the page-level hand-in round
trip, a class of 30 merged with the table matching the files, refused files in one line,
the lesson builder, the language switch, and the pages' shape (one module per panel)."""

from __future__ import annotations

import ast
import base64
import csv
import io
import json
import re
from datetime import datetime, timezone
from html import unescape
from pathlib import Path
from typing import Any

import pytest
from ui_views import cells, ui_module, ui_path

from tutor.classroom.overview import ClassRow, class_csv, class_table
from tutor.course.lessons import lesson_params
from tutor.storage.store import Store
from tutor.storage.store_files import read_attempts
from tutor.teaching.counts import student_counts
from tutor.teaching.replay import rebuild_mastery
from tutor.ui import lessons_page, teacher_page
from tutor.ui.shared.panel import pile_text
from tutor.ui.teacher.heat_map import heat_map_html

UI = Path(__file__).resolve().parents[2] / "tutor" / "ui"




def upload(widget: Any, files: list[tuple[str, bytes]]) -> None:
    """Choose ``files`` in a FileUpload, as the browser sends them (ipywidgets 8)."""
    widget.value = tuple(
        {"name": name, "type": "text/csv", "size": len(content), "content": memoryview(content),
         "last_modified": datetime.now(timezone.utc)} for name, content in files)


def downloaded(html_text: str, css_class: str) -> bytes:
    """The file a data: link of class ``css_class`` downloads."""
    m = re.search(rf"class='[^']*{css_class}[^']*'[^>]*href='data:text/csv;charset=utf-8;"
                  r"base64,([^']*)'", html_text)
    assert m, html_text[:300]
    return base64.b64decode(m.group(1))


def test_lessons_page_lists_every_lesson_with_a_link_to_play_it(link: Any,
                                                                 tmp_path: Path) -> None:
    link("lang=en&student=ana")
    with Store(tmp_path / "p.sqlite3") as store:
        page = lessons_page(store=store)
        html_text = page.lesson_list.value
    ids = re.findall(r"data-lesson='([^']+)'", html_text)
    assert ids[:8] == ["01-other-end", "02-plus", "03-minus", "04-times", "05-squares",
                       "06-doubles", "07-all-power", "08-full-match"]
    hrefs = re.findall(r"class='ld-lesson-link' href='([^']+)'", html_text)
    assert hrefs[3] == "Play.ipynb?lesson=04-times&amp;lang=en&amp;student=ana"
    assert "<caption>Lessons of ana</caption>" in html_text and "scope='col'" in html_text
    assert [c[-1] for c in cells(html_text)][:2] == ["not yet", "not yet"]


def test_download_then_load_on_a_new_server_loses_and_duplicates_nothing(
        link: Any, tmp_path: Path, class_files: list[tuple[str, bytes]]) -> None:
    """The hand-in round trip through the pages: the lessons page's "Download my progress"
    file, loaded with "Load my progress" on another server (a new Binder), brings back
    every answer once and the same lesson list; loading it again adds nothing."""
    name, content = class_files[0]
    student = name[:-4]
    link(f"lang=en&student={student}")
    with Store(tmp_path / "own.sqlite3") as own, Store(tmp_path / "binder.sqlite3") as fresh:
        (tmp_path / name).write_bytes(content)
        own.import_file(tmp_path / name)
        before = own.attempts(student)
        first = lessons_page(store=own)
        first.files.render(own, student, "en")
        handed_in = downloaded(first.files.download.value, "ld-progress-download")

        second = lessons_page(store=fresh)
        assert "not yet" in second.lesson_list.value and fresh.attempts() == []
        upload(second.files.upload, [("my-progress.csv", handed_in)])
        assert fresh.attempts(student) == before
        assert second.lesson_list.value == first.lesson_list.value  # same progress shown
        assert len(second.files.upload.value) == 1  # its caption counts the file chosen
        result = second.files.result.value
        assert f"New answers loaded: {len(before)}. Already here, so skipped: 0." in result

        upload(second.files.upload, [("my-progress.csv", handed_in)])
        assert fresh.attempts(student) == before
        assert (f"New answers loaded: 0. Already here, so skipped: {len(before)}."
                in second.files.result.value)


def test_a_refused_file_is_one_line_and_nothing_of_it_is_loaded(
        link: Any, tmp_path: Path, class_files: list[tuple[str, bytes]]) -> None:
    link("lang=es&student=student-00")
    with Store(tmp_path / "p.sqlite3") as store:
        page = lessons_page(store=store)
        upload(page.files.upload, [("notas.txt", b"student,session\n1,2\n")])
        upload(page.files.upload, [("otro.csv", class_files[1][1])])
        assert store.attempts() == []
    result = page.files.result.value
    assert "Traceback" not in result
    refused = re.findall(r"<li class='ld-msg'>(.*?)</li>", result)
    assert refused == ["otro.csv tiene el progreso de student-01, no de student-00. No se "
                       "cargó nada de él."]


def _made_right(content: bytes) -> bytes:
    """A progress file as a spreadsheet would leave it after a student made every wrong
    answer right (the seal column untouched: nobody can compute it in a spreadsheet)."""
    rows = list(csv.reader(io.StringIO(content.decode("utf-8"), newline="")))
    head = rows[0]
    for r in rows[1:]:
        if r[head.index("outcome")] == "INCORRECT":
            r[head.index("outcome")] = "CORRECT"
            r[head.index("feedback")] = "correct"
    out = io.StringIO()
    out.write(",".join(head) + "\n")
    csv.writer(out, quoting=csv.QUOTE_ALL, lineterminator="\n").writerows(rows[1:])
    return out.getvalue().encode("utf-8")


def test_the_teacher_page_refuses_an_edited_file_and_its_tables_stay_as_they_were(
        link: Any, tmp_path: Path, class_files: list[tuple[str, bytes]]) -> None:
    """Issue 41 part 5: a file edited in a spreadsheet is named in the upload's result, and
    the class table and the heat map do not move."""
    link("lang=es")
    name, content = class_files[1]
    with Store(tmp_path / "class.sqlite3") as store:
        page = teacher_page(store=store)
        upload(page.upload.upload, class_files[:3])
        table, heat = page.table.table.value, page.heat_map.map.value
        upload(page.upload.upload, [("copia.csv", _made_right(content))])
        assert page.table.table.value == table and page.heat_map.map.value == heat
        assert rebuild_mastery(store.attempts(name[:-4]), lesson_params()) == rebuild_mastery(
            read_attempts_of(content, tmp_path), lesson_params())
    refused = re.findall(r"<li class='ld-msg'>(.*?)</li>", page.upload.result.value)
    assert len(refused) == 1 and refused[0].startswith(
        "copia.csv se modificó después de que el tutor lo guardara: la línea ")
    assert "Respuestas nuevas cargadas: 0." in page.upload.result.value


def test_the_lessons_page_refuses_an_edited_file(link: Any, tmp_path: Path,
                                                 class_files: list[tuple[str, bytes]]) -> None:
    name, content = class_files[2]
    link(f"lang=en&student={name[:-4]}")
    with Store(tmp_path / "binder.sqlite3") as store:
        page = lessons_page(store=store)
        upload(page.files.upload, [("mine.csv", _made_right(content))])
        assert store.attempts() == []
    refused = re.findall(r"<li class='ld-msg'>(.*?)</li>", page.files.result.value)
    assert len(refused) == 1 and refused[0].startswith("mine.csv was changed after the tutor")
    assert "Load the file exactly as “Download my progress” gave it" in refused[0]


def read_attempts_of(content: bytes, folder: Path) -> list[Any]:
    (folder / "own.csv").write_bytes(content)
    return read_attempts(folder / "own.csv")


def test_a_page_without_a_name_shows_the_loaded_students_lessons(
        link: Any, tmp_path: Path, class_files: list[tuple[str, bytes]]) -> None:
    link("lang=en")
    with Store(tmp_path / "p.sqlite3") as store:
        page = lessons_page(store=store)
        assert "<caption>Your lessons</caption>" in page.lesson_list.value
        upload(page.files.upload, [class_files[2]])
        assert page.student == "student-02"
        assert "Lessons of student-02" in page.lesson_list.value
        assert "student=student-02" in page.lesson_list.value


def test_the_lesson_links_carry_the_name_before_they_show(link: Any, tmp_path: Path) -> None:
    """Issue 33: the browser applies the page's changes in order, so the list must be drawn
    with the name before it shows, and the address bar change last: a student who clicks a
    lesson the moment it appears opens it under their name, not at a page that asks again."""
    link("lang=en")
    with Store(tmp_path / "p.sqlite3") as store:
        page = lessons_page(store=store)
        seen: list[tuple[str, str]] = []
        page.lesson_list.layout.observe(
            lambda change: seen.append(("shown", page.lesson_list.value))
            if change["new"] != "none" else None, "display")
        page.access.observe(lambda change: seen.append(("address", change["new"])), "student")
        page.name_form.name_in.value = "Lía"
        page.name_form.start_btn.click()
    assert [what for what, _ in seen] == ["shown", "address"]
    assert "student=L%C3%ADa" in seen[0][1] and "Lessons of Lía" in seen[0][1]


def test_teacher_page_merges_a_class_of_30_and_its_table_matches_the_files(
        link: Any, tmp_path: Path, class_files: list[tuple[str, bytes]]) -> None:
    link("lang=en")
    with Store(tmp_path / "class.sqlite3") as store:
        page = teacher_page(store=store)
        assert "No answers yet" in page.table.table.value
        bar: list[tuple[int, int]] = []
        page.upload.bar.observe(lambda c: bar.append((c["new"], page.upload.bar.max)),
                                "value")
        upload(page.upload.upload, [*class_files, ("notes.txt", b"not a progress file\n")])
        attempts = store.attempts()
    assert bar == [(i, 31) for i in range(1, 32)]  # the bar moves file by file
    assert page.upload.bar.layout.display == "none"  # and goes once they are merged
    result = page.upload.result.value
    assert "Students in the files: 30." in result
    refused = re.findall(r"<li class='ld-msg'>(.*?)</li>", result)
    assert len(refused) == 1 and refused[0].startswith(
        "notes.txt, line 1: the header is not that of a progress export")

    table = {(r[0], r[1]): r for r in _rows(page.table.table.value)}
    heat = _heat(page.heat_map.map.value)
    for name, content in class_files:
        student = name[:-4]
        (tmp_path / name).write_bytes(content)
        own = read_attempts(tmp_path / name)
        mastery = rebuild_mastery(own, lesson_params())
        # issue 33 part 3: one definition of the numbers
        counts = student_counts(own, lesson_params())
        asked = {s: st for s, st in mastery.states.items() if st.asked}
        shown = {skill for (who, skill) in table if who == student}
        assert shown == {_skill_name(c.skill) for c in counts.skills} >= {
            _skill_name(s) for s in asked}, student
        for skill, st in asked.items():
            row = table[(student, _skill_name(skill))]
            c = counts.skill(skill)
            assert c is not None and (c.asked, c.first_try_right) == (st.asked,
                                                                     st.first_try_right)
            assert int(row[2]) == st.asked
            assert row[3] == f"{round(100 * st.first_try_right / st.asked)} %"
            assert row[4] == f"{round(100 * st.p_known)} % ({c.evidence('en')})"
            assert row[5] == ("yes" if st.mastered else "no")
            did = counts.for_skill(skill)
            assert (int(row[6]), int(row[7])) == (did.hints, did.revealed)
            assert heat[(student, skill)].startswith(f"{round(100 * st.p_known)} %")
    # The CSV link downloads the same table.
    got = downloaded(page.table.csv_link.value, "ld-class-csv").decode("utf-8")
    assert got == class_csv(class_table(attempts))
    assert len(list(csv.reader(io.StringIO(got)))) == len(table) + 1
    # The class's most frequent mistake when multiplying, named, with an example answer.
    mistakes = page.mistakes.tables.value
    first = re.search(r"data-skill='multiply'>.*?<tbody><tr data-rule='([^']+)'><th "
                      r"scope='row'>([^<]+)</th>.*?<td>(answered[^<]+)</td>", mistakes)
    assert first and first.group(1) == "added_instead_of_multiplied"
    assert first.group(2) == "added instead of multiplying"
    assert "was right" in first.group(3)


def _skill_name(skill: str) -> str:
    from tutor.teaching.mastery import SKILL_NAMES

    return SKILL_NAMES[skill]


def _rows(table_html: str) -> list[list[str]]:
    """Each body row's header and data cells, as text."""
    body = table_html.split("<tbody>", 1)[1]
    return [[re.sub(r"<[^>]+>", "", c) for c in re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", row)]
            for row in re.findall(r"<tr[^>]*>(.*?)</tr>", body)]


def _heat(map_html: str) -> dict[tuple[str, str], str]:
    out = {}
    for student, row in re.findall(r"<tr data-student='([^']+)'>(.*?)</tr>", map_html):
        for skill, text in re.findall(r"<td class='ld-cell[^']*'[^>]*data-skill='([^']+)'"
                                      r"[^>]*>([^<]*)</td>", row):
            out[(student, skill)] = text
    return out


def test_heat_map_is_a_table_with_numbers_and_headers(link: Any, tmp_path: Path,
                                                      class_files: list[tuple[str, bytes]]
                                                      ) -> None:
    link("lang=es")
    with Store(tmp_path / "c.sqlite3") as store:
        page = teacher_page(store=store)
        upload(page.upload.upload, class_files[:3])
    heat = page.heat_map.map.value
    # The table in its own sideways-scrolling box, named as the table (issue 52, part 4).
    assert heat.startswith("<div class='ld-table-scroll' role='region' tabindex='0' "
                           "aria-label='Dominio de cada habilidad")
    assert "><table class='ld-heat'><caption>" in heat
    assert "<th scope='col'>Estudiante</th>" in heat
    assert heat.count("<th scope='row'>") == 3
    assert re.search(r"<td class='ld-cell' style='background:#[0-9a-f]{6};color:#[0-9a-f]{6}'"
                     r"[^>]*>\d+ %( ✔)?</td>", heat)
    assert "ld-heat-legend" in heat and "dominada" in heat


def test_heat_map_cells_and_the_pile_count_in_words() -> None:
    """A cell's tooltip says "1 question" / "1 pregunta", not "1 questions"; so does the
    pile's count of tiles."""
    rows = [ClassRow("multiply", 1, 1, 0.6, False, mean_seconds=3.0, student="ana", hints=0),
            ClassRow("add", 2, 1, 0.5, False, mean_seconds=3.0, student="ana", hints=0)]
    for lang, one, two in (("en", "1 question", "2 questions"),
                           ("es", "1 pregunta", "2 preguntas")):
        titles = dict(re.findall(r"data-skill='(\w+)'[^>]*title='([^']*)'",
                                 heat_map_html(rows, lang)))
        assert titles["multiply"].endswith(f", {one}") and titles["add"].endswith(f", {two}")
    assert [pile_text(n, "es") for n in (0, 1, 2)] == ["Pila: 0 fichas", "Pila: 1 ficha",
                                                      "Pila: 2 fichas"]
    assert pile_text(1, "en") == "Pile: 1 tile"


def test_lesson_builder_writes_a_checked_lesson_and_shows_its_links(
        link: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LEONARD_LESSONS", str(tmp_path))
    link("lang=en")
    monkeypatch.setenv("SERVER_NAME", "127.0.0.1")
    monkeypatch.setenv("SERVER_PORT", "8866")
    monkeypatch.setenv("SCRIPT_NAME", "/voila/render/Teacher.ipynb")
    monkeypatch.setenv("LEONARD_BINDER_REPO", "school/leonard")
    page = teacher_page(store=None)
    b = page.builder
    b.id_in.value = "my-squares"
    b.title_en.value = "My squares"
    b.save_btn.click()
    assert b.result.value == ("<div class='ld-msg'>my-squares.json: title.es: must not be "
                              "empty</div>")
    assert not (tmp_path / "my-squares.json").exists()  # nothing written
    b.title_es.value = "Mis cuadrados"
    b.skill_cbs["square"].value = True
    b.tile_cbs["x/x"].value = True
    b.bots_dd.value = "random"
    b.rounds_in.value = 1
    b.scaffold_cbs["blanks"].value = True
    b.save_btn.click()
    saved = json.loads((tmp_path / "my-squares.json").read_text(encoding="utf-8"))
    assert saved["tutor"]["targets"] == ["square"] and saved["game"]["rich_in"] == ["x/x"]
    assert saved["game"]["bots"] == ["random"] and saved["game"]["rounds"] == 1
    result = b.result.value
    assert "href='Play.ipynb?lesson=my-squares&amp;lang=en'" in result
    assert ("href='http://127.0.0.1:8866/voila/render/Play.ipynb?lesson=my-squares&amp;"
            "lang=en'") in result
    assert ("href='https://mybinder.org/v2/gh/school/leonard/main?urlpath=voila%2Frender%2F"
            "notebooks%2FPlay.ipynb%3Flesson%3Dmy-squares%26lang%3Den'") in result
    b.save_btn.click()  # the same name again: kept, and said why
    assert "exists already" in b.result.value


def test_both_pages_speak_spanish_and_switch_language(link: Any, tmp_path: Path) -> None:
    link("")
    store = Store(tmp_path / "p.sqlite3")
    lessons = lessons_page(store=store)
    teacher = teacher_page(store=store)
    assert "lecciones" in lessons.header.title.value
    assert "lang=es" in lessons.lesson_list.value
    assert lessons.files.upload.description == "Cargar mi progreso"
    assert teacher.builder.save_btn.description == "Guardar la lección"
    lessons.header.lang_toggle.value = "en"
    teacher.header.lang_toggle.value = "en"
    assert "lessons" in lessons.header.title.value and "lang=en" in lessons.lesson_list.value
    assert lessons.files.upload.description == "Load my progress"
    assert teacher.builder.save_btn.description == "Save the lesson"
    assert teacher.upload.upload.description == "Upload progress files"
    store.close()


def test_every_control_has_an_accessible_name(link: Any, tmp_path: Path) -> None:
    link("lang=en")
    with Store(tmp_path / "p.sqlite3") as store:
        pages = [lessons_page(store=store), teacher_page(store=store)]
    # By class name: tests do not import ipywidgets (only tutor/ui does).
    controls = {"Button", "FileUpload", "Text", "Textarea", "Checkbox", "Dropdown",
                "BoundedIntText"}

    def walk(w: Any) -> Any:
        yield w
        for child in getattr(w, "children", ()):
            yield from walk(child)

    for page in pages:
        for w in walk(page):
            if type(w).__name__ in controls:
                assert w.description.strip(), w


def test_pages_are_panels_wired_by_the_page_modules() -> None:
    import importlib

    for name, widget, html in [("lesson_list", "LessonListPanel", "lesson_list_html"),
                               ("progress_files", "ProgressFilesPanel", "progress_html"),
                               ("class_upload", "ClassUploadPanel", "merge_result_html"),
                               ("class_table", "ClassTablePanel", "class_table_html"),
                               ("heat_map", "HeatMapPanel", "heat_map_html"),
                               ("mistakes", "MistakesPanel", "mistakes_html"),
                               ("lesson_builder", "BuilderPanel", "saved_html"),
                               ("page_header", "PageHeader", "page_title_html")]:
        module = importlib.import_module(ui_module(name))
        assert hasattr(module, widget) and hasattr(module, html), name
    for page in ("lessons_app.py", "teacher_app.py"):
        tree = ast.parse(ui_path(page.removesuffix(".py")).read_text(encoding="utf-8"))
        built = {node.func.attr for node in ast.walk(tree)
                 if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                 and isinstance(node.func.value, ast.Name)
                 and node.func.value.id in ("W", "widgets")}
        assert built <= {"VBox", "HBox", "Box", "Layout"}, (page, built)


def test_lesson_builder_offers_every_bot_level_and_saves_expert(
        link: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from engine.bots import BOTS

    monkeypatch.setenv("LEONARD_LESSONS", str(tmp_path))
    link("lang=en")
    b = teacher_page(store=None).builder
    assert {value for _label, value in b.bots_dd.options} == set(BOTS)
    b.id_in.value = "top-bot"
    b.title_en.value = "Against the expert"
    b.title_es.value = "Contra el experto"
    b.skill_cbs["square"].value = True
    b.bots_dd.value = "expert"
    b.save_btn.click()
    saved = json.loads((tmp_path / "top-bot.json").read_text(encoding="utf-8"))
    assert saved["game"]["bots"] == ["expert"]


def test_an_unforeseen_error_on_either_page_is_said_not_lost(
        link: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        class_files: list[tuple[str, bytes]]) -> None:
    """ipywidgets hands a callback's error to a cell output Voilà does not show: each page
    says it instead (in the user's language), and the server's log gets the traceback."""
    import sys

    from tutor.ui.lessons import lessons_app
    from tutor.ui.teacher import lesson_builder, teacher_app

    log = io.StringIO()
    monkeypatch.setattr(sys, "__stderr__", log)

    def broken(*_args: Any, **_kw: Any) -> Any:
        raise RuntimeError("the disk is on fire")

    for module, name in ((lessons_app, "merge_student_files"), (teacher_app, "merge_files"),
                         (lesson_builder, "save_lesson")):
        monkeypatch.setattr(module, name, broken)
    link("lang=es&student=student-00")
    with Store(tmp_path / "p.sqlite3") as store:
        lessons = lessons_page(store=store)
        upload(lessons.files.upload, [class_files[0]])
        assert "Algo salió mal: the disk is on fire" in lessons.header.notes.value
        teacher = teacher_page(store=store)
        upload(teacher.upload.upload, class_files[:3])
        assert "Algo salió mal: the disk is on fire" in teacher.header.notes.value
        b = teacher.builder
        b.id_in.value, b.title_en.value, b.title_es.value = "mine", "Mine", "Mía"
        b.skill_cbs["square"].value = True
        b.save_btn.click()
        assert "Algo salió mal: the disk is on fire" in b.result.value
        assert store.attempts() == []  # nothing half-merged
    assert log.getvalue().count("RuntimeError: the disk is on fire") == 3


def test_both_pages_open_beside_hostile_lesson_files(link: Any, tmp_path: Path,
                                                     hostile_lessons: Any,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 36 (failure 6): one lesson file with a 5,000-digit number broke the lessons page
    for every student and the teacher page; a FIFO or /dev/zero must not hang them either."""
    folder, _expected = hostile_lessons
    monkeypatch.setenv("LEONARD_LESSONS", str(folder))
    link("lang=en&student=ana")
    with Store(tmp_path / "p.sqlite3") as store:
        ids = re.findall(r"data-lesson='([^']+)'", lessons_page(store=store).lesson_list.value)
        teacher = teacher_page(store=store)
    assert "04-times" in ids and "utf8-bom" in ids and "huge-int" not in ids
    assert "Something went wrong" not in teacher.header.notes.value


def test_the_lessons_page_says_when_a_shipped_lesson_is_replaced(
        link: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 36: a teacher's 04-times hid the shipped lesson without a word."""
    monkeypatch.setenv("LEONARD_LESSONS", str(tmp_path / "mine"))
    (tmp_path / "mine").mkdir()
    (tmp_path / "mine" / "04-times.json").write_text(json.dumps(
        {"id": "04-times", "title": {"es": "Mía", "en": "Mine"}}), encoding="utf-8")
    link("lang=en&student=ana")
    page = lessons_page(store=None)
    assert "04-times" in page.header.notes.value
    assert "replaces" in page.header.notes.value


def fill_builder(b: Any, es: str, en: str) -> None:
    b.title_es.value, b.title_en.value = es, en
    b.skill_cbs["multiply"].value = True


def test_lesson_builder_makes_the_name_from_the_title(
        link: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 33 part 6: "Tabla del 6" was refused ("id: may hold only small letters …"); the
    name field now follows the title (tabla-del-6), may be edited, and the lesson plays."""
    from tutor.course.lessons import load_lesson

    monkeypatch.setenv("LEONARD_LESSONS", str(tmp_path))
    link("lang=es")
    b = teacher_page(store=None).builder
    fill_builder(b, "Tabla del 6", "Times 6")
    assert b.id_in.value == "tabla-del-6"  # made from the Spanish title on a Spanish page
    b.save_btn.click()
    assert "ld-ok" in b.result.value and "tabla-del-6" in b.result.value
    assert load_lesson("tabla-del-6", "es").title["es"] == "Tabla del 6"
    # the name follows the title until the teacher writes one of their own
    b.title_es.value = "Tabla del 7"
    assert b.id_in.value == "tabla-del-7"
    b.id_in.value = "siete"
    b.title_es.value = "Tabla del siete"
    assert b.id_in.value == "siete"
    b.save_btn.click()
    assert (tmp_path / "siete.json").is_file() and not (tmp_path / "tabla-del-7.json").exists()
    # a title typed in the name field is made a name; emoji and symbols: a name still
    b.id_in.value = "Dominó 😀 ¡Ya!"
    b.save_btn.click()
    assert b.id_in.value == "domino-ya" and (tmp_path / "domino-ya.json").is_file()
    b.id_in.value = ""
    b.title_es.value = "★★★"
    b.title_en.value = "★★★"
    assert b.id_in.value == "lesson-1"
    b.save_btn.click()
    assert load_lesson("lesson-1", "en").title["en"] == "★★★"


def test_lesson_builder_cuts_a_long_title_to_the_name_limit(
        link: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from tutor.course.lessons import MAX_ID_LENGTH, load_lesson

    monkeypatch.setenv("LEONARD_LESSONS", str(tmp_path))
    link("lang=en")
    b = teacher_page(store=None).builder
    fill_builder(b, "Multiplicar por seis " * 10, "Multiply by six, " * 10)
    made = b.id_in.value  # the English title on an English page
    assert len(made) <= MAX_ID_LENGTH and made.startswith("multiply-by-six-multiply")
    b.save_btn.click()
    assert "ld-ok" in b.result.value
    assert load_lesson(made, "en").id == made


@pytest.mark.parametrize("lang", ["en", "es"])
def test_lesson_builder_asks_before_replacing_a_lesson_of_the_same_name(
        lang: str, link: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LEONARD_LESSONS", str(tmp_path))
    link(f"lang={lang}")
    b = teacher_page(store=None).builder
    fill_builder(b, "Tabla del 6", "Times 6")
    # the name is made from the title in the page's language
    assert b.id_in.value == ("tabla-del-6" if lang == "es" else "times-6")
    b.id_in.value = "tabla-del-6"
    b.save_btn.click()
    path = tmp_path / "tabla-del-6.json"
    assert json.loads(path.read_text(encoding="utf-8"))["title"]["en"] == "Times 6"
    # a second lesson of the same title: asked, not overwritten, not refused
    b.title_en.value = "Times six"
    b.save_btn.click()
    asked = b.result.value
    assert "ld-build-ask" in asked and "tabla-del-6-2" in asked
    assert {"en": "Replace a lesson of the same name",
            "es": "Reemplazar una lección con el mismo nombre"}[lang] in asked
    assert "exists already" in asked if lang == "en" else "Ya existe" in asked
    assert json.loads(path.read_text(encoding="utf-8"))["title"]["en"] == "Times 6"
    # confirmed: replaced; the next save asks again
    b.replace_cb.value = True
    b.save_btn.click()
    assert "ld-ok" in b.result.value
    assert json.loads(path.read_text(encoding="utf-8"))["title"]["en"] == "Times six"
    assert b.replace_cb.value is False
    # a shipped lesson's name is asked about too, and nothing is written
    b.id_in.value = "04-times"
    b.save_btn.click()
    assert "ld-build-ask" in b.result.value and "04-times-2" in b.result.value
    assert not (tmp_path / "04-times.json").exists()


@pytest.mark.parametrize("lang", ["en", "es"])
def test_each_page_is_a_main_landmark_and_each_panel_a_region_named_by_its_heading(
        link: Any, tmp_path: Path, lang: str) -> None:
    """A screen reader lists the page's landmarks and jumps to a panel (axe's region rule:
    nothing outside a landmark): the page is the main region, named by its title, and every
    panel with a heading is a region named by that heading, in the page's language."""
    link(f"lang={lang}")
    with Store(tmp_path / "p.sqlite3") as store:
        pages = {"ld-lessons-page": lessons_page(store=store),
                 "ld-teacher-page": teacher_page(store=store)}
    for root, page in pages.items():
        attrs = page.access.attributes
        title = re.sub(r"<[^>]+>", "", page.header.title.value)
        assert attrs[f".{root}"] == {"role": "main", "aria-label": title}
        regions = {sel: a["aria-label"] for sel, a in attrs.items() if a.get("role") == "region"}
        named = 0
        for panel in page.children:
            heading = getattr(panel, "heading", None)
            if heading is None or panel is getattr(page, "name_form", None):
                continue  # the name form is a form landmark of its own
            mine = [label for sel, label in regions.items()
                    if sel.rsplit(".", 1)[-1] in panel._dom_classes]
            shown = unescape(re.sub(r"<[^>]+>", "", heading.value.split("</h3>")[0]))
            assert mine == [shown], (root, panel._dom_classes, mine)
            named += 1
        assert named >= (2 if root == "ld-lessons-page" else 9), (root, named)
