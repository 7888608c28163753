"""Honest counts everywhere (issue 33 part 3): a scripted session with known hints (pressing
"Hint" past the last rung too), answers shown, wrong answers with a named mistake and right
answers. Its numbers are the same from :mod:`tutor.teaching.counts`, on the play page (the
snapshot,
the skills panel, the lesson's summary), on the lessons page, on the teacher page's class
table after its exported file is uploaded into a fresh store, and in the class CSV.

docs/rules.md §4 ("Evidence"): a question counts once, by its first answer; right at the first try
means right with no hint before it; a reveal before any answer counts as wrong.
"""

from __future__ import annotations

import csv
import io
import random
import re
from dataclasses import dataclass
from pathlib import Path

from tests import driving as drive
from tutor.classroom.overview import class_csv, class_table, lesson_progress, merge_files
from tutor.course.lessons import lesson_params, list_lessons
from tutor.session.session import Session
from tutor.storage.records import Attempt, Outcome
from tutor.storage.store import Store
from tutor.teaching.counts import evidence_text, rungs_seen, student_counts
from tutor.teaching.diagnosis import CATALOG, diagnose
from tutor.teaching.hints import hint_ladder
from tutor.ui.lessons.lesson_list import lesson_list_html
from tutor.ui.play.skills import mastery_html
from tutor.ui.teacher.class_table import COLUMNS, class_table_html, sort_rows

LESSON = "04-times"
STUDENT = "ana"
QUESTIONS = 16


@dataclass
class Done:
    """What the script did at one question, and what the live tutor judged of it."""

    skill: str | None  # the live evidence's skill (None: no evidence, a repeated number)
    right_first: bool
    attempts: int
    hints: int  # presses of "Hint" that showed a rung (issue 43: no feedback rung)
    revealed: bool
    presses: int  # "Hint" pressed


def _named_mistake(q: object) -> int | None:
    """A wrong value the diagnosis names as one catalogue mistake, if this question has one."""
    for rule in CATALOG:
        for value in rule.values(q):  # type: ignore[arg-type]
            if value != q.expected and diagnose(q, value, "en").kind == "named":  # type: ignore[attr-defined]
                return value
    return None


def _script(s: Session) -> tuple[list[Done], int]:
    """Play the lesson's first questions by a fixed script, cycling through: right at once;
    a hint, then right (hinted: not right at the first try); a named mistake, then "Hint"
    pressed past the last rung, then "Show me"; "Show me" at once; a wrong number, then
    right. Leaves one more question open after one hint. Returns what was done and the
    named mistakes made."""
    rng = random.Random(3)
    done: list[Done] = []
    named = 0
    for _ in range(20_000):
        q = s.pending_question
        if q is not None:
            p = s.asker.queue[0]
            k = len(done)
            if k == QUESTIONS:  # the last question: one hint, then the student leaves
                s.hint()
                return done, named
            attempts, revealed, presses, pressed = 0, False, 0, 0
            if k % 5 == 0:
                fb = drive.answer(s, str(q.expected))
                attempts = 1
            elif k % 5 == 1:
                s.hint()
                presses = pressed = 1
                fb = drive.answer(s, str(q.expected))
                attempts = 1
            elif k % 5 == 2:
                wrong = _named_mistake(q)
                fb = drive.answer(s, str(wrong if wrong is not None else q.expected + 1000))
                attempts = 1
                if fb.diagnosis is not None and fb.diagnosis.kind == "named":
                    named += 1
                presses = len(hint_ladder(q)) + 2  # past the last rung
                for _press in range(presses):
                    before = len(s.hints_given())
                    s.hint()
                    pressed += len(s.hints_given()) > before
                rungs = len(s.hints_given())
                assert rungs == len(hint_ladder(q))
                fb = drive.reveal(s)
                revealed = True
            elif k % 5 == 3:
                fb = drive.reveal(s)
                revealed = True
            else:
                drive.answer(s, str(q.expected + 1000))
                fb = drive.answer(s, str(q.expected))
                attempts = 2
            assert fb.done
            ev = p.evidence
            counted = ev is not None and ev.kind != "none"
            done.append(Done(ev.skill if counted else None,  # type: ignore[union-attr]
                             k % 5 == 0 and counted, attempts, pressed, revealed,
                             presses))
        elif s.current_player() is not None:
            drive.play(s, rng.randrange(len(s.legal_actions())))
        elif s.round.over:
            drive.new_round(s)
        else:
            raise AssertionError("stuck")
    raise AssertionError("the script did not reach its questions")


def _played(tmp_path: Path) -> tuple[Session, Store, list[Done], int]:
    store = Store(tmp_path / "ana.sqlite3", lang="en")
    s = drive.start(Session.from_lesson(LESSON, lang="en", student=STUDENT, store=store, seed=5,
                            drill=False))
    done, named = _script(s)
    assert s.flush()
    return s, store, done, named


