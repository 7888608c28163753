"""The tutor's formulas without sympy (tutor.teaching.formula, issue 35 part 5) are the ones sympy
wrote: every stage, worked solution and blanks scaffold of every question kind (docs/rules.md §1.6
rows, §3 round ends, §4 "What the tutor asks": formula, worked steps, blanks) is compared with
the sympy construction the tutor used before, and each expression shape with sympy's printer.
"""

from __future__ import annotations

import itertools
import random
from functools import cache
from typing import Any

import pytest
import sympy

from engine import VARIANTS, HouseRules, Placed, PowerEffect, RoundEnded
from engine.round import Round
from tutor.teaching import formula
from tutor.teaching.asking import _near_tile
from tutor.teaching.formula import Blank, Num, add, mul, square
from tutor.teaching.questions import (
    RULE_SKILL,
    Question,
    collect_question,
    question_for,
    round_total_question,
    score_question,
)

# --- the reference: the tutor's formulas as sympy built them ---------------------------------


def _latex(e: Any) -> str:
    return str(sympy.latex(e, mul_symbol="times", order="none"))


def _A(*a: Any) -> Any:
    return sympy.Add(*a, evaluate=False)


def _M(*a: Any) -> Any:
    return sympy.Mul(*a, evaluate=False)


def _ref_formula(rule: str, n: int, tx: Any) -> Any:
    return {"x/n": lambda: _M(n, tx), "+/n": lambda: _A(n, tx), "-/n": lambda: _A(n, tx),
            "x/x": lambda: sympy.Pow(tx, 2, evaluate=False), "+/+": lambda: _M(2, tx),
            "-/-": lambda: _M(2, tx), "+/-": lambda: tx, "x/+": lambda: _A(_M(1, tx), tx),
            "x/-": lambda: _M(1, tx)}[rule]()


def ref_stages(q: Question) -> tuple[str, ...]:
    num, ctx = sympy.Integer, q.context
    if q.step == "collect" and ctx.counted == "block":
        stages = [_A(*[_A(h, num(-ctx.winner_hand)) for h in ctx.hands]),
                  _A(*[h - ctx.winner_hand for h in ctx.hands])]
    elif q.step == "tens":
        return ()
    elif q.step == "collect":
        pips = [v for v in ctx.pips if v]
        stages = [_A(*ctx.hands) if len(ctx.hands) > 1 else _A(*pips) if len(pips) > 1
                  else num(q.expected)]
    elif q.step in ("score", "total"):
        stages = [_A(ctx.before, num(-ctx.taken))]
    elif ctx.rule in ("power-vs-power", "neutralized") or ctx.t_halves is None:
        return ()
    else:
        halves = _A(*ctx.t_halves)
        if q.step == "T":
            stages = [halves]
        else:
            stages = [_ref_formula(ctx.rule, ctx.n, halves),
                      _ref_formula(ctx.rule, ctx.n, num(ctx.t))]
            if ctx.rule == "x/x":
                stages.append(_M(ctx.t, ctx.t))
            elif ctx.rule == "x/+":
                stages.append(_A(ctx.t, ctx.t))
    kept: list[str] = []
    for s in stages:
        if not s.is_Atom and (not kept or _latex(s) != kept[-1]):
            kept.append(_latex(s))
    return tuple(kept)


def ref_blanks(q: Question) -> str:
    ctx, b = q.context, sympy.Symbol(r"\square")
    if q.step == "collect" and len(ctx.hands) > 1:
        return _latex(_A(*[b] * len(ctx.hands)))
    if q.step not in ("T", "gain", "loss") or ctx.rule not in RULE_SKILL or ctx.rule in (
            "power-vs-power", "neutralized"):
        return ""
    halves = _A(b, b)
    return _latex(halves if q.step == "T" else _ref_formula(ctx.rule, ctx.n, halves))


# --- every question kind from real games -----------------------------------------------------


@cache
def real_questions() -> tuple[Question, ...]:
    """Questions of every kind from seeded rounds of each variant, 2-4 players: each §1.6 row
    in each perspective, T first or not, symbol halves counted 0 or 10 (D-1), the scores after
    a loss, the round totals and the round-end counts (domino, tranque, block, in tens)."""
    out: list[Question] = []
    for variant, seed, players in itertools.product(VARIANTS.values(), range(24), (2, 3, 4)):
        if not variant.min_players <= players <= variant.max_players:
            continue
        rng = random.Random(seed)
        rnd = Round.deal(variant, HouseRules(), players, rng,
                         starter=0 if seed % 3 == 0 else None)
        while not rnd.over:
            events = rnd.apply(rng.choice(rnd.legal_actions()))
            placed = next((e for e in events if isinstance(e, Placed)), None)
            for e in events:
                if isinstance(e, PowerEffect):
                    near = _near_tile(rnd, placed)
                    for persp, t_first, sv in itertools.product(
                            ("player", "victim", "observer"), (False, True), (0, 10)):
                        out += question_for(e, perspective=persp,  # type: ignore[arg-type]
                                            near_tile=near, t_first=t_first, symbol_value=sv)
                    if e.loss:
                        out.append(score_question(e, 12, 12 - e.loss, you=0, lang="en"))
                        out.append(score_question(e, -4, -4 - e.loss, you=1, lang="en"))
                elif isinstance(e, RoundEnded):
                    out += question_for(e)
                    out += [round_total_question(e, s, you=0, lang="en")
                            for s in range(players)]
                    hands = {s: (f"{s}/{s}",) for s in range(len(e.hand_totals))}
                    if (q := collect_question(e, you=e.winner, hands=hands)) is not None:
                        out.append(q)
    return tuple(out)


