"""Who may see what on a shared store (docs/rules.md §4: each student's answers are their own; the
teacher sees the class): two students and a teacher, on SQLite and on PostgreSQL."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, HTTPServer
from pathlib import Path

import pytest

from tutor.classroom.identity import HubProfile, hub_profile, is_teacher
from tutor.session.saving import load_mastery, save_mastery
from tutor.storage.records import Attempt, Outcome
from tutor.storage.store import Store, StoreAccessError
from tutor.teaching.mastery import Mastery


def _play(store: Store, name: str) -> None:
    s = store.start_session(name)
    store.record_attempt(name, s, lesson="04-times", problem="x/3 on 4", step="gain",
                         outcome="CORRECT", input_text="12", kc="multiply", expected=12,
                         answered=12)


def test_a_students_store_holds_only_their_own_rows(store_url: str, tmp_path: Path) -> None:
    with Store(store_url, owner="ana") as ana:
        _play(ana, "ana")
    with Store(store_url, owner="beto") as beto:
        _play(beto, "beto")
        assert [a.student for a in beto.attempts()] == ["beto"]  # not ana's
        assert beto.students() == ["beto"]
        with pytest.raises(StoreAccessError, match=r"^beto cannot see or change the progress "
                           r"of ana: each student sees only their own\.$") as info:
            beto.attempts("ana")
        assert isinstance(info.value, ValueError)
        for write in (lambda: beto.record_attempt("ana", "s", lesson="L", problem="p",
                                                  step="s", outcome="CORRECT"),
                      lambda: beto.start_session("ana"),
                      lambda: save_mastery(beto, "ana", Mastery()),
                      lambda: load_mastery(beto, "ana"),
                      lambda: beto.export_csv(tmp_path / "ana.csv", student="ana")):
            with pytest.raises(StoreAccessError):
                write()
        forged = Attempt("ana", "s9", "2026-03-02T10:00:00.000000+00:00", "L", "p", "s",
                         Outcome.CORRECT, "1", "", "add", 1, True, 0, 1.0, 1, 1)
        with pytest.raises(StoreAccessError):
            beto.merge([forged])
    with Store(store_url, owner="beto", lang="es") as beto:
        with pytest.raises(StoreAccessError, match=r"^beto no puede ver ni cambiar el "
                           r"progreso de ana"):
            beto.attempts("ana")
    with Store(store_url) as teacher:  # the teacher's handle: the whole class, untouched
        assert teacher.students() == ["ana", "beto"]
        assert [(a.student, a.input) for a in teacher.attempts()] == [("ana", "12"),
                                                                      ("beto", "12")]
        assert load_mastery(teacher, "ana").states == {}


HUB = {"JUPYTERHUB_USER": "ana", "LEONARD_TEACHERS": "ms.ruiz, group:teachers"}


def test_who_is_a_teacher_under_a_hub() -> None:
    nobody = lambda env: HubProfile()  # noqa: E731 - the hub says nothing
    assert is_teacher({}, nobody)  # no hub: pages as they always were
    assert not is_teacher(HUB, nobody)  # a student
    assert is_teacher({**HUB, "JUPYTERHUB_USER": "ms.ruiz"}, nobody)  # named
    assert is_teacher(HUB, lambda env: HubProfile(admin=True))  # a hub admin
    assert is_teacher(HUB, lambda env: HubProfile(groups=frozenset({"teachers"})))
    assert not is_teacher(HUB, lambda env: HubProfile(groups=frozenset({"class-4b"})))
    assert not is_teacher({"JUPYTERHUB_USER": "ana"}, nobody)  # no teachers set: only admins


class _Hub(BaseHTTPRequestHandler):
    reply = b"{}"

    def do_GET(self) -> None:  # noqa: N802 - http.server's name
        ok = self.path == "/hub/api/user" and self.headers["Authorization"] == "token tok"
        self.send_response(200 if ok else 403)
        self.end_headers()
        self.wfile.write(self.reply if ok else b"{}")

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def hub_api() -> Iterator[str]:
    server = HTTPServer(("127.0.0.1", 0), _Hub)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/hub/api"
    server.shutdown()
    server.server_close()


def test_the_hub_api_says_admin_and_groups(hub_api: str) -> None:
    env = {"JUPYTERHUB_USER": "ms.ruiz", "JUPYTERHUB_API_URL": hub_api,
           "JUPYTERHUB_API_TOKEN": "tok", "LEONARD_TEACHERS": "group:teachers"}
    _Hub.reply = b'{"name": "ms.ruiz", "admin": true, "groups": ["teachers"]}'
    assert hub_profile(env) == HubProfile(admin=True, groups=frozenset({"teachers"}))
    _Hub.reply = b'{"name": "ana", "groups": ["class-4b"]}'  # a token without read:users
    assert hub_profile(env) == HubProfile(groups=frozenset({"class-4b"}))
    assert not is_teacher({**env, "JUPYTERHUB_USER": "ana"})
    assert hub_profile({**env, "JUPYTERHUB_API_TOKEN": "wrong"}) == HubProfile()


def test_the_teacher_page_refuses_a_student_under_a_hub(
        store_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("ipywidgets")
    from tutor.ui.pages import teacher_page

    with Store(store_url) as store:
        _play(store, "ana")
        _play(store, "beto")
    monkeypatch.setenv("LEONARD_TUTOR_DB", store_url)
    monkeypatch.setenv("LEONARD_TEACHERS", "ms.ruiz")
    monkeypatch.delenv("JUPYTERHUB_API_URL", raising=False)
    monkeypatch.setenv("JUPYTERHUB_USER", "beto")
    page = teacher_page(lang="en")
    assert page.store is None and page.rows == []
    assert "only a teacher can open it. beto, your own progress is on the lessons page" in \
        page.header.notes.value
    assert page.children == (page.children[0], page.header)  # no class panels, no upload
    monkeypatch.setenv("JUPYTERHUB_USER", "ms.ruiz")
    page = teacher_page(lang="en")
    assert sorted({r.student for r in page.rows}) == ["ana", "beto"]
    monkeypatch.delenv("JUPYTERHUB_USER")  # no hub: the page as before
    assert sorted({r.student for r in teacher_page(lang="en").rows}) == ["ana", "beto"]
