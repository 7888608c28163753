"""Random-play speed of our engine against the PyPI domino engines, side by side in one run.

    pip install -e ".[bench]"
    python benchmarks/engine_vs_peers.py [--seconds 2] [--repeats 5]

Each contender plays complete random-play games of the 4-player double-six block game
(7 tiles each, no pile) from fixed seeds for ``--seconds`` per repeat; the table reports the
median games/s over the repeats and our ratio to each peer. Then Leonard rounds per second
(2 and 4 players, random play) and the search bot's time per move.

Last, rounds per second of every variant (RULES.md §3), random play, two ways side by side:
``Round.playout`` (the bots' rollouts: the inline kernel for two-ended lines; Doble 15's hub
has no inline kernel and plays through the same _place/_draw/_pass as apply) and a plain
``legal_moves()`` + ``apply()`` loop without an event log; the last column is their ratio.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine import (  # noqa: E402
    BLOCK_VARIANT,
    LEONARD_VARIANT,
    VARIANTS,
    HouseRules,
    Match,
    Round,
)
from engine.bots import ROLLOUTS, SearchBot, make_bot  # noqa: E402
from engine.view import view_of  # noqa: E402

RULES = HouseRules()


def ours_block() -> Callable[[int], None]:
    def game(seed: int) -> None:
        rng = random.Random(seed)
        Round.deal(BLOCK_VARIANT, RULES, 4, rng, record=False).playout(rng)
    return game


def floor_block() -> Callable[[int], None]:
    """Not an engine: the shortest stdlib loop we could write for a random 4-player double-six
    block game (no state kept, no events, no scores, no other variant). It shows how fast any
    pure-Python engine can get on this machine, so the peers' ratios can be read against it."""
    from engine.tiles import DOUBLE_SIX as ts

    ha, hb, sm = ts.half_a, ts.half_b, ts.suit_mask
    doubles = sorted((i for i in range(28) if ha[i] == hb[i]), key=lambda i: -ha[i])
    tiles = range(28)

    def game(seed: int) -> None:
        rng = random.Random(seed)
        r = rng.random
        order = sorted(tiles, key=lambda _: r())
        hands = [0, 0, 0, 0]
        for k, t in enumerate(order):
            hands[k // 7] |= 1 << t
        for d in doubles:
            s = next((s for s in range(4) if hands[s] >> d & 1), -1)
            if s >= 0:
                break
        hands[s] ^= 1 << d
        el = er = ha[d]
        turn = (s + 1) & 3
        while True:
            m = hands[turn] & (sm[el] | sm[er])
            if m:
                if m & (m - 1):
                    k = int(r() * m.bit_count())
                    while k:
                        m &= m - 1
                        k -= 1
                low = m & -m
                t = low.bit_length() - 1
                a, b = ha[t], hb[t]
                if a == el or b == el:
                    if (a == er or b == er) and r() < 0.5:
                        er = b if a == er else a
                    else:
                        el = b if a == el else a
                else:
                    er = b if a == er else a
                hands[turn] ^= low
                if not hands[turn]:
                    return
                mm = sm[el] | sm[er]
                if not (hands[0] & mm or hands[1] & mm or hands[2] & mm or hands[3] & mm):
                    return
            turn = (turn + 1) & 3
    return game


def leonard(players: int) -> Callable[[int], None]:
    def game(seed: int) -> None:
        rng = random.Random(seed)
        Round.deal(LEONARD_VARIANT, RULES, players, rng, record=False).playout(rng)
    return game


def variant_playout(name: str, players: int) -> Callable[[int], None]:
    variant = VARIANTS[name]

    def game(seed: int) -> None:
        rng = random.Random(seed)
        Round.deal(variant, RULES, players, rng, record=False).playout(rng)
    return game


def variant_apply(name: str, players: int) -> Callable[[int], None]:
    """The same random play through legal_moves() and apply() (no event log)."""
    variant = VARIANTS[name]

    def game(seed: int) -> None:
        rng = random.Random(seed)
        rnd = Round.deal(variant, RULES, players, rng, record=False)
        while not rnd.over:
            moves = rnd.legal_moves()
            rnd.apply(moves[int(rng.random() * len(moves))])
    return game


VARIANT_TABLE = [("leonard", 4), ("block", 4), ("traditional", 2), ("traditional", 4),
                 ("venezuela", 4), ("ponce", 4), ("cuban", 4), ("doble15", 2),
                 ("doble15", 4)]


def dominoes_block() -> Callable[[int], None] | None:
    try:
        import dominoes  # type: ignore[import-not-found]
    except ImportError:
        return None

    def game(seed: int) -> None:
        random.seed(seed)  # dominoes deals and we choose with the module-level generator
        g = dominoes.Game.new()
        while g.result is None:
            d, left = random.choice(g.valid_moves)
            g.make_move(d, left)
    return game


def openspiel_block() -> Callable[[int], None] | None:
    try:
        import numpy as np
        import pyspiel  # type: ignore[import-not-found]
        from open_spiel.python import games  # type: ignore[import-not-found]  # noqa: F401
    except ImportError:
        return None
    spiel_game = pyspiel.load_game("python_team_dominoes")

    def game(seed: int) -> None:
        rng = np.random.default_rng(seed)
        s = spiel_game.new_initial_state()
        while not s.is_terminal():
            if s.is_chance_node():
                outcomes = s.chance_outcomes()
                s.apply_action(outcomes[rng.integers(len(outcomes))][0])
            else:
                legal = s.legal_actions()
                s.apply_action(legal[rng.integers(len(legal))])
    return game


def rate(game: Callable[[int], None], seconds: float, seed0: int) -> float:
    """Games per second over about ``seconds`` of complete games from seeds seed0, seed0+1…"""
    n = 0
    start = time.perf_counter()
    while True:
        game(seed0 + n)
        n += 1
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return n / elapsed


def search_ms_per_move(moves: int, players: int = 2, game: str = "leonard") -> list[float]:
    times: list[float] = []
    seed = 0
    while len(times) < moves:
        m = Match(game, players, HouseRules(rounds=1), seed, record=False)
        bots = [SearchBot(seed)] + [make_bot("greedy", seed + s) for s in range(1, players)]
        rnd = m.current
        while not rnd.over and len(times) < moves:
            v = view_of(rnd, rnd.turn)
            t0 = time.perf_counter()
            action = bots[rnd.turn].choose(v)
            if rnd.turn == 0 and len(v.legal) > 1:
                times.append((time.perf_counter() - t0) * 1000)
            m.apply(action)
        seed += 1
    return times


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seconds", type=float, default=2.0)
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--moves", type=int, default=200, help="search-bot moves to time")
    args = ap.parse_args()
    contenders: dict[str, Callable[[int], None] | None] = {
        "ours (engine)": ours_block(),
        "dominoes 6.1.0": dominoes_block(),
        "open_spiel python_team_dominoes": openspiel_block(),
        "floor: bare loop (not an engine)": floor_block(),
    }
    results: dict[str, list[float]] = {k: [] for k, g in contenders.items() if g is not None}
    for rep in range(args.repeats):  # interleaved, so machine noise hits everyone alike
        for name, game in contenders.items():
            if game is not None:
                results[name].append(rate(game, args.seconds, 1000 * rep))
    ours = statistics.median(results["ours (engine)"])
    print("4-player double-six block game, random play, complete games per second")
    print(f"{'engine':34} {'median games/s':>15} {'min':>10} {'max':>10} {'ours / it':>10}")
    for name, rates in results.items():
        med = statistics.median(rates)
        print(f"{name:34} {med:15,.0f} {min(rates):10,.0f} {max(rates):10,.0f} "
              f"{ours / med:9.2f}x")
    for name, game in contenders.items():
        if game is None:
            print(f"{name:34} not installed (pip install -e '.[bench]')")
    print()
    for players in (2, 4):
        rates = [rate(leonard(players), args.seconds / 2, 1000 * r) for r in range(args.repeats)]
        print(f"Leonard {players}-player rounds/s (random play): median "
              f"{statistics.median(rates):,.0f}")
    for players in (2, 4):
        times = search_ms_per_move(args.moves, players)
        q = statistics.quantiles(times, n=20)
        print(f"search bot ({ROLLOUTS} rollouts a move, {players}-player Leonard, moves with a "
              f"choice): median {statistics.median(times):.1f} ms, p95 {q[18]:.1f} ms, "
              f"max {max(times):.1f} ms over {len(times)} moves")
    times = search_ms_per_move(max(10, args.moves // 4), 2, "doble15")
    print(f"search bot ({ROLLOUTS} rollouts a move, 2-player Doble 15, moves with a choice): "
          f"median {statistics.median(times):.1f} ms, max {max(times):.1f} ms over "
          f"{len(times)} moves")
    print()
    print("every variant, random play, complete rounds per second (median over repeats)")
    print(f"{'variant':13} {'players':>7} {'playout':>10} {'apply()':>10} {'playout/apply':>14}")
    for name, players in VARIANT_TABLE:
        fast: list[float] = []
        slow: list[float] = []
        for rep in range(args.repeats):  # interleaved, as above
            fast.append(rate(variant_playout(name, players), args.seconds / 2, 1000 * rep))
            slow.append(rate(variant_apply(name, players), args.seconds / 2, 1000 * rep))
        f, sl = statistics.median(fast), statistics.median(slow)
        print(f"{name:13} {players:7d} {f:10,.0f} {sl:10,.0f} {f / sl:13.2f}x")


if __name__ == "__main__":
    main()
