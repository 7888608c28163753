"""What the teacher's commands print: a line, a number in the teacher's language, a table of
text columns. Shared by every ``python -m tutor`` command that speaks to a teacher."""

from __future__ import annotations

import sys
from collections.abc import Sequence

from tutor.i18n import visible

__all__ = ["decimal", "say", "text_table"]


def say(text: str, error: bool = False) -> None:
    """Print one line (a message of a teacher command: it may hold names and file names)."""
    print(visible(text), file=sys.stderr if error else sys.stdout)


def decimal(value: float, pattern: str, lang: str) -> str:
    from babel.numbers import format_decimal

    return str(format_decimal(value, format=pattern, locale=lang))


def text_table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> list[str]:
    """Text columns: the first aligned left, the others right."""
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]

    def line(cells: Sequence[str]) -> str:
        parts = [c.ljust(w) if i == 0 else c.rjust(w)
                 for i, (c, w) in enumerate(zip(cells, widths, strict=True))]
        return "  ".join(parts).rstrip()

    return [line(header), line(["-" * w for w in widths]), *map(line, rows)]
