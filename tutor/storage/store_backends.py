"""The two databases the progress store runs on, and what differs between them.

:class:`tutor.storage.store.Store` writes its SQL once, with ``?`` for every value (values are never
put into the text of a statement) and with ``ON CONFLICT`` for its upserts, which SQLite and
PostgreSQL both read. What is left differs, and lives here:

* the parameter style (``?`` for SQLite, ``%s`` for psycopg);
* the schema's DDL (column types, keys; PostgreSQL keys long texts by their md5, since a
  text of up to :data:`tutor.storage.records.MAX_TEXT` characters does not fit in a b-tree entry);
* how a transaction starts, what "busy, try again" looks like, and how the tables are listed;
* where a store is: a file path (SQLite) or a ``postgresql://`` address
  (:func:`default_location`, from ``$LEONARD_TUTOR_DB``);
* the transaction around each write (:class:`Transaction`).

The tables' versions and their migrations are :mod:`tutor.storage.store_schema`'s.

SQLite is the embedded default (nothing to set up); PostgreSQL (psycopg 3, the ``postgres``
extra) is the store a district's server shares, chosen by a ``postgresql://`` address.
"""

from __future__ import annotations

import hashlib
import os
import sqlite3
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Protocol, cast
from urllib.parse import urlsplit, urlunsplit

from tutor.i18n import N_, SOURCE_LANG, normalize_lang
from tutor.storage.address import PROGRESS_ENV, default_path, scheme_of
from tutor.storage.connection import Connection, Cursor, Row
from tutor.storage.read_mark import RECHECK_IDS, ReadMark
from tutor.storage.store_base import StoreAddressError

if TYPE_CHECKING:
    import psycopg

__all__ = ["CLASS_TABLES", "DATABASE_SCHEMES", "Backend", "Connection", "Cursor",
           "PostgresBackend", "Row", "SQLiteBackend", "SharedSQL", "Transaction",
           "checked_location", "default_location", "hide_password", "is_database_address",
           "one", "scheme_of"]

CLASS_TABLES = (
    """CREATE TABLE IF NOT EXISTS classes (
    code TEXT PRIMARY KEY, created TEXT NOT NULL)""",
    """CREATE TABLE IF NOT EXISTS roster (
    class_code TEXT NOT NULL REFERENCES classes(code), name TEXT NOT NULL,
    name_key TEXT NOT NULL, position INTEGER NOT NULL,
    PRIMARY KEY (class_code, name_key))""",
    """CREATE TABLE IF NOT EXISTS assignments (
    id TEXT PRIMARY KEY, class_code TEXT NOT NULL, title TEXT NOT NULL,
    lessons TEXT NOT NULL, due TEXT NOT NULL DEFAULT '', tz TEXT NOT NULL DEFAULT 'UTC',
    lang TEXT NOT NULL DEFAULT '', scaffolds TEXT NOT NULL DEFAULT '',
    closed INTEGER NOT NULL DEFAULT 0, created TEXT NOT NULL)""",
)
"""The class's three tables (:mod:`tutor.storage.class_rows`; the same statements on SQLite
and PostgreSQL: every key is short)."""


DATABASE_SCHEMES = ("postgresql", "postgres")
"""Address schemes that name a PostgreSQL store (``postgresql://user@host:5432/db``)."""


_DEALS_TABLE = """CREATE TABLE IF NOT EXISTS deals (
    student_id {id} NOT NULL REFERENCES students(id), lesson TEXT NOT NULL,
    deal TEXT NOT NULL, session TEXT NOT NULL, time TEXT NOT NULL{key})"""
"""The deals each student has played (version 5, issue 51): one row per student, lesson and
deal (:meth:`tutor.storage.store.Store.record_deal`), naming the session that played it
first."""

_MARKS_TABLE = """CREATE TABLE IF NOT EXISTS session_marks (
    student_id {id} NOT NULL REFERENCES students(id), session TEXT NOT NULL,
    lesson TEXT NOT NULL, mark TEXT NOT NULL, time TEXT NOT NULL{key})"""
"""What the rows of a session's lesson cannot say (version 6, issue 52 part 3): the play page
ended it, and why; or its rows came in an uploaded file
(:class:`tutor.storage.records.SessionMark`)."""
_MARKS_TIME = "CREATE INDEX IF NOT EXISTS session_marks_time ON session_marks (time)"

