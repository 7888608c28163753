"""One open progress database: its connection, its SQL dialect, its transactions and its
retries (issue 53 part 2).

:class:`Database` is the one object that holds a connection. The store
(:class:`tutor.storage.store.Store`), the class's rows (:mod:`tutor.storage.class_rows`) and
the schema's migrations (:mod:`tutor.storage.store_schema`) each write their SQL once, with
``?`` for every value, and run it through a Database's public methods:

* :meth:`Database.sql` turns ``?`` into the driver's parameter style;
* :meth:`Database.transaction` is ``BEGIN`` … ``COMMIT`` (``ROLLBACK`` on error);
* :meth:`Database.retry` runs one whole transaction (or a read) again while the database is
  busy: a file another kernel is writing, or a PostgreSQL server that restarted (the
  connection is made again). Bounded by a count of tries, never by a clock.

Where a database is (a file path or a ``postgresql://`` address) and what differs between
SQLite and PostgreSQL are :mod:`tutor.storage.store_backends`'.
"""

from __future__ import annotations

import time as _time
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from tutor.i18n import N_
from tutor.storage.connection import Connection
from tutor.storage.records import StoreError
from tutor.storage.store_backends import (
    Backend,
    PostgresBackend,
    SQLiteBackend,
    Transaction,
    hide_password,
    one,
)
from tutor.storage.store_base import BUSY_RETRIES, BUSY_TIMEOUT, StoreAddressError, StoreBusyError

__all__ = ["Database", "check_header"]

_SQLITE_MAGIC = b"SQLite format 3\x00"

# Waiting for a busy progress file (BUSY_TIMEOUT, BUSY_RETRIES: tutor.storage.store_base):
# the pauses between tries are _BACKOFF, 2 × _BACKOFF, 4 × _BACKOFF … seconds.
_BACKOFF = 0.05
# Reconnecting to a PostgreSQL server that went away (a restart): one try every
# _RECONNECT_PAUSE seconds, as many tries as fit in busy_timeout (a count, not a clock).
_RECONNECT_PAUSE = 0.1
_T = TypeVar("_T")


def check_header(path: Path, lang: str) -> None:
    """Refuse a file that is not empty and not an SQLite database."""
    if not path.is_file() or path.stat().st_size == 0:
        return
    with path.open("rb") as fh:
        if fh.read(len(_SQLITE_MAGIC)) != _SQLITE_MAGIC:
            raise StoreError(N_("{path} is not a progress file (not an SQLite database)."),
                             path=str(path), lang=lang)


class Database:
    """An open SQLite file or PostgreSQL database (``location``: a checked file path or a
    ``postgresql://`` address, :func:`tutor.storage.store_backends.checked_location`).

    ``busy_timeout``: seconds a statement waits for a busy database; ``retries``: how many
    more times :meth:`retry` runs a write that still found it busy, before it raises
    :class:`StoreBusyError`. ``lang``: the language of its errors.
    """

    def __init__(self, location: Path | str, *, lang: str, busy_timeout: float = BUSY_TIMEOUT,
                 retries: int = BUSY_RETRIES) -> None:
        self.lang = lang
        self.busy_timeout = busy_timeout
        self.retries = max(0, int(retries))
        self.tries = 0
        """The try :meth:`retry` is at: 0 the first, 1 the first try again, …"""
        self.backend: Backend
        self.path: Path | str
        """Where the database is, as messages show it (a PostgreSQL password hidden)."""
        self.location = location
        if isinstance(location, str):
            self.backend = PostgresBackend()
            self.path = hide_password(location)
            self.conn: Connection = self._connect_pg()
        else:
            self.backend = SQLiteBackend()
            self.path = location
            location.parent.mkdir(parents=True, exist_ok=True)
            check_header(location, lang)
            self.conn = self.backend.connect(location, busy_timeout)

    @property
    def name(self) -> str:
        """``"sqlite"`` or ``"postgresql"``."""
        return self.backend.name

    def _connect_pg(self) -> Connection:
        try:
            import psycopg
        except ImportError as err:
            raise StoreAddressError(
                N_("The progress store is a PostgreSQL database ({address}), but PostgreSQL's "
                   "driver is not installed: pip install 'leonard-domino-tutor[postgres]'."),
                address=str(self.path), lang=self.lang) from err
        try:
            return self.backend.connect(self.location, self.busy_timeout)
        except psycopg.Error as err:
            # Out of reach is "busy": a page keeps its answers and saves them when it is back.
            raise StoreBusyError(N_("The progress database {address} cannot be reached: "
                                    "{error}"),
                                 address=str(self.path), error=str(err).strip(),
                                 lang=self.lang) from err

    def _reconnect(self) -> None:
        """After a lost connection: a new one, tried every _RECONNECT_PAUSE seconds, as many
        times as fit in ``busy_timeout``; the last failure is raised."""
        tries = max(1, round(self.busy_timeout / _RECONNECT_PAUSE))
        for attempt in range(tries):
            try:
                self.conn.close()
                self.conn = self.backend.connect(self.location, self.busy_timeout)
                return
            except Exception as err:
                if not self.backend.is_busy(err) or attempt == tries - 1:
                    raise
                _time.sleep(_RECONNECT_PAUSE)

    def use_wal(self) -> None:
        """Put a SQLite file in write-ahead logging, so readers never wait for a writer."""
        # Switching to WAL needs the file to itself for a moment: when another kernel is
        # reading or switching at the same time this raises "database is locked" (retried);
        # once one has switched, the file stays in WAL and the others find it so.
        if one(self.conn.execute("PRAGMA journal_mode"))[0] != "wal":
            self.conn.execute("PRAGMA journal_mode = WAL")

    def sql(self, text: str) -> str:
        """``text`` (its values as ``?``) in the driver's parameter style."""
        return self.backend.sql(text)

    def transaction(self) -> Transaction:
        """``with database.transaction(): …``: one transaction, committed at the end and
        rolled back on an error (the connection is never left inside one)."""
        return Transaction(self.conn, self.backend)

    def tables(self) -> set[str]:
        return self.backend.tables(self.conn)

    def columns(self, table: str) -> set[str]:
        return self.backend.columns(self.conn, table)

    def retry(self, work: Callable[[], _T]) -> _T:
        """``work()`` (one whole transaction, or a read), tried again while the database is
        busy: at most ``retries`` more times, then :class:`StoreBusyError`."""
        for attempt in range(self.retries + 1):
            self.tries = attempt
            try:
                return work()
            except Exception as err:
                if not self.backend.is_busy(err):
                    raise
                if attempt == self.retries:
                    raise StoreBusyError(
                        N_("The progress file {path} is busy: other players are saving. "
                           "Nothing was saved; try again in a moment."),
                        path=str(self.path), lang=self.lang) from err
                if self.backend.lost(self.conn):
                    try:
                        self._reconnect()
                    except Exception as again:
                        if not self.backend.is_busy(again):
                            raise
                        raise StoreBusyError(
                            N_("The progress database {path} cannot be reached. Nothing was "
                               "saved; try again in a moment."),
                            path=str(self.path), lang=self.lang) from again
                else:
                    _time.sleep(_BACKOFF * 2**attempt)
        raise AssertionError("unreachable")  # pragma: no cover

    def integrity_ok(self) -> bool:
        """SQLite's own check of its pages; PostgreSQL checks its own."""
        if self.backend.name != "sqlite":
            return True
        return bool(one(self.conn.execute("PRAGMA integrity_check"))[0] == "ok")

    def close(self) -> None:
        self.conn.close()
