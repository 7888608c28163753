"""A session's settings: the keywords of :class:`tutor.session.session.Session` and
:meth:`~tutor.session.session.Session.new_match` as typed dictionaries, and their checks
(:func:`check_settings`), each refusal a :class:`SessionError` in the session's language."""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime, timezone
from os import PathLike
from typing import TYPE_CHECKING, TypedDict

from engine.deal import Deal
from engine.rules import HouseRules
from tutor.course.deals import deal_head
from tutor.i18n import N_, TranslatableError
from tutor.teaching.asking import ASK_KINDS
from tutor.teaching.mastery import SKILLS, Params
from tutor.teaching.practice import SCAFFOLDS

if TYPE_CHECKING:
    from tutor.storage.progress_store import ProgressStore

__all__ = ["SETTINGS", "Checked", "DealList", "Deals", "GameSettings", "LessonOverrides",
           "LessonSettings", "MatchChanges", "SessionError", "SessionKeywords", "bot_names",
           "check_settings", "checked_clock", "deal_key", "open_store", "scaffolds"]


def bot_names(spec: str | Sequence[str | None], players: int,
              humans: tuple[int, ...]) -> list[str | None] | None:
    """The bot of each non-human seat from ``spec`` (one name, one per seat, or one per bot
    seat), or None if ``spec`` has the wrong length."""
    seats = [s for s in range(players) if s not in humans]
    if isinstance(spec, str):
        return [spec] * len(seats)
    if len(spec) == players:
        return [spec[s] for s in seats]
    if len(spec) == len(seats):
        return list(spec)
    return None


DealList = Sequence[Deal | Mapping[str, object]]
"""A match's deals, in order (a round past the last is dealt at random)."""
Deals = DealList | Callable[[int | None], DealList | None]
"""A match's deals, or how to find them for a match's seed (a lesson's ``deals_for``)."""


class _MatchSettings(TypedDict, total=False):
    """A match's settings but its seed."""

    players: int
    humans: Sequence[int]
    bots: str | Sequence[str | None]
    rounds: int
    ask: Iterable[str]
    scaffold: bool | Iterable[str]
    ask_bot_plays: bool
    variant: str
    rules: HouseRules | None
    deals: Deals | None
    targets: Iterable[str]
    drill: bool
    students: dict[int, str] | None


class GameSettings(_MatchSettings, total=False):
    """A match's settings (:data:`SETTINGS`): the :class:`Session` keywords that
    :meth:`Session.new_match` may change."""

    seed: int | None


class MatchChanges(GameSettings, total=False):
    """What :meth:`Session.new_match` changes: a match's settings and the language."""

    lang: str


class LessonOverrides(_MatchSettings, total=False):
    """What :meth:`Session.from_lesson` may change of a lesson's settings (its
    ``overrides``; the seed is a keyword of its own)."""

    bkt: Params | None
    max_questions: int | None
    max_minutes: float | None
    clock: Callable[[], datetime] | None


class LessonSettings(LessonOverrides, total=False):
    """A lesson's settings as :meth:`Session.from_lesson` takes them: its ``overrides`` and
    the seed."""

    seed: int | None


class SessionKeywords(LessonSettings, total=False):
    """Every keyword of :class:`Session` (a page that makes its own session takes them)."""

    lang: str
    student: str
    store: ProgressStore | str | PathLike[str] | None
    lesson: str


class SessionError(TranslatableError):
    """Something the game does not allow right now (answer first, not your turn, …).

    ``str(err)`` speaks the session's language; ``err.message(lang)`` any other.
    """


SETTINGS = ("players", "humans", "bots", "rounds", "seed", "ask", "scaffold", "ask_bot_plays",
             "variant", "rules", "deals", "targets", "drill", "students")


def scaffolds(value: bool | Iterable[str]) -> frozenset[str]:
    """A lesson's scaffold setting: ``True`` (all), ``False`` (none) or a list of kinds."""
    if isinstance(value, bool):
        return SCAFFOLDS if value else frozenset()
    return frozenset(value)


@dataclass(frozen=True)
class Checked:
    """A match's settings, checked (:func:`check_settings`)."""

    ask: frozenset[str]
    players: int
    humans: tuple[int, ...]
    targets: frozenset[str]
    scaffolds: frozenset[str]
    rules: HouseRules
    bots: list[str | None]
    """The bot of each non-human seat, in order."""


