"""Adaptive practice (docs/rules.md §4): which plays become questions, when the scaffolds show, and
the short drill between rounds that covers a target skill the round left unpractised.

Every choice is a pure function of the lesson's plan, the student's mastery and a seeded
``random.Random``, so a seeded lesson asks the same questions on any machine.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType

from engine.events import PowerEffect, RoundEnded
from engine.rules import HouseRules, effect_rule, number_half, power_effect
from engine.tiles import LEONARD, Tile, TileSet
from tutor.games import DEFAULT_GAME, GAMES, game
from tutor.teaching.coverage import (
    DRILL_SKILLS,
    POWER_DRILLS,
    PooledEnd,
    SkillCoverage,
    coverage,
)
from tutor.teaching.evidence import OTHER_END
from tutor.teaching.mastery import MOST_STREAK, SKILLS, STREAK_TO_MASTER, Mastery

__all__ = ["DRILL_LIMIT", "DRILL_PER_SKILL", "DRILL_SKILLS", "DRILL_TOP_UPS", "DRILL_TRIES",
           "GAME_SKILLS", "POWER_DRILLS",
           "REMEDIATIONS_PER_ROUND", "REMEDIATION_TRIES", "DrillPosition", "EndDrill", "Plan",
           "Practice", "drill_position", "drill_round_end", "items_to_rule_out",
           "pick_round_end", "plan_coverage", "right_answers_to_mastery", "wanted"]

GAME_SKILLS: Mapping[str, frozenset[str]] = MappingProxyType(
    {name: g.skills for name, g in GAMES.items()})
"""What each game's scoring asks to compute (docs/rules.md §4), read from each game's entry in
:mod:`tutor.games` (kept for callers; the entries are the one place to change)."""
DRILL_LIMIT = 4
"""Questions a drill between rounds asks at most, when one or two skills are short."""
DRILL_PER_SKILL = 3
"""… and this many per skill short, when more are (shared out one item each in turn, each
skill as often as it still needs): six short skills get a drill of up to 18. A full match or
free play (no targets: it ends with its match) has three drills for six skills, and the deal
brings some (``square``) about once a match: 3 a drill lets a student who answers right show
the 7 in a row (:data:`~tutor.teaching.mastery.STREAK_TO_MASTER`) on each; with 2 only 74–82% of
perfect students did."""
MAX_RULES_SHARE = 0.1
"""The most of a round's questions that may be ``rules`` questions when the lesson does not
target them."""
REMEDIATIONS_PER_ROUND = 2
"""Items that tell a named mistake apart (:meth:`tutor.teaching.asking.Asker.remediate`) queued at
most this often per mistake and round."""
REMEDIATION_TRIES = 12
"""Drill positions tried for an item that tells a mistake apart (bounded)."""
DRILL_TOP_UPS = 3
"""Times a drill of a lesson without targets queues again what a skill still needs, once its
queued items are answered, for a student whose estimate of it is at the threshold
(:meth:`tutor.teaching.asking.Asker.drill`)."""
DRILL_TRIES = 12
"""Drill (and review) positions tried at most for one item, to find one that tells apart the
mistakes its skill's row has not ruled out yet (:func:`wanted`), or that is no trivial item
(×1, +0, T = 0) of a skill it does not test (bounded)."""
SCAFFOLDS = frozenset({"T", "blanks"})
"""``T``: ask T, the other end's total, before the points; ``blanks``: show the formula with
blanks for the other end's halves (``5 × (□ + □)``)."""


@dataclass(frozen=True)
class Plan:
    """What a lesson asks the tutor to practise."""

    targets: frozenset[str] = frozenset()
    """The lesson's target skills; none means every arithmetic skill (free play)."""
    scaffolds: frozenset[str] = frozenset()
    recheck: float = 0.25
    """How often a mastered skill (or one the lesson does not target) is asked anyway, to
    catch forgetting: one time in ``1 / recheck`` that it comes up, never more."""
    rules_per_round: int = 1
    """``rules`` questions asked at most this often per round, unless the lesson targets them."""
    drill: bool = True
    ask_bot_plays: bool = False
    """Ask about every bot power play (otherwise only when a target skill is short of
    practice)."""
    game: str = DEFAULT_GAME
    """The variant played: free play practises what its scoring asks
    (:attr:`tutor.games.Game.skills`)."""

    @property
    def focus(self) -> frozenset[str]:
        """The skills to practise: the lesson's targets, else those of the game's scoring."""
        return self.targets or game(self.game).skills


