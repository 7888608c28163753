"""The Session the dashboard and the terminal share: play, questions, answers, scores, progress."""

from __future__ import annotations

import random
import re
import sqlite3
import time
from collections.abc import Callable, Mapping
from pathlib import Path

import pytest

from engine import PowerEffect
from tests import driving as drive
from tutor import Feedback, Session, SessionError, hint_ladder
from tutor.session.saving import load_mastery
from tutor.storage.records import Attempt
from tutor.storage.store import Store, StoreError
from tutor.teaching.evidence import parse_step
from tutor.teaching.mastery import STREAK_TO_MASTER

Policy = Callable[[Session], Feedback]


def right(s: Session) -> Feedback:
    q = s.pending_question
    assert q is not None
    return drive.answer(s, str(q.expected))


def wrong_then_reveal(s: Session) -> Feedback:
    q = s.pending_question
    assert q is not None
    fb = drive.answer(s, str(q.expected + 1000))
    assert fb.kind == "wrong" and not fb.done and fb.hint
    return drive.reveal(s)


def play_through(s: Session, policy: Policy, move_seed: int = 0,
                 on_question: Callable[[Session], None] | None = None) -> None:
    """Play the whole match: random legal moves for the humans, ``policy`` for questions."""
    rng = random.Random(move_seed)
    for _ in range(10_000):
        if s.pending_question is not None:
            if on_question:
                on_question(s)
            fb = policy(s)
            assert fb.done
        elif s.current_player() is not None:
            drive.play(s, rng.randrange(len(s.legal_actions())))
        elif s.match.over:
            return
        elif s.round.over:
            drive.new_round(s)
        else:
            raise AssertionError("stuck")
    raise AssertionError("the match did not end")


def test_a_seeded_game_plays_to_the_end() -> None:
    s = drive.start(Session(players=3, humans=(0,), bots=["greedy", "random"], rounds=2, seed=11,
                lang="en"))
    asked: list[str] = []
    play_through(s, right, on_question=lambda ss: asked.append(ss.pending_question.step))
    v = s.snapshot()
    assert v.match_over and v.match_winners
    assert list(v.scores_shown) == s.match.scores
    assert asked  # questions were asked, and only about the human or the round end
    assert s.mastery.states


def test_score_never_depends_on_the_answers() -> None:
    """DESIGN.md §"One power-tile play" step 2: the score is decided when the tile is placed."""
    a = drive.start(Session(seed=7, rounds=2, lang="en", scaffold=True))
    b = drive.start(Session(seed=7, rounds=2, lang="en", scaffold=True))
    play_through(a, right)
    play_through(b, wrong_then_reveal)
    assert a.match.scores == b.match.scores
    assert a.match.to_record()["rounds"] == b.match.to_record()["rounds"]
    assert a.skill_counts() != b.skill_counts()


def first_question(seed_from: int = 0, **kw: object) -> Session:
    """A session stopped at its first power-play question."""
    for seed in range(seed_from, seed_from + 200):
        s = drive.start(Session(seed=seed, **kw))  # type: ignore[arg-type]
        rng = random.Random(seed)
        while s.pending_question is None and not s.round.over:
            if s.current_player() is None:
                break
            drive.play(s, rng.randrange(len(s.legal_actions())))
        if s.pending_question is not None and s.pending_question.step in ("gain", "loss"):
            return s
    raise AssertionError("no question found")


def test_scores_shown_hide_the_pending_points() -> None:
    s = first_question(lang="en")
    q = s.pending_question
    assert q is not None
    v = s.snapshot()
    seat = q.context.seat if q.step == "gain" else q.context.target
    sign = -1 if q.step == "gain" else 1
    assert v.scores_shown[seat] == s.match.scores[seat] + sign * q.expected
    assert v.hiding is (q.expected != 0)
    assert v.question is not None and v.question.prompt == q.prompt
    assert not hasattr(v.question, "expected")
    while s.pending_question is not None:
        right(s)
    v = s.snapshot()
    assert list(v.scores_shown) == s.match.scores and not v.hiding


def test_play_while_a_question_waits_is_refused() -> None:
    s = first_question(lang="en")
    assert s.legal_actions() == []
    with pytest.raises(SessionError, match="Answer the question first"):
        drive.play(s, 0)
    with pytest.raises(SessionError):
        drive.new_round(s)


def test_invalid_answers_do_not_count() -> None:
    s = first_question(lang="en")
    q = s.pending_question
    before = s.skill_counts()
    fb = drive.answer(s, "five")
    assert fb.kind == "invalid" and not fb.counted and "digits" in fb.message
    assert s.pending_question == q
    assert s.skill_counts() == before
    assert s.snapshot().question.attempts == 0
    assert drive.answer(s, str(q.expected)).kind == "correct"


