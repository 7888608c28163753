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

Every row is checked before it is stored (:func:`check_row`, :func:`check_roster_row`),
whoever sends it: the teacher page checks what a teacher types first and says it in their
words (:func:`tutor.classroom.assignments.check_assignment`), but on a class server a
request to the store service can be written by hand, so the store refuses a row no page
would make (an id that is not an id, a 10,000-character title, a due date that is not a
date), with a sentence naming the field.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from tutor.i18n import N_, SOURCE_LANG, LanguageError, Message, normalize_lang
from tutor.storage.database import Database
from tutor.storage.lesson_ids import LESSON_ID
from tutor.storage.names import name_key
from tutor.storage.records import ID, StoreError, session_assignment, tagged_session

__all__ = ["DUE_FORMAT", "ID", "MAX_CODE", "MAX_LESSONS", "MAX_NAME",
           "MAX_ROSTER", "MAX_TITLE", "Assignment", "assignment", "assignments",
           "check_roster_row", "check_row", "class_codes", "classes_of", "roster",
           "save_assignment", "save_roster", "session_assignment", "tagged_session", "zone"]

MAX_TITLE = 120
"""Characters of an assignment's title."""
MAX_LESSONS = 12
"""Lessons in one assignment."""
MAX_ROSTER = 200
"""Students on one roster."""
MAX_CODE = 30
"""Characters of a class code (what :func:`tutor.classroom.link.clean_name` keeps of one:
``tutor.classroom.link.MAX_CLASS``, the same number)."""
MAX_NAME = 60
"""Characters of a student's name on a roster (``tutor.classroom.link.MAX_NAME``)."""
DUE_FORMAT = "%Y-%m-%dT%H:%M"
"""An assignment's due date and time on the school's clock."""


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


class _Refusal(Exception):
    """Why a row is refused (the checks' own; said as a :class:`StoreError`)."""

    def __init__(self, reason: str, **params: object) -> None:
        super().__init__(reason)
        self.reason = Message(reason, **params)

    def said(self, lang: str) -> StoreError:
        return StoreError(N_("This assignment or roster cannot be stored: {reason}."),
                          reason=self.reason, lang=lang)


def _plain(text: object, limit: int) -> bool:
    """Whether ``text`` is a text as a page cleans one: not empty, at most ``limit``
    characters, in Unicode NFC, no control or format characters, single spaces, trimmed."""
    return (isinstance(text, str) and 0 < len(text) <= limit
            and unicodedata.is_normalized("NFC", text) and " ".join(text.split()) == text
            and not any(unicodedata.category(c).startswith("C") for c in text))


def _title(text: object) -> bool:
    """Whether ``text`` is a title as the teacher page keeps one (its spaces collapsed, any
    letters, emoji or accents as typed): not empty, at most :data:`MAX_TITLE` characters, no
    control characters."""
    return (isinstance(text, str) and 0 < len(text) <= MAX_TITLE
            and " ".join(text.split()) == text
            and not any(unicodedata.category(c) == "Cc" for c in text))


def zone(name: str) -> ZoneInfo | None:
    """The time zone named ``name`` (an IANA name, like ``Europe/Madrid``), or None."""
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        return None


def _known_zone(name: object) -> bool:
    return isinstance(name, str) and zone(name) is not None


def _known_lang(lang: object) -> bool:
    try:
        return isinstance(lang, str) and normalize_lang(lang) == lang
    except LanguageError:
        return False


def _is_due(text: object) -> bool:
    try:
        datetime.strptime(str(text), DUE_FORMAT)
    except ValueError:
        return False
    return isinstance(text, str)


def check_row(a: Assignment, lang: str = SOURCE_LANG) -> None:
    """Refuse (:class:`StoreError` in ``lang``, naming the field) an assignment no page would
    make."""
    try:
        _check_row(a)
    except _Refusal as err:
        raise err.said(lang) from None


def _check_row(a: Assignment) -> None:
    lessons = a.lessons
    if not isinstance(a.id, str) or not ID.fullmatch(a.id):
        raise _Refusal(N_("its id is not 4 to 32 letters, digits, dashes or underscores"))
    if not _plain(a.class_code, MAX_CODE):
        raise _Refusal(N_("its class code is not a name of at most {limit} characters"),
                       limit=MAX_CODE)
    if not _title(a.title):
        raise _Refusal(N_("its title is empty, longer than {limit} characters or has control "
                          "characters"), limit=MAX_TITLE)
    if not isinstance(lessons, tuple) or not 0 < len(lessons) <= MAX_LESSONS:
        raise _Refusal(N_("it does not have 1 to {limit} lessons"), limit=MAX_LESSONS)
    if len(set(lessons)) != len(lessons) or not all(
            isinstance(x, str) and LESSON_ID.fullmatch(x) for x in lessons):
        raise _Refusal(N_("its lessons are not each a lesson id, once"))
    if a.due and not _is_due(a.due):
        raise _Refusal(N_("its due date is not a date and time like 2026-12-11T15:00"))
    if not _known_zone(a.tz):
        raise _Refusal(N_("its time zone is not one (write one like Europe/Madrid)"))
    if a.lang and not _known_lang(a.lang):
        raise _Refusal(N_("its language is not one of the tutor's"))
    if a.scaffolds not in ("", "on", "off"):
        raise _Refusal(N_("its scaffolds are not on, off or each lesson's own"))
    if not isinstance(a.closed, bool):
        raise _Refusal(N_("whether it is closed is not true or false"))


