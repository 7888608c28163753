"""Simulated students, for lesson designers and for tests: scripted learners play whole lessons
through the same :class:`~tutor.play.session.Session` the page uses, and the tutor's own records
say how the lesson went (which skills it asked, how often, whether mastery was reached).

    python -m tutor simulate-students --lesson 04-times --students 50 --profile perfect \\
        --seed 1 --json

Profiles: ``perfect``; ``random`` (guesses of about the right size); ``bkt:L0,T,S,G`` (a
learner who knows a skill with probability L0, learns it at each question with probability
T, slips with S and guesses with G); ``mistake:NAME:p`` (makes the catalogue mistake NAME
with probability p where it can happen, otherwise answers right); ``scaffold:NAME:p`` (the same
mistake, but only where no scaffold shows: no formula with blanks, not the points after their T
step); ``calculator`` (types the working it sees, ``5*(4+2)``, ``12-15``, ``6^2``, never the
number: it has learnt nothing); ``hints`` (asks for every hint down to the answer, then types
it: it only ever saw the skills worked out).

Every learner has a hidden state, :meth:`Learner.knows`, which the report sets against the
tutor's verdict: per skill ``mastered_while_wrong`` is the share of the students called mastered
who do not know the skill. :func:`teaching_goals` checks a lesson against the teaching goals
(issue 32, part 8), for ``benchmarks/teaching_rates.py`` and the tests.

``forget:DAYS`` learns a skill at its first question and forgets it once more than DAYS days
pass without practising it, on an injected clock (:func:`simulate_days` plays lessons days
apart).

Issue 42 adds learners nobody tuned the rules on: ``slips:p`` (knows everything, mistypes
a fraction p of first answers: a digit swapped, one off, a digit dropped or doubled);
``facts:N`` (knows × and ² only for numbers up to N; beyond, adds or misses by 1–3);
``learner:p`` (starts each skill with a mistake of it and drops the mistake after each
feedback on it with probability p); ``mixed:NAME,NAME:p`` (makes each named mistake with
probability p where it can happen).

:func:`write_progress` (``--write-progress DIR``) plays the same students with the tutor
recording their attempts and writes each one's progress file, as a student downloads it, so a
teacher can try the teacher page with a simulated class.
"""

from __future__ import annotations

import math
import os
import random
import re
import statistics
import tempfile
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import TYPE_CHECKING, TypedDict

from engine.bots import GreedyBot
from engine.events import Placed
from engine.view import view_of
from tutor.i18n import N_, TranslatableError
from tutor.play.snapshot import WAIT_ROUND
from tutor.teaching.diagnosis import CATALOG, diagnose, mistake_value, typos
from tutor.teaching.mastery import SKILLS
from tutor.teaching.questions import Question

if TYPE_CHECKING:
    from tutor.course.lessons import Lesson
    from tutor.play.session import Session
    from tutor.storage.store import Store
    from tutor.teaching.asking import Pending

__all__ = ["GOALS", "LESSON_MISTAKES", "NAME_PREFIX", "Calculator", "FactsLearner",
           "FeedbackLearner", "Forgetful", "Goal", "GoalResult", "HintTaker", "Learner",
           "MixedMistakes", "ProfileError", "ProgressFile", "ProgressFilesError", "Reply",
           "ScaffoldMistakeMaker", "Seen", "SimClock", "Typist", "learner",
           "lesson_mistake", "play_lesson", "progress_folder", "simulate", "simulate_days",
           "simulate_one", "student_names", "student_seed", "teaching_goals", "typo", "working",
           "write_progress", "PAIR_BOUND", "ReviewTrial", "mistake_pairs",
           "pair_result", "review_trial"]

MAX_ATTEMPTS = 3
"""A learner who is still wrong after this many replies (counted or not) asks to see the
answer."""
MAX_HINTS = 20
"""More rungs than any hint ladder has: a bound on a ``hints`` learner's asking."""


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


class Learner:
    """A scripted student: what they type to a question, and what they really know."""

    name = "learner"
    asks_every_hint = False
    """Ask for every rung of the hint ladder, down to the answer, before answering."""

    @property
    def mistake(self) -> str | None:
        """The catalogue mistake this learner makes, if any."""
        return None

    def answer(self, q: Question, attempt: int, rng: random.Random) -> int:
        """The number this learner answers (learners who type numbers)."""
        raise NotImplementedError

    def reply(self, q: Question, attempt: int, rng: random.Random, seen: Seen) -> str:
        """What this learner types at reply ``attempt`` (1, 2, …; replies the tutor did not
        count included)."""
        return str(self.answer(q, attempt, rng))

    def knows(self, skill: str) -> bool:
        """The hidden state: whether this learner really knows ``skill`` (at the moment)."""
        raise NotImplementedError


class Perfect(Learner):
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


class RandomGuesser(Learner):
    name = "random"

    def answer(self, q: Question, attempt: int, rng: random.Random) -> int:
        return _near(q, rng)

    def knows(self, skill: str) -> bool:
        return False


