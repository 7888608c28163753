"""The teacher page's next steps and readable mastery as widgets (issue 43, parts 2 and 3):
the page shows, for each student and skill not mastered, what to do and the link to send,
the stuck student first; the class table's mastery says what is still missing, and the page
says once why the same answers give different percentages."""

from __future__ import annotations

import re
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from tutor.course.lessons import lesson_params
from tutor.storage.store import Store
from tutor.teaching.counts import student_counts
from tutor.ui import teacher_page

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=timezone.utc)
MISTAKE = "added_instead_of_multiplied"


def answer(store: Store, student: str, n: int, seconds: float, right: bool) -> None:
    """A first answer to a multiplication of 04-times (3 × 4): right, or 7 (added)."""
    session = store.start_session(student, session=f"s-{student}")
    store.record_attempt(student, session, lesson="04-times", problem=f"p{n}", step="gain",
                         outcome="CORRECT" if right else "INCORRECT",
                         input_text="12" if right else "7",
                         feedback="" if right else MISTAKE, kc="multiply", expected=12,
                         answered=12 if right else 7,
                         time=(T0 + timedelta(seconds=seconds)).isoformat())


@pytest.fixture()
def no_hub(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("QUERY_STRING", "lang=en")
    monkeypatch.delenv("JUPYTERHUB_USER", raising=False)
    monkeypatch.delenv("VOILA_PREHEAT", raising=False)


def test_the_teacher_page_says_what_to_do_next(no_hub: None, tmp_path: Path) -> None:
    with Store(tmp_path / "p.sqlite3") as store:
        for k in range(3):
            answer(store, "zoe", k, 10 * k, right=False)  # stuck: 3 wrong in a row
        answer(store, "beto", 9, 15, right=True)
        page = teacher_page(store=store, clock=lambda: T0 + timedelta(seconds=40))
        rows = re.findall(r"<tr class='ld-next-step[^']*' data-student='([^']*)' "
                          r"data-skill='([^']*)'>(.*?)</tr>", page.next_steps.table.value)
        assert [(name, skill) for name, skill, _ in rows] == [("zoe", "multiply"),
                                                               ("beto", "multiply")]
        zoe, beto = rows[0][2], rows[1][2]
        assert "stuck now" in zoe and "added instead of multiplying" in zoe
        assert "step by step, with scaffolds" in zoe
        assert "href='Play.ipynb?lesson=04-times&amp;lang=en&amp;student=zoe'" in zoe
        assert "needs more practice: 1 question so far" in beto
        assert "href='Play.ipynb?lesson=04-times&amp;lang=en&amp;student=beto'" in beto
        assert "What to do next" in page.next_steps.heading.value

        # The class table: beside each percentage, what is still missing, by the rule.
        need = student_counts(store.attempts("beto"), lesson_params()).skill("multiply")
        assert need is not None and need.to_master
        cell = re.search(r"<tr data-student='beto' data-skill='multiply'>(.*?)</tr>",
                         page.table.table.value)
        assert cell is not None
        assert f"needs {need.to_master} more right in a row" in cell.group(1)
        assert "Each skill has its own chances" in page.table.table.value

        # In Spanish too.
        page.header.lang_toggle.value = "es"
        assert "sumó en lugar de multiplicar" in page.next_steps.table.value
        assert "Qué hacer ahora" in page.next_steps.heading.value


def test_the_links_carry_the_class_the_page_was_opened_for(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``Teacher.ipynb?class=6B``: each link to send names the class too, so the student's
    downloads carry it."""
    monkeypatch.setenv("QUERY_STRING", "lang=en&class=6B")
    monkeypatch.delenv("JUPYTERHUB_USER", raising=False)
    monkeypatch.delenv("VOILA_PREHEAT", raising=False)
    with Store(tmp_path / "p.sqlite3") as store:
        answer(store, "beto", 1, 0, right=True)
        page = teacher_page(store=store, clock=lambda: T0 + timedelta(seconds=40))
        assert ("href='Play.ipynb?lesson=04-times&amp;lang=en&amp;student=beto&amp;class=6B'"
                in page.next_steps.table.value)
