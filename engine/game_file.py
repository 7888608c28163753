"""Replaying JSON game records: every turn checked against the rules, results compared."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from .deal import Deal
from .events import Drew, Event
from .match import Match
from .round import DRAW, PASS, DealError, IllegalMoveError, Play, Round
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


Watch = Callable[[Round, list[Event], list[int]], None]
"""Called after each move a replay makes: the round (its ``number`` and ``placements`` as
they are after the move), the move's events, and the match's scores before it."""


def replay(record: dict[str, Any], *, partial: bool = False,
           dealt: Sequence[Deal | Mapping[str, Any]] | None = None,
           watch: Watch | None = None) -> Match:
    """Play a record again. Raises :class:`RecordError` naming the first turn that is illegal
    or the first result that differs from what the record says.

    ``partial``: the record of a match still being played: its last round may stop at any
    turn, and the final scores are not compared. ``dealt``: deal from the record's seed, with
    these prepared deals first (an empty list: none), as the match that made the record was
    dealt, and check that every round's hands, pile, table tile and starter in the record
    are those (a record without a seed: the prepared rounds are checked, the others played
    as the record gives them); None: the record's own deals are played as they are.
    ``watch``: see :data:`Watch`. :class:`Replay` replays a record that grows."""
    return Replay(record, partial=partial, dealt=dealt, watch=watch).match


class Replay:
    """A record replayed, then replayed further as it grows: a page sends its match's record
    again with each answer, and :meth:`extend` plays only the turns added since (checking
    that the record still holds the turns already played, and the same deals). Arguments as
    :func:`replay`'s; ``match`` is the match as the record leaves it."""

    def __init__(self, record: dict[str, Any], *, partial: bool = False,
                 dealt: Sequence[Deal | Mapping[str, Any]] | None = None,
                 watch: Watch | None = None) -> None:
        if not isinstance(record, dict):
            raise RecordError("a game record is a JSON object")
        variant = _need(record, "variant", str, "record")
        players = _need(record, "players", int, "record")
        self.seed = record.get("seed")
        try:
            rules = HouseRules.from_dict(_need(record, "rules", dict, "record"))
        except (RulesError, TypeError) as e:
            raise RecordError(f"record: rules: {e}") from None
        deals = _deals(record)
        self.head = (variant, players, self.seed, rules)
        self.dealt = None if dealt is None else list(dealt)
        self.watch = watch
        self.deals: list[dict[str, Any]] = []
        """The record's deals of the rounds begun."""
        self.turns: list[list[Any]] = []
        """The turns played, by round."""
        own = [*(self.dealt or []), *deals[:1]] if self._as_given(1) else self.dealt
        try:
            self.match = Match(variant, players, rules, self.seed, deals=own)
        except (DealError, RulesError, TileError) as e:
            raise RecordError(f"round 1: {e}") from None
        self.extend(record, partial=partial)

    def _as_given(self, i: int) -> bool:
        """Round ``i`` is played from the record's own deal (none is dealt to check it
        against): no ``dealt``, or no seed and past the prepared deals."""
        return self.dealt is None or not isinstance(self.seed, int) and i > len(self.dealt)

    def extend(self, record: dict[str, Any], *, partial: bool = False) -> Match:
        """Play the turns ``record`` (the same match's, grown) adds."""
        if not isinstance(record, dict):
            raise RecordError("a game record is a JSON object")
        variant, players, seed, rules = self.head
        try:
            given = HouseRules.from_dict(_need(record, "rules", dict, "record"))
        except (RulesError, TypeError) as e:
            raise RecordError(f"record: rules: {e}") from None
        for what, was, now in (("game", variant, _need(record, "variant", str, "record")),
                               ("players", players, _need(record, "players", int, "record")),
                               ("seed", seed, record.get("seed")),
                               ("rules", rules.to_dict(), given.to_dict())):
            if now != was:
                raise RecordError(f"record: not the match replayed before (its {what} is "
                                  f"{now!r}, not {was!r})")
        deals, rounds = _deals(record), record["rounds"]
        match = self.match
        if not match.target and len(rounds) > rules.rounds:
            raise RecordError(f"record: {len(rounds)} rounds, but its rules play {rules.rounds}")
        if len(rounds) < len(self.turns):
            raise RecordError(f"record: {len(rounds)} rounds, but it had {len(self.turns)}")
        for i, rd in enumerate(rounds, 1):
            turns = _need(rd, "turns", list, f"round {i}")
            if i <= len(self.turns):  # begun before: the same deal, and its turns kept
                played = self.turns[i - 1]
                if deals[i - 1] != self.deals[i - 1] or turns[:len(played)] != played:
                    raise RecordError(f"round {i}: the record no longer holds the deal and "
                                      f"turns it had")
                if len(turns) == len(played) and match.rounds[i - 1].over:
                    continue
            else:
                if i > 1:
                    if match.over:
                        raise RecordError(f"round {i}: the match was already over after "
                                          f"round {i - 1}")
                    if self._as_given(i):
                        match.deals.append(deals[i - 1])
                    try:
                        match.start_round()
                    except (DealError, TileError) as e:
                        raise RecordError(f"round {i}: {e}") from None
                if not self._as_given(i):
                    _same_deal(match.current, deals[i - 1], i, seed)
                self.deals.append(deals[i - 1])
                self.turns.append([])
            played = self.turns[i - 1]
            _replay_round(match, rd, i, partial and i == len(rounds), self.watch,
                          start=len(played))
            played += turns[len(played):]
        want = record.get("scores")
        if not partial and want is not None and list(want) != match.scores:
            raise RecordError(f"final scores: the record says {want}, the replay gives "
                              f"{match.scores}")
        return match


