"""What a lesson's questions can tell apart (issue 42 part 1): for each skill, the catalogue
mistakes some question of the lesson can show (a right answer there is proof against them,
:func:`tutor.teaching.diagnosis.tells`), and the ones no question of it ever can.

Mastery needs the row of right answers of a skill to rule out each mistake of the skill that
the lesson can show (:mod:`tutor.teaching.mastery`), so this is what a lesson *requires*; and
the drills pick their positions among the same kinds of items
(:meth:`tutor.teaching.asking.Asker.drill`), so every mistake required can be brought to the
student.

The items are the lesson's own, found without playing a lesson:

- every power play of the tile set (each power tile with each tile at the other end, with a
  near tile of another total and of the same; the player's and the victim's question, and T
  asked first where the lesson asks T): the game's plays and the power drills are among them;
- a score below zero (``negative``);
- the round ends of :data:`ROUND_ENDS` seeded random rounds of the lesson's own game, played
  out by the engine (so the game's own rules say what a domino and a tranque collect), with
  the round-end questions the game asks (the count, the tens, a round's total below zero).

Everything is bounded and seeded, and cached per game: a lesson check or a session computes it
once.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from functools import lru_cache
from types import MappingProxyType

from engine.events import PowerEffect, RoundEnded
from engine.round import Round
from engine.rules import HouseRules, effect_rule, number_half, power_effect, variant
from engine.tiles import LEONARD, Tile
from tutor.games import Game, game
from tutor.teaching.diagnosis import CATALOG, mistake_skill, tells
from tutor.teaching.evidence import OTHER_END, is_trivial
from tutor.teaching.questions import (
    BOTH,
    TAKES,
    Perspective,
    Question,
    collect_question,
    power_questions,
    round_total_question,
    score_question,
    tens_question,
)

__all__ = ["DRILL_SKILLS", "POWER_DRILLS", "ROUND_END_DRILLS", "ROUND_ENDS", "Coverage",
           "LazyCoverage", "PooledEnd", "SkillCoverage",
           "coverage", "drill_sources", "item_tells", "round_end_pool",
           "skill_mistakes"]

ROUND_ENDS = 400
"""Seeded random rounds of the lesson's game whose ends are looked at: tranques come in 3–40%
of rounds (by the game), so each kind of round end shows many times over."""


@dataclass(frozen=True)
class SkillCoverage:
    """What the items of one skill in a lesson can tell apart."""

    skill: str
    shows: frozenset[str]
    """The skill's catalogue mistakes some item of the lesson tells apart: what mastery
    requires its row to rule out."""
    never: frozenset[str]
    """The skill's catalogue mistakes (:func:`skill_mistakes`) no item of the lesson shows."""
    kinds: tuple[frozenset[str], ...]
    """The different sets of mistakes one item tells apart (each kind of item once), for
    counting how many items a row still needs."""


Coverage = Mapping[str, SkillCoverage]
"""Per skill (only skills with items in the lesson)."""


ROUND_END_DRILLS: Mapping[str, str] = MappingProxyType(
    {"add": "collect", "subtract": "collect", "round": "tens"})
"""Skills a round's end drills, with the round-end question that asks them."""
DRILL_SKILLS = frozenset({"other-end", "add", "multiply", "square", "double", "negative",
                          "subtract", "round"})
"""Skills the drills between rounds can practise."""
POWER_DRILLS = frozenset({"other-end", "add", "multiply", "square", "double", "negative"})
"""Skills drilled with a power play (Leonard); the others with a round's end."""


def drill_sources(skill: str, g: Game, leonard: bool, ask: Iterable[str]) -> frozenset[str]:
    """Where the drill items of ``skill`` come from in a lesson of game ``g`` (``leonard``: its
    tile set has the power tiles) asking ``ask``: ``power`` (a power play of the Leonard set)
    and/or ``round_end`` (the end of a round of the game). A skill the game asks about both
    ways (``add``: the points of a +/n or −/n play, and a round's count) is drilled both ways,
    so that every mistake its questions can show has drill items that show it (issue 42
    part 1: the count a tranque collects shows ``counted_own_hand``, no power play does)."""
    out = set()
    if skill in POWER_DRILLS and leonard:
        out.add("power")
    kind = ROUND_END_DRILLS.get(skill)
    if kind is not None and (not out or ("round_end" in ask and kind in g.round_end)):
        out.add("round_end")
    return frozenset(out)


def item_tells(q: Question) -> tuple[str, frozenset[str]]:
    """The skill a right answer to ``q`` is proof of (its own; ``other-end`` for an item whose
    operation does nothing, :func:`tutor.teaching.evidence.is_trivial`) and the catalogue
    mistakes *of that skill* it tells apart: those whose skill it is, and those of the
    question's own computation (a times-table fact, a wrong factor, stopping at T: no one
    skill's, so the question's) unless the item is trivial."""
    ctx = q.context
    trivial = is_trivial(q.step, ctx.rule, ctx.n, ctx.t)
    skill = OTHER_END if trivial else q.skill
    own = set()
    for m in tells(q):
        of = mistake_skill(m)
        if of == skill or (of is None and not trivial):
            own.add(m)
    return skill, frozenset(own)


