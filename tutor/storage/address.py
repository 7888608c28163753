"""Where the progress store lives: its address, the environment variable that sets it, and
the default file.

``$LEONARD_TUTOR_DB`` holds a file path, a ``postgresql://`` address
(:mod:`tutor.storage.store`) or, on a class hub, the store service's ``http://`` address
(:mod:`tutor.storage.service_store`). The standard library only: the lesson builder saves
beside the default file (:func:`tutor.course.paths.own_lessons_dir`), and loading a lesson
must not load the store.
"""

from __future__ import annotations

import os
from pathlib import Path

__all__ = ["PROGRESS_ENV", "SERVICE_SCHEMES", "default_path", "is_service_address",
           "scheme_of"]

PROGRESS_ENV = "LEONARD_TUTOR_DB"
"""The progress store: a file path, a ``postgresql://`` address (:mod:`tutor.storage.store`),
or on a class hub the store service's ``http://`` address
(:mod:`tutor.storage.service_store`)."""
SERVICE_SCHEMES = ("http", "https")
"""A store address with one of these schemes is the hub's store service."""

# Any `name://` at the start of the setting is an address, not a file name.
_SCHEME_END = "://"


def scheme_of(location: str) -> str | None:
    """The scheme of an address such as ``postgresql://…`` (lower case), None for a path."""
    head, sep, _ = location.partition(_SCHEME_END)
    if not sep or not head or not head[0].isalpha():
        return None
    if not all(c.isalnum() or c in "+.-" for c in head):
        return None
    return head.lower()


def is_service_address(location: object) -> bool:
    """Whether ``location`` is the address of the hub's store service (``http(s)://…``)."""
    return isinstance(location, str) and scheme_of(location) in SERVICE_SCHEMES


def default_path() -> Path:
    """``$LEONARD_TUTOR_DB`` if it is a file path, else the default under ``~/.local/share``:

    ``~/.local/share/leonard-domino-tutor/progress.sqlite3``.

    The folder is created when the store opens. (When ``$LEONARD_TUTOR_DB`` is a database
    address this is the file a tutor without it would use; see
    :func:`tutor.storage.store.default_location`.)
    """
    env = os.environ.get(PROGRESS_ENV)
    if env and scheme_of(env) is None:
        return Path(env).expanduser()
    return Path.home() / ".local" / "share" / "leonard-domino-tutor" / "progress.sqlite3"
