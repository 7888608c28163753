"""The game's loop: the engine's match, the bots in their seats, and the one place that
decides what happens next (issue 53 part 1).

Its interface, in the manner of OpenSpiel's: :meth:`GameLoop.current_player`,
:meth:`GameLoop.waiting`, :meth:`GameLoop.legal_actions`, :meth:`GameLoop.play`,
:meth:`GameLoop.returns`; :meth:`GameLoop.advance` is the one loop (a bot's move, a human's
forced draw or pass). The loop knows nothing of questions: it receives what it needs from
the session that holds it, ``question_waits`` (a question waits for its answer: the game
waits too) and ``moved`` (told after each move, the session asks its questions then).
:meth:`GameLoop.view` is what a screen reads of it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from engine.bots import Bot, bot_move
from engine.events import Drew, Event
from engine.match import Match
from engine.round import DRAW, Action, Draw, Pass, Round
from engine.view import view_of
from tutor.session.snapshot import LOG_KEEP, WAIT_MOVE, WAIT_QUESTION, WAIT_ROUND

__all__ = ["GameLoop", "GameView", "Moved", "Step"]

Moved = Callable[[list[Event], Round, list[int]], None]
"""Told after each move: its events, the round it was made in, the match's scores before it."""


@dataclass(frozen=True)
class Step:
    """What one :meth:`GameLoop.advance` did: ``events`` (none: nothing could happen without
    a human or an answer, see ``waiting``)."""

    events: tuple[Event, ...] = ()
    seat: int | None = None
    """Whose step it was (None: nothing happened)."""
    forced: bool = False
    """A human's only move, made for them: a run of draws, or a pass."""
    waiting: str | None = None
    """What the game waits for now (:meth:`GameLoop.waiting`); None: the next step is the
    loop's own (a bot's move)."""
    number: int = 0
    """The step's number (:attr:`GameLoop.steps`, and the snapshot's ``step``)."""


@dataclass(frozen=True)
class GameView:
    """What a screen reads of the game's loop (:meth:`GameLoop.view`): the match, whose move
    the game waits for, and the events to tell."""

    match: Match
    round: Round
    players: int
    humans: tuple[int, ...]
    to_move: int | None
    """The human seat whose move the game waits for (:meth:`GameLoop.current_player`)."""
    waiting: str | None
    """:meth:`GameLoop.waiting`."""
    seat_kinds: tuple[str, ...]
    """Each seat's player: ``human`` or its bot's level."""
    steps: int
    last_events: tuple[Event, ...]
    log_events: tuple[Event, ...]
    round_events: tuple[Event, ...]


