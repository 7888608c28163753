"""Each student's answers on the pages (issue 33 part 4), as widgets: on the teacher page a
student's name opens their answers, the mistakes table names its students and the class
table sorts by any column; the lessons page shows a student the same list of their own
answers. Student text (names, typed answers) is escaped. docs/rules.md §4: what a question is
and which answer counts."""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path
from typing import Any

from test_ui_pages import _rows, upload
from ui_views import cells

from tutor.classroom.colours import AA_CONTRAST, contrast_ratio
from tutor.classroom.overview import MISTAKE_NAMES, class_table
from tutor.classroom.student_answers import student_answers
from tutor.course.lessons import load_lesson
from tutor.i18n import gettext
from tutor.storage.records import KC_SEPARATOR, Attempt, Outcome
from tutor.storage.store import Store
from tutor.teaching.mastery import SKILL_NAMES, SKILLS
from tutor.ui import lessons_page, teacher_page
from tutor.ui.shared.answer_list import answer_table_html, result_text
from tutor.ui.shared.page_style import PAGE_CSS
from tutor.ui.teacher.class_table import COLUMNS, sort_rows


def _details(list_html: str) -> dict[str, str]:
    """Each student's disclosure in the teacher's list: name → its HTML."""
    return dict(re.findall(r"<details class='ld-student-answers' data-student='([^']+)'>(.*?)"
                           r"</details>", list_html, re.S))


def test_a_students_name_opens_their_answers_and_the_lessons_page_shows_the_same(
        link: Any, tmp_path: Path, class_files: list[tuple[str, bytes]]) -> None:  # noqa: F811
    link("lang=en")
    with Store(tmp_path / "class.sqlite3") as store:
        page = teacher_page(store=store)
        assert "No answers yet." in page.answers.list.value
        upload(page.upload.upload, class_files[:3])
        details = _details(page.answers.list.value)
        assert list(details) == ["student-00", "student-01", "student-02"]
        mine = student_answers(store.attempts("student-01"))
        opened = details["student-01"]
        summary = re.search(r"<summary>(.*?)</summary>", opened, re.S)
        assert summary and re.sub(r"<[^>]+>", "", summary.group(1)) == (
            f"student-01 — {sum(q.counted for q in mine)} questions; right at the first try: "
            f"{sum(q.right_first and q.counted for q in mine)}; "
            f"hints: {sum(q.hints for q in mine)}; "
            f"shown the answer: {sum(q.revealed for q in mine)}")
        assert "<caption>The answers of student-01</caption>" in opened
        shown = cells(opened)
        assert len(shown) == len(mine) > 0
        title = load_lesson("04-times", "en").text("title", "en")
        for number, (row, q) in enumerate(zip(shown, mine, strict=True), start=1):
            index, lesson, skill, expected, typed, mistake, hints, result, seconds = row
            assert int(index) == number and lesson == title
            assert skill == SKILL_NAMES[q.skill] and expected == f"{q.expected:,}"
            assert typed == ", ".join(f"{t.input} {'✔(right)' if t.correct else '✗(wrong)'}"
                                      for t in q.tries)
            assert mistake == ("; ".join(MISTAKE_NAMES[m] for m in q.mistakes) or "–")
            assert int(hints) == q.hints and result == result_text(q, "en")
            assert seconds == f"{round(q.seconds):,}"
        # Some answer of the class's files was wrong, with a named mistake, and it shows.
        assert any(q.mistakes for q in mine)
        assert MISTAKE_NAMES["added_instead_of_multiplied"] in opened

        # The student sees the same list on the lessons page.
        link("lang=en&student=student-01")
        own = lessons_page(store=store)
        box = own.answers.list.value
        assert box.startswith("<details class='ld-own-answers'>")
        assert "<caption>Your answers, question by question</caption>" in box
        assert cells(box) == shown
        assert own.answers.heading.value == "<h3>Your answers</h3>"


