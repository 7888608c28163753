"""The tutor's facts about each game, one entry per game (python-chess's ``variant.py`` idea,
on the tutor's side): what the setup calls it, how it scores in a line for the round's
summary, which skills free play practises, the round-end questions it asks, the round ends
its own practice drills, and the words of its own score-sheet marks, moves, bonuses,
events and endings (docs/rules.md §3 and §4).

The engine's registry (:data:`engine.rules.VARIANTS`, completed by :mod:`engine.variants`)
says how a game is played; this module says how the tutor teaches it. Every variant there
has exactly one entry here, and no other tutor module switches on a game's name: a new
game is its engine module, its entry below, the catalogs and a lesson
(tests/tutor/test_games.py states the rule).

Its layer: pyproject.toml's import contracts. The texts are marked with :func:`N_` and
translated where they are shown.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from types import MappingProxyType
from typing import Literal

from engine.events import RoundEnded
from engine.rules import variant
from engine.variants.cuban import ANNULLED_END
from engine.variants.fives import FIVES_KIND
from engine.variants.ponce import BLOCK_KIND, PASS_KIND, TARGET_END, practice_domino
from engine.variants.traditional import practice_block
from tutor.i18n import N_, TranslatableError

__all__ = ["BONUS_WORDS", "DEFAULT_GAME", "END_WORDS", "EVENT_WORDS", "GAMES", "Drill", "Game",
           "RoundEndQuestion", "SHEET_END_WORDS", "UnknownGameError", "game"]

RoundEndQuestion = Literal["collect", "tens", "total"]
"""A round-end question (docs/rules.md §4): ``collect`` the winner's count of the hands (``add``,
or ``subtract`` for the traditional block's differences), ``tens`` that count in tens, half
up (``round``), ``total`` a round whose losses outweigh its gains (``negative``)."""


@dataclass(frozen=True)
class Drill:
    """A practice round end of one game's own, for a skill its scoring asks
    (:func:`tutor.teaching.practice.drill_round_end`)."""

    skill: str
    went_out: bool
    """The student emptied their hand (the other hands are counted); else they hold one."""
    end: Callable[[tuple[int, ...], int], RoundEnded | None]
    """The counted end from each seat's hand total and the student's seat (the engine
    variant's function); None when these hands drill nothing."""


@dataclass(frozen=True)
class Game:
    """What the tutor knows about one game (an engine variant, by its ``name``)."""

    name: str
    """The engine variant's name (:data:`engine.rules.VARIANTS`)."""
    label: str
    """The game's name for people, in the setup and the score sheet's title (N_-marked)."""
    skills: frozenset[str] = frozenset({"add"})
    """What free play practises: what the game's scoring asks to compute (docs/rules.md §4;
    :attr:`tutor.teaching.practice.Plan.focus` when a lesson names no targets). Default:
    adding, what every game that collects the hands asks."""
    round_end: frozenset[RoundEndQuestion] = frozenset({"collect"})
    """The round-end questions the game asks (:meth:`tutor.teaching.asking.Asker` asks no
    other). Default: the winner's count of the hands."""
    scoring: str = ""
    """How the game scores, one line under the round's summary (N_-marked; empty: none)."""
    marks: tuple[tuple[str, str], ...] = ()
    """The game's own score-sheet marks and their words (N_-marked), for the sheet's legend
    (engine.sheet's module docstring); the marks all games share live in tutor.ui.play.sheet."""
    extra_moves: tuple[tuple[str, str, str], ...] = ()
    """The game's own moves (the engine round's ``extra_moves``, beyond playing a tile,
    drawing and passing), by their text ``str(move)``, with their words for people: a
    button's label and a short explanation that cites the rule (both N_-marked)."""
    bonuses: tuple[tuple[str, str, str], ...] = ()
    """The game's own kinds of bonus (the engine's ``Bonus.kind``, beyond every game's), with
    their words (N_-marked): the line that tells it (``{seat}``, ``{points}``) and what the
    round's summary says the points were for."""
    events: tuple[tuple[str, str], ...] = ()
    """The game's own events (``engine.events.GameEvent``), by their ``key``, with the line
    that tells them (N_-marked; its placeholders are the event's ``seats()``, told as seat
    names, and ``numbers()``)."""
    ends: tuple[tuple[str, str, str, str, str], ...] = ()
    """The game's own ways a round ends (the engine's ``RoundEnded.reason`` beyond ``domino``
    and ``tranque``), with their words (N_-marked): the round summary's title and its line,
    the line that tells it, and how the score sheet's title says it."""
    drills: tuple[Drill, ...] = ()
    """The round ends practice drills for the skills only this game's scoring asks."""

    def extra_move_words(self, text: str) -> tuple[str, str]:
        """The label and the explanation (N_-marked, untranslated) of the game's own move
        whose text is ``text``; a move without words here is shown by its text."""
        for move, label, why in self.extra_moves:
            if move == text:
                return label, why
        return text, ""

    @property
    def player_counts(self) -> tuple[int, ...]:
        """How many may play it (docs/rules.md §1.3, §3: the engine's variant says)."""
        rules = variant(self.name)
        return tuple(range(rules.min_players, rules.max_players + 1))

    @property
    def played_to_points(self) -> bool:
        """Whether a match goes on to a points target rather than a number of rounds."""
        return variant(self.name).goal == "points"


_ALL: tuple[Game, ...] = (
    Game(
        name="leonard",
        label=N_("Leonard-Domino"),
        skills=frozenset({"other-end", "add", "multiply", "square", "double", "negative"}),
        round_end=frozenset({"collect", "total"}),
    ),
    Game(
        name="block",
        label=N_("Block game (double six)"),
        scoring=N_("How the block game scores: the player who goes out gains the tiles left "
                   "in the other hands; in a tranque, the lowest hand gains them."),
    ),
    Game(
        name="traditional",
        label=N_("Traditional draw game (double six)"),
        skills=frozenset({"add", "subtract"}),
        round_end=frozenset({"collect"}),
        scoring=N_("How the traditional game scores: a domino gains the sum of every other "
                   "hand; in a tranque the lowest hand gains the differences to each other "
                   "hand (15, 19, 22 → 4 + 7 = 11)."),
        drills=(Drill("subtract", False, practice_block),),
    ),
    Game(
        name="venezuela",
        label=N_("Venezuela (pairs, double six)"),
        scoring=N_("How Venezuela scores: the winning pair gains the sum of the other pair's "
                   "hands; in a tranque the pair with the lower sum wins."),
    ),
    Game(
        name="ponce",
        label=N_("Ponce (pairs, double six)"),
        skills=frozenset({"add", "round"}),
        round_end=frozenset({"collect", "tens"}),
        scoring=N_("How Ponce scores: passes you make the others take score 1 (2 for the "
                   "first of the match); making the tranque scores 2; the hand counts are "
                   "rounded to tens, half up (14 → 1, 15 → 2)."),
        marks=(("P", N_("Ponce: points for the passes this play caused")),),
        bonuses=((PASS_KIND, N_("A pass: the pair of player {seat} scores {points}."),
                  N_("pass points (Ponce)")),
                 (BLOCK_KIND, N_("Player {seat} blocked the game: their pair scores {points}."),
                  N_("closing the game (Ponce's tranque)"))),
        ends=((TARGET_END, N_("Match point!"),
               N_("A pair reached the match's target in the middle of the hand."),
               N_("A pair has reached the target: the match is over."),
               N_("match point")),),
        drills=(Drill("round", True, practice_domino),),
    ),
    Game(
        name="cuban",
        label=N_("Cuban double nine (pairs)"),
        scoring=N_("How Cuban double nine scores: the winner's pair gains the sum of the "
                   "other pair's hands; in a tranque the lowest single hand wins for its "
                   "pair."),
        extra_moves=(("annul", N_("Ask for a redeal (five doubles)"),
                      N_("You hold five doubles or more and it is your first turn: you may "
                         "ask for the hand to be dealt again; the same player opens the new hand "
                         "(rule §3.4, D-21).")),),
        events=(("Annulled", N_("Player {seat} holds {count} doubles and asks for a new "
                                "deal.")),),
        ends=((ANNULLED_END, N_("New deal"),
               N_("A player held five doubles: the hand is dealt again."),
               N_("The hand is dealt again."),
               N_("dealt again")),),
    ),
    Game(
        name="doble15",
        label=N_("Doble 15 (six-arm hub)"),
        scoring=N_("How Doble 15 scores: whoever empties their hand (or, in a tranque, has "
                   "the lowest hand) gains the sum of all the other hands."),
        marks=(("H", N_("Doble 15: left a 13 open, the next player is hexed")),),
        events=(
            ("hex", N_("Player {seat} leaves a 13 open: player {target} must play on it or "
                       "draw two tiles.")),
            ("again", N_("Player {seat} leaves a 14 open: player {target} plays again.")),
            ("draw", N_("Player {seat} leaves a 15 open: player {target} draws a tile.")),
            ("reverse", N_("Player {seat} leaves a 3 open: the direction of play turns "
                           "round.")),
        ),
    ),
    Game(
        name="block_capicua",
        label=N_("Block game with capicúa (double six)"),
        scoring=N_("How the block game with capicúa scores: the player who goes out gains the "
                   "tiles left in the other hands, and 20 more when the last tile fitted both "
                   "ends (capicúa); in a tranque, the lowest hand gains them."),
    ),
    Game(
        name="fives",
        label=N_("All fives (double six)"),
        scoring=N_("How all fives scores: after each tile, add up the open ends (a double "
                   "at an end counts both halves); when the sum is a multiple of five, the "
                   "player who placed the tile scores it. Going out gains the tiles left in "
                   "the other hands."),
        marks=(("F", N_("All fives: the ends added up to a multiple of five")),),
        bonuses=((FIVES_KIND, N_("All fives: player {seat} scores {points}."),
                  N_("the ends adding up to a multiple of five")),),
        events=(("Fives", N_("Player {seat} leaves the ends at {left} + {right} = {total}, "
                             "a multiple of five.")),),
    ),
)

GAMES: MappingProxyType[str, Game] = MappingProxyType({g.name: g for g in _ALL})
"""Every game the tutor teaches, by engine variant name, in the order the setup offers them."""
if len(GAMES) != len(_ALL):
    raise AssertionError("two tutor entries share a game's name")

BONUS_WORDS: MappingProxyType[str, tuple[str, str]] = MappingProxyType(
    {kind: (said, why) for g in _ALL for kind, said, why in g.bonuses})
"""Every game's own bonus kinds (:attr:`Game.bonuses`): the line that tells one and what the
points were for."""
EVENT_WORDS: MappingProxyType[str, str] = MappingProxyType(
    {key: words for g in _ALL for key, words in g.events})
"""Every game's own events by their key (:attr:`Game.events`): the line that tells one."""
END_WORDS: MappingProxyType[str, tuple[str, str, str]] = MappingProxyType(
    {reason: (title, line, said) for g in _ALL for reason, title, line, said, _sheet in g.ends})
"""Every game's own ways a round ends (:attr:`Game.ends`): the summary's title and line, and
the line that tells it."""
SHEET_END_WORDS: MappingProxyType[str, str] = MappingProxyType(
    {end[0]: end[4] for g in _ALL for end in g.ends})
"""Every game's own ways a round ends (:attr:`Game.ends`), as the score sheet's title says
them ("match point")."""
if len(BONUS_WORDS) != sum(len(g.bonuses) for g in _ALL) or \
        len(EVENT_WORDS) != sum(len(g.events) for g in _ALL) or \
        len(END_WORDS) != sum(len(g.ends) for g in _ALL):
    raise AssertionError("two games name a bonus, an event or an ending of their own alike")

DEFAULT_GAME = _ALL[0].name
"""The game played when a lesson or a setting names none."""


class UnknownGameError(TranslatableError):
    """A game name the tutor has no entry for."""


def game(name: str) -> Game:
    """The tutor's entry for the game ``name``; raises :class:`UnknownGameError`."""
    try:
        return GAMES[name]
    except KeyError:
        raise UnknownGameError(N_("{name} is not a game the tutor knows: choose one of "
                                  "{games}."), name=repr(name),
                               games=", ".join(GAMES)) from None
