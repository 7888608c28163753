"""Questions about the engine's events (docs/rules.md §4): what the student is asked, what they
may see before answering, the one skill an answer is evidence for, and the engine's answer.

A question never carries its own working into the prompt: the formula, the other end's tile
and total, and hand totals come through the hint ladder (:mod:`tutor.teaching.hints`) and, once the
question is over, the worked solution (:attr:`Question.worked`). The expected value is always
copied from the engine's event or the engine's scores, never computed here. The words of
the prompts are :mod:`tutor.teaching.prompts`'.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import TYPE_CHECKING, Literal

from engine.events import Event, PowerEffect, RoundEnded
from engine.rules import effect_rule, number_half
from engine.tiles import Tile
from tutor.i18n import format_number, normalize_lang
from tutor.teaching import formula
from tutor.teaching.formula import Blank, Formula, Num, Power, Product, Sum
from tutor.teaching.prompts import Context, seat_name
from tutor.teaching.prompts import prompt as prompt_text

if TYPE_CHECKING:
    from sympy import Expr  # sympy has no types: mypy reads Expr as Any

__all__ = [
    "ARITHMETIC",
    "RULE_SKILL",
    "Context",
    "Perspective",
    "Question",
    "QuestionError",
    "Situation",
    "collect_question",
    "counted_seats",
    "math_html",
    "plain_math",
    "power_questions",
    "question_for",
    "round_total_question",
    "score_question",
    "seat_name",
    "tens_question",
]

Perspective = Literal["player", "victim", "observer"]
Step = Literal["T", "gain", "loss", "score", "total", "collect", "tens"]

# docs/rules.md §4: the one skill each §1.6 row's computation is evidence for.
RULE_SKILL: dict[str, str] = {
    "x/n": "multiply",
    "+/n": "add",
    "-/n": "add",
    "x/x": "square",
    "+/+": "double",
    "-/-": "double",
    "+/-": "other-end",   # the points are T itself: finding the other end is the computation
    "x/+": "double",      # 1 × T + T: T counted twice
    "x/-": "multiply",
    "power-vs-power": "rules",
    "neutralized": "rules",
}
TAKES = frozenset({"-/n", "-/-"})
"""Rows whose only effect is a loss for the right-hand player."""
BOTH = frozenset({"+/-", "x/-", "power-vs-power"})
"""Rows whose gain and loss are the same number: one computation, asked once."""
ARITHMETIC = frozenset({"other-end", "add", "multiply", "square", "double", "negative",
                        "subtract", "round"})
"""Skills whose questions make the student compute; ``rules`` questions do not."""

class QuestionError(ValueError):
    """An event or option the tutor cannot turn into a question."""


@dataclass(frozen=True)
class Situation:
    """What the student sees before answering: the facts of the play, never its working."""

    played: str = ""
    """The tile just placed (as on the score sheet), or empty."""
    line: tuple[str, ...] = ()
    """The line after the play, left to right, each tile with its left half first."""
    played_end: str | None = None
    """The end where the tile went (``L``/``R``, or a Doble 15 arm ``1``–``6``)."""
    hands: tuple[tuple[int, tuple[str, ...]], ...] = ()
    """Round end: each hand to count, as (seat, its tiles)."""
    drill: bool = False
    """A practice position between rounds, not a play of the game."""


@dataclass(frozen=True)
class Question:
    """One thing to answer. ``expected`` is copied from the engine, never computed here."""

    id: str
    problem: str
    """The play (or round end) the question is about; several steps share it."""
    step: Step
    skill: str
    expected: int
    prompt: str
    lang: str
    perspective: Perspective
    you: int | None
    """The seat the prompt calls "you" (None: third person only)."""
    context: Context
    situation: Situation = field(default_factory=Situation)
    accepted: frozenset[int] = frozenset()
    """Every value counted right (a loss may be written 15 or −15); ``expected`` included."""

    def __post_init__(self) -> None:
        if not self.accepted:
            object.__setattr__(self, "accepted", frozenset({self.expected}))

    @property
    def skills(self) -> tuple[str, ...]:
        """The skills this question is evidence for: exactly one (docs/rules.md §4)."""
        return (self.skill,)

    @property
    def arithmetic(self) -> bool:
        return self.skill in ARITHMETIC

    def is_right(self, value: int) -> bool:
        return value in self.accepted

    def in_lang(self, lang: str) -> Question:
        """The same question phrased in ``lang``."""
        lang = normalize_lang(lang)
        if lang == self.lang:
            return self
        return replace(self, lang=lang, prompt=prompt_text(self.step, self.context, self.you,
                                                       lang))

    # -- the mathematics, built only when shown (tutor.teaching.formula: no sympy)
    # ----------------------

    @cached_property
    def expression(self) -> Expr:
        """The computation as an unevaluated sympy expression (``5 × (4 + 5)``); imports
        sympy, which nothing a student sees needs (:attr:`stages` does not)."""
        return formula.to_sympy(formula_stages(self)[0])

    @cached_property
    def stages(self) -> tuple[str, ...]:
        """The computation in LaTeX, one stage per rewriting, never the result
        (``5 \\times \\left(4 + 5\\right)``, ``5 \\times 9``)."""
        return tuple(formula.latex(s) for s in formula_stages(self)[1])

    @property
    def latex(self) -> str:
        return self.stages[0] if self.stages else ""

    @cached_property
    def worked(self) -> str:
        """The worked solution, shown once the question is over: every stage, then the
        engine's number (``5 \\times \\left(4 + 5\\right) = 5 \\times 9 = 45``)."""
        return " = ".join([*self.stages, str(self.expected)])

    @cached_property
    def blanks(self) -> str:
        """The scaffold: the formula with blanks for the other end's halves (LaTeX, e.g.
        ``5 \\times \\left(\\square + \\square\\right)``), or empty where there is none."""
        return blank_formula(self)

    def __str__(self) -> str:
        return self.prompt


