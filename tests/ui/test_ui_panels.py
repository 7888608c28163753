"""The dashboard's HTML panels as pure functions (tutor/ui/panels.py): no widgets, no kernel."""

from __future__ import annotations

import ast
import base64
import re
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from engine.events import Bonus, PowerEffect, RoundEnded
from engine.tiles import parse_tile
from tutor.store import Store
from tutor.ui import panels

ROOT = Path(__file__).resolve().parents[2]


def _view(**changes: Any) -> Any:
    """The snapshot fields the panels read (a panel reads a snapshot by attribute)."""
    view: dict[str, Any] = {
        "players": 2, "turn": 0, "round": 1, "rounds": 3, "round_over": False,
        "match_over": False, "match_winners": None, "human_to_move": 0, "hand_seat": 0,
        "hand_sizes": [6, 7], "pile": 14, "hiding": False,
        "scores": [0, 0], "scores_shown": [0, 0],
        "round_gains_shown": [0, 0], "round_losses_shown": [0, 0],
    }
    view.update(changes)
    return SimpleNamespace(**view)


def _cells(table: str) -> list[list[str]]:
    """The text of each body row's cells."""
    body = table.split("<tbody>", 1)[1].split("</tbody>", 1)[0]
    return [[re.sub(r"<[^>]+>", "", c) for c in re.findall(r"<td[^>]*>(.*?)</td>", row)]
            for row in re.findall(r"<tr[^>]*>(.*?)</tr>", body)]


def test_panels_never_import_widgets() -> None:
    tree = ast.parse((ROOT / "tutor" / "ui" / "panels.py").read_text(encoding="utf-8"))
    imported = {alias.name.split(".")[0] for node in ast.walk(tree)
                if isinstance(node, ast.Import) for alias in node.names}
    imported |= {(node.module or "").split(".")[0] for node in ast.walk(tree)
                 if isinstance(node, ast.ImportFrom)}
    assert not imported & {"ipywidgets", "ipycanvas", "IPython"}


def test_scores_table_leaves_out_hidden_points() -> None:
    # Seat A really has 40 (30 of them this round), but a question asks for those 30.
    view = _view(scores=[40, 5], scores_shown=[10, 5], round_gains_shown=[0, 5],
                 hiding=True)
    out = panels.scores_html(view, "en", humans=(0,), bots={1: None})
    rows = _cells(out)
    assert rows[0][1:] == ["6", "0", "10"] and rows[1][1:] == ["7", "5", "5"]
    assert "40" not in out and "30" not in out
    assert "ld-hidden-pts" in out and "hidden until you answer" in out
    assert "ld-turn" in out and "(you)" in rows[0][0]
    shown = panels.scores_html(_view(scores_shown=[40, 5]), "en", humans=(0,), bots={})
    assert _cells(shown)[0][3] == "40" and "ld-hidden-pts" not in shown


def test_scores_table_marks_the_cells_that_change() -> None:
    view = _view()
    out = panels.scores_html(view, "en", humans=(0, 1), bots={}, scores=[3, 4],
                             flash=([0, 9], [5, 4]))
    assert "<td class='ld-flash'>3</td>" in out and "<td class='ld-flash-down'>4</td>" in out
    assert [r[0] for r in _cells(out)] == ["▶ A (human)", "B (human)"]


def test_round_summary_names_domino_and_tranque() -> None:
    domino = RoundEnded(reason="domino", winner=1, gains=(0, 12), losses=(0, 0),
                        hand_totals=(12, 0), capicua="")
    events = [Bonus(seat=1, kind="domino", points=12),
              PowerEffect(seat=0, target=1, tile=parse_tile("x/3"), rule="x/n", gain=6, loss=2,
                          t=2, t_tile=parse_tile("1/1"), n=3)]
    out = panels.round_summary_html(domino, events, 2, "en", pending=False)
    assert "Domino!" in out and "Player B placed their last tile." in out
    assert "Tiles left in each hand: A: 12, B: 0" in out
    assert "Player B: +12 for domino (the tiles left in the other hands)" in out
    assert "Player A: +6 / −0 from power plays" in out  # the loss goes to the target
    assert "Player B: +0 / −2 from power plays" in out
    es = panels.round_summary_html(domino, events, 2, "es", pending=False)
    assert "Domino!" not in es and "jugador B" in es

    tranque = RoundEnded(reason="tranque", winner=None, gains=(0, 0), losses=(0, 0),
                         hand_totals=(9, 9))
    out = panels.round_summary_html(tranque, events, 2, "en", pending=True)
    assert "Tranque!" in out and "nobody collects" in out
    assert "ld-hidden-pts" in out and "+12" not in out  # the points wait for the answer


