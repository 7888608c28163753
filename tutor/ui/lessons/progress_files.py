"""The lessons page's progress files: "Download my progress" (a file to hand in, or to keep
for the next Binder session) and "Load my progress" (such a file merged back, without
duplicates)."""

from __future__ import annotations

import html
from collections.abc import Callable, Sequence

import ipywidgets as widgets

from tutor.classroom.overview import MergeResult
from tutor.i18n import translator
from tutor.storage.progress_store import ProgressStore
from tutor.ui.play.sheet import progress_html
from tutor.ui.shared.panel import classed
from tutor.ui.shared.uploads import MergeResultView, ProgressUpload

__all__ = ["ProgressFilesPanel", "load_help_html", "progress_html"]


def load_help_html(lang: str) -> str:
    _ = translator(lang)
    return ("<div class='ld-legend'>" + html.escape(_(
        "On a new Binder session, load the file you downloaded before: your answers come back "
        "and nothing is counted twice.")) + "</div>")


class ProgressFilesPanel(widgets.VBox):
    """The download link, the load button and what the last load did."""

    def __init__(self, on_files: Callable[[Sequence[tuple[str, bytes]]], None]) -> None:
        self.heading = widgets.HTML()
        self.download = classed(widgets.HTML(), "ld-progress")
        self.upload = classed(ProgressUpload(multiple=False), "ld-load-progress")
        self.upload.on_files(on_files)
        self.help = widgets.HTML()
        self.result = classed(MergeResultView(), "ld-load-result")
        super().__init__([self.heading, self.download,
                          classed(widgets.HBox([self.upload, self.help]), "ld-upload-box"),
                          self.result])
        classed(self, "ld-progress-files")

    def relabel(self, lang: str) -> None:
        _ = translator(lang)
        self.heading.value = "<h3>" + html.escape(_("My progress")) + "</h3>"
        self.upload.description = _("Load my progress")
        self.upload.tooltip = _("Load a progress file you downloaded before (CSV)")
        self.help.value = load_help_html(lang)
        self.result.relabel(lang)

    def render(self, store: ProgressStore | None, student: str, lang: str,
               class_code: str = "") -> None:
        """The download link of ``student``'s progress; its file is named after the student
        and their class code (``leonard-progress-Mateo-6B.csv``)."""
        self.download.value = progress_html(store, student, lang, class_code)

    def show_result(self, result: MergeResult | None, lang: str, error: str = "") -> None:
        """What the last load did (``error``: one line why nothing was loaded)."""
        self.result.show(result, lang, error)
