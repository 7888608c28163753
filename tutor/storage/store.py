"""Progress store: every attempt and each student's mastery, in one SQLite file (the default)
or in a PostgreSQL database a school's or district's server shares.

The store keeps rows: attempts (:class:`tutor.storage.records.Attempt`) and mastery rows (plain
values by skill). It imports no teaching code; the teaching code turns the rows into a
:class:`tutor.teaching.mastery.Mastery` (:func:`tutor.session.saving.load_mastery`).

Where: ``$LEONARD_TUTOR_DB`` (or the ``Store``'s first argument) is a file path, or a
``postgresql://user@host:5432/db`` address (psycopg 3: ``pip install
leonard-domino-tutor[postgres]``). Any other ``scheme://`` raises :class:`StoreAddressError`.

How the schema version is kept: the table ``schema_version`` holds one row, the version of
the tables (:data:`SCHEMA_VERSION`). Opening a store at an older version runs the
:data:`MIGRATIONS` from that version up, in one transaction that holds the store's write
lock (SQLite's ``BEGIN IMMEDIATE``; PostgreSQL's advisory lock), so kernels opening it at
once migrate it once. A store at a newer version is refused ("Update the tutor").

* version 1: the first released tables; files written before the mastery table had
  ``streak`` and ``scaffolded_right`` lack those columns (the tutor added them on open).
* version 2: ``streak``, ``scaffolded_right`` and ``misconceptions`` are always there (added
  with their default 0 where missing).
* version 3: a student is found by the key of their name (:func:`tutor.storage.names.name_key`:
  NFC, case-folded; NFKC since issue 51, which only changes names with compatibility
  characters such as fullwidth letters: one stored before keeps its NFC key), so "José"
  typed with a combining accent, or "ana" for "Ana", is the same student (issue 41). The
  migration gives every student their key and merges the students whose names differ only
  so into the first of them (their attempts and sessions;
  the merged mastery rows are dropped, to be rebuilt from the attempts), and lists each merge
  in the ``name_merges`` table, which the teacher page shows (:meth:`Store.name_merges`).
  The mastery table gains ``evidence`` (text: the estimate as log-odds, what the row of right
  answers ruled out, the misconceptions shown; issue 42), empty in rows saved before. A
  PostgreSQL store is created at version 3.
* version 4: the class's rows beside the progress (issue 45): ``classes``, ``roster`` and
  ``assignments`` (:mod:`tutor.storage.class_rows`). The migration creates them; no other
  row changes.
* version 5: the deals each student has played (issue 51): ``deals`` (student, lesson, deal,
  the session that played it first, when), so that on a class server a deal opened a second
  time is practice (:meth:`Store.record_deal`). The migration creates the table; no other
  row changes.
* version 6: what a session's rows cannot say (issue 52 part 3): ``session_marks`` (student,
  session, lesson, mark, when): the play page ended the lesson, and why
  (:meth:`Store.mark_session`), or its rows came in an uploaded file (:meth:`Store.merge`
  with ``from_file``). The migration creates the table; no other row changes.
* version 7: when the store received each answer (issue 51): ``attempts.received``, set at
  insert by the store's clock, whatever time the answer carries (the store service's daily
  cap counts by it: :meth:`Store.usage`); and the indexes of a student's answers to one
  question (problem and step: :meth:`Store.replay_context`) and of those received since a
  time. The migration adds the column, dates the answers of the last day as received at
  their own times (none later than the migration), leaves older ones undated, and makes
  the indexes; no row is added or dropped.

A store opened for one student (``owner=``, as a student's page under a JupyterHub opens it)
reads and writes only that student's rows; anything else raises :class:`StoreAccessError`.

Around :class:`Store`: what every store shares (errors, owner checks, export and import) is
:mod:`tutor.storage.store_base`'s; the tables' versions and migrations
:mod:`tutor.storage.store_schema`'s; SQLite and PostgreSQL, where a store is and the
transaction :mod:`tutor.storage.store_backends`'. :class:`ServiceStore`, the store behind the
hub's store service, is another implementation of the same
:class:`tutor.storage.progress_store.ProgressStore`; :func:`open_store` opens the one an
address names. The connection, transactions and retries are one
:class:`tutor.storage.database.Database`'s (:attr:`Store.db`).
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import astuple
from pathlib import Path

import tutor.storage.class_rows as class_rows
from tutor.i18n import N_, SOURCE_LANG, normalize_lang
from tutor.storage.address import PROGRESS_ENV, default_path, is_service_address
from tutor.storage.class_rows import Assignment
from tutor.storage.database import Database
from tutor.storage.names import name_key, name_problem
from tutor.storage.progress_store import ProgressStore
from tutor.storage.read_mark import ReadMark
from tutor.storage.records import (
    CSV_COLUMNS,
    DATASHOP_COLUMNS,
    FROM_FILE,
    KC_SEPARATOR,
    LIMITS,
    MAX_TEXT,
    Attempt,
    MasteryValue,
    Outcome,
    ProgressImportError,
    SessionMark,
    StoreError,
    check_attempt,
    check_mark,
    out_of_range,
)
from tutor.storage.records import outcome as _outcome
from tutor.storage.service_store import ServiceStore
from tutor.storage.store_backends import (
    Row,
    checked_location,
    default_location,
    is_database_address,
    one,
)
from tutor.storage.store_base import (
    BUSY_RETRIES,
    BUSY_TIMEOUT,
    MASTERY_COLUMNS,
    StoreAccessError,
    StoreAddressError,
    StoreBase,
    StoreBusyError,
    utc_now,
)
from tutor.storage.store_schema import MIGRATIONS, SCHEMA_VERSION, check_schema

__all__ = [
    "BUSY_RETRIES",
    "BUSY_TIMEOUT",
    "CSV_COLUMNS",
    "DATASHOP_COLUMNS",
    "ENV_VAR",
    "LIMITS",
    "MASTERY_COLUMNS",
    "MAX_TEXT",
    "MIGRATIONS",
    "SCHEMA_VERSION",
    "MasteryValue",
    "Attempt",
    "Outcome",
    "ProgressImportError",
    "ProgressStore",
    "ServiceStore",
    "Store",
    "StoreAccessError",
    "StoreAddressError",
    "StoreBusyError",
    "StoreError",
    "check_attempt",
    "default_location",
    "default_path",
    "is_database_address",
    "open_store",
    "out_of_range",
    "utc_now",
]

ENV_VAR = PROGRESS_ENV
_ATTEMPT_COLUMNS = ("a.session, a.time, a.lesson, a.problem, a.step, a.outcome, a.input, "
                    "a.feedback, a.kc, a.attempt_at_step, a.first_attempt, a.hints, "
                    "a.duration, a.expected, a.answered")
"""An attempt's columns after its student's name, in :class:`Attempt`'s order."""
_IN_CHUNK = 200
"""The most values one ``IN (…)`` of a read is given (a longer list is read in parts)."""


