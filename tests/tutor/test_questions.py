"""Questions from real engine events (RULES.md §1.6 rows, §4) and their hint ladders."""

from __future__ import annotations

import random
import re
import subprocess
import sys
from functools import cache
from pathlib import Path

import pytest

from engine import (
    LEONARD_VARIANT,
    Bonus,
    HouseRules,
    Placed,
    PowerEffect,
    RoundEnded,
    Tile,
)
from engine.round import Round
from tutor import Question, QuestionError, hint_ladder, question_for
from tutor.questions import STEPS, plain_math
from tutor.session import _near_tile

ROOT = Path(__file__).resolve().parents[2]
POWER_RULES = ("x/n", "+/n", "-/n", "x/x", "+/+", "-/-", "+/-", "x/+", "x/-", "power-vs-power")


@cache
def real_events() -> dict[str, list[tuple[PowerEffect | Bonus, Tile | RoundEnded | None]]]:
    """Events of each §1.6 rule and each round end, from seeded random rounds (2-4 players;
    every third round opens with any tile, so neutralized plays happen too)."""
    found: dict[str, list[tuple[PowerEffect | Bonus, Tile | RoundEnded | None]]] = {}
    for seed in range(60):
        for players in (2, 3, 4):
            rng = random.Random(seed)
            rnd = Round.deal(LEONARD_VARIANT, HouseRules(), players, rng,
                             starter=0 if seed % 3 == 0 else None)
            while not rnd.over:
                events = rnd.apply(rng.choice(rnd.legal_moves()))
                placed = next((e for e in events if isinstance(e, Placed)), None)
                end = next((e for e in events if isinstance(e, RoundEnded)), None)
                for e in events:
                    if isinstance(e, PowerEffect):
                        found.setdefault(e.rule, []).append((e, _near_tile(rnd, placed)))
                    elif isinstance(e, Bonus) and e.kind in ("domino", "tranque"):
                        found.setdefault(e.kind, []).append((e, end))
    return found


def test_every_rule_is_found_in_real_games() -> None:
    found = real_events()
    for rule in (*POWER_RULES, "neutralized", "domino", "tranque"):
        assert found.get(rule), rule


@pytest.mark.parametrize("rule", POWER_RULES)
def test_questions_from_real_power_events(rule: str) -> None:
    """§1.6 each row: the expected values are the event's own numbers; LaTeX is non-empty."""
    for event, near in real_events()[rule][:8]:
        assert isinstance(event, PowerEffect)
        qs = question_for(event, lang="en", near_tile=near)  # type: ignore[arg-type]
        assert [(q.step, q.skills) for q in qs] == list(STEPS[rule])
        for q in qs:
            assert q.expected == (event.gain if q.step == "gain" else event.loss)
            assert q.latex
            assert q.prompt and "{" not in q.prompt
            assert int(q.expression.doit()) == q.expected  # the display agrees with the engine
            assert set(q.skills) <= {"multiply", "add", "negative", "square", "double",
                                     "subtract", "round"}


@pytest.mark.parametrize("rule", ["+/-", "x/-", "power-vs-power"])
def test_plays_that_gain_and_take_ask_both_parts(rule: str) -> None:
    event, _ = real_events()[rule][0]
    qs = question_for(event)
    assert [q.step for q in qs] == ["gain", "loss"]
    assert qs[0].expected == event.gain and qs[1].expected == event.loss  # type: ignore[union-attr]
    assert len({q.id for q in qs}) == 2


def test_skill_tags_follow_rules_md_section_4() -> None:
    tags = {rule: [s for _, skills in STEPS[rule] for s in skills] for rule in STEPS}
    assert tags["x/n"] == ["multiply"]
    assert tags["x/+"] == ["multiply", "double"]
    assert tags["x/-"] == ["multiply", "negative"]
    assert tags["+/n"] == ["add"]
    assert tags["-/n"] == ["negative"]
    assert tags["x/x"] == ["square"]
    assert tags["+/+"] == ["double"]
    assert tags["-/-"] == ["double", "negative"]
    assert tags["neutralized"] == []


def test_neutralized_play_asks_nothing() -> None:
    event, _ = real_events()["neutralized"][0]
    assert question_for(event) == []


def test_scaffold_asks_t_first() -> None:
    for rule in POWER_RULES[:-1]:
        event, _ = real_events()[rule][0]
        qs = question_for(event, scaffold=True)
        assert qs[0].step == "T" and qs[0].skills == ("add",)
        assert qs[0].expected == event.t  # type: ignore[union-attr]
        assert "other end" in qs[0].prompt
    pvp, _ = real_events()["power-vs-power"][0]
    assert [q.step for q in question_for(pvp, scaffold=True)] == ["gain", "loss"]


def test_expected_is_copied_from_the_event_never_recomputed() -> None:
    """DESIGN.md rule 2: an event with (deliberately) odd numbers is asked as it is."""
    odd = PowerEffect(0, 1, Tile(5, "x"), "x/n", 999, 0, 9, Tile(4, 5), 5)
    (q,) = question_for(odd)
    assert q.expected == 999


