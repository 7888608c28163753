"""What the panels share: a widget with its CSS classes (the hooks the stylesheet and the
tests use), HTML text whose tiles a screen reader reads as words (the eye still sees the
game's "4/x" notation), and the kernel's event loop for what runs over time."""

from __future__ import annotations

import asyncio
import html
from typing import TypeVar

from engine.tiles import TileSet
from tutor.words import spoken

__all__ = ["accordion_attributes", "classed", "css_string", "running_loop", "sr_only",
           "text_html"]

W = TypeVar("W")


def classed(widget: W, *classes: str) -> W:
    """``widget`` with CSS ``classes`` added."""
    for c in classes:
        widget.add_class(c)  # type: ignore[attr-defined]
    return widget


def sr_only(text: str) -> str:
    """``text`` for screen readers only (visually hidden, still read)."""
    return f"<span class='ld-sr'>{html.escape(text)}</span>"


def text_html(text: str, lang: str, tileset: TileSet | None = None) -> str:
    """``text`` escaped for HTML; if it names tiles, the notation is hidden from screen readers
    and the same text with the tiles in words is given to them instead."""
    said = spoken(text, lang, tileset)
    if said == text:
        return html.escape(text)
    return f"<span aria-hidden='true'>{html.escape(text)}</span>{sr_only(said)}"


def css_string(text: str) -> str:
    """``text`` as a quoted CSS string (for an attribute selector)."""
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def accordion_attributes(selector: str, count: int,
                         open_index: int | None) -> dict[str, dict[str, str | None]]:
    """ipywidgets draws an accordion's headers as plain ``div``s a keyboard cannot reach: make
    each a button (Enter and Space press it, see access.js) that says whether it is open."""
    out: dict[str, dict[str, str | None]] = {}
    for i in range(count):
        header = (f"{selector} > .jupyter-widget-Collapse:nth-child({i + 1}) > "
                  ".jupyter-widget-Collapse-header")
        out[header] = {"role": "button", "tabindex": "0",
                       "aria-expanded": "true" if open_index == i else "false"}
        out[header + " > i"] = {"aria-hidden": "true"}
    return out


def running_loop() -> asyncio.AbstractEventLoop | None:
    """The kernel's event loop, when there is a live kernel to pace the bots or count up the
    scores in.

    Outside a kernel (tests, scripts) there is nobody to watch, and another library's loop
    (e.g. Playwright's in the same test process) must not be borrowed: no pacing then.
    """
    try:
        from IPython import get_ipython
    except ImportError:
        return None
    shell = get_ipython()
    if shell is None or getattr(shell, "kernel", None) is None:
        return None
    try:
        return asyncio.get_running_loop()
    except RuntimeError:
        return None
