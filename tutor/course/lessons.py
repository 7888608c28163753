"""Lesson files: what a teacher sets for a game and for the tutor, read and checked."""

from __future__ import annotations

import json
import os
import random
import re
import stat
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn, cast

from engine import HouseRules, RulesError
from engine.round import DealError, Round
from engine.rules import VARIANTS
from tutor.course.deals import search_deals
from tutor.course.lesson_end import DEFAULT_MAX_MINUTES, DEFAULT_MAX_QUESTIONS
from tutor.course.lesson_schema import SCHEMA, DealFile, LessonFile
from tutor.course.paths import lesson_dirs, shipped_dir
from tutor.i18n import N_, translate_error, translator
from tutor.storage.lesson_ids import LESSON_ID as LESSON_ID  # where the builders read it
from tutor.storage.lesson_ids import MAX_ID_LENGTH as MAX_ID_LENGTH
from tutor.teaching.mastery import Params, default_params, params_from_dict
from tutor.teaching.practice import SCAFFOLDS, Plan, plan_coverage

if TYPE_CHECKING:
    from collections.abc import Callable

    from fastjsonschema import JsonSchemaValueException

    from engine.tiles import Tile
    from tutor.teaching.coverage import SkillCoverage

LESSON_DIR = shipped_dir("lessons")
"""The lessons shipped with the project; ``LEONARD_LESSONS`` names more folders."""


class LessonError(ValueError):
    """A lesson file that cannot be used: ``str(err)`` is one line naming the file, the field
    and what is wrong (``lessons/03-minus.json: game.players: must be 2 to 5, got 7``)."""

    def __init__(self, source: str, problem: str, where: str = "") -> None:
        self.source, self.where, self.problem = source, where, problem
        super().__init__(": ".join(part for part in (source, where, problem) if part))


@dataclass(frozen=True)
class Lesson:
    """A lesson's settings, with the defaults of free play for what the file leaves out."""

    id: str
    title: dict[str, str]
    description: dict[str, str] = field(default_factory=dict)
    goal: dict[str, str] = field(default_factory=dict)
    """What the student learns, in one line (optional: the play page shows the description
    instead)."""
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
    deals: tuple[DealFile, ...] = ()
    """Prepared deals, one per round from the first (the other rounds are dealt at random)."""
    rich_in: frozenset[str] = frozenset()
    """§1.6 rows whose tiles the deals should be rich in: each round's deal is the richest of
    ``candidates`` seeded random deals (:func:`tutor.course.deals.search_deals`)."""
    candidates: int = 200
    mastery: Params = field(default_factory=default_params)
    """Knowledge tracing: per skill (a lesson's ``mastery`` setting over the defaults, or
    over ``$LEONARD_BKT_PARAMS``'s fitted parameters) with the lesson's threshold."""
    max_questions: int | None = DEFAULT_MAX_QUESTIONS
    """A lesson with targets goes on after its rounds until every target is mastered, or
    until this many questions on its targets (None: no such cap)…"""
    max_minutes: float | None = DEFAULT_MAX_MINUTES
    """… or this many minutes (None: no such cap)."""

    def text(self, key: str, lang: str) -> str:
        values: dict[str, str] = getattr(self, key)
        return values.get(lang) or values.get("en", "")

    def goal_text(self, lang: str) -> str:
        """The lesson's one-line goal in ``lang``; a lesson without one gives its
        description."""
        return self.text("goal", lang) or self.text("description", lang)

    @property
    def plan(self) -> Plan:
        """What the lesson asks the tutor to practise, with its game (free play's focus is
        the game's skills): the plan a session of the lesson plays by
        (:meth:`tutor.session.session.Session.from_lesson`) and the skills the lessons page
        shows (:func:`tutor.classroom.overview.lesson_progress`)."""
        return Plan(targets=self.targets, scaffolds=self.scaffold, drill=self.drill,
                    ask_bot_plays=self.ask_bot_plays, game=self.variant)

    def deals_for(self, seed: int | None) -> list[dict[str, object]] | None:
        """The deals to play with ``seed``: the prepared ones, else (``rich_in``) the result
        of the seeded search, else None (every round dealt at random)."""
        if self.deals:
            return [dict(d) for d in self.deals]
        if not self.rich_in:
            return None

        if seed is None:
            seed = random.SystemRandom().randrange(2**31)
        return search_deals(self.variant, self.players, self.humans, self.rules, self.rich_in,
                            seed, self.rounds, self.candidates)


