"""The class's store service (issue 41 part 2) and a page's client of it, without a hub: the
service's routes run in a thread of their own with a stand-in for the hub's token check
(``tokens``: token → the caller the hub would name), over the real database (SQLite and
PostgreSQL). The real hub's check of a token is in ``tests/browser/test_hub.py``.

What a student's kernel can do with the store is what its token allows: its own rows, under
its own name; the class's rows and students' files are a teacher's. Issue 45: the
assignments of its own classes only (another class's refused by id); classes, rosters and
assignments made by a teacher only, each row checked again by the service; a roster from a
hub group, read from a stand-in for the hub's API (the real hub: ``tests/browser/
test_hub.py``). Issue 51 part 1: a write needs the user's write key besides the token; the
clients here carry their user's key unless a test says otherwise."""

from __future__ import annotations

import asyncio
import functools
import socket
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from pathlib import Path

import pytest
import tornado.web

from tutor.hub.store_service import Caller, Keeper, hub_group_members, listen, make_app, write_key
from tutor.storage.class_rows import Assignment
from tutor.storage.records import FROM_FILE, Attempt, Outcome, StoreError, move_of
from tutor.storage.store import (
    BUSY_TIMEOUT,
    ServiceStore,
    Store,
    StoreAccessError,
    StoreAddressError,
    StoreBusyError,
    open_store,
)
from tutor.teaching.mastery import Mastery

TOKENS = {"tok-ana": Caller("ana", False), "tok-beto": Caller("beto", False),
          "tok-ruiz": Caller("ms.ruiz", True), "tok-carla": Caller("carla", False)}
HUB_GROUPS = {"6b": ["ana", "josé"], "6c": ["carla"], "empty": [],
              "a-group-whose-name-is-far-too-long-for-a-class": ["ana"]}
"""The fake hub's groups (its REST API: ``GET /hub/api/groups/{name}``)."""
SERVICE_TOKEN = "tok-service"
"""The store service's own token; the fake hub gives it ``read:groups`` unless a test takes
the scope away (:data:`HUB_SCOPES`)."""
HUB_SCOPES = {SERVICE_TOKEN: {"read:groups"}}
WRITE_SECRET = "0123456789abcdef" * 4
"""The secret the hub and the service share (the hub's config makes one per class server)."""


def key_of(name: str) -> str:
    """The write key the hub gives ``name``'s server."""
    return write_key(WRITE_SECRET, name)


@dataclass
class Service:
    url: str
    database: str
    port: int
    stop: Callable[[], None]

    def client(self, token: str, **options: object) -> ServiceStore:
        """A page's store: the token of its user's server, and the write key the hub gave
        that server (``write_key=`` another, or none)."""
        caller = TOKENS.get(token)
        options.setdefault("write_key", key_of(caller.name) if caller else "")
        options.setdefault("busy_timeout", 0.5)
        return ServiceStore(self.url, token=token, lang="en", retries=1,
                            **options)  # type: ignore[arg-type]


class _FakeHubGroup(tornado.web.RequestHandler):
    """The hub's ``GET /hub/api/groups/{name}`` as JupyterHub answers it: 403 to a token
    without ``read:groups``, 404 for a group it does not have."""

    def get(self, name: str) -> None:
        from urllib.parse import unquote

        token = self.request.headers.get("Authorization", "").partition(" ")[2]
        if "read:groups" not in HUB_SCOPES.get(token, set()):
            self.set_status(403)
            self.finish({"status": 403, "message": "Action is not authorized"})
            return
        group = unquote(name)
        if group not in HUB_GROUPS:
            self.set_status(404)
            self.finish({"status": 404, "message": f"No such group: {group}"})
            return
        self.finish({"kind": "group", "name": group, "users": HUB_GROUPS[group]})


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_service(database: str, port: int | None = None) -> Service:
    """The service's routes on a free port, in a thread with its own event loop."""
    port = port or _free_port()
    ready = threading.Event()
    state: dict[str, object] = {}

    async def identify(token: str) -> Caller | None:
        return TOKENS.get(token)

    hub_port = _free_port()

    def run() -> None:
        loop = asyncio.new_event_loop()
        asyncio.set_event_loop(loop)
        keeper = Keeper(database)
        hub = tornado.web.Application([(r"/hub/api/groups/([^/]+)", _FakeHubGroup)])
        hub_server = hub.listen(hub_port, "127.0.0.1")
        app = make_app(identify, keeper, "/services/leonard-store/", hub_group_members(
            f"http://127.0.0.1:{hub_port}/hub/api/", SERVICE_TOKEN), write_secret=WRITE_SECRET)
        server = listen(app, port, "127.0.0.1")
        state.update(loop=loop, server=server, keeper=keeper)
        ready.set()
        loop.run_forever()
        server.stop()
        hub_server.stop()
        keeper.close()
        loop.close()

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    ready.wait(10)

    def stop() -> None:
        loop = state["loop"]
        assert isinstance(loop, asyncio.AbstractEventLoop)
        loop.call_soon_threadsafe(loop.stop)
        thread.join(10)

    return Service(f"http://127.0.0.1:{port}/services/leonard-store/", database, port, stop)


@pytest.fixture
def service(store_urls: Callable[[], str]) -> Iterator[Service]:
    running = start_service(store_urls())
    yield running
    running.stop()


def _attempt(student: str, session: str, second: int, outcome: Outcome = Outcome.CORRECT
             ) -> Attempt:
    """An answer the tutor could have recorded: each second's its own question (a drill
    between rounds: x/3 played on a 4, about no move of a game), answered right at once (or
    wrong, 5, at once)."""
    right = outcome is Outcome.CORRECT
    return Attempt(student, session, f"2026-12-01T10:00:{second:02d}.000000+00:00", "04-times",
                   f"m1r1-drill{second}-0-x/3", "gain", outcome, "12" if right else "5",
                   "correct" if right else "slip", "multiply", 1, True, 0, 0.5, 12,
                   12 if right else 5)


