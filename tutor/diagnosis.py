"""Buggy rules: the wrong answers students typically give, and which mistake an answer shows.

Convention for losses: a loss is asked as a positive number of points ("how many points does
player B lose?", "how many points did you just lose?"). Writing it with a minus sign is the
catalogued mistake ``loss_written_negative``; it counts as wrong, with a message that says only
the sign is off.

Every rule is a function of the question's numbers (the tile's rule, n, T, the halves of the
T tile, the near-end tile's total, the hands) returning the wrong values that mistake would
produce. A rule that would give the right value for a question is left out for that question,
so a correct answer is never "diagnosed".
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Literal

from engine.rules import effect_from_total
from tutor.i18n import N_, normalize_lang, translator
from tutor.questions import Question

__all__ = ["CATALOG", "BuggyRule", "Diagnosis", "candidates", "diagnose"]

Kind = Literal["correct", "named", "slip", "ambiguous"]

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


# --- the catalog: one function per mistake -----------------------------------------------------

def added_instead_of_multiplied(q: Question) -> Iterable[int]:
    """x/n as n + T (and x/+ as 1 + T + T, x/- as 1 + T)."""
    ctx = q.context
    if _power(q, "x/n"):
        yield ctx.n + _t(q)
    if _power(q, "x/+"):
        yield 1 + _t(q) + _t(q)
    if q.step == "gain" and ctx.rule == "x/-":
        yield 1 + _t(q)


def multiplied_instead_of_added(q: Question) -> Iterable[int]:
    """+/n and -/n as n · T; T as the product of its halves."""
    ctx = q.context
    if _power(q, "+/n", "-/n"):
        yield ctx.n * _t(q)
    if q.step == "T" and ctx.t_halves is not None:
        yield ctx.t_halves[0] * ctx.t_halves[1]


def doubled_instead_of_squared(q: Question) -> Iterable[int]:
    """x/x as 2 · T."""
    if _power(q, "x/x"):
        yield 2 * _t(q)


def squared_instead_of_doubled(q: Question) -> Iterable[int]:
    """+/+ and -/- as T · T."""
    if _power(q, "+/+", "-/-"):
        yield _t(q) * _t(q)


def loss_written_negative(q: Question) -> Iterable[int]:
    """A loss, asked as a number of points, written with a minus sign."""
    if q.step == "loss" and q.expected:
        yield -q.expected


def forgot_own_number(q: Question) -> Iterable[int]:
    """+/n or -/n as T alone (the tile's own number left out)."""
    if _power(q, "+/n", "-/n"):
        yield _t(q)


def used_near_end(q: Question) -> Iterable[int]:
    """T taken from the tile at the end where the power tile went, not the other end."""
    near = q.context.near_total
    if near is None:
        return
    if q.step == "T":
        yield near
    elif _power(q, *T_RULES):
        yield _effect(q, near)


def one_half_only(q: Question) -> Iterable[int]:
    """T counted as one half of the tile at the other end."""
    halves = q.context.t_halves
    if halves is None or q.context.rule == "power-vs-power":
        return
    for h in halves:
        if q.step == "T":
            yield h
        elif _power(q, *T_RULES):
            yield _effect(q, h)


def times_table_slip(q: Question) -> Iterable[int]:
    """One step off in the times table: n · T ± n (x/n), T · T ± T (x/x), 2 · T ± 2 (+/+, -/-)."""
    ctx = q.context
    step = {"x/n": ctx.n, "+/+": 2, "-/-": 2}.get(ctx.rule)
    if ctx.rule == "x/x":
        step = _t(q) if q.step == "gain" else None
    if step and _power(q, "x/n", "x/x", "+/+", "-/-"):
        yield q.expected + step
        yield q.expected - step


def wrong_factor(q: Question) -> Iterable[int]:
    """Multiplied by the wrong factor: (n ± 1) · T for x/n, 3 · T for +/+ and -/-."""
    ctx = q.context
    if _power(q, "x/n"):
        yield (ctx.n + 1) * _t(q)
        if ctx.n > 1:
            yield (ctx.n - 1) * _t(q)
    if _power(q, "+/+", "-/-"):
        yield 3 * _t(q)


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
    if q.step == "collect" and q.context.winner_hand:
        yield q.expected + q.context.winner_hand


def missed_a_hand(q: Question) -> Iterable[int]:
    """Round end: one of the other hands left out of the sum."""
    hands = q.context.hands
    if q.step == "collect" and len(hands) > 1:
        for h in hands:
            if h:
                yield q.expected - h


@dataclass(frozen=True)
class BuggyRule:
    """A named mistake: the function producing its wrong values and the message naming it."""

    id: str
    values: Callable[[Question], Iterable[int]]
    message: str
    """A msgid; ``{n}``, ``{t_tile}``, ``{near_tile}``, ``{a}``, ``{b}`` are filled in."""


CATALOG: tuple[BuggyRule, ...] = (
    BuggyRule("added_instead_of_multiplied", added_instead_of_multiplied,
              N_("It looks like you added where the x sign asks you to multiply.")),
    BuggyRule("multiplied_instead_of_added", multiplied_instead_of_added,
              N_("It looks like you multiplied, but here the numbers are added.")),
    BuggyRule("doubled_instead_of_squared", doubled_instead_of_squared,
              N_("You doubled T. The x/x tile squares it: T times T.")),
    BuggyRule("squared_instead_of_doubled", squared_instead_of_doubled,
              N_("You squared T. This tile doubles it: 2 times T.")),
    BuggyRule("loss_written_negative", loss_written_negative,
              N_("The question asks how many points are lost, so write a positive number, "
                 "without the minus sign.")),
    BuggyRule("forgot_own_number", forgot_own_number,
              N_("You gave T only. Add the tile's own number, {n}, too.")),
    BuggyRule("used_near_end", used_near_end,
              N_("You used the tile at the end where the tile was placed ({near_tile}). T is "
                 "the total of the tile at the other end ({t_tile}).")),
    BuggyRule("one_half_only", one_half_only,
              N_("You counted only one half of {t_tile}. T is the total of both halves.")),
    BuggyRule("times_table_slip", times_table_slip,
              N_("Close: that is one step off in the times table. Check {a} x {b} again.")),
    BuggyRule("wrong_factor", wrong_factor,
              N_("You multiplied by the wrong number: the factor is {a}.")),
    BuggyRule("forgot_to_double", forgot_to_double,
              N_("You counted T once. This tile counts it twice.")),
    BuggyRule("stopped_at_t", stopped_at_t,
              N_("That is T, the total at the other end. Now apply the tile's rule to it.")),
    BuggyRule("ignored_power_vs_power", ignored_power_vs_power,
              N_("Look at the other end ({t_tile}): it is a power tile too. That changes the "
                 "rule.")),
    BuggyRule("counted_own_hand", counted_own_hand,
              N_("You also counted the winner's own hand. The winner collects only the other "
                 "players' hands.")),
    BuggyRule("missed_a_hand", missed_a_hand,
              N_("You left out one of the hands. Add the points of every other hand.")),
)

_BY_ID = {r.id: r for r in CATALOG}

MSG_CORRECT = N_("Right!")
MSG_SLIP = N_("Not quite. Check your arithmetic and try again.")
MSG_AMBIGUOUS = N_("That is not right. Take a look at the hint.")


@dataclass(frozen=True)
class Diagnosis:
    """What an answer shows: right, one named mistake, a slip, or several possible mistakes."""

    kind: Kind
    rule: str | None
    """The catalog id when ``kind == "named"``."""
    message: str
    candidates: tuple[str, ...] = ()
    """Every catalog rule that explains the answer (several when ambiguous)."""

    @property
    def correct(self) -> bool:
        return self.kind == "correct"


def candidates(question: Question) -> dict[str, frozenset[int]]:
    """Each applicable catalog rule's wrong values for ``question`` (the right value removed;
    rules left with no value are not listed)."""
    out: dict[str, frozenset[int]] = {}
    for rule in CATALOG:
        values = frozenset(v for v in rule.values(question) if v != question.expected)
        if values:
            out[rule.id] = values
    return out


def _factors(q: Question) -> tuple[int, int]:
    ctx = q.context
    t = ctx.t or 0
    return {"x/n": (ctx.n, t), "x/x": (t, t)}.get(ctx.rule, (2, t))


def rule_message(rule_id: str, question: Question, lang: str) -> str:
    """The translated message of a catalog rule, with the question's numbers filled in."""
    ctx = question.context
    a, b = _factors(question)
    return translator(lang)(_BY_ID[rule_id].message).format(
        n=ctx.n, t_tile=ctx.t_tile, near_tile=ctx.near_tile, a=a, b=b)


def diagnose(question: Question, answer: int, lang: str | None = None) -> Diagnosis:
    """Classify ``answer`` to ``question``.

    >>> from engine import PowerEffect, Tile
    >>> from tutor.questions import question_for
    >>> q = question_for(PowerEffect(0, 1, Tile(5, "x"), "x/n", 45, 0, 9, Tile(4, 5), 5))[0]
    >>> diagnose(q, 45).kind, diagnose(q, 14).rule, diagnose(q, 44).kind
    ('correct', 'added_instead_of_multiplied', 'slip')
    """
    lang = normalize_lang(lang or question.lang)
    _ = translator(lang)
    if answer == question.expected:
        return Diagnosis("correct", None, _(MSG_CORRECT))
    found = tuple(rid for rid, values in candidates(question).items() if answer in values)
    if len(found) == 1:
        return Diagnosis("named", found[0], rule_message(found[0], question, lang), found)
    if found:
        return Diagnosis("ambiguous", None, _(MSG_AMBIGUOUS), found)
    return Diagnosis("slip", None, _(MSG_SLIP))
