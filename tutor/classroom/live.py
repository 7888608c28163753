"""The class as it plays: the teacher page's live view on a shared store (issue 35, part 3).

From the stored attempts and a clock (injected, so the rules are tested without waiting),
for each student who answered, asked for a hint or gave up within the last
:data:`PLAYING_WINDOW` (a class period):

- the lesson they are on (the lesson of their latest row);
- their answers so far on that lesson in the window (answers handed in, and questions right
  at the first try, as :mod:`tutor.classroom.counts` counts them);
- whether they are stuck, and why:

  * ``"wrong"``: their last :data:`WRONG_IN_A_ROW` questions' first answers were all wrong
    (a wrong answer, or "Show me" before any answer; a question left after hints only is
    skipped, and a right first answer ends the run);
  * ``"idle"``: no answer, hint or "Show me" for :data:`IDLE_SECONDS` (time from the store's
    timestamps, against the clock).

A student whose latest row is older than the window is not playing now: the view counts them
only. Rows are read once per refresh (:func:`live_rows` takes them); nothing here reads the
wall clock, the store or the widgets.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from typing import Protocol

from tutor.classroom.counts import first_answer, question_runs, right_first_try
from tutor.storage.records import Attempt, Outcome

__all__ = ["IDLE_SECONDS", "PLAYING_WINDOW", "WRONG_IN_A_ROW", "LiveRow", "LiveView",
           "live_rows", "live_view", "parse_time"]

WRONG_IN_A_ROW = 3
"""Wrong first answers in a row that mark a student stuck."""
IDLE_SECONDS = 120.0
"""Seconds without an answer, a hint or "Show me" that mark a playing student stuck."""
PLAYING_WINDOW = timedelta(minutes=45)
"""A student whose latest row is older than this is not playing now (a class period)."""

_ANSWERS = (Outcome.CORRECT, Outcome.INCORRECT)


def parse_time(text: str) -> datetime:
    """A stored timestamp (ISO 8601, UTC; a ``Z`` or no zone read as UTC)."""
    t = datetime.fromisoformat(text.replace("Z", "+00:00"))
    return t if t.tzinfo is not None else t.replace(tzinfo=timezone.utc)


@dataclass(frozen=True)
class LiveRow:
    """One student playing now."""

    student: str
    lesson: str
    """The lesson of their latest row."""
    answers: int
    """Answers handed in (right or wrong) on that lesson within the window."""
    questions: int
    """Questions they met on that lesson within the window."""
    right_first: int
    """Of those, right at the first answer with no hint before it."""
    wrong_in_a_row: int
    """Their latest questions' wrong first answers in a row (any lesson, within the window)."""
    last: datetime
    """When their latest row was stored."""
    idle_seconds: float
    """Seconds from :attr:`last` to the clock's now (0 if the clock is behind)."""
    stuck: str | None
    """``"wrong"``, ``"idle"`` or None (both true: ``"wrong"``, the surer sign)."""


@dataclass(frozen=True)
class LiveView:
    """The live view at one moment: the students playing (stuck first, then by name) and how
    many students in the rows are not playing now."""

    now: datetime
    rows: tuple[LiveRow, ...]
    away: int

    @property
    def stuck(self) -> tuple[LiveRow, ...]:
        return tuple(r for r in self.rows if r.stuck is not None)


def _wrong_run(runs: Sequence[Sequence[Attempt]]) -> int:
    count = 0
    for run in reversed(runs):
        first = first_answer(run)
        if first is None:  # hints only: no answer to judge
            continue
        if first.outcome is Outcome.CORRECT:
            break
        count += 1
    return count


def _live_row(student: str, rows: Sequence[Attempt], times: Sequence[datetime],
              now: datetime) -> LiveRow:
    latest = max(range(len(rows)), key=lambda i: (times[i], i))
    lesson = rows[latest].lesson
    last = times[latest]
    runs = question_runs(rows)
    on_lesson = [run for run in runs if run[0].lesson == lesson]
    right_first = sum(right_first_try(run) for run in on_lesson)
    wrong = _wrong_run(runs)
    idle = max(0.0, (now - last).total_seconds())
    stuck = "wrong" if wrong >= WRONG_IN_A_ROW else "idle" if idle >= IDLE_SECONDS else None
    return LiveRow(student=student, lesson=lesson,
                   answers=sum(a.outcome in _ANSWERS for run in on_lesson for a in run),
                   questions=len(on_lesson), right_first=right_first, wrong_in_a_row=wrong,
                   last=last, idle_seconds=idle, stuck=stuck)


def live_rows(attempts: Iterable[Attempt], now: datetime,
              window: timedelta = PLAYING_WINDOW) -> LiveView:
    """The live view of ``attempts`` (the store's rows, any students) at ``now`` (an aware
    datetime: the injected clock's reading)."""
    since = now - window
    by_student: dict[str, tuple[list[Attempt], list[datetime]]] = {}
    everyone: set[str] = set()
    for a in attempts:
        everyone.add(a.student)
        when = parse_time(a.time)
        if when < since:
            continue
        rows, times = by_student.setdefault(a.student, ([], []))
        rows.append(a)
        times.append(when)
    live = [_live_row(name, rows, times, now) for name, (rows, times) in by_student.items()]
    live.sort(key=lambda r: (r.stuck is None, r.student.casefold(), r.student))
    return LiveView(now=now, rows=tuple(live), away=len(everyone) - len(live))


class AttemptSource(Protocol):
    """Where the attempts come from (:class:`tutor.storage.store.Store`)."""

    def attempts(self) -> Iterable[Attempt]: ...


def live_view(store: AttemptSource, now: datetime, window: timedelta = PLAYING_WINDOW) -> LiveView:
    """:func:`live_rows` of the store's attempts (one read)."""
    return live_rows(store.attempts(), now, window)