def test_open_store_opens_the_service_its_address_names(monkeypatch: pytest.MonkeyPatch,
                                                       tmp_path: Path) -> None:
    """Issue 53 part 2: every page, command and session opens the class's store with
    ``open_store``; on a class server (``$LEONARD_TUTOR_DB`` is the service's address) that
    is the service, and a ``Store`` on the database is refused with a sentence, never a
    store that quietly turns into another class."""
    monkeypatch.setenv("LEONARD_TUTOR_DB", "http://127.0.0.1:9/services/leonard-store/")
    monkeypatch.setenv("JUPYTERHUB_API_TOKEN", "tok-ana")
    with open_store(lang="en", owner="ana") as page:
        assert isinstance(page, ServiceStore) and page.kind == "service" and page.shared
    with pytest.raises(StoreAddressError,
                       match="the class.s store service, not of a database"):
        Store(lang="en")
    with open_store(tmp_path / "own.sqlite3") as own:
        assert isinstance(own, Store) and own.kind == "sqlite"


def test_a_students_answers_are_stored_under_the_hubs_name(service: Service) -> None:
    with service.client("tok-ana", owner="ana") as ana:
        assert isinstance(ana, ServiceStore)
        assert ana.me() == ("ana", False)
        session = ana.start_session("ana")
        ana.add_attempt(_attempt("ana", session, 1))
        ana.add_attempt(_attempt("ANA", session, 2))  # the same student, any spelling
        assert [a.student for a in ana.attempts()] == ["ana", "ana"]
        assert ana.students() == ["ana"]
        m = Mastery()
        m.record("multiply", True)
        ana.save_mastery_rows("ana", m.to_dict())
        assert Mastery.from_dict(ana.mastery_rows("ana")).states == m.states
    with Store(service.database) as direct:
        assert [a.student for a in direct.attempts()] == ["ana", "ana"]


def test_an_answer_sent_again_is_stored_once(service: Service) -> None:
    """A reply lost on the way back: the page sends the same answer again."""
    with service.client("tok-ana") as ana:
        session = ana.start_session("ana")
        first = ana.add_attempt(_attempt("ana", session, 1))
        assert ana.add_attempt(_attempt("ana", session, 1)) == first
        assert ana.merge([]) == 0
    with Store(service.database) as direct:
        assert len(direct.attempts()) == 1


def test_a_forged_write_for_another_student_is_refused(service: Service) -> None:
    """A student's kernel (its own code, a changed JUPYTERHUB_USER, a link naming someone
    else) can send anything: the service stores nothing that is not the token's own."""
    with service.client("tok-beto") as beto:  # no owner: the kernel's side checks nothing
        with pytest.raises(StoreAccessError, match="beto cannot see or change the progress "
                                                   "of ana"):
            beto.add_attempt(_attempt("ana", "s-forged", 1))
        with pytest.raises(StoreAccessError):
            beto.start_session("ana")
        with pytest.raises(StoreAccessError):
            beto.save_mastery_rows("ana", Mastery().to_dict())
        with pytest.raises(StoreAccessError, match="only a teacher loads progress files"):
            beto.merge([_attempt("beto", "s1", 1)])
        with pytest.raises(StoreAccessError, match="Only a teacher"):
            beto.attempts()
        with pytest.raises(StoreAccessError):
            beto.attempts("ana")
        with pytest.raises(StoreAccessError):
            beto.name_merges()
        assert beto.students() == []
        assert beto.me() == ("beto", False)
    with Store(service.database) as direct:
        assert direct.attempts() == [] and direct.students() == []


def test_a_write_without_the_pages_key_is_refused_and_reads_need_none(service: Service
                                                                      ) -> None:
    """Issue 51 part 1: a token a student mints from the hub (``/hub/token``) is theirs, and
    the hub vouches for it; but only their locked server holds their write key. A write
    with the token alone, or with a classmate's key, is refused with the sentence why and
    stores nothing; reads need the token only; the page's own writes (token and key) land."""
    mastered = Mastery()
    mastered.record("multiply", True)
    for key, why in (("", "no key"), (key_of("beto"), "a classmate's key"),
                     (key_of("ana") + "0", "a key one digit longer"),
                     (key_of("ANA"), "the key of another spelling"),
                     ("é" * 64, "a key that is not hexadecimal")):
        with service.client("tok-ana", write_key=key) as minted:
            for write in (lambda: minted.start_session("ana", "s-minted"),
                          lambda: minted.add_attempt(_attempt("ana", "s-minted", 1)),
                          lambda: minted.save_mastery_rows("ana", mastered.to_dict())):
                with pytest.raises(StoreAccessError, match="saves only what the class's own "
                                                           "pages send: this request did not "
                                                           "come from ana's page"):
                    write()
            assert minted.me() == ("ana", False), why
            assert minted.attempts("ana") == [] and minted.mastery_rows("ana") == {}, why
    with Store(service.database) as direct:
        assert direct.attempts() == [] and direct.students() == []
        assert direct.mastery_rows("ana") == {}

    with service.client("tok-ana") as page:  # the page: its server's token and key
        session = page.start_session("ana")
        page.add_attempt(_attempt("ana", session, 1))
        page.save_mastery_rows("ana", mastered.to_dict())
    with service.client("tok-ana", write_key="") as minted:  # reads: the token is enough
        assert [a.session for a in minted.attempts("ana")] == [session]
        assert Mastery.from_dict(minted.mastery_rows("ana")).states == mastered.states
    with Store(service.database) as direct:
        assert [a.student for a in direct.attempts()] == ["ana"]


def test_a_teachers_write_needs_the_teachers_key_too(service: Service) -> None:
    """The teacher's page runs in the teacher's server, which the hub gives the teacher's
    key: a merge, a roster or an assignment sent with a token alone (or a student's key) is
    refused like a student's answers; the class is still read with the token alone."""
    for key in ("", key_of("ana")):
        with service.client("tok-ruiz", write_key=key) as minted:
            for write in (lambda: minted.merge([_attempt("carla", "s-file", 2)]),
                          lambda: minted.save_roster("6B", ["ana"]),
                          lambda: minted.roster_from_group("6b"),
                          lambda: minted.save_assignment(_assignment()),
                          lambda: minted.save_mastery_rows("carla", Mastery().to_dict())):
                with pytest.raises(StoreAccessError, match="did not come from ms.ruiz's page"):
                    write()
            assert minted.students() == [] and minted.class_codes() == []
    with Store(service.database) as direct:
        assert direct.attempts() == [] and direct.class_codes() == []
        assert direct.assignments() == []
    with service.client("tok-ruiz") as teacher:
        assert teacher.merge([_attempt("carla", "s-file", 2)]) == 1
        teacher.save_roster("6B", ["ana"])
        assert teacher.roster("6B") == ["ana"]


