"""The teacher page's live view as widgets (issue 35, part 3): the panel lists who plays
which lesson with their answers and who is stuck (docs/rules.md §4's first answers; the clock is
the test's), the page's tick reads the stored rows since its last read and feeds them to
every panel (issue 52), the "Refresh" button reads every panel again, and the tick runs
only on a shared store."""

from __future__ import annotations

import re
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import pytest
from ui_views import browser_sends

from tutor.storage.store import Store
from tutor.ui import teacher_page
from tutor.ui.pages import LIVE_SECONDS

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=timezone.utc)


class Clock:
    def __init__(self) -> None:
        self.now = T0

    def __call__(self) -> datetime:
        return self.now


def answer(store: Store, student: str, n: int, seconds: float, right: bool) -> None:
    session = store.start_session(student, session=f"s-{student}")
    store.record_attempt(student, session, lesson="04-times", problem=f"p{n}", step="T",
                         outcome="CORRECT" if right else "INCORRECT", input_text="12",
                         kc="multiply", expected=12, answered=12 if right else 13,
                         time=(T0 + timedelta(seconds=seconds)).isoformat())


def live_rows(page: Any) -> dict[str, tuple[str, ...]]:
    """Student → (lesson, questions, right, last answer, state) as the live table shows them."""
    out = {}
    for m in re.finditer(r"<tr class='ld-live-row' data-student='([^']*)'[^>]*>(.*?)</tr>",
                         page.live.table.value):
        cells = re.findall(r"<t[dh][^>]*>(.*?)</t[dh]>", m.group(2))
        out[m.group(1)] = tuple(cells[1:])
    return out


@pytest.fixture()
def no_hub(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("QUERY_STRING", "lang=en")
    monkeypatch.delenv("JUPYTERHUB_USER", raising=False)
    monkeypatch.delenv("VOILA_PREHEAT", raising=False)


def test_the_live_panel_shows_who_plays_what_and_who_is_stuck(no_hub: None,
                                                              tmp_path: Path) -> None:
    clock = Clock()
    with Store(tmp_path / "p.sqlite3") as store:
        for k in range(3):
            answer(store, "ana", k, 10 * k, right=False)
        answer(store, "beto", 9, 15, right=True)
        clock.now = T0 + timedelta(seconds=40)
        page = teacher_page(store=store, clock=clock)
        shown = live_rows(page)
        assert list(shown) == ["ana", "beto"]  # the stuck first
        assert shown["ana"] == ("x/n tiles: multiplying", "3", "0 of 3", "under a minute ago",
                                "stuck: 3 wrong first answers in a row")
        assert shown["beto"] == ("x/n tiles: multiplying", "1", "1 of 1", "under a minute ago",
                                "playing")
        assert page.live.button.description == "Refresh"

        # The page's tick reads the store again: beto's new answer, two minutes of quiet
        # (still playing: issue 52), and every panel takes the same rows at once (issue 52:
        # the class table waited for Refresh and disagreed with the live view).
        answer(store, "beto", 10, 50, right=True)
        clock.now = T0 + timedelta(seconds=50 + 120)
        browser_sends(page.access, {"event": "tick"})
        shown = live_rows(page)
        assert shown["beto"][1:] == ("2", "2 of 2", "2 min ago", "playing")
        beto = next(r for r in page.rows if r.student == "beto")
        assert beto.asked == 2  # the class table, without Refresh

        # Ten minutes without an answer: left (a closed tab), not stuck.
        clock.now = T0 + timedelta(seconds=50 + 600)
        browser_sends(page.access, {"event": "tick"})
        shown = live_rows(page)
        assert shown["beto"][4] == "left: no answer for 10 min"
        assert shown["ana"][4] == "left: no answer for 10 min"

        # The button reads every panel again.
        answer(store, "carla", 1, 165, right=True)
        page.live.button.click()
        assert "carla" in live_rows(page)
        assert any(r.student == "carla" for r in page.rows)


def test_the_page_ticks_only_on_a_shared_store(no_hub: None, tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    with Store(tmp_path / "p.sqlite3") as store:
        assert teacher_page(store=store).access.tick_seconds == 0  # a file: the button only
        monkeypatch.setenv("JUPYTERHUB_USER", "teacher")
        monkeypatch.setenv("LEONARD_TEACHERS", "teacher")
        page = teacher_page(store=store)
        assert page.access.tick_seconds == LIVE_SECONDS > 0
        assert "every 5 seconds" in page.live.legend.value
        monkeypatch.setenv("JUPYTERHUB_USER", "ana")  # a student: refused, no ticks
        refused = teacher_page(store=store)
        assert refused.access not in refused.children and refused.access.tick_seconds == 0


def test_the_live_view_speaks_spanish(no_hub: None, tmp_path: Path,
                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("QUERY_STRING", "lang=es")
    with Store(tmp_path / "p.sqlite3") as store:
        page = teacher_page(store=store, clock=Clock())
        assert page.live.button.description == "Actualizar"
        assert "Nadie está jugando ahora." in page.live.table.value


def test_every_time_of_the_live_view_is_on_the_schools_clock(
        no_hub: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 52: "Read at 03:27:10" was UTC next to due times on Madrid's clock."""
    monkeypatch.setenv("LEONARD_TIMEZONE", "Europe/Madrid")
    monkeypatch.setenv("TZ", "UTC")
    with Store(tmp_path / "p.sqlite3") as store:
        page = teacher_page(store=store, clock=Clock())  # 09:00 UTC: 10:00 in Madrid
        assert "Read at 10:00:00." in page.live.table.value
        assert "school&#x27;s clock: Europe/Madrid" in page.live.legend.value
        assert "10 minutes" in page.live.legend.value


def test_finished_and_from_files_come_from_the_store_and_survive_a_reload(
        no_hub: None, tmp_path: Path, student_plays: Any) -> None:
    """Issue 52 part 3: "from files" was the page's memory of its own uploads, lost on
    reload; "finished" is the play page's record. Both are the store's: the page's tick
    shows a lesson ended since, and a page opened again says the same."""
    db = tmp_path / "p.sqlite3"
    student_plays("04-times", "dora", tmp_path / "dora.sqlite3", seed=4, rounds=1)
    with Store(tmp_path / "dora.sqlite3") as own:  # Dora's own Binder file
        own.export_csv(tmp_path / "dora.csv", "dora")
    student_plays("04-times", "ana", db, seed=1, rounds=1)  # one round: the lesson goes on
    with Store(db) as store:
        rows = store.attempts()
        last = max(datetime.fromisoformat(a.time) for a in rows)
        clock = Clock()
        clock.now = last + timedelta(seconds=40)
        page = teacher_page(store=store, clock=clock)
        page.merge([("dora.csv", (tmp_path / "dora.csv").read_bytes())])
        states = {k: v[4] for k, v in live_rows(page).items()}
        assert states == {"ana": "playing", "dora": "from uploaded files"}
        # Ana's play page ends her lesson: the next tick says so, with no new answer.
        store.mark_session("ana", rows[0].session, "04-times", "mastered",
                           (last + timedelta(seconds=1)).isoformat())
        browser_sends(page.access, {"event": "tick"})
        assert live_rows(page)["ana"][4].startswith("finished")
        again = teacher_page(store=store, clock=clock)  # the page opened again
        assert {k: v[4] for k, v in live_rows(again).items()} == {
            k: v[4] for k, v in live_rows(page).items()}
        assert live_rows(again)["dora"][4] == "from uploaded files"
