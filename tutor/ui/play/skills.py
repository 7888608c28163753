"""The skills panel: for the student whose question or turn it is, a mastery bar and a
first-try bar per skill the lesson practises (and any other skill asked)."""

from __future__ import annotations

import html

import ipywidgets as widgets

from tutor.classroom.link import unnamed
from tutor.i18n import translator
from tutor.session.snapshot import Snapshot
from tutor.teaching.mastery import SKILL_NAMES
from tutor.ui.shared.access import Attributes

__all__ = ["SkillsPanel", "mastery_html"]


def mastery_html(view: Snapshot, lang: str) -> str:
    """One pair of bars per skill shown (the lesson's targets, and any skill asked): mastery
    and first-try accuracy, for the student whose question or turn it is."""
    _ = translator(lang)
    rows = []
    for st in view.skills:
        m = int(round(100 * st.p_known))
        acc = st.accuracy
        a = 0 if acc is None else int(round(100 * acc))
        a_text = "–" if acc is None else f"{a}%"
        star = " ★" if st.mastered else ""
        rows.append(
            f"<div class='ld-bar-row'><span>{html.escape(_(SKILL_NAMES[st.skill]))}{star}"
            f"<br><small class='ld-evidence'>{html.escape(st.evidence(lang))}</small></span>"
            f"<div><div class='ld-bar m' title='{m}%'><span style='width:{m}%'></span></div>"
            f"<div class='ld-bar a' title='{a_text}'><span style='width:{a}%'></span></div>"
            f"</div><span>{m}%</span></div>")
    legend = _("green: mastery (chance you know it) · blue: right on the first try")
    title = (_("Your skills") if unnamed(view.student)
             else _("Skills of {student}").format(student=view.student))
    return (f"<b>{html.escape(title)}</b><div class='ld-bars'>{''.join(rows)}</div>"
            f"<div class='ld-legend'>{html.escape(legend)}</div>")


class SkillsPanel(widgets.HTML):
    def __init__(self) -> None:
        super().__init__()
        self.add_class("ld-mastery")
        self.add_class("ld-card")

    def attributes(self, lang: str) -> Attributes:
        _ = translator(lang)
        return {".ld-mastery": {"role": "region", "aria-label": _("Skills")}}

    def render(self, view: Snapshot) -> None:
        self.value = mastery_html(view, view.lang)
