"""One definition of what a student did, counted from the stored attempts: questions,
attempts, hints, answers shown, right at the first try and mastery (issue 33, part 3).

The play page, the lessons page, the teacher page (its class table and its CSV) and
``python -m tutor report`` all read these numbers, so one student shows the same numbers
everywhere (the play page reads the live :class:`~tutor.teaching.mastery.Mastery`, which the same
evidence rule keeps equal to the replayed one: tests/tutor/test_counts.py).

- A **question** is a run of attempts at one step of one problem of one session (in attempt
  order), ended by a right answer or by the answer shown (:func:`question_runs`). It
  *counts* (is asked) when its first answer — or showing the answer before any — is evidence
  for a skill (docs/rules.md §4: the same number asked twice is asked once, so a repeated T is
  no question of its own). Each counted question counts once, under the skill its first
  answer was judged about (:func:`tutor.teaching.evidence.judge`: a named mistake of another skill,
  or a trivial item, moves it).
- **Attempts**: the answers handed in (right or wrong; working, a hint or "Show me" is none).
- **Hints**: the student's presses of "Hint" at the question, each showing a rung of the hint
  ladder — pressing "Hint" again at the last rung shows nothing new and adds nothing
  (:func:`hints_pressed`). The rung a wrong answer gets as feedback is no hint: wrong, then
  right, with no press, is 0 hints (issue 43).
- **Shown the answer**: the student pressed "Show me" (a GIVEUP row).
- **Right at the first try**: the first answer right with no hint before it (docs/rules.md §4;
  a scaffolded right answer is right at the first try, though it is practice, not proof).
- **Mastery**: the knowledge-tracing estimate and the mastered mark of the mastery replayed
  from the same attempts (:func:`tutor.teaching.replay.rebuild_mastery`), with the evidence it
  rests on: the questions, the right ones and the streak (:func:`evidence_text`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from tutor.i18n import N_, ngettext, translator
from tutor.storage.records import KC_SEPARATOR, Attempt, Outcome
from tutor.teaching.diagnosis import MISTAKE_NAMES
from tutor.teaching.mastery import SKILLS, Mastery, Params, SkillState, logit
from tutor.teaching.replay import first_answer_evidence, rebuild_mastery
from tutor.teaching.runs import (
    first_answer,
    hints_before_answer,
    hints_pressed,
    question_runs,
    right_first_try,
    rungs_seen,
)

__all__ = ["MASTERY_LEGEND", "CountedQuestion", "SkillCounts", "StudentCounts",
           "counts_by_student", "evidence_text", "first_answer", "hints_before_answer",
           "hints_pressed", "question_runs", "right_first_try", "rungs_seen", "student_counts"]

MASTERY_LEGEND = N_("Mastery counts only first answers given with no hint and no help: "
                    "hints and shown answers never raise it. Each skill has its own chances of "
                    "a lucky guess, a slip and learning, so the same answers give different "
                    "percentages for different skills.")
"""What a page says once under its percentages (issue 43: "1 of 1 right" shows 52 % for
adding and 87 % for finding T; 100 % beside many hints)."""

_ANSWERS = (Outcome.CORRECT, Outcome.INCORRECT)
_ENDS = (Outcome.CORRECT, Outcome.GIVEUP)


@dataclass(frozen=True)
class CountedQuestion:
    """One question, as the counts count it: under the skill its first answer is evidence for.

    Not :class:`tutor.classroom.student_answers.AnsweredQuestion`, which lists the same
    question under the skill it asked, with every try: a named mistake of another skill moves
    the count (:func:`tutor.teaching.evidence.judge`), not the question."""

    student: str
    session: str
    lesson: str
    problem: str
    step: str
    skill: str
    """The skill it counts under: its first answer's evidence skill, else (not counted) the
    skill the question asked."""
    counted: bool
    """Its first answer is evidence for :attr:`skill` (it is one of the questions asked)."""
    right_first: bool
    attempts: int
    hints: int
    hints_before_answer: int
    revealed: bool
    finished: bool


@dataclass(frozen=True)
class SkillCounts:
    """One student's mastery of one skill and the first answers it rests on: the play page's
    skills panel (from the session's live mastery: :attr:`tutor.session.snapshot.Snapshot.skills`),
    the lessons page and the teacher's table and report (from the stored attempts:
    :attr:`StudentCounts.skills`) show the same numbers.

    Not :class:`tutor.teaching.mastery.SkillState`, the mastery's own changing state (what the
    progress store keeps); nor :class:`tutor.course.lesson_end.SkillSummary`, whose questions
    are one lesson's or one match's only."""

    skill: str
    asked: int
    """Questions on it (each counted once, at its first answer)."""
    first_try_right: int
    """Of those, right at the first answer with no hint before it."""
    p_known: float
    mastered: bool
    streak: int = 0
    """Unscaffolded, unhinted right first answers in a row (mastery needs
    :data:`tutor.teaching.mastery.STREAK_TO_MASTER`)."""
    mean_seconds: float = 0.0
    """Average time to the first answer (:attr:`tutor.teaching.mastery.SkillState.mean_seconds`)."""
    ruled_out: tuple[str, ...] = ()
    """The catalogue mistakes the right answers have ruled out
    (:meth:`tutor.teaching.mastery.Mastery.ruled_out`)."""
    to_master: int | None = None
    """Right answers in a row still missing for mastery (0: mastered;
    :meth:`tutor.teaching.mastery.Mastery.answers_to_master`)."""

    @property
    def accuracy(self) -> float | None:
        """Right at the first try / asked (None before any question)."""
        return self.first_try_right / self.asked if self.asked else None

    def evidence(self, lang: str) -> str:
        """What the mastery rests on, in words: ``0 of 18 right``, ``3 in a row``, what is
        still missing and the mistakes ruled out."""
        return evidence_text(self.asked, self.first_try_right, self.streak, lang,
                             self.ruled_out, self.to_master)


@dataclass(frozen=True)
class StudentCounts:
    """One student's numbers, counted from their stored attempts, in total and per skill."""

    student: str
    questions: tuple[CountedQuestion, ...]
    skills: tuple[SkillCounts, ...]
    """Each skill with a question (counted or not), in :data:`tutor.teaching.mastery.SKILLS`
    order."""
    mastery: Mastery = field(compare=False, repr=False, default_factory=Mastery)
    """The replayed mastery (:func:`tutor.teaching.replay.rebuild_mastery`)."""

    @property
    def asked(self) -> int:
        """Questions asked (each counted question once)."""
        return sum(q.counted for q in self.questions)

    @property
    def first_try_right(self) -> int:
        return sum(q.right_first for q in self.questions)

    @property
    def attempts(self) -> int:
        return sum(q.attempts for q in self.questions)

    @property
    def hints(self) -> int:
        return sum(q.hints for q in self.questions)

    @property
    def revealed(self) -> int:
        return sum(q.revealed for q in self.questions)

    @property
    def accuracy(self) -> float | None:
        return self.first_try_right / self.asked if self.asked else None

    def skill(self, skill: str) -> SkillCounts | None:
        return next((s for s in self.skills if s.skill == skill), None)

    def for_skill(self, skill: str) -> StudentCounts:
        """The questions counted under one skill only (the mastery stays the student's): what
        the student did at them is its :attr:`attempts`, :attr:`hints` and :attr:`revealed`."""
        return _counts(self.student, [q for q in self.questions if q.skill == skill],
                       self.mastery)

    def p_known(self, skill: str, params: Params | None = None) -> tuple[float, bool]:
        """``skill``'s mastery: (chance known, mastered); a skill never asked starts at the
        ``p_init`` of ``params`` (the lesson's: the play page shows the same)."""
        st = self.mastery.states.get(skill)
        if st is not None:
            return st.p_known, st.mastered
        base = params if params is not None else self.mastery.params
        return base.for_skill(skill).p_init, False

    def for_lesson(self, lesson: str) -> StudentCounts:
        """The questions of one lesson only (the mastery stays the student's)."""
        return _counts(self.student, [q for q in self.questions if q.lesson == lesson],
                       self.mastery)