def exercised(q: Question) -> str:
    """The skill a question really exercises: its own, except an item whose operation does
    nothing (×1, +0, T = 0), whose answer is T: finding the other end (as the tutor judges it,
    :func:`tutor.teaching.evidence.is_trivial`)."""
    from tutor.teaching.evidence import is_trivial

    ctx = q.context
    return "other-end" if is_trivial(q.step, ctx.rule, ctx.n, ctx.t) else q.skill


@dataclass
class BKTLearner(Learner):
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
class MistakeMaker(Learner):
    """Makes one catalogue mistake with probability ``p`` wherever it can happen."""

    rule: str
    p: float
    concerns: set[str] = field(default_factory=set)
    """The skills the mistake is about: the catalogue's skill for it, or (a mistake of the
    question's own skill, e.g. a times-table slip) the skills of the questions where it could
    happen so far."""
    name = "mistake"

    def __post_init__(self) -> None:
        skill = _RULE_SKILL[self.rule]
        if skill is not None:
            self.concerns.add(skill)

    @property
    def mistake(self) -> str | None:
        return self.rule

    def answer(self, q: Question, attempt: int, rng: random.Random) -> int:
        value = mistake_value(q, self.rule)
        if value is not None and _RULE_SKILL[self.rule] is None:
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
            if mistake_value(q, self.rule) is not None and _RULE_SKILL[self.rule] is None:
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
class Typist(Learner):
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
class FactsLearner(Learner):
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
class FeedbackLearner(Learner):
    """Starts each skill with one mistake of it (drawn among those its first question of the
    skill can show) and makes it wherever it can; after each wrong first answer it is told
    about (the feedback), it drops the mistake with probability ``p``."""

    p: float
    holds: dict[str, str | None] = field(default_factory=dict)
    """Per skill met, the mistake it still makes (None: learnt)."""
    name = "learner"

    def answer(self, q: Question, attempt: int, rng: random.Random) -> int:
        from tutor.teaching.coverage import item_tells

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
class MixedMistakes(Learner):
    """Makes each of ``rules`` with probability ``p`` where it can happen (the first of them
    that does, in order), otherwise answers right."""

    rules: tuple[str, ...]
    p: float
    concerns: set[str] = field(default_factory=set)
    name = "mixed"

    def __post_init__(self) -> None:
        self.concerns.update(s for s in map(_RULE_SKILL.__getitem__, self.rules) if s)

    @property
    def mistake(self) -> str | None:
        return self.rules[0]

    def answer(self, q: Question, attempt: int, rng: random.Random) -> int:
        for rule in self.rules:
            value = mistake_value(q, rule)
            if value is None:
                continue
            self.concerns.add(_RULE_SKILL[rule] or q.skill)
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


class HintTaker(Learner):
    """Asks for every hint down to the last rung, which gives the answer, then types it: every
    skill it meets it only ever saw worked out, so it knows none."""

    name = "hints"
    asks_every_hint = True

    def answer(self, q: Question, attempt: int, rng: random.Random) -> int:
        return q.expected

    def knows(self, skill: str) -> bool:
        return False


_RULE_SKILL: dict[str, str | None] = {r.id: r.skill for r in CATALOG}


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
    the question's numbers (:class:`~tutor.teaching.questions.Context`), never by evaluating
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
class Forgetful(Learner):
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


def play_lesson(session: Session, student: Learner, rng: random.Random,
                seed: int = 0) -> list[tuple[Question, bool]]:
    """Play ``session`` to the end of its match with ``student`` answering (the moves by a
    seeded greedy player, as :func:`simulate_one`); each question with whether its first
    answer was right."""
    mover = GreedyBot(seed)
    asked: list[tuple[Question, bool]] = []
    for _ in range(100_000):  # bounded: a lesson is a few hundred steps
        q = session.pending_question
        if q is not None:
            first = None
            for attempt in range(1, MAX_ATTEMPTS + 1):
                fb = session.answer(str(student.answer(q, attempt, rng)))
                first = fb.kind == "correct" if first is None else first
                if fb.done:
                    break
            else:
                session.reveal()
            asked.append((q, bool(first)))
        elif (seat := session.current_player()) is not None:
            session.apply_action(mover.choose(view_of(session.round, seat)))
        elif lesson_over(session):
            break
        else:
            _next_step(session)
    return asked


def simulate_days(lessons: Sequence[tuple[float, Lesson | str]], student: Learner, store: Store, *,
                  seed: int = 1, clock: SimClock | None = None, name: str = "sim",
                  lang: str = "en") -> list[list[tuple[Question, bool]]]:
    """One simulated student across days, with one progress ``store``: for each
    ``(days, lesson)`` the clock moves on ``days`` days, then the lesson is played (a
    :class:`~tutor.play.session.Session` on the same store and clock, so reviews fall due and
    are mixed in). A :class:`Forgetful` student gets the clock. Returns each lesson's
    questions with whether the first answer was right."""
    from tutor.play.session import Session

    clock = clock or SimClock()
    if isinstance(student, Forgetful):
        student.clock = clock
    rng = random.Random(seed)
    out = []
    for k, (days, lesson) in enumerate(lessons):
        clock.advance(days)
        s = Session.from_lesson(lesson, lang=lang, student=name, store=store,
                                seed=seed * 1009 + k, clock=clock)
        out.append(play_lesson(s, student, rng, seed + k))
        s.flush()
    return out


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


