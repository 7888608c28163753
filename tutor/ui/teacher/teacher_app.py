"""The teacher page: the panels put together around the class's progress store. The page only
wires them: the header (title, language), the upload of students' files, the heat map, what
to do next for each student who has not mastered a skill
(:mod:`tutor.ui.teacher.next_steps_panel`), the class table with its CSV (sorted by any
column), each student's answers (their name opens them), the frequent mistakes (with the
students who made them), the assignments (:mod:`tutor.ui.teacher.assignments_panel`: made,
sent and followed student by student) and the lesson builder. Above them
the live view (:mod:`tutor.ui.teacher.live_panel`): who plays which lesson and who is stuck, read
again by its "Refresh" button and, on a shared store, every few seconds by itself: each tick
feeds the rows it read to every panel (issue 52 part 3)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

import ipywidgets as widgets

from tutor.classroom.live import (
    CountsMemo,
    LiveFeed,
    LiveView,
    class_counts,
    live_rows,
    marks_since,
)
from tutor.classroom.next_steps import next_steps
from tutor.classroom.overview import ClassRow, class_table, frequent_mistakes, merge_files
from tutor.classroom.student_answers import answers_by_student
from tutor.course.lessons import list_lessons
from tutor.i18n import N_, normalize_lang, translate_error, translator
from tutor.storage.records import Attempt, SessionMark, StoreError
from tutor.ui.shared.access import PageAccess, landmarks
from tutor.ui.shared.answer_list import StudentAnswersPanel
from tutor.ui.shared.page_header import PageHeader
from tutor.ui.shared.page_style import page_stylesheet
from tutor.ui.shared.panel import classed
from tutor.ui.teacher.assignments_panel import AssignmentsPanel
from tutor.ui.teacher.class_table import ClassTablePanel
from tutor.ui.teacher.class_upload import ClassUploadPanel
from tutor.ui.teacher.heat_map import HeatMapPanel
from tutor.ui.teacher.lesson_builder import BuilderPanel
from tutor.ui.teacher.live_panel import LivePanel, now_utc
from tutor.ui.teacher.mistakes import MistakesPanel
from tutor.ui.teacher.next_steps_panel import NextStepsPanel

if TYPE_CHECKING:
    from tutor.course.lessons import Lesson
    from tutor.storage.progress_store import ProgressStore

__all__ = ["TeacherPage"]

TITLE = N_("Leonard-Domino Tutor: teacher")
PANELS = {".ld-live-panel": N_("The class now"),
          ".ld-class-upload-panel": N_("Students' progress files"),
          ".ld-teacher-page > .ld-assignments": N_("Assignments"),
          ".ld-heat-panel": N_("Mastery of the class"),
          ".ld-next-steps-panel": N_("What to do next"),
          ".ld-class-table-panel": N_("Class table"),
          ".ld-student-answers-panel": N_("Each student's answers"),
          ".ld-mistakes-panel": N_("Most frequent mistakes, by skill"),
          ".ld-builder": N_("Lesson builder")}
"""Each panel's landmark region, named by its heading (:func:`landmarks`)."""


def _states(live: LiveView) -> dict[str, tuple[str, str]]:
    return {r.student: (r.state, r.lesson) for r in live.rows}