def check_settings(s: GameSettings, lang: str) -> Checked:
    """``s`` checked: a :class:`SessionError` in ``lang`` says what is wrong."""

    def error(msgid: str, **params: object) -> SessionError:
        return SessionError(msgid, lang=lang, **params)

    ask = frozenset(s["ask"])
    if ask - ASK_KINDS:
        raise error(N_("ask can hold {allowed}, not {given}."),
                    allowed=", ".join(sorted(ASK_KINDS)), given=", ".join(sorted(ask - ASK_KINDS)))
    players = s["players"]
    humans = tuple(s["humans"])
    if not isinstance(players, int) or players < 2:
        raise error(N_("A game needs at least 2 players, not {players}."), players=repr(players))
    if len(set(humans)) != len(humans) or any(
            not isinstance(h, int) or not 0 <= h < players for h in humans):
        raise error(N_("humans must be different seats from 0 to {last}, not {humans}."),
                    last=players - 1, humans=repr(humans))
    targets = frozenset(s["targets"])
    if targets - set(SKILLS):
        raise error(N_("Unknown skill {skill}; the skills are: {skills}."),
                    skill=", ".join(sorted(targets - set(SKILLS))), skills=", ".join(SKILLS))
    kinds = scaffolds(s["scaffold"])
    if kinds - SCAFFOLDS:
        raise error(N_("scaffold can hold {allowed}, not {given}."),
                    allowed=", ".join(sorted(SCAFFOLDS)),
                    given=", ".join(sorted(kinds - SCAFFOLDS)))
    rules = s["rules"] or HouseRules()
    if s["rounds"] != rules.rounds:
        rules = replace(rules, rounds=s["rounds"])
    names = bot_names(s["bots"], players, humans)
    if names is None:
        raise error(N_("bots: give one name, one per seat ({players}) or one per bot seat "
                       "({bot_seats}), not {given}."), players=players,
                    bot_seats=players - len(humans), given=len(s["bots"]))
    return Checked(ask, players, humans, targets, kinds, rules, names)


def deal_key(s: GameSettings, c: Checked) -> str | None:
    """What makes two matches the same game for a student (issue 51): the game, the number of
    players, the seats the humans take, the seed, and the house rules but the number of
    rounds (the first round is dealt the same however many follow), and deals given as a
    list (a lesson's prepared deals: the same game whatever the seed, so recorded without
    one); a lesson's deals searched for a seed are the lesson's (the store keys a deal by
    lesson too). None for a match without a seed or prepared deals: its deal is a fresh
    random one, new by construction, and not recorded.

    >>> from engine.rules import HouseRules
    >>> s = GameSettings(variant="leonard", seed=7, deals=None)
    >>> c = Checked(frozenset(), 2, (0,), frozenset(), frozenset(), HouseRules(), [None])
    >>> deal_key(s, c) == deal_key(s, replace(c, rules=HouseRules(rounds=1)))
    True
    >>> deal_key(GameSettings(variant="leonard", seed=None), c) is None
    True
    >>> deal_key(GameSettings(variant="leonard", seed=None, deals=[{"hands": []}]), c)[:14]
    'leonard:2:None'
    """
    seed = s.get("seed")
    deals = s.get("deals")
    given = None if not deals or callable(deals) else repr(list(deals))
    if seed is None and not given:
        return None
    what = repr((s.get("variant"), c.players, c.humans, seed, replace(c.rules, rounds=1),
                 given))
    digest = hashlib.sha256(what.encode("utf-8")).hexdigest()[:16]
    return deal_head(s.get("variant"), c.players, seed) + digest


def _utc_now() -> datetime:
    return datetime.now(timezone.utc)


def checked_clock(clock: Callable[[], datetime] | None, lang: str) -> Callable[[], datetime]:
    """The session's clock: ``clock`` (which must give aware datetimes), else the real time."""
    if clock is None:
        return _utc_now
    if clock().utcoffset() is None:
        raise SessionError(N_("The clock must give the time with its time zone (UTC)."),
                           lang=lang)
    return clock


def open_store(store: ProgressStore | str | PathLike[str] | None,
                lang: str) -> tuple[ProgressStore | None, bool]:
    """The store to use and whether the session opened it (and so closes it)."""
    if isinstance(store, (str, PathLike)):
        # lazy: `import tutor` loads no store, no sqlite3 (test_loading_a_lesson_loads_no_store)
        from tutor.storage.store import open_store as opened

        return opened(store, lang=lang), True
    if store is None or hasattr(store, "record_attempt"):
        return store, False
    raise SessionError(N_("store must be a tutor.storage.store.Store, a file path or None, not "
                          "{store}."), store=repr(store), lang=lang)