@dataclass(frozen=True)
class Reply:
    """How one question went for a simulated student."""

    question: Question
    seen: Seen
    hints: int
    """Hint rungs taken before the first reply."""
    first_text: str
    """What the student typed first."""
    first_counted: bool | None
    """Whether the first counted reply was right (None: no reply counted, the answer was
    revealed)."""
    counted: int
    """Replies the tutor counted as attempts."""
    uncounted: int
    """Replies it did not count (unreadable, or working where a number is asked)."""
    revealed: bool


@dataclass
class Run:
    """One simulated student's lesson."""

    questions: list[tuple[Question, bool]] = field(default_factory=list)
    """Every question asked, with whether the first counted answer was right."""
    replies: list[Reply] = field(default_factory=list)
    """Every question asked, in detail (see :class:`Reply`)."""
    mastered_after: dict[str, int] = field(default_factory=dict)
    """Per skill, how many questions of it were asked when it was first mastered."""
    final: dict[str, float] = field(default_factory=dict)
    mastered: dict[str, bool] = field(default_factory=dict)
    knows: dict[str, bool] = field(default_factory=dict)
    """The learner's hidden state at the lesson's end (:meth:`Learner.knows`)."""
    tiles_placed: int = 0
    """Tiles the simulated student placed in the lesson (its own seat's, not the bots')."""
    rounds: int = 0
    shown: list[tuple[str, bool]] = field(default_factory=list)
    """Mistake profiles: each answer that showed the mistake, as (the question's rule, whether
    the diagnosis named that mistake)."""
    typos: list[bool] = field(default_factory=list)
    """``slips:`` profiles: each first answer that was a typo, with whether the diagnosis named
    a catalogue mistake for it (``named`` or ``likely``)."""


def _as_int(text: str) -> int | None:
    """A simulated reply that is a plain whole number, as that number (the simulator's own
    text, never a student's)."""
    body = text[1:] if text.startswith("-") else text
    return int(text) if body.isdigit() else None


def lesson_over(s: Session) -> bool:
    """Whether the simulated lesson has ended: the ONE place that decides it (every target
    mastered or the lesson's cap; free play: its match is over)."""
    return bool(s.lesson_over)


def _next_step(s: Session) -> None:
    """Nothing to answer or play and the lesson not over: what comes next, as the session
    decides it (:meth:`~tutor.play.session.Session.advance`: a bot's move), or, when the
    round waits for its end, the next round or a new match of the same lesson."""
    if s.waiting() == WAIT_ROUND:
        s.new_round()
    elif not s.advance().events:  # pragma: no cover - a step always moves someone
        raise RuntimeError("the simulated lesson is stuck")


def _ask(s: Session, student: Learner, q: Question, seen: Seen, rng: random.Random,
         run: Run) -> Reply:
    """One question, from the hints a learner asks for to its last reply (or giving up)."""
    hints = 0
    if student.asks_every_hint:
        for _ in range(MAX_HINTS):
            given = s.hints_given()
            if given and given[-1].reveals:
                break
            s.hint()
        hints = len(s.hints_given())
    attempt, counted, uncounted, first, first_text, revealed = 0, 0, 0, None, "", False
    while True:
        attempt += 1
        text = student.reply(q, attempt, rng, seen)
        if attempt == 1:
            first_text = text
            value = _as_int(text)
            if isinstance(student, Typist) and student.last_typo and value is not None:
                run.typos.append(diagnose(q, value).kind in ("named", "likely"))
            if student.mistake is not None and value is not None \
                    and value == mistake_value(q, student.mistake) and not q.is_right(value):
                run.shown.append((q.context.rule,
                                  diagnose(q, value).rule == student.mistake))
        fb = s.answer(text)
        if fb.counted:
            counted += 1
            if first is None:
                first = fb.kind == "correct"
        else:
            uncounted += 1
        if fb.done:
            break
        if attempt >= MAX_ATTEMPTS:
            s.reveal()
            revealed = True
            break
    return Reply(q, seen, hints, first_text, first, counted, uncounted, revealed)


