"""Questions from real engine events (docs/rules.md §1.6 rows, §4) and their hint ladders."""

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
from tutor.teaching.asking import _near_tile
from tutor.teaching.questions import (
    ARITHMETIC,
    RULE_SKILL,
    collect_question,
    plain_math,
    round_total_question,
    score_question,
)

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
                events = rnd.apply(rng.choice(rnd.legal_actions()))
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
def test_one_question_per_play_from_real_power_events(rule: str) -> None:
    """§1.6 each row, §4 "ask each distinct computation once": one question for the play's one
    computation, its expected value the event's own number, its skill the row's skill."""
    for event, near in real_events()[rule][:8]:
        assert isinstance(event, PowerEffect)
        (q,) = question_for(event, lang="en", near_tile=near)  # type: ignore[arg-type]
        assert q.skill == RULE_SKILL[rule] and q.skills == (q.skill,)
        assert q.expected == (event.loss if q.step == "loss" else event.gain)
        assert q.step == ("loss" if rule in ("-/n", "-/-") else "gain")
        assert q.prompt and "{" not in q.prompt
        if q.arithmetic and q.stages:
            assert int(q.expression.doit()) == q.expected  # the display agrees with the engine
            assert q.worked.endswith(f"= {q.expected}")


def test_skills_follow_rules_md_section_4() -> None:
    assert RULE_SKILL == {
        "x/n": "multiply", "+/n": "add", "-/n": "add", "x/x": "square", "+/+": "double",
        "-/-": "double", "+/-": "other-end", "x/+": "double", "x/-": "multiply",
        "power-vs-power": "rules", "neutralized": "rules"}
    assert "rules" not in ARITHMETIC and {"other-end", "negative"} <= ARITHMETIC


@pytest.mark.parametrize("rule", ["+/-", "x/-", "power-vs-power"])
def test_plays_that_gain_and_take_the_same_number_ask_it_once(rule: str) -> None:
    event, _ = real_events()[rule][0]
    (gain,) = question_for(event)
    assert gain.step == "gain" and gain.expected == event.gain  # type: ignore[union-attr]
    (loss,) = question_for(event, perspective="victim")
    assert loss.step == "loss" and loss.expected == event.loss  # type: ignore[union-attr]


def test_a_loss_is_right_with_or_without_its_minus_sign() -> None:
    ev = PowerEffect(0, 1, Tile("-", 6), "-/n", 0, 15, 9, Tile(4, 5), 6)
    (q,) = question_for(ev)
    assert q.accepted == {15, -15} and q.is_right(-15) and not q.is_right(14)


def test_neutralized_play_is_a_rules_question_worth_nothing() -> None:
    event, _ = real_events()["neutralized"][0]
    (q,) = question_for(event)
    assert q.skill == "rules" and q.expected == 0 and not q.arithmetic
    assert "opened the line" in q.prompt


def test_t_first_asks_the_other_end() -> None:
    for rule in ("x/n", "+/n", "-/n", "x/x", "+/+", "-/-", "x/+"):
        event, _ = real_events()[rule][0]
        t, main = question_for(event, t_first=True)
        assert t.step == "T" and t.skill == "other-end"
        assert t.expected == event.t  # type: ignore[union-attr]
        assert t.prompt == "What is T, the total of the tile at the other end of the line?"
        assert main.skill == RULE_SKILL[rule]
    pvp, _ = real_events()["power-vs-power"][0]
    assert [q.step for q in question_for(pvp, t_first=True)] == ["gain"]


def test_expected_is_copied_from_the_event_never_recomputed() -> None:
    """DESIGN.md rule 2: an event with (deliberately) odd numbers is asked as it is."""
    odd = PowerEffect(0, 1, Tile(5, "x"), "x/n", 999, 0, 9, Tile(4, 5), 5)
    (q,) = question_for(odd)
    assert q.expected == 999


