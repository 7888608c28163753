"""A student's assignments, as their lessons page and play page see them (issue 45).

Where they come from:

* a class server's store: the open assignments (:func:`~tutor.classroom.assignments.open_for`)
  of the classes whose roster holds the student (``store.classes_of``) and, off a hub, of the
  class code the student typed (or their link's ``class=``). A store opened for one student
  (a hub's) already gives only their own class's;
* a link that names an assignment (``assignment=<id>``): the store's row when the store
  knows that id (a link cannot change it); a store that refuses it (another class's, on a
  hub) gives one sentence and nothing else of it; a store that does not know it (Binder:
  no server) leaves the link's own values (:func:`~tutor.classroom.assignments.read_assignment`),
  with a sentence for each thing it had to leave out.

Each with the student's state (:func:`~tutor.classroom.assignments.assignment_table` for a
roster of one: their own answers). A store that cannot answer (busy, unreachable, older)
gives a sentence; the lessons are listed all the same.

The play page reads the same link (:func:`play_assignment`): the game is tagged with the
assignment (:func:`~tutor.storage.records.tagged_session`) unless the id is damaged or the
store refuses it, and the assignment's scaffolds setting (``on``/``off``) is the store's
when it knows the assignment, else the link's.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Protocol, runtime_checkable
from urllib.parse import urlencode

from tutor.classroom.assignments import (
    assignment_query,
    assignment_table,
    open_for,
    read_assignment,
)
from tutor.classroom.link import page_link, unnamed
from tutor.classroom.live import class_counts
from tutor.i18n import N_, Message
from tutor.storage.class_rows import Assignment
from tutor.storage.records import ID, SessionMark, StoreError
from tutor.storage.store import StoreAccessError

if TYPE_CHECKING:
    from tutor.classroom.assignments import StudentState
    from tutor.course.lessons import Lesson
    from tutor.storage.records import Attempt

__all__ = ["CLOSED", "NOT_COUNTED_DAMAGED", "NOT_COUNTED_OTHER_CLASS", "OTHER_CLASS",
           "UNREADABLE", "AssignmentReader", "MyAssignment", "MyAssignments", "PlayAssignment",
           "assignment_play_link", "my_assignments", "play_assignment"]

OTHER_CLASS = N_("This link's assignment is for another class, so it is not shown here. Your "
                 "own class's assignments are listed; ask your teacher if one is missing.")
CLOSED = N_("The assignment “{title}” in this link is closed: your teacher no longer asks "
            "for it.")
UNREADABLE = N_("Your assignments cannot be shown right now ({error}). Your lessons are "
                "listed below; reload the page in a moment to see them.")
NOT_COUNTED_OTHER_CLASS = N_("This link's assignment is for another class, so this game does "
                             "not count for it (your answers are saved as usual).")
NOT_COUNTED_DAMAGED = N_("The assignment in this link is damaged (its id), so this game does "
                         "not count for it (your answers are saved as usual). Ask your "
                         "teacher for the link again.")


@runtime_checkable
class AssignmentReader(Protocol):
    """What a store that knows assignments answers (:class:`tutor.storage.store.Store`, and
    the hub's :class:`tutor.storage.store.ServiceStore`)."""

    owner: str | None

    def classes_of(self, student: str) -> list[str]: ...

    def assignments(self, class_code: str | None = None) -> list[Assignment]: ...

    def assignment(self, assignment_id: str) -> Assignment | None: ...

    def session_marks(self, since: str | None = None, student: str | None = None
                      ) -> list[SessionMark]: ...


def _reader(store: object) -> AssignmentReader | None:
    """``store`` if it knows assignments (a store of an older tutor, or none: None)."""
    return store if isinstance(store, AssignmentReader) else None


@dataclass(frozen=True)
class MyAssignment:
    """One assignment on a student's lessons page."""

    assignment: Assignment
    state: StudentState
    """The student's row of its table (:class:`tutor.classroom.assignments.StudentState`)."""
    missing: tuple[str, ...] = ()
    """Its lessons that are not installed here (left out, each said)."""
    notes: tuple[Message, ...] = ()
    """What its link had to leave out (a link edited by hand)."""


@dataclass(frozen=True)
class MyAssignments:
    """What the lessons page shows first: the student's open assignments (soonest due
    first) and the sentences about what could not be shown."""

    shown: tuple[MyAssignment, ...] = ()
    notes: tuple[Message, ...] = ()


def _from_store(reader: AssignmentReader, student: str, class_code: str,
                link_id: str) -> tuple[list[Assignment], Assignment | None, bool]:
    """The open and closed assignments of the student's classes, the link's assignment as
    the store has it (None: unknown here) and whether the store refused it."""
    codes = set(reader.classes_of(student)) if not unnamed(student) else set()
    if class_code and reader.owner is None:  # off a hub: the class code typed counts too
        codes.add(class_code)
    found = [a for code in sorted(codes) for a in reader.assignments(code)]
    linked: Assignment | None = None
    refused = False
    if link_id:
        try:
            linked = reader.assignment(link_id)
        except StoreAccessError:
            refused = True
    return found, linked, refused


def my_assignments(store: object, student: str, class_code: str, values: Mapping[str, str],
                   lessons: Mapping[str, Lesson], attempts: Sequence[Attempt],
                   now: datetime) -> MyAssignments:
    """The student's open assignments with their state at ``now`` (aware), and the
    sentences to show. ``store``: the page's (None, or one that does not know assignments:
    only the link's); ``values``: the link's (:attr:`tutor.classroom.link.Link.values`);
    ``lessons``: the installed ones by id; ``attempts``: the student's own."""
    notes: list[Message] = []
    link_id = values.get("assignment", "").strip()
    listed: list[Assignment] = []
    linked: Assignment | None = None
    link_notes: list[Message] = []
    known = False
    reader = _reader(store)
    marks: list[SessionMark] = []  # the lessons the play page ended for the student
    if reader is not None:
        try:
            listed, linked, refused = _from_store(reader, student, class_code,
                                                  link_id if ID.fullmatch(link_id) else "")
            if not unnamed(student):
                marks = reader.session_marks(student=student)
        except StoreError as err:
            notes.append(Message(UNREADABLE, error=err.msg))
            if reader.owner is not None:  # a hub's: a link cannot stand in for its row
                link_id = ""
        else:
            known = linked is not None
            if refused:
                notes.append(Message(OTHER_CLASS))
                link_id = ""
    if link_id and not known:
        linked, link_notes = read_assignment(values, lessons)
    if linked is not None and linked.closed and known:
        notes.append(Message(CLOSED, title=linked.title))
    by_id = {a.id: a for a in listed}
    if linked is not None:
        by_id.setdefault(linked.id, linked)
    shown = []
    counts = class_counts(attempts, lessons) if by_id else {}  # replayed once for them all
    for a in open_for(by_id.values()):
        table = assignment_table(a, [student], attempts, lessons, now, counts=counts,
                                 marks=marks)
        own_notes = tuple(link_notes) if linked is not None and a.id == linked.id \
            and not known else ()
        shown.append(MyAssignment(assignment=a, state=table.rows[0], missing=table.missing,
                                  notes=own_notes))
    if linked is None:  # a damaged id: read_assignment said so
        notes.extend(link_notes)
    return MyAssignments(shown=tuple(shown), notes=tuple(notes))


def assignment_play_link(page: str, a: Assignment, lesson: str, lang: str, student: str,
                         class_code: str = "") -> str:
    """The link that plays ``lesson`` of ``a``: the play page's as the lessons page makes it
    (the student's name and class), with the assignment's id, its language if it sets one,
    its scaffolds setting if it sets one, and the rest of the assignment (title, lessons,
    due date) so that the lesson's end offers its next lesson and leads back to it where no
    store knows it (Binder; issue 52)."""
    base = page_link(page, lesson=lesson, lang=a.lang or lang, student=student,
                     class_code=class_code or a.class_code)
    query = assignment_query(a)
    carried = {"assignment": a.id, **{k: v for k, v in query.items()
                                      if k not in ("assignment", "class", "lang")}}
    if unnamed(student):  # page_link leaves the class out without a name: the link keeps it
        carried["class"] = a.class_code
    return f"{base}{'&' if '?' in base else '?'}{urlencode(carried)}"


_SCAFFOLD = {"on": True, "off": False}
"""An assignment's scaffolds setting as the lesson's ``scaffold`` (absent: the lesson's own)."""


@dataclass(frozen=True)
class PlayAssignment:
    """What the play page does with a link's assignment: the id its game is tagged with
    (None: not tagged), the scaffolds its lesson opens with (None: the lesson's own) and
    the sentence to show (None: nothing to say)."""

    tag: str | None = None
    scaffold: bool | None = None
    note: Message | None = None
    assignment: Assignment | None = None
    """The assignment itself (its lessons in order: the lesson's end leads to the next):
    the store's, else what the link carries (None: neither, or not counted)."""


def play_assignment(values: Mapping[str, str], store: object,
                    installed: Collection[str] = ()) -> PlayAssignment:
    """The play page's link (:attr:`tutor.classroom.link.Link.values`) read for its
    assignment. A store that knows the assignment gives its scaffolds setting (an edited
    link cannot change it); one that refuses it (another class's) leaves the game untagged,
    saying so; a store that does not know it (Binder) takes the link's, with the lessons of
    it that are ``installed``."""
    raw = values.get("assignment", "").strip()
    scaffolds = values.get("scaffolds", "").strip()
    if not raw:
        return PlayAssignment(scaffold=_SCAFFOLD.get(scaffolds))
    if not ID.fullmatch(raw):
        return PlayAssignment(scaffold=_SCAFFOLD.get(scaffolds),
                              note=Message(NOT_COUNTED_DAMAGED))
    reader = _reader(store)
    row: Assignment | None = None
    if reader is not None:
        try:
            row = reader.assignment(raw)
        except StoreAccessError:
            return PlayAssignment(note=Message(NOT_COUNTED_OTHER_CLASS))
        except StoreError:
            row = None  # busy or out of reach: the link's
        if row is not None:
            scaffolds = row.scaffolds
    if row is None and values.get("lessons", "").strip():
        row, _notes = read_assignment(values, installed)  # the play page says nothing more
    return PlayAssignment(tag=raw, scaffold=_SCAFFOLD.get(scaffolds), assignment=row)
