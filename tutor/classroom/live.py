"""The class as it plays: the teacher page's live view on a shared store (issue 35, part 3;
issue 43, part 1).

From the stored attempts and a clock (injected, so the rules are tested without waiting),
for each student who answered, asked for a hint or gave up within the last
:data:`PLAYING_WINDOW` (a class period):

- the lesson they are on (the lesson of their latest row);
- their questions so far on that lesson in the window, and of those the ones right at the
  first try, as :mod:`tutor.teaching.counts` counts them (a question counts once, when its
  first answer is evidence: the class table's "Questions"), so the two columns share one
  unit ("4 of 6" right at the first try of the 6 questions);
- what they are doing now (:attr:`LiveRow.state`), decided by one function,
  :func:`student_state`, which every view of the teacher page takes its state from (the live
  view, the assignment table, "What to do now"; issue 52 part 3):

  * ``"files"``: their latest answers came in an uploaded progress file, not from a game on
    this server (the store marks the sessions a file brought,
    :data:`tutor.storage.records.FROM_FILE`, so a reload says it too): no one to help now;
  * ``"finished"``: the play page ended their lesson (:attr:`tutor.session.session.Session.
    lesson_over`, :func:`tutor.course.lesson_end.end_reason`: every target mastered and the
    first match played, or the lesson's question cap or minutes reached), as the store
    recorded it (:meth:`tutor.storage.store.Store.mark_session`) at or after their latest
    row: nothing else (issue 52 part 3). A student playing out the match's last rounds
    after mastering is still playing;
  * ``"left"``: no answer, hint or "Show me" for :data:`STUCK_MINUTES` and their lesson not
    over (a closed tab): no one to help now, never stuck;
  * ``"stuck"`` (:attr:`LiveRow.stuck` ``"wrong"``): active within the last
    :data:`STUCK_MINUTES` and failing: their last :data:`WRONG_IN_A_ROW` questions' first
    answers were all wrong (a wrong answer, or "Show me" before any answer; a question left
    after hints only is skipped, and a right first answer ends the run);
  * ``"playing"``: otherwise (active within :data:`STUCK_MINUTES`).

A student whose latest row is older than the window is away (not playing now): the view
counts them only. Rows are read once per refresh (:func:`live_rows` takes them); nothing here
reads the wall clock or the widgets, and only :class:`LiveFeed` reads the store: the page's
tick asks it for the rows stored since its last read, never the whole class (issue 51
part 4).
"""

from __future__ import annotations

import bisect
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime, timedelta, timezone
from typing import TYPE_CHECKING, Literal, Protocol, get_args

from tutor.course.lesson_end import EndReason, end_reason
from tutor.course.lessons import list_lessons
from tutor.storage.names import name_key
from tutor.storage.read_mark import ReadMark
from tutor.storage.records import FROM_FILE, Attempt, Outcome, SessionMark
from tutor.teaching.counts import StudentCounts, student_counts
from tutor.teaching.runs import first_answer, question_runs

if TYPE_CHECKING:
    from tutor.course.lessons import Lesson

__all__ = ["PLAYING_WINDOW", "STATES", "STUCK_MINUTES", "WRONG_IN_A_ROW", "CountsMemo",
           "Ends", "LiveFeed", "LiveRow", "LiveState", "LiveView", "class_counts", "lesson_over",
           "live_rows", "live_view", "marks_since", "parse_time", "session_ends", "student_state"]

WRONG_IN_A_ROW = 3
"""Wrong first answers in a row that mark a student stuck."""
STUCK_MINUTES = 10
"""N, the minutes that split being here from having left: a student with an answer, a hint
or "Show me" within the last N minutes is active (playing, or stuck if failing); one with
none for N minutes has left (a closed tab), unless their lesson is over (finished). The
page says N."""
PLAYING_WINDOW = timedelta(minutes=45)
"""A student whose latest row is older than this is not playing now (a class period)."""

_ANSWERS = (Outcome.CORRECT, Outcome.INCORRECT)

LiveState = Literal["stuck", "playing", "left", "finished", "files"]
"""What a student in the live view is doing now; the view lists them in this order."""
STATES: tuple[LiveState, ...] = ("stuck", "playing", "left", "finished", "files")
_ORDER: dict[str, int] = {state: i for i, state in enumerate(STATES)}


def parse_time(text: str) -> datetime:
    """A stored timestamp (ISO 8601, UTC; a ``Z`` or no zone read as UTC)."""
    t = datetime.fromisoformat(text.replace("Z", "+00:00"))
    return t if t.tzinfo is not None else t.replace(tzinfo=timezone.utc)


