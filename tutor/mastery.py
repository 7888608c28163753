"""Bayesian Knowledge Tracing: how likely a student knows each skill, from first attempts."""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import asdict, dataclass, field
from typing import Any

from tutor.i18n import N_, TranslatableError

__all__ = [
    "SKILLS",
    "SKILL_NAMES",
    "BKTParams",
    "Mastery",
    "MasteryError",
    "SkillState",
    "p_correct",
    "update",
]

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

    @property
    def mean_seconds(self) -> float:
        """Average time to the first answer (0 before any question)."""
        return self.total_seconds / self.asked if self.asked else 0.0

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> SkillState:
        return cls(
            skill=_check_skill(str(data["skill"])),
            p_known=float(data["p_known"]),
            mastered=bool(data["mastered"]),
            asked=int(data["asked"]),
            first_try_right=int(data["first_try_right"]),
            hints_used=int(data["hints_used"]),
            total_seconds=float(data["total_seconds"]),
        )


@dataclass
class Mastery:
    """Per-skill knowledge tracing for one student.

    Call :meth:`record` once per question, with the student's *first* attempt;
    later attempts at the same question teach the tracer nothing.  A hint asked
    before the first answer makes that first attempt count as wrong.
    """

    params: BKTParams = field(default_factory=BKTParams)
    states: dict[str, SkillState] = field(default_factory=dict)

    def state(self, skill: str) -> SkillState:
        """The state of ``skill`` (starting at ``p_init`` if never asked)."""
        _check_skill(skill)
        if skill not in self.states:
            p = self.params.p_init
            self.states[skill] = SkillState(skill, p, mastered=p >= self.params.mastery_threshold)
        return self.states[skill]

    def record(
        self,
        skills: str | Iterable[str],
        correct: bool,
        *,
        hints_before_answer: int = 0,
        seconds: float = 0.0,
    ) -> list[SkillState]:
        """Update every skill a question exercised with its first attempt; return their states."""
        if hints_before_answer < 0 or seconds < 0 or not math.isfinite(seconds):
            raise MasteryError(N_("Hints and seconds cannot be negative."))
        names = [skills] if isinstance(skills, str) else list(dict.fromkeys(skills))
        counted_right = bool(correct) and hints_before_answer == 0
        changed = []
        for name in names:
            st = self.state(name)
            st.p_known = update(st.p_known, counted_right, self.params)
            st.mastered = st.p_known >= self.params.mastery_threshold
            st.asked += 1
            st.first_try_right += int(counted_right)
            st.hints_used += hints_before_answer
            st.total_seconds += seconds
            changed.append(st)
        return changed

    def review_missed(self, skill: str) -> SkillState:
        """A review of mastered ``skill`` was missed (call it after :meth:`record` of that
        wrong first answer; see :mod:`tutor.review`). The knowledge did not last: the skill
        is no longer mastered and its estimate goes back to at most ``p_init``, so mastery
        must be shown again by right answers (3 in a row at the default parameters)."""
        st = self.state(skill)
        st.p_known = min(st.p_known, self.params.p_init)
        st.mastered = False
        return st

    def mastered(self) -> list[str]:
        """Skills at or above the mastery threshold, in ``SKILLS`` order."""
        return [s for s in SKILLS if s in self.states and self.states[s].mastered]

    def weakest(self, among: Iterable[str] = SKILLS) -> str:
        """The skill with the lowest ``p_known`` among ``among`` (first in order on ties)."""
        candidates = list(among)
        if not candidates:
            raise MasteryError(N_("Choose at least one skill."))
        return min(candidates, key=lambda s: self.state(s).p_known)

    def to_dict(self) -> dict[str, dict[str, Any]]:
        return {name: st.to_dict() for name, st in self.states.items()}

    @classmethod
    def from_dict(
        cls, data: Mapping[str, Mapping[str, Any]], params: BKTParams | None = None
    ) -> Mastery:
        return cls(
            params=params or BKTParams(),
            states={name: SkillState.from_dict(st) for name, st in data.items()},
        )
