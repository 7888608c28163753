"""The keyboard: one table of shortcuts for the page's key handler and for the help panel
that lists them (with the board's own keys)."""

from __future__ import annotations

import html

import ipywidgets as widgets

from tutor.i18n import N_, translator

__all__ = ["BOARD_KEYS", "SHORTCUTS", "HelpPanel", "help_html", "shortcut_map"]

# Key, what it does, and the element it presses ("click") or goes to ("focus").
SHORTCUTS: tuple[tuple[str, str, str, str], ...] = (
    ("H", N_("Hint"), ".ld-hint", "click"),
    ("S", N_("Show me the answer"), ".ld-reveal", "click"),
    ("A", N_("Go to the answer box"), ".ld-answer input", "focus"),
    ("M", N_("Go to the moves"), ".ld-moves .ld-move", "focus"),
    ("B", N_("Go to the board"), "canvas.ld-board", "focus"),
    ("N", N_("Next round"), ".ld-next-round", "click"),
    ("?", N_("Open or close this list"), ".ld-help summary", "click"),
)
DIGITS = ("1–9", N_("Play the move with that number"))
BOARD_KEYS: tuple[tuple[str, str], ...] = (
    ("← →", N_("Choose one of your tiles, or an end")),
    ("↑ ↓", N_("Go between your tiles and the ends")),
    ("Enter", N_("Place the chosen tile")),
    ("Esc", N_("Choose again")),
)


def shortcut_map() -> dict[str, dict[str, str]]:
    """The shortcuts for the page's key handler: key (lower case) → selector and action."""
    return {key.lower(): {"selector": sel, "action": action}
            for key, _what, sel, action in SHORTCUTS}


def help_html(lang: str) -> str:
    """The help panel: a closed list of the keys (it opens on click, Enter or ``?``)."""
    _ = translator(lang)

    def rows(keys: tuple[tuple[str, str], ...]) -> str:
        return "".join(f"<tr><th scope='row'><kbd>{html.escape(k)}</kbd></th>"
                       f"<td>{html.escape(_(what))}</td></tr>" for k, what in keys)

    page = rows((DIGITS, *((k, what) for k, what, _s, _a in SHORTCUTS)))
    return (
        "<details class='ld-help'><summary>⌨ " + html.escape(_("Keyboard")) +
        " <kbd>?</kbd></summary><div class='ld-help-body'>"
        "<table><caption>" + html.escape(_("Anywhere on the page (not while typing an answer)")) +
        f"</caption>{page}</table>"
        "<table><caption>" + html.escape(_("On the board")) + f"</caption>{rows(BOARD_KEYS)}"
        "</table><p>" + html.escape(_("Tab and Shift+Tab go through the page; in the answer "
                                      "box, Enter checks the answer.")) +
        "</p></div></details>")


class HelpPanel(widgets.HTML):
    def __init__(self) -> None:
        super().__init__()
        self.add_class("ld-help-panel")

    def relabel(self, lang: str) -> None:
        self.value = help_html(lang)

    def attributes(self, lang: str) -> dict[str, dict[str, str | None]]:
        return {".ld-help summary": {"aria-keyshortcuts": "?"}}
