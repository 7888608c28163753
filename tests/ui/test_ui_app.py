"""The dashboard in the kernel, without a browser: build it, press its buttons, read its widgets."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from ui_views import browser_sends

from engine.events import Drew
from engine.round import Draw, Pass, Play
from tests import driving as drive
from tutor.ui import TutorApp, dashboard
from tutor.ui.play.moves import move_label
from tutor.ui.shared.panel import LOGGED

ROOT = Path(__file__).resolve().parents[2]


def _classes(widget) -> list[str]:
    return list(widget._dom_classes)


def _find(widget, cls: str) -> list:
    """Every widget under ``widget`` carrying CSS class ``cls``."""
    found = []
    stack = [widget]
    seen = set()
    while stack:
        w = stack.pop()
        if id(w) in seen:
            continue
        seen.add(id(w))
        if cls in getattr(w, "_dom_classes", ()):
            found.append(w)
        stack.extend(reversed(getattr(w, "children", ()) or ()))
    return found


def _app(**kw) -> TutorApp:
    kw.setdefault("seed", 3)
    kw.setdefault("lang", "en")
    return dashboard(**kw)


def _play_first(app: TutorApp) -> None:
    buttons = _find(app, "ld-move")
    assert buttons, "no move buttons on the human's turn"
    buttons[0].click()


def _finish_round(app: TutorApp, limit: int = 200) -> None:
    for _ in range(limit):
        if app.session.round.over and app.session.pending_question is None:
            return
        if app.session.pending_question is not None:
            app.reveal_btn.click()
        else:
            _play_first(app)
    raise AssertionError("the round did not end")


def test_css_classes_are_in_place() -> None:
    app = _app()
    for cls in ("ld-app", "ld-board", "ld-lang", "ld-new-game", "ld-answer", "ld-submit",
                "ld-hint", "ld-reveal", "ld-feedback", "ld-scores", "ld-sheet", "ld-status",
                "ld-setup", "ld-next-round", "ld-new-match", "ld-mastery"):
        assert _find(app, cls) or cls in _classes(app.board.canvas), cls


def test_every_legal_move_is_a_button() -> None:
    app = _app()
    legal = app.session.legal_actions()
    buttons = _find(app, "ld-move")
    assert len(buttons) == len(legal) > 0
    assert [b.description for b in buttons] == [app.move_label(m) for m in legal]
    assert all("→" in b.description for b, m in zip(buttons, legal, strict=True)
               if isinstance(m, Play) and m.end is not None)


def test_move_button_plays_and_bots_answer() -> None:
    app = _app()
    before = len(app.session.round.line_tiles())
    _play_first(app)
    rnd = app.session.round
    # The bot moved too (no event loop in a test: the steps run at once).
    assert len(rnd.line_tiles()) > before or app.session.pending_question is not None
    assert (app.session.waiting() is None) is False


def test_click_on_a_tile_that_does_not_fit_is_a_message() -> None:
    app = _app()
    legal_tiles = {m.tile for m in app.session.legal_actions() if isinstance(m, Play)}
    bad = [i for i, t in enumerate(app.board_slot.hand) if t not in legal_tiles]
    if not bad:
        pytest.skip("every tile fits in this deal")
    line = list(app.session.round.line_tiles())
    app.select(bad[0])
    assert "does not fit" in app.status.value
    assert app.session.round.line_tiles() == line


def test_tile_fitting_both_ends_lights_them_then_end_click_places() -> None:
    app = _app()  # seed 3: the line is 4/4 and 4/5 fits both ends
    idx = next(i for i, t in enumerate(app.board_slot.hand)
               if len(app.board_slot.plays_for(i)) == 2)
    app.select(idx)
    assert app.board_slot.selected == idx
    assert set(app.board._args["fit_ends"]) == {"L", "R"}
    tile = app.board_slot.hand[idx]
    app.place_at("R")
    assert tile in app.session.round.line_tiles()


def test_end_click_without_selection_and_clicks_out_of_turn_never_raise() -> None:
    app = _app(players=3, bots="search")
    app.place_at("L")
    app.select(99)
    assert app.session.round is not None
    app.new_game()
    assert app.session.round.number == 1


def test_an_unforeseen_error_in_a_click_is_said_and_the_game_goes_on(monkeypatch) -> None:
    """ipywidgets hands a callback's error to a notebook cell's output, which Voilà does not
    show: without the app's guard the board just stopped answering. Now the page says what went
    wrong, the server's log gets the traceback, and the next click plays."""
    import io

    app = _app()
    log = io.StringIO()
    monkeypatch.setattr(sys, "__stderr__", log)
    play = app.session.apply_action

    def broken(_move: Any) -> Any:
        raise RuntimeError("the engine tripped")

    monkeypatch.setattr(app.session, "apply_action", broken)
    line = list(app.session.round.line_tiles())
    _play_first(app)
    assert "Something went wrong: the engine tripped" in app.status.value
    assert "RuntimeError: the engine tripped" in log.getvalue()
    assert log.getvalue().startswith(LOGGED)  # the line the browser tests look for
    assert app.session.round.line_tiles() == line and _find(app, "ld-move")  # nothing lost
    monkeypatch.setattr(app.session, "apply_action", play)
    _play_first(app)
    assert len(app.session.round.line_tiles()) > len(line)
    assert "Something went wrong" not in app.status.value


