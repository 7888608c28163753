"""What the lessons and teacher pages need besides widgets: a student's own files loaded
(tutor.classroom.overview.merge_student_files), the heat map's grid and colours
(tutor.classroom.colours), the
links between pages (tutor.classroom.link.page_link), teacher names of the named mistakes, and the
link's query read after the request arrives in a preheated kernel (tutor.classroom.request)."""

from __future__ import annotations

import itertools
import json
import socket
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest

from tutor.classroom.colours import (
    AA_CONTRAST,
    MASTERED,
    MASTERY_STEPS,
    NOT_ASKED,
    contrast_ratio,
    mastery_colours,
)
from tutor.classroom.link import page_link, read_link
from tutor.classroom.overview import (
    MISTAKE_NAMES,
    ClassRow,
    class_grid,
    merge_student_files,
)
from tutor.classroom.request import page_query
from tutor.i18n import gettext
from tutor.session.saving import load_mastery
from tutor.storage.store import Store
from tutor.teaching.diagnosis import CATALOG


def test_every_named_mistake_has_a_teacher_name_in_both_languages() -> None:
    assert set(MISTAKE_NAMES) == {r.id for r in CATALOG}
    for msgid in MISTAKE_NAMES.values():
        assert gettext(msgid, "es") != msgid


def _export(db: Path, student: str | None, out: Path) -> bytes:
    with Store(db) as store:
        store.export_csv(out, student)
    return out.read_bytes()


@pytest.fixture()
def two_students(tmp_path: Path, class_files: list[tuple[str, bytes]]) -> dict[str, bytes]:
    """Two students' files, and one holding both."""
    db = tmp_path / "both.sqlite3"
    with Store(db) as store:
        for name, content in class_files[:2]:
            (tmp_path / name).write_bytes(content)
            store.import_file(tmp_path / name)
    return {"student-00": class_files[0][1], "student-01": class_files[1][1],
            "both": _export(db, None, tmp_path / "both.csv")}


def test_a_student_loads_only_their_own_file(tmp_path: Path,
                                             two_students: dict[str, bytes]) -> None:
    with Store(tmp_path / "new.sqlite3") as store:
        result = merge_student_files(store, [("mine.csv", two_students["student-01"])],
                                     "student-00", "en")
        assert result.added == 0 and store.attempts() == []
        assert result.refused == ["mine.csv holds the progress of student-01, not of "
                                  "student-00. Nothing of it was loaded."]
        result = merge_student_files(store, [("mine.csv", two_students["student-00"])],
                                     "student-00", "es")
        assert result.added > 0 and not result.refused
        assert {a.student for a in store.attempts()} == {"student-00"}
        assert load_mastery(store, "student-00").states  # rebuilt: the pages start there


def test_a_page_without_a_name_takes_the_files_student(tmp_path: Path,
                                                       two_students: dict[str, bytes]) -> None:
    with Store(tmp_path / "new.sqlite3") as store:
        result = merge_student_files(store, [("both.csv", two_students["both"])], "anon", "es")
        assert result.added == 0 and len(result.refused) == 1
        assert "varios estudiantes" in result.refused[0]
        result = merge_student_files(store, [("a.csv", two_students["student-01"]),
                                             ("b.csv", two_students["student-00"])],
                                     "anon", "en")
        assert result.students == {"student-01"}
        assert result.refused == ["b.csv holds the progress of student-00, not of student-01. "
                                  "Nothing of it was loaded."]


def test_class_grid_is_students_by_skills_in_teaching_order() -> None:
    rows = [ClassRow("multiply", 3, 2, 0.6, False, mean_seconds=4.0, student="bo", hints=1),
            ClassRow("multiply", 2, 2, 0.97, True, mean_seconds=3.0, student="al", hints=0),
            ClassRow("other-end", 1, 0, 0.2, False, mean_seconds=9.0, student="al", hints=0)]
    students, skills, cells = class_grid(rows)
    assert students == ["al", "bo"] and skills == ["other-end", "multiply"]
    assert cells[("bo", "multiply")] is rows[0] and ("bo", "other-end") not in cells


