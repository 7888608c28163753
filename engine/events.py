"""What happened, as typed data: the only thing the tutor and the board read from a round."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from .tiles import Tile

End = Literal["L", "R"]
BonusKind = Literal["paso-a-la-salida", "paso-corrido", "capicua", "domino", "tranque"]
EndReason = Literal["domino", "tranque"]


@dataclass(frozen=True)
class RoundStarted:
    number: int
    """1-based round number within the match."""
    players: int
    starter: int
    table: Tile | None
    """The 4-player table tile, face up as the first tile of the line."""
    hand_sizes: tuple[int, ...]
    pile: int


@dataclass(frozen=True)
class Placed:
    seat: int
    tile: Tile
    """As written on the score sheet: the matched half first (an opening: left half first)."""
    end: End | None
    """``None`` for the round's first tile."""
    opening: bool
    """The round's first tile placed by a player (RULES.md §1.7)."""


@dataclass(frozen=True)
class Drew:
    seat: int
    tile: Tile


@dataclass(frozen=True)
class Passed:
    seat: int
    ends: tuple[object, ...]
    """The open end suits the player could not match."""


@dataclass(frozen=True)
class PowerEffect:
    """A power tile's effect (RULES.md §1.6). ``gain`` goes to ``seat``, ``loss`` to ``target``."""

    seat: int
    target: int
    """The right-hand player of ``seat``."""
    tile: Tile
    rule: str
    """The §1.6 row: ``x/n``, ``+/n``, ``-/n``, ``x/x``, ``+/+``, ``-/-``, ``+/-``, ``x/+``,
    ``x/-``, or ``power-vs-power`` (the ±30 case) or ``neutralized``."""
    gain: int
    loss: int
    t: int | None
    """T, the total of the tile at the other end (None when neutralized)."""
    t_tile: Tile | None
    """The tile T came from."""
    n: int = 0
    """The number half of x/n, +/n, -/n tiles (0 otherwise)."""

    @property
    def neutralized(self) -> bool:
        return self.rule == "neutralized"


@dataclass(frozen=True)
class Bonus:
    seat: int
    kind: BonusKind
    points: int
    detail: str = ""
    """``K`` / ``KP`` for a capicúa."""


@dataclass(frozen=True)
class RoundEnded:
    reason: EndReason
    winner: int | None
    gains: tuple[int, ...]
    losses: tuple[int, ...]
    hand_totals: tuple[int, ...]
    capicua: str = ""
    """``K``, ``KP`` or empty."""

    @property
    def scores(self) -> tuple[int, ...]:
        return tuple(g - lo for g, lo in zip(self.gains, self.losses, strict=True))


@dataclass(frozen=True)
class MatchEnded:
    scores: tuple[int, ...]
    winners: tuple[int, ...]
    """The seats with the highest score (more than one on a tie)."""


Event = RoundStarted | Placed | Drew | Passed | PowerEffect | Bonus | RoundEnded | MatchEnded
