"""Cuban double-nine (docs/rules.md §3.4): 55 tiles, two pairs, 10 tiles each and 15 set aside
unseen; a player who cannot play passes. A player with five or more doubles may ask for a
redeal on their first turn. The winner's pair scores the opposing pair's hands (D-12).
Played to 200 (settable up to 500)."""

from __future__ import annotations

from dataclasses import dataclass

from ..events import GameEvent
from ..round import IllegalMoveError, Round
from ..rules import HouseRules, Variant
from ..tiles import DOUBLE_NINE, Tile
from .pairs import opponents_total

REDEAL_DOUBLES = 5
"""§3.4: doubles in one hand that let its player ask for a redeal."""


@dataclass(frozen=True)
class Annul:
    """Ask for a redeal: Cuban double-nine, five or more doubles, on one's first turn (§3.4).
    Cuban's own move (:meth:`CubanRound.extra_moves`); it prints, and parses, as ``annul``."""

    def __str__(self) -> str:
        return "annul"


ANNUL = Annul()


@dataclass(frozen=True)
class Annulled(GameEvent):
    """Cuban's own event (§3.4): ``seat`` held five or more doubles and asked for a redeal."""

    doubles: tuple[Tile, ...]

    def numbers(self) -> dict[str, int]:
        """``count``: how many doubles the seat held."""
        return {"count": len(self.doubles)}


ANNULLED_END = "annulled"
"""The round's end reason (``RoundEnded.reason``) when a hand is redealt (§3.4, D-21): it
counts for nobody (:attr:`~engine.rules.Variant.void_ends`)."""
END_REASONS = (ANNULLED_END,)
"""Cuban's own ways a round ends, beyond :data:`engine.events.EndReason`'s (their words: its
entry in :mod:`tutor.games`)."""

OPTIONS = {
    "cuban_opener": ("winner",),
    # D-11: a later hand is opened by the winner of the previous hand.
    "cuban_count": ("opponents", "all"),
    # D-12: a hand's winning pair scores the opposing pair's hands ("all": all four hands).
}
"""Cuban's own house rules (``HouseRules.option("cuban_…")``) and their values, the default
first."""


SHEET_MARKS = {"annul": "5D"}
"""Cuban's mark on the score sheet: ``5D``, the player held five doubles and asked for a
redeal (the hand ends), in that player's cell."""


class CubanRound(Round):
    had_turn: int
    """Seats (bit mask) that have finished a turn: the redeal is asked on the first."""

    def _start(self) -> None:
        self.had_turn = 0

    def _copy_into(self, new: Round, record: bool) -> None:
        super()._copy_into(new, record)
        assert isinstance(new, CubanRound)
        new.had_turn = self.had_turn

    def end_turn(self) -> None:
        self.had_turn |= 1 << self.turn
        super().end_turn()

    def doubles(self, seat: int) -> int:
        """How many doubles ``seat`` holds."""
        return (self.hands[seat] & self.tab.double_mask).bit_count()

    def may_annul(self) -> bool:
        """The player to move may ask for a redeal (§3.4, D-21): on top of
        :meth:`legal_actions`, ``apply(ANNUL)``."""
        return (not self.over and not self.had_turn >> self.turn & 1
                and self.doubles(self.turn) >= REDEAL_DOUBLES)

    def extra_moves(self) -> list[object]:
        """:data:`ANNUL` while the player to move may ask for a redeal."""
        return [ANNUL] if self.may_annul() else []

    def _apply_extra(self, action: object) -> None:
        if isinstance(action, Annul):
            self._annul()
        else:
            super()._apply_extra(action)

    def recorded_extra(self, turn: dict[str, object]) -> object:
        """A recorded redeal is a turn with ``"annul": true`` (:meth:`_annul` writes it)."""
        return ANNUL if turn.get("annul") else None

    def sheet_event(self, event: object) -> tuple[str, int, object]:
        """A redeal is the player's turn: the sheet replays :data:`ANNUL` and marks it."""
        if isinstance(event, Annulled):
            return "annul", event.seat, ANNUL
        return super().sheet_event(event)

    def _annul(self) -> None:
        seat = self.turn
        if self.had_turn >> seat & 1:
            raise IllegalMoveError("annul: a redeal can only be asked on one's first turn")
        if self.doubles(seat) < REDEAL_DOUBLES:
            raise IllegalMoveError(f"annul: a redeal needs {REDEAL_DOUBLES} doubles in hand; "
                                   f"seat {seat} holds {self.doubles(seat)}")
        if self.record:
            tiles = self.tab.tileset.from_mask(self.hands[seat] & self.tab.double_mask)
            self.log.append(Annulled(seat, tuple(tiles)))
            self.begin_turn()["annul"] = True
        self._finish(ANNULLED_END, None, self.hand_totals(), "")
        self.end_turn()

    def _collect(self, seat: int, totals: list[int]) -> int:
        """D-12: what a hand won by ``seat`` is worth to its pair."""
        if self.rules.option("cuban_count") == "all":
            return sum(totals)
        return opponents_total(self, totals, seat)

    def finish_domino(self, seat: int, capicua: str) -> None:
        totals = self.hand_totals()
        points = self._collect(seat, totals)
        self.add_bonus(seat, "domino", points)
        self._finish("domino", seat, totals, "", count=points)

    def finish_tranque(self) -> None:
        """The single lowest hand wins for its pair; a tie: nobody scores (and the pair that
        opened loses the right to open, see :meth:`next_starter`)."""
        totals = self.hand_totals()
        low = min(totals)
        lowest = [s for s, t in enumerate(totals) if t == low]
        if len(lowest) > 1:
            self._finish("tranque", None, totals, "")
            return
        winner = lowest[0]
        points = self._collect(winner, totals)
        self.add_bonus(winner, "tranque", points)
        self._finish("tranque", winner, totals, "", count=points)

    @classmethod
    def next_starter(cls, previous: list[Round], rules: HouseRules) -> int | None:
        """The first hand: the highest double (by rule). Later: the previous hand's winner
        (D-11); after a tied block the other pair, in the person of the previous opener's
        right-hand player (D-20); after a redeal the same opener again (D-21)."""
        if not previous or previous[-1].result is None:
            return None
        prev = previous[-1]
        result = prev.result
        assert result is not None
        if result.reason == ANNULLED_END:
            return prev.starter
        if result.winner is not None:
            return result.winner
        opener = prev.opener if prev.opener >= 0 else prev.starter
        return (opener + 1) % prev.players


CUBAN = Variant(
    name="cuban",
    section="3.4",
    title="Cuban double-nine (pairs)",
    tileset=DOUBLE_NINE,
    min_players=4,
    max_players=4,
    hand_sizes={4: 10},
    pile=False,
    power=False,
    pairs=True,
    goal="points",
    target=200,
    max_target=500,
    sheet_losses=False,
    round_type=CubanRound,
    options=OPTIONS,
    sheet_marks=SHEET_MARKS,
    void_ends=(ANNULLED_END,),
)
