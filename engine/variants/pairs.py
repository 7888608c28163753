"""What the pair games share (Venezuela, Ponce, Cuban): partners opposite, pair sums, and
the opening that moves one seat to the right each hand."""

from __future__ import annotations

from ..round import Round
from ..rules import HouseRules


def pair_totals(rnd: Round, totals: list[int]) -> list[int]:
    """Each pair's combined hand."""
    return [sum(totals[s] for s in seats) for seats in rnd.teams]


def opponents_total(rnd: Round, totals: list[int], seat: int) -> int:
    """The hands of the pair ``seat`` plays against."""
    mine = rnd.seat_team[seat]
    return sum(t for s, t in enumerate(totals) if rnd.seat_team[s] != mine)


def lower_partner(rnd: Round, totals: list[int], team: int) -> int:
    """The seat of ``team`` with the lower hand, the lower seat on a tie (D-22: the seat a
    pair's points are written to)."""
    return min(rnd.teams[team], key=lambda s: (totals[s], s))


class RotatingOpener(Round):
    """§3.2, §3.3: the first hand is opened by the 6/6 (the rule opening); each later hand by
    the right-hand player of the previous opener, with any tile."""

    @classmethod
    def next_starter(cls, previous: list[Round], rules: HouseRules) -> int | None:
        if not previous:
            return None
        prev = previous[-1]
        opener = prev.opener if prev.opener >= 0 else prev.starter
        return (opener + 1) % prev.players
