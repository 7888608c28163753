"""The tutor panel: the question waiting for the student, the answer box, Check, Hint and
Show me, the feedback to an answer; and the card a finished question leaves behind."""

from __future__ import annotations

import html
from collections.abc import Callable
from typing import TYPE_CHECKING

import ipywidgets as widgets

from engine.tiles import TileSet
from tutor.i18n import format_number, ngettext, translator
from tutor.session.snapshot import QuestionView, Snapshot
from tutor.teaching.hints import ANSWER
from tutor.teaching.questions import math_html, seat_name
from tutor.ui.shared.access import Attributes
from tutor.ui.shared.panel import Widget, classed, text_html

if TYPE_CHECKING:
    from tutor.teaching.asking import Feedback

__all__ = ["ANSWER_BOX", "AnsweredCard", "TutorPanel", "answered_html", "feedback_html",
           "question_html", "situation_html"]

ANSWER_BOX = ".ld-answer input"
QUESTION_ID = "ld-question"


def situation_html(question: QuestionView, lang: str, tileset: TileSet | None = None) -> str:
    """What the student may see before answering: the tile played and where, the line with
    both ends marked, the tiles of the hands to count. Never the working."""
    _ = translator(lang)
    sit = question.situation
    parts = []
    if sit.line:
        tiles = " ".join(f"[{t}]" for t in sit.line)
        parts.append(_("Line: ◀ {tiles} ▶ (both ends are open)").format(tiles=tiles))
    if sit.played and sit.played_end:
        where = (_("left end") if sit.played_end == "L" else _("right end")
                 if sit.played_end == "R" else _("arm {arm}").format(arm=sit.played_end))
        parts.append(_("{tile} was placed at the {end}.").format(tile=sit.played, end=where))
    for seat, hand in sit.hands:
        parts.append(_("Hand of {seat}: {tiles}").format(
            seat=seat_name(seat), tiles=" ".join(f"[{t}]" for t in hand) or "—"))
    # The game's own line is on the board: a phone, short of room, shows the board instead
    # (the class lets the page's CSS drop it there). A practice position is not on the board.
    classes = ["ld-situation"] * len(parts)
    if sit.line and not sit.drill:
        classes[0] += " ld-situation-line"
    if sit.drill:
        parts.insert(0, _("Practice position (not from your game):"))
        classes.insert(0, "ld-situation")
    return "".join(f"<div class='{c}'>{text_html(p, lang, tileset)}</div>"
                   for c, p in zip(classes, parts, strict=True))


def question_html(question: QuestionView, lang: str, tileset: TileSet | None = None) -> str:
    """The tutor's question: the prompt, the situation, the scaffold if the lesson shows it,
    and how many more questions follow. No formula, no other-end total, no answer."""
    _ = translator(lang)
    more = ""
    if question.queued:
        more = ("<div class='ld-legend'>" + html.escape(
            ngettext("{count} more question after this one.",
                     "{count} more questions after this one.", question.queued,
                     lang).format(count=question.queued)) +
            "</div>")
    scaffold = math_html(question.scaffold)
    return (f"<b>{text_html(question.prompt, lang, tileset)}</b>"
            f"{situation_html(question, lang, tileset)}"
            f"{scaffold}{more}")


def feedback_html(fb: Feedback) -> str:
    """The answer's feedback (a :class:`tutor.teaching.asking.Feedback`): right, wrong (with the
    hint) or shown."""
    lang = fb.question.lang
    msg = text_html(fb.message, lang)
    if fb.kind == "correct":
        body = f"<span class='ld-ok'>✔ {msg}</span>"
    elif fb.kind == "wrong":
        body = f"<span class='ld-bad'>✘ {msg}</span>"
        if fb.hint:
            body += "<br><span class='ld-warn'>" + text_html(fb.hint.text, lang) + "</span>"
            if not fb.hint.reveals:
                body += math_html(fb.hint.latex)
    else:
        body = f"<span class='ld-warn'>{msg}</span>"
    return body


def answered_html(fb: Feedback, body: str) -> str:
    """The card left under the board once a question is done: prompt, feedback ``body``,
    the answer in words and the worked solution. It stays until the next question is done."""
    q = fb.question
    answer = ""
    if fb.expected is not None and fb.kind != "revealed":  # a reveal's message says it
        text = translator(q.lang)(ANSWER).format(answer=format_number(fb.expected, q.lang))
        answer = f"<br><span class='ld-answer-value'>{html.escape(text)}</span>"
    worked = fb.worked
    shown = math_html(worked) if worked != str(fb.expected) else ""
    return "<div class='ld-card'>" + text_html(q.prompt, q.lang) + "<br>" + body + answer + \
        shown + "</div>"


