"""How a round opens (docs/rules.md §1.4, D-2): the shuffled deal, and who opens with which tile.
Plain functions over the kernel's tables and hands as bit masks, which know no round:
:class:`~engine.round.Round`'s construction and its opening hooks call them (a variant's round
type overrides those hooks, not these). Who opens the next round (D-3) is the round's
``next_starter``."""

from __future__ import annotations

import random
from itertools import repeat, starmap
from operator import itemgetter

from .deal import DealError
from .kernel import NATIVE, Tables
from .rules import Variant


def shuffled(variant: Variant, tab: Tables, players: int, rng: random.Random,
             starter: int | None) -> tuple[list[int], list[int], int | None, int | None]:
    """A shuffled deal (§1.4): each hand as a mask, the pile (tile ids, empty when the game
    has none), the table tile (None: none) and the starter: ``starter`` as given, or the
    4-player opening's pre-draw, or None (the rule's opener, for the caller to find)."""
    n = tab.n
    size = variant.hand_sizes[players]
    table: int | None = None
    if players in variant.table_tile_players and starter is None:
        draws = rng.sample(range(n), players)
        starter = max(range(players), key=lambda s: (tab.weight[draws[s]], -s))
    # Sorting by random keys is a uniform shuffle, and twice as fast as random.shuffle.
    if NATIVE:
        rnd = rng.random
        order = sorted(range(n), key=lambda _: rnd())
    else:  # the same keys in the same order, drawn in C: no Python call per tile
        order = sorted(range(n), key=list(starmap(rng.random, repeat((), n))).__getitem__)
    if players in variant.table_tile_players:
        table = order[players * size]
        rest: list[int] = []
    else:
        rest = order[players * size:] if variant.pile else []
    if NATIVE:
        hands = [0] * players
        for s in range(players):  # each hand in a local int: a list item's |= is generic
            h = 0
            for k in range(s * size, s * size + size):
                h |= 1 << order[k]
            hands[s] = h
    else:  # in C: the dealt tiles' bits, grouped ``size`` at a time (the hands), each group
        # summed (distinct bits: their union)
        bits = itemgetter(*order[:players * size])(tab.bit)
        hands = list(map(sum, zip(*[iter(bits)] * size, strict=True)))
    return hands, rest, table, starter


def rule_tile(tab: Tables, mask: int) -> int:
    """The tile a hand would open with by rule: its highest numeric double, else (D-2) its
    heaviest tile."""
    for _, tid in tab.open_order:
        if mask >> tid & 1:
            return tid
    raise DealError("an empty hand cannot open")


def rule_start(tab: Tables, hands: list[int]) -> tuple[int, int]:
    """The seat holding the best opening tile, and that tile (the one it opens with by rule);
    equal tiles (D-2) go by seat order."""
    best_key = None
    best = best_tid = -1
    for key, tid in tab.open_order:
        if best_key is not None and key != best_key:
            break
        for s, h in enumerate(hands):
            if h >> tid & 1:
                if best < 0 or s < best:
                    best, best_key, best_tid = s, key, tid
                break
    if best < 0:
        raise DealError("nobody holds a tile to open with")
    return best, best_tid


def wrong_starter(tab: Tables, hands: list[int], starter: int, expected: int,
                  tile: int) -> DealError:
    """The error for a deal that names ``starter`` where ``expected`` opens with ``tile``."""
    return DealError(f"seat {starter} cannot open: seat {expected} holds "
                     f"{tab.tileset.tiles[tile]}, which opens")

