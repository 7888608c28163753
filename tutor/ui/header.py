"""The page's top: the title, the language switch and "New game"; and the status line under
it (round, whose turn, the last message)."""

from __future__ import annotations

import html
from collections.abc import Callable

import ipywidgets as widgets

from tutor.i18n import translator
from tutor.questions import seat_name
from tutor.snapshot import Snapshot

from .panel import classed

__all__ = ["Header", "Status", "status_html", "title_html"]

LANGUAGES = (("Español", "es"), ("English", "en"))


def title_html(lang: str) -> str:
    _ = translator(lang)
    return "<h2>" + html.escape(_("Leonard-Domino Tutor")) + "</h2>"


def status_html(view: Snapshot, lang: str, *, pending: bool, message: str = "",
                message_kind: str = "info") -> str:
    """The status line: round, whose turn (or why we wait) and the last message."""
    _ = translator(lang)
    turn = view.turn
    if view.match_over:
        state = _("The match is over.")
    elif view.round_over:
        state = _("The round is over.")
    elif pending:
        state = _("Answer the question below to see the points.")
    elif view.human_to_move is not None:
        state = _("Your turn, player {seat}.").format(seat=seat_name(turn))
    else:
        state = _("Player {seat} (bot) is thinking…").format(seat=seat_name(turn))
    head = _("Round {number} of {rounds}").format(number=view.round,
                                                   rounds=view.rounds)
    msg = ""
    if message:
        cls = "ld-msg" if message_kind == "msg" else "ld-info"
        msg = f" — <span class='{cls}'>{html.escape(message)}</span>"
    return f"<b>{html.escape(head)}</b> · {html.escape(state)}{msg}"


class Header(widgets.HBox):  # type: ignore[misc]
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

    def relabel(self, lang: str) -> None:
        _ = translator(lang)
        self.title.value = title_html(lang)
        self.new_game_btn.description = _("New game")
        if self.lang_toggle.value != lang:
            self.lang_toggle.value = lang


class Status(widgets.HTML):  # type: ignore[misc]
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
                                 message_kind=self.kind)
