"""The progress tables' version: a new store gets the tables of :data:`SCHEMA_VERSION`; a
store at an older version is brought up by the :data:`MIGRATIONS`, in one transaction under
the store's write lock; a newer one, or a database of another program, is refused. (The
versions themselves are listed in :mod:`tutor.storage.store`'s docstring.)
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta, timezone
from typing import TYPE_CHECKING

from tutor.i18n import N_
from tutor.storage.names import name_key
from tutor.storage.records import StoreError
from tutor.storage.store_backends import CLASS_TABLES
from tutor.storage.store_base import utc_now

if TYPE_CHECKING:
    from tutor.storage.database import Database

__all__ = ["MIGRATIONS", "SCHEMA_VERSION", "TABLES", "check_schema"]

SCHEMA_VERSION = 7

# Columns added to the mastery table in version 1's lifetime: a version-1 file may lack them;
# migration 1 → 2 adds them (with their defaults).
_MASTERY_ADDED = (("streak", "INTEGER NOT NULL DEFAULT 0"),
                  ("scaffolded_right", "INTEGER NOT NULL DEFAULT 0"),
                  ("misconceptions", "INTEGER NOT NULL DEFAULT 0"))


def _migrate_1_to_2(db: Database) -> None:
    have = db.columns("mastery")
    for name, kind in _MASTERY_ADDED:
        if name not in have:
            db.conn.execute(db.backend.add_column_sql("mastery", name, kind))


def _migrate_2_to_3(db: Database) -> None:
    """The mastery's evidence column (issue 42); name keys for every student, students
    whose names share a key become the first of them (lowest id), and each merge is listed
    in ``name_merges`` (issue 41)."""
    conn, sql = db.conn, db.backend.sql
    if "evidence" not in db.backend.columns(conn, "mastery"):
        conn.execute(db.backend.add_column_sql("mastery", "evidence",
                                                  "TEXT NOT NULL DEFAULT ''"))
    if "name_key" not in db.backend.columns(conn, "students"):
        conn.execute(db.backend.add_column_sql("students", "name_key", "TEXT"))
    conn.execute(db.backend.merges_table)
    kept: dict[str, tuple[int, str]] = {}
    now = utc_now()
    for sid, name in conn.execute("SELECT id, name FROM students ORDER BY id").fetchall():
        key = name_key(name)
        if key not in kept:
            kept[key] = (int(sid), name)
            conn.execute(sql("UPDATE students SET name_key = ? WHERE id = ?"), (key, sid))
            continue
        keeper, keeper_name = kept[key]
        _merge_student(db, int(sid), keeper)
        conn.execute(sql("INSERT INTO name_merges (kept, merged, time) VALUES (?, ?, ?)"),
                     (keeper_name, name, now))
    conn.execute(db.backend.key_index)


_ATTEMPT_KEY = ("session", "time", "lesson", "problem", "step", "outcome", "input", "feedback",
                "kc", "attempt_at_step")


def _merge_student(db: Database, merged: int, into: int) -> None:
    """Student ``merged``'s rows become student ``into``'s: an attempt both hold is kept
    once; the mastery rows of both are dropped (rebuilt from the attempts when next read)."""
    conn, sql = db.conn, db.backend.sql
    same = " AND ".join(f"b.{c} = attempts.{c}" for c in _ATTEMPT_KEY)
    conn.execute(sql("DELETE FROM attempts WHERE student_id = ? AND EXISTS (SELECT 1 FROM "
                     f"attempts b WHERE b.student_id = ? AND {same})"), (merged, into))
    for table in ("attempts", "sessions"):
        conn.execute(sql(f"UPDATE {table} SET student_id = ? WHERE student_id = ?"),
                     (into, merged))
    conn.execute(sql("DELETE FROM mastery WHERE student_id IN (?, ?)"), (merged, into))
    conn.execute(sql("DELETE FROM students WHERE id = ?"), (merged,))


def _migrate_3_to_4(db: Database) -> None:
    """The class's tables (issue 45): classes, rosters and assignments."""
    for statement in CLASS_TABLES:
        db.conn.execute(statement)


def _migrate_4_to_5(db: Database) -> None:
    """The deals each student has played (issue 51): a new table, no other row changes."""
    for statement in db.backend.deals_tables:
        db.conn.execute(statement)


