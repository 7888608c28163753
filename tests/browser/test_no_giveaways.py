"""No giveaways (issue: the page showed "1 + (4 + 6)" under "How many points do you gain?",
named the other end's tile, showed 30 under the ±30 question and the single hand total under
a round-end question). In every shipped lesson without scaffolds, nothing the page shows
before the first attempt holds the formula, T's value, the hand totals or the answer.

A mirror session with the same lesson and seed plays the same moves in the test process, so
the test knows each question's numbers and can look for them on the page.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from browsing import ROOT
from test_dashboard import IDLE, _answer_and_move_on, _click_first_move, _mirror_forced, _open

from tests import driving as drive
from tutor.session.session import Session
from tutor.teaching.questions import plain_math

SEED = 5
ENOUGH = 6
"""Questions checked per lesson (the first ones of the lesson, drills included)."""
UNSCAFFOLDED = sorted(
    p.stem for p in (ROOT / "lessons").glob("*.json")
    if not json.loads(p.read_text(encoding="utf-8")).get("tutor", {}).get("scaffold"))

# What the page shows around a question: the question panel without its situation lines (the
# line of play lists every tile, the other end's among them, unmarked), the log, the status.
SHOWN = """() => {
  const text = (sel) => [...document.querySelectorAll(sel)]
      .filter(e => e.offsetParent !== null).map(e => e.innerText).join('\\n');
  const q = document.querySelector('.ld-question');
  const clone = q.cloneNode(true);
  clone.querySelectorAll('.ld-situation, .ld-legend').forEach(e => e.remove());
  return {question: clone.innerText, situation: text('.ld-situation'),
          tutor: text('.ld-tutor'), log: text('.ld-log'), status: text('.ld-status'),
          summary: text('.ld-round-end .ld-summary'), html: q.innerHTML};
}"""


def _check(shown: dict[str, str], mirror: Session) -> None:
    q = mirror.pending_question
    assert q is not None
    ctx = q.context
    words = shown["question"]
    assert "<math" not in shown["html"] and "\\times" not in shown["html"]  # no formula
    assert "×" not in words and "T =" not in words
    for stage in q.stages:
        assert plain_math(stage) not in shown["tutor"], (stage, shown["tutor"])
    if ctx.t is not None:
        assert not re.search(rf"\bT\s*=\s*{ctx.t}\b", shown["tutor"])
        if ctx.t_tile:
            assert ctx.t_tile not in words  # the other end is found by the student
    answer = (rf"(?<![\d/]){q.expected}(?![\d/])" if q.expected >= 0
              else rf"[-−]{-q.expected}(?![\d/])")
    assert not re.search(answer, words), (q.expected, words)
    lines = shown["log"].splitlines()
    if q.situation.played:  # the log from the play the question is about on
        placed = [i for i, line in enumerate(lines) if f" {q.situation.played} " in line
                  or line.endswith(f" {q.situation.played}.")]
        lines = lines[placed[-1]:] if placed else lines
    if q.situation.drill:  # a practice position: the log is the game's, not the drill's
        lines = []
    for line in lines:
        assert not re.search(rf"(gains|loses|collects) .*{answer}", line), (line, q.prompt)
    if q.step == "collect":
        assert "Tiles left in each hand" not in shown["summary"]  # no hand totals
        for total in ctx.hands:
            assert not re.search(rf"(?<![\d/]){total}(?![\d/])", words)
        assert shown["situation"]  # the tiles of the hands to count are shown instead


@pytest.mark.parametrize("lesson", UNSCAFFOLDED)
def test_nothing_before_the_first_attempt_gives_the_answer_away(page: Any, voila_url: str,
                                                                lesson: str) -> None:
    _open(page, voila_url, f"?lesson={lesson}&lang=en&seed={SEED}&student=nogive-{lesson}")
    mirror = drive.start(Session.from_lesson(lesson, lang="en", seed=SEED, store=None))
    checked = 0
    for _step in range(400):
        page.wait_for_function(IDLE, timeout=30_000)
        _mirror_forced(mirror)
        if mirror.pending_question is not None:
            page.locator(".ld-answer input").wait_for(state="visible", timeout=10_000)
            page.wait_for_function(
                "(p) => document.querySelector('.ld-question').innerText.includes(p)",
                arg=mirror.pending_question.prompt, timeout=10_000)
            _check(page.evaluate(SHOWN), mirror)
            checked += 1
            if checked == ENOUGH:
                break
            _answer_and_move_on(page, mirror, str(mirror.pending_question.expected))
            continue
        if mirror.round.over:
            break
        _click_first_move(page, mirror)
    assert checked >= 3, f"only {checked} questions in the round"
    assert page.page_errors == []
