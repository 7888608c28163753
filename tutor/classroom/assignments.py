"""Assignments (issue 45): lessons a teacher gives a class, with a due date, and who has done
them.

What an assignment is: a class (its code, the one the pages know), a title, one or more
lessons in order, an optional due date and time on the school's clock (:data:`SCHOOL_TZ_ENV`
names its time zone) and the settings its lessons open with (language; scaffolds on or off).
It is checked here (:func:`check_assignment`), stored as a row
(:class:`tutor.storage.class_rows.Assignment`), and carried whole by a link on Binder, where
there is no server (:func:`assignment_query`, read back by :func:`read_assignment`).

Who did it: the roster's students, and anyone else who played one of its lessons from its
link (the session of a game opened from the assignment carries its id:
:func:`tagged_session`). Each student's state (:func:`assignment_table`):

* an assigned lesson is *done* when it is over as the play page ends it
  (:func:`tutor.course.lesson_end.end_reason`): every target mastered, or a cap reached in
  one of its sessions (by its rows, or as the store recorded the play page's end:
  :meth:`tutor.storage.store.Store.mark_session`, a cap the rows cannot show); the table
  says which (``"mastered"`` or ``"cap"``: a teacher treats
  "reached the cap without mastery" differently);
* ``"done"``: every assigned lesson done; ``"not started"``: no answer in any of them;
  ``"overdue"``: not done and the due time has passed; ``"in progress"``: otherwise;
* stuck now: as the live view says (:func:`tutor.classroom.live.student_state`, the one
  rule of every view); a lesson the live view says they are still playing (playing or
  stuck) is not done in that session, whatever its rows say.

Mastery is the student's, whatever link they played from: a lesson mastered before the
assignment, or from the plain lessons page, counts as done. The counts are the class table's
(:func:`tutor.classroom.live.class_counts`), so the two tables agree.
"""

from __future__ import annotations

import csv
import io
import os
import secrets
import unicodedata
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime, timedelta, timezone
from typing import TYPE_CHECKING, Literal
from urllib.parse import parse_qsl, urlencode

from tutor.classroom.link import MAX_CLASS, MAX_QUERY, clean_name, read_link
from tutor.classroom.live import (
    CountsMemo,
    LiveView,
    class_counts,
    lesson_over,
    parse_time,
    session_ends,
)
from tutor.course.lesson_end import EndReason
from tutor.i18n import N_, LanguageError, Message, TranslatableError, normalize_lang
from tutor.storage.class_rows import (
    DUE_FORMAT,
    MAX_LESSONS,
    MAX_ROSTER,
    MAX_TITLE,
    Assignment,
    zone,
)
from tutor.storage.names import name_key, name_problem
from tutor.storage.records import ID, SessionMark, session_assignment, tagged_session
from tutor.storage.store_files import csv_cell

if TYPE_CHECKING:
    from tutor.course.lessons import Lesson
    from tutor.storage.records import Attempt
    from tutor.teaching.counts import StudentCounts

__all__ = ["ID", "MAX_LESSONS", "MAX_ROSTER", "MAX_TITLE", "SCHOOL_TZ_ENV", "STATES",
           "Assignment", "AssignmentError", "AssignmentTable", "LessonState", "RosterCheck",
           "RosterError", "StudentState", "assignment_csv", "assignment_from_link",
           "assignment_link", "assignment_query", "assignment_table", "check_assignment",
           "check_roster", "due_at", "due_text",
           "files_for_assignment", "new_id", "open_for", "read_assignment",
           "read_roster", "school_zone", "session_assignment", "tagged_session",
           "with_closed"]

SCHOOL_TZ_ENV = "LEONARD_TIMEZONE"
"""The school's time zone (an IANA name, like ``Europe/Madrid``): due dates are on its
clock. Unset or unknown: UTC."""
DEFAULT_TIME = "23:59"
"""A due date given without a time is due at the end of that day."""

