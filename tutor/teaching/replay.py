"""Mastery replayed from stored attempts: each question's first answer, judged by the one
evidence rule (:func:`tutor.teaching.evidence.judge`, the rule the live tutor uses) and observed
through the lesson's knowledge tracing, so a progress file — the student's own, or a
teacher's that imported it — gives the mastery the tutor had live.

This is teaching code: it reads :class:`~tutor.storage.records.Attempt` rows, never the store, and
the pages, the class's files, the counts and ``python -m tutor report`` all call it.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterable, Mapping
from datetime import datetime, timezone

from tutor.storage.records import KC_SEPARATOR, Attempt, Outcome
from tutor.teaching.diagnosis import CATALOG, is_typo
from tutor.teaching.evidence import (
    REPLAYED,
    SHOWN,
    Evidence,
    judge,
    parse_step,
    parse_tells,
    parse_values,
    question_numbers,
    step_flags,
)
from tutor.teaching.mastery import SKILLS, Mastery, Params, default_params
from tutor.teaching.review import (
    Due,
    ReviewSchedule,
    due_reviews,
    missed_review,
    review_missed,
    reviewed_skill,
)
from tutor.teaching.runs import first_answer, hints_before_answer, question_runs

__all__ = ["Watch", "first_answer_evidence", "rebuild_mastery", "reviews_due"]

Watch = Callable[[Attempt, int, dict[str, bool], Mastery], None]
"""Called after each replayed first answer with it, the hints before it, whether its skill
was mastered before it, and the mastery (:meth:`tutor.teaching.review.ReviewSchedule.observe`)."""


def _when(a: Attempt) -> datetime:
    t = datetime.fromisoformat(a.time.replace("Z", "+00:00"))
    return t if t.tzinfo is not None else t.replace(tzinfo=timezone.utc)


def _first_answers(attempts: Iterable[Attempt]) -> list[tuple[Attempt, int]]:
    """Each question's first answer with the hints asked before it, in time order.

    A question is a run of attempts at one step of one session (ordered by attempt number)
    that ends with a right answer or a give-up (:func:`tutor.teaching.runs.question_runs`); the
    hint rungs seen before its first answer, each once, are its hints before answering (as
    the tutor's knowledge tracing counts them: :func:`tutor.teaching.runs.hints_before_answer`).
    """
    found: list[tuple[Attempt, int]] = []
    for rows in question_runs(attempts):
        first = first_answer(rows)
        if first is not None:
            found.append((first, hints_before_answer(rows)))
    return sorted(found, key=lambda f: _when(f[0]))


_MISTAKES = frozenset(r.id for r in CATALOG)


def first_answer_evidence(attempts: Iterable[Attempt], *,
                          any_skill: bool = False) -> list[tuple[Attempt, Evidence]]:
    """Each question's first answer in time order, judged by the same rule as live
    (:func:`tutor.teaching.evidence.judge`): the step name's tags say which scaffolds showed and
    whether the item was trivial and what a right answer to it ruled out of what the lesson
    required, the ``kc`` column which skill the answer was judged about, the hint rows before
    it the hints taken. Skills the tutor does not know are left out, unless ``any_skill``
    (fitting takes any skill a file names).

    Issue 51: a question of a deal played before (its step's :data:`REPLAYED` tag) is no
    evidence; nor is a right first answer tagged :data:`SHOWN`, or whose numbers
    (:func:`tutor.teaching.evidence.question_numbers`) a give-up row of the same student and
    lesson revealed before it, whichever session (tab) it was in."""
    rows = list(attempts)
    reveals = _reveals(rows)
    found: list[tuple[Attempt, Evidence]] = []
    for a, hints in _first_answers(rows):
        flags = step_flags(a.step)
        when = reveals.get((a.student, a.lesson, question_numbers(a.problem, a.step,
                                                                   a.expected)))
        shown = SHOWN in flags or (when is not None and when < _when(a))
        _step, scaffold, trivial = parse_step(a.step)
        tells, requires = parse_tells(a.step)
        values = parse_values(a.step)
        consistent = None if values is None or a.answered is None else frozenset(
            m for m, v in values.items() if a.answered in v)
        for skill in dict.fromkeys(a.kc.split(KC_SEPARATOR)):
            if skill and (any_skill or skill in SKILLS):
                found.append((a, judge(skill, a.outcome is Outcome.CORRECT, scaffold=scaffold,
                                       hints=hints, trivial=trivial,
                                       mistake=a.feedback if a.feedback in _MISTAKES
                                       else None, tells=tells, requires=requires,
                                       consistent=consistent,
                                       typo=a.answered is not None and a.expected is not None
                                       and is_typo(a.expected, a.answered),
                                       replayed=REPLAYED in flags, shown=shown)))
    return found


RevealKey = tuple[str, str, tuple[str, str, int | None]]


def _reveals(attempts: Iterable[Attempt]) -> dict[RevealKey, datetime]:
    """When "Show me" first revealed each question's numbers to each student in each lesson
    (their give-up rows)."""
    found: dict[RevealKey, datetime] = {}
    for a in attempts:
        if a.outcome is Outcome.GIVEUP and a.expected is not None:
            key = (a.student, a.lesson, question_numbers(a.problem, a.step, a.expected))
            when = _when(a)
            if key not in found or when < found[key]:
                found[key] = when
    return found


def rebuild_mastery(attempts: Iterable[Attempt], params: Mapping[str, Params], *,
                    watch: Watch | None = None, start: Mastery | None = None) -> Mastery:
    """One student's mastery replayed from their attempts, by the same evidence rule as the
    live tutor, with each lesson's knowledge tracing by lesson id (``params``; the installed
    lessons': :func:`tutor.course.lessons.lesson_params`; a lesson not in ``params`` uses the
    default parameters). ``watch`` is called
    after each first answer with it, the hints before it, whether its skill was mastered
    before it, and the mastery (the review schedule watches so). ``start``: the mastery the
    answers are replayed onto (left unchanged; default a fresh one), e.g. a student's saved
    mastery and the answers of a session that could not read it
    (:meth:`tutor.session.saving.Recorder.load_mastery`)."""
    default = default_params()
    mastery = Mastery(default) if start is None else Mastery(
        default, {skill: copy.deepcopy(st) for skill, st in start.states.items()}, start.said)
    for a, ev in first_answer_evidence(attempts):
        mastery.params = params.get(a.lesson, default)
        reviewed = reviewed_skill(a.problem) or ev.skill
        was = {s: mastery.state(s).mastered  # review (tutor.teaching.review)
               for s in dict.fromkeys((ev.skill, reviewed))}
        mastery.observe(ev, seconds=a.duration)
        if missed_review(a.problem, ev):
            review_missed(mastery, reviewed, was[reviewed])
        if watch is not None:
            watch(a, ev.hints, was, mastery)
    return mastery


def reviews_due(attempts: Iterable[Attempt], now: datetime,
                params: Mapping[str, Params]) -> list[Due]:
    """What one student (``attempts``, theirs) has due for review at ``now`` (an aware UTC
    datetime), in teaching order: the schedule of :mod:`tutor.teaching.review` replayed from the
    attempts with each lesson's knowledge tracing (``params`` by lesson id)."""
    schedule = ReviewSchedule()
    rebuild_mastery(attempts, params, watch=schedule.observe)
    return due_reviews(schedule, now)