def test_an_unforeseen_error_in_a_bot_step_is_said(monkeypatch) -> None:
    import io

    app = _app()
    monkeypatch.setattr(sys, "__stderr__", io.StringIO())

    def broken() -> Any:
        raise RuntimeError("the bot tripped")

    monkeypatch.setattr(app.session.game, "bot_move", broken)
    _play_first(app)  # the bot's reply trips
    assert "Something went wrong: the bot tripped" in app.status.value
    assert (app.session.waiting() is None)  # the bot's turn waits; nothing was lost


def _until_question(app: Any) -> Any:
    """Play the first legal move (and next rounds) until the tutor asks something."""
    for _ in range(200):
        if app.session.pending_question is not None:
            break
        if app.session.round.over:
            app.next_round()
            continue
        _play_first(app)
    q = app.session.pending_question
    assert q is not None
    return q


def test_question_answer_hint_reveal_flow() -> None:
    app = _app()
    q = _until_question(app)
    assert app.tutor.layout.display is None
    assert q.prompt in app.question.value
    assert "<math" not in app.question.value  # no formula before the first attempt
    assert "ld-situation" in app.question.value  # the line, with both ends marked
    shown = app.session.snapshot().scores_shown
    assert app.session.snapshot().hiding
    # Typing alone hands in nothing (leaving the box to press Hint must not submit) …
    app.answer_in.value = str(q.expected + 1000)
    assert "ld-bad" not in app.feedback.value and app.session.pending_question is q
    # … Enter does: the browser sends the Text widget a "submit" message.
    browser_sends(app.answer_in, {"event": "submit"})
    assert "ld-bad" in app.feedback.value
    app.hint_btn.click()
    assert app.feedback.value
    app.reveal_btn.click()
    assert app.session.pending_question is None or app.session.pending_question is not q
    assert str(q.expected) in app.last_feedback.value
    assert app.session.snapshot().scores_shown != shown or q.expected == 0


def test_right_answer_by_submit_button() -> None:
    app = _app()
    q = _until_question(app)
    app.answer_in.value = str(q.expected)
    app.submit_btn.click()
    assert "ld-ok" in app.last_feedback.value


def test_a_whole_match_to_the_end_and_a_new_one() -> None:
    app = _app(rounds=2)
    for r in range(2):
        _finish_round(app)
        assert app.round_end.layout.display is None
        assert app.summary.value and app.match_table.value
        if r == 0:
            assert app.next_round_btn.layout.display is None
            app.next_round_btn.click()
            assert app.session.round.number == 2
    assert app.session.match.over
    assert app.next_round_btn.layout.display == "none"
    assert "★" in app.match_table.value
    app.new_match_btn.click()
    assert not app.session.match.over and app.session.round.number == 1


def test_score_sheet_and_downloads() -> None:
    app = _app()
    _play_first(app)
    while app.session.pending_question is not None:
        app.reveal_btn.click()
    assert app.sheet_html.value == ""  # closed: the round is not replayed for nothing
    app.sheet.selected_index = 0
    assert "<table" in app.sheet_html.value
    assert "download=" in app.sheet_links.value
    assert "data:text/csv" in app.sheet_links.value and "data:text/html" in app.sheet_links.value


def test_sheet_does_not_show_hidden_points() -> None:
    """While a question waits, the open score sheet stays as it was before the power play
    (its +/- columns would give the answer away); the reveal brings it up to date."""
    app = _app()
    app.sheet.selected_index = 0
    _until_question(app)
    before = app.sheet_html.value
    assert "<table" in before
    app.refresh()
    assert app.sheet_html.value == before
    while app.session.pending_question is not None:
        app.reveal_btn.click()
    assert app.sheet_html.value != before