State = Literal["not started", "in progress", "done", "overdue"]
STATES: tuple[State, ...] = ("not started", "in progress", "done", "overdue")
STATE_WORDS: dict[str, str] = {
    "not started": N_("not started"),
    "in progress": N_("in progress"),
    "done": N_("done"),
    "overdue": N_("overdue"),
}
HOW_WORDS: dict[str, str] = {
    "mastered": N_("every target mastered"),
    "cap": N_("reached the cap without mastery"),
}


class AssignmentError(TranslatableError):
    """An assignment that cannot be made as given (nothing was saved)."""


class RosterError(TranslatableError):
    """A roster that cannot be saved as given (nothing was saved)."""


def new_id() -> str:
    """A new assignment's id: 8 random URL-safe characters."""
    return secrets.token_urlsafe(6)


def school_zone(env: Mapping[str, str] | None = None) -> str:
    """The school's time zone name (:data:`SCHOOL_TZ_ENV`), or ``"UTC"``."""
    name = (os.environ if env is None else env).get(SCHOOL_TZ_ENV, "").strip()
    return name if name and zone(name) is not None else "UTC"


def _parse_due(date_text: str, time_text: str) -> str | None:
    """``YYYY-MM-DDTHH:MM`` from a date and a time (empty: the end of the day), or None."""
    try:
        day = datetime.strptime(date_text.strip(), "%Y-%m-%d")
        clock = datetime.strptime(time_text.strip() or DEFAULT_TIME, "%H:%M")
    except ValueError:
        return None
    return f"{day:%Y-%m-%d}T{clock:%H:%M}"


def due_at(a: Assignment) -> datetime | None:
    """When ``a`` is due (an aware datetime on the school's clock), or None."""
    if not a.due:
        return None
    return datetime.strptime(a.due, DUE_FORMAT).replace(tzinfo=zone(a.tz) or timezone.utc)


def due_text(a: Assignment, lang: str) -> str:
    """The due date in ``lang`` ("vie, 11 dic 2026 15:00 (hora de España (Madrid))"), or
    ``""``."""
    from babel.dates import format_skeleton, get_timezone_location

    when = due_at(a)
    if when is None:
        return ""
    place = get_timezone_location(when.tzinfo, locale=lang) if a.tz != "UTC" else "UTC"
    return (f"{format_skeleton('yMMMEd', when, locale=lang)} "
            f"{format_skeleton('Hm', when, locale=lang)} ({place})")


