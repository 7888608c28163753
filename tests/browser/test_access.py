"""Every student can play (issue 12): keyboard only, screen readers, small screens, and an
axe-core audit of the play page, in headless Chromium.

Like test_dashboard, a mirror Session with the same lesson and seed plays the same moves in
the test process, so the test knows the answers. Every wait is for a state that stays until
the student acts (a question, the moves of the student's turn, the round's end, the focus
on an element that waits for the student), never for one the bots may change.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from browsing import (
    CANVAS_STATS,
    PHONE,
    SIDEWAYS,
    WINDOW,
    audit,
    cut_in_each_language,
    past_the_edge,
    seen,
)
from test_dashboard import (
    IDLE,
    _click_first_move,
    _mirror_forced,
    _open,
    _visible,
    taken,
)

from engine.round import Play
from engine.tiles import Tile
from tests import driving as drive
from tutor.session.session import Session
from tutor.session.words import half_words, spoken, tile_words

SEED = 11
QUERY = f"?lesson=free-play&lang=en&seed={SEED}&student=keyboard-test"


def query(student: str) -> str:
    """The page of free play with :data:`SEED` for a student of its own: each test's page must
    start where its mirror (a fresh session, no progress) starts. A student who played a round
    before has skills mastered (issue 42: free play's drills go on for a skill answered
    right), which are then asked less often, and the page's questions are no longer the
    mirror's."""
    return QUERY.replace("keyboard-test", student)
NOTATION = re.compile(r"(?<![\w/])(\d|[-+x])/(\d|[-+x])(?![\w/])")

ACTIVE = """(sel) => { const e = document.activeElement; return !!e && e.matches(sel); }"""
LIVE = ".ld-live"
# Records every text the live region says, so a test can read announcements that the next
# bot's play replaces a moment later.
RECORD_LIVE = """() => { window.__said = []; const live = document.querySelector('.ld-live');
  new MutationObserver(() => { const t = live.textContent.trim();
    if (t) window.__said.push(t); }).observe(live, {childList: true, characterData: true,
                                                   subtree: true}); }"""


def _wait_focus(page: Any, selector: str, timeout: float = 20_000) -> None:
    page.wait_for_function(ACTIVE, arg=selector, timeout=timeout)


def _tab_to(page: Any, selector: str, key: str = "Tab", limit: int = 20) -> int:
    """Press ``key`` until the focus is on ``selector``; return how many presses it took."""
    for n in range(1, limit + 1):
        page.keyboard.press(key)
        if page.evaluate(ACTIVE, selector):
            return n
    raise AssertionError(f"{key} never reached {selector} in {limit} presses")


def _live_says(page: Any, pattern: str, timeout: float = 10_000) -> str:
    page.wait_for_function("(p) => new RegExp(p, 'i').test("
                           "document.querySelector('.ld-live').textContent)", arg=pattern,
                           timeout=timeout)
    return str(page.locator(LIVE).text_content())


def _question_waits(page: Any) -> bool:
    return _visible(page, ".ld-answer input")


def _keys_to_a_question(page: Any, mirror: Session, moves: int = 60) -> None:
    """Play the first move by its digit key until the tutor asks something (at most
    ``moves`` moves)."""
    for _ in range(moves):
        page.wait_for_function(IDLE, timeout=30_000)
        _mirror_forced(mirror)
        if mirror.pending_question is not None:
            return
        _press_move(page, mirror, 1)


def _press_move(page: Any, mirror: Session, number: int) -> None:
    """Press digit ``number``: the move of that number, for the page and the mirror."""
    buttons = page.locator(".ld-move")
    button = buttons.nth(number - 1)
    move = button.get_attribute("title")
    legal = {str(m): m for m in mirror.legal_actions()}
    assert move in legal, f"page offers {move!r}, engine allows {sorted(legal)}"
    handle = button.element_handle()
    page.keyboard.press(str(number))
    taken(page, handle, move)
    drive.play(mirror, legal[move])


