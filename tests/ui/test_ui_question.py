"""The tutor panel's HTML (tutor/ui/play/question.py): no widgets, no kernel."""

from __future__ import annotations

from tutor.teaching.questions import math_html
from tutor.ui.play.question import question_html


def test_question_panel_shows_the_situation_never_the_working() -> None:
    """Issue (no giveaways): before the first attempt the panel shows the tile played, the
    line with both ends marked and the hands to count; the formula and T only as a scaffold
    the lesson asked for."""
    from tutor.play.snapshot import QuestionView
    from tutor.teaching.questions import Situation

    q = QuestionView(id="q", prompt="You played 5/x. How many points do you gain?",
                     step="gain", skill="multiply",
                     situation=Situation(played="5/x", line=("4/5", "5/6", "6/5", "5/x"),
                                         played_end="R"),
                     attempts=0, hints=(), scaffold="", queued=0, student="ana")
    out = question_html(q, "en")
    assert "Line: ◀ [4/5] [5/6] [6/5] [5/x] ▶" in out and "5/x was placed at the right end" in out
    assert "<math" not in out and "×" not in out and "T =" not in out
    blanks = question_html(
        QuestionView(**{**q.__dict__, "scaffold": r"5 \times \left(\square + \square\right)"}),
        "en")
    assert math_html(r"5 \times \left(\square + \square\right)") in blanks


def test_question_panel_counts_the_questions_to_come_in_words() -> None:
    """"1 more question", "7 preguntas más": no "question(s)"; none said when none follow."""
    from tutor.play.snapshot import QuestionView
    from tutor.teaching.questions import Situation

    q = QuestionView(id="q", prompt="You played 5/x. How many points do you gain?",
                     step="gain", skill="multiply",
                     situation=Situation(played="5/x", line=("5/6", "5/x"), played_end="R"),
                     attempts=0, hints=(), scaffold="", queued=0, student="ana")
    for queued, lang, said in ((1, "en", "1 more question after this one."),
                               (7, "en", "7 more questions after this one."),
                               (1, "es", "Después de esta, 1 pregunta más."),
                               (7, "es", "Después de esta, 7 preguntas más.")):
        out = question_html(QuestionView(**{**q.__dict__, "queued": queued}), lang)
        assert f"<div class='ld-legend'>{said}</div>" in out
    assert "more question" not in question_html(q, "en")


def test_working_is_shown_like_an_unreadable_answer() -> None:
    """RULES.md §4 "The answer is a number": the page answers working (``4*8``) with "now
    work it out" as a note, not as a wrong answer, and with no hint; in both languages."""
    from tutor.play.session import Session
    from tutor.ui.play.question import feedback_html

    for lang, said in (("en", "That is the working. Now work it out: what number is it?"),
                       ("es", "Eso es la operación. Ahora resuélvela: ¿qué número da?")):
        for seed in range(200):
            s = Session(seed=seed, lang=lang)
            while s.pending_question is None and s.human_to_move is not None:
                s.play(0)
            if s.pending_question is not None:
                break
        q = s.pending_question
        assert q is not None
        fb = s.answer(f"{q.expected}*1")
        invalid = s.answer("abc")
        assert fb.kind == "working" and not fb.done
        out = feedback_html(fb)
        assert out == f"<span class='ld-warn'>{said}</span>"
        assert out.replace(said, invalid.message) == feedback_html(invalid)
        assert "✘" not in out and s.pending_question == q
