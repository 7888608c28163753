"""The record types of progress, shared by the store and its file formats: one attempt, its
outcome, the columns of the CSV and DataShop exports, and the checks every attempt passes
(the store refuses to record, and an import refuses to read, anything else)."""

from __future__ import annotations

import math
import re
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, fields
from datetime import datetime, timezone
from enum import Enum

from tutor.i18n import N_, SOURCE_LANG, Message, TranslatableError

__all__ = [
    "CSV_COLUMNS",
    "DATASHOP_COLUMNS",
    "DURATION_NOT_SECONDS",
    "ID",
    "KC_SEPARATOR",
    "LIMITS",
    "MOVE_PROBLEM",
    "MAX_TEXT",
    "Attempt",
    "MasteryValue",
    "Outcome",
    "END_MARKS",
    "FROM_FILE",
    "ProgressImportError",
    "SessionMark",
    "StoreError",
    "check_attempt",
    "check_mark",
    "out_of_range",
    "outcome",
    "move_of",
    "session_assignment",
    "tagged_session",
]

MasteryValue = str | int | float
"""A value of a stored mastery row's column (:data:`tutor.storage.store.MASTERY_COLUMNS`): the
skill,
a count, a probability or seconds (``mastered`` is stored as 0 or 1)."""

KC_SEPARATOR = "~~"  # DataShop's separator between several skills of one step
DURATION_NOT_SECONDS = N_("the duration {value} is not a number of seconds")

# What one attempt may hold, in one place: the store refuses to record anything else and
# the import refuses any other file, so whatever a store holds exports and imports again.
# Numbers as (lowest, highest), both allowed.
LIMITS: dict[str, tuple[int, int]] = {
    "attempt_at_step": (1, 10_000),
    "hints": (0, 1_000),
    "duration": (0, 86_400),  # seconds: a day (the session counts a longer wait as a day)
    "expected": (-10**12, 10**12),  # the answer parser's own bound (tutor.teaching.answers.MAX_ABS)
    "answered": (-10**12, 10**12),
}
MAX_TEXT = 10_000  # characters in one text value (a name, an answer, a skill list …)
_LIMIT_NAMES = {
    "attempt_at_step": N_("the attempt number"),
    "hints": N_("the number of hints"),
    "duration": N_("the duration in seconds"),
    "expected": N_("the expected value"),
    "answered": N_("the answered value"),
}
_TEXT_COLUMNS = ("student", "session", "lesson", "problem", "step", "input", "feedback", "kc")


class StoreError(TranslatableError):
    """The progress file cannot be used (not a progress file, a newer version, …).

    ``str(err)`` speaks the store's language; ``err.message(lang)`` any other.
    """


class ProgressImportError(StoreError):
    """A file to import is not a progress export; nothing was imported."""


class Outcome(str, Enum):
    """What happened at one attempt (DataShop's outcome values)."""

    CORRECT = "CORRECT"
    INCORRECT = "INCORRECT"
    HINT = "HINT"
    GIVEUP = "GIVEUP"


@dataclass(frozen=True)
class Attempt:
    """One row of progress: a student's attempt at one step of one problem."""

    student: str
    session: str
    time: str  # ISO 8601, UTC
    lesson: str
    problem: str
    step: str
    outcome: Outcome
    input: str
    feedback: str  # classification, e.g. the diagnosed mistake id
    kc: str  # skills, joined by "~~"
    attempt_at_step: int
    first_attempt: bool
    hints: int
    duration: float  # seconds
    expected: int | None
    answered: int | None


CSV_COLUMNS: tuple[str, ...] = tuple(f.name for f in fields(Attempt))
DATASHOP_COLUMNS: tuple[str, ...] = (
    "Anon Student Id", "Session Id", "Time", "Level (Lesson)", "Problem Name", "Step Name",
    "Outcome", "Input", "Feedback Classification", "KC (Default)", "Attempt At Step",
    "Duration (sec)",
)


def outcome(value: Outcome | str, lang: str = SOURCE_LANG) -> Outcome:
    try:
        return Outcome(value)
    except ValueError:
        raise StoreError(N_("The outcome {value} is not one of: {choices}."), value=repr(value),
                         choices=", ".join(o.value for o in Outcome), lang=lang) from None