def _answer_by_keyboard(page: Any, mirror: Session, text: str) -> None:
    """Type into the answer box (the focus is there) and press Enter; wait until the page
    shows the next question or none."""
    q = mirror.pending_question
    assert q is not None
    before = page.locator(".ld-question").inner_text()
    page.keyboard.type(text)
    page.keyboard.press("Enter")
    fb = drive.answer(mirror, text)
    if fb.done and mirror.pending_question is None:
        page.locator(".ld-answer input").wait_for(state="hidden", timeout=10_000)
    elif fb.done:
        page.wait_for_function(
            "(old) => document.querySelector('.ld-question').innerText !== old", arg=before,
            timeout=10_000)
    else:
        page.wait_for_function("() => document.querySelector('.ld-feedback').innerText",
                               timeout=10_000)


def _play_with_arrows(page: Any, mirror: Session) -> None:
    """On the focused board: arrows to a tile, Enter; a tile that fits both ends goes on to
    the ends, where Enter places it at the first."""
    view = mirror.snapshot()
    plays = [m for m in mirror.legal_actions() if isinstance(m, Play)]
    both = [t for t in view.hand if sum(p.tile == t for p in plays) == 2]
    tile: Tile = both[0] if both else plays[0].tile
    index = list(view.hand).index(tile)
    for _ in range(index + 1):  # the first press lands on tile 1
        page.keyboard.press("ArrowRight")
    said = _live_says(page, rf"Tile {index + 1} of {len(view.hand)}")
    assert tile_words(tile, "en") in said and not NOTATION.search(said), said
    handle = page.locator(".ld-move").first.element_handle()
    page.keyboard.press("Enter")
    if both:
        _live_says(page, "fits both ends: choose the end with the arrow keys")
        end = next(p for p in plays if p.tile == tile).end
        page.keyboard.press("Enter")
        move = Play(tile, end)
    else:
        move = next(p for p in plays if p.tile == tile)
    taken(page, handle, str(move))
    drive.play(mirror, move)


