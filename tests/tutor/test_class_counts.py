"""Counts that mean what they say (issue 43, part 1): one scripted class, played through the
real tutor (:class:`tutor.session.session.Session`) into a class server's store, read by the real
teacher page (:class:`tutor.ui.teacher.teacher_app.TeacherPage`):

- a student who answers wrong, then right, without pressing "Hint" took no hint: 0 in the
  progress file's rows, the class table, its CSV and their answers' line (the rung a wrong
  answer gets as feedback is no hint);
- a student who pressed "Hint" once took one hint, everywhere;
- "The class now" tells a finished student (the lesson over: every target mastered) and a
  student from uploaded files from a stuck one, in one unit (questions) per column and in
  minutes, never seconds;
- every page and every CSV the teacher downloads gives one student the same numbers: the
  class table (and its CSV), the live view, their answers' line and the progress export;
- a mistake is listed under the skill it belongs to, whichever question showed it ("added
  instead of multiplying" on a ×1 play, which counts for finding T, is multiplying's).

The sessions' clock is the test's (each question ten seconds later), so the times stored
and the page's "now" are known.
"""

from __future__ import annotations

import csv
import io
import random
import re
from collections.abc import Callable, Iterator, Sequence
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import pytest

from tests import driving as drive
from tutor.classroom.overview import class_csv, frequent_mistakes
from tutor.session.session import Session
from tutor.storage.records import Outcome
from tutor.storage.store import Store
from tutor.teaching.diagnosis import diagnose
from tutor.ui import teacher_page
from tutor.ui.teacher.class_table import class_table_html, sort_rows

LESSON = "04-times"
T0 = datetime(2026, 3, 2, 9, 0, tzinfo=timezone.utc)


class Clock:
    """A clock the test moves: the sessions' (what the rows carry) and the page's."""

    def __init__(self, now: datetime = T0) -> None:
        self.now = now

    def __call__(self) -> datetime:
        return self.now


Answer = Callable[[Session, Any], None]


def right(s: Session, q: Any) -> None:
    drive.answer(s, str(q.expected))


def wrong_then_right(s: Session, q: Any) -> None:
    fb = drive.answer(s, str(q.expected + 1000))
    assert not fb.done and fb.hint is not None  # the wrong answer's feedback shows a rung
    drive.answer(s, str(q.expected))


def hint_then_right(s: Session, q: Any) -> None:
    s.hint()
    drive.answer(s, str(q.expected))


def play(s: Session, clock: Clock, script: Sequence[Answer], *, to_the_end: bool = False,
         seed: int = 1) -> int:
    """Answer the session's questions by ``script`` (then right), ten seconds apart: the
    script's questions only, or (``to_the_end``) until the lesson is over. Returns the
    questions answered."""
    rng = random.Random(seed)
    done = 0
    for _ in range(50_000):
        q = s.pending_question
        if q is not None:
            if done == len(script) and not to_the_end:
                return done
            clock.now += timedelta(seconds=10)
            (script[done] if done < len(script) else right)(s, q)
            done += 1
        elif s.current_player() is not None:
            drive.play(s, rng.randrange(len(s.legal_actions())))
        elif s.round.over and not s.lesson_over:
            drive.new_round(s)
        else:
            assert to_the_end, "the lesson ended before the script did"
            return done
    raise AssertionError("the session did not end")


def live_cells(page: Any) -> dict[str, dict[str, str]]:
    """Student → the live table's cells by header, and its state."""
    table = page.live.table.value
    heads = re.findall(r"<th scope='col'[^>]*>(.*?)</th>", table)
    out = {}
    for m in re.finditer(r"<tr class='ld-live-row' data-student='([^']*)'([^>]*)>(.*?)</tr>",
                         table):
        cells = re.findall(r"<t[dh][^>]*>(.*?)</t[dh]>", m.group(3))
        out[m.group(1)] = dict(zip(heads, cells, strict=True))
    return out


def answers_line(page: Any, student: str) -> dict[str, int]:
    """The numbers of a student's line in "Each student's answers"."""
    html = page.answers.list.value
    m = re.search(rf"data-student='{re.escape(student)}'><summary>.*?"
                  r"<span class='ld-legend'>(.*?)</span>", html)
    assert m, student
    found = re.fullmatch(r"(\d+) questions?; right at the first try: (\d+); hints: (\d+); "
                         r"shown the answer: (\d+)", m.group(1))
    assert found, m.group(1)
    questions, first, hints, shown = map(int, found.groups())
    return {"questions": questions, "right": first, "hints": hints, "shown": shown}


