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
    assert "ld-unsaved" not in out


def test_answers_waiting_for_the_store_are_said_until_saved() -> None:
    """Issue 41 part 6: while answers wait on the page for the store, the status line says so
    whatever else it says (a later message does not hide it), and only then."""
    note = "Your last answers are not saved yet"
    out = status_html(fake_view(unsaved=2, unsaved_note=note), "en", pending=False,
                      message="Right!", message_kind="info")
    assert "Right!" in out and f"<div class='ld-msg ld-unsaved'>{note}</div>" in out