def test_the_service_does_not_start_without_the_write_secret(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        tmp_path: object) -> None:
    """Started without the secret (or with a short one), the service would take any token's
    writes: it says what it lacks and exits 2, as for its other settings."""
    from tutor.hub.store_service import main

    with socket.socket() as taken:  # were it to start, it could not listen: no hang
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        monkeypatch.setenv("LEONARD_TUTOR_DB", f"{tmp_path}/store.sqlite3")
        monkeypatch.setenv("JUPYTERHUB_API_TOKEN", SERVICE_TOKEN)
        monkeypatch.setenv("JUPYTERHUB_API_URL", "http://127.0.0.1:1/hub/api")
        monkeypatch.setenv("JUPYTERHUB_SERVICE_URL", f"http://127.0.0.1:{port}")
        for secret in (None, "", "too-short"):
            if secret is None:
                monkeypatch.delenv("LEONARD_WRITE_SECRET", raising=False)
            else:
                monkeypatch.setenv("LEONARD_WRITE_SECRET", secret)
            assert main([]) == 2
            said = capsys.readouterr().err
            assert "needs LEONARD_WRITE_SECRET" in said and "does not start" in said, said


def test_a_token_the_hub_does_not_know_gets_nothing(service: Service) -> None:
    for token in ("", "tok-mallory"):
        if not token:
            with pytest.raises(StoreAccessError, match="no hub token"):
                service.client(token)
            continue
        with service.client(token) as stranger:
            with pytest.raises(StoreAccessError, match="only the pages of this class server"):
                stranger.attempts("ana")
            with pytest.raises(StoreAccessError):
                stranger.add_attempt(_attempt("mallory", "s", 1))


def test_the_teacher_reads_the_class_and_merges_files(service: Service) -> None:
    with service.client("tok-ana") as ana:
        ana.add_attempt(_attempt("ana", ana.start_session("ana"), 1))
    with service.client("tok-ruiz") as ruiz:
        assert ruiz.me() == ("ms.ruiz", True)
        assert ruiz.merge([_attempt("carla", "s-file", 2), _attempt("carla", "s-file", 3)]) == 2
        assert ruiz.merge([_attempt("carla", "s-file", 2)]) == 0
        assert sorted(ruiz.students()) == ["ana", "carla"]
        assert {a.student for a in ruiz.attempts()} == {"ana", "carla"}
        ruiz.save_mastery_rows("carla", Mastery().to_dict())  # rebuilt after a merge
        assert ruiz.name_merges() == []
        # A teacher's own answers are the teacher's: not another student's.
        with pytest.raises(StoreAccessError):
            ruiz.add_attempt(_attempt("ana", "s-teacher", 4))


def test_a_row_the_store_refuses_is_said(service: Service) -> None:
    with service.client("tok-ana") as ana:
        bad = replace(_attempt("ana", "s", 1), time="yesterday")
        with pytest.raises(StoreError, match="not a date and time"):
            ana.add_attempt(bad)


@pytest.mark.slow
def test_a_service_out_of_reach_is_busy_and_the_answers_wait(store_urls: Callable[[], str]
                                                             ) -> None:
    """The service down (or restarting): the store says "busy" at once, and says it without
    asking again for a moment, so the page answers the student's clicks; the answers are
    saved when it is back, none twice."""
    import time

    from tutor.session.saving import Recorder
    from tutor.storage.service_store import COOLDOWN

    database = store_urls()
    port = _free_port()
    client = ServiceStore(f"http://127.0.0.1:{port}/services/leonard-store/", token="tok-ana",
                          write_key=key_of("ana"), busy_timeout=0.5, retries=1)
    recorder = Recorder(client, "04-times")
    recorder.start("ana")
    recorder.attempt(_attempt("ana", recorder.session_id, 1))
    began = time.monotonic()
    recorder.attempt(_attempt("ana", recorder.session_id, 2))
    assert time.monotonic() - began < 0.05  # the cooldown: not asked again
    assert recorder.unsaved == 3
    with pytest.raises(StoreBusyError, match="cannot be reached now|did not answer"):
        client.attempts("ana")
    service = start_service(database, port)
    try:
        time.sleep(COOLDOWN)
        assert recorder.flush()
        recorder.attempt(_attempt("ana", recorder.session_id, 1))  # sent again: kept once
        with Store(database) as direct:
            assert [a.time[17:19] for a in direct.attempts("ana")] == ["01", "02"]
    finally:
        service.stop()


@pytest.mark.slow
def test_a_database_out_of_reach_answers_busy(pg_cluster: object) -> None:
    """PostgreSQL stopped under the service: "busy" (the page keeps the answers), and when
    it is back the same write goes through, once."""
    import time

    from tutor.storage.service_store import COOLDOWN

    url = pg_cluster.new_database()  # type: ignore[attr-defined]
    service = start_service(url)
    try:
        with service.client("tok-ana") as ana:
            session = ana.start_session("ana")
            pg_cluster.pause()  # type: ignore[attr-defined]
            try:
                with pytest.raises(StoreBusyError):
                    ana.add_attempt(_attempt("ana", session, 1))
            finally:
                pg_cluster.resume()  # type: ignore[attr-defined]
            time.sleep(COOLDOWN)
            for _ in range(50):  # the server takes a moment to accept connections
                try:
                    ana.add_attempt(_attempt("ana", session, 1))
                    break
                except StoreBusyError:
                    time.sleep(COOLDOWN)
            assert len(ana.attempts("ana")) == 1
    finally:
        service.stop()


# -- classes, rosters and assignments (issue 45 part 5) ------------------------------------------

def _assignment(class_code: str = "6B", **given: object) -> Assignment:
    values: dict[str, object] = dict(id="wk12-6b", class_code=class_code,
                                     title="Week 12: times", lessons=("04-times", "06-doubles"),
                                     due="2026-12-11T15:00", tz="Europe/Madrid")
    values.update(given)
    return Assignment(**values)  # type: ignore[arg-type]