@lru_cache(maxsize=1)
def _leonard_universe() -> dict[str, frozenset[str]]:
    """Each skill's catalogue mistakes: its own (the catalogue's skill) and those of no one
    skill that show on some power play of that skill."""
    out: dict[str, set[str]] = {}
    for rule in CATALOG:
        if rule.skill is not None:
            out.setdefault(rule.skill, set()).add(rule.id)
    for skill, found in _power_kinds(0, True).items():
        for kind in found:
            out.setdefault(skill, set()).update(kind)
    return {s: frozenset(v) for s, v in out.items()}


def skill_mistakes(skill: str) -> frozenset[str]:
    """The catalogue mistakes of ``skill`` (what a lesson check lists as never shown when no
    item of the lesson can show them)."""
    return _leonard_universe().get(skill, frozenset())


def _add(out: dict[str, set[frozenset[str]]], q: Question) -> None:
    skill, told = item_tells(q)
    out.setdefault(skill, set()).add(told)


def _power_kinds(symbol_value: int, t_first: bool) -> dict[str, frozenset[frozenset[str]]]:
    """The kinds of power items of the Leonard set: every power tile played with every tile at
    the other end (and a near tile of another total, and of the same), asked of the player
    and of the victim (T first when ``t_first``), and a score below zero."""
    plays, t_steps = _power_items(symbol_value)
    if not t_first:
        return plays
    return {s: plays.get(s, frozenset()) | t_steps.get(s, frozenset())
            for s in set(plays) | set(t_steps)}


@lru_cache(maxsize=8)
def _power_items(symbol_value: int) -> tuple[dict[str, frozenset[frozenset[str]]],
                                             dict[str, frozenset[frozenset[str]]]]:
    """:func:`_power_kinds` computed once: the plays' questions, and the T questions asked
    first. Plays whose questions are the same numbers (the same row and number half, the
    other end's halves in either order) are looked at once."""
    found: dict[str, set[frozenset[str]]] = {}
    t_found: dict[str, set[frozenset[str]]] = {}
    tiles = list(LEONARD.tiles)
    basic = [t for t in tiles if not t.is_power]
    by_total: dict[int, Tile] = {}
    for tile in basic:
        by_total.setdefault(tile.total(symbol_value), tile)
    seen: set[tuple[object, ...]] = set()
    for played in (t for t in tiles if t.is_power):
        rule = effect_rule(played)
        for far in tiles:
            key = (rule, number_half(played), far.is_power,
                   tuple(sorted(str(h) for h in (far.a, far.b))))
            if far == played or key in seen:
                continue
            seen.add(key)
            gain, loss = power_effect(played, far, symbol_value)
            t = far.total(symbol_value)
            row = rule if not far.is_power else "power-vs-power"
            event = PowerEffect(0, 1, played, row, gain, loss, t, far, number_half(played))
            nears: list[Tile | None] = [n for n in (by_total.get(t), by_total.get((t + 1) % 13))
                                        if n is not None]
            perspectives: tuple[Perspective, ...] = (("player", "victim") if row in TAKES | BOTH
                                                     else ("player",))
            for near in nears or [None]:
                for perspective in perspectives:
                    for q in power_questions(event, perspective=perspective, near_tile=near,
                                             symbol_value=symbol_value, t_first=True):
                        _add(t_found if q.step == "T" else found, q)
            if loss:
                _add(found, score_question(event, 5, 5 - loss))
    return ({s: frozenset(v) for s, v in found.items()},
            {s: frozenset(v) for s, v in t_found.items()})


def _rules_key(rules: HouseRules) -> tuple[tuple[str, object], ...]:
    return tuple(sorted((k, tuple(sorted(v.items())) if isinstance(v, Mapping) else v)
                        for k, v in vars(rules).items()))


@dataclass(frozen=True)
class PooledEnd:
    """A round end of a game, played out by the engine, with what its questions tell apart."""

    end: RoundEnded
    hands: Mapping[int, tuple[Tile, ...]]
    """The tiles left in each hand."""
    items: Mapping[str, tuple[str, frozenset[str]]]
    """Per round-end question it calls for (``collect``, ``tens``, ``total``): the skill a
    right answer is proof of, and the mistakes of that skill the question tells apart."""


def round_end_pool(game_name: str, players: int,
                   rules: HouseRules | None = None) -> tuple[PooledEnd, ...]:
    """The round ends of :data:`ROUND_ENDS` seeded random rounds of a game, played out by the
    engine, each with the round-end questions it calls for: what a lesson of that game can
    ask at a round's end, and where its round-end drills come from
    (:func:`tutor.teaching.practice.pick_round_end`)."""
    rules = rules or HouseRules()
    key = (game_name, players, _rules_key(rules))
    if key not in _POOLS:
        _POOLS[key] = _pool(game_name, players, rules)
    return _POOLS[key]


