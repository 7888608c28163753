"""Lesson files: what a teacher sets for a game and for the tutor, read and checked."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from engine import HouseRules, RulesError
from engine.rules import VARIANTS

from .i18n import N_, translate_error, translator
from .mastery import SKILLS, BKTParams
from .paths import lesson_dirs, shipped_dir
from .practice import SCAFFOLDS

LESSON_DIR = shipped_dir("lessons")
"""The lessons shipped with the project; ``LEONARD_LESSONS`` names more folders."""

_PROB = {"type": "number", "minimum": 0, "maximum": 1}
_TEXT = {
    "type": "object",
    "properties": {"es": {"type": "string"}, "en": {"type": "string"}},
    "required": ["es", "en"],
    "additionalProperties": False,
}
SCHEMA: dict[str, Any] = {
    "type": "object",
    "required": ["id", "title"],
    "additionalProperties": False,
    "properties": {
        "id": {"type": "string", "pattern": "^[a-z0-9][a-z0-9-]*$"},
        "title": _TEXT,
        "description": _TEXT,
        "game": {
            "type": "object",
            "additionalProperties": False,
            "properties": {
                "variant": {"enum": sorted(VARIANTS)},
                "players": {"type": "integer", "minimum": 2, "maximum": 5},
                "humans": {"type": "array", "items": {"type": "integer", "minimum": 0,
                                                      "maximum": 4}, "uniqueItems": True},
                "bots": {"type": "array", "items": {"enum": ["random", "greedy", "search"]}},
                "rounds": {"type": "integer", "minimum": 1, "maximum": 20},
                "seed": {"type": ["integer", "null"]},
                "rules": {"type": "object"},
            },
        },
        "tutor": {
            "type": "object",
            "additionalProperties": False,
            "properties": {
                "ask": {"type": "array", "uniqueItems": True,
                        "items": {"enum": ["power", "round_end"]}},
                "targets": {"type": "array", "uniqueItems": True,
                            "items": {"enum": list(SKILLS)}},
                "scaffold": {"type": ["boolean", "array"], "uniqueItems": True,
                             "items": {"enum": sorted(SCAFFOLDS)}},
                "drill": {"type": "boolean"},
                "ask_bot_plays": {"type": "boolean"},
            },
        },
        "mastery": {
            "type": "object",
            "additionalProperties": False,
            "properties": {"p_init": _PROB, "p_learn": _PROB, "p_slip": _PROB,
                           "p_guess": _PROB, "mastery_threshold": _PROB},
        },
    },
}


class LessonError(ValueError):
    """A lesson file that cannot be used; the message says which file, where and why."""


@dataclass(frozen=True)
class Lesson:
    """A lesson's settings, with the defaults of free play for what the file leaves out."""

    id: str
    title: dict[str, str]
    description: dict[str, str] = field(default_factory=dict)
    variant: str = "leonard"
    players: int = 2
    humans: tuple[int, ...] = (0,)
    bots: tuple[str, ...] = ("greedy",)
    rounds: int = 3
    seed: int | None = None
    rules: HouseRules = field(default_factory=HouseRules)
    ask: frozenset[str] = frozenset({"power", "round_end"})
    targets: frozenset[str] = frozenset()
    """The skills the lesson practises (none: every arithmetic skill)."""
    scaffold: frozenset[str] = frozenset()
    """``T`` (ask T first) and/or ``blanks`` (the formula with blanks); they fade per skill."""
    drill: bool = True
    ask_bot_plays: bool = False
    deals: list[dict[str, Any]] | None = None
    mastery: BKTParams = field(default_factory=BKTParams)

    def text(self, key: str, lang: str) -> str:
        values: dict[str, str] = getattr(self, key)
        return values.get(lang) or values.get("en", "")


