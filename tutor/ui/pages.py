"""The lessons page's and the teacher page's one call (``notebooks/Lessons.ipynb`` and
``notebooks/Teacher.ipynb``): each reads the page's link and the progress store and returns
the page, ready to display."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, TypedDict

from tutor.classroom.identity import hub_user, is_teacher
from tutor.classroom.link import Link, read_link
from tutor.classroom.request import page_query
from tutor.i18n import N_, translate_error, translator
from tutor.storage.records import StoreError
from tutor.storage.store import open_store
from tutor.ui.lessons.lessons_app import LessonsPage
from tutor.ui.teacher.teacher_app import TeacherPage

if TYPE_CHECKING:
    from typing import Unpack

    from tutor.course.lessons import Lesson
    from tutor.storage.progress_store import ProgressStore

__all__ = ["LessonsPageOptions", "TeacherPageOptions", "lessons_page", "name_merge_notes",
           "teacher_page"]


class LessonsPageOptions(TypedDict, total=False):
    """:func:`lessons_page`'s keywords for :class:`~tutor.ui.lessons.lessons_app.LessonsPage`."""

    lessons: Sequence[Lesson] | None
    clock: Callable[[], datetime] | None
    ask_name: bool


class TeacherPageOptions(TypedDict, total=False):
    """:func:`teacher_page`'s keywords for :class:`~tutor.ui.teacher.teacher_app.TeacherPage`."""

    lessons_folder: Path | None
    live_seconds: float
    clock: Callable[[], datetime]

LIVE_SECONDS = 5.0
"""Seconds between the teacher page's live-view reads on a shared store (a hub's, or a
PostgreSQL database): the class plays while the teacher watches."""

STUDENT_BUSY_TIMEOUT = 0.5
"""Seconds a student's page waits for a busy progress file per try (two tries), as the play
page does; the teacher page waits as long as the command line does."""


def _link(lang: str, student: str) -> Link:
    return read_link(page_query(), lang=lang, student=student)


class _StoreOptions(TypedDict, total=False):
    busy_timeout: float
    retries: int
    owner: str | None


def _store(lang: str, notes: list[str], **options: Unpack[_StoreOptions]) -> ProgressStore | None:
    try:
        return open_store(lang=lang, **options)
    except (StoreError, OSError) as err:
        _ = translator(lang)
        notes.append(_("Progress cannot be saved here: {error}").format(
            error=translate_error(err, lang)))
        return None


def lessons_page(*, lang: str = "es", student: str = "anon", store: ProgressStore | None = None,
                 **settings: Unpack[LessonsPageOptions]) -> LessonsPage:
    """The lessons page for a student (the notebook's one call).

    ``…/Lessons.ipynb?lang=en&student=ana`` (see :mod:`tutor.classroom.link`; on a JupyterHub the
    signed-in user is the student): the lessons in order with the student's mastery of each
    one's skills and a done mark, each a link to play it, and the student's progress file to
    download and load again (on a new Binder session). ``store`` may be given in
    ``settings``; otherwise the progress store (``LEONARD_TUTOR_DB`` or the default path).
    A page without a student (and not on a JupyterHub) asks for the student's name first
    (see :mod:`tutor.ui.shared.name_form`; ``ask_name=False``: it does not); a progress file loaded
    names it too. The student's open assignments come first (issue 45: their class's, from
    the store; or the one an assignment's link carries, on Binder), each lesson a link that
    plays it for the assignment.
    """
    link = _link(lang, student)
    notes = link.note_texts()
    if store is None:
        # Under a JupyterHub the store keeps the page to the hub user's own rows.
        store = _store(link.lang, notes, busy_timeout=STUDENT_BUSY_TIMEOUT, retries=1,
                       owner=link.student if hub_user() else None)
    settings.setdefault("ask_name", True)
    return LessonsPage(store=store, student=link.student, lang=link.lang, notes=notes,
                       class_code=link.class_code, link_values=link.values, **settings)


NOT_A_TEACHER = N_("This page shows the whole class's progress, so only a teacher can open it. "
                   "{user}, your own progress is on the lessons page. (A teacher is a hub "
                   "admin or someone named in LEONARD_TEACHERS.)")


MERGED_NAMES = N_("On {date} the tutor found “{merged}” to be the name of “{kept}” written "
                  "another way{how}: their answers are now one student's, “{kept}”.")
SAME_LETTERS = N_(" (the same letters, typed with a separate accent mark)")
MERGE_DAYS = 30
"""Days the teacher page tells of names merged into one student (``Store.name_merges``)."""


def name_merge_notes(store: ProgressStore, lang: str, now: datetime | None = None) -> list[str]:
    """One sentence per pair of names the store merged into one student in the last
    :data:`MERGE_DAYS` days (issue 41: "José" typed two ways was two students)."""
    import unicodedata
    from datetime import timedelta, timezone

    now = now or datetime.now(timezone.utc)
    try:
        merges = store.name_merges()
    except StoreError:
        return []
    _ = translator(lang)
    notes = []
    for kept, merged, when in merges:
        try:
            day = datetime.fromisoformat(when.replace("Z", "+00:00"))
        except ValueError:
            continue
        if now - day > timedelta(days=MERGE_DAYS):
            continue
        same = unicodedata.normalize("NFC", merged) == unicodedata.normalize("NFC", kept)
        notes.append(_(MERGED_NAMES).format(date=day.strftime("%Y-%m-%d"), merged=merged,
                                            kept=kept, how=_(SAME_LETTERS) if same else ""))
    return notes


def teacher_page(*, lang: str = "es", student: str = "anon", store: ProgressStore | None = None,
                 **settings: Unpack[TeacherPageOptions]) -> TeacherPage:
    """The teacher page (the notebook's one call): ``…/Teacher.ipynb?lang=en`` (``&class=6B``:
    its downloads carry the class code). The class is every student in the progress store,
    with what their uploaded files add.

    Under a JupyterHub only a teacher (:func:`tutor.classroom.identity.is_teacher`) gets the class:
    anyone else gets the page's header and a sentence saying why, and no store is opened.
    Outside a hub the page is open to whoever runs it, as before. On a shared store (under
    a hub, or a PostgreSQL database) the live view reads the class every
    :data:`LIVE_SECONDS`; elsewhere on its "Refresh" button.
    """
    link = _link(lang, student)
    notes = link.note_texts()
    if not is_teacher():
        notes.append(translator(link.lang)(NOT_A_TEACHER).format(user=hub_user()))
        page = TeacherPage(store=None, lang=link.lang, notes=notes, **settings)
        page.children = page.children[:2]  # the style and the header with the sentence
        return page
    if store is None:
        store = _store(link.lang, notes)
    if store is not None:
        notes.extend(name_merge_notes(store, link.lang))
    shared = hub_user() is not None or (store is not None and store.kind == "postgresql")
    settings.setdefault("live_seconds", LIVE_SECONDS if shared and store is not None else 0.0)
    return TeacherPage(store=store, lang=link.lang, notes=notes, class_code=link.class_code,
                       **settings)
