"""Review that spaces (docs/rules.md §4, issue 32 part 5): when a mastered skill comes back.

A skill that becomes mastered is due for review :data:`INTERVALS` days later: 1 day, then
3, 7 and 21. A review passed stretches the wait to the next interval (the last one stays);
a review missed takes mastery away (:meth:`tutor.teaching.mastery.Mastery.review_missed`), so the
skill leaves the schedule until it is mastered again, when it starts over at 1 day.

Everything here is a pure function of the student's attempts (their problem ids and ISO
UTC times, as the progress store keeps them) and of an injected ``now``: this module reads
no clock and no store. :class:`ReviewSchedule` watches the replay of the attempts
(:func:`tutor.teaching.replay.rebuild_mastery` calls :meth:`ReviewSchedule.observe` after each first
answer) and :func:`due_reviews` says what is due at a given time.

A review item is a question whose problem id starts with :data:`REVIEW_PREFIX` (the asker
gives that prefix to the review questions it mixes into a lesson).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from typing import TYPE_CHECKING

from tutor.storage.records import Attempt, Outcome
from tutor.teaching.mastery import SKILLS, Mastery

if TYPE_CHECKING:
    from tutor.teaching.evidence import Evidence

__all__ = ["INTERVALS", "REVIEW_ITEMS", "REVIEW_PREFIX", "Due", "ReviewSchedule", "Slot",
           "attempt_time", "due_reviews", "is_review", "missed_review", "review_missed",
           "review_problem", "reviewed_skill"]

INTERVALS: tuple[int, ...] = (1, 3, 7, 21)
"""Days from mastery (or from the last review passed) to the next review: the n-th review
passed waits ``INTERVALS[n]`` days (the last interval repeats)."""
REVIEW_PREFIX = "review-"
"""The problem ids of review items start with this."""
REVIEW_ITEMS = 2
"""Review items mixed into a lesson per skill due."""


def is_review(problem: str) -> bool:
    """Whether ``problem`` (a question's problem id) is a review item."""
    return problem.startswith(REVIEW_PREFIX)


def attempt_time(a: Attempt) -> datetime:
    """The attempt's time as an aware UTC datetime (the store keeps ISO 8601 with a zone)."""
    when = datetime.fromisoformat(a.time.replace("Z", "+00:00"))
    if when.tzinfo is None:
        when = when.replace(tzinfo=timezone.utc)
    return when.astimezone(timezone.utc)


def review_problem(prefix: str, skill: str, k: int) -> str:
    """The start of the problem id of the ``k``-th review item of ``skill`` (``prefix``: the
    match's, ``m1-``): :func:`reviewed_skill` reads the skill back."""
    return f"{REVIEW_PREFIX}{prefix}{skill}-{k}-"


def reviewed_skill(problem: str) -> str | None:
    """The skill a review item reviews, read from its problem id (:func:`review_problem`);
    None for a question that is no review item.

    >>> reviewed_skill("review-m1-other-end-0-5/x"), reviewed_skill("m1r1t3-5/x")
    ('other-end', None)
    """
    if not is_review(problem):
        return None
    rest = problem[len(REVIEW_PREFIX):].partition("-")[2]  # after the match's prefix
    return next((s for s in sorted(SKILLS, key=len, reverse=True)
                 if rest.startswith(f"{s}-")), None)


def missed_review(problem: str, evidence: Evidence) -> bool:
    """Whether a first answer to ``problem`` (judged ``evidence``) misses a review: a review
    item answered wrong, given up, or answered after a hint. One rule for the lesson (the
    asker) and the replay (:func:`tutor.teaching.replay.rebuild_mastery`)."""
    return is_review(problem) and not (evidence.correct and not evidence.hints)


def review_missed(mastery: Mastery, skill: str, was_mastered: bool) -> bool:
    """After the normal record of a wrong (or hinted) first answer to a review item of
    ``skill``: if the skill was mastered before it, take mastery away. Returns whether it
    did. The same function runs in the lesson (the asker) and in the replay of the attempts
    (:func:`tutor.teaching.replay.rebuild_mastery`), so both agree."""
    if not was_mastered:
        return False
    mastery.review_missed(skill)
    return True


@dataclass(frozen=True)
class Slot:
    """A mastered skill's place in the schedule."""

    skill: str
    step: int
    """Index into :data:`INTERVALS`: how many reviews were passed since mastery (capped)."""
    start: datetime
    """When the current wait began: the mastery, or the last review passed."""

    @property
    def interval(self) -> int:
        """The wait, in days."""
        return INTERVALS[self.step]

    @property
    def due_at(self) -> datetime:
        return self.start + timedelta(days=self.interval)

    def is_due(self, now: datetime) -> bool:
        return now >= self.due_at


@dataclass(frozen=True)
class Due:
    """A skill due for review at a given time."""

    skill: str
    since: datetime
    """When it became due."""
    interval: int
    """The wait that ran out, in days."""
    days: int
    """Whole days it has been due (0: it became due less than a day ago)."""


class ReviewSchedule:
    """The schedule of one student's mastered skills, built by watching the replay of their
    first answers in time order (:meth:`observe`)."""

    def __init__(self) -> None:
        self.slots: dict[str, Slot] = {}

    def observe(self, a: Attempt, hints: int, was_mastered: Mapping[str, bool],
                mastery: Mastery) -> None:
        """One first answer ``a`` (with ``hints`` taken before it) has just been recorded in
        ``mastery``; ``was_mastered`` says, for each of its skills, whether it was mastered
        before. A right unhinted answer to a review item of a skill that is due stretches its
        wait; a skill no longer mastered leaves the schedule; a newly mastered one starts it
        at the first interval."""
        when = attempt_time(a)
        right = a.outcome is Outcome.CORRECT and hints == 0
        for skill, was in was_mastered.items():
            now_mastered = mastery.state(skill).mastered
            slot = self.slots.get(skill)
            if not now_mastered:
                self.slots.pop(skill, None)
            elif not was or slot is None:
                self.slots[skill] = Slot(skill, 0, when)
            elif is_review(a.problem) and right and slot.is_due(when):
                self.slots[skill] = Slot(skill, min(slot.step + 1, len(INTERVALS) - 1), when)

    def due(self, now: datetime) -> list[Due]:
        return due_reviews(self, now)


def due_reviews(schedule: ReviewSchedule | Mapping[str, Slot], now: datetime) -> list[Due]:
    """The skills due for review at ``now`` (an aware datetime), in teaching order."""
    if now.tzinfo is None:
        raise ValueError("now must be an aware datetime (UTC)")
    slots = schedule.slots if isinstance(schedule, ReviewSchedule) else schedule
    out = []
    for skill in SKILLS:
        slot = slots.get(skill)
        if slot is not None and slot.is_due(now):
            out.append(Due(skill, slot.due_at, slot.interval, (now - slot.due_at).days))
    return out
