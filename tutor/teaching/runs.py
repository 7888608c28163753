"""A question, from the stored attempts: a run of attempts at one step of one problem of one
session (:func:`question_runs`), its first answer, the hints pressed before it and whether it
was right at the first try. The counts (:mod:`tutor.teaching.counts`), the replayed mastery
(:mod:`tutor.teaching.replay`), a student's answers and the live view read questions so.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import datetime, timezone

from tutor.storage.records import Attempt, Outcome

__all__ = ["first_answer", "hints_before_answer", "hints_pressed", "question_runs",
           "right_first_try", "rungs_seen"]

_ENDS = (Outcome.CORRECT, Outcome.GIVEUP)


def _when(a: Attempt) -> datetime:
    t = datetime.fromisoformat(a.time.replace("Z", "+00:00"))
    return t if t.tzinfo is not None else t.replace(tzinfo=timezone.utc)


def question_runs(attempts: Iterable[Attempt]) -> list[list[Attempt]]:
    """The questions in ``attempts`` (one student's or many), each as its rows in attempt
    order, the questions in the order they were asked (the time of their first row; stored
    order on a tie). A run not ended by a right answer or a reveal is a question left open."""
    runs: dict[tuple[str, str, str, str], list[tuple[int, Attempt]]] = {}
    for i, a in enumerate(attempts):
        runs.setdefault((a.student, a.session, a.problem, a.step), []).append((i, a))
    found: list[tuple[datetime, int, list[Attempt]]] = []
    for rows in runs.values():
        run: list[tuple[int, Attempt]] = []
        for i, a in sorted(rows, key=lambda r: (r[1].attempt_at_step, r[0])):
            run.append((i, a))
            if a.outcome in _ENDS:
                found.append((_when(run[0][1]), run[0][0], [r for _, r in run]))
                run = []
        if run:
            found.append((_when(run[0][1]), run[0][0], [r for _, r in run]))
    return [rows for _, _, rows in sorted(found, key=lambda f: (f[0], f[1]))]


def _presses(rows: Sequence[Attempt]) -> int:
    """Hint presses the rows show: their hint rows, each rung once (each press that showed a
    rung saved one row, named by its rung: ``hint-2``; pressing again at the last rung saves
    none, and an older file's repeated row of the same rung counts once). The ``hints``
    column is not read: files written before issue 43 counted in it the rung a wrong answer
    gets as feedback, which is no press (a DataShop file has no such column at all)."""
    return len({a.feedback for a in rows if a.outcome is Outcome.HINT})


def first_answer(rows: Sequence[Attempt]) -> Attempt | None:
    """A question's first answer (or its reveal before any answer): its first row that is
    not a hint; None if the student left it after hints only."""
    return next((a for a in rows if a.outcome is not Outcome.HINT), None)


def hints_before_answer(rows: Sequence[Attempt]) -> int:
    """Hint presses before the question's first answer (or reveal): what the evidence rule
    reads (a hint before the first answer makes it no proof, docs/rules.md §4)."""
    first = first_answer(rows)
    if first is None:
        return _presses(rows)
    return _presses(rows[:rows.index(first) + 1])


def right_first_try(rows: Sequence[Attempt]) -> bool:
    """Whether a question (its rows) was right at the first try: its first answer right, with
    no hint before it. The one definition the counts, a student's answers
    (:mod:`tutor.classroom.student_answers`) and the live view (:mod:`tutor.classroom.live`) use;
    the counts
    count it only for a question that is evidence (:attr:`CountedQuestion.counted`)."""
    first = first_answer(rows)
    return (first is not None and first.outcome is Outcome.CORRECT
            and hints_before_answer(rows) == 0)


def hints_pressed(rows: Sequence[Attempt]) -> int:
    """Hint presses at a question, before or after its first answer (pressing "Hint" at the
    last rung again shows nothing new and adds nothing). The rung a wrong answer gets as
    feedback is no press: a student who answered wrong, then right, took no hint."""
    return _presses(rows)


rungs_seen = hints_pressed
"""The name this count had before issue 43 (it then counted the feedback rungs too)."""