_RECEIVED_INDEX = ("CREATE INDEX IF NOT EXISTS attempts_received ON attempts (student_id, "
                   "received)")
"""The answers a student's store received since a time (version 7: the store service's daily
cap counts them, whatever time the answers carry)."""

_MERGES_TABLE = """CREATE TABLE IF NOT EXISTS name_merges (
    kept TEXT NOT NULL, merged TEXT NOT NULL, time TEXT NOT NULL)"""
"""Names written two ways for one student (NFC and NFD, upper and lower case), merged into
the one kept when the store was brought to version 3: the teacher is told."""


class Backend(Protocol):
    """What one database needs said its own way (:class:`SQLiteBackend`,
    :class:`PostgresBackend`; what is the same in both is :class:`SharedSQL`'s)."""

    @property
    def name(self) -> str: ...

    @property
    def marker(self) -> str: ...

    @property
    def begin(self) -> str: ...

    @property
    def key_match(self) -> str: ...

    @property
    def key_index(self) -> str: ...

    @property
    def merges_table(self) -> str: ...

    @property
    def deals_tables(self) -> tuple[str, ...]: ...

    @property
    def attempts_indexes(self) -> tuple[str, ...]: ...

    @property
    def marks_tables(self) -> tuple[str, ...]: ...

    def schema(self, version: int) -> Sequence[str]:
        """The statements that create a new store at version ``version`` (the only argument,
        a trusted integer constant: never a value from outside)."""
        ...

    def student_id_sql(self, alias: str = "") -> str: ...

    def key_filter(self, alias: str = "") -> str: ...

    def sql(self, text: str) -> str: ...

    def connect(self, location: str | Path, timeout: float) -> Connection: ...

    def tables(self, conn: Connection) -> set[str]: ...

    def columns(self, conn: Connection, table: str) -> set[str]: ...

    def in_transaction(self, conn: Connection) -> bool: ...

    def is_busy(self, err: BaseException) -> bool:
        """Whether ``err`` means "try the same transaction again" (after a pause)."""
        ...

    def is_database_error(self, err: BaseException) -> bool: ...

    def lost(self, conn: Connection | None) -> bool: ...

    def lock_schema(self, conn: Connection) -> None: ...

    def add_column_sql(self, table: str, name: str, kind: str) -> str: ...

    def text_in(self, column: str, count: int) -> str: ...

    def text_in_args(self, values: Sequence[str]) -> tuple[object, ...]: ...

    def read_horizon(self, conn: Connection) -> int: ...

    def after_filter(self, alias: str, mark: ReadMark) -> tuple[str, tuple[object, ...]]: ...


