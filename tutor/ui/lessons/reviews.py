"""The lessons page's reviews: the mastered skills due for review (tutor.teaching.review), each with
its name in the page's language and how long it has been due. The page's data layer
(tutor.classroom.overview.reviews_due) hands them in; this panel reads no store and no clock."""

from __future__ import annotations

import html
from collections.abc import Sequence

import ipywidgets as widgets

from tutor.i18n import N_, gettext, ngettext, translator
from tutor.teaching.mastery import SKILL_NAMES
from tutor.teaching.review import Due
from tutor.ui.shared.panel import classed

__all__ = ["ReviewsPanel", "reviews_html"]

DUE_FOR_REVIEW = N_("Due for review: {skill} ({since})")
DUE_TODAY = N_("due since today")
REVIEW_HOW = N_("Open any lesson: it starts with a few questions on these skills. A review "
                "passed brings the next one later; a review missed means the skill is to be "
                "mastered again.")


def _since(due: Due, lang: str) -> str:
    if due.days == 0:
        return gettext(DUE_TODAY, lang)
    return ngettext("due for {n} day", "due for {n} days", due.days, lang).format(n=due.days)


def reviews_html(dues: Sequence[Due], lang: str) -> str:
    """One line per skill due for review (nothing when none is due)."""
    if not dues:
        return ""
    _ = translator(lang)
    items = "".join(
        f"<li class='ld-review' data-skill='{html.escape(d.skill)}'>"
        + html.escape(_(DUE_FOR_REVIEW).format(skill=gettext(SKILL_NAMES[d.skill], lang),
                                               since=_since(d, lang)))
        + "</li>" for d in dues)
    return (f"<ul class='ld-reviews-due'>{items}</ul>"
            f"<div class='ld-legend'>{html.escape(_(REVIEW_HOW))}</div>")


class ReviewsPanel(widgets.HTML):
    def __init__(self) -> None:
        super().__init__()
        classed(self, "ld-reviews")

    def render(self, dues: Sequence[Due], lang: str) -> None:
        self.value = reviews_html(dues, lang)