def test_a_keyboard_only_student_finishes_a_round(browser: Any, voila_url: str,
                                                  artifacts: Path) -> None:
    """No mouse: Tab passes the board (no trap), the arrows and Enter place a tile, digits
    pick moves, the focus follows the game, H gives a hint, and every question is answered
    by typing; the round ends and the axe audit of its end is clean."""
    context = browser.new_context(viewport={"width": 1366, "height": 768})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        _open(page, voila_url, QUERY)
        page.wait_for_function(IDLE, timeout=30_000)
        mirror = drive.start(Session.from_lesson("free-play", lang="en", seed=SEED, store=None))
        _mirror_forced(mirror)

        # 1. No keyboard trap: from the top, Tab reaches the board, then leaves it for the
        # moves; Shift+Tab comes back.
        assert _tab_to(page, "canvas.ld-board") <= 8
        page.keyboard.press("Tab")
        assert page.evaluate(ACTIVE, ".ld-move"), "Tab did not leave the board for the moves"
        page.keyboard.press("Shift+Tab")
        assert page.evaluate(ACTIVE, "canvas.ld-board")
        for _ in range(5):  # the canvas keeps none of these keys
            page.keyboard.press("Tab")
        assert not page.evaluate(ACTIVE, "canvas.ld-board")
        _tab_to(page, "canvas.ld-board", "Shift+Tab")

        # 2. The board by keyboard: arrows choose, Enter places.
        _play_with_arrows(page, mirror)

        hinted = typed_h = focus_checked = False
        back_to_moves = False
        for _step in range(300):
            page.wait_for_function(IDLE, timeout=30_000)
            _mirror_forced(mirror)
            q = mirror.pending_question
            if q is not None:
                # A question takes the focus: the student types at once.
                _wait_focus(page, ".ld-answer input")
                if not typed_h:
                    # Shortcuts never fire while typing: H is just a letter in the box.
                    page.keyboard.type("h")
                    assert page.locator(".ld-answer input").input_value() == "h"
                    page.keyboard.press("Backspace")
                    typed_h = True
                if not hinted:
                    page.keyboard.press("Tab")  # out of the box, onto Check
                    page.keyboard.press("h")
                    hint = mirror.hint()
                    page.locator(".ld-feedback").filter(has_text=hint[:30]).wait_for(
                        timeout=10_000)
                    page.keyboard.press("Shift+Tab")
                    _wait_focus(page, ".ld-answer input")
                    hinted = True
                _answer_by_keyboard(page, mirror, str(q.expected))
                back_to_moves = mirror.pending_question is None
                continue
            if mirror.round.over:
                break
            if back_to_moves:
                # After the answer the focus returns to the moves once they are back.
                _wait_focus(page, ".ld-move")
                focus_checked = True
                back_to_moves = False
            moves = page.locator(".ld-move").count()
            _press_move(page, mirror, 2 if moves >= 2 and _step % 2 else 1)
        else:
            raise AssertionError("the round did not end in 300 steps")

        page.locator(".ld-round-end .ld-summary").wait_for(state="visible", timeout=30_000)
        while mirror.pending_question is not None:
            _wait_focus(page, ".ld-answer input")
            _answer_by_keyboard(page, mirror, str(mirror.pending_question.expected))
        page.locator(".ld-next-round").wait_for(state="visible", timeout=10_000)
        assert hinted and typed_h and focus_checked
        for score in mirror.match.scores:
            assert re.search(rf"(?<![\d]){abs(score)}(?![\d])",
                             page.locator(".ld-match").inner_text())
        page.screenshot(path=str(artifacts / "a11y-keyboard-round-end.png"), full_page=True)
        assert audit(page, "round-end", artifacts) == []
        # The round's end (summary, match table, next-round button) cuts off no words.
        assert cut_in_each_language(page, ".ld-answer input", "your answer, then Enter",
                                    ".ld-app") == {"es": [], "en": []}
        assert errors == []
    except Exception:
        page.screenshot(path=str(artifacts / "a11y-keyboard-failed.png"), full_page=True)
        raise
    finally:
        context.close()


def test_a_screen_reader_hears_the_board_every_play_and_question(page: Any, voila_url: str,
                                                                artifacts: Path) -> None:
    """The board has a role, a name and a text alternative; a polite live region in the
    page's language announces plays (tiles in words) and questions; buttons have names."""
    _open(page, voila_url, query("screen-reader-test"))
    page.wait_for_function(IDLE, timeout=30_000)
    mirror = drive.start(Session.from_lesson("free-play", lang="en", seed=SEED, store=None))
    board = page.locator("canvas.ld-board")
    board.wait_for()
    page.wait_for_function("() => document.querySelector('canvas.ld-board')"
                           ".getAttribute('role') === 'application'", timeout=10_000)
    assert board.get_attribute("aria-label") == "Domino board"
    words = page.locator("#" + str(board.get_attribute("aria-describedby")))
    text = words.text_content() or ""
    view = mirror.snapshot()
    left, right = (half_words(h, "en") for h in view.ends or ())
    assert "Line of play, from the left end to the right end: " in text
    assert f"Open ends: {left} on the left, {right} on the right." in text
    assert f"Your tiles (A): {tile_words(view.hand[0], 'en')}, " in text
    assert f"Tiles in the other hands: player B: {view.hand_sizes[1]}." in text
    assert f"Pile: {view.pile} tiles." in text
    assert not NOTATION.search(text), text

    live = page.locator(LIVE)
    assert live.get_attribute("aria-live") == "polite" and live.get_attribute("lang") == "en"
    assert page.evaluate("document.documentElement.lang") == "en"
    # Each move's name starts with the words its button shows (WCAG 2.5.3), then says the
    # move in words.
    labels = page.locator(".ld-move").evaluate_all("bs => bs.map(b => [b.getAttribute("
                                                   "'aria-label'), b.innerText])")
    assert labels and all(lbl and lbl.startswith(f"{text}: move ")
                          and not NOTATION.search(lbl.split(": ", 1)[1])
                          for lbl, text in labels), labels

    # Switch to Spanish: the live region and the page speak Spanish, tiles in Spanish words.
    page.get_by_role("button", name="Español").click()
    page.wait_for_function("() => document.documentElement.lang === 'es'", timeout=10_000)
    page.wait_for_function("() => document.querySelector('canvas.ld-board')"
                           ".getAttribute('aria-label') === 'Tablero de dominó'",
                           timeout=10_000)
    assert live.get_attribute("lang") == "es"
    page.evaluate(RECORD_LIVE)
    mirror.set_lang("es")
    for _ in range(60):
        page.wait_for_function(IDLE, timeout=30_000)
        _mirror_forced(mirror)
        if mirror.pending_question is not None or mirror.round.over:
            break
        _press_move(page, mirror, 1)
    q = mirror.pending_question
    assert q is not None, "no question in the first round"
    said = _live_says(page, re.escape(spoken(q.prompt, "es")))  # waits for the student
    assert not NOTATION.search(said), said
    heard = page.evaluate("window.__said")
    plays = [t for t in heard if re.search(r"jugador [A-E] (coloca|sale)", t)]
    assert plays, heard
    assert not any(NOTATION.search(t) for t in heard), heard
    assert any(w in " ".join(heard) for w in ("por", "más", "menos", "seis", "cinco")), heard
    assert page.page_errors == []