class TutorPanel(widgets.VBox):
    """Shown while a question waits. ``on_submit(text)``, ``on_hint()``, ``on_reveal()``."""

    def __init__(self, *, on_submit: Callable[[str], None], on_hint: Callable[[], None],
                 on_reveal: Callable[[], None]) -> None:
        W = widgets
        self.question = classed(W.HTML(), "ld-question")
        # The value follows every keystroke and Enter sends a "submit" message, so leaving the
        # box (e.g. to press Hint) never hands in a half-typed answer.
        self.answer_in = classed(W.Text(continuous_update=True,
                                        layout=W.Layout(width="240px")), "ld-answer")
        self.answer_in.on_msg(self._on_answer_msg)
        self.submit_btn = classed(W.Button(button_style="primary"), "ld-submit")
        self.submit_btn.on_click(lambda _b: on_submit(self.answer_in.value))
        self.hint_btn = classed(W.Button(button_style="warning", icon="lightbulb-o"), "ld-hint")
        self.hint_btn.on_click(lambda _b: on_hint())
        self.reveal_btn = classed(W.Button(icon="eye"), "ld-reveal")
        self.reveal_btn.on_click(lambda _b: on_reveal())
        self.feedback = classed(W.HTML(), "ld-feedback")
        super().__init__([
            self.question,
            classed(W.HBox([self.answer_in, self.submit_btn, self.hint_btn, self.reveal_btn]),
                    "ld-answer-row"),
            self.feedback])
        self.add_class("ld-tutor")
        self._on_submit = on_submit
        self.feedback_html = ""
        """The feedback shown under the question until it is answered or the page relabels."""

    def _on_answer_msg(self, _widget: Widget, content: object, _buffers: object) -> None:
        if isinstance(content, dict) and content.get("event") == "submit":
            self._on_submit(self.answer_in.value)

    def show_feedback(self, fb: Feedback) -> None:
        """The feedback to an answer that did not end the question (it stays until the next)."""
        self.feedback_html = feedback_html(fb)

    def show_hint(self, text: str, lang: str) -> None:
        self.feedback_html = "<span class='ld-warn'>" + text_html(text, lang) + "</span>"

    def clear(self) -> None:
        self.feedback_html = ""

    def attributes(self, lang: str) -> Attributes:
        _ = translator(lang)
        return {
            ".ld-tutor": {"role": "region", "aria-label": _("Question")},
            ".ld-question": {"id": QUESTION_ID},
            ANSWER_BOX: {"aria-label": _("Your answer"), "aria-describedby": QUESTION_ID},
            ".ld-hint": {"aria-keyshortcuts": "H"},
            ".ld-reveal": {"aria-keyshortcuts": "S"},
        }

    def relabel(self, lang: str) -> None:
        _ = translator(lang)
        self.submit_btn.description = _("Check")
        self.hint_btn.description = _("Hint")
        self.reveal_btn.description = _("Show me")
        self.answer_in.placeholder = _("your answer, then Enter")

    def render(self, view: Snapshot) -> None:
        q = view.question
        self.layout.display = None if q else "none"
        if not q:
            return
        self.question.value = question_html(q, view.lang, view.tileset)
        self.feedback.value = self.feedback_html
        # After the last rung (the answer) there is no hint left to give.
        self.hint_btn.disabled = bool(q.hints) and q.hints[-1].reveals


class AnsweredCard(widgets.HTML):
    """The last finished question: what was asked, the feedback, the answer and its working."""

    def __init__(self) -> None:
        super().__init__()
        self.add_class("ld-feedback-done")

    def show(self, fb: Feedback) -> None:
        self.value = answered_html(fb, feedback_html(fb))

    @staticmethod
    def spoken_answer(fb: Feedback) -> list[str]:
        """What the card adds to the feedback's message, to announce: the answer."""
        if fb.expected is None or fb.kind == "revealed":  # a reveal's message says it
            return []
        q = fb.question
        return [translator(q.lang)(ANSWER).format(answer=format_number(fb.expected, q.lang))]