def check_assignment(*, class_code: str, title: str, lessons: Sequence[str],
                     installed: Mapping[str, Lesson], now: datetime, due_date: str = "",
                     due_time: str = "", tz: str = "UTC", lang: str = "",
                     scaffolds: str = "", previous: Assignment | None = None) -> Assignment:
    """A checked assignment from what a teacher typed, or :class:`AssignmentError` saying
    what is wrong. ``installed``: the lessons by id; ``now``: an aware datetime (a due time
    already past is refused, unless an edit keeps the due time it had); ``previous``: the
    assignment this edits (its id and creation are kept)."""
    code, _cut = clean_name(class_code, MAX_CLASS)
    if not class_code.strip() or code == "anon":
        raise AssignmentError(N_("An assignment needs a class code: the one the students "
                                 "type with their name, like 6B."))
    if len(class_code.strip()) > MAX_CLASS:
        raise AssignmentError(N_("A class code can have at most {limit} characters."),
                              limit=MAX_CLASS)
    text = " ".join(title.split())
    if not text:
        raise AssignmentError(N_("An assignment needs a title, like \"Week 12: times\"."))
    if len(text) > MAX_TITLE:
        raise AssignmentError(N_("A title can have at most {limit} characters; this one has "
                                 "{count}."), limit=MAX_TITLE, count=len(text))
    chosen = list(dict.fromkeys(x.strip() for x in lessons if x.strip()))
    if not chosen:
        raise AssignmentError(N_("Choose at least one lesson."))
    if len(chosen) > MAX_LESSONS:
        raise AssignmentError(N_("An assignment can have at most {limit} lessons."),
                              limit=MAX_LESSONS)
    for lesson_id in chosen:
        lesson = installed.get(lesson_id)
        if lesson is None:
            raise AssignmentError(N_("There is no lesson \"{lesson}\" here."), lesson=lesson_id)
        if not lesson.plan.targets:
            raise AssignmentError(N_("The lesson \"{lesson}\" is free play: it has no skill to "
                                     "master, so it is never done. Choose a lesson with "
                                     "targets."), lesson=lesson_id)
    if zone(tz) is None:
        raise AssignmentError(N_("\"{zone}\" is not a time zone (write one like "
                                 "Europe/Madrid)."), zone=tz)
    due = ""
    if due_date.strip() or due_time.strip():
        if not due_date.strip():
            raise AssignmentError(N_("A due time needs a due date too."))
        parsed = _parse_due(due_date, due_time)
        if parsed is None:
            raise AssignmentError(N_("The due date \"{date}\" and time \"{time}\" are not a "
                                     "date and time; write them as 2026-12-11 and 15:00."),
                                  date=due_date.strip(), time=due_time.strip())
        due = parsed
    if lang:
        try:
            lang = normalize_lang(lang)
        except LanguageError as err:
            raise AssignmentError(N_("Unknown language: {lang}."), lang=lang) from err
    if scaffolds not in ("", "on", "off"):
        raise AssignmentError(N_("Scaffolds are on, off, or each lesson's own."))
    made = Assignment(id=previous.id if previous else new_id(), class_code=code, title=text,
                      lessons=tuple(chosen), due=due, tz=tz, lang=lang, scaffolds=scaffolds,
                      closed=previous.closed if previous else False,
                      created=previous.created if previous else "")
    when = due_at(made)
    unchanged = previous is not None and (previous.due, previous.tz) == (made.due, made.tz)
    if when is not None and when <= now and not unchanged:
        raise AssignmentError(N_("The due date {due} has already passed; choose a later "
                                 "one."), due=f"{made.due.replace('T', ' ')} ({made.tz})")
    return made


# -- the link that carries an assignment (Binder: no server) ------------------------------------

def assignment_query(a: Assignment) -> dict[str, str]:
    """The link's values that carry ``a`` whole (to the lessons page)."""
    values = {"assignment": a.id, "class": a.class_code, "title": a.title,
              "lessons": ",".join(a.lessons), "due": a.due,
              "tz": a.tz if a.due else "", "lang": a.lang, "scaffolds": a.scaffolds}
    return {k: v for k, v in values.items() if v}


LESSONS_PAGE = "Lessons.ipynb"


def assignment_link(a: Assignment) -> str:
    """The link to send the class: the lessons page carrying ``a`` whole, relative (as
    :func:`tutor.classroom.link.page_link`: it works wherever the pages' folder is served).
    """
    return f"{LESSONS_PAGE}?{urlencode(assignment_query(a))}"


def assignment_from_link(text: str, installed: Collection[str]
                         ) -> tuple[Assignment | None, list[Message]]:
    """The assignment a link pasted by the teacher carries (the whole address, a Binder link
    whose ``urlpath`` holds the page's, or only what follows its ``?``), read as the lessons
    page reads it (:func:`read_assignment`), with the notes about what was left out; None
    and a sentence if it carries none."""
    query = text.strip().split("?", 1)[1] if "?" in text else text.strip()
    query = query.split("#", 1)[0]
    wrapped = dict(parse_qsl(query)).get("urlpath", "") if len(query) <= MAX_QUERY else ""
    if "?" in wrapped:  # a Binder link: the page's own link is inside its urlpath
        query = wrapped.split("?", 1)[1]
    link = read_link(query, env={})
    found, notes = read_assignment(link.values, installed)
    if found is None and not notes:
        notes.append(Message(N_("This link carries no assignment: paste the link that "
                                "saving an assignment showed.")))
    return found, notes


