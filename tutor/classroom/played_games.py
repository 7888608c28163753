"""The game a page played, replayed: its answers must be about that game (issue 51 part 2).

A page on a class's store sends the record of the match (:meth:`engine.match.Match.to_record`)
with each answer about one of its moves. A question about a move is named after it
(:func:`tutor.storage.records.move_of`): ``m{match}r{round}t{placements}-…``, the tile placed
then (``m1r2t5-6/x``), or how the round ended (``m1r2t27-domino``, ``m1r2t27-round``).
The store service replays the record (:func:`engine.game_file.replay`): from the deal its seed
gives, with the lesson's prepared or searched deals (:meth:`tutor.course.lessons.Lesson.deals_for`)
as the page was dealt, every move checked against the rules; and the seed must be of a deal
the store recorded for the student in that lesson (:meth:`tutor.storage.store.Store.record_deal`).
Then each answer about a move must be about that move: the tile is the one placed, T is the
other end's total, the gain, the loss and the score are the engine's, a round's count is
the count of that round's end.

Drills between rounds and "suppose that" practice are not moves of the game (``m1r1-drill…``):
the rest of :func:`tutor.classroom.hand_in.replay_misfits` checks them. A file handed in
carries no game record, so this check is the service's alone.
"""

from __future__ import annotations

import threading
from collections import OrderedDict, defaultdict
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache

from engine.events import Event, PowerEffect, RoundEnded
from engine.game_file import RecordError, Replay
from engine.round import Round
from engine.rules import HouseRules, RulesError
from engine.tiles import TileError
from tutor.course.deals import deal_head
from tutor.course.lessons import LessonError, load_lesson
from tutor.i18n import N_, Message
from tutor.storage.names import name_key
from tutor.storage.records import Attempt, move_of
from tutor.teaching.evidence import parse_step

__all__ = ["SentGames", "game_misfits"]

_Deals = list[dict[str, object]] | None


@dataclass(frozen=True)
class SentGames:
    """What a page sent besides its answers: each match's record by (session, match number),
    and the deals the store recorded for the student, as (lesson, deal key)."""

    records: Mapping[tuple[str, int], Mapping[str, object]] = field(default_factory=dict)
    deals: Collection[tuple[str, str]] = ()


@lru_cache(maxsize=256)
def _lesson_deals(lesson_id: str, seed: int | None) -> tuple[tuple[object, ...], _Deals] | None:
    """The game lesson ``lesson_id`` deals (variant, players, rules) and the deals it gives
    with ``seed`` (without one: its prepared deals only); None: no such lesson here."""
    try:
        lesson = load_lesson(lesson_id)
    except LessonError:
        return None
    deals = lesson.deals_for(seed) if seed is not None else (
        [dict(d) for d in lesson.deals] if lesson.deals else None)
    return (lesson.variant, lesson.players, repr(lesson.rules.to_dict())), deals


_Moves = dict[tuple[int, int], list[tuple[Event, list[int]]]]


class _Played:
    """A match replayed (:class:`engine.game_file.Replay`) and each of its moves' events
    (with the scores before the move) by (round, placements), as the replay plays them."""

    def __init__(self, record: Mapping[str, object], dealt: list[dict[str, object]]) -> None:
        self.moves: _Moves = defaultdict(list)
        self.replay = Replay(dict(record), partial=True, dealt=dealt, watch=self._watch)

    def _watch(self, rnd: Round, events: list[Event], before: list[int]) -> None:
        self.moves[(rnd.number, rnd.placements)] += [(e, before) for e in events]


_REPLAYS: OrderedDict[tuple[str, str, int], _Played] = OrderedDict()
"""The matches replayed last, by student, session and match number: a page sends its match's
record again with each answer, and only the turns added since are played (the store
service's check of an answer costs a move or two, not the whole match)."""
_KEPT = 256
"""How many matches :data:`_REPLAYS` keeps (the least recently checked go first): a class of
30, each with a few matches open, and more."""
_REPLAYS_LOCK = threading.Lock()


def _played(key: tuple[str, str, int], record: Mapping[str, object],
            lesson_id: str) -> _Moves | RecordError:
    """:func:`_replayed`, going on from the same match's replay when it is kept: the record
    must hold what was played before (else it is replayed whole, and judged so)."""
    with _REPLAYS_LOCK:  # one check at a time goes on from a kept replay
        kept = _REPLAYS.pop(key, None)
        if kept is not None:
            try:
                kept.replay.extend(dict(record), partial=True)
            except (RecordError, RulesError, TileError, ValueError, TypeError, KeyError):
                kept = None  # changed: replayed from its start below, which says what is wrong
        if kept is None:
            found = _replayed(record, lesson_id)
            if isinstance(found, RecordError):
                return found
            kept = found
        _REPLAYS[key] = kept
        while len(_REPLAYS) > _KEPT:
            _REPLAYS.popitem(last=False)
        return kept.moves