def workings(q: object) -> list[str]:
    """Working a student might type for ``q`` instead of the number: docs/rules.md §4."""
    e = q.expected  # type: ignore[attr-defined]
    ctx = q.context  # type: ignore[attr-defined]
    forms = [f"0+{e}", f"{e}+0", f"({e})*1", f"{e}x1=", f"{e + 15}-15", f"({e})^1", f"-(-{e})"]
    if ctx.t is not None and ctx.rule == "x/n":
        forms += [f"{ctx.n}*{ctx.t}", f"{ctx.n} × {ctx.t}", f"{ctx.n}x{ctx.t}="]
    if ctx.t is not None and ctx.rule == "x/x":
        forms += [f"{ctx.t}^2", f"{ctx.t}²"]
    return forms


@pytest.mark.parametrize("lang", ["en", "es"])
def test_working_is_not_an_answer(lang: str) -> None:
    """docs/rules.md §4 "The answer is a number": working (even working that comes to the right
    number) is no attempt and no evidence, gets no verdict, and the question stays open;
    the number typed next is the first attempt."""
    s = first_question(lang=lang)
    q = s.pending_question
    assert q is not None
    before = s.skill_counts()
    states = {k: (v.asked, v.p_known) for k, v in s.mastery.states.items()}
    messages = set()
    for text in [*workings(q), f"0+{q.expected + 1}", f"{q.expected + 1}*1"]:
        fb = drive.answer(s, text)
        assert fb.kind == "working" and not fb.counted and not fb.done, text
        assert fb.diagnosis is None and fb.hint is None and fb.expected is None
        messages.add(fb.message)
        assert s.pending_question == q
        assert s.snapshot().question.attempts == 0
    want = {"en": "That is the working. Now work it out: what number is it?",
            "es": "Eso es la operación. Ahora resuélvela: ¿qué número da?"}[lang]
    assert messages == {want}  # right or wrong, the same words: working is no oracle
    assert s.skill_counts() == before
    assert {k: (v.asked, v.p_known) for k, v in s.mastery.states.items()} == states
    assert s.mastery.state("other-end").asked == states.get("other-end", (0, 0))[0]
    fb = drive.answer(s, str(q.expected))
    assert fb.kind == "correct" and fb.counted and fb.done
    assert s.mastery.state(q.skill).first_try_right == 1  # still the first attempt


def test_working_is_not_recorded(tmp_path: Path) -> None:
    db = tmp_path / "progress.sqlite3"
    s = first_question(lang="en", student="ana", store=str(db), lesson="lesson-1")
    q = s.pending_question
    assert q is not None
    drive.answer(s, f"0+{q.expected}")
    drive.answer(s, f"{q.expected}*1")
    drive.answer(s, str(q.expected))
    s.close()
    with Store(db) as store:
        assert [r.outcome.value for r in store.attempts("ana")] == ["CORRECT"]


def test_mastery_first_attempt_only() -> None:
    s = first_question(lang="en")
    q = s.pending_question
    assert q is not None
    skill = q.skill
    p0 = s.mastery.state(skill).p_known
    fb = drive.answer(s, str(q.expected))
    assert fb.kind == "correct" and fb.expected == q.expected
    p1 = s.mastery.state(skill).p_known
    assert p1 > p0 and s.mastery.state(skill).first_try_right == 1

    s2 = first_question(lang="en")
    q2 = s2.pending_question
    skill2 = q2.skill
    p0 = s2.mastery.state(skill2).p_known
    drive.answer(s2, str(q2.expected + 1000))
    p_wrong = s2.mastery.state(skill2).p_known
    drive.answer(s2, str(q2.expected))  # the second attempt teaches the tracer nothing
    assert s2.mastery.state(skill2).p_known == p_wrong < p0
    assert s2.mastery.state(skill2).asked == 1


def test_a_hint_before_answering_counts_as_wrong() -> None:
    s = first_question(lang="en")
    q = s.pending_question
    h1 = s.hint()
    assert h1 == s.hints_given()[0].text
    drive.answer(s, str(q.expected))
    st = s.mastery.state(q.skill)
    assert st.first_try_right == 0 and st.hints_used == 1


def test_hint_ladder_in_order_then_repeats() -> None:
    s = first_question(lang="en")
    q = s.pending_question
    n = len(hint_ladder(q))
    hints = [s.hint() for _ in range(n + 1)]
    assert hints[n - 1] == hints[n] and str(q.expected) in hints[n - 1]
    assert [h.level for h in s.hints_given()] == list(range(1, n + 1))


def test_wrong_answer_gives_diagnosis_and_next_hint() -> None:
    s = first_question(lang="en")
    fb = drive.answer(s, "-1000")
    assert fb.kind == "wrong" and fb.diagnosis is not None and fb.hint
    assert fb.expected is None and not fb.done


def test_reveal_counts_as_wrong_when_nothing_was_right() -> None:
    s = first_question(lang="en")
    q = s.pending_question
    fb = drive.reveal(s)
    assert fb.kind == "revealed" and fb.expected == q.expected and fb.done
    st = s.mastery.state(q.skill)
    assert st.asked == 1 and st.first_try_right == 0


