"""Progress store: every attempt and each student's mastery in one SQLite file."""

from __future__ import annotations

import os
import sqlite3
import time as _time
import uuid
from collections.abc import Callable, Iterable, Sequence
from dataclasses import astuple
from datetime import datetime, timezone
from pathlib import Path
from typing import TypeVar

from tutor.i18n import N_, SOURCE_LANG, normalize_lang
from tutor.mastery import Mastery, Params, SkillState, default_params
from tutor.records import (
    CSV_COLUMNS,
    DATASHOP_COLUMNS,
    KC_SEPARATOR,
    LIMITS,
    MAX_TEXT,
    Attempt,
    Outcome,
    ProgressImportError,
    StoreError,
    check_attempt,
    out_of_range,
)
from tutor.records import outcome as _outcome

__all__ = [
    "BUSY_RETRIES",
    "BUSY_TIMEOUT",
    "CSV_COLUMNS",
    "DATASHOP_COLUMNS",
    "ENV_VAR",
    "LIMITS",
    "MAX_TEXT",
    "SCHEMA_VERSION",
    "Attempt",
    "Outcome",
    "ProgressImportError",
    "Store",
    "StoreBusyError",
    "StoreError",
    "check_attempt",
    "default_path",
    "out_of_range",
]

ENV_VAR = "LEONARD_TUTOR_DB"
SCHEMA_VERSION = 1
_SQLITE_MAGIC = b"SQLite format 3\x00"
# Waiting for a busy progress file: SQLite itself waits up to BUSY_TIMEOUT seconds for the
# lock; a write that still finds it busy is tried again BUSY_RETRIES more times, after
# pauses of _BACKOFF, 2 × _BACKOFF, 4 × _BACKOFF … seconds. Bounded by a count of tries,
# not by a clock.
BUSY_TIMEOUT = 5.0
BUSY_RETRIES = 3
_BACKOFF = 0.05
_SQLITE_BUSY, _SQLITE_LOCKED = 5, 6
_T = TypeVar("_T")


class StoreBusyError(StoreError):
    """The progress file stayed locked by other writers through every try; nothing was
    written (the write can simply be made again later)."""


# The columns both formats carry: a row with the same values here is a duplicate.
_KEY = ("student", "session", "time", "lesson", "problem", "step", "outcome", "input",
        "feedback", "kc", "attempt_at_step")

# Statements run in one transaction; IF NOT EXISTS because several kernels may create the
# same new file at once (the one that gets the lock first creates it, the others find it).
_SCHEMA = (
    "CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)",
    f"INSERT INTO schema_version SELECT {SCHEMA_VERSION} "
    "WHERE NOT EXISTS (SELECT 1 FROM schema_version)",
    """CREATE TABLE IF NOT EXISTS students (
    id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, created TEXT NOT NULL)""",
    """CREATE TABLE IF NOT EXISTS sessions (
    id TEXT PRIMARY KEY, student_id INTEGER NOT NULL REFERENCES students(id),
    started TEXT NOT NULL)""",
    """CREATE TABLE IF NOT EXISTS attempts (
    id INTEGER PRIMARY KEY,
    student_id INTEGER NOT NULL REFERENCES students(id),
    session TEXT NOT NULL REFERENCES sessions(id),
    time TEXT NOT NULL, lesson TEXT NOT NULL, problem TEXT NOT NULL, step TEXT NOT NULL,
    outcome TEXT NOT NULL CHECK (outcome IN ('CORRECT', 'INCORRECT', 'HINT', 'GIVEUP')),
    input TEXT NOT NULL, feedback TEXT NOT NULL, kc TEXT NOT NULL,
    attempt_at_step INTEGER NOT NULL, first_attempt INTEGER NOT NULL,
    hints INTEGER NOT NULL, duration REAL NOT NULL, expected INTEGER, answered INTEGER,
    UNIQUE (student_id, session, time, lesson, problem, step, outcome, input, feedback, kc,
            attempt_at_step))""",
    """CREATE TABLE IF NOT EXISTS mastery (
    student_id INTEGER NOT NULL REFERENCES students(id), skill TEXT NOT NULL,
    p_known REAL NOT NULL, mastered INTEGER NOT NULL, asked INTEGER NOT NULL,
    first_try_right INTEGER NOT NULL, hints_used INTEGER NOT NULL,
    total_seconds REAL NOT NULL, streak INTEGER NOT NULL DEFAULT 0,
    scaffolded_right INTEGER NOT NULL DEFAULT 0,
    misconceptions INTEGER NOT NULL DEFAULT 0, PRIMARY KEY (student_id, skill))""",
)
# Columns added to the mastery table after version 1 was released: a file that lacks them
# gets them (with their defaults) when opened, so older progress files keep loading.
_MASTERY_ADDED = (("streak", "INTEGER NOT NULL DEFAULT 0"),
                  ("scaffolded_right", "INTEGER NOT NULL DEFAULT 0"),
                  ("misconceptions", "INTEGER NOT NULL DEFAULT 0"))
