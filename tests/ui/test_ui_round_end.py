"""The round-end panel's HTML (tutor/ui/play/round_end.py): no widgets, no kernel."""

from __future__ import annotations

import random
import re
from collections.abc import Callable

import pytest
from ui_views import cells, fake_view

from engine.events import Bonus, PowerEffect, RoundEnded
from engine.tiles import parse_tile
from tests import driving as drive
from tutor.course.lesson_end import LessonSummary, SkillSummary
from tutor.i18n import format_number
from tutor.session.session import Session
from tutor.session.snapshot import MatchRow, RoundSummary
from tutor.ui.play.round_end import RoundEndPanel, lesson_end_html, match_html, round_summary_html


def test_round_summary_names_domino_and_tranque() -> None:
    domino = RoundEnded(reason="domino", winner=1, gains=(0, 12), losses=(0, 0),
                        hand_totals=(12, 0), capicua="")
    events = [Bonus(seat=1, kind="domino", points=12),
              PowerEffect(seat=0, target=1, tile=parse_tile("x/3"), rule="x/n", gain=6, loss=2,
                          t=2, t_tile=parse_tile("1/1"), n=3)]
    out = round_summary_html(RoundSummary.of(domino, events, 2), "en", pending=False)
    assert "Domino!" in out and "Player B placed their last tile." in out
    assert "Tiles left in each hand: A: 12 points; B: 0 points" in out  # no tile counts given
    counted = round_summary_html(RoundSummary.of(domino, events, 2), "en", pending=False,
                                 tiles=(3, 0), points=(12, 0))
    assert "Tiles left in each hand: A: 3 tiles, 12 points; B: 0 tiles, 0 points" in counted
    assert "Player B: +12 for domino (the tiles left in the other hands)" in out
    assert "Player A: +6 / −0 from power plays" in out  # the loss goes to the target
    assert "Player B: +0 / −2 from power plays" in out
    es = round_summary_html(RoundSummary.of(domino, events, 2), "es", pending=False)
    assert "Domino!" not in es and "jugador B" in es

    tranque = RoundEnded(reason="tranque", winner=None, gains=(0, 0), losses=(0, 0),
                         hand_totals=(9, 9))
    out = round_summary_html(RoundSummary.of(tranque, events, 2), "en", pending=True)
    assert "Tranque!" in out and "nobody collects" in out
    assert "ld-hidden-pts" in out and "+12" not in out  # the points wait for the answer


def test_match_table_hides_the_current_round_while_asking() -> None:
    rows = (MatchRow(number=1, points=(10, -4), current=False),
            MatchRow(number=2, points=(0, 7), current=True))
    view = fake_view(scores_shown=[6, 3], match_over=True, match_winners=[0], match_rows=rows)
    asking = match_html(view, "en", pending=True)
    assert cells(asking) == [["Round 1", "10", "-4"], ["Round 2", "?", "?"],
                              ["Total", "6", "3"],
                              ["Right first try / asked (this lesson)", "0/0", ""]]
    assert "★" not in asking
    done = match_html(view, "en", pending=False)
    assert cells(done)[1] == ["Round 2", "0", "7"] and "Match winner: A" in done


def _summary(lang: str, student: str = "ana") -> LessonSummary:
    from tutor.course.lesson_end import next_step

    skills = (
        SkillSummary("other-end", "finding the other end (T)", asked=5, first_try_right=4,
                     mastered=True, p_known=0.97, next_step=next_step(True, 5, None, lang)),
        SkillSummary("multiply", "multiplying", asked=9, first_try_right=3, mastered=False,
                     p_known=0.4, mistake="added_instead_of_multiplied",
                     next_step=next_step(False, 9, "added_instead_of_multiplied", lang)),
    )
    return LessonSummary("04-times", student, lang, "questions", skills, questions=14,
                         rounds=4, minutes=12.0)