def _named_by(attempts: list[Attempt]) -> dict[tuple[str, str], list[str]]:
    """(skill, mistake) → the students whose wrong answers showed it, from the rows."""
    out: dict[tuple[str, str], set[str]] = {}
    for a in attempts:
        if a.outcome is Outcome.INCORRECT and a.feedback in MISTAKE_NAMES:
            out.setdefault((a.kc.split(KC_SEPARATOR)[0], a.feedback), set()).add(a.student)
    return {k: sorted(v) for k, v in out.items()}


def test_the_mistakes_table_names_its_students(link: Any, tmp_path: Path,  # noqa: F811
                                               class_files: list[tuple[str, bytes]]) -> None:
    link("lang=en")
    with Store(tmp_path / "class.sqlite3") as store:
        page = teacher_page(store=store)
        upload(page.upload.upload, class_files[:6])
        named = _named_by(store.attempts())
    tables = re.findall(r"<table class='ld-mistakes' data-skill='([^']+)'>(.*?)</table>",
                        page.mistakes.tables.value, re.S)
    assert tables
    seen = 0
    for skill, table in tables:
        assert "<th scope='col' class=''>Which students</th>" in table
        for rule, count, names in re.findall(
                r"<tr data-rule='([^']+)'>.*?<td class='ld-num'>\d+</td>"
                r"<td class='ld-num'>(\d+)</td><td class='ld-mistake-students'>([^<]*)</td>",
                table):
            assert names.split(", ") == named[(skill, rule)]
            assert int(count) == len(named[(skill, rule)])
            seen += 1
    assert seen >= 1


def _column(table_html: str, index: int) -> list[str]:
    return [row[index] for row in _rows(table_html)]


def _percent(text: str) -> int:
    """The percentage a cell starts with (the mastery cell goes on with its evidence)."""
    return int(text.split(" %", 1)[0])


def test_the_class_table_sorts_by_any_column(link: Any, tmp_path: Path,  # noqa: F811
                                             class_files: list[tuple[str, bytes]]) -> None:
    link("lang=en")
    store = Store(tmp_path / "class.sqlite3")
    page = teacher_page(store=store)
    upload(page.upload.upload, class_files[:8])
    rows = class_table(store.attempts())
    table = page.table
    assert [b.description for b in table.sort_buttons.values()] == [
        "Student ▲", "Skill", "Questions", "Right at the first try", "Mastery", "Mastered",
        "Hints", "Shown the answer", "Mean seconds to answer"]
    students = _column(table.table.value, 0)
    assert students == sorted(students)
    # Mastery, lowest first: who needs help comes first; pressed again, highest first.
    table.sort_buttons["mastery"].click()
    mastery = [_percent(m) for m in _column(table.table.value, 4)]
    assert mastery == sorted(mastery) and len(mastery) == len(rows) > 8
    assert "aria-sort='ascending' data-sort='mastery'" in table.table.value
    assert "sorted by Mastery (ascending)</caption>" in table.table.value
    assert table.sort_buttons["mastery"].description == "Mastery ▲"
    assert "ld-sorted" in table.sort_buttons["mastery"]._dom_classes
    assert "ld-sorted" not in table.sort_buttons["student"]._dom_classes
    table.sort_buttons["mastery"].click()
    assert [_percent(m) for m in _column(table.table.value, 4)] == sorted(mastery, reverse=True)
    assert "aria-sort='descending' data-sort='mastery'" in table.table.value
    assert table.sort_buttons["mastery"].description == "Mastery ▼"
    # By skill: one click groups the skills in teaching order, each skill's weakest first,
    # so "who needs help with multiplying" heads the multiplying rows.
    table.sort_buttons["skill"].click()
    body = _rows(table.table.value)
    names = {gettext(SKILL_NAMES[s], "en"): i for i, s in enumerate(SKILLS)}
    order = [names[r[1]] for r in body]
    assert order == sorted(order)
    times = [(r[0], _percent(r[4])) for r in body if r[1] == "multiplying"]
    assert [p for _, p in times] == sorted(p for _, p in times)
    weakest = min((r for r in rows if r.skill == "multiply"), key=lambda r: r.p_known)
    assert times[0] == (weakest.student, round(100 * weakest.p_known))
    # Every column sorts; the numbers as numbers, not as text.
    for key, _name, _cls in COLUMNS:
        for descending in (False, True):
            got = sort_rows(rows, key, descending)
            assert sorted(got, key=lambda r: (r.student, r.skill)) == sorted(
                rows, key=lambda r: (r.student, r.skill))
    asked = [r.asked for r in sort_rows(rows, "asked", True)]
    assert asked == sorted(asked, reverse=True)
    # The sort stays through a language switch, said in Spanish.
    page.set_lang("es")
    assert table.sort_buttons["skill"].description == "Habilidad ▲"
    assert "ordenada por Habilidad (ascendente)</caption>" in table.table.value
    store.close()