@dataclass(frozen=True)
class LiveRow:
    """One student seen in the window."""

    student: str
    lesson: str
    """The lesson of their latest row."""
    answers: int
    """Answers handed in (right or wrong: tries) on that lesson within the window."""
    questions: int
    """Questions on that lesson within the window, each counted once (as the class table's
    "Questions" counts them: its first answer is evidence)."""
    right_first: int
    """Of those questions, right at the first answer with no hint before it."""
    wrong_in_a_row: int
    """Their latest questions' wrong first answers in a row (any lesson, within the window)."""
    last: datetime
    """When their latest row was stored."""
    idle_seconds: float
    """Seconds from :attr:`last` to the clock's now (0 if the clock is behind)."""
    stuck: str | None
    """``"wrong"`` (stuck) or None."""
    state: LiveState = "playing"
    finished: EndReason | None = None
    """Why their lesson is over (:func:`tutor.course.lesson_end.end_reason`), or None."""
    session: str = ""
    """The session of their latest row."""


@dataclass(frozen=True)
class LiveView:
    """The live view at one moment: the students seen in the window (stuck first, then
    playing, finished and from files, each by name) and how many students in the rows are
    away (no row in the window)."""

    now: datetime
    rows: tuple[LiveRow, ...]
    away: int

    @property
    def stuck(self) -> tuple[LiveRow, ...]:
        return tuple(r for r in self.rows if r.stuck is not None)

    def count(self, state: LiveState) -> int:
        return sum(r.state == state for r in self.rows)


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


def lesson_over(counts: StudentCounts, lesson: Lesson | None, session: str,
              times: Sequence[datetime]) -> EndReason | None:
    """Why ``lesson`` is over for the student (their ``counts``, all their rows), as the play
    page ends it, or None: every target mastered, or in their latest ``session`` of it the
    questions on its targets at its cap, or the minutes from its first row to its last
    (``times``) at its cap. Free play (no targets) and a lesson not installed: None."""
    if lesson is None or not lesson.plan.targets:
        return None
    targets = lesson.plan.targets
    mastered = all(counts.p_known(t, lesson.mastery)[1] for t in targets)
    asked = sum(q.counted and q.skill in targets for q in counts.questions
                if q.lesson == lesson.id and q.session == session)
    minutes = (max(times) - min(times)).total_seconds() / 60 if times else 0.0
    return end_reason([(mastered, asked)], len(targets), minutes=minutes, rounds=0,
                      max_questions=lesson.max_questions, max_minutes=lesson.max_minutes)


CountsMemo = dict[str, tuple[tuple[int, Attempt], StudentCounts]]
"""Each student's counts with the rows they were made from (how many, the last): a page that
reads the class every few seconds replays a student again only when they have a new row."""


def _counts(student: str, rows: Sequence[Attempt], lessons: Mapping[str, Lesson],
            memo: CountsMemo | None) -> StudentCounts:
    params = {ls.id: ls.mastery for ls in lessons.values()}
    if memo is None or not rows:
        return student_counts(rows, params, student)
    key = (len(rows), rows[-1])
    found = memo.get(student)
    if found is None or found[0] != key:
        found = memo[student] = (key, student_counts(rows, params, student))
    return found[1]


def class_counts(attempts: Iterable[Attempt], lessons: Mapping[str, Lesson] | None = None,
                 memo: CountsMemo | None = None) -> dict[str, StudentCounts]:
    """Each student's counts by name (names sorted), as
    :func:`tutor.teaching.counts.counts_by_student` makes them, taking from ``memo`` (and
    adding to it) those of a student with no new row: the teacher page's "Refresh" replays
    each student once for the live view and the panels under it."""
    lessons = _installed_lessons() if lessons is None else lessons
    rows: dict[str, list[Attempt]] = {}
    for a in attempts:
        rows.setdefault(a.student, []).append(a)
    return {name: _counts(name, rows[name], lessons, memo) for name in sorted(rows)}


