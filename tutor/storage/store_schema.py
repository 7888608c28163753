"""The progress tables' version: a new store gets the tables of :data:`SCHEMA_VERSION`; a
store at an older version is brought up by the :data:`MIGRATIONS`, in one transaction under
the store's write lock; a newer one, or a database of another program, is refused. (The
versions themselves are listed in :mod:`tutor.storage.store`'s docstring.)
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Protocol

from tutor.i18n import N_
from tutor.storage.class_rows import CLASS_TABLES
from tutor.storage.connection import Connection
from tutor.storage.names import name_key
from tutor.storage.records import StoreError
from tutor.storage.store_backends import Backend, Transaction
from tutor.storage.store_base import utc_now


class Store(Protocol):
    """What the schema's checks and migrations use of the store
    (:class:`tutor.storage.store.Store`). A Protocol, so that this module, which the store
    imports, does not import the store back."""

    @property
    def conn(self) -> Connection: ...

    @property
    def backend(self) -> Backend: ...

    @property
    def lang(self) -> str: ...

    @property
    def path(self) -> object: ...

    def _transaction(self) -> Transaction: ...

__all__ = ["MIGRATIONS", "SCHEMA_VERSION", "TABLES", "check_header", "check_schema"]

SCHEMA_VERSION = 7
_SQLITE_MAGIC = b"SQLite format 3\x00"

# Columns added to the mastery table in version 1's lifetime: a version-1 file may lack them;
# migration 1 → 2 adds them (with their defaults).
_MASTERY_ADDED = (("streak", "INTEGER NOT NULL DEFAULT 0"),
                  ("scaffolded_right", "INTEGER NOT NULL DEFAULT 0"),
                  ("misconceptions", "INTEGER NOT NULL DEFAULT 0"))


def _migrate_1_to_2(store: Store) -> None:
    have = store.backend.columns(store.conn, "mastery")
    for name, kind in _MASTERY_ADDED:
        if name not in have:
            store.conn.execute(store.backend.add_column_sql("mastery", name, kind))


def _migrate_2_to_3(store: Store) -> None:
    """The mastery's evidence column (issue 42); name keys for every student, students
    whose names share a key become the first of them (lowest id), and each merge is listed
    in ``name_merges`` (issue 41)."""
    conn, sql = store.conn, store.backend.sql
    if "evidence" not in store.backend.columns(conn, "mastery"):
        conn.execute(store.backend.add_column_sql("mastery", "evidence",
                                                  "TEXT NOT NULL DEFAULT ''"))
    if "name_key" not in store.backend.columns(conn, "students"):
        conn.execute(store.backend.add_column_sql("students", "name_key", "TEXT"))
    conn.execute(store.backend.merges_table)
    kept: dict[str, tuple[int, str]] = {}
    now = utc_now()
    for sid, name in conn.execute("SELECT id, name FROM students ORDER BY id").fetchall():
        key = name_key(name)
        if key not in kept:
            kept[key] = (int(sid), name)
            conn.execute(sql("UPDATE students SET name_key = ? WHERE id = ?"), (key, sid))
            continue
        keeper, keeper_name = kept[key]
        _merge_student(store, int(sid), keeper)
        conn.execute(sql("INSERT INTO name_merges (kept, merged, time) VALUES (?, ?, ?)"),
                     (keeper_name, name, now))
    conn.execute(store.backend.key_index)


_ATTEMPT_KEY = ("session", "time", "lesson", "problem", "step", "outcome", "input", "feedback",
                "kc", "attempt_at_step")


def _merge_student(store: Store, merged: int, into: int) -> None:
    """Student ``merged``'s rows become student ``into``'s: an attempt both hold is kept
    once; the mastery rows of both are dropped (rebuilt from the attempts when next read)."""
    conn, sql = store.conn, store.backend.sql
    same = " AND ".join(f"b.{c} = attempts.{c}" for c in _ATTEMPT_KEY)
    conn.execute(sql("DELETE FROM attempts WHERE student_id = ? AND EXISTS (SELECT 1 FROM "
                     f"attempts b WHERE b.student_id = ? AND {same})"), (merged, into))
    for table in ("attempts", "sessions"):
        conn.execute(sql(f"UPDATE {table} SET student_id = ? WHERE student_id = ?"),
                     (into, merged))
    conn.execute(sql("DELETE FROM mastery WHERE student_id IN (?, ?)"), (merged, into))
    conn.execute(sql("DELETE FROM students WHERE id = ?"), (merged,))


def _migrate_3_to_4(store: Store) -> None:
    """The class's tables (issue 45): classes, rosters and assignments."""
    for statement in CLASS_TABLES:
        store.conn.execute(statement)


def _migrate_4_to_5(store: Store) -> None:
    """The deals each student has played (issue 51): a new table, no other row changes."""
    for statement in store.backend.deals_tables:
        store.conn.execute(statement)


