"""The lesson builder's work: a teacher's choices (skills, tiles, bots, rounds, scaffolds)
made into a lesson file, checked like every lesson, saved where the play page finds it, and
the links that open it."""

from __future__ import annotations

import json
import os
import re
import unicodedata
from collections.abc import Collection, Iterable, Mapping
from pathlib import Path
from urllib.parse import quote, urlencode

from tutor.course.lesson_schema import LessonFile
from tutor.course.lessons import (
    LESSON_DIR,
    LESSON_ID,
    MAX_ID_LENGTH,
    LessonError,
    lesson_from_bytes,
    lesson_from_dict,
)
from tutor.course.paths import lesson_dirs, own_lessons_dir
from tutor.i18n import N_, translator
from tutor.storage.names import unnamed

__all__ = ["LessonExistsError", "build_lesson", "free_lesson_id", "lesson_file_bytes",
           "lesson_id_from_title", "lesson_links", "save_lesson", "taken_lesson_ids"]

BINDER_REPO_ENV = "LEONARD_BINDER_REPO"
"""``owner/repo`` of the project's GitHub repository, for Binder links (on Binder itself it
is read from ``BINDER_REPO_URL``)."""

FALLBACK_ID_STEM = "lesson"
"""The stem of the id made for a title with no letter or digit in it (``lesson-1``, …)."""


class LessonExistsError(LessonError):
    """:func:`save_lesson` kept a lesson of the same id (``lesson_id``): the teacher's own
    (``shipped`` false) or one shipped with the tutor (``shipped`` true)."""

    def __init__(self, source: str, problem: str, *, lesson_id: str, shipped: bool) -> None:
        super().__init__(source, problem, "id")
        self.lesson_id, self.shipped = lesson_id, shipped


def _slug(text: str) -> str:
    """``text`` as small letters, digits and dashes: accents folded (NFKD), anything else a
    dash, dashes collapsed and trimmed, cut to :data:`MAX_ID_LENGTH`; maybe empty."""
    folded = "".join(c for c in unicodedata.normalize("NFKD", text)
                     if not unicodedata.combining(c))
    slug = re.sub(r"[^a-z0-9]+", "-", folded.lower()).strip("-")
    return slug[:MAX_ID_LENGTH].rstrip("-")


def free_lesson_id(base: str, taken: Collection[str]) -> str:
    """``base`` if no lesson has it, else the first free ``base-2``, ``base-3``, … (cut so
    the id stays within :data:`MAX_ID_LENGTH`)."""
    if base not in taken:
        return base
    n = 2
    while True:
        tail = f"-{n}"
        candidate = base[:MAX_ID_LENGTH - len(tail)].rstrip("-") + tail
        if candidate not in taken:
            return candidate
        n += 1


def lesson_id_from_title(title: str, taken: Collection[str] = ()) -> str:
    """The lesson id the builder makes from ``title``: ``"Tabla del 6"`` → ``tabla-del-6``
    (small letters, accents folded, anything else a dash, at most :data:`MAX_ID_LENGTH`
    characters). A title with no letter or digit (``"★★★"``) gives the first of
    ``lesson-1``, ``lesson-2``, … not in ``taken``. Never empty; always a valid id. A made id
    may still be one in ``taken``: saving it then asks first (:func:`save_lesson`)."""
    slug = _slug(title)
    if slug:
        return slug
    n = 1
    while f"{FALLBACK_ID_STEM}-{n}" in taken:
        n += 1
    return f"{FALLBACK_ID_STEM}-{n}"


def taken_lesson_ids(folder: Path | None = None) -> set[str]:
    """The ids of the lessons in ``folder`` (default the builder's folder), the lessons
    folders (:func:`tutor.course.paths.lesson_dirs`) and the shipped lessons."""
    ids: set[str] = set()
    for place in {folder or own_lessons_dir(), *lesson_dirs(), LESSON_DIR}:
        try:
            ids.update(p.stem for p in place.glob("*.json") if LESSON_ID.fullmatch(p.stem))
        except OSError:
            continue
    return ids


def build_lesson(*, lesson_id: str, title: dict[str, str], description: dict[str, str],
                 targets: Iterable[str], rich_in: Iterable[str], bots: Iterable[str],
                 players: int, rounds: int, scaffold: Iterable[str],
                 ask: Iterable[str] = ("power", "round_end"), ask_bot_plays: bool = False,
                 lang: str = "en") -> dict[str, object]:
    """The lesson file (as JSON data: a :class:`~tutor.course.lesson_schema.LessonFile`) for
    the builder's form; raises :class:`LessonError` naming the field if it is not a lesson
    the tutor can play."""
    data: LessonFile = {
        "id": lesson_id.strip(),
        "title": {k: v.strip() for k, v in title.items()},
        "game": {"variant": "leonard", "players": players, "humans": [0],
                 "bots": list(bots) or ["greedy"], "rounds": rounds},
        "tutor": {"ask": list(ask), "targets": list(targets), "scaffold": list(scaffold),
                  "ask_bot_plays": ask_bot_plays},
    }
    if any(v.strip() for v in description.values()):
        data["description"] = {k: v.strip() for k, v in description.items()}
    rows = list(rich_in)
    if rows:
        data["game"]["rich_in"] = rows
    _checked(data, lang)  # the same checks as any file
    return dict(data)