def test_the_axe_audit_of_the_play_page_is_clean(page: Any, voila_url: str,
                                                 artifacts: Path) -> None:
    """axe-core on the play page: at the student's turn, with the keyboard help open, with
    a question and the feedback to a wrong answer (power-tile and feedback colours), and
    with the card a shown answer leaves. No serious or critical violation."""
    _open(page, voila_url, query("axe-test"))
    page.wait_for_function(IDLE, timeout=30_000)
    mirror = drive.start(Session.from_lesson("free-play", lang="en", seed=SEED, store=None))
    _mirror_forced(mirror)
    page.wait_for_function("() => document.querySelector('canvas.ld-board')"
                           ".getAttribute('role') === 'application'", timeout=10_000)
    found = {"turn": audit(page, "turn", artifacts)}
    page.keyboard.press("?")
    page.locator(".ld-help-body").wait_for(state="visible", timeout=10_000)
    assert seen(page, ".ld-help-body"), "the keyboard help opens under or clipped by the page"
    found["help"] = audit(page, "help", artifacts)
    page.keyboard.press("?")
    page.locator(".ld-help-body").wait_for(state="hidden", timeout=10_000)
    _keys_to_a_question(page, mirror)
    q = mirror.pending_question
    assert q is not None
    _wait_focus(page, ".ld-answer input")
    _answer_by_keyboard(page, mirror, str(q.expected + 7))
    page.locator(".ld-feedback .ld-bad").wait_for(timeout=10_000)
    found["question"] = audit(page, "question", artifacts)
    page.keyboard.press("Tab")
    page.keyboard.press("s")  # show me
    page.locator(".ld-feedback-done .ld-card").wait_for(timeout=10_000)
    found["answered"] = audit(page, "answered", artifacts)
    # The accordions open from the keyboard, and what they hold passes too.
    _tab_to(page, ".ld-setup .jupyter-widget-Collapse-header")
    page.keyboard.press("Enter")
    page.locator(".ld-variant select").wait_for(state="visible", timeout=10_000)
    page.wait_for_function("() => document.querySelector('.ld-setup "
                           ".jupyter-widget-Collapse-header').getAttribute('aria-expanded')"
                           " === 'true'", timeout=10_000)
    _tab_to(page, ".ld-sheet .jupyter-widget-Collapse-header")
    page.keyboard.press(" ")
    page.locator(".ld-sheet-table table").first.wait_for(state="visible", timeout=10_000)
    found["setup-and-sheet"] = audit(page, "setup-and-sheet", artifacts)
    assert found == {name: [] for name in found}, found
    assert page.page_errors == []