_MASTERY_COLUMNS = ("skill", "p_known", "mastered", "asked", "first_try_right", "hints_used",
                    "total_seconds", "streak", "scaffolded_right", "misconceptions")


def default_path() -> Path:
    """``$LEONARD_TUTOR_DB`` if set, else the default under ``~/.local/share``:

    ``~/.local/share/leonard-domino-tutor/progress.sqlite3``.

    The folder is created when the store opens.
    """
    env = os.environ.get(ENV_VAR)
    if env:
        return Path(env).expanduser()
    return Path.home() / ".local" / "share" / "leonard-domino-tutor" / "progress.sqlite3"


def utc_now() -> str:
    """The current time as ISO 8601 UTC with microseconds."""
    return datetime.now(timezone.utc).isoformat(timespec="microseconds")


class Store:
    """The progress file. Every write is its own transaction, committed before returning.

    Many kernels may share one file: it is created safely by whichever opens it first, and
    a write that finds the file busy waits ``busy_timeout`` seconds, then is tried again
    ``retries`` more times; after that it raises :class:`StoreBusyError` and has written
    nothing (a :class:`tutor.session.Session` then keeps the attempt until the file is free).

    ``lang`` is the language of its error messages (a teacher's or a student's).
    """

    def __init__(self, path: str | os.PathLike[str] | None = None, *,
                 lang: str = SOURCE_LANG, busy_timeout: float = BUSY_TIMEOUT,
                 retries: int = BUSY_RETRIES) -> None:
        self.lang = normalize_lang(lang)
        self.path = Path(path).expanduser() if path is not None else default_path()
        self.retries = max(0, int(retries))
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._check_header()
        self.conn = sqlite3.connect(self.path, isolation_level=None, timeout=busy_timeout)
        try:
            self.conn.execute(f"PRAGMA busy_timeout = {max(0, round(busy_timeout * 1000))}")
            self.conn.execute("PRAGMA foreign_keys = ON")
            self._retry(self._check_schema)
            self._retry(self._use_wal)
        except sqlite3.DatabaseError as err:
            self.conn.close()
            raise StoreError(N_("{path} is not a progress file of this tutor ({error})."),
                             path=str(self.path), error=str(err), lang=self.lang) from err
        except StoreError:
            self.conn.close()
            raise

    def _check_header(self) -> None:
        if not self.path.is_file() or self.path.stat().st_size == 0:
            return
        with self.path.open("rb") as fh:
            if fh.read(len(_SQLITE_MAGIC)) != _SQLITE_MAGIC:
                raise StoreError(N_("{path} is not a progress file (not an SQLite database)."),
                                 path=str(self.path), lang=self.lang)

    def _tables(self) -> set[str]:
        return {r[0] for r in self.conn.execute("SELECT name FROM sqlite_master")}

    def _check_schema(self) -> None:
        tables = self._tables()
        if not tables:
            with self._transaction():
                # Another kernel may have created the file while this one waited for the lock.
                tables = self._tables()
                if not tables:
                    for statement in _SCHEMA:
                        self.conn.execute(statement)
                    return
        if "schema_version" not in tables:
            raise StoreError(N_("{path} is an SQLite database of another program, not a "
                                "progress file of this tutor."), path=str(self.path),
                             lang=self.lang)
        row = self.conn.execute("SELECT MAX(version) FROM schema_version").fetchone()
        if row is None or row[0] != SCHEMA_VERSION:
            raise StoreError(N_("{path} has progress format version {found}; this tutor reads "
                                "version {version}. Update the tutor to open it."),
                             path=str(self.path), found=row and row[0], version=SCHEMA_VERSION,
                             lang=self.lang)
        self._add_mastery_columns()

    def _add_mastery_columns(self) -> None:
        have = {r[1] for r in self.conn.execute("PRAGMA table_info(mastery)")}
        for name, kind in _MASTERY_ADDED:
            if name in have:
                continue
            try:
                self.conn.execute(f"ALTER TABLE mastery ADD COLUMN {name} {kind}")
            except sqlite3.OperationalError as err:
                if "duplicate column" not in str(err):  # another kernel added it meanwhile
                    raise

    def _use_wal(self) -> None:
        # Switching to WAL needs the file to itself for a moment: when another kernel is
        # reading or switching at the same time this raises "database is locked" (retried);
        # once one has switched, the file stays in WAL and the others find it so.
        if self.conn.execute("PRAGMA journal_mode").fetchone()[0] != "wal":
            self.conn.execute("PRAGMA journal_mode = WAL")

    def _retry(self, work: Callable[[], _T]) -> _T:
        """``work()`` (one whole transaction, or a read), tried again while the file is busy:
        at most ``retries`` more times, then :class:`StoreBusyError`."""
        for attempt in range(self.retries + 1):
            try:
                return work()
            except sqlite3.OperationalError as err:
                if not _is_busy(err):
                    raise
                if attempt == self.retries:
                    raise StoreBusyError(
                        N_("The progress file {path} is busy: other players are saving. "
                           "Nothing was saved; try again in a moment."),
                        path=str(self.path), lang=self.lang) from err
                _time.sleep(_BACKOFF * 2**attempt)
        raise AssertionError("unreachable")  # pragma: no cover

    def close(self) -> None:
        self.conn.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- students and sessions ---------------------------------------------------------------
    def _student_id(self, name: str) -> int:
        if not name or not name.strip():
            raise StoreError(N_("A student needs a name or id."), lang=self.lang)
        if len(name) > MAX_TEXT:
            raise StoreError(N_("A student name or id can have at most {limit} characters."),
                             limit=MAX_TEXT, lang=self.lang)
        self.conn.execute("INSERT OR IGNORE INTO students (name, created) VALUES (?, ?)",
                          (name, utc_now()))
        row = self.conn.execute("SELECT id FROM students WHERE name = ?", (name,)).fetchone()
        return int(row[0])

    def _ensure_session(self, session: str, student_id: int, started: str) -> None:
        self.conn.execute("INSERT OR IGNORE INTO sessions (id, student_id, started) "
                          "VALUES (?, ?, ?)", (session, student_id, started))

    def start_session(self, student: str, session: str | None = None,
                      started: str | None = None) -> str:
        """Open a session for ``student`` and return its id (a new one unless given)."""
        session = session or uuid.uuid4().hex
        started = started or utc_now()

        def write() -> None:
            with self._transaction():
                self._ensure_session(session, self._student_id(student), started)

        self._retry(write)
        return session

    def students(self) -> list[str]:
        return self._retry(lambda: [r[0] for r in self.conn.execute(
            "SELECT name FROM students ORDER BY name")])

    def _transaction(self) -> _Transaction:
        return _Transaction(self.conn)

    # -- attempts ------------------------------------------------------------------------------
    def record_attempt(
        self, student: str, session: str, *, lesson: str, problem: str, step: str,
        outcome: Outcome | str, input_text: str = "", feedback: str = "",
        kc: str | Sequence[str] = (), first_attempt: bool | None = None, hints: int = 0,
        duration: float = 0.0, expected: int | None = None, answered: int | None = None,
        time: str | None = None,
    ) -> int:
        """Store one attempt and commit it; return its id.

        ``first_attempt`` defaults to "no earlier attempt at this step in this session";
        ``time`` to now. Values outside :data:`LIMITS` raise :class:`StoreError`.
        """
        now = time or utc_now()
        checked = _outcome(outcome, self.lang)
        skills = kc if isinstance(kc, str) else KC_SEPARATOR.join(kc)

        def write() -> int:
            with self._transaction():
                sid = self._student_id(student)
                self._ensure_session(session, sid, now)
                (earlier,) = self.conn.execute(
                    "SELECT COUNT(*) FROM attempts WHERE student_id = ? AND session = ? "
                    "AND problem = ? AND step = ?", (sid, session, problem, step)).fetchone()
                attempt = Attempt(
                    student, session, now, lesson, problem, step, checked, input_text,
                    feedback, skills, earlier + 1,
                    earlier == 0 if first_attempt is None else first_attempt, hints,
                    float(duration), expected, answered)
                self._refuse_bad(attempt)
                return self._insert(sid, attempt, ignore=False)

        return self._retry(write)

    def _refuse_bad(self, attempt: Attempt) -> None:
        problems = tuple(check_attempt(attempt))
        if problems:
            raise StoreError(N_("This attempt cannot be stored: {problems}."),
                             problems=problems, lang=self.lang)

    def _insert(self, student_id: int, a: Attempt, *, ignore: bool) -> int:
        verb = "INSERT OR IGNORE" if ignore else "INSERT"
        cur = self.conn.execute(
            f"{verb} INTO attempts (student_id, session, time, lesson, problem, step, outcome,"
            " input, feedback, kc, attempt_at_step, first_attempt, hints, duration, expected,"
            " answered) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (student_id, *astuple(a)[1:6], a.outcome.value, *astuple(a)[7:]),
        )
        return int(cur.lastrowid or 0) if cur.rowcount else 0

    def attempts(self, student: str | None = None) -> list[Attempt]:
        """All attempts (of one student), in the order they were stored."""
        sql = ("SELECT s.name, a.session, a.time, a.lesson, a.problem, a.step, a.outcome,"
               " a.input, a.feedback, a.kc, a.attempt_at_step, a.first_attempt, a.hints,"
               " a.duration, a.expected, a.answered FROM attempts a"
               " JOIN students s ON s.id = a.student_id")
        rows = self._retry(lambda: (
            self.conn.execute(sql + " WHERE s.name = ? ORDER BY a.id", (student,))
            if student is not None else self.conn.execute(sql + " ORDER BY a.id")).fetchall())
        return [Attempt(r[0], r[1], r[2], r[3], r[4], r[5], Outcome(r[6]), r[7], r[8], r[9],
                        r[10], bool(r[11]), r[12], r[13], r[14], r[15]) for r in rows]

    # -- mastery -----------------------------------------------------------------------------
    def save_mastery(self, student: str, mastery: Mastery) -> None:
        """Store every skill state of ``student`` (one transaction)."""
        rows = [(s.skill, s.p_known, int(s.mastered), s.asked, s.first_try_right,
                 s.hints_used, s.total_seconds, s.streak, s.scaffolded_right,
                 s.misconceptions)
                for s in mastery.states.values()]
        columns = ", ".join(("student_id", *_MASTERY_COLUMNS))
        marks = ", ".join("?" * (len(_MASTERY_COLUMNS) + 1))

        def write() -> None:
            with self._transaction():
                sid = self._student_id(student)
                self.conn.executemany(
                    f"INSERT OR REPLACE INTO mastery ({columns}) VALUES ({marks})",
                    [(sid, *row) for row in rows])

        self._retry(write)

    def load_mastery(self, student: str, params: Params | None = None) -> Mastery:
        """The saved mastery of ``student`` (a fresh one if nothing was saved)."""
        columns = ", ".join(f"m.{c}" for c in _MASTERY_COLUMNS)
        rows = self._retry(lambda: self.conn.execute(
            f"SELECT {columns} FROM mastery m JOIN students s ON s.id = m.student_id"
            " WHERE s.name = ?", (student,)).fetchall())
        states = {r[0]: SkillState.from_dict(dict(zip(_MASTERY_COLUMNS, r, strict=True)))
                  for r in rows}
        return Mastery(params=params or default_params(), states=states)

    # -- export and import (see tutor.store_files) --------------------------------------------
    def export_csv(self, path: str | os.PathLike[str], student: str | None = None) -> int:
        """Write the attempts (of one student, or all) as CSV; return the number of rows."""
        from tutor.store_files import write_csv

        return write_csv(Path(path), self.attempts(student))

    def export_datashop(self, path: str | os.PathLike[str], student: str | None = None) -> int:
        """Write the attempts as a DataShop-style tab-separated file; return the number of rows."""
        from tutor.store_files import write_datashop

        return write_datashop(Path(path), self.attempts(student))

    def import_file(self, path: str | os.PathLike[str], lang: str | None = None) -> int:
        """Merge a CSV or DataShop export; return how many new attempts were added.

        Every row is checked before anything is written, and all rows go in one
        transaction, so a bad file changes nothing.  Rows already present are skipped.
        A bad file raises :class:`ProgressImportError` in ``lang`` (default: the store's).
        """
        from tutor.store_files import read_attempts

        rows = read_attempts(Path(path), lang or self.lang)
        return self.merge(rows)

    def merge(self, rows: Iterable[Attempt]) -> int:
        """Add attempts (all in one transaction); return how many were new."""
        attempts = list(rows)
        for a in attempts:
            self._refuse_bad(a)

        def write() -> int:
            added = 0
            with self._transaction():
                for a in attempts:
                    sid = self._student_id(a.student)
                    self._ensure_session(a.session, sid, a.time)
                    added += 1 if self._insert(sid, a, ignore=True) else 0
            return added

        return self._retry(write)

    def integrity_ok(self) -> bool:
        return bool(self.conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok")


def _is_busy(err: sqlite3.OperationalError) -> bool:
    """Whether ``err`` means "another connection holds the lock" (worth trying again)."""
    code = getattr(err, "sqlite_errorcode", None)  # Python 3.11+
    if code is not None:
        return code & 0xFF in (_SQLITE_BUSY, _SQLITE_LOCKED)
    text = str(err)
    return "database is locked" in text or "database table is locked" in text


class _Transaction:
    """``BEGIN IMMEDIATE`` … ``COMMIT`` (``ROLLBACK`` on error) on an autocommit connection.

    A failed ``COMMIT`` is rolled back too, so the connection is never left inside a
    transaction and the whole write can be tried again.
    """

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn

    def __enter__(self) -> None:
        self.conn.execute("BEGIN IMMEDIATE")

    def __exit__(self, exc_type: object, *rest: object) -> None:
        if exc_type is None:
            try:
                self.conn.execute("COMMIT")
                return
            except sqlite3.Error:
                self._rollback()
                raise
        self._rollback()

    def _rollback(self) -> None:
        if self.conn.in_transaction:
            self.conn.execute("ROLLBACK")
