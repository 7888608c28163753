"""The teacher page's class table: per student and skill, the first-try accuracy, mastery,
questions, hints and time; and the same table as a CSV file to download."""

from __future__ import annotations

import base64
import html
from collections.abc import Sequence

import ipywidgets as widgets

from tutor.classroom import ClassRow, class_csv
from tutor.i18n import format_number, gettext, translator
from tutor.mastery import SKILL_NAMES

from .panel import classed

__all__ = ["ClassTablePanel", "class_csv_link_html", "class_table_html"]


def _pct(value: float | None, lang: str) -> str:
    return "–" if value is None else f"{format_number(round(100 * value), lang)} %"


def class_table_html(rows: Sequence[ClassRow], lang: str) -> str:
    """The class table: a caption, column headers and one row per student and skill."""
    _ = translator(lang)
    if not rows:
        return ("<div class='ld-legend ld-empty'>"
                + html.escape(_("No answers yet: upload your students' progress files, or let "
                                "them play on this server.")) + "</div>")
    head = [(_("Student"), ""), (_("Skill"), ""), (_("Questions"), "ld-num"),
            (_("Right at the first try"), "ld-num"), (_("Mastery"), "ld-num"),
            (_("Mastered"), ""), (_("Hints"), "ld-num"), (_("Mean seconds to answer"), "ld-num")]
    out = ["<table class='ld-class-table'><caption>"
           + html.escape(_("The class, student by skill")) + "</caption><thead><tr>"
           + "".join(f"<th scope='col' class='{c}'>{html.escape(h)}</th>" for h, c in head)
           + "</tr></thead><tbody>"]
    for r in rows:
        mastered = _("yes") if r.mastered else _("no")
        out.append(
            f"<tr data-student='{html.escape(r.student)}' data-skill='{r.skill}'>"
            f"<th scope='row'>{html.escape(r.student)}</th>"
            f"<td>{html.escape(gettext(SKILL_NAMES[r.skill], lang))}</td>"
            f"<td class='ld-num'>{r.asked}</td>"
            f"<td class='ld-num'>{_pct(r.accuracy, lang)}</td>"
            f"<td class='ld-num'>{_pct(r.p_known, lang)}</td>"
            f"<td>{html.escape(mastered)}</td>"
            f"<td class='ld-num'>{r.hints}</td>"
            f"<td class='ld-num'>{format_number(round(r.mean_seconds, 1), lang)}</td></tr>")
    out.append("</tbody></table>")
    return "".join(out)


def class_csv_link_html(rows: Sequence[ClassRow], lang: str) -> str:
    """A link that downloads the class table as CSV (a spreadsheet opens it)."""
    _ = translator(lang)
    if not rows:
        return ""
    data = base64.b64encode(class_csv(rows).encode("utf-8")).decode("ascii")
    word = _("Download the class table (CSV)")
    return (f"<a class='ld-download ld-class-csv' download='class-table.csv' "
            f"href='data:text/csv;charset=utf-8;base64,{data}'>⬇ {html.escape(word)}</a>")


class ClassTablePanel(widgets.VBox):  # type: ignore[misc]
    def __init__(self) -> None:
        self.heading = widgets.HTML()
        self.csv_link = classed(widgets.HTML(), "ld-class-csv-link")
        self.table = classed(widgets.HTML(), "ld-class-table-box")
        super().__init__([self.heading, self.csv_link, self.table])
        classed(self, "ld-class-table-panel")

    def render(self, rows: Sequence[ClassRow], lang: str) -> None:
        _ = translator(lang)
        self.heading.value = "<h3>" + html.escape(_("Class table")) + "</h3>"
        self.csv_link.value = class_csv_link_html(rows, lang)
        self.table.value = class_table_html(rows, lang)