def test_language_switch_keeps_the_game() -> None:
    s = first_question(lang="en")
    before = s.snapshot()
    q = s.pending_question
    s.set_lang("es")
    after = s.snapshot()
    q_es = s.pending_question
    assert q_es.id == q.id and q_es.expected == q.expected and q_es.prompt != q.prompt
    for key in ("line", "hand", "scores_shown", "turn", "pile", "round"):
        assert getattr(after, key) == getattr(before, key)
    assert drive.answer(s, "cinco").message.startswith("Usa cifras")
    assert drive.answer(s, str(q.expected)).message == "¡Correcto!"


def test_store_records_attempts_and_mastery(tmp_path: Path) -> None:
    db = tmp_path / "progress.sqlite3"
    s = first_question(lang="en", student="ana", store=str(db), lesson="lesson-1")
    q = s.pending_question
    s.hint()
    drive.answer(s, "abc")  # not an attempt
    drive.answer(s, str(q.expected + 1000))
    drive.answer(s, str(q.expected))
    s.close()
    with Store(db) as store:
        rows = store.attempts("ana")
        assert [r.outcome.value for r in rows] == ["HINT", "INCORRECT", "CORRECT"]
        assert all(r.problem == q.problem and parse_step(r.step)[0] == q.step
                   and r.lesson == "lesson-1"
                   for r in rows)
        assert rows[1].expected == q.expected and rows[1].answered == q.expected + 1000
        assert rows[0].first_attempt and rows[-1].attempt_at_step == 3
        assert load_mastery(store, "ana").state(q.skill).asked == 1
    again = drive.start(Session(seed=1, student="ana", store=db, lang="en"))
    assert again.mastery.state(q.skill).asked == 1
    again.close()


def test_an_attempt_is_one_value_from_the_answer_to_the_store(tmp_path: Path) -> None:
    """Issue 34 part 3; docs/rules.md §4 "Evidence" (only first attempts count, so each row must
    say which try it was): the asker builds each attempt once, whole, and the recorder hands
    the very value to the store, which keeps it as it is. Its number at the step and its
    first-attempt mark are the ones the store counts for attempts given by their parts."""
    handed: list[Attempt] = []

    class Spy(Store):
        def add_attempt(self, attempt: Attempt, game: Mapping[str, object] | None = None
                        ) -> int:
            handed.append(attempt)
            return super().add_attempt(attempt, game)

    store = Spy(tmp_path / "progress.sqlite3")
    s = first_question(lang="en", student="ana", store=store, lesson="lesson-1")
    q = s.pending_question
    assert q is not None
    s.hint()
    drive.answer(s, str(q.expected + 1000))
    s.hint()
    drive.answer(s, str(q.expected))
    next_question(s)
    drive.reveal(s)
    s.close()
    stored = store.attempts("ana")
    assert stored == handed and len(handed) == 5
    assert {(a.student, a.session, a.lesson) for a in handed} == {
        ("ana", s.session_id, "lesson-1")}
    assert [a.outcome.value for a in handed] == ["HINT", "INCORRECT", "HINT", "CORRECT",
                                                 "GIVEUP"]
    with Store(tmp_path / "parts.sqlite3") as parts:  # the store's own numbering
        for a in handed:
            parts.record_attempt(a.student, a.session, lesson=a.lesson, problem=a.problem,
                                 step=a.step, outcome=a.outcome, input_text=a.input,
                                 feedback=a.feedback, kc=a.kc, hints=a.hints,
                                 duration=a.duration, expected=a.expected,
                                 answered=a.answered, time=a.time)
        assert parts.attempts("ana") == handed
    assert [(a.attempt_at_step, a.first_attempt) for a in handed] == [
        (1, True), (2, False), (3, False), (4, False), (1, True)]
    store.close()


def test_bots_plays_asked_only_when_a_target_skill_is_short_of_practice() -> None:
    """Issue part 5: the bots' plays become questions when a target skill is short of
    practice (otherwise only with ask_bot_plays), from the victim's or observer's side."""
    s = drive.start(Session(seed=3, rounds=1, lang="en", targets=("square",)))
    seen: list[tuple[str, int, str]] = []
    play_through(s, right, on_question=lambda ss: seen.append(
        (ss.pending_question.perspective, ss.pending_question.context.seat,
         ss.pending_question.skill)))
    for perspective, seat, skill in seen:
        if seat != 0 and perspective != "player":
            assert skill == "square" or skill == "negative"
    bot_powers = [e for e in s.game.round_events if isinstance(e, PowerEffect) and e.seat != 0
                  and e.rule != "x/x"]
    assert bot_powers and not any(s.asked_about(e) for e in bot_powers)


def test_bot_plays_asked_from_the_victim_perspective() -> None:
    s = drive.start(Session(seed=3, rounds=1, lang="en", ask_bot_plays=True))
    prompts: list[tuple[str, str, str]] = []
    play_through(s, right, on_question=lambda ss: prompts.append(
        (ss.pending_question.perspective, ss.pending_question.step, ss.pending_question.prompt)))
    victim = [p for k, step, p in prompts if k == "victim" and step == "loss"]
    gains = [p for k, step, p in prompts if k in ("victim", "observer") and step == "gain"]
    assert victim and all("did you just lose" in p for p in victim)
    assert gains and all(p.startswith("Player B") and "does player B gain" in p for p in gains)