_MESSAGES = {
    "required": N_("“{where}” is missing “{what}”."),
    "additionalProperties": N_("“{where}” has a setting the tutor does not know: {what}."),
    "type": N_("“{where}” should be {what}."),
    "enum": N_("“{where}” must be one of: {what}."),
    "minimum": N_("“{where}” must be at least {what}."),
    "maximum": N_("“{where}” must be at most {what}."),
    "pattern": N_("“{where}” may hold only small letters, digits and dashes."),
    "uniqueItems": N_("“{where}” lists something twice."),
}
_TYPES = {
    "object": N_("a group of settings in braces {}"),
    "array": N_("a list in brackets []"),
    "string": N_("text in quotes"),
    "integer": N_("a whole number"),
    "number": N_("a number"),
    "boolean": N_("true or false"),
}


def _scaffolds(value: bool | list[str]) -> frozenset[str]:
    if isinstance(value, bool):
        return SCAFFOLDS if value else frozenset()
    return frozenset(value)


def _explain(error: Any, data: Any, lang: str) -> str:
    """One sentence for the teacher from a fastjsonschema error."""
    _ = translator(lang)
    path = [str(p) for p in error.path[1:]]
    where = ".".join(path) or _("the lesson")
    kind = error.rule
    node = data
    for p in path:
        node = node[int(p)] if isinstance(node, list) else node.get(p, {})
    if kind == "required":
        what = ", ".join(k for k in error.rule_definition if k not in node)
    elif kind == "additionalProperties":
        allowed = error.definition.get("properties", {})
        what = ", ".join(sorted(k for k in node if k not in allowed))
    elif kind == "type":
        types = error.rule_definition
        types = [types] if isinstance(types, str) else types
        what = " / ".join(_(_TYPES.get(t, t)) for t in types)
    elif kind == "enum":
        what = ", ".join(json.dumps(v) for v in error.rule_definition)
    else:
        what = str(error.rule_definition)
    template = _MESSAGES.get(kind)
    if template is None:
        return f"“{where}”: {error.message}"
    return _(template).format(where=where, what=what)


@cache
def _validator() -> Any:
    # fastjsonschema compiles the schema once into a checking function; it imports in
    # ~10 ms where jsonschema takes over a second, which the dashboard's start would pay.
    import fastjsonschema

    return fastjsonschema.compile(SCHEMA)


def lesson_from_dict(data: Any, source: str = "lesson", lang: str = "en") -> Lesson:
    """Check ``data`` against the lesson schema and build a :class:`Lesson`."""
    import fastjsonschema

    _ = translator(lang)
    try:
        _validator()(data)
    except fastjsonschema.JsonSchemaValueException as err:
        raise LessonError(f"{source}: {_explain(err, data, lang)}") from None
    game = data.get("game", {})
    tut = data.get("tutor", {})
    players = game.get("players", 2)
    humans = tuple(game.get("humans", [0]))
    if any(h >= players for h in humans):
        raise LessonError(source + ": " + _("“game.humans” names a seat beyond the {n} players.")
                          .format(n=players))
    try:
        VARIANTS[game.get("variant", "leonard")].check_players(players)
        rules = HouseRules.from_dict({"rounds": game.get("rounds", 3), **game.get("rules", {})})
        mastery = BKTParams(**data.get("mastery", {}))
    except (RulesError, ValueError, TypeError) as e:
        raise LessonError(f"{source}: {translate_error(e, lang)}") from None
    return Lesson(
        id=data["id"], title=data["title"], description=data.get("description", {}),
        variant=game.get("variant", "leonard"), players=players, humans=humans,
        bots=tuple(game.get("bots", ["greedy"])),
        rounds=rules.rounds, seed=game.get("seed"), rules=rules,
        ask=frozenset(tut.get("ask", ["power", "round_end"])),
        targets=frozenset(tut.get("targets", ())),
        scaffold=_scaffolds(tut.get("scaffold", False)), drill=tut.get("drill", True),
        ask_bot_plays=tut.get("ask_bot_plays", False),
        mastery=mastery,
    )


