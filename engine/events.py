"""What happened, as typed data: the only thing the tutor and the board read from a round."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from .tiles import Tile

End = str
"""An end of the line by name: ``"L"``/``"R"`` on a two-ended line, ``"1"`` … ``"6"`` for the
arms of a Doble 15 hub (see :mod:`engine.line`)."""
BonusKind = Literal["paso-a-la-salida", "paso-corrido", "capicua", "domino", "tranque"]
"""The bonuses the base round pays: Leonard's (§1.7, §1.8) and the hand counts of every game
(``domino``, ``tranque``). A game's own kinds are named by its module (Ponce's ``pass`` and
``block``, :data:`engine.variants.ponce.BONUS_KINDS`), and its words by its entry in
:mod:`tutor.games`."""
EndReason = Literal["domino", "tranque"]
"""How the base round ends (§1.8): a player went out, or nobody can play. A game's own ways
are named by its module (``END_REASONS``: Ponce's ``target``,
:data:`engine.variants.ponce.END_REASONS`), and their words by its entry in
:mod:`tutor.games`."""


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
    """The round's first tile placed by a player (docs/rules.md §1.7)."""


@dataclass(frozen=True)
class Drew:
    seat: int
    tile: Tile
    forced: bool = False
    """Drawn because of another player's play (Doble 15's 15, §3.5), not on one's own turn."""


@dataclass(frozen=True)
class Passed:
    seat: int
    ends: tuple[object, ...]
    """The open end suits the player could not match."""


@dataclass(frozen=True)
class PowerEffect:
    """A power tile's effect (docs/rules.md §1.6). ``gain`` goes to ``seat``, ``loss`` to
    ``target``."""

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
    kind: str
    """A :data:`BonusKind`, or one of the game's own kinds (declared by its module)."""
    points: int
    detail: str = ""
    """``K`` / ``KP`` for a capicúa."""


@dataclass(frozen=True)
class GameEvent:
    """An event of one game's own (Cuban's redeal, Doble 15's special numbers): its module
    under ``engine/variants/`` subclasses this, so every game's log holds :data:`Event` values
    and this module names no game. The tutor says it with the words its game's entry in
    :mod:`tutor.games` gives for its :attr:`key`, filled with :meth:`seats` (told as seat
    names) and :meth:`numbers`; the score sheet marks it by the round's
    :meth:`~engine.round.Round.sheet_event`."""

    seat: int
    """The seat whose play or move made it."""

    @property
    def key(self) -> str:
        """Which words tell it (unique among all games): the class name, unless the event
        comes in kinds."""
        return type(self).__name__

    def seats(self) -> dict[str, int]:
        """The seats its words name, by the name of their placeholder."""
        return {"seat": self.seat}

    def numbers(self) -> dict[str, int]:
        """The numbers its words give, by the name of their placeholder."""
        return {}


@dataclass(frozen=True)
class RoundEnded:
    # Round.result builds this event from the round when it is first read: a new field is
    # filled there too.
    reason: str
    """An :data:`EndReason`, or one of the game's own reasons (declared by its module)."""
    winner: int | None
    gains: tuple[int, ...]
    losses: tuple[int, ...]
    hand_totals: tuple[int, ...]
    capicua: str = ""
    """``K``, ``KP`` or empty."""
    count: int = 0
    """The hand points the winner collects (the domino or tranque count) before any rounding;
    0 when nobody collects."""
    points: int = 0
    """What ``count`` scores: Ponce rounds it to tens, half up (§3.3: 25 → 3); elsewhere
    ``points == count``."""
    differences: tuple[int, ...] = ()
    """The traditional block (§3.1): each hand minus the lowest hand, by seat; the winner
    collects their sum. Empty in the other games."""
    teams: tuple[tuple[int, ...], ...] = ()
    """Pair games: the pairs, ``((0, 2), (1, 3))``. Empty when everyone plays alone."""
    team_totals: tuple[int, ...] = ()
    """Pair games: each pair's combined hand."""
    team: int | None = None
    """Pair games: the pair that won the hand (its index in ``teams``), or None."""
    blocker: int | None = None
    """After a tranque: the seat whose turn made it."""

    @property
    def scores(self) -> tuple[int, ...]:
        return tuple(g - lo for g, lo in zip(self.gains, self.losses, strict=True))


@dataclass(frozen=True)
class MatchEnded:
    scores: tuple[int, ...]
    winners: tuple[int, ...]
    """The seats with the highest score (more than one on a tie); in a pair game both seats
    of the winning pair."""
    team_scores: tuple[int, ...] = ()
    """Pair games: each pair's match score (see :attr:`engine.Match.teams`)."""


Event = (RoundStarted | Placed | Drew | Passed | PowerEffect | Bonus | GameEvent | RoundEnded
         | MatchEnded)