def test_lesson_end_shows_each_skill_and_links_back_to_the_lessons() -> None:
    """docs/rules.md §4 (issue 32 part 4): at the lesson's end, each target skill with right /
    asked, mastered ✔ or not, what to practise next, and a relative link to the lessons page
    with the page's language and student, in both languages."""
    out = lesson_end_html(_summary("en"), "en")
    assert cells(out) == [
        ["4 / 5", "✔ yes", "Mastered: go on to the next lesson."],
        ["3 / 9", "not yet",
         "Practise it again in this lesson; watch for: added instead of multiplying."]]
    assert "finding the other end (T)" in out and "that was all its questions" in out
    assert "href='Lessons.ipynb?lang=en&amp;student=ana'" in out
    assert ">Back to the lessons</a>" in out
    es = lesson_end_html(_summary("es"), "es")
    assert "href='Lessons.ipynb?lang=es&amp;student=ana'" in es
    assert "Volver a las lecciones" in es and "Bien / preguntadas" in es
    assert "cuidado con: sumó en lugar de multiplicar" in es and "✔ sí" in es
    anon = lesson_end_html(_summary("en", "anon"), "en")
    assert "href='Lessons.ipynb?lang=en'" in anon  # the anonymous student is left out


# --- from seeded sessions (issue 33 part 5) ---------------------------------------------------

def _words(html_text: str) -> str:
    return " ".join(re.sub(r"<[^>]+>", " ", html_text).split())


def _to_round_end(s: Session, rng: random.Random,
                  answer: Callable[[Session], object]) -> None:
    """Play random legal moves, answering what is asked, until the round is over and no
    question waits."""
    for _ in range(2000):
        if s.pending_question is not None:
            answer(s)
        elif s.round.over:
            return
        else:
            drive.play(s, rng.randrange(len(s.legal_actions())))
    raise AssertionError("the round did not end")


def _right(s: Session) -> object:
    q = s.pending_question
    assert q is not None
    return drive.answer(s, str(q.expected))


@pytest.mark.parametrize("lang, tile, tiles, point, points, left", [
    ("en", "tile", "tiles", "point", "points", "Tiles left in each hand"),
    ("es", "ficha", "fichas", "punto", "puntos", "Fichas que quedan en cada mano")])
def test_a_round_end_says_the_tiles_left_in_each_hand_and_their_points(
        lang: str, tile: str, tiles: str, point: str, points: str, left: str) -> None:
    """docs/rules.md §1.8: at a tranque every player totals their hand (a symbol half is worth 0,
    §1.1 D-1). The round end says each hand's tiles and points in those words, numbers
    counted here from the tiles themselves; while the round-end question waits, neither."""
    s = drive.start(Session(seed=2, lang=lang, ask=("round_end",), drill=False))
    rng = random.Random(2)
    pending = []
    _to_round_end(s, rng, lambda ss: (pending.append(ss.snapshot()), _right(ss)))
    hands = [s.round.hand(seat) for seat in range(2)]
    sizes = [len(h) for h in hands]
    values = [sum(t.total(0) for t in h) for h in hands]
    assert all(sizes) and values[0] != sizes[0]  # a tranque: tiles and points both to say

    def say(n: int, one: str, many: str) -> str:
        return f"{n} {one if n == 1 else many}"

    expected = f"{left}: " + "; ".join(
        f"{'AB'[seat]}: {say(sizes[seat], tile, tiles)}, {say(values[seat], point, points)}"
        for seat in range(2))
    panel = RoundEndPanel(on_next_round=lambda: None, on_new_match=lambda: None)
    view = s.snapshot()
    panel.render(view)
    assert expected in _words(panel.summary.value), _words(panel.summary.value)
    assert pending and all(not v.hand_points for v in pending)  # the question adds them up
    asked = pending[0]
    panel.render(asked)
    assert f"{left}:" not in panel.summary.value and panel.match_end.layout.display == "none"


def _lesson_to_its_match_end(lang: str) -> tuple[Session, dict[str, list[int]]]:
    """Lesson 04 (seed 5) played to its match's end, every third question revealed."""
    s = drive.start(Session.from_lesson("04-times", lang=lang, seed=5, student="ana"))
    rng = random.Random(5)
    asked: dict[str, list[int]] = {}

    done = [0]

    def answer(ss: Session) -> object:
        p = ss.asker.pending
        assert p is not None
        done[0] += 1
        right = done[0] % 3 != 0
        result = _right(ss) if right else drive.reveal(ss)
        # counted as the evidence counts it (tutor.teaching.counts, docs/rules.md §4)
        ev = p.evidence
        if ev is not None and ev.kind != "none":
            seen = asked.setdefault(ev.skill, [0, 0])
            seen[0] += 1
            seen[1] += int(right and ev.correct and not ev.hints)
        return result

    while True:
        _to_round_end(s, rng, answer)
        if s.match.over:
            return s, asked
        drive.new_round(s)