def simulate_one(lesson: Lesson | str, make: Callable[[], Learner], seed: int,
                 lang: str = "en", *, store: Store | None = None, name: str = "anon",
                 clock: Callable[[], datetime] | None = None) -> tuple[Run, frozenset[str]]:
    """Play ``lesson`` once with a fresh learner; return the run and the lesson's focus
    skills. Moves are chosen by a seeded greedy player; the lesson's own seed is replaced
    by ``seed`` so each student gets a different deal. With a progress ``store`` the
    attempts are recorded there as student ``name`` (at ``clock``'s times), as the page
    records a student's (see :func:`write_progress`)."""
    from tutor.play.session import Session

    rng = random.Random(seed)
    student = make()
    s = Session.from_lesson(lesson, lang=lang, store=store, seed=seed, student=name,
                            clock=clock)
    mover = GreedyBot(seed)
    run = Run()
    asked: Counter[str] = Counter()
    for _ in range(100_000):  # bounded: a lesson is a few hundred steps
        q = s.pending_question
        if q is not None:
            seen = Seen.of(s.asker.pending)  # the session's own record of its scaffolds
            reply = _ask(s, student, q, seen, rng, run)
            run.replies.append(reply)
            run.questions.append((q, bool(reply.first_counted)))
            asked[q.skill] += 1
            mastery = s.mastery
            for skill in SKILLS:
                if skill not in run.mastered_after and mastery.state(skill).mastered \
                        and asked[skill]:
                    run.mastered_after[skill] = asked[skill]
            continue
        seat = s.current_player()
        if seat is not None:
            events = s.apply_action(mover.choose(view_of(s.round, seat)))
            run.tiles_placed += sum(isinstance(e, Placed) and e.seat == seat for e in events)
        elif lesson_over(s):
            break
        else:
            _next_step(s)
    run.rounds = s.lesson_rounds
    for skill in SKILLS:
        st = s.mastery.state(skill)
        run.final[skill], run.mastered[skill] = st.p_known, st.mastered
        run.knows[skill] = student.knows(skill)
    return run, s.plan.focus


def student_seed(seed: int, k: int) -> int:
    """The seed of the ``k``-th simulated student (from 0) of a run seeded ``seed``: its deal
    and its choices (:func:`simulate` and :func:`write_progress` play the same students)."""
    return seed * 100_003 + k


def _share(hits: int, of: int) -> float | None:
    return round(hits / of, 4) if of else None


class SkillReport(TypedDict):
    """One skill's line of a :func:`simulate` report."""

    target: bool
    questions: int
    share: float
    first_try_accuracy: float | None
    final_mastery: float
    mastered_share: float
    questions_to_mastery: float | None
    mastered_while_wrong: float | None
    mastered_when_unknown: float | None


class DiagnosisReport(TypedDict):
    """How often the tutor named the mistake a ``mistake:``/``scaffold:`` student made."""

    named: int
    of: int
    by_rule: dict[str, dict[str, int]]


class Report(TypedDict, total=False):
    """What :func:`simulate` returns and ``simulate-students`` prints as JSON (the module
    docstring says what each field means); ``diagnosis`` only for mistake profiles."""

    lesson: str
    profile: str
    students: int
    seed: int
    questions: int
    questions_per_student: float
    target_questions_per_student: float
    tiles_placed_per_student: float
    rounds_per_student: float
    uncounted_replies_per_student: float
    target_share: float
    non_arithmetic_share: float
    all_targets_mastered_share: float
    lesson_targets: list[str]
    rounds: int
    skills: dict[str, SkillReport]
    kinds: dict[str, int]
    diagnosis: DiagnosisReport
    typos: dict[str, int]
    """``slips:`` profiles: typos made (``of``) and named as a catalogue mistake (``named``)."""
    progress_files: list[dict[str, str | int]]
    """With ``--write-progress``: each student's file and how many attempts it holds."""


