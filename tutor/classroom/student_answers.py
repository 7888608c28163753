"""Each student's answers, as data: the questions a student was asked, in the order they were
asked, each with its skill, the right answer, what the student typed at each try with the named
mistake it showed, the hints they saw, whether the answer was shown, and the time it took.

One function (:func:`student_answers`) builds the list from the stored attempts, for the teacher
page (a student's name opens their answers) and for the lessons page (the student's own), so
both show the same list. It reads :class:`~tutor.storage.records.Attempt` rows only (no store).

A question is a run of attempts at one step of one problem of one session (in attempt order)
that ends with a right answer or with the answer shown; hint rows are part of it, and a run
that has not ended (the session was left) is a question not finished. The runs and their hints
are :mod:`tutor.teaching.counts`' (:func:`~tutor.teaching.counts.question_runs`,
:func:`~tutor.teaching.counts.hints_pressed`, :func:`~tutor.teaching.counts.hints_before_answer`),
so a student's
answers list the questions the class table counts.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from tutor.i18n import N_
from tutor.storage.records import KC_SEPARATOR, Attempt, Outcome
from tutor.teaching.counts import (
    first_answer,
    hints_before_answer,
    hints_pressed,
    question_runs,
    right_first_try,
)
from tutor.teaching.diagnosis import CATALOG
from tutor.teaching.replay import first_answer_evidence

__all__ = ["STEP_NAMES", "AnsweredQuestion", "Try", "answers_by_student", "student_answers"]

STEP_NAMES: dict[str, str] = {
    "T": N_("the other end (T)"),
    "gain": N_("the points won"),
    "loss": N_("the points lost"),
    "score": N_("the new score"),
    "total": N_("the round's total"),
    "collect": N_("the points collected"),
    "tens": N_("the points in tens"),
}
"""What each step of a question asks for, in a few words; translate with
``tutor.i18n.gettext(STEP_NAMES[step], lang)`` (an unknown step shows as itself)."""

_ENDS = (Outcome.CORRECT, Outcome.GIVEUP)
_PREFIX = re.compile(r"^(?:m\d+r\d+(?:t\d+)?-|fix\d+-)(?:drill\d+-\d+-)?")
"""How the tutor numbers a question's problem: match, round, placement, or a remediation's
drill (tutor.teaching.asking)."""


@dataclass(frozen=True)
class Try:
    """One answer the student handed in."""

    input: str
    """What the student typed, as typed (student text: escape it to show it)."""
    answered: int | None
    """The number it was read as."""
    correct: bool
    mistake: str | None
    """The id of the named mistake it showed (:data:`tutor.classroom.overview.MISTAKE_NAMES`), or
    None
    (right, or wrong without a name)."""


@dataclass(frozen=True)
class AnsweredQuestion:
    """One question a student was asked, with everything they did at it.

    Not :class:`tutor.teaching.counts.CountedQuestion`: the answer list shows a question under
    the skill it asked, the counts count it under the skill its first answer is evidence for
    (a named mistake of another skill moves it there)."""

    student: str
    session: str
    lesson: str
    problem: str
    step: str
    skill: str
    """The question's skill (a wrong answer is recorded under the skill its mistake concerns;
    this is the skill the question asked)."""
    expected: int | None
    tries: tuple[Try, ...]
    hints: int
    """Times the student pressed "Hint" and saw a rung (the rung a wrong answer gets as
    feedback is no hint; the last rung asked for again counts once)."""
    hints_before_answer: int
    """Of them, the presses before the first answer (or before the answer was shown)."""
    revealed: bool
    """The student pressed "Show me": the answer was shown."""
    finished: bool
    """Answered right or shown; False if the student left it open."""
    seconds: float
    """From the question shown to its last attempt (a hint, an answer or the reveal)."""
    time: str
    """When the question's first attempt was stored (ISO 8601)."""
    right_first: bool = False
    """Right at the first try: the first answer right, without a hint before it
    (:func:`tutor.teaching.counts.right_first_try`, as the class table counts it)."""
    counted: bool = True
    """Its first answer is evidence, so the class table counts it as a question (False: the
    same number asked twice in one play, or left after hints only: docs/rules.md §4)."""

    @property
    def tile(self) -> str | None:
        """The tile the question is about, when its problem id names one (a power play's
        questions: ``m1r2t5-x/4``), else None."""
        rest = _PREFIX.sub("", self.problem, count=1)
        return rest if rest != self.problem and "/" in rest and len(rest) <= 9 else None

    @property
    def step_kind(self) -> str:
        """The step without its notes (``gain[blanks]`` is a ``gain``): a key of
        :data:`STEP_NAMES` when the tutor knows it."""
        return self.step.split("[", 1)[0]

    @property
    def mistakes(self) -> tuple[str, ...]:
        """The named mistakes of its wrong tries, in order, each once."""
        return tuple(dict.fromkeys(t.mistake for t in self.tries if t.mistake is not None))


def _question(rows: list[Attempt], named: frozenset[str],
              judged: frozenset[Attempt]) -> AnsweredQuestion:
    first = rows[0]
    # A wrong answer's row carries the skill of its mistake: the question's own skill is on
    # its hint, right and reveal rows; a question with wrong answers only keeps the first's.
    kc = next((a.kc for a in rows if a.outcome is not Outcome.INCORRECT), first.kc)
    tries = tuple(Try(a.input, a.answered, a.outcome is Outcome.CORRECT,
                      a.feedback if a.outcome is Outcome.INCORRECT and a.feedback in named
                      else None)
                  for a in rows if a.outcome in (Outcome.CORRECT, Outcome.INCORRECT))
    expected = next((a.expected for a in rows if a.expected is not None), None)
    return AnsweredQuestion(
        student=first.student, session=first.session, lesson=first.lesson,
        problem=first.problem, step=first.step, skill=kc.split(KC_SEPARATOR)[0],
        expected=expected, tries=tries, hints=hints_pressed(rows),
        hints_before_answer=hints_before_answer(rows),
        revealed=any(a.outcome is Outcome.GIVEUP for a in rows),
        finished=rows[-1].outcome in _ENDS, seconds=max(a.duration for a in rows),
        time=first.time, right_first=right_first_try(rows),
        counted=first_answer(rows) in judged)


def student_answers(attempts: Iterable[Attempt]) -> list[AnsweredQuestion]:
    """Every question in ``attempts`` (one student's, or a class's), in the order they were
    asked (by the time of their first attempt; stored order on a tie)."""
    rows = list(attempts)
    named = frozenset(r.id for r in CATALOG)
    judged = frozenset(a for a, ev in first_answer_evidence(rows) if ev.kind != "none")
    return [_question(run, named, judged) for run in question_runs(rows)]


def answers_by_student(attempts: Iterable[Attempt]) -> dict[str, list[AnsweredQuestion]]:
    """:func:`student_answers` of each student, by name (names sorted)."""
    out: dict[str, list[AnsweredQuestion]] = {}
    for q in student_answers(attempts):
        out.setdefault(q.student, []).append(q)
    return dict(sorted(out.items()))
