"""A table's own sideways-scrolling box (issue 52, part 4): on a window narrower than the
table, the table scrolls inside its box and the page never does. The box is a region named
as the table is, and a keyboard reaches it (``tabindex``), so the arrows scroll it: a box
that scrolls must be reachable without a mouse (WCAG 2.1.1)."""

from __future__ import annotations

import html

__all__ = ["table_box"]


def table_box(table_html: str, label: str) -> str:
    """``table_html`` (one ``<table>``) inside the box that scrolls sideways when the table
    is wider than the window; ``label`` names it for a screen reader (the table's caption).
    Legends under a table stay outside the box: they wrap to the window's width."""
    return (f"<div class='ld-table-scroll' role='region' tabindex='0' "
            f"aria-label='{html.escape(label, quote=True)}'>{table_html}</div>")