class GameLoop:
    """One match's game: the engine's ``match``, the ``bots`` in their seats and the
    ``humans``' seats; the steps taken and the events to tell carry over to the next match
    (:meth:`next_match`)."""

    def __init__(self, match: Match, bots: dict[int, Bot], humans: tuple[int, ...],
                 players: int, *, question_waits: Callable[[], bool], moved: Moved) -> None:
        self.match = match
        self.bots = bots
        self.humans = humans
        self.players = players
        self._question_waits = question_waits
        self._moved = moved
        self.last_events: list[Event] = []
        """The events of the last step (a move, a bot's move, a round's start)."""
        self.steps = 0
        """Steps taken so far: a move, a bot's move, a round or a match started."""
        self.log_events: list[Event] = []
        """The game's last :data:`~tutor.session.snapshot.LOG_KEEP` events (the snapshot's log); a
        new match the student chooses starts it again (:meth:`forget_log`)."""
        self.round_events: list[Event] = []
        """The current round's events so far."""
        self._start()

    def next_match(self, match: Match, bots: dict[int, Bot], humans: tuple[int, ...],
                   players: int) -> None:
        """Play ``match`` from now on (its first round's deal is the next step)."""
        self.match = match
        self.bots = bots
        self.humans = humans
        self.players = players
        self._start()

    def forget_log(self) -> None:
        """Start the log again (a new match the student chose)."""
        self.log_events = []

    def _start(self) -> None:
        self.round_events = list(self.round.log)
        self._log(self.round.log)
        self._news(list(self.round.log))

    # --- the game: the one interface ----------------------------------------------------------

    @property
    def round(self) -> Round:
        return self.match.current

    def current_player(self) -> int | None:
        """The human seat whose move the game waits for (None: a bot's turn, a question, or
        the round over)."""
        return self.round.turn if self.waiting() == WAIT_MOVE else None

    def waiting(self) -> str | None:
        """What the game waits for: :data:`WAIT_QUESTION` (an answer), :data:`WAIT_ROUND`
        (the round is over), :data:`WAIT_MOVE` (a human's move), or None (a bot is to move:
        :meth:`advance` moves it). Every check of whether a move may be played is this one."""
        if self._question_waits():
            return WAIT_QUESTION
        if self.round.over:
            return WAIT_ROUND
        if self.round.turn in self.humans:
            return WAIT_MOVE
        return None

    def legal_actions(self) -> list[Action | object]:
        """The moves of the human whose turn it is: the round's legal moves, then the game's
        own moves on offer (the round's ``extra_moves``: Cuban's redeal). Empty while a
        question waits or a bot is to move."""
        if self.current_player() is None:
            return []
        return [*self.round.legal_actions(), *self.round.extra_moves()]

    def play(self, action: Action | object) -> list[Event]:
        """Apply the human's move (the session checked that one is awaited; the engine
        checks the move: :class:`~engine.round.IllegalMoveError`, and nothing changes)."""
        events = self._move(action)
        self._news(events)
        return events

    def returns(self) -> tuple[int, ...]:
        """Each seat's match score as the engine keeps it (a question's points included)."""
        return tuple(self.match.scores)

    def advance(self, *, forced: bool = True) -> Step:
        """The game's next step, the only place that decides it: a bot's move, or
        (``forced``) a human's only move made for them (a draw or a pass); a player who drew
        and still has no tile that fits draws again in the same step, so a run of draws is
        one step. Nothing happens while a question, a human's choice or the round's end
        waits (the returned step says which). The dashboard paces calls to it; the terminal
        and the simulated students loop on it."""
        waiting = self.waiting()
        if waiting is None:
            seat = self.round.turn
            events = self._with_draws(self.bot_move(), self.bot_move)
            is_forced = False
        else:
            move = self._forced_move() if forced and waiting == WAIT_MOVE else None
            if move is None:
                return Step(waiting=waiting, number=self.steps)
            seat = self.round.turn
            events = self._with_draws(self._move(move), lambda: self._move(DRAW))
            is_forced = True
        self._news(events)
        return Step(events=tuple(events), seat=seat, forced=is_forced, waiting=self.waiting(),
                    number=self.steps)

    def start_round(self) -> list[Event]:
        """Start the match's next round (the session checked that it may start)."""
        events = list(self.match.start_round().log)
        self.round_events = list(events)
        self._log(events)
        self._news(events)
        return events

    def view(self) -> GameView:
        """What a screen reads of the game now."""
        to_move = self.current_player()
        return GameView(
            match=self.match, round=self.round, players=self.players, humans=self.humans,
            to_move=to_move, waiting=self.waiting(), seat_kinds=self._seat_kinds(),
            steps=self.steps, last_events=tuple(self.last_events),
            log_events=tuple(self.log_events), round_events=tuple(self.round_events))

    def _seat_kinds(self) -> tuple[str, ...]:
        """Each seat's player: ``human`` or its bot's level."""
        bots = self.bots
        return tuple("human" if seat in self.humans
                     else type(bots[seat]).__name__.replace("Bot", "").lower()
                     if seat in bots else "" for seat in range(self.players))

    def _move(self, action: object) -> list[Event]:
        """Apply the move of the player to move (the engine checks it)."""
        return self._apply(lambda: self.match.apply(action, self.round.turn))

    def bot_move(self) -> list[Event]:
        """One bot move: the bot to move chooses from what its seat sees, a game's own move
        it wants first (:func:`engine.bots.bot_move`, as the engine's matches play)."""
        if self.waiting() is not None:
            return []
        rnd = self.round
        seat = rnd.turn
        events = self._apply(lambda: self.match.apply(
            bot_move(self.bots[seat], view_of(rnd, seat)), seat))
        self._news(events)
        return events

    def _forced_move(self) -> Action | None:
        """The human's move when there is no choice (a draw or a pass; not while the game
        offers a move of its own, which is a choice)."""
        moves = self.legal_actions()
        if len(moves) == 1 and isinstance(moves[0], (Draw, Pass)):
            return moves[0]
        return None

    def _with_draws(self, events: list[Event], again: Callable[[], list[Event]]) -> list[Event]:
        """``events`` and, while their player drew and still has nothing but draws, their
        next draws (``again()``), as one step."""
        rnd = self.round
        while (events and isinstance(events[-1], Drew) and not events[-1].forced
               and not rnd.over and not self._question_waits() and rnd.turn == events[-1].seat
               and all(isinstance(m, Draw) for m in rnd.legal_actions())):
            more = again()
            if not more:
                break
            events += more
        return events

    def _news(self, events: list[Event]) -> None:
        """``events`` are the last step's."""
        self.last_events = events
        self.steps += 1

    def _log(self, events: Iterable[Event]) -> None:
        self.log_events = (self.log_events + list(events))[-LOG_KEEP:]

    def _apply(self, move: Callable[[], list[Event]]) -> list[Event]:
        rnd = self.round
        before = list(self.match.scores)
        events: list[Event] = move()
        self.round_events += events
        self._log(events)
        self._moved(events, rnd, before)
        return events