# --- expressions (display only: the answer is the engine's) ----------------------------------
# Written with tutor.teaching.formula's small trees, printed as sympy prints them: a student's
# kernel
# shows formulas, hints and worked solutions without loading sympy (issue 35 part 5).

def _mul(a: Formula | int, b: Formula | int) -> Formula:
    return formula.mul(a, b)


def _add(*args: Formula | int) -> Formula:
    return formula.add(*args)


def _formula(rule: str, n: int, tx: Formula) -> Formula:
    """A §1.6 row's computation with T written as ``tx``."""
    if rule == "x/n":
        return _mul(n, tx)
    if rule in ("+/n", "-/n"):
        return _add(n, tx)
    if rule == "x/x":
        return formula.square(tx)
    if rule in ("+/+", "-/-"):
        return _mul(2, tx)
    if rule == "+/-":
        return tx
    if rule == "x/+":
        return _add(_mul(1, tx), tx)
    if rule == "x/-":
        return _mul(1, tx)
    raise QuestionError(f"no formula for rule {rule!r}")


def formula_stages(q: Question) -> tuple[Formula, tuple[Formula, ...]]:
    """A question's expression and its rewriting stages (:mod:`tutor.teaching.formula` trees, no
    sympy), stopping before the result: a stage that is already a bare number is left out,
    because it gives the answer away."""
    ctx = q.context
    if q.step == "collect" and ctx.counted == "block":
        expr = _add(*[_add(h, -ctx.winner_hand) for h in ctx.hands])
        stages: list[Formula] = [expr, _add(*[h - ctx.winner_hand for h in ctx.hands])]
    elif q.step == "tens":
        return Num(q.expected), ()
    elif q.step == "collect":
        hands = ctx.hands
        if len(hands) > 1:
            expr = _add(*hands)
        elif len([v for v in ctx.pips if v]) > 1:
            # One hand: its tiles' points, half by half (halves worth 0 add nothing).
            expr = _add(*[v for v in ctx.pips if v])
        else:
            expr = Num(q.expected)
        stages = [expr]
    elif q.step in ("score", "total"):
        expr = _add(ctx.before, -ctx.taken)
        stages = [expr]
    elif ctx.rule in ("power-vs-power", "neutralized") or ctx.t_halves is None:
        return Num(q.expected), ()
    else:
        halves = _add(*ctx.t_halves)
        assert ctx.t is not None
        if q.step == "T":
            expr, stages = halves, [halves]
        else:
            expr = _formula(ctx.rule, ctx.n, halves)
            stages = [expr, _formula(ctx.rule, ctx.n, Num(ctx.t))]
            if ctx.rule == "x/x":
                stages.append(_mul(ctx.t, ctx.t))
            elif ctx.rule == "x/+":
                stages.append(_add(ctx.t, ctx.t))
    kept: list[Formula] = []
    for s in stages:
        if formula.is_atom(s) or (kept and formula.latex(s) == formula.latex(kept[-1])):
            continue
        kept.append(s)
    return expr, tuple(kept)


