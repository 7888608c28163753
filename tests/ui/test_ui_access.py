"""Every student can play (issue 12), in the kernel without a browser: the board in words,
the board's keys, names of the moves, what the live region says, where the focus goes, the
help panel, and the colours of the canvas. (tests/browser/test_access.py drives the page.)"""

from __future__ import annotations

import re

import pytest
from ui_views import browser_sends

from engine.round import Play
from tutor.session.words import move_words, spoken, tile_words
from tutor.ui import TutorApp, dashboard
from tutor.ui.play.board import board_words_html
from tutor.ui.play.keys import SHORTCUTS, help_html, shortcut_map
from tutor.ui.play.moves import CHOICE
from tutor.ui.play.question import ANSWER_BOX

NOTATION = re.compile(r"(?<![\w/])(\d|[-+x])/(\d|[-+x])(?![\w/])")


def _app(**kw) -> TutorApp:
    kw.setdefault("seed", 3)
    kw.setdefault("lang", "en")
    return dashboard(**kw)


def _text(html: str) -> str:
    return re.sub(r"<[^>]+>", " ", html)


def _heard(app: TutorApp) -> list[str]:
    """Every announcement from now on (the bots play at once in a test, so the last one
    is seldom the student's)."""
    heard: list[str] = []
    app.access.observe(lambda _c: heard.append(app.access.announcement), "announcements")
    return heard


def _until_question(app: TutorApp) -> None:
    for _ in range(200):
        if app.session.pending_question is not None:
            return
        if app.session.round.over:
            app.next_round()
            continue
        app.moves.children[0].click()
    raise AssertionError("no question")


def test_the_board_in_words_lists_line_ends_hand_counts_and_pile() -> None:
    app = _app()
    view = app.session.snapshot()
    text = _text(board_words_html(view, "en"))
    assert "Line of play, from the left end to the right end: " in text
    assert "Open ends: four on the left, four on the right." in text  # seed 3: 4/4
    assert "Your tiles (A): " + ", ".join(tile_words(t, "en") for t in view.hand) in text
    assert f"Tiles in the other hands: player B: {view.hand_sizes[1]}." in text
    assert f"Pile: {view.pile} tiles." in text
    assert "They fit: " in text and not NOTATION.search(text)
    es = _text(board_words_html(view, "es"))
    assert "Extremos abiertos: cuatro a la izquierda, cuatro a la derecha." in es
    assert "Tus fichas (A): " in es and "Fichas en las otras manos: jugador B" in es
    # The page shows it under the board, for screen readers only; the canvas points to it.
    assert "ld-sr" in app.board_slot.words._dom_classes
    assert app.board_slot.words.value == board_words_html(view, "en")
    board = app.access.attributes["canvas.ld-board"]
    assert board["role"] == "application" and board["aria-label"] == "Domino board"
    assert f"id='{board['aria-describedby']}'" in app.board_slot.words.value


def test_a_hidden_hand_is_not_read_out() -> None:
    app = _app(players=3, humans=(0, 1), bots="greedy")
    for _ in range(50):
        if app.session.snapshot().human_to_move is not None:
            break
        app.run_steps()
    assert app.board_slot.children == (app.cover,)
    text = _text(app.board_slot.words.value)
    assert "Your tiles" not in text and "Tiles in the other hands: player A: " in text


def test_arrow_keys_choose_a_tile_and_an_end_and_enter_places_it() -> None:
    app = _app()  # seed 3: the line is 4/4, and one tile fits both ends
    board = app.board_slot
    board.key("ArrowRight")
    assert board.cursor == ("hand", 0)
    said = app.access.announcement
    assert said.startswith(f"Tile 1 of {len(board.hand)}: {tile_words(board.hand[0], 'en')}.")
    both = next(i for i in range(len(board.hand)) if len(board.plays_for(i)) == 2)
    for _ in range(both):
        board.key("ArrowRight")
    assert board.cursor == ("hand", both) and "It fits both ends." in app.access.announcement
    assert app.board._args["cursor"] == ("hand", both)  # drawn as a ring on the board
    tile = board.hand[both]
    board.key("Enter")
    assert board.selected == both and board.cursor == ("end", "L")
    assert "choose the end with the arrow keys" in app.access.announcement
    board.key("ArrowRight")
    assert board.cursor == ("end", "R")
    assert app.access.announcement == "The right end, where four is open."
    board.key("Escape")
    assert board.selected is None and board.cursor == ("hand", both)
    board.key("Home")
    assert board.cursor == ("hand", 0)
    board.key("End")
    assert board.cursor == ("hand", len(board.hand) - 1)
    for _ in range(len(board.hand)):  # back round to the tile that fits both ends
        if board.cursor == ("hand", both):
            break
        board.key("ArrowRight")
    board.key("Enter")
    board.key("ArrowUp")  # already on the ends: stays there
    board.key("Enter")
    assert tile in app.session.round.line_tiles()