class TeacherPage(widgets.VBox):
    """The teacher page as one widget. ``store`` None: nothing can be read or merged (the
    lesson builder still works). ``live_seconds`` > 0: the live view reads the store again
    that often (a shared store, where the class plays as the teacher watches); ``clock``
    gives the live view's now (an aware datetime). ``class_code``: the class the page's link
    names (``Teacher.ipynb?class=6B``), in the names of the files it downloads."""

    def __init__(self, *, store: ProgressStore | None, lang: str = "es", notes: Sequence[str] = (),
                 lessons_folder: Path | None = None, live_seconds: float = 0.0,
                 clock: Callable[[], datetime] = now_utc, class_code: str = "") -> None:
        super().__init__()
        self.store = store
        self.class_code = class_code
        self.lang = normalize_lang(lang)
        self.rows: list[ClassRow] = []
        self.clock = clock
        self.live_seconds = max(0.0, live_seconds)
        self._titles: dict[str, dict[str, str]] = {}
        self._lessons: dict[str, Lesson] = {}
        self._counts: CountsMemo = {}
        """The live view's counts of each student, replayed again only on a new row."""
        self._feed = LiveFeed()
        """The class's rows as the live view read them: each tick reads only newer ones."""
        self._states: dict[str, tuple[str, str]] = {}
        """Each student's state (and lesson) at the last render of every panel."""
        self._marks: list[SessionMark] = []
        """The store's session marks: the lessons the play page ended ("finished", and done
        in an assignment) and the sessions that came in files (issue 52 part 3: the store
        keeps both, so a reload says the same). All of them at a refresh; each tick adds
        those of the live window (a mark is never changed or removed)."""
        self.header = PageHeader(TITLE, self.lang)
        self.header.on_lang(self.set_lang)
        self.access = PageAccess(lang=self.lang, tick_seconds=self.live_seconds)
        self.access.on_tick(self.header.guarded(self.refresh_live))
        self.live = LivePanel(on_refresh=self.header.guarded(self.refresh))
        self.upload = ClassUploadPanel(on_files=self.header.guarded(self.merge))
        self.heat_map = HeatMapPanel()
        self.table = ClassTablePanel(guard=self.header.guarded)
        self.next_steps = NextStepsPanel()
        self.answers = StudentAnswersPanel()
        self.mistakes = MistakesPanel()
        self.builder = BuilderPanel(lessons_folder, on_saved=self.header.guarded(
                                        lambda _path: self.lessons_changed()),
                                    origin=lambda: self.assignments.links.origin)
        self.assignments = AssignmentsPanel(store, class_code=class_code, clock=self.clock,
                                            guard=self.header.guarded)
        # The browser says the page's address once it is drawn: the next steps' links to
        # send are made whole from it (the assignment's link box makes them, issue 52).
        self.assignments.links.on_origin(
            self.header.guarded(lambda: self._render_all(self._feed.attempts())))
        self.children = [page_stylesheet(), self.header, self.access, self.live, self.upload,
                         self.assignments, self.heat_map, self.next_steps,
                         self.table, self.answers, self.mistakes, self.builder]
        classed(self, "ld-page", "ld-teacher-page")
        self.header.say(list(notes))
        self.relabel()
        self.refresh()

    def set_lang(self, lang: str) -> None:
        """Speak ``lang``: the page says everything again (:meth:`relabel`) and redraws its
        panels (:meth:`refresh`)."""
        self.lang = normalize_lang(lang)
        self.relabel()
        self.refresh()

    def relabel(self) -> None:
        for panel in (self.header, self.upload, self.builder, self.assignments):
            panel.relabel(self.lang)
        self.access.lang = self.lang
        self.access.set_attributes(landmarks(".ld-teacher-page", TITLE, PANELS, self.lang))
        self.live.relabel(self.lang, self.live_seconds)

    def refresh(self) -> None:
        """Every class panel from the store's attempts, read once (the "Refresh" button)."""
        self._titles.clear()  # a lesson built since has its title (and its caps)
        self._counts.clear()
        self._feed.reset()  # the whole class, read once; the ticks read from there on
        self._marks = []
        self._read_marks(since=None)
        attempts = ([a for _, a in self._feed.read(self.store)] if self.store is not None
                    else [])
        self._render_all(attempts)

    def _render_all(self, attempts: Sequence[Attempt]) -> LiveView:
        """Every class panel from ``attempts``: the live view first, whose states (one per
        student, :func:`tutor.classroom.live.student_state`) the assignment table and the
        next steps take, so no two panels say different things of a student."""
        live = self._render_live(attempts)
        self._states = _states(live)
        by_student = class_counts(attempts, self._lessons, self._counts)  # the live view's too
        self.rows = class_table(attempts, by_student=by_student)
        self.heat_map.render(self.rows, self.lang)
        self.table.render(self.rows, self.lang, self.class_code)
        self.next_steps.render(next_steps(attempts, self._installed(), self.clock(),
                                          by_student=by_student, live=live),
                               self.lang, self._lesson_titles(), self.class_code,
                               answered=bool(attempts), to_send=self.assignments.links.url_for)
        self.answers.render(answers_by_student(attempts), self.lang, self._lesson_titles())
        self.mistakes.render(frequent_mistakes(attempts), self.lang)
        # Guarded on its own: a store that cannot hold assignments leaves the rest shown.
        self.header.guarded(self.assignments.render)(attempts, self._lessons, self._lesson_titles(),
                                               self.lang, counts=by_student, live=live,
                                               marks=self._marks)
        return live

    def lessons_changed(self) -> None:
        """A lesson was saved by the builder: the lessons are read again, and the
        assignments' *Add a lesson* offers it at once (issue 52: it waited for Refresh)."""
        self._titles.clear()
        titles = self._lesson_titles()
        self.assignments.show_lessons(self._lessons, titles)

    def refresh_live(self) -> None:
        """The page's tick: the rows stored since the last read, folded into those read
        before (:class:`tutor.classroom.live.LiveFeed`: never the whole class again), feed
        the live view and, when a row came or a student's state changed (a student who
        stopped answering has left), every other panel too, from the same rows: the panels
        never disagree between two ticks (issue 52 part 3)."""
        self._read_marks(since=marks_since(self.clock()))
        new = self._feed.read(self.store) if self.store is not None else []
        attempts = self._feed.attempts()
        if new:
            self._render_all(attempts)
            return
        live = self._render_live(attempts)
        if _states(live) != self._states:
            self._render_all(attempts)

    def _read_marks(self, since: str | None) -> None:
        """Add the store's session marks made since ``since`` (None: all) to those read
        before (read before the rows: a mark is written after its rows, so none is read
        without them)."""
        if self.store is None:
            return
        known = set(self._marks)
        self._marks += [m for m in self.store.session_marks(since) if m not in known]

    def _render_live(self, attempts: Sequence[Attempt]) -> LiveView:
        titles = self._lesson_titles()
        view = live_rows(attempts, self.clock(), lessons=self._lessons, marks=self._marks,
                         memo=self._counts)
        self.live.render(view, self.lang, titles)
        return view

    def _installed(self) -> list[Lesson]:
        """The installed lessons, the ones a next step may send (read with their titles)."""
        self._lesson_titles()
        return list(self._lessons.values())

    def _lesson_titles(self) -> dict[str, str]:
        """Each lesson's title, by id, in the page's language (a lesson's answers show it);
        read once per language (with the lessons: their targets and caps say when a
        student's lesson is over)."""
        if self.lang not in self._titles:
            lessons = list_lessons(self.lang)
            self._lessons = {lesson.id: lesson for lesson in lessons}
            self._titles[self.lang] = {lesson.id: lesson.text("title", self.lang)
                                       for lesson in lessons}
        return self._titles[self.lang]

    def merge(self, files: Sequence[tuple[str, bytes]]) -> None:
        """Merge students' progress files into the store, the bar moving file by file."""
        if self.store is None:
            self.upload.show_result(None, self.lang, error=translator(self.lang)(
                N_("Progress cannot be saved here, so files cannot be merged.")))
            return
        self.upload.start(len(files))
        try:
            result = merge_files(self.store, files, self.lang, on_progress=self.upload.step)
        except StoreError as err:  # a busy file: what came before it is merged (in batches:
            # merging the same files again adds the rest, answers already there are skipped)
            self.refresh()
            self.upload.show_result(None, self.lang, error=translate_error(err, self.lang))
            return
        self.assignments.files_merged(result.by_file)
        # The class first, then the line that says it is done: a page that shows the line
        # shows the merged class.
        self.refresh()
        self.upload.show_result(result, self.lang)