def simulate(lesson_id: str, students: int, profile: str, seed: int,
             lang: str = "en") -> Report:
    """Play ``lesson_id`` with ``students`` simulated students of ``profile``; the summary
    the command prints as JSON (see the module docstring)."""
    from tutor.course.lessons import load_lesson

    lesson = load_lesson(lesson_id, lang)
    make = learner(profile, lang)
    runs = []
    focus: frozenset[str] = frozenset()
    for k in range(students):
        run, focus = simulate_one(lesson, make, student_seed(seed, k), lang)
        runs.append(run)
    total = sum(len(r.questions) for r in runs)
    skills: dict[str, SkillReport] = {}
    for skill in SKILLS:
        firsts = [ok for r in runs for q, ok in r.questions if q.skill == skill]
        if not firsts and skill not in focus:
            continue
        to_mastery = [r.mastered_after[skill] for r in runs if skill in r.mastered_after]
        skills[skill] = {
            "target": skill in focus,
            "questions": len(firsts),
            "share": round(len(firsts) / total, 4) if total else 0.0,
            "first_try_accuracy": round(sum(firsts) / len(firsts), 4) if firsts else None,
            "final_mastery": round(statistics.mean(r.final[skill] for r in runs), 4),
            "mastered_share": round(sum(r.mastered[skill] for r in runs) / len(runs), 4),
            "questions_to_mastery": statistics.median(to_mastery) if to_mastery else None,
            "mastered_while_wrong": _share(
                sum(r.mastered[skill] and not r.knows[skill] for r in runs),
                sum(r.mastered[skill] for r in runs)),
            "mastered_when_unknown": _share(
                sum(r.mastered[skill] and not r.knows[skill] for r in runs),
                sum(not r.knows[skill] for r in runs)),
        }
    kinds: Counter[str] = Counter()
    for r in runs:
        for q, _ok in r.questions:
            kinds["T" if q.step == "T" else q.context.rule] += 1
    out: Report = {
        "lesson": lesson.id, "profile": profile, "students": students, "seed": seed,
        "questions": total,
        "questions_per_student": round(total / students, 2) if students else 0,
        "target_questions_per_student": round(
            sum(q.skill in focus for r in runs for q, _ in r.questions) / students, 2)
        if students else 0,
        "tiles_placed_per_student": round(sum(r.tiles_placed for r in runs) / students, 2)
        if students else 0,
        "rounds_per_student": round(sum(r.rounds for r in runs) / students, 2)
        if students else 0,
        "uncounted_replies_per_student": round(sum(a.uncounted for r in runs
                                                   for a in r.replies) / students, 2)
        if students else 0,
        "target_share": round(sum(q.skill in focus for r in runs for q, _ in r.questions)
                              / total, 4) if total else 0.0,
        "non_arithmetic_share": round(sum(not q.arithmetic for r in runs
                                          for q, _ in r.questions) / total, 4) if total
        else 0.0,
        "all_targets_mastered_share": round(sum(all(r.mastered[s] for s in focus)
                                                for r in runs) / len(runs), 4)
        if runs else 0.0,
        "lesson_targets": sorted(lesson.targets),
        "rounds": lesson.rounds,
        "skills": skills,
        "kinds": dict(sorted(kinds.items())),
    }
    if profile.startswith("slips:"):
        typos = [named for r in runs for named in r.typos]
        out["typos"] = {"named": sum(typos), "of": len(typos)}
    if profile.startswith(("mistake:", "scaffold:")):
        shown = [x for r in runs for x in r.shown]
        by_rule: dict[str, dict[str, int]] = {}
        for rule, named in shown:
            row = by_rule.setdefault(rule, {"named": 0, "of": 0})
            row["named"] += named
            row["of"] += 1
        out["diagnosis"] = {"named": sum(n for _, n in shown), "of": len(shown),
                            "by_rule": dict(sorted(by_rule.items()))}
    return out


# --- the teaching goals (issue 32, part 8) ---------------------------------------------------

LESSON_MISTAKES: dict[str, str] = {
    "01-other-end": "one_half_only",
    "02-plus": "forgot_own_number",
    "03-minus": "dropped_the_minus",
    "04-times": "added_instead_of_multiplied",
    "05-squares": "doubled_instead_of_squared",
    "06-doubles": "forgot_to_double",
    "07-all-power": "one_half_only",
    "08-full-match": "used_near_end",
    "09-traditional": "added_the_hands",
    "10-venezuela": "missed_a_hand",
    "11-ponce": "did_not_round",
    "12-cuban": "missed_a_hand",
    "13-doble15": "missed_a_hand",
    "free-play": "multiplied_instead_of_added",
}
"""Per shipped lesson, the catalogue mistake its ``mistake:`` and ``scaffold:`` goals use: one
of a target skill's mistakes that its questions give room for (each was seen on at least 15 of
50 questions of 10 perfect students)."""


def lesson_mistake(lesson: Lesson | str, seed: int = 1, lang: str = "en") -> str | None:
    """The mistake the goals of ``lesson`` (a Lesson or its id) use: the table's, else the
    catalogue mistake of a target skill that ten perfect students' questions gave most room
    for (None when there is none)."""
    from tutor.course.lessons import Lesson, load_lesson

    lesson_id = lesson.id if isinstance(lesson, Lesson) else lesson
    if lesson_id in LESSON_MISTAKES:
        return LESSON_MISTAKES[lesson_id]
    if not isinstance(lesson, Lesson):
        lesson = load_lesson(lesson, lang)
    room: Counter[str] = Counter()
    for k in range(10):
        run, focus = simulate_one(lesson, Perfect, seed * 100_003 + k, lang)
        for q, _ok in run.questions:
            for rule in CATALOG:
                if rule.skill in focus and mistake_value(q, rule.id) is not None:
                    room[rule.id] += 1
    return room.most_common(1)[0][0] if room else None


@dataclass(frozen=True)
class Goal:
    """A teaching goal: a profile's measure on a lesson, and the bound it must keep."""

    key: str
    profile: str
    """The profile, ``{mistake}`` standing for the lesson's mistake (:func:`lesson_mistake`)."""
    measure: str
    """``all_targets``: the share of students who mastered every target skill; ``mastered``:
    the largest share mastering one target skill; ``mistake_skill``: the share mastering the
    skill the mistake is about; ``unknown_mastered``: of the students who do not know a target
    skill, the largest share called mastered in it; ``mastered_while_wrong``: of the students
    called mastered in a target skill, the largest share who do not know it."""
    at_least: bool
    bound: float
    text: str
    """The goal in words, for the table."""
    needs_targets: bool = False
    """The goal is about a lesson that goes on until its targets are mastered or its cap: it
    does not apply to a lesson without targets (free play, which ends with its match)."""


