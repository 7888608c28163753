"""The move buttons: one per legal move of the student to move (the same moves the board
takes by clicks), power plays marked."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import ipywidgets as widgets

from engine.round import Action, Draw, Pass, Play
from tutor.i18n import translator

from .panel import classed

__all__ = ["MovesPanel", "move_label"]


def move_label(move: Action, lang: str) -> str:
    """A move button's caption: ``Draw``, ``Pass`` or ``6/4 → L``."""
    _ = translator(lang)
    if isinstance(move, Draw):
        return _("Draw")
    if isinstance(move, Pass):
        return _("Pass")
    if move.end is None:
        return str(move.tile)
    end = _("L") if move.end == "L" else _("R")
    return f"{move.tile} → {end}"


class MovesPanel(widgets.HBox):  # type: ignore[misc]
    """A row of buttons; ``on_move(move)`` when one is pressed."""

    def __init__(self, width: int, on_move: Callable[[Action], None]) -> None:
        super().__init__(layout=widgets.Layout(width=f"{width}px"))
        self.add_class("ld-moves")
        self._on_move = on_move

    def render(self, legal: Sequence[Action], lang: str) -> None:
        buttons = []
        for m in legal:
            b = classed(widgets.Button(description=move_label(m, lang), tooltip=str(m),
                                       layout=widgets.Layout(width="auto")), "ld-move")
            if isinstance(m, Play) and m.tile.is_power:
                b.button_style = "warning"
            b.on_click(self._handler(m))
            buttons.append(b)
        self.children = buttons

    def _handler(self, move: Action) -> Callable[[Any], None]:
        return lambda _b: self._on_move(move)