def test_a_teacher_assigns_and_only_the_classs_students_see_it(service: Service) -> None:
    """The teacher makes 6B's roster and assignment and 6C's; ana (6B) sees 6B's, carla
    (6C) sees 6C's, and 6B's asked for by its id (a link passed on) is refused to carla
    with the sentence why, its content unsent; beto, on no roster, sees none."""
    six_b = _assignment()
    six_c = _assignment("6C", id="wk12-6c",  # a title as typed: accents either way, emoji
                        title="Multiplicacio\u0301n y más 👩\u200d🏫")
    with service.client("tok-ruiz") as ruiz:
        ruiz.save_roster("6B", ["Ana", "José"])
        ruiz.save_roster("6C", ["Carla"])
        ruiz.save_assignment(six_b)
        ruiz.save_assignment(six_c)
        assert ruiz.class_codes() == ["6B", "6C"] and ruiz.roster("6B") == ["Ana", "José"]
        assert ruiz.assignments() == [six_b, six_c] and ruiz.assignments("6C") == [six_c]
        assert ruiz.assignment(six_c.id) == six_c and ruiz.assignment("no-such") is None
        assert ruiz.classes_of("JOSE\u0301") == ["6B"]
        assert ruiz.student_assignments("carla") == [six_c]  # what carla's page shows
        closed = replace(six_b, closed=True)
        ruiz.save_assignment(closed)  # an edit: closed, the same row
        assert ruiz.assignments("6B") == [closed]
    for token, owner, mine in (("tok-ana", "ana", closed), ("tok-carla", None, six_c)):
        with service.client(token, owner=owner) as student:
            assert student.assignments() == [mine]
            assert student.assignment(mine.id) == mine
            other = six_c if mine is closed else six_b
            assert student.assignments(other.class_code) == []
            with pytest.raises(StoreAccessError, match="This assignment is for another "
                                                       "class; .* is not on its list"):
                student.assignment(other.id)
    with service.client("tok-beto") as beto:
        assert beto.assignments() == [] and beto.classes_of("beto") == []
        with pytest.raises(StoreAccessError):
            beto.assignment(six_b.id)
        with pytest.raises(StoreAccessError):  # another student's classes
            beto.classes_of("ana")
        with pytest.raises(StoreAccessError):  # what ana sees
            beto.student_assignments("ana")


def test_a_student_cannot_make_edit_close_or_read_a_roster(service: Service) -> None:
    """What only a teacher does, asked with a student's token (the page of a student who
    ran code): each refused by the service with the sentence, nothing changed."""
    with service.client("tok-ruiz") as ruiz:
        ruiz.save_roster("6B", ["ana"])
        ruiz.save_assignment(_assignment())
    with service.client("tok-ana") as ana:  # no owner: the kernel's side checks nothing
        for refused in (lambda: ana.save_assignment(_assignment(id="ana-made")),
                        lambda: ana.save_assignment(_assignment(title="Mine now")),
                        lambda: ana.save_assignment(_assignment(closed=True)),
                        lambda: ana.save_roster("6B", ["ana", "mallory"]),
                        lambda: ana.roster("6B"), ana.class_codes,
                        lambda: ana.roster_from_group("6c")):
            with pytest.raises(StoreAccessError, match="Only a teacher can make or change "
                                                       "classes and assignments; ana sees"):
                refused()
    with Store(service.database) as direct:
        assert direct.assignments() == [_assignment()] and direct.roster("6B") == ["ana"]


def test_a_forged_assignment_or_roster_is_refused_with_a_sentence(service: Service) -> None:
    """A teacher's request written by hand (not through the page's checks, but with the
    teacher's token and key, as from the teacher's server): the service checks every field
    again and says which is wrong; nothing is stored."""
    import json
    import urllib.error
    import urllib.request

    from tutor.storage.service_store import WRITE_KEY_HEADER, assignment_json, message_from_json

    def put(route: str, body: object) -> tuple[int, str]:
        """The service's status and its sentence, in English."""
        request = urllib.request.Request(
            service.url + "api/v1/" + route, data=json.dumps(body).encode(), method="PUT",
            headers={"Authorization": "token tok-ruiz", "Content-Type": "application/json",
                     WRITE_KEY_HEADER: key_of("ms.ruiz")})
        try:
            with urllib.request.urlopen(request, timeout=10) as reply:
                return reply.status, ""
        except urllib.error.HTTPError as err:
            return err.code, str(message_from_json(json.loads(err.read())["message"]))

    good = assignment_json(_assignment())
    forged = {
        "its id is not 4 to 32": {**good, "id": "../../x"},
        "its title is empty, longer than 120": {**good, "title": "x" * 10_000},
        "or has control characters": {**good, "title": "Week\x0012"},
        "its lessons are not each a lesson id": {**good, "lessons": ["04-times", "../etc"]},
        "it does not have 1 to 12 lessons": {**good, "lessons": []},
        "its due date is not a date and time": {**good, "due": "next friday"},
        "its time zone is not one": {**good, "tz": "Narnia/Cair"},
        "its class code is not a name": {**good, "class_code": "6B\n<script>"},
        "its scaffolds are not on, off": {**good, "scaffolds": "maybe"},
        "closed is not true or false": {**good, "closed": "yes"},
        "an assignment lacks title": {k: v for k, v in good.items() if k != "title"},
    }
    for sentence, row in forged.items():
        status, text = put("assignments", {"assignment": row})
        assert status == 400 and sentence in text, (sentence, text)
    for sentence, roster in {"a student is on it twice": ["Ana", "ANA"],
                             "The roster is empty": [],
                             "a name on it is empty or longer": ["Ana", "x" * 61]}.items():
        status, text = put("roster", {"class": "6B", "names": roster})
        assert status == 400 and sentence in text, (sentence, text)
    with service.client("tok-ruiz") as ruiz:  # the client says the same before sending
        with pytest.raises(StoreError, match="its due date is not a date and time"):
            ruiz.save_assignment(_assignment(due="2026-13-45T99:00"))
    with Store(service.database, lang="es") as direct:  # and the store itself, in any language
        with pytest.raises(StoreError, match="su título está vacío, tiene más de 120"):
            direct.save_assignment(_assignment(title="x" * 200))
        with pytest.raises(StoreError, match="un estudiante aparece dos veces"):
            direct.save_roster("6B", ["José", "JOSÉ"])
        assert direct.assignments() == [] and direct.class_codes() == []


