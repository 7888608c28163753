"""Scripted play of the play page for tests and benchmarks (``benchmarks/kernel_memory.py``
imports it in its measured kernels too, with the repository on ``PYTHONPATH``): the loop
that brings a seeded page to its first question, written once.

The page itself never runs the game's loop (tests/ui/test_ui_structure.py); a script may.
Imports nothing at run time, so a memory measure counts only the page.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tutor.teaching.questions import Question
    from tutor.ui.play.app import TutorApp


def play_to_question(app: TutorApp, limit: int = 500) -> Question | None:
    """Play the first offered move of the human to move through ``app`` (as a click does),
    with the steps after it (the bots' replies, forced draws), until the tutor asks a
    question or the round is over, ``limit`` moves at most; return the pending question
    (None if none came). A seeded page reaches the same question on any machine."""
    for _ in range(limit):
        if app.session.pending_question is not None or app.session.round.over:
            break
        moves = app.legal_actions()
        if not moves:
            app.run_steps()
            continue
        app.play(moves[0])
        app.run_steps()
    return app.session.pending_question
