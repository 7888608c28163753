"""The dashboard's shape: one module per panel, each rendering itself from the snapshot; the
app only wires them, from one snapshot per refresh."""

from __future__ import annotations

import ast
from pathlib import Path

from tutor.ui import TutorApp, dashboard

UI = Path(__file__).resolve().parents[2] / "tutor" / "ui"
CONTAINERS = {"VBox", "HBox", "Box", "Layout"}


def test_the_app_builds_no_widget_of_its_own() -> None:
    """Every button, text box and HTML block belongs to a panel module; app.py only lays
    the panels out in containers."""
    tree = ast.parse((UI / "app.py").read_text(encoding="utf-8"))
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
        module = importlib.import_module(f"tutor.ui.{name}")
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
