"""What the lessons page and the teacher page show, as data: each lesson's progress for a
student, the class table (student × skill), the most frequent named mistakes, and progress
files merged into the store. Everything is rebuilt from the attempts themselves, so a file
handed in from Binder reads the same as the student's own progress.
"""

from __future__ import annotations

import csv
import io
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tutor.i18n import N_, Message
from tutor.link import ANONYMOUS, unnamed
from tutor.mastery import SKILLS, BKTParams, Mastery
from tutor.records import KC_SEPARATOR, Attempt, Outcome, StoreError

__all__ = ["MISTAKE_NAMES", "ClassFiles", "ClassRow", "LessonProgress", "MergeResult", "Mistake",
           "class_csv", "class_grid", "class_table", "frequent_mistakes", "lesson_progress",
           "merge_files", "merge_student_files", "refresh_mastery"]

MISTAKE_NAMES: dict[str, str] = {
    "added_instead_of_multiplied": N_("added instead of multiplying"),
    "multiplied_instead_of_added": N_("multiplied instead of adding"),
    "doubled_instead_of_squared": N_("doubled T instead of squaring it"),
    "squared_instead_of_doubled": N_("squared T instead of doubling it"),
    "sum_of_squares": N_("squared each half and added them (a² + b²)"),
    "forgot_own_number": N_("left out the tile's own number"),
    "subtracted_own_number": N_("subtracted the tile's own number"),
    "plus_minus_as_double": N_("counted T twice on a +/- play"),
    "used_near_end": N_("used the near end instead of the other end"),
    "one_half_only": N_("counted only one half of the other end"),
    "forgot_symbol_value": N_("left out the value of a symbol half"),
    "times_table_slip": N_("a slip in the times table"),
    "wrong_factor": N_("multiplied by the wrong number"),
    "forgot_to_double": N_("counted T once instead of twice"),
    "stopped_at_t": N_("stopped at T"),
    "ignored_power_vs_power": N_("missed the power tile at the other end"),
    "counted_own_hand": N_("counted the winner's own hand"),
    "missed_a_hand": N_("left out one of the hands"),
    "dropped_the_minus": N_("dropped the minus sign"),
    "stopped_at_zero": N_("stopped at zero"),
    "added_the_loss": N_("added the points lost"),
    "wrong_player_loses": N_("took the points from the wrong player"),
    "added_the_hands": N_("added the hands instead of taking the differences"),
    "rounded_down": N_("rounded a half ten down instead of up"),
    "did_not_round": N_("gave the points without rounding them to tens"),
}
"""A short name of each catalogue mistake (:data:`tutor.diagnosis.CATALOG`) for the teacher;
translate with ``tutor.i18n.gettext(MISTAKE_NAMES[id], lang)``."""


@dataclass(frozen=True)
class LessonProgress:
    """One lesson as a student sees it on the lessons page."""

    lesson: Any
    """The :class:`tutor.lessons.Lesson`."""
    skills: tuple[tuple[str, float, bool], ...]
    """Each target skill: (skill, chance known, mastered)."""
    asked: int
    """Questions the student answered in this lesson."""

    @property
    def done(self) -> bool:
        """Every target skill of the lesson is mastered."""
        return bool(self.skills) and all(m for _, _, m in self.skills)


def lesson_progress(attempts: Sequence[Attempt], lessons: Sequence[Any]) -> list[LessonProgress]:
    """The lessons in order, each with the student's mastery of its target skills (rebuilt
    from ``attempts``, one student's)."""
    from tutor.practice import Plan
    from tutor.teacher import rebuild_mastery

    params = {lesson.id: lesson.mastery for lesson in lessons}
    mastery = rebuild_mastery(attempts, params)
    asked = Counter(a.lesson for a in attempts if a.outcome is not Outcome.HINT)
    out = []
    for lesson in lessons:
        focus = Plan(targets=lesson.targets).focus
        skills = tuple((s, mastery.state(s).p_known, mastery.state(s).mastered)
                       for s in SKILLS if s in focus)
        out.append(LessonProgress(lesson, skills, asked[lesson.id]))
    return out


