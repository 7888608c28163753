"""The simulated students' learners (:mod:`tutor.commands.simulate` plays them): what each
types to a question, and what it really knows (its hidden state, :meth:`Learner.knows`), by
profile (:func:`learner`).

Profiles: ``perfect``; ``random`` (guesses of about the right size); ``bkt:L0,T,S,G`` (a
learner who knows a skill with probability L0, learns it at each question with probability
T, slips with S and guesses with G); ``mistake:NAME:p`` (makes the catalogue mistake NAME
with probability p where it can happen, otherwise answers right); ``scaffold:NAME:p`` (the same
mistake, but only where no scaffold shows: no formula with blanks, not the points after their T
step); ``calculator`` (types the working it sees, ``5*(4+2)``, ``12-15``, ``6^2``, never the
number: it has learnt nothing); ``hints`` (asks for every hint down to the answer, then types
it: it only ever saw the skills worked out).

``forget:DAYS`` learns a skill at its first question and forgets it once more than DAYS days
pass without practising it, on an injected clock (:class:`SimClock`;
:func:`tutor.commands.simulate.simulate_days` plays lessons days apart).

Issue 42 adds learners nobody tuned the rules on: ``slips:p`` (knows everything, mistypes
a fraction p of first answers: a digit swapped, one off, a digit dropped or doubled);
``facts:N`` (knows × and ² only for numbers up to N; beyond, adds or misses by 1–3);
``learner:p`` (starts each skill with a mistake of it and drops the mistake after each
feedback on it with probability p); ``mixed:NAME,NAME:p`` (makes each named mistake with
probability p where it can happen).
"""

from __future__ import annotations

import math
import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from typing import TYPE_CHECKING

from tutor.i18n import N_, TranslatableError
from tutor.teaching.coverage import item_tells
from tutor.teaching.diagnosis import CATALOG, mistake_value, typos
from tutor.teaching.evidence import is_trivial
from tutor.teaching.questions import Question

if TYPE_CHECKING:
    from tutor.teaching.asking import Pending

__all__ = ["EPOCH", "RULE_SKILL", "BKTLearner", "Calculator", "FactsLearner", "FeedbackLearner",
           "Forgetful", "HintTaker", "Learner", "MistakeMaker", "MixedMistakes", "NumberLearner",
           "Perfect",
           "ProfileError", "RandomGuesser", "ScaffoldMistakeMaker", "Seen", "SimClock", "Typist",
           "exercised", "learner", "typo", "working"]


class ProfileError(TranslatableError):
    """A learner profile the simulator does not know."""


@dataclass(frozen=True)
class Seen:
    """What the student sees of a pending question besides its prompt: its scaffolds, as the
    session shows them (:attr:`tutor.teaching.asking.Pending.shown` and ``Pending.scaffold``, read
    when
    the question is at the front: :meth:`of`)."""

    scaffold: str = ""
    """The formula with blanks (LaTeX), empty when none shows."""
    after_t: bool = False
    """The points of a play whose T the tutor asked just before (the ``T`` scaffold: the play
    worked in two steps). The T question itself is not scaffolded: it is the other end asked
    with nothing to lean on, unless blanks show."""
    shown: frozenset[str] = frozenset()
    """The scaffolds the tutor says it showed (``blanks``, ``T``): what its evidence rule
    judges the answer by."""

    @classmethod
    def of(cls, pending: Pending | None) -> Seen:
        """What the student sees of the session's pending question (:class:`Pending`)."""
        if pending is None:
            return cls()
        shown = frozenset(pending.shown)
        return cls(scaffold=pending.scaffold, after_t="T" in shown, shown=shown)

    @property
    def scaffolded(self) -> bool:
        return bool(self.shown) or bool(self.scaffold) or self.after_t


class Learner(ABC):
    """A scripted student: what they type to a question (:meth:`reply`), and what they
    really know (:meth:`knows`)."""

    name = "learner"
    asks_every_hint = False
    """Ask for every rung of the hint ladder, down to the answer, before answering."""

    @property
    def mistake(self) -> str | None:
        """The catalogue mistake this learner makes, if any."""
        return None

    @abstractmethod
    def reply(self, q: Question, attempt: int, rng: random.Random, seen: Seen) -> str:
        """What this learner types at reply ``attempt`` (1, 2, …; replies the tutor did not
        count included)."""

    @abstractmethod
    def knows(self, skill: str) -> bool:
        """The hidden state: whether this learner really knows ``skill`` (at the moment)."""