def test_no_giveaway_in_the_prompt_the_working_comes_through_hints() -> None:
    """Issue: the page showed "1 + (4 + 6)" under the question and named T's tile. Now the
    prompt names only the played tile; the ladder gives the rule, T's tile, the working and
    last the answer; the worked solution (× everywhere) comes after the answer."""
    ev = PowerEffect(0, 1, Tile(5, "x"), "x/n", 45, 0, 9, Tile(4, 5), 5)
    (q,) = question_for(ev, lang="en")
    assert q.prompt == "You played 5/x. How many points do you gain?"
    assert "4/5" not in q.prompt and "9" not in q.prompt and "45" not in q.prompt
    rungs = hint_ladder(q)
    assert [h.level for h in rungs] == [1, 2, 3, 4]
    assert "multiplies" in rungs[0].text and "4/5" not in rungs[0].text
    assert rungs[1].text == "The tile at the other end of the line is 4/5: T = 4 + 5."
    assert rungs[2].text == "Work it out: 5 × (4 + 5) = 5 × 9 = ?"
    assert rungs[2].latex == r"5 \times \left(4 + 5\right) = 5 \times 9 = ?"
    assert not any("45" in h.text for h in rungs[:3]) and rungs[3].reveals
    assert q.worked == r"5 \times \left(4 + 5\right) = 5 \times 9 = 45"
    es = hint_ladder(q, "es")
    assert es[2].text == "Calcula: 5 × (4 + 5) = 5 × 9 = ?"
    assert es[3].text == "La respuesta es 45."


@pytest.mark.parametrize("rule", POWER_RULES)
def test_hints_before_the_last_never_show_the_result(rule: str) -> None:
    for event, _ in real_events()[rule][:5]:
        for q in question_for(event, t_first=True):
            ladder = hint_ladder(q)
            assert ladder[-1].reveals and not any(h.reveals for h in ladder[:-1])
            assert all(not re.fullmatch(r"-?\d+", s) for s in q.stages)
            for h in ladder[:-1]:
                assert not re.search(rf"= {q.expected}\b", h.text), (h.text, q.expected)


def test_square_and_x_plus_stages() -> None:
    sq = question_for(PowerEffect(0, 1, Tile("x", "x"), "x/x", 49, 0, 7, Tile(3, 4), 0))[0]
    assert sq.stages == (r"\left(3 + 4\right)^{2}", "7^{2}", r"7 \times 7")
    assert plain_math(sq.stages[1]) == "7²"
    xp = question_for(PowerEffect(0, 1, Tile("x", "+"), "x/+", 24, 0, 12, Tile(6, 6), 0))[0]
    assert xp.stages[-1] == "12 + 12" and xp.skill == "double"


def test_scaffold_blanks() -> None:
    ev = PowerEffect(0, 1, Tile(5, "x"), "x/n", 45, 0, 9, Tile(4, 5), 5)
    (q,) = question_for(ev)
    assert plain_math(q.blanks) == "5 × (□ + □)"
    sq = question_for(PowerEffect(0, 1, Tile("x", "x"), "x/x", 49, 0, 7, Tile(3, 4), 0))[0]
    assert plain_math(sq.blanks) == "(□ + □)²"


def test_power_vs_power_is_a_rules_question_with_no_working() -> None:
    ev = PowerEffect(0, 1, Tile(5, "x"), "power-vs-power", 30, 30, 3, Tile("+", 3), 5)
    (q,) = question_for(ev)
    assert q.skill == "rules" and q.stages == () and q.blanks == ""
    assert [h.reveals for h in hint_ladder(q)] == [False, True]


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


def test_score_after_a_loss_that_crosses_zero() -> None:
    ev = PowerEffect(1, 0, Tile("-", 6), "-/n", 0, 15, 9, Tile(4, 5), 6)
    q = score_question(ev, 12, -3, you=0, lang="en")
    assert (q.skill, q.step, q.expected) == ("negative", "score", -3)
    assert q.prompt == "Your score was 12. You lost 15. What is your score now?"
    assert plain_math(q.worked) == "12 - 15 = -3"


def test_round_total_below_zero() -> None:
    end = RoundEnded("domino", 1, (20, 40), (35, 0), (0, 0))
    q = round_total_question(end, 0, you=0, lang="en")
    assert (q.skill, q.expected) == ("negative", end.scores[0]) and q.expected == -15
    assert "gained 20 points and lost 35" in q.prompt


@pytest.mark.parametrize("kind", ["domino", "tranque"])
def test_round_end_questions_show_the_tiles_not_the_totals(kind: str) -> None:
    for _bonus, end in real_events()[kind][:6]:
        assert isinstance(end, RoundEnded)
        hands = {s: (f"{s}/{s}",) for s in range(len(end.hand_totals))}
        q = collect_question(end, lang="es", you=end.winner, hands=hands)
        if end.winner is None or not end.count:
            assert q is None
            continue
        assert q is not None and q.step == "collect" and q.skill == "add"
        assert q.expected == end.count  # the engine's count
        assert [s for s, _ in q.situation.hands] == [s for s in hands if s != end.winner]
        assert str(end.count) not in q.prompt and q.prompt.startswith("¡")


