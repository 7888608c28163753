"""A match: rounds in sequence, running scores, and the JSON game record that replays it."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, Literal

from .deal import Deal
from .events import Event, MatchEnded
from .round import IllegalMoveError, Round, round_type
from .rules import HouseRules, Variant
from .rules import variant as variant_named


class Match:
    """Rounds of one variant for a fixed number of players (docs/rules.md §1.9, §3).

    A match of Leonard, the block game or Doble 15 is ``rules.rounds`` rounds (D-10); the
    other classic variants play until a player or pair reaches the target score
    (:attr:`target`: ``rules.target`` or the variant's own). Pair games score by pairs:
    :attr:`teams` and :attr:`team_scores`.

    Deals come from ``random.Random(seed)``; give ``deals`` (:class:`~engine.deal.Deal` values, or
    their saved form: dicts with ``hands``, ``pile``, ``table``, ``starter``) to play prepared
    rounds instead.
    """

    def __init__(
        self,
        variant: Variant | str,
        players: int,
        rules: HouseRules | None = None,
        seed: int | None = None,
        *,
        deals: Sequence[Deal | Mapping[str, Any]] | None = None,
        record: bool = True,
    ) -> None:
        self.variant = variant_named(variant) if isinstance(variant, str) else variant
        self.variant.check_players(players)
        self.players = players
        self.rules = rules or HouseRules()
        self.target = self.variant.match_target(self.rules)
        """The score that wins the match (0: a match of ``rules.rounds`` rounds)."""
        self.teams: tuple[tuple[int, ...], ...] = self.variant.teams(players)
        """Who scores together: ``((0, 2), (1, 3))`` in a pair game, else ``((0,), (1,), …)``."""
        self.round_type: type[Round] = round_type(self.variant)
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
    def team_scores(self) -> list[int]:
        """Match score per team (:attr:`teams`): a pair's two seats added up."""
        scores = self.scores
        return [sum(scores[s] for s in seats) for seats in self.teams]

    @property
    def pairs(self) -> bool:
        """Two pairs play against each other (seats 0 & 2 against 1 & 3)."""
        return self.variant.pairs

    def team_of(self, seat: int) -> int:
        """The index in :attr:`teams` of ``seat``'s team."""
        for t, seats in enumerate(self.teams):
            if seat in seats:
                return t
        raise ValueError(f"there is no seat {seat} in a {self.players}-player game")

    @property
    def over(self) -> bool:
        return self.match_end is not None

    def _next_starter(self) -> int | None:
        """Who opens the next round with any tile (None: by rule); each game's own rule,
        e.g. D-3 for Leonard: with ``rotate``, the right-hand player of the previous opener."""
        return self.round_type.next_starter(self.rounds, self.rules)

    def _context(self) -> object:
        """What the next round needs of the match (the variant's ``match_context``)."""
        return self.round_type.match_context(self.rounds, self.target)

    def _goal_reached(self) -> bool:
        if not self.current.over:
            return False
        if self.target:
            return max(self.team_scores) >= self.target
        return len(self.rounds) >= self.rules.rounds

    def start_round(self) -> Round:
        if self.rounds and not self.current.over:
            raise IllegalMoveError("the current round is not over yet")
        if self.over:
            raise IllegalMoveError("the match is over")
        number = len(self.rounds) + 1
        starter = following = self._next_starter()
        if len(self.deals) >= number:
            d = self.deals[number - 1]
            deal = d if isinstance(d, Deal) else Deal.from_dict(d)
            # a saved deal's starter, even null, is the deal's; a Deal's None: the match's
            if deal.starter is not None or not isinstance(d, Deal) and "starter" in d:
                starter = deal.starter
            opening: Literal["rule", "any"] = "any" if following is not None else "rule"
            rnd = self.round_type.from_deal(
                self.variant, self.rules, [list(h) for h in deal.hands], list(deal.pile),
                deal.table, starter, number=number, opening=opening, record=self.record,
                context=self._context())
        else:
            rnd = self.round_type.deal(self.variant, self.rules, self.players, self.rng,
                                       number=number, starter=starter, record=self.record,
                                       context=self._context())
        self.rounds.append(rnd)
        return rnd

    def apply(self, action: object, seat: int | None = None) -> list[Event]:
        """Apply an action (an :data:`~engine.round.Action` or :data:`~engine.round.ANNUL`;
        anything else raises :class:`~engine.round.IllegalMoveError`, see
        :meth:`Round.apply`) in the current round; after the last round's end the match ends
        too (a :class:`MatchEnded` event). Start the next round with :meth:`start_round`."""
        events = self.current.apply(action, seat)
        if self._goal_reached():
            scores = tuple(self.scores)
            if len(self.teams) < self.players:
                team_scores = tuple(self.team_scores)
                best = max(team_scores)
                winners = tuple(sorted(s for t, v in enumerate(team_scores) if v == best
                                       for s in self.teams[t]))
                self.match_end = MatchEnded(scores, winners, team_scores)
            else:
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
        } | ({"teams": [list(t) for t in self.teams], "team_scores": self.team_scores}
             if self.pairs else {})


def round_record(r: Round) -> dict[str, Any]:
    out: dict[str, Any] = r.dealt().to_dict() | {
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
