"""The move buttons: one per legal move of the student to move (the same moves the board
takes by clicks), power plays marked, then one per move of the game's own on offer (the
snapshot's ``extra``, e.g. Cuban's redeal, docs/rules.md §3.4) with its label and, under the
buttons, why it is on offer."""

from __future__ import annotations

import html
from collections.abc import Callable, Sequence

import ipywidgets as widgets

from engine.round import Action, Draw, Pass, Play
from tutor.i18n import N_, translator
from tutor.session.snapshot import ExtraMoveView
from tutor.session.words import move_words
from tutor.ui.shared.access import Attributes
from tutor.ui.shared.panel import classed, css_string

__all__ = ["CHOICE", "EXTRA_MOVE", "MOVE", "MOVES_GROUP", "MovesPanel", "extra_moves_html",
           "move_label"]

MOVE = ".ld-moves .ld-move"
"""The move buttons, in order (digits 1-9 press them)."""
CHOICE = '.ld-moves .ld-move:not([title="draw"]):not([title="pass"])'
"""The moves that wait for the student (the page draws or passes by itself when there is no
choice), where the focus goes."""
MOVES_GROUP = ".ld-moves"
"""The group of move buttons: where the focus goes after a move button was pressed (it can
hold the focus, and Enter on it plays nothing)."""
EXTRA_MOVE = "ld-extra-move"
"""The class of a game's own move's button (it is a move button too: digits press it)."""


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


def extra_moves_html(extra: Sequence[ExtraMoveView]) -> str:
    """Why the game's own moves on offer are (their explanations, one line each)."""
    return "".join(f"<div>{html.escape(x.explanation)}</div>" for x in extra if x.explanation)


class MovesPanel(widgets.HBox):
    """A row of buttons; ``on_move(move)`` when one is pressed (a legal move, or the engine's
    move of a game's own move: the snapshot's, handed back as it is)."""

    def __init__(self, on_move: Callable[[object], None]) -> None:
        super().__init__()
        self.add_class("ld-moves")
        self._on_move = on_move
        self.why = classed(widgets.HTML(), "ld-extra-why")
        """Under the buttons, while the game offers a move of its own: why."""
        self._shown: dict[str, tuple[object, widgets.Button]] = {}
        """The moves on show and their buttons, by the move's notation (a tile equals its
        turned self, but its caption does not)."""
        self._lang = ""
        self._spare: list[widgets.Button] = []
        self._named: tuple[tuple[str, ...], str, Attributes] | None = None
        """The last moves named by :meth:`attributes`: their notations, language, names."""

    def render(self, legal: Sequence[Action], lang: str,
               extra: Sequence[ExtraMoveView] = ()) -> None:
        """Show a button per move, then per game's own move in ``extra`` (its label; its
        explanation under the buttons). A move still on offer keeps its button (a refresh that
        changes nothing sends nothing); the buttons of moves gone are kept aside and given to
        the next new moves with new captions. Making a button (three widgets opened in the
        kernel and the page) cost about a millisecond, most of a refresh's time when a turn
        brought eight new moves; and the panel never makes more buttons than the most moves
        ever on offer at once, so a long game does not pile up widgets."""
        keys = [str(m) for m in legal] + [x.text for x in extra]
        why = extra_moves_html(extra)
        if keys == list(self._shown) and lang == self._lang and why == self.why.value:
            return
        old, relabel = self._shown, lang != self._lang
        offered = set(keys)
        self._spare.extend(b for key, (_m, b) in old.items() if key not in offered)
        shown: dict[str, tuple[object, widgets.Button]] = {}
        for m in legal:
            key = str(m)
            b = old[key][1] if key in old else self._button_for(
                key, move_label(m, lang), "warning" if isinstance(m, Play) and m.tile.is_power
                else "")
            if relabel and key in old:
                b.description = move_label(m, lang)
            b.remove_class(EXTRA_MOVE)  # a spare may have shown a game's own move
            shown[key] = (m, b)
        for x in extra:
            b = old[x.text][1] if x.text in old else self._button_for(x.text, x.label, "info")
            b.description = x.label  # its words come with the snapshot, in its language
            b.add_class(EXTRA_MOVE)
            shown[x.text] = (x.move, b)
        self.why.value = why
        self.children = [b for _m, b in shown.values()] + ([self.why] if why else [])
        self._shown, self._lang = shown, lang

    def _button_for(self, key: str, caption: str, style: str) -> widgets.Button:
        """A spare button relabelled for the move ``key`` (its notation, the button's title),
        or a new one."""
        if self._spare:
            # A spare that last showed this very move is taken as it is: relabelling it
            # changes nothing, so nothing is sent (the bot's turn empties the panel, and the
            # student's next turn often offers some of the same moves again).
            same = [i for i, s in enumerate(self._spare) if s.tooltip == key]
            b = self._spare.pop(same[-1] if same else -1)
            with b.hold_sync():  # one message for the three, not one each
                b.description, b.tooltip, b.button_style = caption, key, style
            return b
        b = classed(widgets.Button(description=caption, tooltip=key, button_style=style,
                                   layout=widgets.Layout(width="auto")), "ld-move")
        b.on_click(self._pressed)
        return b

    def _pressed(self, button: widgets.Button) -> None:
        """A shown button plays the move it shows now (spare buttons are not on the page)."""
        for move, b in self._shown.values():
            if b is button:
                self._on_move(move)
                return

    def attributes(self, legal: Sequence[Action], lang: str,
                   extra: Sequence[ExtraMoveView] = ()) -> Attributes:
        """Each button's name: its caption first, as the screen shows it (WCAG 2.5.3: a
        student who says "click 5/4 → L" to voice control finds it), then its number and the
        move in words ("5/4 → L: move 2, five-four at the left end", key 2; a game's own move
        by its label and number, its explanation as its description); buttons are found by
        their title, the move's notation."""
        keys = tuple(str(m) for m in legal) + tuple(x.text for x in extra)
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
                "aria-label": _(N_("{shown}: move {number}, {move}")).format(
                    shown=move_label(m, lang), number=i, move=move_words(m, lang)),
                "aria-keyshortcuts": str(i) if i <= 9 else None}
        for i, x in enumerate(extra, len(legal) + 1):
            out[f".ld-move[title={css_string(x.text)}]"] = {
                "aria-label": _(N_("{shown}: move {number}")).format(shown=x.label, number=i),
                "aria-description": x.explanation or None,
                "aria-keyshortcuts": str(i) if i <= 9 else None}
        self._named = (keys, lang, out)
        return {k: dict(v) for k, v in out.items()}
