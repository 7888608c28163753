"""A turn that places no tile: drawing from the pile (D-4) and passing, with the pass bonuses
of docs/rules.md §1.7 (paso a la salida, paso corrido; D-7). Plain functions over a round,
which :class:`~engine.round.Round`'s ``draw_tile`` and ``pass_turn`` call (Doble 15 extends
``draw_tile``, Ponce scores a pass through the ``on_pass`` hook)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .events import Drew, Passed

if TYPE_CHECKING:
    from .round import Round


def draw(rnd: Round, seat: int | None) -> None:
    """The player to move draws a tile (``seat``: another seat is made to draw one)."""
    forced = seat is not None
    who = rnd.turn if seat is None else seat
    tid = rnd.pile[rnd.pile_pos]
    rnd.pile_pos += 1
    rnd.hands[who] |= 1 << tid
    if not forced:
        rnd.drew_this_turn += 1
    rnd.voids[who] = 0  # the drawn tile is unseen: no suit is known missing any more
    if rnd.record:
        tile = rnd.tab.tileset.tiles[tid]
        rnd.note_draw(who, str(tile), forced)
        rnd.log.append(Drew(who, tile, forced))


def pass_turn(rnd: Round) -> None:
    """The player to move passes: the seat is known to lack the open suits, §1.7's bonuses
    are paid, and a pass that leaves nobody able to play blocks the round (§1.8)."""
    seat = rnd.turn
    rnd.passes += 1
    rnd.pass_count += 1
    line = rnd.line
    started = line.started
    if started:
        for s in line.open:
            rnd.voids[seat] |= 1 << s
    if rnd.record:
        rnd.begin_turn()
        rnd.log.append(Passed(seat, tuple(rnd.suit_of(s) for s in line.open) if started else ()))
    rnd.on_pass(seat)
    if rnd.over:  # the pass ended the match (Ponce's target)
        rnd.end_turn()
        return
    bonus = rnd.variant.pass_bonus
    if bonus and rnd.passes == 1 and rnd.placements == 1 and seat == \
            (rnd.opener + 1) % rnd.players:
        rnd.salida_paid = True
        rnd.add_bonus(rnd.opener, "paso-a-la-salida", bonus)
    rnd.end_turn()
    if rnd.is_blocked():
        rnd.finish_tranque()
    elif bonus and rnd.passes == rnd.players - 1 and rnd.turn == rnd.last_placer \
            and rnd.playable_mask(rnd.turn):
        if not (rnd.salida_paid and rnd.placements == 1 and not rnd.rules.both_pass_bonuses):
            rnd.add_bonus(rnd.turn, "paso-corrido", bonus)
