"""The class's progress store as a page's kernel on a JupyterHub sees it: the hub's store
service (:mod:`tutor.hub.store_service`) over HTTP, never the database itself.

On a class server the database's address and password are the service's alone: a student's
server is given only the service's address (``LEONARD_TUTOR_DB=http://…/services/
leonard-store/``), which is no secret, and every request carries the hub's token of the
student's server (``$JUPYTERHUB_API_TOKEN``). The service asks the hub whose token it is, and
keeps each student to their own rows; only a user the hub gives the teacher role reads the
class. A kernel that changed its own ``JUPYTERHUB_USER`` changed nothing: the token still
names the student.

A write (an answer, a session, mastery; a teacher's merge, roster or assignment) carries one
thing more: the user's write key (``$LEONARD_WRITE_KEY``, in the :data:`WRITE_KEY_HEADER`
header), which the hub gives only to the user's own server, never through its API (issue 51
part 1). The service refuses a write without it: a token a student minted from the hub reads
their rows, but cannot write evidence the page never saw.

:class:`ServiceStore` is a :class:`~tutor.storage.progress_store.ProgressStore`, as
:class:`~tutor.storage.store.Store` is: :func:`tutor.storage.store.open_store` with a service
address (given, or in ``$LEONARD_TUTOR_DB``) makes one, so the pages, the session's recorder
and the teacher's command line hold either alike. What the store does in SQL, the service
does; these calls only carry the rows, as JSON
(:func:`attempt_json`, :func:`attempt_from_json`), and turns the service's answers into the
store's errors in the reader's language:

* the service out of reach, or its database busy or out of reach: :class:`StoreBusyError`
  (the session keeps the answers in memory and saves them when it answers again; every
  write is idempotent, so a write tried again after a lost reply is not stored twice);
* another student's rows: :class:`StoreAccessError`;
* a row the service refuses: :class:`StoreError`.

After an answer of "busy", the next :data:`COOLDOWN` seconds say "busy" at once without
asking (a page whose store is down must still answer the student's clicks at once).
"""

from __future__ import annotations

import http.client
import json
import math
import os
import time as _time
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import fields
from pathlib import Path
from urllib.parse import urlencode, urlsplit

from tutor.i18n import N_, SOURCE_LANG, Message, normalize_lang
from tutor.storage.address import SERVICE_SCHEMES, is_service_address
from tutor.storage.class_rows import Assignment, check_roster_row, check_row
from tutor.storage.read_mark import ReadMark
from tutor.storage.records import (
    KC_SEPARATOR,
    Attempt,
    MasteryValue,
    Outcome,
    SessionMark,
    StoreError,
    move_of,
)
from tutor.storage.records import outcome as _outcome
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

__all__ = ["API", "COOLDOWN", "MAX_REQUEST", "SERVICE_SCHEMES", "TOKEN_ENV", "WRITE_KEY_ENV",
           "WRITE_KEY_HEADER", "ServiceStore",
           "assignment_from_json", "assignment_json", "attempt_from_json", "attempt_json",
           "error_json", "is_service_address", "mastery_from_json", "message_from_json",
           "names_from_json"]

TOKEN_ENV = "JUPYTERHUB_API_TOKEN"
"""Where a single-user server (and so its kernels) finds the hub's token of its user."""
WRITE_KEY_ENV = "LEONARD_WRITE_KEY"
"""Where a user's server (and so its kernels) finds the user's write key, which the hub's
spawner gives it (``deploy/tljh/leonard.py``; :func:`tutor.hub.store_service.write_key`)."""
WRITE_KEY_HEADER = "X-Leonard-Write-Key"
"""The header that carries the write key to the service."""
API = "api/v1/"
"""The service's routes, under its prefix (``/services/leonard-store/``)."""
COOLDOWN = 3.0
"""Seconds after a "busy" answer during which the store says "busy" without asking."""
MAX_REQUEST = 256 * 1024
"""The largest request body the service takes (its answer to a larger one: 413). A page
sends one answer at a time (at most about 0.5 KiB, measured on simulated lessons) and its
mastery (a few KiB); a teacher's merge is sent in requests of at most
:data:`_MERGE_BYTES`."""
_MERGE_BYTES = MAX_REQUEST // 2
"""The most of a merge's rows (as JSON) sent in one request: a file's rows go in as many
requests as they need."""
_GRACE = 3.0
"""Seconds a request may take beyond ``busy_timeout`` (the service's own wait for a busy
database, and the hub's check of the token)."""
_RETRY_PAUSE = 0.1