def test_the_page_fits_a_chromebook_and_a_narrow_window(browser: Any, voila_url: str,
                                                        artifacts: Path) -> None:
    """1366×768: the moves, then the question with its answer box and buttons, are all on
    the first screen. 768 px wide: the board scales down (and still takes clicks where the
    tiles are drawn) instead of overflowing."""
    context = browser.new_context(viewport={"width": 1366, "height": 768})
    page = context.new_page()
    try:
        _open(page, voila_url, query("chromebook-test"))
        page.wait_for_function(IDLE, timeout=30_000)
        mirror = drive.start(Session.from_lesson("free-play", lang="en", seed=SEED, store=None))
        _mirror_forced(mirror)

        def on_screen(selector: str) -> None:
            for box in page.locator(selector).evaluate_all(
                    "els => els.filter(e => e.offsetParent !== null)"
                    ".map(e => e.getBoundingClientRect().toJSON())"):
                assert box["top"] >= 0 and box["bottom"] <= 768, (selector, box)
                assert box["left"] >= 0 and box["right"] <= 1366, (selector, box)

        on_screen(".ld-move")
        on_screen("canvas.ld-board")
        page.screenshot(path=str(artifacts / "a11y-1366x768-turn.png"))
        _keys_to_a_question(page, mirror)
        assert mirror.pending_question is not None
        page.locator(".ld-answer input").wait_for(state="visible", timeout=10_000)
        for sel in (".ld-question", ".ld-answer input", ".ld-submit", ".ld-hint", ".ld-reveal",
                    ".ld-moves", "canvas.ld-board"):
            on_screen(sel)
        assert page.evaluate("document.documentElement.scrollWidth") <= 1366
        page.screenshot(path=str(artifacts / "a11y-1366x768-question.png"))
        # Nothing on the question card or in the game setup is cut off, in both languages.
        page.locator(".ld-setup .jupyter-widget-Collapse-header").click()
        page.locator(".ld-variant select").wait_for(state="visible", timeout=30_000)
        assert cut_in_each_language(page, ".ld-answer input", "your answer, then Enter",
                                    ".ld-tutor, .ld-setup") == {"es": [], "en": []}
    finally:
        context.close()

    context = browser.new_context(viewport={"width": 768, "height": 1024})
    page = context.new_page()
    try:
        board = _open(page, voila_url, query("chromebook-test"))
        page.wait_for_function(IDLE, timeout=30_000)
        mirror = drive.start(Session.from_lesson("free-play", lang="en", seed=SEED, store=None))
        _mirror_forced(mirror)
        box = board.bounding_box()
        assert box is not None and box["width"] < 800 and box["x"] + box["width"] <= 768
        assert abs(box["height"] / box["width"] - 470 / 800) < 0.01  # scaled, not squashed
        assert page.evaluate("document.documentElement.scrollWidth") <= 768
        page.screenshot(path=str(artifacts / "a11y-768-wide.png"), full_page=True)
        # A click where a tile is drawn still hits that tile: one that does not fit says so.
        from tutor.ui.play.layout import layout

        _press_a_tile_that_does_not_fit(page, board.click, layout(mirror.snapshot(), 800, 470),
                                        mirror, box["width"] / 800)
        # The game setup, open, wraps its menus and boxes instead of cutting them off.
        page.locator(".ld-setup .jupyter-widget-Collapse-header").click()
        page.locator(".ld-variant select").wait_for(state="visible", timeout=30_000)
        assert past_the_edge(page, ".ld-app") == []
    finally:
        context.close()


# The board's canvas has the bitmap width given and its felt painted all over it (a canvas
# is cleared when its size changes, and the felt is painted first).
PAINTED_AT = f"""(width) => {{ const el = document.querySelector('canvas.ld-board');
  if (!el || el.width !== width) return false;
  const stats = ({CANVAS_STATS})(el);
  return stats.painted === stats.width * stats.height; }}"""


