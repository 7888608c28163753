"""The pages on a phone (issue 43, finding 10): a 390 × 844 window, the size of a common phone.

On the play page the question comes right under the board, and when it is asked the page
shows both: the student answers looking at the board. The question does not repeat the line
of play the board shows. Nothing on the play, lessons or teacher page scrolls sideways, and
the round's summary tables fit the width.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

from browsing import WINDOW, audit, past_the_edge_outside_tables
from test_dashboard import (
    IDLE,
    _answer_and_move_on,
    _click_first_move,
    _mirror_forced,
    _open,
    _play_to_a_question,
    _show_me,
)

from tests import driving as drive
from tutor.session.session import Session
from tutor.storage.store import Store

PHONE_390 = {"width": 390, "height": 844}
SEED = 11

# Where an element is drawn, against the window: its top and bottom, and the window's height.
RECT = """(el) => { const r = el.getBoundingClientRect();
  return {top: r.top, bottom: r.bottom, left: r.left, right: r.right,
          height: window.innerHeight, width: document.documentElement.clientWidth}; }"""

# Whether the page scrolls sideways: the document is wider than the window.
SIDEWAYS = """() => { const s = document.scrollingElement;
  return {scroll: s.scrollWidth, client: s.clientWidth}; }"""

# Every table on the page that does not fit its box: the nearest box around it with a border
# or that clips (a card, a panel), less its border and padding, or the window. A table wider
# than that runs over the card's edge or is cut off. [class, its right edge, the room's].
WIDE_TABLES = """() => {
  const wide = [];
  for (const t of document.querySelectorAll('table')) {
    if (t.offsetParent === null) continue;
    let box = t.parentElement;
    while (box && box !== document.body) {
      const s = getComputedStyle(box);
      if (s.overflowX !== 'visible' || parseFloat(s.borderRightWidth) > 0) break;
      box = box.parentElement;
    }
    const s = getComputedStyle(box);
    const room = Math.min(document.documentElement.clientWidth, box.getBoundingClientRect().right
        - parseFloat(s.borderRightWidth) - parseFloat(s.paddingRight));
    const right = t.getBoundingClientRect().right;
    if (right > room + 1) wide.push([t.className, right, room]);
  }
  return wide;
}"""


def _fits(page: Any, name: str) -> None:
    """The page does not scroll sideways."""
    width = page.evaluate(SIDEWAYS)
    assert width["scroll"] <= width["client"], f"{name} scrolls sideways: {width}"


def _round_end_fits(page: Any, shot: Path, name: str) -> None:
    """The round's end shown: its summary tables fit and the page does not scroll sideways."""
    page.locator(".ld-round-end .ld-match table").wait_for(state="visible", timeout=30_000)
    page.locator(".ld-round-end").scroll_into_view_if_needed()
    page.screenshot(path=str(shot))
    assert page.evaluate(WIDE_TABLES) == []
    _fits(page, name)
    assert page.page_errors == []


def test_the_question_comes_under_the_board_and_both_show(page: Any, pages: dict[str, Any],
                                                         artifacts: Path) -> None:
    page.set_viewport_size(PHONE_390)
    query = f"?lesson=free-play&lang=en&seed={SEED}&student=phone-390"
    board = _open(page, pages["url"] + "Play.ipynb", query)
    _fits(page, "the play page")
    mirror = drive.start(Session.from_lesson("free-play", lang="en", seed=SEED, store=None))
    q = _play_to_a_question(page, mirror)
    box = page.locator(".ld-answer input")
    box.wait_for(state="visible", timeout=10_000)
    # The page gives the answer box the focus, and scrolls (once it is drawn).
    page.wait_for_function("() => document.activeElement && "
                           "document.activeElement.matches('.ld-answer input')", timeout=10_000)
    page.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")
    shown, answer = board.evaluate(RECT), box.evaluate(RECT)
    page.screenshot(path=str(artifacts / "phone-question.png"))
    # The question comes right under the board, and the page shows both whole.
    assert shown["bottom"] <= answer["top"], (shown, answer)
    assert answer["top"] - shown["bottom"] < 0.4 * shown["height"], (shown, answer)
    assert 0 <= shown["top"] and answer["bottom"] <= answer["height"], (shown, answer)
    assert shown["right"] <= shown["width"] + 1 and answer["right"] <= answer["width"] + 1
    # The line of play is on the board: the question does not spell it out.
    assert q.situation.line and not q.situation.drill
    assert page.locator(".ld-question .ld-situation-line").count() == 1
    assert not page.locator(".ld-question .ld-situation-line").is_visible()
    assert "Line:" not in page.locator(".ld-question").inner_text()
    _fits(page, "the play page with a question")
    assert page.evaluate(WIDE_TABLES) == []

    # On to the round's end (every question answered right): its summary tables fit.
    for _step in range(400):
        page.wait_for_function(IDLE, timeout=30_000)
        _mirror_forced(mirror)
        if mirror.pending_question is not None:
            page.locator(".ld-answer input").wait_for(state="visible", timeout=10_000)
            _answer_and_move_on(page, mirror, str(mirror.pending_question.expected))
            continue
        if mirror.round.over:
            break
        _click_first_move(page, mirror)
    else:
        raise AssertionError("the round did not end in 400 steps")
    _round_end_fits(page, artifacts / "phone-round-end.png", "the play page at the round's end")


