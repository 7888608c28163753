"""A classroom's kernels share one progress file: created at once, written at once, killed."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest

from tutor.store import Store

ROOT = Path(__file__).resolve().parents[2]
CLASS = 30

# One student's kernel: says it is ready, waits for the start file (so all of them open the
# store together), says it is opening the store, then records COUNT attempts and prints the
# number of each one once record_attempt has returned (so it is committed).
WRITER = textwrap.dedent(
    """
    import os, sys, time
    from tutor.store import Store
    db, name, count, start = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
    print("ready", flush=True)
    for _ in range(1_000_000):
        if os.path.exists(start):
            break
        time.sleep(0.0005)
    print("opening", flush=True)
    store = Store(db)
    session = store.start_session(name)
    for i in range(count):
        store.record_attempt(name, session, lesson="L", problem=f"p{i}", step="s",
                             outcome="CORRECT", input_text=str(i), kc="add", expected=i,
                             answered=i)
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


def start_class(kids: Kids, db: Path, counts: list[int], tmp_path: Path, names: list[str],
                creating: bool = False) -> Kids:
    """One writer per name (writing as many attempts as its count), all let go at the same
    moment (once every one is ready).

    ``creating``: one more kernel is creating the (new, empty) file just then: it holds the
    write lock until every writer has started opening the store, so they all find a file
    with no tables yet, and must wait for it rather than create it too.
    """
    start = tmp_path / "start"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    kids.extend(subprocess.Popen([sys.executable, "-c", WRITER, str(db), name, str(count),
                                  str(start)], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                 text=True, env=env)
                for name, count in zip(names, counts, strict=True))
    for kid in kids:
        assert kid.stdout is not None
        assert kid.stdout.readline() == "ready\n"
    creator = sqlite3.connect(db, isolation_level=None) if creating else None
    if creator is not None:
        creator.execute("BEGIN IMMEDIATE")
    start.touch()
    for kid in kids:
        assert kid.stdout is not None
        assert kid.stdout.readline() == "opening\n"
    if creator is not None:
        creator.execute("ROLLBACK")
        creator.close()
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


def test_thirty_kernels_create_the_store_at_once(tmp_path: Path, kids: Kids) -> None:
    db = tmp_path / "class.sqlite3"
    names = [f"student{i:02d}" for i in range(CLASS)]
    results = finish(start_class(kids, db, [3] * CLASS, tmp_path, names, creating=True))
    failures = [stderr.strip().splitlines()[-1] for code, _, stderr in results if code != 0]
    assert failures == []
    with Store(db) as store:
        assert store.integrity_ok()
        assert store.conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert store.conn.execute("SELECT COUNT(*) FROM schema_version").fetchone()[0] == 1
        assert store.students() == names
        assert len(store.attempts()) == 3 * CLASS


def test_thirty_kernels_writing_at_once_lose_no_attempt(tmp_path: Path, kids: Kids) -> None:
    db = tmp_path / "class.sqlite3"
    names = [f"student{i:02d}" for i in range(CLASS)]
    results = finish(start_class(kids, db, [200] * CLASS, tmp_path, names, creating=True))
    failures = [stderr.strip().splitlines()[-1] for code, _, stderr in results if code != 0]
    assert failures == []
    with Store(db) as store:
        assert store.integrity_ok()
        assert store.conn.execute("SELECT COUNT(*) FROM attempts").fetchone()[0] == 200 * CLASS
        for name in names:
            rows = store.attempts(name)
            assert [r.input for r in rows] == [str(i) for i in range(200)]
            assert all(r.attempt_at_step == 1 for r in rows)


def test_killed_kernels_lose_nothing_they_committed(tmp_path: Path, kids: Kids) -> None:
    """A third of the class is killed (SIGKILL) while all are writing: what a killed kernel
    had committed is kept, the file stays intact, and the others finish every attempt."""
    db = tmp_path / "class.sqlite3"
    Store(db).close()
    names = [f"student{i:02d}" for i in range(CLASS)]
    victims = set(names[::3])
    # The victims would write for ever: they are still writing when they are killed.
    start_class(kids, db, [10**9 if name in victims else 200 for name in names], tmp_path,
                names)
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