_TYPES = {
    "object": N_("a group of settings in braces {}"),
    "array": N_("a list in brackets []"),
    "string": N_("text in quotes"),
    "integer": N_("a whole number"),
    "number": N_("a number"),
    "boolean": N_("true or false"),
    "null": N_("null"),
}


def _scaffolds(value: bool | list[str]) -> frozenset[str]:
    if isinstance(value, bool):
        return SCAFFOLDS if value else frozenset()
    return frozenset(value)


def _shown(value: object) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 40 else text[:39] + "…"


def _explain(error: JsonSchemaValueException, data: object, lang: str) -> tuple[str, str]:
    """The field and what is wrong with it, for the teacher, from a fastjsonschema error
    (its ``rule_definition`` and ``definition`` are the schema's JSON, typed ``Any`` by
    fastjsonschema)."""
    _ = translator(lang)
    path = [str(p) for p in error.path[1:]]
    node: object = data
    for p in path:  # the error's path is in the data: lists and objects down to the value
        node = node[int(p)] if isinstance(node, list) else cast(dict[str, object], node).get(p, {})
    kind, rule, schema = error.rule, error.rule_definition, error.definition
    where = ".".join(path)
    got = _shown(node)
    if kind == "required":
        missing = [k for k in rule if not isinstance(node, dict) or k not in node]
        where = ".".join([*path, missing[0]]) if missing else where
        return where, _("is missing")
    if kind == "additionalProperties":
        extra = sorted(k for k in cast(dict[str, object], node)
                       if k not in schema.get("properties", {}))
        return ".".join([*path, extra[0]]), _("is not a setting the tutor knows")
    if kind == "type":
        types = [rule] if isinstance(rule, str) else list(rule)
        wanted = _(" or ").join(_(_TYPES.get(t, t)) for t in types)
        return where, _("should be {what}, got {got}").format(what=wanted, got=got)
    if kind == "enum":
        return where, _("must be one of {choices}; got {got}").format(
            choices=", ".join(json.dumps(v) for v in rule), got=got)
    if kind in ("minimum", "maximum") and "minimum" in schema and "maximum" in schema:
        return where, _("must be {low} to {high}, got {got}").format(
            low=schema["minimum"], high=schema["maximum"], got=got)
    if kind == "minimum":
        return where, _("must be at least {low}, got {got}").format(low=rule, got=got)
    if kind == "maximum":
        return where, _("must be at most {high}, got {got}").format(high=rule, got=got)
    if kind == "maxItems":
        return where, _("lists at most {high} items, got {got}").format(
            high=rule, got=len(cast(list[object], node)))
    if kind == "minLength":
        return where, _("must not be empty")
    if kind == "maxLength":
        return where, _("may have at most {high} characters, got {got}").format(
            high=rule, got=len(node) if isinstance(node, str) else got)
    if kind == "pattern":
        return where, _("may hold only small letters, digits and dashes, got {got}").format(
            got=got)
    if kind == "uniqueItems":
        return where, _("lists something twice")
    return where, str(error.message)


@cache
def _validator() -> Callable[[object], object]:
    # fastjsonschema compiles the schema once into a checking function; it imports in
    # ~10 ms where jsonschema takes over a second, which the dashboard's start would pay.
    import fastjsonschema

    return fastjsonschema.compile(SCHEMA)


