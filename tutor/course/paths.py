"""Where the files read at run time live: lessons and notebooks.

An install (``pip install .``, Binder) carries them as package data in ``tutor/shipped/``,
copied there from the repository's ``lessons/`` and ``notebooks/`` when the wheel is built
(``setup.py``). A source checkout or an editable install reads the repository's folders
themselves, so a teacher's edit there shows at once. ``LEONARD_LESSONS`` adds a teacher's own
folder of lessons, searched first.

The progress file's default place (:func:`default_path`) is here too, not in the store: the
lesson builder saves beside it, and loading a lesson must not load the store.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

__all__ = ["LESSONS_ENV", "LESSON_ID", "MAX_ID_LENGTH", "PROGRESS_ENV", "SERVICE_SCHEMES",
           "default_path", "is_service_address", "lesson_dirs", "notebook", "own_lessons_dir",
           "scheme_of", "shipped_dir"]

LESSONS_ENV = "LEONARD_LESSONS"
PROGRESS_ENV = "LEONARD_TUTOR_DB"
"""The progress store: a file path, a ``postgresql://`` address (:mod:`tutor.storage.store`),
or on a class hub the store service's ``http://`` address
(:mod:`tutor.storage.service_store`)."""
SERVICE_SCHEMES = ("http", "https")
"""A store address with one of these schemes is the hub's store service."""
_PACKAGE = Path(__file__).resolve().parents[1]  # the tutor package
MAX_ID_LENGTH = 64
"""The longest lesson id: what a link's ``?lesson=`` takes (:data:`LESSON_ID`), and so what
the schema allows (a longer id would be saved, then never found)."""
LESSON_ID = re.compile(rf"[a-z0-9][a-z0-9-]{{0,{MAX_ID_LENGTH - 1}}}")
"""A lesson id (what a link's ``?lesson=`` gives, and the file's name in a lessons folder):
small letters, digits and dashes. Here, not in :mod:`tutor.course.lessons`, so that the store
can check the lessons of an assignment it is sent without loading any lesson."""


def shipped_dir(kind: str) -> Path:
    """The folder of the shipped ``kind`` files (``"lessons"`` or ``"notebooks"``): package
    data in an install, the repository's own folder in a checkout."""
    packaged = _PACKAGE / "shipped" / kind
    if packaged.is_dir():
        return packaged
    return _PACKAGE.parent / kind


def own_lessons_dir() -> Path:
    """Where the lesson builder saves a teacher's lessons: the first ``$LEONARD_LESSONS``
    folder, else ``lessons/`` beside the progress file
    (``~/.local/share/leonard-domino-tutor/lessons``)."""
    extra = _extra_dirs()
    if extra:
        return extra[0]
    return default_path().parent / "lessons"


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


def _extra_dirs() -> list[Path]:
    return [Path(p).expanduser() for p in os.environ.get(LESSONS_ENV, "").split(os.pathsep)
            if p.strip()]


def lesson_dirs() -> list[Path]:
    """The folders searched for a lesson id, in order: ``$LEONARD_LESSONS`` (one folder, or
    several separated by ``os.pathsep``), the lesson builder's folder when there is no
    ``$LEONARD_LESSONS`` and it exists, then the shipped lessons."""
    extra = _extra_dirs()
    if not extra:
        own = own_lessons_dir()
        extra = [own] if own.is_dir() else []
    return [*extra, shipped_dir("lessons")]


def notebook(name: str = "Play.ipynb") -> Path:
    """A shipped notebook (for ``python -m tutor dashboard``)."""
    return shipped_dir("notebooks") / name
