"""The end of a round (docs/rules.md §1.8, D-9): how Leonard and the block game count a hand that
is blocked (a dominoed hand, a single sum, :class:`~engine.round.Round`'s ``finish_domino``
counts itself), and the :class:`~engine.events.RoundEnded` that says how it ended. Plain
functions over a round, which its ``finish_tranque`` hook calls (a variant's round type
overrides that hook); they end the round through ``Round.end_round``, which keeps what
:func:`result` needs."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .events import RoundEnded

if TYPE_CHECKING:
    from .round import Round


def finish_tranque(rnd: Round) -> None:
    """Nobody can play: the lowest hand collects the others (§1.8, D-9)."""
    totals = rnd.hand_totals()
    low = min(totals)
    lowest = [s for s, t in enumerate(totals) if t == low]
    winner, count = pay_lowest(rnd, lowest, sum(totals) - low * len(lowest))
    rnd.end_round("tranque", winner, totals, "", count, count, (), None)


def pay_lowest(rnd: Round, lowest: list[int], amount: int) -> tuple[int | None, int]:
    """A blocked round's gain (§1.8, D-9): the single lowest hand (``lowest``: the seats
    that hold it) gains ``amount``; a lowest hand shared by several gains nothing, or with
    ``tranque_tie == "split"`` they share it (rounded down). Returns the winner (None on a
    tie) and the count the round ends with (``amount``, or 0 when nobody gains)."""
    if len(lowest) == 1:
        rnd.add_bonus(lowest[0], "tranque", amount)
        return lowest[0], amount
    if rnd.rules.tranque_tie == "split":
        for s in lowest:
            rnd.add_bonus(s, "tranque", amount // len(lowest))
        return None, amount
    return None, 0


def result(rnd: Round, ending: tuple[Any, ...]) -> RoundEnded:
    """How ``rnd`` ended, from what ``Round._finish`` kept (``ending``); the round builds it
    once, when :attr:`~engine.round.Round.result` is first read: the event is a dataclass,
    whose generated ``__init__`` mypyc leaves interpreted, and a rollout that only reads the
    scores would spend a tenth of its time on it."""
    reason, winner, totals, capicua, count, points, differences, team = ending
    if totals is None:
        totals = rnd.hand_totals()
    pairs = len(rnd.teams) < rnd.players
    team_totals = tuple(sum(totals[s] for s in seats) for seats in rnd.teams) \
        if pairs and totals else ()
    if pairs and team is None and winner is not None:
        team = rnd.seat_team[winner]
    return RoundEnded(
        reason, winner, tuple(rnd.gains), tuple(rnd.losses), tuple(totals), capicua,
        count, points, differences, rnd.teams if pairs else (), team_totals,
        team if pairs else None, rnd.mover if reason == "tranque" else None)
