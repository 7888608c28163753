"""What a page's link asks for (``?lesson=…&lang=…&seed=…&student=…&class=…``), read as data.

A link is typed by people and passed around a class, so every value is checked and cleaned
here, and anything unusable becomes a note for the page (in the student's language) instead
of an error: the page always opens. The lesson is an id looked up in the lessons folders,
never a path; the student's name loses control characters; on a JupyterHub the signed-in
user is the student, whatever the link says.
"""

from __future__ import annotations

import os
import re
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass, field
from urllib.parse import parse_qsl, urlencode

from tutor.i18n import N_, LanguageError, Message, normalize_lang
from tutor.storage.names import ANONYMOUS, name_problem, unnamed

__all__ = ["ANONYMOUS", "MAX_CLASS", "MAX_NAME", "MAX_QUERY", "PLAY_PAGE", "Link", "clean_name",
           "name_problem", "page_link", "read_link", "unnamed"]

PLAY_PAGE = "Play.ipynb"
"""The play page, beside the lessons and teacher pages in the same folder (their links to it)."""

MAX_NAME = 60
"""Characters kept of a student's name."""
MAX_CLASS = 30
"""Characters kept of a class code (``class=``: what a teacher gives the class to type)."""
MAX_QUERY = 20_000
"""A longer query string is not a link anyone made: it is ignored whole. (An assignment's
link carries its title; one edited to 10,000 characters is still read, and the title cut,
saying so: :func:`tutor.classroom.assignments.read_assignment`.)"""
_MAX_FIELDS = 20
_SEED = re.compile(r"[+-]?\d{1,18}")
HUB_USER_ENV = "JUPYTERHUB_USER"


@dataclass(frozen=True)
class Link:
    """The settings a link chose, already checked, and the notes to show about the rest."""

    lang: str = "es"
    lesson: str | None = None
    seed: int | None = None
    student: str = ANONYMOUS
    notes: tuple[Message, ...] = field(default=())
    class_code: str = ""
    """The class code the student typed with their name (``class=``; ``""``: none)."""
    values: Mapping[str, str] = field(default_factory=dict, compare=False)
    """Every value the link gave, as text (an assignment's are read from them:
    :func:`tutor.classroom.assignments.read_assignment`)."""

    def note_texts(self) -> list[str]:
        return [n.translate(self.lang) for n in self.notes]


def clean_name(text: str, limit: int = MAX_NAME) -> tuple[str, bool]:
    """A student's name as data: in Unicode NFC, control and format characters dropped,
    spaces collapsed, trimmed, at most ``limit`` characters. Returns the name (``"anon"`` if
    nothing is left) and whether it had to be shortened.

    >>> clean_name("  ana\\r\\n=1+1 ")
    ('ana =1+1', False)
    """
    # NFC: "José" typed with a combining accent is the same name as with a precomposed é
    # (the store matches names by tutor.storage.names.name_key too).
    kept = "".join(" " if c.isspace() else c for c in unicodedata.normalize("NFC", text)
                   if c.isspace() or not unicodedata.category(c).startswith("C"))
    name = " ".join(kept.split())
    cut = len(name) > limit
    name = name[:limit].rstrip()
    return (name or ANONYMOUS), cut


def read_link(query: str, env: Mapping[str, str] | None = None, *, lang: str = "es",
              lesson: str | None = None, student: str = ANONYMOUS) -> Link:
    """Read a page's query string (Voilà passes it as ``QUERY_STRING``).

    ``lang``, ``lesson`` and ``student`` are the page's defaults; ``env`` (default
    ``os.environ``) supplies ``JUPYTERHUB_USER``.
    """
    env = os.environ if env is None else env
    notes: list[Message] = []
    values: dict[str, str] = {}
    if len(query) > MAX_QUERY:
        notes.append(Message(N_("The link is too long to read; opening the default game.")))
    else:
        try:
            values = dict(parse_qsl(query, keep_blank_values=True,
                                    max_num_fields=_MAX_FIELDS))
        except ValueError:
            notes.append(Message(N_("The link has too many settings to read; opening the "
                                    "default game.")))
    try:
        lang = normalize_lang(lang)
    except LanguageError:
        lang = "es"
    if "lang" in values:
        try:
            lang = normalize_lang(values["lang"])
        except LanguageError:
            notes.append(Message(N_("The link's language is unknown; using {lang}."),
                                 lang=Message({"es": N_("Spanish"),
                                               "en": N_("English")}[lang])))
    seed = None
    if "seed" in values:
        text = values["seed"].strip()
        if _SEED.fullmatch(text):
            seed = int(text)
        else:
            notes.append(Message(N_("The link's seed must be a whole number of at most "
                                    "18 digits; dealing at random.")))
    chosen = values.get("lesson", lesson)
    if chosen is not None and not chosen.strip():
        chosen = lesson
    hub = env.get(HUB_USER_ENV, "")
    if hub.strip():
        name, _cut = clean_name(hub)
    else:
        name, cut = clean_name(values.get("student", student))
        if cut:
            notes.append(Message(N_("The student name in the link is long; keeping its first "
                                    "{limit} characters."), limit=MAX_NAME))
        problem = name_problem(name)  # one that could pass for another: the page asks
        if problem is not None:
            notes.append(problem)
            name = ANONYMOUS
    code, _cut = clean_name(values.get("class", ""), MAX_CLASS)
    return Link(lang=lang, lesson=chosen, seed=seed, student=name, notes=tuple(notes),
                class_code="" if code == ANONYMOUS else code, values=values)


def page_link(page: str, *, lesson: str | None = None, lang: str | None = None,
              student: str | None = None, class_code: str | None = None) -> str:
    """A link from one page to another page of the same folder (``Play.ipynb``,
    ``Lessons.ipynb``): relative, so it works wherever the folder is served
    (``/voila/render/notebooks/`` on Jupyter Server and Binder, ``/voila/render/`` under
    ``voila notebooks/``). The anonymous student is left out of it; a class code goes with
    a named student.

    >>> page_link("Play.ipynb", lesson="04-times", lang="en", student="Ana María")
    'Play.ipynb?lesson=04-times&lang=en&student=Ana+Mar%C3%ADa'
    """
    named = student is not None and not unnamed(student)
    values = {"lesson": lesson, "lang": lang, "student": student if named else None,
              "class": class_code if named else None}
    query = urlencode({k: v for k, v in values.items() if v})
    return f"{page}?{query}" if query else page
