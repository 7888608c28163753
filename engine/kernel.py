"""The playout kernel's tables: the per-tile lookup tables the round and its playout kernel
(:meth:`Round.playout <engine.round.Round.playout>`, random play to the end of a round at the
speed the bots' rollouts need) read, and the few helpers they share.

:class:`Tables` are built once per tile set, symbol value and power setting (:func:`tables`
caches them). Nothing here knows the round: the kernel's loop is the round's own method, as
it writes the round's state back between its inline steps.
"""

from __future__ import annotations

import types
from functools import lru_cache
from typing import Final

from .rules import POWER_VS_POWER, effect_from_total, effect_rule, number_half
from .tiles import TileSet


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
        # :meth:`Round.effect <engine.round.Round.effect>` and the playout kernel read them.
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
        """The tables :meth:`Round.playout <engine.round.Round.playout>` reads, in the order it
        unpacks them."""

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
