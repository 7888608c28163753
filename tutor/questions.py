"""Questions about engine events: prompt, sympy expression, LaTeX, skills, the engine's answer."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, Literal

from engine.events import Bonus, Event, PowerEffect, RoundEnded
from engine.rules import effect_rule, number_half
from engine.tiles import Tile
from tutor.i18n import N_, normalize_lang, translator

if TYPE_CHECKING:
    import sympy

__all__ = [
    "STEPS",
    "Context",
    "Perspective",
    "Question",
    "QuestionError",
    "expression_stages",
    "question_for",
    "seat_name",
]

Perspective = Literal["player", "victim", "observer"]
Step = Literal["gain", "loss", "T", "collect"]

# RULES.md §4, the one place that says what each §1.6 row asks and which skills it exercises.
# A play that gains and takes asks both parts, gain first.
STEPS: dict[str, tuple[tuple[Step, tuple[str, ...]], ...]] = {
    "x/n": (("gain", ("multiply",)),),
    "+/n": (("gain", ("add",)),),
    "-/n": (("loss", ("negative",)),),
    "x/x": (("gain", ("square",)),),
    "+/+": (("gain", ("double",)),),
    "-/-": (("loss", ("double", "negative")),),
    "+/-": (("gain", ("add",)), ("loss", ("negative",))),
    "x/+": (("gain", ("multiply", "double")),),
    "x/-": (("gain", ("multiply",)), ("loss", ("negative",))),
    "power-vs-power": (("gain", ("add",)), ("loss", ("negative",))),
    "neutralized": (),
}
T_SKILLS: tuple[str, ...] = ("add",)
"""The scaffold step: T, the total of the tile at the other end."""
COLLECT_SKILLS: tuple[str, ...] = ("add",)
"""Round end: the points the winner collects (a sum of hands)."""
COLLECT_KINDS = ("domino", "tranque")

# Prompts by (step, who). "you" = the student is the one gaining (or losing, for a loss).
PROMPTS: dict[tuple[str, str], str] = {
    ("T", "any"): N_("What is T, the total of the tile at the other end of the line ({t_tile})?"),
    ("gain", "you"): N_("You played {tile}. How many points do you gain?"),
    ("gain", "other"): N_("Player {seat} played {tile}. How many points does player {seat} gain?"),
    ("loss", "you-played"): N_("You played {tile}. How many points does player {target} lose?"),
    ("loss", "you"): N_("Player {seat} played {tile}. How many points did you just lose?"),
    ("loss", "other"): N_("Player {seat} played {tile}. How many points does player {target} "
                          "lose?"),
    ("collect-domino", "you"): N_("Domino! You placed your last tile. How many points do you "
                                  "collect from the tiles left in the other hands?"),
    ("collect-domino", "other"): N_("Player {seat} placed their last tile. How many points does "
                                    "player {seat} collect from the tiles left in the other "
                                    "hands?"),
    ("collect-tranque", "you"): N_("Tranque! Nobody can play and your hand is the lowest. How "
                                   "many points do you collect from the other hands?"),
    ("collect-tranque", "other"): N_("Tranque! Nobody can play and player {seat} has the lowest "
                                     "hand. How many points does player {seat} collect from the "
                                     "other hands?"),
}


class QuestionError(ValueError):
    """An event or option the tutor cannot turn into a question."""


def seat_name(seat: int) -> str:
    """The score-sheet letter of a seat (RULES.md §2): 0 → A, 1 → B …"""
    return chr(ord("A") + seat)


@dataclass(frozen=True)
class Context:
    """The numbers behind a question, all read from the engine's event and line."""

    rule: str
    """The §1.6 row (``x/n`` … ``power-vs-power``) or ``collect-domino``/``collect-tranque``."""
    seat: int
    """Who played (for a round end: who collects)."""
    target: int
    """Who loses (the right-hand player of ``seat``)."""
    tile: str = ""
    """The played tile as written on the sheet (matched half first)."""
    own_rule: str = ""
    """The played tile's own §1.6 row (differs from ``rule`` for power-vs-power)."""
    n: int = 0
    t: int | None = None
    t_tile: str = ""
    t_halves: tuple[int, int] | None = None
    """The values of the T tile's halves (a symbol half counts its D-1 value)."""
    near_tile: str = ""
    """The tile next to the played one, at the end where it went (before the play)."""
    near_total: int | None = None
    gain: int = 0
    loss: int = 0
    hands: tuple[int, ...] = ()
    """Round end: the hand totals the winner collects, in seat order."""
    winner_hand: int = 0
    """Round end: the winner's own hand total."""


