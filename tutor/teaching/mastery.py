"""What the tutor believes each student knows, skill by skill, from their first attempts.

A :class:`Mastery` keeps one :class:`SkillState` per skill: the Bayesian Knowledge Tracing
estimate (the model and its parameters per skill are :mod:`tutor.teaching.bkt`'s), the row
of right answers and what it has ruled out, the misconceptions shown. What a first answer is
evidence of is decided by :mod:`tutor.teaching.evidence`; "mastered" needs the estimate at
the threshold *and* :data:`STREAK_TO_MASTER` unscaffolded, unhinted right first answers in a
row (docs/rules.md §4).
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from tutor.i18n import N_
from tutor.teaching.bkt import (
    DEFAULT_SKILL_PARAMS,
    LOG_ODDS_LIMIT,
    PARAMS_ENV,
    SKILL_NAMES,
    SKILLS,
    BKTParams,
    BKTTable,
    MasteryError,
    Params,
    check_skill,
    default_params,
    learn,
    learn_log_odds,
    load_params,
    logit,
    observe_log_odds,
    p_correct,
    params_from_dict,
    probability,
    update,
)
from tutor.teaching.coverage import skill_mistakes
from tutor.teaching.diagnosis import LIKELIHOOD
from tutor.teaching.evidence import Evidence, judge

__all__ = [
    "DEFAULT_SKILL_PARAMS",
    "FADE_AFTER",
    "LOG_ODDS_LIMIT",
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
    "learn_log_odds",
    "load_params",
    "logit",
    "observe_log_odds",
    "probability",
    "update",
]

STREAK_TO_MASTER = 7
"""Unscaffolded, unhinted right first answers in a row that mastery needs besides the BKT
estimate (ASSISTments' skill-builder rule, beside Cognitive Tutor's 0.95; docs/rules.md §4: "at
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

SAID_SKILL = "rules"
"""The skill whose saved row carries what the tutor has said once (:attr:`Mastery.said`):
the notes it has are about the rules of play."""
StateValue = str | int | float
"""A value of a saved skill state (:meth:`SkillState.to_dict`): the skill's name, counts and
chances (a bool is an int), as the progress store keeps them."""


@dataclass
class SkillState:
    """What the tutor believes about one skill, and the counts behind it."""

    skill: str
    log_odds: float
    """The knowledge-tracing estimate as the log-odds of P(known) (:attr:`p_known`): a form
    that never reaches 0 or 1 in floating point (issue 42 part 3)."""
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
    told: dict[str, int] = field(default_factory=dict)
    """Per catalogue mistake, the right answers whose question told it apart (a student making
    it would have answered wrong there) since the last answer that mistake could have given
    (or a give-up, or a hint before answering): what has ruled it out
    (:meth:`Mastery.ruled_out`)."""
    shown: frozenset[str] = frozenset()
    """The misconceptions of the skill shown since it was last mastered: only questions that
    tell each of them apart count toward the longer row they call for."""
    sure: frozenset[str] = frozenset()
    """Those of :attr:`shown` shown by a number no typing slip gives (the tutor is sure of
    them; the others may have been a slip of the hand)."""
    requires: frozenset[str] | None = None
    """What the lesson of the skill's latest right first answer requires the row to rule out
    (:attr:`tutor.teaching.evidence.Evidence.requires`; None: no such answer yet, or one stored
    before issue 42): what the next answers of that lesson will be judged against, and so
    what :meth:`Mastery.answers_to_master` counts with."""

    @property
    def p_known(self) -> float:
        """P(known), from :attr:`log_odds` (it may round to 1.0; the state does not)."""
        return probability(self.log_odds)

    @p_known.setter
    def p_known(self, value: float) -> None:
        self.log_odds = logit(value)

    @property
    def mean_seconds(self) -> float:
        """Average time to the first answer (0 before any question)."""
        return self.total_seconds / self.asked if self.asked else 0.0

    @property
    def scaffold_faded(self) -> bool:
        """The skill's scaffolds no longer show (:data:`FADE_AFTER` right scaffolded)."""
        return self.scaffolded_right >= FADE_AFTER

    def to_dict(self) -> dict[str, StateValue]:
        """The state as the progress store keeps it: the counts, ``p_known`` (for readers of
        the table), and in ``evidence`` (text) the log-odds, the row's mistakes ruled out and
        the misconceptions shown."""
        return {
            "skill": self.skill, "p_known": self.p_known, "mastered": self.mastered,
            "asked": self.asked, "first_try_right": self.first_try_right,
            "hints_used": self.hints_used, "total_seconds": self.total_seconds,
            "streak": self.streak, "scaffolded_right": self.scaffolded_right,
            "misconceptions": self.misconceptions,
            "evidence": json.dumps({"log_odds": self.log_odds,
                                    "told": dict(sorted(self.told.items())),
                                    "shown": sorted(self.shown), "sure": sorted(self.sure),
                                    "requires": (None if self.requires is None
                                                 else sorted(self.requires))},
                                   separators=(",", ":")),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, StateValue]) -> SkillState:
        """A saved state; the fields added later default so older saves still load:
        ``streak``, ``scaffolded_right`` and ``misconceptions`` to 0, and a state saved
        before ``evidence`` takes its log-odds from ``p_known`` with nothing ruled out."""
        extra = _evidence(data.get("evidence", ""))
        log_odds = extra.get("log_odds")
        told = extra.get("told", {})
        shown = extra.get("shown", [])
        sure = extra.get("sure", [])
        requires = extra.get("requires")
        return cls(
            skill=check_skill(str(data["skill"])),
            log_odds=(float(log_odds) if isinstance(log_odds, (int, float))
                      else logit(float(data["p_known"]))),
            mastered=bool(data["mastered"]),
            asked=int(data["asked"]),
            first_try_right=int(data["first_try_right"]),
            hints_used=int(data["hints_used"]),
            total_seconds=float(data["total_seconds"]),
            streak=int(data.get("streak", 0)),
            scaffolded_right=int(data.get("scaffolded_right", 0)),
            misconceptions=int(data.get("misconceptions", 0)),
            told={str(k): int(v) for k, v in told.items()} if isinstance(told, dict) else {},
            shown=frozenset(map(str, shown)) if isinstance(shown, list) else frozenset(),
            sure=frozenset(map(str, sure)) if isinstance(sure, list) else frozenset(),
            requires=frozenset(map(str, requires)) if isinstance(requires, list) else None,
        )

    @property
    def fresh(self) -> bool:
        """Nothing answered, nothing ruled out: the state a skill never asked starts in."""
        return not (self.mastered or self.asked or self.first_try_right or self.hints_used
                    or self.total_seconds or self.streak or self.scaffolded_right
                    or self.misconceptions or self.told or self.shown or self.sure)


