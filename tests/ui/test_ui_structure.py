"""The dashboard's shape: one module per panel, each rendering itself from the snapshot; the
app only wires them, from one snapshot per refresh."""

from __future__ import annotations

import ast

from ui_views import UI, ui_module, ui_path

from tutor.ui import TutorApp, dashboard

CONTAINERS = {"VBox", "HBox", "Box", "Layout"}




def test_the_app_builds_no_widget_of_its_own() -> None:
    """Every button, text box and HTML block belongs to a panel module; app.py only lays
    the panels out in containers."""
    tree = ast.parse(ui_path("app").read_text(encoding="utf-8"))
    built = {node.func.attr for node in ast.walk(tree)
             if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
             and isinstance(node.func.value, ast.Name) and node.func.value.id in ("W",
                                                                                  "widgets")}
    assert built <= CONTAINERS, built - CONTAINERS


def test_each_panel_module_holds_its_widget_and_its_html() -> None:
    import importlib

    for name, widget, html in [("header", "Status", "status_html"),
                               ("scores", "ScoresPanel", "scores_html"),
                               ("skills", "SkillsPanel", "mastery_html"),
                               ("log", "LogPanel", "log_html"),
                               ("question", "TutorPanel", "question_html"),
                               ("round_end", "RoundEndPanel", "round_summary_html"),
                               ("sheet", "SheetPanel", "progress_html"),
                               ("cover", "Cover", "cover_html"),
                               ("moves", "MovesPanel", "move_label"),
                               ("board", "BoardPanel", "board_labels")]:
        module = importlib.import_module(ui_module(name))
        assert hasattr(module, widget) and hasattr(module, html), name


def test_one_snapshot_per_refresh(monkeypatch) -> None:
    """A move, the bots' replies and a question: every refresh takes one snapshot, and
    nothing else takes one."""
    app: TutorApp = dashboard(seed=3, lang="en")
    snapshots, refreshes = [], []
    real_snapshot, real_refresh = app.session.snapshot, app.refresh
    monkeypatch.setattr(app.session, "snapshot",
                        lambda *a, **k: (snapshots.append(1), real_snapshot(*a, **k))[1])
    monkeypatch.setattr(app, "refresh",
                        lambda *a, **k: (refreshes.append(1), real_refresh(*a, **k))[1])
    for _ in range(30):
        if app.session.pending_question is not None:
            app.reveal_btn.click()
        elif app.session.round.over:
            break
        else:
            app.moves.children[0].click()
    assert refreshes and len(snapshots) == len(refreshes)



# The play page reads the session through its snapshot alone (issue 46 part 2): what it may
# call on the session are the intents it sends and the snapshot it draws from.
INTENTS = {"snapshot", "advance", "apply_action", "answer", "hint", "reveal", "new_match",
           "new_round", "set_lang", "warm_up", "flush"}


def session_reads(source: str) -> set[str]:
    """What ``source`` reads of a session (``session.x``, ``self.session.x``) other than the
    :data:`INTENTS`; a session bound to another name (``s = self.session``) is reported as
    ``= session``, since its reads could not be followed."""

    def is_session(node: ast.expr) -> bool:
        return (isinstance(node, ast.Name) and node.id == "session") or (
            isinstance(node, ast.Attribute) and node.attr == "session")

    found = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Attribute) and is_session(node.value):
            found.add(node.attr)
        elif isinstance(node, (ast.Assign, ast.AnnAssign, ast.NamedExpr)) and \
                node.value is not None and is_session(node.value):
            found.add("= session")
        elif isinstance(node, ast.Tuple) and any(is_session(e) for e in node.elts):
            found.add("= session")
    return found - INTENTS


def test_the_play_page_reads_the_session_only_through_the_snapshot() -> None:
    """app.py and the play page's panels call the session's intents and its snapshot, and
    read nothing else of it (no pending question, hints left, unsaved writes or sheet)."""
    reads = {path.name: session_reads(path.read_text(encoding="utf-8"))
             for path in sorted(ui_path("app").parent.glob("*.py"))}
    assert {name: r for name, r in reads.items() if r} == {}


