"""The class's store service: a JupyterHub-managed service, the one program of a class server
that holds the database's address (and its password), and that reads and writes the class's
progress for the pages, under the identity the hub gives each request.

Why a service (issue 41): a student's kernel is the student's own program. Whatever it holds,
the student can read (on a server where they can run code), so a kernel that held the
database's address held every student's rows, and a kernel that decided who is a teacher from
its own environment let anyone be one. Here a page's kernel holds only the service's address,
no secret, and the hub's token of the student's server (:mod:`tutor.storage.service_store`),
and:

* each request's token is checked with the hub (``GET /hub/api/user``, cached for a minute):
  the hub says whose it is, and whether it carries the service's access scope;
* a student reads and writes only their own rows (their name matched by
  :func:`tutor.storage.names.name_key`), and their answers are stored under the name the hub
  gives, whatever the row says;
* the teacher role is the hub's: a token whose scopes hold :data:`TEACH_SCOPE`, which the
  hub's roles give the teachers (``deploy/tljh/leonard.py``), may read the class, merge
  students' files and rebuild their mastery; nothing a kernel sets can give it;
* every write is idempotent (an attempt sent again after a lost reply is found, not stored
  twice), and a database that is busy or out of reach is answered "busy" (HTTP 503), which
  the page takes as "keep the answers and try again";
* every write (answers, sessions, mastery, and a teacher's merges, rosters and assignments)
  also carries the user's *write key* (issue 51 part 1): :func:`write_key`, an HMAC of the
  hub's name of the user under a secret only the hub and this service hold
  (``$LEONARD_WRITE_SECRET``). The hub's spawner puts each user's key in their own server's
  environment (``deploy/tljh/leonard.py``), and the hub's API cannot hand it out, so a token a
  student mints (``/hub/token``, ``POST /hub/api/users/<me>/tokens``) reads their rows but
  writes nothing: evidence comes only from the pages of their locked server (issue 41),
  where they run no code. A write without the key, or with another user's, is refused
  (HTTP 403); reads need the token only.

What it stores is what the tutor could have recorded (issue 51): each answer sent is replayed
by the check the teacher page runs on a file (:func:`tutor.classroom.hand_in.stored_misfits`)
against the student's stored answers of that lesson, and a request with one that does not fit
is refused whole (HTTP 400, the replay's sentence); a body over :data:`MAX_BODY` is answered
413 unread, and a student over :data:`MAX_ROWS_PER_DAY` or :data:`MAX_STORED_BYTES` 429.

Classes, rosters and assignments (issue 45): only a teacher makes, edits or closes an
assignment, and saves or reads a roster or the list of classes; every row a teacher sends is
checked again here (:func:`tutor.storage.class_rows.check_row`: a request written by hand is
refused with a sentence). A student gets the assignments of the classes whose roster holds
the hub's name of them, as a store opened for them gives them
(:meth:`~tutor.storage.store.Store.student_assignments`); another class's, asked for by its
id (a link passed on), is refused (HTTP 403), its content unsent. A roster can be a hub
group's members: the service reads the group from the hub's API with its own token, which
the hub's config gives the scope ``read:groups`` (``deploy/tljh/leonard.py``).

Run by the hub (``c.JupyterHub.services``), which gives it ``JUPYTERHUB_API_TOKEN``,
``JUPYTERHUB_API_URL``, ``JUPYTERHUB_SERVICE_URL`` (where to listen) and
``JUPYTERHUB_SERVICE_PREFIX``; ``LEONARD_TUTOR_DB`` is the database (a file path or a
``postgresql://`` address), and ``LEONARD_WRITE_SECRET`` the secret of the write keys
(without it the service does not start)::

    python -m tutor.hub.store_service
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import json
import logging
import os
import sys
from collections.abc import Awaitable, Callable, Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace
from datetime import datetime, timedelta, timezone
from typing import TypeVar
from urllib.parse import quote, urlsplit

import tornado.web
from tornado import httputil
from tornado.httpserver import HTTPServer
from tornado.ioloop import IOLoop

from tutor.classroom.hand_in import FUTURE_SLACK, stored_misfits
from tutor.classroom.played_games import SentGames
from tutor.i18n import N_
from tutor.storage.class_rows import MAX_CODE, Assignment
from tutor.storage.names import name_key, problem_json, same_name
from tutor.storage.read_mark import ReadMark
from tutor.storage.records import ID, Attempt, MasteryValue, StoreError, check_attempt
from tutor.storage.service_store import (
    API,
    MAX_REQUEST,
    WRITE_KEY_HEADER,
    assignment_from_json,
    assignment_json,
    attempt_from_json,
    attempt_json,
    error_json,
    is_service_address,
    mastery_from_json,
    names_from_json,
)
from tutor.storage.store import Store, StoreAccessError, StoreBusyError

__all__ = ["GROUPS_SCOPE", "MAX_BODY", "MAX_ROWS_PER_DAY", "MAX_STORED_BYTES", "MIN_SECRET",
           "SERVICE_NAME", "TEACH_SCOPE", "WRITE_SECRET_ENV", "Caller", "GroupMembers", "Keeper",
           "hub_group_members", "hub_identify", "listen", "main", "make_app", "write_key"]

SERVICE_NAME = "leonard-store"
"""The service's name in the hub (its prefix is ``/services/leonard-store/``)."""
TEACH_SCOPE = "custom:leonard:teach"
"""The hub scope of a teacher: read the class's progress, merge files, rebuild mastery. The
hub's config declares it (``c.JupyterHub.custom_scopes``) and gives it by role."""
GROUPS_SCOPE = "read:groups"
"""The hub scope the service's own token needs to read a group's members (a roster from a
hub group); the hub's config gives it to the service by role."""
HUB_TIMEOUT = 10.0
"""Seconds the service waits for the hub's answer about a group."""
BUSY_TIMEOUT = 1.0
"""Seconds the service waits for a busy or restarting database per try (two tries); then it
answers "busy" and the page keeps the answers for later."""
MAX_BODY = MAX_REQUEST
"""The largest request the service reads (:data:`tutor.storage.service_store.MAX_REQUEST`):
a larger one is answered 413 with a sentence, unread."""
MAX_UNREAD = 64 * 1024 * 1024
"""A request larger than :data:`MAX_BODY` is still taken in (and dropped as it comes) up to
this size, so that its sender reads the 413 and its sentence; beyond it the connection is
closed."""
MAX_ROWS_PER_DAY = 20_000
"""Answers one student may store in 24 hours, then 429: those the store received in the
last 24 hours, whatever time they carry (a page's answers kept through an outage and sent
later, with their own older times, count on the day they come; so do rows dated in the
past, which would otherwise pass uncounted). A page asks one question at a time and a
student answers it in a second at the fastest: all day, 11 hours without a pause at an
answer every 2 seconds. A simulated student who types at random (the most answers per
question) made about 1,300 rows in a whole lesson of 07-all-power."""
MAX_STORED_BYTES = 64 * 1024 * 1024
"""The text one student's answers may hold in the store, then 429: a stored row of the
tutor's holds about 450 bytes (measured on simulated lessons; 512 at most), so this is
150,000 answers, a school year of 200 days of an hour's play at an answer every 5 seconds.
Far below it, a forged row of 10,000-character texts (9.7 MiB of random text grew the
database by 12.4 MiB) is refused at the limit instead of filling the disk."""
ROW_OVERHEAD = 64
"""Bytes counted for a stored row beyond the characters of its texts (its numbers, ids and
index entries)."""
TOKEN_CACHE_SECONDS = 60
"""How long the hub's answer about a token is kept (a revoked token stops within it)."""
WRITE_SECRET_ENV = "LEONARD_WRITE_SECRET"
"""Where the service finds the secret of the write keys (the hub's config gives it; see
:func:`write_key`)."""
MIN_SECRET = 32
"""The fewest characters of a write secret the service starts with (``leonard.py`` makes 64
hexadecimal digits)."""
_READS = frozenset({"GET", "HEAD", "OPTIONS"})
"""The methods that change nothing: every other one is a write, and needs the key."""