def test_a_roster_from_a_hub_group(service: Service) -> None:
    """The teacher makes a class's roster from a hub group's members, read from the hub's
    API with the service's token; an unknown group, an empty one, a service the hub does not
    let read groups, each get the sentence that says what to do."""
    with service.client("tok-ruiz") as ruiz:
        assert ruiz.roster_from_group("6b") == ["ana", "josé"]
        assert ruiz.roster("6b") == ["ana", "josé"]
        assert ruiz.roster_from_group("6c", "6C mañana") == ["carla"]
        assert ruiz.classes_of("carla") == ["6C mañana"]
        with pytest.raises(StoreError, match="The hub has no group named \"7a\""):
            ruiz.roster_from_group("7a")
        with pytest.raises(StoreError, match="\"empty\" has no members"):
            ruiz.roster_from_group("empty")
        with pytest.raises(StoreError, match="longer than a class code can be"):
            ruiz.roster_from_group("a-group-whose-name-is-far-too-long-for-a-class")
        HUB_SCOPES[SERVICE_TOKEN] = set()
        try:
            with pytest.raises(StoreError, match="give the service's role the scope "
                                                 "read:groups"):
                ruiz.roster_from_group("6b")
        finally:
            HUB_SCOPES[SERVICE_TOKEN] = {"read:groups"}
    with Store(service.database) as direct:
        assert direct.class_codes() == ["6C mañana", "6b"]
        with pytest.raises(StoreError, match="needs the class server's hub"):
            direct.roster_from_group("6b")


# -- what the service stores is what the tutor could record (issue 51 parts 2, 4, 6) -----------

def _send(service: Service, token: str, method: str, route: str, body: bytes
          ) -> tuple[int, dict[str, object]]:
    """One raw request to the service, as the page's server can send it (its token and
    its write key): its status and its JSON answer."""
    import http.client
    import json

    from tutor.storage.service_store import WRITE_KEY_HEADER

    conn = http.client.HTTPConnection("127.0.0.1", service.port, timeout=60)
    try:
        conn.request(method, f"/services/leonard-store/api/v1/{route}", body=body,
                     headers={"Authorization": f"token {token}",
                              "Content-Type": "application/json",
                              WRITE_KEY_HEADER: key_of(TOKENS[token].name)})
        reply = conn.getresponse()
        status, raw = reply.status, reply.read()
    finally:
        conn.close()
    return status, json.loads(raw) if raw else {}


def _post_rows(service: Service, token: str, rows: list[Attempt]) -> tuple[int, str]:
    """POST ``rows`` as a page does; the status and the answer's sentence in English."""
    import json

    from tutor.storage.service_store import attempt_json, message_from_json

    status, answer = _send(service, token, "POST", "attempts", json.dumps(
        {"attempts": [attempt_json(a) for a in rows]}).encode())
    said = message_from_json(answer["message"]).translate("en") if "message" in answer else ""
    return status, said


def _stored(service: Service, student: str) -> list[Attempt]:
    with Store(service.database) as direct:
        return direct.attempts(student) if student in direct.students() else []


def test_a_wrong_answer_marked_right_is_refused_and_nothing_stored(service: Service) -> None:
    """beto's forged rows: 5 typed for 12, marked CORRECT, sent with an honest one."""
    forged = replace(_attempt("beto", "s-beto", 2), input="5", answered=5)
    status, said = _post_rows(service, "tok-beto", [_attempt("beto", "s-beto", 1), forged])
    assert status == 400
    assert "Answer 2 of those sent" in said and "marked CORRECT" in said
    assert "Nothing of them was stored" in said
    assert _stored(service, "beto") == []
    with service.client("tok-beto") as beto:  # the page's client says the sentence too
        with pytest.raises(StoreError, match="marked CORRECT"):
            beto.add_attempt(forged)


def test_a_question_the_deal_cannot_give_is_refused(service: Service) -> None:
    """A tile the lesson's game does not have; points that are not the engine's for the
    tile and the T asked just before (the T already stored: the check reads it)."""
    status, said = _post_rows(service, "tok-beto", [
        replace(_attempt("beto", "s1", 1), problem="m1r1-drill1-0-x/9")])
    assert status == 400 and "x/9" in said and "not a tile of lesson 04-times" in said
    t_row = replace(_attempt("beto", "s2", 1), step="T", kc="other-end", input="4",
                    expected=4, answered=4)
    assert _post_rows(service, "tok-beto", [t_row])[0] == 200
    gain = replace(_attempt("beto", "s2", 3), problem=t_row.problem, step="gain[T]",
                   input="13", expected=13, answered=13)
    status, said = _post_rows(service, "tok-beto", [gain])
    assert status == 400 and "T = 4" in said and "gives 12" in said
    assert _stored(service, "beto") == [replace(t_row, student="beto")]


def test_a_time_in_the_future_is_refused(service: Service) -> None:
    status, said = _post_rows(service, "tok-beto", [
        replace(_attempt("beto", "s1", 1), time="9999-01-01T10:00:00.000000+00:00")])
    assert status == 400 and "later than now" in said
    assert _stored(service, "beto") == []


def test_copies_of_a_right_answer_count_once(service: Service) -> None:
    """40 copies of one right row are one answer; copies with their time moved are
    refused."""
    row = _attempt("beto", "s1", 1)
    status, _said = _post_rows(service, "tok-beto", [row] * 40)
    assert status == 200 and len(_stored(service, "beto")) == 1
    moved = [replace(row, time=f"2026-12-01T10:{m:02d}:01.000000+00:00") for m in range(1, 40)]
    status, said = _post_rows(service, "tok-beto", moved)
    assert status == 400 and "question was over" in said
    assert len(_stored(service, "beto")) == 1


def test_a_huge_body_is_refused_with_a_sentence(service: Service) -> None:
    """30 MiB: answered 413 and its sentence, the service unhurt (the next save lands)."""
    status, answer = _send(service, "tok-beto", "POST", "attempts",
                           b'{"attempts": ["' + b"x" * (30 * 1024 * 1024) + b'"]}')
    assert status == 413
    from tutor.storage.service_store import message_from_json

    said = message_from_json(answer["message"]).translate("en")
    assert "more than the class's store takes at once (256 KiB)" in said
    assert _post_rows(service, "tok-beto", [_attempt("beto", "s1", 1)])[0] == 200