KEYBOARD = 336
"""A phone's on-screen keyboard, in CSS pixels: it takes the bottom of the window while the
student types."""

# Every control a finger taps, shown on the page, smaller than 44 × 44 px (WCAG 2.5.5's size,
# Apple's and Android's guides'): [what, its width, its height].
SMALL_TARGETS = """(scope) => [...document.querySelectorAll(scope + ' :is(button, input, select,'
    + ' textarea, [role=button])')]
  .filter(e => e.offsetParent !== null && !e.closest('.ld-sr, .ld-access')
               && e.type !== 'checkbox' && e.type !== 'file')
  .map(e => { const r = e.getBoundingClientRect();
              const widget = e.closest('.jupyter-widgets');
              return [e.getAttribute('aria-label') || e.title
                      || (widget && widget !== e ? widget.className : e.className) || e.tagName,
                      r.width, r.height]; })
  .filter(([, w, h]) => w < 43.5 || h < 43.5)"""

# Whether each element is on screen, whole: inside the window (what the keyboard leaves).
IN_VIEW = """(selectors) => selectors.every(sel => { const e = document.querySelector(sel);
  const r = e && e.getBoundingClientRect();
  return !!r && r.height > 0 && r.top >= 0 && r.bottom <= window.innerHeight; })"""


def test_a_phone_s_controls_fit_a_finger_and_the_keyboard_hides_no_part_of_the_question(
        page: Any, pages: dict[str, Any], artifacts: Path) -> None:
    """At 390 px every button, the answer box and the menus are at least 44 × 44 px (Revisar,
    Pista, Muéstramelo and the answer box were 28 px tall). With the on-screen keyboard up
    (the window 336 px shorter), the question, the answer box and the feedback to a wrong
    answer stay on screen."""
    page.set_viewport_size(PHONE_390)
    query = f"?lesson=free-play&lang=es&seed={SEED}&student=phone-keyboard"
    _open(page, pages["url"] + "Play.ipynb", query)
    mirror = drive.start(Session.from_lesson("free-play", lang="es", seed=SEED, store=None))
    page.wait_for_function(IDLE, timeout=30_000)
    assert page.evaluate(SMALL_TARGETS, ".ld-app") == []  # the moves, the header's buttons
    q = _play_to_a_question(page, mirror)
    box = page.locator(".ld-answer input")
    box.wait_for(state="visible", timeout=10_000)
    page.wait_for_function("() => document.activeElement && "
                           "document.activeElement.matches('.ld-answer input')", timeout=10_000)
    for name in ("Revisar", "Pista", "Muéstramelo"):
        assert page.get_by_role("button", name=name, exact=True).is_visible(), name
    assert page.evaluate(SMALL_TARGETS, ".ld-app") == []
    page.screenshot(path=str(artifacts / "phone-targets.png"))

    # The keyboard opens under the focused answer box: the window loses its bottom 336 px.
    card = [".ld-question", ".ld-answer input"]
    page.set_viewport_size({"width": PHONE_390["width"],
                            "height": PHONE_390["height"] - KEYBOARD})
    page.wait_for_function(IN_VIEW, arg=card, timeout=10_000)
    # A wrong answer: its feedback comes under the box, and shows above the keyboard too.
    box.fill(str(q.expected + 7))
    box.press("Enter")
    page.locator(".ld-feedback .ld-bad").wait_for(timeout=10_000)
    page.wait_for_function(IN_VIEW, arg=[*card, ".ld-feedback"], timeout=10_000)
    page.screenshot(path=str(artifacts / "phone-keyboard-feedback.png"))
    assert page.page_errors == []


