"""Bayesian Knowledge Tracing: how likely a student knows each skill, from first attempts.

Each skill has its own parameters (:data:`DEFAULT_SKILL_PARAMS`, the table with the reason
for each row); a lesson file or the server setting ``LEONARD_BKT_PARAMS`` (a ``fit-bkt
--json`` output) may replace them (:func:`default_params`, :func:`params_from_dict`).
What a first answer is evidence of is decided by :mod:`tutor.teaching.evidence`; "mastered" needs
the
estimate at the threshold *and* :data:`STREAK_TO_MASTER` unscaffolded, unhinted right first
answers in a row (RULES.md §4).
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Iterable, Mapping
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, cast

if TYPE_CHECKING:
    from tutor.teaching.evidence import Evidence

from tutor.i18n import N_, TranslatableError

__all__ = [
    "DEFAULT_SKILL_PARAMS",
    "FADE_AFTER",
    "MISCONCEPTION_SLIP",
    "MOST_STREAK",
    "STREAK_AFTER_MISCONCEPTION",
    "STREAK_PER_MISCONCEPTION",
    "PARAMS_ENV",
    "SKILLS",
    "SKILL_NAMES",
    "STREAK_TO_MASTER",
    "BKTParams",
    "BKTTable",
    "Params",
    "Mastery",
    "MasteryError",
    "SkillState",
    "default_params",
    "learn",
    "p_correct",
    "params_from_dict",
    "update",
]

STREAK_TO_MASTER = 7
"""Unscaffolded, unhinted right first answers in a row that mastery needs besides the BKT
estimate (ASSISTments' skill-builder rule, beside Cognitive Tutor's 0.95; RULES.md §4: "at
least 3"). The row is long enough that a student who still applies a wrong rule 3 times in
10 shows it in the row 9 times in 10: 0.7^N <= 0.1 gives N = 7 (0.7⁷ = 8%; 5 in a row let
such a student through 17% of the time, 6: 12%, and nothing in a lucky row at the start tells
it from a perfect student's). A learner who does not know the skill (guessing right 1 time in
5) guesses 7 in a row 1 time in 78,000. Measured with simulated students (docs/teaching.md,
"The teaching goals, measured"), with a cap of 60 questions per target."""
STREAK_PER_MISCONCEPTION = 3
"""Right first answers in a row that each misconception of the skill shown since it was last
mastered adds to what mastery needs (a wrong answer that a catalogue mistake of that very
skill explains): the misconception must be shown gone, and the more often it showed, the
longer it must stay away (docs/teaching.md, "A misconception is stronger evidence than a
slip")."""
STREAK_AFTER_MISCONCEPTION = STREAK_TO_MASTER + STREAK_PER_MISCONCEPTION
"""What mastery needs after one misconception (:data:`STREAK_TO_MASTER` +
:data:`STREAK_PER_MISCONCEPTION`)."""
MOST_STREAK = 20
"""The longest streak mastery ever needs, however often the misconception showed (7, 10, 13,
16, 19, 20). With 12, a student who keeps a wrong rule 30% of the time and is asked 60–100
times in a long lesson gives 12 right in a row somewhere one time in three: a real learner
who has shown the misconception five times must show it gone for long."""
MISCONCEPTION_SLIP = 0.02
"""BKT's slip for a wrong answer a misconception of the skill explains: a student who knows
the skill slips into a random wrong number now and then (``p_slip``), but seldom into that
skill's own typical mistake."""
FADE_AFTER = 2
"""Right scaffolded first answers on a skill after which its scaffolds stop showing."""
PARAMS_ENV = "LEONARD_BKT_PARAMS"
"""Server setting: a ``fit-bkt --json`` file whose per-skill parameters replace the
defaults (a lesson's own ``mastery`` settings still win)."""

SKILLS: tuple[str, ...] = ("other-end", "add", "multiply", "square", "double", "negative",
                           "subtract", "round", "rules")
"""RULES.md §4, in teaching order; ``rules`` (what a play does, no arithmetic) comes last."""

# Names to show a student or teacher; translate with tutor.i18n.gettext(SKILL_NAMES[s], lang).
SKILL_NAMES: dict[str, str] = {
    "other-end": N_("finding the other end (T)"),
    "add": N_("adding"),
    "multiply": N_("multiplying"),
    "square": N_("squaring (T × T)"),
    "double": N_("doubling (2 × T)"),
    "negative": N_("scores below zero"),
    "subtract": N_("subtracting"),
    "round": N_("rounding to tens"),
    "rules": N_("power tile rules"),
}


class MasteryError(TranslatableError):
    """Invalid knowledge-tracing parameters or an unknown skill.

    ``str(err)`` is English; ``err.message("es")`` gives it in a teacher's language (the
    lesson loader does so for the parameters of a lesson file).
    """


_NOT_A_PROBABILITY = N_("{name} must be a probability between 0 and 1, not {value}.")


@dataclass(frozen=True)
class BKTParams:
    """The four BKT probabilities and the mastery threshold.

    ``p_slip + p_guess`` must stay below 1: otherwise a right answer would be
    no evidence (or negative evidence) that the student knows the skill.
    """

    p_init: float = 0.25
    p_learn: float = 0.2
    p_slip: float = 0.1
    p_guess: float = 0.2
    mastery_threshold: float = 0.95

    def __post_init__(self) -> None:
        for name in ("p_init", "p_learn", "p_slip", "p_guess", "mastery_threshold"):
            value = getattr(self, name)
            if (isinstance(value, bool) or not isinstance(value, (int, float))
                    or not (math.isfinite(value) and 0.0 <= value <= 1.0)):
                raise MasteryError(_NOT_A_PROBABILITY, name=name, value=repr(value))
        if self.p_slip + self.p_guess >= 1.0:
            raise MasteryError(
                N_("p_slip + p_guess must be less than 1 (got {p_slip} + {p_guess}); otherwise "
                   "a right answer would not be evidence of knowing the skill."),
                p_slip=self.p_slip, p_guess=self.p_guess)


    def for_skill(self, skill: str) -> BKTParams:
        """The parameters of ``skill``: these, for every skill."""
        return self


# One row per skill: (p_init, p_learn, p_slip, p_guess). The answers are typed numbers, so a
# student who does not know the skill rarely hits the right one by chance: p_guess is far
# below the 0.2 of a four-choice item, lowest where the answers are multi-digit.
DEFAULT_SKILL_PARAMS: dict[str, BKTParams] = {
    # T is the sum of two halves (0-6 each): few plausible totals, one of them the near end.
    "other-end": BKTParams(p_init=0.3, p_learn=0.2, p_slip=0.08, p_guess=0.08),
    # n + T with one-digit numbers: mostly known at this age; sums up to ~20.
    "add": BKTParams(p_init=0.4, p_learn=0.2, p_slip=0.08, p_guess=0.05),
    # n × T: two-digit products, rarely guessed; the times table is still being learnt.
    "multiply": BKTParams(p_init=0.2, p_learn=0.15, p_slip=0.1, p_guess=0.03),
    # T × T up to 144: three-digit answers, the hardest to guess; often confused with 2 × T.
    "square": BKTParams(p_init=0.15, p_learn=0.15, p_slip=0.1, p_guess=0.02),
    # 2 × T: doubling is easy and early, answers up to ~24.
    "double": BKTParams(p_init=0.35, p_learn=0.2, p_slip=0.08, p_guess=0.05),
    # Crossing zero: a wrong sign is the common error; a signed number is seldom guessed.
    "negative": BKTParams(p_init=0.15, p_learn=0.12, p_slip=0.1, p_guess=0.03),
    # The block's sum of differences: several steps, multi-digit, more slips.
    "subtract": BKTParams(p_init=0.2, p_learn=0.15, p_slip=0.12, p_guess=0.03),
    # Tens, half up: the answer is one digit and the count or the count rounded down are the
    # obvious alternatives, so a guess is right about one time in four.
    "round": BKTParams(p_init=0.3, p_learn=0.2, p_slip=0.08, p_guess=0.25),
    # What a play does (±30, neutral opening): few possible answers, no arithmetic.
    "rules": BKTParams(p_init=0.3, p_learn=0.25, p_slip=0.05, p_guess=0.2),
}
"""The default BKT parameters per skill, with each row's reason (docs/teaching.md)."""


@dataclass(frozen=True)
class BKTTable:
    """BKT parameters per skill, with one mastery threshold for them all (a lesson's).

    Skills without a row use :data:`DEFAULT_SKILL_PARAMS`.
    """

    rows: tuple[tuple[str, BKTParams], ...] = ()
    mastery_threshold: float = 0.95

    def __post_init__(self) -> None:
        BKTParams(mastery_threshold=self.mastery_threshold)  # checks the threshold
        for skill, _row in self.rows:
            _check_skill(skill)

    @classmethod
    def of(cls, rows: Mapping[str, BKTParams], mastery_threshold: float = 0.95) -> BKTTable:
        return cls(tuple((s, rows[s]) for s in SKILLS if s in rows), mastery_threshold)

    @property
    def skills(self) -> dict[str, BKTParams]:
        """Every skill's parameters (with this table's threshold)."""
        return {s: self.for_skill(s) for s in SKILLS}

    def for_skill(self, skill: str) -> BKTParams:
        row = dict(self.rows).get(skill) or DEFAULT_SKILL_PARAMS.get(skill) or BKTParams()
        if row.mastery_threshold != self.mastery_threshold:
            row = replace(row, mastery_threshold=self.mastery_threshold)
        return row

    def to_dict(self) -> dict[str, object]:
        """As in a lesson file's ``mastery`` setting."""
        return {"mastery_threshold": self.mastery_threshold,
                "skills": {s: {k: getattr(p, k) for k in _PARAM_NAMES}
                           for s, p in self.skills.items()}}


StateValue = str | int | float
"""A value of a saved skill state (:meth:`SkillState.to_dict`): the skill's name, counts and
chances (a bool is an int), as the progress store keeps them."""
Params = BKTParams | BKTTable
"""Shared parameters for every skill, or a table of them per skill."""
_PARAM_NAMES = ("p_init", "p_learn", "p_slip", "p_guess")
_FIT_NOTES = ("skipped", "skipped_rows", "not_used", "other_skills", "at_bound")
"""What a ``fit-bkt`` parameters file holds beside ``skills`` and the tutor does not read:
skills not fitted, rows left out, fits of no use, skills not the tutor's, bounds reached."""


def params_from_dict(data: Mapping[str, object], base: Params | None = None,
                     source: str = "") -> BKTTable:
    """A lesson's ``mastery`` setting (or a ``fit-bkt --json`` file) as a :class:`BKTTable`.

    ``p_init`` … ``p_guess`` given at the top apply to every skill; ``skills`` gives rows per
    skill (``{"multiply": {"p_guess": 0.03, …}}``); ``mastery_threshold`` the threshold.
    Whatever is left out comes from ``base`` (default: :func:`default_params`). A bad value
    raises :class:`MasteryError` naming the skill (and ``source``, a file, if given).
    """
    if not isinstance(data, Mapping):
        raise MasteryError(N_("{source}the BKT parameters must be a JSON object, not {value}."),
                           source=_where(source), value=_short(data))
    base_table = _as_table(base if base is not None else default_params())
    known = {*_PARAM_NAMES, "mastery_threshold", "skills"}
    extra = sorted(str(k) for k in data if k not in known and k not in _FIT_NOTES)
    if extra:
        raise MasteryError(N_("{source}{name} is not a BKT setting; the settings are: "
                              "{names}."), source=_where(source), name=repr(extra[0]),
                           names=", ".join(sorted(known)))
    # any JSON value: BKTParams (below, for the first skill) says if it is not a probability
    threshold = cast(float, data.get("mastery_threshold", base_table.mastery_threshold))
    shared = {k: data[k] for k in _PARAM_NAMES if k in data}
    skills = data.get("skills", {})
    if not isinstance(skills, Mapping):
        raise MasteryError(N_("{source}skills must map each skill to its parameters, not "
                              "{value}."), source=_where(source), value=_short(skills))
    rows: dict[str, BKTParams] = {}
    for skill in SKILLS:
        row = skills.get(skill, {})
        if not isinstance(row, Mapping):
            raise MasteryError(N_("{source}the parameters of {skill} must be a JSON object, "
                                  "not {value}."), source=_where(source), skill=skill,
                               value=_short(row))
        values = {k: getattr(base_table.for_skill(skill), k) for k in _PARAM_NAMES}
        values.update(shared)
        values.update({k: v for k, v in row.items() if k in _PARAM_NAMES})
        try:
            rows[skill] = BKTParams(**values, mastery_threshold=threshold)
        except MasteryError as err:
            if skill not in skills:  # the shared values (for every skill) are wrong
                raise MasteryError(N_("{source}{problem}"), source=_where(source),
                                   problem=err.msg) from None
            raise MasteryError(N_("{source}{skill}: {problem}"), source=_where(source),
                               skill=skill, problem=err.msg) from None
    for skill, row in skills.items():
        _check_skill(str(skill))
        extra = sorted(str(k) for k in row if k not in _PARAM_NAMES
                       and k not in ("log_likelihood", "students", "attempts"))
        if extra:
            raise MasteryError(N_("{source}{skill}: {name} is not a BKT parameter; the "
                                  "parameters are: {names}."), source=_where(source),
                               skill=skill, name=repr(extra[0]), names=", ".join(_PARAM_NAMES))
    return BKTTable.of(rows, threshold)


def _where(source: str) -> str:
    return f"{source}: " if source else ""


def _short(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:39] + "…"


def _as_table(params: Params) -> BKTTable:
    if isinstance(params, BKTTable):
        return params
    return BKTTable.of(dict.fromkeys(SKILLS, params), params.mastery_threshold)


def default_params() -> BKTTable:
    """The parameters a lesson uses when it sets none: :data:`DEFAULT_SKILL_PARAMS`, or the
    fitted ones of the file ``$LEONARD_BKT_PARAMS`` names (a ``fit-bkt --json`` output)."""
    base = BKTTable.of(DEFAULT_SKILL_PARAMS)
    path = os.environ.get(PARAMS_ENV)
    if not path:
        return base
    return load_params(Path(path).expanduser(), base)


def load_params(path: Path, base: Params | None = None) -> BKTTable:
    """The per-skill parameters of a ``fit-bkt --json`` file (or of a lesson's ``mastery``
    object saved on its own)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as err:
        raise MasteryError(N_("Cannot read the BKT parameters in {path}: {error}."),
                           path=str(path), error=err.strerror or str(err)) from None
    except (UnicodeDecodeError, json.JSONDecodeError) as err:
        raise MasteryError(N_("{path} is not a JSON file of BKT parameters ({error})."),
                           path=str(path), error=str(err)) from None
    return params_from_dict(data, BKTTable.of(DEFAULT_SKILL_PARAMS) if base is None else base,
                            source=str(path))


def p_correct(p_known: float, params: BKTParams) -> float:
    """The chance of a right first answer when the skill is known with probability ``p_known``."""
    return p_known * (1.0 - params.p_slip) + (1.0 - p_known) * params.p_guess


def update(p_known: float, correct: bool, params: BKTParams) -> float:
    """One BKT step: condition ``p_known`` on the observed answer, then apply learning.

    >>> round(update(0.25, True, BKTParams()), 6)
    0.68
    """
    if not 0.0 <= p_known <= 1.0:
        raise MasteryError(_NOT_A_PROBABILITY, name="p_known", value=repr(p_known))
    if correct:
        evidence_known = p_known * (1.0 - params.p_slip)
        evidence_unknown = (1.0 - p_known) * params.p_guess
    else:
        evidence_known = p_known * params.p_slip
        evidence_unknown = (1.0 - p_known) * (1.0 - params.p_guess)
    total = evidence_known + evidence_unknown
    # total is 0 only for an observation the parameters call impossible: learn nothing from it.
    posterior = evidence_known / total if total > 0.0 else p_known
    return posterior + (1.0 - posterior) * params.p_learn


def learn(p_known: float, params: BKTParams) -> float:
    """BKT's learning transition alone, with no observation: what a scaffolded right answer
    (practice, not proof) does to the estimate (RULES.md §4)."""
    if not 0.0 <= p_known <= 1.0:
        raise MasteryError(_NOT_A_PROBABILITY, name="p_known", value=repr(p_known))
    return p_known + (1.0 - p_known) * params.p_learn


def _check_skill(skill: str) -> str:
    if skill not in SKILLS:
        raise MasteryError(N_("Unknown skill {skill}; the skills are: {skills}."),
                           skill=repr(skill), skills=", ".join(SKILLS))
    return skill


@dataclass
class SkillState:
    """What the tutor believes about one skill, and the counts behind it."""

    skill: str
    p_known: float
    mastered: bool = False
    asked: int = 0
    first_try_right: int = 0
    hints_used: int = 0
    total_seconds: float = 0.0
    streak: int = 0
    """Unscaffolded, unhinted right first answers in a row (a first answer counted wrong
    resets it; a scaffolded right one leaves it as it is)."""
    scaffolded_right: int = 0
    """Right scaffolded first answers since the scaffolds last (re)appeared: at
    :data:`FADE_AFTER` they stop showing; an unscaffolded answer counted wrong brings them
    back (sets it to 0)."""
    misconceptions: int = 0
    """Wrong first answers explained by a misconception of this skill since it was last
    mastered, less one for each wrong first answer that no mistake of the skill explains
    (never below 0): each adds :data:`STREAK_PER_MISCONCEPTION` to the right answers in a row
    mastery needs (:meth:`Mastery.streak_needed`)."""

    @property
    def mean_seconds(self) -> float:
        """Average time to the first answer (0 before any question)."""
        return self.total_seconds / self.asked if self.asked else 0.0

    @property
    def scaffold_faded(self) -> bool:
        """The skill's scaffolds no longer show (:data:`FADE_AFTER` right scaffolded)."""
        return self.scaffolded_right >= FADE_AFTER

    def to_dict(self) -> dict[str, StateValue]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: Mapping[str, StateValue]) -> SkillState:
        """A saved state; the fields added later (``streak``, ``scaffolded_right``) default
        (and ``misconceptions``) to 0 so older saves still load."""
        return cls(
            skill=_check_skill(str(data["skill"])),
            p_known=float(data["p_known"]),
            mastered=bool(data["mastered"]),
            asked=int(data["asked"]),
            first_try_right=int(data["first_try_right"]),
            hints_used=int(data["hints_used"]),
            total_seconds=float(data["total_seconds"]),
            streak=int(data.get("streak", 0)),
            scaffolded_right=int(data.get("scaffolded_right", 0)),
            misconceptions=int(data.get("misconceptions", 0)),
        )


@dataclass
class Mastery:
    """Per-skill knowledge tracing for one student.

    Call :meth:`record` (or :meth:`observe` with a judged
    :class:`~tutor.teaching.evidence.Evidence`)
    once per question, with the student's *first* attempt; later attempts at the same
    question teach the tracer nothing. What the first answer is evidence of is decided by
    :func:`tutor.teaching.evidence.judge` (RULES.md §4): an unscaffolded, unhinted right answer is
    proof; a scaffolded right one is practice (learning only); a hint before the first
    answer counts as wrong.
    """

    params: Params = field(default_factory=lambda: default_params())
    states: dict[str, SkillState] = field(default_factory=dict)

    def params_for(self, skill: str) -> BKTParams:
        """The BKT parameters of ``skill``."""
        return self.params.for_skill(skill)

    def state(self, skill: str) -> SkillState:
        """The state of ``skill`` (starting at its ``p_init`` if never asked; never mastered
        before a streak of right answers)."""
        _check_skill(skill)
        if skill not in self.states:
            self.states[skill] = SkillState(skill, self.params_for(skill).p_init)
        return self.states[skill]

    def is_mastered(self, st: SkillState) -> bool:
        """The BKT estimate at the threshold and enough right first answers in a row:
        :data:`STREAK_TO_MASTER`, more once a misconception of the skill has shown
        (:meth:`streak_needed`)."""
        params = self.params_for(st.skill)
        return st.p_known >= params.mastery_threshold and st.streak >= self.streak_needed(st)

    @staticmethod
    def streak_needed(st: SkillState) -> int:
        """Right first answers in a row ``st``'s skill needs for mastery now:
        :data:`STREAK_TO_MASTER`, and :data:`STREAK_PER_MISCONCEPTION` more for each
        misconception shown since it was last mastered, at most :data:`MOST_STREAK`."""
        return min(MOST_STREAK, STREAK_TO_MASTER + STREAK_PER_MISCONCEPTION * st.misconceptions)

    def record(
        self,
        skills: str | Iterable[str],
        correct: bool,
        *,
        hints_before_answer: int = 0,
        seconds: float = 0.0,
        scaffold: Iterable[str] = (),
        trivial: bool = False,
        blame: str | None = None,
        mistake: str | None = None,
    ) -> list[SkillState]:
        """Judge a first attempt (:func:`tutor.teaching.evidence.judge`) for every skill a question
        exercised and apply it; return the states that changed."""
        from tutor.teaching.evidence import judge

        if hints_before_answer < 0 or seconds < 0 or not math.isfinite(seconds):
            raise MasteryError(N_("Hints and seconds cannot be negative."))
        names = [skills] if isinstance(skills, str) else list(dict.fromkeys(skills))
        changed = []
        for name in names:
            _check_skill(name)
            ev = judge(name, correct, scaffold=scaffold, hints=hints_before_answer,
                       trivial=trivial, blame=blame, mistake=mistake)
            st = self.observe(ev, seconds=seconds)
            if st is not None:
                changed.append(st)
        return changed

    def observe(self, evidence: Evidence, *, seconds: float = 0.0) -> SkillState | None:
        """Apply one judged first answer; return the state it changed (None: no evidence)."""
        if evidence.kind == "none":
            return None
        st = self.state(evidence.skill)
        params = self.params_for(st.skill)
        was = st.mastered
        if evidence.kind == "proof":
            st.p_known = update(st.p_known, True, params)
            st.streak += 1
            st.mastered = was or self.is_mastered(st)  # a right answer takes nothing away
        elif evidence.kind == "practice":
            st.p_known = learn(st.p_known, params)
            st.scaffolded_right += 1
            st.mastered = was or self.is_mastered(st)
        else:  # against: a wrong first answer, a give-up, or a hint before answering
            if evidence.misconception:
                # The skill's own typical mistake: a knower seldom makes it, so BKT weighs it
                # with a small slip; mastery goes at once and must be re-earned by a longer
                # streak (docs/teaching.md).
                st.p_known = update(st.p_known, False,
                                    replace(params, p_slip=min(params.p_slip,
                                                               MISCONCEPTION_SLIP)))
                st.misconceptions += 1
                st.mastered = False
            else:
                # A slip is weighed by the knowledge tracing: mastery stays while the
                # estimate does (a review miss takes it away: review_missed).
                st.p_known = update(st.p_known, False, params)
                st.mastered = was and st.p_known >= params.mastery_threshold
                if not evidence.correct:
                    # A wrong answer that no mistake of the skill explains: the student's
                    # wrong answers are no longer one wrong rule at work (still learning, or
                    # a slip, which the estimate weighs), so one misconception comes off
                    # the count (docs/teaching.md).
                    st.misconceptions = max(0, st.misconceptions - 1)
            st.streak = 0
            if not evidence.scaffolded:
                st.scaffolded_right = 0  # the scaffolds come back
        if st.mastered and not was:
            st.misconceptions = 0  # shown gone: a new one counts from here
        st.asked += 1
        st.first_try_right += int(evidence.correct and not evidence.hints)
        st.hints_used += evidence.hints
        st.total_seconds += seconds
        return st

    def review_missed(self, skill: str) -> SkillState:
        """A review of mastered ``skill`` was missed (call it after :meth:`observe` of that
        wrong first answer; see :mod:`tutor.teaching.review`). The knowledge did not last: the skill
        is no longer mastered, its streak starts again and its estimate goes back to at most
        ``p_init``, so mastery must be shown again by right answers in a row."""
        st = self.state(skill)
        st.p_known = min(st.p_known, self.params_for(skill).p_init)
        st.streak = 0
        st.mastered = False
        return st

    def mastered(self) -> list[str]:
        """Skills mastered, in ``SKILLS`` order."""
        return [s for s in SKILLS if s in self.states and self.states[s].mastered]

    def weakest(self, among: Iterable[str] = SKILLS) -> str:
        """The skill with the lowest ``p_known`` among ``among`` (first in order on ties)."""
        candidates = list(among)
        if not candidates:
            raise MasteryError(N_("Choose at least one skill."))
        return min(candidates, key=lambda s: self.state(s).p_known)

    def to_dict(self) -> dict[str, dict[str, StateValue]]:
        return {name: st.to_dict() for name, st in self.states.items()}

    @classmethod
    def from_dict(
        cls, data: Mapping[str, Mapping[str, StateValue]], params: Params | None = None
    ) -> Mastery:
        return cls(
            params=params or default_params(),
            states={name: SkillState.from_dict(st) for name, st in data.items()},
        )
