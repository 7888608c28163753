"""What the play page says and where its focus goes after a refresh: a new question is read
out and takes the focus; once it is done the focus goes back to the moves (or the round's
end); a turn that starts is announced; a human's forced move is told. Decided from the
snapshots and the session's steps alone."""

from __future__ import annotations

from dataclasses import dataclass

from engine.events import Drew, Passed
from tutor.i18n import N_, translator
from tutor.session.game_loop import Step
from tutor.session.snapshot import Snapshot
from tutor.teaching.questions import seat_name
from tutor.ui.play.header import state_text
from tutor.ui.play.moves import CHOICE
from tutor.ui.play.question import ANSWER_BOX
from tutor.ui.play.round_end import ROUND_END_BUTTONS

__all__ = ["COVER_OK", "Follow", "follow", "forced_words"]

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


def forced_words(step: Step, lang: str) -> str:
    """What the page says of a human's forced move (``step``): the tiles they drew, or their
    pass ("" for neither)."""
    t = translator(lang)
    drew = [e for e in step.events if isinstance(e, Drew)]
    if drew:
        return t(N_("No tile fits, so you draw: {tile}.")).format(
            tile=", ".join(str(e.tile) for e in drew))
    if any(isinstance(e, Passed) for e in step.events):
        assert step.seat is not None  # a forced move is a human's
        return t(N_("No tile fits and the pile is empty: player {seat} passes.")).format(
            seat=seat_name(step.seat))
    return ""