def test_a_tile_that_fits_one_way_is_placed_by_enter() -> None:
    app = _app()
    board = app.board_slot
    for _ in range(40):  # play on until a tile fits one end only
        while app.session.pending_question is not None:
            app.reveal_btn.click()
        one = [i for i in range(len(board.hand)) if len(board.plays_for(i)) == 1]
        if one:
            break
        app.moves.children[0].click()
    tile = board.hand[one[0]]
    board.key("Home")
    for _ in range(one[0]):
        board.key("ArrowRight")
    board.key("Enter")
    assert tile in app.session.round.line_tiles()


def test_every_move_button_has_a_name_that_starts_with_its_caption() -> None:
    """WCAG 2.5.3 (axe's label-content-name-mismatch): a button's name starts with the words
    it shows, so "click 5/4 → L" finds it by voice; then its number and the move in words."""
    app = _app()
    legal = app.session.legal_actions()
    attrs = app.access.attributes
    buttons = {b.tooltip: b.description for b in app.moves.children}
    for i, m in enumerate(legal, 1):
        name = attrs[f'.ld-move[title="{m}"]']
        assert name["aria-label"] == f"{buttons[str(m)]}: move {i}, {move_words(m, 'en')}"
        assert name["aria-keyshortcuts"] == (str(i) if i <= 9 else None)
        assert not NOTATION.search(name["aria-label"].split(": ", 1)[1])
    assert attrs[".ld-hint"]["aria-keyshortcuts"] == "H"
    assert attrs[ANSWER_BOX]["aria-label"] == "Your answer"
    assert attrs[".ld-app"]["role"] == "main"
    app.set_lang("es")
    m = legal[0]
    caption = {b.tooltip: b.description for b in app.moves.children}[str(m)]
    assert app.access.attributes[f'.ld-move[title="{m}"]']["aria-label"] == \
        f"{caption}: jugada 1, {move_words(m, 'es')}"


def test_the_live_region_announces_plays_questions_feedback_and_reveals() -> None:
    app = _app()
    heard = _heard(app)
    app.moves.children[0].click()
    assert heard and heard[0].startswith("Player A places "), heard
    assert any("Player B " in h for h in heard), heard  # the bot's reply
    _until_question(app)
    q = app.session.pending_question
    assert q is not None
    assert heard[-1].endswith(spoken(q.prompt, "en"))  # the question is read out
    app.submit(str(q.expected + 1000))
    assert heard[-1].startswith("Not yet") or "not" in heard[-1].lower(), heard[-1]
    app.hint_btn.click()
    assert heard[-1] == spoken(app.session.hints_given()[-1].text, "en")
    app.reveal_btn.click()
    assert heard[-1]
    assert not any(NOTATION.search(h) for h in heard), heard


def test_the_live_region_speaks_the_page_language() -> None:
    app = _app()
    heard = _heard(app)
    assert app.access.lang == "en"
    app.lang_toggle.value = "es"
    assert app.access.lang == "es"
    app.moves.children[0].click()
    assert heard[0].startswith("El jugador A coloca "), heard
    assert not any(NOTATION.search(h) for h in heard), heard


def test_focus_follows_the_game() -> None:
    app = _app()
    _until_question(app)
    assert app.access.focus_request["selector"] == ANSWER_BOX
    assert not app.access.focus_request["soft"]
    while app.session.pending_question is not None:
        app.reveal_btn.click()
    request = app.access.focus_request
    assert request["selector"] in (CHOICE, ".ld-round-end .jupyter-button")
    assert not request["soft"]


