"""Machine instructions per block game: our engine (both builds) against the bare loop, counted
by valgrind, which the machine's load does not change.

    apt-get install -y valgrind     # or your system's package
    python benchmarks/engine_instructions.py [--games 1000]

``engine_vs_peers.py`` measures CPU time, and on a shared machine one contender's rate drifts by
1.5x or more between 0.1-second turns, so its ratios carry an interquartile range of several
percent. This counts what a game costs in instructions instead, for the same games from the
same seeds: each contender runs in its own ``valgrind --tool=cachegrind`` process, once playing
``--games`` games and once playing none (the interpreter's start, the imports and one warm-up
game), and the difference divided by ``--games`` is its count per game. Hash randomisation is
fixed (``PYTHONHASHSEED=0``) so a count repeats exactly.

Instructions are not time: our engine's instructions run somewhat slower than the bare loop's
(more objects made and freed, more distinct code), so the time ratio in ``engine_vs_peers.py``
is lower than the instruction ratio here. Use this to compare two versions of the engine, and
the CPU-time benchmark for the goals.
"""

from __future__ import annotations

import argparse
import os
import random
import re
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

CONTENDERS = {
    "ours, compiled": ("ours", ""),
    "ours, pure Python": ("ours", "1"),
    "floor: bare loop (not an engine)": ("floor", "1"),
    "ours move by move, compiled": ("moves", ""),
    "ours move by move, pure Python": ("moves", "1"),
}
"""Name: (what the worker plays, the LEONARD_PURE value). "Move by move" plays the same
random games through ``legal_actions()`` and ``apply()`` with the event log kept, the way the
bots and the tutor play, rather than through the playout kernel."""


def moves_block() -> Callable[[int], None]:
    from engine import Round
    from engine.rules import BLOCK_VARIANT, HouseRules

    rules = HouseRules()

    def game(seed: int) -> None:
        rng = random.Random(seed)
        rnd = Round.deal(BLOCK_VARIANT, rules, 4, rng)
        while not rnd.over:
            rnd.apply(rng.choice(rnd.legal_actions()))
    return game


def play(which: str, games: int) -> None:
    """The worker: one warm-up game (tables, caches), then ``games`` games from seeds 1…."""
    import engine_vs_peers as peers

    game = {"ours": peers.ours_block, "floor": peers.floor_block,
            "moves": moves_block}[which]()
    game(0)
    for seed in range(1, games + 1):
        game(seed)


def instructions(which: str, pure: str, games: int) -> int:
    """Instructions valgrind counts for a worker process playing ``games`` games."""
    env = {**os.environ, "LEONARD_PURE": pure, "PYTHONHASHSEED": "0"}
    out = subprocess.run(
        ["valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null",
         sys.executable, __file__, "--worker", which, str(games)],
        env=env, capture_output=True, text=True, check=True)
    found = re.search(r"I\s+refs:\s+([\d,]+)", out.stderr)
    if found is None:
        raise RuntimeError(f"valgrind printed no instruction count:\n{out.stderr[-2000:]}")
    return int(found.group(1).replace(",", ""))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--worker", nargs=2, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.worker:
        sys.path.insert(0, str(Path(__file__).resolve().parent))
        play(args.worker[0], int(args.worker[1]))
        return
    if shutil.which("valgrind") is None:
        sys.exit("valgrind is not installed (apt-get install -y valgrind)")
    import engine

    if not engine.COMPILED:
        print("(no compiled install: the compiled row runs pure Python)")
    per_game = {}
    for name, (which, pure) in CONTENDERS.items():
        per_game[name] = (instructions(which, pure, args.games)
                          - instructions(which, pure, 0)) / args.games
    floor = per_game["floor: bare loop (not an engine)"]
    print(f"4-player double-six block game, random play: instructions per game "
          f"({args.games} games from the same seeds)")
    print(f"{'engine':34} {'instructions':>13} {'floor / it':>11}")
    for name, count in per_game.items():
        print(f"{name:34} {count:13,.0f} {floor / count:10.3f}")


if __name__ == "__main__":
    main()