class NumberLearner(Learner):
    """A learner who types a number: its :meth:`answer`."""

    @abstractmethod
    def answer(self, q: Question, attempt: int, rng: random.Random) -> int:
        """The number this learner answers."""

    def reply(self, q: Question, attempt: int, rng: random.Random, seen: Seen) -> str:
        return str(self.answer(q, attempt, rng))


class Perfect(NumberLearner):
    name = "perfect"

    def answer(self, q: Question, attempt: int, rng: random.Random) -> int:
        return q.expected

    def knows(self, skill: str) -> bool:
        return True


def _near(q: Question, rng: random.Random) -> int:
    """A guess of about the right size."""
    spread = max(3, abs(q.expected) // 2)
    return q.expected + rng.randint(-spread, spread)


def _wrong(q: Question, rng: random.Random) -> int:
    value = q.expected
    while q.is_right(value):
        value = _near(q, rng)
    return value


class RandomGuesser(NumberLearner):
    name = "random"

    def answer(self, q: Question, attempt: int, rng: random.Random) -> int:
        return _near(q, rng)

    def knows(self, skill: str) -> bool:
        return False


def exercised(q: Question) -> str:
    """The skill a question really exercises: its own, except an item whose operation does
    nothing (×1, +0, T = 0), whose answer is T: finding the other end (as the tutor judges it,
    :func:`tutor.teaching.evidence.is_trivial`)."""
    ctx = q.context
    return "other-end" if is_trivial(q.step, ctx.rule, ctx.n, ctx.t) else q.skill


@dataclass
class BKTLearner(NumberLearner):
    """Knows each skill or not, following BKT's own story (docs/rules.md §4's tracing)."""

    p_init: float
    p_learn: float
    p_slip: float
    p_guess: float
    known: dict[str, bool] = field(default_factory=dict)
    name = "bkt"

    def answer(self, q: Question, attempt: int, rng: random.Random) -> int:
        skill = exercised(q)
        knows = self.known.setdefault(skill, rng.random() < self.p_init)
        right = rng.random() < ((1 - self.p_slip) if knows else self.p_guess)
        if attempt == 1 and not knows:
            self.known[skill] = rng.random() < self.p_learn
        return q.expected if right else _wrong(q, rng)

    def knows(self, skill: str) -> bool:
        return self.known.get(skill, False)


@dataclass
class MistakeMaker(NumberLearner):
    """Makes one catalogue mistake with probability ``p`` wherever it can happen."""

    rule: str
    p: float
    concerns: set[str] = field(default_factory=set)
    """The skills the mistake is about: the catalogue's skill for it, or (a mistake of the
    question's own skill, e.g. a times-table slip) the skills of the questions where it could
    happen so far."""
    name = "mistake"

    def __post_init__(self) -> None:
        skill = RULE_SKILL[self.rule]
        if skill is not None:
            self.concerns.add(skill)

    @property
    def mistake(self) -> str | None:
        return self.rule

    def answer(self, q: Question, attempt: int, rng: random.Random) -> int:
        value = mistake_value(q, self.rule)
        if value is not None and RULE_SKILL[self.rule] is None:
            self.concerns.add(q.skill)
        if value is not None and attempt == 1 and rng.random() < self.p:
            return value
        return q.expected

    def knows(self, skill: str) -> bool:
        return skill not in self.concerns


@dataclass
class ScaffoldMistakeMaker(MistakeMaker):
    """Makes the mistake with probability ``p`` only where no scaffold shows; with the formula
    with blanks, or on the points after their T step, answers right (the scaffold hides the
    mistake, it does not mend it)."""

    name = "scaffold"

    def reply(self, q: Question, attempt: int, rng: random.Random, seen: Seen) -> str:
        if seen.scaffolded:
            if mistake_value(q, self.rule) is not None and RULE_SKILL[self.rule] is None:
                self.concerns.add(q.skill)
            return str(q.expected)
        return str(self.answer(q, attempt, rng))


def typo(value: int, rng: random.Random) -> int:
    """``value`` as a typing slip leaves it (:func:`tutor.teaching.diagnosis.typos`): one of
    the kinds that change it at random (one off, two neighbouring digits swapped, a digit
    dropped, a digit doubled), then one of its numbers."""
    kinds = typos(value)
    chosen = sorted(kinds[sorted(kinds)[rng.randrange(len(kinds))]])
    return chosen[rng.randrange(len(chosen))]


@dataclass
class Typist(NumberLearner):
    """Knows every skill and mistypes a share ``p`` of its first answers (:func:`typo`); right
    at the second try. ``last_typo`` says whether its last first answer was one."""

    p: float
    last_typo: bool = False
    name = "slips"

    def answer(self, q: Question, attempt: int, rng: random.Random) -> int:
        if attempt == 1:
            self.last_typo = False
            if rng.random() < self.p:
                for _ in range(10):  # bounded: a typo the question does not accept
                    value = typo(q.expected, rng)
                    if not q.is_right(value):
                        self.last_typo = True
                        return value
        return q.expected

    def knows(self, skill: str) -> bool:
        return True


MAX_FACTOR = 12
"""The largest factor the questions of the Leonard set ask: T is at most 6 + 6."""


@dataclass
class FactsLearner(NumberLearner):
    """Knows × and ² only for numbers up to ``n`` (a product whose factors are both at most
    ``n``); beyond them it adds (n + T, T + T) or misses the product by 1–3, at the first try.
    Every other computation it does right (×1 too: the number itself)."""

    n: int
    name = "facts"

    def answer(self, q: Question, attempt: int, rng: random.Random) -> int:
        ctx = q.context
        if attempt == 1 and q.step in ("gain", "loss") and exercised(q) == q.skill \
                and ctx.t is not None and ctx.rule in ("x/n", "x/x"):
            a, b = (ctx.n, ctx.t) if ctx.rule == "x/n" else (ctx.t, ctx.t)
            if max(a, b) > self.n:
                if rng.random() < 0.5:
                    wrong = a + b
                else:
                    wrong = q.expected + rng.choice((-1, 1)) * rng.randint(1, 3)
                if not q.is_right(wrong):
                    return wrong
        return q.expected

    def knows(self, skill: str) -> bool:
        return skill not in ("multiply", "square") or self.n >= MAX_FACTOR


@dataclass
class FeedbackLearner(NumberLearner):
    """Starts each skill with one mistake of it (drawn among those its first question of the
    skill can show) and makes it wherever it can; after each wrong first answer it is told
    about (the feedback), it drops the mistake with probability ``p``."""

    p: float
    holds: dict[str, str | None] = field(default_factory=dict)
    """Per skill met, the mistake it still makes (None: learnt)."""
    name = "learner"

    def answer(self, q: Question, attempt: int, rng: random.Random) -> int:
        skill, told = item_tells(q)
        if skill not in self.holds and told:
            self.holds[skill] = sorted(told)[rng.randrange(len(told))]
        rule = self.holds.get(skill)
        value = mistake_value(q, rule) if rule is not None and rule in told else None
        if attempt == 1 and value is not None:
            if rng.random() < self.p:
                self.holds[skill] = None  # the feedback on this answer teaches it
            return value
        return q.expected

    def knows(self, skill: str) -> bool:
        return self.holds.get(skill) is None


@dataclass
class MixedMistakes(NumberLearner):
    """Makes each of ``rules`` with probability ``p`` where it can happen (the first of them
    that does, in order), otherwise answers right."""

    rules: tuple[str, ...]
    p: float
    concerns: set[str] = field(default_factory=set)
    name = "mixed"

    def __post_init__(self) -> None:
        self.concerns.update(s for s in map(RULE_SKILL.__getitem__, self.rules) if s)

    @property
    def mistake(self) -> str | None:
        return self.rules[0]

    def answer(self, q: Question, attempt: int, rng: random.Random) -> int:
        for rule in self.rules:
            value = mistake_value(q, rule)
            if value is None:
                continue
            self.concerns.add(RULE_SKILL[rule] or q.skill)
            if attempt == 1 and rng.random() < self.p:
                return value
        return q.expected

    def knows(self, skill: str) -> bool:
        return skill not in self.concerns


class Calculator(Learner):
    """Types the working it sees (:func:`working`), never the number: a student copying the
    prompt's numbers with the operation between them into a box that computes. A refused
    reply is tried again in the next form of the working; then it asks to see the answer."""

    name = "calculator"

    def reply(self, q: Question, attempt: int, rng: random.Random, seen: Seen) -> str:
        return working(q, attempt - 1)

    def knows(self, skill: str) -> bool:
        return False


class HintTaker(NumberLearner):
    """Asks for every hint down to the last rung, which gives the answer, then types it: every
    skill it meets it only ever saw worked out, so it knows none."""

    name = "hints"
    asks_every_hint = True

    def answer(self, q: Question, attempt: int, rng: random.Random) -> int:
        return q.expected

    def knows(self, skill: str) -> bool:
        return False


RULE_SKILL: dict[str, str | None] = {r.id: r.skill for r in CATALOG}
"""Each catalogue mistake with the skill it is about (None: a mistake of the question's own
skill, e.g. a times-table slip)."""


# --- the working a student copying the prompt types ------------------------------------------

def _with_op(text: str) -> str:
    """Working always has an operation: a lone number ``n`` is written ``n+0``."""
    return text if any(c in text[1:] for c in "+-*^/") else f"{text}+0"


def _sum(parts: Iterable[int]) -> str:
    return "+".join(str(v) for v in parts)


def _rule_workings(rule: str, n: int, halves: tuple[int, int] | None, t: int) -> list[str]:
    """A §1.6 row's computation as typed: first with the other end's halves (or its total for
    a square), then with T, as :func:`tutor.teaching.questions.expression_stages` writes them."""
    ht = f"({halves[0]}+{halves[1]})" if halves is not None else str(t)
    bare = f"{halves[0]}+{halves[1]}" if halves is not None else str(t)
    forms = {
        "x/n": [f"{n}*{ht}", f"{n}*{t}"],
        "+/n": [f"{n}+{bare}", f"{n}+{t}"],
        "-/n": [f"{n}+{bare}", f"{n}+{t}"],
        "x/x": [f"{t}^2", f"{ht}^2", f"{t}*{t}"],
        "+/+": [f"2*{ht}", f"2*{t}"],
        "-/-": [f"2*{ht}", f"2*{t}"],
        "+/-": [bare],
        "x/+": [f"1*{ht}+{bare}", f"1*{t}+{t}", f"{t}+{t}"],
        "x/-": [f"1*{ht}", f"1*{t}"],
    }
    return forms.get(rule, [])


def _workings(q: Question) -> list[str]:
    ctx = q.context
    if q.step in ("score", "total"):
        return [f"{ctx.before}-{ctx.taken}"]
    if q.step == "tens":
        return [f"{ctx.count}/10"]
    if q.step == "collect":
        if ctx.counted == "block":
            w = ctx.winner_hand
            return ["+".join(f"({h}-{w})" for h in ctx.hands), _sum(h - w for h in ctx.hands)]
        if len(ctx.hands) > 1:
            return [_sum(ctx.hands)]
        return [_sum(ctx.pips) if ctx.pips else _sum(ctx.hands)]
    if q.step == "T" and ctx.t_halves is not None:
        return [_sum(ctx.t_halves), _sum(reversed(ctx.t_halves))]
    if ctx.rule in ("power-vs-power", "neutralized"):
        # No computation to copy: the played tile's own operation on what it sees.
        return _rule_workings(ctx.own_rule or ctx.rule, ctx.n, ctx.t_halves, ctx.t or 0) \
            or [f"{ctx.n}*0"]
    return _rule_workings(ctx.rule, ctx.n, ctx.t_halves, ctx.t or 0) or [f"{q.expected}+0"]


def working(q: Question, stage: int = 0) -> str:
    """The working of ``q`` as a student copying its numbers types it, never the number:
    ``5*(4+2)`` for x/5 on 4/2, ``4+2`` for its T, ``6^2`` for a square, ``12-15`` for a
    score. ``stage`` 1, 2 … give the later forms (``5*6``), the last one repeated. Built from
    the question's numbers (:class:`~tutor.teaching.prompts.Context`), never by evaluating
    text."""
    forms = [_with_op(f) for f in _workings(q)]
    return forms[min(stage, len(forms) - 1)]


# --- forget:DAYS (review, tutor.teaching.review): knowledge that decays, on an injected clock
# --------

EPOCH = datetime(2024, 1, 1, tzinfo=timezone.utc)
"""Where a :class:`SimClock` starts unless told."""


class SimClock:
    """An injected clock for simulated days: it stands still until :meth:`advance`."""

    def __init__(self, start: datetime = EPOCH) -> None:
        self.now = start

    def __call__(self) -> datetime:
        return self.now

    def advance(self, days: float) -> datetime:
        self.now += timedelta(days=days)
        return self.now


@dataclass
class Forgetful(NumberLearner):
    """Learns a skill at its first question (wrong at first, right once shown how) and then
    answers it right, like ``perfect``, until more than ``days`` days pass without practising
    it (by ``clock``): then it has forgotten it, misses its next first answer and learns it
    again from that question."""

    days: float
    clock: Callable[[], datetime] = field(default=lambda: EPOCH)
    learned: dict[str, datetime] = field(default_factory=dict)
    """Each known skill and when it was last practised."""
    name = "forget"

    def knows(self, skill: str) -> bool:
        last = self.learned.get(skill)
        return last is not None and self.clock() - last <= timedelta(days=self.days)

    def answer(self, q: Question, attempt: int, rng: random.Random) -> int:
        knows = self.knows(q.skill)
        self.learned[q.skill] = self.clock()  # practised now; a wrong answer teaches it
        return q.expected if knows or attempt > 1 else _wrong(q, rng)


def _forget_profile(rest: str) -> Callable[[], Learner]:
    days = float(rest)
    if not (math.isfinite(days) and days > 0):
        raise ValueError
    return lambda: Forgetful(days)


def learner(profile: str, lang: str = "en") -> Callable[[], Learner]:
    """A factory of fresh learners for ``profile`` (each simulated student starts anew);
    an unknown profile's error speaks ``lang``."""
    kind, _, rest = profile.partition(":")
    try:
        if kind == "perfect" and not rest:
            return Perfect
        if kind == "random" and not rest:
            return RandomGuesser
        if kind == "calculator" and not rest:
            return Calculator
        if kind == "hints" and not rest:
            return HintTaker
        if kind == "bkt":
            values = [float(v) for v in rest.split(",")]
            if len(values) != 4 or not all(0 <= v <= 1 for v in values):
                raise ValueError
            return lambda: BKTLearner(values[0], values[1], values[2], values[3])
        if kind == "mistake":
            name, _, p = rest.rpartition(":")
            if name not in {r.id for r in CATALOG} or not 0 <= float(p) <= 1:
                raise ValueError
            return lambda: MistakeMaker(name, float(p))
        if kind == "scaffold":
            name, _, p = rest.rpartition(":")
            if name not in {r.id for r in CATALOG} or not 0 <= float(p) <= 1:
                raise ValueError
            return lambda: ScaffoldMistakeMaker(name, float(p))
        if kind == "forget":
            return _forget_profile(rest)
        if kind in ("slips", "learner"):
            share = float(rest)
            if not 0 <= share <= 1:
                raise ValueError
            return (lambda: Typist(share)) if kind == "slips" else (
                lambda: FeedbackLearner(share))
        if kind == "facts":
            up_to = int(rest)
            if up_to < 0:
                raise ValueError
            return lambda: FactsLearner(up_to)
        if kind == "mixed":
            names, _, p = rest.rpartition(":")
            rules = tuple(names.split(","))
            known = {r.id for r in CATALOG}
            if not rules or not set(rules) <= known or not 0 <= float(p) <= 1:
                raise ValueError
            return lambda: MixedMistakes(rules, float(p))
    except ValueError:
        pass
    raise ProfileError(N_("Unknown profile {profile}: use perfect, random, calculator, hints, "
                          "bkt:L0,T,S,G, mistake:NAME:p, scaffold:NAME:p, forget:DAYS, slips:p, "
                          "facts:N, learner:p or mixed:NAME,NAME:p (NAME from the mistake "
                          "catalogue)."),
                       profile=repr(profile), lang=lang)
