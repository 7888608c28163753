"""A progress store that can be stopped, for the tests of issue 51 part 5 (nothing lost while
the store is down): while ``down``, every call a page makes raises
:class:`~tutor.storage.store.StoreBusyError`, as the hub's store service does when it or its
database is out of reach."""

from __future__ import annotations

from typing import Any

from tutor.storage.store import Store, StoreBusyError

KEPT = frozenset({"close", "down", "lang", "owner", "path"})
"""What works while the store is down: closing it and its plain attributes."""


class OutageStore(Store):
    """A :class:`Store` (a SQLite file) whose every public method fails while ``down``."""

    down = False

    def __getattribute__(self, name: str) -> Any:
        value = super().__getattribute__(name)
        if (callable(value) and not name.startswith("_") and name not in KEPT
                and object.__getattribute__(self, "down")):
            def refuse(*_args: object, **_kw: object) -> Any:
                raise StoreBusyError("the class's store cannot be reached now")
            return refuse
        return value