@dataclass(frozen=True)
class ClassRow:
    """One student and skill of the class table."""

    student: str
    skill: str
    asked: int
    first_try_right: int
    p_known: float
    mastered: bool
    hints: int
    mean_seconds: float

    @property
    def accuracy(self) -> float | None:
        return self.first_try_right / self.asked if self.asked else None


def class_table(attempts: Iterable[Attempt],
                params: dict[str, BKTParams] | None = None) -> list[ClassRow]:
    """Student × skill, sorted by student then skill: questions asked, right at the first try,
    mastery, hints before answering and mean seconds to answer (rebuilt from the attempts,
    as ``python -m tutor report`` does)."""
    from tutor.teacher import rebuild_mastery

    by_student: dict[str, list[Attempt]] = {}
    for a in attempts:
        by_student.setdefault(a.student, []).append(a)
    rows = []
    for student in sorted(by_student):
        mastery: Mastery = rebuild_mastery(by_student[student], params)
        for skill in SKILLS:
            st = mastery.states.get(skill)
            if st is None or not st.asked:
                continue
            rows.append(ClassRow(student, skill, st.asked, st.first_try_right, st.p_known,
                                 st.mastered, st.hints_used, st.mean_seconds))
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
    from tutor.store_files import csv_cell

    out = io.StringIO()
    writer = csv.writer(out, quoting=csv.QUOTE_ALL, lineterminator="\n")
    writer.writerow(["student", "skill", "asked", "first_try_right", "first_try_accuracy",
                     "p_known", "mastered", "hints", "mean_seconds"])
    for r in rows:
        acc = "" if r.accuracy is None else f"{r.accuracy:.3f}"
        writer.writerow([csv_cell(r.student), r.skill, r.asked, r.first_try_right, acc,
                         f"{r.p_known:.3f}", int(r.mastered), r.hints, f"{r.mean_seconds:.1f}"])
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


def frequent_mistakes(attempts: Iterable[Attempt], top: int = 3) -> dict[str, list[Mistake]]:
    """Per skill, the ``top`` named mistakes of wrong answers (most frequent first), each
    with how many times and students it was seen and one example answer."""
    from tutor.diagnosis import CATALOG

    known = {r.id for r in CATALOG}
    seen: dict[tuple[str, str], list[Attempt]] = {}
    for a in attempts:
        if a.outcome is Outcome.INCORRECT and a.feedback in known:
            skill = a.kc.split(KC_SEPARATOR)[0]
            seen.setdefault((skill, a.feedback), []).append(a)
    out: dict[str, list[Mistake]] = {}
    for (skill, rule), rows in sorted(seen.items(), key=lambda kv: -len(kv[1])):
        example = rows[0]
        out.setdefault(skill, []).append(Mistake(
            skill, rule, len(rows), len({r.student for r in rows}), example.input,
            example.expected))
    return {s: v[:top] for s, v in out.items()}


@dataclass
class MergeResult:
    files: int = 0
    added: int = 0
    known: int = 0
    refused: list[str] = field(default_factory=list)
    """One line per file that was not a progress export (nothing of it was merged)."""
    students: set[str] = field(default_factory=set)


def _read_file(name: str, content: bytes, lang: str) -> list[Attempt]:
    """The attempts of one uploaded progress file; :class:`StoreError` (one line, in
    ``lang``) if it is not a progress export."""
    import tempfile

    from tutor.store_files import read_attempts

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / (Path(name).name or "progress.csv")
        path.write_bytes(content)
        return read_attempts(path, lang)


