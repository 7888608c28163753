"""The bot ladder's measured strength: each level against the one below, and the time a move
takes at each level.

    python benchmarks/bot_ladder.py [--pairs 200] [--players 2] [--top expert]

Games are 2-player Leonard, one round each (the tests' duel). Each deal is played twice, with
the two bots in swapped seats (duplicate play), so the luck of the deal cancels; the unit of
the statistics is such a pair of games. For each level against the one below it prints the
win rate (ties count half), the mean points per game of the stronger minus the weaker, and
the standard error of that mean over the pairs; the margin is "clear" above 2 standard errors.
Strength is the same in both builds (the same seeds play the same games); the speed columns
are those of the build running (``engine.BUILD``, printed first).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import engine  # noqa: E402
from engine import HouseRules, Match  # noqa: E402
from engine.bots import BOTS, Bot, make_bot, play_match  # noqa: E402


class Timed:
    """A bot that records the CPU milliseconds of each move that had a choice (CPU time: on a
    shared machine the wall clock also counts the waits for a core)."""

    def __init__(self, bot: Bot, times: list[float]) -> None:
        self.bot, self.times, self.name = bot, times, bot.name

    def choose(self, view: engine.view.PlayerView) -> engine.Action:
        t0 = time.process_time()
        action = self.bot.choose(view)
        if len(view.legal) > 1:
            self.times.append((time.process_time() - t0) * 1000)
        return action

    def wants_extra(self, view: engine.view.PlayerView, move: object) -> bool:
        return self.bot.wants_extra(view, move)


def game(strong: str, weak: str, deal: int, strong_seat: int, players: int,
         times: dict[str, list[float]]) -> float:
    """Points of ``strong`` minus the mean of the others in one round from deal ``deal``."""
    m = Match("leonard", players, HouseRules(rounds=1), seed=deal, record=False)
    names = [weak] * players
    names[strong_seat] = strong
    bots = [Timed(make_bot(n, 7919 * deal + 31 * s + strong_seat), times[n])
            for s, n in enumerate(names)]
    play_match(m, bots)
    me = m.scores[strong_seat]
    return me - (sum(m.scores) - me) / (players - 1)


def duel(strong: str, weak: str, pairs: int, players: int, first: int,
         times: dict[str, list[float]]) -> tuple[float, float, float]:
    """Win rate (ties half), mean points a game and its standard error over the pairs."""
    pair_means: list[float] = []
    wins = 0.0
    for d in range(first, first + pairs):
        diffs = [game(strong, weak, d, seat, players, times) for seat in (0, 1)]
        wins += sum(1.0 if x > 0 else 0.5 if x == 0 else 0.0 for x in diffs)
        pair_means.append(sum(diffs) / 2)
    se = statistics.stdev(pair_means) / len(pair_means) ** 0.5
    return wins / (2 * pairs), statistics.mean(pair_means), se


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--pairs", type=int, default=200, help="deals per duel, each played twice")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--bottom", default="random", choices=list(BOTS))
    ap.add_argument("--top", default="expert", choices=list(BOTS))
    ap.add_argument("--first-deal", type=int, default=100_000,
                    help="deal seeds used: first-deal … first-deal+pairs-1 (not the tests')")
    args = ap.parse_args()
    levels = list(BOTS)
    ladder = levels[levels.index(args.bottom):levels.index(args.top) + 1]
    times: dict[str, list[float]] = {n: [] for n in levels}
    print(f"engine: {engine.BUILD}; {args.players}-player Leonard, one round a game, "
          f"{args.pairs} deals each played with swapped seats")
    print(f"{'stronger vs weaker':20} {'wins':>6} {'points/game':>12} {'std err':>8} "
          f"{'margin':>8}")
    for weak, strong in zip(ladder, ladder[1:], strict=False):
        rate, mean, se = duel(strong, weak, args.pairs, args.players, args.first_deal, times)
        print(f"{strong + ' vs ' + weak:20} {rate:6.1%} {mean:+12.1f} {se:8.1f} "
              f"{mean / se if se else float('inf'):7.1f}σ", flush=True)
    print()
    for name in ladder:
        t = times[name]
        if len(t) >= 20:
            q = statistics.quantiles(t, n=20)
            print(f"{name:8} CPU ms a move with a choice: median {statistics.median(t):6.1f}, "
                  f"p95 {q[18]:6.1f}, max {max(t):6.1f} over {len(t)} moves")


if __name__ == "__main__":
    main()
