"""The game setup panel: game, players, seats (human or which bot), rounds, seed and what the
tutor asks. It applies to the next new game."""

from __future__ import annotations

import html
from typing import TYPE_CHECKING

import ipywidgets as widgets

from tutor.games import GAMES, game
from tutor.i18n import N_, translator
from tutor.teaching.questions import seat_name
from tutor.ui.shared.access import Attributes
from tutor.ui.shared.panel import Widget, accordion_attributes, classed

if TYPE_CHECKING:
    from tutor.session.session import GameSettings

__all__ = ["SEAT_KINDS", "SetupPanel"]

# Seat kinds in the setup, by value.
SEAT_KINDS: dict[str, str] = {
    "human": N_("human"),
    "random": N_("bot: random"),
    "greedy": N_("bot: greedy"),
    "search": N_("bot: search"),
    "expert": N_("bot: expert"),
}
SEATS = 5


_FIT = widgets.Layout(width="auto")  # one layout model for every box it fits
_WRAP = widgets.Layout(flex_flow="row wrap")  # a narrow window takes the rest on a new line


def _checkbox(value: bool, css_class: str) -> Widget:
    """A setup checkbox as wide as its words (the stock 300 px cut the Spanish ones)."""
    return classed(widgets.Checkbox(value=value, indent=False, layout=_FIT), css_class)


class SetupPanel(widgets.Accordion):
    """A closed accordion; :meth:`settings` reads it for :meth:`Session.new_match`."""

    def __init__(self) -> None:
        W = widgets
        self.variant_dd = classed(W.Dropdown(options=list(GAMES),
                                             layout=W.Layout(width="300px")), "ld-variant")
        self.players_dd = classed(W.Dropdown(options=[2, 3, 4, 5], value=2,
                                             layout=W.Layout(width="160px")), "ld-players")
        self.players_dd.observe(lambda _c: self._seat_visibility(), "value")
        self.variant_dd.observe(lambda _c: self._variant_changed(), "value")
        self.seat_dds = [classed(W.Dropdown(options=[], layout=W.Layout(width="220px")),
                                 "ld-seat") for _ in range(SEATS)]
        self.rounds_in = classed(W.BoundedIntText(value=3, min=1, max=20,
                                                  layout=W.Layout(width="160px")), "ld-rounds")
        self.seed_in = classed(W.Text(value="", layout=W.Layout(width="220px")), "ld-seed")
        self.ask_power = _checkbox(True, "ld-ask-power")
        self.ask_round = _checkbox(True, "ld-ask-round-end")
        self.ask_bots = _checkbox(False, "ld-ask-bots")
        self.scaffold_cb = _checkbox(False, "ld-scaffold")
        self.hint = W.HTML()
        box = W.VBox([
            W.HBox([self.variant_dd, self.players_dd, self.rounds_in, self.seed_in],
                   layout=_WRAP),
            W.HBox(self.seat_dds, layout=_WRAP),
            W.HBox([self.ask_power, self.ask_round, self.ask_bots, self.scaffold_cb],
                   layout=W.Layout(flex_flow="row wrap", grid_gap="4px 16px")),
            self.hint,
        ])
        super().__init__(children=[box])
        self.add_class("ld-setup")
        self.selected_index = None

    def attributes(self, lang: str) -> Attributes:
        return accordion_attributes(".ld-setup", 1, self.selected_index)

    def relabel(self, lang: str) -> None:
        _ = translator(lang)
        # Not "new game" in the title: a screen reader's "New game" button must be the only one.
        self.set_title(0, _("Game setup (for the next game)"))
        variant = self.variant_dd.value
        self.variant_dd.options = [(_(g.label), key) for key, g in GAMES.items()]
        self.variant_dd.value = variant
        self.variant_dd.description = _("Game")
        self.players_dd.description = _("Players")
        self.rounds_in.description = _("Rounds")
        self.seed_in.description = _("Seed")
        self.seed_in.placeholder = _("blank = random")
        for i, dd in enumerate(self.seat_dds):
            value = dd.value
            dd.options = [(_(label), key) for key, label in SEAT_KINDS.items()]
            dd.value = value if value in SEAT_KINDS else ("human" if i == 0 else "greedy")
            dd.description = _("Seat {seat}").format(seat=seat_name(i))
        self.ask_power.description = _("Ask about power plays")
        self.ask_round.description = _("Ask at the round's end")
        self.ask_bots.description = _("Ask about the bots' plays too")
        self.scaffold_cb.description = _("Ask for T first")
        self.hint.value = ("<span class='ld-legend'>" + html.escape(
            _("Several human seats play at one screen: the hands are hidden between turns.")) +
            "</span>")

    def show_settings(self, s: GameSettings) -> None:
        """Set the panel to a session's ``settings``."""
        self.variant_dd.value = s["variant"]
        self._variant_changed()
        self.players_dd.value = s["players"]
        rules = s["rules"]  # the rules the session plays by (always set)
        self.rounds_in.value = s["rounds"] if rules is None else rules.rounds
        self.seed_in.value = "" if s["seed"] is None else str(s["seed"])
        bots = s["bots"]
        for i, dd in enumerate(self.seat_dds):
            if i in s["humans"]:
                kind = "human"
            elif isinstance(bots, str):
                kind = bots
            else:
                kind = (bots[i] if len(bots) == s["players"] else "greedy") or "greedy"
            dd.options = [(k, k) for k in SEAT_KINDS]
            dd.value = kind if kind in SEAT_KINDS else "greedy"
        self.ask_power.value = "power" in s["ask"]
        self.ask_round.value = "round_end" in s["ask"]
        self.ask_bots.value = bool(s["ask_bot_plays"])
        self.scaffold_cb.value = bool(s["scaffold"])
        self._seat_visibility()

    def _variant_changed(self) -> None:
        """Offer the player counts the chosen game allows (pair games: four); a game played
        to a score counts its rounds up to the target, so the rounds box is off."""
        entry = game(self.variant_dd.value)
        counts = [n for n in entry.player_counts if n <= SEATS]
        if list(self.players_dd.options) != counts:
            keep = self.players_dd.value
            self.players_dd.options = counts
            self.players_dd.value = keep if keep in counts else counts[0]
        self.rounds_in.disabled = entry.played_to_points

    def _seat_visibility(self) -> None:
        for i, dd in enumerate(self.seat_dds):
            dd.layout.display = None if i < self.players_dd.value else "none"

    def settings(self) -> GameSettings:
        """The settings the panel describes (for :meth:`Session.new_match`)."""
        players = self.players_dd.value
        kinds = [dd.value for dd in self.seat_dds[:players]]
        humans = tuple(i for i, k in enumerate(kinds) if k == "human")
        bots = [None if k == "human" else k for k in kinds]
        seed_text = self.seed_in.value.strip()
        seed = int(seed_text) if seed_text.lstrip("-").isdigit() else None
        ask = {k for k, on in (("power", self.ask_power.value),
                               ("round_end", self.ask_round.value)) if on}
        settings: GameSettings = {
            "variant": self.variant_dd.value, "players": players, "humans": humans,
            "bots": bots, "rounds": self.rounds_in.value, "seed": seed, "ask": ask,
            "scaffold": self.scaffold_cb.value, "ask_bot_plays": self.ask_bots.value}
        return settings
