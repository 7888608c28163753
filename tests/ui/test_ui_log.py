"""The "what happened" panel's HTML (tutor/ui/play/log.py): no widgets, no kernel."""

from __future__ import annotations

from tutor.ui.play.log import log_html


def test_log() -> None:
    log = log_html(["a < b", "Player A gains 5 × (2 + 6) = 40."], "en")
    assert "What happened" in log and "<li>a &lt; b</li>" in log and "× (2 + 6)" in log
