"""A classroom's kernels share one progress store: created at once, written at once, killed,
and (PostgreSQL) the server restarted under them. Each runs on SQLite and on PostgreSQL."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import textwrap
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tutor.storage.store import Store
from tutor.storage.store_backends import SCHEMA_LOCK

ROOT = Path(__file__).resolve().parents[2]
CLASS = 30

# One student's kernel: says it is ready, waits for "go" on its stdin (so all of them open
# the store together; blocked on a read, not polling, so 30 waiting kernels leave the CPU to
# the database server), says it is opening the store, then records COUNT attempts and prints
# the number of each one once record_attempt has returned (so it is committed). A write the
# store calls busy (its waits all spent while the others write) is sent again, as the play
# page does (tutor.session.saving.Recorder keeps it and sends it with the next write): a
# class on a loaded machine waits longer, and loses nothing.
WRITER = textwrap.dedent(
    """
    import sys
    from tutor.storage.store import Store, StoreBusyError
    db, name, count = sys.argv[1], sys.argv[2], int(sys.argv[3])

    def patiently(write):
        for _ in range(20):
            try:
                return write()
            except StoreBusyError:
                pass
        return write()

    print("ready", flush=True)
    assert sys.stdin.readline() == "go\\n"
    print("opening", flush=True)
    store = patiently(lambda: Store(db))
    session = patiently(lambda: store.start_session(name))
    for i in range(count):
        patiently(lambda: store.record_attempt(
            name, session, lesson="L", problem=f"p{i}", step="s", outcome="CORRECT",
            input_text=str(i), kc="add", expected=i, answered=i))
        print(i, flush=True)
    store.close()
    """
)


Kids = list[subprocess.Popen[str]]


@pytest.fixture
def kids() -> Iterator[Kids]:
    """The writers a test starts; any still running when it ends (a failed test) is killed."""
    started: Kids = []
    yield started
    for kid in started:
        if kid.poll() is None:
            kid.kill()
            kid.communicate()


class _Creator:
    """Another kernel creating the store just then: it holds the schema's lock (SQLite: the
    file's write lock; PostgreSQL: the advisory lock) until let go."""

    def __init__(self, db: str) -> None:
        if db.startswith("postgresql://"):
            import psycopg

            self.conn: Any = psycopg.connect(db, autocommit=True)
            self.conn.execute("SELECT pg_advisory_lock(%s)", (SCHEMA_LOCK,))
            self.release = "SELECT pg_advisory_unlock_all()"
        else:
            self.conn = sqlite3.connect(db, isolation_level=None)
            self.conn.execute("BEGIN IMMEDIATE")
            self.release = "ROLLBACK"

    def let_go(self) -> None:
        self.conn.execute(self.release)
        self.conn.close()


def start_class(kids: Kids, db: str, counts: list[int], names: list[str],
                creating: bool = False) -> Kids:
    """One writer per name (writing as many attempts as its count), all let go at the same
    moment (once every one is ready).

    ``creating``: one more kernel is creating the (new, empty) file just then: it holds the
    write lock until every writer has started opening the store, so they all find a file
    with no tables yet, and must wait for it rather than create it too.
    """
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    kids.extend(subprocess.Popen([sys.executable, "-c", WRITER, db, name, str(count)],
                                 stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                 stderr=subprocess.PIPE, text=True, env=env)
                for name, count in zip(names, counts, strict=True))
    for kid in kids:
        assert kid.stdout is not None
        assert kid.stdout.readline() == "ready\n"
    creator = _Creator(db) if creating else None
    for kid in kids:
        assert kid.stdin is not None
        kid.stdin.write("go\n")
        kid.stdin.close()
    for kid in kids:
        assert kid.stdout is not None
        assert kid.stdout.readline() == "opening\n"
    if creator is not None:
        creator.let_go()
    return kids


def finish(kids: Kids) -> list[tuple[int, list[int], str]]:
    """Each writer's exit code, the attempts it reported committed, and its stderr."""
    out = []
    for kid in kids:
        assert kid.stdout is not None and kid.stderr is not None
        # Read through the text streams: a line already read ahead into their buffers (by
        # readline) is then not skipped. Each writer prints little, so no pipe fills up.
        stdout, stderr = kid.stdout.read(), kid.stderr.read()
        out.append((kid.wait(timeout=600), [int(x) for x in stdout.split()], stderr))
    return out