@dataclass
class Practice:
    """The tutor's choices for one student and lesson, with the round's practice so far."""

    plan: Plan
    rng: random.Random
    asked: Counter[str] = field(default_factory=Counter)
    """Questions asked per skill this round."""
    remediated: Counter[str] = field(default_factory=Counter)
    """Remediation items queued per catalogue mistake this round."""
    met: Counter[str] = field(default_factory=Counter)
    """Per skill, the computations met while it was not being practised (mastered, or not a
    target): the chances to recheck it."""
    phase: dict[str, int] = field(default_factory=dict)
    """Per skill, which of every ``1 / recheck`` such chances is asked (drawn once)."""
    cover: Mapping[str, SkillCoverage] = field(default_factory=dict)
    """What the lesson's items can tell apart, per skill (:func:`tutor.teaching.coverage.coverage`):
    the mistakes each skill's row must rule out, and the kinds of items that do."""

    def new_round(self) -> None:
        self.asked.clear()
        self.remediated.clear()

    def may_remediate(self, rule: str) -> bool:
        """Whether a named mistake still gets an item that tells it apart this round (at most
        :data:`REMEDIATIONS_PER_ROUND` per mistake, so a student who keeps making it is not
        held in drills)."""
        return self.remediated[rule] < REMEDIATIONS_PER_ROUND

    def count(self, skill: str) -> None:
        self.asked[skill] += 1

    def below(self, skill: str, mastery: Mastery) -> bool:
        return not mastery.state(skill).mastered

    def wants(self, skill: str, mastery: Mastery) -> bool:
        """Whether a computation of ``skill`` the student just met becomes a question: always
        for a target skill below mastery, now and then (``recheck``) for the others. A
        ``rules`` question the lesson does not target is asked at most ``rules_per_round``
        times a round, and only while rules questions stay within :data:`MAX_RULES_SHARE`
        of the round's questions (they involve no arithmetic)."""
        target = skill in self.plan.focus
        if skill == "rules" and not target:
            rules, total = self.asked[skill], sum(self.asked.values())
            if rules >= self.plan.rules_per_round or (rules + 1) > MAX_RULES_SHARE * (total + 1):
                return False
        if target and self.below(skill, mastery):
            return True
        return self._recheck(skill)

    def _recheck(self, skill: str) -> bool:
        """A skill not being practised (mastered, or not a target) is asked one time in
        ``1 / recheck`` (4) that it comes up, at a seeded random place among each 4: about
        as often as a draw would ask it, and never more (docs/rules.md §4: after mastery a skill
        is asked at most 1 time in 4 in the lesson, to catch forgetting)."""
        if self.plan.recheck <= 0:
            return False
        period = max(1, round(1 / self.plan.recheck))
        met = self.met[skill]
        self.met[skill] += 1
        phase = self.phase.setdefault(skill, self.rng.randrange(period))
        return met % period == phase

    def wants_other_end(self, mastery: Mastery) -> bool:
        """A lesson practising the other end, below its mastery: every power play of the
        student asks for T, alone if the play's own skill is not wanted (docs/rules.md §4)."""
        return "other-end" in self.plan.targets and self.below("other-end", mastery)

    def short_of_practice(self, skill: str, mastery: Mastery) -> bool:
        """A target skill below mastery with fewer than two questions this round: a bot's play
        of it becomes a question too."""
        return (skill in self.plan.focus and self.below(skill, mastery)
                and self.asked[skill] < 2)

    def scaffold(self, kind: str, skill: str, mastery: Mastery) -> bool:
        """Whether scaffold ``kind`` shows for a question of ``skill``: the lesson turned it on,
        the skill is below mastery, and the scaffolds have not faded yet. They fade after
        :data:`~tutor.teaching.mastery.FADE_AFTER` right scaffolded answers, before mastery can be
        reached (a scaffolded right answer is practice, not proof: docs/rules.md §4); an
        unscaffolded first answer counted wrong brings them back until they fade again."""
        return (kind in self.plan.scaffolds and self.below(skill, mastery)
                and not mastery.state(skill).scaffold_faded)

    def t_first(self, skill: str, mastery: Mastery) -> bool:
        """Ask T before the points: the scaffold, or a lesson practising the other end."""
        return (self.scaffold("T", skill, mastery)
                or ("other-end" in self.plan.targets and self.below("other-end", mastery)))

    def drill_skills(self, mastery: Mastery, limit: int | None = None) -> list[str]:
        """The drill after a round: the target skills still below mastery, the least
        practised this round first, each as often as it still needs right answers to reach
        mastery (:func:`right_answers_to_mastery`), at most ``limit`` questions in all and
        at least two when there is any. ``limit`` defaults to :data:`DRILL_LIMIT`, or
        :data:`DRILL_PER_SKILL` per skill short when more skills are short: a drill gives
        each skill the round left short the same room, however many skills the lesson
        practises (six in a full match or free play, which end with their match and have
        only their drills to practise what the deal brings too seldom)."""
        if not self.plan.drill:
            return []
        short = sorted((s for s in SKILLS if s in self.plan.focus and s in DRILL_SKILLS
                        and self.below(s, mastery)), key=lambda s: self.asked[s])
        needs = {s: right_answers_to_mastery(mastery, s, self.cover.get(s)) for s in short}
        if limit is None:
            limit = max(DRILL_LIMIT, DRILL_PER_SKILL * len(short))
        picked: list[str] = []
        while short and len(picked) < limit and any(needs.values()):
            for s in short:
                if needs[s] and len(picked) < limit:
                    picked.append(s)
                    needs[s] -= 1
        while short and len(picked) < 2:
            picked.append(short[0])
        return picked