def read_assignment(values: Mapping[str, str], installed: Collection[str]
                    ) -> tuple[Assignment | None, list[Message]]:
    """The assignment a link carries (None: it carries none, or its id is damaged), and the
    notes to show about what was left out. A link is typed by people: a lesson that is not
    here is left out, a due date that is not a date is dropped, a long title is cut, each
    said in a sentence; the page always opens."""
    notes: list[Message] = []
    raw_id = values.get("assignment", "").strip()
    if not raw_id:
        return None, notes
    if not ID.fullmatch(raw_id):
        notes.append(Message(N_("The assignment in this link is damaged (its id); ask your "
                                "teacher for the link again.")))
        return None, notes
    code, _cut = clean_name(values.get("class", ""), MAX_CLASS)
    title = " ".join(values.get("title", "").split())
    if len(title) > MAX_TITLE:
        notes.append(Message(N_("The assignment's title in the link is long; keeping its "
                                "first {limit} characters."), limit=MAX_TITLE))
        title = title[:MAX_TITLE].rstrip()
    lessons: list[str] = []
    for lesson_id in dict.fromkeys(x.strip() for x in values.get("lessons", "").split(",")):
        if not lesson_id:
            continue
        if lesson_id in installed and len(lessons) < MAX_LESSONS:
            lessons.append(lesson_id)
        else:
            notes.append(Message(N_("The lesson \"{lesson}\" of this assignment is not here; "
                                    "it is left out."), lesson=lesson_id[:40]))
    if not lessons:
        notes.append(Message(N_("This assignment's link names no lesson that is here; ask "
                                "your teacher for the link again.")))
    due, tz = values.get("due", "").strip(), values.get("tz", "UTC").strip() or "UTC"
    if zone(tz) is None:
        notes.append(Message(N_("The time zone in the link is unknown; reading the due date "
                                "as UTC.")))
        tz = "UTC"
    if due:
        date_text, _t, time_text = due.partition("T")
        parsed = _parse_due(date_text, time_text)
        if parsed is None:
            notes.append(Message(N_("The due date in the link is not a date; showing the "
                                    "assignment without one.")))
        due = parsed or ""
    lang = values.get("lang", "").strip()
    try:
        lang = normalize_lang(lang) if lang else ""
    except LanguageError:
        lang = ""
    scaffolds = values.get("scaffolds", "").strip()
    a = Assignment(id=raw_id, class_code="" if code == "anon" else code,
                   title=title or raw_id, lessons=tuple(lessons), due=due, tz=tz, lang=lang,
                   scaffolds=scaffolds if scaffolds in ("on", "off") else "")
    return a, notes


# -- rosters -------------------------------------------------------------------------------------

_HEADERS = {"name", "names", "student", "students", "nombre", "nombres", "alumno", "alumnos",
            "estudiante", "estudiantes", "alumna", "alumnas"}


@dataclass(frozen=True)
class RosterCheck:
    """A roster as the teacher gave it: the names (cleaned, in order), the names given
    twice (one student: the same key), and the pairs that only look alike (two students, or
    one misspelt: shown to the teacher, never merged)."""

    names: tuple[str, ...]
    duplicates: tuple[tuple[str, str], ...]
    alike: tuple[tuple[str, str], ...]


def _unaccented(name: str) -> str:
    return "".join(c for c in unicodedata.normalize("NFD", name_key(name))
                   if not unicodedata.combining(c))


def _one_edit(a: str, b: str) -> bool:
    """Whether ``a`` and ``b`` differ by one letter changed, added or removed."""
    if abs(len(a) - len(b)) > 1 or a == b:
        return False
    if len(a) == len(b):
        return sum(x != y for x, y in zip(a, b, strict=True)) == 1
    short, long = sorted((a, b), key=len)
    return any(long[:i] + long[i + 1:] == short for i in range(len(long)))