def test_language_switch_keeps_the_game() -> None:
    app = _app(lang="es")
    _play_first(app)
    line = app.session.round.line_tiles()
    assert app.new_game_btn.description == "Juego nuevo"
    app.lang_toggle.value = "en"
    assert app.new_game_btn.description == "New game"
    assert app.session.lang == "en"
    assert app.session.round.line_tiles() == line
    app.lang_toggle.value = "es"
    assert "Ronda" in app.status.value


def test_hot_seat_hides_the_hand_until_the_player_takes_the_screen() -> None:
    app = _app(players=3, humans=(0, 1), bots="greedy")
    app.players_dd.value = 3
    app.seat_dds[0].value = "human"
    app.seat_dds[1].value = "human"
    app.seat_dds[2].value = "random"
    app.new_game()
    assert app.session.humans == (0, 1)
    for _ in range(50):
        if app.session.snapshot().human_to_move is not None:
            break
        app.run_steps()
    assert app.board_slot.children == (app.cover,)
    assert _find(app, "ld-move") == []
    assert app.board_slot.hand == []
    app.cover_btn.click()
    assert app.board_slot.children == (app.board.canvas,)
    assert app.board_slot.hand


def test_setup_panel_makes_the_session() -> None:
    app = _app()
    app.players_dd.value = 4
    app.seat_dds[1].value = "random"
    app.seat_dds[2].value = "search"
    app.seat_dds[3].value = "greedy"
    app.rounds_in.value = 1
    app.seed_in.value = "11"
    app.ask_round.value = False
    app.new_game_btn.click()
    s = app.session
    assert s.players == 4 and s.humans == (0,) and s.settings["seed"] == 11
    assert s.ask == {"power"} and s.match.rules.rounds == 1
    assert s.round.table is not None
    lay = app.board.layout
    assert any(p.table for p in lay.line)


def test_setup_offers_every_bot_level_and_the_expert_plays() -> None:
    from engine.bots import BOTS, ExpertBot

    app = _app()
    offered = {value for _label, value in app.seat_dds[1].options}
    assert set(BOTS) <= offered and "expert" in offered
    app.seat_dds[1].value = "expert"
    app.seed_in.value = "3"
    app.new_game_btn.click()
    assert isinstance(app.session.game.bots[1], ExpertBot)


def test_forced_draw_is_applied_with_a_message() -> None:
    app = _app(seed=5)
    for _ in range(300):
        if app.session.round.over:
            break
        if app.session.pending_question is not None:
            app.reveal_btn.click()
            continue
        if any(isinstance(m, (Draw, Pass)) for m in app.session.legal_actions()):
            raise AssertionError("a forced draw or pass waited for a click")
        if "draw" in app.status.value.lower() or "pass" in app.status.value.lower():
            return
        _play_first(app)


def test_board_layout_follows_the_view() -> None:
    app = _app()
    view = app.session.snapshot()
    assert len(app.board.layout.line) == len(view.line)
    assert len(app.board.layout.hand) == len(view.hand)


def test_notebook_is_thin() -> None:
    for path in sorted((ROOT / "notebooks").glob("*.ipynb")):
        nb = json.loads(path.read_text(encoding="utf-8"))
        code = ["".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "code"]
        assert len(code) == 1
        tree = ast.parse(code[0])
        assert not any(isinstance(n, (ast.FunctionDef, ast.ClassDef, ast.Lambda))
                       for n in ast.walk(tree))
        calls = [n for n in ast.walk(tree) if isinstance(n, ast.Call)]
        assert len(calls) == 1 and not calls[0].args and not calls[0].keywords


def test_only_tutor_ui_imports_widgets() -> None:
    for path in (ROOT / "engine").rglob("*.py"):
        assert "ipywidgets" not in path.read_text(encoding="utf-8"), path
    for path in (ROOT / "tutor").rglob("*.py"):
        if "ui" in path.relative_to(ROOT / "tutor").parts:
            continue
        text = path.read_text(encoding="utf-8")
        assert "import ipywidgets" not in text and "import ipycanvas" not in text, path
    code = "import engine, tutor, tutor.session.session, sys; print('ipywidgets' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         cwd=ROOT, check=True)
    assert out.stdout.strip() == "False"


