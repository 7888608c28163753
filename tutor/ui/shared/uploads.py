"""What the pages' uploads share: the FileUpload button for progress files, the files it
holds as (name, bytes), and the line that says what a merge did."""

from __future__ import annotations

import html
from collections.abc import Callable, Sequence

import ipywidgets as widgets

from tutor.classroom.overview import MergeResult
from tutor.i18n import translator
from tutor.ui.shared.panel import Change, WidgetValue, classed

__all__ = ["ACCEPT", "MergeResultView", "ProgressUpload", "merge_result_html",
           "uploaded_files"]

ACCEPT = ".csv,.tsv,.txt,text/csv,text/plain,text/tab-separated-values"
"""The progress exports: CSV, or DataShop's tab-separated text."""


def uploaded_files(value: WidgetValue) -> list[tuple[str, bytes]]:
    """The files a FileUpload holds (ipywidgets 8: a tuple of dicts with ``name`` and
    ``content``), as (name, bytes)."""
    return [(str(f["name"]), bytes(f["content"])) for f in value or ()]


def merge_result_html(result: MergeResult, lang: str, *, students: bool = False) -> str:
    """What a merge did, in one line (``students``: say how many students too), and one line
    per refused file saying why."""
    _ = translator(lang)
    parts = [_("New answers loaded: {added}. Already here, so skipped: {known}.").format(
        added=result.added, known=result.known)]
    if students:
        parts.append(_("Students in the files: {count}.").format(count=len(result.students)))
    ok_class = "ld-ok" if result.added or result.known else "ld-legend"
    out = f"<div class='{ok_class}'>{html.escape(' '.join(parts))}</div>"
    if result.refused:
        out += "<ul class='ld-refused'>" + "".join(
            f"<li class='ld-msg'>{html.escape(line)}</li>" for line in result.refused) + "</ul>"
    return out


class MergeResultView(widgets.HTML):
    """What the last merge did, said again in a new language (``students``: with how many
    students the files held), or one line why nothing was merged."""

    def __init__(self, *, students: bool = False) -> None:
        super().__init__()
        self.students = students
        self.last: MergeResult | None = None

    def show(self, result: MergeResult | None, lang: str, error: str = "") -> None:
        self.last = None if error else result
        if error:
            self.value = f"<div class='ld-msg'>{html.escape(error)}</div>"
        elif result is not None:
            self.value = merge_result_html(result, lang, students=self.students)
        else:
            self.value = ""

    def relabel(self, lang: str) -> None:
        if self.last is not None:
            self.value = merge_result_html(self.last, lang, students=self.students)


class ProgressUpload(widgets.FileUpload):
    """A button that takes progress files; ``on_files(callback)`` calls ``callback(files)``
    with (name, bytes) each time files are chosen. Then it forgets their contents but keeps
    one empty entry per file: the button's caption counts its entries ("Upload progress
    files (4)"), and emptied it said "(0)" after 4 files; and the same files chosen again
    differ from the emptied entries, so the page sends them again."""

    def __init__(self, *, multiple: bool) -> None:
        super().__init__(accept=ACCEPT, multiple=multiple, icon="upload",
                         layout=widgets.Layout(width="auto"))
        classed(self, "ld-upload")
        self._callback: Callable[[Sequence[tuple[str, bytes]]], None] | None = None
        self._forgetting = False
        self.observe(self._changed, "value")

    def on_files(self, callback: Callable[[Sequence[tuple[str, bytes]]], None]) -> None:
        self._callback = callback

    def _changed(self, change: Change) -> None:
        if self._forgetting:
            return  # the emptied entries below
        files = uploaded_files(change["new"])
        if not files:
            return
        try:
            if self._callback is not None:
                self._callback(files)
        finally:
            self._forget(change["new"])

    def _forget(self, value: WidgetValue) -> None:
        """Keep each file's entry (the caption's count) without its contents."""
        self._forgetting = True
        try:
            self.value = tuple({**f, "content": memoryview(b""), "size": 0} for f in value)
        finally:
            self._forgetting = False
