"""The teacher page's frequent mistakes: for each skill, the named mistakes the class makes
most, how often, by how many students and which (by name), with one answer that showed it."""

from __future__ import annotations

import html
from collections.abc import Mapping, Sequence

import ipywidgets as widgets

from tutor.classroom.overview import MISTAKE_NAMES, Mistake
from tutor.i18n import format_number, gettext, translator
from tutor.teaching.mastery import SKILL_NAMES, SKILLS
from tutor.ui.shared.panel import classed
from tutor.ui.shared.tables import table_box

__all__ = ["MistakesPanel", "mistakes_html"]


EXAMPLE_CHARS = 40
"""Characters shown of an example answer (a student's text may be long)."""


def _example(m: Mistake, lang: str) -> str:
    _ = translator(lang)
    answer = " ".join(m.example_input.split())
    if len(answer) > EXAMPLE_CHARS:
        answer = answer[:EXAMPLE_CHARS - 1] + "…"
    if m.example_expected is None:
        return _("answered “{answer}”").format(answer=answer)
    return _("answered “{answer}” where {expected} was right").format(
        answer=answer, expected=format_number(m.example_expected, lang))


def mistakes_html(mistakes: Mapping[str, Sequence[Mistake]], lang: str) -> str:
    """One table per skill (in teaching order) of its most frequent named mistakes."""
    _ = translator(lang)
    if not mistakes:
        return ("<div class='ld-legend ld-empty'>"
                + html.escape(_("No named mistakes yet.")) + "</div>")
    head = "".join(f"<th scope='col' class='{c}'>{html.escape(h)}</th>" for h, c in [
        (_("Mistake"), ""), (_("Times"), "ld-num"), (_("Students"), "ld-num"),
        (_("Which students"), ""), (_("Example"), "")])
    out = []
    for skill in [s for s in SKILLS if s in mistakes]:
        name = gettext(SKILL_NAMES[skill], lang)
        rows = "".join(
            f"<tr data-rule='{html.escape(m.rule)}'>"
            f"<th scope='row'>{html.escape(gettext(MISTAKE_NAMES.get(m.rule, m.rule), lang))}"
            f"</th><td class='ld-num'>{m.count}</td><td class='ld-num'>{m.students}</td>"
            f"<td class='ld-mistake-students'>{html.escape(', '.join(m.names))}</td>"
            f"<td>{html.escape(_example(m, lang))}</td></tr>"
            for m in mistakes[skill])
        out.append(table_box(f"<table class='ld-mistakes' data-skill='{skill}'><caption>"
                             f"{html.escape(name)}</caption><thead><tr>{head}</tr></thead>"
                             f"<tbody>{rows}</tbody></table>", name))
    return "".join(out)


class MistakesPanel(widgets.VBox):
    def __init__(self) -> None:
        self.heading = widgets.HTML()
        self.tables = classed(widgets.HTML(), "ld-mistakes-box")
        super().__init__([self.heading, self.tables])
        classed(self, "ld-mistakes-panel")

    def render(self, mistakes: Mapping[str, Sequence[Mistake]], lang: str) -> None:
        _ = translator(lang)
        self.heading.value = ("<h3>" + html.escape(_("Most frequent mistakes, by skill"))
                              + "</h3>")
        self.tables.value = mistakes_html(mistakes, lang)