def wanted(mastery: Mastery, skill: str, requires: Iterable[str] = (),
           coming: Mapping[str, int] | None = None) -> list[str]:
    """The mistakes of ``skill`` its current row has still to rule out, in the order a drill
    looks for items telling them apart: the misconceptions the student has shown first, then
    those of ``requires`` (what the lesson can show), the most short first. ``coming``: the
    items already queued for it, by mistake they tell apart (counted as if answered right)."""
    st = mastery.state(skill)
    coming = coming or {}
    short = {m: mastery.needed(st, m) - st.told.get(m, 0) - coming.get(m, 0)
             for m in set(requires) | st.shown}
    return sorted((m for m, n in short.items() if n > 0),
                  key=lambda m: (m not in st.shown, -short[m], m))


def items_to_rule_out(mastery: Mastery, skill: str, cover: SkillCoverage,
                      leave_out: Iterable[str] = ()) -> int:
    """How many right answers the row of ``skill`` still needs to rule out every mistake the
    lesson can show (``cover``; but ``leave_out``): each item of one of the lesson's kinds
    rules out its kind's mistakes, so this is the count of items, the best kind each time
    (greedy, bounded by the mistakes' needs)."""
    st = mastery.state(skill)
    left = frozenset(leave_out)
    short = {m: mastery.needed(st, m) - st.told.get(m, 0) for m in cover.shows if m not in left}
    n = 0
    while any(v > 0 for v in short.values()) and cover.kinds:
        best = max(cover.kinds, key=lambda k: sum(short.get(m, 0) > 0 for m in k))
        if not any(short.get(m, 0) > 0 for m in best):
            break
        for m in best:
            if m in short:
                short[m] -= 1
        n += 1
    return n


def right_answers_to_mastery(mastery: Mastery, skill: str,
                             cover: SkillCoverage | None = None,
                             leave_out: Iterable[str] = ()) -> int:
    """How many right first answers in a row would take ``skill`` to mastery: the BKT
    estimate at the threshold, the streak mastery needs now (:meth:`Mastery.streak_needed`,
    longer after a misconception) and, with the lesson's ``cover``, the items that still have
    to rule out each mistake it can show (:func:`items_to_rule_out`; ``leave_out``: but
    these)."""
    st = mastery.state(skill)
    needed = mastery.streak_needed(st)
    if cover is not None and st.shown <= cover.shows:
        needed = STREAK_TO_MASTER  # the longer rows are counted per mistake (below)
    n = min(MOST_STREAK, max(0, needed - st.streak, mastery.right_answers_to_threshold(st)))
    return max(n, 0 if cover is None else items_to_rule_out(mastery, skill, cover, leave_out))


# --- drill positions: real tiles of the Leonard set, scored by the engine -----------------------

_TILES_FOR: dict[str, tuple[str, ...]] = {
    "multiply": ("x/n",),
    "add": ("+/n", "-/n"),
    "square": ("x/x",),
    "double": ("+/+", "-/-", "x/+"),
    "other-end": ("+/-", "x/n", "+/n"),
    "negative": ("-/n", "-/-"),
}