_POOLS: dict[tuple[str, int, tuple[tuple[str, object], ...]], tuple[PooledEnd, ...]] = {}


def _pool(game_name: str, players: int, rules: HouseRules) -> tuple[PooledEnd, ...]:
    rng = random.Random(42)
    v = variant(game_name)
    out = []
    for _ in range(ROUND_ENDS):  # bounded
        rnd = Round.deal(v, rules, players, rng, record=False)
        rnd.playout(rng)
        end = rnd.ended
        hands = {s: tuple(rnd.hand(s)) for s in range(players)}
        items: dict[str, tuple[str, frozenset[str]]] = {}
        q = collect_question(end, hands={s: tuple(map(str, h)) for s, h in hands.items()})
        if q is not None:
            items["collect"] = item_tells(q)
        q = tens_question(end)
        if q is not None:
            items["tens"] = item_tells(q)
        totals = [item_tells(round_total_question(end, seat)) for seat in range(players)
                  if end.gains[seat] and end.scores[seat] < 0]
        if totals:
            items["total"] = ("negative", frozenset().union(*(t for _, t in totals)))
        if items:
            out.append(PooledEnd(end, hands, items))
    return tuple(out)


def coverage(game_name: str, players: int, ask: Iterable[str], rules: HouseRules | None = None,
             *, drills: Iterable[str] = (), t_first: bool = False) -> dict[str, SkillCoverage]:
    """What the items of a lesson can tell apart, per skill: a lesson of ``game_name`` with
    ``players`` asking ``ask`` (``power``, ``round_end``), drilling the skills ``drills``
    between rounds (:meth:`tutor.teaching.asking.Asker.drill`), asking T first when
    ``t_first`` (a lesson on the other end, or the ``T`` scaffold)."""
    rules = rules or HouseRules()
    ask = frozenset(ask)
    drills = frozenset(drills)
    g = game(game_name)
    leonard = variant(game_name).tileset is LEONARD
    kinds: dict[str, set[frozenset[str]]] = {}

    def take(found: Mapping[str, frozenset[frozenset[str]]],
             only: frozenset[str] | None = None) -> None:
        for skill, ks in found.items():
            if only is None or skill in only:
                kinds.setdefault(skill, set()).update(ks)

    if leonard and "power" in ask:
        take(_power_kinds(rules.symbol_value, False))
        if t_first:
            take(_power_kinds(rules.symbol_value, True), frozenset({OTHER_END}))
    round_asks = g.round_end if "round_end" in ask else frozenset()
    power_drills = frozenset(s for s in drills if "power" in drill_sources(s, g, leonard, ask))
    end_drills = {ROUND_END_DRILLS[s] for s in drills
                  if "round_end" in drill_sources(s, g, leonard, ask)}
    if power_drills:
        take(_power_kinds(rules.symbol_value, OTHER_END in power_drills),
             power_drills & POWER_DRILLS)
    asks = frozenset(round_asks) | frozenset(end_drills)
    if asks:
        drilled = frozenset(s for s in drills if "round_end" in drill_sources(s, g, leonard, ask))
        allowed = drilled | frozenset(s for s, k in ROUND_END_DRILLS.items() if k in round_asks)
        if "total" in round_asks:
            allowed |= {"negative"}
        for e in round_end_pool(game_name, players, rules):
            for kind, (skill, told) in e.items.items():
                if kind in asks and skill in allowed:
                    kinds.setdefault(skill, set()).add(told)
    out: dict[str, SkillCoverage] = {}
    for skill, ks in kinds.items():
        shows = frozenset().union(*ks)
        out[skill] = SkillCoverage(skill, shows, skill_mistakes(skill) - shows,
                                   tuple(sorted(ks, key=lambda k: (-len(k), sorted(k)))))
    return out


class LazyCoverage(Mapping[str, SkillCoverage]):
    """A coverage computed at its first use: a page's kernel computes it once the board is
    out (:meth:`tutor.session.session.Session.warm_up`), not before the page's first picture. The
    pieces are kept per game, so a second session pays nothing."""

    def __init__(self, compute: Callable[[], Mapping[str, SkillCoverage]]) -> None:
        self._compute = compute
        self._found: Mapping[str, SkillCoverage] | None = None

    def _get(self) -> Mapping[str, SkillCoverage]:
        if self._found is None:
            self._found = self._compute()
        return self._found

    def __getitem__(self, skill: str) -> SkillCoverage:
        return self._get()[skill]

    def __iter__(self) -> Iterator[str]:
        return iter(self._get())

    def __len__(self) -> int:
        return len(self._get())
