"""What the panel tests share: a snapshot-like view with the fields the panels read, the
text of a table's cells, and where a ui module lives."""

from __future__ import annotations

import re
from pathlib import Path
from types import SimpleNamespace
from typing import Any


def fake_view(**changes: Any) -> Any:
    """The snapshot fields the panels read (a panel reads a snapshot by attribute)."""
    fields: dict[str, Any] = {
        "players": 2, "turn": 0, "round": 1, "rounds": 3, "target": 0, "teams": (),
        "team_scores_shown": (),
        "round_over": False,
        "match_over": False, "match_winners": None, "human_to_move": 0, "hand_seat": 0,
        "lesson_over": False, "lesson_end": None,
        "hand_sizes": [6, 7], "pile": 14, "hiding": False,
        "scores": [0, 0], "scores_shown": [0, 0],
        "round_gains_shown": [0, 0], "round_losses_shown": [0, 0],
        "humans": (0,), "names": ("A", "B"), "seat_students": ("anon", ""),
        "asked": (0, 0), "first_try_right": (0, 0), "lesson_title": "", "lesson_goal": "",
        "seat_kinds": (), "unsaved": 0, "unsaved_note": "", "practice_note": "",
    }
    fields.update(changes)
    return SimpleNamespace(**fields)


def cells(table: str) -> list[list[str]]:
    """The text of each body row's cells."""
    body = table.split("<tbody>", 1)[1].split("</tbody>", 1)[0]
    return [[re.sub(r"<[^>]+>", "", c) for c in re.findall(r"<td[^>]*>(.*?)</td>", row)]
            for row in re.findall(r"<tr[^>]*>(.*?)</tr>", body)]


UI = Path(__file__).resolve().parents[2] / "tutor" / "ui"


def ui_path(name: str) -> Path:
    """The file of the ui module ``name``, in whichever page's package it lives (issue 34
    part 7: the play page, the lessons page, the teacher page and what they share)."""
    (path,) = UI.glob(f"*/{name}.py")
    return path


def ui_module(name: str) -> str:
    """The dotted name of the ui module ``name`` (for importlib)."""
    return f"tutor.ui.{ui_path(name).parent.name}.{name}"


def browser_sends(widget: Any, content: dict[str, object]) -> None:
    """What the page's JavaScript does: a custom message to ``widget`` (ipywidgets hands it
    to the widget's ``on_msg`` callbacks, as from the browser). The tests' one way into a
    widget's messages, instead of calling a panel's own handler."""
    widget._handle_custom_msg(content, [])
