"""Issue 43 parts 2 and 3 in a real browser, served as a class serves the pages
(``voila notebooks/``, one progress file): the teacher page's "What to do next" lists the
stuck student first with the mistake their answers show and the link to send; the link
opens that lesson on the play page under the student's name, and the play page says what is
still missing for mastery in the same words, with the same number, as the teacher's table.
"""

from __future__ import annotations

import re
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

from browsing import audit, need_chromium, past_the_edge_on_a_phone
from test_pages import no_errors, open_page, serve

from tutor.commands.server import stop_server
from tutor.course.lessons import lesson_params
from tutor.storage.store import Store
from tutor.teaching.counts import student_counts

MISTAKE = "added_instead_of_multiplied"


def _answers(store: Store, now: datetime) -> None:
    """zoe: three first answers of 04-times that added instead of multiplying (3 × 4 = 7),
    the last a minute ago (stuck: wrong answers in a row); beto: one right answer."""
    for student, right, count in (("zoe", False, 3), ("beto", True, 1)):
        session = store.start_session(student, session=f"s-{student}")
        for k in range(count):
            store.record_attempt(
                student, session, lesson="04-times", problem=f"p{k}", step="gain",
                outcome="CORRECT" if right else "INCORRECT", input_text="12" if right else "7",
                feedback="" if right else MISTAKE, kc="multiply", expected=12,
                answered=12 if right else 7,
                time=(now - timedelta(seconds=60 * (count - k))).isoformat())


def test_the_link_of_a_next_step_opens_the_lesson_for_the_student(
        page: Any, tmp_path: Path, artifacts: Path) -> None:
    need_chromium()
    folder = tmp_path / "class"
    folder.mkdir()
    with Store(folder / "class.sqlite3", lang="en") as store:
        _answers(store, datetime.now(timezone.utc))
        need = student_counts(store.attempts("zoe"), lesson_params()).skill("multiply")
    assert need is not None and need.to_master
    proc, url = serve(folder)
    try:
        open_page(page, url + "Teacher.ipynb?lang=en", "table.ld-next-steps")
        steps = page.locator("table.ld-next-steps")
        rows = steps.locator("tbody tr")
        assert rows.count() == 2
        first = rows.nth(0)
        assert first.get_attribute("data-student") == "zoe"
        text = first.inner_text()
        assert "stuck now" in text and "added instead of multiplying" in text
        assert "step by step, with scaffolds" in text
        assert "needs more practice: 1 question so far" in rows.nth(1).inner_text()
        table = page.locator("tr[data-student='zoe'][data-skill='multiply'] .ld-evidence")
        assert f"needs {need.to_master} more right in a row" in table.inner_text()
        # Under the link, the whole address to send (issue 52), this server's.
        whole = url + "Play.ipynb?lesson=04-times&lang=en&student=zoe"
        first.locator("code.ld-next-href", has_text=whole).wait_for(timeout=30_000)
        assert audit(page, "teacher-next-steps", artifacts) == []  # axe: nothing serious
        assert past_the_edge_on_a_phone(page, ".ld-page") == []  # a phone: the table scrolls
        no_errors(page)

        # The link opens in a new tab: the teacher page stays where it was.
        with page.context.expect_page() as opened:
            first.locator("a.ld-next-link").click()
        play = opened.value
        errors: list[str] = []
        play.on("pageerror", lambda e: errors.append(str(e)))
        play.wait_for_url(re.compile(r"/voila/render/Play\.ipynb\?lesson=04-times&lang=en"
                                     r"&student=zoe$"), timeout=60_000)
        play.locator(".ld-move").first.wait_for(timeout=120_000)
        skills = play.locator(".ld-mastery").inner_text()
        assert f"needs {need.to_master} more right in a row" in skills
        assert play.locator('[data-mime-type="application/vnd.jupyter.stderr"]').count() == 0
        assert errors == []
        play.close()
    finally:
        stop_server(proc)