class SharedSQL:
    """What both databases say the same way (each :class:`Backend` overrides what differs;
    its own :meth:`~Backend.connect`, :meth:`~Backend.tables` … it gives itself)."""

    marker = "?"
    #: Where a student's name key (:func:`tutor.storage.names.name_key`) is matched: the
    #: column, and as many ``?`` as it holds (each given the key).
    key_match = "name_key = ?"
    #: The index that makes a name key one student's (created once the keys are unique).
    key_index = "CREATE UNIQUE INDEX IF NOT EXISTS students_key ON students (name_key)"

    def student_id_sql(self, alias: str = "") -> str:
        """The id of a student by name key (:attr:`key_match`'s ``?``: the key)."""
        return f"SELECT id FROM students WHERE {self.key_filter(alias)}"

    def key_filter(self, alias: str = "") -> str:
        """:attr:`key_match` for the students table named ``alias`` in a statement."""
        return self.key_match.replace("name_key", f"{alias}.name_key" if alias else "name_key")

    def sql(self, text: str) -> str:
        """``text`` (written with ``?`` marks) in this driver's parameter style."""
        return text if self.marker == "?" else text.replace("?", self.marker)

    def lost(self, conn: Connection | None) -> bool:
        """Whether the connection is gone (the server restarted): reconnect before retrying."""
        return False

    def lock_schema(self, conn: Connection) -> None:
        """Inside a transaction: wait until no other kernel is creating or migrating."""

    def add_column_sql(self, table: str, name: str, kind: str) -> str:
        return f"ALTER TABLE {table} ADD COLUMN {name} {kind}"

    merges_table = _MERGES_TABLE
    #: The statements that create the deals table (version 5) and its key.
    deals_tables: tuple[str, ...] = ()
    #: The attempts' indexes of version 7: a student's answers to a question (problem and
    #: step), which the store service reads for copies of an answer sent, and those the
    #: store received since a time (the daily cap).
    attempts_indexes: tuple[str, ...] = ()
    #: The statements that create the session marks' table (version 6) and its keys.
    marks_tables: tuple[str, ...] = ()

    def text_in(self, column: str, count: int) -> str:
        """The condition that the text ``column`` is one of ``count`` values (each ``?``
        given one value, in order), as its index reads it."""
        return f"{column} IN ({', '.join('?' * count)})"

    def text_in_args(self, values: Sequence[str]) -> tuple[object, ...]:
        """The values of :meth:`text_in`'s marks."""
        return tuple(values)

    def read_horizon(self, conn: Connection) -> int:
        """The :attr:`~tutor.storage.read_mark.ReadMark.horizon` of a read about to begin: 0
        where rows are committed in the order of their ids (SQLite: one writer at a time)."""
        return 0

    def after_filter(self, alias: str, mark: ReadMark) -> tuple[str, tuple[object, ...]]:
        """The condition (and its values) on the attempts table named ``alias`` that gives
        the rows a reader who stopped at ``mark`` has not read: here, the higher ids."""
        return f"{alias}.id > ?", (mark.last_id,)


def _version_table(version: int) -> tuple[str, str]:
    """The table that holds the schema's version, and its one row (a file that has it keeps
    its own): the same statements on both databases."""
    return ("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)",
            f"INSERT INTO schema_version SELECT {int(version)} "
            "WHERE NOT EXISTS (SELECT 1 FROM schema_version)")