def _migrate_5_to_6(store: Store) -> None:
    """The session marks (issue 52 part 3): a new table, no other row changes."""
    for statement in store.backend.marks_tables:
        store.conn.execute(statement)


def _migrate_6_to_7(store: Store) -> None:
    """When the store received each answer (issue 51: the daily cap counts what the store
    received in a day, whatever time the answers carry), and the indexes of a student's
    answers to a question and of those received since a time. An answer stored before has
    no such time but one: those of the last day (by their own times, none later than now)
    are counted as received then, so the day of the update keeps its cap; older ones are
    past every day the cap looks at, and keep none. No row is added or dropped."""
    conn, backend = store.conn, store.backend
    if "received" not in backend.columns(conn, "attempts"):
        conn.execute(backend.add_column_sql("attempts", "received", "TEXT"))
    now = datetime.now(timezone.utc)
    since = (now - timedelta(days=1)).isoformat(timespec="microseconds")
    stamp = now.isoformat(timespec="microseconds")
    conn.execute(store.backend.sql("UPDATE attempts SET received = CASE WHEN time > ? THEN ? ELSE "
                            "time END WHERE received IS NULL AND time >= ?"),
                 (stamp, stamp, since))
    for statement in backend.attempts_indexes:
        conn.execute(statement)


MIGRATIONS: dict[int, Callable[[Store], None]] = {1: _migrate_1_to_2, 2: _migrate_2_to_3,
                                                  3: _migrate_3_to_4, 4: _migrate_4_to_5,
                                                  5: _migrate_5_to_6, 6: _migrate_6_to_7}
"""``MIGRATIONS[v](store)`` brings the tables from version ``v`` to ``v + 1`` (run inside the
opening transaction, which then sets ``schema_version`` to :data:`SCHEMA_VERSION`)."""
TABLES = {"schema_version", "students", "sessions", "attempts", "mastery", "name_merges",
           "classes", "roster", "assignments", "deals", "session_marks"}


def check_header(path: Path, lang: str) -> None:
    """Refuse a file that is not empty and not an SQLite database."""
    if not path.is_file() or path.stat().st_size == 0:
        return
    with path.open("rb") as fh:
        if fh.read(len(_SQLITE_MAGIC)) != _SQLITE_MAGIC:
            raise StoreError(N_("{path} is not a progress file (not an SQLite database)."),
                             path=str(path), lang=lang)


def _tables(store: Store) -> set[str]:
    return store.backend.tables(store.conn)


def _version(store: Store) -> int | None:
    row = store.conn.execute("SELECT MAX(version) FROM schema_version").fetchone()
    return None if row is None or row[0] is None else int(row[0])


def check_schema(store: Store) -> None:
    """Create the tables of a new store, check those of one there, and migrate them from an
    older version (a newer one, or another program's tables, is refused)."""
    tables = _tables(store)
    fresh = not tables if store.backend.name == "sqlite" else not tables & TABLES
    if fresh:
        with store._transaction():
            # Another kernel may have created the store while this one waited for the lock.
            store.backend.lock_schema(store.conn)
            tables = _tables(store)
            if not tables if store.backend.name == "sqlite" else not tables & TABLES:
                for statement in store.backend.schema(SCHEMA_VERSION):
                    store.conn.execute(statement)
                return
    if "schema_version" not in tables:
        if store.backend.name == "sqlite":
            raise StoreError(N_("{path} is an SQLite database of another program, not a "
                                "progress file of this tutor."), path=str(store.path),
                             lang=store.lang)
        raise StoreError(N_("The database {path} holds tables of another program, not "
                            "this tutor's progress."), path=str(store.path), lang=store.lang)
    found = _version(store)
    if found == SCHEMA_VERSION:
        return
    if found is None or found > SCHEMA_VERSION or found not in MIGRATIONS:
        raise StoreError(N_("{path} has progress format version {found}; this tutor reads "
                            "version {version}. Update the tutor to open it."),
                         path=str(store.path), found=found, version=SCHEMA_VERSION,
                         lang=store.lang)
    _migrate(store)


def _migrate(store: Store) -> None:
    """Every migration from the stored version up to :data:`SCHEMA_VERSION`, in one
    transaction (another kernel may have migrated meanwhile: the version is read again
    under the lock)."""
    with store._transaction():
        store.backend.lock_schema(store.conn)
        found = _version(store)
        if found is None or found >= SCHEMA_VERSION:
            return  # another kernel migrated it meanwhile
        while found < SCHEMA_VERSION:
            MIGRATIONS[found](store)
            found += 1
        store.conn.execute(store.backend.sql("UPDATE schema_version SET version = ?"),
                           (SCHEMA_VERSION,))