def _replayed(record: Mapping[str, object], lesson_id: str) -> _Played | RecordError:
    """``record`` replayed, dealt as a page of lesson ``lesson_id`` deals it: from its seed,
    with the lesson's deals when the record plays the lesson's game, or from the seed alone
    (a game changed in Game setup); the first that replays. A record without a seed (a
    lesson's prepared deals) must show those deals."""
    seed = record.get("seed")
    if isinstance(seed, bool) or not isinstance(seed, int | None):
        return RecordError("its seed is not a number")
    lesson = _lesson_deals(lesson_id, seed)
    candidates: list[list[dict[str, object]]] = [] if seed is None else [[]]
    if lesson is not None and lesson[1] is not None:
        given = record.get("rules")
        try:
            rules = repr(HouseRules.from_dict(dict(given) if isinstance(given, dict) else {}
                                              ).to_dict())
        except (RulesError, TypeError):
            rules = ""
        if lesson[0] == (record.get("variant"), record.get("players"), rules):
            candidates.insert(0, lesson[1])
    failed = RecordError("the record has no seed, and its lesson prepares no deal")
    for dealt in candidates:
        try:
            return _Played(record, dealt)
        except (RecordError, RulesError, TileError, ValueError, TypeError, KeyError) as e:
            failed = e if isinstance(e, RecordError) else RecordError(str(e))
    return failed


def _deal_recorded(record: Mapping[str, object], lesson: str,
                   deals: Collection[tuple[str, str]]) -> bool:
    """The store recorded the deal of ``record`` (its game, players and seed: the start of
    :func:`tutor.session.settings.deal_key`) for the student in ``lesson``."""
    head = deal_head(record.get("variant"), record.get("players"), record.get("seed"))
    return any(lesson == lesson_id and key.startswith(head) for lesson_id, key in deals)


def _move_misfit(a: Attempt, what: str, moves: list[tuple[Event, list[int]]]
                 ) -> Message | None:
    """What is wrong with answer ``a`` about a move whose events are ``moves`` (None:
    nothing); ``what``: the tile played or how the round ended, from its problem."""
    kind = parse_step(a.step)[0]
    expected = a.expected
    if kind in ("collect", "tens", "total"):
        ends = [e for e, _ in moves if isinstance(e, RoundEnded)]
        if not ends:
            return Message(N_("its question is about the end of a round, but the round of its "
                              "game did not end there"))
        end = ends[0]
        right: set[int] = ({end.count} if kind == "collect" else {end.points}
                           if kind == "tens" else set(end.scores))
        if expected is not None and expected not in right:
            return Message(N_("its question's answer is {expected}, but the round of its game "
                              "gives {right}"), expected=expected,
                           right=", ".join(map(str, sorted(right))))
        return None
    plays = [(e, before) for e, before in moves
             if isinstance(e, PowerEffect) and _same_tile(e, what)]
    if not plays:
        placed = [str(e.tile) for e, _ in moves if isinstance(e, PowerEffect)]
        return Message(N_("its question is about {tile}, but its game played {placed} there"),
                       tile=what, placed=", ".join(placed) or Message(N_("no power tile")))
    ev, before = plays[0]
    allowed: dict[str, set[int | None]] = {
        "T": {ev.t}, "gain": {ev.gain}, "loss": {ev.loss, -ev.loss},
        "score": {before[ev.target] - ev.loss}}
    values = allowed.get(kind)
    if values is not None and expected is not None and expected not in values:
        return Message(N_("its question's answer is {expected}, but {tile} played in its game "
                          "gives {right}"), expected=expected, tile=what,
                       right=", ".join(str(v) for v in sorted(values, key=lambda v: v or 0)))
    return None


def _same_tile(ev: PowerEffect, what: str) -> bool:
    halves = what.split("/")
    return len(halves) == 2 and {str(ev.tile.a), str(ev.tile.b)} == set(halves)


def game_misfits(rows: Sequence[tuple[int, Attempt]], sent: SentGames,
                 note: Callable[[int, Message], None]) -> None:
    """Note each of ``rows`` (line, answer) about a move that is not about the game its page
    sent (:class:`SentGames`): no record came with it, the record does not replay from its
    seed, its deal was not recorded, or the answer is not about the move it names."""
    replays: dict[tuple[str, int], _Moves | RecordError] = {}
    for line, a in rows:
        found = move_of(a.problem)
        if found is None:
            continue
        match, rnd, placed, what = found
        record = sent.records.get((a.session, match))
        if record is None:
            note(line, Message(N_("it is about a move of match {match} of its game, but the "
                                  "record of that game did not come with it"), match=match))
            continue
        if not _deal_recorded(record, a.lesson, sent.deals):
            note(line, Message(N_("its game (seed {seed}) is not a deal the class's store "
                                  "recorded for this student in lesson {lesson}"),
                               seed=record.get("seed"), lesson=a.lesson))
            continue
        if (a.session, match) not in replays:
            replays[(a.session, match)] = _played((name_key(a.student), a.session, match),
                                                  record, a.lesson)
        moves = replays[(a.session, match)]
        if isinstance(moves, RecordError):
            note(line, Message(N_("its game does not replay: {error}"), error=str(moves)))
            continue
        events = moves.get((rnd, placed))
        if not events:
            note(line, Message(N_("round {round} of its game has no move after which {n} "
                                  "tiles were placed"), round=rnd, n=placed))
            continue
        problem = _move_misfit(a, what, events)
        if problem is not None:
            note(line, problem)
