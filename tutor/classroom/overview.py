"""What the lessons page and the teacher page show, as data: each lesson's progress for a
student, the class table (student × skill), the most frequent named mistakes, and progress
files merged into the store. Everything is rebuilt from the attempts themselves, so a file
handed in from Binder reads the same as the student's own progress.
"""

from __future__ import annotations

import csv
import io
import re
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from typing import TYPE_CHECKING

from tutor.classroom.hand_in import Audience, replay_refusal, seal_refusal
from tutor.classroom.link import ANONYMOUS, unnamed
from tutor.course.lessons import lesson_params
from tutor.i18n import N_, Message, ngettext, visible
from tutor.storage.names import name_key
from tutor.storage.records import KC_SEPARATOR, Attempt, Outcome, StoreError
from tutor.storage.store_files import csv_cell, parse_progress
from tutor.teaching.counts import (
    SkillCounts,
    StudentCounts,
    counts_by_student,
    student_counts,
)
from tutor.teaching.diagnosis import CATALOG, MISTAKE_NAMES, mistake_skill
from tutor.teaching.mastery import SKILLS, Mastery, Params
from tutor.teaching.replay import rebuild_mastery
from tutor.teaching.replay import reviews_due as replayed_reviews_due
from tutor.teaching.review import Due

if TYPE_CHECKING:
    from tutor.course.lessons import Lesson
    from tutor.storage.progress_store import ProgressStore
    from tutor.storage.store_files import ProgressRows

__all__ = ["MISTAKE_NAMES", "ClassFiles", "ClassRow", "LessonProgress", "MergeResult", "Mistake",
           "class_csv", "class_grid", "class_table", "frequent_mistakes", "lesson_progress",
           "loaded_answers", "merge_files", "merge_student_files", "refresh_mastery",
           "reviews_due", "saved_attempts", "shown_name"]

# MISTAKE_NAMES, a short name of each catalogue mistake, lives with the catalogue
# (tutor.teaching.diagnosis); the pages import it from here too.


@dataclass(frozen=True)
class LessonProgress:
    """One lesson as a student sees it on the lessons page."""

    lesson: Lesson
    """The :class:`tutor.course.lessons.Lesson`."""
    skills: tuple[tuple[str, float, bool], ...]
    """Each target skill: (skill, chance known, mastered)."""
    asked: int
    """Questions the student was asked in this lesson, each once (:mod:`tutor.teaching.counts`)."""
    evidence: tuple[SkillCounts, ...] = ()
    """The student's counts of the target skills that have questions (what each mastery
    rests on: :meth:`SkillCounts.evidence`), in the order of :attr:`skills`."""

    def evidence_of(self, skill: str) -> SkillCounts | None:
        return next((c for c in self.evidence if c.skill == skill), None)

    @property
    def done(self) -> bool:
        """Every target skill of the lesson is mastered."""
        return bool(self.skills) and all(m for _, _, m in self.skills)


def lesson_progress(attempts: Sequence[Attempt], lessons: Sequence[Lesson]) -> list[LessonProgress]:
    """The lessons in order, each with the student's mastery of its target skills (rebuilt
    from ``attempts``, one student's)."""
    params = {lesson.id: lesson.mastery for lesson in lessons}
    counts = student_counts(attempts, params)
    out = []
    for lesson in lessons:
        focus = lesson.plan.focus  # free play: the lesson's own game's skills
        # A skill never asked starts at the lesson's own p_init, as on the play page.
        skills = tuple((s, *counts.p_known(s, lesson.mastery)) for s in SKILLS if s in focus)
        evidence = tuple(c for c in counts.skills if c.skill in focus)
        out.append(LessonProgress(lesson, skills, counts.for_lesson(lesson.id).asked,
                                  evidence))
    return out


def reviews_due(attempts: Sequence[Attempt], now: datetime,
                params: dict[str, Params] | None = None) -> list[Due]:
    """What one student (``attempts``, theirs) has due for review at ``now``:
    :func:`tutor.teaching.replay.reviews_due` with the installed lessons' knowledge tracing
    unless ``params`` (by lesson id) says otherwise."""
    return replayed_reviews_due(attempts, now, lesson_params() if params is None else params)


