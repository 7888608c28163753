"""The move buttons: one per legal move of the student to move (the same moves the board
takes by clicks), power plays marked."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import ipywidgets as widgets

from engine.round import Action, Draw, Pass, Play
from tutor.i18n import N_, translator
from tutor.play.words import move_words
from tutor.ui.shared.access import Attributes
from tutor.ui.shared.panel import classed, css_string

__all__ = ["CHOICE", "MOVE", "MOVES_GROUP", "MovesPanel", "move_label"]

MOVE = ".ld-moves .ld-move"
"""The move buttons, in order (digits 1-9 press them)."""
CHOICE = '.ld-moves .ld-move:not([title="draw"]):not([title="pass"])'
"""The moves that wait for the student (the page draws or passes by itself when there is no
choice), where the focus goes."""
MOVES_GROUP = ".ld-moves"
"""The group of move buttons: where the focus goes after a move button was pressed (it can
hold the focus, and Enter on it plays nothing)."""


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


class MovesPanel(widgets.HBox):
    """A row of buttons; ``on_move(move)`` when one is pressed."""

    def __init__(self, on_move: Callable[[Action], None]) -> None:
        super().__init__()
        self.add_class("ld-moves")
        self._on_move = on_move
        self._shown: dict[str, tuple[Action, widgets.Button]] = {}
        """The moves on show and their buttons, by the move's notation (a tile equals its
        turned self, but its caption does not)."""
        self._lang = ""
        self._spare: list[widgets.Button] = []
        self._named: tuple[tuple[str, ...], str, Attributes] | None = None
        """The last moves named by :meth:`attributes`: their notations, language, names."""

    def render(self, legal: Sequence[Action], lang: str) -> None:
        """Show a button per move. A move still on offer keeps its button (a refresh that
        changes nothing sends nothing); the buttons of moves gone are kept aside and given to
        the next new moves with new captions. Making a button (three widgets opened in the
        kernel and the page) cost about a millisecond, most of a refresh's time when a turn
        brought eight new moves; and the panel never makes more buttons than the most moves
        ever on offer at once, so a long game does not pile up widgets."""
        keys = [str(m) for m in legal]
        if keys == list(self._shown) and lang == self._lang:
            return
        old, relabel = self._shown, lang != self._lang
        offered = set(keys)
        self._spare.extend(b for key, (_m, b) in old.items() if key not in offered)
        shown: dict[str, tuple[Action, widgets.Button]] = {}
        for m, key in zip(legal, keys, strict=True):
            b = old[key][1] if key in old else self._button_for(m, lang)
            if relabel and key in old:
                b.description = move_label(m, lang)
            shown[key] = (m, b)
        self.children = [b for _m, b in shown.values()]
        self._shown, self._lang = shown, lang

    def _button_for(self, move: Action, lang: str) -> widgets.Button:
        """A spare button relabelled for ``move``, or a new one."""
        power = "warning" if isinstance(move, Play) and move.tile.is_power else ""
        if self._spare:
            # A spare that last showed this very move is taken as it is: relabelling it
            # changes nothing, so nothing is sent (the bot's turn empties the panel, and the
            # student's next turn often offers some of the same moves again).
            same = [i for i, s in enumerate(self._spare) if s.tooltip == str(move)]
            b = self._spare.pop(same[-1] if same else -1)
            with b.hold_sync():  # one message for the three, not one each
                b.description, b.tooltip, b.button_style = move_label(move, lang), str(move), power
            return b
        b = classed(widgets.Button(description=move_label(move, lang), tooltip=str(move),
                                   button_style=power, layout=widgets.Layout(width="auto")),
                    "ld-move")
        b.on_click(self._pressed)
        return b

    def _pressed(self, button: widgets.Button) -> None:
        """A shown button plays the move it shows now (spare buttons are not on the page)."""
        for move, b in self._shown.values():
            if b is button:
                self._on_move(move)
                return

    def attributes(self, legal: Sequence[Action], lang: str) -> Attributes:
        """Each button's name in words, with its number ("Move 2: six-three at the left
        end", key 2); buttons are found by their title, the move's notation."""
        keys = tuple(str(m) for m in legal)
        if self._named is not None and self._named[1] == lang and (
                not keys or keys == self._named[0]):
            # No moves (the bots' turns): the last names stay, naming buttons no longer on
            # the page (their selectors match nothing), so the page's whole map of
            # attributes is not sent again for each bot's move, and again at the next turn.
            return {k: dict(v) for k, v in self._named[2].items()}
        _ = translator(lang)
        out: Attributes = {MOVES_GROUP: {"role": "group", "aria-label": _("Your moves"),
                                         "tabindex": "-1"}}
        for i, m in enumerate(legal, 1):
            out[f".ld-move[title={css_string(str(m))}]"] = {
                "aria-label": _(N_("Move {number}: {move}")).format(number=i,
                                                                    move=move_words(m, lang)),
                "aria-keyshortcuts": str(i) if i <= 9 else None}
        self._named = (keys, lang, out)
        return {k: dict(v) for k, v in out.items()}