def test_seed_example_latex_and_hint_ladder() -> None:
    """Seed item 2 style: x/5 against 4/5 is 5 · (4 + 5)."""
    ev = PowerEffect(0, 1, Tile(5, "x"), "x/n", 45, 0, 9, Tile(4, 5), 5)
    (q,) = question_for(ev, lang="en")
    assert q.latex == r"5 \cdot \left(4 + 5\right)"
    assert q.prompt == "You played 5/x. How many points do you gain?"
    one, two, three = hint_ladder(q)
    assert [h.level for h in (one, two, three)] == [1, 2, 3]
    assert "multiplies" in one.text and "4/5" in one.text and not one.reveals
    assert two.latex == r"5 \cdot \left(4 + 5\right) = 5 \cdot 9 = ?"
    assert two.text == "Work it out: 5 · (4 + 5) = 5 · 9 = ?"
    assert "45" not in two.text and "45" not in one.text
    assert three.reveals and "45" in three.text
    es = hint_ladder(q, "es")
    assert es[1].text == "Calcula: 5 · (4 + 5) = 5 · 9 = ?"
    assert es[2].text == "La respuesta es 45."


@pytest.mark.parametrize("rule", POWER_RULES)
def test_second_hint_never_shows_the_result(rule: str) -> None:
    for event, _ in real_events()[rule][:5]:
        for q in question_for(event, scaffold=True):
            two = hint_ladder(q)[1]
            if q.stages:
                assert two.latex.endswith("= ?")
                assert all(not re.fullmatch(r"-?\d+", s) for s in q.stages)
            assert hint_ladder(q)[2].reveals


def test_plus_minus_hint_stops_before_t() -> None:
    ev = PowerEffect(0, 1, Tile("+", "-"), "+/-", 9, 9, 9, Tile(4, 5), 0)
    gain, loss = question_for(ev)
    assert gain.stages == ("4 + 5",)
    assert hint_ladder(loss)[1].text == "Work it out: 4 + 5 = ?"


def test_square_and_x_plus_stages() -> None:
    sq = question_for(PowerEffect(0, 1, Tile("x", "x"), "x/x", 49, 0, 7, Tile(3, 4), 0))[0]
    assert sq.stages == (r"\left(3 + 4\right)^{2}", "7^{2}", r"7 \cdot 7")
    assert plain_math(sq.stages[1]) == "7²"
    xp = question_for(PowerEffect(0, 1, Tile("x", "+"), "x/+", 24, 0, 12, Tile(6, 6), 0))[0]
    assert xp.stages[-1] == "12 + 12"
    assert xp.skills == ("multiply", "double")


def test_power_vs_power_has_a_fixed_amount_hint() -> None:
    ev = PowerEffect(0, 1, Tile(5, "x"), "power-vs-power", 30, 30, 3, Tile("+", 3), 5)
    gain, loss = question_for(ev)
    assert gain.latex == "30" and gain.stages == ()
    assert "nothing to compute" in hint_ladder(gain)[1].text


def test_victim_and_observer_perspectives() -> None:
    ev = PowerEffect(1, 0, Tile("-", 6), "-/n", 0, 15, 9, Tile(4, 5), 6)
    (q,) = question_for(ev, perspective="victim", lang="en")
    assert q.prompt == "Player B played -/6. How many points did you just lose?"
    assert q.you == 0
    (es,) = question_for(ev, perspective="victim", lang="es")
    assert es.prompt == "El jugador B jugó -/6. ¿Cuántos puntos acabas de perder?"
    (obs,) = question_for(ev, perspective="observer", lang="en")
    assert obs.prompt == "Player B played -/6. How many points does player A lose?"
    (mine,) = question_for(PowerEffect(0, 1, Tile("-", 6), "-/n", 0, 15, 9, Tile(4, 5), 6))
    assert mine.prompt == "You played -/6. How many points does player B lose?"
    with pytest.raises(QuestionError):
        question_for(ev, perspective="bystander")  # type: ignore[arg-type]


@pytest.mark.parametrize("kind", ["domino", "tranque"])
def test_round_end_questions_from_real_rounds(kind: str) -> None:
    for bonus, end in real_events()[kind][:6]:
        assert isinstance(bonus, Bonus) and isinstance(end, RoundEnded)
        qs = question_for(bonus, round_end=end, lang="es")
        if end.winner != bonus.seat:
            assert qs == []
            continue
        (q,) = qs
        assert q.step == "collect" and q.skills == ("add",)
        assert q.expected == bonus.points
        assert int(q.expression.doit()) == bonus.points
        assert q.latex and q.prompt.startswith("¡")


def test_other_events_ask_nothing() -> None:
    assert question_for(Bonus(0, "paso-corrido", 20)) == []
    assert question_for(Placed(0, Tile(6, 6), None, True)) == []


def test_in_lang_rephrases_only() -> None:
    event, _ = real_events()["x/n"][0]
    (q,) = question_for(event, lang="en")
    es = q.in_lang("es")
    assert isinstance(es, Question) and es.prompt != q.prompt
    assert (es.id, es.expected, es.latex, es.skills) == (q.id, q.expected, q.latex, q.skills)
    assert es.in_lang("en") == q


def test_no_eval_exec_or_sympify_in_tutor() -> None:
    pattern = re.compile(r"\b(eval|exec|sympify|parse_expr)\s*\(")
    for path in (ROOT / "tutor").rglob("*.py"):
        assert not pattern.search(path.read_text(encoding="utf-8")), path


def test_import_tutor_is_light() -> None:
    code = ("import sys, tutor, tutor.session, tutor.questions; "
            "bad = [m for m in ('sympy', 'ipywidgets', 'babel') if m in sys.modules]; "
            "print(bad)")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == "[]"