@dataclass(frozen=True, kw_only=True)
class ClassRow(SkillCounts):
    """One student and skill of the class table: the student's :class:`SkillCounts` of the
    skill (the numbers the play and lessons pages show), with whose they are and what the
    student did at its questions (:meth:`tutor.teaching.counts.StudentCounts.for_skill`)."""

    student: str
    hints: int
    """Hint rungs seen before each question ended, each once (:mod:`tutor.teaching.counts`)."""
    revealed: int = 0
    """Questions whose answer was shown ("Show me")."""


def class_table(attempts: Iterable[Attempt],
                params: dict[str, Params] | None = None,
                by_student: Mapping[str, StudentCounts] | None = None) -> list[ClassRow]:
    """Student × skill, sorted by student then skill: questions asked, right at the first try,
    mastery, hints, answers shown and mean seconds to answer, as :mod:`tutor.teaching.counts`
    counts
    them (rebuilt from the attempts, as ``python -m tutor report`` does). A skill appears
    once it has a question. ``by_student``: the counts of ``attempts``, if already made."""
    rows = []
    if by_student is None:
        by_student = counts_by_student(attempts, lesson_params() if params is None else params)
    for student, counts in by_student.items():
        for c in counts.skills:
            did = counts.for_skill(c.skill)
            rows.append(ClassRow(
                c.skill, c.asked, c.first_try_right, c.p_known, c.mastered, streak=c.streak,
                mean_seconds=c.mean_seconds, ruled_out=c.ruled_out, to_master=c.to_master,
                student=student, hints=did.hints, revealed=did.revealed))
    return rows


def class_grid(rows: Sequence[ClassRow]) -> tuple[list[str], list[str],
                                                  dict[tuple[str, str], ClassRow]]:
    """The class table as a grid for the heat map: the students (sorted), the skills asked
    (in teaching order) and each (student, skill) cell that has a row."""
    cells = {(r.student, r.skill): r for r in rows}
    students = sorted({r.student for r in rows})
    skills = [s for s in SKILLS if any(r.skill == s for r in rows)]
    return students, skills, cells


def class_csv(rows: Sequence[ClassRow]) -> str:
    """The class table as CSV text (a spreadsheet opens it); every field quoted, and a
    leading formula character neutralised, as the progress exports do."""
    out = io.StringIO()
    writer = csv.writer(out, quoting=csv.QUOTE_ALL, lineterminator="\n")
    writer.writerow(["student", "skill", "asked", "first_try_right", "first_try_accuracy",
                     "p_known", "mastered", "hints", "mean_seconds", "revealed", "streak"])
    for r in rows:
        acc = "" if r.accuracy is None else f"{r.accuracy:.3f}"
        writer.writerow([csv_cell(r.student), r.skill, r.asked, r.first_try_right, acc,
                         f"{r.p_known:.3f}", int(r.mastered), r.hints, f"{r.mean_seconds:.1f}",
                         r.revealed, r.streak])
    return out.getvalue()


@dataclass(frozen=True)
class Mistake:
    """A named mistake seen in a skill's first answers, with one example."""

    skill: str
    rule: str
    count: int
    students: int
    example_input: str
    example_expected: int | None
    names: tuple[str, ...] = ()
    """The students who made it, sorted."""


