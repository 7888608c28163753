"""A game's own moves in the tutor (docs/rules.md §3.4, house rule D-21: in Cuban double-nine a
player with five or more doubles may ask, on their first turn, to annul the hand; it is
redealt and the same player opens again): the session offers them to the student to move,
with their words from the game's tutor entry, plays one as it plays a move, and the tutor's
bots make them by the engine's one rule (:func:`engine.bots.bot_move`), as ``play_match``
does."""

from __future__ import annotations

import pytest

from engine.bots import GreedyBot, bot_move, play_match
from engine.events import Event, RoundEnded
from engine.match import Match
from engine.round import PASS, Action, IllegalMoveError, Play
from engine.rules import HouseRules
from engine.tiles import Tile
from engine.variants.cuban import ANNUL, Annulled
from engine.view import PlayerView, view_of
from tests import driving as drive
from tests.deals import cuban_hands
from tutor import Session
from tutor.games import GAMES

FIVE_DOUBLES = ["0/0", "1/1", "2/2", "3/3", "4/4"]


def cuban_session(hands: list[list[str]], **kw: object) -> Session:
    return drive.start(
            Session(variant="cuban", players=4, humans=(0,), bots="greedy", rounds=3, seed=5,
                   lang="en", ask=(), drill=False, deals=[{"hands": hands}],
                   **kw))  # type: ignore[arg-type]


class Asker:
    """A bot that always asks for the game's own move, else plays its first legal move."""

    name = "asker"

    def __init__(self) -> None:
        self.asked: list[object] = []

    def choose(self, view: PlayerView) -> Action:
        return view.legal[0]

    def wants_extra(self, view: PlayerView, move: object) -> bool:
        self.asked.append(move)
        return True


def test_3_4_the_student_with_five_doubles_is_offered_the_redeal_and_takes_it_D21():
    s = cuban_session(cuban_hands({0: ["9/9", *FIVE_DOUBLES]}))
    assert s.current_player() == 0 and s.round.number == 1
    view = s.snapshot()
    (annul,) = [x.move for x in view.extra]
    assert [(x.text, x.label) for x in view.extra] == [
        (str(annul), "Ask for a redeal (five doubles)")]
    assert "§3.4" in view.extra[0].explanation and view.extra[0].move == annul
    assert annul not in view.legal  # the game's own move is not one of the numbered moves
    events = drive.play(s, view.extra[0].move)
    assert isinstance(events[0], Annulled) and events[0].seat == 0
    ended = [e for e in events if isinstance(e, RoundEnded)]
    assert ended and ended[0].reason == "annulled"
    after = s.snapshot()
    assert after.round_over and after.round_end == "annulled" and after.extra == ()
    assert "Player A holds 6 doubles and asks for a new deal." in after.news
    assert after.scores_shown == (0, 0, 0, 0)
    drive.new_round(s)
    assert s.round.number == 2 and s.round.starter == 0  # D-21: the same player opens again


def test_3_4_the_redeal_is_offered_on_the_first_turn_only_and_refused_after():
    s = cuban_session(cuban_hands({0: ["9/9", *FIVE_DOUBLES]}))
    (annul,) = [x.move for x in s.snapshot().extra]
    drive.play(s, Play(Tile(9, 9)))  # the student opens instead; the bots reply
    assert s.current_player() == 0 and not s.round.over
    assert s.snapshot().extra == () and s.legal_actions() == s.round.legal_actions()
    log, steps, hand = list(s.round.log), s.game.steps, s.round.hand(0)
    with pytest.raises(IllegalMoveError, match="only be asked on one's first turn"):
        drive.play(s, annul)
    assert s.round.log == log and s.game.steps == steps and s.round.hand(0) == hand
    assert not s.round.over


def test_3_4_without_five_doubles_nothing_is_offered_and_asking_is_refused():
    s = cuban_session(cuban_hands({0: ["9/9", *FIVE_DOUBLES[:3]]}))  # four doubles
    assert s.current_player() == 0 and s.snapshot().extra == ()
    assert s.legal_actions() == s.round.legal_actions()
    log = list(s.round.log)
    with pytest.raises(IllegalMoveError, match="needs 5 doubles"):
        drive.play(s, ANNUL)
    assert s.round.log == log and not s.round.over


def test_3_4_a_student_with_only_a_pass_is_not_passed_for_while_the_redeal_is_offered():
    """The forced pass is a choice while the game offers its own move: the session does not
    make it for the student."""
    # seat 3 opens with the 9/9; the student (seat 0, next) holds five doubles and no 9
    hands = cuban_hands({3: ["9/9"], 0: FIVE_DOUBLES})
    s = cuban_session(hands)
    rnd = s.round
    assert s.current_player() == 0 and rnd.starter == 3
    assert s.legal_actions() == [PASS, ANNUL]  # no 9 in hand, no pile (§3.4)
    step = s.advance()
    assert step.events == () and step.waiting == "move" and s.snapshot().extra
    drive.play(s, PASS)  # passing is the student's choice: the redeal is gone with the first turn
    assert s.round.turn != 0 or s.snapshot().extra == ()


def test_the_words_of_each_own_move_come_from_the_games_entry():
    cuban = GAMES["cuban"]
    assert [m for m, _label, _why in cuban.extra_moves] == ["annul"]
    assert cuban.extra_move_words("annul")[0] == "Ask for a redeal (five doubles)"
    assert cuban.extra_move_words("other") == ("other", "")
    assert all(not g.extra_moves for name, g in GAMES.items() if name != "cuban")


def test_3_4_the_tutors_bot_asks_for_the_redeal_as_play_match_does():
    hands = cuban_hands({0: ["9/9"], 1: FIVE_DOUBLES})
    s = cuban_session(hands)
    asker = Asker()
    s.game.bots[1] = asker
    s.apply_action(Play(Tile(9, 9)))
    assert s.round.turn == 1 and (s.waiting() is None)
    events = s.advance(forced=False).events
    assert isinstance(events[0], Annulled) and events[0].seat == 1
    assert s.round.over and s.round.result is not None
    assert s.round.result.reason == "annulled" and len(asker.asked) == 1
    # the engine's own match, with the same bot in that seat, does the same
    m = Match("cuban", 4, HouseRules(rounds=1), deals=[{"hands": hands}], seed=5)
    seen: list[Event] = []
    play_match(m, [GreedyBot(0), Asker(), GreedyBot(2), GreedyBot(3)], seen.extend)
    assert m.rounds[0].result is not None and m.rounds[0].result.reason == "annulled"
    assert [e for e in seen if isinstance(e, Annulled)][0].seat == 1


def test_bot_move_asks_nothing_when_the_game_offers_no_move_of_its_own():
    """The one rule for a bot's move consults ``wants_extra`` only when the view offers a
    game's own move, so a seeded game of any other game draws the same random numbers."""
    m = Match("leonard", 2, seed=4)
    asker = Asker()
    view = view_of(m.current, m.current.turn)
    assert view.extra == () and bot_move(asker, view) == view.legal[0] and asker.asked == []
    hands = cuban_hands({0: ["9/9", *FIVE_DOUBLES]})
    cuban = Match("cuban", 4, deals=[{"hands": hands}], seed=4)
    cview = view_of(cuban.current, 0)
    assert bot_move(asker, cview) == cview.extra[0] and asker.asked == [cview.extra[0]]
    assert bot_move(GreedyBot(1), cview) in cview.legal  # greedy never asks (it scores nothing)