_T = TypeVar("_T")
log = logging.getLogger("leonard-store")


@dataclass(frozen=True)
class Caller:
    """Who sent a request, as the hub says: their name, and whether they are a teacher."""

    name: str
    teacher: bool


Identify = Callable[[str], Awaitable[Caller | None]]
"""A token → the caller it belongs to, or None when the hub does not vouch for it."""


def write_key(secret: str, name: str) -> str:
    """The write key of the hub user ``name`` (the hub's name, after its
    ``normalize_username``): HMAC-SHA256 of the name under ``secret``, in hexadecimal.
    ``deploy/tljh/leonard.py`` and ``deploy/z2jh/config.yaml`` compute the same in the hub
    (whose Python has no tutor to import), and give it to the user's server as
    ``LEONARD_WRITE_KEY``."""
    return hmac.new(secret.encode("utf-8"), name.encode("utf-8"), hashlib.sha256).hexdigest()


def hub_identify(api_url: str, api_token: str, service: str = SERVICE_NAME) -> Identify:
    """Ask the hub at ``api_url`` whose token a request carries (JupyterHub's ``HubAuth``,
    with its cache). A token is accepted if it belongs to a user and carries the access
    scope of ``service``; the caller is a teacher if it carries :data:`TEACH_SCOPE`."""
    from jupyterhub.services.auth import HubAuth, check_scopes

    auth = HubAuth(api_url=api_url, api_token=api_token, cache_max_age=TOKEN_CACHE_SECONDS,
                   access_scopes={f"access:services!service={service}"})

    async def identify(token: str) -> Caller | None:
        if not token:
            return None
        model = await auth.user_for_token(token, sync=False)
        if not isinstance(model, dict) or model.get("kind", "user") != "user":
            return None
        name, scopes = model.get("name"), set(model.get("scopes") or ())
        if not isinstance(name, str) or not check_scopes(auth.access_scopes, scopes):
            return None
        return Caller(name, TEACH_SCOPE in scopes)

    return identify


GroupMembers = Callable[[str], Awaitable[list[str] | None]]
"""A hub group's name → its members' names, or None when the hub has no such group."""


