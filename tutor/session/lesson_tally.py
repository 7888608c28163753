"""The lesson's tally: what a session counts of its students' answers, and what it makes of
the counts: each student's mastery and questions right and asked, the lesson's and the
match's tallies, why the lesson ends (:meth:`LessonTally.end_reason`) and how it went
(:meth:`LessonTally.summary`).

:class:`LessonTally` is a part the :class:`tutor.session.session.Session` holds (its
``tally``): it is given what is fixed for the session when it is made (the lesson, the
mastery's parameters, the recorder, the clock, the caps) and, at each call, what changes
with the match (the students' names, the plan's skills, the match). The session calls
:meth:`LessonTally.count` at each question's first answer. It never moves the game.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from datetime import datetime
from typing import TYPE_CHECKING

from tutor.course.lesson_end import (
    EndReason,
    LessonSummary,
    SkillSummary,
    StudentTally,
    end_reason,
    next_step,
)
from tutor.course.lessons import list_lessons
from tutor.i18n import translator
from tutor.session.snapshot import StudentAnswers
from tutor.teaching.counts import SkillCounts
from tutor.teaching.evidence import REPLAYED, SHOWN, Evidence
from tutor.teaching.mastery import SKILL_NAMES, SKILLS, Mastery, Params

if TYPE_CHECKING:
    from engine.match import Match
    from tutor.session.saving import Recorder

__all__ = ["LessonTally"]


class LessonTally:
    """A session's tally of its lesson (see the module's docstring): the running numbers of
    this lesson and match, where :class:`tutor.teaching.counts.StudentCounts` counts a
    student's stored attempts again."""

    def __init__(self, *, lesson: str, params: Params, recorder: Recorder | None,
                 clock: Callable[[], datetime], max_questions: int | None,
                 max_minutes: float | None) -> None:
        self.lesson = lesson
        """The lesson's id."""
        self.params = params
        """The mastery's parameters of a student with no saved mastery."""
        self.recorder = recorder
        """Where each student's saved mastery is read from (None: nothing is saved)."""
        self.clock = clock
        self.max_questions = max_questions
        """A lesson's cap: questions on its targets per student (None: no such cap)."""
        self.max_minutes = max_minutes
        """A lesson's cap in minutes, read off ``clock`` (None: no such cap)."""
        self.masteries: dict[str, Mastery] = {}
        """Each student's mastery, by name, loaded once (:meth:`mastery`)."""
        self.counted_from: dict[str, tuple[int, int]] = {}
        """Each student's (asked, first-try right) when this session loaded their mastery: the
        counts since are this session's (:meth:`right_and_asked`)."""
        self._next_lessons: dict[str, tuple[str, str] | None] = {}
        """:meth:`next_lesson` by language."""
        self._tallies: dict[str, StudentTally] = {}
        self._match_tallies: dict[str, StudentTally] = {}
        """Each student's questions in this match (the match end's answers)."""
        self._started = datetime.min
        self._first = 1
        self._rounds_before = 0
        """Rounds of the lesson's matches before the current one."""
        self.start_lesson(first=1)  # the session's first match

    # --- each student's mastery -------------------------------------------------------------

    def mastery(self, name: str) -> Mastery:
        """``name``'s mastery: the saved one (read once, through the recorder), else new."""
        if name not in self.masteries:
            def read(saved: Mastery) -> None:  # read late (the store was down): its
                asked, right = _asked_and_right(saved)  # counts were not this session's
                before = self.counted_from[name]
                self.counted_from[name] = (before[0] + asked, before[1] + right)

            self.masteries[name] = (self.recorder.load_mastery(name, self.params, read)
                                    if self.recorder is not None else Mastery(self.params))
            self.counted_from[name] = _asked_and_right(self.masteries[name])
        return self.masteries[name]

    def right_and_asked(self, student: str) -> tuple[int, int]:
        """``student``'s questions in this session: (right at the first try, asked). A
        question counts once, by its first answer (a hint before it makes it wrong); the
        counts are the mastery's, less what it held when this session loaded it."""
        asked, right = _asked_and_right(self.mastery(student))
        asked0, right0 = self.counted_from[student]
        return right - right0, asked - asked0

    # --- the lesson -------------------------------------------------------------------------

    def start_lesson(self, first: int) -> None:
        """A lesson starts (the session, or a new match the student chose): its tally, its
        clock, and its first match (number ``first``), whose rounds it plays at least."""
        self._tallies = {}
        self._started = self.clock()
        self._first = first
        self._rounds_before = 0

    def start_match(self) -> None:
        """A match starts: its own tally starts again (the lesson's carries over)."""
        self._match_tallies = {}

    def match_played(self, rounds: int) -> None:
        """The lesson goes on past a match of ``rounds`` rounds (:meth:`rounds`)."""
        self._rounds_before += rounds

    def count(self, name: str, evidence: Evidence | None, mistake: str | None) -> None:
        """Count a question's first answer by ``name`` in the lesson's and the match's tallies
        as :mod:`tutor.teaching.counts` counts it: once, under the skill its ``evidence`` is
        about, right only when right with no hint before it; a repeated number (no evidence)
        not at all; a deal played before or an answer revealed before (no evidence) only
        toward the lesson's question cap."""
        ev = evidence
        if ev is not None and ev.why in (REPLAYED, SHOWN):
            self._tallies.setdefault(name, StudentTally()).add_unjudged(ev.skill)
            return
        if ev is None or ev.kind == "none":
            return
        right = ev.correct and not ev.hints
        wrong_by = None if right else mistake
        self._tallies.setdefault(name, StudentTally()).add(ev.skill, right, wrong_by)
        self._match_tallies.setdefault(name, StudentTally()).add(ev.skill, right, wrong_by)

    def student_tally(self, name: str) -> StudentTally:
        """``name``'s questions in this lesson (an empty tally before their first)."""
        return self._tallies.get(name, StudentTally())

    @property
    def minutes(self) -> float:
        """Minutes since the lesson started, by the session's ``clock``."""
        return max(0.0, (self.clock() - self._started).total_seconds()) / 60

    def rounds(self, match: Match) -> int:
        """Rounds played in this lesson so far, ``match``'s (the current one) included."""
        return self._rounds_before + len(match.rounds)

    def questions(self, name: str, skills: frozenset[str]) -> int:
        """Questions on ``skills`` answered by ``name`` in this lesson."""
        tally = self._tallies.get(name)
        return tally.questions(skills) if tally is not None else 0

    def end_reason(self, match: Match, number: int, targets: frozenset[str],
                   names: Iterable[str]) -> EndReason | None:
        """Why the lesson ends once the round of ``match`` (the session's ``number``-th) is
        over, or None (it goes on). Free play (no ``targets``) ends with its match; a lesson
        plays its first match's rounds at least, then ends when each of ``names`` has
        mastered every target, or at a cap (docs/rules.md §4)."""
        if not targets:
            return "match" if match.over else None
        if number == self._first and not match.over:
            return None
        return end_reason(
            [(self._all_mastered(n, targets), self.questions(n, targets)) for n in names],
            len(targets), minutes=self.minutes, rounds=self.rounds(match),
            max_questions=self.max_questions, max_minutes=self.max_minutes)

    def _all_mastered(self, name: str, targets: frozenset[str]) -> bool:
        mastery = self.mastery(name)
        return all(mastery.state(skill).mastered for skill in targets)

    def summary(self, name: str, focus: frozenset[str], lang: str, reason: EndReason | None,
                rounds: int) -> LessonSummary:
        """How the lesson went for ``name``: each skill of ``focus`` with the questions
        asked and right at the first answer in this lesson, mastered or not, and what to
        practise next, in ``lang``; ``reason``: why it ended (None while it goes on);
        ``rounds``: its rounds so far (:meth:`rounds`)."""
        t = translator(lang)
        mastery = self.mastery(name)
        tally = self.student_tally(name)
        skills = []
        for skill in SKILLS:
            if skill not in focus:
                continue
            st = mastery.state(skill)
            mistake = tally.mistake(skill)
            skills.append(SkillSummary(
                skill=skill, name=t(SKILL_NAMES[skill]), asked=tally.asked[skill],
                first_try_right=tally.first_try_right[skill], mastered=st.mastered,
                p_known=st.p_known, mistake=mistake,
                next_step=next_step(st.mastered, tally.asked[skill], mistake, lang)))
        return LessonSummary(
            lesson=self.lesson, student=name, lang=lang, reason=reason, skills=tuple(skills),
            questions=tally.questions(focus), rounds=rounds, minutes=round(self.minutes, 2))

    def skill_counts(self, name: str, focus: frozenset[str]) -> tuple[SkillCounts, ...]:
        """The skills to show for ``name``: those of ``focus`` (the lesson's targets; every
        skill in free play), and any other skill they have been asked about."""
        mastery = self.mastery(name)
        out = []
        for skill in SKILLS:
            st = mastery.state(skill)
            if skill not in focus and not st.asked:
                continue
            out.append(SkillCounts(
                skill=skill, asked=st.asked, first_try_right=st.first_try_right,
                p_known=st.p_known, mastered=st.mastered, streak=st.streak,
                mean_seconds=st.mean_seconds, ruled_out=tuple(mastery.ruled_out(st)),
                to_master=mastery.answers_to_master(st)))
        return tuple(out)

    # --- the match's end --------------------------------------------------------------------

    def match_answers(self, name: str, lang: str) -> StudentAnswers:
        """``name``'s answers in this match: each skill asked, with the questions asked and
        right at the first answer (docs/rules.md §4: a question counts once, at its first
        answer; a reveal before any answer is wrong), its name in ``lang``."""
        t = translator(lang)
        mastery = self.mastery(name)
        tally = self._match_tallies.get(name, StudentTally())
        skills = []
        for skill in SKILLS:
            if not tally.asked[skill]:
                continue
            st = mastery.state(skill)
            skills.append(SkillSummary(
                skill=skill, name=t(SKILL_NAMES[skill]), asked=tally.asked[skill],
                first_try_right=tally.first_try_right[skill], mastered=st.mastered,
                p_known=st.p_known, mistake=tally.mistake(skill)))
        return StudentAnswers(student=name, skills=tuple(skills))

    def next_lesson(self, lang: str) -> tuple[str, str] | None:
        """The lesson after this one in the lessons page's order (by id, of
        :func:`tutor.course.lessons.list_lessons`): its id and its title in ``lang``; None
        after the last lesson. Read once per language."""
        if lang not in self._next_lessons:
            # the lessons page's order: by id (the shipped lessons are numbered 01-…)
            lessons = sorted(list_lessons(lang), key=lambda lesson: lesson.id)
            ids = [lesson.id for lesson in lessons]
            after = ids.index(self.lesson) + 1 if self.lesson in ids else len(ids)
            self._next_lessons[lang] = (
                (lessons[after].id, lessons[after].text("title", lang))
                if after < len(lessons) else None)
        return self._next_lessons[lang]


def _asked_and_right(mastery: Mastery) -> tuple[int, int]:
    """(asked, right at the first try) over all of ``mastery``'s skills."""
    states = mastery.states.values()
    return sum(st.asked for st in states), sum(st.first_try_right for st in states)