GOALS: tuple[Goal, ...] = (
    Goal("calculator", "calculator", "mastered", False, 0.0, "calculator masters 0%"),
    Goal("hints", "hints", "unknown_mastered", False, 0.0,
         "hints masters 0% of the skills it only saw worked out"),
    Goal("random", "random", "mastered", False, 0.0, "random masters 0%"),
    Goal("scaffold", "scaffold:{mistake}:0.6", "mistake_skill", False, 0.10,
         "scaffold:NAME:0.6 masters ≤ 10%"),
    Goal("perfect", "perfect", "all_targets", True, 0.95, "perfect masters ≥ 95%"),
    Goal("learner", "learner:0.15", "all_targets", True, 0.95,
         "learner:0.15 masters ≥ 95% by the lesson's end", needs_targets=True),
    Goal("slips", "slips:0.1", "all_targets", True, 0.90, "slips:0.1 masters ≥ 90%"),
    Goal("bkt", "bkt:0.1,0.05,0.1,0.2", "all_targets", True, 0.70,
         "bkt:0.1,0.05,0.1,0.2 masters ≥ 70% by the lesson's end with the default cap",
         needs_targets=True),
    Goal("facts", "facts:5", "facts_mastered", False, 0.0, "facts:5 masters × or ² 0%"),
    Goal("bkt_wrong", "bkt:0.1,0.05,0.1,0.2", "mastered_while_wrong", False, 0.05,
         "bkt: mastered_while_wrong ≤ 5%"),
    Goal("learn_wrong", "learner:0.15", "mastered_while_wrong", False, 0.05,
         "learner: mastered_while_wrong ≤ 5%"),
    Goal("typos", "slips:0.1", "typos_named", False, 0.10,
         "typos named as a catalogue mistake ≤ 10%"),
)
"""The teaching goals of issue 32 part 8 and issue 42 (each profile's measure on a lesson);
the mistakes themselves are judged per (lesson, skill, mistake) by :func:`mistake_pairs` and
:data:`PAIR_BOUND`."""
PAIR_BOUND = 0.20
"""``mistake:NAME:0.3``: called mastered in the mistake's skill at most this often, for every
(lesson, target skill, catalogue mistake of that skill the lesson can show)."""
PAIR_SHARE = 0.3


@dataclass(frozen=True)
class GoalResult:
    lesson: str
    goal: Goal
    profile: str
    """The profile played (the lesson's mistake filled in); empty when the goal does not
    apply (no mistake of a target skill can happen in the lesson)."""
    value: float | None
    met: bool
    reason: str = ""
    """Why the goal does not apply (``value`` None), with what was measured all the same."""


def goal_profiles(lesson: Lesson | str, goals: tuple[Goal, ...] = GOALS, seed: int = 1,
                  lang: str = "en") -> dict[str, str]:
    """Per goal key, the profile to play on ``lesson`` ("" when the goal does not apply)."""
    mistake = None
    if any("{mistake}" in g.profile for g in goals):
        mistake = lesson_mistake(lesson, seed, lang)
    return {g.key: "" if "{mistake}" in g.profile and mistake is None
            else g.profile.format(mistake=mistake) for g in goals}


def _measure(goal: Goal, report: Report, profile: str) -> float | None:
    targets = {k: v for k, v in report["skills"].items() if v["target"]}
    if goal.measure == "all_targets":
        return float(report["all_targets_mastered_share"])
    if goal.measure == "facts_mastered":
        facts = [float(v["mastered_share"]) for k, v in targets.items()
                 if k in ("multiply", "square")]
        return max(facts) if facts else None
    if goal.measure == "typos_named":
        typos = report.get("typos", {"named": 0, "of": 0})
        return typos["named"] / typos["of"] if typos["of"] else None
    if goal.measure == "mistake_skill":
        skill = _RULE_SKILL[profile.split(":")[1]]
        row = report["skills"].get(skill) if skill is not None else None
        return float(row["mastered_share"]) if row is not None else 0.0
    return max((_skill_measure(goal.measure, v) for v in targets.values()), default=0.0)


def _skill_measure(measure: str, row: SkillReport) -> float:
    if measure == "mastered":
        return float(row["mastered_share"])
    if measure == "unknown_mastered":
        return float(row["mastered_when_unknown"] or 0.0)
    if measure == "mastered_while_wrong":
        return float(row["mastered_while_wrong"] or 0.0)
    raise KeyError(measure)


