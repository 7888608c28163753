"""The teacher page's next steps (:mod:`tutor.classroom.next_steps`): for each student and
skill not mastered, what the answers show, what to do, and the link to send. Students stuck
now come first. Names are student text: every one is escaped."""

from __future__ import annotations

import html
from collections.abc import Callable, Mapping, Sequence

import ipywidgets as widgets

from tutor.classroom.next_steps import STUCK_WORDS, NextStep
from tutor.i18n import gettext, translator
from tutor.teaching.mastery import SKILL_NAMES
from tutor.ui.shared.panel import classed
from tutor.ui.shared.tables import table_box

__all__ = ["NextStepsPanel", "next_steps_html"]


def _student_html(step: NextStep, lang: str) -> str:
    _ = translator(lang)
    name = html.escape(step.student)
    if step.stuck is None:
        return name
    why = _(STUCK_WORDS.get(step.stuck, STUCK_WORDS["wrong"]))
    return f"{name}<br><span class='ld-stuck'>{html.escape(why)}</span>"


ToSend = Callable[[str, str], str]
"""The whole address to send for a page and its query (``page``, ``query``): the link box's
(:meth:`tutor.ui.teacher.link_box.LinkBox.url_for`), for where the teacher is."""


def _link_html(step: NextStep, lang: str, titles: Mapping[str, str], class_code: str,
               to_send: ToSend | None) -> str:
    href = step.link(lang, class_code)
    if href is None or step.lesson is None:
        return "–"
    title = titles.get(step.lesson, step.lesson)
    page, _sep, query = href.partition("?")
    shown = href if to_send is None else to_send(page, query)
    # The link opens here (beside this page); the address under it is the one to send.
    return (f"<a class='ld-next-link' href='{html.escape(href)}' target='_blank' "
            f"rel='noopener'>{html.escape(title)}</a><br>"
            f"<code class='ld-next-href'>{html.escape(shown)}</code>")


def next_steps_html(steps: Sequence[NextStep], lang: str,
                    titles: Mapping[str, str] | None = None, class_code: str = "", *,
                    answered: bool = True, to_send: ToSend | None = None) -> str:
    """The next steps as a table (caption, column headers), one row per student and skill,
    in the order given (stuck students first); each link carries ``class_code``.
    ``answered`` false: the class has no answer yet (nothing is mastered either: the page
    says so, issue 52). ``to_send`` makes the address shown under each link whole (issue
    52: a relative one is no link to paste in a message); without it, it is relative."""
    _ = translator(lang)
    titles = titles or {}
    if not answered:
        return ("<div class='ld-legend ld-empty'>" + html.escape(_(
            "No answers yet: the next steps appear once students have played.")) + "</div>")
    if not steps:
        return ("<div class='ld-legend ld-empty'>"
                + html.escape(_("Nothing to do: every skill asked is mastered.")) + "</div>")
    head = "".join(f"<th scope='col'>{html.escape(h)}</th>" for h in [
        _("Student"), _("Skill"), _("What the answers show"), _("What to do"),
        _("Link to send")])
    rows = []
    for s in steps:
        stuck = " ld-stuck-row" if s.stuck is not None else ""
        rows.append(
            f"<tr class='ld-next-step{stuck}' data-student='{html.escape(s.student)}' "
            f"data-skill='{s.skill}'>"
            f"<th scope='row'>{_student_html(s, lang)}</th>"
            f"<td>{html.escape(gettext(SKILL_NAMES[s.skill], lang))}</td>"
            f"<td>{html.escape(s.shows(lang))}</td>"
            f"<td>{html.escape(s.advice(lang, titles))}</td>"
            f"<td>{_link_html(s, lang, titles, class_code, to_send)}</td></tr>")
    caption = _("Next steps, student by student (stuck students first)")
    legend = _("The link opens the lesson on the play page under the student's name: send "
               "the address under it to them, or open the link on their computer.")
    return (table_box(f"<table class='ld-next-steps'><caption>{html.escape(caption)}</caption>"
                      f"<thead><tr>{head}</tr></thead><tbody>{''.join(rows)}</tbody></table>",
                      caption)
            + f"<div class='ld-legend'>{html.escape(legend)}</div>")


class NextStepsPanel(widgets.VBox):
    """A heading and the next steps' table."""

    def __init__(self) -> None:
        self.heading = widgets.HTML()
        self.table = classed(widgets.HTML(), "ld-next-steps-box")
        super().__init__([self.heading, self.table])
        classed(self, "ld-next-steps-panel")

    def render(self, steps: Sequence[NextStep], lang: str,
               titles: Mapping[str, str] | None = None, class_code: str = "", *,
               answered: bool = True, to_send: ToSend | None = None) -> None:
        """``answered`` false: the class has no answer yet; ``to_send``: as
        :func:`next_steps_html`'s."""
        _ = translator(lang)
        self.heading.value = "<h3>" + html.escape(_("What to do next")) + "</h3>"
        self.table.value = next_steps_html(steps, lang, titles, class_code,
                                           answered=answered, to_send=to_send)
