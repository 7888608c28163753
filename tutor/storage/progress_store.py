"""What a progress store offers, whatever holds its rows: :class:`ProgressStore`.

Two classes are one: :class:`tutor.storage.store.Store`, on a SQLite file or a PostgreSQL
database, and :class:`tutor.storage.service_store.ServiceStore`, which asks the hub's store
service over HTTP. Neither is the other's subclass; both share only
:class:`tutor.storage.store_base.StoreBase` (the owner checks and the export and import
files). :func:`tutor.storage.store.open_store` gives the one an address names, and the code
above the storage layer holds either as a ``ProgressStore``.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Protocol, Self

from tutor.storage.class_rows import Assignment
from tutor.storage.read_mark import ReadMark
from tutor.storage.records import Attempt, MasteryValue, Outcome, SessionMark

__all__ = ["ProgressStore"]


class ProgressStore(Protocol):
    """A class's or a student's progress: attempts, sessions, mastery rows, played deals,
    and the class's rosters and assignments. Every write is its own transaction; a busy or
    unreachable store raises :class:`tutor.storage.store_base.StoreBusyError` and has
    written nothing."""

    lang: str
    """The language of its error messages."""
    owner: str | None
    """The one student whose rows it may read and write; None for the whole class."""
    shared: bool
    """A class's store, shared by a class server's pages (it remembers the deals played)."""
    hub_groups: bool
    """A hub's store: a roster can be taken from one of the hub's groups."""
    path: Path | str
    """Where the store is, as messages show it."""

    @property
    def kind(self) -> str:
        """``"sqlite"``, ``"postgresql"`` or ``"service"`` (the hub's store service)."""

    def __enter__(self) -> Self: ...

    def __exit__(self, *exc: object) -> None: ...

    def close(self) -> None: ...

    def integrity_ok(self) -> bool: ...

    # -- students, sessions and answers ----------------------------------------------------
    def students(self) -> list[str]: ...

    def start_session(self, student: str, session: str | None = None,
                      started: str | None = None) -> str: ...

    def record_attempt(
        self, student: str, session: str, *, lesson: str, problem: str, step: str,
        outcome: Outcome | str, input_text: str = "", feedback: str = "",
        kc: str | Sequence[str] = (), first_attempt: bool | None = None, hints: int = 0,
        duration: float = 0.0, expected: int | None = None, answered: int | None = None,
        time: str | None = None,
    ) -> int: ...

    def add_attempt(self, attempt: Attempt, game: Mapping[str, object] | None = None
                    ) -> int: ...

    def attempts(self, student: str | None = None) -> list[Attempt]: ...

    def lesson_attempts(self, student: str, lessons: Iterable[str]) -> list[Attempt]: ...

    def replay_context(self, student: str, sent: Sequence[Attempt]) -> list[Attempt]: ...

    def usage(self, student: str, since: str) -> tuple[int, int, int]: ...

    def attempts_after(self, mark: ReadMark | None = None, student: str | None = None
                       ) -> tuple[list[tuple[int, Attempt]], ReadMark]: ...

    def merge(self, rows: Iterable[Attempt], *, from_file: bool = False) -> int: ...

    def mark_session(self, student: str, session: str, lesson: str, mark: str,
                     time: str | None = None) -> None: ...

    def session_marks(self, since: str | None = None, student: str | None = None
                      ) -> list[SessionMark]: ...

    def name_merges(self) -> list[tuple[str, str, str]]: ...

    # -- mastery and deals -----------------------------------------------------------------
    def save_mastery_rows(self, student: str,
                          rows: Mapping[str, Mapping[str, MasteryValue]]) -> None: ...

    def mastery_rows(self, student: str) -> dict[str, dict[str, MasteryValue]]: ...

    def record_deal(self, student: str, lesson: str, deal: str, session: str,
                    time: str | None = None) -> bool: ...

    def deals(self, student: str) -> list[tuple[str, str, str, str]]: ...

    def revealed(self, student: str, lesson: str) -> list[tuple[str, str, int, str]]: ...

    # -- the class's rows ------------------------------------------------------------------
    def save_roster(self, class_code: str, names: list[str]) -> None: ...

    def roster_from_group(self, group: str, class_code: str | None = None) -> list[str]: ...

    def roster(self, class_code: str) -> list[str]: ...

    def class_codes(self) -> list[str]: ...

    def classes_of(self, student: str) -> list[str]: ...

    def save_assignment(self, assignment: Assignment) -> None: ...

    def assignments(self, class_code: str | None = None) -> list[Assignment]: ...

    def assignment(self, assignment_id: str) -> Assignment | None: ...

    def student_assignments(self, student: str, class_code: str | None = None
                            ) -> list[Assignment]: ...

    def student_assignment(self, student: str, assignment_id: str) -> Assignment | None: ...

    # -- files (tutor.storage.store_base) --------------------------------------------------
    def export_csv(self, path: str | os.PathLike[str], student: str | None = None) -> int: ...

    def export_datashop(self, path: str | os.PathLike[str], student: str | None = None
                        ) -> int: ...

    def import_file(self, path: str | os.PathLike[str], lang: str | None = None) -> int: ...