def frequent_mistakes(attempts: Iterable[Attempt], top: int = 3) -> dict[str, list[Mistake]]:
    """Per skill, the ``top`` named mistakes of wrong answers (most frequent first), each
    with how many times and students it was seen, those students' names and one example
    answer. A mistake is listed under the skill it belongs to
    (:func:`tutor.teaching.diagnosis.mistake_skill`), whichever question showed it: "added
    instead of multiplying" on a ×1 play (counted for finding T) is a multiplying mistake
    (issue 43); a mistake of no one skill (a slip) stays under the row's skill."""
    known = {r.id for r in CATALOG}
    seen: dict[tuple[str, str], list[Attempt]] = {}
    for a in attempts:
        if a.outcome is Outcome.INCORRECT and a.feedback in known:
            skill = mistake_skill(a.feedback) or a.kc.split(KC_SEPARATOR)[0]
            seen.setdefault((skill, a.feedback), []).append(a)
    out: dict[str, list[Mistake]] = {}
    for (skill, rule), rows in sorted(seen.items(), key=lambda kv: -len(kv[1])):
        example = rows[0]
        out.setdefault(skill, []).append(Mistake(
            skill, rule, len(rows), len({r.student for r in rows}), example.input,
            example.expected, tuple(sorted({r.student for r in rows}))))
    return {s: v[:top] for s, v in out.items()}


@dataclass
class MergeResult:
    files: int = 0
    added: int = 0
    known: int = 0
    refused: list[str] = field(default_factory=list)
    """One line per file that was not a progress export (nothing of it was merged)."""
    students: set[str] = field(default_factory=set)
    sessions: set[str] = field(default_factory=set)
    """The sessions of the files merged (the live view shows their students as from files)."""
    by_file: list[tuple[str, list[Attempt]]] = field(default_factory=list)
    """Each file merged: its name as the page shows it, and its rows (an assignment's table
    names the files that are not its own:
    :func:`tutor.classroom.assignments.files_for_assignment`)."""


CLOCK_SKEW = timedelta(days=1)
"""How far in the future an uploaded answer may be dated (a computer's clock set wrong, time
zones): an answer dated later than this after the merge is refused, and its file with it."""
_LONGEST_NAME = 80  # characters of an upload's name repeated on the page


def shown_name(name: str) -> str:
    """An upload's name as the page repeats it: the part after the last ``/`` or ``\\``,
    every control or invisible character as its escape, at most 80 characters. The name of
    an upload is data, never a path: nothing is written under it."""
    base = visible(re.split(r"[/\\]", name)[-1] or name) or "?"
    if len(base) <= _LONGEST_NAME:
        return base
    return base[: _LONGEST_NAME - 16] + "…" + base[-15:]


def _read_file(name: str, content: bytes, lang: str) -> ProgressRows:
    """The attempts of one uploaded progress file, with their lines and what its seal says;
    :class:`StoreError` (one line, in ``lang``) if it is not a progress export. The bytes are
    read as they are: no file is written, so no name can be a path, too long, or hold a NUL."""
    return parse_progress(content, shown_name(name), lang)


def loaded_answers(store: ProgressStore, names: Iterable[str]) -> list[Attempt]:
    """The answers ``store`` already holds of the students ``names`` (matched by
    :func:`tutor.storage.names.name_key`): what a file's answers are checked against for
    copies (:mod:`tutor.classroom.hand_in`)."""
    keys = {name_key(n) for n in names}
    return [a for s in store.students() if name_key(s) in keys for a in store.attempts(s)]


def _from_the_future(file: str, rows: Sequence[Attempt], now: datetime,
                     lang: str) -> str | None:
    """The line refusing a file with answers dated beyond :data:`CLOCK_SKEW` after ``now``."""
    latest = now + CLOCK_SKEW
    late = sum(1 for a in rows
               if datetime.fromisoformat(a.time.replace("Z", "+00:00")) > latest)
    if not late:
        return None
    return ngettext("{file}: {n} answer is dated after {date}, in the future: check the clock "
                    "of the computer it was saved on. Nothing of it was loaded.",
                    "{file}: {n} answers are dated after {date}, in the future: check the "
                    "clock of the computer they were saved on. Nothing of it was loaded.",
                    late, lang).format(file=file, n=late, date=latest.strftime("%Y-%m-%d %H:%M"))


