"""The scores panel's HTML (tutor/ui/play/scores.py): no widgets, no kernel."""

from __future__ import annotations

from ui_views import cells, fake_view

from tutor.ui.play.scores import scores_html


def test_scores_table_leaves_out_hidden_points() -> None:
    # Seat A really has 40 (30 of them this round), but a question asks for those 30.
    view = fake_view(scores=[40, 5], scores_shown=[10, 5], round_gains_shown=[0, 5],
                 hiding=True)
    out = scores_html(view, "en", humans=(0,))
    rows = cells(out)
    assert rows[0][1:] == ["6", "0", "10"] and rows[1][1:] == ["7", "5", "5"]
    assert "40" not in out and "30" not in out
    assert "ld-hidden-pts" in out and "hidden until you answer" in out
    assert "ld-turn" in out and "(you)" in rows[0][0]
    shown = scores_html(fake_view(scores_shown=[40, 5]), "en", humans=(0,))
    assert cells(shown)[0][3] == "40" and "ld-hidden-pts" not in shown


def test_scores_table_marks_the_cells_that_change() -> None:
    view = fake_view()
    out = scores_html(view, "en", humans=(0, 1), scores=[3, 4],
                             flash=([0, 9], [5, 4]))
    assert "<td class='ld-flash'>3</td>" in out and "<td class='ld-flash-down'>4</td>" in out
    assert [r[0] for r in cells(out)] == ["▶ A (human)", "B (human)"]
