"""Accuracy beside the score (issue 33 part 2): each human seat's match points and their
arithmetic this lesson, right at the first try / asked, in the scores panel, the match table
and the score sheet (HTML and CSV); the lesson's title and goal on the play page.

The counts are of questions, not tries, by their first answer; a hint before the first
answer counts as wrong (docs/rules.md §4, "Evidence")."""

from __future__ import annotations

import base64
import csv
import io
import json
import random
import re
from pathlib import Path

import pytest
from ui_views import cells

from tests import driving as drive
from tutor.course.lessons import LESSON_DIR
from tutor.i18n import format_number
from tutor.session.session import Session
from tutor.storage.store import Store
from tutor.ui import TutorApp, dashboard
from tutor.ui.play.round_end import match_html
from tutor.ui.play.scores import scores_html
from tutor.ui.play.sheet import SheetPanel

KINDS = ("right", "wrong then right", "hint then right", "shown", "right")
"""The scripted student's first answers, in turn: only "right" is right at the first try."""


def _evidence(s: Session) -> int:
    return sum(st.asked for st in s.mastery.states.values())


def _answer(s: Session, kind: str) -> None:
    q = s.pending_question
    assert q is not None
    if kind == "right":
        fb = drive.answer(s, str(q.expected))
    elif kind == "wrong then right":
        assert drive.answer(s, str(q.expected + 1000)).kind == "wrong"
        fb = drive.answer(s, str(q.expected))
    elif kind == "hint then right":
        s.hint()
        fb = drive.answer(s, str(q.expected))
    else:
        fb = drive.reveal(s)
    assert fb.done


def scripted(s: Session, seed: int = 1) -> tuple[int, int, set[str]]:
    """Play ``s``'s match to its end, answering the questions by :data:`KINDS` in turn;
    return (right at the first try, asked, the kinds used) over the questions that were
    evidence (docs/rules.md §4: an item whose operation does nothing is none)."""
    rng = random.Random(seed)
    right = asked = k = 0
    used = set()
    for _ in range(10_000):
        if s.pending_question is not None:
            kind = KINDS[k % len(KINDS)]
            k += 1
            before = _evidence(s)
            _answer(s, kind)
            if _evidence(s) > before:
                asked += 1
                right += kind == "right"
                used.add(kind)
        elif s.current_player() is not None:
            drive.play(s, rng.randrange(len(s.legal_actions())))
        elif s.match.over:
            return right, asked, used
        elif s.round.over:
            drive.new_round(s)
        else:
            raise AssertionError("stuck")
    raise AssertionError("the match did not end")


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> tuple[Session, int, int]:
    """Ana's second session of free play: an earlier one (all right) is in her progress
    file, so her all-time counts are more than this lesson's."""
    path = tmp_path_factory.mktemp("accuracy") / "p.sqlite3"
    store = Store(path)
    earlier = drive.start(Session.from_lesson("free-play", lang="en", student="ana", store=store,
                                  seed=2, rounds=1))
    while earlier.pending_question is None and not earlier.round.over:
        drive.play(earlier, 0)
    if earlier.pending_question is not None:
        _answer(earlier, "right")
    assert _evidence(earlier) >= 1
    s = drive.start(Session.from_lesson("free-play", lang="en", student="ana", store=store, seed=5))
    start = s.snapshot()
    assert (start.first_try_right[0], start.asked[0]) == (0, 0)  # this lesson starts at 0
    right, asked, used = scripted(s)
    assert set(KINDS) <= used and asked >= len(KINDS)  # every kind of first answer happened
    assert _evidence(s) > asked  # the earlier session's questions are not counted
    return s, right, asked


def test_the_snapshot_counts_this_lessons_questions_right_at_the_first_try(played) -> None:
    s, right, asked = played
    view = s.snapshot()
    assert 0 < right < asked
    assert (view.first_try_right, view.asked) == ((right, 0), (asked, 0))  # B is a bot
    assert view.seat_students == ("ana", "")


@pytest.mark.parametrize("lang, line", [
    ("en", "ana: {points} points · arithmetic this lesson: {right}/{asked} right at the "
           "first try"),
    ("es", "ana: {points} puntos · aritmética en esta lección: {right}/{asked} bien al "
           "primer intento"),
])
def test_scores_panel_shows_points_beside_arithmetic(played, lang: str, line: str) -> None:
    s, right, asked = played
    view = s.snapshot()
    out = scores_html(view, lang, humans=view.humans)
    points = format_number(view.scores_shown[0], lang)
    expected = line.format(points=points, right=right, asked=asked)
    assert f"<li>{expected}</li>" in out
    assert out.count("<li>") == 1  # the bot has no arithmetic line
    app = TutorApp(session=s)  # the live panel reads the same snapshot
    app.set_lang(lang)
    assert expected in app.scores.value


