"""The status line's HTML (tutor/ui/play/header.py): no widgets, no kernel."""

from __future__ import annotations

from ui_views import fake_view

from tutor.ui.play.header import status_html


def test_status_line() -> None:
    out = status_html(fake_view(turn=1, human_to_move=None), "en", pending=False,
                             message="x < y", message_kind="msg")
    assert "Round 1 of 3" in out and "Player B (bot) is thinking" in out
    assert "<span class='ld-msg'>x &lt; y</span>" in out
    assert "Answer the question below" in status_html(fake_view(), "en", pending=True)