def attempt_json(a: Attempt) -> dict[str, object]:
    """``a`` as a JSON object (the service's wire format)."""
    return {f.name: (a.outcome.value if f.name == "outcome" else getattr(a, f.name))
            for f in fields(Attempt)}


_TEXT_FIELDS = ("student", "session", "time", "lesson", "problem", "step", "input", "feedback",
                "kc")
_INT_FIELDS = ("attempt_at_step", "hints")
_OPTIONAL_INT_FIELDS = ("expected", "answered")


def _wire_error(what: str) -> StoreError:
    return StoreError(N_("The store service sent or received a row it cannot read: {what}."),
                      what=what)


def attempt_from_json(value: object) -> Attempt:
    """An :class:`Attempt` from its JSON object; :class:`StoreError` names what is wrong.
    Only the types are checked here; the store checks the values (:func:`check_attempt`)."""
    if not isinstance(value, dict):
        raise _wire_error("an attempt is not an object")
    missing = [f.name for f in fields(Attempt) if f.name not in value]
    if missing:
        raise _wire_error("an attempt lacks " + ", ".join(missing))
    for name in _TEXT_FIELDS:
        if not isinstance(value[name], str):
            raise _wire_error(f"{name} is not a text")
    for name in _INT_FIELDS + _OPTIONAL_INT_FIELDS:
        v = value[name]
        if (v is None and name in _OPTIONAL_INT_FIELDS) or (
                isinstance(v, int) and not isinstance(v, bool)):
            continue
        raise _wire_error(f"{name} is not a whole number")
    if not isinstance(value["first_attempt"], bool):
        raise _wire_error("first_attempt is not true or false")
    duration = value["duration"]
    if isinstance(duration, bool) or not isinstance(duration, int | float):
        raise _wire_error("duration is not a number")
    kind = value["outcome"]
    if not isinstance(kind, str):
        raise _wire_error("outcome is not a text")
    return Attempt(value["student"], value["session"], value["time"], value["lesson"],
                   value["problem"], value["step"], _outcome(kind), value["input"],
                   value["feedback"], value["kc"], value["attempt_at_step"],
                   value["first_attempt"], value["hints"], float(duration),
                   value["expected"], value["answered"])


def assignment_json(a: Assignment) -> dict[str, object]:
    """``a`` as a JSON object (its lessons a list)."""
    return {f.name: (list(a.lessons) if f.name == "lessons" else getattr(a, f.name))
            for f in fields(Assignment)}


_ASSIGNMENT_TEXTS = ("id", "class_code", "title", "due", "tz", "lang", "scaffolds")


def assignment_from_json(value: object) -> Assignment:
    """An :class:`Assignment` from its JSON object, checked as the store checks one before
    storing it (:func:`~tutor.storage.class_rows.check_row`): a request written by hand
    (a forged id, a 10,000-character title, a due date that is not a date) is a
    :class:`StoreError` naming the field, whichever side reads it."""
    if not isinstance(value, dict):
        raise _wire_error("an assignment is not an object")
    missing = [f.name for f in fields(Assignment) if f.name not in value]
    if missing:
        raise _wire_error("an assignment lacks " + ", ".join(missing))
    for name in (*_ASSIGNMENT_TEXTS, "created"):
        if not isinstance(value[name], str):
            raise _wire_error(f"{name} is not a text")
    lessons = value["lessons"]
    if not isinstance(lessons, list) or not all(isinstance(x, str) for x in lessons):
        raise _wire_error("lessons is not a list of texts")
    if not isinstance(value["closed"], bool):
        raise _wire_error("closed is not true or false")
    a = Assignment(**{name: value[name] for name in _ASSIGNMENT_TEXTS},
                   lessons=tuple(lessons), closed=value["closed"], created=value["created"])
    check_row(a)
    return a


def names_from_json(value: object) -> list[str]:
    """A list of names (a roster, classes) from JSON."""
    if not isinstance(value, list) or not all(isinstance(x, str) for x in value):
        raise _wire_error("a list of names is not a list of texts")
    return list(value)


_MASTERY_TEXTS = ("skill", "evidence")
_MASTERY_REALS = ("p_known", "total_seconds")
_LARGEST_COUNT = 2**31 - 1
"""The largest count a mastery row holds (the databases' INTEGER)."""


