"""Where the play page's focus goes after a refresh, and what it says with it: a new question
is read out and takes the focus; once it is done the focus goes back to the moves (or the
round's end); a turn that starts is announced. Decided from two snapshots alone."""

from __future__ import annotations

from dataclasses import dataclass

from tutor.play.snapshot import Snapshot
from tutor.ui.play.header import state_text
from tutor.ui.play.moves import CHOICE
from tutor.ui.play.question import ANSWER_BOX
from tutor.ui.play.round_end import ROUND_END_BUTTONS

__all__ = ["COVER_OK", "Follow", "follow"]

COVER_OK = ".ld-cover-ok"
"""The cover's button (a hot seat's hand is covered until its player says they are there)."""


@dataclass(frozen=True)
class Follow:
    """What the page does after a refresh: say ``say``, then focus ``focus`` (None: the focus
    stays; ``soft``: only if the focus is not in a field the student is using)."""

    say: tuple[str, ...] = ()
    focus: str | None = None
    soft: bool = False


def follow(before: Snapshot | None, view: Snapshot, covered: bool) -> Follow:
    """What changed for the student from ``before`` to ``view`` (``covered``: the hand to
    move is under the cover)."""
    q, old_q = view.question, before.question if before is not None else None
    if q is not None:
        if old_q is None or old_q.id != q.id:
            return Follow(say=(q.prompt,), focus=ANSWER_BOX)
        return Follow()
    turn = view.human_to_move is not None and not covered
    was_turn = before is not None and before.human_to_move is not None and \
        before.question is None
    say = (state_text(view, view.lang, pending=False),) if turn and not was_turn else ()
    if old_q is not None:  # the question is done: back to the game
        return Follow(say, ROUND_END_BUTTONS if view.round_over else CHOICE)
    if covered:
        return Follow(say, COVER_OK, soft=True)
    if turn and not was_turn:
        return Follow(say, CHOICE, soft=True)
    if view.round_over and (before is None or not before.round_over):
        return Follow(say, ROUND_END_BUTTONS, soft=True)
    return Follow(say)