class SQLiteBackend(SharedSQL):
    name = "sqlite"
    marker = "?"
    begin = "BEGIN IMMEDIATE"  # the write lock at once: no upgrade from reader to writer

    @staticmethod
    def schema(version: int) -> tuple[str, ...]:
        # IF NOT EXISTS because several kernels may create the same new file at once (the
        # one that gets the lock first creates it, the others find it).
        return (
            *_version_table(version),
            """CREATE TABLE IF NOT EXISTS students (
    id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, created TEXT NOT NULL,
    name_key TEXT)""",
            "CREATE UNIQUE INDEX IF NOT EXISTS students_key ON students (name_key)",
            _MERGES_TABLE,
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
    received TEXT,
    UNIQUE (student_id, session, time, lesson, problem, step, outcome, input, feedback, kc,
            attempt_at_step))""",
            *SQLiteBackend.attempts_indexes,
            """CREATE TABLE IF NOT EXISTS mastery (
    student_id INTEGER NOT NULL REFERENCES students(id), skill TEXT NOT NULL,
    p_known REAL NOT NULL, mastered INTEGER NOT NULL, asked INTEGER NOT NULL,
    first_try_right INTEGER NOT NULL, hints_used INTEGER NOT NULL,
    total_seconds REAL NOT NULL, streak INTEGER NOT NULL DEFAULT 0,
    scaffolded_right INTEGER NOT NULL DEFAULT 0,
    misconceptions INTEGER NOT NULL DEFAULT 0, evidence TEXT NOT NULL DEFAULT '',
    PRIMARY KEY (student_id, skill))""",
            *CLASS_TABLES,
            *SQLiteBackend.deals_tables,
            *SQLiteBackend.marks_tables,
        )

    deals_tables = (_DEALS_TABLE.format(id="INTEGER",
                                        key=",\n    UNIQUE (student_id, lesson, deal)"),)
    marks_tables = (_MARKS_TABLE.format(id="INTEGER",
                                        key=",\n    UNIQUE (student_id, session, lesson, mark)"),
                    _MARKS_TIME)
    # (A student's answers of a session are found by the key's index: UNIQUE (student_id,
    # session, …).)
    attempts_indexes = (
        "CREATE INDEX IF NOT EXISTS attempts_question ON attempts (student_id, problem, step)",
        _RECEIVED_INDEX)

    def connect(self, location: str | Path, timeout: float) -> sqlite3.Connection:
        conn = sqlite3.connect(location, isolation_level=None, timeout=timeout)
        conn.execute(f"PRAGMA busy_timeout = {max(0, round(timeout * 1000))}")
        conn.execute("PRAGMA foreign_keys = ON")
        return conn

    def tables(self, conn: Connection) -> set[str]:
        return {r[0] for r in conn.execute("SELECT name FROM sqlite_master")}

    def columns(self, conn: Connection, table: str) -> set[str]:
        return {r[0] for r in conn.execute("SELECT name FROM pragma_table_info(?)", (table,))}

    def in_transaction(self, conn: Connection) -> bool:
        return cast(sqlite3.Connection, conn).in_transaction

    def is_busy(self, err: BaseException) -> bool:
        if not isinstance(err, sqlite3.OperationalError):
            return False
        code = getattr(err, "sqlite_errorcode", None)  # Python 3.11+
        if code is not None:
            return code & 0xFF in (_SQLITE_BUSY, _SQLITE_LOCKED)
        text = str(err)
        return "database is locked" in text or "database table is locked" in text

    def is_database_error(self, err: BaseException) -> bool:
        return isinstance(err, sqlite3.DatabaseError)


_SQLITE_BUSY, _SQLITE_LOCKED = 5, 6
# The advisory lock every PostgreSQL kernel takes to create or migrate the schema (a fixed
# number: "LEON" in ASCII).
SCHEMA_LOCK = 0x4C454F4E


class PostgresBackend(SharedSQL):
    name = "postgresql"
    marker = "%s"
    begin = "BEGIN"
    key_match = "md5(name_key) = md5(?) AND name_key = ?"
    key_index = "CREATE UNIQUE INDEX IF NOT EXISTS students_key ON students (md5(name_key))"

    @staticmethod
    def schema(version: int) -> tuple[str, ...]:
        # The same tables and columns as SQLite's; long texts are keyed by their md5 (a
        # b-tree entry holds at most about 2700 bytes), so the session id is not a foreign
        # key here (sessions are keyed by md5(id)).
        return (
            *_version_table(version),
            """CREATE TABLE IF NOT EXISTS students (
    id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY, name TEXT NOT NULL,
    created TEXT NOT NULL, name_key TEXT)""",
            "CREATE UNIQUE INDEX IF NOT EXISTS students_name ON students (md5(name))",
            "CREATE UNIQUE INDEX IF NOT EXISTS students_key ON students (md5(name_key))",
            _MERGES_TABLE,
            """CREATE TABLE IF NOT EXISTS sessions (
    id TEXT NOT NULL, student_id BIGINT NOT NULL REFERENCES students(id),
    started TEXT NOT NULL)""",
            "CREATE UNIQUE INDEX IF NOT EXISTS sessions_id ON sessions (md5(id))",
            """CREATE TABLE IF NOT EXISTS attempts (
    id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
    student_id BIGINT NOT NULL REFERENCES students(id),
    session TEXT NOT NULL,
    time TEXT NOT NULL, lesson TEXT NOT NULL, problem TEXT NOT NULL, step TEXT NOT NULL,
    outcome TEXT NOT NULL CHECK (outcome IN ('CORRECT', 'INCORRECT', 'HINT', 'GIVEUP')),
    input TEXT NOT NULL, feedback TEXT NOT NULL, kc TEXT NOT NULL,
    attempt_at_step INTEGER NOT NULL, first_attempt INTEGER NOT NULL,
    hints INTEGER NOT NULL, duration DOUBLE PRECISION NOT NULL, expected BIGINT,
    answered BIGINT, received TEXT)""",
            # The same key as SQLite's UNIQUE: a row with these values is a duplicate.
            "CREATE UNIQUE INDEX IF NOT EXISTS attempts_key ON attempts (student_id, "
            "md5(session), time, md5(lesson), md5(problem), md5(step), outcome, md5(input), "
            "md5(feedback), md5(kc), attempt_at_step)",
            "CREATE INDEX IF NOT EXISTS attempts_student ON attempts (student_id, id)",
            *PostgresBackend.attempts_indexes,
            """CREATE TABLE IF NOT EXISTS mastery (
    student_id BIGINT NOT NULL REFERENCES students(id), skill TEXT NOT NULL,
    p_known DOUBLE PRECISION NOT NULL, mastered INTEGER NOT NULL, asked INTEGER NOT NULL,
    first_try_right INTEGER NOT NULL, hints_used INTEGER NOT NULL,
    total_seconds DOUBLE PRECISION NOT NULL, streak INTEGER NOT NULL DEFAULT 0,
    scaffolded_right INTEGER NOT NULL DEFAULT 0,
    misconceptions INTEGER NOT NULL DEFAULT 0, evidence TEXT NOT NULL DEFAULT '',
    PRIMARY KEY (student_id, skill))""",
            *CLASS_TABLES,
            *PostgresBackend.deals_tables,
            *PostgresBackend.marks_tables,
        )

    # Keyed by the md5 of the texts, as the attempts are (a b-tree entry's size).
    deals_tables = (_DEALS_TABLE.format(id="BIGINT", key=""),
                    "CREATE UNIQUE INDEX IF NOT EXISTS deals_key ON deals "
                    "(student_id, md5(lesson), md5(deal))")
    marks_tables = (_MARKS_TABLE.format(id="BIGINT", key=""),
                    "CREATE UNIQUE INDEX IF NOT EXISTS session_marks_key ON session_marks "
                    "(student_id, md5(session), md5(lesson), mark)", _MARKS_TIME)
    # (A student's answers of a session are found by attempts_key: (student_id,
    # md5(session), …).)
    attempts_indexes = (
        "CREATE INDEX IF NOT EXISTS attempts_question ON attempts (student_id, md5(problem), "
        "md5(step))", _RECEIVED_INDEX)

    def text_in(self, column: str, count: int) -> str:
        """By the texts' md5 (as the indexes hold long texts), then the texts themselves,
        each list one array (:meth:`text_in_args`): a statement psycopg has prepared (the
        sixth time it runs) would otherwise build the lists again for every row it reads."""
        return f"md5({column}) = ANY(?) AND {column} = ANY(?)"

    def text_in_args(self, values: Sequence[str]) -> tuple[object, ...]:
        return ([hashlib.md5(v.encode("utf-8")).hexdigest() for v in values], list(values))

    def connect(self, location: str | Path, timeout: float) -> Connection:
        import psycopg

        return psycopg.connect(str(location), autocommit=True,
                               connect_timeout=max(1, round(timeout)))

    def tables(self, conn: Connection) -> set[str]:
        rows = conn.execute("SELECT table_name FROM information_schema.tables "
                            "WHERE table_schema = current_schema()").fetchall()
        return {r[0] for r in rows}

    def columns(self, conn: Connection, table: str) -> set[str]:
        rows = conn.execute("SELECT column_name FROM information_schema.columns "
                            "WHERE table_schema = current_schema() AND table_name = %s",
                            (table,)).fetchall()
        return {r[0] for r in rows}

    def in_transaction(self, conn: Connection) -> bool:
        from psycopg.pq import TransactionStatus

        pg = cast("psycopg.Connection[Row]", conn)
        return bool(pg.info.transaction_status != TransactionStatus.IDLE)

    def is_busy(self, err: BaseException) -> bool:
        import psycopg
        from psycopg import errors

        # A lost or refused connection (a restart, a server starting up), a serialization
        # failure or a deadlock: the whole transaction can be made again.
        return isinstance(err, psycopg.OperationalError | errors.TransactionRollback
                          | psycopg.InterfaceError)

    def is_database_error(self, err: BaseException) -> bool:
        import psycopg

        return isinstance(err, psycopg.Error)

    def lost(self, conn: Connection | None) -> bool:
        pg = cast("psycopg.Connection[Row] | None", conn)
        return bool(pg is None or pg.closed or pg.broken)

    def lock_schema(self, conn: Connection) -> None:
        conn.execute("SELECT pg_advisory_xact_lock(%s)", (SCHEMA_LOCK,))

    def add_column_sql(self, table: str, name: str, kind: str) -> str:
        return f"ALTER TABLE {table} ADD COLUMN IF NOT EXISTS {name} {kind}"

    def read_horizon(self, conn: Connection) -> int:
        """The oldest transaction still running (64-bit, with its epoch): a row not visible
        to a read that begins now was inserted by it or by a later one. Asked before the
        read's rows, so it is never later than the rows' own snapshot."""
        return int(one(conn.execute(
            "SELECT pg_snapshot_xmin(pg_current_snapshot())::text::bigint"))[0])

    def after_filter(self, alias: str, mark: ReadMark) -> tuple[str, tuple[object, ...]]:
        """The higher ids, and the rows committed late: among the :data:`RECHECK_IDS` ids
        below the last one read, those whose inserting transaction (``xmin``, 32 bits) is
        at or after the mark's horizon, compared modulo 2**32 as PostgreSQL compares
        transaction ids (:mod:`tutor.storage.read_mark` says why)."""
        if mark.horizon <= 0:
            return super().after_filter(alias, mark)
        late = (f"mod(mod({alias}.xmin::text::bigint - ?, 4294967296) + 4294967296, "
                "4294967296) < 2147483648")
        return (f"({alias}.id > ? OR ({alias}.id > ? AND {late}))",
                (mark.last_id, mark.last_id - RECHECK_IDS, mark.horizon % 2**32))


def is_database_address(location: str | os.PathLike[str]) -> bool:
    """Whether ``location`` is a PostgreSQL address (``postgresql://…``, ``postgres://…``)
    rather than a file path."""
    return isinstance(location, str) and scheme_of(location) in DATABASE_SCHEMES


def checked_location(location: str | os.PathLike[str], lang: str) -> Path | str:
    """A file path (expanded), or a PostgreSQL address as given; any other ``scheme://``
    raises :class:`StoreAddressError` (it would otherwise become a folder named after it)."""
    if isinstance(location, str):
        scheme = scheme_of(location)
        if scheme in DATABASE_SCHEMES:
            return location
        if scheme is not None:
            raise StoreAddressError(
                N_("The progress store's address {address} is a {scheme} address, which this "
                   "tutor cannot use. Give a file path (SQLite) or a postgresql:// address."),
                address=hide_password(location), scheme=scheme, lang=lang)
    return Path(location).expanduser()


def hide_password(address: str) -> str:
    """``address`` with its password, if any, as ``***`` (for messages and ``Store.path``)."""
    parts = urlsplit(address)
    if parts.password is None:
        return address
    netloc = parts.netloc.replace(f":{parts.password}@", ":***@", 1)
    return urlunsplit(parts._replace(netloc=netloc))


def default_location(lang: str = SOURCE_LANG) -> Path | str:
    """``$LEONARD_TUTOR_DB`` — a file path or a ``postgresql://`` address — if set, else the
    default file :func:`default_path`. An address of another kind raises
    :class:`StoreAddressError`."""
    env = os.environ.get(PROGRESS_ENV)
    if env:
        return checked_location(env, normalize_lang(lang))
    return default_path()


def one(cursor: Cursor) -> Row:
    """The row of a statement that always gives one (a ``COUNT``, a ``PRAGMA``, the id of a
    student just inserted)."""
    row = cursor.fetchone()
    assert row is not None, "the statement gave no row"
    return row


class Transaction:
    """``BEGIN`` (SQLite: ``BEGIN IMMEDIATE``) … ``COMMIT`` (``ROLLBACK`` on error) on an
    autocommit connection.

    A failed ``COMMIT`` is rolled back too, so the connection is never left inside a
    transaction and the whole write can be tried again.
    """

    def __init__(self, conn: Connection, backend: Backend) -> None:
        self.conn = conn
        self.backend = backend

    def __enter__(self) -> None:
        self.conn.execute(self.backend.begin)

    def __exit__(self, exc_type: object, *rest: object) -> None:
        if exc_type is None:
            try:
                self.conn.execute("COMMIT")
                return
            except Exception:
                self._rollback()
                raise
        self._rollback()

    def _rollback(self) -> None:
        if self.backend.lost(self.conn):
            return
        try:
            if self.backend.in_transaction(self.conn):
                self.conn.execute("ROLLBACK")
        except Exception:
            if not self.backend.lost(self.conn):
                raise