def _own_skill(rows: Sequence[Attempt]) -> str:
    # A wrong answer's row carries the skill of its mistake: the question's own skill is on
    # its hint, right and reveal rows (as tutor.classroom.student_answers reads it).
    kc = next((a.kc for a in rows if a.outcome is not Outcome.INCORRECT), rows[0].kc)
    return kc.split(KC_SEPARATOR)[0]


def _counts(student: str, questions: Sequence[CountedQuestion],
            mastery: Mastery) -> StudentCounts:
    skills = []
    for skill in SKILLS:
        mine = [q for q in questions if q.skill == skill]
        if not mine:
            continue
        st = mastery.states.get(skill)
        p_known = st.p_known if st is not None else mastery.params_for(skill).p_init
        fresh = SkillState(skill, logit(mastery.params_for(skill).p_init))
        skills.append(SkillCounts(
            skill=skill, asked=sum(q.counted for q in mine),
            first_try_right=sum(q.right_first for q in mine), p_known=p_known,
            mastered=st.mastered if st is not None else False,
            streak=st.streak if st is not None else 0,
            mean_seconds=st.mean_seconds if st is not None else 0.0,
            ruled_out=tuple(mastery.ruled_out(st)) if st is not None else (),
            to_master=mastery.answers_to_master(st if st is not None else fresh)))
    return StudentCounts(student, tuple(questions), tuple(skills), mastery)


