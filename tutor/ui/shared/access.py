"""The page's access layer: a small frontend piece (``access.js``, shipped with the package
and sent through the widget's comm, so it works offline and on Binder) for what ipywidgets
cannot do from Python.

- :meth:`PageAccess.announce` speaks through a polite live region, in the page's language;
- :attr:`PageAccess.attributes` sets ARIA attributes (role, name, description, shortcuts) on
  the widgets' elements by CSS selector, again after every redraw;
- :attr:`PageAccess.shortcuts` are the keys that press or focus an element (digits press the
  move of that number); none of them fires while the student types in a text box;
- :meth:`PageAccess.focus` moves the focus once the element is drawn (``soft``: only if the
  focus was lost, e.g. its button went away);
- the board's canvas keeps only its own keys (arrows, Enter, Space, Escape, Home, End):
  ipycanvas cancels every key its canvas gets, Tab included, which trapped the focus there;
- :meth:`PageAccess.on_submit` hands in the answer box's text when Enter is pressed in it or
  the Check button is pressed. The Text widget's value reaches the kernel one message at a
  time, so its own "submit" could overtake the last digits typed ("15" checked as "1");
- :meth:`PageAccess.on_width` hears the window's width in CSS pixels, when the page starts
  and after a resize (the app draws a phone a board of its own size);
- a tap on the board reaches it as a click and a swipe on it scrolls the page: ipycanvas
  cancels every touch on its canvas (for touch events the board does not use), so taps did
  nothing on a phone or a tablet;
- :meth:`PageAccess.on_name` hears the name form's name and class code (sent with the text
  typed, as the answer box's);
- :attr:`PageAccess.student` (and :attr:`PageAccess.class_code`) once known are written into
  the address bar's link (``student=``, ``class=``, by ``history.replaceState``), so a reload
  opens the same student's page without asking for the name again;
- :attr:`PageAccess.tick_seconds` > 0 makes the page send a tick that often while it is shown
  (:meth:`PageAccess.on_tick`): ipywidgets has no timer, and the teacher's live view reads
  the class again on each tick (a hidden tab sends none);
- the element a focus request reaches is scrolled into view with the panel around it (the
  first of :attr:`PageAccess.scroll_into_view` that fits the window): on a phone the
  question's buttons stayed below the fold after a power play; when the board is above that
  panel and both fit the window, the scroll shows both (the student answers looking at it);
- on a class hub (:attr:`PageAccess.page_status`, :mod:`tutor.hub.lockdown`) the page asks its
  server, when the student comes back to its tab (and every minute while it is shown),
  whether its kernel still runs; a tab closed for being idle, or a server the hub stopped,
  says so over the page (:attr:`PageAccess.closed_texts`) with a button that reloads it, so a
  student does not click on a page that no longer answers.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path

import anywidget
import traitlets

from tutor.classroom.request import idle_tab_minutes, page_status_url
from tutor.i18n import format_number, translator

from .panel import Widget, WidgetValue

__all__ = ["Attributes", "PageAccess", "landmarks"]

Attributes = dict[str, dict[str, str | None]]
"""CSS selector → attribute → value (None removes the attribute)."""

def landmarks(page: str, title: str, panels: Mapping[str, str], lang: str) -> Attributes:
    """The page's landmarks, so that a screen reader's user can list the panels and jump to
    one (axe's ``region`` rule: no content outside a landmark): the element of selector
    ``page`` is the page's main region, named ``title``; each of ``panels`` (selector →
    its heading, msgids) is a region named by its heading."""
    _ = translator(lang)
    out: Attributes = {page: {"role": "main", "aria-label": _(title)}}
    for selector, heading in panels.items():
        out[selector] = {"role": "region", "aria-label": _(heading)}
    return out


ESM = (Path(__file__).resolve().parent / "access.js").read_text(encoding="utf-8")


class PageAccess(anywidget.AnyWidget):
    """Put one in the page (it shows nothing but the screen readers' live region)."""

    _esm = ESM
    lang = traitlets.Unicode("es").tag(sync=True)
    announcement = traitlets.Unicode("").tag(sync=True)
    """What the live region says now (it stays until the next announcement)."""
    announcements = traitlets.Int(0).tag(sync=True)
    """Counts the announcements, so the same words said twice are spoken twice."""
    attributes = traitlets.Dict().tag(sync=True)
    shortcuts = traitlets.Dict().tag(sync=True)
    """Key (lower case) → ``{"selector": …, "action": "click" | "focus"}``."""
    moves = traitlets.Unicode(".ld-moves .ld-move").tag(sync=True)
    """The buttons digits 1-9 press, in order."""
    board = traitlets.Unicode("canvas.ld-board").tag(sync=True)
    """The canvas that keeps only its own keys."""
    focus_request = traitlets.Dict().tag(sync=True)
    answer = traitlets.Unicode(".ld-answer input").tag(sync=True)
    """The answer box: Enter in it hands in its text."""
    submit_buttons = traitlets.Unicode(".ld-submit").tag(sync=True)
    """The buttons that hand in the answer box's text."""
    name_input = traitlets.Unicode(".ld-name-in input").tag(sync=True)
    class_input = traitlets.Unicode(".ld-class-in input").tag(sync=True)
    name_button = traitlets.Unicode(".ld-name-start").tag(sync=True)
    """The name form: its name box, class code box and button (see :meth:`on_name`)."""
    student = traitlets.Unicode("").tag(sync=True)
    """The page's student once named ("" while unnamed): the address bar's link says it."""
    class_code = traitlets.Unicode("").tag(sync=True)
    scroll_into_view = traitlets.List([".ld-tutor", ".ld-answer-row"]).tag(sync=True)
    """Around a focused element, the panels to bring into view whole (the first that fits)."""
    tick_seconds = traitlets.Float(0.0).tag(sync=True)
    """Seconds between the page's ticks (0: none; at least 1 when set)."""
    page_status = traitlets.Unicode("").tag(sync=True)
    """Where the page asks whether its kernel still runs ("": nowhere, not on a class hub)."""
    closed_texts = traitlets.Dict().tag(sync=True)
    """What the page says when its kernel was closed: ``idle`` (the tab was idle too long),
    ``gone`` (any other reason) and ``reload`` (its button), in the page's language."""

    def __init__(self, **kwargs: WidgetValue) -> None:
        kwargs.setdefault("page_status", page_status_url())
        super().__init__(**kwargs)
        self._closed_texts()
        self.add_class("ld-access")
        self._focus_count = 0
        self._on_submit: Callable[[str], None] | None = None
        self._on_repaint: Callable[[], None] | None = None
        self._on_width: Callable[[int], None] | None = None
        self._on_name: Callable[[str, str], None] | None = None
        self._on_tick: Callable[[], None] | None = None
        self.on_msg(self._message)

    @traitlets.observe("lang")
    def _relabel(self, _change: object) -> None:
        self._closed_texts()

    def _closed_texts(self) -> None:
        if not self.page_status:
            return
        _ = translator(self.lang)
        minutes = format_number(round(idle_tab_minutes(), 1), self.lang)
        self.closed_texts = {
            "idle": _("This page was closed after {minutes} minutes without use, to make room "
                      "on the class server. Reload it to go on: your answers so far are "
                      "saved, and the game starts again.").format(minutes=minutes),
            "gone": _("This page was closed by the class server. Reload it to go on: your "
                      "answers so far are saved, and the game starts again."),
            "reload": _("Reload the page")}

    def on_name(self, callback: Callable[[str, str], None]) -> None:
        """``callback(name, class_code)`` when the name form is handed in."""
        self._on_name = callback

    def on_tick(self, callback: Callable[[], None]) -> None:
        """``callback()`` every :attr:`tick_seconds` while the page is shown."""
        self._on_tick = callback

    def on_submit(self, callback: Callable[[str], None]) -> None:
        """``callback(text)`` when the student hands in the answer box's text."""
        self._on_submit = callback

    def on_repaint(self, callback: Callable[[], None]) -> None:
        """``callback()`` when the page finds the board blank: ipycanvas draws by messages,
        and a page whose widgets were still being built when the kernel drew lost them (the
        board then stayed blank until the next move)."""
        self._on_repaint = callback

    def on_width(self, callback: Callable[[int], None]) -> None:
        """``callback(pixels)`` with the window's width, when the page starts and whenever a
        resize changed it."""
        self._on_width = callback

    def _message(self, _widget: Widget, content: object, _buffers: object) -> None:
        if not isinstance(content, dict):
            return
        if content.get("event") == "submit" and self._on_submit is not None:
            self._on_submit(str(content.get("value", "")))
        elif content.get("event") == "repaint" and self._on_repaint is not None:
            self._on_repaint()
        elif content.get("event") == "tick" and self._on_tick is not None:
            self._on_tick()
        elif content.get("event") == "name" and self._on_name is not None:
            self._on_name(str(content.get("value", "")), str(content.get("code", "")))
        elif content.get("event") == "width" and self._on_width is not None:
            width = content.get("value")
            if isinstance(width, int | float) and not isinstance(width, bool) and width > 0:
                self._on_width(int(width))

    def announce(self, text: str) -> None:
        """Say ``text`` through the live region (politely: after what is being read)."""
        if not text:
            return
        with self.hold_sync():
            self.announcement = text
            self.announcements += 1

    def focus(self, selector: str, *, soft: bool = False) -> None:
        """Focus the first shown element that matches ``selector`` as soon as it is drawn;
        ``soft``: only if the focus was lost. A later request replaces this one."""
        self._focus_count += 1
        self.focus_request = {"selector": selector, "soft": soft, "n": self._focus_count}

    def set_attributes(self, attributes: Mapping[str, Mapping[str, str | None]]) -> None:
        """Set the ARIA attributes to ``attributes`` (sent only when they changed)."""
        new = {sel: dict(attrs) for sel, attrs in attributes.items()}
        if new != self.attributes:
            self.attributes = new
