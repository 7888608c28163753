"""A student's answers, question by question
(:func:`tutor.classroom.student_answers.student_answers`):
the same table on the teacher page, where each student's name opens theirs, and on the
lessons page, where a student sees their own. Names, typed answers and ids are student text:
every one is escaped."""

from __future__ import annotations

import html
from collections.abc import Mapping, Sequence

import ipywidgets as widgets

from tutor.classroom.overview import MISTAKE_NAMES
from tutor.classroom.student_answers import STEP_NAMES, AnsweredQuestion
from tutor.i18n import format_number, gettext, ngettext, translator
from tutor.teaching.mastery import SKILL_NAMES
from tutor.ui.shared.panel import classed
from tutor.ui.shared.tables import table_box

__all__ = ["OwnAnswersPanel", "StudentAnswersPanel", "answer_table_html", "answers_summary",
           "own_answers_html", "result_text", "student_answers_html"]

TYPED_CHARS = 40
"""Characters shown of one typed answer (an imported file's text may be long)."""


def _short(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= TYPED_CHARS else text[:TYPED_CHARS - 1] + "…"


def result_text(q: AnsweredQuestion, lang: str) -> str:
    """How the question ended, in a few words (and, for a question the counts leave out,
    that it is not counted)."""
    _ = translator(lang)
    if q.finished and not q.counted:
        return _ended(q, lang) + "; " + _("not counted (the same number was just asked)")
    return _ended(q, lang)


def _ended(q: AnsweredQuestion, lang: str) -> str:
    _ = translator(lang)
    if q.revealed:
        return _("shown the answer")
    if not q.finished:
        return _("not finished")
    if q.right_first:
        return _("right at the first try")
    if len(q.tries) > 1:
        return _("right at try {n}").format(n=len(q.tries))
    return ngettext("right after {n} hint", "right after {n} hints", q.hints_before_answer,
                    lang).format(n=q.hints_before_answer)


def _question_html(q: AnsweredQuestion, lang: str) -> str:
    kind = q.step_kind
    step = gettext(STEP_NAMES[kind], lang) if kind in STEP_NAMES else q.step
    tile = q.tile
    text = f"{tile}: {step}" if tile else step
    return html.escape(text)


def _typed_html(q: AnsweredQuestion, lang: str) -> str:
    _ = translator(lang)
    if not q.tries:
        return "–"
    parts = []
    for t in q.tries:
        mark, word, cls = (("✔", _("(right)"), "ld-ok") if t.correct
                           else ("✗", _("(wrong)"), "ld-wrong"))
        parts.append(f"<span class='ld-typed {cls}'>{html.escape(_short(t.input))} "
                     f"<span aria-hidden='true'>{mark}</span>"
                     f"<span class='ld-sr'>{html.escape(word)}</span></span>")
    return ", ".join(parts)


def _mistakes_html(q: AnsweredQuestion, lang: str) -> str:
    names = [gettext(MISTAKE_NAMES[m], lang) if m in MISTAKE_NAMES else m for m in q.mistakes]
    return html.escape("; ".join(names)) if names else "–"


def answer_table_html(questions: Sequence[AnsweredQuestion], lang: str, caption: str,
                      titles: Mapping[str, str] | None = None) -> str:
    """The answers as a table (caption, column headers): number, lesson (its title in
    ``titles``, by id, else its id), question, skill, the right answer, what was typed (each
    try, right or wrong), the named mistakes, hints, how it ended and the seconds it took."""
    _ = translator(lang)
    titles = titles or {}
    if not questions:
        return ("<div class='ld-legend ld-empty'>" + html.escape(_("No answers yet.")) + "</div>")
    head = [(_("No."), "ld-num"), (_("Lesson"), ""), (_("Question"), ""), (_("Skill"), ""),
            (_("Right answer"), "ld-num"), (_("Typed"), ""), (_("Mistake"), ""),
            (_("Hints"), "ld-num"), (_("Result"), ""), (_("Seconds"), "ld-num")]
    out = [f"<table class='ld-answers'><caption>{html.escape(caption)}</caption><thead><tr>"
           + "".join(f"<th scope='col' class='{c}'>{html.escape(h)}</th>" for h, c in head)
           + "</tr></thead><tbody>"]
    for number, q in enumerate(questions, start=1):
        expected = "–" if q.expected is None else format_number(q.expected, lang)
        skill = gettext(SKILL_NAMES[q.skill], lang) if q.skill in SKILL_NAMES else q.skill
        cls = "ld-answer-row" + (" ld-revealed" if q.revealed else "") + (
            " ld-right-first" if q.right_first else "")
        out.append(
            f"<tr class='{cls}' data-skill='{html.escape(q.skill)}'>"
            f"<td class='ld-num'>{number}</td>"
            f"<td>{html.escape(titles.get(q.lesson, q.lesson))}</td>"
            f"<th scope='row'>{_question_html(q, lang)}</th>"
            f"<td>{html.escape(skill)}</td>"
            f"<td class='ld-num'>{html.escape(expected)}</td>"
            f"<td class='ld-typed-cell'>{_typed_html(q, lang)}</td>"
            f"<td>{_mistakes_html(q, lang)}</td>"
            f"<td class='ld-num'>{q.hints}</td>"
            f"<td>{html.escape(result_text(q, lang))}</td>"
            f"<td class='ld-num'>{format_number(round(q.seconds), lang)}</td></tr>")
    out.append("</tbody></table>")
    return table_box("".join(out), caption)


def answers_summary(questions: Sequence[AnsweredQuestion], lang: str) -> str:
    """One line: questions, right at the first try, hints, answers shown, as the class table
    counts them (the questions it counts; hints and answers shown at every question)."""
    _ = translator(lang)
    n = sum(q.counted for q in questions)
    asked = ngettext("{n} question", "{n} questions", n, lang).format(n=n)
    return _("{questions}; right at the first try: {right}; hints: {hints}; shown the "
             "answer: {shown}").format(
        questions=asked, right=sum(q.right_first and q.counted for q in questions),
        hints=sum(q.hints for q in questions), shown=sum(q.revealed for q in questions))


def student_answers_html(by_student: Mapping[str, Sequence[AnsweredQuestion]], lang: str,
                         titles: Mapping[str, str] | None = None) -> str:
    """The teacher's list: each student's name, with a summary line, opens their answers (an
    HTML disclosure: a click, or Enter on the name, opens and closes it)."""
    _ = translator(lang)
    if not by_student:
        return ("<div class='ld-legend ld-empty'>" + html.escape(_("No answers yet.")) + "</div>")
    out = []
    for student, questions in by_student.items():
        name = html.escape(student)
        caption = _("The answers of {student}").format(student=student)
        out.append(
            f"<details class='ld-student-answers' data-student='{name}'>"
            f"<summary><span class='ld-student-name'>{name}</span> — "
            f"<span class='ld-legend'>{html.escape(answers_summary(questions, lang))}</span>"
            f"</summary>{answer_table_html(questions, lang, caption, titles)}</details>")
    return "".join(out)


def own_answers_html(questions: Sequence[AnsweredQuestion], lang: str,
                     titles: Mapping[str, str] | None = None) -> str:
    """The student's own list (the lessons page): the summary opens the same table the
    teacher sees."""
    _ = translator(lang)
    if not questions:
        return ("<div class='ld-legend ld-empty'>" + html.escape(_("No answers yet.")) + "</div>")
    summary = answers_summary(questions, lang)
    return (f"<details class='ld-own-answers'><summary>{html.escape(summary)}</summary>"
            + answer_table_html(questions, lang, _("Your answers, question by question"),
                                titles)
            + "</details>")


class StudentAnswersPanel(widgets.VBox):
    """The teacher page's "Each student's answers"."""

    def __init__(self) -> None:
        self.heading = widgets.HTML()
        self.list = classed(widgets.HTML(), "ld-student-answers-box")
        super().__init__([self.heading, self.list])
        classed(self, "ld-student-answers-panel")

    def render(self, by_student: Mapping[str, Sequence[AnsweredQuestion]], lang: str,
               titles: Mapping[str, str] | None = None) -> None:
        _ = translator(lang)
        legend = _("Open a student's name to see their answers, question by question.")
        self.heading.value = ("<h3>" + html.escape(_("Each student's answers")) + "</h3>"
                              f"<div class='ld-legend'>{html.escape(legend)}</div>")
        self.list.value = student_answers_html(by_student, lang, titles)


class OwnAnswersPanel(widgets.VBox):
    """The lessons page's "Your answers"."""

    def __init__(self) -> None:
        self.heading = widgets.HTML()
        self.list = classed(widgets.HTML(), "ld-own-answers-box")
        super().__init__([self.heading, self.list])
        classed(self, "ld-own-answers-panel")

    def render(self, questions: Sequence[AnsweredQuestion], lang: str,
               titles: Mapping[str, str] | None = None) -> None:
        _ = translator(lang)
        self.heading.value = "<h3>" + html.escape(_("Your answers")) + "</h3>"
        self.list.value = own_answers_html(questions, lang, titles)