@dataclass(frozen=True)
class Question:
    """One thing to answer. ``expected`` is copied from the engine's event, never computed."""

    id: str
    problem: str
    """The play (or round end) the question is about; several steps share it."""
    step: Step
    skills: tuple[str, ...]
    expected: int
    prompt: str
    lang: str
    perspective: Perspective
    you: int | None
    """The seat the prompt calls "you" (None: third person only)."""
    context: Context
    expression: Any
    """A sympy expression of the computation, unevaluated (``5·(4 + 5)``)."""
    latex: str
    stages: tuple[str, ...]
    """The computation in LaTeX, one stage per rewriting, never the result
    (``5 \\cdot \\left(4 + 5\\right)``, ``5 \\cdot 9``)."""

    def in_lang(self, lang: str) -> Question:
        """The same question phrased in ``lang``."""
        lang = normalize_lang(lang)
        if lang == self.lang:
            return self
        return replace(self, lang=lang, prompt=_prompt(self.step, self.context, self.perspective,
                                                       self.you, lang))

    def __str__(self) -> str:
        return self.prompt


def _who(step: str, ctx: Context, you: int | None) -> str:
    if step == "T":
        return "any"
    if step == "loss":
        if you is not None and you == ctx.target:
            return "you"
        if you is not None and you == ctx.seat:
            return "you-played"
        return "other"
    return "you" if you is not None and you == ctx.seat else "other"


def _prompt(step: str, ctx: Context, perspective: str, you: int | None, lang: str) -> str:
    _ = translator(lang)
    key = ctx.rule if step == "collect" else step
    template = PROMPTS[(key, _who(step, ctx, you))]
    return _(template).format(tile=ctx.tile, seat=seat_name(ctx.seat),
                              target=seat_name(ctx.target), t_tile=ctx.t_tile)


# --- expressions ------------------------------------------------------------------------------

def _halves_value(tile: Tile, symbol_value: int) -> tuple[int, int]:
    return tuple(h if isinstance(h, int) else symbol_value  # type: ignore[return-value]
                 for h in (tile.a, tile.b))


def _formula(step: str, ctx: Context, tx: sympy.Expr) -> sympy.Expr:
    """The §1.6 computation with T written as ``tx`` (for display and diagnosis only)."""
    import sympy

    def mul(a: Any, b: Any) -> sympy.Expr:
        return sympy.Mul(a, b, evaluate=False)

    def add(*args: Any) -> sympy.Expr:
        return sympy.Add(*args, evaluate=False)

    rule = ctx.rule
    if step == "T":
        return tx
    if rule == "x/n":
        return mul(ctx.n, tx)
    if rule in ("+/n", "-/n"):
        return add(ctx.n, tx)
    if rule == "x/x":
        return sympy.Pow(tx, 2, evaluate=False)
    if rule in ("+/+", "-/-"):
        return mul(2, tx)
    if rule == "+/-":
        return tx
    if rule == "x/+":
        return add(mul(1, tx), tx)
    if rule == "x/-":
        return mul(1, tx)
    raise QuestionError(f"no formula for rule {rule!r}")


def _t_sum(ctx: Context) -> sympy.Expr:
    import sympy

    assert ctx.t_halves is not None
    return sympy.Add(*ctx.t_halves, evaluate=False)


def expression_stages(step: str, ctx: Context, expected: int) -> tuple[Any, tuple[Any, ...]]:
    """The expression of a question and its rewriting stages (sympy), stopping before the
    result: any stage that is already a bare number is left out, because it gives it away."""
    import sympy

    if step == "collect":
        hands = ctx.hands
        expr = sympy.Add(*hands, evaluate=False) if len(hands) > 1 else sympy.Integer(expected)
        return expr, (expr,)
    if ctx.rule == "power-vs-power":
        return sympy.Integer(expected), ()
    with_halves = _formula(step, ctx, _t_sum(ctx))
    assert ctx.t is not None
    with_t = _formula(step, ctx, sympy.Integer(ctx.t))
    stages = [with_halves]
    if ctx.rule == "x/x" and step != "T":
        stages += [with_t, sympy.Mul(ctx.t, ctx.t, evaluate=False)]
    elif ctx.rule == "x/+" and step != "T":
        stages += [with_t, sympy.Add(ctx.t, ctx.t, evaluate=False)]
    else:
        stages.append(with_t)
    kept: list[Any] = []
    for s in stages:
        if s.is_Atom or (kept and to_latex(s) == to_latex(kept[-1])):
            continue
        kept.append(s)
    return with_halves, tuple(kept)


def to_latex(expr: Any) -> str:
    """LaTeX of an unevaluated expression, in the order it was written, with ``\\cdot``."""
    import sympy

    return str(sympy.latex(expr, mul_symbol="dot", order="none"))


def plain_math(latex: str) -> str:
    """A LaTeX computation as plain text for a terminal: ``5 · (4 + 5)``, ``7²``."""
    out = (latex.replace(r"\cdot", "·").replace(r"\left(", "(").replace(r"\right)", ")")
           .replace("^{2}", "²").replace(r"\times", "×"))
    return " ".join(out.split())


# --- building questions ------------------------------------------------------------------------

def _make(qid: str, problem: str, step: Step, skills: tuple[str, ...], expected: int,
          ctx: Context, perspective: Perspective, you: int | None, lang: str) -> Question:
    expr, stages = expression_stages(step, ctx, expected)
    return Question(
        id=qid, problem=problem, step=step, skills=skills, expected=expected,
        prompt=_prompt(step, ctx, perspective, you, lang), lang=lang, perspective=perspective,
        you=you, context=ctx, expression=expr, latex=to_latex(expr),
        stages=tuple(to_latex(s) for s in stages))


