"""The lessons page's list: the lessons in order, each with the student's mastery of its
target skills, a "done" mark, and the link that opens it in the play page."""

from __future__ import annotations

import html
from collections.abc import Sequence

import ipywidgets as widgets

from tutor.classroom.link import PLAY_PAGE, page_link, unnamed
from tutor.classroom.overview import LessonProgress
from tutor.i18n import gettext, translator
from tutor.teaching.counts import MASTERY_LEGEND, evidence_text
from tutor.teaching.mastery import SKILL_NAMES, Mastery
from tutor.ui.shared.panel import classed
from tutor.ui.shared.tables import table_box

__all__ = ["LessonListPanel", "lesson_list_html"]

def _skills_html(row: LessonProgress, lang: str) -> str:
    _ = translator(lang)
    parts = []
    for skill, p_known, mastered in row.skills:
        name = gettext(SKILL_NAMES[skill], lang)
        pct = int(round(100 * p_known))
        mark = " ✔" if mastered else ""
        counts = row.evidence_of(skill)
        if counts is not None:
            evidence = counts.evidence(lang)
        else:  # not asked yet: what it needs from the lesson's own starting estimate
            fresh = Mastery(row.lesson.mastery)
            evidence = evidence_text(0, 0, 0, lang,
                                     to_master=fresh.answers_to_master(fresh.state(skill)))
        # One chip per skill, its bar under its name: the cell wraps between chips and
        # inside the evidence, instead of one line as wide as all the lesson's skills.
        parts.append(f"<span class='ld-skill' data-skill='{html.escape(skill)}'>"
                     f"<span class='ld-skill-name'>{html.escape(name)}: {pct}%{mark}</span> "
                     f"<span class='ld-bar' aria-hidden='true'>"
                     f"<span class='ld-bar-fill' style='width: {pct}%'></span></span> "
                     f"<span class='ld-evidence'>({html.escape(evidence)})</span></span>")
    return " ".join(parts) or html.escape(_("every skill"))


def lesson_list_html(rows: Sequence[LessonProgress], lang: str, student: str,
                     class_code: str = "") -> str:
    """The lessons as a table (caption, column headers): number, title (a link to play it,
    with its description), each target skill's mastery, questions answered, done or not."""
    _ = translator(lang)
    head = [_("No."), _("Lesson"), _("Mastery of its skills"), _("Questions answered"),
            _("Done")]
    cls = ["ld-num", "", "ld-skills", "ld-num", ""]
    caption = (_("Your lessons") if unnamed(student)
               else _("Lessons of {student}").format(student=student))
    done_word, todo_word = _("done"), _("not yet")
    out = [f"<table class='ld-lessons-table'><caption>{html.escape(caption)}</caption>"
           "<thead><tr>"
           + "".join(f"<th scope='col' class='{c}'>{html.escape(h)}</th>"
                     for h, c in zip(head, cls, strict=True))
           + "</tr></thead><tbody>"]
    for number, row in enumerate(rows, start=1):
        lesson = row.lesson
        href = page_link(PLAY_PAGE, lesson=lesson.id, lang=lang, student=student,
                         class_code=class_code)
        title = html.escape(lesson.text("title", lang))
        about = lesson.text("description", lang)
        about_html = f"<div class='ld-legend'>{html.escape(about)}</div>" if about else ""
        done = (f"<span class='ld-done'>✔ {html.escape(done_word)}</span>" if row.done
                else f"<span class='ld-todo'>{html.escape(todo_word)}</span>")
        out.append(
            f"<tr class='ld-lesson' data-lesson='{html.escape(lesson.id)}'>"
            f"<td class='ld-num'>{number}</td>"
            f"<th scope='row'><a class='ld-lesson-link' href='{html.escape(href)}'>{title}</a>"
            f"{about_html}</th>"
            f"<td class='ld-skills'>{_skills_html(row, lang)}</td>"
            f"<td class='ld-num'>{row.asked}</td>"
            f"<td class='ld-done-cell'>{done}</td></tr>")
    out.append("</tbody></table>")
    legend = _("The percentage is the chance you know the skill; ✔: mastered. A lesson is "
               "done when all its skills are mastered.")
    return (table_box("".join(out), caption)
            + f"<div class='ld-legend'>{html.escape(legend)}</div>"
            f"<div class='ld-legend ld-mastery-legend'>{html.escape(_(MASTERY_LEGEND))}</div>")


class LessonListPanel(widgets.HTML):
    def __init__(self) -> None:
        super().__init__()
        classed(self, "ld-lesson-list")

    def render(self, rows: Sequence[LessonProgress], lang: str, student: str,
               class_code: str = "") -> None:
        self.value = lesson_list_html(rows, lang, student, class_code)