def student_state(*, idle_seconds: float, wrong_in_a_row: int, over: EndReason | None,
                  from_files: bool) -> tuple[LiveState, str | None]:
    """A student's state now, and why stuck (``"wrong"``) or None: the one rule every view
    of the teacher page reads (see the module's text). ``idle_seconds``: from their latest
    row to now; ``wrong_in_a_row``: their latest questions' wrong first answers in a row;
    ``over``: why the play page ended the lesson of their latest row (its record at or after
    that row), or None;
    ``from_files``: their latest row came in an uploaded file.

    >>> student_state(idle_seconds=60, wrong_in_a_row=0, over="mastered", from_files=False)
    ('finished', None)
    >>> student_state(idle_seconds=14 * 60, wrong_in_a_row=3, over=None, from_files=False)
    ('left', None)
    """
    if from_files:
        return "files", None
    if over is not None:  # the play page ended it: at once, a teacher waits for "done"
        return "finished", None
    if idle_seconds >= STUCK_MINUTES * 60:
        return "left", None
    if wrong_in_a_row >= WRONG_IN_A_ROW:
        return "stuck", "wrong"
    return "playing", None


Ends = Mapping[tuple[str, str, str], tuple[EndReason, datetime]]
"""Each student's session's lesson the play page ended (the key of the student's name,
session, lesson): why, and when (the latest such record). Keyed by student too: a mark says
only what its own student's page recorded."""


def session_ends(marks: Iterable[SessionMark]) -> tuple[Ends, frozenset[str]]:
    """The lesson ends the store recorded, and the sessions whose rows came in a file, from
    its marks (:meth:`tutor.storage.store.Store.session_marks`)."""
    ends: dict[tuple[str, str, str], tuple[EndReason, datetime]] = {}
    files: set[str] = set()
    for m in marks:
        if m.mark == FROM_FILE:
            files.add(m.session)
            continue
        reason = _END_REASONS.get(m.mark)
        if reason is None:
            continue
        when = parse_time(m.time)
        key = (name_key(m.student), m.session, m.lesson)
        known = ends.get(key)
        if known is None or when >= known[1]:
            ends[key] = (reason, when)
    return ends, frozenset(files)


_END_REASONS: dict[str, EndReason] = {r: r for r in get_args(EndReason)}


def _live_row(student: str, rows: Sequence[Attempt], times: Sequence[datetime],
              now: datetime, counts: StudentCounts, ends: Ends,
              from_files: Collection[str]) -> LiveRow:
    latest = max(range(len(rows)), key=lambda i: (times[i], i))
    lesson = rows[latest].lesson
    session = rows[latest].session
    last = times[latest]
    window = {(a.session, a.problem, a.step) for a in rows}
    on_lesson = [q for q in counts.questions
                 if q.lesson == lesson and (q.session, q.problem, q.step) in window]
    runs = question_runs(rows)
    wrong = _wrong_run(runs)
    idle = max(0.0, (now - last).total_seconds())
    ended = ends.get((name_key(student), session, lesson))
    over = ended[0] if ended is not None and ended[1] >= last else None
    state, stuck = student_state(idle_seconds=idle, wrong_in_a_row=wrong, over=over,
                                 from_files=session in from_files)
    finished = over if state == "finished" else None
    return LiveRow(student=student, lesson=lesson,
                   answers=sum(q.attempts for q in on_lesson),
                   questions=sum(q.counted for q in on_lesson),
                   right_first=sum(q.right_first for q in on_lesson), wrong_in_a_row=wrong,
                   last=last, idle_seconds=idle, stuck=stuck, state=state, finished=finished,
                   session=session)


def _installed_lessons() -> dict[str, Lesson]:
    return {lesson.id: lesson for lesson in list_lessons()}


def live_rows(attempts: Iterable[Attempt], now: datetime,
              window: timedelta = PLAYING_WINDOW, *,
              lessons: Mapping[str, Lesson] | None = None,
              marks: Iterable[SessionMark] = (), from_files: Collection[str] = (),
              memo: CountsMemo | None = None) -> LiveView:
    """The live view of ``attempts`` (the store's rows, any students) at ``now`` (an aware
    datetime: the injected clock's reading). ``lessons``: the lessons by id (default: the
    installed ones), whose mastery settings the counts take; ``marks``: the store's session
    marks (:meth:`tutor.storage.store.Store.session_marks`: the lessons the play page ended,
    the sessions that came in files) since the window's start at least; ``from_files``:
    more sessions whose rows came in uploaded progress files; ``memo``: the counts of the
    last reading (kept by the caller, with the same ``lessons``), of which a student with no
    new row is not replayed again."""
    lessons = _installed_lessons() if lessons is None else lessons
    ends, filed = session_ends(marks)
    from_files = filed | set(from_files)
    since = now - window
    by_student: dict[str, tuple[list[Attempt], list[datetime]]] = {}
    everything: dict[str, list[Attempt]] = {}
    for a in attempts:
        everything.setdefault(a.student, []).append(a)
        when = parse_time(a.time)
        if when < since:
            continue
        rows, times = by_student.setdefault(a.student, ([], []))
        rows.append(a)
        times.append(when)
    live = [_live_row(name, rows, times, now, _counts(name, everything[name], lessons, memo),
                      ends, from_files)
            for name, (rows, times) in by_student.items()]
    live.sort(key=lambda r: (_ORDER[r.state], r.student.casefold(), r.student))
    return LiveView(now=now, rows=tuple(live), away=len(everything) - len(live))


