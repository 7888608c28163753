"""The seal of a progress file: a chain of hashes over its rows, so that a file changed after
the tutor wrote it (in a spreadsheet: INCORRECT made CORRECT, a scaffold tag taken out, the
student's name changed, rows removed, added or moved) is told from the one it wrote.

Each row of a CSV export ends with a ``seal`` column: the SHA-256 (its first 32 hex digits) of
the row before's seal, a mark saying whether this is the file's last row, and the row's
values exactly as the file holds them (JSON, so no two rows hash alike by accident). The
first row starts from a fixed value. The reader checks every row against the seal of the row
before it *as the file gives it*, so an edit names its own line, and the last-row mark tells
"rows after this one were removed" (the new last row was sealed as a middle one) and "rows
were added after the tutor's last one" apart from a changed row.

Why a chain of hashes and not an HMAC with a key from the teacher's link: on Binder the
student holds the file, the tutor's code and the link (a key in the link is in the address
they opened and in the page's memory). Whoever can run the code can seal any rows, whether a
key is needed or not, so a key would prove nothing more; and it would have to reach the
teacher page and ``import``, and a file from a link without it could not be checked at all.
What a spreadsheet cannot do is compute SHA-256, so for the edit a seal is meant to catch,
a chain of hashes is as strong as a keyed one, and it needs no key to lose. What it cannot
prove, said plainly in the teacher guide: that the answers were typed by the student, or that
nobody who can run Python made the file.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Literal

__all__ = ["SEAL_COLUMN", "Break", "SealCheck", "check_seals", "sealed"]

SEAL_COLUMN = "seal"
"""The last column of a sealed CSV export."""
_DIGITS = 32
"""Hex digits kept of each SHA-256 (128 bits: nobody guesses one; computing one is easy for
anyone with Python, and that is not what the seal guards against)."""
_START = hashlib.sha256(b"leonard-domino-tutor progress seal 1").hexdigest()[:_DIGITS]

BreakKind = Literal["changed", "ends_early", "goes_on"]


def _link(previous: str, values: Sequence[str], last: bool) -> str:
    h = hashlib.sha256(previous.encode("utf-8"))
    h.update(b"\x00last\x00" if last else b"\x00row\x00")
    h.update(json.dumps(list(values), ensure_ascii=False, separators=(",", ":")).encode())
    return h.hexdigest()[:_DIGITS]


def sealed(rows: Iterable[Sequence[str]]) -> Iterator[list[str]]:
    """Each row (its values as the file holds them) with its seal appended."""
    previous = _START
    waiting: Sequence[str] | None = None
    for row in rows:
        if waiting is not None:  # not the last: one row is held back to know which is
            previous = _link(previous, waiting, False)
            yield [*waiting, previous]
        waiting = row
    if waiting is not None:
        yield [*waiting, _link(previous, waiting, True)]


@dataclass(frozen=True)
class Break:
    """A row whose seal does not follow from the row before it."""

    line: int
    kind: BreakKind
    """``changed`` (the row, or its place: a row before it removed, rows moved),
    ``ends_early`` (the tutor wrote rows after this one) or ``goes_on`` (the tutor's file
    ended with this row; rows were added after it)."""


@dataclass(frozen=True)
class SealCheck:
    """What a file's seal says: whether it has one, and where it breaks."""

    sealed: bool
    """The file has the seal column (a CSV export of a tutor that seals)."""
    breaks: tuple[Break, ...] = ()

    @property
    def intact(self) -> bool:
        """Sealed, and every row as the tutor wrote it."""
        return self.sealed and not self.breaks


def check_seals(rows: Sequence[tuple[int, Sequence[str], str]]) -> SealCheck:
    """Check the rows of a sealed file, each ``(line, values, seal)`` in the file's order."""
    breaks: list[Break] = []
    previous = _START
    for i, (line, values, seal) in enumerate(rows):
        last = i == len(rows) - 1
        if seal != _link(previous, values, last):
            if seal == _link(previous, values, not last):
                breaks.append(Break(line, "ends_early" if last else "goes_on"))
            else:
                breaks.append(Break(line, "changed"))
        previous = seal  # the next row is checked against what the file says here
    return SealCheck(True, tuple(breaks))
