"""A game's own move on the play page (docs/rules.md §3.4, house rule D-21: in Cuban double-nine a
player with five or more doubles may ask, on their first turn, to annul the hand): a button
among the moves, drawn from the snapshot only while the session offers the move, keyboard
reachable like the other moves, and a click on it goes through the page to the session."""

from __future__ import annotations

from engine.round import Play
from engine.tiles import DOUBLE_NINE, Tile
from tests import driving as drive
from tutor.session.session import Session
from tutor.ui import TutorApp
from tutor.ui.play.moves import EXTRA_MOVE

FIVE_DOUBLES = ["0/0", "1/1", "2/2", "3/3", "4/4"]


def cuban_hands(extra: dict[int, list[str]]) -> list[list[str]]:
    """Four hands of ten: the named tiles, filled with non-doubles (the 9/9's holder opens)."""
    named = {str(DOUBLE_NINE.parse(t)) for h in extra.values() for t in h}
    free = [str(t) for t in DOUBLE_NINE.tiles if t.a != t.b and str(t) not in named]
    return [list(extra.get(s, [])) + [free.pop(0) for _ in range(10 - len(extra.get(s, [])))]
            for s in range(4)]


def cuban_app(hands: list[list[str]], lang: str = "en") -> TutorApp:
    session = drive.start(Session(variant="cuban", players=4, humans=(0,), bots="greedy", rounds=3,
                      seed=5, lang=lang, ask=(), drill=False, deals=[{"hands": hands}]))
    return TutorApp(session=session, pace=0)


def shown(app: TutorApp) -> list:
    """The move buttons on the page, in order (digits 1-9 press them)."""
    return [b for b in app.moves.children if "ld-move" in b._dom_classes]


def extra_buttons(app: TutorApp) -> list:
    return [b for b in shown(app) if EXTRA_MOVE in b._dom_classes]


def test_3_4_the_redeal_button_shows_with_five_doubles_and_its_click_annuls_the_round_D21():
    app = cuban_app(cuban_hands({0: ["9/9", *FIVE_DOUBLES]}))
    view = app.session.snapshot()
    assert view.extra and app.session.current_player() == 0
    (button,) = extra_buttons(app)
    assert button.description == "Ask for a redeal (five doubles)"
    assert button.tooltip == "annul"  # found by its notation, as the other moves
    assert shown(app)[-1] is button  # after the numbered moves: the next digit presses it
    number = len(shown(app))
    assert app.moves.why in app.moves.children and "§3.4" in app.moves.why.value
    names = app.moves.attributes(view.legal, "en", view.extra)
    words = names['.ld-move[title="annul"]']
    assert words["aria-label"] == f"Ask for a redeal (five doubles): move {number}"
    assert words["aria-keyshortcuts"] == str(number) and "§3.4" in (words["aria-description"]
                                                                    or "")
    button.click()
    s = app.session
    assert s.round.over and s.round.result is not None and s.round.result.reason == "annulled"
    assert extra_buttons(app) == [] and app.moves.why not in app.moves.children
    assert "holds 6 doubles and asks for a new deal" in app.log_panel.value
    app.round_end.next_round_btn.click()
    assert s.round.number == 2 and s.round.starter == 0  # the same player opens again


def test_3_4_no_redeal_button_without_five_doubles_nor_after_the_first_turn():
    app = cuban_app(cuban_hands({0: ["9/9", *FIVE_DOUBLES[:3]]}))  # four doubles
    assert shown(app) and extra_buttons(app) == []
    assert app.moves.why not in app.moves.children
    app = cuban_app(cuban_hands({0: ["9/9", *FIVE_DOUBLES]}))
    assert extra_buttons(app)
    app.play(Play(Tile(9, 9)))  # the student opens instead
    assert app.session.current_player() == 0 and not app.session.round.over
    assert shown(app) and extra_buttons(app) == []


def test_the_redeal_button_speaks_the_pages_language():
    app = cuban_app(cuban_hands({0: ["9/9", *FIVE_DOUBLES]}), lang="es")
    (button,) = extra_buttons(app)
    assert button.description == "Pedir que se reparta de nuevo (cinco dobles)"