def test_t_first_scaffold_queues_the_main_question_and_fades_once_mastered() -> None:
    """Issue part 2: scaffolds are a lesson setting and fade per skill once mastered."""
    for seed in range(100):
        s = drive.start(Session(seed=seed, rounds=3, lang="en", scaffold=("T",)))
        seen: list[tuple[str, str, bool, int]] = []

        def look(ss: Session, into: list = seen) -> None:  # type: ignore[type-arg]
            q = ss.pending_question
            nxt = ss.queued_questions[1] if len(ss.queued_questions) > 1 else None
            if q.step == "T" and nxt is not None:
                into.append((q.skill, nxt.skill,
                             ss.mastery.state(nxt.skill).mastered, len(ss.queued_questions)))

        play_through(s, right, on_question=look)
        if seen:
            assert all(n >= 2 for *_, n in seen)
            assert not any(mastered for _, _, mastered, _ in seen)  # faded once mastered
            return
    raise AssertionError("no scaffolded question found")


def test_round_end_question_shows_the_hands_not_their_totals() -> None:
    for seed in range(50):
        s = drive.start(Session(seed=seed, rounds=1, lang="en", ask=("round_end",), drill=False))
        collected: list[tuple[int, object]] = []

        def note(ss: Session, into: list = collected) -> None:  # type: ignore[type-arg]
            q = ss.pending_question
            if q.step == "collect":
                into.append((q.expected, ss.snapshot().question))

        play_through(s, right, on_question=note)
        if collected:
            bonus = [e for e in s.game.round_events
                     if getattr(e, "kind", "") in ("domino", "tranque")]
            (expected, view), = collected
            assert expected == bonus[0].points
            assert view.situation.hands and all(seat != bonus[0].seat
                                                for seat, _ in view.situation.hands)
            return
    raise AssertionError("no round-end question")


def test_bots_step_one_by_one_without_auto() -> None:
    s = Session(seed=2, lang="en", humans=(1,))
    moves = 0
    while (s.waiting() is None):
        events = s.advance(forced=False).events
        assert events
        moves += 1
        if s.current_player() is not None or s.pending_question is not None:
            break
    assert moves >= 1
    assert s.advance(forced=False).events == () or s.waiting() is None


def test_not_your_turn_and_bad_index() -> None:
    s = Session(seed=2, lang="en", humans=(1,))
    if (s.waiting() is None):
        with pytest.raises(SessionError, match="not your turn"):
            s.apply_action(0)
    while s.waiting() is None:  # the bots move
        s.advance(forced=False)
    if s.current_player() is not None:
        with pytest.raises(SessionError, match="Choose a move"):
            s.apply_action(99)


def test_snapshot_has_what_a_board_needs() -> None:
    from tutor.ui.play.skills import mastery_html

    s = drive.start(Session(players=4, seed=5, lang="es"))
    v = s.snapshot()
    assert v.table is not None and v.pile == 0 and len(v.hand_sizes) == 4
    assert "multiply" in {sk.skill for sk in v.skills}
    assert "<span>multiplicar" in mastery_html(v, v.lang)  # named in the session's language
    assert s.snapshot(seat=2).hand == tuple(s.round.hand(2))
    with pytest.raises(AttributeError):
        v.turn = 3  # type: ignore[misc]  # frozen: built once per refresh, never edited


def test_new_match_keeps_mastery() -> None:
    s = drive.start(Session(seed=4, rounds=1, lang="en"))
    play_through(s, right)
    asked = sum(st.asked for st in s.mastery.states.values())
    drive.new_match(s, rounds=1)
    assert s.match.scores == [0, 0] and not s.match.over
    assert sum(st.asked for st in s.mastery.states.values()) == asked
    with pytest.raises(SessionError):
        drive.new_match(s, student="bob")


def test_bad_settings_are_clear_errors() -> None:
    with pytest.raises(SessionError, match="humans"):
        drive.start(Session(humans=(5,)))
    with pytest.raises(SessionError, match="ask"):
        drive.start(Session(ask=("everything",)))
    with pytest.raises(SessionError, match="bot"):
        drive.start(Session(bots="genius"))
    assert issubclass(SessionError, ValueError)


def test_sheet_does_not_fail() -> None:
    s = drive.start(Session(seed=1, lang="en"))
    view = s.snapshot(sheet=True)  # no sheet until engine/sheet.py exists, else the round's
    assert (view.sheet is not None) == view.sheet_available


def test_package_doctest() -> None:
    import doctest

    import tutor

    assert doctest.testmod(tutor).failed == 0


