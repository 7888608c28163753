"""The notebook's one call: :func:`dashboard` reads the page's link, the lesson and the
progress store, and returns a ready :class:`~tutor.ui.app.TutorApp`."""

from __future__ import annotations

from typing import Any

from tutor.i18n import translate_error, translator
from tutor.link import read_link
from tutor.request import page_query
from tutor.session import Session

from .app import TutorApp

__all__ = ["PAGE_BUSY_TIMEOUT", "dashboard"]

PAGE_BUSY_TIMEOUT = 0.5
"""Seconds the page waits for a busy progress file per try (two tries)."""


def dashboard(lesson: str | None = None, **settings: Any) -> TutorApp:
    """The Leonard-Domino dashboard, ready to display (the notebook's one call).

    A link can choose the lesson, language, seed and student:
    ``…/Play.ipynb?lesson=04-times&lang=en&seed=7&student=ana`` (see
    :mod:`tutor.link`; on a JupyterHub the signed-in user is the student). The lesson file
    gives the game and tutor settings (``settings`` override them); progress is saved as it
    happens in the progress store (``LEONARD_TUTOR_DB`` or the default path under the user's
    home). Whatever the link holds, the page opens: a value that cannot be used, a missing or
    broken lesson, or a progress file that cannot be opened is said on the page, in the
    student's language, and the page goes on with free play or without saving.
    """
    from tutor.identity import hub_user
    from tutor.lessons import FALLBACK_ID, LessonError, default_lesson, load_lesson
    from tutor.store import Store, StoreError

    # A preheated kernel (standalone Voilà's pool) waits here for its page's request.
    link = read_link(page_query(), lang=settings.pop("lang", "es"),
                     lesson=lesson, student=settings.pop("student", "anon"))
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
    store = settings.pop("store", None)
    if store is None:
        try:
            # A page answers at once: wait at most about a second for a busy progress file,
            # then keep the answers in memory and save them as soon as it is free.
            # Under a JupyterHub the store keeps this page to the hub user's own rows.
            store = Store(lang=lang, busy_timeout=PAGE_BUSY_TIMEOUT, retries=1,
                          owner=link.student if hub_user() else None)
        except (StoreError, OSError) as err:
            notes.append(_("Progress cannot be saved here: {error}").format(
                error=translate_error(err, lang)))
    try:
        session = Session.from_lesson(chosen, lang=lang, student=link.student, store=store,
                                      **{**settings, "auto_bots": False})
    except ValueError as err:  # a lesson the schema accepts but the game cannot start
        notes.append(translate_error(err, lang))
        notes.append(_("Playing free play instead."))
        session = Session.from_lesson(default_lesson(), lang=lang, student=link.student,
                                      store=store, **{**settings, "auto_bots": False})
    app = TutorApp(session=session)
    if notes:
        app._say(" ".join(notes), "msg")
        app.refresh()
    return app