def check_attempt(a: Attempt) -> Iterator[Message]:
    """Problems with one attempt, as messages to translate (nothing if it is fine).

    The numbers must lie within :data:`LIMITS`, each text within :data:`MAX_TEXT`
    characters, and the time must say its time zone.
    """
    if not a.student.strip():
        yield Message(N_("the student id is empty"))
    if not a.session.strip():
        yield Message(N_("the session id is empty"))
    for column in _TEXT_COLUMNS:
        length = len(getattr(a, column))
        if length > MAX_TEXT:
            yield Message(N_("the value of {column} is {length} characters long; at most "
                             "{limit} are allowed"), column=column, length=length,
                          limit=MAX_TEXT)
    yield from _check_time(a.time)
    bad_duration = not math.isfinite(a.duration) or a.duration < 0
    if bad_duration:
        yield Message(DURATION_NOT_SECONDS, value=repr(a.duration))
    for column, (low, high) in LIMITS.items():
        value = getattr(a, column)
        if value is None or (column == "duration" and bad_duration):
            continue
        if not low <= value <= high:
            yield out_of_range(column, value)


def out_of_range(column: str, value: object) -> Message:
    """The message for ``value`` of ``column`` outside its :data:`LIMITS`."""
    low, high = LIMITS[column]
    return Message(N_("{what} {value} is not between {low} and {high}"),
                   what=Message(_LIMIT_NAMES[column]), value=value, low=low, high=high)


def _check_time(text: str) -> Iterator[Message]:
    try:
        when = datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        yield Message(N_("the time {value} is not a date and time like "
                         "2024-05-01T12:00:00+00:00"), value=repr(text))
        return
    if when.utcoffset() is None:
        yield Message(N_("the time {value} has no time zone (like +00:00 at its end)"),
                      value=repr(text))
        return
    try:
        when.astimezone(timezone.utc)
    except OverflowError:
        yield Message(N_("the time {value} is not a date and time like "
                         "2024-05-01T12:00:00+00:00"), value=repr(text))


# -- the assignment a session was opened from (issue 45) -------------------------------------

ID = re.compile(r"[A-Za-z0-9_-]{4,32}")
"""An assignment's id: what :func:`tutor.classroom.assignments.new_id` makes, and all a link
may carry as one."""


def tagged_session(assignment_id: str | None) -> str:
    """A new session id; a game opened from an assignment carries its id in it
    (``<uuid>@<id>``), so every row it stores and exports says so."""
    base = uuid.uuid4().hex
    return f"{base}@{assignment_id}" if assignment_id and ID.fullmatch(assignment_id) else base


def session_assignment(session: str) -> str | None:
    """The assignment a session was opened from (:func:`tagged_session`), or None."""
    base, at, found = session.rpartition("@")
    return found if at and base and ID.fullmatch(found) else None


MOVE_PROBLEM = re.compile(r"^m([0-9]+)r([0-9]+)t([0-9]+)-(.+)$")
"""The problem of a question about a move of the game (:func:`move_of`)."""


def move_of(problem: str) -> tuple[int, int, int, str] | None:
    """The move a question is about, from its ``problem``: the match's number in its session,
    the round's, the tiles placed after the move, and the tile played (``m1r2t5-6/x``) or how
    the round ended (``m1r2t27-domino``); None for a question about no move of the game (a
    drill between rounds: ``m1r2-drill1-0-6/x``). The session names its questions so
    (:meth:`tutor.session.session.Session._moved`).

    >>> move_of("m1r2t5-6/x"), move_of("m1r1-drill1-0-round")
    ((1, 2, 5, '6/x'), None)
    """
    found = MOVE_PROBLEM.match(problem)
    return None if found is None else (int(found[1]), int(found[2]), int(found[3]), found[4])


# -- what a session's rows cannot say (issue 52 part 3) --------------------------------------

END_MARKS = ("mastered", "questions", "minutes", "rounds", "match")
"""Why the play page ended a lesson (:data:`tutor.course.lesson_end.EndReason`'s values): a
session's lesson marked with one of these was ended by the play page, at the mark's time."""
FROM_FILE = "file"
"""The mark of a session's lesson whose rows came in an uploaded progress file."""


@dataclass(frozen=True)
class SessionMark:
    """What the store knows of one session's lesson beside its rows: the play page ended it
    (``mark`` one of :data:`END_MARKS`) or its rows came from a file (:data:`FROM_FILE`)."""

    student: str
    session: str
    lesson: str
    mark: str
    time: str
    """When: the page's clock at the lesson's end (the rows' clock); the merge's, for a
    file."""


def check_mark(session: str, lesson: str, mark: str, time: str) -> Iterator[Message]:
    """What is wrong with a lesson's end no page would write (nothing: a good one). A file's
    mark (:data:`FROM_FILE`) is the merge's own, never a page's."""
    for what, value in ((N_("the session"), session), (N_("the lesson"), lesson)):
        if not isinstance(value, str) or not value or len(value) > MAX_TEXT:
            yield Message(N_("{what} is empty or too long"), what=Message(what))
    if mark not in END_MARKS:
        yield Message(N_("{value} is not why a lesson ends"), value=repr(mark))
    yield from _check_time(time)
