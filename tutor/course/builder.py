"""The lesson builder's work: a teacher's choices (skills, tiles, bots, rounds, scaffolds)
made into a lesson file, checked like every lesson, saved where the play page finds it, and
the links that open it."""

from __future__ import annotations

import json
import os
import re
import unicodedata
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass
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

__all__ = ["BINDER_REF_ENV", "BINDER_REPO_ENV", "LessonExistsError", "PageUrls", "build_lesson",
           "free_lesson_id", "lesson_file_bytes", "lesson_id_from_title", "lesson_links",
           "page_urls", "save_lesson", "taken_lesson_ids"]

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


BINDER_REF_ENV = "LEONARD_BINDER_REF"
"""The branch, tag or commit of the repository that Binder links open (default ``main``; on
Binder itself the one this session was built from, read from ``BINDER_REF_URL``)."""
BINDER_HOST = "https://mybinder.org/"
NOTEBOOKS_PATH = "voila/render/notebooks/"
"""Where the pages are served on Binder (and on a regular install under Jupyter Server)."""


@dataclass(frozen=True)
class PageUrls:
    """The links that open one page of the pages' folder (:func:`page_urls`): ``relative``
    (from a page of the same folder), ``server`` (this server's whole address; ``""`` when
    the page does not know it) and ``binder`` (a new Binder session of the repository,
    ``binder_repo`` at ``binder_ref``, read from ``binder_from``: the variables it came from,
    ``""`` when no repository is named and the link holds ``<owner>/<repo>``).
    ``on_binder``: this page runs on Binder, whose own address is a temporary one."""

    relative: str
    server: str
    binder: str
    binder_repo: str
    binder_ref: str
    binder_from: tuple[str, ...]
    on_binder: bool

    @property
    def to_send(self) -> str:
        """The link that opens the page for someone else: the Binder link on Binder, else this
        server's (the relative one if the page does not know its address)."""
        if self.on_binder:
            return self.binder
        return self.server or self.relative


def _binder_repo(env: Mapping[str, str]) -> tuple[str, str]:
    """The repository Binder links open and the variable it was read from."""
    m = re.match(r"https?://github\.com/([^/]+/[^/.]+)", env.get("BINDER_REPO_URL", ""))
    if m:
        return m[1], "BINDER_REPO_URL"
    repo = env.get(BINDER_REPO_ENV, "").strip()
    if re.fullmatch(r"[\w.-]+/[\w.-]+", repo):
        return repo, BINDER_REPO_ENV
    return "<owner>/<repo>", ""


def _binder_ref(env: Mapping[str, str]) -> tuple[str, str]:
    ref = env.get(BINDER_REF_ENV, "").strip()
    if re.fullmatch(r"[\w./-]+", ref):
        return ref, BINDER_REF_ENV
    m = re.match(r"https?://github\.com/[^/]+/[^/]+/tree/([\w./-]+)$",
                 env.get("BINDER_REF_URL", ""))
    if m:
        return m[1], "BINDER_REF_URL"
    return "main", ""


def _server_folder(env: Mapping[str, str]) -> str:
    """The pages' folder on this server, as a path (``""``: the page does not know it). On a
    hub user's server (``JUPYTERHUB_SERVICE_PREFIX``, ``/user/<name>/``) the folder is reached
    through the hub's ``user-redirect``: the link opens the folder on whoever opens it's own
    server, never the teacher's."""
    script = env.get("SCRIPT_NAME", "")
    if not script.endswith(".ipynb"):
        return ""
    folder = script.rsplit("/", 1)[0]
    prefix = env.get("JUPYTERHUB_SERVICE_PREFIX", "").rstrip("/")
    if prefix and folder.startswith(prefix + "/"):
        base = env.get("JUPYTERHUB_BASE_URL", "/").rstrip("/")
        folder = f"{base}/hub/user-redirect{folder[len(prefix):]}"
    return folder