def expression_stages(q: Question) -> tuple[Expr, tuple[Expr, ...]]:
    """:func:`formula_stages` as unevaluated sympy expressions (imports sympy)."""
    expr, stages = formula_stages(q)
    return formula.to_sympy(expr), tuple(formula.to_sympy(s) for s in stages)


def to_latex(expr: formula.Formula | Expr) -> str:
    """LaTeX of an unevaluated expression, in the order it was written, with ``\\times``: a
    :mod:`tutor.teaching.formula` tree without sympy, or a sympy expression."""
    if isinstance(expr, (Num, Blank, Sum, Product, Power)):
        return formula.latex(expr)
    import sympy

    return str(sympy.latex(expr, mul_symbol="times", order="none"))


def blank_formula(q: Question) -> str:
    """The scaffold formula of ``q`` with blanks for the other end's halves, in LaTeX."""
    ctx = q.context
    blank = Blank()
    if q.step == "collect" and len(ctx.hands) > 1:
        return to_latex(_add(*[blank] * len(ctx.hands)))
    if q.step not in ("T", "gain", "loss") or ctx.rule not in RULE_SKILL or ctx.rule in (
            "power-vs-power", "neutralized"):
        return ""
    halves = _add(blank, blank)
    return to_latex(halves if q.step == "T" else _formula(ctx.rule, ctx.n, halves))


def plain_math(latex: str) -> str:
    """A LaTeX computation as plain text for a terminal or a log: ``5 × (4 + 5)``, ``7²``."""
    out = (latex.replace(r"\times", "×").replace(r"\cdot", "×").replace(r"\left(", "(")
           .replace(r"\right)", ")").replace("^{2}", "²").replace(r"\square", "□"))
    return " ".join(out.split())


def math_html(latex: str) -> str:
    """A formula of the tutor's (LaTeX: numbers, + − ×, brackets, squares, blanks) as MathML on
    a line of its own, which the browser draws and reads out itself, where MathJax had to
    typeset the page's text at each of its changes."""
    if not latex:
        return ""
    from latex2mathml.converter import convert

    return str(convert(latex, display="block"))


def warm_up(lang: str = "en") -> None:
    """Load what the first power play needs, before it comes: the MathML converter and the
    language's number formats (formulas need no sympy: :mod:`tutor.teaching.formula`). A live page
    calls it once the board is shown, while the student looks at it."""
    math_html(to_latex(_formula("x/+", 2, _add(3, 4))))
    format_number(0, lang)


# --- building questions ------------------------------------------------------------------------

def _halves_value(tile: Tile, symbol_value: int) -> tuple[int, int]:
    a, b = (h if isinstance(h, int) else symbol_value for h in (tile.a, tile.b))
    return a, b


def power_context(event: PowerEffect, *, near_tile: Tile | None = None,
                  symbol_value: int = 0) -> Context:
    """The numbers of a power play, from the engine's event (and the near-end tile)."""
    t_tile = event.t_tile
    return Context(
        rule=event.rule, seat=event.seat, target=event.target, tile=str(event.tile),
        own_rule=effect_rule(event.tile), n=event.n or number_half(event.tile), t=event.t,
        t_tile="" if t_tile is None else str(t_tile),
        t_halves=None if t_tile is None else _halves_value(t_tile, symbol_value),
        t_symbols=0 if t_tile is None else sum(isinstance(h, str) for h in (t_tile.a,
                                                                              t_tile.b)),
        symbol_value=symbol_value,
        near_tile="" if near_tile is None else str(near_tile),
        near_total=None if near_tile is None else near_tile.total(symbol_value),
        gain=event.gain, loss=event.loss)