@pytest.mark.slow
def test_a_teachers_big_merge_goes_in_requests_that_fit(service: Service) -> None:
    """A file of 3,000 rows (about 1.4 MiB as JSON) is more than one request may carry: the
    client sends it in several, all stored. (The teacher's wait, not a page's half second: a
    batch answered late on a busy machine would be sent again, and its rows, stored by the
    first, would not count as new.)"""
    rows = [replace(_attempt("carla", f"s{k // 50}", k % 50 + 1), problem=f"m1r1t{k}-x/3")
            for k in range(3000)]
    with service.client("tok-ruiz", busy_timeout=BUSY_TIMEOUT) as ruiz:
        assert ruiz.merge(rows) == 3000
    assert len(_stored(service, "carla")) == 3000


def test_over_a_students_caps_is_429(service: Service, monkeypatch: pytest.MonkeyPatch
                                     ) -> None:
    """The day's answers and the stored bytes have caps (small here, to reach them)."""
    from datetime import datetime, timedelta, timezone

    import tutor.hub.store_service as service_module

    monkeypatch.setattr(service_module, "MAX_ROWS_PER_DAY", 5)
    now = datetime.now(timezone.utc)
    rows = [replace(_attempt("beto", "s-today", k), time=(now - timedelta(minutes=10 - k))
                    .isoformat(timespec="microseconds")) for k in range(1, 7)]
    for row in rows[:5]:
        assert _post_rows(service, "tok-beto", [row])[0] == 200
    assert _post_rows(service, "tok-beto", [rows[4]])[0] == 200  # sent again: not more
    status, said = _post_rows(service, "tok-beto", [rows[5]])
    assert status == 429 and "5 answers in a day" in said
    monkeypatch.setattr(service_module, "MAX_STORED_BYTES", 200)  # a row: ~140
    status, said = _post_rows(service, "tok-ana", [_attempt("ana", "s1", 1)])
    assert status == 200
    status, said = _post_rows(service, "tok-ana", [_attempt("ana", "s1", 2)])
    assert status == 429 and "room the class's store keeps for one student" in said
    assert len(_stored(service, "beto")) == 5 and len(_stored(service, "ana")) == 1


_Sent = list[tuple[Attempt, dict[str, object] | None]]


def _played_through(store: Store, lessons: tuple[str, ...], seeds: tuple[int | None, ...],
                    student: str = "ana") -> tuple[list[Attempt], _Sent]:
    """A simulated student plays ``lessons`` through the page's own Session with the
    page's ``store`` (a learner who is right half of the time); the answers stored as the
    store gave them back, and each answer the page sent with the game record it sent."""
    import random

    from engine.bots import GreedyBot
    from tutor.commands.learners import learner
    from tutor.commands.simulate import Run, drive
    from tutor.session.session import Session

    sent: _Sent = []
    real = store.add_attempt

    def add(attempt: Attempt, game: object = None) -> int:
        sent.append((attempt, dict(game) if isinstance(game, dict) else None))
        return real(attempt, game)  # type: ignore[arg-type]

    store.add_attempt = add  # type: ignore[method-assign]
    for k, (lesson, seed) in enumerate(zip(lessons, seeds, strict=True)):
        s = Session.from_lesson(lesson, lang="en", store=store, seed=seed, student=student)
        assert s.seed is not None  # a class's store: every match dealt from a seed
        drive(s, learner("learner:0.5", "en")(), random.Random(k), GreedyBot(k),
              Run())
        assert s.recorder is not None and s.recorder.refused is None
    return store.attempts(student), sent


def test_a_simulated_lesson_played_through_the_service_is_all_stored(service: Service) -> None:
    """The page's own Session, playing two lessons on the class's store (its deals dealt
    from a seed it draws, or from a link's), sends every answer with its game's record:
    none refused (a question's attempt 2 after its stored attempt 1, a session's questions
    one after the other, every question about a move of the game it played)."""
    with service.client("tok-ana") as ana:
        stored, sent = _played_through(ana, ("04-times", "07-all-power"), (None, 3))
        assert stored == [a for a, _ in sent]
    assert len(stored) > 40 and any(a.attempt_at_step > 1 for a in stored)
    moves = [(a, game) for a, game in sent if move_of(a.problem)]
    assert len(moves) > 20 and all(game is not None for _, game in moves)


def _post_with_games(service: Service, token: str, rows: list[Attempt],
                     games: list[dict[str, object]] | None) -> tuple[int, str]:
    import json

    from tutor.storage.service_store import attempt_json, message_from_json

    body: dict[str, object] = {"attempts": [attempt_json(a) for a in rows]}
    if games is not None:
        body["games"] = games
    status, answer = _send(service, token, "POST", "attempts", json.dumps(body).encode())
    said = message_from_json(answer["message"]).translate("en") if "message" in answer else ""
    return status, said


FORGERIES = ("no record", "another deal", "deal not recorded", "another tile", "another T",
             "another gain")


def test_an_answer_about_a_move_its_game_did_not_make_is_refused(service: Service) -> None:
    """Issue 51 part 2: the service replays the game the page sent, dealt from its seed,
    and an answer about a move must be about that game's move. carla plays 07-all-power through
    the service; then each forgery is a new answer in a new session, about a move of her
    real game: 400 with the replay's sentence, nothing stored."""
    with service.client("tok-carla") as carla:
        stored, sent = _played_through(carla, ("07-all-power",), (None,), "carla")
    moves = [(a, g) for a, g in sent if move_of(a.problem) and g is not None]
    for forgery in FORGERIES:
        row, games, expect = _forged(moves, forgery)
        status, said = _post_with_games(service, "tok-carla", [row], games)
        assert status == 400, (forgery, said)
        assert expect in said and "Nothing of them was stored" in said, (forgery, said)
    assert _stored(service, "carla") == stored
    row, games, _ = _forged(moves, "none")  # the same answer in a new session, as it was
    assert _post_with_games(service, "tok-carla", [row], games)[0] == 200