def merge_files(store: Any, files: Sequence[tuple[str, bytes]], lang: str = "en",
                on_progress: Callable[[int, int], None] | None = None) -> MergeResult:
    """Merge progress files (name, content) into ``store``: each file is checked whole and
    merged whole or refused with one line; attempts already there are skipped. Then the
    mastery of every student touched is rebuilt from all their attempts, so a student who
    loads their progress on a new Binder starts where they were. The teacher's merge: a
    file of answers without a name, or a second student's file under a name already
    uploaded, is refused (see :class:`ClassFiles`)."""
    return _merge(store, files, lang, on_progress, None)


def merge_student_files(store: Any, files: Sequence[tuple[str, bytes]], student: str,
                        lang: str = "en",
                        on_progress: Callable[[int, int], None] | None = None) -> MergeResult:
    """A student loading their own progress (the lessons page): as :func:`merge_files`, but
    a file holding anyone else's answers is refused whole, with a line saying whose they
    are. A page without a name (``"anon"``) takes the name of the one student in the files
    (``result.students``)."""
    return _merge(store, files, lang, on_progress, student)


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
    """

    def __init__(self) -> None:
        self.sessions: dict[str, tuple[str, set[str]]] = {}
        """Each name seen, with the first file that holds it and that name's sessions."""

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
        sessions = {n: {a.session for a in rows if a.student == n} for n in names}
        for name in names:
            seen = self.sessions.get(name)
            if seen is not None and not seen[1] & sessions[name]:
                return Message(N_("{file} and {other} both hold answers of “{student}”, "
                                  "from different sessions: two students may have typed the "
                                  "same name. Nothing of {file} was loaded; ask them to use "
                                  "names of their own (if it is one student's, upload {file} "
                                  "again on its own)."), file=file, other=seen[0],
                               student=name)
        for name in names:
            first, known = self.sessions.get(name, (file, set()))
            self.sessions[name] = (first, known | sessions[name])
        return None


def _merge(store: Any, files: Sequence[tuple[str, bytes]], lang: str,
           on_progress: Callable[[int, int], None] | None, student: str | None) -> MergeResult:
    result = MergeResult()
    expected = None if student in (None, ANONYMOUS) else student
    class_files = ClassFiles() if student is None else None
    for i, (name, content) in enumerate(files):
        result.files += 1
        try:
            rows = _read_file(name, content, lang)
        except StoreError as err:
            result.refused.append(str(err))
            rows = []
        if student is not None and rows:
            names = {a.student for a in rows}
            if expected is None and len(names) == 1:
                expected = next(iter(names))
            problem = _not_own(Path(name).name, names, expected)
            if problem is not None:
                result.refused.append(problem.translate(lang))
                rows = []
        if class_files is not None and rows:
            problem = class_files.problem(Path(name).name, rows)
            if problem is not None:
                result.refused.append(problem.translate(lang))
                rows = []
        if rows:
            added = store.merge(rows)
            result.added += added
            result.known += len(rows) - added
            result.students |= {a.student for a in rows}
        if on_progress is not None:
            on_progress(i + 1, len(files))
    for name in sorted(result.students):
        refresh_mastery(store, name)
    return result


def _not_own(file: str, names: set[str], student: str | None) -> Message | None:
    found = ", ".join(sorted(names)[:5]) + (", …" if len(names) > 5 else "")
    if student is None:
        return Message(N_("{file} holds the progress of several students ({found}): the "
                          "teacher page loads such files. Nothing of it was loaded."),
                       file=file, found=found)
    if names != {student}:
        return Message(N_("{file} holds the progress of {found}, not of {student}. Nothing "
                          "of it was loaded."), file=file, found=found, student=student)
    return None


def refresh_mastery(store: Any, student: str) -> Mastery:
    """Rebuild ``student``'s mastery from all their attempts in ``store`` and save it."""
    from tutor.teacher import rebuild_mastery

    mastery = rebuild_mastery(store.attempts(student))
    store.save_mastery(student, mastery)
    return mastery
