"""What the asker keeps and gives back for each question: a question waiting in its queue,
with what happened at it so far (:class:`Pending`), and the tutor's reply to an answer or to
giving up (:class:`Feedback`), and what the asker shows of its queue now
(:class:`AskingView`). The asking itself is :mod:`tutor.teaching.asking`'s.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal

from engine.events import Event
from tutor.teaching.diagnosis import Diagnosis
from tutor.teaching.evidence import Evidence, step_name
from tutor.teaching.hints import Hint
from tutor.teaching.questions import Question

__all__ = ["UNCOUNTED", "AskingView", "Feedback", "FeedbackKind", "Pending"]

FeedbackKind = Literal["invalid", "working", "correct", "wrong", "revealed"]
UNCOUNTED = frozenset({"invalid", "working"})
"""Replies that are not attempts: unreadable text, and working instead of a number."""


@dataclass(frozen=True)
class AskingView:
    """What the asker shows now (:meth:`tutor.teaching.asking.Asker.view`): the question
    waiting for an answer, with what happened at it so far, and the points the questions in
    the queue hide."""

    question: Question | None = None
    """The pending question (None: no question waits)."""
    seat: int | None = None
    """Whose question it is."""
    attempts: int = 0
    hints: tuple[Hint, ...] = ()
    """The rungs of the hint ladder given so far."""
    scaffold: str = ""
    """The formula with blanks (LaTeX) when the scaffold shows for it."""
    queued: int = 0
    """How many more questions wait after it."""
    more_hints: bool = False
    """The ladder has a rung not given yet."""
    hidden_gains: tuple[int, ...] = ()
    """Per seat, the gains still behind unanswered questions (:meth:`~tutor.teaching.asking.
    Asker.hidden`)."""
    hidden_losses: tuple[int, ...] = ()
    """Per seat, the losses still behind unanswered questions."""


@dataclass(frozen=True)
class Feedback:
    """The tutor's reply to an answer (or to giving up)."""

    kind: FeedbackKind
    message: str
    question: Question
    diagnosis: Diagnosis | None = None
    hint: Hint | None = None
    """The next rung of the hint ladder, given after a wrong answer."""
    expected: int | None = None
    """Shown once the question is over (right answer or revealed)."""
    answered: int | None = None
    done: bool = False
    """The question is over; the next one, if any, is now pending."""
    events: tuple[Event, ...] = ()
    """What the bots did after the question was over."""

    @property
    def counted(self) -> bool:
        """Whether this reply counted as an attempt (an unreadable answer and working do
        not)."""
        return self.kind not in UNCOUNTED

    @property
    def worked(self) -> str:
        """The worked solution (LaTeX), once the question is over."""
        return self.question.worked if self.done else ""


@dataclass
class Pending:
    """A question in the queue, with what happened at it so far."""

    question: Question
    seat: int
    """The human seat (the student) the question is for."""
    source: Event | None = None
    hidden_gains: tuple[int, ...] = ()
    hidden_losses: tuple[int, ...] = ()
    scaffold: str = ""
    """The blanks formula shown with the question (LaTeX), or empty."""
    shown_at: float = field(default_factory=time.monotonic)
    attempts: int = 0
    hints: int = 0
    """Hints taken before the first answer."""
    pressed: int = 0
    """Hint presses that showed a rung so far (a rung given after a wrong answer is
    feedback, not a press): the ``hints`` column of each row stored (issue 43)."""
    first_recorded: bool = False
    given: list[Hint] = field(default_factory=list)
    remediation: str = ""
    """The catalogue mistake this item was queued to tell apart
    (:meth:`~tutor.teaching.asking.Asker.remediate`)."""
    shown: frozenset[str] = frozenset()
    """The scaffolds this question comes with: ``blanks`` (the formula with blanks) and/or
    ``T`` (T was asked first, before the points): its right first answer is practice."""
    trivial: bool = False
    """The operation does nothing here (×1, +0, T = 0): no evidence for it (docs/rules.md §4)."""
    tells: frozenset[str] = frozenset()
    """The catalogue mistakes a right answer here is proof against, of the skill it is proof
    of (:func:`tutor.teaching.coverage.item_tells`)."""
    requires: frozenset[str] = frozenset()
    """The catalogue mistakes of that skill the lesson can show: what its row must rule out
    (:func:`tutor.teaching.coverage.coverage`)."""
    values: Mapping[str, frozenset[int]] = field(default_factory=dict)
    """Each catalogue mistake's wrong numbers here (:func:`tutor.teaching.diagnosis.candidates`):
    which mistakes a wrong answer may be."""
    drilled: str = ""
    """The skill a drill between rounds queued this item for (empty: not a drill item)."""
    evidence: Evidence | None = None
    """What the first answer (or giving up) was judged to be evidence of."""
    flags: frozenset[str] = frozenset()
    """:data:`~tutor.teaching.evidence.REPLAYED` (a deal played before: practice) and
    :data:`~tutor.teaching.evidence.SHOWN` (its answer was revealed before): no evidence,
    and its rows say so (their step name's tags)."""

    @property
    def step_name(self) -> str:
        """The step name stored with each attempt (the scaffolds, ``trivial``, and what a
        right answer rules out of what the lesson requires, as tags)."""
        return step_name(self.question.step, self.shown, self.trivial, self.tells,
                         self.requires, self.values, self.flags)