def lesson_file_bytes(data: Mapping[str, object]) -> bytes:
    """The lesson file the builder writes for ``data`` (UTF-8 JSON, indented)."""
    return (json.dumps(data, ensure_ascii=False, indent=2) + "\n").encode("utf-8")


def _checked(data: Mapping[str, object], lang: str) -> bytes:
    """The file of ``data``, checked as the loader checks a file (its fields first, so a
    problem names its field; then the very bytes to write, by the loader's own function:
    size, encoding, JSON); :class:`LessonError` otherwise."""
    name = f"{data.get('id') or '?'}.json" if isinstance(data, dict) else "?.json"
    lesson_from_dict(data, name, lang)
    raw = lesson_file_bytes(data)
    lesson_from_bytes(raw, name, lang)
    return raw


def save_lesson(data: Mapping[str, object], folder: Path | None = None, *, lang: str = "en",
                replace: bool = False) -> Path:
    """Write a checked lesson to ``folder`` (default :func:`tutor.course.paths.own_lessons_dir`) as
    ``<id>.json``. A lesson of that id already there, or a lesson shipped with the tutor of
    that id (the teacher's would replace it for the whole class), is kept unless ``replace``
    (:class:`LessonExistsError`, which says to tick “Replace a lesson of the same name”).
    Nothing is left behind when it cannot be written."""
    _ = translator(lang)
    raw = _checked(data, lang)
    folder = folder or own_lessons_dir()
    lesson_id = str(data["id"])  # checked: a lesson id
    path = folder / f"{lesson_id}.json"
    if path.exists() and not replace:
        raise LessonExistsError(path.name, _(N_("a lesson with this name exists already: "
                                                "choose another name, or tick “Replace a "
                                                "lesson of the same name”")),
                                lesson_id=lesson_id, shipped=False)
    if not replace and (LESSON_DIR / path.name).is_file() and LESSON_DIR != folder:
        raise LessonExistsError(path.name, _(N_("a lesson shipped with the tutor has this "
                                                "name: yours would replace it for the whole "
                                                "class. Choose another name, or tick “Replace "
                                                "a lesson of the same name”")),
                                lesson_id=lesson_id, shipped=True)
    folder.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    try:
        tmp.write_bytes(raw)
        tmp.replace(path)
    finally:
        tmp.unlink(missing_ok=True)
    return path


def _binder_repo(env: dict[str, str]) -> str:
    m = re.match(r"https?://github\.com/([^/]+/[^/.]+)", env.get("BINDER_REPO_URL", ""))
    if m:
        return m[1]
    return env.get(BINDER_REPO_ENV, "<owner>/<repo>")


def lesson_links(lesson_id: str, lang: str = "es", *, ref: str = "main",
                 env: dict[str, str] | None = None, student: str | None = None,
                 class_code: str | None = None) -> dict[str, str]:
    """The links that open lesson ``lesson_id``: ``binder`` (a new Binder session of the
    repository: it works once the lesson file is in the repository's ``lessons/``),
    ``voila`` (this server, when the page knows its address) and ``relative`` (from a page
    in the same folder as Play.ipynb). ``student`` (and ``class_code``), when one is known,
    go into every link; without one the play page asks the student's name."""
    if not LESSON_ID.fullmatch(lesson_id):
        raise LessonError("", translator(lang)(N_("“{id}” is not the name of a lesson: a lesson "
                                                  "name has only small letters, digits and "
                                                  "dashes, like 01-other-end."))
                          .format(id=lesson_id))
    env = dict(os.environ if env is None else env)
    named = student is not None and not unnamed(student)
    query = urlencode({"lesson": lesson_id, "lang": lang,
                       **({"student": student} if named else {}),
                       **({"class": class_code} if named and class_code else {})})
    page = f"voila/render/notebooks/Play.ipynb?{query}"
    links = {
        "binder": f"https://mybinder.org/v2/gh/{_binder_repo(env)}/{ref}?urlpath="
                  + quote(page, safe=""),
        "relative": f"Play.ipynb?{query}",
    }
    host, script = env.get("SERVER_NAME"), env.get("SCRIPT_NAME", "")
    if host:
        port = env.get("SERVER_PORT", "")
        folder = script.rsplit("/", 1)[0] if script.endswith(".ipynb") else ""
        links["voila"] = (f"http://{host}{':' + port if port else ''}{folder}/Play.ipynb?"
                          f"{query}")
    return links