def read_roster(text: str) -> RosterCheck:
    """A roster from pasted text or a CSV file's text: one student per line (the first
    column of a CSV; a first line that is a column title, like "name" or "nombre", is
    skipped; empty lines too). Names are cleaned as a link's are."""
    names: list[str] = []
    for i, row in enumerate(csv.reader(io.StringIO(text.replace("\r\n", "\n")))):
        cell = row[0] if row else ""
        name, _cut = clean_name(cell)
        if not cell.strip() or name == "anon":
            continue
        if i == 0 and name_key(name) in _HEADERS:
            continue
        names.append(name)
    seen: dict[str, str] = {}
    duplicates: list[tuple[str, str]] = []
    kept: list[str] = []
    for name in names:
        key = name_key(name)
        if key in seen:
            duplicates.append((seen[key], name))
        else:
            seen[key] = name
            kept.append(name)
    alike = [(a, b) for i, a in enumerate(kept) for b in kept[i + 1:]
             if _unaccented(a) == _unaccented(b)
             or (min(len(a), len(b)) >= 4 and _one_edit(_unaccented(a), _unaccented(b)))]
    return RosterCheck(names=tuple(kept), duplicates=tuple(duplicates), alike=tuple(alike))


def check_roster(check: RosterCheck) -> list[str]:
    """The names to save, or :class:`RosterError`: an empty roster, one that gives a
    student twice (the teacher says which one they meant; nothing is merged silently), or a
    name no student can have (:func:`tutor.storage.names.name_problem`: an invisible
    character, letters of two scripts, which the store refuses when the student plays)."""
    if not check.names:
        raise RosterError(N_("The roster is empty: paste one student's name per line, or "
                             "upload a CSV file with the names in its first column."))
    if check.duplicates:
        pairs = "; ".join(f"\"{a}\" / \"{b}\"" if a != b else f"\"{a}\""
                          for a, b in check.duplicates)
        raise RosterError(N_("These names are on the roster twice: {names}. Keep each "
                             "student once; nothing was saved."), names=pairs)
    if len(check.names) > MAX_ROSTER:
        raise RosterError(N_("A roster can have at most {limit} students."), limit=MAX_ROSTER)
    for name in check.names:  # the store would refuse the student once they play
        problem = name_problem(name)
        if problem is not None:
            raise RosterError(N_("The roster cannot hold this name: {problem} Nothing was "
                                 "saved."), problem=problem)
    return list(check.names)


# -- who has done it ---------------------------------------------------------------------------

@dataclass(frozen=True)
class LessonState:
    """One assigned lesson for one student."""

    lesson: str
    started: bool
    over: EndReason | None
    """Why it is over (:func:`tutor.course.lesson_end.end_reason`), or None."""
    finished: datetime | None
    """When it was over: the last row of the session that ended it (mastered: of the
    lesson)."""
    targets: int
    mastered: int


@dataclass(frozen=True)
class StudentState:
    """One row of the assignment's table."""

    student: str
    on_roster: bool
    state: State
    lessons: tuple[LessonState, ...]
    stuck: bool
    """Stuck now, as the live view says."""

    @property
    def done_lessons(self) -> int:
        return sum(s.over is not None for s in self.lessons)

    @property
    def targets(self) -> int:
        return sum(s.targets for s in self.lessons)

    @property
    def targets_mastered(self) -> int:
        return sum(s.mastered for s in self.lessons)

    @property
    def how(self) -> str:
        """``"mastered"`` (every lesson by mastery), ``"cap"`` (one at least by a cap) or
        ``""`` (not done)."""
        if self.state != "done":
            return ""
        return "mastered" if all(s.over == "mastered" for s in self.lessons) else "cap"

    @property
    def finished(self) -> datetime | None:
        """When the last assigned lesson was over (done students), or None."""
        if not self.lessons or any(s.finished is None for s in self.lessons):
            return None
        return max(s.finished for s in self.lessons if s.finished is not None)


