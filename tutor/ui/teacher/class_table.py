"""The teacher page's class table: per student and skill, the first-try accuracy, mastery
(with the evidence it rests on), questions, hints, answers shown and time (as
:mod:`tutor.teaching.counts` counts them); and the same table as a CSV file to download. A button
per column
sorts the table by it (pressed again: the other way), so "who needs help with multiplying" is
one click: by skill, each skill's weakest students first."""

from __future__ import annotations

import base64
import functools
import html
from collections.abc import Callable, Sequence

import ipywidgets as widgets

from tutor.classroom.link import ANONYMOUS
from tutor.classroom.overview import ClassRow, class_csv
from tutor.i18n import N_, format_number, gettext, translator
from tutor.teaching.counts import MASTERY_LEGEND
from tutor.teaching.mastery import SKILL_NAMES, SKILLS
from tutor.ui.play.sheet import file_stem
from tutor.ui.shared.panel import Guard, classed
from tutor.ui.shared.tables import table_box

__all__ = ["COLUMNS", "ClassTablePanel", "class_csv_link_html", "class_table_html", "sort_rows"]

COLUMNS: tuple[tuple[str, str, str], ...] = (
    ("student", N_("Student"), ""),
    ("skill", N_("Skill"), ""),
    ("asked", N_("Questions"), "ld-num"),
    ("accuracy", N_("Right at the first try"), "ld-num"),
    ("mastery", N_("Mastery"), "ld-num"),
    ("mastered", N_("Mastered"), ""),
    ("hints", N_("Hints"), "ld-num"),
    ("revealed", N_("Shown the answer"), "ld-num"),
    ("seconds", N_("Mean seconds to answer"), "ld-num"),
)
"""The class table's columns: (sort key, header, CSS class), in order."""

_SORT_KEYS: dict[str, Callable[[ClassRow], str | float]] = {
    "student": lambda r: r.student.casefold(),
    "skill": lambda r: SKILLS.index(r.skill) if r.skill in SKILLS else len(SKILLS),
    "asked": lambda r: r.asked,
    "accuracy": lambda r: -1.0 if r.accuracy is None else r.accuracy,
    "mastery": lambda r: r.p_known,
    "mastered": lambda r: r.mastered,
    "hints": lambda r: r.hints,
    "revealed": lambda r: r.revealed,
    "seconds": lambda r: r.mean_seconds,
}


def sort_rows(rows: Sequence[ClassRow], key: str = "student",
              descending: bool = False) -> list[ClassRow]:
    """``rows`` sorted by the column ``key`` (:data:`COLUMNS`); rows equal in it stay in
    skill order (teaching order), the least mastered first, then by name. So by skill, each
    skill's students come weakest first; by student, each student's skills in order."""
    if key not in _SORT_KEYS:
        raise KeyError(key)
    skill = _SORT_KEYS["skill"]
    tied = sorted(rows, key=lambda r: (skill(r), r.p_known, r.student.casefold(), r.student))
    return sorted(tied, key=_SORT_KEYS[key], reverse=descending)  # stable: ties keep order


def _pct(value: float | None, lang: str) -> str:
    return "–" if value is None else f"{format_number(round(100 * value), lang)} %"


def _order_word(descending: bool, lang: str) -> str:
    _ = translator(lang)
    return _("descending") if descending else _("ascending")


def class_table_html(rows: Sequence[ClassRow], lang: str, sort: str | None = None,
                     descending: bool = False) -> str:
    """The class table: a caption, column headers and one row per student and skill, in the
    order given (``sort``: the column it is sorted by, which its header says with
    ``aria-sort`` and the caption in words)."""
    _ = translator(lang)
    if not rows:
        return ("<div class='ld-legend ld-empty'>"
                + html.escape(_("No answers yet: upload your students' progress files, or let "
                                "them play on this server.")) + "</div>")
    caption = _("The class, student by skill")
    heads = []
    for key, name, cls in COLUMNS:
        label = html.escape(_(name))
        if key == sort:
            order = "descending" if descending else "ascending"
            caption = _("The class, student by skill, sorted by {column} ({order})").format(
                column=_(name), order=_order_word(descending, lang))
            heads.append(f"<th scope='col' class='{cls} ld-sorted' aria-sort='{order}' "
                         f"data-sort='{key}'>{label}</th>")
        else:
            heads.append(f"<th scope='col' class='{cls}' data-sort='{key}'>{label}</th>")
    out = ["<table class='ld-class-table'><caption>" + html.escape(caption)
           + "</caption><thead><tr>" + "".join(heads) + "</tr></thead><tbody>"]
    for r in rows:
        mastered = _("yes") if r.mastered else _("no")
        out.append(
            f"<tr data-student='{html.escape(r.student)}' data-skill='{r.skill}'>"
            f"<th scope='row'>{html.escape(r.student)}</th>"
            f"<td>{html.escape(gettext(SKILL_NAMES[r.skill], lang))}</td>"
            f"<td class='ld-num'>{r.asked}</td>"
            f"<td class='ld-num'>{_pct(r.accuracy, lang)}</td>"
            f"<td class='ld-num'>{_pct(r.p_known, lang)}"
            f"<span class='ld-evidence'> ({html.escape(r.evidence(lang))})</span></td>"
            f"<td>{html.escape(mastered)}</td>"
            f"<td class='ld-num'>{r.hints}</td>"
            f"<td class='ld-num'>{r.revealed}</td>"
            f"<td class='ld-num'>{format_number(round(r.mean_seconds, 1), lang)}</td></tr>")
    out.append("</tbody></table>")
    return (table_box("".join(out), caption)
            + f"<div class='ld-legend ld-mastery-legend'>{html.escape(_(MASTERY_LEGEND))}</div>")


