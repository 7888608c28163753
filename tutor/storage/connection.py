"""What the store uses of a database driver: a connection, its cursors and their rows, as
Protocols (``sqlite3``'s and ``psycopg``'s fit them). Here, below the store and the class rows,
so that both can name a connection without importing each other.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any, Protocol

__all__ = ["Connection", "Cursor", "Row"]

Row = tuple[Any, ...]
"""A row as a driver returns it. The one ``Any`` of the storage layer, at the drivers'
boundary: sqlite3 and psycopg type a column's value as ``Any``, since the schema, not the
driver, says what it is (TEXT a str, INTEGER an int, a NULL None).
:class:`tutor.storage.store.Store`
reads each column as its schema says."""


class Cursor(Protocol):
    """What the store reads from a statement's result (sqlite3's and psycopg's cursors)."""

    def fetchone(self) -> Row | None: ...

    def fetchall(self) -> list[Row]: ...

    def __iter__(self) -> Iterator[Row]: ...


class Connection(Protocol):
    """The part of a DB-API connection the store uses (``sqlite3.Connection``,
    ``psycopg.Connection``), opened in autocommit mode by
    :meth:`tutor.storage.store_backends.Backend.connect`."""

    def execute(self, sql: str, parameters: Sequence[object] = ..., /) -> Cursor: ...

    def close(self) -> None: ...
