"""The hot-seat cover: with several human seats at one screen, it hides the board between
turns until the next player takes the screen."""

from __future__ import annotations

import html
from collections.abc import Callable

import ipywidgets as widgets

from tutor.i18n import translator
from tutor.teaching.questions import seat_name
from tutor.ui.play.layout import css_max_width
from tutor.ui.shared.panel import classed

__all__ = ["Cover", "cover_html"]


def cover_html(seat: int, lang: str) -> str:
    """The hot-seat cover over the board: pass the screen to ``seat``."""
    _ = translator(lang)
    return ("<h2>" + html.escape(
        _("Pass the screen to player {seat}").format(seat=seat_name(seat))) + "</h2><p>" +
        html.escape(_("The other players look away now.")) + "</p>")


class Cover(widgets.VBox):
    """What the board slot shows instead of the board while a player takes the screen."""

    def __init__(self, width: int, height: int) -> None:
        self.text = widgets.HTML()
        self.button = classed(widgets.Button(button_style="primary",
                                             layout=widgets.Layout(width="auto")), "ld-cover-ok")
        super().__init__([self.text, self.button],
                         layout=widgets.Layout(width="100%", max_width=css_max_width(width, height),
                                               justify_content="center"))
        self.add_class("ld-cover")

    def on_taken(self, callback: Callable[[], None]) -> None:
        """``callback()`` when the player to move says they have the screen."""
        self.button.on_click(lambda _b: callback())

    def render(self, seat: int, lang: str) -> None:
        _ = translator(lang)
        self.text.value = cover_html(seat, lang)
        self.button.description = _("I am player {seat}: show my tiles").format(
            seat=seat_name(seat))