def test_every_question_kind_is_found() -> None:
    qs = real_questions()
    kinds = {(q.step, q.context.rule) for q in qs}
    for rule in ("x/n", "+/n", "-/n", "x/x", "+/+", "-/-", "+/-", "x/+", "x/-",
                 "power-vs-power", "neutralized"):
        assert ("T", rule) in kinds or rule in ("+/-", "power-vs-power", "neutralized")
        assert any(k[1] == rule for k in kinds), rule
    steps = {q.step for q in qs}
    assert {"T", "gain", "loss", "score", "total", "collect"} <= steps
    assert any(q.context.counted == "block" for q in qs)
    assert any(q.context.before < 0 for q in qs if q.step == "score")


def test_stages_worked_and_blanks_are_the_ones_sympy_wrote() -> None:
    """§4: the formula, its worked steps and the blanks scaffold are unchanged."""
    seen = 0
    for q in real_questions():
        stages = ref_stages(q)
        assert q.stages == stages, (q.context, q.stages, stages)
        assert q.latex == (stages[0] if stages else "")
        assert q.worked == " = ".join([*stages, str(q.expected)])
        assert q.blanks == ref_blanks(q), (q.context, q.blanks)
        seen += bool(stages)
    assert seen > 1000


def test_the_sympy_expression_still_agrees_with_the_engine() -> None:
    for q in real_questions()[::50]:
        if q.arithmetic and q.stages:
            assert int(q.expression.doit()) == q.expected, q.context


def test_the_printed_block_and_scores() -> None:
    """§3.1 the traditional block, §4 a score below zero: subtractions, brackets, zeros."""
    assert formula.latex(add(add(19, -15), add(22, -15))) == \
        r"\left(19 - 15\right) + \left(22 - 15\right)"
    assert formula.latex(add(-4, -15)) == "-4 - 15"
    assert formula.latex(add(12, 0)) == "12 + 0"
    assert formula.latex(square(add(3, 4))) == r"\left(3 + 4\right)^{2}"
    assert formula.latex(add(mul(1, add(Blank(), Blank())), add(Blank(), Blank()))) == \
        r"1 \times \left(\square + \square\right) + \left(\square + \square\right)"


SHAPES = [
    lambda a, b, c: add(a, b), lambda a, b, c: add(a, b, c), lambda a, b, c: add(add(a, b), c),
    lambda a, b, c: add(add(abs(a), b), add(abs(c), b)), lambda a, b, c: add(c, add(abs(a), b)),
    lambda a, b, c: mul(abs(a), add(b, c)), lambda a, b, c: mul(abs(a), abs(b)),
    lambda a, b, c: square(add(a, b)), lambda a, b, c: square(a), lambda a, b, c: square(b),
    lambda a, b, c: add(mul(1, add(abs(a), abs(b))), add(abs(a), abs(b))),
    lambda a, b, c: mul(1, abs(c)),
    lambda a, b, c: add(mul(abs(a), abs(b)), c), lambda a, b, c: mul(2, square(abs(a))),
    lambda a, b, c: add(a), lambda a, b, c: add(),
    lambda a, b, c: mul(abs(a), add(Blank(), Blank())), lambda a, b, c: square(add(Blank(), a)),
    lambda a, b, c: add(Blank(), b, Blank()),
]


@pytest.mark.parametrize("shape", range(len(SHAPES)))
def test_each_shape_prints_as_sympy_prints_it(shape: int) -> None:
    """Numbers from -20 to 20 (scores go below zero; zeros are written), in every shape the
    tutor writes, printed by tutor.teaching.formula and by sympy from the same tree. A sum inside a
    sum
    starts with a hand's total or a tile's half, never below zero (§1.6, §3.1): sympy would
    write a sum of negatives there as its negated value, which the tutor never shows."""
    rng = random.Random(shape)
    values = [-20, -7, -1, 0, 1, 2, 9, 20]
    cases = list(itertools.product(values, repeat=3))
    for a, b, c in rng.sample(cases, 200):
        f = SHAPES[shape](a, b, c)
        assert formula.latex(f) == _latex(formula.to_sympy(f)), f
        assert formula.is_atom(f) == bool(formula.to_sympy(f).is_Atom)


def test_numbers_and_blanks() -> None:
    assert formula.latex(Num(-3)) == "-3" and formula.latex(Blank()) == r"\square"
    assert add(7) == Num(7) and add() == Num(0) and mul(5) == Num(5)
