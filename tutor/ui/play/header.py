"""The page's top: the title, the language switch and "New game"; and the status line under
it (round, whose turn, the last message)."""

from __future__ import annotations

import html
from collections.abc import Callable
from urllib.parse import quote

import ipywidgets as widgets

from engine.tiles import TileSet
from tutor.i18n import translator
from tutor.session.snapshot import Snapshot
from tutor.teaching.questions import seat_name
from tutor.ui.shared.access import Attributes
from tutor.ui.shared.page_header import LANGUAGES
from tutor.ui.shared.panel import classed, css_string, text_html

__all__ = ["Header", "LessonLine", "Status", "lesson_html", "state_text", "status_html",
           "title_html"]


def title_html(lang: str) -> str:
    _ = translator(lang)
    return "<h1>" + html.escape(_("Leonard-Domino Tutor")) + "</h1>"


def lesson_html(view: Snapshot, lang: str) -> str:
    """Which lesson is open and what it is for: "Lesson: x/n tiles: multiplying · Goal:
    Multiply n × T for an x/n tile." (empty without a lesson file)."""
    _ = translator(lang)
    if not view.lesson_title:
        return ""
    out = ("<b>" + html.escape(_("Lesson: {title}").format(title=view.lesson_title))
           + "</b>")
    if view.lesson_goal:
        out += " · " + html.escape(_("Goal: {goal}").format(goal=view.lesson_goal))
    return out


def state_text(view: Snapshot, lang: str, *, pending: bool) -> str:
    """Whose turn it is, or why the game waits."""
    _ = translator(lang)
    turn = view.turn
    if view.lesson_end is not None:
        return _("The lesson is over.")
    if view.match_over:
        return _("The match is over.")
    if view.round_over:
        return _("The round is over.")
    if pending:
        return _("Answer the question below to see the points.")
    if view.human_to_move is not None:
        return _("Your turn, player {seat}.").format(seat=seat_name(turn))
    return _("Player {seat} (bot) is thinking…").format(seat=seat_name(turn))


def status_html(view: Snapshot, lang: str, *, pending: bool, message: str = "",
                message_kind: str = "info", tileset: TileSet | None = None) -> str:
    """The status line: round, whose turn (or why we wait) and the last message."""
    _ = translator(lang)
    state = state_text(view, lang, pending=pending)
    head = (_("Round {number}, playing to {target} points").format(
        number=view.round, target=view.target) if view.target else
        _("Round {number} of {rounds}").format(number=view.round, rounds=view.rounds))
    msg = ""
    if message:
        cls = "ld-msg" if message_kind == "msg" else "ld-info"
        msg = f" — <span class='{cls}'>{text_html(message, lang, tileset)}</span>"
    return f"<b>{html.escape(head)}</b> · {html.escape(state)}{msg}"


class Header(widgets.HBox):
    """Title, language switch and "New game"."""

    def __init__(self, lang: str) -> None:
        self.title = classed(widgets.HTML(), "ld-title")
        self.lang_toggle = classed(widgets.ToggleButtons(options=list(LANGUAGES), value=lang,
                                                         style={"button_width": "80px"}),
                                   "ld-lang")
        self.new_game_btn = classed(widgets.Button(button_style="success", icon="refresh"),
                                    "ld-new-game")
        super().__init__([self.title, self.lang_toggle, self.new_game_btn])
        self.add_class("ld-header")

    def on_lang(self, callback: Callable[[str], None]) -> None:
        """``callback(lang)`` when the student picks a language."""
        self.lang_toggle.observe(lambda change: callback(change["new"]), "value")

    def on_new_game(self, callback: Callable[[], None]) -> None:
        self.new_game_btn.on_click(lambda _b: callback())

    def attributes(self, lang: str) -> Attributes:
        _ = translator(lang)
        return {
            ".ld-lang > div": {"role": "group", "aria-label": _("Language")},
            f".ld-lang button[data-value={css_string(quote('Español'))}]": {"lang": "es"},
            f".ld-lang button[data-value={css_string(quote('English'))}]": {"lang": "en"},
            ".ld-app .jupyter-button > i": {"aria-hidden": "true"},  # icons say nothing
        }

    def relabel(self, lang: str) -> None:
        _ = translator(lang)
        self.title.value = title_html(lang)
        self.new_game_btn.description = _("New game")
        if self.lang_toggle.value != lang:
            self.lang_toggle.value = lang


class Status(widgets.HTML):
    """The status line; it keeps the last message until another replaces it."""

    def __init__(self) -> None:
        super().__init__()
        self.add_class("ld-status")
        self.message = ""
        self.kind = "info"

    def say(self, text: str, kind: str = "info") -> None:
        """Keep ``text`` as the message (``kind`` "msg": something went wrong)."""
        self.message, self.kind = text, kind

    def render(self, view: Snapshot, *, pending: bool) -> None:
        self.value = status_html(view, view.lang, pending=pending, message=self.message,
                                 message_kind=self.kind, tileset=view.tileset)


class SavingNote(widgets.HTML):
    """Answers waiting on the page for the progress store (:attr:`Snapshot.unsaved_note`):
    said until they are saved, whatever else the page says, at the head of the question's
    column (on a phone, right under the board, where the student answers). A match that
    replays a deal the student played before says so here too, from its start
    (:attr:`Snapshot.practice_note`: practice, no evidence)."""

    def __init__(self) -> None:
        super().__init__()
        self.add_class("ld-saving")

    def render(self, view: Snapshot) -> None:
        note, practice = view.unsaved_note, view.practice_note
        self.value = "".join((
            f"<div class='ld-msg ld-practice' role='note'>{html.escape(practice)}</div>"
            if practice else "",
            f"<div class='ld-msg ld-unsaved' role='status'>{html.escape(note)}</div>"
            if note else ""))
        # no empty gap above the question
        self.layout.display = None if note or practice else "none"


class LessonLine(widgets.HTML):
    """The open lesson's title and one-line goal, under the page's title."""

    def __init__(self) -> None:
        super().__init__()
        self.add_class("ld-lesson")

    def render(self, view: Snapshot) -> None:
        self.value = lesson_html(view, view.lang)
        self.layout.display = None if self.value else "none"