@pytest.mark.slow
def test_thirty_kernels_create_the_store_at_once(tmp_path: Path, kids: Kids, store_url: str
                                                 ) -> None:
    db = store_url
    names = [f"student{i:02d}" for i in range(CLASS)]
    results = finish(start_class(kids, db, [3] * CLASS, names, creating=True))
    failures = [stderr.strip().splitlines()[-1] for code, _, stderr in results if code != 0]
    assert failures == []
    with Store(db) as store:
        assert store.integrity_ok()
        if store.kind == "sqlite":
            assert store.db.conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert store.db.conn.execute("SELECT COUNT(*) FROM schema_version").fetchone()[0] == 1
        assert store.students() == names
        assert len(store.attempts()) == 3 * CLASS


def _lose_nothing(kids: Kids, db: str, tmp_path: Path, restart: Callable[[], None] | None
                  ) -> None:
    """30 writers of 200 attempts each; ``restart`` (if any) while all are writing (once
    every writer has committed some): every attempt stored once, in order."""
    names = [f"student{i:02d}" for i in range(CLASS)]
    start_class(kids, db, [200] * CLASS, names, creating=True)
    if restart is not None:
        for kid in kids:
            assert kid.stdout is not None
            assert [int(kid.stdout.readline()) for _ in range(20)] == list(range(20))
        restart()
    results = finish(kids)
    failures = [stderr.strip().splitlines()[-1] for code, _, stderr in results if code != 0]
    assert failures == []
    with Store(db) as store:
        assert store.integrity_ok()
        assert store.db.conn.execute("SELECT COUNT(*) FROM attempts").fetchone()[0] == 200 * CLASS
        assert store.students() == names
        for name in names:
            rows = store.attempts(name)
            assert [r.input for r in rows] == [str(i) for i in range(200)]
            assert all(r.attempt_at_step == 1 for r in rows)


# On PostgreSQL the restart test below is this test with a restart in it: run once, there.
@pytest.mark.slow
@pytest.mark.parametrize("store_urls", ["sqlite"], indirect=True)
def test_thirty_kernels_writing_at_once_lose_no_attempt(tmp_path: Path, kids: Kids,
                                                        store_url: str) -> None:
    _lose_nothing(kids, store_url, tmp_path, restart=None)


@pytest.mark.slow
def test_a_server_restart_mid_class_loses_and_doubles_nothing(tmp_path: Path, kids: Kids,
                                                             pg_cluster: Any) -> None:
    """``pg_ctl restart -m fast`` while 30 kernels write to the shared PostgreSQL store: each
    reconnects and makes its write again; every attempt is stored exactly once (an attempt
    whose commit got through before the connection was cut is found, not stored twice)."""
    _lose_nothing(kids, pg_cluster.new_database(), tmp_path, restart=pg_cluster.restart)


@pytest.mark.slow
def test_killed_kernels_lose_nothing_they_committed(tmp_path: Path, kids: Kids,
                                                   store_url: str) -> None:
    """A third of the class is killed (SIGKILL) while all are writing: what a killed kernel
    had committed is kept, the file stays intact, and the others finish every attempt."""
    db = store_url
    Store(db).close()
    names = [f"student{i:02d}" for i in range(CLASS)]
    victims = set(names[::3])
    # The victims would write for ever: they are still writing when they are killed.
    start_class(kids, db, [10**9 if name in victims else 200 for name in names], names)
    reported: dict[str, list[int]] = {}
    for n, (name, kid) in enumerate((name, kid) for name, kid in zip(names, kids, strict=True)
                                    if name in victims):
        assert kid.stdout is not None
        lines = [kid.stdout.readline() for _ in range(20 + 5 * n)]
        kid.send_signal(signal.SIGKILL)
        reported[name] = [int(line) for line in lines if line]
    results = finish(kids)
    with Store(db) as store:
        assert store.integrity_ok()
        for name, (code, printed, stderr) in zip(names, results, strict=True):
            stored = [int(a.input) for a in store.attempts(name)]
            if name in victims:
                assert code == -signal.SIGKILL, stderr
                committed = reported[name] + printed
                assert stored[:len(committed)] == committed
                assert len(stored) <= len(committed) + 1  # at most one not yet reported
            else:
                assert code == 0, stderr
                assert stored == list(range(200))
