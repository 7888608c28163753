"""Fitting BKT parameters per skill from students' first answers (``python -m tutor fit-bkt``).

Each skill is a two-state hidden Markov model (known / not known): the probability of
knowing at the first question (``p_init``), of learning after each question (``p_learn``),
of a wrong answer when known (``p_slip``), of a right one when not (``p_guess``) and, only
when asked for (``forgets=True``, pyBKT's ``forgets``), of forgetting after a question
(``p_forget``; the tutor's own tracing has no forgetting). The parameters are fitted by
expectation–maximisation (Baum–Welch) from several starting points (pyBKT's ``num_fits``),
keeping the most likely fit.

**Constraints.** ``p_guess + p_slip`` stays at most ``1 - MIN_GAP``: knowing the skill makes
a right answer more likely (``1 - p_slip > p_guess``), which also fixes which state is
"known". Each of guess and slip may be anything else: real items are often guessed more
than half the time (a true/false or a multiple-choice item), so neither is capped at one
half. When the M-step's best emissions break the constraint, the M-step solves the one-
dimensional concave problem on the boundary instead, so every iteration still raises the
likelihood. Every probability stays within ``[LOW, 1 - LOW]``; a parameter that ends at a
bound (or guess + slip at its limit) is reported (:attr:`SkillFit.at_bound`).

**Speed.** All the skills and all the starting points are fitted at once, with numpy, in a
*packed* layout: the sequences, sorted from longest to shortest, are stored time step by
time step, so step ``t`` is one contiguous slice over the sequences still running at ``t``.
The work is the number of answers (times the starts), never sequences × the longest one.
The forward pass keeps the filtered P(known) and the backward pass the smoothed one (no
scaling needed: both are probabilities). A skill whose likelihood stops improving stops
being fitted, and the layout is packed again without it once enough have stopped.

Which first answers of the tutor's own files are observations is decided by
:func:`tutor.teaching.evidence.judge`, as for the live tutor: a proof is a "right"
observation, an answer counted against the skill a "wrong" one; a scaffolded right answer
(practice) is a step with no observation (the student may learn, nothing is seen); an
answer that is no evidence is left out.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from tutor.teaching.mastery import SKILLS, BKTParams
from tutor.teaching.replay import first_answer_evidence

if TYPE_CHECKING:
    from tutor.storage.records import Attempt

__all__ = ["LOW", "MAX_ITERATIONS", "MIN_GAP", "MIN_OBSERVATIONS", "NUM_FITS", "PRACTICE",
           "RIGHT", "TOLERANCE", "WRONG", "FitParams", "SkillFit", "fit_attempts",
           "fit_sequences", "fit_skills", "log_likelihood", "predict", "sequences"]

RIGHT, WRONG, PRACTICE = 1, 0, 2
"""A step of a sequence: an observation (right or wrong), or practice (no observation)."""
MIN_OBSERVATIONS = 10
"""A skill with fewer observed first answers is not fitted (its parameters would be noise)."""
LOW = 1e-4
"""Every fitted probability stays within ``[LOW, 1 - LOW]``."""
MIN_GAP = 0.01
"""``p_guess + p_slip <= 1 - MIN_GAP``: a right answer is at least a little more likely
when the skill is known (at ``1`` a right answer would say nothing about knowing)."""
NUM_FITS = 6
"""Starting points per skill (pyBKT's ``num_fits`` defaults to 5)."""
MAX_ITERATIONS = 500
TOLERANCE = 1e-6
"""A skill stops when an iteration raises its log-likelihood by less than this share of
it (pyBKT stops when the log-likelihood, rounded to a whole number, stops changing). On the
123 ASSISTments skills the fits then fall short of fully converged ones (1e-11) by at most
6e-5 of the log-likelihood, in two thirds of the time that 1e-7 took."""
_STARTS: tuple[tuple[float, float, float, float], ...] = (
    # (p_init, p_learn, p_guess, p_slip): a spread over the kinds of skill seen in real
    # logs — typed answers rarely guessed, items guessed often, skills mostly known at
    # the start or learnt fast; more starts are drawn at random (seeded), like pyBKT's.
    (0.4, 0.1, 0.15, 0.1),
    (0.15, 0.02, 0.5, 0.03),
    (0.7, 0.15, 0.3, 0.2),
    (0.1, 0.3, 0.05, 0.05),
)
_REPACK_SHARE = 0.6
"""Pack the layout again when fewer than this share of its answers are still being fitted."""

Floats = npt.NDArray[np.float64]
Ints = npt.NDArray[np.intp]


@dataclass(frozen=True)
class FitParams:
    """One skill's fitted probabilities (``p_forget`` is 0 unless forgetting was fitted)."""

    p_init: float
    p_learn: float
    p_guess: float
    p_slip: float
    p_forget: float = 0.0

    def bkt(self) -> BKTParams:
        """As the tutor's parameters (which have no forgetting)."""
        return BKTParams(p_init=self.p_init, p_learn=self.p_learn, p_slip=self.p_slip,
                         p_guess=self.p_guess)


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
    p_forget: float = 0.0
    """Forgetting per step (0 unless fitted with ``forgets=True``)."""
    at_bound: tuple[str, ...] = ()
    """Parameters that ended at a bound: ``p_init`` … ``p_forget`` at ``LOW`` or
    ``1 - LOW``, or ``p_guess+p_slip`` at ``1 - MIN_GAP``."""
    iterations: int = 0
    converged: bool = True
    """False if the fit stopped at the iteration limit still improving."""

    @property
    def fit(self) -> FitParams:
        return FitParams(self.params.p_init, self.params.p_learn, self.params.p_guess,
                         self.params.p_slip, self.p_forget)


def sequences(attempts: Iterable[Attempt]) -> dict[str, list[list[int]]]:
    """Per skill, each student's first answers in time order, as :data:`RIGHT`,
    :data:`WRONG` or :data:`PRACTICE` (judged by :func:`tutor.teaching.evidence.judge`).
    The tutor's skills come first, in teaching order, then any other skill named in the
    ``kc`` column, sorted."""
    by: dict[str, dict[str, list[int]]] = {}
    for a, ev in first_answer_evidence(attempts, any_skill=True):
        if ev.kind == "none":
            continue
        code = PRACTICE if ev.kind == "practice" else RIGHT if ev.kind == "proof" else WRONG
        by.setdefault(ev.skill, {}).setdefault(a.student, []).append(code)
    order = [s for s in SKILLS if s in by] + sorted(s for s in by if s not in SKILLS)
    return {s: list(by[s].values()) for s in order}


# -- the packed layout ----------------------------------------------------------------------

class _Layout:
    """Sequences packed time step by time step (longest first), each with its group.

    Row ``i`` of the sorted rows, at step ``t``, is answer ``off[t] + i``; step ``t`` holds
    the first ``n[t]`` rows (those longer than ``t``).
    """

    def __init__(self, codes: Sequence[npt.NDArray[np.int8]], groups: Ints,
                 num_groups: int) -> None:
        lengths = np.fromiter((len(c) for c in codes), dtype=np.intp, count=len(codes))
        order = np.argsort(-lengths, kind="stable")
        self.lengths = lengths[order]
        self.row_group: Ints = groups[order]
        self.rows = len(order)
        self.num_groups = num_groups
        steps = int(self.lengths[0]) if self.rows else 0
        ending = np.bincount(self.lengths, minlength=steps + 1)
        self.n: list[int] = (self.rows - np.cumsum(ending)[:steps]).tolist()
        self.off: list[int] = [0, *np.cumsum(self.n).tolist()]
        total = self.off[-1]
        self.size = total
        flat = (np.concatenate([codes[i] for i in order]) if self.rows
                else np.zeros(0, np.int8))
        row_of = np.repeat(np.arange(self.rows), self.lengths)
        starts = np.zeros(self.rows, dtype=np.intp)
        np.cumsum(self.lengths[:-1], out=starts[1:])
        step_of = np.arange(total) - np.repeat(starts, self.lengths)
        where = np.asarray(self.off[:-1], dtype=np.intp)[step_of] + row_of
        code = np.empty(total, dtype=np.int8)
        code[where] = flat
        self.row_major = where
        """Answer ``k`` of the rows in row-major order (sorted rows) is cell ``where[k]``."""
        self.order = order
        self.cell_group: Ints = np.empty(total, dtype=np.intp)
        self.cell_group[where] = np.repeat(self.row_group, self.lengths)
        has_next = np.zeros(total, dtype=np.intp)
        for t in range(steps - 1):
            has_next[self.off[t]:self.off[t] + self.n[t + 1]] = 1
        self.code = code
        # One index per (group, code, has a next step) for table look-ups and sums.
        self.cell_key: Ints = (self.cell_group * 3 + code) * 2 + has_next
        self.has_next = has_next.astype(bool)

    def counts(self) -> Floats:
        """Per (group, code, has next): the number of answers."""
        return np.bincount(self.cell_key, minlength=self.num_groups * 6).astype(np.float64)


@dataclass
class _Params:
    """The parameters of every group, as arrays."""

    prior: Floats
    learn: Floats
    guess: Floats
    slip: Floats
    forget: Floats

    def take(self, keep: Ints) -> _Params:
        return _Params(self.prior[keep], self.learn[keep], self.guess[keep], self.slip[keep],
                       self.forget[keep])

    def put(self, keep: Ints, other: _Params) -> None:
        for name in ("prior", "learn", "guess", "slip", "forget"):
            getattr(self, name)[keep] = getattr(other, name)


@dataclass
class _Work:
    """Arrays of one layout reused by every iteration. Both states are kept (not one
    probability and its complement): after a long run of right answers P(not known) is far
    below 1e-16, and a run of wrong answers must still bring it back."""

    layout: _Layout
    pred_k: Floats = field(init=False)
    """P(known) before the answer (given the answers before it); ``pred_u``: not known."""
    pred_u: Floats = field(init=False)
    filt_k: Floats = field(init=False)
    """P(known) after the answer (given the answers up to it); ``filt_u``: not known."""
    filt_u: Floats = field(init=False)
    norm: Floats = field(init=False)
    """P(this answer | the answers before it)."""
    gamma_k: Floats = field(init=False)
    """P(known) given every answer of the sequence; ``gamma_u``: not known (forgetting)."""
    gamma_u: Floats = field(init=False)
    ratio_k: Floats = field(init=False)
    """gamma_k / pred_k of the next step (0 at a sequence's last step); ``ratio_u``: of
    not known (forgetting)."""
    ratio_u: Floats = field(init=False)

    def __post_init__(self) -> None:
        size = self.layout.size
        self.pred_k, self.pred_u = np.empty(size), np.empty(size)
        self.filt_k, self.filt_u, self.norm = np.empty(size), np.empty(size), np.empty(size)
        self.gamma_k, self.gamma_u = np.empty(size), np.empty(size)
        self.ratio_k, self.ratio_u = np.zeros(size), np.zeros(size)


def _emission_tables(p: _Params) -> tuple[Floats, Floats]:
    """Per (group, code, has next): P(answer | known) and P(answer | not known)."""
    g = len(p.prior)
    known = np.empty((g, 3, 2))
    unknown = np.empty((g, 3, 2))
    known[:, WRONG] = p.slip[:, None]
    known[:, RIGHT] = 1 - p.slip[:, None]
    known[:, PRACTICE] = 1.0
    unknown[:, WRONG] = 1 - p.guess[:, None]
    unknown[:, RIGHT] = p.guess[:, None]
    unknown[:, PRACTICE] = 1.0
    return known.ravel(), unknown.ravel()


def _forward(w: _Work, p: _Params, forgets: bool) -> None:
    """Fill ``pred_*``, ``filt_*`` and ``norm`` (the filtering pass)."""
    lay = w.layout
    known, unknown = _emission_tables(p)
    e1 = known[lay.cell_key]
    e0 = unknown[lay.cell_key]
    learn = p.learn[lay.row_group]
    stay_u = (1.0 - p.learn)[lay.row_group]
    forget = p.forget[lay.row_group]
    stay_k = (1.0 - p.forget)[lay.row_group]
    pk, pu, fk, fu, norm = w.pred_k, w.pred_u, w.filt_k, w.filt_u, w.norm
    pk[:lay.rows] = p.prior[lay.row_group]
    pu[:lay.rows] = (1.0 - p.prior)[lay.row_group]
    off, n = lay.off, lay.n
    steps = len(n)
    for t in range(steps):
        a, b = off[t], off[t + 1]
        ck, cu, ct = fk[a:b], fu[a:b], norm[a:b]
        np.multiply(pk[a:b], e1[a:b], out=ck)
        np.multiply(pu[a:b], e0[a:b], out=cu)
        np.add(ck, cu, out=ct)
        ck /= ct
        cu /= ct
        if t + 1 < steps:
            m = n[t + 1]
            nk, nu = pk[b:b + m], pu[b:b + m]
            np.multiply(cu[:m], stay_u[:m], out=nu)
            np.multiply(cu[:m], learn[:m], out=nk)
            if forgets:
                nu += ck[:m] * forget[:m]
                nk += ck[:m] * stay_k[:m]
            else:
                nk += ck[:m]


def _backward(w: _Work, p: _Params, forgets: bool) -> None:
    """Fill ``gamma_*`` and ``ratio_*`` (the smoothing pass, after :func:`_forward`)."""
    lay = w.layout
    gk, gu, rk, ru = w.gamma_k, w.gamma_u, w.ratio_k, w.ratio_u
    np.copyto(gk, w.filt_k)
    pk = w.pred_k
    off, n = lay.off, lay.n
    if forgets:
        np.copyto(gu, w.filt_u)
        pu = w.pred_u
        learn = p.learn[lay.row_group]
        stay_u = (1.0 - p.learn)[lay.row_group]
        forget = p.forget[lay.row_group]
        stay_k = (1.0 - p.forget)[lay.row_group]
    for t in range(len(n) - 2, -1, -1):
        a, m, c = off[t], n[t + 1], off[t + 1]
        r = rk[a:a + m]
        np.divide(gk[c:c + m], pk[c:c + m], out=r)
        if forgets:
            r0 = ru[a:a + m]
            np.divide(gu[c:c + m], pu[c:c + m], out=r0)
            gu[a:a + m] *= learn[:m] * r + stay_u[:m] * r0
            gk[a:a + m] *= stay_k[:m] * r + forget[:m] * r0
        else:
            gk[a:a + m] *= r


def _per_group(lay: _Layout, values: Floats) -> Floats:
    return np.bincount(lay.cell_group, weights=values,
                       minlength=lay.num_groups).astype(np.float64, copy=False)


def _log_likelihood(w: _Work) -> Floats:
    return _per_group(w.layout, np.log(w.norm))


def _m_step(w: _Work, p: _Params, counts: Floats, forgets: bool) -> _Params:
    """The parameters that maximise the expected complete log-likelihood (within bounds)."""
    lay = w.layout
    g = lay.num_groups
    known = np.bincount(lay.cell_key, weights=w.gamma_k, minlength=g * 6).reshape(g, 3, 2)
    total = counts.reshape(g, 3, 2)
    unknown = total - known
    # initial state
    rows = np.bincount(lay.row_group, minlength=g).astype(np.float64)
    prior = np.bincount(lay.row_group, weights=w.gamma_k[:lay.rows], minlength=g) / rows
    # transitions: from each step that has a next one
    from_known = known[:, :, 1].sum(axis=1)
    from_unknown = unknown[:, :, 1].sum(axis=1)
    learned = p.learn * _per_group(lay, w.filt_u * w.ratio_k)
    learn = np.where(from_unknown > 0, learned / np.maximum(from_unknown, 1e-300), p.learn)
    if forgets:
        forgot = p.forget * _per_group(lay, w.filt_k * w.ratio_u)
        forget = np.where(from_known > 0, forgot / np.maximum(from_known, 1e-300), p.forget)
    else:
        forget = p.forget
    # emissions
    guess, slip = _emissions(unknown[:, RIGHT].sum(axis=1), unknown[:, WRONG].sum(axis=1),
                             known[:, RIGHT].sum(axis=1), known[:, WRONG].sum(axis=1),
                             p.guess, p.slip)
    hi = 1.0 - LOW
    return _Params(np.clip(prior, LOW, hi), np.clip(learn, LOW, hi), guess, slip,
                   np.clip(forget, LOW, hi) if forgets else forget)


def _emissions(u_right: Floats, u_wrong: Floats, k_right: Floats, k_wrong: Floats,
               guess0: Floats, slip0: Floats) -> tuple[Floats, Floats]:
    """Guess and slip maximising ``u_right·log g + u_wrong·log(1-g) + k_wrong·log s +
    k_right·log(1-s)`` with ``g + s <= 1 - MIN_GAP``, both within ``[LOW, 1 - LOW]``."""
    hi = 1.0 - LOW
    u_seen, k_seen = u_right + u_wrong, k_right + k_wrong
    guess = np.where(u_seen > 0, u_right / np.maximum(u_seen, 1e-300), guess0)
    slip = np.where(k_seen > 0, k_wrong / np.maximum(k_seen, 1e-300), slip0)
    guess, slip = np.clip(guess, LOW, hi), np.clip(slip, LOW, hi)
    limit = 1.0 - MIN_GAP
    over = guess + slip > limit
    if over.any():
        # On the boundary s = limit - g the objective is concave in g: bisect its slope.
        a, b = u_right[over], u_wrong[over]
        c, d = k_right[over], k_wrong[over]
        lo = np.full(len(a), LOW)
        up = np.full(len(a), limit - LOW)
        for _ in range(60):
            mid = 0.5 * (lo + up)
            slope = (a / mid - b / (1 - mid) + c / (1 - limit + mid) - d / (limit - mid))
            rising = slope > 0
            lo = np.where(rising, mid, lo)
            up = np.where(rising, up, mid)
        g_over = 0.5 * (lo + up)
        guess = guess.copy()
        slip = slip.copy()
        guess[over] = g_over
        slip[over] = limit - g_over
    return guess, slip


# -- fitting --------------------------------------------------------------------------------

def _codes(seq: Sequence[int] | bytes | npt.NDArray[np.int8]) -> npt.NDArray[np.int8]:
    arr = np.asarray(bytearray(seq) if isinstance(seq, (bytes, bytearray)) else seq,
                     dtype=np.int8)
    if arr.ndim != 1 or arr.size == 0:
        raise ValueError("a sequence must hold at least one step")
    return arr


def _starts(num_fits: int, forgets: bool, seed: int) -> list[FitParams]:
    rng = np.random.default_rng(seed)
    starts = [FitParams(p0, lrn, g, s, 0.05 if forgets else 0.0)
              for p0, lrn, g, s in _STARTS[:num_fits]]
    while len(starts) < num_fits:  # pyBKT's draws: guess < 0.4, slip < 0.3, learn < 0.4
        p0, lrn, g, s, f = rng.uniform(size=5)
        starts.append(FitParams(float(p0), float(0.4 * lrn), float(0.4 * g), float(0.3 * s),
                                float(0.2 * f) if forgets else 0.0))
    return starts


@dataclass
class _Group:
    skill: int
    params: FitParams
    loglik: float = -math.inf
    iterations: int = 0
    done: bool = False


def _run(seqs: Sequence[Sequence[npt.NDArray[np.int8]]], groups: list[_Group], *,
         forgets: bool, max_iterations: int, tolerance: float) -> None:
    """EM on every group, until each converges or has run ``max_iterations`` iterations;
    each group fits its skill's sequences."""
    while True:
        active = [i for i, gr in enumerate(groups)
                  if not gr.done and gr.iterations < max_iterations]
        if not active:
            return
        codes: list[npt.NDArray[np.int8]] = []
        row_groups: list[int] = []
        for k, i in enumerate(active):
            s = seqs[groups[i].skill]
            codes.extend(s)
            row_groups.extend([k] * len(s))
        lay = _Layout(codes, np.asarray(row_groups, dtype=np.intp), len(active))
        work = _Work(lay)
        counts = lay.counts()
        p = _Params(*(np.array([getattr(groups[i].params, name) for i in active])
                      for name in ("p_init", "p_learn", "p_guess", "p_slip", "p_forget")))
        last = np.full(len(active), -math.inf)  # (re)started: the first step always runs
        iters = np.array([groups[i].iterations for i in active])
        limit = max_iterations
        running = iters < limit
        converged = np.zeros(len(active), dtype=bool)
        cells = np.bincount(lay.row_group, weights=lay.lengths.astype(np.float64),
                            minlength=len(active))
        while True:
            _forward(work, p, forgets)
            ll = _log_likelihood(work)
            # converged: the last step gained (almost) nothing; the parameters that gave
            # ``ll`` are kept (the M-step below runs only for the groups still running)
            now = running & (ll - last < tolerance * np.abs(ll))
            converged |= now
            last = np.where(running, ll, last)
            running &= ~now & (iters < limit)
            if not running.any() or cells[running].sum() < _REPACK_SHARE * lay.size:
                break
            _backward(work, p, forgets)
            new = _m_step(work, p, counts, forgets)
            keep = np.flatnonzero(running)
            p.put(keep, new.take(keep))
            iters[running] += 1
        for k, i in enumerate(active):
            gr = groups[i]
            gr.params = FitParams(float(p.prior[k]), float(p.learn[k]), float(p.guess[k]),
                                  float(p.slip[k]), float(p.forget[k]))
            gr.loglik = float(last[k])
            gr.iterations = int(iters[k])
            gr.done = bool(converged[k])


def fit_skills(data: Mapping[str, Sequence[Sequence[int] | bytes]], *,
               num_fits: int = NUM_FITS, forgets: bool = False, seed: int = 0,
               max_iterations: int = MAX_ITERATIONS,
               tolerance: float = TOLERANCE) -> dict[str, SkillFit]:
    """Fit every skill of ``data`` (skill → each student's steps: :data:`RIGHT`,
    :data:`WRONG`, :data:`PRACTICE`) from ``num_fits`` starting points each, all at once;
    ``seed`` draws the starts beyond the fixed ones. Skills are fitted whatever their size:
    leaving out small ones is the caller's choice (:data:`MIN_OBSERVATIONS`)."""
    if num_fits < 1:
        raise ValueError("num_fits must be at least 1")
    names = list(data)
    seqs = [[_codes(s) for s in data[name]] for name in names]
    for name, s in zip(names, seqs, strict=True):
        if not s:
            raise ValueError(f"skill {name!r} has no sequence")
    starts = _starts(num_fits, forgets, seed)
    groups = [_Group(k, start) for k in range(len(names)) for start in starts]
    _run(seqs, groups, forgets=forgets, max_iterations=max_iterations, tolerance=tolerance)
    best = [max(groups[k * num_fits:(k + 1) * num_fits], key=lambda gr: gr.loglik)
            for k in range(len(names))]
    fits: dict[str, SkillFit] = {}
    for name, s, gr in zip(names, seqs, best, strict=True):
        steps = np.concatenate(s)
        observed = int(np.count_nonzero(steps != PRACTICE))
        fp = gr.params
        fits[name] = SkillFit(
            name, fp.bkt(), gr.loglik, len(s), observed, int(steps.size - observed),
            fp.p_forget, _at_bound(fp, forgets), gr.iterations, gr.done)
    return fits


def _at_bound(fp: FitParams, forgets: bool) -> tuple[str, ...]:
    names = ["p_init", "p_learn", "p_guess", "p_slip"] + (["p_forget"] if forgets else [])
    found = [n for n in names if not LOW * 1.0001 < getattr(fp, n) < 1 - LOW * 1.0001]
    if fp.p_guess + fp.p_slip >= 1 - MIN_GAP - 1e-9:
        found.append("p_guess+p_slip")
    return tuple(found)


def fit_sequences(seqs: Sequence[Sequence[int]], *, num_fits: int = NUM_FITS,
                  forgets: bool = False, max_iterations: int = MAX_ITERATIONS,
                  tolerance: float = TOLERANCE) -> tuple[BKTParams, float]:
    """Fit the four BKT parameters to one skill's sequences; return them with the
    log-likelihood of the data under them."""
    fit = fit_skills({"skill": seqs}, num_fits=num_fits, forgets=forgets,
                     max_iterations=max_iterations, tolerance=tolerance)["skill"]
    return fit.params, fit.log_likelihood


def _evaluate(seqs: Sequence[Sequence[int] | bytes], params: FitParams) -> tuple[_Work, _Layout]:
    codes = [_codes(s) for s in seqs]
    lay = _Layout(codes, np.zeros(len(codes), dtype=np.intp), 1)
    work = _Work(lay)
    p = _Params(*(np.array([getattr(params, name)])
                  for name in ("p_init", "p_learn", "p_guess", "p_slip", "p_forget")))
    _forward(work, p, params.p_forget > 0)
    return work, lay


def log_likelihood(seqs: Sequence[Sequence[int] | bytes], params: FitParams) -> float:
    """The log-likelihood of one skill's sequences under ``params``."""
    if not seqs:
        return 0.0
    work, _ = _evaluate(seqs, params)
    return float(np.log(work.norm).sum())


def predict(seqs: Sequence[Sequence[int] | bytes], params: FitParams) -> list[Floats]:
    """For each sequence, the chance of a right answer at each step, given the answers
    before it (pyBKT's ``correct_predictions``; a practice step gets one too)."""
    if not seqs:
        return []
    work, lay = _evaluate(seqs, params)
    right = work.pred_k * (1 - params.p_slip) + work.pred_u * params.p_guess
    flat = right[lay.row_major]
    bounds = np.cumsum(lay.lengths)[:-1]
    by_sorted = np.split(flat, bounds)
    out: list[Floats] = [by_sorted[0]] * len(seqs)
    for k, i in enumerate(lay.order.tolist()):
        out[i] = by_sorted[k]
    return out


def fit_attempts(attempts: Iterable[Attempt], *, num_fits: int = NUM_FITS,
                 forgets: bool = False) -> tuple[dict[str, SkillFit], dict[str, int]]:
    """Fit every skill with at least :data:`MIN_OBSERVATIONS` observed first answers; return
    the fits and, for the skills left out, how many observations they had."""
    return fit_enough(sequences(attempts), num_fits=num_fits, forgets=forgets)


def fit_enough(data: Mapping[str, Sequence[Sequence[int] | bytes]], *,
               num_fits: int = NUM_FITS, forgets: bool = False,
               seed: int = 0) -> tuple[dict[str, SkillFit], dict[str, int]]:
    """:func:`fit_skills` on the skills with at least :data:`MIN_OBSERVATIONS` observed
    answers; the others are returned with their number of observations."""
    skipped: dict[str, int] = {}
    kept: dict[str, Sequence[Sequence[int] | bytes]] = {}
    for skill, seqs in data.items():
        observed = sum(len(s) - sum(1 for c in s if c == PRACTICE) for s in seqs)
        if observed < MIN_OBSERVATIONS:
            skipped[skill] = observed
        else:
            kept[skill] = seqs
    fits = fit_skills(kept, num_fits=num_fits, forgets=forgets, seed=seed) if kept else {}
    return fits, skipped
