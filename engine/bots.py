"""Computer players: random, greedy (best immediate swing), search (sampled rollouts) and
expert (more rollouts, the moves compared on common random numbers).

A bot sees only a :class:`~engine.view.PlayerView` (its own hand and public facts) and draws
every random choice from its own ``random.Random(seed)``, so a game with bots replays exactly.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Protocol

from .events import Event
from .match import Match
from .round import Action, Play
from .rules import RulesError
from .view import PlayerView, sample_round, view_of


class Bot(Protocol):
    name: str

    def choose(self, view: PlayerView) -> Action: ...

    def wants_extra(self, view: PlayerView, move: object) -> bool:
        """Asked for each of the game's own moves the view offers (:attr:`PlayerView.extra`:
        Cuban's redeal with five doubles): make ``move`` instead of choosing from
        ``view.legal``?"""
        ...


class RandomBot:
    """Plays a uniformly random legal move."""

    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: PlayerView) -> Action:
        return self.rng.choice(view.legal)

    def wants_extra(self, view: PlayerView, move: object) -> bool:
        return self.rng.random() < 0.5


class GreedyBot:
    """Plays the move with the best immediate point swing (own gain plus loss inflicted);
    on a tie, sheds the heaviest tile."""

    name = "greedy"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: PlayerView) -> Action:
        legal = view.legal
        # A game's own move (view.extra, e.g. Cuban's redeal) is never the greedy choice.
        plays = [a for a in legal if isinstance(a, Play)]
        if len(legal) == 1 or not plays:
            return legal[0]
        pub = view.public
        sv = pub.rules.symbol_value

        def key(a: Play) -> tuple[int, int, float]:
            gain, loss = pub.play_points(a)
            return gain + loss, a.tile.total(sv), self.rng.random()

        return max(plays, key=key)

    def wants_extra(self, view: PlayerView, move: object) -> bool:
        return False  # it scores nothing now (Cuban's redeal)


ROLLOUTS = 240
"""The search bot's default work per move; ``benchmarks/engine_vs_peers.py`` reports its time."""


class SearchBot:
    """Samples hidden hands consistent with what it has seen (its hand, the line, the passes)
    and plays the move with the best average round outcome over random rollouts (for its
    pair, in a pair game).

    Its budget is work, never time: ``rollouts`` random playouts per move (spread over the
    legal moves), so a seeded game replays exactly on an idle or a busy machine.
    """

    name = "search"

    def __init__(self, seed: int | None = None, rollouts: int = ROLLOUTS) -> None:
        if rollouts < 1:
            raise RulesError(f"the search bot needs at least 1 rollout per move, not {rollouts}")
        self.rng = random.Random(seed)
        self.rollouts = rollouts
        self.common_numbers = False
        """Every move of a sampled deal is played out with the same random choices (the
        expert)."""

    def choose(self, view: PlayerView) -> Action:
        legal = view.legal
        if len(legal) == 1:
            return legal[0]
        totals = self._values(view)
        best = max(range(len(legal)), key=lambda k: (totals[k], -k))
        return legal[best]

    def wants_extra(self, view: PlayerView, move: object) -> bool:
        """A game's own move scores nothing now (Cuban's redeal): make it when even the best
        play loses on average."""
        return max(self._values(view)) < 0

    def _values(self, view: PlayerView) -> list[float]:
        """The summed outcome of ``self.rollouts`` rollouts spread over the legal moves."""
        legal = view.legal
        seat = view.seat
        rng = self.rng
        common = self.common_numbers
        rollout = random.Random() if common else rng
        totals = [0.0] * len(legal)
        done = 0
        while done < self.rollouts:
            world = sample_round(view, rng)
            seed = rng.getrandbits(64) if common else 0
            for k, action in enumerate(legal):
                r = world.copy()
                r.apply(action)
                if common:
                    rollout.seed(seed)
                r.playout(rollout)
                # The outcome for its side: its own score (its pair's, in a pair game)
                # against the mean of the others.
                scores = r.team_scores
                me = scores[r.seat_team[seat]]
                others = sum(scores) - me
                totals[k] += me - others / (len(scores) - 1)
            done += len(legal)
        return totals


EXPERT_ROLLOUTS = 4 * ROLLOUTS
"""The expert bot's default work per move: four times the search bot's, which the compiled
engine plays in about the time the pure engine takes for the search bot's (median move under
50 ms compiled, ``benchmarks/engine_vs_peers.py``)."""


class ExpertBot(SearchBot):
    """The search bot with four times the work, and its moves compared on common random
    numbers: every legal move is played out on the same sampled deal *and* with the same
    random choices afterwards (a generator seeded once per deal), so the difference between
    two moves' outcomes is due to the moves, not to luck in the rollouts. The same rollouts
    then tell close moves apart that the search bot's independent rollouts leave to chance.

    Its budget is work, never time: ``rollouts`` playouts per move, spread over the legal
    moves as the search bot's are.
    """

    name = "expert"

    def __init__(self, seed: int | None = None, rollouts: int = EXPERT_ROLLOUTS) -> None:
        super().__init__(seed, rollouts)
        self.common_numbers = True


BOTS: dict[str, Callable[[int | None], Bot]] = {
    "random": RandomBot,
    "greedy": GreedyBot,
    "search": SearchBot,
    "expert": ExpertBot,
}
"""The levels, weakest first (``benchmarks/bot_ladder.py`` measures each against the one
below)."""


def make_bot(name: str, seed: int | None = None, work: float = 1.0) -> Bot:
    """The bot of level ``name``; ``work`` scales a searching bot's rollouts per move (tests
    play quick games with less)."""
    if name not in BOTS:
        raise RulesError(f"unknown bot {name!r}: choose one of {', '.join(BOTS)}")
    if work != 1.0 and name == "search":
        return SearchBot(seed, max(1, round(ROLLOUTS * work)))
    if work != 1.0 and name == "expert":
        return ExpertBot(seed, max(1, round(EXPERT_ROLLOUTS * work)))
    return BOTS[name](seed)


def bot_move(bot: Bot, view: PlayerView) -> object:
    """A bot's move: the first of the game's own moves the view offers (:attr:`PlayerView.extra`,
    e.g. Cuban's redeal) that ``bot`` wants (:meth:`Bot.wants_extra`), else its choice from
    ``view.legal``. The one rule for every bot's move (:func:`play_match` and the tutor's
    session use it); a view with no extra moves asks nothing of ``wants_extra``, so its bot
    draws no random number for it."""
    extra = next((m for m in view.extra if bot.wants_extra(view, m)), None)
    return bot.choose(view) if extra is None else extra


def play_match(match: Match, bots: Sequence[Bot],
               on_events: Callable[[list[Event]], None] | None = None) -> Match:
    """Play ``match`` to its end with one bot per seat."""
    if len(bots) != match.players:
        raise RulesError(f"{match.players} players need {match.players} bots, not {len(bots)}")
    while True:
        rnd = match.current
        while not rnd.over:
            seat = rnd.turn
            view = view_of(rnd, seat)
            events = match.apply(bot_move(bots[seat], view), seat)
            if on_events is not None:
                on_events(events)
        if match.over:
            return match
        match.start_round()
