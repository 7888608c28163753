"""Where the files read at run time live: lessons and notebooks.

An install (``pip install .``, Binder) carries them as package data in ``tutor/shipped/``,
copied there from the repository's ``lessons/`` and ``notebooks/`` when the wheel is built
(``setup.py``). A source checkout or an editable install reads the repository's folders
themselves, so a teacher's edit there shows at once. ``LEONARD_LESSONS`` adds a teacher's own
folder of lessons, searched first.

The lesson builder saves beside the progress file's default place
(:func:`tutor.storage.address.default_path`, which loads no store).
"""

from __future__ import annotations

import os
from pathlib import Path

from tutor.storage.address import default_path

__all__ = ["LESSONS_ENV", "lesson_dirs", "notebook", "own_lessons_dir", "shipped_dir"]

LESSONS_ENV = "LEONARD_LESSONS"
_PACKAGE = Path(__file__).resolve().parents[1]  # the tutor package


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
