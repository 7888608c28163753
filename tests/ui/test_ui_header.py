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


def test_answers_waiting_for_the_store_are_said_until_saved() -> None:
    """Issue 41 part 6: while answers wait on the page for the store, the note says so at the
    head of the question's column, whatever the status line says, and only then."""
    from tutor.ui.play.header import SavingNote

    note = SavingNote()
    note.render(fake_view(unsaved=2, unsaved_note="Your last answers are not saved yet"))
    assert "ld-unsaved" in note.value and "not saved yet" in note.value
    note.render(fake_view())
    assert note.value == ""