def _migrate_5_to_6(db: Database) -> None:
    """The session marks (issue 52 part 3): a new table, no other row changes."""
    for statement in db.backend.marks_tables:
        db.conn.execute(statement)


def _migrate_6_to_7(db: Database) -> None:
    """When the store received each answer (issue 51: the daily cap counts what the store
    received in a day, whatever time the answers carry), and the indexes of a student's
    answers to a question and of those received since a time. An answer stored before has
    no such time but one: those of the last day (by their own times, none later than now)
    are counted as received then, so the day of the update keeps its cap; older ones are
    past every day the cap looks at, and keep none. No row is added or dropped."""
    conn, backend = db.conn, db.backend
    if "received" not in backend.columns(conn, "attempts"):
        conn.execute(backend.add_column_sql("attempts", "received", "TEXT"))
    now = datetime.now(timezone.utc)
    since = (now - timedelta(days=1)).isoformat(timespec="microseconds")
    stamp = now.isoformat(timespec="microseconds")
    conn.execute(db.backend.sql("UPDATE attempts SET received = CASE WHEN time > ? THEN ? ELSE "
                            "time END WHERE received IS NULL AND time >= ?"),
                 (stamp, stamp, since))
    for statement in backend.attempts_indexes:
        conn.execute(statement)


MIGRATIONS: dict[int, Callable[[Database], None]] = {1: _migrate_1_to_2, 2: _migrate_2_to_3,
                                                  3: _migrate_3_to_4, 4: _migrate_4_to_5,
                                                  5: _migrate_5_to_6, 6: _migrate_6_to_7}
"""``MIGRATIONS[v](db)`` brings the tables from version ``v`` to ``v + 1`` (run inside the
opening transaction, which then sets ``schema_version`` to :data:`SCHEMA_VERSION`)."""
TABLES = {"schema_version", "students", "sessions", "attempts", "mastery", "name_merges",
           "classes", "roster", "assignments", "deals", "session_marks"}


def _tables(db: Database) -> set[str]:
    return db.tables()


def _version(db: Database) -> int | None:
    row = db.conn.execute("SELECT MAX(version) FROM schema_version").fetchone()
    return None if row is None or row[0] is None else int(row[0])


def check_schema(db: Database) -> None:
    """Create the tables of a new store, check those of one there, and migrate them from an
    older version (a newer one, or another program's tables, is refused)."""
    tables = _tables(db)
    fresh = not tables if db.backend.name == "sqlite" else not tables & TABLES
    if fresh:
        with db.transaction():
            # Another kernel may have created the store while this one waited for the lock.
            db.backend.lock_schema(db.conn)
            tables = _tables(db)
            if not tables if db.backend.name == "sqlite" else not tables & TABLES:
                for statement in db.backend.schema(SCHEMA_VERSION):
                    db.conn.execute(statement)
                return
    if "schema_version" not in tables:
        if db.backend.name == "sqlite":
            raise StoreError(N_("{path} is an SQLite database of another program, not a "
                                "progress file of this tutor."), path=str(db.path),
                             lang=db.lang)
        raise StoreError(N_("The database {path} holds tables of another program, not "
                            "this tutor's progress."), path=str(db.path), lang=db.lang)
    found = _version(db)
    if found == SCHEMA_VERSION:
        return
    if found is None or found > SCHEMA_VERSION or found not in MIGRATIONS:
        raise StoreError(N_("{path} has progress format version {found}; this tutor reads "
                            "version {version}. Update the tutor to open it."),
                         path=str(db.path), found=found, version=SCHEMA_VERSION,
                         lang=db.lang)
    _migrate(db)


def _migrate(db: Database) -> None:
    """Every migration from the stored version up to :data:`SCHEMA_VERSION`, in one
    transaction (another kernel may have migrated meanwhile: the version is read again
    under the lock)."""
    with db.transaction():
        db.backend.lock_schema(db.conn)
        found = _version(db)
        if found is None or found >= SCHEMA_VERSION:
            return  # another kernel migrated it meanwhile
        while found < SCHEMA_VERSION:
            MIGRATIONS[found](db)
            found += 1
        db.conn.execute(db.backend.sql("UPDATE schema_version SET version = ?"),
                           (SCHEMA_VERSION,))