def test_progress_download_is_a_hand_in_the_teacher_can_import(tmp_path) -> None:
    """On Binder the progress file goes with the server: the student downloads it and the
    teacher imports it (python -m tutor import FILE)."""
    import base64
    import re

    from tutor.storage.store import Store

    app = _app(student="ana")
    _until_question(app)
    app.reveal_btn.click()
    app.sheet.selected_index = 1
    link = re.search(r"href='data:text/csv;charset=utf-8;base64,([^']*)'",
                     app.progress_html.value)
    assert link and "ana" in app.progress_html.value
    handed_in = tmp_path / "ana.csv"
    handed_in.write_bytes(base64.b64decode(link.group(1)))
    with Store(tmp_path / "teacher.sqlite3") as teacher:
        assert teacher.import_file(handed_in) >= 1
        assert teacher.students() == ["ana"]


def test_board_sends_only_layers_that_changed(monkeypatch) -> None:
    """Nothing is drawn before the page has the board's layers (each says so when the page
    builds it); then every layer. A refresh that changes no tile sends no tile drawing; a
    page that says its board is blank gets every layer again. Every batch of drawings names
    its layer first: ipycanvas's page side stops drawing for good after a batch that fails,
    and one that relied on a lost batch's layer failed (the board stayed blank)."""
    import ipycanvas.canvas as ipc

    import tutor.ui.play.board as board_mod

    calls: list[str] = []
    real_tiles, real_table = board_mod.paint_tiles, board_mod.paint_table
    monkeypatch.setattr(board_mod, "paint_tiles",
                        lambda *a, **k: (calls.append("tiles"), real_tiles(*a, **k)))
    monkeypatch.setattr(board_mod, "paint_table",
                        lambda *a, **k: (calls.append("table"), real_table(*a, **k)))
    batches: list[Any] = []
    monkeypatch.setattr(ipc._CANVAS_MANAGER, "_send_custom",
                        lambda command, buffers=(): batches.append(command))
    app = _app()
    app.refresh()
    app.board.mark(selected=0, fit_ends=())
    assert calls == [] and batches == []  # no page yet: nothing is sent to be lost
    layers = app.board.canvas._canvases
    for layer in layers[:-1]:
        layer._handle_frontend_event(layer, {"event": "client_ready"}, [])
    assert calls == []  # the page has some layers, not all
    layers[-1]._handle_frontend_event(layers[-1], {"event": "client_ready"}, [])
    assert sorted(calls) == ["table", "tiles"]
    calls.clear()
    app.refresh()
    assert calls == []
    browser_sends(app.access, {"event": "repaint"})  # the page found it blank
    assert sorted(calls) == ["table", "tiles"]
    calls.clear()
    app.board.mark(selected=1, fit_ends=())  # the highlight layer alone, twice
    app.board.mark(selected=None, fit_ends=())
    assert calls == []
    _play_first(app)
    assert "tiles" in calls
    switch = ipc.COMMANDS["switchCanvas"]
    assert len(batches) >= 5  # the two pages' paints, the highlights, the move
    assert all(batch[0][0] == switch for batch in batches)  # each names its layer first


def _status_text(app: TutorApp) -> str:
    import html
    import re

    return html.unescape(re.sub(r"<[^>]+>", "", app.status.value))


@pytest.mark.parametrize("query,says", [
    ("lesson=/etc/ld.so.conf&lang=en", "is not the name of a lesson"),
    ("lesson=..%2Flessons%2Ffree-play&lang=en", "is not the name of a lesson"),
    ("lesson=free%00play&lang=en", "is not the name of a lesson"),
    ("lesson=" + "x" * 300 + "&lang=en", "is not the name of a lesson"),
    ("lesson=no-such-lesson&lang=en", "There is no lesson “no-such-lesson”"),
    ("student=%20%20%20&lang=en", ""),
    ("seed=" + "9" * 25_000 + "&lang=en", "demasiado largo"),  # ignored whole, lang too
    ("seed=12abc&lang=en", "seed must be a whole number"),
    ("lang=xx", "idioma del enlace"),
    ("lesson=01-other-end&lang=en&student=" + "%1b%5B2J" * 10, ""),
])
def test_any_link_opens_the_page_and_says_what_it_could_not_use(monkeypatch, query, says):
    """Issue: a directory, a NUL byte, a 300-character value or a blank student crashed the
    page. Every link now opens a playable page; what could not be used is said on it."""
    monkeypatch.setenv("QUERY_STRING", query)
    app = dashboard(seed=3)
    assert app.session.legal_actions() or app.session.pending_question or app.session.round.over
    assert says in _status_text(app)
    assert app.session.student.isprintable() and app.session.student.strip()