def test_the_lessons_and_teacher_pages_do_not_scroll_sideways(page: Any,
                                                              pages: dict[str, Any]) -> None:
    page.set_viewport_size(PHONE_390)
    for name, ready in (("Lessons.ipynb?lang=en&student=phone-390", ".ld-lesson-link"),
                        ("Teacher.ipynb?lang=en", ".ld-class-upload")):
        page.goto(pages["url"] + name, timeout=120_000)
        page.locator(ready).first.wait_for(timeout=120_000)
        _fits(page, name)
        assert page.evaluate(SMALL_TARGETS, ".ld-page") == [], name  # a finger's size
    assert page.page_errors == []


# The lessons whose answers give one student answers in many skills (issue 52, part 4).
MANY_SKILLS = ("02-plus", "05-squares", "07-all-power", "08-full-match")

# Each column header of the lessons table: its text and right edge, and the window's width.
HEADERS = """() => [...document.querySelectorAll('table.ld-lessons-table thead th')]
  .map(th => [th.textContent.trim(), Math.round(th.getBoundingClientRect().right),
              document.documentElement.clientWidth])"""


def test_tables_with_answers_in_many_skills_fit_at_1280_and_390(
        page: Any, pages: dict[str, Any], tmp_path: Path, artifacts: Path) -> None:
    """Issue 52, part 4: a student with answers in many skills. At 1280 px the lessons table
    shows every column (its mastery cell wraps, each skill on its own), and at 1280 and 390 px
    nothing of the lessons or teacher page reaches past the window except inside a table's
    own scroll box; the page itself never scrolls sideways."""
    for lesson in MANY_SKILLS:
        subprocess.run([sys.executable, "-m", "tutor", "simulate-students", "--lesson", lesson,
                        "--students", "1", "--seed", "3", "--profile", "bkt:0.3,0.2,0.1,0.2",
                        "--write-progress", str(tmp_path / lesson), "--name-prefix", "wide",
                        "--lang", "en"], check=True, capture_output=True)
        with Store(pages["db"]) as store:
            store.import_file(tmp_path / lesson / "leonard-progress-wide-01.csv")
    for name, ready in (("Lessons.ipynb?lang=en&student=wide-01", ".ld-lessons-table"),
                        ("Teacher.ipynb?lang=en", "table.ld-class-table")):
        page.goto(pages["url"] + name, timeout=120_000)
        page.locator(ready).first.wait_for(timeout=120_000)
        page.set_viewport_size(WINDOW)
        page.wait_for_timeout(300)  # the boxes take the new width
        if name.startswith("Lessons"):
            assert len(page.locator("tr.ld-lesson").first.locator(".ld-skill").all()) >= 1
            wide = [h for h in page.evaluate(HEADERS) if h[1] > h[2]]
            assert wide == [], f"columns off the screen at 1280 px: {wide}"
        for size in (WINDOW, PHONE_390):
            page.set_viewport_size(size)
            page.wait_for_timeout(300)  # the boxes take the new width
            shot = f"wide-{name.split('.')[0].lower()}-{size['width']}.png"
            page.screenshot(path=str(artifacts / shot), full_page=True)
            assert past_the_edge_outside_tables(page, ".ld-page") == [], (name, size)
            _fits(page, f"{name} at {size['width']} px")
        # The tables that scroll are boxes a keyboard reaches, named as their tables.
        assert audit(page, f"wide-{name.split('.')[0].lower()}-390", artifacts) == []
    assert page.page_errors == []


def test_a_four_player_round_summary_fits(page: Any, pages: dict[str, Any],
                                          artifacts: Path) -> None:
    """The widest summary: four players' columns and their pairs' totals (Ponce). Each
    question is revealed ("Show me"); the round's end then shows its tables whole."""
    page.set_viewport_size(PHONE_390)
    _open(page, pages["url"] + "Play.ipynb", "?lesson=11-ponce&lang=en&seed=4&student=phone-4")
    for _step in range(300):
        page.wait_for_function(IDLE, timeout=30_000)
        if page.locator(".ld-answer input").is_visible():
            _show_me(page)
            continue
        if page.locator(".ld-round-end .ld-summary").is_visible():
            break
        _click_first_move(page)
    else:
        raise AssertionError("the round did not end in 300 steps")
    _round_end_fits(page, artifacts / "phone-round-end-4.png",
                    "the play page at a four-player round's end")