def test_session_errors_speak_the_session_language() -> None:
    s = first_question(lang="es")
    with pytest.raises(SessionError) as info:
        drive.play(s, 0)
    assert str(info.value) == "Primero responde la pregunta (o pide ver la respuesta)."
    assert info.value.message("en") == "Answer the question first (or ask to see the answer)."
    with pytest.raises(SessionError, match="^Una partida necesita al menos 2 jugadores, no 1"):
        drive.start(Session(players=1, lang="es"))
    with pytest.raises(SessionError, match="^A game needs at least 2 players, not 1"):
        drive.start(Session(players=1, lang="en"))
    with pytest.raises(SessionError, match="^La configuración del juego no es válida: .*genius"):
        drive.start(Session(bots="genius", lang="es"))
    s.set_lang("en")  # the errors follow the session when its language changes
    with pytest.raises(SessionError, match="^Answer the question first"):
        drive.play(s, 0)


# --- teaching: evidence, adaptive practice, hot seat (docs/rules.md §4) --------------------------

def test_blame_follows_the_diagnosis() -> None:
    """A wrong answer a named mistake explains counts against the mistake's skill only."""
    for seed in range(300):
        s = first_question(seed_from=seed, lang="en")
        q = s.pending_question
        if q.step != "gain" or q.context.rule != "x/n" or not q.context.t_halves:
            continue
        wrong = q.context.n + q.context.t  # added instead of multiplied
        if q.is_right(wrong):
            continue
        before_add = s.mastery.state("add").asked
        fb = drive.answer(s, str(wrong))
        assert fb.diagnosis.rule == "added_instead_of_multiplied"
        assert s.mastery.state("multiply").asked == 1
        assert s.mastery.state("multiply").first_try_right == 0
        assert s.mastery.state("add").asked == before_add  # not blamed on adding
        return
    raise AssertionError("no x/n question found")


def test_rules_questions_at_most_once_a_round_and_never_over_a_tenth() -> None:
    """±30 and neutralized plays are rules questions: at most once per round unless targeted,
    and (issue goal) never more than a tenth of the questions."""
    for seed in range(20):
        s = drive.start(Session(seed=seed, rounds=3, lang="en"))
        asked: list[tuple[int, str]] = []

        def note(ss: Session, into: list[tuple[int, str]] = asked) -> None:
            into.append((ss.round.number, ss.pending_question.skill))

        play_through(s, right, on_question=note)
        for rnd in (1, 2, 3):
            assert sum(1 for r, k in asked if r == rnd and k == "rules") <= 1
        assert sum(k == "rules" for _, k in asked) * 10 <= max(10, len(asked))


def test_a_mastered_skill_is_asked_now_and_then() -> None:
    """Issue part 5: a mastered skill is asked about one time in four, to catch forgetting."""
    plays = asked = 0
    for seed in range(60):
        s = drive.start(Session(seed=seed, rounds=1, lang="en", drill=False))
        for skill in ("multiply", "add", "square", "double", "other-end", "negative"):
            st = s.mastery.state(skill)
            st.p_known, st.mastered, st.streak = 0.99, True, STREAK_TO_MASTER  # RULES §4
        powers_before = 0

        def note(ss: Session) -> None:
            nonlocal asked
            asked += ss.pending_question.perspective == "player"

        play_through(s, right, on_question=note)
        plays += sum(1 for e in s.game.round_events if isinstance(e, PowerEffect) and e.seat == 0
                     and e.rule not in ("power-vs-power", "neutralized"))
        del powers_before
    assert plays > 100
    assert 0.12 < asked / plays < 0.4, (asked, plays)


def test_drill_between_rounds_on_real_positions() -> None:
    """Issue part 5: between rounds a short drill covers target skills still below mastery,
    on real positions of the tile set, scored by the engine."""
    from engine import power_effect
    from tutor.teaching.practice import drill_position

    s = drive.start(Session(seed=2, rounds=1, lang="en", targets=("square",), ask=("power",)))
    drills: list[object] = []

    def note(ss: Session) -> None:
        v = ss.snapshot().question
        if v.situation.drill:
            drills.append((ss.pending_question, v))

    play_through(s, right, on_question=note)
    assert 2 <= len(drills) <= 4
    for q, view in drills:
        assert q.skill in ("square", "other-end") and view.situation.played_end in ("L", "R")
        line = view.situation.line
        placed = line[-1] if view.situation.played_end == "R" else line[0]
        assert q.context.t_tile in (line[0], line[-1]) and placed != q.context.t_tile
    import random as _random
    from itertools import pairwise

    rng = _random.Random(5)
    for skill in ("multiply", "add", "square", "double", "other-end", "negative"):
        for _ in range(30):
            pos = drill_position(skill, rng)
            assert all(x.b == y.a for x, y in pairwise(pos.line))  # they join up
            assert len(set(pos.line)) == len(pos.line)  # different tiles of the set
            played = pos.line[-1] if pos.played_end == "R" else pos.line[0]
            gain, loss = power_effect(played, pos.t_tile)
            assert (pos.event.gain, pos.event.loss) == (gain, loss)