def test_a_lesson_that_is_a_folder_or_unreadable_falls_back_to_free_play(monkeypatch, tmp_path):
    monkeypatch.setenv("LEONARD_LESSONS", str(tmp_path))
    (tmp_path / "broken.json").write_text("{", encoding="utf-8")
    monkeypatch.setenv("QUERY_STRING", "lesson=broken&lang=es")
    app = dashboard(seed=3)
    text = _status_text(app)
    assert "broken.json: línea 1, columna 2: no es un JSON válido" in text
    assert "juego libre" in text
    assert app.session.lesson == "free-play"


def test_no_lesson_files_at_all_still_opens_free_play(monkeypatch, tmp_path):
    """What Binder showed: the lessons were not installed, and the fallback itself failed."""
    import tutor.course.lessons

    monkeypatch.setattr(tutor.course.lessons, "lesson_dirs", lambda: [tmp_path])
    monkeypatch.setenv("QUERY_STRING", "lesson=01-other-end&lang=en")
    app = dashboard(seed=3)
    assert app.session.lesson == "free-play" and app.session.legal_actions()
    assert "There is no lesson “01-other-end”" in _status_text(app)


def test_on_a_hub_the_signed_in_user_is_the_student(monkeypatch):
    monkeypatch.setenv("JUPYTERHUB_USER", "alumna-7")
    monkeypatch.setenv("QUERY_STRING", "student=someone-else&lang=en")
    assert dashboard(seed=3).session.student == "alumna-7"


def test_the_dashboard_plays_the_block_game(monkeypatch):
    """Issue: the block variant crashed the board (TileError '0/0': tiles parsed as Leonard)."""
    monkeypatch.setenv("QUERY_STRING", "lang=en")
    app = dashboard(seed=5)
    app.variant_dd.value = "block"
    app.new_game()
    s = app.session
    assert s.round.variant.name == "block" and s.round.tileset.name == "double-six"
    for _ in range(200):
        if s.round.over:
            break
        if s.pending_question is not None:
            app.submit(str(s.pending_question.expected))
        elif s.legal_actions():
            app.play(s.legal_actions()[0])
        app.run_steps()
    assert s.round.over


VARIANT_LESSONS = {"09-traditional": "traditional", "10-venezuela": "venezuela",
                   "11-ponce": "ponce", "12-cuban": "cuban", "13-doble15": "doble15"}


@pytest.mark.parametrize("lesson", sorted(VARIANT_LESSONS))
def test_every_variant_lesson_opens_and_plays_a_round_in_the_dashboard(monkeypatch, lesson):
    """Issue 10: setup offers every variant, the lesson's game opens (it used to crash on an
    unknown variant), and a round is played to its end through the move buttons with the
    round's summary saying how that game scores."""
    from tutor.ui.play.round_end import SCORING_WHY

    monkeypatch.setenv("QUERY_STRING", f"lesson={lesson}&lang=en&seed=5")
    app = dashboard()
    s = app.session
    name = VARIANT_LESSONS[lesson]
    assert s.round.variant.name == name and app.variant_dd.value == name
    assert set(dict(app.variant_dd.options).values()) >= set(VARIANT_LESSONS.values())
    assert app.players_dd.value == s.players
    for _ in range(400):
        if s.round.over and s.pending_question is None:
            break
        if s.pending_question is not None:
            app.submit(str(s.pending_question.expected))
        else:
            _play_first(app)
        app.run_steps()
    assert s.round.over
    from html import escape

    from tutor.i18n import translator
    assert escape(translator("en")(SCORING_WHY[name])) in app.summary.value
    view = s.snapshot()
    if view.teams:  # pair games show each pair's total
        assert "Pair A &amp; C" in app.scores.value and "Pair B &amp; D" in app.scores.value
    if view.target:
        assert f"playing to {view.target} points" in app.status.value


def test_setup_offers_the_player_counts_of_the_chosen_game():
    app = _app()
    app.variant_dd.value = "venezuela"
    assert list(app.players_dd.options) == [4] and app.players_dd.value == 4
    assert app.rounds_in.disabled  # played to a score
    app.variant_dd.value = "leonard"
    assert list(app.players_dd.options) == [2, 3, 4, 5] and not app.rounds_in.disabled
    app.variant_dd.value = "traditional"
    assert list(app.players_dd.options) == [2, 3, 4, 5] and app.players_dd.value == 4
    app.new_game()
    assert app.session.round.variant.name == "traditional" and app.session.players == 4