def class_csv_link_html(rows: Sequence[ClassRow], lang: str, class_code: str = "") -> str:
    """A link that downloads the class table as CSV (a spreadsheet opens it), named after
    the class code the page's link gives (``class-table-6B.csv``), if any."""
    _ = translator(lang)
    if not rows:
        return ""
    data = base64.b64encode(class_csv(rows).encode("utf-8")).decode("ascii")
    word = _("Download the class table (CSV)")
    name = html.escape(file_stem("class-table", ANONYMOUS, class_code) + ".csv")
    return (f"<a class='ld-download ld-class-csv' download='{name}' "
            f"href='data:text/csv;charset=utf-8;base64,{data}'>⬇ {html.escape(word)}</a>")


class ClassTablePanel(widgets.VBox):
    """The class table with its CSV link and a sort button per column. ``guard`` wraps the
    buttons' action (the page's: an unforeseen error is said on the page)."""

    def __init__(self, guard: Guard | None = None) -> None:
        self.heading = widgets.HTML()
        self.csv_link = classed(widgets.HTML(), "ld-class-csv-link")
        self.sort_label = classed(widgets.HTML(), "ld-sort-label")
        self.sort_buttons: dict[str, widgets.Button] = {}
        for key, _name, _cls in COLUMNS:
            button = classed(widgets.Button(layout=widgets.Layout(width="auto")),
                             "ld-sort-button", f"ld-sort-{key}")
            action = functools.partial(self._pressed, key)
            button.on_click(guard(action) if guard is not None else action)
            self.sort_buttons[key] = button
        self.sort_bar = classed(widgets.HBox([self.sort_label, *self.sort_buttons.values()]),
                                "ld-sort-buttons")
        self.table = classed(widgets.HTML(), "ld-class-table-box")
        self.sort_key = "student"
        self.descending = False
        self.rows: list[ClassRow] = []
        self.lang = "es"
        super().__init__([self.heading, self.csv_link, self.sort_bar, self.table])
        classed(self, "ld-class-table-panel")

    def render(self, rows: Sequence[ClassRow], lang: str, class_code: str = "") -> None:
        """Show ``rows`` (the CSV keeps their order; the table the chosen sort);
        ``class_code``: the class the page was opened for, in the CSV's file name."""
        _ = translator(lang)
        self.rows, self.lang = list(rows), lang
        self.heading.value = "<h3>" + html.escape(_("Class table")) + "</h3>"
        self.csv_link.value = class_csv_link_html(rows, lang, class_code)
        self._show()

    def _pressed(self, key: str, _button: object) -> None:
        self.sort(key)

    def sort(self, key: str) -> None:
        """Sort by the column ``key``; the column already sorted by: the other way."""
        if key not in _SORT_KEYS:
            raise KeyError(key)
        self.descending = not self.descending if key == self.sort_key else False
        self.sort_key = key
        self._show()

    def _show(self) -> None:
        _ = translator(self.lang)
        label = _("Sort the table by:")
        self.sort_label.value = f"<span class='ld-sort-label'>{html.escape(label)}</span>"
        for key, name, _cls in COLUMNS:
            button = self.sort_buttons[key]
            sorted_here = key == self.sort_key
            button.description = _(name) + (
                (" ▼" if self.descending else " ▲") if sorted_here else "")
            button.tooltip = _("Sort the class table by {column}").format(column=_(name))
            if sorted_here:
                button.add_class("ld-sorted")
            else:
                button.remove_class("ld-sorted")
        self.table.value = class_table_html(
            sort_rows(self.rows, self.sort_key, self.descending), self.lang, self.sort_key,
            self.descending)