def test_a_read_past_the_snapshot_is_caught() -> None:
    """The scan sees what the page read before the snapshot had it."""
    source = ("def f(self, session):\n"
              "    if self.session.pending_question is None or not "
              "self.session.asker.more_hints():\n"
              "        self.session.hint()\n"
              "    s, n = self.session, session.unsaved\n"
              "    t = session\n"
              "    return s.sheet(), session.snapshot()\n")
    assert session_reads(source) == {"pending_question", "asker", "unsaved", "= session"}

# The play page's panels read only the snapshot (issue 34 part 2; DESIGN.md "The snapshot is
# the only door"): none imports the engine, other than its types, or the progress store.
PANELS = ("access", "board", "cover", "draw", "game_setup", "header", "keys", "layout", "log",
          "moves", "name_form", "panel", "question", "round_end", "scores", "sheet", "skills",
          "style")
ENGINE_TYPES = {"engine.tiles": {"Half", "Tile", "TileSet", "LEONARD"},
                "engine.round": {"Action", "Draw", "Pass", "Play"}}
"""What a panel may import from the engine: the types of what the snapshot holds (tiles and
moves; ``LEONARD`` the tile set a tile is read in)."""
KNOWN: dict[str, set[str]] = {}
"""Panels allowed an engine import beyond the types: none (the setup form reads a game's
player counts and goal from the tutor's one entry per game, :mod:`tutor.games`)."""


def forbidden_imports(source: str) -> set[str]:
    """What ``source`` imports that a panel must not: the engine (but its types) and the
    progress store (``tutor.storage.store*``), at any depth (an import inside a function too).
    A panel may name the store's type (:class:`tutor.storage.progress_store.ProgressStore`,
    a Protocol) for what a page hands it, not open or import a store."""
    bad = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names = [(a.name, "") for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names = [(node.module, a.name) for a in node.names]
        else:
            continue
        for module, name in names:
            full = f"{module}.{name}" if name else module
            if module == "engine" or module.startswith("engine."):
                if name not in ENGINE_TYPES.get(module, set()):
                    bad.add(full)
            elif full.startswith("tutor.storage") and \
                    full != "tutor.storage.progress_store.ProgressStore":
                bad.add(full)
    return bad


def test_no_panel_imports_the_engine_or_the_store() -> None:
    import importlib

    for name in PANELS:
        importlib.import_module(ui_module(name))  # every panel module is real
        source = ui_path(name).read_text(encoding="utf-8")
        assert forbidden_imports(source) == KNOWN.get(name, set()), name


def test_the_import_scan_catches_a_panel_that_reaches_past_the_snapshot() -> None:
    """The scan above fails for a panel that imports the engine's round or the store, at the
    top or inside a function, and lets the engine's types through."""
    board = ui_path("board").read_text(encoding="utf-8")
    assert forbidden_imports(board) == set()
    assert forbidden_imports(board + "\nfrom engine.round import Round\n") == {
        "engine.round.Round"}
    assert forbidden_imports(board + "\nimport engine.match\n") == {"engine.match"}
    assert forbidden_imports(board + "\ndef f():\n    from tutor.storage.store import Store\n") == {
        "tutor.storage.store.Store"}
    planted = board + "\nfrom tutor.storage import store\n"
    assert forbidden_imports(planted) == {"tutor.storage.store"}
    assert forbidden_imports(board + "\nfrom engine.tiles import Tile, deal\n") == {
        "engine.tiles.deal"}


def test_no_ui_module_runs_the_game_loop() -> None:
    """Only the session decides what happens next (issue 34 part 1): no module of the UI
    asks the round whose turn it is, whether it is over, or its legal moves."""
    for path in sorted(UI.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
                assert node.func.attr != "legal_actions", f"{path.name}:{node.lineno}"
            if isinstance(node, ast.Attribute) and node.attr in ("turn", "over"):
                owner = node.value
                name = owner.attr if isinstance(owner, ast.Attribute) else \
                    owner.id if isinstance(owner, ast.Name) else ""
                assert name not in ("round", "rnd", "current", "match"), \
                    f"{path.name}:{node.lineno}: {name}.{node.attr}"