def test_doble15_hub_is_laid_out_arm_by_arm_and_clicks_reach_every_arm():
    """Doble 15's six-arm hub: the hub on the left, one row per arm, each open end a click
    target named by its arm; numbers instead of pips for double-fifteen; long arms keep their
    outer tiles on the canvas."""
    from engine.tiles import DOUBLE_FIFTEEN, Tile
    from tutor.ui.play.layout import hit_test, layout

    arms = [[Tile(7, i)] * (i * 4) for i in range(6)]  # 0 to 20 tiles
    view = {"tileset": DOUBLE_FIFTEEN, "line": [Tile(7, 7)] + [t for a in arms for t in a],
            "arms": arms, "end_names": tuple("123456"), "ends": (7, 1, 2, 3, 4, 5),
            "hand": [Tile(15, 15), Tile(0, 13)]}
    lay = layout(view, 820, 500)
    assert lay.numbers
    assert [s.end for s in lay.ends] == list("123456")
    for s in lay.ends:
        assert 0 <= s.x and s.x + s.w <= 820 and s.y + s.h <= lay.band_y
        assert hit_test(s.x + s.w / 2, s.y + s.h / 2, lay) == type(hit_test(0, 0, lay))(
            "end", end=s.end)
    for p in lay.line:
        assert 0 <= p.x and p.x + p.w <= 820 and p.y + p.h <= lay.band_y
    assert lay.half >= 12  # still legible
    hidden = {name: n for name, _x, _y, n in lay.arm_labels}
    assert hidden["1"] == 0 and hidden["6"] > 0  # the 20-tile arm keeps its outer tiles
    assert len(lay.line) == 1 + sum(len(a) for a in arms) - sum(hidden.values())
    assert {p.index for p in lay.line} >= {len(view["line"]) - 1}  # the last tile is shown
    lay6 = layout({"tileset": None, "line": [Tile(6, 6)], "ends": (6, 6)}, 820, 500)
    assert not lay6.numbers


def test_a_long_game_does_not_pile_up_widgets() -> None:
    """Each refresh used to make new move buttons and never close the old ones: a round left
    about 240 live widgets in the kernel (and the page). Buttons of moves gone are given to
    the next new moves, so a round makes no more buttons than the most moves on offer at
    once; and a reused button shows, names and plays its new move."""
    app = _app(seed=5, players=2, bots="greedy")
    seen: dict[int, Any] = {}
    most = turns = 0
    for _ in range(200):
        if app.session.round.over and app.session.pending_question is None:
            break
        shown = _find(app, "ld-move")
        legal = app.legal_actions() if not app.board_slot.covered(app._view) else []
        assert [b.tooltip for b in shown] == [str(m) for m in legal]
        assert [b.description for b in shown] == [move_label(m, "en") for m in legal]
        assert [b.button_style == "warning" for b in shown] == [
            isinstance(m, Play) and m.tile.is_power for m in legal]
        for b in shown:
            seen[id(b)] = b
        most = max(most, len(shown))
        if app.session.pending_question is not None:
            app.reveal_btn.click()
        else:
            before = len(app.session.game.round_events)
            turns += 1
            _play_first(app)  # the first button, maybe a reused one, plays the first move
            assert len(app.session.game.round_events) > before
    assert turns > 10  # the round went through many sets of moves
    assert len(seen) <= most
    assert all(b.comm is not None for b in seen.values())


def test_a_move_button_stays_while_its_move_is_on_offer() -> None:
    app = _app(seed=5, players=2, bots="greedy")
    app.refresh()
    first = {b.tooltip: b for b in _find(app, "ld-move")}
    app.refresh()
    assert {b.tooltip: b for b in _find(app, "ld-move")} == first
    app.set_lang("es")  # the same buttons, with Spanish captions
    spanish = {b.tooltip: b for b in _find(app, "ld-move")}
    assert spanish == first
    assert [b.description for b in spanish.values()] == [
        move_label(m, "es") for m in app.legal_actions()]


def test_a_run_of_draws_is_one_step_that_stops_when_a_tile_fits() -> None:
    """A player (bot or student) with no tile that fits draws until one fits in one step:
    one redraw and one pause for the run, not one per tile. No redraw ever shows a draw after
    which the same player can only draw again; the student's message lists every tile."""
    runs: dict[str, int] = {"bot": 0, "student": 0}
    for seed in range(12):
        app = _app(seed=seed, players=2, bots="greedy")
        seen = len(app.session.game.round_events)
        real = app.refresh

        def refresh(*args: Any, _app: TutorApp = app, _real: Any = real, **kwargs: Any) -> None:
            nonlocal seen
            step, seen = _app.session.game.round_events[seen:], len(_app.session.game.round_events)
            rnd = _app.session.round
            if step and isinstance(step[-1], Drew) and not rnd.over and rnd.turn == step[-1].seat:
                assert not all(isinstance(m, Draw) for m in rnd.legal_actions()), step
            drew = [e for e in step if isinstance(e, Drew) and not e.forced]
            if len(drew) > 1:
                human = drew[0].seat in _app.session.humans
                runs["student" if human else "bot"] += 1
                if human:
                    assert ", ".join(str(e.tile) for e in drew) in _app.status.message
            _real(*args, **kwargs)

        app.refresh = refresh  # type: ignore[method-assign]
        _finish_round(app)
    assert runs["bot"] >= 2 and runs["student"] >= 2, runs