def merge_files(store: ProgressStore, files: Sequence[tuple[str, bytes]], lang: str = "en",
                on_progress: Callable[[int, int], None] | None = None, *,
                now: datetime | None = None) -> MergeResult:
    """Merge progress files (name, content) into ``store``: each file is checked whole and
    merged whole or refused with one line; attempts already there are skipped. Then the
    mastery of every student touched is rebuilt from all their attempts, so a student who
    loads their progress on a new Binder starts where they were. A file changed after the
    tutor wrote it (its seal broken), one with no seal, and one holding rows the tutor could
    not have written are refused (:mod:`tutor.classroom.hand_in`), so they change no
    student's mastery. The teacher's merge: a
    file of answers without a name, or a second student's file under a name already
    uploaded, is refused (see :class:`ClassFiles`). A file with answers dated more than a day after
    ``now`` (default: the present) is refused."""
    return _merge(store, files, lang, on_progress, None, now)


def merge_student_files(store: ProgressStore, files: Sequence[tuple[str, bytes]], student: str,
                        lang: str = "en",
                        on_progress: Callable[[int, int], None] | None = None, *,
                        now: datetime | None = None) -> MergeResult:
    """A student loading their own progress (the lessons page): as :func:`merge_files` (with
    the same checks of the seal and the rows, its lines worded for the student), but a file
    holding anyone else's answers is refused whole, with a line saying whose they are. A page
    without a name (``"anon"``) takes the name of the one student in the files
    (``result.students``). Names are matched by :func:`tutor.storage.names.name_key`."""
    return _merge(store, files, lang, on_progress, student, now)


class ClassFiles:
    """The teacher's check of the files uploaded together: whose answers each file holds.

    * A file with answers of an unnamed student ("anon": a page opened without a name) is
      refused: under that one name the answers of different students cannot be told apart
      (a whole class on Binder would have become one record).
    * Two files that hold answers under the same name, from different sessions with no
      session in common, come from two students who typed the same name (a student's later
      file holds the earlier sessions too once they loaded their progress): the second is
      refused, and the line says how to load it when it is one student's after all (on its
      own, in a second upload).

    Names are one name by :func:`tutor.storage.names.name_key` ("José" typed as NFC or NFD).
    """

    def __init__(self) -> None:
        self.sessions: dict[str, tuple[str, set[str]]] = {}
        """Each name seen (by its key), with the first file that holds it and that name's
        sessions."""

    def problem(self, file: str, rows: Sequence[Attempt]) -> Message | None:
        """Why ``file`` (its attempts ``rows``) is refused, or None (it is then noted)."""
        names = sorted({a.student for a in rows})
        nameless = [n for n in names if unnamed(n)]
        if nameless:
            return Message(N_("{file} holds answers without a student's name (“{name}”): "
                              "under it the answers of different students cannot be told "
                              "apart. Nothing of it was loaded; ask the student to open the "
                              "lesson's link again, type their name, and hand in the new "
                              "file."), file=file, name=nameless[0])
        sessions: dict[str, set[str]] = {}
        for a in rows:
            sessions.setdefault(name_key(a.student), set()).add(a.session)
        for name in names:
            seen = self.sessions.get(name_key(name))
            if seen is not None and not seen[1] & sessions[name_key(name)]:
                return Message(N_("{file} and {other} both hold answers of “{student}”, "
                                  "from different sessions: two students may have typed the "
                                  "same name. Nothing of {file} was loaded; ask them to use "
                                  "names of their own (if it is one student's, upload {file} "
                                  "again on its own)."), file=file, other=seen[0],
                               student=name)
        for key, found in sessions.items():
            first, known = self.sessions.get(key, (file, set()))
            self.sessions[key] = (first, known | found)
        return None


