"""The top of the lessons and teacher pages: the page's title, the language switch, and a line
for what the page has to say about its link or its progress file."""

from __future__ import annotations

import html
from collections.abc import Callable, Sequence

import ipywidgets as widgets

from tutor.i18n import normalize_lang, translator
from tutor.ui.shared.panel import P, classed, guarded, unforeseen

__all__ = ["LANGUAGES", "PageHeader", "notes_html", "page_title_html"]

LANGUAGES = (("Español", "es"), ("English", "en"))
"""The language switch of every page (the play page's header too), each language by name."""


def page_title_html(title: str, lang: str) -> str:
    """The page's heading (``title`` a msgid)."""
    return "<h2>" + html.escape(translator(lang)(title)) + "</h2>"


def notes_html(notes: Sequence[str]) -> str:
    """The page's notes (already in the reader's language), one a line."""
    return "".join(f"<div>{html.escape(n)}</div>" for n in notes)


class PageHeader(widgets.VBox):
    """Title and language switch, with the notes line under them. The header knows the
    language the page speaks (``lang``, set at each :meth:`relabel`): it calls the page back
    when the reader picks another (:meth:`on_lang`), and says a page action's unforeseen error
    in it (:meth:`guarded`)."""

    def __init__(self, title: str, lang: str) -> None:
        self._title = title
        self.lang = normalize_lang(lang)
        self.title = classed(widgets.HTML(), "ld-title")
        self.lang_toggle = classed(widgets.ToggleButtons(options=list(LANGUAGES), value=lang,
                                                         style={"button_width": "80px"}),
                                   "ld-lang")
        self.notes = classed(widgets.HTML(), "ld-page-notes")
        self.notes.layout.display = "none"
        super().__init__([classed(widgets.HBox([self.title, self.lang_toggle]), "ld-header"),
                          self.notes])

    def on_lang(self, callback: Callable[[str], None]) -> None:
        """``callback(lang)`` (guarded) when the reader picks a language other than the page's:
        the page speaks it then (its ``set_lang``, which relabels the header)."""
        picked = self.guarded(callback)
        self.lang_toggle.observe(
            lambda change: None if change["new"] == self.lang else picked(change["new"]),
            "value")

    def guarded(self, action: Callable[P, object]) -> Callable[P, None]:
        """``action`` as a page callback whose unforeseen error this header says, in the
        page's language (see :func:`~tutor.ui.shared.panel.guarded`)."""
        return guarded(action, lambda err: self.say([unforeseen(err, self.lang)]))

    def say(self, notes: Sequence[str]) -> None:
        self.notes.value = notes_html(notes)
        self.notes.layout.display = "" if notes else "none"

    def relabel(self, lang: str) -> None:
        self.lang = lang
        _ = translator(lang)
        self.title.value = page_title_html(self._title, lang)
        self.lang_toggle.tooltips = [_("Language") for _o in LANGUAGES]
        if self.lang_toggle.value != lang:
            self.lang_toggle.value = lang
