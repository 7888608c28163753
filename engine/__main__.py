"""Command line: ``python -m engine simulate …`` and ``python -m engine replay FILE``."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence

from .bots import BOTS, make_bot, play_match
from .game_file import RecordError, load_record, replay
from .match import Match
from .rules import VARIANTS, HouseRules, RulesError, variant
from .variants.cuban import ANNULLED_END


def _sheets(match: Match) -> str:
    from .sheet import ScoreSheet

    return "\n\n".join(ScoreSheet.from_round(r).to_text() for r in match.rounds)


def _results(match: Match) -> str:
    lines = []
    for r in match.rounds:
        res = r.result
        if res is None:
            continue
        who = "nobody" if res.winner is None else f"seat {res.winner}"
        if res.teams and res.team is not None:
            who = "pair " + " & ".join(str(s) for s in res.teams[res.team])
        extra = f" ({res.capicua})" if res.capicua else ""
        if res.points != res.count:
            extra += f" (count {res.count} → {res.points})"
        scores = " ".join(f"{s:+d}" for s in res.scores)
        if res.reason == ANNULLED_END:
            lines.append(f"round {r.number}: annulled (five doubles), redealt")
        else:
            lines.append(f"round {r.number}: {res.reason}{extra}, won by {who}; "
                         f"scores {scores}")
    lines.append("final: " + " ".join(f"seat {s}: {v}" for s, v in enumerate(match.scores)))
    if match.pairs:
        lines.append("pairs: " + " ".join(
            f"{' & '.join(map(str, seats))}: {v}"
            for seats, v in zip(match.teams, match.team_scores, strict=True)))
    return "\n".join(lines)


def simulate(args: argparse.Namespace) -> int:
    names = [n.strip() for n in args.bots.split(",") if n.strip()]
    if not names:
        raise RulesError("--bots needs at least one bot name")
    game = variant(args.variant)
    players = args.players
    if players is None:
        players = game.min_players  # 2, or 4 for the pair games
    bots = [make_bot(names[s % len(names)], None if args.seed is None else args.seed * 101 + s)
            for s in range(players)]
    match = Match(game, players, HouseRules(rounds=args.rounds, target=args.target),
                  args.seed)
    play_match(match, bots)
    if args.json:
        print(json.dumps(match.to_record(), ensure_ascii=False))
    elif args.sheet:
        print(_sheets(match))
    else:
        print(_results(match))
    return 0


def replay_cmd(args: argparse.Namespace) -> int:
    match = replay(load_record(args.file))
    print(f"{args.file}: every turn is legal")
    print(_results(match))
    return 0


def version() -> str:
    """The installed version and which build of the engine runs (compiled or pure)."""
    from importlib.metadata import PackageNotFoundError
    from importlib.metadata import version as installed

    from . import BUILD

    try:
        number = installed("leonard-domino-tutor")
    except PackageNotFoundError:
        number = "(not installed)"
    return f"engine {number}, {BUILD}"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m engine", description=__doc__)
    parser.add_argument("--version", action="version", version=version(),
                        help="print the version and the build (compiled or pure Python)")
    sub = parser.add_subparsers(dest="command", required=True)
    sim = sub.add_parser("simulate", help="play a match between bots")
    sim.add_argument("--variant", default="leonard", choices=list(VARIANTS),
                     help="the game (docs/rules.md §1, §3)")
    sim.add_argument("--players", type=int, default=None,
                     help="players (default: the fewest the game allows: 2, or 4 for the "
                          "pair games)")
    sim.add_argument("--rounds", type=int, default=HouseRules().rounds,
                     help="rounds of a Leonard, block or Doble 15 match (D-10)")
    sim.add_argument("--target", type=int, default=0,
                     help="points that win a traditional, Venezuela, Ponce or Cuban match "
                          "(default: the game's own, 100/100/20/200)")
    sim.add_argument("--seed", type=int, default=None)
    sim.add_argument("--bots", default="search,greedy",
                     help=f"comma-separated, one per seat, repeated as needed: {', '.join(BOTS)}")
    out = sim.add_mutually_exclusive_group()
    out.add_argument("--json", action="store_true", help="print the JSON game record")
    out.add_argument("--sheet", action="store_true", help="print the score sheets")
    sim.set_defaults(func=simulate)
    rep = sub.add_parser("replay", help="replay a JSON game record and check every turn")
    rep.add_argument("file")
    rep.set_defaults(func=replay_cmd)
    args = parser.parse_args(argv)
    try:
        return int(args.func(args))
    except (RecordError, RulesError, ValueError) as e:
        print(f"{parser.prog} {args.command}: error: {e}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # output piped into e.g. head, which stopped reading
        sys.stderr.close()
        return 0


if __name__ == "__main__":
    sys.exit(main())