class AttemptSource(Protocol):
    """Where the attempts and session marks come from (:class:`tutor.storage.store.Store`)."""

    def attempts(self) -> Iterable[Attempt]: ...

    def session_marks(self, since: str | None = None) -> list[SessionMark]: ...


class NewAttemptSource(Protocol):
    """Where the attempts stored since a mark come from
    (:meth:`tutor.storage.store.Store.attempts_after`)."""

    def attempts_after(self, mark: ReadMark | None = None, student: str | None = None
                       ) -> tuple[list[tuple[int, Attempt]], ReadMark]: ...


class LiveFeed:
    """The class's rows as the live view keeps them between its reads (issue 51 part 4):
    each tick asks the store only for the rows stored since the last one
    (:meth:`tutor.storage.store.Store.attempts_after`) and folds them in, never the whole
    class again.

    Rows are kept once each by their id (a store may send a row again: on PostgreSQL a row
    committed late is looked for again, :mod:`tutor.storage.read_mark`), each student's in
    the order of their ids (a row committed late goes in its place), and students are
    grouped by the key of their name (:func:`tutor.storage.names.name_key`), as the store
    finds a student: rows read before two spellings were merged into one student and rows
    read after are one student, under the name of their latest row. :meth:`attempts` is then
    what one full read of the store gives, student by student."""

    def __init__(self) -> None:
        self.mark: ReadMark | None = None
        """Where the last read stopped (None: nothing read yet)."""
        self._rows: dict[str, list[tuple[int, Attempt]]] = {}
        self._names: dict[str, tuple[int, str]] = {}
        self._seen: set[int] = set()

    def reset(self) -> None:
        """Forget every row: the next read reads the class from the start."""
        self.mark = None
        self._rows.clear()
        self._names.clear()
        self._seen.clear()

    def read(self, store: NewAttemptSource) -> list[tuple[int, Attempt]]:
        """Read the rows stored since the last read and fold them in; the rows read (with
        their ids, in the store's order: on the first read, the whole class)."""
        rows, self.mark = store.attempts_after(self.mark)
        self.fold(rows)
        return rows

    def fold(self, rows: Iterable[tuple[int, Attempt]]) -> None:
        """Add rows (each with its id) to what the feed holds; an id it has already is kept
        once."""
        for row_id, a in rows:
            if row_id in self._seen:
                continue
            self._seen.add(row_id)
            key = name_key(a.student)
            mine = self._rows.setdefault(key, [])
            if mine and row_id < mine[-1][0]:
                bisect.insort(mine, (row_id, a), key=lambda r: r[0])
            else:
                mine.append((row_id, a))
            if row_id > self._names.get(key, (-1, ""))[0]:
                self._names[key] = (row_id, a.student)

    def attempts(self) -> list[Attempt]:
        """Every row held, student by student, each student's in the order of their ids and
        under one name (that of their latest row)."""
        out: list[Attempt] = []
        for key, rows in self._rows.items():
            name = self._names[key][1]
            out.extend(a if a.student == name else replace(a, student=name) for _, a in rows)
        return out


def live_view(store: AttemptSource, now: datetime, window: timedelta = PLAYING_WINDOW, *,
              lessons: Mapping[str, Lesson] | None = None,
              from_files: Collection[str] = ()) -> LiveView:
    """:func:`live_rows` of the store's attempts and its session marks of the window."""
    marks = store.session_marks(marks_since(now, window))
    return live_rows(store.attempts(), now, window, lessons=lessons, marks=marks,
                     from_files=from_files)


def marks_since(now: datetime, window: timedelta = PLAYING_WINDOW) -> str:
    """The time from which the live view at ``now`` needs the store's session marks (the
    window's start), as the store compares times (ISO 8601 UTC)."""
    return (now - window).astimezone(timezone.utc).isoformat(timespec="microseconds")