def test_scores_panel_before_any_question_and_for_a_page_without_a_name() -> None:
    s = drive.start(Session(seed=3, lang="es", store=None))
    view = s.snapshot()
    out = scores_html(view, "es", humans=view.humans)
    assert "Jugador A: 0 puntos · aritmética en esta lección: aún sin preguntas" in out
    out = scores_html(view, "en", humans=view.humans)
    assert "Player A: 0 points · arithmetic this lesson: no questions yet" in out


@pytest.mark.parametrize("lang, label", [
    ("en", "Right first try / asked (this lesson)"),
    ("es", "Bien al primer intento / preguntas (esta lección)"),
])
def test_match_table_has_each_humans_arithmetic_under_the_total(played, lang: str,
                                                                label: str) -> None:
    s, right, asked = played
    view = s.snapshot()
    rows = cells(match_html(view, lang, pending=False))
    total = [format_number(v, lang) for v in view.scores_shown]
    assert [re.sub(r"</?b>", "", c) for c in rows[-2][1:]] == total
    assert rows[-1] == [label, f"{right}/{asked}", ""]


def _sheet_downloads(s: Session) -> tuple[str, str]:
    panel = SheetPanel()
    panel.selected_index = 0
    panel.render(s.snapshot(), sheet=s.snapshot(sheet=True).sheet)
    data = dict(re.findall(r"href='data:text/(\w+);charset=utf-8;base64,([^']+)'",
                           panel.sheet_links.value))
    return (base64.b64decode(data["csv"]).decode(), base64.b64decode(data["html"]).decode())


@pytest.mark.parametrize("lang, head", [
    ("en", ["Player", "Student", "Match points", "Right at the first try (this lesson)",
            "Questions asked (this lesson)"]),
    ("es", ["Jugador", "Estudiante", "Puntos de la partida",
            "Bien al primer intento (esta lección)", "Preguntas hechas (esta lección)"]),
])
def test_score_sheet_csv_and_html_carry_points_and_arithmetic(played, lang: str,
                                                              head: list[str]) -> None:
    s, right, asked = played
    s.set_lang(lang)
    try:
        view = s.snapshot()
        text, page = _sheet_downloads(s)
    finally:
        s.set_lang("en")
    sheet = s.snapshot(sheet=True).sheet
    assert sheet is not None
    sheet_csv = sheet.to_csv()
    assert text.startswith(sheet_csv)  # the sheet's own columns are unchanged
    rows = list(csv.reader(io.StringIO(text[len(sheet_csv):])))
    assert rows == [[], head, ["A", "ana", str(view.scores_shown[0]), str(right), str(asked)]]
    assert "ld-accuracy-sheet" in page and f"<td>{right}</td><td>{asked}</td>" in page


def _lesson_file(lesson_id: str) -> dict:
    return json.loads((LESSON_DIR / f"{lesson_id}.json").read_text(encoding="utf-8"))


def test_play_page_shows_the_lessons_title_and_goal(monkeypatch) -> None:
    data = _lesson_file("04-times")
    monkeypatch.setenv("QUERY_STRING", "lesson=04-times&lang=en&student=ana")
    app = dashboard(seed=3)
    line = app.lesson_line.value
    assert f"Lesson: {data['title']['en']}" in line and f"Goal: {data['goal']['en']}" in line
    assert "Lesson: x/n tiles: multiplying" in line
    app.lang_toggle.value = "es"  # the student switches language
    line = app.lesson_line.value
    assert f"Lección: {data['title']['es']}" in line
    assert f"Objetivo: {data['goal']['es']}" in line


def test_every_shipped_lesson_has_a_one_line_goal_in_both_languages() -> None:
    for path in sorted(LESSON_DIR.glob("*.json")):
        goal = json.loads(path.read_text(encoding="utf-8")).get("goal", {})
        for lang in ("es", "en"):
            assert goal.get(lang) and "\n" not in goal[lang] and len(goal[lang]) <= 100, \
                (path.name, lang)


def test_a_lesson_without_a_goal_shows_its_description(monkeypatch, tmp_path: Path) -> None:
    lesson = {"id": "tabla-6", "title": {"es": "Tabla del 6", "en": "Times six"},
              "description": {"es": "Multiplicar por 6.", "en": "Multiplying by 6."}}
    (tmp_path / "tabla-6.json").write_text(json.dumps(lesson), encoding="utf-8")
    monkeypatch.setenv("LEONARD_LESSONS", str(tmp_path))
    monkeypatch.setenv("QUERY_STRING", "lesson=tabla-6&lang=es")
    app = dashboard(seed=3)
    assert app.lesson_line.value == ("<b>Lección: Tabla del 6</b> · Objetivo: Multiplicar "
                                     "por 6.")
