"""The block game with the capicúa bonus: a house variant (named house rule H-1).

H-1, *the block game with capicúa* ("dominó de bloqueo con capicúa"), as houses play it:

* the tiles, the deal and the play are the block game's (:data:`engine.rules.BLOCK_VARIANT`):
  double-six, 2 to 4 players with 7 tiles each, no pile (the tiles not dealt stay aside
  unseen), a player who cannot place a tile passes; the first round is opened by the highest
  double (else the heaviest tile, D-2), later rounds as the house rule D-3 says;
* **domino**: the player who places their last tile gains the totals of every tile left in
  the other hands (docs/rules.md §1.8);
* **capicúa**: when that last tile could have been placed at either open end, the player
  gains **20** more, as in Leonard (docs/rules.md §1.8): a basic capicúa, ``K`` on the score
  sheet (the game has no power tiles, so never ``KP``);
* **tranque**: nobody can place a tile: the lowest hand gains the other hands' totals; equal
  lowest hands gain nothing (D-9, or share it with ``tranque_tie="split"``);
* a match is ``rules.rounds`` rounds (D-10); the highest total wins.

The whole game is the variant value below: the base :class:`~engine.round.Round` plays it
(its capicúa, domino and tranque are Leonard's), and the registry finds this module by
itself (:mod:`engine.variants`).
"""

from __future__ import annotations

from dataclasses import replace

from ..rules import BLOCK_VARIANT

CAPICUA_BONUS = 20
"""docs/rules.md §1.8: what a capicúa adds to the domino."""

BLOCK_CAPICUA = replace(
    BLOCK_VARIANT,
    name="block_capicua",
    title="block game with capicúa (double six)",
    capicua_bonus=CAPICUA_BONUS,
    sheet_named=True,
)
