"""When a lesson ends and what the student is told then (docs/rules.md §4: a lesson practises its
target skills until they are mastered).

A lesson with target skills goes on after its match's rounds until every target is mastered,
or until it reaches a cap from the lesson file: questions on its targets, or minutes. Free
play (no targets) ends with its match. :class:`LessonSummary` is what the student sees at the
end: each target with its right first answers of the questions asked in this lesson, mastered
or not, and what to practise next.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from tutor.i18n import N_, gettext
from tutor.teaching.diagnosis import MISTAKE_NAMES, mistake_skill

__all__ = ["DEFAULT_MAX_MINUTES", "DEFAULT_MAX_QUESTIONS", "LESSON_ROUND_LIMIT", "EndReason",
           "LessonSummary", "SkillSummary", "StudentTally", "end_reason"]

DEFAULT_MAX_QUESTIONS = 60
"""A lesson's default cap: the questions on its target skills one student answers, per target
skill (a lesson with two targets ends after 120 at most: each target gets the practice a
one-target lesson gives it). 60 since mastery needs 5 (now 7) right first answers in a row
(:data:`tutor.teaching.mastery.STREAK_TO_MASTER`); measured with 30 simulated students, seed 1: a
slow
learner (``bkt:0.1,0.05,0.1,0.2``) masters 05-squares, 06-doubles and 07-all-power 60% of the
time with a streak of 4 and a cap of 40, 73–80% with a cap of 60 (with a streak of 3 and a
cap of 40, 04-times: 98%, 01-other-end: 90%, 50 students); with 7 in a row, 50 students:
80–100% (docs/teaching.md); a perfect one stops at the lesson's rounds."""
DEFAULT_MAX_MINUTES = 40.0
"""A lesson's default cap in minutes (students were seen to answer about one question a
minute: the question cap comes first for most)."""
LESSON_ROUND_LIMIT = 30
"""Rounds a lesson plays at most, whatever its caps: a lesson whose targets its game never
asks (``subtract`` in Leonard) still ends."""

EndReason = Literal["mastered", "questions", "minutes", "rounds", "match"]
"""Why a lesson ended: every target mastered; a cap (questions, minutes, the round limit); or
free play's match over."""

def end_reason(students: Sequence[tuple[bool, int]], targets: int, *, minutes: float,
               rounds: int, max_questions: int | None,
               max_minutes: float | None) -> EndReason | None:
    """Why a lesson with ``targets`` target skills is over, or None (it goes on), once its
    first match's rounds are played: ``students`` gives each student's (every target
    mastered, questions on the targets in this lesson). Every student has mastered every
    target; or each student still learning has reached the question cap (``max_questions``
    per target); or ``max_minutes`` have passed; or :data:`LESSON_ROUND_LIMIT` rounds. The
    one rule the play page ends a lesson by (:meth:`tutor.session.session.Session.lesson_over`)
    and the teacher's live view reads a student's lesson as finished by
    (:mod:`tutor.classroom.live`).

    >>> end_reason([(True, 9)], 1, minutes=3, rounds=2, max_questions=60, max_minutes=40)
    'mastered'
    >>> end_reason([(False, 60)], 1, minutes=3, rounds=2, max_questions=60, max_minutes=40)
    'questions'
    >>> end_reason([(False, 59)], 1, minutes=3, rounds=2, max_questions=60, max_minutes=40)
    """
    learning = [questions for mastered, questions in students if not mastered]
    if not learning:
        return "mastered"
    if max_questions is not None and all(q >= max_questions * targets for q in learning):
        return "questions"
    if max_minutes is not None and minutes >= max_minutes:
        return "minutes"
    if rounds >= LESSON_ROUND_LIMIT:
        return "rounds"
    return None


NEXT_STEPS: dict[str, str] = {
    "mastered": N_("Mastered: go on to the next lesson."),
    "mistake": N_("Practise it again in this lesson; watch for: {mistake}."),
    "again": N_("Practise it again in this lesson."),
    "unasked": N_("Not asked yet: play this lesson again."),
}


@dataclass(frozen=True)
class SkillSummary:
    """One skill at the lesson's end (a target) or the match's end (a skill asked).

    Not :class:`tutor.teaching.counts.SkillCounts`: its questions are this lesson's or this
    match's only (a :class:`StudentTally`'s), the mastery beside them the student's, and it
    says what to practise next."""

    skill: str
    name: str
    """The skill's name in the summary's language."""
    asked: int
    """Questions on it in this lesson, or this match (each counted once, at its first answer)."""
    first_try_right: int
    """Of those, right at the first answer with no hint before it."""
    mastered: bool
    p_known: float
    mistake: str | None = None
    """The named mistake (:data:`tutor.teaching.diagnosis.CATALOG` id) seen most in this lesson."""
    next_step: str = ""
    """What to practise next, in the summary's language."""


@dataclass(frozen=True)
class LessonSummary:
    """A lesson's end, for one student."""

    lesson: str
    student: str
    lang: str
    reason: EndReason | None
    """Why it ended (None: it goes on)."""
    skills: tuple[SkillSummary, ...]
    questions: int
    """Questions on the target skills in this lesson."""
    rounds: int
    minutes: float

    @property
    def all_mastered(self) -> bool:
        return bool(self.skills) and all(s.mastered for s in self.skills)

    @property
    def practise_next(self) -> tuple[str, ...]:
        """The target skills still to practise, least known first."""
        return tuple(s.skill for s in sorted(self.skills, key=lambda s: s.p_known)
                     if not s.mastered)


class StudentTally:
    """One student's questions in this lesson (or this match), per skill: asked, right at the
    first answer, and the named mistakes their wrong first answers showed (the session's
    :class:`tutor.session.lesson_tally.LessonTally` keeps one per student)."""

    def __init__(self) -> None:
        self.asked: Counter[str] = Counter()
        self.first_try_right: Counter[str] = Counter()
        self.mistakes: dict[str, Counter[str]] = {}
        self.unjudged: Counter[str] = Counter()
        """Questions answered that are no evidence because their deal was played before or
        their answer was revealed before (issue 51): not asked nor right, but they took the
        lesson's time, so they count toward its question cap (:meth:`questions`)."""

    def add_unjudged(self, skill: str) -> None:
        self.unjudged[skill] += 1

    def add(self, skill: str, right: bool, mistake: str | None = None) -> None:
        self.asked[skill] += 1
        self.first_try_right[skill] += int(right)
        if mistake is not None and not right:
            # under the skill the mistake belongs to, whichever skill the question counted
            # for (a ×1 play counts for T; "added instead of multiplying" is multiplying's)
            home = (mistake_skill(mistake) if mistake in MISTAKE_NAMES else None) or skill
            self.mistakes.setdefault(home, Counter())[mistake] += 1

    def questions(self, skills: frozenset[str]) -> int:
        """Questions on ``skills`` answered in the lesson, evidence or not."""
        return sum(self.asked[s] + self.unjudged[s] for s in skills)

    def mistake(self, skill: str) -> str | None:
        seen = self.mistakes.get(skill)
        return seen.most_common(1)[0][0] if seen else None


def next_step(mastered: bool, asked: int, mistake: str | None, lang: str) -> str:
    """What to practise next for one target skill, in ``lang``."""
    if mastered:
        return gettext(NEXT_STEPS["mastered"], lang)
    if not asked:
        return gettext(NEXT_STEPS["unasked"], lang)
    if mistake is not None:
        name = gettext(MISTAKE_NAMES.get(mistake, mistake), lang)
        return gettext(NEXT_STEPS["mistake"], lang).format(mistake=name)
    return gettext(NEXT_STEPS["again"], lang)
