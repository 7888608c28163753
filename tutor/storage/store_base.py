"""What every progress store offers, whatever holds its rows (a database:
:class:`tutor.storage.store.Store`; the hub's store service:
:class:`tutor.storage.store.ServiceStore`): the store's errors, how long a write waits for
a busy store, the columns of a mastery row, who may see which rows, and the export and
import files, written on the store's own reads and writes.
"""

from __future__ import annotations

import os
from abc import ABC, abstractmethod
from collections.abc import Iterable
from datetime import datetime, timezone
from pathlib import Path
from typing import Self

from tutor.i18n import N_
from tutor.storage.names import same_name
from tutor.storage.records import Attempt, StoreError, check_attempt
from tutor.storage.store_files import read_attempts, write_csv, write_datashop

__all__ = ["BUSY_RETRIES", "BUSY_TIMEOUT", "MASTERY_COLUMNS", "MAX_DEAL", "StoreAccessError",
           "StoreAddressError", "StoreBase", "StoreBusyError", "utc_now"]

# Waiting for a busy progress file: SQLite itself waits up to BUSY_TIMEOUT seconds for the
# lock; a write that still finds it busy is tried again BUSY_RETRIES more times, after
# pauses of _BACKOFF, 2 × _BACKOFF, 4 × _BACKOFF … seconds. Bounded by a count of tries,
# not by a clock.
BUSY_TIMEOUT = 5.0
BUSY_RETRIES = 3
MAX_DEAL = 200
"""Characters of a played deal's lesson, deal and session (:meth:`Store.record_deal`)."""


class StoreBusyError(StoreError):
    """The progress file stayed locked by other writers through every try (or the database
    server stayed out of reach); nothing was written (the write can be made again later)."""


class StoreAccessError(StoreError):
    """A store opened for one student was asked for another student's rows (or the class's)."""


class StoreAddressError(StoreError):
    """``$LEONARD_TUTOR_DB`` (or the store's address) names a kind of database this tutor
    cannot use, or PostgreSQL's driver is missing."""


MASTERY_COLUMNS = ("skill", "p_known", "mastered", "asked", "first_try_right", "hints_used",
                    "total_seconds", "streak", "scaffolded_right", "misconceptions", "evidence")
"""The mastery table's columns, one row per student and skill (the fields of
:class:`tutor.teaching.mastery.SkillState`, which the teaching code reads them into)."""


def utc_now() -> str:
    """The current time as ISO 8601 UTC with microseconds."""
    return datetime.now(timezone.utc).isoformat(timespec="microseconds")


class StoreBase(ABC):
    """The part of a progress store that is the same whatever holds the rows: the checks of
    who may see them (``owner``: the one student a handle serves, None for the class) and
    the export and import files. A store gives its own :meth:`attempts`, :meth:`merge` and
    :meth:`close`; ``lang`` and ``owner`` are given to :meth:`__init__`."""

    shared: bool = False
    """Whether the store is a class's, shared by a class server's pages (the store service's,
    or a PostgreSQL database): a deal a student opens a second time is then practice, since
    the store remembers the deals each student played. A student's own file (Binder's) keeps
    link seeds as they are: one deal for the whole class, which a student may play again."""

    def __init__(self, lang: str, owner: str | None) -> None:
        self.lang = lang
        self.owner = owner

    @abstractmethod
    def attempts(self, student: str | None = None) -> list[Attempt]:
        """The rows of ``student`` (None: the whole class's)."""

    @abstractmethod
    def merge(self, rows: Iterable[Attempt], *, from_file: bool = False) -> int:
        """Add the rows not yet in the store; how many were added."""

    @abstractmethod
    def close(self) -> None:
        """Close the store."""

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- who may see what --------------------------------------------------------------------
    def _allow(self, student: str | None) -> None:
        """Refuse ``student``'s rows (None: the whole class) to a store opened for another."""
        if self.owner is None or (student is not None and same_name(student, self.owner)):
            return
        if student is None:
            raise StoreAccessError(N_("Only a teacher can see the whole class's progress; "
                                      "{owner} can see their own."),
                                   owner=self.owner, lang=self.lang)
        raise StoreAccessError(N_("{owner} cannot see or change the progress of {student}: "
                                  "each student sees only their own."),
                               owner=self.owner, student=student, lang=self.lang)

    def _refuse_bad(self, attempt: Attempt) -> None:
        problems = tuple(check_attempt(attempt))
        if problems:
            raise StoreError(N_("This attempt cannot be stored: {problems}."),
                             problems=problems, lang=self.lang)

    def _check_deal(self, lesson: str, deal: str, session: str) -> None:
        """Refuse a deal row no page would write (an empty or over-long lesson, deal or
        session)."""
        for what, value in (("lesson", lesson), ("deal", deal), ("session", session)):
            if not isinstance(value, str) or not value or len(value) > MAX_DEAL:
                raise StoreError(N_("A played deal needs its {what} (at most {limit} "
                                    "characters)."), what=what, limit=MAX_DEAL, lang=self.lang)

    def _teacher_only(self) -> None:
        if self.owner is not None:
            raise StoreAccessError(N_("Only a teacher can make or change classes and "
                                      "assignments; {owner} sees their own."),
                                   owner=self.owner, lang=self.lang)

    # -- export and import (see tutor.storage.store_files) ---------------------------------
    def export_csv(self, path: str | os.PathLike[str], student: str | None = None) -> int:
        """Write the attempts (of one student, or all) as CSV; return the number of rows."""
        return write_csv(Path(path), self.attempts(student))

    def export_datashop(self, path: str | os.PathLike[str], student: str | None = None) -> int:
        """Write the attempts as a DataShop-style tab-separated file; return the number of rows."""
        return write_datashop(Path(path), self.attempts(student))

    def import_file(self, path: str | os.PathLike[str], lang: str | None = None) -> int:
        """Merge a CSV or DataShop export; return how many new attempts were added.

        The store's own merge: it checks each row, not the file's seal or its fit with the
        tutor's replay. A student's or a class's files reach a store through
        :mod:`tutor.classroom.hand_in` (the teacher page, ``python -m tutor import``, the
        lessons page), which refuses an edited file.

        Every row is checked before anything is written, and all rows go in one
        transaction, so a bad file changes nothing.  Rows already present are skipped.
        A bad file raises :class:`ProgressImportError` in ``lang`` (default: the store's).
        """
        rows = read_attempts(Path(path), lang or self.lang)
        return self.merge(rows, from_file=True)