def page_urls(page: str, query: str = "", *, env: Mapping[str, str] | None = None,
              origin: str = "") -> PageUrls:
    """The links that open ``page`` (``Play.ipynb``, ``Lessons.ipynb``) with ``query`` (already
    encoded), for the page that asks: its server's address from the request Voilà gives the
    kernel (``SERVER_NAME``, ``SERVER_PORT``, ``SCRIPT_NAME``; ``env``, default
    ``os.environ``), or from ``origin`` (``https://host:port``, as the browser knows it: the
    kernel cannot tell http from https behind a proxy); the Binder link from
    ``BINDER_REPO_URL``/``BINDER_REF_URL`` (set by Binder), else :data:`BINDER_REPO_ENV` and
    :data:`BINDER_REF_ENV`. The lesson builder's links and the assignment's link to send are
    both made here.

    >>> page_urls("Lessons.ipynb", "class=6B", env={"SERVER_NAME": "school.org",
    ...     "SERVER_PORT": "8866", "SCRIPT_NAME": "/voila/render/Teacher.ipynb"}).to_send
    'http://school.org:8866/voila/render/Lessons.ipynb?class=6B'
    """
    env = os.environ if env is None else env
    target = f"{page}?{query}" if query else page
    repo, repo_from = _binder_repo(env)
    ref, ref_from = _binder_ref(env)
    binder_host = env.get("BINDER_LAUNCH_HOST", "") or BINDER_HOST
    if not re.fullmatch(r"https://[\w.-]+(:\d+)?/", binder_host):
        binder_host = BINDER_HOST
    binder = (f"{binder_host}v2/gh/{repo}/{quote(ref, safe='')}?urlpath="
              + quote(NOTEBOOKS_PATH + target, safe=""))
    server = ""
    folder = _server_folder(env)
    host = env.get("SERVER_NAME", "")
    if re.fullmatch(r"https?://[\w.\-\[\]:]+", origin):
        server = f"{origin}{folder}/{target}"
    elif host:
        port = env.get("SERVER_PORT", "")
        scheme = "https" if port == "443" else "http"
        shown_port = f":{port}" if port and port not in ("80", "443") else ""
        server = f"{scheme}://{host}{shown_port}{folder}/{target}"
    on_binder = bool(env.get("BINDER_LAUNCH_HOST") or env.get("BINDER_REPO_URL"))
    return PageUrls(relative=target, server=server, binder=binder,
                    binder_repo="" if not repo_from else repo, binder_ref=ref,
                    binder_from=tuple(v for v in (repo_from, ref_from) if v),
                    on_binder=on_binder)


def lesson_links(lesson_id: str, lang: str = "es", *, env: Mapping[str, str] | None = None,
                 student: str | None = None, class_code: str | None = None,
                 origin: str = "") -> dict[str, str]:
    """The links that open lesson ``lesson_id`` (:func:`page_urls`): ``binder`` (a new
    Binder session of the repository: it works once the lesson file is in the repository's
    ``lessons/``), ``voila`` (this server, when the page knows its address) and ``relative``
    (from a page in the same folder as Play.ipynb). ``student`` (and ``class_code``), when
    one is known, go into every link; without one the play page asks the student's name."""
    if not LESSON_ID.fullmatch(lesson_id):
        raise LessonError("", translator(lang)(N_("“{id}” is not the name of a lesson: a lesson "
                                                  "name has only small letters, digits and "
                                                  "dashes, like 01-other-end."))
                          .format(id=lesson_id))
    named = student is not None and not unnamed(student)
    query = urlencode({"lesson": lesson_id, "lang": lang,
                       **({"student": student} if named else {}),
                       **({"class": class_code} if named and class_code else {})})
    urls = page_urls("Play.ipynb", query, env=env, origin=origin)
    links = {"binder": urls.binder, "relative": urls.relative}
    if urls.server:
        links["voila"] = urls.server
    return links
