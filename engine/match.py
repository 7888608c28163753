"""A match: rounds in sequence, running scores, and the JSON game record that replays it."""

from __future__ import annotations

import random
from typing import Any, Literal

from .events import Event, MatchEnded
from .round import Action, IllegalMoveError, Round
from .rules import HouseRules, Variant
from .rules import variant as variant_named


class Match:
    """Rounds of one variant for a fixed number of players (RULES.md §1.9).

    Deals come from ``random.Random(seed)``; give ``deals`` (dicts with ``hands``, ``pile``,
    ``table``, ``starter``) to play prepared rounds instead.
    """

    def __init__(
        self,
        variant: Variant | str,
        players: int,
        rules: HouseRules | None = None,
        seed: int | None = None,
        *,
        deals: list[dict[str, Any]] | None = None,
        record: bool = True,
    ) -> None:
        self.variant = variant_named(variant) if isinstance(variant, str) else variant
        self.variant.check_players(players)
        self.players = players
        self.rules = rules or HouseRules()
        self.seed = seed
        self.rng = random.Random(seed)
        self.deals = list(deals or [])
        self.record = record
        self.rounds: list[Round] = []
        self.match_end: MatchEnded | None = None
        self.start_round()

    @property
    def current(self) -> Round:
        return self.rounds[-1]

    @property
    def scores(self) -> list[int]:
        """Match score per seat: gains minus losses over all rounds so far."""
        out = [0] * self.players
        for r in self.rounds:
            for s in range(self.players):
                out[s] += r.gains[s] - r.losses[s]
        return out

    @property
    def over(self) -> bool:
        return self.match_end is not None

    def _next_starter(self) -> int | None:
        """D-3: with ``rotate``, the right-hand player of the previous opener opens."""
        if not self.rounds or self.rules.opener == "rule":
            return None
        prev = self.rounds[-1]
        opener = prev.opener if prev.opener >= 0 else prev.starter
        return (opener + 1) % self.players

    def start_round(self) -> Round:
        if self.rounds and not self.current.over:
            raise IllegalMoveError("the current round is not over yet")
        if self.over:
            raise IllegalMoveError("the match is over")
        number = len(self.rounds) + 1
        starter = self._next_starter()
        if len(self.deals) >= number:
            d = self.deals[number - 1]
            opening: Literal["rule", "any"] = "any" if starter is not None else "rule"
            rnd = Round.from_deal(
                self.variant, self.rules, d["hands"], d.get("pile") or (), d.get("table"),
                d.get("starter", starter), number=number, opening=opening, record=self.record)
        else:
            rnd = Round.deal(self.variant, self.rules, self.players, self.rng, number=number,
                             starter=starter, record=self.record)
        self.rounds.append(rnd)
        return rnd

    def apply(self, action: Action, seat: int | None = None) -> list[Event]:
        """Apply an action in the current round; after the last round's end the match ends too
        (a :class:`MatchEnded` event). Start the next round with :meth:`start_round`."""
        events = self.current.apply(action, seat)
        if self.current.over and len(self.rounds) >= self.rules.rounds:
            scores = tuple(self.scores)
            best = max(scores)
            self.match_end = MatchEnded(scores, tuple(s for s, v in enumerate(scores)
                                                      if v == best))
            events = [*events, self.match_end]
        return events

    def to_record(self) -> dict[str, Any]:
        """The JSON game record (README: "Game records")."""
        return {
            "variant": self.variant.name,
            "players": self.players,
            "seed": self.seed,
            "rules": self.rules.to_dict(),
            "scores": self.scores,
            "rounds": [round_record(r) for r in self.rounds],
        }


def round_record(r: Round) -> dict[str, Any]:
    ts = r.tileset
    out: dict[str, Any] = {
        "hands": [[str(t) for t in ts.from_mask(h)] for h in r.initial_hands],
        "pile": [str(ts.tiles[i]) for i in r.pile],
        "table": None if r.table is None else str(ts.tiles[r.table]),
        "starter": r.starter,
        "turns": list(r.turns),
        "end": None,
        "winner": None,
        "gains": list(r.gains),
        "losses": list(r.losses),
    }
    if r.result is not None:
        out["end"] = r.result.reason
        out["winner"] = r.result.winner
    return out
