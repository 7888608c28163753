"""The class's store service (issue 41 part 2) and a page's client of it, without a hub: the
service's routes run in a thread of their own with a stand-in for the hub's token check
(``tokens``: token → the caller the hub would name), over the real database (SQLite and
PostgreSQL). The real hub's check of a token is in ``tests/browser/test_hub.py``.

What a student's kernel can do with the store is what its token allows: its own rows, under
its own name; the class's rows and students' files are a teacher's."""

from __future__ import annotations

import asyncio
import socket
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace

import pytest

from tutor.hub.store_service import Caller, Keeper, make_app
from tutor.storage.records import Attempt, Outcome, StoreError
from tutor.storage.service_store import ServiceStore
from tutor.storage.store import Store, StoreAccessError, StoreBusyError
from tutor.teaching.mastery import Mastery

TOKENS = {"tok-ana": Caller("ana", False), "tok-beto": Caller("beto", False),
          "tok-ruiz": Caller("ms.ruiz", True)}


@dataclass
class Service:
    url: str
    database: str
    port: int
    stop: Callable[[], None]

    def client(self, token: str, **options: object) -> Store:
        return Store(self.url, token=token, lang="en", busy_timeout=0.5, retries=1,
                     **options)  # type: ignore[arg-type]


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

    def run() -> None:
        loop = asyncio.new_event_loop()
        asyncio.set_event_loop(loop)
        keeper = Keeper(database)
        app = make_app(identify, keeper, "/services/leonard-store/")
        server = app.listen(port, "127.0.0.1")
        state.update(loop=loop, server=server, keeper=keeper)
        ready.set()
        loop.run_forever()
        server.stop()
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
    return Attempt(student, session, f"2026-12-01T10:00:{second:02d}.000000+00:00", "04-times",
                   "x/3 on 4", "gain", outcome, "12", "", "multiply", 1, True, 0, 2.0, 12, 12)


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


def test_a_service_out_of_reach_is_busy_and_the_answers_wait(store_urls: Callable[[], str]
                                                             ) -> None:
    """The service down (or restarting): the store says "busy" at once, and says it without
    asking again for a moment, so the page answers the student's clicks; the answers are
    saved when it is back, none twice."""
    import time

    from tutor.storage.recorder import Recorder
    from tutor.storage.service_store import COOLDOWN

    database = store_urls()
    port = _free_port()
    client = Store(f"http://127.0.0.1:{port}/services/leonard-store/", token="tok-ana",
                   busy_timeout=0.5, retries=1)
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