def judge(lesson_id: str, profiles: dict[str, str], reports: dict[str, Report],
          goals: tuple[Goal, ...] = GOALS) -> list[GoalResult]:
    """The goals of one lesson from its reports (by profile; see :func:`goal_profiles`)."""
    out = []
    for g in goals:
        profile = profiles[g.key]
        if not profile:
            out.append(GoalResult(lesson_id, g, "", None, True,
                                   "no mistake of a target skill can happen in the lesson"))
            continue
        report = reports[profile]
        measured = _measure(g, report, profile)
        if measured is None:
            out.append(GoalResult(lesson_id, g, profile, None, True,
                                  "nothing to measure in the lesson (no × or ² to practise, "
                                  "or no typo made)"))
            continue
        value = measured
        if g.needs_targets and not report.get("lesson_targets", True):
            practised = sorted(k for k, v in report["skills"].items() if v["target"])
            out.append(GoalResult(
                lesson_id, g, profile, None, True,
                f"no target skills: the lesson ends with its match ({report.get('rounds')} "
                f"rounds), not at mastery or a cap (measured all the same: {value:.0%} of "
                f"{profile} master all {len(practised)} skills it practises, "
                f"{', '.join(practised)})"))
            continue
        met = value >= g.bound if g.at_least else value <= g.bound
        out.append(GoalResult(lesson_id, g, profile, round(value, 4), met))
    return out


def teaching_goals(lesson_id: str, students: int = 50, seed: int = 1, lang: str = "en",
                   goals: tuple[Goal, ...] = GOALS) -> list[GoalResult]:
    """Play ``lesson_id`` with each goal's profile (``students`` each, ``seed``) and say which
    goals are met (issue 32, part 8; ``benchmarks/teaching_rates.py`` prints the table)."""
    profiles = goal_profiles(lesson_id, goals, seed, lang)
    reports = {p: simulate(lesson_id, students, p, seed, lang)
               for p in dict.fromkeys(profiles.values()) if p}
    return judge(lesson_id, profiles, reports, goals)


def mistake_pairs(lesson: Lesson | str, lang: str = "en") -> list[tuple[str, str]]:
    """Every (skill, mistake) of ``lesson`` a ``mistake:NAME:0.3`` goal judges (issue 42 part
    5): each skill the lesson practises (its targets, else its game's) with each catalogue
    mistake of that skill its questions can show."""
    from tutor.course.lessons import lesson_coverage, load_lesson

    loaded = load_lesson(lesson, lang) if isinstance(lesson, str) else lesson
    cover = lesson_coverage(loaded)
    return [(skill, m) for skill in SKILLS if skill in loaded.plan.focus and skill in cover
            for m in sorted(cover[skill].shows)]


def pair_result(report: Report, skill: str) -> float:
    """The share of ``mistake:`` students called mastered in ``skill``."""
    row = report["skills"].get(skill)
    return float(row["mastered_share"]) if row is not None else 0.0


@dataclass(frozen=True)
class ReviewTrial:
    """How reviews of forgotten skills went (:func:`review_trial`)."""

    forgotten: int
    """Reviews of a skill mastered and since forgotten (one per student and skill)."""
    lost: int
    """Of those, how many took mastery away by the end of the review items."""
    by_skill: dict[str, tuple[int, int]]


def review_trial(lesson_id: str, students: int = 50, seed: int = 1, days: float = 5.0,
                 gap: float = 6.5, lang: str = "en") -> ReviewTrial:
    """``forget:DAYS`` students (issue 42 part 4's trial): each plays ``lesson_id`` on day 0
    (its mastered skills then fall due a day later) and opens it again ``gap`` days later,
    having forgotten what it did not practise for more than ``days`` days; the lesson starts
    with its review items. Counted: each skill mastered on day 0 and forgotten by then, and
    whether mastery was gone once its review items were answered."""
    from tutor.play.session import Session
    from tutor.storage.store import Store
    from tutor.teaching.review import is_review

    forgotten = lost = 0
    by_skill: dict[str, list[int]] = {}
    with tempfile.TemporaryDirectory(prefix="leonard-review-") as tmp:
        for k in range(students):
            clock = SimClock()
            student = Forgetful(days, clock)
            name = f"sim-{k}"
            with Store(Path(tmp) / f"{k}.sqlite", lang=lang) as store:
                simulate_days([(0, lesson_id)], student, store, seed=student_seed(seed, k),
                              clock=clock, name=name, lang=lang)
                clock.advance(gap)
                s = Session.from_lesson(lesson_id, lang=lang, student=name, store=store,
                                        seed=student_seed(seed, k) + 1, clock=clock)
                due = [d.skill for d in s.reviews_due()]
                was = {skill: s.mastery.state(skill).mastered and not student.knows(skill)
                       for skill in due}
                rng = random.Random(student_seed(seed, k))
                for _ in range(50):  # bounded: the review items come first (an item that
                    # tells a named mistake apart may come between them)
                    p = s.asker.pending
                    if p is None or not any(is_review(r.question.problem)
                                            for r in s.asker.queue):
                        break
                    _ask(s, student, p.question, Seen.of(p), rng, Run())
                for skill, counted in was.items():
                    if counted:
                        gone = not s.mastery.state(skill).mastered
                        forgotten += 1
                        lost += gone
                        row = by_skill.setdefault(skill, [0, 0])
                        row[0] += 1
                        row[1] += gone
                s.close()
    return ReviewTrial(forgotten, lost, {s: (v[0], v[1]) for s, v in by_skill.items()})