def check_roster_row(code: str, names: Sequence[str], lang: str = SOURCE_LANG) -> None:
    """Refuse (:class:`StoreError` in ``lang``) a roster no page would save: a class code or
    a name that is not one, no name, too many, or one student twice (by :func:`name_key`)."""
    if not names:
        raise StoreError(N_("The roster is empty: paste one student's name per line, or "
                            "upload a CSV file with the names in its first column."), lang=lang)
    try:
        _check_roster_row(code, names)
    except _Refusal as err:
        raise err.said(lang) from None


def _check_roster_row(code: str, names: Sequence[str]) -> None:
    if not _plain(code, MAX_CODE):
        raise _Refusal(N_("its class code is not a name of at most {limit} characters"),
                       limit=MAX_CODE)
    if len(names) > MAX_ROSTER:
        raise _Refusal(N_("it has more than {limit} students"), limit=MAX_ROSTER)
    if not all(_plain(n, MAX_NAME) for n in names):
        raise _Refusal(N_("a name on it is empty or longer than {limit} characters"),
                       limit=MAX_NAME)
    if len({name_key(n) for n in names}) != len(names):
        raise _Refusal(N_("a student is on it twice"))


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


def _ensure_class(db: Database, code: str, now: str) -> None:
    db.conn.execute(db.sql("INSERT INTO classes (code, created) VALUES (?, ?) "
                                  "ON CONFLICT DO NOTHING"), (code, now))


def save_roster(db: Database, code: str, names: list[str], now: str) -> None:
    """The class ``code``'s roster becomes ``names`` (in this order; checked before, no two
    with one key), in one transaction."""
    def write() -> None:
        with db.transaction():
            _ensure_class(db, code, now)
            db.conn.execute(db.sql("DELETE FROM roster WHERE class_code = ?"), (code,))
            for position, name in enumerate(names):
                db.conn.execute(db.sql(
                    "INSERT INTO roster (class_code, name, name_key, position) "
                    "VALUES (?, ?, ?, ?)"), (code, name, name_key(name), position))

    db.retry(write)


def roster(db: Database, code: str) -> list[str]:
    """The class's roster, in the teacher's order (empty: no roster)."""
    return db.retry(lambda: [r[0] for r in db.conn.execute(
        db.sql("SELECT name FROM roster WHERE class_code = ? ORDER BY position"),
        (code,))])


def class_codes(db: Database) -> list[str]:
    """Every class with a roster or an assignment, sorted."""
    return sorted(db.retry(lambda: [r[0] for r in db.conn.execute(
        "SELECT code FROM classes UNION SELECT class_code FROM assignments")]))


def classes_of(db: Database, student: str) -> list[str]:
    """The classes whose roster holds ``student`` (matched by name key), sorted."""
    return sorted(db.retry(lambda: [r[0] for r in db.conn.execute(
        db.sql("SELECT class_code FROM roster WHERE name_key = ?"),
        (name_key(student),))]))


def save_assignment(db: Database, a: Assignment, now: str) -> None:
    """Store ``a`` (checked before): a new one, or the same id's new values (an edit)."""
    row = _row(a)
    sets = ", ".join(f"{c} = excluded.{c}" for c in _COLUMNS[1:] if c != "created")

    def write() -> None:
        with db.transaction():
            _ensure_class(db, a.class_code, now)
            db.conn.execute(db.sql(
                f"INSERT INTO assignments ({', '.join(_COLUMNS)}) VALUES "
                f"({', '.join('?' * len(_COLUMNS))}) ON CONFLICT (id) DO UPDATE SET {sets}"),
                (*row[:-1], a.created or now))

    db.retry(write)


def assignments(db: Database, class_code: str | None = None) -> list[Assignment]:
    """The assignments (of one class, or every class), oldest first."""
    sql = f"SELECT {', '.join(_COLUMNS)} FROM assignments"
    args: tuple[object, ...] = ()
    if class_code is not None:
        sql, args = sql + " WHERE class_code = ?", (class_code,)
    rows = db.retry(lambda: db.conn.execute(
        db.sql(sql + " ORDER BY created, id"), args).fetchall())
    return [_assignment(tuple(r)) for r in rows]


def assignment(db: Database, assignment_id: str) -> Assignment | None:
    """The assignment with this id, or None."""
    rows = db.retry(lambda: db.conn.execute(db.sql(
        f"SELECT {', '.join(_COLUMNS)} FROM assignments WHERE id = ?"),
        (assignment_id,)).fetchall())
    return _assignment(tuple(rows[0])) if rows else None