@pytest.fixture()
def no_hub(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("QUERY_STRING", "lang=en")
    monkeypatch.delenv("JUPYTERHUB_USER", raising=False)
    monkeypatch.delenv("VOILA_PREHEAT", raising=False)


@pytest.fixture()
def scripted_class(tmp_path: Path, no_hub: None) -> Iterator[dict[str, Any]]:
    """The class: on the class server's store "bo" plays 04-times to its end (every answer
    right: mastered); "cy" played on Binder and hands in her progress file, which the teacher
    uploads; then "di" presses "Hint" once at her first question (and once more at her
    fourth, which she leaves open), "ed" answers his first question wrong, then right, and
    "ana" answers three right (their sessions still open). The teacher page reads the store
    with its clock ``page_clock``, half a minute after ana's last answer."""
    clock = Clock()
    db = tmp_path / "class.sqlite3"
    bo = drive.start(Session.from_lesson(LESSON, lang="en", student="bo", store=str(db), seed=14,
                             clock=clock))
    play(bo, clock, [], to_the_end=True, seed=14)
    assert bo.lesson_over and bo.lesson_summary().reason == "mastered"
    bo.close()
    binder = tmp_path / "binder-cy.sqlite3"
    cy = drive.start(
            Session.from_lesson(LESSON, lang="en", student="cy", store=str(binder), seed=15,
                             clock=clock))
    play(cy, clock, [right] * 3, seed=15)
    cy.close()
    handed_in = tmp_path / "leonard-progress-cy.csv"
    with Store(binder) as own:
        own.export_csv(handed_in, "cy")
    sessions = []
    for name, script, seed in [("di", [hint_then_right, right, right], 12),
                               ("ed", [wrong_then_right, right, right], 13),
                               ("ana", [right] * 3, 11)]:
        s = drive.start(
                Session.from_lesson(LESSON, lang="en", student=name, store=str(db), seed=seed,
                                clock=clock))
        play(s, clock, script, seed=seed)
        if name == "di":  # her next question: one hint, and she leaves it open
            assert s.pending_question is not None
            clock.now += timedelta(seconds=10)
            s.hint()
        assert s.flush()
        sessions.append(s)
    for s in sessions:  # the sessions left open: ana, di and ed are still playing
        s.close()
    page_clock = Clock(clock.now + timedelta(seconds=30))
    store = Store(db, lang="en")
    page = teacher_page(store=store, clock=page_clock)
    page.merge([(handed_in.name, handed_in.read_bytes())])
    yield {"page": page, "store": store, "page_clock": page_clock, "db": db,
           "tmp": tmp_path}
    store.close()


def test_wrong_then_right_without_a_hint_is_no_hint_anywhere(
        scripted_class: dict[str, Any]) -> None:
    """Issue 43, finding 1: "hints: 1" for a student who pressed no hint."""
    page, store, tmp = scripted_class["page"], scripted_class["store"], scripted_class["tmp"]
    ed = store.attempts("ed")
    assert any(a.outcome is Outcome.INCORRECT for a in ed)
    assert not any(a.outcome is Outcome.HINT for a in ed)
    # The progress file the teacher (or the student) downloads: every row says 0 hints.
    export = tmp / "class.csv"
    store.export_csv(export)
    rows = list(csv.DictReader(io.StringIO(export.read_text(encoding="utf-8"))))
    assert {r["hints"] for r in rows if r["student"] == "ed"} == {"0"}
    # di pressed once at a question: her rows after the press say 1.
    assert max(int(r["hints"]) for r in rows if r["student"] == "di") == 1
    # The class table, its CSV and the answers' line.
    hints = {r.student: 0 for r in page.rows}
    for r in page.rows:
        hints[r.student] += r.hints
    assert hints["ed"] == 0 and hints["di"] == 2
    sheet = list(csv.DictReader(io.StringIO(class_csv(page.rows))))
    assert sum(int(d["hints"]) for d in sheet if d["student"] == "ed") == 0
    assert answers_line(page, "ed")["hints"] == 0
    assert answers_line(page, "di")["hints"] == 2
    # ed's first answer was wrong: not right at the first try, and no proof of mastery.
    assert answers_line(page, "ed")["right"] == answers_line(page, "ed")["questions"] - 1


def test_the_class_now_tells_finished_and_uploaded_students_from_stuck_ones(
        scripted_class: dict[str, Any]) -> None:
    """Issue 43, finding 2: a student who mastered the lesson, and the students of uploaded
    files, read "stuck: no answer for 10 min"; times in seconds beside minutes. Issue 52:
    no answer for N minutes is "left", not stuck, and finished is said as soon as the lesson
    is over by the student's rows."""
    page, page_clock = scripted_class["page"], scripted_class["page_clock"]
    shown = live_cells(page)
    assert set(shown) == {"ana", "bo", "cy", "di", "ed"}
    assert shown["ana"]["Now"] == "playing"
    bo_minutes = re.fullmatch(r"(\d+) min ago", shown["bo"]["Last answer"])
    assert bo_minutes and int(bo_minutes.group(1)) < 10
    assert shown["bo"]["Now"] == "finished: every skill mastered"  # a few minutes ago
    assert shown["cy"]["Now"] == "from uploaded files"
    # Ten minutes later nobody answered: the players have left, none is stuck.
    page_clock.now += timedelta(minutes=10)
    page.refresh_live()
    later = live_cells(page)
    assert later["ana"]["Now"] == "left: no answer for 10 min"
    assert later["ana"]["Last answer"] == "10 min ago"
    for name in ("di", "ed"):  # the same minutes in both columns
        minutes = re.fullmatch(r"(\d+) min ago", later[name]["Last answer"])
        assert minutes and int(minutes.group(1)) >= 10
        assert later[name]["Now"] == f"left: no answer for {minutes.group(1)} min"
    assert later["bo"]["Now"] == "finished: every skill mastered"
    assert later["cy"]["Now"] == "from uploaded files"
    assert all("s ago" not in cells["Last answer"] for cells in later.values())
    # Those who left come first here (nobody stuck or playing), then the finished, then the
    # files.
    assert list(later) == ["ana", "di", "ed", "bo", "cy"]
    assert "3 left, 1 finished, 1 from uploaded files." in page.live.table.value
    # One unit per column: questions, and of those the ones right at the first try.
    heads = list(next(iter(later.values())))
    assert heads == ["Student", "Lesson", "Questions", "Right at the first try",
                     "Last answer", "Now"]
    assert later["ed"]["Questions"] == "3" and later["ed"]["Right at the first try"] == "2 of 3"


def test_every_page_and_every_csv_gives_one_student_the_same_numbers(
        scripted_class: dict[str, Any]) -> None:
    """Issue 43's goal: the class table (its page and its CSV), the live view, a student's
    answers and the progress export agree, for an active student, a finished one, one from
    files, one who took hints and one who answered wrong then right."""
    page, store, tmp = scripted_class["page"], scripted_class["store"], scripted_class["tmp"]
    live = live_cells(page)
    table = class_table_html(sort_rows(page.rows), "en")
    sheet = list(csv.DictReader(io.StringIO(class_csv(page.rows))))
    export = tmp / "all.csv"
    store.export_csv(export)
    exported = list(csv.DictReader(io.StringIO(export.read_text(encoding="utf-8"))))
    for name in ("ana", "bo", "cy", "di", "ed"):
        mine = [r for r in page.rows if r.student == name]
        asked = sum(r.asked for r in mine)
        first = sum(r.first_try_right for r in mine)
        hints = sum(r.hints for r in mine)
        shown = sum(r.revealed for r in mine)
        assert asked > 0, name
        # the class table's CSV
        rows = [d for d in sheet if d["student"] == name]
        assert (sum(int(d["asked"]) for d in rows), sum(int(d["first_try_right"]) for d in rows),
                sum(int(d["hints"]) for d in rows), sum(int(d["revealed"]) for d in rows)) == (
            asked, first, hints, shown), name
        # the class table on the page
        cells = re.findall(rf"<tr data-student='{name}' data-skill='[^']+'>(.*?)</tr>", table)
        got = [re.findall(r"<t[dh][^>]*>(.*?)</t[dh]>", c) for c in cells]
        assert (sum(int(c[2]) for c in got), sum(int(c[6]) for c in got),
                sum(int(c[7]) for c in got)) == (asked, hints, shown), name
        # their answers, question by question
        assert answers_line(page, name) == {"questions": asked, "right": first,
                                            "hints": hints, "shown": shown}, name
        # the live view (one lesson, all within the window)
        assert (live[name]["Questions"], live[name]["Right at the first try"]) == (
            str(asked), f"{first} of {asked}"), name
        # the progress export: hint presses are its hint rows, and each row's column
        rows_of = [r for r in exported if r["student"] == name]
        assert sum(r["outcome"] == "HINT" for r in rows_of) == hints, name
        per_question: dict[tuple[str, str, str], int] = {}
        for r in rows_of:
            key = (r["session"], r["problem"], r["step"])
            per_question[key] = max(per_question.get(key, 0), int(r["hints"]))
        assert sum(per_question.values()) == hints, name
    assert [sum(r.hints for r in page.rows if r.student == n) for n in ("di", "ed")] == [2, 0]
    # di's question left open after a hint is in her answers, not among the questions counted
    assert answers_line(page, "di")["questions"] == 3


def _trivial_times_one(seed: int, db: Path) -> tuple[Session, Any, int] | None:
    """A 04-times session (saving into ``db``) whose student first adds where a tile
    multiplies (a named mistake: the tutor now knows it of them), then answers right up to
    the first ×1 play asked without T first (its points are T: a trivial item, counted for
    finding T), where the session is left with the value adding gives; None if the seed's
    lesson has no such play after the mistake."""
    s = drive.start(Session.from_lesson(LESSON, lang="en", student="fe", store=str(db), seed=seed,
                            drill=False))
    rng = random.Random(seed)
    made = False
    for _ in range(5_000):
        q = s.pending_question
        if q is not None:
            p = s.asker.queue[0]
            ctx = q.context
            added = ctx.n + (ctx.t or 0) if ctx.rule == "x/n" else None
            if made and p.trivial and added is not None and "T" not in p.shown:
                return s, q, added
            if (not made and not p.trivial and added is not None
                    and diagnose(q, added, "en").rule == "added_instead_of_multiplied"):
                drive.answer(s, str(added))
                made = True
            drive.answer(s, str(q.expected))
        elif s.current_player() is not None:
            drive.play(s, rng.randrange(len(s.legal_actions())))
        elif s.round.over and not s.lesson_over:
            drive.new_round(s)
        else:
            break
    s.close()
    return None


def test_a_mistake_is_listed_under_its_own_skill(tmp_path: Path, no_hub: None) -> None:
    """Issue 43, finding 3: "added instead of multiplying" on a ×1 play (counted for finding
    T) was listed under "Finding the other end (T)", as if the student could not find T."""
    found = None
    for seed in range(1, 80):
        db = tmp_path / f"fe-{seed}.sqlite3"
        found = _trivial_times_one(seed, db)
        if found is not None:
            break
    assert found is not None, "no seed's 04-times asks a ×1 play after the mistake"
    s, q, wrong = found
    p = s.asker.queue[0]
    fb = drive.answer(s, str(wrong))
    assert fb.diagnosis is not None and fb.diagnosis.rule == "added_instead_of_multiplied"
    assert p.evidence is not None and p.evidence.skill == "other-end"  # counted for T
    drive.answer(s, str(q.expected))
    assert s.flush()
    with Store(db, lang="en") as store:
        mistakes = frequent_mistakes(store.attempts())
        assert [m.rule for m in mistakes.get("multiply", [])] == ["added_instead_of_multiplied"]
        assert "other-end" not in mistakes
        # the teacher page's "Most frequent mistakes, by skill"
        page = teacher_page(store=store)
        tables = dict(re.findall(r"<table class='ld-mistakes' data-skill='([^']+)'>(.*?)</table>",
                                 page.mistakes.tables.value))
        assert "data-rule='added_instead_of_multiplied'" in tables["multiply"]
        assert "other-end" not in tables
    # the lesson's tally: the play page's "watch for" goes with multiplying
    tally = s.tally.student_tally("fe")
    assert tally.mistake("multiply") == "added_instead_of_multiplied"
    assert tally.mistake("other-end") is None
    s.close()