def lesson_from_dict(data: object, source: str = "lesson", lang: str = "en") -> Lesson:
    """Check ``data`` against the lesson schema and the game's rules and build a
    :class:`Lesson`; a problem raises :class:`LessonError` naming the field."""
    import fastjsonschema

    _ = translator(lang)
    try:
        _validator()(data)
    except fastjsonschema.JsonSchemaValueException as err:
        where, what = _explain(err, data, lang)
        raise LessonError(source, what, where) from None
    _check_text(data, source, lang)
    spec = cast(LessonFile, data)  # the schema has checked its shape
    game = spec.get("game", {})
    tut = spec.get("tutor", {})
    players = game.get("players", 2)
    humans = tuple(game.get("humans", [0]))
    beyond = [h for h in humans if h >= players]
    if beyond:
        raise LessonError(source, _("seat {seat} is beyond the {n} players").format(
            seat=beyond[0], n=players), "game.humans")
    name = game.get("variant", "leonard")
    try:
        VARIANTS[name].check_players(players)
    except RulesError:
        var = VARIANTS[name]
        raise LessonError(source, _("{variant} is played by {low} to {high} players, got "
                                    "{got}").format(variant=name, low=var.min_players,
                                                    high=var.max_players, got=players),
                          "game.players") from None
    try:
        rules = HouseRules.from_dict({"rounds": game.get("rounds", 3), **game.get("rules", {})})
    except (RulesError, ValueError, TypeError) as e:
        raise LessonError(source, translate_error(e, lang), "game.rules") from None
    try:
        mastery = params_from_dict(spec.get("mastery", {}))
    except (ValueError, TypeError) as e:
        raise LessonError(source, translate_error(e, lang), "mastery") from None
    max_questions = tut.get("max_questions", DEFAULT_MAX_QUESTIONS)
    max_minutes = tut.get("max_minutes", DEFAULT_MAX_MINUTES)
    if max_questions is None and max_minutes is None:
        raise LessonError(source, _("max_questions and max_minutes cannot both be null: a "
                                    "lesson goes on until its skills are mastered, so it "
                                    "needs a cap (questions, minutes or both)"), "tutor")
    deals = tuple(game.get("deals", ()))
    if deals:
        _check_deals(source, name, players, rules, deals, lang)
    return Lesson(
        id=spec["id"], title=spec["title"], description=spec.get("description", {}),
        goal=spec.get("goal", {}),
        variant=name, players=players, humans=humans,
        bots=tuple(game.get("bots", ["greedy"])),
        rounds=rules.rounds, seed=game.get("seed"), rules=rules,
        ask=frozenset(tut.get("ask", ["power", "round_end"])),
        targets=frozenset(tut.get("targets", ())),
        scaffold=_scaffolds(tut.get("scaffold", False)), drill=tut.get("drill", True),
        ask_bot_plays=tut.get("ask_bot_plays", False), deals=deals,
        rich_in=frozenset(game.get("rich_in", ())), candidates=game.get("candidates", 200),
        mastery=mastery, max_questions=max_questions,
        max_minutes=None if max_minutes is None else float(max_minutes),
    )


_SURROGATE = re.compile("[\ud800-\udfff]")


def _check_text(data: object, source: str, lang: str, where: str = "") -> None:
    """Every text of the lesson must be text: a lone surrogate (``"\\ud800"`` in a file,
    or pasted into the builder) cannot be written as UTF-8 nor sent to a page."""
    if isinstance(data, dict):
        for key, value in data.items():
            _check_text(value, source, lang, f"{where}.{key}" if where else str(key))
    elif isinstance(data, list):
        for i, value in enumerate(data):
            _check_text(value, source, lang, f"{where}.{i}" if where else str(i))
    elif isinstance(data, str) and _SURROGATE.search(data):
        raise LessonError(source, translator(lang)(
            N_("holds a character that is not text (a lone surrogate): type it again")), where)