def power_context(event: PowerEffect, *, near_tile: Tile | None = None,
                  symbol_value: int = 0) -> Context:
    """The numbers of a power play, from the engine's event (and the near-end tile, if known)."""
    t_halves = None if event.t_tile is None else _halves_value(event.t_tile, symbol_value)
    return Context(
        rule=event.rule, seat=event.seat, target=event.target, tile=str(event.tile),
        own_rule=effect_rule(event.tile), n=event.n or number_half(event.tile), t=event.t,
        t_tile="" if event.t_tile is None else str(event.t_tile), t_halves=t_halves,
        near_tile="" if near_tile is None else str(near_tile),
        near_total=None if near_tile is None else near_tile.total(symbol_value),
        gain=event.gain, loss=event.loss)


def question_for(
    event: Event,
    *,
    lang: str = "en",
    scaffold: bool = False,
    perspective: Perspective = "player",
    you: int | None = None,
    near_tile: Tile | None = None,
    round_end: RoundEnded | None = None,
    symbol_value: int = 0,
    id_prefix: str = "",
) -> list[Question]:
    """The questions an engine event calls for (RULES.md §4), in the order to ask them.

    * :class:`~engine.PowerEffect`: the gain and/or the loss (``scaffold``: T first);
      a neutralized play asks nothing.
    * :class:`~engine.Bonus` of kind ``domino``/``tranque`` (give the round's
      :class:`~engine.RoundEnded` as ``round_end``): the points the winner collects.
    * Anything else: no question.

    ``perspective`` says who the student is: ``"player"`` placed the tile (default ``you`` =
    the event's seat), ``"victim"`` is the right-hand player who loses (``you`` = target),
    ``"observer"`` watches (third person). ``near_tile`` (the tile the power tile was placed
    against) lets the diagnosis spot "used the wrong end".

    >>> from engine import PowerEffect, Tile
    >>> ev = PowerEffect(0, 1, Tile(5, "x"), "x/n", 45, 0, 9, Tile(4, 5), 5)
    >>> [(q.step, q.expected, q.latex) for q in question_for(ev, scaffold=True)]
    [('T', 9, '4 + 5'), ('gain', 45, '5 \\\\cdot \\\\left(4 + 5\\\\right)')]
    """
    lang = normalize_lang(lang)
    if perspective not in ("player", "victim", "observer"):
        raise QuestionError(f"perspective must be 'player', 'victim' or 'observer', "
                            f"not {perspective!r}")
    if isinstance(event, PowerEffect):
        return _power_questions(event, lang, scaffold, perspective, you, near_tile,
                                symbol_value, id_prefix)
    if isinstance(event, Bonus) and event.kind in COLLECT_KINDS:
        return _collect_questions(event, lang, perspective, you, round_end, id_prefix)
    return []


def _power_questions(event: PowerEffect, lang: str, scaffold: bool, perspective: Perspective,
                     you: int | None, near_tile: Tile | None, symbol_value: int,
                     id_prefix: str) -> list[Question]:
    if event.rule not in STEPS:
        raise QuestionError(f"the engine reported an unknown power rule {event.rule!r}")
    steps = STEPS[event.rule]
    if not steps or event.t is None or event.t_tile is None:
        return []
    if you is None:
        you = {"player": event.seat, "victim": event.target, "observer": None}[perspective]
    ctx = power_context(event, near_tile=near_tile, symbol_value=symbol_value)
    problem = f"{id_prefix}{event.tile}"
    out: list[Question] = []
    if scaffold and event.rule != "power-vs-power":
        out.append(_make(f"{problem}:T", problem, "T", T_SKILLS, event.t, ctx, perspective,
                         you, lang))
    for step, skills in steps:
        expected = event.gain if step == "gain" else event.loss
        out.append(_make(f"{problem}:{step}", problem, step, skills, expected, ctx,
                         perspective, you, lang))
    return out


def _collect_questions(event: Bonus, lang: str, perspective: Perspective, you: int | None,
                       round_end: RoundEnded | None, id_prefix: str) -> list[Question]:
    if round_end is not None and round_end.winner != event.seat:
        return []  # a shared tranque (D-9 "split"): no single winner to ask about
    hands: tuple[int, ...] = ()
    winner_hand = 0
    if round_end is not None:
        totals = round_end.hand_totals
        hands = tuple(v for s, v in enumerate(totals) if s != event.seat)
        winner_hand = totals[event.seat]
    if you is None and perspective == "player":
        you = event.seat
    ctx = Context(rule=f"collect-{event.kind}", seat=event.seat, target=event.seat,
                  hands=hands, winner_hand=winner_hand, gain=event.points)
    problem = f"{id_prefix}{event.kind}"
    return [_make(f"{problem}:collect", problem, "collect", COLLECT_SKILLS, event.points, ctx,
                  perspective, you, lang)]
