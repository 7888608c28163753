"""The notebook's one call: :func:`dashboard` reads the page's link, the lesson and the
progress store, and returns a ready :class:`~tutor.ui.app.TutorApp`."""

from __future__ import annotations

from typing import Any

from tutor.i18n import N_, normalize_lang, translator
from tutor.session import Session

from .app import TutorApp

__all__ = ["dashboard"]


def _query() -> dict[str, str]:
    """The page's query string: Voilà hands it to the kernel as ``QUERY_STRING``."""
    import os
    from urllib.parse import parse_qsl

    return dict(parse_qsl(os.environ.get("QUERY_STRING", "")))


def dashboard(lesson: str | None = None, **settings: Any) -> TutorApp:
    """The Leonard-Domino dashboard, ready to display (the notebook's one call).

    A link can choose the lesson, language, seed and student:
    ``…/Play.ipynb?lesson=first-steps&lang=en&seed=7&student=ana``. The lesson file gives the
    game and tutor settings (``settings`` override them); progress is saved as it happens in
    the progress store (``LEONARD_TUTOR_DB`` or the default path under the user's home).
    A link value that cannot be used is ignored, and the page says so.
    """
    from tutor.lessons import LessonError, load_lesson
    from tutor.store import Store, StoreError

    query = _query()
    notes: list[str] = []
    lang = settings.pop("lang", "es")
    try:
        lang = normalize_lang(query.get("lang", lang))
    except ValueError:
        notes.append(N_("The link's language is unknown; using Spanish."))
        lang = "es"
    _ = translator(lang)
    if "seed" in query:
        try:
            settings["seed"] = int(query["seed"])
        except ValueError:
            notes.append(N_("The link's seed is not a whole number; dealing at random."))
    name = query.get("lesson", lesson) or "free-play"
    try:
        chosen = load_lesson(name, lang)
    except LessonError as err:
        notes.append(str(err))
        chosen = load_lesson("free-play", lang)
    student = query.get("student", settings.pop("student", "anon"))[:60] or "anon"
    store = settings.pop("store", None)
    if store is None:
        try:
            store = Store(lang=lang)
        except (StoreError, OSError) as err:
            notes.append(_("Progress cannot be saved here: {error}").format(error=err))
    session = Session.from_lesson(chosen, lang=lang, student=student, store=store,
                                  **{**settings, "auto_bots": False})
    app = TutorApp(session=session)
    if notes:
        app._say(" ".join(_(n) for n in notes), "msg")
        app.refresh()
    return app