def test_every_heat_map_colour_keeps_aa_contrast() -> None:
    backgrounds = [bg for _, bg in MASTERY_STEPS] + [MASTERED]
    for p, mastered in itertools.product([i / 100 for i in range(101)], [False, True]):
        bg, fg = mastery_colours(p, mastered)
        assert bg in backgrounds
        assert contrast_ratio(bg, fg) >= AA_CONTRAST, (p, bg, fg)
    assert mastery_colours(None) == NOT_ASKED
    assert contrast_ratio(*NOT_ASKED) >= AA_CONTRAST
    assert mastery_colours(0.99, mastered=True)[0] == MASTERED
    # The scale goes darker as mastery grows, so it reads without its colours' names too.
    shades = [contrast_ratio(bg, "#ffffff") for _, bg in MASTERY_STEPS] + [
        contrast_ratio(MASTERED, "#ffffff")]
    assert shades == sorted(shades)


def test_page_link_is_relative_and_round_trips_through_read_link() -> None:
    link = page_link("Play.ipynb", lesson="04-times", lang="en", student="Ana & Bo=1")
    assert link.startswith("Play.ipynb?lesson=04-times&lang=en&student=")
    back = read_link(link.split("?", 1)[1], env={})
    assert (back.lesson, back.lang, back.student) == ("04-times", "en", "Ana & Bo=1")
    assert page_link("Play.ipynb", lesson="x", student="anon") == "Play.ipynb?lesson=x"


def test_query_of_an_ordinary_kernel_is_read_at_once() -> None:
    env = {"QUERY_STRING": "lang=en&student=ana"}
    assert page_query(env, wait=lambda: pytest.fail("an ordinary kernel does not wait")) == (
        "lang=en&student=ana")
    assert page_query({}) == ""


def test_a_preheated_kernel_reads_the_query_once_the_request_arrives() -> None:
    """Voilà's pool runs the notebook before any request: the link is read only after
    Voilà's wait_for_request put the request into the environment, and only once."""
    env = {"VOILA_PREHEAT": "True"}
    waits: list[int] = []

    def request_arrives() -> None:
        waits.append(1)
        env.update(QUERY_STRING="lesson=04-times&lang=en", SERVER_NAME="127.0.0.1")

    assert page_query(env, wait=request_arrives) == "lesson=04-times&lang=en"
    assert page_query(env, wait=request_arrives) == "lesson=04-times&lang=en"
    assert waits == [1]


def _query_server(sends: str) -> Any:
    """A stand-in for Voilà's request websocket: to a kernel that connects to
    ``/voila/query/k-1`` it sends ``sends``, as Voilà does when the kernel's page is asked for."""
    from websockets.sync.server import serve

    def handler(ws: Any) -> None:
        if ws.request.path == "/voila/query/k-1":
            ws.send(sends)

    server = serve(handler, "127.0.0.1", 0)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def test_a_preheated_kernel_gets_its_request_from_the_server_without_importing_voila() -> None:
    """The real wait: the request's variables come over the server's websocket, and the
    page's kernel does not import voila (3.4 CPU s of Jupyter Server) for it."""
    server = _query_server(json.dumps({"QUERY_STRING": "lesson=04-times&seed=7",
                                       "SCRIPT_NAME": "/x/"}))
    try:
        env = {"VOILA_PREHEAT": "True", "VOILA_KERNEL_ID": "k-1", "VOILA_SERVER_URL": "/",
               "VOILA_APP_PORT": str(server.socket.getsockname()[1])}
        assert page_query(env) == "lesson=04-times&seed=7"
        assert env["SCRIPT_NAME"] == "/x/" and env["VOILA_PREHEAT"] == "False"
    finally:
        server.shutdown()
    out = subprocess.run(
        [sys.executable, "-c", "import sys, tutor.classroom.request as r; r.wait_for_request({"
         "'VOILA_APP_PORT': '9'}); print(sorted(m for m in sys.modules if m.startswith("
         "('voila', 'jupyter_server'))))"], capture_output=True, text=True, timeout=120)
    assert out.stdout.strip() == "[]", out.stderr[-2000:]


def test_a_preheated_kernel_without_a_request_from_its_server_opens_without_its_link() -> None:
    with socket.socket() as s:  # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env = {"VOILA_PREHEAT": "True", "VOILA_KERNEL_ID": "k-1", "VOILA_APP_PORT": str(port)}
    assert page_query(env) == ""
    assert env["VOILA_PREHEAT"] == "False"
    server = _query_server("<html>not a request</html>")  # nor does a garbled reply stop it
    try:
        env = {"VOILA_PREHEAT": "True", "VOILA_KERNEL_ID": "k-1",
               "VOILA_APP_PORT": str(server.socket.getsockname()[1])}
        assert page_query(env) == "" and env["VOILA_PREHEAT"] == "False"
    finally:
        server.shutdown()
