"""What the panels share: a widget with its CSS classes (the hooks the stylesheet and the
tests use), HTML text whose tiles a screen reader reads as words (the eye still sees the
game's "4/x" notation), the kernel's event loop for what runs over time, and the guard that
says a page action's unforeseen error instead of losing it."""

from __future__ import annotations

import asyncio
import gc
import html
import sys
import traceback
from collections.abc import Callable
from typing import Any, ParamSpec, Protocol, TypeVar

from engine.tiles import TileSet
from tutor.i18n import N_, ngettext, translator
from tutor.session.words import spoken

__all__ = ["LOGGED", "CanvasLayer", "Change", "Guard", "Widget", "WidgetValue",
           "accordion_attributes", "classed", "css_string", "freeze_heap", "guarded", "logged",
           "pile_text", "running_loop", "sr_only", "text_html", "unforeseen", "unguarded"]

# The widget boundary. ipywidgets and ipycanvas ship no type hints, so what they make is Any by
# nature; these names are the only explicit Any of tutor.ui (pyproject.toml's mypy overrides
# allow it in this module alone), so that every Any left in the ui is visibly a widget.
Widget = Any  # ipywidgets ships no types: a widget (VBox, HTML, Button, Dropdown, …)
CanvasLayer = Any  # ipycanvas ships no types: a Canvas, one of a MultiCanvas's layers
WidgetValue = Any  # a widget's synced value (a Dropdown's choice, a FileUpload's files, …)
Change = dict[str, WidgetValue]  # traitlets' change for observe(): "new", "old", "name", …

UNFORESEEN = N_("Something went wrong: {error}. If the page stops answering, reload it; what "
                "was saved is kept.")

P = ParamSpec("P")


class _Classable(Protocol):
    def add_class(self, className: str, /) -> object: ...


C = TypeVar("C", bound=_Classable)


class Guard(Protocol):
    """How a page wraps a panel's handler (``guard(handler)``): :func:`guarded` with the
    page's way of saying an unforeseen error, or :func:`unguarded`."""

    def __call__(self, action: Callable[P, None], /) -> Callable[P, None]: ...


def unguarded(action: Callable[P, None]) -> Callable[P, None]:
    """The :class:`Guard` of a panel that no page guards: ``action`` as it is."""
    return action


def classed(widget: C, *classes: str) -> C:
    """``widget`` with CSS ``classes`` added."""
    for c in classes:
        widget.add_class(c)
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


def pile_text(count: int, lang: str) -> str:
    """How many tiles are left in the pile ("Pile: 1 tile", "Pila: 27 fichas")."""
    return ngettext("Pile: {count} tile", "Pile: {count} tiles", count, lang).format(count=count)


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
        from IPython.core import getipython
    except ImportError:
        return None
    get_shell: Callable[[], object] = getipython.get_ipython  # IPython's has no annotations
    shell = get_shell()
    if shell is None or getattr(shell, "kernel", None) is None:
        return None
    try:
        return asyncio.get_running_loop()
    except RuntimeError:
        return None


def freeze_heap() -> None:
    """Collect the garbage once, then leave everything alive now (the modules, the lesson,
    the page's widgets) out of the garbage collector's later full collections
    (:func:`gc.freeze`). A live page calls it once its board is out and
    :func:`~tutor.teaching.questions.warm_up` has loaded what answers need. A page's kernel then
    holds
    about 90 000 objects; a full collection walked them all, about 40 ms of CPU, and the one
    the page's start left pending came during the student's first clicks (seen in
    ``benchmarks/click_cpu.py``). It now runs here, before the first click, and a later one
    walks only what was made since (about 600 objects after a dozen clicks). The kernel's
    shutdown (a closed tab) gains most: the interpreter's last collections took it 247 CPU
    ms, now 23 (``click_cpu.py --real-kernel``), on the cores the rest of the class plays on."""
    gc.collect()
    gc.freeze()


LOGGED = "[Leonard] A page action failed:"
"""The line before each traceback :func:`logged` writes (the tests look for it)."""


def logged(err: BaseException) -> None:
    """Write ``err``'s traceback to the server's log (the kernel's own stderr: the page's
    stream goes to a cell output that Voilà does not show), after the line :data:`LOGGED`."""
    out = sys.__stderr__
    if out is not None:
        print(LOGGED, file=out)
        traceback.print_exception(err, file=out)
        out.flush()


def unforeseen(err: BaseException, lang: str) -> str:
    """What a page says about an error nobody foresaw, in the user's language."""
    return translator(lang)(UNFORESEEN).format(error=str(err) or type(err).__name__)


def guarded(action: Callable[P, object],
            on_error: Callable[[Exception], None]) -> Callable[P, None]:
    """``action`` as a page callback: an error nobody foresaw is logged (:func:`logged`) and
    handed to ``on_error``, which says it on the page. Without it the error vanished:
    ipywidgets shows a callback's error only in a notebook cell's output, which Voilà does not
    show, and the page just stopped answering."""
    def run(*args: P.args, **kwargs: P.kwargs) -> None:
        try:
            action(*args, **kwargs)
        except Exception as err:
            logged(err)
            on_error(err)
    return run