def test_the_scripted_session_counts_the_same_everywhere(tmp_path: Path) -> None:
    s, store, done, named = _played(tmp_path)
    attempts = store.attempts(STUDENT)
    counts = student_counts(attempts, lesson_params())

    # -- the counts module: the script's numbers ------------------------------------------
    counted = [d for d in done if d.skill is not None]
    open_hints = 1  # the question left open after one hint
    assert named >= 1  # a wrong answer with a named mistake was among them
    assert counts.asked == len(counted) >= QUESTIONS - 2
    assert counts.first_try_right == sum(d.right_first for d in done) >= 3
    assert counts.attempts == sum(d.attempts for d in done)
    assert counts.revealed == sum(d.revealed for d in done) == 6  # k % 5 in (2, 3)
    assert counts.hints == sum(d.hints for d in done) + open_hints
    # pressing "Hint" past the last rung stores no row and counts nothing more (issue 33,
    # part 6); a rung given after a wrong answer is feedback, no hint (issue 43)
    hint_rows = sum(a.outcome is Outcome.HINT for a in attempts)
    assert hint_rows == counts.hints < sum(d.presses for d in done) + open_hints
    assert len(counts.questions) == QUESTIONS + 1
    assert sum(not q.finished for q in counts.questions) == 1
    for skill in {d.skill for d in counted}:
        mine = [d for d in counted if d.skill == skill]
        c = counts.skill(skill)  # type: ignore[arg-type]
        assert c is not None
        did = counts.for_skill(skill)  # type: ignore[arg-type]
        assert (c.asked, c.first_try_right, did.revealed) == (
            len(mine), sum(d.right_first for d in mine), sum(d.revealed for d in mine))

    # -- the play page: live mastery, the snapshot, the skills panel, the lesson's tally ----
    view = s.snapshot()
    seat = s.humans[0]
    assert (view.asked[seat], view.first_try_right[seat]) == (counts.asked,
                                                             counts.first_try_right)
    for sv in view.skills:
        c = counts.skill(sv.skill)
        if c is None:
            assert sv.asked == 0
            continue
        assert (sv.asked, sv.first_try_right, sv.streak, sv.mastered) == (
            c.asked, c.first_try_right, c.streak, c.mastered)
        assert round(sv.p_known, 12) == round(c.p_known, 12)
        st = s.mastery.state(sv.skill)
        assert st.hints_used == sum(q.hints_before_answer for q in counts.questions
                                    if q.counted and q.skill == sv.skill)
    panel = mastery_html(view, "en")
    for sv in view.skills:
        assert sv.evidence("en") in panel
    summary = s.lesson_summary()
    for row in summary.skills:
        c = counts.skill(row.skill)
        assert (row.asked, row.first_try_right) == ((c.asked, c.first_try_right) if c else (0, 0))

    # -- the lessons page: the same questions, the same mastery as the play page -------------
    progress = {p.lesson.id: p for p in lesson_progress(attempts, list_lessons("en"))}
    times = progress[LESSON]
    assert times.asked == counts.asked  # questions, not attempts (5 for 3 before)
    shown = {sv.skill: sv for sv in view.skills}
    for skill, p_known, mastered in times.skills:
        assert round(p_known, 12) == round(shown[skill].p_known, 12)  # 25 % vs 20 % before
        assert mastered == shown[skill].mastered
    page = lesson_list_html(list(progress.values()), "en", STUDENT)
    for c in times.evidence:
        assert c.evidence("en") in page

    # -- the teacher page: the exported file uploaded into a fresh store, and the CSV --------
    handed_in = tmp_path / "ana.csv"
    store.export_csv(handed_in, STUDENT)
    with Store(tmp_path / "class.sqlite3", lang="en") as teacher:
        result = merge_files(teacher, [("ana.csv", handed_in.read_bytes())], "en")
        assert not result.refused and result.added == len(attempts)
        rows = class_table(teacher.attempts())
    assert [(r.skill, r.asked, r.first_try_right, r.hints, r.revealed, r.streak, r.mastered)
            for r in rows] == [(c.skill, c.asked, c.first_try_right,
                                counts.for_skill(c.skill).hints,
                                counts.for_skill(c.skill).revealed, c.streak, c.mastered)
                               for c in counts.skills]
    assert [round(r.p_known, 12) for r in rows] == [round(c.p_known, 12) for c in counts.skills]
    assert sum(r.hints for r in rows) == counts.hints
    assert sum(r.revealed for r in rows) == counts.revealed
    table = class_table_html(sort_rows(rows, "revealed", True), "en", "revealed", True)
    assert "Shown the answer" in table and [k for k, _n, _c in COLUMNS].count("revealed") == 1
    cells = re.findall(r"<tr data-student='ana' data-skill='([^']+)'>(.*?)</tr>", table)
    by_skill = {skill: re.findall(r"<t[dh][^>]*>(.*?)</t[dh]>", body) for skill, body in cells}
    for c in counts.skills:
        cell = by_skill[c.skill]
        did = counts.for_skill(c.skill)
        assert (int(cell[2]), int(cell[6]), int(cell[7])) == (c.asked, did.hints, did.revealed)
        assert c.evidence("en") in cell[4]
    sheet = list(csv.DictReader(io.StringIO(class_csv(rows))))
    assert [(d["skill"], int(d["asked"]), int(d["first_try_right"]), int(d["hints"]),
             int(d["revealed"]), int(d["streak"])) for d in sheet] == [
        (c.skill, c.asked, c.first_try_right, counts.for_skill(c.skill).hints,
         counts.for_skill(c.skill).revealed, c.streak)
        for c in counts.skills]
    s.close()
    store.close()