def _make(qid: str, step: Step, skill: str, expected: int, ctx: Context, perspective: Perspective,
          you: int | None, lang: str, situation: Situation,
          accepted: frozenset[int] = frozenset()) -> Question:
    problem = qid.rsplit(":", 1)[0]
    return Question(id=qid, problem=problem, step=step, skill=skill, expected=expected,
                    prompt=prompt_text(step, ctx, you, lang), lang=lang, perspective=perspective,
                    you=you, context=ctx, situation=situation, accepted=accepted)


def power_questions(
    event: PowerEffect, *, lang: str = "en", perspective: Perspective = "player",
    you: int | None = None, t_first: bool = False, near_tile: Tile | None = None,
    symbol_value: int = 0, id_prefix: str = "", situation: Situation | None = None,
) -> list[Question]:
    """The questions a power play calls for, in order: T first when ``t_first`` (the
    scaffold, or a lesson that practises finding the other end), then one question for the
    play's one computation: the gain, or the loss (a ``-`` tile, or a victim asked about
    ``+/-``), asked once even when the gain and the loss are the same number."""
    lang = normalize_lang(lang)
    if perspective not in ("player", "victim", "observer"):
        raise QuestionError(f"perspective must be 'player', 'victim' or 'observer', "
                            f"not {perspective!r}")
    if event.rule not in RULE_SKILL:
        raise QuestionError(f"the engine reported an unknown power rule {event.rule!r}")
    if you is None:
        you = {"player": event.seat, "victim": event.target, "observer": None}[perspective]
    ctx = power_context(event, near_tile=near_tile, symbol_value=symbol_value)
    problem = f"{id_prefix}{event.tile}"
    seen = situation or Situation(played=str(event.tile))
    out: list[Question] = []
    if t_first and event.t is not None and event.rule not in ("power-vs-power", "neutralized"):
        out.append(_make(f"{problem}:T", "T", "other-end", event.t, ctx, perspective, you, lang,
                         seen))
    if event.rule in TAKES or (event.rule in BOTH and perspective == "victim"):
        out.append(_make(f"{problem}:loss", "loss", RULE_SKILL[event.rule], event.loss, ctx,
                         perspective, you, lang, seen, frozenset({event.loss, -event.loss})))
    else:
        out.append(_make(f"{problem}:gain", "gain", RULE_SKILL[event.rule], event.gain, ctx,
                         perspective, you, lang, seen))
    return out


def score_question(event: PowerEffect, before: int, after: int, *, lang: str = "en",
                   you: int | None = None, id_prefix: str = "",
                   situation: Situation | None = None) -> Question:
    """After a loss that takes a score below zero: the score now (``negative``). ``before``
    and ``after`` are the engine's match scores of the seat that lost."""
    ctx = Context(rule="score", seat=event.seat, target=event.target, tile=str(event.tile),
                  before=before, taken=event.loss)
    return _make(f"{id_prefix}{event.tile}:score", "score", "negative", after, ctx,
                 "victim" if you == event.target else "observer", you, normalize_lang(lang),
                 situation or Situation(played=str(event.tile)))


def round_total_question(end: RoundEnded, seat: int, *, lang: str = "en",
                         you: int | None = None, id_prefix: str = "",
                         situation: Situation | None = None,
                         supposed: bool = False) -> Question:
    """A round whose losses outweigh its gains: the round's score (``negative``), from the
    engine's round result. ``supposed``: a practice item's round, not the game's (its prompt
    says the numbers are supposed)."""
    ctx = Context(rule="round-total", seat=seat, target=seat, before=end.gains[seat],
                  taken=end.losses[seat], supposed=supposed)
    return _make(f"{id_prefix}round:total", "total", "negative", end.scores[seat], ctx,
                 "player" if you == seat else "observer", you, normalize_lang(lang),
                 situation or Situation())