def _check_deals(source: str, variant_name: str, players: int, rules: HouseRules,
                 deals: Sequence[DealFile], lang: str) -> None:
    """Each prepared deal must be a deal of this game: the engine checks it (tiles of the set,
    each dealt once, hand sizes, the opener)."""
    _ = translator(lang)
    var = VARIANTS[variant_name]
    for i, deal in enumerate(deals):
        if len(deal["hands"]) != players:
            raise LessonError(source, _("gives {got} hands for {n} players").format(
                got=len(deal["hands"]), n=players), f"game.deals.{i}.hands")
        try:
            hands: list[list[Tile | str]] = [list(h) for h in deal["hands"]]
            pile: list[Tile | str] = list(deal.get("pile", ()))
            Round.from_deal(var, rules, hands, pile, deal.get("table"), deal.get("starter"),
                            record=False)
        except DealError as err:
            raise LessonError(source, str(err), f"game.deals.{i}") from None


MAX_LESSON_BYTES = 1_000_000
"""A lesson file is a few hundred bytes; anything this large is not one."""
FALLBACK_ID = "free-play"


def find_lesson(lesson_id: str, lang: str = "en") -> Path:
    """The file of the lesson ``lesson_id``, from the lessons folders (:func:`lesson_dirs`).

    The id is data, never a path: anything but small letters, digits and dashes is refused
    before a file is looked at, so a link cannot probe the server's files.
    """
    _ = translator(lang)
    if not isinstance(lesson_id, str) or not LESSON_ID.fullmatch(lesson_id):
        raise LessonError("", _("“{id}” is not the name of a lesson: a lesson name has only "
                                "small letters, digits and dashes, like 01-other-end.")
                          .format(id=_shorten(str(lesson_id))))
    for folder in lesson_dirs():
        path = folder / f"{lesson_id}.json"
        if path.is_file():
            return path
    known = ", ".join(_ids()) or "—"
    raise LessonError("", _("There is no lesson “{id}”. The lessons are: {known}.")
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
    # A teacher's own file is named as they gave it; a lesson found by id only by its file
    # name (a page never shows the server's folders).
    name = str(path) if isinstance(lesson, Path) else path.name
    found = lesson_from_bytes(read_lesson_bytes(path, name, lang), name, lang)
    if found.id != path.stem:
        _ = translator(lang)
        raise LessonError(name, _("must be the file's name, {stem}, got {id}").format(
            stem=json.dumps(path.stem), id=json.dumps(found.id)), "id")
    return found


def read_lesson_bytes(path: Path, name: str, lang: str = "en") -> bytes:
    """The bytes of a lesson file, read only if it is a regular file of at most
    :data:`MAX_LESSON_BYTES` (its size read before its contents, and at most that many bytes
    read whatever it claims): a FIFO or a symlink to ``/dev/zero`` is refused at once, never
    waited on or read for ever. :class:`LessonError` (one line) otherwise."""
    _ = translator(lang)
    try:
        # Non-blocking: opening a FIFO for reading would wait for a writer.
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except FileNotFoundError:
        raise LessonError(name, _("there is no such lesson file")) from None
    except IsADirectoryError:
        raise LessonError(name, _("is a folder, not a lesson file")) from None
    except (OSError, ValueError) as err:  # unreadable, a NUL in the name, …
        reason = err.strerror if isinstance(err, OSError) and err.strerror else str(err)
        raise LessonError(name, _("cannot be read: {error}").format(error=reason)) from None
    try:
        mode = os.fstat(fd)
        if stat.S_ISDIR(mode.st_mode):
            raise LessonError(name, _("is a folder, not a lesson file"))
        if not stat.S_ISREG(mode.st_mode):
            raise LessonError(name, _("is not a regular file (a pipe, a device …), so not a "
                                      "lesson file"))
        if mode.st_size > MAX_LESSON_BYTES:
            raise LessonError(name, _("is too large to be a lesson file"))
        chunks, left = [], MAX_LESSON_BYTES + 1
        while left > 0:
            chunk = os.read(fd, left)
            if not chunk:
                break
            chunks.append(chunk)
            left -= len(chunk)
    except OSError as err:
        raise LessonError(name, _("cannot be read: {error}").format(
            error=err.strerror or str(err))) from None
    finally:
        os.close(fd)
    return b"".join(chunks)


def _no_constant(name: str) -> NoReturn:
    raise _NotANumber(name)


class _NotANumber(ValueError):
    pass


def lesson_json(raw: bytes, name: str, lang: str = "en") -> object:
    """The JSON data of a lesson file's bytes, checked as every lesson is, by the loader and
    by the builder alike: at most :data:`MAX_LESSON_BYTES`, UTF-8 (a byte order mark is
    accepted), plain JSON (no ``NaN`` or ``Infinity``, no number of thousands of digits).
    :class:`LessonError` (one line) otherwise."""
    _ = translator(lang)
    if len(raw) > MAX_LESSON_BYTES:
        raise LessonError(name, _("is too large to be a lesson file"))
    try:
        text = raw.decode("utf-8-sig")  # an editor's byte order mark is not JSON, nor wrong
    except UnicodeDecodeError:
        raise LessonError(name, _("is not a text file (UTF-8)")) from None
    try:
        return json.loads(text, parse_constant=_no_constant)
    except json.JSONDecodeError as e:
        raise LessonError(name, _("is not valid JSON: check the commas, quotes and brackets "
                                  "there"),
                          _("line {line}, column {col}").format(line=e.lineno,
                                                                 col=e.colno)) from None
    except _NotANumber as e:
        raise LessonError(name, _("holds {value}, which is not a number a lesson file can "
                                  "hold").format(value=e.args[0])) from None
    except ValueError:  # Python's limit on the digits of a whole number
        raise LessonError(name, _("holds a number too long to be a lesson setting")) from None
    except RecursionError:
        raise LessonError(name, _("is nested too deeply to be a lesson file")) from None


def lesson_from_bytes(raw: bytes, name: str = "lesson", lang: str = "en") -> Lesson:
    """A lesson file's bytes checked as the loader checks them (:func:`lesson_json`, then
    :func:`lesson_from_dict`): what the builder runs before it saves."""
    return lesson_from_dict(lesson_json(raw, name, lang), name, lang)


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


def lesson_params() -> dict[str, Params]:
    """The knowledge-tracing parameters of each installed lesson, by lesson id (what
    :func:`tutor.teaching.replay.rebuild_mastery` replays a student's attempts with)."""
    return {lesson.id: lesson.mastery for lesson in list_lessons()}


def check_folder(folder: Path, lang: str = "en") -> tuple[int, list[str]]:
    """Check every lesson file in ``folder``: how many there are, and one line per broken
    file naming the file, the field and what is wrong (in ``lang``)."""
    files = sorted(folder.glob("*.json"))
    problems = []
    for path in files:
        try:
            load_lesson(path, lang)
        except LessonError as err:
            problems.append(str(err))
    return len(files), problems


def lesson_coverage(lesson: Lesson) -> dict[str, SkillCoverage]:
    """What the questions of ``lesson`` can tell apart, per skill, as its sessions compute it
    (:func:`tutor.teaching.practice.plan_coverage`): what mastery requires each skill's row
    to rule out there, and what no question of the lesson can show."""
    return plan_coverage(lesson.plan, lesson.players, lesson.ask, lesson.rules)


def shadowed_lessons() -> list[str]:
    """The ids of shipped lessons hidden by a teacher's lesson of the same id (in
    ``$LEONARD_LESSONS`` or the builder's folder): every student plays the teacher's, so the
    lessons page says so."""
    shipped = shipped_dir("lessons")
    out = []
    for lesson_id in _ids():
        if not (shipped / f"{lesson_id}.json").is_file():
            continue
        try:
            found = find_lesson(lesson_id)
        except LessonError:
            continue
        if found.parent != shipped:
            out.append(lesson_id)
    return out