WARM = """
import sys
from tutor.teaching.questions import warm_up
from tutor.ui.play.app import TutorApp

app = TutorApp(players=2, bots="greedy", seed=5, lang="es", pace=0.0, store=None)
warm_up("es")
before = set(sys.modules)
asked = 0
for _ in range(400):
    s = app.session
    if s.pending_question is not None:
        asked += 1
        app.refresh()
        app._reveal()
        continue
    if s.round.over or asked >= 2:
        break
    app.play(app.legal_actions()[0])
new = sorted(m for m in set(sys.modules) - before
             if m.split(".")[0] in ("sympy", "babel", "mpmath", "latex2mathml"))
print(asked, new)
"""


def test_after_the_warm_up_the_first_questions_load_nothing() -> None:
    """A live page loads the MathML converter and the number formats once the board is out
    (``warm_up``; formulas need no sympy, tutor.teaching.formula):
    the click that brings the first question, worked steps and all, imports nothing more
    (it used to wait about 0.7 s for sympy, and 0.1 s for the MathML converter)."""
    out = subprocess.run([sys.executable, "-c", WARM], capture_output=True, text=True,
                         check=True, cwd=Path(__file__).resolve().parents[2])
    assert out.stdout.split()[0] == "2" and out.stdout.strip().endswith("[]"), out.stdout


