"""The lesson's tally: what a session counts of its students' answers, and what it makes of
the counts: each student's mastery and arithmetic, the reviews due when a lesson opens, the
lesson's and the match's tallies, why the lesson ends (:meth:`LessonCounts.lesson_over`) and
how it went (:meth:`LessonCounts.lesson_summary`).

:class:`LessonCounts` is the part of :class:`tutor.session.session.Session` that counts; the
session sets the attributes it declares and calls :meth:`LessonCounts._tally_evidence` at each
question's first answer. It never moves the game.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import TYPE_CHECKING

from tutor.course.lesson_end import (
    EndReason,
    LessonSummary,
    LessonTally,
    SkillSummary,
    end_reason,
    next_step,
)
from tutor.course.lessons import lesson_params, list_lessons
from tutor.i18n import translator
from tutor.session.snapshot import StudentAnswers
from tutor.teaching.evidence import REPLAYED, SHOWN
from tutor.teaching.mastery import SKILL_NAMES, SKILLS, Mastery, Params
from tutor.teaching.replay import reviews_due

if TYPE_CHECKING:
    from engine.match import Match
    from tutor.session.saving import Recorder
    from tutor.storage.progress_store import ProgressStore
    from tutor.teaching.asking import Asker, Pending
    from tutor.teaching.practice import Plan
    from tutor.teaching.review import Due

__all__ = ["LessonCounts"]


class LessonCounts:
    """A session's counts of its lesson (see the module's docstring)."""

    # set by the session
    lang: str
    lesson: str
    student: str
    students: dict[int, str]
    humans: tuple[int, ...]
    params: Params
    recorder: Recorder | None
    store: ProgressStore | None
    clock: Callable[[], datetime]
    match: Match
    match_number: int
    plan: Plan
    asker: Asker
    max_questions: int | None
    max_minutes: float | None
    # kept here
    masteries: dict[str, Mastery]
    counted_from: dict[str, tuple[int, int]]
    """Each student's (asked, first-try right) when this session loaded their mastery: the
    counts since are this session's (:meth:`arithmetic`)."""
    _next_lessons: dict[str, tuple[str, str] | None]
    """:meth:`next_lesson` by language."""
    _tallies: dict[str, LessonTally]
    _match_tallies: dict[str, LessonTally]
    """Each student's questions in this match (the match end's answers)."""
    _lesson_started: datetime
    _lesson_first: int
    _lesson_rounds: int

    def _t(self, message: str) -> str:
        return translator(self.lang)(message)

    def reviews_due(self, seat: int | None = None) -> list[Due]:
        """What ``seat``'s student (default: the first human's) has due for review now, by
        the session's clock (:class:`tutor.teaching.review.Due` items; none without a store)."""
        if self.store is None:
            return []
        # lazy: `import tutor` loads no store, no sqlite3 (test_loading_a_lesson_loads_no_store)
        from tutor.storage.store import StoreBusyError

        name = self.students[seat] if seat is not None else (
            self.students[self.humans[0]] if self.humans else self.student)
        try:
            attempts = self.store.attempts(name)
        except StoreBusyError:
            return []  # the file is busy: review waits for the next lesson
        return reviews_due(attempts, self.clock(), lesson_params())

    def _mix_in_reviews(self) -> None:
        """Review (tutor.teaching.review): a lesson opened when reviews are due starts with review
        items for them (each due skill's, as drill positions)."""
        due = {seat: [d.skill for d in self.reviews_due(seat)] for seat in self.students}
        self.asker.review(due, f"m{self.match_number}-")

    def _mastery(self, name: str) -> Mastery:
        if name not in self.masteries:
            def read(saved: Mastery) -> None:  # read late (the store was down): its counts
                asked, right = _counts(saved)   # were not this session's
                before = self.counted_from[name]
                self.counted_from[name] = (before[0] + asked, before[1] + right)

            self.masteries[name] = (self.recorder.load_mastery(name, self.params, read)
                                    if self.recorder is not None else Mastery(self.params))
            self.counted_from[name] = _counts(self.masteries[name])
        return self.masteries[name]

    def arithmetic(self, student: str) -> tuple[int, int]:
        """``student``'s questions in this session: (right at the first try, asked). A
        question counts once, by its first answer (a hint before it makes it wrong); the
        counts are the mastery's, less what it held when this session loaded it."""
        asked, right = _counts(self._mastery(student))
        asked0, right0 = self.counted_from[student]
        return right - right0, asked - asked0

    @property
    def mastery(self) -> Mastery:
        """The mastery of the first human seat's student (or of ``student``)."""
        return self._mastery(self.students[self.humans[0]] if self.humans else self.student)

    def mastery_of(self, seat: int) -> Mastery:
        return self._mastery(self.students[seat])

    # --- the lesson -------------------------------------------------------------------------

    def _start_lesson(self, first: int | None = None) -> None:
        """A lesson starts (the session, or a new match the student chose): its tally, its
        clock, and its first match (``first``, else the next), whose rounds it plays at
        least."""
        self._tallies = {}
        self._lesson_started = self.clock()
        self._lesson_first = self.match_number + 1 if first is None else first
        self._lesson_rounds = 0
        """Rounds of the lesson's matches before the current one."""

    def _tally(self, seat: int, skill: str, right: bool, mistake: str | None = None) -> None:
        name = self.students.get(seat, self.student)
        self._tallies.setdefault(name, LessonTally()).add(skill, right, mistake)
        self._match_tallies.setdefault(name, LessonTally()).add(skill, right, mistake)

    @property
    def lesson_minutes(self) -> float:
        """Minutes since the lesson started, by the session's ``clock``."""
        return max(0.0, (self.clock() - self._lesson_started).total_seconds()) / 60

    @property
    def lesson_rounds(self) -> int:
        """Rounds played in this lesson so far (the current one included)."""
        return self._lesson_rounds + len(self.match.rounds)

    def lesson_questions(self, seat: int | None = None) -> int:
        """Questions on the lesson's targets (free play: its focus) answered by ``seat``'s
        student (default: the first human) in this lesson."""
        tally = self._tallies.get(self.student_of(seat))
        return tally.questions(self.plan.focus) if tally is not None else 0

    def student_of(self, seat: int | None) -> str:
        if seat is None:
            seat = self.humans[0] if self.humans else None
        return self.students.get(seat, self.student) if seat is not None else self.student

    def _all_mastered(self, name: str) -> bool:
        mastery = self._mastery(name)
        return all(mastery.state(skill).mastered for skill in self.plan.targets)

    def _end_reason(self) -> EndReason | None:
        """Why the lesson ends once the round is over, or None (it goes on). Free play ends
        with its match; a lesson plays its first match's rounds at least, then ends when
        every student has mastered every target, or at a cap (docs/rules.md §4)."""
        if not self.plan.targets:
            return "match" if self.match.over else None
        if self.match_number == self._lesson_first and not self.match.over:
            return None
        names = list(self.students.values()) or [self.student]
        return end_reason(
            [(self._all_mastered(n), self._tallies[n].questions(self.plan.targets)
              if n in self._tallies else 0) for n in names],
            len(self.plan.targets), minutes=self.lesson_minutes, rounds=self.lesson_rounds,
            max_questions=self.max_questions, max_minutes=self.max_minutes)

    @property
    def lesson_over(self) -> bool:
        """The lesson is over: its round is over, no question waits, and (a lesson with
        targets) every target is mastered or a cap is reached, after the first match's
        rounds at least; (free play) the match is over. :meth:`lesson_summary` says how it
        went. Until then :meth:`new_round` goes on, with a new match when one is over."""
        if self.asker.pending is not None or not self.match.current.over:
            return False
        return self._end_reason() is not None

    def lesson_summary(self, seat: int | None = None) -> LessonSummary:
        """How the lesson went for ``seat``'s student (default: the first human): each target
        skill (free play: the skills its game practises) with the questions asked and right
        at the first answer in this lesson, mastered or not, and what to practise next.
        ``reason`` is why it ended (None while it goes on)."""
        name = self.student_of(seat)
        mastery = self._mastery(name)
        tally = self._tallies.get(name, LessonTally())
        skills = []
        for skill in SKILLS:
            if skill not in self.plan.focus:
                continue
            st = mastery.state(skill)
            mistake = tally.mistake(skill)
            skills.append(SkillSummary(
                skill=skill, name=self._t(SKILL_NAMES[skill]), asked=tally.asked[skill],
                right=tally.right[skill], mastered=st.mastered, p_known=st.p_known,
                mistake=mistake,
                next_step=next_step(st.mastered, tally.asked[skill], mistake, self.lang)))
        return LessonSummary(
            lesson=self.lesson, student=name, lang=self.lang,
            reason=self._end_reason() if self.lesson_over else None, skills=tuple(skills),
            questions=tally.questions(self.plan.focus), rounds=self.lesson_rounds,
            minutes=round(self.lesson_minutes, 2))

    # --- the match's end --------------------------------------------------------------------

    def match_answers(self, seat: int | None = None) -> StudentAnswers:
        """``seat``'s student's answers in this match (default: the first human's): each skill
        asked, with the questions asked and right at the first answer (docs/rules.md §4: a
        question counts once, at its first answer; a reveal before any answer is wrong)."""
        name = self.student_of(seat)
        mastery = self._mastery(name)
        tally = self._match_tallies.get(name, LessonTally())
        skills = []
        for skill in SKILLS:
            if not tally.asked[skill]:
                continue
            st = mastery.state(skill)
            skills.append(SkillSummary(
                skill=skill, name=self._t(SKILL_NAMES[skill]), asked=tally.asked[skill],
                right=tally.right[skill], mastered=st.mastered, p_known=st.p_known,
                mistake=tally.mistake(skill)))
        return StudentAnswers(student=name, skills=tuple(skills))

    def next_lesson(self) -> tuple[str, str] | None:
        """The lesson after this one in the lessons page's order (by id, of
        :func:`tutor.course.lessons.list_lessons`): its id and its title in the session's language;
        None after the last lesson. Read once per language."""
        if self.lang not in self._next_lessons:
            # the lessons page's order: by id (the shipped lessons are numbered 01-…)
            lessons = sorted(list_lessons(self.lang), key=lambda lesson: lesson.id)
            ids = [lesson.id for lesson in lessons]
            after = ids.index(self.lesson) + 1 if self.lesson in ids else len(ids)
            self._next_lessons[self.lang] = (
                (lessons[after].id, lessons[after].text("title", self.lang))
                if after < len(lessons) else None)
        return self._next_lessons[self.lang]


    def _tally_evidence(self, p: Pending, mistake: str | None) -> None:
        """Count a question's first answer in the lesson's and the match's tallies as
        :mod:`tutor.teaching.counts` counts it: once, under the skill its evidence is about, right
        only when right with no hint before it; a repeated number (no evidence) not at
        all; a deal played before or an answer revealed before (no evidence) only toward the
        lesson's question cap."""
        ev = p.evidence
        if ev is not None and ev.why in (REPLAYED, SHOWN):
            name = self.students.get(p.seat, self.student)
            self._tallies.setdefault(name, LessonTally()).add_unjudged(ev.skill)
            return
        if ev is None or ev.kind == "none":
            return
        right = ev.correct and not ev.hints
        self._tally(p.seat, ev.skill, right, None if right else mistake)



def _counts(mastery: Mastery) -> tuple[int, int]:
    """(asked, right at the first try) over all of ``mastery``'s skills."""
    states = mastery.states.values()
    return sum(st.asked for st in states), sum(st.first_try_right for st in states)