def test_match_table_hides_the_current_round_while_asking() -> None:
    r1 = SimpleNamespace(number=1, gains=[10, 0], losses=[0, 4])
    r2 = SimpleNamespace(number=2, gains=[0, 7], losses=[0, 0])
    match = SimpleNamespace(players=2, rounds=[r1, r2], current=r2)
    view = _view(scores_shown=[6, 3], match_over=True, match_winners=[0])
    asking = panels.match_html(match, view, "en", pending=True)
    assert _cells(asking) == [["Round 1", "10", "-4"], ["Round 2", "?", "?"],
                              ["Total", "6", "3"]]
    assert "★" not in asking
    done = panels.match_html(match, view, "en", pending=False)
    assert _cells(done)[1] == ["Round 2", "0", "7"] and "Match winner: A" in done


def test_sheet_links_carry_the_table_and_the_csv() -> None:
    out = panels.sheet_links_html("<table>t</table>", "a,b\n1,2\n", 2, "en")
    assert "download='leonard-round-2.csv'" in out and "download='leonard-round-2.html'" in out
    data = dict(re.findall(r"href='data:text/(\w+);charset=utf-8;base64,([^']+)'", out))
    assert base64.b64decode(data["csv"]).decode() == "a,b\n1,2\n"
    assert base64.b64decode(data["html"]).decode().endswith("<table>t</table>")
    assert "Download CSV" in out


def test_progress_panel_says_when_nothing_is_saved(tmp_path: Path) -> None:
    assert panels.progress_html(None, "ana", "en") == "Progress is not being saved in this game."
    store = Store(tmp_path / "p.sqlite3")
    try:
        out = panels.progress_html(store, "ana", "en")
    finally:
        store.close()
    assert "0 answers saved for ana." in out
    assert "ld-progress-download" in out and "download='leonard-progress-ana.csv'" in out


def test_status_and_log() -> None:
    out = panels.status_html(_view(turn=1, human_to_move=None), "en", pending=False,
                             message="x < y", message_kind="msg")
    assert "Round 1 of 3" in out and "Player B (bot) is thinking" in out
    assert "<span class='ld-msg'>x &lt; y</span>" in out
    assert "Answer the question below" in panels.status_html(_view(), "en", pending=True)
    log = panels.log_html(["a < b", "Player A gains 5 × (2 + 6) = 40."], "en")
    assert "What happened" in log and "<li>a &lt; b</li>" in log and "× (2 + 6)" in log


def test_question_panel_shows_the_situation_never_the_working() -> None:
    """Issue (no giveaways): before the first attempt the panel shows the tile played, the
    line with both ends marked and the hands to count; the formula and T only as a scaffold
    the lesson asked for."""
    from tutor.questions import Situation
    from tutor.snapshot import QuestionView

    q = QuestionView(id="q", prompt="You played 5/x. How many points do you gain?",
                     step="gain", skill="multiply",
                     situation=Situation(played="5/x", line=("4/5", "5/6", "6/5", "5/x"),
                                         played_end="R"),
                     attempts=0, hints=(), scaffold="", queued=0, student="ana")
    out = panels.question_html(q, "en")
    assert "Line: ◀ [4/5] [5/6] [6/5] [5/x] ▶" in out and "5/x was placed at the right end" in out
    assert "$$" not in out and "T =" not in out
    blanks = panels.question_html(
        QuestionView(**{**q.__dict__, "scaffold": r"5 \times \left(\square + \square\right)"}),
        "en")
    assert r"$$5 \times \left(\square + \square\right)$$" in blanks