def _forged(moves: list[tuple[Attempt, dict[str, object]]], forgery: str
            ) -> tuple[Attempt, list[dict[str, object]] | None, str]:
    """An answer about a move of ``moves``' game, changed by ``forgery``, in a session of
    its own; the games sent with it, and what the refusal says."""
    import copy

    step = "gain" if forgery == "another gain" else "T"
    base, record = next((a, g) for a, g in moves if a.step.split("[")[0] == step
                        and a.outcome is Outcome.CORRECT)
    session = f"forged-{forgery.replace(' ', '-')}"
    row = replace(base, session=session, attempt_at_step=1, first_attempt=True)
    game = copy.deepcopy(record)
    expect = {"no record": "the record of that game did not come with it",
              "another deal": "is not the one seed",
              "deal not recorded": "is not a deal the class's store recorded",
              "another T": "played in its game gives",
              "another gain": "played in its game gives"}.get(forgery, "")
    rounds = game["rounds"]
    assert isinstance(rounds, list)
    if forgery == "another deal":
        hands = rounds[0]["hands"]
        hands[0][0], hands[1][0] = hands[1][0], hands[0][0]
    elif forgery == "deal not recorded":
        game["seed"] = int(str(game["seed"])) + 10_000  # a later match is dealt from seed + 1
    elif forgery == "another tile":
        at = move_of(base.problem)
        assert at is not None
        # Another tile, whichever way round the played one is written ("4/x" is "x/4").
        other = next(t for t in ("x/4", "x/5") if sorted(t.split("/")) != sorted(at[3].split("/")))
        row = replace(row, problem=f"m{at[0]}r{at[1]}t{at[2]}-{other}")
        expect = f"about {other}, but its game played"
    elif forgery in ("another T", "another gain"):
        wrong = (base.expected or 0) + 1
        row = replace(row, input=str(wrong), expected=wrong, answered=wrong)
    move = move_of(row.problem)
    assert move is not None
    games = None if forgery == "no record" else [
        {"session": session, "match": move[0], "record": game}]
    return row, games, expect


def test_games_that_are_not_records_get_a_sentence(service: Service) -> None:
    status, said = _post_with_games(service, "tok-beto", [_attempt("beto", "s9", 1)],
                                    [{"session": "s9", "match": "one"}])  # type: ignore[list-item]
    assert status == 400 and "a session, a match's number and its record" in said


def test_a_busy_database_is_said_without_its_address(pg_cluster: object) -> None:
    """PostgreSQL stopped: the 503's sentence says busy, not the database's address, user
    or port."""
    from urllib.parse import urlsplit

    url = pg_cluster.new_database()  # type: ignore[attr-defined]
    service = start_service(url)
    try:
        with service.client("tok-ana") as ana:
            ana.start_session("ana")
        pg_cluster.pause()  # type: ignore[attr-defined]
        try:
            status, answer = _send(service, "tok-ana", "GET", "attempts?student=ana", b"")
        finally:
            pg_cluster.resume()  # type: ignore[attr-defined]
        assert status == 503 and answer["error"] == "busy"
        where = urlsplit(url)
        said = str(answer)
        for secret in (where.hostname, str(where.port), where.username, where.path[1:]):
            assert secret and secret not in said, secret
    finally:
        service.stop()


def test_a_mistyped_mastery_row_is_400(service: Service) -> None:
    """A text where a number goes (PostgreSQL: InvalidTextRepresentation), a count beyond
    the database's INTEGER: refused with a sentence before the database sees it."""
    import json

    row = Mastery().to_dict()
    if not row:
        m = Mastery()
        m.record("multiply", True)
        row = m.to_dict()
    skill, good = next(iter(row.items()))
    for column, value in (("p_known", "a lot"), ("asked", "3"), ("streak", 2**40),
                          ("mastered", 7), ("p_known", 3.5)):
        body = json.dumps({"student": "ana", "rows": {skill: {**good, column: value}}})
        status, answer = _send(service, "tok-ana", "PUT", "mastery", body.encode())
        assert status == 400, (column, value, answer)
        assert column in str(answer)
    assert _send(service, "tok-ana", "PUT", "mastery", json.dumps(
        {"student": "ana", "rows": row}).encode())[0] == 200


def test_a_pages_lesson_end_is_stored_under_the_hubs_name_and_read_by_the_teacher(
        service: Service) -> None:
    """Issue 52 part 3 on a class server: the play page records the lesson's end through the
    service (the student's own, under the hub's name); one dated in the future is refused
    with a sentence; the teacher reads the class's ends and the sessions a merged file
    brought, a student only their own."""
    import json

    with service.client("tok-ana", owner="ana") as ana:
        session = ana.start_session("ana")
        ana.add_attempt(_attempt("ana", session, 1))
        ana.mark_session("ANA", session, "04-times", "mastered", "2026-12-01T10:00:02+00:00")
        ana.mark_session("ana", session, "04-times", "mastered", "2026-12-01T10:00:02+00:00")
        with pytest.raises(StoreError, match="not why a lesson ends"):
            ana.mark_session("ana", session, "04-times", FROM_FILE)
        with pytest.raises(StoreAccessError):
            ana.mark_session("beto", session, "04-times", "mastered")
        assert [(m.student, m.mark) for m in ana.session_marks()] == [("ana", "mastered")]
        with pytest.raises(StoreAccessError):
            ana.session_marks(student="beto")
    status, answer = _send(service, "tok-beto", "POST", "marks", json.dumps(
        {"student": "beto", "session": "s-b", "lesson": "04-times", "mark": "mastered",
         "time": "9999-01-01T00:00:00+00:00"}).encode())
    assert status == 400 and "in the future" in json.dumps(answer)
    with service.client("tok-ruiz") as ruiz:
        assert ruiz.merge([_attempt("carla", "s-file", 2)], from_file=True) == 1
        marks = ruiz.session_marks()
        assert [(m.student, m.session, m.mark) for m in marks] == [
            ("ana", session, "mastered"), ("carla", "s-file", FROM_FILE)]
        assert ruiz.session_marks("2026-12-01T10:00:03+00:00") == marks[1:]
    with Store(service.database) as direct:
        assert direct.session_marks() == marks


# -- what one answer sent costs the service's check (issue 51: a few rows read, not the lesson)

@functools.lru_cache(maxsize=1)
def _played() -> tuple[Attempt, ...]:
    """ana's answers as pages record them: three games of 04-times (the same questions come
    again in other games) and one of 07-all-power."""
    import tempfile
    from pathlib import Path

    from tutor.commands.learners import learner
    from tutor.commands.simulate import simulate_one

    with tempfile.TemporaryDirectory() as tmp:
        with Store(Path(tmp) / "played.sqlite3") as played:
            for seed, lesson in enumerate(("04-times", "04-times", "04-times", "07-all-power")):
                simulate_one(lesson, learner("learner:0.5", "en"), seed, "en", store=played,
                             name="ana")
            return tuple(played.attempts("ana"))


