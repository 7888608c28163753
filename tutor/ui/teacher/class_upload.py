"""The teacher page's upload: many students' progress files at once, a progress bar while
they merge, and what the merge did (a refused file: one line saying why)."""

from __future__ import annotations

import html
from collections.abc import Callable, Sequence

import ipywidgets as widgets

from tutor.classroom.overview import MergeResult
from tutor.i18n import translator
from tutor.storage.store_files import MAX_IMPORT_BYTES
from tutor.ui.shared.panel import classed
from tutor.ui.shared.uploads import MergeResultView, ProgressUpload, merge_result_html

__all__ = ["ClassUploadPanel", "merge_result_html", "upload_help_html"]


def upload_help_html(lang: str) -> str:
    _ = translator(lang)
    return ("<div class='ld-legend'>" + html.escape(_(
        "Choose the files your students downloaded with “Download my progress” (you can choose "
        "many at once). Answers already here are not counted twice.")) + " " + html.escape(_(
            "A file changed after it was downloaded (in a spreadsheet, say) is refused, and "
            "so is one without the tutor's seal: ask for the file as it was downloaded.")) + " "
        + html.escape(_(
            "At most {size} MB at a time: upload more files in several goes.").format(
            size=MAX_IMPORT_BYTES // (1024 * 1024))) + "</div>")


class ClassUploadPanel(widgets.VBox):
    """Upload button, progress bar (shown while files merge) and the result."""

    def __init__(self, on_files: Callable[[Sequence[tuple[str, bytes]]], None]) -> None:
        self.heading = widgets.HTML()
        self.upload = classed(ProgressUpload(multiple=True), "ld-class-upload")
        self.upload.on_files(on_files)
        self.help = widgets.HTML()
        self.bar = classed(widgets.IntProgress(value=0, min=0, max=1, bar_style="info",
                                               layout=widgets.Layout(display="none")),
                           "ld-merge-progress")
        self.result = classed(MergeResultView(students=True), "ld-merge-result")
        super().__init__([self.heading,
                          classed(widgets.HBox([self.upload, self.help]), "ld-upload-box"),
                          self.bar, self.result])
        classed(self, "ld-class-upload-panel")

    def relabel(self, lang: str) -> None:
        _ = translator(lang)
        self.heading.value = "<h3>" + html.escape(_("Students' progress files")) + "</h3>"
        self.upload.description = _("Upload progress files")
        self.upload.tooltip = _("Upload the progress files of your students (CSV)")
        self.bar.description = _("Merging")
        self.help.value = upload_help_html(lang)
        self.result.relabel(lang)

    def start(self, files: int) -> None:
        """Show the bar for ``files`` files."""
        self.bar.max = max(1, files)
        self.bar.value = 0
        self.bar.layout.display = ""

    def step(self, done: int, files: int) -> None:
        self.bar.max = max(1, files)
        self.bar.value = done

    def show_result(self, result: MergeResult | None, lang: str, error: str = "") -> None:
        self.bar.layout.display = "none"
        self.result.show(result, lang, error)
