"""Random-play speed of our engine, in both its builds, against the PyPI domino engines, side by
side in one run.

    pip install -e ".[bench]"
    python benchmarks/engine_vs_peers.py [--seconds 1] [--repeats 3] [--variants]

Our engine runs twice, in worker processes: the compiled build (mypyc; the install compiled
it) and the pure-Python build (the same modules with the compiled ones hidden by
``LEONARD_PURE=1``). Without a compiled install both rows are pure, and the table says so.

Each contender plays complete random-play games of the 4-player double-six block game
(7 tiles each, no pile) from fixed seeds for ``--seconds`` of CPU time per repeat (CPU time,
not the wall clock: see ``CLOCK``); the repeats are interleaved, so machine noise hits everyone
alike. The table reports the median games/s over
the repeats and the compiled build's ratio to each. Then, per build: Leonard rounds per second
(2 and 4 players, random play) and the search and expert bots' time per move.

With ``--variants``, last, rounds per second of every variant (RULES.md §3) in each build,
random play, two ways side by side: ``Round.playout`` (the bots' rollouts: the inline kernel
for two-ended lines; Doble 15's hub has no inline kernel and plays through the same
_place/_draw/_pass as apply) and a plain ``legal_moves()`` + ``apply()`` loop without an event
log; the last column is their ratio.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
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
from engine.bots import EXPERT_ROLLOUTS, ROLLOUTS, make_bot  # noqa: E402
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


CLOCK = time.process_time
"""Every rate and time here is this process's CPU time, not the wall clock: on a shared
machine (2 cores, other work running) a wall-clock window also counts the time the process
waited for a core, which varied the rates by 2x from one window to the next. Ratios are
between CPU times measured the same way."""
BATCH = 10
"""Games between two readings of the clock (a CPU-time reading is a system call)."""


def rate(game: Callable[[int], None], seconds: float, seed0: int) -> float:
    """Games per CPU second over about ``seconds`` of complete games from seeds seed0,
    seed0+1…"""
    n = 0
    start = CLOCK()
    while True:
        for k in range(BATCH):
            game(seed0 + n + k)
        n += BATCH
        elapsed = CLOCK() - start
        if elapsed >= seconds:
            return n / elapsed


def bot_ms_per_move(bot: str, moves: int, players: int = 2,
                    game: str = "leonard") -> list[float]:
    """CPU milliseconds per move of ``bot`` (seat 0; the others greedy), moves with a
    choice."""
    times: list[float] = []
    seed = 0
    while len(times) < moves:
        m = Match(game, players, HouseRules(rounds=1), seed, record=False)
        bots = [make_bot(bot, seed)] + [make_bot("greedy", seed + s) for s in range(1, players)]
        rnd = m.current
        while not rnd.over and len(times) < moves:
            v = view_of(rnd, rnd.turn)
            t0 = CLOCK()
            action = bots[rnd.turn].choose(v)
            if rnd.turn == 0 and len(v.legal) > 1:
                times.append((CLOCK() - t0) * 1000)
            m.apply(action)
        seed += 1
    return times


# --- the worker: one build's measurements, as JSON ------------------------------------------

def worker(task: dict[str, object]) -> dict[str, object]:
    import engine

    out: dict[str, object] = {"build": engine.BUILD, "compiled": engine.COMPILED}
    seconds = float(task["seconds"])  # type: ignore[arg-type]
    rep = int(task["rep"])  # type: ignore[call-overload]
    kind = task["kind"]
    if kind == "rates":
        out["block"] = rate(ours_block(), seconds, 1000 * rep)
        for players in (2, 4):
            out[f"leonard{players}"] = rate(leonard(players), seconds / 2, 1000 * rep)
    elif kind == "bots":
        moves = int(task["moves"])  # type: ignore[call-overload]
        for players in (2, 4):
            out[f"search{players}"] = bot_ms_per_move("search", moves, players)
        out["expert2"] = bot_ms_per_move("expert", moves, 2)
        out["search_doble15"] = bot_ms_per_move("search", max(10, moves // 4), 2, "doble15")
    elif kind == "variants":
        for name, players in VARIANT_TABLE:
            out[f"{name}/{players}"] = (
                rate(variant_playout(name, players), seconds / 2, 1000 * rep),
                rate(variant_apply(name, players), seconds / 2, 1000 * rep))
    return out


BUILDS = {"compiled": "", "pure": "1"}
"""The two builds and the LEONARD_PURE value that selects each."""


def run_worker(build: str, **task: object) -> dict[str, object]:
    env = {**os.environ, "LEONARD_PURE": BUILDS[build]}
    out = subprocess.run([sys.executable, __file__, "--worker", json.dumps(task)], env=env,
                         capture_output=True, text=True, check=True)
    data: dict[str, object] = json.loads(out.stdout)
    return data


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seconds", type=float, default=1.0)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--moves", type=int, default=100, help="bot moves to time, per bot")
    ap.add_argument("--variants", action="store_true", help="add the every-variant table")
    ap.add_argument("--worker", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.worker:
        print(json.dumps(worker(json.loads(args.worker))))
        return
    peers: dict[str, Callable[[int], None] | None] = {
        "dominoes 6.1.0 (PyPI)": dominoes_block(),
        "OpenSpiel python_team_dominoes": openspiel_block(),
        "floor: bare loop (not an engine)": floor_block(),
    }
    results: dict[str, list[float]] = {"ours, compiled": [], "ours, pure Python": []}
    results.update({k: [] for k, g in peers.items() if g is not None})
    per_build: dict[str, list[dict[str, object]]] = {b: [] for b in BUILDS}
    for rep in range(args.repeats):  # interleaved, so machine noise hits everyone alike
        for build in BUILDS:
            data = run_worker(build, kind="rates", seconds=args.seconds, rep=rep)
            per_build[build].append(data)
            results["ours, compiled" if build == "compiled" else "ours, pure Python"].append(
                float(data["block"]))  # type: ignore[arg-type]
        for name, game in peers.items():
            if game is not None:
                results[name].append(rate(game, args.seconds, 1000 * rep))
    labels = {b: str(per_build[b][0]["build"]) for b in BUILDS}
    print(f"builds: compiled row = {labels['compiled']}; pure row = {labels['pure']}")
    print()
    compiled = statistics.median(results["ours, compiled"])
    print("4-player double-six block game, random play, complete games per CPU second")
    print(f"{'engine':34} {'median games/s':>15} {'min':>10} {'max':>10} {'compiled/it':>12}")
    for name, rates in results.items():
        med = statistics.median(rates)
        print(f"{name:34} {med:15,.0f} {min(rates):10,.0f} {max(rates):10,.0f} "
              f"{compiled / med:11.2f}x")
    for name, game in peers.items():
        if game is None:
            print(f"{name:34} not installed (pip install -e '.[bench]'; OpenSpiel: PyPI "
                  f"open_spiel, which has wheels for this Python 3.11)")
    pure = statistics.median(results["ours, pure Python"])
    floor = statistics.median(results["floor: bare loop (not an engine)"])
    print(f"pure Python / floor: {pure / floor:.0%} (goal ≥ 80%); compiled / pure: "
          f"{compiled / pure:.2f}x")
    print()
    print("Leonard rounds per CPU second (random play), median over repeats")
    print(f"{'players':>7} {'compiled':>10} {'pure':>10} {'compiled/pure':>14}")
    for players in (2, 4):
        c, p = (statistics.median(float(d[f"leonard{players}"])  # type: ignore[arg-type]
                                  for d in per_build[b]) for b in BUILDS)
        print(f"{players:7d} {c:10,.0f} {p:10,.0f} {c / p:13.2f}x")
    print()
    print(f"bots' CPU ms per move with a choice (seat 0 against greedy bots; search "
          f"{ROLLOUTS} rollouts a move, expert {EXPERT_ROLLOUTS})")
    print(f"{'bot, game':32} {'build':9} {'median':>7} {'p95':>7} {'max':>7} {'moves':>6}")
    rows = [("search2", "search, 2-player Leonard"), ("search4", "search, 4-player Leonard"),
            ("expert2", "expert, 2-player Leonard"),
            ("search_doble15", "search, 2-player Doble 15")]
    bots = {b: run_worker(b, kind="bots", seconds=args.seconds, rep=0, moves=args.moves)
            for b in BUILDS}
    for key, label in rows:
        for b in BUILDS:
            times = bots[b][key]
            assert isinstance(times, list)
            q = statistics.quantiles(times, n=20)
            print(f"{label:32} {b:9} {statistics.median(times):7.1f} {q[18]:7.1f} "
                  f"{max(times):7.1f} {len(times):6d}")
    if not args.variants:
        return
    print()
    print("every variant, random play, complete rounds per second (median over repeats)")
    print(f"{'variant':13} {'players':>7} {'build':9} {'playout':>10} {'apply()':>10} "
          f"{'playout/apply':>14}")
    table = {b: [run_worker(b, kind="variants", seconds=args.seconds, rep=r)
                 for r in range(args.repeats)] for b in BUILDS}
    for name, players in VARIANT_TABLE:
        for b in BUILDS:
            pairs = [d[f"{name}/{players}"] for d in table[b]]
            f = statistics.median(x[0] for x in pairs)  # type: ignore[index]
            sl = statistics.median(x[1] for x in pairs)  # type: ignore[index]
            print(f"{name:13} {players:7d} {b:9} {f:10,.0f} {sl:10,.0f} {f / sl:13.2f}x")


if __name__ == "__main__":
    main()