def test_hot_seat_each_human_is_a_student_of_their_own(tmp_path: Path) -> None:
    db = tmp_path / "p.sqlite3"
    s = drive.start(Session(players=3, humans=(0, 2), seed=6, rounds=1, lang="en", student="ana",
                store=str(db)))
    assert s.students == {0: "ana", 2: "ana (C)"}
    whose: list[tuple[int, str]] = []

    def note(ss: Session) -> None:
        q = ss.pending_question
        if q.perspective == "player" and q.step != "collect":
            whose.append((q.context.seat, ss.snapshot().question.student))

    play_through(s, right, on_question=note)
    s.close()
    assert {seat for seat, _ in whose} == {0, 2}
    assert all(name == s.students[seat] for seat, name in whose)
    with Store(db) as store:
        assert set(store.students()) == {"ana", "ana (C)"}
        assert store.attempts("ana") and store.attempts("ana (C)")
    assert s.mastery_of(0) is not s.mastery_of(2)


def test_bots_power_plays_appear_worked_out_in_the_log() -> None:
    s = drive.start(Session(seed=3, rounds=1, lang="en"))
    play_through(s, right)
    lines = [s.describe(e) for e in s.game.round_events if isinstance(e, PowerEffect)
             and e.seat != 0 and e.rule not in ("power-vs-power", "neutralized")]
    assert lines and all(re.search(r"(gains|loses) .*[×+].* = \d+", line) for line in lines)


def next_question(s: Session, seed: int = 0) -> None:
    """Play on (random moves, right answers) until a new question is pending."""
    rng = random.Random(seed)
    for _ in range(10_000):
        if s.pending_question is not None:
            return
        if s.current_player() is not None:
            drive.play(s, rng.randrange(len(s.legal_actions())))
        elif s.round.over and not s.match.over:
            drive.new_round(s)
        else:
            raise AssertionError("no more questions")
    raise AssertionError("stuck")


def lock(db: Path) -> sqlite3.Connection:
    """Another connection that holds the progress file's write lock until it is closed."""
    other = sqlite3.connect(db, isolation_level=None)
    other.execute("BEGIN EXCLUSIVE")
    return other


BUSY = ("Your last answers are not saved yet: the progress store is busy or out of reach. They "
        "wait on this page and are saved as soon as it answers; keep this page open until then.")


def test_a_busy_store_keeps_the_answers_in_order_until_it_is_free(tmp_path: Path) -> None:
    db = tmp_path / "progress.sqlite3"
    store = Store(db, busy_timeout=0.01, retries=1)  # short waits keep the test quick
    s = first_question(lang="en", student="ana", store=store, lesson="lesson-1")
    q = s.pending_question
    assert q is not None and s.unsaved == 0 and s.unsaved_message is None
    other = lock(db)
    wrong = drive.answer(
            s, str(q.expected + 1000))  # the game goes on: the answer gets its feedback
    assert wrong.kind == "wrong" and wrong.hint and not wrong.done
    assert s.unsaved == 2  # the mastery and the attempt
    assert s.unsaved_message == BUSY
    assert s.snapshot().unsaved == 2
    s.hint()
    assert drive.answer(s, str(q.expected)).kind == "correct"
    assert s.unsaved == 4 and not s.flush()
    with Store(db) as reader:  # nothing of this question reached the file
        assert reader.attempts("ana") == []
    s.set_lang("es")
    assert s.unsaved_message is not None and s.unsaved_message.startswith(
        "Tus últimas respuestas aún no están guardadas")
    s.set_lang("en")
    other.close()
    next_question(s)
    drive.answer(s, str(s.pending_question.expected))  # type: ignore[union-attr]
    assert s.unsaved == 0 and s.unsaved_message is None
    with Store(db) as reader:
        rows = reader.attempts("ana")
        saved = load_mastery(reader, "ana")
    assert [(r.outcome.value, r.problem, parse_step(r.step)[0], r.attempt_at_step)
            for r in rows] == [
        ("INCORRECT", q.problem, q.step, 1), ("HINT", q.problem, q.step, 2),
        ("CORRECT", q.problem, q.step, 3),
        ("CORRECT", rows[3].problem, parse_step(rows[3].step)[0], 1)]
    assert (rows[3].problem, rows[3].step) != (q.problem, q.step)
    assert [r.time for r in rows] == sorted(r.time for r in rows)
    assert saved.states == s.mastery.states
    s.close()
    store.close()


def test_flush_and_close_write_what_a_busy_store_kept(tmp_path: Path) -> None:
    db = tmp_path / "progress.sqlite3"
    s = first_question(lang="en", student="ana", store=Store(db, busy_timeout=0.01, retries=0))
    q = s.pending_question
    assert q is not None
    other = lock(db)
    drive.reveal(s)
    assert s.unsaved == 2
    with pytest.raises(SessionError, match="not saved yet"):
        s.close()  # still busy: nothing is lost, the store stays open
    other.close()
    assert s.flush() and s.unsaved == 0
    s.close()
    with Store(db) as reader:
        assert [r.outcome.value for r in reader.attempts("ana")] == ["GIVEUP"]
        assert load_mastery(reader, "ana").state(q.skill).asked == 1


