"""The move buttons: one per legal move of the student to move (the same moves the board
takes by clicks), power plays marked."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import ipywidgets as widgets

from engine.round import Action, Draw, Pass, Play
from tutor.i18n import N_, translator
from tutor.words import move_words

from .access import Attributes
from .panel import classed, css_string

__all__ = ["CHOICE", "MOVE", "MovesPanel", "move_label"]

MOVE = ".ld-moves .ld-move"
"""The move buttons, in order (digits 1-9 press them)."""
CHOICE = '.ld-moves .ld-move:not([title="draw"]):not([title="pass"])'
"""The moves that wait for the student (the page draws or passes by itself when there is no
choice), where the focus goes."""


def move_label(move: Action, lang: str) -> str:
    """A move button's caption: ``Draw``, ``Pass`` or ``6/4 → L``."""
    _ = translator(lang)
    if isinstance(move, Draw):
        return _("Draw")
    if isinstance(move, Pass):
        return _("Pass")
    if move.end is None:
        return str(move.tile)
    end = (_("L") if move.end == "L" else _("R") if move.end == "R"
           else _("arm {arm}").format(arm=move.end))
    return f"{move.tile} → {end}"


class MovesPanel(widgets.HBox):  # type: ignore[misc]
    """A row of buttons; ``on_move(move)`` when one is pressed."""

    def __init__(self, on_move: Callable[[Action], None]) -> None:
        super().__init__()
        self.add_class("ld-moves")
        self._on_move = on_move
        self._buttons: dict[str, widgets.Button] = {}
        """The buttons on show by their move's notation (a tile equals its turned self, but
        its caption does not)."""
        self._spare: list[widgets.Button] = []
        self._move_of: dict[str, Action] = {}
        self._shown: tuple[tuple[str, ...], str] = ((), "")

    def render(self, legal: Sequence[Action], lang: str) -> None:
        """Show a button per move. A move still on offer keeps its button (a refresh that
        changes nothing sends nothing); the buttons of moves gone are kept aside and given to
        the next new moves with new captions. Making a button (three widgets opened in the
        kernel and the page) cost about a millisecond, most of a refresh's time when a turn
        brought eight new moves; and the panel never makes more buttons than the most moves
        ever on offer at once, so a long game does not pile up widgets."""
        shown = (tuple(map(str, legal)), lang)
        if shown == self._shown:
            return
        old, relabel = self._buttons, lang != self._shown[1]
        offered = set(shown[0])
        self._spare.extend(b for m, b in old.items() if m not in offered)
        keep: dict[str, widgets.Button] = {}
        for m, key in zip(legal, shown[0], strict=True):
            b = old.get(key)
            if b is None:
                b = self._button_for(m, lang)
            elif relabel:
                b.description = move_label(m, lang)
            keep[key] = b
        self.children = list(keep.values())
        self._buttons, self._shown = keep, shown

    def _button_for(self, move: Action, lang: str) -> widgets.Button:
        """A spare button relabelled for ``move``, or a new one."""
        power = "warning" if isinstance(move, Play) and move.tile.is_power else ""
        if self._spare:
            b = self._spare.pop()
            b.description, b.tooltip, b.button_style = move_label(move, lang), str(move), power
        else:
            b = classed(widgets.Button(description=move_label(move, lang), tooltip=str(move),
                                       button_style=power, layout=widgets.Layout(width="auto")),
                        "ld-move")
            b.on_click(self._pressed)
        self._move_of[b.model_id] = move
        return b

    def _pressed(self, button: widgets.Button) -> None:
        move = self._move_of.get(button.model_id)
        if move is not None and self._buttons.get(str(move)) is button:
            self._on_move(move)

    def attributes(self, legal: Sequence[Action], lang: str) -> Attributes:
        """Each button's name in words, with its number ("Move 2: six-three at the left
        end", key 2); buttons are found by their title, the move's notation."""
        _ = translator(lang)
        out: Attributes = {".ld-moves": {"role": "group", "aria-label": _("Your moves")}}
        for i, m in enumerate(legal, 1):
            out[f".ld-move[title={css_string(str(m))}]"] = {
                "aria-label": _(N_("Move {number}: {move}")).format(number=i,
                                                                    move=move_words(m, lang)),
                "aria-keyshortcuts": str(i) if i <= 9 else None}
        return out
