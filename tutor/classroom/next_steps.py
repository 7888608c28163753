"""A next step for each student who has not mastered a skill (issue 43 part 3): what their
answers show, what to do, and the link to send.

For each student and each skill asked and not mastered (the mastery replayed from their
answers, :mod:`tutor.teaching.counts`) that a lesson they played practises, or whose
misconception they showed:

- a **misconception** their wrong answers showed since the skill was last mastered
  (:attr:`tutor.teaching.mastery.SkillState.shown`: a catalogue mistake the diagnosis named,
  of that very skill), the surest first (one no typing slip gives), then the most frequent:
  send the lesson that targets the skill, one with scaffolds first (the steps with blanks, or
  T asked first), so the student works the computation step by step;
- otherwise **more practice**: the questions so far and the right answers in a row still
  missing (:meth:`tutor.teaching.mastery.Mastery.answers_to_master`), with the lesson they
  practised it in when it targets the skill, else the lesson that does.

The link is the play page's (:func:`tutor.classroom.link.page_link`), with the student's
name, so it opens their lesson under their name. Students stuck now (the live view,
:mod:`tutor.classroom.live`) come first, then the others by name; each student's skills in
teaching order. Nothing here reads the store, the clock or the widgets.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING

from tutor.classroom.link import PLAY_PAGE, page_link
from tutor.classroom.live import LiveView, live_rows
from tutor.course.lessons import lesson_params
from tutor.i18n import N_, gettext, ngettext, translator
from tutor.storage.records import Attempt, Outcome
from tutor.teaching.counts import StudentCounts, counts_by_student
from tutor.teaching.diagnosis import LIKELIHOOD, MISTAKE_NAMES
from tutor.teaching.mastery import SKILL_NAMES, SKILLS, Params

if TYPE_CHECKING:
    from tutor.course.lessons import Lesson

__all__ = ["STUCK_WORDS", "NextStep", "lesson_for", "next_steps"]

STUCK_WORDS = {"wrong": N_("stuck now: wrong answers in a row")}
"""The live view's stuck reasons, as the next steps say them (a student with no answer for a
while has left: not stuck, :func:`tutor.classroom.live.student_state`)."""


@dataclass(frozen=True)
class NextStep:
    """What to do for one student and one skill not mastered."""

    student: str
    skill: str
    asked: int
    """Questions of the skill so far (:mod:`tutor.teaching.counts`)."""
    to_master: int
    """Right answers in a row still missing for mastery."""
    mistake: str | None
    """The misconception shown (a catalogue mistake's id), or None: more practice."""
    times: int
    """Wrong answers of the student that showed :attr:`mistake` (0 without one)."""
    lesson: str | None
    """The lesson to send (its id; None: no installed lesson asks the skill)."""
    scaffolds: bool
    """That lesson shows scaffolds (the steps with blanks, or T first)."""
    stuck: str | None
    """The live view's stuck reason now (``"wrong"``), or None."""

    def link(self, lang: str, class_code: str = "") -> str | None:
        """The play page's link to send (relative: beside this page), with the student's
        name and ``class_code`` (the class the teacher page was opened for, so the
        student's downloads carry it), or None."""
        if self.lesson is None:
            return None
        return page_link(PLAY_PAGE, lesson=self.lesson, lang=lang, student=self.student,
                         class_code=class_code)

    def shows(self, lang: str) -> str:
        """What the answers show, in words."""
        if self.mistake is None:
            return ngettext("needs more practice: {n} question so far",
                            "needs more practice: {n} questions so far", self.asked,
                            lang).format(n=self.asked)
        name = gettext(MISTAKE_NAMES.get(self.mistake, self.mistake), lang)
        return ngettext("shows the mistake “{mistake}” ({n} time)",
                        "shows the mistake “{mistake}” ({n} times)", self.times,
                        lang).format(mistake=name, n=self.times)

    def advice(self, lang: str, titles: Mapping[str, str]) -> str:
        """What to do, in words (``titles``: each lesson's title by id)."""
        _ = translator(lang)
        missing = ngettext("{n} more right in a row for mastery",
                           "{n} more right in a row for mastery", self.to_master,
                           lang).format(n=self.to_master)
        if self.lesson is None:
            return _("Practise it with the student: {missing}.").format(missing=missing)
        title = titles.get(self.lesson, self.lesson)
        if self.mistake is not None and self.scaffolds:
            text = _("Send “{lesson}”: it practises {skill} step by step, with scaffolds.")
        elif self.mistake is not None:
            text = _("Send “{lesson}”: it practises {skill}.")
        else:
            text = _("Send “{lesson}” to practise {skill}.")
        return text.format(lesson=title, skill=gettext(SKILL_NAMES[self.skill], lang)) + (
            " " + _("Still missing: {missing}.").format(missing=missing))


def lesson_for(skill: str, lessons: Sequence[Lesson], scaffolds: bool = True,
               current: str | None = None) -> Lesson | None:
    """The lesson to send for ``skill``: ``current`` (the lesson the student practised it
    in) if it targets the skill and (``scaffolds``) shows scaffolds or none does; else, of
    the lessons targeting it, one with scaffolds first (``scaffolds``), the one targeting
    fewest skills (it asks most about this one), the first in order. None: no lesson targets
    it."""
    targeting = [lesson for lesson in lessons if skill in lesson.targets]
    if not targeting:
        return None
    want = scaffolds and any(lesson.scaffold for lesson in targeting)
    for lesson in targeting:
        if lesson.id == current and (lesson.scaffold or not want):
            return lesson
    return min(targeting, key=lambda lesson: (want and not lesson.scaffold,
                                              len(lesson.targets), targeting.index(lesson)))


def _shown_times(attempts: Iterable[Attempt]) -> dict[tuple[str, str], int]:
    """Per (student, catalogue mistake), the wrong answers the diagnosis named it in."""
    out: dict[tuple[str, str], int] = {}
    for a in attempts:
        if a.outcome is Outcome.INCORRECT and a.feedback in MISTAKE_NAMES:
            key = (a.student, a.feedback)
            out[key] = out.get(key, 0) + 1
    return out


def _practised(counts: StudentCounts, lessons: Sequence[Lesson]) -> frozenset[str]:
    """The skills the lessons the student played practise (their focus: the targets, or a
    game's skills); every skill when one of them is not among ``lessons``."""
    by_id = {lesson.id: lesson for lesson in lessons}
    out: set[str] = set()
    for lesson_id in {q.lesson for q in counts.questions}:
        lesson = by_id.get(lesson_id)
        if lesson is None:
            return frozenset(SKILLS)
        out |= lesson.plan.focus
    return frozenset(out)


def _steps_of(counts: StudentCounts, lessons: Sequence[Lesson],
              times: Mapping[tuple[str, str], int], stuck: str | None) -> list[NextStep]:
    """The student's steps: each skill asked and not mastered that a lesson they played
    practises, or whose misconception they showed (a skill a lesson met only now and then,
    with no misconception, is no step of its own)."""
    out = []
    practised = _practised(counts, lessons)
    for c in counts.skills:
        if c.mastered or not c.asked or c.skill not in SKILLS:
            continue
        st = counts.mastery.states.get(c.skill)
        shown = sorted(st.shown, key=lambda m: (
            m not in st.sure, -times.get((counts.student, m), 0),
            LIKELIHOOD.index(m) if m in LIKELIHOOD else len(LIKELIHOOD), m)) if st else []
        mistake = shown[0] if shown else None
        if mistake is None and c.skill not in practised:
            continue
        current = next((q.lesson for q in reversed(counts.questions) if q.skill == c.skill),
                       None)
        lesson = lesson_for(c.skill, lessons, scaffolds=mistake is not None, current=current)
        out.append(NextStep(
            student=counts.student, skill=c.skill, asked=c.asked,
            to_master=c.to_master if c.to_master is not None else 0, mistake=mistake,
            times=times.get((counts.student, mistake), 0) if mistake else 0,
            lesson=lesson.id if lesson is not None else None,
            scaffolds=bool(lesson is not None and lesson.scaffold), stuck=stuck))
    return out


def next_steps(attempts: Sequence[Attempt], lessons: Sequence[Lesson], now: datetime,
               params: dict[str, Params] | None = None,
               by_student: Mapping[str, StudentCounts] | None = None,
               live: LiveView | None = None) -> list[NextStep]:
    """The next step of each student (``attempts``: the class's) for each skill asked and not
    mastered that the lessons they played practise or whose misconception they showed:
    stuck students (by the live view at ``now``) first, then by name; ``lessons``: the
    lessons that may be sent (the installed ones); ``params``: each lesson's knowledge
    tracing by id (default: the installed lessons'); ``by_student``: the counts of
    ``attempts`` if already made (:func:`tutor.teaching.counts.counts_by_student`);
    ``live``: the live view the page shows (default: made here from ``attempts``), so that
    the stuck students are the ones it lists."""
    if by_student is None:
        by_student = counts_by_student(attempts, lesson_params() if params is None else params)
    if live is None:
        live = live_rows(attempts, now)
    stuck = {r.student: r.stuck for r in live.stuck}
    times = _shown_times(attempts)
    names = sorted(by_student, key=lambda s: (s not in stuck, s.casefold(), s))
    return [step for name in names
            for step in _steps_of(by_student[name], lessons, times, stuck.get(name))]
