"""Test-wide setup: progress written by tests (and by the notebooks nbval runs) goes to a
throwaway file, never to the user's real progress store."""

import os
import shutil
import subprocess
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    import random

    from tutor.course.lessons import Lesson
    from tutor.session.session import Session

ROOT = Path(__file__).resolve().parent


def pytest_report_header(config):  # noqa: ARG001 - pytest hook signature
    """Which engine build the run tests: compiled by mypyc, or pure Python (and why)."""
    import engine

    return f"engine: {engine.BUILD}"


SLOW_PARTS = ("tests/browser/", "notebooks/Teacher.ipynb")
"""Tests marked ``slow`` by where they are: every browser test drives Chromium against real
servers (Voilà, a hub) started for it, and the teacher page's notebook runs a class's
simulated answers (about 20 s). The other tests over 5 s on a busy 2-core machine (about
2 s idle) carry ``@pytest.mark.slow`` themselves. ``pytest -m "not slow"`` is the inner loop
(CONTRIBUTING.md)."""


def pytest_collection_modifyitems(config, items):  # noqa: ARG001 - pytest hook signature
    for item in items:
        if item.nodeid.startswith(SLOW_PARTS):
            item.add_marker(pytest.mark.slow)


def pytest_xdist_auto_num_workers(config):
    """Workers for ``-n auto`` (``pyproject.toml``'s addopts): one per core (at most 4), each
    running whole files (``--dist loadfile``, so a file's servers start once). A run of one
    file or of tests in one file gets none: a file is never split, and a worker costs
    seconds to start."""
    files = {str(arg).split("::", 1)[0] for arg in config.args}
    if len(files) == 1 and Path(next(iter(files))).is_file():
        return 0
    return None  # pytest-xdist's own count: the cores


def pytest_configure(config):  # noqa: ARG001 - pytest hook signature
    # One throwaway file per test process: the workers of a run side by side (pytest-xdist)
    # inherit the first process's settings, so the file it made is replaced by their own.
    if "LEONARD_TUTOR_DB" not in os.environ or os.environ.get("LEONARD_TESTS_OWN_DB"):
        folder = tempfile.mkdtemp(prefix="leonard-tests-")
        os.environ["LEONARD_TUTOR_DB"] = os.path.join(folder, "progress.sqlite3")
        os.environ["LEONARD_TESTS_OWN_DB"] = "1"


def _copy_checkout(dest: Path) -> Path:
    """Copy the repository as a clone would have it (tracked and new files, nothing ignored)
    into ``dest``, so a build or an install test leaves the checkout untouched."""
    files = subprocess.run(["git", "ls-files", "-z", "--cached", "--others",
                            "--exclude-standard"], cwd=ROOT, check=True,
                           capture_output=True).stdout.decode().split("\0")
    for name in filter(None, files):
        src = ROOT / name
        if src.is_file():
            (dest / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dest / name)
    return dest


@pytest.fixture(scope="session")
def pg_cluster() -> Any:
    """One throwaway PostgreSQL cluster for the whole test run (tests/pg_cluster.py), stopped
    by its pid at the end; the test is skipped, saying why, when it cannot be started."""
    from tests.pg_cluster import Cluster, why_not

    reason = why_not()
    if reason is not None:
        pytest.skip(reason)
    cluster = Cluster().start()
    try:
        yield cluster
    finally:
        cluster.stop()


@pytest.fixture(params=["sqlite", "postgresql"])
def store_urls(request: pytest.FixtureRequest, tmp_path: Path) -> Callable[[], str]:
    """Fresh, empty progress stores' addresses, one per call: SQLite files in ``tmp_path``,
    or databases of the session's PostgreSQL cluster (the test runs once with each)."""
    if request.param == "sqlite":
        counter = iter(range(1_000_000))
        return lambda: str(tmp_path / f"store{next(counter)}.sqlite3")
    cluster = request.getfixturevalue("pg_cluster")
    return cluster.new_database  # type: ignore[no-any-return]


@pytest.fixture
def store_url(store_urls: Callable[[], str]) -> str:
    """A fresh, empty progress store's address, on SQLite and on PostgreSQL."""
    return store_urls()


@pytest.fixture(scope="session")
def copy_checkout() -> Callable[[Path], Path]:
    return _copy_checkout


def once_per_run(tmp_path_factory: pytest.TempPathFactory, name: str,
                 make: Callable[[Path], None]) -> Path:
    """A folder ``name`` made by ``make(folder)`` once in the test run. Test workers running
    side by side (pytest-xdist) share it: the first makes it under a file lock, the others
    wait and find it made. A folder half made (a worker killed) is made again."""
    import fcntl

    shared = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        shared = shared.parent  # this run's folder, above each worker's own
    folder = shared / name
    with open(shared / f"{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes
        if not (folder / ".made").exists():
            shutil.rmtree(folder, ignore_errors=True)
            folder.mkdir()
            make(folder)
            (folder / ".made").touch()
    return folder


@pytest.fixture(scope="session")
def built_wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The project's wheel, built once per test run from a copy of the checkout as ``pip
    install .`` builds it (``pip wheel --no-deps``: an isolated build, the engine compiled
    where a C compiler is). The install test and Binder's emulation install it."""
    import sys

    def build(folder: Path) -> None:
        source = folder / "source"
        source.mkdir()
        _copy_checkout(source)
        subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w",
                        str(folder), str(source)], check=True, cwd=folder)
        shutil.rmtree(source)

    (wheel,) = once_per_run(tmp_path_factory, "wheel", build).glob("leonard_domino_tutor-*.whl")
    return wheel


