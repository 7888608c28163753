"""Fitting BKT parameters per skill from students' first answers (``python -m tutor fit-bkt``).

Each skill is a two-state hidden Markov model (known / not known, no forgetting): the
probability of knowing at the first question (``p_init``), of learning after each question
(``p_learn``), of a wrong answer when known (``p_slip``) and of a right one when not
(``p_guess``). The parameters are fitted by expectation–maximisation (Baum–Welch), from a few
starting points, keeping the most likely fit.

Which first answers are observations is decided by :func:`tutor.teaching.evidence.judge`, as for the
live tutor: a proof is a "right" observation, an answer counted against the skill a "wrong"
one; a scaffolded right answer (practice) is a step with no observation (the student may
learn, nothing is seen); an answer that is no evidence is left out.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from tutor.teaching.mastery import SKILLS, BKTParams

if TYPE_CHECKING:
    from tutor.storage.records import Attempt

__all__ = ["MIN_OBSERVATIONS", "SkillFit", "fit_attempts", "fit_sequences", "sequences"]

RIGHT, WRONG, PRACTICE = 1, 0, 2
"""A step of a sequence: an observation (right or wrong), or practice (no observation)."""
_PAD = -1
MIN_OBSERVATIONS = 10
"""A skill with fewer observed first answers is not fitted (its parameters would be noise)."""
_LOW, _HIGH = 1e-4, 1 - 1e-4
_MAX_ERROR = 0.5 - 1e-4
"""Slip and guess stay below one half: knowing the skill makes a right answer more likely
(otherwise "known" and "not known" could swap names and fit as well)."""
_STARTS = ((0.3, 0.1, 0.1, 0.1), (0.5, 0.2, 0.05, 0.05), (0.1, 0.3, 0.2, 0.2),
           (0.7, 0.05, 0.1, 0.02))


@dataclass(frozen=True)
class SkillFit:
    """One skill's fitted parameters and the data behind them."""

    skill: str
    params: BKTParams
    log_likelihood: float
    students: int
    attempts: int
    """Observed first answers (right or wrong)."""
    practice: int
    """Scaffolded right first answers (steps with no observation)."""


def sequences(attempts: Iterable[Attempt]) -> dict[str, list[list[int]]]:
    """Per skill, each student's first answers in time order, as :data:`RIGHT`,
    :data:`WRONG` or :data:`PRACTICE` (judged by :func:`tutor.teaching.evidence.judge`)."""
    from tutor.teaching.replay import first_answer_evidence

    by: dict[str, dict[str, list[int]]] = {}
    for a, ev in first_answer_evidence(attempts):
        if ev.kind == "none":
            continue
        code = PRACTICE if ev.kind == "practice" else RIGHT if ev.kind == "proof" else WRONG
        by.setdefault(ev.skill, {}).setdefault(a.student, []).append(code)
    return {s: list(by[s].values()) for s in SKILLS if s in by}


def fit_sequences(seqs: Sequence[Sequence[int]], *, max_iterations: int = 300,
                  tolerance: float = 1e-7) -> tuple[BKTParams, float]:
    """Fit the four BKT parameters to the students' sequences by EM; return them with the
    log-likelihood of the data under them."""
    import numpy as np

    length = max(len(s) for s in seqs)
    codes = np.full((len(seqs), length), _PAD, dtype=np.int8)
    for i, s in enumerate(seqs):
        codes[i, :len(s)] = s
    best: tuple[float, tuple[float, float, float, float]] | None = None
    for start in _STARTS:
        found = _em(codes, start, max_iterations, tolerance)
        if best is None or found[0] > best[0]:
            best = found
    assert best is not None
    loglik, (p_init, p_learn, p_slip, p_guess) = best
    return BKTParams(p_init=p_init, p_learn=p_learn, p_slip=p_slip, p_guess=p_guess), loglik