def _attempt_of(r: Row) -> Attempt:
    """An attempt from its student's name and :data:`_ATTEMPT_COLUMNS`."""
    return Attempt(r[0], r[1], r[2], r[3], r[4], r[5], Outcome(r[6]), r[7], r[8], r[9],
                   r[10], bool(r[11]), r[12], r[13], r[14], r[15])


class Store(StoreBase):
    """The progress store. Every write is its own transaction, committed before returning.

    ``location``: a file path (SQLite), a ``postgresql://`` address, or None for
    :func:`default_location`.

    Many kernels may share one store: it is created safely by whichever opens it first, and
    a write that finds it busy waits ``busy_timeout`` seconds, then is tried again
    ``retries`` more times; after that it raises :class:`StoreBusyError` and has written
    nothing (a :class:`tutor.session.session.Session` then keeps the attempt until the store is
    free). On PostgreSQL a lost connection (the server restarted) counts as busy: the store
    reconnects, trying for up to ``busy_timeout`` seconds, and makes the whole write again;
    an attempt whose first commit did get through is found, not stored twice.

    ``owner``: the one student whose rows this handle may read and write (a student's page
    under a JupyterHub); None for the whole class (a teacher, or a page outside a hub).

    ``lang`` is the language of its error messages (a teacher's or a student's).

    ``shared``: whether the store is a class's, shared by a class server's pages, which then
    remember the deals each student played (:attr:`shared`); None: a PostgreSQL store is, and
    so is the file a class server names in ``$LEONARD_TUTOR_DB`` (the README's class server:
    every page opens it); another SQLite file is not (a student's own file, or Binder's, in
    the home folder) unless the class's store service opens it.
    """

    def __init__(self, path: str | os.PathLike[str] | None = None, *,
                 lang: str = SOURCE_LANG, busy_timeout: float = BUSY_TIMEOUT,
                 retries: int = BUSY_RETRIES, owner: str | None = None,
                 shared: bool | None = None) -> None:
        super().__init__(normalize_lang(lang), owner)
        if is_service_address(path if path is not None else os.environ.get(ENV_VAR)):
            raise StoreAddressError(N_("{address} is the address of the class's store "
                                       "service, not of a database: open it with "
                                       "open_store()."),
                                    address=str(path or os.environ.get(ENV_VAR)),
                                    lang=self.lang)
        location = (checked_location(path, self.lang) if path is not None
                    else default_location(self.lang))
        if shared is None:  # a class's database, or the class server's file in $ENV_VAR
            shared = isinstance(location, str) or (path is None and bool(os.environ.get(ENV_VAR)))
        self.shared = shared
        self.db = Database(location, lang=self.lang, busy_timeout=busy_timeout,
                           retries=retries)
        """The database the rows are in (:class:`tutor.storage.database.Database`)."""
        self.path: Path | str = self.db.path
        try:
            self.db.retry(lambda: check_schema(self.db))
            if self.db.name == "sqlite":
                self.db.retry(self.db.use_wal)
        except Exception as err:
            self.db.close()
            if isinstance(err, StoreError) or not self.db.backend.is_database_error(err):
                raise
            raise StoreError(N_("{path} is not a progress file of this tutor ({error})."),
                             path=str(self.path), error=str(err), lang=self.lang) from err

    @property
    def kind(self) -> str:
        """``"sqlite"`` or ``"postgresql"``."""
        return self.db.name

    def close(self) -> None:
        self.db.close()

    # -- students and sessions ---------------------------------------------------------------
    def _student_id(self, name: str) -> int:
        if not name or not name.strip():
            raise StoreError(N_("A student needs a name or id."), lang=self.lang)
        if len(name) > MAX_TEXT:
            raise StoreError(N_("A student name or id can have at most {limit} characters."),
                             limit=MAX_TEXT, lang=self.lang)
        problem = name_problem(name)  # a name that could pass for another (issue 51)
        if problem is not None:
            raise StoreError(problem, lang=self.lang)
        self._allow(name)
        key = name_key(name)
        # A name already there under another spelling (same key) keeps its first spelling.
        self.db.conn.execute(self.db.sql("INSERT INTO students (name, created, name_key) "
                                    "VALUES (?, ?, ?) ON CONFLICT DO NOTHING"),
                          (name, utc_now(), key))
        sql = self.db.backend.student_id_sql()
        return int(one(self.db.conn.execute(self.db.sql(sql), self._key_args(sql, key)))[0])

    @staticmethod
    def _key_args(sql: str, key: str, *before: object) -> tuple[object, ...]:
        """``before`` and then ``key`` for each ``?`` of ``sql`` that follows them."""
        return (*before, *(key,) * (sql.count("?") - len(before)))

    def _ensure_session(self, session: str, student_id: int, started: str) -> None:
        self.db.conn.execute(self.db.sql("INSERT INTO sessions (id, student_id, started) "
                                    "VALUES (?, ?, ?) ON CONFLICT DO NOTHING"),
                          (session, student_id, started))

    def start_session(self, student: str, session: str | None = None,
                      started: str | None = None) -> str:
        """Open a session for ``student`` and return its id (a new one unless given)."""
        session = session or uuid.uuid4().hex
        started = started or utc_now()

        def write() -> None:
            with self.db.transaction():
                self._ensure_session(session, self._student_id(student), started)

        self.db.retry(write)
        return session

    def students(self) -> list[str]:
        """The students' names (a store opened for one student: that one, once stored)."""
        if self.owner is not None:
            sql = "SELECT name FROM students WHERE " + self.db.backend.key_filter()
            key = name_key(self.owner)
            return self.db.retry(lambda: [r[0] for r in self.db.conn.execute(
                self.db.sql(sql), self._key_args(sql, key))])
        # Sorted here, by code point (SQLite's order), whatever the database's collation.
        return sorted(self.db.retry(lambda: [r[0] for r in self.db.conn.execute(
            "SELECT name FROM students")]))

    # -- attempts ------------------------------------------------------------------------------
    def record_attempt(
        self, student: str, session: str, *, lesson: str, problem: str, step: str,
        outcome: Outcome | str, input_text: str = "", feedback: str = "",
        kc: str | Sequence[str] = (), first_attempt: bool | None = None, hints: int = 0,
        duration: float = 0.0, expected: int | None = None, answered: int | None = None,
        time: str | None = None,
    ) -> int:
        """Store one attempt, given by its parts, and commit it; return its id (the tutor
        itself hands the store whole :class:`Attempt` values: :meth:`add_attempt`).

        ``first_attempt`` defaults to "no earlier attempt at this step in this session";
        ``time`` to now. Values outside :data:`LIMITS` raise :class:`StoreError`.
        """
        self._allow(student)
        now = time or utc_now()
        checked = _outcome(outcome, self.lang)
        skills = kc if isinstance(kc, str) else KC_SEPARATOR.join(kc)

        def write() -> int:
            with self.db.transaction():
                sid = self._student_id(student)
                self._ensure_session(session, sid, now)
                found = (self._stored_already(sid, session, now, problem, step, checked,
                                              input_text) if self.db.tries else None)
                if found is not None:
                    return found
                (earlier,) = one(self.db.conn.execute(self.db.sql(
                    "SELECT COUNT(*) FROM attempts WHERE student_id = ? AND session = ? "
                    "AND problem = ? AND step = ?"), (sid, session, problem, step)))
                attempt = Attempt(
                    student, session, now, lesson, problem, step, checked, input_text,
                    feedback, skills, earlier + 1,
                    earlier == 0 if first_attempt is None else first_attempt, hints,
                    float(duration), expected, answered)
                self._refuse_bad(attempt)
                return self._insert(sid, attempt, ignore=False, received=utc_now())

        return self.db.retry(write)

    def add_attempt(self, attempt: Attempt, game: Mapping[str, object] | None = None) -> int:
        """Store ``attempt`` as it is and commit it; return its id (an attempt stored
        already is found, not stored twice: its id is returned). The tutor builds the
        attempt once, at the answer (:class:`tutor.teaching.asking.Asker`: its session, time,
        attempt number at the step and first-attempt mark included), and the
        :class:`~tutor.session.saving.Recorder` hands it here unchanged. Values outside
        :data:`LIMITS` raise :class:`StoreError`. ``game``: the record of the match the
        answer is about, which the class's store service replays
        (:meth:`tutor.storage.service_store.ServiceStore.add_attempt`); the page that holds
        this store itself has nothing to check it against, and the store keeps no game."""
        a = attempt
        self._allow(a.student)
        self._refuse_bad(a)

        def write() -> int:
            with self.db.transaction():
                sid = self._student_id(a.student)
                self._ensure_session(a.session, sid, a.time)
                added = self._insert(sid, a, ignore=True, received=utc_now())
                if added:
                    return added
                found = self._stored_already(sid, a.session, a.time, a.problem, a.step,
                                             a.outcome, a.input)
                return found if found is not None else 0

        return self.db.retry(write)

    def _stored_already(self, sid: int, session: str, time: str, problem: str, step: str,
                        outcome: Outcome, input_text: str) -> int | None:
        """The id of this very attempt, if it is stored already: a write made again after
        an error (the first try's commit may have got through before the connection was
        lost), or sent again by a page whose reply was lost (the store service). The same
        attempt (its time has microseconds) is then found, not stored twice."""
        row = self.db.conn.execute(self.db.sql(
            "SELECT id FROM attempts WHERE student_id = ? AND session = ? AND "
            "time = ? AND problem = ? AND step = ? AND outcome = ? AND input = ?"),
            (sid, session, time, problem, step, outcome.value, input_text)).fetchone()
        return None if row is None else int(row[0])

    def _insert(self, student_id: int, a: Attempt, *, ignore: bool,
                received: str | None) -> int:
        """Insert ``a``; ``received``: when a page sent it (the daily cap counts those:
        :meth:`usage`), None for a row merged from files."""
        row = self.db.conn.execute(self.db.sql(
            "INSERT INTO attempts (student_id, session, time, lesson, problem, step, outcome,"
            " input, feedback, kc, attempt_at_step, first_attempt, hints, duration, expected,"
            " answered, received) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
            + (" ON CONFLICT DO NOTHING" if ignore else "") + " RETURNING id"),
            (student_id, *astuple(a)[1:6], a.outcome.value, *astuple(a)[7:11],
             int(a.first_attempt), *astuple(a)[12:], received),
        ).fetchone()
        return int(row[0]) if row is not None else 0

    def attempts(self, student: str | None = None) -> list[Attempt]:
        """All attempts (of one student), in the order they were stored. A store opened for
        one student gives that student's (any other raises :class:`StoreAccessError`)."""
        if student is None and self.owner is not None:
            student = self.owner
        self._allow(student)
        sql = ("SELECT s.name, a.session, a.time, a.lesson, a.problem, a.step, a.outcome,"
               " a.input, a.feedback, a.kc, a.attempt_at_step, a.first_attempt, a.hints,"
               " a.duration, a.expected, a.answered FROM attempts a"
               " JOIN students s ON s.id = a.student_id")
        one = sql + " WHERE " + self.db.backend.key_filter("s") + " ORDER BY a.id"
        rows = self.db.retry(lambda: (
            self.db.conn.execute(self.db.sql(one), self._key_args(one, name_key(student)))
            if student is not None else self.db.conn.execute(sql + " ORDER BY a.id")).fetchall())
        return [Attempt(r[0], r[1], r[2], r[3], r[4], r[5], Outcome(r[6]), r[7], r[8], r[9],
                        r[10], bool(r[11]), r[12], r[13], r[14], r[15]) for r in rows]

    # -- what the store service reads to check an answer sent (issue 51) --------------------
    def lesson_attempts(self, student: str, lessons: Iterable[str]) -> list[Attempt]:
        """``student``'s attempts in ``lessons``, in the order they were stored: what the
        class's store service replays an answer sent against
        (:func:`tutor.classroom.hand_in.stored_misfits`), without reading the student's
        other lessons."""
        wanted = sorted(set(lessons))
        self._allow(student)
        if not wanted:
            return []
        marks = ", ".join("?" * len(wanted))
        sql = ("SELECT s.name, a.session, a.time, a.lesson, a.problem, a.step, a.outcome,"
               " a.input, a.feedback, a.kc, a.attempt_at_step, a.first_attempt, a.hints,"
               " a.duration, a.expected, a.answered FROM attempts a"
               " JOIN students s ON s.id = a.student_id"
               f" WHERE a.lesson IN ({marks}) AND " + self.db.backend.key_filter("s")
               + " ORDER BY a.id")
        args = self._key_args(sql, name_key(student), *wanted)
        rows = self.db.retry(lambda: self.db.conn.execute(self.db.sql(sql), args).fetchall())
        return [Attempt(r[0], r[1], r[2], r[3], r[4], r[5], Outcome(r[6]), r[7], r[8], r[9],
                        r[10], bool(r[11]), r[12], r[13], r[14], r[15]) for r in rows]

    def replay_context(self, student: str, sent: Sequence[Attempt]) -> list[Attempt]:
        """The stored answers of ``student`` that the replay of the answers ``sent`` reads
        (:func:`tutor.classroom.hand_in.stored_misfits`), in the order they were stored: in
        the sent answers' lessons, every answer of their sessions (the replay's context),
        and of the other sessions only those to the same questions (problem and step) as
        one of these or of the sent ones, the only ones that can be copies of them. The
        replay's result is the one it gives with all of :meth:`lesson_attempts`; only the
        rows it never looks at are left unread (the store service's check of each answer
        sent reads a few rows, not the whole lesson)."""
        self._allow(student)
        lessons = {a.lesson for a in sent}
        sessions = sorted({a.session for a in sent})
        if not sent:
            return []
        sid_sql = self.db.backend.student_id_sql()
        backend, columns = self.db.backend, _ATTEMPT_COLUMNS

        def rows_where(sid: int, column: str, values: Sequence[str]) -> list[Row]:
            """The student's rows of the sent lessons whose ``column`` is one of ``values``
            (the lessons are checked here: a condition on them could lead the database to
            an index that reads all the student's rows)."""
            found: list[Row] = []
            for start in range(0, len(values), _IN_CHUNK):
                part = values[start:start + _IN_CHUNK]
                sql = (f"SELECT a.id, s.name, {columns} FROM attempts a JOIN students s ON "
                       "s.id = a.student_id WHERE a.student_id = ? AND "
                       + backend.text_in(f"a.{column}", len(part)))
                found += [r for r in self.db.conn.execute(self.db.sql(sql), (
                    sid, *backend.text_in_args(part))) if r[4] in lessons]
            return found

        def read() -> list[Row]:
            row = self.db.conn.execute(self.db.sql(sid_sql), self._key_args(
                sid_sql, name_key(student))).fetchone()
            if row is None:
                return []
            sid = int(row[0])
            own = rows_where(sid, "session", sessions)
            questions = {(r[5], r[6]) for r in own} | {(a.problem, a.step) for a in sent}
            wanted = set(sessions)
            copies = [r for r in rows_where(sid, "problem", sorted({q[0] for q in questions}))
                      if r[2] not in wanted and (r[5], r[6]) in questions]
            return sorted({int(r[0]): r for r in (*own, *copies)}.values(), key=lambda r: r[0])

        return [_attempt_of(r[1:]) for r in self.db.retry(read)]

    def usage(self, student: str, since: str) -> tuple[int, int, int]:
        """What ``student``'s stored attempts take: how many the store received from
        ``since`` on (ISO 8601 UTC, compared as text, as the store writes times), whatever
        time they carry (answers sent late, or dated in the past, count on the day they
        come; rows a teacher merged from files do not: the cap is on what pages send), how
        many there are, and the characters of their texts (the store service's caps)."""
        self._allow(student)
        texts = " + ".join(f"length(a.{c})" for c in (
            "session", "time", "lesson", "problem", "step", "input", "feedback", "kc"))
        sql = (f"SELECT COUNT(CASE WHEN a.received >= ? THEN 1 END), COUNT(*), "
               f"COALESCE(SUM({texts}), 0) FROM attempts a"
               " JOIN students s ON s.id = a.student_id WHERE " + self.db.backend.key_filter("s"))
        args = self._key_args(sql, name_key(student), since)
        row = self.db.retry(lambda: one(self.db.conn.execute(self.db.sql(sql), args)))
        return int(row[0]), int(row[1]), int(row[2])

    def attempts_after(self, mark: ReadMark | None = None, student: str | None = None
                       ) -> tuple[list[tuple[int, Attempt]], ReadMark]:
        """The attempts (of one student) a reader who stopped at ``mark`` has not read, each
        with its id, in the order of their ids, and the mark to give at the next read (None:
        from the start, every row). A row may come again (on PostgreSQL, one committed late
        is looked for again: :mod:`tutor.storage.read_mark`); the reader keeps each id once.
        A store opened for one student gives that student's (any other raises
        :class:`StoreAccessError`)."""
        mark = mark or ReadMark()
        if student is None and self.owner is not None:
            student = self.owner
        self._allow(student)
        where, values = self.db.backend.after_filter("a", mark)
        sql = ("SELECT a.id, s.name, a.session, a.time, a.lesson, a.problem, a.step, "
               "a.outcome, a.input, a.feedback, a.kc, a.attempt_at_step, a.first_attempt, "
               "a.hints, a.duration, a.expected, a.answered FROM attempts a"
               " JOIN students s ON s.id = a.student_id WHERE " + where)
        if student is not None:
            sql += " AND " + self.db.backend.key_filter("s")
            values = self._key_args(sql, name_key(student), *values)
        sql += " ORDER BY a.id"

        def read() -> tuple[int, list[Row]]:
            horizon = self.db.backend.read_horizon(self.db.conn)
            return horizon, self.db.conn.execute(self.db.sql(sql), values).fetchall()

        horizon, rows = self.db.retry(read)
        found = [(int(r[0]), Attempt(r[1], r[2], r[3], r[4], r[5], r[6], Outcome(r[7]), r[8],
                                     r[9], r[10], r[11], bool(r[12]), r[13], r[14], r[15],
                                     r[16])) for r in rows]
        last = max([mark.last_id, *(i for i, _ in found)])
        return found, ReadMark(last, horizon)

    # -- mastery -----------------------------------------------------------------------------
    def save_mastery_rows(self, student: str,
                          rows: Mapping[str, Mapping[str, MasteryValue]]) -> None:
        """Store ``student``'s mastery rows (one transaction): by skill, the columns of
        :data:`MASTERY_COLUMNS` (the shape of :meth:`tutor.teaching.mastery.Mastery.to_dict`). The
        store keeps rows; the teaching code makes them a mastery
        (:func:`tutor.session.saving.save_mastery`)."""
        self._allow(student)
        values = [tuple(int(row[c]) if c == "mastered" else row[c] for c in MASTERY_COLUMNS)
                  for row in rows.values()]
        columns = ", ".join(("student_id", *MASTERY_COLUMNS))
        marks = ", ".join("?" * (len(MASTERY_COLUMNS) + 1))
        update = ", ".join(f"{c} = excluded.{c}" for c in MASTERY_COLUMNS[1:])
        sql = self.db.sql(f"INSERT INTO mastery ({columns}) VALUES ({marks}) "
                        f"ON CONFLICT (student_id, skill) DO UPDATE SET {update}")

        def write() -> None:
            with self.db.transaction():
                sid = self._student_id(student)
                for row in values:
                    self.db.conn.execute(sql, (sid, *row))

        self.db.retry(write)

    def mastery_rows(self, student: str) -> dict[str, dict[str, MasteryValue]]:
        """``student``'s saved mastery rows, by skill: each the columns of
        :data:`MASTERY_COLUMNS` (empty if nothing was saved). The teaching code reads them
        (:func:`tutor.session.saving.load_mastery`,
        :meth:`tutor.teaching.mastery.Mastery.from_dict`)."""
        self._allow(student)
        columns = ", ".join(f"m.{c}" for c in MASTERY_COLUMNS)
        sql = (f"SELECT {columns} FROM mastery m JOIN students s ON s.id = m.student_id"
               " WHERE " + self.db.backend.key_filter("s"))
        rows = self.db.retry(lambda: self.db.conn.execute(
            self.db.sql(sql), self._key_args(sql, name_key(student))).fetchall())
        return {r[0]: dict(zip(MASTERY_COLUMNS, r, strict=True)) for r in rows}

    def merge(self, rows: Iterable[Attempt], *, from_file: bool = False) -> int:
        """Add attempts (all in one transaction); return how many were new. A store opened
        for one student refuses a row of another (and then writes none). ``from_file``: the
        rows came in an uploaded progress file, and each session's lesson with a new row is
        marked so (:data:`tutor.storage.records.FROM_FILE`, at the merge's time): the teacher
        page says so after a reload too."""
        attempts = list(rows)
        for a in attempts:
            self._allow(a.student)
            self._refuse_bad(a)
        now = utc_now()

        def write() -> int:
            added = 0
            new: dict[tuple[str, str], int] = {}
            with self.db.transaction():
                for a in attempts:
                    sid = self._student_id(a.student)
                    self._ensure_session(a.session, sid, a.time)
                    if self._insert(sid, a, ignore=True, received=None):
                        added += 1
                        new[(a.session, a.lesson)] = sid
                if from_file:
                    for (session, lesson), sid in new.items():
                        self._mark(sid, session, lesson, FROM_FILE, now)
            return added

        return self.db.retry(write)

    # -- session marks (issue 52 part 3) ----------------------------------------------------
    def _mark(self, sid: int, session: str, lesson: str, mark: str, time: str) -> None:
        self.db.conn.execute(self.db.sql(
            "INSERT INTO session_marks (student_id, session, lesson, mark, time) "
            "VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING"), (sid, session, lesson, mark, time))

    def mark_session(self, student: str, session: str, lesson: str, mark: str,
                     time: str | None = None) -> None:
        """Record that the play page ended ``lesson`` in ``student``'s ``session``, and why
        (``mark``: one of :data:`tutor.storage.records.END_MARKS`), at ``time`` (the page's
        clock, the one its rows carry). Once per student, session, lesson and reason: a
        write tried again changes nothing. (One session may be several students': the
        players of one device.)"""
        self._allow(student)
        when = time or utc_now()
        problems = tuple(check_mark(session, lesson, mark, when))
        if problems:
            raise StoreError(N_("This lesson's end cannot be stored: {problems}."),
                             problems=problems, lang=self.lang)

        def write() -> None:
            with self.db.transaction():
                self._mark(self._student_id(student), session, lesson, mark, when)

        self.db.retry(write)

    def session_marks(self, since: str | None = None, student: str | None = None
                      ) -> list[SessionMark]:
        """The session marks made at or after ``since`` (ISO 8601 UTC; None: all), oldest
        first: the class's, or ``student``'s (a store opened for one student gives theirs).
        The teacher page reads those of its live window at each tick."""
        if student is None and self.owner is not None:
            student = self.owner
        self._allow(student)
        where = ["m.time >= ?"] if since is not None else []
        args: tuple[object, ...] = (since,) if since is not None else ()
        if student is not None:
            where.append(self.db.backend.key_filter("s"))
        sql = ("SELECT s.name, m.session, m.lesson, m.mark, m.time FROM session_marks m "
               "JOIN students s ON s.id = m.student_id"
               + (" WHERE " + " AND ".join(where) if where else "") + " ORDER BY m.time")
        if student is not None:
            args = self._key_args(sql, name_key(student), *args)
        return self.db.retry(lambda: [SessionMark(*r) for r in self.db.conn.execute(
            self.db.sql(sql), args).fetchall()])

    # -- deals played (issue 51) ------------------------------------------------------------
    def record_deal(self, student: str, lesson: str, deal: str, session: str,
                    time: str | None = None) -> bool:
        """Record that ``student`` plays ``deal`` (:func:`tutor.session.deal_key`: what makes
        two games the same game) of ``lesson`` in ``session``; True if this session is the
        first to play it (then its answers are evidence), False if another session played it
        before (practice). One transaction, keyed by student, lesson and deal: of two tabs
        that open the same deal at the same moment exactly one is the first; asking again
        for the same session (a write tried again) gives the same answer."""
        self._allow(student)
        self._check_deal(lesson, deal, session)
        now = time or utc_now()

        def write() -> bool:
            with self.db.transaction():
                sid = self._student_id(student)
                self.db.conn.execute(self.db.sql(
                    "INSERT INTO deals (student_id, lesson, deal, session, time) "
                    "VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING"),
                    (sid, lesson, deal, session, now))
                first = one(self.db.conn.execute(self.db.sql(
                    "SELECT session FROM deals WHERE student_id = ? AND lesson = ? AND "
                    "deal = ?"), (sid, lesson, deal)))[0]
                return bool(first == session)

        return self.db.retry(write)

    def deals(self, student: str) -> list[tuple[str, str, str, str]]:
        """The deals ``student`` has played: (lesson, deal, the session that played it first,
        when), oldest first."""
        self._allow(student)
        sql = ("SELECT d.lesson, d.deal, d.session, d.time FROM deals d JOIN students s ON "
               "s.id = d.student_id WHERE " + self.db.backend.key_filter("s") + " ORDER BY d.time")
        return self.db.retry(lambda: [(r[0], r[1], r[2], r[3]) for r in self.db.conn.execute(
            self.db.sql(sql), self._key_args(sql, name_key(student))).fetchall()])

    def revealed(self, student: str, lesson: str) -> list[tuple[str, str, int, str]]:
        """The questions whose answer "Show me" gave ``student`` in ``lesson`` (their give-up
        rows): problem, step, the answer shown and when, oldest first. The student's own
        rows of one lesson only (a page asks at a right first answer: no class read)."""
        self._allow(student)
        key = self.db.backend.key_filter("s")
        sql = ("SELECT a.problem, a.step, a.expected, a.time FROM attempts a JOIN students s "
               "ON s.id = a.student_id WHERE a.lesson = ? AND a.outcome = ? AND "
               f"a.expected IS NOT NULL AND {key} ORDER BY a.time")
        args = self._key_args(sql, name_key(student), lesson, Outcome.GIVEUP.value)
        return self.db.retry(lambda: [(r[0], r[1], int(r[2]), r[3]) for r in self.db.conn.execute(
            self.db.sql(sql), args).fetchall()])

    def name_merges(self) -> list[tuple[str, str, str]]:
        """The students merged because their names were one name written two ways (when the
        store was brought to version 3): the name kept, the name merged into it, and when.
        The whole class's: a store opened for one student refuses it."""
        self._allow(None)
        return self.db.retry(lambda: [(r[0], r[1], r[2]) for r in self.db.conn.execute(
            "SELECT kept, merged, time FROM name_merges ORDER BY time, kept")])

    # -- classes, rosters and assignments (issue 45) ------------------------------------------
    def save_roster(self, class_code: str, names: list[str]) -> None:
        """The class's roster becomes ``names`` (checked before: no two with one key; a
        roster no page would save is refused: :func:`class_rows.check_roster_row`)."""
        self._teacher_only()
        class_rows.check_roster_row(class_code, names, self.lang)
        class_rows.save_roster(self.db, class_code, names, utc_now())

    hub_groups = False
    """Whether :meth:`roster_from_group` can work (a hub's store service: yes)."""

    def roster_from_group(self, group: str, class_code: str | None = None) -> list[str]:
        """The roster of ``class_code`` (None: the group's name) from the members of a
        JupyterHub group, and the names saved. Only the hub's store service knows the hub's
        groups (:class:`~tutor.storage.store.ServiceStore`); a store opened on the
        database itself has no hub to ask."""
        self._teacher_only()
        raise StoreError(N_("A roster from a JupyterHub group needs the class server's hub; "
                            "this store has none (paste the names, or upload a CSV file)."),
                         lang=self.lang)

    def roster(self, class_code: str) -> list[str]:
        """The class's roster in the teacher's order (a teacher's: a student's store refuses
        it, since it names the other students)."""
        self._teacher_only()
        return class_rows.roster(self.db, class_code)

    def class_codes(self) -> list[str]:
        """Every class with a roster or an assignment (a teacher's)."""
        self._teacher_only()
        return class_rows.class_codes(self.db)

    def classes_of(self, student: str) -> list[str]:
        """The classes whose roster holds ``student``."""
        self._allow(student)
        return class_rows.classes_of(self.db, student)

    def save_assignment(self, assignment: Assignment) -> None:
        """A new assignment, or an edit of the one with its id (checked before; one no page
        would make is refused: :func:`class_rows.check_row`)."""
        self._teacher_only()
        class_rows.check_row(assignment, self.lang)
        class_rows.save_assignment(self.db, assignment, utc_now())

    def assignments(self, class_code: str | None = None) -> list[Assignment]:
        """The assignments of ``class_code`` (None: every class), oldest first. A store
        opened for one student gives only those of the classes whose roster holds them."""
        if self.owner is None:
            return class_rows.assignments(self.db, class_code)
        return self.student_assignments(self.owner, class_code)

    def assignment(self, assignment_id: str) -> Assignment | None:
        """The assignment with this id, or None. A store opened for one student refuses one
        of a class whose roster does not hold them (a link passed from another class)."""
        if self.owner is None:
            return class_rows.assignment(self.db, assignment_id)
        return self.student_assignment(self.owner, assignment_id)

    def student_assignments(self, student: str, class_code: str | None = None
                            ) -> list[Assignment]:
        """The assignments ``student`` may see (of ``class_code``, or of every class): those
        of the classes whose roster holds them. What a store opened for ``student`` gives,
        for a teacher's store serving students (the hub's store service)."""
        self._allow(student)
        mine = set(class_rows.classes_of(self.db, student))
        return [a for a in class_rows.assignments(self.db, class_code) if a.class_code in mine]

    def student_assignment(self, student: str, assignment_id: str) -> Assignment | None:
        """The assignment with this id as ``student`` may see it: None if there is none, and
        :class:`StoreAccessError` if it is another class's."""
        self._allow(student)
        found = class_rows.assignment(self.db, assignment_id)
        if found is not None and found.class_code not in set(
                class_rows.classes_of(self.db, student)):
            raise StoreAccessError(N_("This assignment is for another class; {owner} is not "
                                      "on its list."), owner=student, lang=self.lang)
        return found

    def integrity_ok(self) -> bool:
        return self.db.integrity_ok()


def open_store(address: str | os.PathLike[str] | None = None, *, lang: str = SOURCE_LANG,
               busy_timeout: float = BUSY_TIMEOUT, retries: int = BUSY_RETRIES,
               owner: str | None = None) -> ProgressStore:
    """The progress store at ``address`` (None: ``$LEONARD_TUTOR_DB``, else the default
    file): the hub's store service for an ``http(s)://`` address
    (:class:`~tutor.storage.service_store.ServiceStore`), else a :class:`Store` on the
    SQLite file or PostgreSQL database itself. Every page, command and session that opens
    the class's store opens it here, so that on a class server all of them go through the
    service."""
    if is_service_address(address if address is not None else os.environ.get(ENV_VAR)):
        return ServiceStore(address, lang=lang, busy_timeout=busy_timeout, retries=retries,
                            owner=owner)
    return Store(address, lang=lang, busy_timeout=busy_timeout, retries=retries, owner=owner)
