"""Bayesian Knowledge Tracing for one skill at a time: the skills, their BKT parameters
(:data:`DEFAULT_SKILL_PARAMS`, or a lesson's or a ``fit-bkt --json`` file's:
:func:`default_params`, :func:`params_from_dict`) and the BKT step itself, on probabilities
and on log-odds (:func:`update`, :func:`observe_log_odds`).

What a student's answers add up to (the streaks, the misconceptions, when a skill is
mastered) is :mod:`tutor.teaching.mastery`'s, which builds on this.
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import cast

from tutor.i18n import N_, TranslatableError

__all__ = [
    "DEFAULT_SKILL_PARAMS",
    "LOG_ODDS_LIMIT",
    "PARAMS_ENV",
    "SKILLS",
    "SKILL_NAMES",
    "BKTParams",
    "BKTTable",
    "MasteryError",
    "Params",
    "default_params",
    "learn",
    "learn_log_odds",
    "load_params",
    "logit",
    "observe_log_odds",
    "p_correct",
    "params_from_dict",
    "probability",
    "update",
]

PARAMS_ENV = "LEONARD_BKT_PARAMS"
"""Server setting: a ``fit-bkt --json`` file whose per-skill parameters replace the
defaults (a lesson's own ``mastery`` settings still win)."""

SKILLS: tuple[str, ...] = ("other-end", "add", "multiply", "square", "double", "negative",
                           "subtract", "round", "rules")
"""docs/rules.md §4, in teaching order; ``rules`` (what a play does, no arithmetic) comes last."""

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
            check_skill(skill)

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
        check_skill(str(skill))
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
    (practice, not proof) does to the estimate (docs/rules.md §4)."""
    if not 0.0 <= p_known <= 1.0:
        raise MasteryError(_NOT_A_PROBABILITY, name="p_known", value=repr(p_known))
    return p_known + (1.0 - p_known) * params.p_learn


LOG_ODDS_LIMIT = 700.0
"""The largest log-odds the estimate takes: only parameters that call an observation or a
non-learner impossible (``p_guess`` 0, ``p_learn`` 1, ``p_init`` 0 or 1) would go further.
exp(700) is still a float, so the estimate is never exactly 0 or 1 as a state."""


def logit(p: float) -> float:
    """The log-odds of ``p`` (±:data:`LOG_ODDS_LIMIT` at 0 and 1)."""
    if p <= 0.0:
        return -LOG_ODDS_LIMIT
    if p >= 1.0:
        return LOG_ODDS_LIMIT
    return max(-LOG_ODDS_LIMIT, min(LOG_ODDS_LIMIT, math.log(p) - math.log1p(-p)))


def probability(log_odds: float) -> float:
    """P(known) of a log-odds (which may round to 1.0 in floating point: the state does not)."""
    if log_odds >= 0:
        return 1.0 / (1.0 + math.exp(-log_odds))
    e = math.exp(log_odds)
    return e / (1.0 + e)


def _log_sigmoid(x: float) -> float:
    """log(1 / (1 + e^-x)), without rounding to 0 for large x nor overflowing for small x."""
    return -math.log1p(math.exp(-x)) if x >= 0 else x - math.log1p(math.exp(x))


def _clamp(x: float) -> float:
    return max(-LOG_ODDS_LIMIT, min(LOG_ODDS_LIMIT, x))


def observe_log_odds(log_odds: float, correct: bool, params: BKTParams,
                     p_slip: float | None = None) -> float:
    """:func:`update` on the log-odds of P(known): condition on the answer (add the log of its
    likelihood ratio), then learn. Kept as log-odds, the estimate never reaches 0 or 1 in
    floating point: after any run of right answers, wrong answers bring it down (issue 42
    part 3). ``p_slip`` replaces the skill's slip (a misconception's:
    :data:`MISCONCEPTION_SLIP`).

    >>> x = observe_log_odds(logit(0.25), True, BKTParams())
    >>> round(probability(x), 6)
    0.68
    """
    slip = params.p_slip if p_slip is None else p_slip
    known, unknown = ((1.0 - slip, params.p_guess) if correct
                      else (slip, 1.0 - params.p_guess))
    if known > 0.0 and unknown > 0.0:
        log_odds = _clamp(log_odds + math.log(known) - math.log(unknown))
    elif known > 0.0:
        log_odds = LOG_ODDS_LIMIT  # only a knower answers so
    elif unknown > 0.0:
        log_odds = -LOG_ODDS_LIMIT
    # both 0: an observation the parameters call impossible; learn nothing from it
    return learn_log_odds(log_odds, params)


def learn_log_odds(log_odds: float, params: BKTParams) -> float:
    """:func:`learn` on the log-odds: P(not known) shrinks by (1 − p_learn), computed from
    its logarithm so that a tiny P(not known) is kept, not rounded to 0."""
    if params.p_learn >= 1.0:
        return LOG_ODDS_LIMIT
    log_unknown = _log_sigmoid(-log_odds) + math.log1p(-params.p_learn)
    unknown = math.exp(log_unknown)
    return _clamp(math.log1p(-unknown) - log_unknown)


def check_skill(skill: str) -> str:
    if skill not in SKILLS:
        raise MasteryError(N_("Unknown skill {skill}; the skills are: {skills}."),
                           skill=repr(skill), skills=", ".join(SKILLS))
    return skill