@dataclass(frozen=True)
class DrillPosition:
    """A practice position: a short legal line of real tiles with the power tile just placed
    at one end (``played_end``, ``L`` or ``R``) and the T tile at the other. ``event`` is the
    engine's scoring of that play; for a ``negative`` drill ``round_end`` is a round whose
    losses (that play's) outweigh its gains, with the round's score from the engine's
    :class:`~engine.RoundEnded`. ``line`` is left to right, each tile with its left half
    first, as :meth:`engine.round.Round.line_tiles` gives a game's line."""

    line: tuple[Tile, ...]
    event: PowerEffect
    round_end: RoundEnded | None = None
    played_end: str = "R"
    """The end where the power tile went; the T tile is at the other end."""

    @property
    def near_tile(self) -> Tile:
        """The tile the power tile went next to."""
        return self.line[-2] if self.played_end == "R" else self.line[1]

    @property
    def t_tile(self) -> Tile:
        """The tile at the other end, whose total is T."""
        return self.line[0] if self.played_end == "R" else self.line[-1]


DRILL_CHAIN = (2, 5)
"""How many tiles the line holds before the power tile is placed (the T tile included)."""
DRILL_ATTEMPTS = 30
"""Random positions tried before the deterministic fallback (the search is bounded)."""


def _chain(t_tile: Tile, played: Tile, length: int, rng: random.Random) -> list[Tile] | None:
    """A random legal line of ``length`` different tiles of the set starting at ``t_tile``
    (its free half outward), each tile's first half matching the previous one's second half,
    the last one's second half a half of ``played``; None when the walk gets stuck."""
    used = {t_tile, played}
    chain = [t_tile.oriented(rng.choice((t_tile.a, t_tile.b)))]
    while len(chain) < length:
        end = chain[-1].b
        last = len(chain) == length - 1
        options = [t.oriented(end) for t in LEONARD.tiles
                   if t not in used and end in (t.a, t.b)
                   and (not last or t.oriented(end).b in (played.a, played.b))]
        if not options:
            return None
        chain.append(rng.choice(options))
        used.add(chain[-1])
    return chain if chain[-1].b in (played.a, played.b) else None


def _fallback_chain(power: list[Tile], basic: list[Tile]) -> tuple[Tile, list[Tile]]:
    """The first position in the set's order: a T tile, a bridge, the played tile (the
    previous construction; reached only if every random attempt got stuck)."""
    for played in power:
        for t_tile in basic:
            bridge = Tile(t_tile.b, played.a)
            if bridge not in (t_tile, played):
                return played, [t_tile, bridge]
    raise AssertionError("the Leonard set always has such a position")  # pragma: no cover


def drill_position(skill: str, rng: random.Random, seat: int = 0, players: int = 2,
                   symbol_value: int = 0) -> DrillPosition:
    """A real position of the Leonard set that practises ``skill`` (e.g. x/x on 3/4): a
    random legal line of 2–5 different tiles (:data:`DRILL_CHAIN`) with a basic T tile at
    one end, and the power tile just placed at the other end, left or right at random; the
    points come from the engine's :func:`engine.power_effect`. Seeded by ``rng``; bounded
    (:data:`DRILL_ATTEMPTS` random tries, then a fixed position)."""
    rows = _TILES_FOR[skill]
    power = [t for t in LEONARD.tiles if t.is_power and effect_rule(t) in rows]
    basic = [t for t in LEONARD.tiles if not t.is_power]
    for _ in range(DRILL_ATTEMPTS):
        played, t_tile = rng.choice(power), rng.choice(basic)
        chain = _chain(t_tile, played, rng.randint(*DRILL_CHAIN), rng)
        if chain is not None:
            break
    else:
        played, chain = _fallback_chain(power, basic)
    match = chain[-1].b  # the played tile goes onto this half
    placed = played.oriented(match)  # as on the score sheet: the matched half first
    if rng.random() < 0.5:
        line, played_end = (*chain, placed), "R"
    else:
        line = (placed.flipped(), *(t.flipped() for t in reversed(chain)))
        played_end = "L"
    far = line[0] if played_end == "R" else line[-1]  # the T tile, as the line shows it
    gain, loss = power_effect(played, far, symbol_value)
    # A negative drill is a loss the student suffers: the play is the previous seat's.
    player = (seat - 1) % players if skill == "negative" else seat
    event = PowerEffect(player, (player + 1) % players, placed, effect_rule(played), gain, loss,
                        far.total(symbol_value), far, number_half(played))
    end = None
    if skill == "negative":
        gains, losses = [0] * players, [0] * players
        gains[seat], losses[seat] = rng.randrange(1, max(2, loss)), loss
        end = RoundEnded("domino", None, tuple(gains), tuple(losses), (0,) * players)
    return DrillPosition(tuple(line), event, end, played_end)


