"""The "what happened" panel: the snapshot's log, the session's narration of the last few
events (points a question asks for are left out until it is answered)."""

from __future__ import annotations

import html
from collections.abc import Iterable

import ipywidgets as widgets

from engine.tiles import TileSet
from tutor.i18n import translator
from tutor.session.snapshot import LOG_KEEP, Snapshot
from tutor.ui.shared.access import Attributes
from tutor.ui.shared.panel import text_html

__all__ = ["KEEP", "LogPanel", "log_html"]

KEEP = LOG_KEEP
"""Events the session's log keeps (the panel shows the last six lines)."""


def log_html(lines: Iterable[str], lang: str, tileset: TileSet | None = None) -> str:
    """The "what happened" log: the last six lines (hidden points are already left out)."""
    _ = translator(lang)
    items = "".join(f"<li>{text_html(line, lang, tileset)}</li>" for line in list(lines)[-6:])
    title = _("What happened")
    return (f"<b>{html.escape(title)}</b>"
            f"<ul style='margin:4px 0;padding-left:18px'>{items}</ul>")


class LogPanel(widgets.HTML):
    """The snapshot's log (told again at every snapshot, so a hidden point shows once its
    question is answered, and a language switch retells them)."""

    def __init__(self) -> None:
        super().__init__()
        self.add_class("ld-log")
        self.add_class("ld-card")

    def attributes(self, lang: str) -> Attributes:
        _ = translator(lang)
        return {".ld-log": {"role": "region", "aria-label": _("What happened")}}

    def render(self, view: Snapshot) -> None:
        self.value = log_html(view.log, view.lang, view.tileset)