MAX_LESSON_BYTES = 1_000_000
"""A lesson file is a few hundred bytes; anything this large is not one."""
LESSON_ID = re.compile(r"[a-z0-9][a-z0-9-]{0,63}")
"""A lesson id (what a link's ``?lesson=`` gives): small letters, digits and dashes."""
FALLBACK_ID = "free-play"


def find_lesson(lesson_id: str, lang: str = "en") -> Path:
    """The file of the lesson ``lesson_id``, from the lessons folders (:func:`lesson_dirs`).

    The id is data, never a path: anything but small letters, digits and dashes is refused
    before a file is looked at, so a link cannot probe the server's files.
    """
    _ = translator(lang)
    if not isinstance(lesson_id, str) or not LESSON_ID.fullmatch(lesson_id):
        raise LessonError(_("“{id}” is not the name of a lesson: a lesson name has only small "
                            "letters, digits and dashes, like first-steps.")
                          .format(id=_shorten(str(lesson_id))))
    for folder in lesson_dirs():
        path = folder / f"{lesson_id}.json"
        if path.is_file():
            return path
    known = ", ".join(_ids()) or "—"
    raise LessonError(_("There is no lesson “{id}”. The lessons are: {known}.")
                      .format(id=lesson_id, known=known))


def _shorten(text: str, limit: int = 40) -> str:
    """A value from a link, safe to repeat on the page: printable and short."""
    clean = "".join(c if c.isprintable() else "?" for c in text)
    return clean if len(clean) <= limit else clean[:limit] + "…"


def _ids() -> list[str]:
    seen: dict[str, None] = {}
    for folder in lesson_dirs():
        try:
            for p in sorted(folder.glob("*.json")):
                if LESSON_ID.fullmatch(p.stem):
                    seen.setdefault(p.stem)
        except OSError:
            continue
    return list(seen)


def load_lesson(lesson: str | Path, lang: str = "en") -> Lesson:
    """Read a lesson: by id (a ``str``) from the lessons folders, or from a file ``Path``
    (a teacher checking their own file). Raises :class:`LessonError` saying what is wrong."""
    path = lesson if isinstance(lesson, Path) else find_lesson(lesson, lang)
    return lesson_from_dict(_read_json(path, lang), path.name, lang)


def _read_json(path: Path, lang: str) -> Any:
    _ = translator(lang)
    try:
        if path.stat().st_size > MAX_LESSON_BYTES:
            raise LessonError(_("{path} is too large to be a lesson file.").format(
                path=path.name))
        raw = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise LessonError(_("There is no lesson file {path}.").format(path=path)) from None
    except IsADirectoryError:
        raise LessonError(_("{path} is a folder, not a lesson file.").format(
            path=path.name)) from None
    except UnicodeDecodeError:
        raise LessonError(_("{path} is not a text file.").format(path=path.name)) from None
    except (OSError, ValueError) as err:  # unreadable, a NUL in the name, …
        reason = err.strerror if isinstance(err, OSError) and err.strerror else str(err)
        raise LessonError(_("{path} cannot be read: {error}.").format(
            path=path.name, error=reason)) from None
    try:
        return json.loads(raw)
    except json.JSONDecodeError as e:
        raise LessonError(_("{path} is not valid JSON: check line {line}, column {col}.")
                          .format(path=path.name, line=e.lineno, col=e.colno)) from None
    except RecursionError:
        raise LessonError(_("{path} is nested too deeply to be a lesson file.").format(
            path=path.name)) from None


def default_lesson() -> Lesson:
    """Free play with every default: what the page offers when no lesson file can be read."""
    return Lesson(id=FALLBACK_ID, title={"es": "Juego libre", "en": "Free play"})


def list_lessons(lang: str = "en") -> list[Lesson]:
    """Every readable lesson of the lessons folders, by id (an id in ``$LEONARD_LESSONS``
    hides the shipped lesson of the same id; broken files are skipped here:
    :func:`load_lesson` names their problem)."""
    out = []
    for lesson_id in _ids():
        try:
            out.append(load_lesson(lesson_id, lang))
        except LessonError:
            continue
    return out
