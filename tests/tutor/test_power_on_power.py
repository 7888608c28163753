"""Issue 43, finding 9: a power tile against a power tile scores a flat 30 (docs/rules.md §1.6)
and the tutor asks nothing about it. The first such play of a student's says why, once per
student ("Power on power: 30 points, nothing to work out …"): not again in the lesson, nor
on a page opened again when the student's progress is stored; with no store, once per
session. Driven through the real :class:`~tutor.session.session.Session` of lesson 04-times."""

from __future__ import annotations

import random
from collections.abc import Sequence
from pathlib import Path

from engine import PowerEffect
from engine.rules import POWER_VS_POWER
from tests import driving as drive
from tutor import Session
from tutor.storage.store import Store

SEED = 6
"""A deal of 04-times whose first moves bring a power tile against a power tile."""
SAID = {"en": f"Power on power: {POWER_VS_POWER} points, nothing to work out.",
        "es": f"Poder contra poder: {POWER_VS_POWER} puntos, nada que calcular."}


def _power_on_power(events: Sequence[object]) -> list[PowerEffect]:
    return [e for e in events if isinstance(e, PowerEffect) and e.rule == "power-vs-power"]


def play(s: Session, seed: int = SEED, moves: int = 400) -> list[tuple[int, list[str]]]:
    """Play the lesson with random moves, answering right; for each move that brought a
    power tile against a power tile: how many questions were then waiting about it, and the
    notes the screen showed right after it."""
    rng = random.Random(seed)
    seen = []
    for _ in range(moves):
        if s.pending_question is not None:
            drive.answer(s, str(s.pending_question.expected))
        elif s.current_player() is not None:
            events = drive.play(s, rng.randrange(len(s.legal_actions())))
            if _power_on_power(events):
                rules = [q for q in s.queued_questions if q.skill == "rules"]
                seen.append((len(rules), list(s.snapshot().notes)))
        elif s.round.over and not s.match.over and not s.lesson_over:
            drive.new_round(s)
        else:
            break
    return seen


def test_the_first_power_on_power_says_why_once_and_a_reload_does_not_say_it_again(
        tmp_path: Path) -> None:
    db = tmp_path / "progress.sqlite3"
    s = drive.start(
            Session.from_lesson("04-times", lang="en", student="ana", store=str(db), seed=SEED))
    seen = play(s)
    assert len(seen) >= 3  # power on power comes often in this lesson: said once all the same
    first_asked, first_notes = seen[0]
    assert first_asked == 0  # nothing asked about it …
    assert len(first_notes) == 1 and first_notes[0].startswith(SAID["en"])  # … so it says why
    assert all(notes == first_notes for _asked, notes in seen)  # and never again
    assert s.notes_said == ["power-on-power"]
    s.close()

    # The page opened again (a new session on the same store): not said again …
    again = drive.start(
            Session.from_lesson("04-times", lang="en", student="ana", store=str(db), seed=3))
    seen = play(again, seed=3)
    assert seen and all(notes == [] for _asked, notes in seen)
    again.close()
    # … but another student of the same store is told, in their language.
    other = drive.start(Session.from_lesson("04-times", lang="es", student="beto", store=str(db),
                                seed=SEED))
    seen = play(other)
    assert seen[0][1][0].startswith(SAID["es"])
    other.close()
    with Store(db) as store:  # saved with the mastery, for any page of the student's
        assert str(store.mastery_rows("ana")["rules"]["evidence"]).count("power-on-power") == 1


def test_without_a_store_it_is_said_once_per_session() -> None:
    for _page in range(2):  # each page opened is a session of its own: it says it again
        s = drive.start(Session.from_lesson("04-times", lang="en", student="ana", seed=SEED))
        seen = play(s)
        assert len(seen) >= 3 and seen[0][1][0].startswith(SAID["en"])
        assert s.notes_said == ["power-on-power"]


def test_the_play_page_shows_the_note_in_its_status_line(tmp_path: Path) -> None:
    """On the page, the note is the status line's message after the move (and announced)."""
    from tutor.ui import dashboard

    app = dashboard("04-times", lang="en", seed=SEED, student="carla",
                    store=str(tmp_path / "p.sqlite3"))
    heard: list[str] = []
    announce = app.access.announce

    def hear(text: str) -> None:  # every announcement, before the next one replaces it
        heard.append(text)
        announce(text)

    app.access.announce = hear  # type: ignore[method-assign]
    rng = random.Random(SEED)
    for _ in range(200):
        s = app.session
        if s.pending_question is not None:
            app.submit(str(s.pending_question.expected))
            continue
        moves = app.legal_actions()
        if not moves:
            if app.run_steps() == 0:
                break
            continue
        before = len(s.notes_said)
        app.play(moves[rng.randrange(len(moves))])
        if len(s.notes_said) > before:
            assert SAID["en"] in app.status.value
            assert sum(SAID["en"] in text for text in heard) == 1  # read out too, once
            return
        app.run_steps()
    raise AssertionError("no power tile against a power tile in 200 moves")


def test_what_was_said_once_is_saved_with_the_mastery_and_adds_no_skill() -> None:
    """The note said is kept in the mastery's saved rows: loaded again it is not said again,
    and a student asked nothing of the rules gets no ``rules`` skill from it (a replay of
    their answers has none); a rules skill that was asked keeps its state."""
    from tutor.teaching.mastery import Mastery

    m = Mastery()
    assert m.say_once("power-on-power") and not m.say_once("power-on-power")
    m.state("multiply").asked = 2
    loaded = Mastery.from_dict(m.to_dict())
    assert loaded.said == {"power-on-power"} and set(loaded.states) == {"multiply"}
    assert not loaded.say_once("power-on-power")
    m.state("rules").asked = 1
    loaded = Mastery.from_dict(m.to_dict())
    assert loaded.said == {"power-on-power"} and loaded.states["rules"].asked == 1
    assert Mastery.from_dict(Mastery().to_dict()).said == frozenset()
