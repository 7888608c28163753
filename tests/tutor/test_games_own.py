"""A game in one place (issue 46 part 3): a game's own events and bonus kinds are its engine
module's, and their words are its entry's in :mod:`tutor.games`; the narration and the
round's summary say them for every game, in English and Spanish, with no table of their
own. All fives (a house game), added as its module, its entry, its catalogs and its
lesson, shows it: its ``Fives`` event and its ``fives`` bonus are told and summed up, and
it is in the games list."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import engine.events
from engine.bots import make_bot, play_match
from engine.events import Bonus, GameEvent, RoundEnded
from engine.match import Match
from engine.rules import VARIANTS, HouseRules
from engine.variants.fives import Fives
from tutor import games
from tutor.course.lessons import list_lessons, load_lesson
from tutor.games import BONUS_WORDS, END_WORDS, EVENT_WORDS, GAMES, game
from tutor.i18n import translator
from tutor.session.narration import describe_event
from tutor.session.snapshot import RoundSummary
from tutor.ui.play.round_end import round_summary_html

TUTOR = Path(games.__file__).resolve().parent


def _logs(name: str, seeds: int = 6) -> list[list[object]]:
    var = VARIANTS[name]
    players = 4 if var.pairs else max(3, var.min_players)
    out = []
    for seed in range(seeds):
        match = play_match(Match(name, players, HouseRules(rounds=2), seed=seed),
                           [make_bot("random", seed + s) for s in range(players)])
        out += [list(r.log) for r in match.rounds]
    return out


@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_event_of_every_game_is_told_in_both_languages(name):
    """Each event a game's rounds log is told by the narration (not its repr), in English
    and in Spanish, with its seats named: a game's own (a ``GameEvent``, a bonus of its own
    kind) by its entry's words."""
    for log in _logs(name):
        for event in log:
            en, es = describe_event(event, "en"), describe_event(event, "es")
            assert en != str(event) and es != str(event), event
            if isinstance(event, GameEvent):
                assert event.key in dict(game(name).events), (name, event)
                assert en != es  # translated
            if isinstance(event, Bonus) and event.kind in BONUS_WORDS:
                assert event.kind in {k for k, _s, _w in game(name).bonuses}, (name, event)


def test_the_base_events_name_no_game_and_no_other_tutor_module_imports_a_game():
    """engine/events.py keeps what every game has: a game's own event subclasses GameEvent
    in its module; in the tutor only the games entries import a game's module."""
    own = [e for e in vars(engine.events).values()
           if isinstance(e, type) and issubclass(e, GameEvent) and e is not GameEvent]
    assert own == []
    for path in sorted(TUTOR.rglob("*.py")):
        if path == TUTOR / "games.py":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module:
                assert not node.module.startswith("engine.variants"), path
    assert set(EVENT_WORDS) >= {"Annulled", "hex", "again", "draw", "reverse", "Fives"}
    assert set(BONUS_WORDS) == {"pass", "block", "fives"}
    assert set(END_WORDS) == {"target", "annulled"}


@pytest.mark.parametrize("name,reason", [(g.name, e[0]) for g in GAMES.values() for e in g.ends])
def test_a_games_own_ending_is_told_and_titled_by_its_entry(name, reason):
    """Ponce's match point mid-hand and Cuban's redeal: the narration and the round's summary
    say them with the words of the game's entry, in both languages."""
    end = RoundEnded(reason=reason, winner=None, gains=(0,) * 4, losses=(0,) * 4,
                     hand_totals=(5, 6, 7, 8))
    (_reason, title, line, said, _sheet), = [e for e in game(name).ends if e[0] == reason]
    for lang in ("en", "es"):
        _ = translator(lang)
        assert describe_event(end, lang) == _(said)
        out = round_summary_html(RoundSummary.of(end, [], 4), lang, pending=False,
                                 variant=name)
        assert _(title) in out and _(line).replace("'", "&#x27;") in out
    assert describe_event(end, "es") != describe_event(end, "en")


# --- all fives ---------------------------------------------------------------------------

def test_all_fives_is_in_the_games_list_with_its_lesson():
    assert "fives" in GAMES and list(GAMES)[-1] == "fives"
    entry = game("fives")
    assert translator("en")(entry.label) == "All fives (double six)"
    assert translator("es")(entry.label) == "Todos los cincos (doble seis)"
    assert entry.player_counts == (2, 3, 4) and not entry.played_to_points
    lesson = load_lesson("15-fives")
    assert lesson.variant == "fives" and "15-fives" in [x.id for x in list_lessons()]


def test_all_fives_event_and_bonus_are_told_and_summed_up():
    """The narration shows the ends' sum (the arithmetic the game practises), then the points;
    the round's summary says what the points were for, and how the game scores."""
    event, bonus = Fives(1, 3, 12, 15), Bonus(1, "fives", 15)
    assert describe_event(event, "en") == \
        "Player B leaves the ends at 3 + 12 = 15, a multiple of five."
    assert describe_event(event, "es") == \
        "El jugador B deja los extremos en 3 + 12 = 15, un múltiplo de cinco."
    assert describe_event(bonus, "en") == "All fives: player B scores 15."
    assert describe_event(bonus, "es") == "Todos los cincos: el jugador B se anota 15."
    end = RoundEnded(reason="domino", winner=0, gains=(20, 15), losses=(0, 0),
                     hand_totals=(0, 20))
    summary = RoundSummary.of(end, [event, bonus, Bonus(0, "domino", 20)], 2)
    out = round_summary_html(summary, "en", pending=False, variant="fives")
    assert "Player B: +15 for the ends adding up to a multiple of five" in out
    assert "How all fives scores" in out
    es = round_summary_html(summary, "es", pending=False, variant="fives")
    assert "los extremos que suman un múltiplo de cinco" in es


def test_all_fives_rounds_tell_their_fives():
    """Seeded rounds of all fives log the game's event, and each is told with its sum."""
    told = [describe_event(e, "en") for log in _logs("fives") for e in log
            if isinstance(e, Fives)]
    assert told and all(" a multiple of five." in t for t in told)