def _press_a_tile_that_does_not_fit(page: Any, press: Any, lay: Any, mirror: Session,
                                    scale: float, skip: tuple[Tile, ...] = ()) -> Tile:
    """``press`` (the board's ``click`` or ``tap``) where the page draws a hand tile of
    ``lay`` that does not fit (not one of ``skip``), the board shown at ``scale``: the page
    says it does not fit. The tile pressed."""
    fits = {m.tile for m in mirror.legal_actions() if isinstance(m, Play)}
    spot = next(p for p in lay.hand if p.tile not in fits and p.tile not in skip)
    press(position={"x": spot.center[0] * scale, "y": spot.center[1] * scale})
    page.locator(".ld-status").filter(
        has_text=f"{spot.tile} does not fit").wait_for(timeout=10_000)
    return spot.tile


SCROLLED = """() => [...document.querySelectorAll('*')].reduce((sum, e) => sum + e.scrollTop,
                                                              window.scrollY)"""
"""How far the page is scrolled, in whichever box scrolls it."""


def _swipe_up(page: Any, x: float, y: float, distance: int = 250) -> None:
    """Drag a finger up from ``(x, y)``, and wait until the page has scrolled (the browser
    scrolls after the touches, on its own thread)."""
    before = page.evaluate(SCROLLED)
    cdp = page.context.new_cdp_session(page)
    touch = "Input.dispatchTouchEvent"
    cdp.send(touch, {"type": "touchStart", "touchPoints": [{"x": x, "y": y}]})
    for step in range(1, 11):
        cdp.send(touch, {"type": "touchMove",
                         "touchPoints": [{"x": x, "y": y - distance * step / 10}]})
    cdp.send(touch, {"type": "touchEnd", "touchPoints": []})
    cdp.detach()
    page.wait_for_function(f"() => ({SCROLLED})() > {before}", timeout=10_000)


def _shown_unsquashed_with_tappable_tiles(box: dict[str, float], bitmap: tuple[int, int],
                                          mirror: Session) -> tuple[float, Any]:
    """The board's scale on screen (``box``, drawn on ``bitmap``) and its layout, checking
    that it is scaled, not squashed, and that its hand tiles are at least 24 px wide."""
    from tutor.ui.play.layout import layout

    assert abs(box["height"] / box["width"] - bitmap[1] / bitmap[0]) < 0.01
    scale = box["width"] / bitmap[0]
    lay = layout(mirror.snapshot(), *bitmap)
    assert min(p.w for p in lay.hand) * scale >= 24, scale
    return scale, lay