def hub_group_members(api_url: str, api_token: str) -> GroupMembers:
    """Read a group's members from the hub's REST API (``GET {api_url}/groups/{name}``) with
    the service's token, which needs :data:`GROUPS_SCOPE`."""
    from tornado.httpclient import AsyncHTTPClient, HTTPClientError

    async def members(group: str) -> list[str] | None:
        url = f"{api_url.rstrip('/')}/groups/{quote(group, safe='')}"
        try:
            reply = await AsyncHTTPClient().fetch(
                url, headers={"Authorization": f"token {api_token}"},
                request_timeout=HUB_TIMEOUT)
        except HTTPClientError as err:
            if err.code == 404:
                return None
            if err.code in (401, 403):
                raise StoreError(N_("The hub does not let the store service read its groups: "
                                    "give the service's role the scope {scope} in the hub's "
                                    "config (deploy/tljh/leonard.py)."),
                                 scope=GROUPS_SCOPE) from err
            raise _hub_away(f"HTTP {err.code}") from err
        except OSError as err:
            raise _hub_away(type(err).__name__) from err
        try:
            model = json.loads(reply.body)
            names = names_from_json(model.get("users") if isinstance(model, dict) else None)
        except (ValueError, StoreError) as err:
            raise StoreError(N_("The hub's answer about the group {group} cannot be read."),
                             group=group) from err
        return names

    return members


def _hub_away(cause: str) -> StoreBusyError:
    return StoreBusyError(N_("The hub did not answer about its groups ({cause}); try again in "
                             "a moment."), cause=cause)


class Keeper:
    """The database, opened once and used by one worker thread (the service's loop never
    waits on it): each piece of work runs there with the store. A store that cannot be
    opened (the database is down at start) is opened again at the next request."""

    def __init__(self, location: str) -> None:
        if is_service_address(location):
            raise StoreError(N_("The store service needs the database itself in "
                                "LEONARD_TUTOR_DB (a file path or a postgresql:// address), "
                                "not a service's address ({address})."), address=location)
        self.location = location
        self._store: Store | None = None
        self._pool = ThreadPoolExecutor(1, thread_name_prefix="leonard-store")

    def _with(self, work: Callable[[Store], _T]) -> _T:
        if self._store is None:
            self._store = Store(self.location, busy_timeout=BUSY_TIMEOUT, retries=1,
                                shared=True)
        return work(self._store)

    async def run(self, work: Callable[[Store], _T]) -> _T:
        return await asyncio.get_running_loop().run_in_executor(self._pool, self._with, work)

    def close(self) -> None:
        def shut() -> None:
            if self._store is not None:
                self._store.close()
                self._store = None

        self._pool.submit(shut).result()
        self._pool.shutdown()


class _Refused(Exception):
    def __init__(self, status: int, kind: str, err: StoreError) -> None:
        super().__init__(str(err))
        self.status, self.kind, self.err = status, kind, err


def _access(caller: Caller, student: str | None) -> StoreAccessError | None:
    if caller.teacher or (student is not None and same_name(student, caller.name)):
        return None
    if student is None:
        return StoreAccessError(N_("Only a teacher can see the whole class's progress; "
                                   "{owner} can see their own."), owner=caller.name)
    return StoreAccessError(N_("{owner} cannot see or change the progress of {student}: "
                               "each student sees only their own."), owner=caller.name,
                            student=student)


def _same_row(a: Attempt) -> tuple[object, ...]:
    """What the store finds an attempt sent again by (a reply lost: stored once)."""
    return (a.session, a.time, a.problem, a.step, a.outcome, a.input)


def _texts(a: Attempt) -> int:
    return sum(len(v) for v in (a.session, a.time, a.lesson, a.problem, a.step, a.input,
                                a.feedback, a.kc))


