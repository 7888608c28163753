"""Differential test: our 4-player double-six games against the PyPI package ``dominoes``
(6.1.0, in the ``[test]`` and ``[bench]`` extras) on the same deals with the same moves.

``dominoes`` plays one game: 4 players, 7 tiles each, no pile, partners opposite (0 & 2
against 1 & 3), the 6/6 opens, play to seat + 1, a player who cannot play passes. That is the
table of our block game (4 players), Venezuela and Ponce (docs/rules.md §3.2, §3.3), so on each
deal every move list, every board and the moment the game ends must agree. The results agree
where the rules are the same and differ, by the amounts asserted below, where they are not:

============  =========================================  ====================================
              ``dominoes``                               ours
============  =========================================  ====================================
domino        the team scores the 3 other hands           block: the same (one player alone);
                                                          Venezuela: the 2 opponents' hands
                                                          only (§3.2: the partner's hand is
                                                          not counted); Ponce: the same count,
                                                          then rounded to tens (§3.3)
stuck         the team with the lower combined hand       Venezuela: the same pair wins, but
              scores both teams' hands; equal: 0          scores only the other pair's hands;
                                                          equal: 0 — the same. Block and
                                                          Ponce: the lowest *single* hand wins
                                                          (§1.8, §3.3), so the winners may
                                                          differ; Ponce adds the blocker's 2
moves        a tile that fits both ends when they show    both ends are listed ("L" and "R"),
              the same number is listed once (left)       the same tile at two places
passes       made for the player, inside ``make_move``    an explicit ``PASS`` action
============  =========================================  ====================================
"""

from __future__ import annotations

import random

import pytest

from engine import PASS, HouseRules, Play, Round, Tile, variant

dominoes = pytest.importorskip(
    "dominoes", reason="the PyPI package dominoes is not installed (pip install -e '.[test]')")

GAMES = ["block", "venezuela", "ponce"]
DEALS = 300


def _domino(tile: Tile):  # type: ignore[no-untyped-def]
    return dominoes.Domino(int(tile.a), int(tile.b))


def _key(tile: Tile) -> tuple[int, int]:
    a, b = int(tile.a), int(tile.b)
    return (a, b) if a <= b else (b, a)


def _their_game(rnd: Round):  # type: ignore[no-untyped-def]
    """The ``dominoes`` game of our deal, with the 6/6 already played by its holder."""
    hands = [dominoes.Hand([_domino(t) for t in rnd.hand(s)]) for s in range(4)]
    first = dominoes.Domino(6, 6)
    game = dominoes.Game(dominoes.Board(), hands, [], rnd.starter, ((first, True),),
                         rnd.starter, None)
    game.make_move(first, True)
    return game


def _our_moves(rnd: Round) -> set[tuple[tuple[int, int], str]]:
    return {(_key(m.tile), m.end) for m in rnd.legal_actions() if isinstance(m, Play)}


def _their_moves(game) -> set[tuple[tuple[int, int], str]]:  # type: ignore[no-untyped-def]
    return {(_key(Tile(d.first, d.second)), "L" if left else "R") for d, left in
            game.valid_moves}