@pytest.mark.parametrize("lang, final, point, points, caption, next_words, title", [
    ("en", "Final score", "point", "points", "Your answers in this match", "Next lesson",
     "The x/x tile: squares"),
    ("es", "Puntuación final", "punto", "puntos", "Tus respuestas en esta partida",
     "Siguiente lección", "La ficha x/x: cuadrados")])
def test_a_match_end_shows_the_final_scores_the_answers_and_the_next_lesson(
        lang: str, final: str, point: str, points: str, caption: str, next_words: str,
        title: str) -> None:
    """docs/rules.md §1.9 and §4: the match end names the final scores (gains minus losses over
    its rounds, added up here), the student's answers of the match with right at the first
    answer / asked per skill (counted here as they were given), and links back to the lessons
    page and on to the next lesson in the lessons page's order, with the language and the
    student, as the lessons page builds them."""
    s, asked = _lesson_to_its_match_end(lang)
    final_scores = [sum(r.gains[i] - r.losses[i] for r in s.match.rounds) for i in range(2)]
    view = s.snapshot()
    assert view.match_end is not None
    panel = RoundEndPanel(on_next_round=lambda: None, on_new_match=lambda: None)
    panel.render(view)
    assert panel.match_end.layout.display is None
    shown = panel.lesson_end.value + panel.match_end.value
    words = _words(panel.match_end.value)

    def say(n: int) -> str:
        return f"{format_number(n, lang)} {point if n == 1 else points}"

    assert (f"{final} : A: {say(final_scores[0])}, B: {say(final_scores[1])}") in words
    table = panel.match_end.value.split("ld-match-answers", 1)[1]
    assert caption in table
    rows = dict(re.findall(r"data-skill='([^']+)'>.*?<td class='ld-num'>(\d+ / \d+)</td>",
                           table))
    assert rows == {skill: f"{r} / {a}" for skill, (a, r) in asked.items()}
    total_right, total_asked = (sum(r for _, r in asked.values()),
                                sum(a for a, _ in asked.values()))
    assert f"<b>{total_right} / {total_asked}</b>" in table and total_right < total_asked
    assert shown.count(f"href='Lessons.ipynb?lang={lang}&amp;student=ana'") == 1
    assert shown.count(
        f"href='Play.ipynb?lesson=05-squares&amp;lang={lang}&amp;student=ana'") == 1
    assert f"{next_words}: {title}" in _words(shown)
    assert view.match_end.scores == tuple(final_scores)


def test_a_free_play_match_end_links_back_and_has_no_next_lesson() -> None:
    """Free play (no targets: no lesson summary) ends with its match: the match end itself
    links back to the lessons page; free play is the last lesson, so nothing comes next. The
    last hand held only symbol tiles (0 points, docs/rules.md D-1), said as tiles and points."""
    s = drive.start(Session(seed=72, lang="en", ask=(), drill=False, student="ana"))
    rng = random.Random(72)
    while not s.match.over:
        if s.round.over:
            drive.new_round(s)
        else:
            drive.play(s, rng.randrange(len(s.legal_actions())))
    view = s.snapshot()
    panel = RoundEndPanel(on_next_round=lambda: None, on_new_match=lambda: None)
    panel.render(view)
    assert panel.lesson_end.layout.display == "none"
    assert "Tiles left in each hand: A: 2 tiles, 0 points; B: 0 tiles, 0 points" in _words(
        panel.summary.value)
    a, b = s.match.scores
    assert f"Final score : A: {a} points, B: {b} points" in _words(panel.match_end.value)
    assert "no questions in this match." in panel.match_end.value
    assert panel.match_end.value.count("href='Lessons.ipynb?lang=en&amp;student=ana'") == 1
    assert "Play.ipynb" not in panel.match_end.value