def play_lesson(lesson: "str | Lesson", student: str, db: Path, seed: int, wrong_every: int = 0,
                rounds: int | None = None, assignment: str | None = None) -> None:
    """A student plays ``lesson`` (a shipped lesson's name, or a lesson): ``rounds`` of it, or
    the whole match, answering right, except that every ``wrong_every``-th question is first
    answered by adding where the tile multiplies (or just wrong). Random moves from ``seed``.
    ``assignment``: the id of the assignment whose link opened the game."""
    import random

    from tutor.session.session import Session

    extra = {} if rounds is None else {"rounds": rounds}
    s = Session.from_lesson(lesson, lang="en", student=student, store=str(db), seed=seed,
                            assignment=assignment, **extra)
    play_until(s, random.Random(seed), lambda _s: False, wrong_every)
    s.close()


def play_until(s: "Session", rng: "random.Random", done: Callable[["Session"], bool],
               wrong_every: int = 0) -> bool:
    """A simulated student's steps in session ``s`` (answers right, except every
    ``wrong_every``-th question first answered wrong; random moves from ``rng``) until
    ``done(s)`` (True), or the match is over (False)."""
    asked = 0
    for _ in range(10_000):
        if done(s):
            return True
        q = s.pending_question
        if q is not None:
            asked += 1
            if wrong_every and asked % wrong_every == 0:
                wrong = (q.context.n + (q.context.t or 0) if q.context.rule == "x/n"
                         else q.expected + 1)
                if not q.is_right(wrong):
                    s.answer(str(wrong))
            s.answer(str(q.expected))
        elif s.current_player() is not None:
            s.apply_action(rng.randrange(len(s.legal_actions())))
        elif s.waiting() is None:
            s.advance(forced=False)  # the bots' moves
        elif s.round.over and not s.match.over:
            s.new_round()
        else:
            return False
    return False


@pytest.fixture(scope="session")
def plays_until() -> Any:
    """:func:`play_until`: a simulated student's steps in a session until a condition."""
    return play_until


@pytest.fixture(scope="session")
def student_plays() -> Any:
    """:func:`play_lesson`: a simulated student plays a lesson into a progress file."""
    return play_lesson


@pytest.fixture(scope="session")
def class_files(tmp_path_factory: pytest.TempPathFactory) -> list[tuple[str, bytes]]:
    """A class of 30: each student's progress export (name, bytes), from a round of lesson
    04-times really played through the tutor, with some named mistakes. Made once per test
    run (about half a minute) for the teacher page's tests."""
    from tutor.storage.store import Store

    def play(folder: Path) -> None:
        db = folder / "class.sqlite3"
        for k in range(30):
            name = f"student-{k:02d}"
            play_lesson("04-times", name, db, seed=200 + k, wrong_every=2 + k % 3, rounds=1)
            with Store(db) as store:
                store.export_csv(folder / f"{name}.csv", name)

    folder = once_per_run(tmp_path_factory, "class", play)
    return [(f"student-{k:02d}.csv", (folder / f"student-{k:02d}.csv").read_bytes())
            for k in range(30)]


@pytest.fixture(scope="session")
def own_thread() -> Callable[[Callable[[], Any]], Any]:
    """Runs a function in a thread of its own and returns what it returns (or raises what it
    raises), for a test that runs an asyncio loop: asyncio keeps the running loop per thread,
    and after the browser tests the session-wide Playwright (sync API) leaves its loop marked
    as running in the main thread, where ``asyncio.run``/``run_until_complete`` then refuse."""
    from concurrent.futures import ThreadPoolExecutor

    def run(fn: Callable[[], Any]) -> Any:
        with ThreadPoolExecutor(1) as thread:
            return thread.submit(fn).result()

    return run


@pytest.fixture(scope="session")
def hostile_names() -> tuple[str, ...]:
    """Upload file names a class may send (tests/hostile.py): data, never paths."""
    from tests.hostile import UPLOAD_NAMES

    return UPLOAD_NAMES


@pytest.fixture
def hostile_lessons(tmp_path: Path) -> tuple[Path, dict[str, str | None]]:
    """A folder of odd lesson files (encodings, sizes, numbers) and special files (a FIFO, a
    symlink to /dev/zero, a folder, a dangling symlink), with the fragment each file's
    problem line must hold (None: a good lesson). See tests/hostile.py."""
    from tests.hostile import make_special_files, write_lesson_files

    folder = tmp_path / "hostile-lessons"
    expected = write_lesson_files(folder)
    expected.update(make_special_files(folder))
    return folder, expected
