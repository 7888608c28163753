"""A lesson file's shape: the JSON schema every lesson file is checked against
(:data:`SCHEMA`, compiled once by :mod:`tutor.course.lessons`) and the typed dictionaries of
what it lets through (:class:`LessonFile`)."""

from __future__ import annotations

from typing import Required, TypedDict

from engine.bots import BOTS
from engine.rules import VARIANTS
from tutor.course.deals import POWER_ROWS
from tutor.storage.lesson_ids import MAX_ID_LENGTH
from tutor.teaching.mastery import SKILLS
from tutor.teaching.practice import SCAFFOLDS

__all__ = ["SCHEMA", "DealFile", "GameFile", "LessonFile", "TutorFile"]


class DealFile(TypedDict, total=False):
    """A prepared deal as a lesson file writes it (``game.deals``; the engine's
    :meth:`engine.deal.Deal.to_dict` form)."""

    hands: Required[list[list[str]]]
    pile: list[str]
    table: str | None
    starter: int | None


class GameFile(TypedDict, total=False):
    """A lesson file's ``game`` settings."""

    variant: str
    players: int
    humans: list[int]
    bots: list[str]
    rounds: int
    seed: int | None
    rules: dict[str, object]
    deals: list[DealFile]
    rich_in: list[str]
    candidates: int


class TutorFile(TypedDict, total=False):
    """A lesson file's ``tutor`` settings."""

    ask: list[str]
    targets: list[str]
    scaffold: bool | list[str]
    drill: bool
    ask_bot_plays: bool
    max_questions: int | None
    max_minutes: float | None


class LessonFile(TypedDict, total=False):
    """A lesson file's JSON, as :data:`SCHEMA` lets it be (what :func:`lesson_from_dict`
    reads once the schema has checked it, and the builder writes)."""

    id: Required[str]
    title: Required[dict[str, str]]
    description: dict[str, str]
    goal: dict[str, str]
    game: GameFile
    tutor: TutorFile
    mastery: dict[str, object]


_PROB = {"type": "number", "minimum": 0, "maximum": 1}
_TEXT = {
    "type": "object",
    "properties": {"es": {"type": "string", "minLength": 1}, "en": {"type": "string",
                                                               "minLength": 1}},
    "required": ["es", "en"],
    "additionalProperties": False,
}
_TILES = {"type": "array", "items": {"type": "string"}}
_SKILL_PARAMS = {
    "type": "object",
    "additionalProperties": False,
    "properties": {"p_init": _PROB, "p_learn": _PROB, "p_slip": _PROB, "p_guess": _PROB,
                   # what fit-bkt --json prints beside the parameters, so its rows paste in
                   "log_likelihood": {"type": "number"}, "students": {"type": "integer"},
                   "attempts": {"type": "integer"}},
}
_DEAL = {
    "type": "object",
    "required": ["hands"],
    "additionalProperties": False,
    "properties": {"hands": {"type": "array", "items": _TILES}, "pile": _TILES,
                   "table": {"type": ["string", "null"]},
                   "starter": {"type": ["integer", "null"], "minimum": 0, "maximum": 4}},
}
SCHEMA: dict[str, object] = {
    "type": "object",
    "required": ["id", "title"],
    "additionalProperties": False,
    "properties": {
        "id": {"type": "string", "maxLength": MAX_ID_LENGTH, "pattern": "^[a-z0-9][a-z0-9-]*$"},
        "title": _TEXT,
        "description": _TEXT,
        "goal": _TEXT,
        "game": {
            "type": "object",
            "additionalProperties": False,
            "properties": {
                "variant": {"enum": sorted(VARIANTS)},
                "players": {"type": "integer", "minimum": 2, "maximum": 5},
                "humans": {"type": "array", "items": {"type": "integer", "minimum": 0,
                                                      "maximum": 4}, "uniqueItems": True},
                "bots": {"type": "array", "items": {"enum": list(BOTS)}},
                "rounds": {"type": "integer", "minimum": 1, "maximum": 20},
                "seed": {"type": ["integer", "null"]},
                "rules": {"type": "object"},
                "deals": {"type": "array", "items": _DEAL, "maxItems": 20},
                "rich_in": {"type": "array", "uniqueItems": True,
                            "items": {"enum": list(POWER_ROWS)}},
                "candidates": {"type": "integer", "minimum": 1, "maximum": 2000},
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
                "max_questions": {
                    "type": ["integer", "null"], "minimum": 1, "maximum": 500,
                    "description": "A lesson with targets ends once every target is mastered "
                                   "or after this many questions per target skill on its "
                                   "targets (null: no such cap); default 60."},
                "max_minutes": {
                    "type": ["number", "null"], "minimum": 1, "maximum": 240,
                    "description": "… or after this many minutes (null: no such cap); "
                                   "default 40."},
            },
        },
        "mastery": {
            "type": "object",
            "additionalProperties": False,
            "properties": {"p_init": _PROB, "p_learn": _PROB, "p_slip": _PROB,
                           "p_guess": _PROB, "mastery_threshold": _PROB,
                           "skills": {"type": "object", "additionalProperties": False,
                                      "properties": {s: _SKILL_PARAMS for s in SKILLS}}},
        },
    },
}
