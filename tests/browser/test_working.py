"""docs/rules.md §4 "The answer is a number", on the play page: working typed in the answer box
(``4*8``) is sent back to be worked out, the question stays open with its points hidden, and
the number then answers it and shows the points.

A mirror session with the same lesson and seed plays the same moves in the test process, so
the test knows each question's numbers (as tests/browser/test_dashboard.py does).
"""

from __future__ import annotations

from typing import Any

from test_dashboard import _answer, _answer_and_move_on, _open, _play_to_a_question, _round_score

from tests import driving as drive
from tutor.session.session import Session
from tutor.teaching.questions import Question

SEED = 19
"""Its first power-play question is x/n with n = 4, T = 8: the working is ``4*8``."""
QUERY = f"?lesson=free-play&lang=en&seed={SEED}&student=browser-working"
WORK_IT_OUT = "That is the working. Now work it out: what number is it?"


def working_for(q: Question) -> str:
    """What a student who does not compute types: the numbers of the play with the operation
    between them (``4*8``), or the answer dressed as a sum."""
    ctx = q.context
    if ctx.t is not None and ctx.rule == "x/n" and ctx.n * ctx.t == q.expected:
        return f"{ctx.n}*{ctx.t}"
    if ctx.t is not None and ctx.rule == "x/x" and ctx.t * ctx.t == q.expected:
        return f"{ctx.t}^2"
    if ctx.t is not None and ctx.rule in ("+/n", "-/n") and ctx.n + ctx.t == q.expected:
        return f"{ctx.n}+{ctx.t}"
    return f"0+{q.expected}"


def test_working_is_sent_back_and_the_number_answers(page: Any, voila_url: str) -> None:
    _open(page, voila_url, QUERY)
    mirror = drive.start(Session.from_lesson("free-play", lang="en", seed=SEED, store=None))
    q = _play_to_a_question(page, mirror, power=True)

    box = page.locator(".ld-answer input")
    box.wait_for(state="visible", timeout=10_000)
    page.wait_for_function("(p) => document.querySelector('.ld-question').innerText.includes(p)",
                           arg=q.prompt, timeout=10_000)
    # While a question waits nothing moves: A's round score settles without the hidden points.
    hidden = str(mirror.snapshot().round_scores_shown[0])
    page.wait_for_function(
        "(want) => { const td = document.querySelectorAll("
        "'.ld-scores tbody tr:first-child td')[2];"
        " return td && td.innerText.replace('\u2212', '-').trim() === want; }",
        arg=hidden, timeout=10_000)

    card = page.locator(".ld-feedback-done").inner_text()
    right_before = mirror.mastery.state(q.skill).first_try_right
    working = working_for(q)
    assert working == "4*8", (working, q.context)  # the seed's question, as the issue has it
    _answer(page, working)
    page.locator(".ld-feedback").filter(has_text=WORK_IT_OUT).wait_for(timeout=10_000)
    fb = drive.answer(mirror, working)
    assert fb.kind == "working" and not fb.counted and mirror.pending_question == q
    # The question stays open: the same prompt, the box, no wrong-answer mark, no answer card,
    # the points still hidden.
    assert box.is_visible() and q.prompt in page.locator(".ld-question").inner_text()
    feedback = page.locator(".ld-feedback").inner_text()
    assert "✘" not in feedback and "✔" not in feedback
    assert page.locator(".ld-feedback-done").inner_text() == card  # nothing answered yet
    assert _round_score(page) == int(hidden)

    # The number answers it: right first time, and the points are shown.
    _answer_and_move_on(page, mirror, str(q.expected))
    page.locator(".ld-feedback-done .ld-answer-value").filter(
        has_text=f"The answer is {q.expected:,}.").wait_for(timeout=10_000)
    assert mirror.mastery.state(q.skill).first_try_right == right_before + 1
    assert page.page_errors == []