def _em(codes: object, start: tuple[float, float, float, float], max_iterations: int,
        tolerance: float) -> tuple[float, tuple[float, float, float, float]]:
    import numpy as np

    o = np.asarray(codes)
    n, length = o.shape
    step = o != _PAD
    right, wrong = o == RIGHT, o == WRONG
    seen = right | wrong
    p0, lrn, slip, guess = start
    previous = -np.inf
    loglik = previous
    for _ in range(max_iterations):
        # emission of each step by state (0: not known, 1: known); 1 where nothing is seen
        e = np.ones((n, length, 2))
        e[..., 0] = np.where(right, guess, np.where(wrong, 1 - guess, 1.0))
        e[..., 1] = np.where(right, 1 - slip, np.where(wrong, slip, 1.0))
        alpha = np.empty((n, length, 2))
        scale = np.ones((n, length))
        a = np.stack([np.full(n, 1 - p0), np.full(n, p0)], axis=1) * e[:, 0]
        scale[:, 0] = a.sum(axis=1)
        alpha[:, 0] = a / scale[:, 0, None]
        for t in range(1, length):
            prev = alpha[:, t - 1]
            moved = np.stack([prev[:, 0] * (1 - lrn), prev[:, 1] + prev[:, 0] * lrn], axis=1)
            a = np.where(step[:, t, None], moved, prev) * e[:, t]
            scale[:, t] = a.sum(axis=1)
            alpha[:, t] = a / scale[:, t, None]
        loglik = float(np.log(scale).sum())
        beta = np.ones((n, length, 2))
        learned = np.zeros(n)
        could_learn = np.zeros(n)
        for t in range(length - 2, -1, -1):
            nb = e[:, t + 1] * beta[:, t + 1] / scale[:, t + 1, None]
            real = step[:, t + 1]
            moved = np.stack([(1 - lrn) * nb[:, 0] + lrn * nb[:, 1], nb[:, 1]], axis=1)
            beta[:, t] = np.where(real[:, None], moved, nb)
            learned += np.where(real, alpha[:, t, 0] * lrn * nb[:, 1], 0.0)
        gamma = alpha * beta
        gamma /= gamma.sum(axis=2, keepdims=True)
        has_next = np.zeros_like(step)
        has_next[:, :-1] = step[:, 1:]
        could_learn = (gamma[..., 0] * has_next).sum()
        p0 = float(np.clip(gamma[:, 0, 1].mean(), _LOW, _HIGH))
        if could_learn > 0:
            lrn = float(np.clip(learned.sum() / could_learn, _LOW, _HIGH))
        known_seen = (gamma[..., 1] * seen).sum()
        unknown_seen = (gamma[..., 0] * seen).sum()
        if known_seen > 0:
            slip = float(np.clip((gamma[..., 1] * wrong).sum() / known_seen, _LOW, _MAX_ERROR))
        if unknown_seen > 0:
            guess = float(np.clip((gamma[..., 0] * right).sum() / unknown_seen, _LOW,
                                  _MAX_ERROR))
        if abs(loglik - previous) < tolerance * max(1.0, abs(loglik)):
            break
        previous = loglik
    return loglik, (p0, lrn, slip, guess)


def fit_attempts(attempts: Iterable[Attempt]) -> tuple[dict[str, SkillFit], dict[str, int]]:
    """Fit every skill with at least :data:`MIN_OBSERVATIONS` observed first answers; return
    the fits and, for the skills left out, how many observations they had."""
    fits: dict[str, SkillFit] = {}
    skipped: dict[str, int] = {}
    for skill, seqs in sequences(attempts).items():
        observed = sum(c != PRACTICE for s in seqs for c in s)
        if observed < MIN_OBSERVATIONS:
            skipped[skill] = observed
            continue
        params, loglik = fit_sequences(seqs)
        fits[skill] = SkillFit(skill, params, loglik, len(seqs), observed,
                               sum(c == PRACTICE for s in seqs for c in s))
    return fits, skipped
