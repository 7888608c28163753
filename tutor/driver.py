"""The game driver: the engine's match, the bots in their seats, and whose move it is.

It knows nothing of questions: the session tells it when the game is paused for one.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.bots import Bot, make_bot
from engine.events import Event
from engine.match import Match
from engine.round import Action, Round
from engine.rules import HouseRules
from engine.view import view_of

__all__ = ["GameDriver", "bot_names"]


def bot_names(spec: str | Sequence[str | None], players: int,
              humans: tuple[int, ...]) -> list[str | None] | None:
    """The bot of each non-human seat from ``spec`` (one name, one per seat, or one per bot
    seat), or None if ``spec`` has the wrong length."""
    seats = [s for s in range(players) if s not in humans]
    if isinstance(spec, str):
        return [spec] * len(seats)
    if len(spec) == players:
        return [spec[s] for s in seats]
    if len(spec) == len(seats):
        return list(spec)
    return None


class GameDriver:
    """A match between humans and bots. Raises the engine's errors for bad settings."""

    def __init__(self, variant: str, players: int, humans: tuple[int, ...],
                 bots: Sequence[str | None], rules: HouseRules, seed: int | None,
                 deals: list[dict[str, Any]] | None = None) -> None:
        self.match = Match(variant, players, rules, seed=seed, deals=deals)
        self.players = players
        self.humans = humans
        seats = [s for s in range(players) if s not in humans]
        self.bots: dict[int, Bot] = {
            s: make_bot(name or "greedy", None if seed is None else seed * 1009 + s)
            for s, name in zip(seats, bots, strict=True)}

    @property
    def round(self) -> Round:
        return self.match.current

    def human_to_move(self, paused: bool) -> int | None:
        """The human seat whose turn it is (None: paused, a bot's turn or the round over)."""
        rnd = self.round
        if paused or rnd.over or rnd.turn not in self.humans:
            return None
        return rnd.turn

    def bot_to_move(self, paused: bool) -> bool:
        rnd = self.round
        return not paused and not rnd.over and rnd.turn not in self.humans

    def apply(self, action: Action) -> list[Event]:
        """Apply the move of the player to move (the engine checks it)."""
        rnd = self.round
        return self.match.apply(action, rnd.turn)

    def bot_move(self) -> list[Event]:
        """The bot to move chooses from what its seat sees, and plays."""
        rnd = self.round
        seat = rnd.turn
        return self.match.apply(self.bots[seat].choose(view_of(rnd, seat)), seat)

    def start_round(self) -> list[Event]:
        return list(self.match.start_round().log)
