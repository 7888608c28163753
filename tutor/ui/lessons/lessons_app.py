"""The lessons page for students: the panels put together around the student's progress
store. The page only wires them: the header (title, language), the student's open
assignments first (issue 45), the lesson list, the progress files (download, load), and the
student's own answers, question by question (the list the teacher sees)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from datetime import datetime, timezone
from typing import TYPE_CHECKING

import ipywidgets as widgets

from tutor.classroom.link import ANONYMOUS, unnamed
from tutor.classroom.overview import (
    LessonProgress,
    lesson_progress,
    merge_student_files,
    reviews_due,
    saved_attempts,
)
from tutor.classroom.student_answers import student_answers
from tutor.classroom.student_assignments import UNREADABLE, MyAssignments, my_assignments
from tutor.course.lessons import list_lessons, shadowed_lessons
from tutor.i18n import N_, Message, normalize_lang, translate_error, translator
from tutor.storage.records import StoreError
from tutor.teaching.review import Due
from tutor.ui.lessons.assignments_panel import AssignmentsPanel
from tutor.ui.lessons.lesson_list import LessonListPanel
from tutor.ui.lessons.progress_files import ProgressFilesPanel
from tutor.ui.lessons.reviews import ReviewsPanel
from tutor.ui.shared.access import PageAccess, landmarks
from tutor.ui.shared.answer_list import OwnAnswersPanel
from tutor.ui.shared.name_form import NAME_INPUT, NameForm
from tutor.ui.shared.page_header import PageHeader
from tutor.ui.shared.page_style import page_stylesheet
from tutor.ui.shared.panel import classed, logged

if TYPE_CHECKING:
    from tutor.course.lessons import Lesson
    from tutor.storage.progress_store import ProgressStore
    from tutor.storage.records import Attempt

__all__ = ["LessonsPage"]

TITLE = N_("Leonard-Domino Tutor: lessons")
PANELS = {".ld-lesson-list": N_("Your lessons"),
          ".ld-progress-files": N_("My progress"),
          ".ld-own-answers-panel": N_("Your answers")}
"""Each panel's landmark region, named by its heading (:func:`landmarks`); the assignments
are a region of their own (a section named by its heading), the name form a form, and the
reviews due (none most days) say "Due for review" on each line."""

PROGRESS_LATER = N_("Your progress will be back when the class's store is: it cannot be reached "
                    "now. The lessons below open all the same, and your answers in them are "
                    "saved when it is back.")
"""Said while the store cannot answer (issue 51: the page was a Voilà error then)."""


class LessonsPage(widgets.VBox):
    """The lessons page as one widget. ``store`` None: progress cannot be saved here (the
    page still lists the lessons and links them). ``clock``: the time the reviews due are
    reckoned at (an aware UTC datetime; default the real time). ``ask_name``: a page without
    a student asks for the name (and class code) first; the links to the lessons then carry
    them, and the address bar's link too (a reload keeps them). ``link_values``: every value
    of the page's link (:attr:`tutor.classroom.link.Link.values`): an assignment's link
    carries the assignment (issue 45)."""

    def __init__(self, *, store: ProgressStore | None, student: str = ANONYMOUS, lang: str = "es",
                 lessons: Sequence[Lesson] | None = None, notes: Sequence[str] = (),
                 clock: Callable[[], datetime] | None = None, ask_name: bool = False,
                 class_code: str = "", link_values: Mapping[str, str] | None = None) -> None:
        super().__init__()
        self.class_code = class_code
        self.link_values: Mapping[str, str] = dict(link_values or {})
        self.clock = clock or (lambda: datetime.now(timezone.utc))

        self.store = store
        self.student = student
        self.lang = normalize_lang(lang)
        # In order of their ids: the shipped lessons are numbered (01-…), a teacher's own
        # lessons come after them.
        self.lessons = sorted(lessons if lessons is not None else list_lessons(self.lang),
                              key=lambda lesson: lesson.id)
        self.header = PageHeader(TITLE, self.lang)
        self.header.on_lang(self.set_lang)
        self.assignments = AssignmentsPanel()
        self.lesson_list = LessonListPanel()
        self.reviews = ReviewsPanel()
        self.files = ProgressFilesPanel(on_files=self.header.guarded(self.load))
        self.answers = OwnAnswersPanel()
        self.access = PageAccess(lang=self.lang)
        self.name_form = NameForm(saving=store is not None)
        self.name_form.on_name(self.header.guarded(self.name))
        self.access.on_name(self.header.guarded(self.name_form.hand_in))
        self.children = [page_stylesheet(), self.access, self.header, self.name_form,
                         self.assignments, self.reviews, self.lesson_list, self.files,
                         self.answers]
        classed(self, "ld-page", "ld-lessons-page")
        self._notes = list(notes)
        if lessons is None:  # a teacher's lesson played in place of a shipped one: said
            self._notes += [self._t(N_("Your teacher's lesson “{id}” replaces the lesson of "
                                       "that name shipped with the tutor.")).format(id=lesson_id)
                            for lesson_id in shadowed_lessons()]
        self.header.say(self._notes)
        self._show_name_form(ask_name and unnamed(student))
        if self.asking and class_code:  # an assignment's link names the class: kept
            self.name_form.class_in.value = class_code
        self.relabel()
        self.refresh()
        if self.asking:
            self.access.focus(NAME_INPUT)

    @property
    def asking(self) -> bool:
        """The page waits for the student's name."""
        return bool(self.name_form.layout.display != "none")

    def _show_name_form(self, shown: bool) -> None:
        self.name_form.layout.display = None if shown else "none"
        for part in (self.lesson_list, self.files):
            part.layout.display = "none" if shown else None

    def name(self, student: str, class_code: str = "") -> None:
        """The student said their name: their lessons and progress, links that carry the
        name, and the address bar's link too (a reload keeps it)."""
        self.student, self.class_code = student, class_code
        # The list is drawn with the name before it shows: a link clicked the moment it
        # appears already carries the name (the browser applies the changes in order).
        self.refresh()
        self._show_name_form(False)
        with self.access.hold_sync():
            self.access.student, self.access.class_code = student, class_code

    def progress(self) -> list[LessonProgress]:
        """Each lesson with this student's progress (none saved: nothing done yet)."""
        return lesson_progress(self._attempts(), self.lessons)

    def _attempts(self) -> list[Attempt]:
        return self.store.attempts(self.student) if self.store is not None else []

    def reviews_due(self) -> list[Due]:
        """This student's skills due for review now (:class:`tutor.teaching.review.Due`)."""
        return self._due(self._attempts())

    def _due(self, attempts: Sequence[Attempt]) -> list[Due]:
        params = {lesson.id: lesson.mastery for lesson in self.lessons}
        return reviews_due(attempts, self.clock(), params)

    def my_assignments(self, attempts: Sequence[Attempt] | None = None) -> MyAssignments:
        """The student's open assignments with their state now, and what could not be shown
        (a store that cannot answer, or answers in a way nobody foresaw, is a sentence: the
        lessons are listed all the same)."""
        if attempts is None:
            attempts = self._attempts()
        installed = {lesson.id: lesson for lesson in self.lessons}
        try:
            return my_assignments(self.store, self.student, self.class_code, self.link_values,
                                  installed, attempts, self.clock())
        except Exception as err:  # the lessons below must still be listed
            logged(err)
            return MyAssignments(notes=(Message(UNREADABLE, error=str(err) or
                                                type(err).__name__),))

    def refresh(self) -> None:
        """Draw the panels again with the student's progress read now; while the store cannot
        answer (an outage: :func:`saved_attempts` is None), the lessons without progress and
        a sentence that says it comes back with the store (the next refresh shows it)."""
        saved = saved_attempts(self.store, self.student)
        self.header.say(self._notes if saved is not None
                        else [*self._notes, self._t(PROGRESS_LATER)])
        attempts = saved or []
        titles = {lesson.id: lesson.text("title", self.lang) for lesson in self.lessons}
        self.assignments.render(self.my_assignments(attempts), self.lang, titles, self.student,
                                self.class_code)
        self.reviews.render(self._due(attempts), self.lang)
        self.lesson_list.render(lesson_progress(attempts, self.lessons), self.lang,
                                self.student, self.class_code)
        self.files.render(self.store, self.student, self.lang, self.class_code)
        self.answers.render(student_answers(attempts), self.lang, titles)

    def set_lang(self, lang: str) -> None:
        """Speak ``lang``: the page says everything again (:meth:`relabel`) and redraws its
        panels (:meth:`refresh`)."""
        self.lang = normalize_lang(lang)
        self.relabel()
        self.refresh()

    def relabel(self) -> None:
        self.header.relabel(self.lang)
        self.files.relabel(self.lang)
        self.name_form.relabel(self.lang)
        self.access.lang = self.lang
        self.access.set_attributes({**landmarks(".ld-lessons-page", TITLE, PANELS, self.lang),
                                    **self.name_form.attributes(self.lang)})

    def load(self, files: Sequence[tuple[str, bytes]]) -> None:
        """Merge the student's progress files into the store (a file of anyone else's answers
        is refused whole); a page without a student's name takes the file's."""
        if self.store is None:
            self.files.show_result(None, self.lang, error=self._t(
                N_("Progress cannot be saved here, so it cannot be loaded either.")))
            return
        try:
            result = merge_student_files(self.store, files, self.student, self.lang)
        except StoreError as err:
            self.files.show_result(None, self.lang, error=translate_error(err, self.lang))
            return
        if unnamed(self.student) and len(result.students) == 1 \
                and not unnamed(next(iter(result.students))):
            self.name(next(iter(result.students)), self.class_code)  # refreshes the page
        else:
            self.refresh()
        self.files.show_result(result, self.lang)

    def _t(self, message: str) -> str:
        return translator(self.lang)(message)