def test_a_live_page_warms_up_once_the_board_is_out(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[tuple[Any, ...]] = []

    class Loop:
        def call_soon(self, *args: Any) -> None:
            calls.append(args)

        def create_task(self, coro: Any) -> None:
            coro.close()

    import tutor.ui.play.app as app_module
    monkeypatch.setattr(app_module, "running_loop", lambda: Loop())
    app = _app(seed=5, players=2, bots="greedy", lang="es")
    # … what the lesson's questions tell apart (issue 42: a tenth of a second, once) …
    # … and then takes what is alive out of the garbage collector's full collections
    assert calls == [(app_module.warm_up, "es"), (app.session.warm_up,),
                     (app_module.freeze_heap,)]


def test_a_refresh_sends_each_widget_at_most_one_update(monkeypatch) -> None:
    """Every message costs the server and each page's browser a fixed price (a classroom's
    10 browsers on 2 cores are the limit, see README "Load"): a refresh sends each widget's
    changes in one message, not one per trait (the access layer's focus, words and
    attributes; a reused move button's caption, name and colour)."""
    # ipywidgets' Widget, found without importing ipywidgets (only tutor/ui imports it)
    widget = next(c for c in TutorApp.__mro__ if c.__name__ == "Widget")
    sent: list[tuple[int, tuple[str, ...]]] = []
    real = widget._send

    def record(self, msg, buffers=None):  # type: ignore[no-untyped-def]
        if msg.get("method") == "update":
            sent.append((id(self), tuple(sorted(msg.get("state", {})))))
        return real(self, msg, buffers)

    monkeypatch.setattr(widget, "_send", record)
    app = _app(seed=5, players=2, bots="greedy")
    real_refresh = app.refresh
    doubles: list[tuple[str, ...]] = []
    refreshes = 0

    def refresh(*a, **k):  # type: ignore[no-untyped-def]
        nonlocal refreshes
        refreshes += 1
        start = len(sent)
        real_refresh(*a, **k)
        per: dict[int, list[tuple[str, ...]]] = {}
        for wid, keys in sent[start:]:
            per.setdefault(wid, []).append(keys)
        doubles.extend(k for ks in per.values() if len(ks) > 1 for k in ks)

    monkeypatch.setattr(app, "refresh", refresh)
    _finish_round(app)
    assert refreshes > 10
    assert doubles == []


@pytest.mark.parametrize(("settings", "title"), [
    ({}, "<b>Your skills</b>"),
    ({"lang": "es"}, "<b>Tus habilidades</b>"),
    ({"student": "ana"}, "<b>Skills of ana</b>"),
])
def test_the_skills_card_names_the_student_or_says_yours(settings: dict[str, str],
                                                         title: str) -> None:
    """A learner who opened the page without a name reads "Your skills", not the store's
    placeholder name for them."""
    skills = _find(_app(**settings), "ld-mastery")[0].value
    assert skills.startswith(title) and "anon" not in skills


def test_hot_seat_players_without_names_each_read_your_skills() -> None:
    """Hot seat on a page opened without a name: the second seat's store name is "anon (B)";
    its skills card says "Your skills" too, as the first seat's does."""
    from tutor.session.session import Session
    from tutor.ui.play.skills import mastery_html

    s = drive.start(Session(players=2, humans=(0, 1), seed=3, lang="en", store=None))
    seen = set()
    for _ in range(60):
        view = s.snapshot()
        seen.add(view.student)
        assert mastery_html(view, "en").startswith("<b>Your skills</b>"), view.student
        if view.question is not None:
            drive.answer(s, str(s.pending_question.expected))
        elif view.human_to_move is not None:
            drive.play(s, s.legal_actions()[0])
        else:
            break
    assert seen == {"anon", "anon (B)"}


def test_a_lesson_plays_to_its_end_and_shows_the_summary_and_the_link() -> None:
    """docs/rules.md §4 (issue 32 part 4): the play page goes on past the lesson's match until
    the lesson is over (here its cap of 25 questions, answered wrong: past the first match,
    whose end offers the next match), then shows each target skill with right / asked,
    mastered or not, what to practise next, and the link back to the lessons page; no next
    round is offered."""
    from tutor.session.session import Session

    session = drive.start(Session.from_lesson("04-times", lang="en", student="ana", seed=3,
                                  max_questions=25))
    app = TutorApp(session=session)
    assert app.round_end.lesson_end.layout.display == "none"
    next_match = 0
    for _ in range(5000):
        s = app.session
        if s.pending_question is not None:
            app.answer_in.value = str(s.pending_question.expected + 1000)
            app.submit_btn.click()
            if app.session.pending_question is not None:
                app.reveal_btn.click()
        elif s.lesson_over:
            break
        elif s.round.over:
            assert app.next_round_btn.layout.display is None
            if s.match.over:
                assert app.next_round_btn.description == "Next match"
                next_match += 1
            app.next_round_btn.click()
        else:
            _play_first(app)
    assert app.session.lesson_over and next_match >= 1 and app.session.match_number > 1
    html = app.round_end.lesson_end.value
    assert app.round_end.lesson_end.layout.display is None
    assert "multiplying" in html and "not yet" in html and "/ " in html
    assert "Practise it again in this lesson" in html
    assert "href='Lessons.ipynb?lang=en&amp;student=ana'" in html
    assert app.next_round_btn.layout.display == "none"
    assert "The lesson is over." in app.status.value
    app.set_lang("es")
    assert "href='Lessons.ipynb?lang=es&amp;student=ana'" in app.round_end.lesson_end.value
    assert "Volver a las lecciones" in app.round_end.lesson_end.value


def test_a_new_game_started_while_the_bots_play_goes_on(
        monkeypatch: pytest.MonkeyPatch, own_thread: Callable[[Callable[[], None]], None]) -> None:
    """Issue (CI, the block game's round through the page): "New game" pressed while the
    bots of the game before were still playing left the new game standing, a bot to move and
    nobody moving it; the pacing task of the old game ended when it woke, and the new game's
    was never started because the old one had not ended yet. Here a real event loop paces
    the bots, and a new game starts while the first game's task sleeps between moves."""
    import asyncio

    import tutor.ui.play.app as app_module
    loop = asyncio.new_event_loop()
    monkeypatch.setattr(app_module, "running_loop", lambda: loop)
    monkeypatch.setattr(app_module, "warm_up", lambda lang: None)
    monkeypatch.setattr(app_module, "freeze_heap", lambda: None)

    def play() -> None:
        app = TutorApp(players=4, bots="greedy", seed=1, lang="en", pace=0.001, store=None)
        assert app.session.waiting() is None  # a bot opens: the page's task is to move it
        loop.run_until_complete(asyncio.sleep(0))  # the task has started, and sleeps
        app.new_game()
        assert app.session.waiting() is None  # a bot opens the new game too
        while pending := [t for t in asyncio.all_tasks(loop) if not t.done()]:
            loop.run_until_complete(asyncio.gather(*pending))
        assert app.session.waiting() is not None  # the bots moved up to the student's turn
        assert app.session.round.turn == 0

    try:
        own_thread(play)
    finally:
        loop.close()
