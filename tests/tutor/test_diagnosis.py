"""The buggy-rule catalog: each mistake named on a constructed question, ambiguity, slips."""

from __future__ import annotations

import doctest

import pytest

import tutor.diagnosis
import tutor.questions
from engine import Bonus, PowerEffect, RoundEnded, Tile
from tutor import CATALOG, Question, diagnose, question_for
from tutor.diagnosis import candidates


def power(tile: Tile, rule: str, gain: int, loss: int, t_tile: Tile, n: int = 0,
          near: Tile | None = None, step: int = 0) -> Question:
    t = t_tile.total()
    ev = PowerEffect(0, 1, tile, rule, gain, loss, t, t_tile, n)
    return question_for(ev, near_tile=near, lang="en")[step]


X5 = power(Tile(5, "x"), "x/n", 45, 0, Tile(4, 5), 5)                 # 5 · 9 = 45
X5_NEAR = power(Tile(5, "x"), "x/n", 45, 0, Tile(4, 5), 5, near=Tile(6, 6))
PLUS6 = power(Tile("+", 6), "+/n", 15, 0, Tile(4, 5), 6)             # 6 + 9 = 15
MINUS6 = power(Tile("-", 6), "-/n", 0, 15, Tile(4, 5), 6)            # loss 15
SQUARE = power(Tile("x", "x"), "x/x", 49, 0, Tile(3, 4))             # 7 · 7 = 49
DOUBLE = power(Tile("+", "+"), "+/+", 18, 0, Tile(4, 5))             # 2 · 9 = 18
PVP = power(Tile(5, "x"), "power-vs-power", 30, 30, Tile("+", 3), 5)
TRANQUE = question_for(Bonus(0, "tranque", 22),
                       round_end=RoundEnded("tranque", 0, (22, 0, 0), (0, 0, 0), (5, 10, 12)))[0]

# (rule id, question, the wrong answer that mistake gives)
CASES = [
    ("added_instead_of_multiplied", X5, 14),
    ("multiplied_instead_of_added", PLUS6, 54),
    ("doubled_instead_of_squared", SQUARE, 14),
    ("squared_instead_of_doubled", DOUBLE, 81),
    ("loss_written_negative", MINUS6, -15),
    ("forgot_own_number", MINUS6, 9),
    ("used_near_end", X5_NEAR, 60),
    ("one_half_only", X5, 20),
    ("times_table_slip", X5, 50),
    ("wrong_factor", X5, 54),
    ("forgot_to_double", DOUBLE, 9),
    ("stopped_at_t", X5, 9),
    ("ignored_power_vs_power", PVP, 15),
    ("counted_own_hand", TRANQUE, 27),
    ("missed_a_hand", TRANQUE, 12),
]


def test_catalog_has_at_least_eight_rules_with_unique_ids() -> None:
    ids = [r.id for r in CATALOG]
    assert len(ids) >= 8 and len(set(ids)) == len(ids)
    assert {c[0] for c in CASES} == set(ids)  # every rule is tested below


@pytest.mark.parametrize(("rule", "question", "answer"), CASES, ids=[c[0] for c in CASES])
def test_each_catalog_rule_is_named(rule: str, question: Question, answer: int) -> None:
    d = diagnose(question, answer)
    assert (d.kind, d.rule) == ("named", rule)
    assert d.message and "{" not in d.message
    assert str(question.expected) not in d.message.replace(question.context.t_tile, "")
    es = diagnose(question, answer, "es")
    assert es.rule == rule and es.message != d.message


def test_correct_answer() -> None:
    d = diagnose(X5, 45)
    assert d.kind == "correct" and d.correct and d.rule is None
    assert diagnose(X5, 45, "es").message == "¡Correcto!"


def test_slip_when_no_rule_explains_the_answer() -> None:
    d = diagnose(X5, 44)
    assert (d.kind, d.rule, d.candidates) == ("slip", None, ())


def test_ambiguous_when_several_rules_give_the_value() -> None:
    """+/+ on 1/1: T = 2, "forgot to double" and "one half only" both give 2."""
    q = power(Tile("+", "+"), "+/+", 4, 0, Tile(1, 1))
    d = diagnose(q, 2)
    assert d.kind == "ambiguous" and d.rule is None
    assert {"forgot_to_double", "one_half_only"} <= set(d.candidates)
    assert "hint" in d.message


def test_rules_giving_the_right_value_are_left_out() -> None:
    """x/2 on 1/1: n + T = 2 + 2 = 4 is also the right answer, so it is not a mistake here;
    +/+ on 1/1: T · T = 4 = 2 · T."""
    q = power(Tile(2, "x"), "x/n", 4, 0, Tile(1, 1), 2)
    assert "added_instead_of_multiplied" not in candidates(q)
    assert diagnose(q, 4).kind == "correct"
    dbl = power(Tile("+", "+"), "+/+", 4, 0, Tile(1, 1))
    assert "squared_instead_of_doubled" not in candidates(dbl)
    for values in candidates(q).values():
        assert q.expected not in values


def test_near_end_rule_needs_the_near_tile() -> None:
    assert "used_near_end" not in candidates(X5)
    assert diagnose(X5_NEAR, 60).message == (
        "You used the tile at the end where the tile was placed (6/6). T is the total of the "
        "tile at the other end (4/5).")


def test_scaffold_t_step_mistakes() -> None:
    ev = PowerEffect(0, 1, Tile(5, "x"), "x/n", 45, 0, 9, Tile(4, 5), 5)
    t = question_for(ev, scaffold=True, near_tile=Tile(6, 2))[0]
    assert t.step == "T"
    assert diagnose(t, 20).rule == "multiplied_instead_of_added"
    assert diagnose(t, 8).rule == "used_near_end"
    assert diagnose(t, 4).rule == "one_half_only"


def test_loss_convention_positive() -> None:
    """A loss is asked as a positive number of points; the minus sign is the catalogued slip."""
    assert diagnose(MINUS6, 15).kind == "correct"
    assert diagnose(MINUS6, -15).rule == "loss_written_negative"


def test_doctests() -> None:
    assert doctest.testmod(tutor.diagnosis).failed == 0
    assert doctest.testmod(tutor.questions).failed == 0
