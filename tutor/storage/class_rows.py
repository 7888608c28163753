"""A class's rows beside its progress (issue 45): the class and its roster, and the
assignments a teacher gives it. Plain rows, on SQLite or PostgreSQL (the same statements on
both): what they mean (when an assignment is done, who is overdue) is
:mod:`tutor.classroom.assignments`'.

* ``classes``: one row per class code (the code the pages already know, ``class=6B``);
* ``roster``: the class's students, in the order the teacher gave them, each keyed by
  :func:`tutor.storage.names.name_key` (NFC, case-folded, spaces trimmed), so "ana" and
  "Ana", or "José" with either accent, are one student of the roster;
* ``assignments``: one row per assignment: its id (short, random, in its link), class,
  title, lessons (ids, in order, comma-separated), the due date and time as the school's
  clock reads it (``YYYY-MM-DDTHH:MM``, ``""``: none) and that clock's time zone, the
  settings it gives its lessons (language, scaffolds; ``""``: the lesson's own), whether it
  is closed, and when it was made.

Added to the store's schema at version 4 (the migration from 3 creates the three tables and
changes no other row).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from tutor.storage.names import name_key
from tutor.storage.records import ID, session_assignment, tagged_session

if TYPE_CHECKING:
    from tutor.storage.store import Store

__all__ = ["CLASS_TABLES", "ID", "Assignment", "assignment", "assignments", "class_codes",
           "classes_of", "roster", "save_assignment", "save_roster", "session_assignment",
           "tagged_session"]


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
"""The three tables (the same statements on SQLite and PostgreSQL: every key is short)."""


@dataclass(frozen=True)
class Assignment:
    """One assignment, as stored and as its link carries it (checked by
    :func:`tutor.classroom.assignments.check_assignment` before it is either)."""

    id: str
    class_code: str
    title: str
    lessons: tuple[str, ...]
    due: str = ""
    """The due date and time on the school's clock, ``YYYY-MM-DDTHH:MM`` (``""``: none)."""
    tz: str = "UTC"
    """The school's time zone (an IANA name, like ``Europe/Madrid``)."""
    lang: str = ""
    """The language its lessons open in (``""``: the student's)."""
    scaffolds: str = ""
    """``"on"``, ``"off"`` or ``""`` (each lesson's own setting)."""
    closed: bool = False
    created: str = field(default="", compare=False)


_COLUMNS = ("id", "class_code", "title", "lessons", "due", "tz", "lang", "scaffolds",
            "closed", "created")


def _row(a: Assignment) -> tuple[object, ...]:
    return (a.id, a.class_code, a.title, ",".join(a.lessons), a.due, a.tz, a.lang,
            a.scaffolds, int(a.closed), a.created)


def _assignment(row: tuple[object, ...]) -> Assignment:
    values = dict(zip(_COLUMNS, row, strict=True))
    lessons = str(values["lessons"])
    return Assignment(id=str(values["id"]), class_code=str(values["class_code"]),
                      title=str(values["title"]),
                      lessons=tuple(x for x in lessons.split(",") if x),
                      due=str(values["due"]), tz=str(values["tz"]), lang=str(values["lang"]),
                      scaffolds=str(values["scaffolds"]), closed=bool(values["closed"]),
                      created=str(values["created"]))


def _ensure_class(store: Store, code: str, now: str) -> None:
    store.conn.execute(store._sql("INSERT INTO classes (code, created) VALUES (?, ?) "
                                  "ON CONFLICT DO NOTHING"), (code, now))


def save_roster(store: Store, code: str, names: list[str], now: str) -> None:
    """The class ``code``'s roster becomes ``names`` (in this order; checked before, no two
    with one key), in one transaction."""
    def write() -> None:
        with store._transaction():
            _ensure_class(store, code, now)
            store.conn.execute(store._sql("DELETE FROM roster WHERE class_code = ?"), (code,))
            for position, name in enumerate(names):
                store.conn.execute(store._sql(
                    "INSERT INTO roster (class_code, name, name_key, position) "
                    "VALUES (?, ?, ?, ?)"), (code, name, name_key(name), position))

    store._retry(write)


def roster(store: Store, code: str) -> list[str]:
    """The class's roster, in the teacher's order (empty: no roster)."""
    return store._retry(lambda: [r[0] for r in store.conn.execute(
        store._sql("SELECT name FROM roster WHERE class_code = ? ORDER BY position"),
        (code,))])


def class_codes(store: Store) -> list[str]:
    """Every class with a roster or an assignment, sorted."""
    return sorted(store._retry(lambda: [r[0] for r in store.conn.execute(
        "SELECT code FROM classes UNION SELECT class_code FROM assignments")]))


def classes_of(store: Store, student: str) -> list[str]:
    """The classes whose roster holds ``student`` (matched by name key), sorted."""
    return sorted(store._retry(lambda: [r[0] for r in store.conn.execute(
        store._sql("SELECT class_code FROM roster WHERE name_key = ?"),
        (name_key(student),))]))


def save_assignment(store: Store, a: Assignment, now: str) -> None:
    """Store ``a`` (checked before): a new one, or the same id's new values (an edit)."""
    row = _row(a)
    sets = ", ".join(f"{c} = excluded.{c}" for c in _COLUMNS[1:] if c != "created")

    def write() -> None:
        with store._transaction():
            _ensure_class(store, a.class_code, now)
            store.conn.execute(store._sql(
                f"INSERT INTO assignments ({', '.join(_COLUMNS)}) VALUES "
                f"({', '.join('?' * len(_COLUMNS))}) ON CONFLICT (id) DO UPDATE SET {sets}"),
                (*row[:-1], a.created or now))

    store._retry(write)


def assignments(store: Store, class_code: str | None = None) -> list[Assignment]:
    """The assignments (of one class, or every class), oldest first."""
    sql = f"SELECT {', '.join(_COLUMNS)} FROM assignments"
    args: tuple[object, ...] = ()
    if class_code is not None:
        sql, args = sql + " WHERE class_code = ?", (class_code,)
    rows = store._retry(lambda: store.conn.execute(
        store._sql(sql + " ORDER BY created, id"), args).fetchall())
    return [_assignment(tuple(r)) for r in rows]


def assignment(store: Store, assignment_id: str) -> Assignment | None:
    """The assignment with this id, or None."""
    rows = store._retry(lambda: store.conn.execute(store._sql(
        f"SELECT {', '.join(_COLUMNS)} FROM assignments WHERE id = ?"),
        (assignment_id,)).fetchall())
    return _assignment(tuple(rows[0])) if rows else None