def _refusal(stored: list[Attempt], sent: list[Attempt], now: datetime,
             usage: tuple[int, int, int], games: SentGames | None = None) -> _Refused | None:
    """Why ``sent`` (one student's answers) is not stored, given the student's ``stored``
    answers the replay reads (:meth:`Store.replay_context`: those of the sent answers'
    sessions, and the others' to the same questions), the ``usage`` of all they stored
    (:meth:`Store.usage`: answers received in the last day, answers, characters) and the
    ``games`` the page sent with them: a row that does not fit the tutor's replay or its
    game (400), or the student's caps (429). None: store it."""
    misfits = stored_misfits(sent, stored, now=now, games=games)
    if misfits:
        first = misfits[0]
        sessions = {a.session for a in sent}
        before = sum(1 for a in stored if a.session in sessions)
        return _Refused(400, "invalid", StoreError(N_(
            "Answer {row} of those sent does not fit the tutor's own record of the game "
            "(its session's stored answers count as lines 1 to {stored}, those sent after "
            "them): line {line}: {problem}. Nothing of them was stored."),
            row=first.line - before, stored=before, line=first.line, problem=first.problem))
    known = {_same_row(a) for a in stored}
    new = {_same_row(a): a for a in sent if _same_row(a) not in known}.values()
    if not new:
        return None
    today, rows, chars = usage
    if today + len(new) > MAX_ROWS_PER_DAY:
        return _Refused(429, "invalid", StoreError(N_(
            "You have sent {limit} answers in a day, more than a student answers playing all "
            "day; the class's store takes no more of yours today. Tell your teacher if you "
            "were really playing."), limit=MAX_ROWS_PER_DAY))
    stored_bytes = chars + sum(_texts(a) for a in new) + ROW_OVERHEAD * (rows + len(new))
    if stored_bytes > MAX_STORED_BYTES:
        return _Refused(429, "invalid", StoreError(N_(
            "Your answers fill the room the class's store keeps for one student ({limit} "
            "MiB); it takes no more of yours. Tell your teacher."),
            limit=MAX_STORED_BYTES // (1024 * 1024)))
    return None


class _Api(tornado.web.RequestHandler):
    """The routes' common part: the caller from the token, JSON in and out, the store's
    errors as answers."""

    caller: Caller

    def initialize(self, identify: Identify, keeper: Keeper, write_secret: str,
                   group_members: GroupMembers | None = None) -> None:
        self.identify = identify
        self.keeper = keeper
        self.write_secret = write_secret
        self.group_members = group_members

    def check_xsrf_cookie(self) -> None:
        """Requests carry a token, never a cookie: nothing for a browser to forge."""

    async def prepare(self) -> None:
        header = self.request.headers.get("Authorization", "")
        scheme, _, token = header.partition(" ")
        caller = (await self.identify(token.strip())
                  if scheme.lower() in ("token", "bearer") else None)
        if caller is None:
            self.set_status(401)
            self.finish({"error": "access", "message": {
                "msgid": N_("The class's store answers only the pages of this class server, "
                            "with the hub's token of their user."), "params": {}}})
            return
        self.caller = caller
        if self.request.method not in _READS and not self.from_the_page(caller):
            self.set_status(403)
            self.finish(error_json("access", StoreAccessError(N_(
                "The class's store saves only what the class's own pages send: this request "
                "did not come from {owner}'s page, so nothing was saved."), owner=caller.name)))

    def from_the_page(self, caller: Caller) -> bool:
        """Whether the request carries ``caller``'s write key, which only the hub gives, and
        only to their own server (:func:`write_key`): a token alone is not enough to write."""
        given = self.request.headers.get(WRITE_KEY_HEADER, "")
        expected = write_key(self.write_secret, caller.name)
        return bool(given) and hmac.compare_digest(given.encode("utf-8", "replace"),
                                                   expected.encode("utf-8"))

    def body(self) -> dict[str, object]:
        try:
            value = json.loads(self.request.body or b"{}")
        except ValueError:
            value = None
        if not isinstance(value, dict):
            raise _Refused(400, "invalid", StoreError(N_("The request is not a JSON object.")))
        return value

    def text(self, value: object, what: str) -> str:
        if not isinstance(value, str) or not value:
            raise _Refused(400, "invalid", StoreError(N_("The request lacks {what}."),
                                                      what=what))
        return value

    def own(self, student: str | None, *, teachers_too: bool = True) -> None:
        """Refuse ``student``'s rows (None: the class's) unless they are the caller's, or
        the caller is a teacher and ``teachers_too``."""
        caller = self.caller if teachers_too else replace(self.caller, teacher=False)
        refused = _access(caller, student)
        if refused is not None:
            raise _Refused(403, "access", refused)

    def teacher_only(self) -> None:
        """Refuse a student what only a teacher does: classes, rosters, assignments made."""
        if not self.caller.teacher:
            raise _Refused(403, "access", StoreAccessError(N_(
                "Only a teacher can make or change classes and assignments; {owner} sees "
                "their own."), owner=self.caller.name))

    def reader(self) -> str | None:
        """Whose assignments a request reads: a student's own (whatever the request says,
        its ``student`` is theirs or refused); a teacher's request, the class's (None), or
        the ``student`` it names."""
        student = self.get_query_argument("student", None)
        if student is not None:
            self.own(student)
            return student
        return None if self.caller.teacher else self.caller.name

    def checked(self, read: Callable[[], _T]) -> _T:
        """``read()``, its :class:`StoreError` the request's refusal (HTTP 400)."""
        try:
            return read()
        except StoreError as err:
            raise _Refused(400, "invalid", err) from err

    async def store(self, work: Callable[[Store], _T]) -> _T:
        try:
            return await self.keeper.run(work)
        except StoreBusyError as err:
            log.warning("the store is busy: %s", err)  # its address is the service's only
            raise _Refused(503, "busy", StoreBusyError(N_(
                "The class's database is busy or out of reach. Nothing was saved; try again "
                "in a moment."))) from err
        except StoreAccessError as err:
            raise _Refused(403, "access", err) from err
        except StoreError as err:
            raise _Refused(400, "invalid", err) from err
        except Exception as err:  # the database's own error: a restart, a full disk
            log.exception("the store failed")
            raise _Refused(503, "busy", StoreBusyError(N_(
                "The class's database failed ({error}). Nothing was saved; try again in a "
                "moment."), error=type(err).__name__)) from err

    def _handle_request_exception(self, e: BaseException) -> None:
        if isinstance(e, _Refused):
            if e.status >= 500:
                log.warning("%s %s: %s", self.request.method, self.request.path, e)
            self.set_status(e.status)
            self.finish(error_json(e.kind, e.err))
            return
        super()._handle_request_exception(e)

    def write_error(self, status_code: int, **kwargs: object) -> None:
        self.finish({"error": "invalid", "message": {
            "msgid": N_("The store service could not answer (HTTP {status})."),
            "params": {"status": status_code}}})


class _Me(_Api):
    async def get(self) -> None:
        self.write({"name": self.caller.name, "teacher": self.caller.teacher})


class _Sessions(_Api):
    async def post(self) -> None:
        body = self.body()
        student = self.text(body.get("student"), "the student")
        session = self.text(body.get("session"), "the session")
        started = self.text(body.get("started"), "the time it started")
        self.own(student, teachers_too=False)
        name = self.caller.name
        await self.store(lambda s: s.start_session(name, session, started))
        self.write({"session": session})


class _Attempts(_Api):
    async def get(self) -> None:
        student = self.get_query_argument("student", None)
        self.own(student)
        rows = await self.store(lambda s: s.attempts(student))
        self.write({"attempts": [attempt_json(a) for a in rows]})

    async def post(self) -> None:
        """A student's answers, stored under the hub's name of the student, once they fit
        the tutor's replay in the context of the student's stored answers of the same
        lessons (:func:`tutor.classroom.hand_in.stored_misfits`, given the rows it reads:
        :meth:`Store.replay_context`; read in the store's worker,
        so no other write of theirs comes between) and the student's caps: a batch with a
        misfit is refused whole (400), one over a cap too (429)."""
        rows = self.body().get("attempts")
        if not isinstance(rows, list):
            raise _Refused(400, "invalid", StoreError(N_("The request lacks {what}."),
                                                      what="attempts"))
        attempts = []
        for value in rows:
            attempt = self._attempt(value)
            self.own(attempt.student, teachers_too=False)
            attempts.append(replace(attempt, student=self.caller.name))
        for a in attempts:  # the values' ranges first: the replay reads times and numbers
            problems = list(check_attempt(a))
            if problems:
                raise _Refused(400, "invalid", StoreError(N_(
                    "The answer sent cannot be stored: {problem}."), problem=problems[0]))
        name = self.caller.name
        records = self._games()

        def checked_and_stored(s: Store) -> list[int] | _Refused:
            now = datetime.now(timezone.utc)
            since = (now - timedelta(days=1)).isoformat(timespec="microseconds")
            games = SentGames(records, [(lesson, deal) for lesson, deal, _, _ in s.deals(name)]
                              if records else ())  # no record: no deal to find
            refused = _refusal(s.replay_context(name, attempts), attempts, now,
                               s.usage(name, since), games)
            return refused if refused is not None else [s.add_attempt(a) for a in attempts]

        ids = await self.store(checked_and_stored)
        if isinstance(ids, _Refused):
            raise ids
        self.write({"ids": ids})

    def _games(self) -> dict[tuple[str, int], Mapping[str, object]]:
        """The records of the matches the answers are about (the body's ``games``: each
        ``{"session": …, "match": n, "record": {…}}``), by session and match."""
        games = self.body().get("games", [])
        if not isinstance(games, list) or not all(
                isinstance(g, dict) and isinstance(g.get("session"), str)
                and isinstance(g.get("match"), int) and isinstance(g.get("record"), dict)
                for g in games):
            raise _Refused(400, "invalid", StoreError(N_(
                "The games sent with the answers are not a list of a session, a match's "
                "number and its record each.")))
        return {(g["session"], g["match"]): g["record"] for g in games}

    def _attempt(self, value: object) -> Attempt:
        try:
            return attempt_from_json(value)
        except StoreError as err:
            raise _Refused(400, "invalid", err) from err


class _Deals(_Api):
    """The deals a student has played (issue 51): a student records and reads only their
    own; a deal is recorded under the hub's name of the student, whatever the request says."""

    async def get(self) -> None:
        student = self.text(self.get_query_argument("student", ""), "the student")
        self.own(student)
        rows = await self.store(lambda s: s.deals(student))
        self.write({"deals": [list(r) for r in rows]})

    async def post(self) -> None:
        body = self.body()
        student = self.text(body.get("student"), "the student")
        lesson = self.text(body.get("lesson"), "the lesson")
        deal = self.text(body.get("deal"), "the deal")
        session = self.text(body.get("session"), "the session")
        self.own(student, teachers_too=False)
        name = self.caller.name
        first = await self.store(lambda s: s.record_deal(name, lesson, deal, session))
        self.write({"first": first})


class _Revealed(_Api):
    """The answers "Show me" gave a student in one lesson (their own give-up rows)."""

    async def get(self) -> None:
        student = self.text(self.get_query_argument("student", ""), "the student")
        lesson = self.text(self.get_query_argument("lesson", ""), "the lesson")
        self.own(student)
        rows = await self.store(lambda s: s.revealed(student, lesson))
        self.write({"revealed": [list(r) for r in rows]})


class _AttemptsAfter(_Api):
    async def get(self) -> None:
        """The rows stored since the reader's mark (``after``; none: every row), each with
        its id, and the new mark (issue 51 part 4: the teacher's live view asks every few
        seconds). The class's to a teacher; a student's own only, as ``GET attempts``."""
        student = self.get_query_argument("student", None)
        self.own(student)
        mark = self.checked(lambda: ReadMark.parse(self.get_query_argument("after", "")))
        rows, after = await self.store(lambda s: s.attempts_after(mark, student))
        self.write({"attempts": [{**attempt_json(a), "id": i} for i, a in rows],
                    "after": after.text()})


class _Students(_Api):
    async def get(self) -> None:
        me = self.caller
        names = await self.store(lambda s: s.students())
        if not me.teacher:
            names = [n for n in names if name_key(n) == name_key(me.name)]
        self.write({"students": names})


class _Mastery(_Api):
    async def get(self) -> None:
        student = self.text(self.get_query_argument("student", ""), "the student")
        self.own(student)
        rows = await self.store(lambda s: s.mastery_rows(student))
        self.write({"rows": rows})

    async def put(self) -> None:
        body = self.body()
        student = self.text(body.get("student"), "the student")
        self.own(student)
        try:
            rows: dict[str, dict[str, MasteryValue]] = mastery_from_json(body.get("rows"))
        except StoreError as err:
            raise _Refused(400, "invalid", err) from err
        await self.store(lambda s: s.save_mastery_rows(student, rows))
        self.write({})


class _Merge(_Api):
    async def post(self) -> None:
        """Rows from students' files: the teacher's (a student's answers on this server are
        saved as they play; a file's rows are the teacher's to vouch for)."""
        if not self.caller.teacher:
            raise _Refused(403, "access", StoreAccessError(N_(
                "On this class server your answers are saved as you play; only a teacher "
                "loads progress files.")))
        body = self.body()
        rows = body.get("attempts")
        if not isinstance(rows, list):
            raise _Refused(400, "invalid", StoreError(N_("The request lacks {what}."),
                                                      what="attempts"))
        try:
            attempts = [attempt_from_json(v) for v in rows]
        except StoreError as err:
            raise _Refused(400, "invalid", err) from err
        from_file = body.get("from_file", False)
        if not isinstance(from_file, bool):
            raise _Refused(400, "invalid", StoreError(N_("The request lacks {what}."),
                                                      what="from_file (true or false)"))
        added = await self.store(lambda s: s.merge(attempts, from_file=from_file))
        self.write({"added": added})


class _Marks(_Api):
    """The session marks (issue 52 part 3). A student's play page marks their own lesson's
    end (under the hub's name of the student, at the page's time, never in the future); a
    teacher reads the class's since a time (the live view's window), a student their own."""

    async def get(self) -> None:
        student = self.get_query_argument("student", None)
        self.own(student)
        since = self.get_query_argument("since", None)
        marks = await self.store(lambda s: s.session_marks(since, student))
        self.write({"marks": [[m.student, m.session, m.lesson, m.mark, m.time]
                              for m in marks]})

    async def post(self) -> None:
        body = self.body()
        student = self.text(body.get("student"), "the student")
        session = self.text(body.get("session"), "the session")
        lesson = self.text(body.get("lesson"), "the lesson")
        mark = self.text(body.get("mark"), "why the lesson ended")
        time = self.text(body.get("time"), "the time")
        self.own(student, teachers_too=False)
        try:
            when = datetime.fromisoformat(time)
            future = when.utcoffset() is not None and when > datetime.now(
                timezone.utc) + FUTURE_SLACK
        except ValueError:
            future = False  # the store says what is wrong with it
        if future:
            raise _Refused(400, "invalid", StoreError(N_(
                "The lesson's end is dated in the future ({time}): it is not stored."),
                time=time))
        name = self.caller.name
        await self.store(lambda s: s.mark_session(name, session, lesson, mark, time))
        self.write({"marked": True})


class _NameMerges(_Api):
    async def get(self) -> None:
        self.own(None)
        merges = await self.store(lambda s: s.name_merges())
        self.write({"merges": [list(m) for m in merges]})


class _Classes(_Api):
    async def get(self) -> None:
        self.teacher_only()
        self.write({"classes": await self.store(lambda s: s.class_codes())})


class _ClassesOf(_Api):
    async def get(self) -> None:
        student = self.text(self.get_query_argument("student", ""), "the student")
        self.own(student)
        self.write({"classes": await self.store(lambda s: s.classes_of(student))})


class _Roster(_Api):
    async def get(self) -> None:
        self.teacher_only()
        code = self.text(self.get_query_argument("class", ""), "the class")
        self.write({"names": await self.store(lambda s: s.roster(code))})

    async def put(self) -> None:
        self.teacher_only()
        body = self.body()
        code = self.text(body.get("class"), "the class")
        names = self.checked(lambda: names_from_json(body.get("names")))
        await self.store(lambda s: s.save_roster(code, names))
        self.write({})


class _RosterFromGroup(_Api):
    async def post(self) -> None:
        """The class's roster from a hub group's members (the class: the group's name,
        unless the request names one)."""
        self.teacher_only()
        body = self.body()
        group = self.text(body.get("group"), "the group")
        code = self.text(body.get("class") or group, "the class")
        if self.group_members is None:
            raise _Refused(400, "invalid", StoreError(N_(
                "This store service was started without the hub's address, so it cannot "
                "read the hub's groups.")))
        try:
            names = await self.group_members(group)
        except StoreBusyError as err:
            raise _Refused(503, "busy", err) from err
        except StoreError as err:
            raise _Refused(400, "invalid", err) from err
        if names is None:
            raise _Refused(400, "invalid", StoreError(N_(
                "The hub has no group named \"{group}\"; the hub's admin page lists its "
                "groups."), group=group))
        if not names:
            raise _Refused(400, "invalid", StoreError(N_(
                "The hub's group \"{group}\" has no members: add the students to it in the "
                "hub's admin page, then make the roster again."), group=group))
        if len(code) > MAX_CODE and "class" not in body:
            raise _Refused(400, "invalid", StoreError(N_(
                "The group's name \"{group}\" is longer than a class code can be ({limit} "
                "characters); give the class a code of its own."), group=group,
                limit=MAX_CODE))
        await self.store(lambda s: s.save_roster(code, names))
        self.write({"class": code, "names": names})


class _Assignments(_Api):
    async def get(self) -> None:
        student, code = self.reader(), self.get_query_argument("class", None)
        found = await self.store(lambda s: s.assignments(code) if student is None
                                 else s.student_assignments(student, code))
        self.write({"assignments": [assignment_json(a) for a in found]})

    async def put(self) -> None:
        """A new assignment, an edit, or one closed or opened again: the teacher's, checked
        again here whatever the page checked."""
        self.teacher_only()
        body = self.body()
        a: Assignment = self.checked(lambda: assignment_from_json(body.get("assignment")))
        await self.store(lambda s: s.save_assignment(a))
        self.write({})


class _OneAssignment(_Api):
    async def get(self) -> None:
        """One assignment by its id (a link's); another class's is refused to a student."""
        student = self.reader()
        found_id = self.text(self.get_query_argument("id", ""), "the assignment's id")
        if not ID.fullmatch(found_id):
            raise _Refused(400, "invalid", StoreError(N_(
                "\"{id}\" is not an assignment's id."), id=found_id[:40]))
        found = await self.store(lambda s: s.assignment(found_id) if student is None
                                 else s.student_assignment(student, found_id))
        self.write({"assignment": None if found is None else assignment_json(found)})


class _BodyLimit(httputil.HTTPServerConnectionDelegate):
    """The service's routes (``app``) behind a body limit: a request larger than ``limit``
    bytes is not handed to them; its body is dropped as it arrives, and it is answered 413
    with a sentence."""

    def __init__(self, app: tornado.web.Application, limit: int) -> None:
        self.app, self.limit = app, limit

    def start_request(self, server_conn: object, request_conn: httputil.HTTPConnection
                      ) -> httputil.HTTPMessageDelegate:
        return _LimitedRequest(self.app.start_request(server_conn, request_conn), request_conn,
                               self.limit)

    def on_close(self, server_conn: object) -> None:
        self.app.on_close(server_conn)


class _LimitedRequest(httputil.HTTPMessageDelegate):
    def __init__(self, inner: httputil.HTTPMessageDelegate, conn: httputil.HTTPConnection,
                 limit: int) -> None:
        self.inner, self.conn, self.limit = inner, conn, limit
        self.size, self.seen, self.too_big = 0, 0, False

    def headers_received(self, start_line: httputil.RequestStartLine | httputil.ResponseStartLine,
                         headers: httputil.HTTPHeaders) -> Awaitable[None] | None:
        length = headers.get("Content-Length", "")
        self.size = int(length) if length.isdigit() else 0
        self.too_big = self.size > self.limit
        return None if self.too_big else self.inner.headers_received(start_line, headers)

    def data_received(self, chunk: bytes) -> Awaitable[None] | None:
        if self.too_big:
            self.seen += len(chunk)
            return None
        self.seen += len(chunk)
        if self.seen > self.limit:  # a body without a Content-Length: dropped from here
            self.too_big, self.size = True, self.seen
            self.inner.on_connection_close()
            return None
        return self.inner.data_received(chunk)

    def finish(self) -> None:
        if not self.too_big:
            self.inner.finish()
            return
        self.size = max(self.size, self.seen)
        err = StoreError(N_("The request is {size} KiB, more than the class's store takes at "
                            "once ({limit} KiB). Nothing of it was stored."),
                         size=-(-self.size // 1024), limit=self.limit // 1024)
        body = json.dumps(error_json("invalid", err)).encode("utf-8")
        self.conn.write_headers(
            httputil.ResponseStartLine("HTTP/1.1", 413, "Content Too Large"),
            httputil.HTTPHeaders({"Content-Type": "application/json; charset=UTF-8",
                                  "Content-Length": str(len(body))}), body)
        self.conn.finish()

    def on_connection_close(self) -> None:
        if not self.too_big:
            self.inner.on_connection_close()


def listen(app: tornado.web.Application, port: int, address: str) -> HTTPServer:
    """Listen for ``app``'s requests, behind the service's body limit (:data:`MAX_BODY`)."""
    server = HTTPServer(_BodyLimit(app, MAX_BODY), max_body_size=MAX_UNREAD, xheaders=True)
    server.listen(port, address)
    return server


MAX_NAME_CHECKED = 255
"""The longest name ``name-check`` reads (a hub's user names are far shorter)."""


class _NameCheck(tornado.web.RequestHandler):
    """``GET name-check?name=…``: whether the tutor refuses a user name as one that could
    pass for another (:func:`tutor.storage.names.problem_json`), for a hub whose own Python
    has no tutor (Zero to JupyterHub: ``deploy/z2jh/config.yaml``'s ``leonard-names`` asks it
    at each login), so that the hub and the store refuse the same names. It needs no token:
    the answer is a function of the name sent alone, and tells nothing of the store."""

    def get(self) -> None:
        name = self.get_query_argument("name", "")
        if not name or len(name) > MAX_NAME_CHECKED:
            self.set_status(400)
            self.finish(error_json("invalid", StoreError(N_(
                "A name to check has 1 to {limit} characters."), limit=MAX_NAME_CHECKED)))
            return
        self.finish(problem_json(name))


def make_app(identify: Identify, keeper: Keeper, prefix: str = "/",
             group_members: GroupMembers | None = None, *,
             write_secret: str) -> tornado.web.Application:
    """The service's routes under ``prefix`` (the hub's ``/services/leonard-store/``);
    ``group_members`` reads a hub group (:func:`hub_group_members`); a write needs the
    caller's key under ``write_secret`` (:func:`write_key`)."""
    if len(write_secret) < MIN_SECRET:
        raise ValueError(f"the write secret must have at least {MIN_SECRET} characters")
    base = prefix.rstrip("/") + "/" + API
    routes: list[tuple[str, type[_Api]]] = [
        ("me", _Me), ("sessions", _Sessions), ("attempts", _Attempts),
        ("attempts-after", _AttemptsAfter),
        ("students", _Students), ("mastery", _Mastery), ("merge", _Merge),
        ("name-merges", _NameMerges), ("classes", _Classes), ("classes-of", _ClassesOf),
        ("roster", _Roster), ("roster-from-group", _RosterFromGroup),
        ("assignments", _Assignments), ("assignment", _OneAssignment),
        ("deals", _Deals), ("revealed", _Revealed), ("marks", _Marks)]
    settings = {"identify": identify, "keeper": keeper, "group_members": group_members,
                "write_secret": write_secret}
    return tornado.web.Application(
        [*[(base + route, handler, settings) for route, handler in routes],
         (base + "name-check", _NameCheck)],
        compress_response=True)


def main(argv: list[str] | None = None) -> int:
    """Run the service as the hub started it (see the module's docstring)."""
    logging.basicConfig(level=logging.INFO, format="[%(levelname)s %(asctime)s %(name)s] "
                        "%(message)s")
    env = os.environ
    missing = [k for k in ("LEONARD_TUTOR_DB", "JUPYTERHUB_API_TOKEN", "JUPYTERHUB_API_URL",
                           "JUPYTERHUB_SERVICE_URL") if not env.get(k)]
    if missing:
        print("The store service is started by JupyterHub (c.JupyterHub.services), which "
              f"sets its environment; missing: {', '.join(missing)}.", file=sys.stderr)
        return 2
    secret = env.get(WRITE_SECRET_ENV, "").strip()
    if len(secret) < MIN_SECRET:
        print(f"The store service needs {WRITE_SECRET_ENV}: the secret, at least {MIN_SECRET} "
              "characters, it shares with the hub alone, which gives each user's server its "
              "write key (deploy/tljh/leonard.py makes it in LEONARD_HOME/write-secret). "
              "Without it the service cannot tell a page's answers from a token a student "
              "made, so it does not start.", file=sys.stderr)
        return 2
    try:
        keeper = Keeper(env["LEONARD_TUTOR_DB"])
    except StoreError as err:
        print(err, file=sys.stderr)
        return 2
    where = urlsplit(env["JUPYTERHUB_SERVICE_URL"])
    prefix = env.get("JUPYTERHUB_SERVICE_PREFIX", f"/services/{SERVICE_NAME}/")
    identify = hub_identify(env["JUPYTERHUB_API_URL"], env["JUPYTERHUB_API_TOKEN"],
                            env.get("JUPYTERHUB_SERVICE_NAME", SERVICE_NAME))
    app = make_app(identify, keeper, prefix,
                   hub_group_members(env["JUPYTERHUB_API_URL"], env["JUPYTERHUB_API_TOKEN"]),
                   write_secret=secret)

    async def serve() -> None:
        listen(app, where.port or 80, where.hostname or "127.0.0.1")
        try:  # create or migrate the tables now; a database still down is tried later
            await keeper.run(lambda s: None)
        except Exception as err:  # noqa: BLE001 - said, and tried again at each request
            log.warning("the class's database cannot be opened yet: %s", err)
        log.info("Leonard-Domino store service at %s%s", env["JUPYTERHUB_SERVICE_URL"],
                 prefix)
        await asyncio.Event().wait()

    try:
        IOLoop.current().run_sync(serve)
    except KeyboardInterrupt:
        pass
    finally:
        keeper.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