def _mastery_value(column: str, v: str | int | float) -> MasteryValue:
    """``v`` as mastery ``column`` holds it, or :class:`StoreError` saying what is wrong
    (before the database refuses it with an error of its own)."""
    if column in _MASTERY_TEXTS:
        if not isinstance(v, str):
            raise _wire_error(f"the mastery column {column} is not a text")
        return v
    if isinstance(v, str):
        raise _wire_error(f"the mastery column {column} is not a number")
    if column in _MASTERY_REALS:
        if not math.isfinite(v) or v < 0 or (column == "p_known" and v > 1):
            raise _wire_error(f"the mastery column {column} is out of range")
        return float(v)
    if not isinstance(v, int) or not 0 <= v <= _LARGEST_COUNT:
        raise _wire_error(f"the mastery column {column} is not a whole number from 0 to "
                          f"{_LARGEST_COUNT}")
    if column == "mastered" and v not in (0, 1):
        raise _wire_error("the mastery column mastered is not 0 or 1")
    return v


def mastery_from_json(value: object) -> dict[str, dict[str, MasteryValue]]:
    """Mastery rows (skill → the columns of :data:`MASTERY_COLUMNS`) from JSON."""
    if not isinstance(value, dict):
        raise _wire_error("the mastery rows are not an object")
    rows: dict[str, dict[str, MasteryValue]] = {}
    for skill, row in value.items():
        if not isinstance(skill, str) or not isinstance(row, dict):
            raise _wire_error("a mastery row is not an object")
        kept: dict[str, MasteryValue] = {}
        for column in MASTERY_COLUMNS:
            v = row.get(column)
            if isinstance(v, bool):
                v = int(v)
            if not isinstance(v, str | int | float):
                raise _wire_error(f"the mastery column {column} is missing")
            kept[column] = _mastery_value(column, v)
        if kept["skill"] != skill:
            raise _wire_error("a mastery row names another skill")
        rows[skill] = kept
    return rows


def _batches(rows: list[dict[str, object]], most: int) -> Iterator[list[dict[str, object]]]:
    """``rows`` in order, in lists whose JSON takes at most ``most`` bytes (a row larger than
    that alone: the service says what is wrong with it)."""
    batch: list[dict[str, object]] = []
    size = 0
    for row in rows:
        length = len(json.dumps(row).encode("utf-8")) + 2
        if batch and size + length > most:
            yield batch
            batch, size = [], 0
        batch.append(row)
        size += length
    if batch:
        yield batch


def _message_json(message: Message) -> dict[str, object]:
    params: dict[str, object] = {}
    for key, value in message.params.items():
        if isinstance(value, Message):
            params[key] = {"message": _message_json(value)}
        elif isinstance(value, list | tuple):
            params[key] = [({"message": _message_json(v)} if isinstance(v, Message) else str(v))
                           for v in value]
        elif isinstance(value, int | float | str) and not isinstance(value, bool):
            params[key] = value
        else:
            params[key] = str(value)
    return {"msgid": message.msgid, "params": params}


def error_json(kind: str, err: StoreError) -> dict[str, object]:
    """The service's answer for ``err``: its kind (``busy``, ``access``, ``invalid``) and its
    message, untranslated, for the page to say in the student's language."""
    return {"error": kind, "message": _message_json(err.msg)}


def message_from_json(value: object) -> Message:
    """A :class:`~tutor.i18n.Message` from :func:`error_json`'s ``message``."""
    if not isinstance(value, dict) or not isinstance(value.get("msgid"), str):
        return Message(N_("The store service gave an answer this tutor cannot read."))
    params: dict[str, object] = {}
    raw = value.get("params")
    for key, v in (raw.items() if isinstance(raw, dict) else ()):
        if isinstance(v, dict) and "message" in v:
            params[str(key)] = message_from_json(v["message"])
        elif isinstance(v, list):
            params[str(key)] = tuple(message_from_json(x["message"])
                                     if isinstance(x, dict) and "message" in x else str(x)
                                     for x in v)
        elif isinstance(v, int | float | str) and not isinstance(v, bool):
            params[str(key)] = v
    return Message(str(value["msgid"]), **params)


_ERRORS: dict[str, type[StoreError]] = {"busy": StoreBusyError, "access": StoreAccessError,
                                        "invalid": StoreError}


