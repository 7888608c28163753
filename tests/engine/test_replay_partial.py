"""Replaying a match still being played, dealt from its seed (issue 51 part 2: the class's
store service replays the game a page sends with each answer about one of its moves).

A partial record replays its moves so far; ``dealt`` deals the game again from the record's
seed (and the prepared deals the match was given) and refuses a record whose deal is not
that; ``watch`` sees each move's events with the round's placements after it, as the page's
session names its questions (``m1r2t5-…``)."""

from __future__ import annotations

import copy
import json

import pytest

from engine import HouseRules, Match, RecordError, replay
from engine.bots import make_bot
from engine.events import Event, Placed, PowerEffect
from engine.game_file import Replay
from engine.round import Round
from engine.view import view_of


def _played(variant: str, players: int, seed: int, moves: int) -> Match:
    """``moves`` moves of a seeded match by greedy bots (the round may stay open)."""
    match = Match(variant, players, HouseRules(), seed)
    bots = [make_bot("greedy", seed + seat) for seat in range(players)]
    for _ in range(moves):
        rnd = match.current
        if rnd.over:
            if match.over:
                break
            match.start_round()
            continue
        match.apply(bots[rnd.turn].choose(view_of(rnd, rnd.turn)), rnd.turn)
    return match


@pytest.mark.parametrize("variant,players", [("leonard", 2), ("leonard", 4), ("ponce", 4),
                                             ("doble15", 3)])
def test_a_match_being_played_replays_from_its_seed(variant: str, players: int) -> None:
    match = _played(variant, players, 11, 60)
    record = json.loads(json.dumps(match.to_record()))  # as a page sends it
    seen: list[tuple[int, int, list[Event]]] = []

    def watch(rnd: Round, events: list[Event], before: list[int]) -> None:
        seen.append((rnd.number, rnd.placements, events))

    again = replay(record, partial=True, dealt=[], watch=watch)
    assert again.scores == match.scores
    replayed = [e for r in again.rounds for e in r.log]
    played = [e for r in match.rounds for e in r.log]
    # a turn not finished (tiles drawn, nothing played yet) is not in the record yet
    assert replayed == played[:len(replayed)]
    assert not any(isinstance(e, Placed) for e in played[len(replayed):])
    placed = [(n, p) for n, p, events in seen if any(isinstance(e, Placed) for e in events)]
    assert placed == sorted(set(placed))  # one placement more after each tile placed
    if not match.current.over:
        with pytest.raises(RecordError, match="stop before the round is over"):
            replay(record)


def test_each_power_play_is_seen_with_the_placements_the_session_names_it_by() -> None:
    """The session names a question ``m{match}r{round}t{placements}-{tile}`` with the
    round's placements after the move: the watch sees the same numbers."""
    match = Match("leonard", 2, HouseRules(), 5)
    bots = [make_bot("greedy", 5), make_bot("greedy", 6)]
    named = []
    while not match.current.over:
        rnd = match.current
        events = match.apply(bots[rnd.turn].choose(view_of(rnd, rnd.turn)), rnd.turn)
        named += [(rnd.number, rnd.placements, str(e.tile)) for e in events
                  if isinstance(e, PowerEffect)]
    seen = []
    replay(match.to_record(), partial=True, dealt=[], watch=lambda rnd, events, before: seen.extend(
        (rnd.number, rnd.placements, str(e.tile)) for e in events if isinstance(e, PowerEffect)))
    assert named and seen == named


def test_a_deal_that_is_not_the_seeds_is_refused() -> None:
    record = _played("leonard", 2, 3, 10).to_record()
    swapped = copy.deepcopy(record)
    hands = swapped["rounds"][0]["hands"]
    hands[0][0], hands[1][0] = hands[1][0], hands[0][0]
    with pytest.raises(RecordError, match="round 1: the record's deal is not the one seed 3"):
        replay(swapped, partial=True, dealt=[])
    other_seed = dict(record, seed=4)
    with pytest.raises(RecordError, match="not the one seed 4 deals"):
        replay(other_seed, partial=True, dealt=[])
    # no seed (a lesson's prepared deals are played without one): only they are checked
    replay(dict(swapped, seed=None), partial=True, dealt=[])
    with pytest.raises(RecordError, match="round 1: the record's deal is not the prepared"):
        replay(dict(swapped, seed=None), partial=True, dealt=[record["rounds"][0]])
    replay(swapped, partial=True)  # as given, the deal is legal: only `dealt` asks the seed


def test_prepared_deals_are_the_ones_a_record_must_show() -> None:
    """A lesson's prepared deal: the record replays only with the deals its match was
    given (the seed alone deals another game)."""
    seeded = _played("leonard", 2, 8, 0).current.dealt().to_dict()
    given = _played("leonard", 2, 9, 0).current.dealt().to_dict()  # another deal
    match = Match("leonard", 2, HouseRules(), 8, deals=[given])
    record = match.to_record()
    assert record["rounds"][0]["hands"] != seeded["hands"]
    replay(record, partial=True, dealt=[given])
    with pytest.raises(RecordError, match="not the one seed 8 deals"):
        replay(record, partial=True, dealt=[])


def test_a_growing_record_is_played_on_from_where_it_stopped() -> None:
    """A page sends its match's record again with each answer: :class:`Replay` plays only
    the turns added, across rounds, and sees the moves a whole replay sees; a record that
    no longer holds a turn it had, or is another match's, is refused."""
    match = Match("leonard", 2, HouseRules(), 21)
    bots = [make_bot("greedy", 21), make_bot("greedy", 22)]
    records = []
    while not match.over:
        rnd = match.current
        if rnd.over:
            match.start_round()
            continue
        match.apply(bots[rnd.turn].choose(view_of(rnd, rnd.turn)), rnd.turn)
        records.append(json.loads(json.dumps(match.to_record())))
    assert len(records[-1]["rounds"]) > 1
    seen: list[tuple[int, int, list[Event]]] = []
    growing = Replay(records[0], partial=True, dealt=[],
                     watch=lambda rnd, events, before: seen.append(
                         (rnd.number, rnd.placements, events)))
    for record in records[1::3] + records[-1:]:
        growing.extend(record, partial=True)
    whole: list[tuple[int, int, list[Event]]] = []
    replay(records[-1], dealt=[], watch=lambda rnd, events, before: whole.append(
        (rnd.number, rnd.placements, events)))
    assert seen == whole and growing.match.scores == match.scores
    changed = copy.deepcopy(records[-1])
    turns = changed["rounds"][0]["turns"]
    turns[0], turns[1] = turns[1], turns[0]
    with pytest.raises(RecordError, match="round 1: the record no longer holds"):
        growing.extend(changed, partial=True)
    with pytest.raises(RecordError, match="not the match replayed before .its seed is 22, not 21"):
        Replay(records[0], partial=True, dealt=[]).extend(dict(records[-1], seed=22))
