"""Random-play speed of our engine, in both its builds, against the PyPI domino engines, side by
side in one run.

    pip install -e ".[bench]"
    python benchmarks/engine_vs_peers.py [--seconds 1] [--repeats 3] [--variants]

Our engine runs twice, in worker processes: the compiled build (mypyc; the install compiled
it) and the pure-Python build (the same modules with the compiled ones hidden by
``LEONARD_PURE=1``). Without a compiled install both rows are pure, and the table says so.

Each contender plays complete random-play games of the 4-player double-six block game
(7 tiles each, no pile) from fixed seeds for ``--seconds`` of CPU time per repeat (CPU time,
not the wall clock: see ``CLOCK``). Each build's worker plays the peers too, in turns of
``SLICE`` seconds (ours, then each peer, the order rotating), so a ratio compares two rates
measured within a fraction of a second of each other in the same process: one contender's rate
drifts by 1.5x or more on a shared machine, and ratios of rates measured seconds apart in
different processes swung from 6x to 11x between runs. The table gives the median games/s over
every turn and, for a ratio, the median over the turns of each turn's ratio, with its
interquartile range. Then, per build: Leonard rounds per second (2 and 4 players, random play)
and the search and expert bots' time per move.

With ``--variants``, last, rounds per second of every variant (docs/rules.md §3) in each build,
random play, two ways side by side: ``Round.playout`` (the bots' rollouts: the inline kernel
for two-ended lines; Doble 15's hub has no inline kernel and plays through the same
_place/_draw/_pass as apply) and a plain ``legal_actions()`` + ``apply()`` loop without an event
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
    """The same random play through legal_actions() and apply() (no event log)."""
    variant = VARIANTS[name]

    def game(seed: int) -> None:
        rng = random.Random(seed)
        rnd = Round.deal(variant, RULES, players, rng, record=False)
        while not rnd.over:
            moves = rnd.legal_actions()
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


SLICE = 0.1
"""CPU seconds of one contender's turn in the paired block-game measurement."""


def games_for(game: Callable[[int], None], seconds: float, seed0: int) -> tuple[int, float]:
    """Complete games from seeds seed0, seed0+1… for about ``seconds`` of CPU time: (games,
    CPU seconds)."""
    n = 0
    start = CLOCK()
    while True:
        for k in range(BATCH):
            game(seed0 + n + k)
        n += BATCH
        elapsed = CLOCK() - start
        if elapsed >= seconds:
            return n, elapsed


def rate(game: Callable[[int], None], seconds: float, seed0: int) -> float:
    """Games per CPU second over about ``seconds`` of complete games."""
    n, elapsed = games_for(game, seconds, seed0)
    return n / elapsed


def paired_rates(games: dict[str, Callable[[int], None]], seconds: float,
                 seed0: int) -> dict[str, list[float]]:
    """Games per CPU second of each contender in turns of ``SLICE`` seconds, about
    ``seconds`` each in all: round after round, every contender once, the order rotating.
    Item i of each list comes from round i, so the lists' item-by-item ratios are paired."""
    names = list(games)
    out: dict[str, list[float]] = {k: [] for k in names}
    seeds = dict.fromkeys(names, seed0)
    for r in range(max(1, round(seconds / SLICE))):
        for name in names[r % len(names):] + names[:r % len(names)]:
            n, elapsed = games_for(games[name], SLICE, seeds[name])
            seeds[name] += n
            out[name].append(n / elapsed)
    return out


def block_contenders() -> dict[str, Callable[[int], None]]:
    """Our block game (the build this process runs) and every installed peer."""
    peers: dict[str, Callable[[int], None] | None] = {
        "dominoes 6.1.0 (PyPI)": dominoes_block(),
        "OpenSpiel python_team_dominoes": openspiel_block(),
        "floor: bare loop (not an engine)": floor_block(),
    }
    return {"ours": ours_block()} | {k: g for k, g in peers.items() if g is not None}


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
        out["block"] = paired_rates(block_contenders(), seconds, 1000 * rep)
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
    per_build: dict[str, list[dict[str, object]]] = {b: [] for b in BUILDS}
    for rep in range(args.repeats):  # interleaved, so machine noise hits everyone alike
        for build in BUILDS:
            per_build[build].append(run_worker(build, kind="rates", seconds=args.seconds,
                                               rep=rep))
    labels = {b: str(per_build[b][0]["build"]) for b in BUILDS}
    print(f"builds: compiled row = {labels['compiled']}; pure row = {labels['pure']}")
    print()
    # every turn's rate, by build and contender ("ours" is the build's own engine)
    turns: dict[str, dict[str, list[float]]] = {b: {} for b in BUILDS}
    for b in BUILDS:
        for d in per_build[b]:
            block = d["block"]
            assert isinstance(block, dict)
            for name, rates in block.items():
                turns[b].setdefault(name, []).extend(rates)
    block_rows = {"ours, compiled": turns["compiled"]["ours"],
                  "ours, pure Python": turns["pure"]["ours"]}
    block_rows |= {name: turns["compiled"][name] + turns["pure"][name]
                   for name in turns["compiled"] if name != "ours"}

    def paired(build: str, peer: str) -> tuple[float, float, float]:
        """Median and quartiles of ``build``'s rate over ``peer``'s, turn by turn."""
        q = [a / b for a, b in zip(turns[build]["ours"], turns[build][peer], strict=True)]
        lo, _, hi = statistics.quantiles(q, n=4)
        return statistics.median(q), lo, hi

    compiled = statistics.median(block_rows["ours, compiled"])
    pure = statistics.median(block_rows["ours, pure Python"])
    print(f"4-player double-six block game, random play, complete games per CPU second "
          f"({len(block_rows['ours, compiled'])} turns of {SLICE} s per build and contender)")
    print(f"{'engine':34} {'median games/s':>15} {'min':>10} {'max':>10} "
          f"{'compiled/it (paired; IQR)':>27}")
    for name, rates in block_rows.items():
        if name == "ours, compiled":
            ratio = "1.00x"
        elif name == "ours, pure Python":
            ratio = f"{compiled / pure:.2f}x (of medians)"
        else:
            r, lo, hi = paired("compiled", name)
            ratio = f"{r:.2f}x ({lo:.2f}-{hi:.2f})"
        print(f"{name:34} {statistics.median(rates):15,.0f} {min(rates):10,.0f} "
              f"{max(rates):10,.0f} {ratio:>27}")
    for name in ("dominoes 6.1.0 (PyPI)", "OpenSpiel python_team_dominoes"):
        if name not in block_rows:
            print(f"{name:34} not installed (pip install -e '.[bench]'; OpenSpiel: PyPI "
                  f"open_spiel, which has wheels for this Python 3.11)")
    r, lo, hi = paired("pure", "floor: bare loop (not an engine)")
    print(f"pure Python / floor: {r:.0%} (IQR {lo:.0%}-{hi:.0%}; goal ≥ 80%), paired in the "
          f"pure build's worker")
    if "dominoes 6.1.0 (PyPI)" in block_rows:
        r, lo, hi = paired("compiled", "dominoes 6.1.0 (PyPI)")
        print(f"compiled / dominoes: {r:.2f}x (IQR {lo:.2f}-{hi:.2f}; goal ≥ 10x), paired in "
              f"the compiled build's worker")
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
