"""The tutor panel's HTML (tutor/ui/play/question.py): no widgets, no kernel."""

from __future__ import annotations

from tests import driving as drive
from tutor.teaching.questions import Question, math_html
from tutor.ui.play.question import question_html


def test_question_panel_shows_the_situation_never_the_working() -> None:
    """Issue (no giveaways): before the first attempt the panel shows the tile played, the
    line with both ends marked and the hands to count; the formula and T only as a scaffold
    the lesson asked for."""
    from tutor.session.snapshot import QuestionView
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
    from tutor.session.snapshot import QuestionView
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
    """docs/rules.md §4 "The answer is a number": the page answers working (``4*8``) with "now
    work it out" as a note, not as a wrong answer, and with no hint; in both languages."""
    from tutor.session.session import Session
    from tutor.ui.play.question import feedback_html

    for lang, said in (("en", "That is the working. Now work it out: what number is it?"),
                       ("es", "Eso es la operación. Ahora resuélvela: ¿qué número da?")):
        for seed in range(200):
            s = drive.start(Session(seed=seed, lang=lang))
            while s.pending_question is None and s.current_player() is not None:
                drive.play(s, 0)
            if s.pending_question is not None:
                break
        q = s.pending_question
        assert q is not None
        fb = drive.answer(s, f"{q.expected}*1")
        invalid = drive.answer(s, "abc")
        assert fb.kind == "working" and not fb.done
        out = feedback_html(fb)
        assert out == f"<span class='ld-warn'>{said}</span>"
        assert out.replace(said, invalid.message) == feedback_html(invalid)
        assert "✘" not in out and s.pending_question == q


SUPPOSE = {"en": "Practice: suppose that ", "es": "Práctica: supón que "}
"""How a practice item whose numbers are not on the screen starts its prompt."""


def _practice_items() -> list[tuple[str, str, Question]]:
    """Every kind of practice item the tutor makes between rounds (its drills; reviews and
    remediations are drill items too): for each game and number of players, each skill a
    drill can practise and each place its items come from (a power play, a round's end),
    several seeded items."""
    import random

    from tutor.games import GAMES
    from tutor.session.session import Session
    from tutor.teaching.practice import DRILL_SKILLS

    items: list[tuple[str, str, Question]] = []
    for name, entry in GAMES.items():
        for players in entry.player_counts:  # every table the game is played at
            asker = Session(variant=name, players=players, seed=43, lang="en").asker
            for skill in sorted(DRILL_SKILLS):
                for source in asker.drills.sources[skill]:
                    for k in range(6):
                        asker.practice[0].rng = random.Random(k)
                        for q in asker.drills.item(skill, 0, f"p{k}-", source, []):
                            items.append((name, source, q))
    return items


def test_every_practice_item_is_labelled_and_its_numbers_are_on_screen_or_supposed() -> None:
    """Issue 43, finding 8: a practice item between rounds is labelled "Practice position"
    on the page, and each number its question names is one the screen shows (the tiles of
    the practice line, the hands) or the question says it is supposed ("Practice: suppose
    that this round you gained 15 points and lost 16 …"), never a number that seems to be the
    game's while the score table says something else. Every kind of item: each game, skill
    and source, in both languages."""
    import re

    from tutor.i18n import translator
    from tutor.session.snapshot import QuestionView
    from tutor.ui.play.question import situation_html

    items = _practice_items()
    kinds = {(q.step, q.skill) for _game, _source, q in items}
    assert {("total", "negative"), ("tens", "round"), ("collect", "add"),
            ("collect", "subtract"), ("gain", "multiply"), ("T", "other-end"),
            ("loss", "add")} <= kinds, kinds
    for game_name, source, item in items:
        for lang in ("en", "es"):
            q = item.in_lang(lang)
            view = QuestionView(id=q.id, prompt=q.prompt, step=q.step, skill=q.skill,
                                situation=q.situation, attempts=0, hints=(), scaffold="",
                                queued=0, student="ana")
            shown = situation_html(view, lang)
            label = translator(lang)("Practice position (not from your game):")
            assert q.situation.drill and label in shown, (game_name, source, q.prompt)
            sit = q.situation
            on_screen = " ".join([sit.played, *sit.line,
                                  *(t for _seat, hand in sit.hands for t in hand)])
            said = set(re.findall(r"\d+", q.prompt))
            if not said <= set(re.findall(r"\d+", on_screen)):
                assert q.prompt.startswith(SUPPOSE[lang]), (game_name, source, q.prompt)
