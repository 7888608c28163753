"""Where a reader of the class's attempts stopped, so that its next read asks only for the rows
stored since (issue 51 part 4: the teacher page's live view reads every few seconds, and the
whole class's rows after a 2-hour class are megabytes).

A :class:`ReadMark` is what :meth:`tutor.storage.store.Store.attempts_after` returns with the
new rows and takes back at the next read. Its reader keeps it as it is (it has no meaning
outside the store that gave it); on the wire it is a short text (:meth:`ReadMark.text`,
:meth:`ReadMark.parse`).

Why more than the last id: an attempt's id is given when its row is inserted, not when its
transaction commits. On SQLite a writer holds the file's write lock from before its insert
to its commit, so rows become visible in the order of their ids, and the last id read is
enough. On PostgreSQL, two writers (two pages on a store without a hub, two service
processes, a teacher's merge beside the pages' saves) can commit out of order: a row with a
lower id may become visible after one with a higher id was read. So on PostgreSQL the mark
also keeps :attr:`ReadMark.horizon`: the oldest transaction still running when the read
began (``pg_snapshot_xmin``). A row that was not yet visible then belongs to a transaction
at or after the horizon, so the next read also asks for the rows whose inserting transaction
(``xmin``) is at or after it, among the :data:`RECHECK_IDS` ids below the last one read, and
the reader drops the ids it has already (a row can come twice, never be missed). That
re-reads only rows committed since about the last read (the bytes stay small), and it looks
at a bounded range of the id index (the cost stays small).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from tutor.i18n import N_
from tutor.storage.records import StoreError

__all__ = ["RECHECK_IDS", "ReadMark"]

RECHECK_IDS = 1000
"""On PostgreSQL, how far below the last id read the next read looks for rows committed late.
A row is missed only if more than this many ids were handed out between its own insert and
its commit: the pages save one row per transaction, and a teacher's merge commits in batches
of a few hundred rows (:func:`tutor.classroom.overview.merge_files`). The page's "Refresh"
reads everything again in any case."""

_TEXT = re.compile(r"([0-9]{1,19})\.([0-9]{1,20})")


@dataclass(frozen=True)
class ReadMark:
    """The end of an incremental read: the highest attempt id read, and on PostgreSQL the
    transaction horizon of that read (0 on SQLite, or before any read)."""

    last_id: int = 0
    horizon: int = 0

    def text(self) -> str:
        """The mark on the wire: ``<last id>.<horizon>``."""
        return f"{self.last_id}.{self.horizon}"

    @classmethod
    def parse(cls, text: str) -> ReadMark:
        """A mark from :meth:`text` (an empty text: the start); anything else is a
        :class:`StoreError`."""
        if not text:
            return cls()
        found = _TEXT.fullmatch(text)
        if found is None:
            raise StoreError(N_("\"{mark}\" is not where a read of the attempts stopped."),
                             mark=text[:40])
        return cls(int(found.group(1)), int(found.group(2)))
