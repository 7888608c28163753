"""Buggy rules: the wrong answers students typically give, which mistake an answer shows, and
which skill that mistake is evidence against (docs/rules.md §4: blame follows the diagnosis).

Every rule is a function of the question's numbers (the tile's rule, n, T, the halves of the
T tile, the near-end tile's total, the hands, the score before a loss) returning the wrong
values that mistake would produce. A value the question accepts as right is never a mistake's
value, so a correct answer is never "diagnosed". When several mistakes explain the same
answer, the most likely one by :data:`LIKELIHOOD` is named, and the message says it might be
that one.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Literal

from engine.rules import effect_from_total
from tutor.i18n import N_, normalize_lang, translator
from tutor.teaching.questions import Question, seat_name

__all__ = ["CATALOG", "LIKELIHOOD", "MISTAKE_CODES", "MISTAKE_NAMES", "TYPO_KINDS", "BuggyRule",
           "Diagnosis", "candidates", "diagnose", "is_typo", "mistake_skill", "mistake_value",
           "specific", "tells", "tells_apart", "typos"]

Kind = Literal["correct", "named", "likely", "slip"]

T_RULES = ("x/n", "+/n", "-/n", "x/x", "+/+", "-/-", "+/-", "x/+", "x/-")


def _effect(q: Question, t: int) -> int:
    """The question's step computed with another T, by the engine's own formula."""
    ctx = q.context
    gain, loss = effect_from_total(ctx.rule, ctx.n, t)
    return loss if q.step == "loss" else gain


def _t(q: Question) -> int:
    assert q.context.t is not None
    return q.context.t


def _power(q: Question, *rules: str) -> bool:
    return q.step in ("gain", "loss") and q.context.rule in rules


def _with_t(q: Question, t: int) -> Iterable[int]:
    """The answer had T been ``t``: the T step itself, or the play computed with it."""
    if q.step == "T":
        yield t
    elif _power(q, *T_RULES):
        yield _effect(q, t)


# --- the catalog: one function per mistake -----------------------------------------------------

def added_instead_of_multiplied(q: Question) -> Iterable[int]:
    """x/n as n + T (and x/+ as 1 + T + T, x/- as 1 + T)."""
    if _power(q, "x/n"):
        yield q.context.n + _t(q)
    if _power(q, "x/+"):
        yield 1 + _t(q) + _t(q)
    if _power(q, "x/-"):
        yield 1 + _t(q)


def order_of_operations(q: Question) -> Iterable[int]:
    """The brackets left out of n × (a + b): x/n on a/b as n × a + b or a + n × b (the
    tile's number multiplying one half, not the whole total), or n + a × b (the × put
    between the halves). (On +/+, 2 × a + b is as near the answer as a slip: not named.)"""
    halves = q.context.t_halves
    if halves is None or not _power(q, "x/n"):
        return
    a, b, n = halves[0], halves[1], q.context.n
    yield n * a + b
    yield a + n * b
    yield n + a * b


def multiplied_instead_of_added(q: Question) -> Iterable[int]:
    """+/n and -/n as n × T; T as the product of its halves."""
    if _power(q, "+/n", "-/n"):
        yield q.context.n * _t(q)
    if q.step == "T" and q.context.t_halves is not None:
        yield q.context.t_halves[0] * q.context.t_halves[1]


def doubled_instead_of_squared(q: Question) -> Iterable[int]:
    """x/x as 2 × T."""
    if _power(q, "x/x"):
        yield 2 * _t(q)


def squared_instead_of_doubled(q: Question) -> Iterable[int]:
    """+/+ and -/- as T × T."""
    if _power(q, "+/+", "-/-"):
        yield _t(q) * _t(q)


def sum_of_squares(q: Question) -> Iterable[int]:
    """x/x on a tile a/b as a² + b² instead of (a + b)²."""
    halves = q.context.t_halves
    if _power(q, "x/x") and halves is not None:
        yield halves[0] ** 2 + halves[1] ** 2


def forgot_own_number(q: Question) -> Iterable[int]:
    """+/n or -/n as T alone (the tile's own number left out)."""
    if _power(q, "+/n", "-/n"):
        yield _t(q)


def subtracted_own_number(q: Question) -> Iterable[int]:
    """-/n as T − n: the minus sign read as "subtract the tile's number"."""
    if _power(q, "-/n"):
        yield abs(_t(q) - q.context.n)


def plus_minus_as_double(q: Question) -> Iterable[int]:
    """+/- counted as 2 × T: the gain and the loss added up as one player's points."""
    if _power(q, "+/-"):
        yield 2 * _t(q)


def used_near_end(q: Question) -> Iterable[int]:
    """T taken from the tile at the end where the power tile went, not the other end."""
    if q.context.near_total is not None:
        yield from _with_t(q, q.context.near_total)


def one_half_only(q: Question) -> Iterable[int]:
    """T counted as one half of the tile at the other end."""
    halves = q.context.t_halves
    if halves is not None and q.context.rule != "power-vs-power":
        for h in halves:
            yield from _with_t(q, h)


def forgot_symbol_value(q: Question) -> Iterable[int]:
    """A symbol half of the other end counted as 0 where the house rule (D-1) gives it a
    value."""
    ctx = q.context
    if ctx.t is not None and ctx.t_symbols and ctx.symbol_value:
        yield from _with_t(q, ctx.t - ctx.t_symbols * ctx.symbol_value)


def times_table_slip(q: Question) -> Iterable[int]:
    """One step off in the times table: n × T ± n (x/n, n ≥ 3), T × T ± T (x/x). (2 × T ± 2
    on +/+ and n × T ± n for n ≤ 2 are too near the answer to tell from a slip.)"""
    ctx = q.context
    step = _t(q) if _power(q, "x/x") else ctx.n if _power(q, "x/n") and ctx.n >= 3 else 0
    if step:
        yield q.expected + step
        yield q.expected - step


def wrong_factor(q: Question) -> Iterable[int]:
    """Multiplied by the wrong factor: (n ± 1) × T for x/n. (3 × T for +/+ is not named: it
    is as near the answer as a slip.)"""
    if _power(q, "x/n"):
        yield (q.context.n + 1) * _t(q)
        if q.context.n > 1:
            yield (q.context.n - 1) * _t(q)


def forgot_to_double(q: Question) -> Iterable[int]:
    """+/+, -/- or x/+ with T counted once."""
    if _power(q, "+/+", "-/-", "x/+"):
        yield _t(q)


def stopped_at_t(q: Question) -> Iterable[int]:
    """Answered T, the other end's total, without applying x/n or x/x."""
    if _power(q, "x/n", "x/x"):
        yield _t(q)


def ignored_power_vs_power(q: Question) -> Iterable[int]:
    """Two power tiles at the ends: applied the played tile's own rule instead of the flat 30."""
    ctx = q.context
    if ctx.rule == "power-vs-power" and ctx.t is not None and ctx.own_rule:
        gain, loss = effect_from_total(ctx.own_rule, ctx.n, ctx.t)
        yield loss if q.step == "loss" else gain


def counted_own_hand(q: Question) -> Iterable[int]:
    """Round end: the winner's own hand added to what they collect."""
    if q.step == "collect" and q.context.winner_hand and q.context.counted == "others":
        yield q.expected + q.context.winner_hand


def added_the_hands(q: Question) -> Iterable[int]:
    """The traditional block: the other hands added up instead of their differences to the
    lowest hand."""
    if q.step == "collect" and q.context.counted == "block":
        yield sum(q.context.hands)


def rounded_down(q: Question) -> Iterable[int]:
    """A count in tens rounded down (25 → 2) where half goes up."""
    if q.step == "tens":
        yield q.context.count // 10


def did_not_round(q: Question) -> Iterable[int]:
    """The count given as it is, not in tens."""
    if q.step == "tens":
        yield q.context.count


def missed_a_hand(q: Question) -> Iterable[int]:
    """Round end: one of the other hands left out of the sum."""
    hands = q.context.hands
    if q.step == "collect" and len(hands) > 1:
        for h in hands:
            if h:
                yield q.expected - h


def dropped_the_minus(q: Question) -> Iterable[int]:
    """A score below zero written without its minus sign (12 − 15 as 3)."""
    if q.step in ("score", "total") and q.expected < 0:
        yield -q.expected


def stopped_at_zero(q: Question) -> Iterable[int]:
    """A score that should go below zero stopped at 0."""
    if q.step in ("score", "total") and q.expected < 0:
        yield 0


def added_the_loss(q: Question) -> Iterable[int]:
    """The points lost added to the score instead of taken away."""
    if q.step in ("score", "total"):
        yield q.context.before + q.context.taken


def wrong_player_loses(q: Question) -> Iterable[int]:
    """The loss put on another player: this player's score left as it was."""
    if q.step == "score":
        yield q.context.before


@dataclass(frozen=True)
class BuggyRule:
    """A named mistake: the function producing its wrong values, the message naming it and
    the skill it is evidence against (``None``: the question's own skill)."""

    id: str
    values: Callable[[Question], Iterable[int]]
    message: str
    """A msgid; ``{n}``, ``{t_tile}``, ``{near_tile}``, ``{a}``, ``{b}`` (the factors),
    ``{h1}``, ``{h2}`` (the other end's halves), ``{target}`` are filled in."""
    skill: str | None = None


CATALOG: tuple[BuggyRule, ...] = (
    BuggyRule("added_instead_of_multiplied", added_instead_of_multiplied,
              N_("It looks like you added where the × sign asks you to multiply."), "multiply"),
    BuggyRule("order_of_operations", order_of_operations,
              N_("The brackets come first: add the halves, {h1} + {h2}, then multiply the "
                 "whole total by {a}: {a} × ({h1} + {h2}), not {a} times one half."),
              "multiply"),
    BuggyRule("multiplied_instead_of_added", multiplied_instead_of_added,
              N_("It looks like you multiplied, but here the numbers are added."), "add"),
    BuggyRule("doubled_instead_of_squared", doubled_instead_of_squared,
              N_("You doubled T. The x/x tile squares it: T × T."), "square"),
    BuggyRule("squared_instead_of_doubled", squared_instead_of_doubled,
              N_("You squared T. This tile doubles it: 2 × T."), "double"),
    BuggyRule("sum_of_squares", sum_of_squares,
              N_("You squared each half and added them. First add the halves to get T, then "
                 "square T: (a + b)² is not a² + b²."), "square"),
    BuggyRule("forgot_own_number", forgot_own_number,
              N_("You gave T only. Add the tile's own number, {n}, too."), "add"),
    BuggyRule("subtracted_own_number", subtracted_own_number,
              N_("The minus sign does not subtract the tile's number: the next player loses "
                 "{n} + T."), "add"),
    BuggyRule("plus_minus_as_double", plus_minus_as_double,
              N_("The +/- tile gives T to its player and takes T from the next player: each "
                 "of them counts T once, not 2 × T."), "rules"),
    BuggyRule("used_near_end", used_near_end,
              N_("You used the tile at the end where the tile was placed ({near_tile}). T is "
                 "the total of the tile at the other end ({t_tile})."), "other-end"),
    BuggyRule("one_half_only", one_half_only,
              N_("You counted only one half of {t_tile}. T is the total of both halves."),
              "other-end"),
    BuggyRule("forgot_symbol_value", forgot_symbol_value,
              N_("In this game a symbol half (+, -, x) is worth {value}. Count it in T."),
              "other-end"),
    BuggyRule("times_table_slip", times_table_slip,
              N_("Close: that is one step off in the times table. Check {a} × {b} again.")),
    BuggyRule("wrong_factor", wrong_factor,
              N_("You multiplied by the wrong number: the factor is {a}.")),
    BuggyRule("forgot_to_double", forgot_to_double,
              N_("You counted T once. This tile counts it twice."), "double"),
    BuggyRule("stopped_at_t", stopped_at_t,
              N_("That is T, the total at the other end. Now apply the tile's rule to it.")),
    BuggyRule("ignored_power_vs_power", ignored_power_vs_power,
              N_("Look at the other end ({t_tile}): it is a power tile too. That changes the "
                 "rule."), "rules"),
    BuggyRule("counted_own_hand", counted_own_hand,
              N_("You also counted the winner's own hand. The winner collects only the other "
                 "players' hands."), "add"),
    BuggyRule("missed_a_hand", missed_a_hand,
              N_("You left out one of the hands. Add the points of every other hand."), "add"),
    BuggyRule("added_the_hands", added_the_hands,
              N_("You added the other hands. In a traditional block the lowest hand collects "
                 "only what each other hand holds more than it: subtract first."), "subtract"),
    BuggyRule("rounded_down", rounded_down,
              N_("You rounded down. A count in tens goes up from half: 25 counts as 3."),
              "round"),
    BuggyRule("did_not_round", did_not_round,
              N_("That is the count itself. Count it in tens: 28 counts as 3."), "round"),
    BuggyRule("dropped_the_minus", dropped_the_minus,
              N_("The score goes below zero here, so it needs a minus sign."), "negative"),
    BuggyRule("stopped_at_zero", stopped_at_zero,
              N_("A score does not stop at 0: it goes below zero and becomes negative."),
              "negative"),
    BuggyRule("added_the_loss", added_the_loss,
              N_("Points lost are taken away from the score, not added to it."), "negative"),
    BuggyRule("wrong_player_loses", wrong_player_loses,
              N_("Player {target} is the one who loses these points: their score goes down."),
              "rules"),
)

MISTAKE_NAMES: dict[str, str] = {
    "added_instead_of_multiplied": N_("added instead of multiplying"),
    "multiplied_instead_of_added": N_("multiplied instead of adding"),
    "order_of_operations": N_("left out the brackets (multiplied one half, not the total)"),
    "doubled_instead_of_squared": N_("doubled T instead of squaring it"),
    "squared_instead_of_doubled": N_("squared T instead of doubling it"),
    "sum_of_squares": N_("squared each half and added them (a² + b²)"),
    "forgot_own_number": N_("left out the tile's own number"),
    "subtracted_own_number": N_("subtracted the tile's own number"),
    "plus_minus_as_double": N_("counted T twice on a +/- play"),
    "used_near_end": N_("used the near end instead of the other end"),
    "one_half_only": N_("counted only one half of the other end"),
    "forgot_symbol_value": N_("left out the value of a symbol half"),
    "times_table_slip": N_("a slip in the times table"),
    "wrong_factor": N_("multiplied by the wrong number"),
    "forgot_to_double": N_("counted T once instead of twice"),
    "stopped_at_t": N_("stopped at T"),
    "ignored_power_vs_power": N_("missed the power tile at the other end"),
    "counted_own_hand": N_("counted the winner's own hand"),
    "missed_a_hand": N_("left out one of the hands"),
    "dropped_the_minus": N_("dropped the minus sign"),
    "stopped_at_zero": N_("stopped at zero"),
    "added_the_loss": N_("added the points lost"),
    "wrong_player_loses": N_("took the points from the wrong player"),
    "added_the_hands": N_("added the hands instead of taking the differences"),
    "rounded_down": N_("rounded a half ten down instead of up"),
    "did_not_round": N_("gave the points without rounding them to tens"),
}
"""A short name of each catalogue mistake, for the student and the teacher (the mastery
evidence's "ruled out: …", the teacher's tables); translate with
``tutor.i18n.gettext(MISTAKE_NAMES[id], lang)``."""

MISTAKE_CODES: dict[str, str] = {
    "added_instead_of_multiplied": "am", "order_of_operations": "oo",
    "multiplied_instead_of_added": "ma", "doubled_instead_of_squared": "ds",
    "squared_instead_of_doubled": "sd", "sum_of_squares": "ss", "forgot_own_number": "fn",
    "subtracted_own_number": "sn", "plus_minus_as_double": "pd", "used_near_end": "ne",
    "one_half_only": "oh", "forgot_symbol_value": "sv", "times_table_slip": "tt",
    "wrong_factor": "wf", "forgot_to_double": "fd", "stopped_at_t": "st",
    "ignored_power_vs_power": "pp", "counted_own_hand": "ch", "missed_a_hand": "mh",
    "added_the_hands": "ah", "rounded_down": "rd", "did_not_round": "nr",
    "dropped_the_minus": "dm", "stopped_at_zero": "sz", "added_the_loss": "al",
    "wrong_player_loses": "wp",
}
"""A short, fixed code for each catalogue mistake: how a stored attempt's step name lists the
mistakes its question told apart (:func:`tutor.teaching.evidence.step_name`). A code, once
given, never changes nor is given to another mistake: stored attempts keep it."""

LIKELIHOOD: tuple[str, ...] = (
    # Mixing up what an operation sign means is the commonest mistake on these plays, then
    # the misconceptions of sign and of squares, then mistakes about where T comes from (a
    # symbol half left out before "one half only": with a symbol half it is the specific
    # reason); arithmetic slips are the least specific explanation, so they come last.
    "added_instead_of_multiplied", "multiplied_instead_of_added", "order_of_operations",
    "doubled_instead_of_squared",
    "squared_instead_of_doubled", "sum_of_squares", "dropped_the_minus", "stopped_at_zero",
    "added_the_loss", "forgot_own_number", "subtracted_own_number", "plus_minus_as_double",
    "forgot_to_double", "stopped_at_t", "times_table_slip", "used_near_end",
    "forgot_symbol_value",
    "one_half_only", "ignored_power_vs_power", "wrong_player_loses", "added_the_hands",
    "did_not_round", "rounded_down", "counted_own_hand", "missed_a_hand", "wrong_factor",
)
"""The order in which to name a mistake when several explain the same answer."""

_BY_ID = {r.id: r for r in CATALOG}
_RANK = {rid: i for i, rid in enumerate(LIKELIHOOD)}
assert set(_RANK) == set(_BY_ID), "every catalog mistake has a place in LIKELIHOOD"
assert set(MISTAKE_NAMES) == set(_BY_ID) == set(MISTAKE_CODES), "a name and a code each"
assert len(set(MISTAKE_CODES.values())) == len(MISTAKE_CODES), "codes are one a mistake"

MSG_CORRECT = N_("Right!")
MSG_SLIP = N_("Not yet. Check your arithmetic and try again.")
MSG_MAYBE = N_("Not yet. It might be this: {message}")


@dataclass(frozen=True)
class Diagnosis:
    """What an answer shows: right, one named mistake, the likeliest of several, or a slip."""

    kind: Kind
    rule: str | None
    """The catalog id named (``named`` or ``likely``)."""
    message: str
    candidates: tuple[str, ...] = ()
    """Every catalog rule that explains the answer, likeliest first."""
    skill: str | None = None
    """The skill this answer is evidence about: the named mistake's skill, else the
    question's."""

    @property
    def correct(self) -> bool:
        return self.kind == "correct"


def candidates(question: Question) -> dict[str, frozenset[int]]:
    """Each applicable catalog rule's wrong values for ``question`` (right values removed;
    rules left with no value are not listed)."""
    out: dict[str, frozenset[int]] = {}
    for rule in CATALOG:
        values = frozenset(v for v in rule.values(question) if v not in question.accepted)
        if values:
            out[rule.id] = values
    return out


SLIP_SHARE = 0.1
"""The most of an answer's slip range (:func:`slip_spread`) that named mistakes may cover: a
student with no misconception whose answer is a slip is told of a mistake they did not make
at most about this often (issue 32, docs/rules.md §4)."""


def slip_spread(question: Question) -> int:
    """How far a slip may land from the right answer: half of it, at least 3 (the wrong
    answers of a student with no misconception, as the ``random`` simulated student gives)."""
    return max(3, abs(question.expected) // 2)


def specific(question: Question) -> dict[str, frozenset[int]]:
    """The values of :func:`candidates` that tell a mistake from a slip. A value farther
    from the right answer than :func:`slip_spread` always does. Of the values within it, only
    as many as :data:`SLIP_SHARE` of that range (at least one) are kept: first each rule's
    own value (the one :func:`mistake_value` gives), the likeliest rules' (:data:`LIKELIHOOD`)
    first, then their other values. A value kept for one rule stays a candidate of every
    rule that gives it."""
    expected, spread = question.expected, slip_spread(question)
    room = max(1, round(SLIP_SHARE * 2 * spread))
    found = candidates(question)
    order = sorted(found, key=_RANK.__getitem__)
    near: set[int] = set()
    for rid in order:  # each rule's own value, then the others
        for v in sorted(found[rid])[:1]:
            if abs(v - expected) <= spread and len(near) < room:
                near.add(v)
    for rid in order:
        for v in sorted(found[rid])[1:]:
            if abs(v - expected) <= spread and len(near) < room:
                near.add(v)
    out = {rid: frozenset(v for v in found[rid]
                          if abs(v - expected) > spread or v in near) for rid in order}
    return {rid: values for rid, values in out.items() if values}


TYPO_KINDS = ("one off", "swapped", "dropped", "doubled")
"""The typing slips (issue 42 part 4): a number one off, two neighbouring digits swapped, a
digit dropped, a digit doubled."""


def typos(value: int) -> dict[str, frozenset[int]]:
    """The numbers one typing slip turns ``value`` into, by kind (:data:`TYPO_KINDS`; a kind
    that cannot change it is left out), its sign kept.

    >>> sorted(typos(45)["swapped"]), sorted(typos(45)["dropped"]), sorted(typos(7)["one off"])
    ([54], [4, 5], [6, 8])
    """
    sign, digits = (-1 if value < 0 else 1), str(abs(value))
    found = {
        "one off": {abs(value) + 1, abs(value) - 1},
        "swapped": {int(digits[:i] + digits[i + 1] + digits[i] + digits[i + 2:])
                    for i in range(len(digits) - 1)},
        "dropped": {int(digits[:i] + digits[i + 1:]) for i in range(len(digits))}
        if len(digits) > 1 else set(),
        "doubled": {int(digits[:i + 1] + digits[i:]) for i in range(len(digits))},
    }
    out = {k: frozenset(sign * v for v in vs if v >= 0 and v != abs(value))
           for k, vs in found.items()}
    return {k: vs for k, vs in out.items() if vs}


def is_typo(expected: int, answer: int) -> bool:
    """Whether ``answer`` is one typing slip away from ``expected`` (:func:`typos`), a sign
    apart or not (a loss may be written with its minus).

    >>> is_typo(45, 54), is_typo(-3, -4), is_typo(-3, 3), is_typo(45, 14)
    (True, True, False, False)
    """
    return abs(answer) in {abs(v) for vs in typos(abs(expected)).values() for v in vs}


def mistake_value(question: Question, rule_id: str) -> int | None:
    """A wrong answer the mistake ``rule_id`` would give to ``question`` (None if it cannot
    happen there): what a simulated student with that mistake writes."""
    values = sorted(candidates(question).get(rule_id, ()))
    return values[0] if values else None


def mistake_skill(rule_id: str) -> str | None:
    """The skill the catalogue mistake ``rule_id`` is specific to (None: the question's own,
    as for an arithmetic slip)."""
    return _BY_ID[rule_id].skill


def tells(question: Question) -> frozenset[str]:
    """The catalogue mistakes ``question`` tells apart: those that give a number the question
    does not accept, whichever of their values the student reached. A right answer is proof
    against exactly these (issue 42 part 1); a mistake with no value here, or with one value
    that happens to be right (one half of 0/5 is T itself), is not ruled out by it.

    >>> from engine import PowerEffect, Tile
    >>> from tutor.teaching.questions import question_for
    >>> double = PowerEffect(0, 1, Tile("x", "+"), "x/+", 18, 0, 9, Tile(4, 5), 1)
    >>> sorted(tells(question_for(double)[0]))  # x/+ cannot show T squared
    ['added_instead_of_multiplied', 'forgot_to_double', 'one_half_only']
    """
    found = []
    for rule in CATALOG:
        values = list(rule.values(question))
        if values and not any(question.is_right(v) for v in values):
            found.append(rule.id)
    return frozenset(found)


def tells_apart(question: Question, rule_id: str) -> int:
    """How well ``question`` shows the mistake ``rule_id``: 0 it cannot (no wrong value there),
    1 the mistake gives a wrong answer, 2 a wrong answer that no other catalogue mistake
    gives and that is not taken for a slip (:func:`specific`)."""
    value = mistake_value(question, rule_id)
    if value is None:
        return 0
    found = specific(question)
    if value not in found.get(rule_id, ()):
        return 1
    return 2 if all(value not in v for r, v in found.items() if r != rule_id) else 1


def _factors(q: Question) -> tuple[int, int]:
    ctx = q.context
    t = ctx.t or 0
    return {"x/n": (ctx.n, t), "x/x": (t, t)}.get(ctx.rule, (2, t))


def rule_message(rule_id: str, question: Question, lang: str) -> str:
    """The translated message of a catalog rule, with the question's numbers filled in."""
    ctx = question.context
    a, b = _factors(question)
    h1, h2 = ctx.t_halves or (0, 0)
    return translator(lang)(_BY_ID[rule_id].message).format(
        n=ctx.n, t_tile=ctx.t_tile, near_tile=ctx.near_tile, a=a, b=b, h1=h1, h2=h2,
        target=seat_name(ctx.target), value=ctx.symbol_value)


def diagnose(question: Question, answer: int, lang: str | None = None,
             shown: Iterable[str] = ()) -> Diagnosis:
    """Classify ``answer`` to ``question``. A wrong number that a mistake gives but that is
    also one typing slip away from the right answer (:func:`is_typo`) is not named (a
    ``slip``, with the mistakes in ``candidates``) unless one of those mistakes is among
    ``shown``, the misconceptions the student has shown already: once is a slip or the
    mistake, the tutor cannot tell; the same mistake again is named.

    >>> from engine import PowerEffect, Tile
    >>> from tutor.teaching.questions import question_for
    >>> q = question_for(PowerEffect(0, 1, Tile(5, "x"), "x/n", 45, 0, 9, Tile(4, 5), 5))[0]
    >>> d = diagnose(q, 14)
    >>> diagnose(q, 45).kind, d.rule, d.skill, diagnose(q, 44).kind
    ('correct', 'added_instead_of_multiplied', 'multiply', 'slip')
    """
    lang = normalize_lang(lang or question.lang)
    _ = translator(lang)
    if question.is_right(answer):
        return Diagnosis("correct", None, _(MSG_CORRECT), skill=question.skill)
    found = sorted((rid for rid, values in specific(question).items() if answer in values),
                   key=_RANK.__getitem__)
    if not found or (is_typo(question.expected, answer) and not set(found) & set(shown)):
        # A number one typing slip away from the right answer is not named the first time:
        # the tutor cannot tell the mistake from the slip (issue 42 part 4). The evidence
        # still weighs it (tutor.teaching.evidence.judge, ``typo``).
        return Diagnosis("slip", None, _(MSG_SLIP), tuple(found), skill=question.skill)
    best = found[0]
    skill = _BY_ID[best].skill or question.skill
    message = rule_message(best, question, lang)
    if len(found) == 1:
        return Diagnosis("named", best, message, tuple(found), skill)
    return Diagnosis("likely", best, _(MSG_MAYBE).format(message=message), tuple(found), skill)
