"""A session driven as a script drives it (the tests, as the terminal and the simulated
students do): each intent, then the session's loop (:meth:`Session.advance`) until it waits
for a human again. The session never moves a bot by itself; these helpers take the bots'
steps after an intent, without the humans' forced moves (a human plays those).

Imports nothing of the engine or the tutor at run time.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, TypeVar

if TYPE_CHECKING:
    from typing import Unpack

    from engine.events import Event
    from tutor.session.session import Feedback, MatchChanges, Session

S = TypeVar("S", bound="Session")


def bots(session: Session) -> list[Event]:
    """The bots' steps until a human's move, a question or the round's end."""
    events: list[Event] = []
    while session.waiting() is None:
        events += session.advance(forced=False).events
    return events


def start(session: S) -> S:
    """``session`` once the bots before the first human's turn have moved."""
    bots(session)
    return session


def play(session: Session, action: object) -> list[Event]:
    """Play the human's ``action`` (see :meth:`Session.apply_action`), then the bots' steps."""
    events = session.apply_action(action)
    return events + bots(session)


def answer(session: Session, text: str) -> Feedback:
    """Answer the pending question; once no question waits, the bots go on (their events are
    the feedback's ``events``)."""
    return _then_bots(session, session.answer(text))


def reveal(session: Session) -> Feedback:
    """Reveal the pending question's answer; then as :func:`answer`."""
    return _then_bots(session, session.reveal())


def new_round(session: Session) -> list[Event]:
    """The next round (see :meth:`Session.new_round`), then the bots' steps."""
    events = session.new_round()
    return events + bots(session)


def new_match(session: Session, **changes: Unpack[MatchChanges]) -> list[Event]:
    """A new match (see :meth:`Session.new_match`), then the bots' steps."""
    events = session.new_match(**changes)
    return events + bots(session)


def _then_bots(session: Session, fb: Feedback) -> Feedback:
    if session.waiting() is not None:
        return fb
    return replace(fb, events=tuple(bots(session)))