def _rotated(end: RoundEnded, seat: int) -> tuple[RoundEnded, int]:
    """``end`` with the seats turned so that its winner sits at ``seat`` (and how far they
    turned): a drill's student is the one who collects."""
    assert end.winner is not None
    n = len(end.hand_totals)
    k = (seat - end.winner) % n

    def by_seat(values: tuple[int, ...]) -> tuple[int, ...]:
        return tuple(values[(s - k) % n] for s in range(n)) if values else values

    return RoundEnded(
        reason=end.reason, winner=seat, gains=by_seat(end.gains), losses=by_seat(end.losses),
        hand_totals=by_seat(end.hand_totals), capicua=end.capicua, count=end.count,
        points=end.points, differences=by_seat(end.differences),
        teams=tuple(tuple((s + k) % n for s in team) for team in end.teams),
        team_totals=end.team_totals, team=end.team,
        blocker=None if end.blocker is None else (end.blocker + k) % n), k


def pick_round_end(pool: Sequence[PooledEnd], kind: str, skill: str, rng: random.Random,
                   seat: int, want: Sequence[str] = ()) -> EndDrill | None:
    """A round end of the lesson's own game to drill ``skill`` with its ``kind`` of question
    (``collect``, ``tens``): one of ``pool`` (:func:`tutor.teaching.coverage.round_end_pool`,
    real round ends the engine played out, so the count is the game's own, a domino's or a
    tranque's), among those telling apart the first mistake of ``want`` that some of them
    tell, turned so that the student (``seat``) collects. None if the pool has no such end."""
    fits = [e for e in pool if e.items.get(kind, ("", frozenset()))[0] == skill]
    for m in want:
        telling = [e for e in fits if m in e.items[kind][1]]
        if telling:
            fits = telling
            break
    if not fits:
        return None
    chosen = fits[rng.randrange(len(fits))]
    turned, k = _rotated(chosen.end, seat)
    players = len(chosen.end.hand_totals)
    return EndDrill({(s + k) % players: h for s, h in chosen.hands.items()}, turned)


@dataclass(frozen=True)
class EndDrill:
    """A practice round end: the hands left (tiles by seat) and the engine-style result of
    counting them (:class:`~engine.RoundEnded`)."""

    hands: dict[int, tuple[Tile, ...]]
    end: RoundEnded


def drill_round_end(skill: str, rng: random.Random, tileset: TileSet, seat: int = 0,
                    players: int = 3) -> EndDrill:
    """A round end to practise ``skill`` with ``tileset``'s tiles: a game's own drill for
    the skill (:attr:`tutor.games.Game.drills`: the traditional block's differences for
    ``subtract``, Ponce's count in tens for ``round``), else ``add``, a domino: the other
    hands' points."""
    drill = next((d for g in GAMES.values() for d in g.drills if d.skill == skill), None)
    while True:
        dealt = rng.sample(tileset.tiles, 3 * players)
        hands = {s: tuple(dealt[3 * s: 3 * s + 3]) for s in range(players)}
        totals = tuple(sum(t.total() for t in hands[s]) for s in range(players))
        if drill is None or drill.went_out:
            hands[seat] = ()
            totals = tuple(0 if s == seat else v for s, v in enumerate(totals))
        if drill is None:
            count = sum(totals)
            end: RoundEnded | None = RoundEnded("domino", seat, totals, (0,) * players, totals,
                                                count=count, points=count)
        else:
            end = drill.end(totals, seat)
        if end is not None:
            return EndDrill(hands, end)


def plan_coverage(plan: Plan, players: int, ask: Iterable[str],
                  rules: HouseRules | None = None) -> dict[str, SkillCoverage]:
    """:func:`tutor.teaching.coverage.coverage` of a lesson's plan (:class:`Plan`): its game,
    the skills it drills (its focus, when it drills), T first when it practises the other end
    or scaffolds with T. The asker and ``python -m tutor lessons check`` both call it."""
    return coverage(plan.game, players, ask, rules,
                    drills=[s for s in plan.focus if s in DRILL_SKILLS] if plan.drill else (),
                    t_first=OTHER_END in plan.targets or "T" in plan.scaffolds)
