"""The round-end panel's HTML (tutor/ui/round_end.py): no widgets, no kernel."""

from __future__ import annotations

from types import SimpleNamespace

from ui_views import cells, fake_view

from engine.events import Bonus, PowerEffect, RoundEnded
from engine.tiles import parse_tile
from tutor.lesson_end import LessonSummary, SkillSummary
from tutor.ui.round_end import lesson_end_html, match_html, round_summary_html


def test_round_summary_names_domino_and_tranque() -> None:
    domino = RoundEnded(reason="domino", winner=1, gains=(0, 12), losses=(0, 0),
                        hand_totals=(12, 0), capicua="")
    events = [Bonus(seat=1, kind="domino", points=12),
              PowerEffect(seat=0, target=1, tile=parse_tile("x/3"), rule="x/n", gain=6, loss=2,
                          t=2, t_tile=parse_tile("1/1"), n=3)]
    out = round_summary_html(domino, events, 2, "en", pending=False)
    assert "Domino!" in out and "Player B placed their last tile." in out
    assert "Tiles left in each hand: A: 12, B: 0" in out
    assert "Player B: +12 for domino (the tiles left in the other hands)" in out
    assert "Player A: +6 / −0 from power plays" in out  # the loss goes to the target
    assert "Player B: +0 / −2 from power plays" in out
    es = round_summary_html(domino, events, 2, "es", pending=False)
    assert "Domino!" not in es and "jugador B" in es

    tranque = RoundEnded(reason="tranque", winner=None, gains=(0, 0), losses=(0, 0),
                         hand_totals=(9, 9))
    out = round_summary_html(tranque, events, 2, "en", pending=True)
    assert "Tranque!" in out and "nobody collects" in out
    assert "ld-hidden-pts" in out and "+12" not in out  # the points wait for the answer


def test_match_table_hides_the_current_round_while_asking() -> None:
    r1 = SimpleNamespace(number=1, gains=[10, 0], losses=[0, 4])
    r2 = SimpleNamespace(number=2, gains=[0, 7], losses=[0, 0])
    match = SimpleNamespace(players=2, rounds=[r1, r2], current=r2)
    view = fake_view(scores_shown=[6, 3], match_over=True, match_winners=[0])
    asking = match_html(match, view, "en", pending=True)
    assert cells(asking) == [["Round 1", "10", "-4"], ["Round 2", "?", "?"],
                              ["Total", "6", "3"],
                              ["Right first try / asked (this lesson)", "0/0", ""]]
    assert "★" not in asking
    done = match_html(match, view, "en", pending=False)
    assert cells(done)[1] == ["Round 2", "0", "7"] and "Match winner: A" in done


def _summary(lang: str, student: str = "ana") -> LessonSummary:
    from tutor.lesson_end import next_step

    skills = (
        SkillSummary("other-end", "finding the other end (T)", asked=5, right=4, mastered=True,
                     p_known=0.97, next_step=next_step(True, 5, None, lang)),
        SkillSummary("multiply", "multiplying", asked=9, right=3, mastered=False, p_known=0.4,
                     mistake="added_instead_of_multiplied",
                     next_step=next_step(False, 9, "added_instead_of_multiplied", lang)),
    )
    return LessonSummary("04-times", student, lang, "questions", skills, questions=14,
                         rounds=4, minutes=12.0)


def test_lesson_end_shows_each_skill_and_links_back_to_the_lessons() -> None:
    """RULES.md §4 (issue 32 part 4): at the lesson's end, each target skill with right /
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
