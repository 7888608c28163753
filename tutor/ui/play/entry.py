"""The notebook's one call: :func:`dashboard` reads the page's link, the lesson and the
progress store, and returns a ready :class:`~tutor.ui.play.app.TutorApp`."""

from __future__ import annotations

from collections.abc import Mapping
from os import PathLike
from typing import TYPE_CHECKING

from tutor.classroom.identity import hub_user
from tutor.classroom.link import read_link, unnamed
from tutor.classroom.request import page_query
from tutor.classroom.student_assignments import PlayAssignment, play_assignment
from tutor.course.lessons import (
    FALLBACK_ID,
    LessonError,
    default_lesson,
    list_lessons,
    load_lesson,
)
from tutor.i18n import N_, Message, translate_error, translator
from tutor.session.session import LessonSettings, Session
from tutor.storage.store import StoreError, open_store
from tutor.ui.play.app import TutorApp
from tutor.ui.play.round_end import Onward
from tutor.ui.shared.panel import UNFORESEEN, logged

if TYPE_CHECKING:
    from typing import Unpack

    from tutor.storage.progress_store import ProgressStore

__all__ = ["PAGE_BUSY_TIMEOUT", "PageSettings", "dashboard", "play_page"]

PAGE_BUSY_TIMEOUT = 0.5
"""Seconds the page waits for a busy progress file per try (two tries)."""



class PageSettings(LessonSettings, total=False):
    """What :func:`play_page` passes on to :func:`dashboard`: the link's defaults, the
    store and the lesson's settings to override."""

    lang: str
    student: str
    store: ProgressStore | str | PathLike[str] | None

def dashboard(lesson: str | None = None, *, ask_name: bool = False, lang: str = "es",
              student: str = "anon", store: ProgressStore | str | PathLike[str] | None = None,
              **settings: Unpack[LessonSettings]) -> TutorApp:
    """The Leonard-Domino dashboard, ready to display (the notebook's one call).

    A link can choose the lesson, language, seed and student:
    ``…/Play.ipynb?lesson=04-times&lang=en&seed=7&student=ana`` (see
    :mod:`tutor.classroom.link`; on a JupyterHub the signed-in user is the student). The lesson file
    gives the game and tutor settings (``settings`` override them); progress is saved as it
    happens in the progress store (``LEONARD_TUTOR_DB`` or the default path under the user's
    home). Whatever the link holds, the page opens: a value that cannot be used, a missing or
    broken lesson, or a progress file that cannot be opened is said on the page, in the
    student's language, and the page goes on with free play or without saving.

    ``ask_name`` (the play page's, :func:`play_page`): a page without a student, and not on a
    JupyterHub, asks for the student's name (and a class code) before the game starts; the
    game then starts for that student (see :mod:`tutor.ui.shared.name_form`).

    A link from an assignment (issue 45) carries ``assignment=<id>`` and maybe
    ``scaffolds=on|off``: the game's rows are tagged with the assignment
    (:func:`tutor.classroom.student_assignments.play_assignment`: not when its id is damaged
    or the store says it is another class's, which the page says), and scaffolds are on or
    off as the assignment sets them (absent: the lesson's own).
    """
    # A preheated kernel (standalone Voilà's pool) waits here for its page's request.
    link = read_link(page_query(), lang=lang, lesson=lesson, student=student)
    lang = link.lang
    _ = translator(lang)
    notes = link.note_texts()
    if link.seed is not None:
        settings["seed"] = link.seed
    chosen = None
    for lesson_id in dict.fromkeys([link.lesson or FALLBACK_ID, FALLBACK_ID]):
        try:
            chosen = load_lesson(lesson_id, lang)
            break
        except LessonError as err:
            notes.append(str(err))
    if chosen is None:
        chosen = default_lesson()
    if chosen.id != (link.lesson or FALLBACK_ID):
        notes.append(_("Playing free play instead."))
    if store is None:
        try:
            # A page answers at once: wait at most about a second for a busy progress file,
            # then keep the answers in memory and save them as soon as it is free.
            # Under a JupyterHub the store keeps this page to the hub user's own rows.
            store = open_store(lang=lang, busy_timeout=PAGE_BUSY_TIMEOUT, retries=1,
                               owner=link.student if hub_user() else None)
        except (StoreError, OSError) as err:
            notes.append(_("Progress cannot be saved here: {error}").format(
                error=translate_error(err, lang)))

    options: LessonSettings = {**settings}
    given = _assignment(link.values, store, lang)
    if given.note is not None:
        notes.append(given.note.translate(lang))
    if given.scaffold is not None and "scaffold" not in settings:
        options["scaffold"] = given.scaffold

    def start(student: str, lang: str, store: ProgressStore | str | PathLike[str] | None = store,
              notes: list[str] = notes) -> Session:
        """The game of ``student`` (the lesson's, else free play)."""
        try:
            return Session.from_lesson(chosen, lang=lang, student=student, store=store,
                                       assignment=given.tag, **options)
        except ValueError as err:  # a lesson the schema accepts but the game cannot start
            notes.append(translate_error(err, lang))
            notes.append(translator(lang)(N_("Playing free play instead.")))
            return Session.from_lesson(default_lesson(), lang=lang, student=student,
                                       store=store, **options)

    if ask_name and unnamed(link.student):
        # Until the student is named the page shows the form; this session, saving nothing,
        # only gives the panels something to draw. The student's own starts once named.
        session = start(link.student, lang, store=None)
        # (A lesson that fell back to free play said so already: its notes are not repeated.)
        app = TutorApp(session=session, ask_name=lambda name, lang_: start(name, lang_,
                                                                         notes=[]),
                       saving=store is not None, class_code=link.class_code)
    else:
        session = start(link.student, lang)
        app = TutorApp(session=session, class_code=link.class_code)
    app.lead_on(Onward(class_code=link.class_code, assignment=given.assignment,
                       title=_lesson_title))
    if notes:
        app.say(" ".join(notes), "msg")
        app.refresh()
    return app


def _lesson_title(lesson_id: str, lang: str) -> str:
    """A lesson's title in ``lang`` (its id if it cannot be read)."""
    try:
        return load_lesson(lesson_id, lang).text("title", lang)
    except LessonError:
        return lesson_id


def _assignment(values: Mapping[str, str], store: object,
                lang: str) -> PlayAssignment:
    """The link's assignment (:func:`play_assignment`); a store that answers in a way nobody
    foresaw leaves the game untagged, saying why, and the page opens all the same."""
    try:
        installed = ([lesson.id for lesson in list_lessons(lang)]
                     if values.get("lessons", "").strip() else [])
        return play_assignment(values, store, installed)
    except Exception as err:
        logged(err)
        return PlayAssignment(note=Message(UNFORESEEN, error=str(err) or type(err).__name__))


def play_page(lesson: str | None = None, **settings: Unpack[PageSettings]) -> TutorApp:
    """The play page (``notebooks/Play.ipynb``'s one call): :func:`dashboard` for a student
    who opens a shared link: without ``student=`` in it (and not on a JupyterHub, where the
    signed-in user is the student) it asks for the student's name before the game starts."""
    return dashboard(lesson, ask_name=True, **settings)