def _evidence(text: StateValue) -> dict[str, object]:
    """A saved state's ``evidence`` text as a dict (empty if absent or unreadable)."""
    if not isinstance(text, str) or not text:
        return {}
    try:
        found = json.loads(text)
    except json.JSONDecodeError:
        return {}
    return found if isinstance(found, dict) else {}


class _Latest:
    """The default of :meth:`Mastery.answers_to_master`'s ``requires``: the state's own."""


LATEST = _Latest()


@dataclass
class Mastery:
    """Per-skill knowledge tracing for one student.

    Call :meth:`record` (or :meth:`observe` with a judged
    :class:`~tutor.teaching.evidence.Evidence`)
    once per question, with the student's *first* attempt; later attempts at the same
    question teach the tracer nothing. What the first answer is evidence of is decided by
    :func:`tutor.teaching.evidence.judge` (docs/rules.md §4): an unscaffolded, unhinted right
    answer is proof; a scaffolded right one is practice (learning only); a hint before the first
    answer counts as wrong.
    """

    params: Params = field(default_factory=lambda: default_params())
    states: dict[str, SkillState] = field(default_factory=dict)
    said: frozenset[str] = frozenset()
    """What the tutor has explained to the student once and does not say again
    (``power-on-power``: why a power tile against a power tile asks nothing;
    :meth:`say_once`). Saved in the :data:`SAID_SKILL` row's evidence."""

    def params_for(self, skill: str) -> BKTParams:
        """The BKT parameters of ``skill``."""
        return self.params.for_skill(skill)

    def state(self, skill: str) -> SkillState:
        """The state of ``skill`` (starting at its ``p_init`` if never asked; never mastered
        before a streak of right answers)."""
        check_skill(skill)
        if skill not in self.states:
            self.states[skill] = SkillState(skill, logit(self.params_for(skill).p_init))
        return self.states[skill]

    def say_once(self, note: str) -> bool:
        """Whether the tutor is to explain ``note`` to the student now: True the first time
        (it is then marked said, and saved with the mastery: :attr:`said`), False ever
        after."""
        if note in self.said:
            return False
        self.said = self.said | {note}
        return True

    def is_mastered(self, st: SkillState, requires: Iterable[str] | None = None) -> bool:
        """The BKT estimate at the threshold and enough right first answers in a row:
        :data:`STREAK_TO_MASTER`, more once a misconception of the skill has shown
        (:meth:`streak_needed`). ``requires``: the skill's catalogue mistakes the lesson can
        show (:mod:`tutor.teaching.coverage`); the row must then have ruled out each of them
        (:meth:`ruled_out`), and a misconception shown counts only the questions that tell it
        apart toward its longer row. None (attempts stored before issue 42): the row alone."""
        params = self.params_for(st.skill)
        if st.log_odds < logit(params.mastery_threshold):
            return False
        need = self.streak_needed(st)
        if requires is None:
            return st.streak >= need
        required = frozenset(requires)
        if st.streak < STREAK_TO_MASTER or any(st.streak < need for m in st.shown
                                               if m not in required):
            return False
        return all(st.told.get(m, 0) >= (need if m in st.shown else STREAK_TO_MASTER)
                   for m in required)

    @staticmethod
    def streak_needed(st: SkillState) -> int:
        """Right first answers in a row ``st``'s skill needs for mastery now:
        :data:`STREAK_TO_MASTER`, and :data:`STREAK_PER_MISCONCEPTION` more for each
        misconception shown since it was last mastered, at most :data:`MOST_STREAK`."""
        return min(MOST_STREAK, STREAK_TO_MASTER + STREAK_PER_MISCONCEPTION * st.misconceptions)

    def answers_to_master(self, st: SkillState,
                          requires: Iterable[str] | None | _Latest = LATEST) -> int:
        """How many more right first answers in a row, unscaffolded and with no hint, on
        items that tell apart every mistake the lesson requires, would make ``st``'s skill
        mastered: 0 when it is. After exactly that many (:meth:`observe`) it is mastered,
        after one fewer it is not: each of :meth:`is_mastered`'s conditions is counted —
        the estimate reaching the threshold (right answers raise it), the row mastery needs
        now (:meth:`streak_needed`: longer after a misconception) and, for each mistake
        ``requires`` (default: :attr:`SkillState.requires`, the lesson of the latest right
        answer), the answers still needed to rule it out (:meth:`needed` less
        :attr:`SkillState.told`). What a teacher or student reads beside a mastery: "needs 4
        more right in a row" (:func:`tutor.teaching.counts.evidence_text`). The drills count
        with the lesson's own kinds of items instead
        (:func:`tutor.teaching.practice.right_answers_to_mastery`)."""
        if st.mastered:
            return 0
        need = self.streak_needed(st)
        required = st.requires if isinstance(requires, _Latest) else requires
        if required is None:
            row = need - st.streak
        else:
            required = frozenset(required)
            row = STREAK_TO_MASTER - st.streak
            if any(m not in required for m in st.shown):
                row = max(row, need - st.streak)
            for m in required:
                row = max(row, self.needed(st, m) - st.told.get(m, 0))
        # Mastery is judged at an answer: one that is not yet mastered needs one at least.
        return max(1, row, self.right_answers_to_threshold(st))

    def right_answers_to_threshold(self, st: SkillState) -> int:
        """How many right answers would raise ``st``'s estimate to its skill's mastery
        threshold (0 when it is there)."""
        params = self.params_for(st.skill)
        threshold = logit(params.mastery_threshold)
        x, n = st.log_odds, 0
        # Each right answer raises the log-odds by at least log((1 - slip) / guess) > 0
        # (p_slip + p_guess < 1), and it stops at LOG_ODDS_LIMIT: the loop ends.
        while x < threshold:
            x = observe_log_odds(x, True, params)
            n += 1
        return n

    def needed(self, st: SkillState, mistake: str) -> int:
        """Right answers telling ``mistake`` apart that the row needs to rule it out:
        :data:`STREAK_TO_MASTER`, or the longer row when it was shown since the skill was
        last mastered."""
        return self.streak_needed(st) if mistake in st.shown else STREAK_TO_MASTER

    def ruled_out(self, st: SkillState) -> list[str]:
        """The catalogue mistakes the current row of right answers has ruled out: told apart
        by as many of its questions as mastery needs (:meth:`needed`), in catalogue order."""
        return [m for m in LIKELIHOOD if st.told.get(m, 0) >= self.needed(st, m)]

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
        tells: Iterable[str] | None = None,
        requires: Iterable[str] | None = None,
        consistent: Iterable[str] | None = None,
        typo: bool = False,
    ) -> list[SkillState]:
        """Judge a first attempt (:func:`tutor.teaching.evidence.judge`) for every skill a question
        exercised and apply it; return the states that changed."""
        if hints_before_answer < 0 or seconds < 0 or not math.isfinite(seconds):
            raise MasteryError(N_("Hints and seconds cannot be negative."))
        names = [skills] if isinstance(skills, str) else list(dict.fromkeys(skills))
        changed = []
        for name in names:
            check_skill(name)
            ev = judge(name, correct, scaffold=scaffold, hints=hints_before_answer,
                       trivial=trivial, blame=blame, mistake=mistake, tells=tells,
                       requires=requires, consistent=consistent, typo=typo)
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
        if evidence.kind in ("proof", "practice"):
            st.requires = evidence.requires
        if evidence.kind == "proof":
            st.log_odds = observe_log_odds(st.log_odds, True, params)
            st.streak += 1
            tells = evidence.tells
            if tells is None:  # stored before issue 42: it was judged to rule out all
                tells = skill_mistakes(st.skill)
            for m in tells:
                st.told[m] = st.told.get(m, 0) + 1
            st.mastered = was or self.is_mastered(st, evidence.requires)  # nothing taken
        elif evidence.kind == "practice":
            st.log_odds = learn_log_odds(st.log_odds, params)
            st.scaffolded_right += 1
            st.mastered = was or self.is_mastered(st, evidence.requires)
        else:  # against: a wrong first answer, a give-up, or a hint before answering
            if evidence.misconception:
                # The skill's own typical mistake: a knower seldom makes it, so BKT weighs it
                # with a small slip; mastery goes at once and must be re-earned by a longer
                # streak (docs/teaching.md).
                st.log_odds = observe_log_odds(st.log_odds, False, params,
                                               min(params.p_slip, MISCONCEPTION_SLIP))
                st.misconceptions += 1
                if evidence.mistake:
                    st.shown = st.shown | {evidence.mistake}
                    if not evidence.typo:
                        st.sure = st.sure | {evidence.mistake}
                st.mastered = False
            else:
                # A slip is weighed by the knowledge tracing: mastery stays while the
                # estimate does (a review miss takes it away: review_missed).
                st.log_odds = observe_log_odds(st.log_odds, False, params)
                st.mastered = was and st.log_odds >= logit(params.mastery_threshold)
                if not evidence.correct and not evidence.consistent:
                    # A wrong answer that no mistake of the skill explains: the student's
                    # wrong answers are no longer one wrong rule at work (still learning, or
                    # a slip, which the estimate weighs), so one misconception comes off
                    # the count (docs/teaching.md). A number a mistake of the skill gives,
                    # though the diagnosis did not name it (as near as a slip), is no sign
                    # that the rule is gone: the count stays.
                    st.misconceptions = max(0, st.misconceptions - 1)
            st.streak = 0
            if evidence.consistent is None:
                st.told = {}  # it may be any mistake: nothing stays ruled out
            else:
                # Only the mistakes that give this number are no longer ruled out: a typing
                # slip, or another mistake's number, is no evidence of them (issue 42 part 4).
                st.told = {m: n for m, n in st.told.items() if m not in evidence.consistent}
            if not evidence.scaffolded:
                st.scaffolded_right = 0  # the scaffolds come back
        if st.mastered and not was:
            st.misconceptions = 0  # shown gone: a new one counts from here
            st.shown = st.sure = frozenset()
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
        st.log_odds = min(st.log_odds, logit(self.params_for(skill).p_init))
        st.streak = 0
        st.told = {}
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
        """The states as the progress store keeps them, one row per skill; :attr:`said` in
        the evidence of the :data:`SAID_SKILL` row (a fresh one if it was never asked)."""
        rows = {name: st.to_dict() for name, st in self.states.items()}
        if self.said:
            row = rows.get(SAID_SKILL) or SkillState(
                SAID_SKILL, logit(self.params_for(SAID_SKILL).p_init)).to_dict()
            extra = _evidence(row["evidence"])
            extra["said"] = sorted(self.said)
            rows[SAID_SKILL] = {**row, "evidence": json.dumps(extra, separators=(",", ":"))}
        return rows

    @classmethod
    def from_dict(
        cls, data: Mapping[str, Mapping[str, StateValue]], params: Params | None = None
    ) -> Mastery:
        """A saved mastery (:meth:`to_dict`); a fresh row that only carried :attr:`said`
        adds no state (nothing was asked of that skill)."""
        states, said = {}, frozenset[str]()
        for name, row in data.items():
            st = SkillState.from_dict(row)
            notes = _evidence(row.get("evidence", "")).get("said")
            if isinstance(notes, list) and notes:
                said |= frozenset(map(str, notes))
                if st.fresh:
                    continue
            states[name] = st
        return cls(params=params or default_params(), states=states, said=said)
