"""The teacher page's plot: a heat map of the class (a student a row, a skill a column),
coloured by mastery. It is a real table: every cell holds its number as text (and ✔ when
mastered), has headers to read it by, and its colours keep AA contrast (tutor.classroom.colours)."""

from __future__ import annotations

import html
from collections.abc import Sequence

import ipywidgets as widgets

from tutor.classroom.colours import MASTERED, MASTERY_STEPS, mastery_colours
from tutor.classroom.overview import ClassRow, class_grid
from tutor.i18n import format_number, gettext, ngettext, translator
from tutor.teaching.mastery import SKILL_NAMES
from tutor.ui.shared.panel import classed
from tutor.ui.shared.tables import table_box

__all__ = ["HeatMapPanel", "heat_legend_html", "heat_map_html"]


def _cell(row: ClassRow | None, student: str, skill: str, lang: str) -> str:
    _ = translator(lang)
    bg, fg = mastery_colours(None if row is None else row.p_known,
                             row is not None and row.mastered)
    style = f"background:{bg};color:{fg}"
    if row is None:
        return (f"<td class='ld-cell ld-not-asked' style='{style}' "
                f"data-skill='{skill}'>–</td>")
    pct = format_number(round(100 * row.p_known), lang)
    mark = " ✔" if row.mastered else ""
    acc = "–" if row.accuracy is None else f"{format_number(round(100 * row.accuracy), lang)} %"
    title = ngettext("{student}, {skill}: mastery {mastery} % ({evidence}), right at the "
                     "first try {accuracy}, {asked} question",
                     "{student}, {skill}: mastery {mastery} % ({evidence}), right at the "
                     "first try {accuracy}, {asked} questions", row.asked, lang).format(
        student=student, skill=gettext(SKILL_NAMES[skill], lang), mastery=pct,
        evidence=row.evidence(lang), accuracy=acc, asked=row.asked)
    return (f"<td class='ld-cell' style='{style}' data-skill='{skill}' "
            f"data-p='{row.p_known:.3f}' title='{html.escape(title)}'>{pct} %{mark}</td>")


def heat_map_html(rows: Sequence[ClassRow], lang: str) -> str:
    """The heat map of the class's mastery (student × skill), as an accessible table."""
    _ = translator(lang)
    students, skills, cells = class_grid(rows)
    if not students:
        return ("<div class='ld-legend ld-empty'>" + html.escape(_("No answers yet.")) + "</div>")
    head = "".join(f"<th scope='col'>{html.escape(gettext(SKILL_NAMES[s], lang))}</th>"
                   for s in skills)
    body = []
    for student in students:
        tds = "".join(_cell(cells.get((student, s)), student, s, lang) for s in skills)
        body.append(f"<tr data-student='{html.escape(student)}'>"
                    f"<th scope='row'>{html.escape(student)}</th>{tds}</tr>")
    caption = _("Mastery of each skill, by student (the chance the student knows it)")
    corner = _("Student")
    return table_box(f"<table class='ld-heat'><caption>{html.escape(caption)}</caption>"
                     f"<thead><tr><th scope='col'>{html.escape(corner)}</th>{head}</tr></thead>"
                     f"<tbody>{''.join(body)}</tbody></table>", caption) + heat_legend_html(lang)


def heat_legend_html(lang: str) -> str:
    """The colour scale, each colour with its meaning in words."""
    _ = translator(lang)
    low = 0
    swatches = []
    for bound, _bg in MASTERY_STEPS:
        high = min(100, round(100 * bound))
        bg, fg = mastery_colours((low + high) / 200)
        label = _("{low}–{high} %").format(low=low, high=high)
        swatches.append(f"<span class='ld-swatch' style='background:{bg};color:{fg}'>"
                        f"{html.escape(label)}</span>")
        low = high
    mastered, not_asked = _("mastered"), _("not asked")
    bg, fg = MASTERED, mastery_colours(1.0, mastered=True)[1]
    swatches.append(f"<span class='ld-swatch' style='background:{bg};color:{fg}'>✔ "
                    f"{html.escape(mastered)}</span>")
    bg, fg = mastery_colours(None)
    swatches.append(f"<span class='ld-swatch' style='background:{bg};color:{fg}'>– "
                    f"{html.escape(not_asked)}</span>")
    return f"<div class='ld-legend ld-heat-legend'>{''.join(swatches)}</div>"


class HeatMapPanel(widgets.VBox):
    def __init__(self) -> None:
        self.heading = widgets.HTML()
        self.map = classed(widgets.HTML(), "ld-heat-map")
        super().__init__([self.heading, self.map])
        classed(self, "ld-heat-panel")

    def render(self, rows: Sequence[ClassRow], lang: str) -> None:
        _ = translator(lang)
        self.heading.value = "<h3>" + html.escape(_("Mastery of the class")) + "</h3>"
        self.map.value = heat_map_html(rows, lang)