@dataclass(frozen=True)
class AssignmentTable:
    """An assignment's table: one row per roster student, then anyone else who played it
    from its link; and the assigned lessons that are no longer installed (left out)."""

    assignment: Assignment
    rows: tuple[StudentState, ...]
    missing: tuple[str, ...]
    overdue: bool
    """Whether the due time has passed."""

    def count(self, state: State) -> int:
        return sum(r.state == state for r in self.rows)

    @property
    def stuck(self) -> tuple[StudentState, ...]:
        return tuple(r for r in self.rows if r.stuck)


def _lesson_state(lesson: Lesson, rows: Sequence[Attempt], counts: StudentCounts | None,
                  ongoing: str | None = None,
                  ended: Mapping[str, tuple[EndReason, datetime]] | None = None
                  ) -> LessonState:
    """``ongoing``: the session the student is playing now (the live view's state, from
    :func:`tutor.classroom.live.student_state`, playing or stuck): a lesson is not over in
    it, whatever its rows say, until the live view says they finished (issue 52 part 3).
    ``ended``: the student's sessions in which the play page ended this lesson (the store's
    record: why, when), over whatever their rows say (a cap the rows cannot show)."""
    ended = ended or {}
    mine = [a for a in rows if a.lesson == lesson.id]
    targets = lesson.plan.targets
    mastered = sum(counts.p_known(t, lesson.mastery)[1] for t in targets) if counts else 0
    sessions: dict[str, list[datetime]] = {}
    for a in mine:
        sessions.setdefault(a.session, []).append(parse_time(a.time))
    ended_rows = {k: v for k, v in sessions.items() if k != ongoing}
    over: EndReason | None = None
    finished: datetime | None = None
    if counts is not None and ended_rows:
        if mastered == len(targets):
            over, finished = "mastered", max(max(t) for t in ended_rows.values())
        else:
            for session, times in sorted(ended_rows.items(), key=lambda kv: min(kv[1])):
                recorded = ended.get(session)
                reason = (recorded[0] if recorded is not None
                          else lesson_over(counts, lesson, session, times))
                if reason is not None:
                    over, finished = reason, max(times)
                    break
    return LessonState(lesson=lesson.id, started=bool(mine), over=over, finished=finished,
                       targets=len(targets), mastered=mastered)


def assignment_table(a: Assignment, roster: Sequence[str], attempts: Iterable[Attempt],
                     lessons: Mapping[str, Lesson], now: datetime, *,
                     counts: Mapping[str, StudentCounts] | None = None,
                     memo: CountsMemo | None = None,
                     live: LiveView | None = None,
                     marks: Iterable[SessionMark] = ()) -> AssignmentTable:
    """The assignment's table at ``now`` (aware). ``roster``: the class's (may be empty);
    ``attempts``: the store's (any students); ``lessons``: the installed ones by id;
    ``counts``: each student's counts if the page has them (the class table's), else made
    here (with ``memo``); ``live``: the live view, whose stuck students are marked;
    ``marks``: the store's session marks (the lessons the play page ended: over in that
    session, whatever its rows say)."""
    ends, _files = session_ends(marks)
    ended_by: dict[tuple[str, str], dict[str, tuple[EndReason, datetime]]] = {}
    for (key, session, lesson_id), end in ends.items():
        ended_by.setdefault((key, lesson_id), {})[session] = end
    rows_by_key: dict[str, list[Attempt]] = {}
    names: dict[str, str] = {}
    from_link: list[str] = []
    for att in attempts:
        key = name_key(att.student)
        rows_by_key.setdefault(key, []).append(att)
        names.setdefault(key, att.student)
        if session_assignment(att.session) == a.id and key not in from_link:
            from_link.append(key)
    members: dict[str, tuple[str, bool]] = {}
    for name in roster:
        members.setdefault(name_key(name), (name, True))
    for key in sorted(from_link, key=lambda k: (names[k].casefold(), names[k])):
        members.setdefault(key, (names[key], False))
    if counts is None:
        wanted = [att for key in members for att in rows_by_key.get(key, [])]
        counts = class_counts(wanted, lessons, memo)
    counts_by_key = {name_key(n): c for n, c in counts.items()}
    present = [lessons[x] for x in a.lessons if x in lessons]
    missing = tuple(x for x in a.lessons if x not in lessons)
    due = due_at(a)
    late = due is not None and now >= due
    stuck = {name_key(r.student) for r in live.rows if r.state == "stuck"} if live else set()
    ongoing = {name_key(r.student): r.session for r in live.rows
               if r.state in ("playing", "stuck")} if live else {}
    table: list[StudentState] = []
    for key, (name, on_roster) in members.items():
        rows = rows_by_key.get(key, [])
        states = tuple(_lesson_state(ls, rows, counts_by_key.get(key), ongoing.get(key),
                                     ended_by.get((key, ls.id)))
                       for ls in present)
        state: State
        if states and all(s.over is not None for s in states):
            state = "done"
        elif late:
            state = "overdue"
        elif not any(s.started for s in states):
            state = "not started"
        else:
            state = "in progress"
        table.append(StudentState(student=name, on_roster=on_roster, state=state,
                                  lessons=states, stuck=key in stuck))
    return AssignmentTable(assignment=a, rows=tuple(table), missing=missing, overdue=late)