def counted_seats(end: RoundEnded) -> tuple[str, tuple[int, ...]] | None:
    """Whose hands a round's count is made of, read off the engine's result: the other
    hands, the other pair's, all of them, or (the traditional block) the differences to the
    lowest hand. None when the count matches none of these."""
    winner = end.winner
    if winner is None or not end.count:
        return None
    totals = end.hand_totals
    others = tuple(s for s in range(len(totals)) if s != winner)
    if end.differences:
        return ("block", others) if sum(end.differences) == end.count else None
    choices: list[tuple[str, tuple[int, ...]]] = [("others", others)]
    if end.teams and end.team is not None:
        pair = tuple(s for t, seats in enumerate(end.teams) if t != end.team for s in seats)
        choices.insert(0, ("pair", pair))
    choices.append(("all", tuple(range(len(totals)))))
    for name, seats in choices:
        if sum(totals[s] for s in seats) == end.count:
            return name, seats
    return None


def collect_question(end: RoundEnded, *, lang: str = "en", you: int | None = None,
                     hands: dict[int, tuple[str, ...]] | None = None,
                     pips: dict[int, tuple[int, ...]] | None = None,
                     id_prefix: str = "") -> Question | None:
    """Round end: the points the winner collects, the engine's ``count`` (``add``; the
    traditional block's differences: ``subtract``). ``hands`` are the tiles of the hands to
    count, shown in place of their totals; ``pips`` their halves' values (the working when
    there is one hand to count)."""
    found = counted_seats(end)
    if found is None or end.winner is None:
        return None  # nobody collects, or a count this tutor cannot explain
    counted, seats = found
    winner = end.winner
    totals = tuple(end.hand_totals[s] for s in seats)
    ctx = Context(rule=f"collect-{end.reason}", seat=winner, target=winner, counted=counted,
                  hands=totals, winner_hand=end.hand_totals[winner], count=end.count,
                  pips=(pips or {}).get(seats[0], ()) if len(seats) == 1 else (),
                  gain=end.count)
    shown = tuple((s, (hands or {}).get(s, ())) for s in seats)
    if counted == "block":
        shown = ((winner, (hands or {}).get(winner, ())), *shown)
    return _make(f"{id_prefix}{end.reason}:collect", "collect",
                 "subtract" if counted == "block" else "add", end.count, ctx,
                 "player" if you == winner else "observer", you, normalize_lang(lang),
                 Situation(hands=shown))


def tens_question(end: RoundEnded, *, lang: str = "en", you: int | None = None,
                  id_prefix: str = "", supposed: bool = False) -> Question | None:
    """Ponce (§3.3): the count in tens, half up (``round``): the engine's ``points`` for its
    ``count``. None where the game does not round. ``supposed``: a practice item's count,
    not the game's (its prompt says so)."""
    if not end.count or end.points == end.count or end.winner is None:
        return None
    ctx = Context(rule="tens", seat=end.winner, target=end.winner, count=end.count,
                  supposed=supposed)
    return _make(f"{id_prefix}{end.reason}:tens", "tens", "round", end.points, ctx,
                 "player" if you == end.winner else "observer", you, normalize_lang(lang),
                 Situation())


def question_for(
    event: Event,
    *,
    lang: str = "en",
    t_first: bool = False,
    perspective: Perspective = "player",
    you: int | None = None,
    near_tile: Tile | None = None,
    symbol_value: int = 0,
    id_prefix: str = "",
) -> list[Question]:
    """The questions an engine event calls for (docs/rules.md §4), in the order to ask them:
    a :class:`~engine.PowerEffect` (see :func:`power_questions`), or a round's end
    (:class:`~engine.RoundEnded`: the count the winner collects, and Ponce's tens).

    >>> from engine import PowerEffect, Tile
    >>> ev = PowerEffect(0, 1, Tile(5, "x"), "x/n", 45, 0, 9, Tile(4, 5), 5)
    >>> [(q.step, q.skill, q.expected) for q in question_for(ev, t_first=True)]
    [('T', 'other-end', 9), ('gain', 'multiply', 45)]
    """
    if isinstance(event, PowerEffect):
        return power_questions(event, lang=lang, perspective=perspective, you=you,
                               t_first=t_first, near_tile=near_tile, symbol_value=symbol_value,
                               id_prefix=id_prefix)
    if isinstance(event, RoundEnded):
        if you is None and perspective == "player":
            you = event.winner
        qs = [collect_question(event, lang=lang, you=you, id_prefix=id_prefix),
              tens_question(event, lang=lang, you=you, id_prefix=id_prefix)]
        return [q for q in qs if q is not None]
    return []