def _merge(store: ProgressStore, files: Sequence[tuple[str, bytes]], lang: str,
           on_progress: Callable[[int, int], None] | None, student: str | None,
           now: datetime | None = None) -> MergeResult:
    result = MergeResult()
    now = now if now is not None else datetime.now(timezone.utc)
    expected = None if student in (None, ANONYMOUS) else student
    class_files = ClassFiles() if student is None else None
    audience: Audience = "teacher" if student is None else "student"
    for i, (name, content) in enumerate(files):
        result.files += 1
        file = shown_name(name)
        try:
            progress = _read_file(name, content, lang)
            rows = progress.attempts
            refusal = seal_refusal(file, progress, audience, lang)
        except StoreError as err:
            rows, refusal = [], str(err)
        if refusal is None and rows:
            refusal = _from_the_future(file, rows, now, lang)
        if refusal is None and student is not None and rows:
            names = {a.student for a in rows}
            if expected is None and len({name_key(n) for n in names}) == 1:
                expected = next(iter(names))
            problem = _not_own(file, names, expected)
            refusal = None if problem is None else problem.translate(lang)
        if refusal is None and rows:
            # before ClassFiles notes the file's names: a refused file holds no one's
            refusal = replay_refusal(file, progress, lang,
                                     loaded_answers(store, {a.student for a in rows}))
        if refusal is None and class_files is not None and rows:
            problem = class_files.problem(file, rows)
            refusal = None if problem is None else problem.translate(lang)
        if refusal is not None:
            result.refused.append(refusal)
        elif rows:
            added = _merge_in_batches(store, rows)
            result.added += added
            result.known += len(rows) - added
            result.students |= {a.student for a in rows}
            result.sessions |= {a.session for a in rows}
            result.by_file.append((file, list(rows)))
        if on_progress is not None:
            on_progress(i + 1, len(files))
    for name in sorted(result.students):
        refresh_mastery(store, name)
    return result


MERGE_HOLD_SECONDS = 0.2
"""About how long one batch of a merge holds the progress file's write lock."""
MERGE_PAUSE_SECONDS = 0.12
"""The pause after each batch. SQLite gives the lock to no one in turn: a waiting save looks
again every ≤ 100 ms (its busy handler's longest sleep), so the merge leaves the lock free
longer than that, and every save waiting finds it free before the next batch."""
_FIRST_BATCH = 500


def _merge_in_batches(store: ProgressStore, rows: Sequence[Attempt]) -> int:
    """``store.merge(rows)`` in batches of about :data:`MERGE_HOLD_SECONDS` each (their size
    follows the time the last one took), with a pause between them, so that a student's save
    never waits for a whole big file (issue 36: a minute). Returns how many rows were new. A
    file stopped half-way (the file stayed busy) keeps the batches merged: merging it again
    adds the rest, since known answers are skipped."""
    added, start, size = 0, 0, _FIRST_BATCH
    while start < len(rows):
        if start:
            time.sleep(MERGE_PAUSE_SECONDS)
        batch = rows[start:start + size]
        began = time.monotonic()
        added += store.merge(batch, from_file=True)
        took = max(time.monotonic() - began, 1e-3)
        start += len(batch)
        size = max(50, min(20_000, int(len(batch) * MERGE_HOLD_SECONDS / took)))
    return added


def _not_own(file: str, names: set[str], student: str | None) -> Message | None:
    found = ", ".join(sorted(names)[:5]) + (", …" if len(names) > 5 else "")
    if student is None:
        return Message(N_("{file} holds the progress of several students ({found}): the "
                          "teacher page loads such files. Nothing of it was loaded."),
                       file=file, found=found)
    if {name_key(n) for n in names} != {name_key(student)}:
        return Message(N_("{file} holds the progress of {found}, not of {student}. Nothing "
                          "of it was loaded."), file=file, found=found, student=student)
    return None


def refresh_mastery(store: ProgressStore, student: str) -> Mastery:
    """Rebuild ``student``'s mastery from all their attempts in ``store`` and save it."""
    mastery = rebuild_mastery(store.attempts(student), lesson_params())
    store.save_mastery_rows(student, mastery.to_dict())
    return mastery


def saved_attempts(store: ProgressStore | None, student: str) -> list[Attempt] | None:
    """``student``'s attempts in ``store`` (none without a store); None while the store cannot
    be reached (:class:`~tutor.storage.store.StoreBusyError`: an outage of the class's store,
    which a page says and outlives, issue 51)."""
    # lazy: `import tutor` loads no store, no sqlite3 (test_loading_a_lesson_loads_no_store)
    from tutor.storage.store import StoreBusyError

    if store is None:
        return []
    try:
        return store.attempts(student)
    except StoreBusyError:
        return None