# --- progress files of simulated students, for trying the teacher page (issue 33, part 6) ---

NAME_PREFIX = "sim"
"""The default start of the simulated students' names: ``sim-01``, ``sim-02`` …"""
_PREFIX = re.compile(r"[^\W_][\w.-]{0,39}")


class ProgressFilesError(TranslatableError):
    """Simulated students' progress files cannot be written where or as asked (nothing was
    simulated)."""


def student_names(count: int, prefix: str = NAME_PREFIX, lang: str = "en") -> list[str]:
    """The names of ``count`` simulated students: ``prefix-01`` … (as many digits as the
    largest number needs, at least two), so each file is one student's and they sort in
    order. A ``prefix`` that is not 1 to 40 letters, digits, ``.``, ``-`` or ``_`` (starting
    with a letter or a digit) raises :class:`ProgressFilesError` in ``lang``."""
    if not _PREFIX.fullmatch(prefix):
        raise ProgressFilesError(
            N_("The name prefix {prefix} cannot start a student's name and a file name: use "
               "1 to 40 letters, digits, dots, dashes or underscores, starting with a letter "
               "or a digit."), prefix=repr(prefix), lang=lang)
    width = max(2, len(str(count)))
    return [f"{prefix}-{k:0{width}d}" for k in range(1, count + 1)]


def progress_folder(folder: str | os.PathLike[str], lang: str = "en") -> Path:
    """``folder`` made ready for progress files (created if missing); a
    :class:`ProgressFilesError` in ``lang`` if it is a file or cannot be created or written
    in."""
    path = Path(folder).expanduser()
    if path.exists() and not path.is_dir():
        raise ProgressFilesError(N_("{folder} is a file, not a folder: give a folder for the "
                                    "progress files."), folder=str(path), lang=lang)
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        raise ProgressFilesError(N_("Cannot create the folder {folder}: {error}."),
                                 folder=str(path), error=err.strerror or str(err),
                                 lang=lang) from err
    try:  # writing is the only sure test (permissions, a read-only disk, root's rights)
        with tempfile.NamedTemporaryFile(dir=path, prefix=".leonard-", suffix=".tmp"):
            pass
    except OSError as err:
        raise ProgressFilesError(N_("Cannot write in the folder {folder}: {error}."),
                                 folder=str(path), error=err.strerror or str(err),
                                 lang=lang) from err
    return path


@dataclass(frozen=True)
class ProgressFile:
    """One simulated student's progress file."""

    student: str
    path: Path
    attempts: int
    """Rows written: every answer, hint and shown answer the tutor recorded."""


def write_progress(lesson_id: str, students: int, profile: str, seed: int,
                   folder: str | os.PathLike[str], *, lang: str = "en",
                   prefix: str = NAME_PREFIX,
                   clock: Callable[[], datetime] | None = None) -> list[ProgressFile]:
    """Play the same ``students`` simulated students as :func:`simulate` (same lesson,
    profile and seed) with the tutor recording their attempts, named by
    :func:`student_names`, in a temporary progress store; then write each student's
    attempts to ``folder`` as the CSV "Download my progress" gives a student
    (:meth:`tutor.storage.store.Store.export_csv`, named by
    :func:`tutor.storage.store_files.progress_file_name`). The teacher page merges these files as
    its students' (:func:`tutor.classroom.overview.merge_files`). A file of the same name is
    replaced. ``clock``: the time the attempts carry (default: the real time).

    The folder and the names are checked before anything is played
    (:class:`ProgressFilesError`); an unknown lesson or profile raises as :func:`simulate`.
    """
    from tutor.course.lessons import load_lesson
    from tutor.storage.store import Store
    from tutor.storage.store_files import progress_file_name

    names = student_names(students, prefix, lang)
    out_dir = progress_folder(folder, lang)
    lesson = load_lesson(lesson_id, lang)
    make = learner(profile, lang)
    files = []
    with tempfile.TemporaryDirectory(prefix="leonard-sim-") as tmp:
        store = Store(Path(tmp) / "progress.sqlite", lang=lang)
        try:
            for k, name in enumerate(names):
                simulate_one(lesson, make, student_seed(seed, k), lang, store=store, name=name,
                             clock=clock)
                path = out_dir / progress_file_name(name)
                try:
                    rows = store.export_csv(path, student=name)
                except OSError as err:
                    raise ProgressFilesError(N_("Cannot write {file}: {error}."),
                                             file=str(path), error=err.strerror or str(err),
                                             lang=lang) from err
                files.append(ProgressFile(name, path, rows))
        finally:
            store.close()
    return files
