"""The lessons page's assignments, first on the page (issue 45): each open assignment with
its title, due date in the student's language, the student's state (not started; in
progress, with the lessons done of the total and the targets mastered; done, by mastery or
at a cap; overdue), and its lessons, each a link that plays it for the assignment. The page
hands in what to show (:func:`tutor.classroom.student_assignments.my_assignments`); this
panel reads no store and no clock."""

from __future__ import annotations

import html
from collections.abc import Mapping

import ipywidgets as widgets

from tutor.classroom.assignments import HOW_WORDS, STATE_WORDS, LessonState, due_text
from tutor.classroom.link import PLAY_PAGE
from tutor.classroom.student_assignments import (
    MyAssignment,
    MyAssignments,
    assignment_play_link,
)
from tutor.i18n import N_, ngettext, translator
from tutor.ui.shared.panel import classed

__all__ = ["AssignmentsPanel", "assignments_html"]

HEADING = N_("Your assignments")
DUE = N_("Due: {when}")
NO_DUE = N_("No due date")
GONE = N_("The lesson “{lesson}” of this assignment is no longer here; it is left out.")
LESSON_OVER = {"mastered": N_("mastered"), "cap": N_("over at its limit")}
STARTED = N_("started")
NOT_YET = N_("not yet")


def _progress(item: MyAssignment, lang: str) -> str:
    """"1 of 2 lessons done, 3 of 5 targets mastered"."""
    row = item.state
    lessons = ngettext("{done} of {total} lesson done", "{done} of {total} lessons done",
                       len(row.lessons), lang).format(done=row.done_lessons,
                                                      total=len(row.lessons))
    targets = ngettext("{mastered} of {total} target mastered",
                       "{mastered} of {total} targets mastered", row.targets,
                       lang).format(mastered=row.targets_mastered, total=row.targets)
    return f"{lessons}, {targets}"


def _state_html(item: MyAssignment, lang: str) -> str:
    _ = translator(lang)
    row = item.state
    word = _(STATE_WORDS[row.state])
    if row.state == "done":
        detail = _(HOW_WORDS[row.how]) if row.how else ""
    elif row.state == "not started":
        detail = ""
    else:
        detail = _progress(item, lang)
    said = f"{word[:1].upper()}{word[1:]}" + (f": {detail}" if detail else "")
    kind = row.state.replace(" ", "-")
    return (f"<p class='ld-assignment-state ld-state-{kind}' "
            f"data-state='{html.escape(row.state)}' data-how='{html.escape(row.how)}'>"
            f"{html.escape(said)}</p>")


def _lesson_mark(state: LessonState, lang: str) -> str:
    _ = translator(lang)
    if state.over is not None:
        how = "mastered" if state.over == "mastered" else "cap"
        return f"<span class='ld-done'>✔ {html.escape(_(LESSON_OVER[how]))}</span>"
    return f"<span class='ld-todo'>{html.escape(_(STARTED if state.started else NOT_YET))}</span>"


def _assignment_html(item: MyAssignment, lang: str, titles: Mapping[str, str], student: str,
                     class_code: str) -> str:
    _ = translator(lang)
    a = item.assignment
    due = due_text(a, lang)
    due_line = _(DUE).format(when=due) if due else _(NO_DUE)
    lessons = []
    for state in item.state.lessons:
        href = assignment_play_link(PLAY_PAGE, a, state.lesson, lang, student, class_code)
        title = titles.get(state.lesson, state.lesson)
        lessons.append(
            f"<li class='ld-assignment-lesson' data-lesson='{html.escape(state.lesson)}'>"
            f"<a class='ld-assignment-link' href='{html.escape(href)}'>{html.escape(title)}</a>"
            f" {_lesson_mark(state, lang)}</li>")
    notes = [n.translate(lang) for n in item.notes]
    notes += [_(GONE).format(lesson=lesson) for lesson in item.missing]
    notes_html = "".join(f"<li class='ld-msg'>{html.escape(n)}</li>" for n in notes)
    return (f"<article class='ld-assignment' data-assignment='{html.escape(a.id)}'>"
            f"<h4 class='ld-assignment-title'>{html.escape(a.title)}</h4>"
            f"<p class='ld-assignment-due'>{html.escape(due_line)}</p>"
            f"{_state_html(item, lang)}"
            + (f"<ol class='ld-assignment-lessons'>{''.join(lessons)}</ol>" if lessons else "")
            + (f"<ul class='ld-assignment-notes'>{notes_html}</ul>" if notes else "")
            + "</article>")


def assignments_html(mine: MyAssignments, lang: str, titles: Mapping[str, str], student: str,
                     class_code: str = "") -> str:
    """The assignments section (nothing when there is no assignment and nothing to say).
    ``titles``: each installed lesson's title in ``lang``."""
    if not mine.shown and not mine.notes:
        return ""
    _ = translator(lang)
    said = "".join(f"<p class='ld-msg ld-assignments-note'>{html.escape(n.translate(lang))}</p>"
                   for n in mine.notes)
    items = "".join(_assignment_html(item, lang, titles, student, class_code)
                    for item in mine.shown)
    return (f"<section class='ld-assignments' aria-labelledby='ld-assignments-heading'>"
            f"<h3 id='ld-assignments-heading'>{html.escape(_(HEADING))}</h3>"
            f"{said}{items}</section>")


class AssignmentsPanel(widgets.HTML):
    def __init__(self) -> None:
        super().__init__()
        classed(self, "ld-assignments-panel")

    def render(self, mine: MyAssignments, lang: str, titles: Mapping[str, str], student: str,
               class_code: str = "") -> None:
        self.value = assignments_html(mine, lang, titles, student, class_code)