def test_the_traditional_block_is_a_subtraction() -> None:
    """docs/rules.md §3.1: 15, 19, 22 → 4 + 7 = 11, the engine's count; asked as ``subtract``."""
    end = RoundEnded("tranque", 0, (11, 0, 0), (0, 0, 0), (15, 19, 22), count=11, points=11,
                     differences=(0, 4, 7))
    (q,) = question_for(end, lang="en")
    assert (q.skill, q.expected, q.context.counted) == ("subtract", 11, "block")
    assert plain_math(q.worked) == "(19 - 15) + (22 - 15) = 4 + 7 = 11"
    assert "lowest hand collects" in q.prompt and "11" not in q.prompt


def test_ponce_counts_in_tens_and_pairs_count_the_other_pair() -> None:
    """§3.3: 25 → 3 (``round``); §3.2: the winning pair collects the other pair's hands."""
    # A Ponce tranque: the lowest single hand wins the sum of all four hands, in tens.
    ponce = RoundEnded("tranque", 0, (3, 0, 0, 0), (0,) * 4, (3, 9, 6, 10), count=28,
                       points=3, teams=((0, 2), (1, 3)), team_totals=(9, 19), team=0)
    collect, tens = question_for(ponce, lang="en")
    assert collect.context.counted == "all" and collect.expected == 28
    assert (tens.skill, tens.step, tens.expected) == ("round", "tens", 3)
    assert tens.prompt == "The hands hold 28 points. Counted in tens, half up, how many " \
                          "points is that?"
    venezuela = RoundEnded("domino", 2, (0, 0, 14, 0), (0,) * 4, (2, 6, 0, 8), count=14,
                           points=14, teams=((0, 2), (1, 3)), team_totals=(2, 14), team=0)
    (q,) = question_for(venezuela, lang="en")
    assert q.context.counted == "pair" and [s for s, _ in q.situation.hands] == [1, 3]
    assert "other pair" in q.prompt
    odd = RoundEnded("domino", 2, (0, 0, 99, 0), (0,) * 4, (2, 6, 0, 8), count=99, points=99)
    assert question_for(odd) == []  # a count the tutor cannot explain is not asked


def test_other_events_ask_nothing() -> None:
    assert question_for(Bonus(0, "paso-corrido", 20)) == []
    assert question_for(Placed(0, Tile(6, 6), None, True)) == []


def test_in_lang_rephrases_only() -> None:
    event, _ = real_events()["x/n"][0]
    (q,) = question_for(event, lang="en")
    es = q.in_lang("es")
    assert isinstance(es, Question) and es.prompt != q.prompt
    assert (es.id, es.expected, es.latex, es.skill) == (q.id, q.expected, q.latex, q.skill)
    assert es.in_lang("en") == q


def test_no_eval_exec_or_sympify_in_tutor() -> None:
    pattern = re.compile(r"\b(eval|exec|sympify|parse_expr)\s*\(")
    for path in (ROOT / "tutor").rglob("*.py"):
        assert not pattern.search(path.read_text(encoding="utf-8")), path


def test_import_tutor_is_light() -> None:
    code = ("import sys, tutor, tutor.session.session, tutor.teaching.questions; "
            "bad = [m for m in ('sympy', 'ipywidgets', 'babel') if m in sys.modules]; "
            "print(bad)")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == "[]"


def test_every_formula_is_drawn_by_the_browser_as_it_reads() -> None:
    """The page shows the tutor's formulas (scaffold, hint, worked solution) as MathML, which
    the browser draws without a typesetting script: each converts whole (no LaTeX command left
    over as text) and says what its plain text says, brackets, signs and squares included."""
    import html

    from tutor.teaching.questions import math_html

    def said(mathml: str) -> str:
        text = html.unescape(re.sub(r"<[^>]+>", "", mathml))
        return text.replace("−", "-").replace("◻", "□")

    def plain(latex: str) -> str:
        return plain_math(latex).replace("²", "2").replace(" ", "")

    formulas = set()
    for rule in POWER_RULES:
        for event, near in real_events()[rule][:8]:
            for q in question_for(event, lang="en", near_tile=near):  # type: ignore[arg-type]
                formulas |= {q.worked, q.blanks, *(h.latex for h in hint_ladder(q))}
    formulas.discard("")
    assert len(formulas) > 50
    for latex in formulas:
        out = math_html(latex)
        assert out.startswith("<math") and 'display="block"' in out, out
        assert "\\" not in out and said(out) == plain(latex), (latex, said(out))
    assert math_html("") == ""