def _play_both(game_name: str, seed: int) -> tuple[Round, object, dict[str, int]]:
    """Deal with ``seed``, then play the same random moves in both engines, comparing the
    move lists and the board after every move. Returns both finished games."""
    rng = random.Random(seed)
    rnd = Round.deal(variant(game_name), HouseRules(), 4, rng)
    assert rnd.legal_actions() == [Play(Tile(6, 6))]
    game = _their_game(rnd)
    rnd.apply(Play(Tile(6, 6)))
    seen = {"same-ends": 0}
    while True:
        while not rnd.over and rnd.legal_actions() == [PASS]:
            rnd.apply(PASS)  # dominoes passes for the player inside make_move
        if rnd.over:
            break
        assert game.result is None, "dominoes ended the game, we did not"
        assert rnd.turn == game.turn
        ours, theirs = _our_moves(rnd), _their_moves(game)
        left, right = rnd.ends  # type: ignore[misc]
        if left == right:
            # the same number at both ends: dominoes lists each tile once, at the left
            seen["same-ends"] += 1
            assert {t for t, _ in ours} == {t for t, _ in theirs}
            assert {e for _, e in theirs} <= {"L"} and len(ours) == 2 * len(theirs)
        else:
            assert ours == theirs
        plays = [m for m in rnd.legal_actions() if isinstance(m, Play)]
        move = plays[int(rng.random() * len(plays))]
        rnd.apply(move)
        game.make_move(_domino(move.tile), move.end == "L")
        assert (game.board.left_end(), game.board.right_end()) == rnd.ends
        assert len(game.board) == len(rnd.line)
    assert game.result is not None, "we ended the game, dominoes did not"
    return rnd, game, seen


def _hands(rnd: Round) -> list[int]:
    return [sum(int(t.a) + int(t.b) for t in rnd.hand(s)) for s in range(4)]


@pytest.mark.parametrize("game_name", GAMES)
def test_moves_boards_and_the_end_agree_with_dominoes(game_name):
    outcomes = {"domino": 0, "tranque": 0, "same-ends": 0}
    for seed in range(DEALS):
        rnd, game, seen = _play_both(game_name, seed)
        outcomes[rnd.result.reason] += 1
        outcomes["same-ends"] += seen["same-ends"]
        # dominoes' result: the player who moved last, whether a hand was emptied, and the
        # points, positive for the team of seats 0 and 2
        assert game.result.won == (rnd.result.reason == "domino")
        assert [len(h) for h in game.hands] == rnd.hand_sizes
    assert min(outcomes.values()) > 0, outcomes  # every case was met


def test_domino_results():
    """A domino: the same winner; the count agrees where the rule is the same."""
    for game_name in GAMES:
        for seed in range(DEALS):
            rnd, game, _ = _play_both(game_name, seed)
            if rnd.result.reason != "domino":
                continue
            w = rnd.result.winner
            hands = _hands(rnd)
            theirs = game.result.points
            assert game.result.player == w
            assert theirs == (1 if w % 2 == 0 else -1) * sum(hands)  # all three other hands
            if game_name == "block":
                assert rnd.gains[w] == abs(theirs)  # the same rule
            elif game_name == "venezuela":
                # §3.2 counts the opposing pair only: dominoes adds the partner's hand
                assert rnd.gains[w] == abs(theirs) - hands[w ^ 2]
            else:
                # §3.3 counts every hand, like dominoes, then rounds to tens
                assert rnd.result.count == abs(theirs)
                assert rnd.result.points == (abs(theirs) + 5) // 10


def test_stuck_results():
    """A block: Venezuela's winning pair is dominoes' winning team; the points differ by the
    winners' own hands. Block game and Ponce count single hands, so only the moment agrees."""
    met = {g: 0 for g in GAMES}
    for game_name in GAMES:
        for seed in range(DEALS):
            rnd, game, _ = _play_both(game_name, seed)
            if rnd.result.reason != "tranque":
                continue
            met[game_name] += 1
            hands = _hands(rnd)
            pairs = (hands[0] + hands[2], hands[1] + hands[3])
            theirs = game.result.points
            assert abs(theirs) == (0 if pairs[0] == pairs[1] else sum(pairs))
            assert rnd.result.hand_totals == tuple(hands)
            if game_name == "venezuela":
                if pairs[0] == pairs[1]:
                    assert theirs == 0 and rnd.result.team is None and sum(rnd.gains) == 0
                else:
                    team = 0 if theirs > 0 else 1
                    assert rnd.result.team == team
                    assert sum(rnd.gains) == abs(theirs) - pairs[team]
            elif game_name == "ponce":
                assert rnd.result.blocker == game.result.player  # the one who played last
    assert all(met.values()), met