def test_a_phone_gets_a_board_drawn_for_its_width(browser: Any, voila_url: str,
                                                  artifacts: Path) -> None:
    """On a phone (``PHONE``, a touch screen) the board is drawn on a bitmap of the phone's
    size, not the laptop's scaled to half: its hand tiles are at least 24 px wide on the
    screen (WCAG 2.5.8's smallest target; the laptop's board gave them 18), it is scaled, not
    squashed, and a tap where a tile is drawn hits that tile (ipycanvas cancelled taps on its
    canvas); a swipe on the board scrolls the page. Turned sideways (``SIDEWAYS``: a laptop's
    width, 412 px of height), the page gets the laptop's board scaled to fit the screen's
    height, with its tiles as wide and a tap still hitting the tile under it. Widened to a
    laptop's window, the page gets the laptop's board back."""
    from tutor.ui.play.app import BOARD_SIZE, PHONE_BOARD

    context = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True)
    page = context.new_page()
    try:
        board = _open(page, voila_url, query("phone-test"))
        page.wait_for_function(IDLE, timeout=30_000)
        page.wait_for_function(PAINTED_AT, arg=PHONE_BOARD[0], timeout=30_000)
        mirror = drive.start(Session.from_lesson("free-play", lang="en", seed=SEED, store=None))
        _mirror_forced(mirror)
        box = board.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
        scale, lay = _shown_unsquashed_with_tappable_tiles(box, PHONE_BOARD, mirror)
        page.screenshot(path=str(artifacts / "a11y-phone-board.png"), full_page=True)
        # Two quick taps (a tile, then an end) are two plays, not a zoom (iPad's Safari).
        assert board.evaluate("(el) => getComputedStyle(el).touchAction") == "manipulation"
        tapped = _press_a_tile_that_does_not_fit(page, board.tap, lay, mirror, scale)
        _swipe_up(page, box["x"] + box["width"] / 2, box["y"] + box["height"] * 0.8)
        page.set_viewport_size(SIDEWAYS)
        page.wait_for_function(PAINTED_AT, arg=BOARD_SIZE[0], timeout=30_000)
        board.scroll_into_view_if_needed()
        box = board.bounding_box()
        assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= SIDEWAYS[
            "height"], box  # the whole board on the screen at once
        scale, lay = _shown_unsquashed_with_tappable_tiles(box, BOARD_SIZE, mirror)
        page.screenshot(path=str(artifacts / "a11y-phone-sideways.png"))
        _press_a_tile_that_does_not_fit(page, board.tap, lay, mirror, scale, skip=(tapped,))
        page.set_viewport_size(WINDOW)
        page.wait_for_function(PAINTED_AT, arg=BOARD_SIZE[0], timeout=30_000)
    except Exception:
        page.screenshot(path=str(artifacts / "a11y-phone-board-failed.png"), full_page=True)
        raise
    finally:
        context.close()


def test_two_players_pass_a_phone_between_their_turns(browser: Any, voila_url: str,
                                                     artifacts: Path) -> None:
    """Hot seat on a phone (``PHONE``): two human seats chosen in the game setup. Between
    turns the cover hides the board, the moves and the hand (for screen readers too) and names
    the player to take the phone; its words fit the screen in both languages; the player's
    button shows their own tiles, and their move brings the cover back for the other one."""
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    cover, words = page.locator(".ld-cover"), page.locator(".ld-board-words")

    def covered_for(seat: str) -> None:
        page.locator(".ld-cover h2").filter(
            has_text=f"Pass the screen to player {seat}").wait_for(timeout=30_000)
        assert not _visible(page, "canvas.ld-board") and not _visible(page, ".ld-move")
        assert "Your tiles" not in words.text_content()

    try:
        _open(page, voila_url, "?lang=en&seed=4&student=hot-seat-test")
        page.get_by_text("Game setup").click()
        page.locator(".ld-players select").select_option(label="2")
        page.locator(".ld-seat select").nth(1).select_option(label="human")
        for ask in (".ld-ask-power input", ".ld-ask-round-end input"):
            page.locator(ask).uncheck()
        page.get_by_role("button", name="New game").click()
        cover.wait_for(state="visible", timeout=30_000)
        first = re.search(r"player ([AB])", cover.inner_text())
        assert first is not None, cover.inner_text()
        covered_for(first[1])
        page.screenshot(path=str(artifacts / "a11y-hot-seat-phone.png"), full_page=True)
        assert cut_in_each_language(page, ".ld-answer input", "your answer, then Enter",
                                    ".ld-app") == {"es": [], "en": []}
        assert past_the_edge(page, ".ld-app") == []
        covered_for(first[1])  # back in English, still covered

        page.locator(".ld-cover-ok").click()
        page.wait_for_function(IDLE, timeout=30_000)
        assert not _visible(page, ".ld-cover")
        assert f"Your tiles ({first[1]})" in words.text_content()
        _click_first_move(page)
        covered_for("B" if first[1] == "A" else "A")
        assert errors == []
    except Exception:
        page.screenshot(path=str(artifacts / "a11y-hot-seat-failed.png"), full_page=True)
        raise
    finally:
        context.close()
