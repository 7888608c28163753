"""Where the teacher page keeps the assignments and rosters it makes: the page's store, or
(no store: nothing can be saved on this server) the page's memory until it closes. The
assignments panel and its roster box share one."""

from __future__ import annotations

from typing import TYPE_CHECKING

from tutor.classroom.assignments import Assignment

if TYPE_CHECKING:
    from tutor.storage.progress_store import ProgressStore

__all__ = ["Book"]


class Book:
    """Where the assignments and rosters are kept: the page's store, or (no store: nothing
    can be saved on this server) this page's memory until it closes."""

    def __init__(self, store: ProgressStore | None) -> None:
        self.store = store
        self._assignments: dict[str, Assignment] = {}
        self._rosters: dict[str, list[str]] = {}

    def assignments(self) -> list[Assignment]:
        if self.store is not None:
            return self.store.assignments()
        return list(self._assignments.values())

    def save_assignment(self, a: Assignment) -> None:
        if self.store is not None:
            self.store.save_assignment(a)
        else:
            self._assignments[a.id] = a

    def roster(self, code: str) -> list[str]:
        if not code:
            return []
        return self.store.roster(code) if self.store is not None else self._rosters.get(code,
                                                                                        [])

    def save_roster(self, code: str, names: list[str]) -> None:
        if self.store is not None:
            self.store.save_roster(code, names)
        else:
            self._rosters[code] = names