def test_a_session_starts_while_the_store_is_busy(tmp_path: Path) -> None:
    db = tmp_path / "progress.sqlite3"
    Store(db).close()
    other = lock(db)
    s = first_question(lang="en", student="ana", store=Store(db, busy_timeout=0.01, retries=0))
    assert s.unsaved == 1  # its session row
    other.close()
    drive.answer(s, str(s.pending_question.expected))  # type: ignore[union-attr]
    assert s.unsaved == 0
    with Store(db) as reader:
        assert [r.session for r in reader.attempts("ana")] == [s.session_id]


def test_a_name_the_store_cannot_keep_is_refused_at_the_start(tmp_path: Path) -> None:
    db = tmp_path / "progress.sqlite3"
    with pytest.raises(StoreError, match="at most 10000 characters"):
        drive.start(Session(seed=1, student="x" * 10_001, store=db, lang="en"))
    with Store(db) as store:
        assert store.students() == []


def test_a_question_left_open_for_days_counts_as_one_day(tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    db = tmp_path / "progress.sqlite3"
    s = first_question(lang="en", student="ana", store=str(db))
    q = s.pending_question
    assert q is not None
    real = time.monotonic
    monkeypatch.setattr(time, "monotonic", lambda: real() + 3 * 86_400)
    drive.answer(s, str(q.expected))
    assert s.unsaved == 0
    s.close()
    with Store(db) as store:
        assert [a.duration for a in store.attempts("ana")] == [86_400.0]
        assert load_mastery(store, "ana").state(q.skill).total_seconds == 86_400.0


def _match_to_its_end(s: Session, move_seed: int) -> None:
    """Random legal moves to the match's end (a session that asks nothing)."""
    rng = random.Random(move_seed)
    while not s.match.over:
        if s.round.over:
            drive.new_round(s)
        else:
            drive.play(s, rng.randrange(len(s.legal_actions())))


def test_the_match_end_names_the_final_scores_not_the_last_rounds_hands() -> None:
    """Issue 33: at the match's end the page showed "A: 0, B: 0" while A still held x/x.
    Those were the last round's hand points (a symbol half is worth 0, docs/rules.md §1.1 D-1:
    A held +/+ and x/x after B's domino), printed as "Tiles left in each hand" where the final
    scores (§1.9: gains minus losses over the rounds) were never named. The snapshot now
    carries both: the tiles and points left in each hand, and the match's final scores."""
    s = drive.start(Session(seed=72, lang="en", ask=(), drill=False))
    _match_to_its_end(s, 72)
    v = s.snapshot()
    hands = [s.round.hand(seat) for seat in range(2)]
    assert [str(t) for t in hands[0]] == ["+/+", "x/x"] and not hands[1]  # the case reported
    assert v.hand_sizes == (2, 0)
    assert v.hand_points == tuple(sum(t.total(0) for t in h) for h in hands) == (0, 0)
    assert v.match_end is not None
    final = tuple(sum(r.gains[i] - r.losses[i] for r in s.match.rounds) for i in range(2))
    assert v.match_end.scores == final == tuple(v.scores_shown)
    assert v.match_end.scores != v.hand_points and all(v.match_end.scores)
    assert v.match_end.winners == tuple(v.match_winners or ())
    assert v.next_lesson is None  # free play is the last of the lessons page's order


def test_the_match_end_waits_for_the_last_question_and_counts_the_match_answers() -> None:
    """docs/rules.md §4: the match end holds the student's answers of the match, each question
    counted once at its first answer (a reveal before any answer is wrong); its final scores
    wait while a question hides points; a new match counts its own answers."""
    s = drive.start(Session.from_lesson("04-times", lang="en", seed=5, student="ana"))
    asked: dict[str, list[int]] = {}
    flip = [0]

    def policy(ss: Session) -> Feedback:
        q = ss.pending_question
        assert q is not None
        seen = asked.setdefault(q.skill, [0, 0])
        assert ss.snapshot().match_end is None  # a question waits: no final scores yet
        flip[0] += 1
        seen[0] += 1
        if flip[0] % 3:
            seen[1] += 1
            return right(ss)
        return drive.reveal(ss)

    play_through(s, policy)
    v = s.snapshot()
    assert v.match_over and v.match_end is not None
    assert v.match_end.scores == tuple(s.match.scores)
    (mine,) = v.match_end.answers
    assert mine.student == "ana"
    # Each question counts under the skill its first answer is evidence for (a ×1 item is
    # evidence for other-end), as mastery and tutor.teaching.counts count it (issue 33 part 3).
    live = {sk: [st.asked, st.first_try_right] for sk, st in s.mastery.states.items()
            if st.asked}
    assert {sk.skill: [sk.asked, sk.first_try_right] for sk in mine.skills} == live
    assert (mine.asked, mine.first_try_right) == (sum(a for a, _ in asked.values()),
                                        sum(r for _, r in asked.values()))
    assert v.next_lesson == "05-squares" and v.next_lesson_title == "The x/x tile: squares"
    drive.new_match(s)
    assert s.match_answers().skills == () and s.snapshot().match_end is None


# --- the session owns the loop (issue 34 part 1) ---------------------------------------------


def _first_moves_game(s: Session, driven: bool) -> list[str]:
    """Play ``s``'s match with the human's first legal move, every question revealed, each
    round started again; ``driven``: each intent followed by the bots' steps at once
    (:mod:`tests.driving`, as a script runs the loop), else one :meth:`Session.advance` per
    bot step (as the dashboard paces it). The whole match's events, as text."""
    out: list[str] = list(map(repr, s.game.last_events))  # the deal
    if driven:
        out += map(repr, drive.bots(s))  # the bots before the human
    for _ in range(5_000):
        if s.pending_question is not None:
            fb = drive.reveal(s) if driven else s.reveal()
            out += map(repr, fb.events)  # (driven: the bots go on after it)
        elif s.current_player() is not None:
            move = s.legal_actions()[0]
            out += map(repr, drive.play(s, move) if driven else s.apply_action(move))
        elif s.lesson_over:
            break
        elif s.round.over:
            out += map(repr, drive.new_round(s) if driven else s.new_round())
        else:
            assert not driven  # a driven session's bots moved after the intent
            events = list(s.advance(forced=False).events)
            assert events
            out += map(repr, events)
    return out


def test_advance_plays_the_same_games_as_the_bots_running_by_themselves() -> None:
    """docs/rules.md §1.5: the loop the dashboard paces (advance(), one step at a time) and
    the one a script runs (an intent, then advance() until a human is needed, as the terminal
    and the simulated students do) make the same moves from the same seed."""
    for seed in (2, 5, 11):
        auto = _first_moves_game(Session(seed=seed, lang="en", players=3), True)
        paced = _first_moves_game(Session(seed=seed, lang="en", players=3), False)
        assert paced == auto and len(auto) > 50


def test_advance_makes_a_humans_forced_draws_as_one_step() -> None:
    """docs/rules.md §1.5: a player who cannot place a tile draws, one tile at a time, until one
    fits: advance() makes that run of draws for a human as one step (the dashboard shows it
    as one), and only when asked to (``forced``; the terminal lets the student choose)."""
    from engine.events import Drew
    from engine.round import Draw, Pass

    for seed in range(40):
        s = Session(seed=seed, lang="en")
        for _ in range(400):
            step = s.advance(forced=False)
            if step.events:
                assert not step.forced and step.seat not in s.humans
                continue
            if step.waiting == "question":
                s.reveal()
                continue
            if step.waiting != "move":
                break
            legal = s.legal_actions()
            if len(legal) == 1 and isinstance(legal[0], (Draw, Pass)):
                seat = s.current_player()
                before = s.game.steps
                assert s.advance(forced=False).events == ()  # not without being asked
                forced = s.advance()
                assert forced.forced and forced.seat == seat and forced.number == s.game.steps
                assert s.game.steps > before
                if isinstance(legal[0], Draw):
                    drew = [e for e in forced.events if isinstance(e, Drew)]
                    assert drew and all(e.seat == seat for e in drew)
                    assert s.waiting() != "move" or not all(
                        isinstance(m, Draw) for m in s.legal_actions())
                assert list(forced.events) == s.game.last_events
                return
            s.apply_action(legal[0])
    raise AssertionError("no forced draw in 40 seeded games")


def test_waiting_is_the_one_move_check() -> None:
    """What the game waits for decides what play() allows, in the session's words."""
    s = Session(seed=2, lang="en", humans=(1,))
    assert s.waiting() is None and (s.waiting() is None)
    with pytest.raises(SessionError, match="It is not your turn"):
        s.apply_action(0)
    while s.waiting() is None:
        s.advance()
    assert s.waiting() in ("move", "question", "round")
    assert s.snapshot().waiting == s.waiting()
    assert (s.waiting() == "move") == (s.current_player() is not None)


def test_the_snapshot_tells_the_log_and_the_news_once() -> None:
    """The log is the game's last events, told by the session (hidden points left out until
    answered, docs/rules.md §4); the news are the last step's."""
    from tutor.session.snapshot import LOG_KEEP

    s = Session(seed=3, lang="en")
    for _ in range(20):
        if s.waiting() == "move":
            s.apply_action(0)
        elif s.waiting() == "question":
            s.reveal()
        elif s.waiting() is None:
            s.advance()
        else:
            break
    view = s.snapshot()
    told = [s.describe(e) for e in s.game.round_events][-LOG_KEEP:]
    assert list(view.log) == told and len(view.log) == LOG_KEEP
    assert list(view.news) == [s.describe(e) for e in s.game.last_events]
    assert view.step == s.game.steps
