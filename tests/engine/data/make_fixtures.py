"""Regenerate the frozen game records the variant rule tests replay (run from the repo root):

    python tests/engine/data/make_fixtures.py

Each record is one round of random play from a seeded deal, chosen because it shows a rule
that needs a whole hand to reach (a domino, a block, a tie). The tests replay the record
(``engine.replay`` checks every turn) and score it again independently.
"""

from __future__ import annotations

import json
import random
import sys
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT))

from engine import HouseRules, Round, variant  # noqa: E402
from engine.match import round_record  # noqa: E402

HERE = Path(__file__).parent


def fits_both(rnd: Round) -> bool:
    """The last placed tile could have gone on either end (a capicúa situation)."""
    turn = rnd.turns[-1]
    if turn["play"] is None:
        return False
    tile = rnd.tileset.parse(turn["play"]["tile"])
    line = rnd.line_tiles()
    # the end the last tile did not go to is unchanged by it
    other = line[0].a if turn["play"]["end"] == "R" else line[-1].b
    return other in (tile.a, tile.b)


def find(name: str, game: str, players: int, want: Callable[[Round], bool],
         rules: HouseRules | None = None) -> None:
    rules = rules or HouseRules(rounds=1)
    for seed in range(200000):
        rng = random.Random(seed)
        rnd = Round.deal(variant(game), rules, players, rng)
        while not rnd.over:
            moves = rnd.legal_actions()
            rnd.apply(moves[int(rng.random() * len(moves))])
        if want(rnd):
            record = {"variant": game, "players": players, "seed": None,
                      "rules": rules.to_dict(), "rounds": [round_record(rnd)],
                      "note": f"random play from seed {seed} (tests/engine/data/make_fixtures.py)"}
            (HERE / f"{name}.json").write_text(json.dumps(record) + "\n", encoding="utf-8")
            print(name, seed, rnd.result)
            return
    raise SystemExit(f"no game found for {name}")


def opponents(rnd: Round, seat: int) -> int:
    totals = rnd.result.hand_totals if rnd.result else ()
    return sum(t for s, t in enumerate(totals) if s % 2 != seat % 2)


def main() -> None:
    find("traditional_domino", "traditional", 3,
         lambda r: r.result is not None and r.result.reason == "domino"
         and r.pile_count == 1 and len(set(r.result.hand_totals)) == 3)
    find("traditional_highest_tie", "traditional", 3,
         lambda r: r.result is not None and r.result.reason == "domino"
         and sorted(r.result.hand_totals)[1:] == [max(r.result.hand_totals)] * 2)
    find("traditional_block_tie", "traditional", 4,
         lambda r: r.result is not None and r.result.reason == "tranque"
         and sorted(r.result.hand_totals)[0] == sorted(r.result.hand_totals)[1])
    find("venezuela_domino", "venezuela", 4,
         lambda r: r.result is not None and r.result.reason == "domino"
         and r.result.hand_totals[(r.result.winner or 0) ^ 2] > 0)
    find("ponce_domino", "ponce", 4,
         lambda r: r.result is not None and r.result.reason == "domino"
         and sum(r.result.hand_totals) % 10 == 5 and fits_both(r))
    find("cuban_domino", "cuban", 4,
         lambda r: r.result is not None and r.result.reason == "domino"
         and r.result.hand_totals[(r.result.winner or 0) ^ 2] > 0)
    find("cuban_block_single", "cuban", 4,
         lambda r: r.result is not None and r.result.reason == "tranque"
         and r.result.winner is not None)
    find("doble15_blocked", "doble15", 2,
         lambda r: r.result is not None and r.result.reason == "tranque"
         and r.result.winner is not None)
    find("cuban_block_tie", "cuban", 4,
         lambda r: r.result is not None and r.result.reason == "tranque"
         and r.result.winner is None
         and len({s % 2 for s, t in enumerate(r.result.hand_totals)
                  if t == min(r.result.hand_totals)}) == 2)


if __name__ == "__main__":
    main()