def assignment_csv(table: AssignmentTable, lang: str) -> str:
    """The table as CSV text (every field quoted, a leading formula character
    neutralised, as the class table's CSV)."""
    out = io.StringIO()
    writer = csv.writer(out, quoting=csv.QUOTE_ALL, lineterminator="\n")
    writer.writerow(["student", "on_roster", "state", "lessons_done", "lessons",
                     "targets_mastered", "targets", "how", "finished", "stuck_now"])
    for r in table.rows:
        writer.writerow([csv_cell(r.student), int(r.on_roster), r.state, r.done_lessons,
                         len(r.lessons), r.targets_mastered, r.targets, r.how,
                         r.finished.isoformat(timespec="minutes") if r.finished else "",
                         int(r.stuck)])
    return out.getvalue()


def files_for_assignment(files: Sequence[tuple[str, Sequence[Attempt]]], a: Assignment,
                         roster: Sequence[str]
                         ) -> tuple[list[str], list[tuple[str, Message]]]:
    """Which uploaded files (name, rows) belong to ``a``: a file whose student is on the
    roster, or who played one of its lessons from its link. The others are named with the
    reason, to be left out of its table (not mixed in)."""
    on_roster = {name_key(n) for n in roster}
    belong: list[str] = []
    others: list[tuple[str, Message]] = []
    for file_name, rows in files:
        students = {name_key(r.student) for r in rows}
        from_link = any(session_assignment(r.session) == a.id for r in rows)
        if rows and (from_link or students & on_roster):
            belong.append(file_name)
            continue
        tags = {session_assignment(r.session) for r in rows} - {None}
        if not rows:
            why = Message(N_("{file}: no answers in it."), file=file_name)
        elif tags:
            why = Message(N_("{file}: played from another assignment's link, and its "
                             "student is not on this class's list."), file=file_name)
        else:
            why = Message(N_("{file}: its student is not on this class's list and played "
                             "no lesson from this assignment's link."), file=file_name)
        others.append((file_name, why))
    return belong, others


def with_closed(a: Assignment, closed: bool) -> Assignment:
    """``a`` closed (students no longer see it on their lessons page) or open again."""
    return replace(a, closed=closed)


def open_for(assignments: Iterable[Assignment]) -> list[Assignment]:
    """The open assignments, the soonest due first (then those with no due date, oldest
    first): the order a student's lessons page lists them in."""
    far = datetime.max.replace(tzinfo=timezone.utc) - timedelta(days=1)
    return sorted((a for a in assignments if not a.closed),
                  key=lambda a: (due_at(a) or far, a.created, a.id))