def _row(outcome: Outcome, n: int, hints: int, feedback: str = "",
         problem: str = "p1") -> Attempt:
    return Attempt(STUDENT, "s1", f"2024-05-01T12:00:{n:02d}+00:00", LESSON, problem, "gain",
                   outcome, "", feedback, "multiply", n, n == 1, hints, 1.0, 12, None)


def test_hints_count_each_rung_once_and_a_datashop_file_counts_hint_rows() -> None:
    """The last rung asked for three times (an older file) is one press; a file without the
    hints column (DataShop) counts its distinct hint rows."""
    rows = [_row(Outcome.HINT, 1, 1, "hint-1"), _row(Outcome.HINT, 2, 2, "hint-2"),
            _row(Outcome.HINT, 3, 2, "hint-2"), _row(Outcome.HINT, 4, 2, "hint-2"),
            _row(Outcome.GIVEUP, 5, 2, "revealed")]
    assert rungs_seen(rows) == 2
    no_column = [Attempt(**{**r.__dict__, "hints": 0}) for r in rows]
    assert rungs_seen(no_column) == 2
    counts = student_counts(rows, lesson_params())
    (c,) = counts.skills
    did = counts.for_skill(c.skill)
    assert (c.asked, c.first_try_right, did.hints, did.revealed, did.attempts) == (1, 0, 2, 1, 0)


def test_evidence_beside_mastery_in_both_languages() -> None:
    """0 right of 18 does not read like 0 of 1 (issue 33)."""
    assert evidence_text(18, 0, 0, "en") == "0 of 18 right"
    assert evidence_text(1, 0, 0, "en") == "0 of 1 right"
    assert evidence_text(7, 5, 3, "en") == "5 of 7 right, 3 in a row"
    assert evidence_text(18, 0, 0, "es") == "0 de 18 bien"
    assert evidence_text(7, 5, 3, "es") == "5 de 7 bien, 3 seguidas"
    assert evidence_text(0, 0, 0, "en") == "not asked yet"


def test_the_evidence_says_what_the_row_ruled_out(tmp_path: Path) -> None:
    """Issue 42 part 1: the mastery evidence shown to the student (the play page's skills
    panel), on the lessons page and to the teacher (the class table, from the handed-in
    file) says which mistakes the right answers ruled out, in the page's language: the
    same words everywhere, from the live mastery and from the stored attempts."""
    from tutor.teaching.diagnosis import MISTAKE_NAMES
    from tutor.teaching.mastery import STREAK_TO_MASTER

    store = Store(tmp_path / "ana.sqlite3", lang="en")
    s = drive.start(Session.from_lesson(LESSON, lang="en", student=STUDENT, store=store, seed=5))
    for _ in range(10_000):  # a perfect student, to the lesson's end (mastery)
        q = s.pending_question
        if q is not None:
            drive.answer(s, str(q.expected))
        elif s.current_player() is not None:
            drive.play(s, 0)
        elif s.lesson_over:
            break
        elif s.round.over:
            drive.new_round(s)
    assert s.flush() and s.mastery.state("multiply").mastered
    (sv,) = [v for v in s.snapshot().skills if v.skill == "multiply"]
    assert set(sv.ruled_out) == set(s.asker.cover["multiply"].shows)
    line = sv.evidence("en")
    assert f", {sv.streak} in a row; ruled out: " in line and sv.streak >= STREAK_TO_MASTER
    assert MISTAKE_NAMES["added_instead_of_multiplied"] in line
    assert "; descartado: sumó en lugar de multiplicar" in sv.evidence("es")
    assert line in mastery_html(s.snapshot(), "en")
    counts = student_counts(store.attempts(STUDENT), lesson_params())
    c = counts.skill("multiply")
    assert c is not None and c.evidence("en") == line
    progress = {p.lesson.id: p for p in lesson_progress(store.attempts(STUDENT),
                                                        list_lessons("en"))}
    assert line in lesson_list_html(list(progress.values()), "en", STUDENT)
    rows = class_table(store.attempts(STUDENT))
    table = class_table_html(rows, "en", "student", False)
    assert line in table
    s.close()
    store.close()
