"""Issue 33 in a real browser: the play page opened without a student asks for a name before
the game starts, the name survives a reload (the address bar's link says it), and the
progress file downloaded carries it; on a phone (412 px wide) the question scrolls into view
with its buttons after a power play (docs/rules.md §4: a power play's points are asked before
they are shown, so the question must be on screen to be answered); after a move pressed
with Enter the focus is on no button, so a second Enter plays nothing.

A mirror session with the same lesson and seed plays the same moves in the test process, so
the test knows each question's answer (as tests/browser/test_dashboard.py does).
"""

from __future__ import annotations

import csv
import io
import re
from typing import Any

from browsing import PHONE, audit
from test_dashboard import (
    IDLE,
    _answer_and_move_on,
    _mirror_forced,
    _open,
    _play_to_a_question,
    _ready,
    taken,
)

from engine.round import Play
from tests import driving as drive
from tutor.session.session import Session

SEED = 19
NAME = "Ana María B"


def test_a_page_without_a_student_asks_a_name_that_a_reload_keeps(
        page: Any, voila_url: str, artifacts: Any) -> None:
    page.goto(voila_url + f"?lesson=free-play&lang=en&seed={SEED}", timeout=120_000)
    box = page.get_by_label("Your name", exact=True)
    box.wait_for(timeout=120_000)
    # The form, alone: the board waits, the name box has the focus.
    assert not page.locator("canvas.ld-board").is_visible()
    page.wait_for_function("() => document.activeElement && "
                           "document.activeElement.matches('.ld-name-in input')",
                           timeout=20_000)
    page.get_by_role("button", name="Start").click()
    page.locator(".ld-name-problem").filter(has_text="Type your name").wait_for(timeout=10_000)
    page.screenshot(path=str(artifacts / "names-form.png"), full_page=True)
    assert audit(page, "names-form", artifacts) == []  # labelled, in contrast, in order
    box.fill(NAME)
    page.get_by_label("Class code (if your teacher gave you one)").fill("6B")
    box.press("Enter")  # the text typed goes with it
    _ready(page)
    page.wait_for_url(re.compile(r"[?&]student=Ana\+Mar%C3%ADa\+B(&|$)"), timeout=20_000)
    assert "class=6B" in page.url and "seed=19" in page.url and "lesson=free-play" in page.url

    # One answer saved under the name.
    mirror = drive.start(Session.from_lesson("free-play", lang="en", seed=SEED, store=None))
    _play_to_a_question(page, mirror)
    _answer_and_move_on(page, mirror, str(mirror.pending_question.expected))  # type: ignore[union-attr]

    # A reload opens the same student's page: no form, the game at once.
    page.reload(timeout=120_000)
    _ready(page)
    assert not page.locator(".ld-name-in input").is_visible()
    page.wait_for_function(IDLE, timeout=30_000)

    # The progress file carries the name: in its name and in every row.
    page.get_by_text("My progress (download it to hand it in)").click()
    link = page.locator("a.ld-progress-download")
    link.wait_for(timeout=30_000)
    with page.expect_download() as info:
        link.click()
    download = info.value
    assert download.suggested_filename == "leonard-progress-Ana_María_B-6B.csv"
    rows = list(csv.DictReader(io.StringIO(open(download.path(), encoding="utf-8").read())))
    assert rows and {r["student"] for r in rows} == {NAME}
    assert page.page_errors == []


def _on_screen(page: Any, selector: str) -> bool:
    return bool(page.locator(selector).first.evaluate(
        "(el) => { const r = el.getBoundingClientRect();"
        " return r.height > 0 && r.top >= 0 && r.bottom <= window.innerHeight; }"))


def test_a_phone_sees_the_question_with_its_buttons(browser: Any, voila_url: str,
                                                     artifacts: Any) -> None:
    """The issue's phone (412 px): after a power play the answer box sat at the bottom edge
    with Check, Hint and Show me below the fold. Now the question comes into view with its
    buttons, and the answer box has the focus."""
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        _open(page, voila_url, f"?lesson=free-play&lang=en&seed={SEED}&student=phone-names")
        mirror = drive.start(Session.from_lesson("free-play", lang="en", seed=SEED, store=None))
        _play_to_a_question(page, mirror, power=True)
        page.locator(".ld-answer input").wait_for(state="visible", timeout=10_000)
        page.wait_for_function("() => document.activeElement && "
                               "document.activeElement.matches('.ld-answer input')",
                               timeout=20_000)
        # The scroll is the page's own (no test scrolled): wait until it settles.
        page.wait_for_function(
            "() => { const r = document.querySelector('.ld-answer-row')"
            ".getBoundingClientRect(); return r.top >= 0 && r.bottom <= window.innerHeight; }",
            timeout=10_000)
        for part in (".ld-question", ".ld-answer input", ".ld-submit", ".ld-hint",
                     ".ld-reveal"):
            assert _on_screen(page, part), part
        page.screenshot(path=str(artifacts / "names-phone-question.png"))
        assert errors == []
    finally:
        context.close()


COUNT_MOVE_CLICKS = """() => {
  window.__ldMoveClicks = 0;
  document.addEventListener("click", (e) => {
    if (e.target instanceof Element && e.target.closest(".ld-move")) window.__ldMoveClicks++;
  }, true);
}"""


def test_after_a_move_a_second_enter_plays_nothing(page: Any, voila_url: str) -> None:
    """The issue: after a move the focus went back to move 1, so a double Enter played a
    second tile. After a move button, the focus is on the group of moves, and stays there
    when the student's turn comes back; Enter there presses nothing."""
    _open(page, voila_url, f"?lesson=free-play&lang=en&seed={SEED}&student=enter-names")
    mirror = drive.start(Session.from_lesson("free-play", lang="en", seed=SEED, store=None))
    for _step in range(200):
        page.wait_for_function(IDLE, timeout=30_000)
        _mirror_forced(mirror)
        q = mirror.pending_question
        if q is not None:  # a question takes the focus, as it should: answer it
            _answer_and_move_on(page, mirror, str(q.expected))
            continue
        assert not mirror.round.over, "the round ended before a quiet turn came back"
        # A move that asks nothing (no power tile), pressed with Enter.
        quiet = [m for m in mirror.legal_actions() if isinstance(m, Play) and not m.tile.is_power]
        move = str((quiet or mirror.legal_actions())[0])
        button = page.locator(f".ld-move[title='{move}']")
        legal = {str(m): m for m in mirror.legal_actions()}
        handle = button.element_handle()
        button.focus()
        page.keyboard.press("Enter")
        taken(page, handle, move)
        drive.play(mirror, legal[move])
        if not quiet or mirror.pending_question is not None:
            continue
        page.wait_for_function("() => document.activeElement && document.activeElement"
                               ".matches('.ld-moves, .ld-answer input')", timeout=20_000)
        page.wait_for_function(IDLE, timeout=30_000)
        _mirror_forced(mirror)
        if mirror.pending_question is None and not mirror.round.over:
            break  # the student's turn is back, and nothing was asked meanwhile
    else:
        raise AssertionError("no quiet turn came back in 200 steps")
    # The focus stayed on the group of moves, where Enter presses nothing.
    assert page.evaluate("() => document.activeElement.matches('.ld-moves')")
    page.evaluate(COUNT_MOVE_CLICKS)
    page.keyboard.press("Enter")
    page.keyboard.press("Enter")
    assert page.evaluate("() => window.__ldMoveClicks") == 0
    assert page.page_errors == []