def _moved(a: Attempt, session: str, seconds: float, duration: float | None = None
           ) -> Attempt:
    from datetime import datetime, timedelta

    when = datetime.fromisoformat(a.time) + timedelta(seconds=seconds)
    return replace(a, session=session, time=when.isoformat(timespec="microseconds"),
                   duration=a.duration if duration is None else duration)


def test_the_services_check_reads_few_rows_and_judges_as_with_the_whole_lesson(
        store_url: str) -> None:
    """The check of answers sent reads the sent sessions' stored answers and, of the other
    sessions, only those to the same questions (:meth:`Store.replay_context`), and its
    result is the one it gives with every stored answer of the lessons
    (:meth:`Store.lesson_attempts`): the same misfits, the same refusal and sentence, for
    honest answers, answers sent again, forged ones, and copies (one finely timed, two or
    more coarsely timed moved by the same time, of which one already stored in the sent
    session: the copy it is moved with is read through the stored one's question)."""
    from datetime import datetime, timezone

    from tutor.classroom.hand_in import stored_misfits
    from tutor.hub.store_service import _refusal

    rows = list(_played())
    sessions = list(dict.fromkeys(a.session for a in rows))
    first, second, last = sessions[0], sessions[1], sessions[2]
    assert len(sessions) == 4 and len({a.lesson for a in rows}) == 2
    # The first game's seconds measured coarsely (to a tenth): its copies count in pairs.
    coarse = [replace(a, duration=round(a.duration, 1) + 0.1) if a.session == first else a
              for a in rows]
    held = [a for a in coarse if a.session == last][-5:]
    a1, a2 = [a for a in coarse if a.session == first and a.outcome is Outcome.CORRECT][:2]
    b_row = [a for a in coarse if a.session == second and a.outcome is Outcome.CORRECT][0]
    in_second = _moved(a1, second, 7200)  # a copy already stored in the second game
    stored_rows = [a for a in coarse if a not in held] + [in_second]
    right = next(a for a in held if a.outcome is Outcome.CORRECT and a.expected)
    batches = {
        "the next answers": held,
        "the next answer": held[:1],
        "answers sent again": [a for a in coarse if a.session == last][:3],
        "a forged answer": [replace(right, input="1", answered=1)],
        "a fine copy": [_moved(b_row, last, 3600)],
        "a fine copy, same session": [_moved(b_row, second, 3600)],
        "one coarse copy": [_moved(a2, last, 3600)],
        "two coarse copies": [_moved(a1, last, 3600), _moved(a2, last, 3600)],
        "a coarse copy moved with a stored one": [_moved(a2, second, 7200)],
        "another lesson in the session": [replace(held[0], lesson="07-all-power")],
        "a time in the future": [replace(held[0], time="9999-01-01T10:00:00.000000+00:00")],
    }
    now = datetime.now(timezone.utc)
    with Store(store_url) as store:
        assert store.merge(stored_rows) == len(stored_rows)
        found = {}
        for what, sent in batches.items():
            everything = store.lesson_attempts("ana", {a.lesson for a in sent})
            few = store.replay_context("ana", sent)
            assert set(few) <= set(everything) and len(few) < len(everything), what
            old, new = (stored_misfits(sent, everything, now=now),
                        stored_misfits(sent, few, now=now))
            assert new == old, what
            old_no, new_no = (_refusal(everything, sent, now, (0, 0, 0)),
                              _refusal(few, sent, now, (0, 0, 0)))
            assert (old_no is None) == (new_no is None), what
            if old_no is not None and new_no is not None:
                assert (new_no.status, str(new_no.err)) == (old_no.status, str(old_no.err)), what
            found[what] = [m.problem.msgid for m in old]
    copy = "the same answer, with the same seconds"
    assert found["the next answers"] == found["answers sent again"] == []
    assert found["a forged answer"] and found["a time in the future"]
    for what in ("a fine copy", "a fine copy, same session", "two coarse copies",
                 "a coarse copy moved with a stored one"):
        assert any(m.startswith(copy) for m in found[what]), (what, found[what])
    assert not any(m.startswith(copy) for m in found["one coarse copy"])


def test_the_daily_cap_counts_what_the_store_received_whatever_the_answers_times(
        service: Service, monkeypatch: pytest.MonkeyPatch) -> None:
    """Rows dated a week ago count on the day the store receives them: past the cap they are
    refused (429, its sentence), as today's are. A page's honest backlog (answers kept
    through an outage, sent later with their own older times) below the cap is stored, and
    counts today."""
    from datetime import datetime, timedelta, timezone

    import tutor.hub.store_service as service_module

    monkeypatch.setattr(service_module, "MAX_ROWS_PER_DAY", 5)
    week_ago = datetime.now(timezone.utc) - timedelta(days=7)
    old = [replace(_attempt("beto", "s-old", k), time=(week_ago + timedelta(seconds=k))
                   .isoformat(timespec="microseconds")) for k in range(1, 8)]
    for row in old[:5]:
        assert _post_rows(service, "tok-beto", [row])[0] == 200
    assert _post_rows(service, "tok-beto", [old[4]])[0] == 200  # sent again: not more
    status, said = _post_rows(service, "tok-beto", [old[5]])
    assert status == 429 and "5 answers in a day" in said
    status, said = _post_rows(service, "tok-beto", old[5:])
    assert status == 429 and "5 answers in a day" in said
    assert len(_stored(service, "beto")) == 5

    kept = datetime.now(timezone.utc) - timedelta(hours=3)  # the store was down since then
    backlog = [replace(_attempt("ana", "s-outage", k), time=(kept + timedelta(seconds=k))
                       .isoformat(timespec="microseconds")) for k in range(1, 5)]
    assert _post_rows(service, "tok-ana", backlog) == (200, "")
    assert _stored(service, "ana") == backlog
    more = [replace(_attempt("ana", "s-outage", k), time=(kept + timedelta(seconds=k))
                    .isoformat(timespec="microseconds")) for k in range(5, 7)]
    status, said = _post_rows(service, "tok-ana", more)  # 4 received today, and 2: over 5
    assert status == 429 and "5 answers in a day" in said
    assert _post_rows(service, "tok-ana", more[:1])[0] == 200

    # A teacher's merge of carla's files is no page's sending: it does not count.
    with service.client("tok-ruiz") as ruiz:
        assert ruiz.merge([_attempt("carla", f"s-file{k}", 1) for k in range(10)]) == 10
    assert _post_rows(service, "tok-carla", [_attempt("carla", "s-page", 1)])[0] == 200