def test_the_page_hands_in_the_text_typed() -> None:
    """access.js sends the answer box's text with Enter (the Text widget's own value may
    lag a keystroke behind)."""
    app = _app()
    _until_question(app)
    q = app.session.pending_question
    assert q is not None
    app.answer_in.value = "1"  # what the kernel has heard of "15" so far
    browser_sends(app.access, {"event": "submit", "value": str(q.expected)})
    assert "ld-ok" in app.last_feedback.value


def test_a_phone_gets_a_board_drawn_for_its_width() -> None:
    """access.js says the window's width: below 600 CSS px the board is laid out and drawn on
    a phone's bitmap, whose hand tiles, scaled to a 412 px phone's column (380 px), stay at
    least 24 px wide (WCAG 2.5.8's smallest target; the laptop's board gave them 18), and
    clicks land on the tiles drawn there; a wider window gets the laptop's board back. A width
    that is not a number of pixels changes nothing."""
    app = _app(seed=5)
    board = app.board
    width, h0 = board.width, board.height

    def window(value: object) -> None:
        browser_sends(app.access, {"event": "width", "value": value})

    for junk in ("412", None, True, -5, 0, [412]):
        window(junk)
        assert (board.canvas.width, board.layout.width) == (width, width)
    laptop_hand = min(p.w for p in board.layout.hand) * 380 / width
    window(412)
    w, h = board.canvas.width, board.canvas.height
    assert w < width and h > w  # narrower, and taller than wide
    lay = board.layout
    assert (lay.width, lay.height) == (w, h) and lay.hand and lay.line
    for p in lay.hand + lay.line:
        assert 0 <= p.x and p.x + p.w <= w and 0 <= p.y and p.y + p.h <= h
    assert min(p.w for p in lay.hand) * 380 / w >= 24 > laptop_hand
    legal = {m.tile for m in app.session.legal_actions() if isinstance(m, Play)}
    bad = next(p for p in lay.hand if p.tile not in legal)
    board._mouse_down(*bad.center)
    assert f"{bad.tile} does not fit" in app.status.value
    window(1280)
    assert (board.canvas.width, board.canvas.height, board.layout.width) == (width, h0, width)


def test_accordion_headers_are_buttons_that_say_whether_they_are_open() -> None:
    app = _app()
    header = (".ld-setup > .jupyter-widget-Collapse:nth-child(1) > "
              ".jupyter-widget-Collapse-header")
    assert app.access.attributes[header] == {"role": "button", "tabindex": "0",
                                             "aria-expanded": "false"}
    app.setup.selected_index = 0
    assert app.access.attributes[header]["aria-expanded"] == "true"


@pytest.mark.parametrize("lang", ["es", "en"])
def test_the_help_panel_lists_every_shortcut(lang: str) -> None:
    out = help_html(lang)
    assert out.startswith("<details class='ld-help'>")
    for key, _what, _sel, _action in SHORTCUTS:
        assert f"<kbd>{key}</kbd>" in out
    assert "<kbd>1–9</kbd>" in out and "<kbd>Enter</kbd>" in out
    assert ("Teclado" in out) == (lang == "es")
    assert shortcut_map()["h"] == {"selector": ".ld-hint", "action": "click"}


def _contrast(a: str, b: str) -> float:
    def lum(colour: str) -> float:
        r, g, b_ = (int(colour[i:i + 2], 16) / 255 for i in (1, 3, 5))

        def f(c: float) -> float:
            return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

        return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b_)

    hi, lo = sorted((lum(a), lum(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def test_the_board_s_symbols_and_words_meet_aa_contrast() -> None:
    """axe cannot see into the canvas: the + − × glyphs on both tile faces and the words
    painted on the felt and the hand band are checked here (WCAG AA, 4.5:1)."""
    from tutor.ui.play import draw

    for colour in draw.SYMBOL_COLOURS.values():
        for face in (draw.FACE, draw.FACE_POWER):
            assert _contrast(colour, face) >= 4.5, (colour, face)
    assert _contrast(draw.PIP, draw.FACE_POWER) >= 4.5
    for colour in (draw.END_MARK, draw.FIT, draw.TABLE_MARK, "#cfe8dc"):
        assert _contrast(colour, draw.FELT) >= 4.5, colour
    assert _contrast("#c9d6e3", draw.BAND) >= 4.5