def student_counts(attempts: Sequence[Attempt], params: Mapping[str, Params],
                   student: str | None = None) -> StudentCounts:
    """One student's counts from their attempts (``params``: the knowledge tracing of each
    lesson by id, as :func:`tutor.teaching.replay.rebuild_mastery` takes it)."""
    rows = list(attempts)
    mastery = rebuild_mastery(rows, params)
    judged: dict[Attempt, list[str]] = {}
    for a, ev in first_answer_evidence(rows):
        if ev.kind != "none":
            judged.setdefault(a, []).append(ev.skill)
    questions = []
    for run in question_runs(rows):
        first = first_answer(run)
        skills = judged.get(first, []) if first is not None else []
        counted = bool(skills)
        questions.append(CountedQuestion(
            student=run[0].student, session=run[0].session, lesson=run[0].lesson,
            problem=run[0].problem, step=run[0].step,
            skill=skills[0] if counted else _own_skill(run), counted=counted,
            right_first=counted and right_first_try(run),
            attempts=sum(a.outcome in _ANSWERS for a in run), hints=hints_pressed(run),
            hints_before_answer=hints_before_answer(run),
            revealed=any(a.outcome is Outcome.GIVEUP for a in run),
            finished=run[-1].outcome in _ENDS))
    name = student if student is not None else (rows[0].student if rows else "")
    return _counts(name, questions, mastery)


def counts_by_student(attempts: Iterable[Attempt],
                      params: Mapping[str, Params]) -> dict[str, StudentCounts]:
    """:func:`student_counts` of each student in ``attempts``, by name (names sorted)."""
    by_student: dict[str, list[Attempt]] = {}
    for a in attempts:
        by_student.setdefault(a.student, []).append(a)
    return {name: student_counts(by_student[name], params, name)
            for name in sorted(by_student)}


def evidence_text(asked: int, right: int, streak: int, lang: str,
                  ruled_out: Sequence[str] = (), to_master: int | None = None) -> str:
    """The evidence beside a mastery, in ``lang``: ``0 of 18 right``, and ``3 in a row``
    while a streak of unscaffolded, unhinted right first answers goes on, what is still
    missing (``to_master``, :meth:`tutor.teaching.mastery.Mastery.answers_to_master`: ``needs
    4 more right in a row``; 0: mastered, and on what), after the catalogue mistakes its
    right answers have ruled out (issue 42: ``ruled out: added instead of multiplying, …``);
    ``not asked yet`` before any question. So 0 right of 18 never reads like 0 of 1, and 100 %
    beside many hints says it rests on first answers given with no help (issue 43).

    >>> evidence_text(18, 0, 0, "en"), evidence_text(5, 4, 3, "en")
    ('0 of 18 right', '4 of 5 right, 3 in a row')
    >>> evidence_text(9, 9, 7, "en", ["added_instead_of_multiplied", "stopped_at_t"])
    '9 of 9 right, 7 in a row; ruled out: added instead of multiplying, stopped at T'
    >>> evidence_text(0, 0, 0, "es")
    'sin preguntas aún'
    >>> evidence_text(3, 3, 3, "en", to_master=4)
    '3 of 3 right, 3 in a row; needs 4 more right in a row'
    """
    _ = translator(lang)
    if not asked:
        text = _("not asked yet")
        if to_master:
            text += "; " + ngettext("needs {n} right in a row", "needs {n} right in a row",
                                    to_master, lang).format(n=to_master)
        return text
    text = ngettext("{right} of {asked} right", "{right} of {asked} right", asked,
                    lang).format(right=right, asked=asked)
    if streak:
        text += ", " + ngettext("{n} in a row", "{n} in a row", streak, lang).format(n=streak)
    if ruled_out:
        names = ", ".join(_(MISTAKE_NAMES[m]) for m in ruled_out if m in MISTAKE_NAMES)
        text += "; " + _(N_("ruled out: {mistakes}")).format(mistakes=names)
    if to_master:
        text += "; " + ngettext("needs {n} more right in a row", "needs {n} more right in a row",
                                to_master, lang).format(n=to_master)
    elif to_master == 0:
        text += "; " + _("mastered on first answers right with no help")
    return text
