"""Replaying JSON game records: every turn checked against the rules, results compared."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from .events import Drew
from .match import Match
from .round import DRAW, PASS, DealError, IllegalMoveError, Play
from .rules import HouseRules, RulesError
from .tiles import TileError


class RecordError(ValueError):
    """A game record that is malformed or does not replay: the message names where and why."""


def load_record(path: str | Path) -> dict[str, Any]:
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as e:
        raise RecordError(f"cannot read {path}: {e.strerror or e}") from None
    except UnicodeDecodeError:
        raise RecordError(f"{path} is not a text (UTF-8) file") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise RecordError(f"{path} is not valid JSON: {e.msg} at line {e.lineno}") from None
    if not isinstance(data, dict):
        raise RecordError(f"{path}: a game record is a JSON object, not {type(data).__name__}")
    return data


def _need(obj: dict[str, Any], key: str, kind: type | tuple[type, ...], where: str) -> Any:
    if key not in obj:
        raise RecordError(f"{where}: missing \"{key}\"")
    value = obj[key]
    if not isinstance(value, kind) or isinstance(value, bool) and kind is int:
        raise RecordError(f"{where}: \"{key}\" has the wrong type ({type(value).__name__})")
    return value


def replay(record: dict[str, Any]) -> Match:
    """Play a record again. Raises :class:`RecordError` naming the first turn that is illegal
    or the first result that differs from what the record says."""
    if not isinstance(record, dict):
        raise RecordError("a game record is a JSON object")
    variant = _need(record, "variant", str, "record")
    players = _need(record, "players", int, "record")
    rounds = _need(record, "rounds", list, "record")
    seed = record.get("seed")
    try:
        rules = HouseRules.from_dict(_need(record, "rules", dict, "record"))
    except (RulesError, TypeError) as e:
        raise RecordError(f"record: rules: {e}") from None
    if not rounds:
        raise RecordError("record: \"rounds\" is empty")
    deals = []
    for i, rd in enumerate(rounds, 1):
        if not isinstance(rd, dict):
            raise RecordError(f"round {i}: not a JSON object")
        deals.append({
            "hands": _need(rd, "hands", list, f"round {i}"),
            "pile": rd.get("pile") or [],
            "table": rd.get("table"),
            "starter": _need(rd, "starter", int, f"round {i}"),
        })
    try:
        match = Match(variant, players, rules, seed, deals=deals)
    except (DealError, RulesError, TileError) as e:
        raise RecordError(f"round 1: {e}") from None
    if not match.target and len(rounds) > rules.rounds:
        raise RecordError(f"record: {len(rounds)} rounds, but its rules play {rules.rounds}")
    for i, rd in enumerate(rounds, 1):
        if i > 1:
            if match.over:
                raise RecordError(f"round {i}: the match was already over after round {i - 1}")
            try:
                match.start_round()
            except (DealError, TileError) as e:
                raise RecordError(f"round {i}: {e}") from None
        _replay_round(match, rd, i)
    want = record.get("scores")
    if want is not None and list(want) != match.scores:
        raise RecordError(f"final scores: the record says {want}, the replay gives "
                          f"{match.scores}")
    return match


def _draws(forced: list[dict[str, Any]]) -> str:
    return ", ".join(f"seat {f.get('player')} ({f.get('tile')})" for f in forced) or "nobody"


def _replay_round(match: Match, rd: dict[str, Any], i: int) -> None:
    rnd = match.current
    turns = _need(rd, "turns", list, f"round {i}")
    for k, turn in enumerate(turns, 1):
        where = f"round {i}, turn {k}"
        if not isinstance(turn, dict):
            raise RecordError(f"{where}: not a JSON object")
        seat = _need(turn, "player", int, where)
        where += f" (seat {seat})"
        try:
            for text in turn.get("drew") or []:
                match.apply(DRAW, seat)
                got = rnd.log[-1]
                drawn = getattr(got, "tile", None)
                if drawn is None or drawn != rnd.tileset.parse(text):
                    raise RecordError(f"{where}: the record says {text} was drawn, but the "
                                      f"pile gives {drawn}")
            play = turn.get("play")
            extra = rnd.recorded_extra(turn)  # the game's own move (Cuban's redeal)
            if extra is not None:
                match.apply(extra, seat)
            elif play is None:
                match.apply(PASS, seat)
            else:
                if not isinstance(play, dict) or "tile" not in play:
                    raise RecordError(f"{where}: \"play\" must be {{\"tile\": …, \"end\": …}} "
                                      f"or null")
                tile = rnd.tileset.parse(play["tile"])
                end = play.get("end")
                names = rnd.end_names
                if end is not None and end not in names:
                    quoted = ", ".join(f'"{n}"' for n in names)
                    raise RecordError(f"{where}: end must be {quoted} or null, not {end!r}")
                before = len(rnd.log)
                match.apply(Play(tile, end), seat)
                forced = [{"player": e.seat, "tile": str(e.tile)} for e in rnd.log[before:]
                          if isinstance(e, Drew) and e.forced]
                want = turn.get("forced")
                if want is not None and [{"player": f.get("player"), "tile": str(
                        rnd.tileset.parse(f.get("tile", "")))} for f in want] != forced:
                    raise RecordError(f"{where}: the record says the play made "
                                      f"{_draws(want)} draw, the replay gives {_draws(forced)}")
        except (IllegalMoveError, TileError) as e:
            raise RecordError(f"{where}: {e}") from None
    if not rnd.over:
        raise RecordError(f"round {i}: the turns stop before the round is over "
                          f"(seat {rnd.turn} is to move)")
    assert rnd.result is not None
    checks = [("end", rnd.result.reason), ("winner", rnd.result.winner),
              ("gains", list(rnd.gains)), ("losses", list(rnd.losses))]
    for key, value in checks:
        if key in rd and rd[key] != value:
            raise RecordError(f"round {i}: the record says {key} {rd[key]!r}, the replay gives "
                              f"{value!r}")