class ServiceStore(StoreBase):
    """The progress store behind the hub's store service: every read and write is a call to
    the service (see the module's docstring). It is a
    :class:`tutor.storage.progress_store.ProgressStore`, as :class:`tutor.storage.store.Store`
    is, and :func:`tutor.storage.store.open_store` makes one for an ``http(s)://`` address
    (given, or in ``$LEONARD_TUTOR_DB``); ``token``
    defaults to ``$JUPYTERHUB_API_TOKEN``, ``write_key`` to ``$LEONARD_WRITE_KEY`` (without
    it the store reads, and the service refuses its writes). Nothing is asked of the service
    until the first read or write, so a page opens at once even while the service is down.
    """

    hub_groups = True
    """A hub's store: a roster can be taken from one of its groups."""
    shared = True
    """A class server's store: it remembers the deals each student played."""
    kind = "service"

    def __init__(self, path: str | os.PathLike[str] | None = None, *,
                 lang: str = SOURCE_LANG, busy_timeout: float = BUSY_TIMEOUT,
                 retries: int = BUSY_RETRIES, owner: str | None = None,
                 token: str | None = None, write_key: str | None = None) -> None:
        super().__init__(normalize_lang(lang), owner)
        address = str(path) if path is not None else os.environ.get("LEONARD_TUTOR_DB", "")
        parts = urlsplit(address)
        if not is_service_address(address) or not parts.hostname:
            raise StoreAddressError(N_("{address} is not the address of a store service."),
                                    address=address, lang=self.lang)
        self.path: Path | str = address
        self.busy_timeout = busy_timeout
        self.retries = max(0, int(retries))
        self._secure = parts.scheme.lower() == "https"
        self._host = parts.hostname
        self._port = parts.port
        self._prefix = (parts.path or "/").rstrip("/") + "/" + API
        self._token = token if token is not None else os.environ.get(TOKEN_ENV, "")
        self._write_key = (write_key if write_key is not None
                           else os.environ.get(WRITE_KEY_ENV, ""))
        self._connection: http.client.HTTPConnection | None = None
        self._busy_until = 0.0
        if not self._token:
            raise StoreAccessError(N_("The class's store answers only the pages of this class "
                                      "server: this page has no hub token to show it."),
                                   lang=self.lang)

    # -- the wire ----------------------------------------------------------------------------
    def _connect(self) -> http.client.HTTPConnection:
        if self._connection is None:
            timeout = max(0.1, self.busy_timeout) + _GRACE
            kind = http.client.HTTPSConnection if self._secure else http.client.HTTPConnection
            self._connection = kind(self._host, self._port, timeout=timeout)
        return self._connection

    def _drop(self) -> None:
        if self._connection is not None:
            self._connection.close()
            self._connection = None

    def _busy(self, cause: str) -> StoreBusyError:
        self._busy_until = _time.monotonic() + COOLDOWN
        return StoreBusyError(N_("The class's store cannot be reached now ({cause}). Nothing "
                                 "was saved; try again in a moment."), cause=cause,
                              lang=self.lang)

    def _call(self, method: str, route: str, body: object = None,
              query: Mapping[str, str] | None = None) -> dict[str, object]:
        """One request to the service, and its JSON answer. Connection failures are tried
        again ``retries`` times (a kept-alive connection the service closed is one); an
        answer of "busy" is not (the service has already waited for its database)."""
        if _time.monotonic() < self._busy_until:
            raise StoreBusyError(N_("The class's store did not answer a moment ago. Nothing "
                                    "was saved; try again in a moment."), lang=self.lang)
        target = self._prefix + route + (("?" + urlencode(query)) if query else "")
        data = None if body is None else json.dumps(body).encode("utf-8")
        headers = {"Authorization": f"token {self._token}", "Accept": "application/json"}
        if self._write_key:
            headers[WRITE_KEY_HEADER] = self._write_key
        if data is not None:
            headers["Content-Type"] = "application/json"
        last = ""
        for attempt in range(self.retries + 2):  # one more: a stale kept-alive connection
            try:
                conn = self._connect()
                conn.request(method, target, body=data, headers=headers)
                reply = conn.getresponse()
                status, raw = reply.status, reply.read()
            except (OSError, http.client.HTTPException) as err:
                self._drop()
                last = type(err).__name__
                if attempt < self.retries + 1:
                    _time.sleep(_RETRY_PAUSE * attempt)
                continue
            return self._answer(status, raw)
        raise self._busy(last or "no answer")

    def _answer(self, status: int, raw: bytes) -> dict[str, object]:
        try:
            answer = json.loads(raw.decode("utf-8")) if raw else {}
        except (UnicodeDecodeError, ValueError):
            answer = None
        if not isinstance(answer, dict):
            if status >= 500 or status in (404, 429):  # a proxy's page: the service is away
                self._drop()
                raise self._busy(f"HTTP {status}")
            raise StoreError(N_("The store service gave an answer this tutor cannot read "
                                "(HTTP {status})."), status=status, lang=self.lang)
        if 200 <= status < 300:
            self._busy_until = 0.0
            return answer
        kind = answer.get("error")
        if status in (401, 403) and kind not in _ERRORS:
            kind = "access"
        error = _ERRORS.get(kind if isinstance(kind, str) else "", StoreError)
        if error is StoreBusyError:
            self._busy_until = _time.monotonic() + COOLDOWN
        raise error(message_from_json(answer.get("message")), lang=self.lang)

    @staticmethod
    def _list(answer: Mapping[str, object], key: str) -> list[object]:
        value = answer.get(key)
        if not isinstance(value, list):
            raise _wire_error(f"the answer has no list of {key}")
        return value

    # -- the store's public methods ----------------------------------------------------------
    def me(self) -> tuple[str, bool]:
        """Who the hub says this page's user is, and whether the hub gives them the teacher
        role (the service's word, not the kernel's environment)."""
        answer = self._call("GET", "me")
        name, teacher = answer.get("name"), answer.get("teacher")
        if not isinstance(name, str) or not isinstance(teacher, bool):
            raise _wire_error("the answer does not say who the user is")
        return name, teacher

    def start_session(self, student: str, session: str | None = None,
                      started: str | None = None) -> str:
        import uuid

        self._allow(student)
        session = session or uuid.uuid4().hex
        self._call("POST", "sessions", {"student": student, "session": session,
                                        "started": started or utc_now()})
        return session

    def students(self) -> list[str]:
        return [str(s) for s in self._list(self._call("GET", "students"), "students")]

    def add_attempt(self, attempt: Attempt, game: Mapping[str, object] | None = None) -> int:
        """As :meth:`tutor.storage.store.Store.add_attempt`; the service replays ``game``
        (the record of the match the answer is about) and refuses an answer about a move
        that is not that game's (:func:`tutor.classroom.played_games.game_misfits`)."""
        self._allow(attempt.student)
        self._refuse_bad(attempt)
        move = move_of(attempt.problem)
        body: dict[str, object] = {"attempts": [attempt_json(attempt)]}
        if game is not None and move is not None:
            body["games"] = [{"session": attempt.session, "match": move[0], "record": game}]
        ids = self._list(self._call("POST", "attempts", body), "ids")
        return int(ids[0]) if ids and isinstance(ids[0], int) else 0

    def record_attempt(
        self, student: str, session: str, *, lesson: str, problem: str, step: str,
        outcome: Outcome | str, input_text: str = "", feedback: str = "",
        kc: str | Sequence[str] = (), first_attempt: bool | None = None, hints: int = 0,
        duration: float = 0.0, expected: int | None = None, answered: int | None = None,
        time: str | None = None,
    ) -> int:
        """As :meth:`tutor.storage.store.Store.record_attempt`: the attempt's number at its
        step counts the student's earlier attempts at that step of this session, read from
        the service."""
        self._allow(student)
        earlier = sum(1 for a in self.attempts(student)
                      if (a.session, a.problem, a.step) == (session, problem, step))
        skills = kc if isinstance(kc, str) else KC_SEPARATOR.join(kc)
        return self.add_attempt(Attempt(
            student, session, time or utc_now(), lesson, problem, step,
            _outcome(outcome, self.lang), input_text, feedback, skills, earlier + 1,
            earlier == 0 if first_attempt is None else first_attempt, hints, float(duration),
            expected, answered))

    def attempts(self, student: str | None = None) -> list[Attempt]:
        if student is None and self.owner is not None:
            student = self.owner
        self._allow(student)
        answer = self._call("GET", "attempts", query=None if student is None
                            else {"student": student})
        return [attempt_from_json(a) for a in self._list(answer, "attempts")]

    def lesson_attempts(self, student: str, lessons: Iterable[str]) -> list[Attempt]:
        wanted = set(lessons)
        return [a for a in self.attempts(student) if a.lesson in wanted]

    def replay_context(self, student: str, sent: Sequence[Attempt]) -> list[Attempt]:
        """The sent answers' lessons' stored answers (more rows than the store's, the same
        replay: the service itself reads them from the database)."""
        return self.lesson_attempts(student, {a.lesson for a in sent})

    def usage(self, student: str, since: str) -> tuple[int, int, int]:
        """As the store's, but counting the answers of the day by their own times (the
        service does not send when it received each; the service's cap reads the
        database's)."""
        rows = self.attempts(student)
        chars = sum(len(v) for a in rows for v in (a.session, a.time, a.lesson, a.problem,
                                                    a.step, a.input, a.feedback, a.kc))
        return sum(1 for a in rows if a.time >= since), len(rows), chars

    def attempts_after(self, mark: ReadMark | None = None, student: str | None = None
                       ) -> tuple[list[tuple[int, Attempt]], ReadMark]:
        """As :meth:`tutor.storage.store.Store.attempts_after`, from the service (``GET
        attempts-after``): only the rows since ``mark`` cross the wire."""
        if student is None and self.owner is not None:
            student = self.owner
        self._allow(student)
        query = {"after": (mark or ReadMark()).text()}
        if student is not None:
            query["student"] = student
        answer = self._call("GET", "attempts-after", query=query)
        rows = []
        for value in self._list(answer, "attempts"):
            found = value.get("id") if isinstance(value, dict) else None
            if not isinstance(found, int) or isinstance(found, bool):
                raise _wire_error("an attempt read since a mark has no id")
            rows.append((found, attempt_from_json(value)))
        after = answer.get("after")
        try:
            return rows, ReadMark.parse(after if isinstance(after, str) else "?")
        except StoreError as err:
            raise _wire_error("the answer has no mark to read from next") from err

    def save_mastery_rows(self, student: str,
                          rows: Mapping[str, Mapping[str, MasteryValue]]) -> None:
        self._allow(student)
        self._call("PUT", "mastery", {"student": student,
                                      "rows": {k: dict(v) for k, v in rows.items()}})

    def mastery_rows(self, student: str) -> dict[str, dict[str, MasteryValue]]:
        self._allow(student)
        return mastery_from_json(self._call("GET", "mastery", query={"student": student})
                                 .get("rows"))

    def merge(self, rows: Iterable[Attempt], *, from_file: bool = False) -> int:
        attempts = list(rows)
        for a in attempts:
            self._allow(a.student)
            self._refuse_bad(a)
        total = 0
        for batch in _batches([attempt_json(a) for a in attempts], _MERGE_BYTES):
            added = self._call("POST", "merge", {"attempts": batch,
                                                 "from_file": from_file}).get("added")
            total += added if isinstance(added, int) else 0
        return total

    def mark_session(self, student: str, session: str, lesson: str, mark: str,
                     time: str | None = None) -> None:
        """As :meth:`tutor.storage.store.Store.mark_session` (under the hub's name of the
        student)."""
        self._allow(student)
        self._call("POST", "marks", {"student": student, "session": session,
                                     "lesson": lesson, "mark": mark,
                                     "time": time or utc_now()})

    def session_marks(self, since: str | None = None, student: str | None = None
                      ) -> list[SessionMark]:
        if student is None and self.owner is not None:
            student = self.owner
        self._allow(student)
        query = {"since": since} if since is not None else {}
        if student is not None:
            query["student"] = student
        found = []
        answer = self._call("GET", "marks", query=query)
        for row in self._list(answer, "marks"):
            if not (isinstance(row, list) and len(row) == 5
                    and all(isinstance(v, str) for v in row)):
                raise _wire_error("a session mark is not five texts")
            found.append(SessionMark(*(str(v) for v in row)))
        return found

    def record_deal(self, student: str, lesson: str, deal: str, session: str,
                    time: str | None = None) -> bool:
        """As :meth:`tutor.storage.store.Store.record_deal` (the service records it under the
        hub's name of the student, at its own time)."""
        self._allow(student)
        self._check_deal(lesson, deal, session)
        first = self._call("POST", "deals", {"student": student, "lesson": lesson,
                                             "deal": deal, "session": session}).get("first")
        if not isinstance(first, bool):
            raise _wire_error("the answer does not say whether the deal is new")
        return first

    def deals(self, student: str) -> list[tuple[str, str, str, str]]:
        self._allow(student)
        found = []
        for row in self._list(self._call("GET", "deals", query={"student": student}), "deals"):
            if not (isinstance(row, list) and len(row) == 4
                    and all(isinstance(v, str) for v in row)):
                raise _wire_error("a played deal is not four texts")
            found.append((str(row[0]), str(row[1]), str(row[2]), str(row[3])))
        return found

    def revealed(self, student: str, lesson: str) -> list[tuple[str, str, int, str]]:
        self._allow(student)
        found = []
        answer = self._call("GET", "revealed", query={"student": student, "lesson": lesson})
        for row in self._list(answer, "revealed"):
            if not (isinstance(row, list) and len(row) == 4 and isinstance(row[0], str)
                    and isinstance(row[1], str) and isinstance(row[2], int)
                    and not isinstance(row[2], bool) and isinstance(row[3], str)):
                raise _wire_error("a revealed answer is not a problem, step, number and time")
            found.append((row[0], row[1], int(row[2]), row[3]))
        return found

    def name_merges(self) -> list[tuple[str, str, str]]:
        self._allow(None)
        merges = []
        for row in self._list(self._call("GET", "name-merges"), "merges"):
            if not (isinstance(row, list) and len(row) == 3
                    and all(isinstance(v, str) for v in row)):
                raise _wire_error("a name merge is not three texts")
            merges.append((str(row[0]), str(row[1]), str(row[2])))
        return merges

    # -- classes, rosters and assignments (issue 45): the service keeps a student to the
    # classes whose roster holds them, whatever this page asks -------------------------------
    def save_roster(self, class_code: str, names: list[str]) -> None:
        self._teacher_only()
        check_roster_row(class_code, names, self.lang)
        self._call("PUT", "roster", {"class": class_code, "names": list(names)})

    def roster_from_group(self, group: str, class_code: str | None = None) -> list[str]:
        """The roster of ``class_code`` (None: the group's name) made of the members of the
        hub's group ``group``, as the service reads them from the hub; the names saved."""
        self._teacher_only()
        body: dict[str, object] = {"group": group}
        if class_code is not None:
            body["class"] = class_code
        return names_from_json(self._call("POST", "roster-from-group", body).get("names"))

    def roster(self, class_code: str) -> list[str]:
        self._teacher_only()
        return names_from_json(self._call("GET", "roster", query={"class": class_code})
                               .get("names"))

    def class_codes(self) -> list[str]:
        self._teacher_only()
        return names_from_json(self._call("GET", "classes").get("classes"))

    def classes_of(self, student: str) -> list[str]:
        self._allow(student)
        return names_from_json(self._call("GET", "classes-of", query={"student": student})
                               .get("classes"))

    def save_assignment(self, assignment: Assignment) -> None:
        self._teacher_only()
        check_row(assignment, self.lang)
        self._call("PUT", "assignments", {"assignment": assignment_json(assignment)})

    def assignments(self, class_code: str | None = None) -> list[Assignment]:
        return self._assignments(self.owner, class_code)

    def assignment(self, assignment_id: str) -> Assignment | None:
        return self._assignment(self.owner, assignment_id)

    def student_assignments(self, student: str, class_code: str | None = None
                            ) -> list[Assignment]:
        self._allow(student)
        return self._assignments(student, class_code)

    def student_assignment(self, student: str, assignment_id: str) -> Assignment | None:
        self._allow(student)
        return self._assignment(student, assignment_id)

    def _assignments(self, student: str | None, class_code: str | None) -> list[Assignment]:
        query = {k: v for k, v in (("student", student), ("class", class_code)) if v is not None}
        answer = self._call("GET", "assignments", query=query)
        return [assignment_from_json(a) for a in self._list(answer, "assignments")]

    def _assignment(self, student: str | None, assignment_id: str) -> Assignment | None:
        query = {"id": assignment_id, **({} if student is None else {"student": student})}
        found = self._call("GET", "assignment", query=query).get("assignment")
        return None if found is None else assignment_from_json(found)

    def integrity_ok(self) -> bool:
        return True  # the service's database checks its own pages

    def close(self) -> None:
        self._drop()
