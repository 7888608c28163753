"""The playout kernel: random play to the end of a round at the speed the bots' rollouts need,
and the per-tile tables it (and the round) reads.

:class:`Tables` are built once per tile set, symbol value and power setting (:func:`tables`
caches them). :func:`playout` runs the common steps of a round (a placement and its power
effect, a draw, a pass that scores nothing) inline on local variables, and every other step
through the round's own methods, so it plays by exactly the rules of ``Round.apply``
(tests/test_playout_kernel.py replays its games through ``apply`` and compares every field).
"""

from __future__ import annotations

import random
import types
from functools import lru_cache
from typing import TYPE_CHECKING, Final

from .rules import POWER_VS_POWER, effect_from_total, effect_rule, number_half
from .scoring import capicua_kind
from .tiles import TileSet

if TYPE_CHECKING:
    from .round import Round

class Tables:
    """Per-tile lookup tables for one tile set, symbol value and power setting."""

    def __init__(self, tileset: TileSet, symbol_value: int, power: bool) -> None:
        self.tileset = tileset
        ts = tileset
        self.n = len(ts)
        self.bit = tuple(1 << i for i in range(self.n))
        """``1 << id`` by tile id."""
        self.half_sum = tuple(a + b for a, b in zip(ts.half_a, ts.half_b, strict=True))
        """Each tile's two suits added: the one a tile does not match is this less the
        matched one."""
        self.half_a = ts.half_a
        self.half_b = ts.half_b
        self.suit_mask = ts.suit_mask
        value = [symbol_value if sym else s for s, sym in zip(ts.suits, ts.is_symbol,
                                                              strict=True)]
        self.value = tuple(int(v) for v in value)
        self.total = tuple(self.value[a] + self.value[b]
                           for a, b in zip(ts.half_a, ts.half_b, strict=True))
        self.byte_totals = tuple(tuple(sum(self.total[8 * c + i] for i in range(8)
                                           if byte >> i & 1 and 8 * c + i < self.n)
                                       for byte in range(256))
                                 for c in range((self.n + 7) // 8))
        """``byte_totals[c][byte]``: the total of the tiles ``8 * c + i`` for each bit ``i``
        set in ``byte`` (a hand's total is a sum over its bytes)."""
        self.power = tuple(power and t.is_power for t in ts.tiles)
        self.powered = any(self.power)
        """Some tile has a power effect (Leonard): the playout kernel skips the check if not."""
        self.rule = tuple(effect_rule(t) if power else "" for t in ts.tiles)
        self.number = tuple(number_half(t) for t in ts.tiles)
        # D-2 weight: highest total, then highest single half.
        self.weight = tuple((self.total[i], max(self.value[a], self.value[b]))
                            for i, (a, b) in enumerate(zip(ts.half_a, ts.half_b, strict=True)))
        self.numeric_double = tuple(
            a == b and not ts.is_symbol[a] for a, b in zip(ts.half_a, ts.half_b, strict=True))
        self.double_mask = sum(1 << i for i in range(self.n) if ts.half_a[i] == ts.half_b[i])
        # Opening priority (docs/rules.md §1.4, D-2): numeric doubles first, then by weight.
        self.open_order = tuple(sorted(
            ((1 if self.numeric_double[i] else 0, self.weight[i]), i) for i in range(self.n)
        )[::-1])
        # docs/rules.md §1.6 for power tile i placed with tile j at the other end of the line, at
        # [i * n + j]: the gain and the loss it inflicts (0 for a basic tile i). Both
        # :func:`engine.scoring.effect` and the playout kernel read them.
        n = self.n
        gain = [0] * (n * n)
        loss = [0] * (n * n)
        for i in range(n):
            if not self.power[i]:
                continue
            for j in range(n):
                if self.power[j]:
                    g, lo = POWER_VS_POWER, POWER_VS_POWER
                else:
                    g, lo = effect_from_total(self.rule[i], self.number[i], self.total[j])
                gain[i * n + j] = g
                loss[i * n + j] = lo
        self.effect_gain = tuple(gain)
        self.effect_loss = tuple(loss)
        suits = len(ts.suits)
        self.end_suits = tuple((1 << a) | (1 << b) for a in range(suits) for b in range(suits))
        """``end_suits[a * suits + b]``: the bits of suits ``a`` and ``b`` (a pass with those
        ends open tells that the seat holds neither)."""
        self.kernel = (self.suit_mask, self.half_a, self.half_b, self.half_sum, self.power,
                       self.powered, n, self.effect_gain, self.effect_loss, self.end_suits,
                       suits)
        """The tables :func:`playout` reads, in the order it unpacks them."""

    def hand_totals(self, hands: list[int]) -> list[int]:
        """The total of each hand (one call for all: the round's end counts every hand)."""
        out = []
        byte_totals = self.byte_totals
        for mask in hands:
            total = 0
            for table in byte_totals:  # eight tiles at a time, by table: no step per tile
                if not mask:
                    break
                total += table[mask & 255]
                mask >>= 8
            out.append(total)
        return out


@lru_cache(maxsize=32)
def tables(tileset: TileSet, symbol_value: int, power: bool) -> Tables:
    return Tables(tileset, symbol_value, power)


def set_bits(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


NATIVE: Final = not isinstance(set_bits, types.FunctionType)
"""This module runs compiled (mypyc makes its functions built-in ones). The hot loops read it
where the two builds are fastest with different code for the same result."""


NEXT_SEATS: Final = tuple(tuple(range(1, p)) + (0,) for p in range(65))
"""``NEXT_SEATS[players][seat]``: the seat after ``seat`` (the playout kernel's table)."""



def playout(game: Round, rng: random.Random, trace: list[tuple[int, int]] | None,
            plain_hooks: bool) -> None:
    """Play ``game`` to its end with uniformly random legal moves (the bots' rollouts):
    :meth:`Round.playout <engine.round.Round.playout>`, which calls it.

    The common steps run inline on local variables: a placement (with its power effect, read
    from the tables :func:`engine.scoring.effect` reads), a draw, and a pass that scores
    nothing.
    With ``plain_hooks`` (Leonard and the block game: the base round's hooks) the opening and
    the last tile (with its capicúa) run inline too; a variant's go through ``place_tile`` and its
    hooks. Every other step goes through the same ``place_tile``/``draw_tile``/``pass_turn`` as
    ``Round.apply``, and so does every step of a round that records its events. ``trace``
    collects (tile id, end) per placement so tests can replay the same game through
    ``apply`` (tests/test_playout_kernel.py). The kernel never asks for a variant's extra
    moves (a Cuban player may ask for a redeal, but need not).
    """
    rnd = rng.random
    tab = game.tab
    (sm, ha, hb, half_sum, power, powered, n, effect_gain, effect_loss, end_suits,
     suits) = tab.kernel
    hands, players = game.hands, game.players
    gains, losses = game.gains, game.losses
    line = game.line
    opens, tips = line.open, line.tips
    # looked up once, not per tile (compiled, m.bit_count() looks the method up each time)
    bit_count = int.bit_count
    native = NATIVE
    pile = game.pile
    limit = len(pile) - game.keep
    draw_until = game.rules.draw == "until-playable"
    voids = game.voids
    # Passes run inline only where they score nothing (no pass bonus, no pass points) and
    # with no events.
    quiet_pass = not game.passes_score() and not game.record
    fast = not game.record
    # Leonard and the block game (the base hooks): their opening and their last tile run
    # inline too, as place_tile does them; a variant's go through place_tile and its hooks.
    plain = fast and plain_hooks
    capicua_bonus = game.variant.capicua_bonus
    kind = ""
    nxt = NEXT_SEATS[players]  # the next seat (as _next_seat)
    while not game.over:
        # Load the state into locals; the inline loop writes it back before any method.
        # The tiles at the ends, the placements, the last placer and the last mover are
        # not kept per step: they are read off the line and the turn when writing back.
        el, er, turn = opens[0], opens[1], game.turn
        tl, tr = tips[0], tips[1]
        passes = game.passes
        # the tiles placed at each end go on lists the line turns into its placements
        # when it is next read: the kernel makes no placement per step
        lefts, rights = line.adding(half_sum)  # type: ignore[attr-defined]  # two-ended
        add_left, add_right = lefts.append, rights.append
        laid = len(lefts) + len(rights) + (el >= 0)  # the first tile counts too
        tid = -1
        pos = game.pile_pos
        drawable = pos < limit
        opened, opener = game.opened, game.opener
        # a placement here runs inline, as the common case (a trace is kept in the branch
        # for the other cases)
        go = opened and fast and trace is None
        drew = game.drew_this_turn
        pass_count = game.pass_count
        stepped = pass_count  # changes when this loop ends a turn by a pass
        # the tiles that fit each end, and those that may be placed now: the tiles that
        # fit an end, or open the line
        if el >= 0:
            sml, smr = sm[el], sm[er]
            ends = sml | smr
        else:
            sml = smr = 0
            ends = -1 if game.open_tile is None else 1 << game.open_tile
        while True:
            m = hands[turn] & ends
            if not m:
                if drawable:
                    if not (fast and el >= 0 and (draw_until or not drew)):
                        break
                    # a draw (as draw_tile): the tile is unseen, so no void is known any more
                    tid = pile[pos]
                    pos += 1
                    drawable = pos < limit
                    bit = 1 << tid
                    hands[turn] |= bit
                    drew += 1
                    voids[turn] = 0
                    continue
                if not drew:
                    # a tranque is found here rather than after each placement: nothing
                    # to draw, no tile in any hand fits, and this seat has not drawn, so
                    # the last placement (or the pass before this turn) left the line
                    # blocked, and nothing has changed since: the state place_tile or pass_turn
                    # ends it in
                    for hh in hands:
                        if hh & ends:
                            break
                    else:
                        tid = -2
                        m = 1
                        break
                if not quiet_pass or el < 0:
                    break
                passes += 1
                pass_count += 1
                voids[turn] |= end_suits[el * suits + er]
                turn = nxt[turn]
                drew = 0
                continue
            if m & (m - 1):
                if native:  # count the bits in C, not by a Python method call
                    k = 0
                    x = m
                    while x:
                        x &= x - 1
                        k += 1
                    k = int(rnd() * k)
                else:
                    k = int(rnd() * bit_count(m))
                while k:
                    m &= m - 1
                    k -= 1
            bit = m & -m
            tid = bit.bit_length() - 1
            if bit & sml:
                end = 1 if bit & smr and rnd() < 0.5 else 0
            else:
                end = 1 if el >= 0 else -1  # -1: the first tile
            h = hands[turn] ^ bit
            if not (h and go):  # not the common case (go is False while tracing)
                if trace is not None:
                    trace.append((tid, end))
                if not (plain or h and opened and fast):
                    break  # the shared code below: events, or a variant's hooks
                if not opened:  # the opening (as place_tile)
                    opened = True
                    go = trace is None
                    opener = turn
                if not h and end >= 0 and capicua_bonus and bit & (smr if end == 0
                                                                     else sml):
                    # the capicúa (as place_tile), read before the line changes
                    kind = capicua_kind(game, tid, (tl, tr))
            hands[turn] = h
            if end == 0:  # the open half: the tile's two halves less the matched one
                el = half_sum[tid] - el
                add_left(tid)
                sml = sm[el]
                tl = tid
            elif end > 0:
                er = half_sum[tid] - er
                add_right(tid)
                smr = sm[er]
                tr = tid
            else:  # the first tile: no other end, no power effect
                el, er = ha[tid], hb[tid]
                line.start(tid, el, er)
                sml, smr = sm[el], sm[er]
                tl = tr = tid
            if powered and power[tid] and end >= 0:  # as scoring.power: the other end scores
                k = tid * n + (tr if end == 0 else tl)
                gains[turn] += effect_gain[k]
                losses[nxt[turn]] += effect_loss[k]
            passes = 0
            drew = 0
            if not h:
                tid = -3  # domino: finish below
                break
            turn = nxt[turn]
            ends = sml | smr
        opens[0], opens[1], game.turn, game.passes = el, er, turn, passes
        # placements made here, each then the turn moved on
        laid = len(lefts) + len(rights) + (el >= 0) - laid
        if laid:
            tips[0], tips[1] = tl, tr
            game.placements += laid
            # the domino's turn stays; passes since the last placement moved it on
            game.last_placer = turn if tid == -3 else (turn - 1 - passes) % players
        if laid or pass_count != stepped:
            game.mover = turn if tid == -3 else (turn - 1) % players
        game.opened, game.opener = opened, opener
        game.pile_pos = pos
        game.drew_this_turn = drew
        game.pass_count = pass_count
        if not m:
            if game.can_draw():
                game.draw_tile()
            else:
                game.pass_turn()
        elif tid == -2:
            game.finish_tranque()
        elif tid == -3:  # as place_tile's last tile: the bonuses, then the end
            if kind:
                game.add_bonus(turn, "capicua", capicua_bonus, kind)
            game.finish_domino(turn, kind)
        else:
            game.place_tile(tid, end, ha[tid])