def test_student_text_is_escaped_on_every_panel(link: Any, tmp_path: Path) -> None:  # noqa: F811
    """A name or a typed answer from a handed-in file is text, never markup (stored XSS)."""
    evil = "<img src=x onerror=alert(1)>"
    typed = "<script>alert(2)</script>"
    base = Attempt(evil, "s1", "2024-05-01T12:00:01+00:00", "04-times", "m1r1t3-x/4", "gain",
                   Outcome.INCORRECT, typed, "added_instead_of_multiplied", "multiply", 1, True,
                   0, 4.0, 36, None)
    rows = [base, replace(base, time="2024-05-01T12:00:03+00:00", outcome=Outcome.CORRECT,
                          input="36", answered=36, feedback="correct", attempt_at_step=2,
                          first_attempt=False)]
    link("lang=en")
    with Store(tmp_path / "p.sqlite3") as store:
        store.merge(rows)
        page = teacher_page(store=store)
        link("lang=en&student=" + evil.replace("&", "%26").replace("=", "%3D"))
        own = lessons_page(store=store)
    shown = [page.answers.list.value, page.mistakes.tables.value, page.table.table.value,
             own.answers.list.value]
    for text in shown:
        assert "<img" not in text and "<script" not in text
    assert "&lt;img src=x onerror=alert(1)&gt;" in page.answers.list.value
    assert "&lt;script&gt;alert(2)&lt;/script&gt;" in page.answers.list.value
    assert "&lt;script&gt;alert(2)&lt;/script&gt;" in own.answers.list.value
    assert "&lt;img src=x onerror=alert(1)&gt;" in page.mistakes.tables.value


def test_a_long_typed_answer_is_cut_and_the_lesson_shows_its_title() -> None:
    q = student_answers([Attempt("bo", "s1", "2024-05-01T12:00:01+00:00", "04-times",
                                 "m1r1t3-x/4", "gain[blanks]", Outcome.INCORRECT, "9" * 200,
                                 "wrong",
                                 "multiply", 1, True, 0, 4.0, 36, None)])
    table = answer_table_html(q, "es", "Respuestas", {"04-times": "Fichas de multiplicar"})
    (row,) = cells(table)
    assert row[1] == "Fichas de multiplicar" and row[4] == "9" * 39 + "… ✗(mal)"
    assert row[5] == "–" and row[7] == "sin terminar"
    assert "<th scope='row'>x/4: los puntos ganados</th>" in table


def test_the_new_colours_keep_aa_contrast() -> None:
    """The sorted column's button and the typed answers' colours (the page's 4.5:1)."""
    sorted_rule = re.search(r"button\.ld-sorted \{ background: (#[0-9a-f]{6}); "
                            r"color: (#[0-9a-f]{6}); \}", PAGE_CSS)
    assert sorted_rule and contrast_ratio(*sorted_rule.groups()) >= AA_CONTRAST
    for cls in ("ld-wrong", "ld-ok"):
        colour = re.search(rf"\.ld-typed\.{cls} {{ color: (#[0-9a-f]{{6}}); }}", PAGE_CSS)
        assert colour and contrast_ratio(colour.group(1), "#ffffff") >= AA_CONTRAST
    name = re.search(r"\.ld-student-name \{ color: (#[0-9a-f]{6});", PAGE_CSS)
    assert name and contrast_ratio(name.group(1), "#ffffff") >= AA_CONTRAST