def _deals(record: dict[str, Any]) -> list[dict[str, Any]]:
    """Each round's deal as a record gives it."""
    rounds = _need(record, "rounds", list, "record")
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
    return deals


def _draws(forced: list[dict[str, Any]]) -> str:
    return ", ".join(f"seat {f.get('player')} ({f.get('tile')})" for f in forced) or "nobody"


def _same_deal(rnd: Round, given: dict[str, Any], i: int, seed: int | None) -> None:
    """The record's deal of round ``i`` is the one ``rnd`` was dealt (from ``seed``, or the
    prepared deal)."""
    own = rnd.dealt()
    try:
        hands = [[rnd.tileset.parse(t) for t in h] for h in given["hands"]]
        pile = [rnd.tileset.parse(t) for t in given["pile"]]
        table = None if given["table"] is None else rnd.tileset.parse(given["table"])
    except (TileError, TypeError, AttributeError) as e:
        raise RecordError(f"round {i}: {e}") from None
    theirs = ([sorted(h, key=str) for h in hands], pile, table, given["starter"])
    mine = ([sorted(map(rnd.tileset.parse, h), key=str) for h in own.hands],
            [rnd.tileset.parse(t) for t in own.pile],
            None if own.table is None else rnd.tileset.parse(own.table), own.starter)
    if theirs != mine:
        dealer = "the prepared deal" if seed is None else f"the one seed {seed} deals"
        raise RecordError(f"round {i}: the record's deal is not {dealer}")


def _replay_round(match: Match, rd: dict[str, Any], i: int, partial: bool = False,
                  watch: Watch | None = None, start: int = 0) -> None:
    """Play round ``i``'s turns from its turn ``start`` (0: the first) and check its end
    (``partial``: it may stop before it)."""
    rnd = match.current
    turns = _need(rd, "turns", list, f"round {i}")

    def apply(action: Any, seat: int) -> list[Event]:
        before = list(match.scores)
        events = match.apply(action, seat)
        if watch is not None:
            watch(rnd, events, before)
        return events

    for k, turn in enumerate(turns[start:], start + 1):
        where = f"round {i}, turn {k}"
        if not isinstance(turn, dict):
            raise RecordError(f"{where}: not a JSON object")
        seat = _need(turn, "player", int, where)
        where += f" (seat {seat})"
        try:
            for text in turn.get("drew") or []:
                apply(DRAW, seat)
                got = rnd.log[-1]
                drawn = getattr(got, "tile", None)
                if drawn is None or drawn != rnd.tileset.parse(text):
                    raise RecordError(f"{where}: the record says {text} was drawn, but the "
                                      f"pile gives {drawn}")
            play = turn.get("play")
            extra = rnd.recorded_extra(turn)  # the game's own move (Cuban's redeal)
            if extra is not None:
                apply(extra, seat)
            elif play is None:
                apply(PASS, seat)
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
                apply(Play(tile, end), seat)
                forced = [{"player": e.seat, "tile": str(e.tile)} for e in rnd.log[before:]
                          if isinstance(e, Drew) and e.forced]
                want = turn.get("forced")
                if want is not None and [{"player": f.get("player"), "tile": str(
                        rnd.tileset.parse(f.get("tile", "")))} for f in want] != forced:
                    raise RecordError(f"{where}: the record says the play made "
                                      f"{_draws(want)} draw, the replay gives {_draws(forced)}")
        except (IllegalMoveError, TileError) as e:
            raise RecordError(f"{where}: {e}") from None
    if partial and not rnd.over:
        return
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
