"""What one seat may know of a round, and hidden-hand sampling consistent with it."""

from __future__ import annotations

import random
from dataclasses import dataclass

from .round import Action, Round
from .tiles import Half, Tile


@dataclass(frozen=True)
class PlayerView:
    """A seat's knowledge: its own hand, the line, counts, and what passes revealed.

    ``voids[s]`` are the suits seat ``s`` is known not to hold: it passed on them and has not
    drawn since. Bots decide from this alone; they never see another hand.
    """

    seat: int
    players: int
    turn: int
    hand: tuple[Tile, ...]
    line: tuple[Tile, ...]
    ends: tuple[Half, ...] | None
    """The open suit at each end (two, or one per arm of a hub); None before the first tile."""
    hand_sizes: tuple[int, ...]
    pile_count: int
    gains: tuple[int, ...]
    losses: tuple[int, ...]
    voids: tuple[frozenset[Half], ...]
    legal: tuple[Action, ...]
    public: Round
    """A copy of the round with every hidden tile removed (other hands and the pile empty)."""
    extra: tuple[object, ...] = ()
    """The game's own moves this seat may make now, on top of :attr:`legal`
    (:meth:`~engine.round.Round.extra_moves`: Cuban's redeal)."""


def view_of(rnd: Round, seat: int) -> PlayerView:
    public = rnd.copy()
    for s in range(rnd.players):
        if s != seat:
            public.hands[s] = 0
    public.pile = []
    public.pile_pos = 0
    suits = rnd.tileset.suits
    voids = tuple(frozenset(suits[i] for i in range(len(suits)) if v >> i & 1)
                  for v in rnd.voids)
    return PlayerView(
        seat=seat,
        players=rnd.players,
        turn=rnd.turn,
        hand=tuple(rnd.hand(seat)),
        line=tuple(rnd.line_tiles()),
        ends=rnd.ends,
        hand_sizes=tuple(rnd.hand_sizes),
        pile_count=rnd.pile_count,
        gains=tuple(rnd.gains),
        losses=tuple(rnd.losses),
        voids=voids,
        legal=tuple(rnd.legal_actions()) if rnd.turn == seat else (),
        public=public,
        extra=tuple(rnd.extra_moves()) if rnd.turn == seat else (),
    )


def shuffle(rng: random.Random, x: list[int]) -> None:
    """``rng.shuffle(x)``, the same permutation from the same generator state, in the engine's
    own (compiled) code: ``random.shuffle`` is interpreted Python, and was a third of a sampled
    deal's time in the compiled build. The bots' choices, and so their games, stay those of
    ``random.shuffle`` (CPython's Fisher-Yates on ``getrandbits``)."""
    getrandbits = rng.getrandbits
    for i in range(len(x) - 1, 0, -1):
        n = i + 1
        k = n.bit_length()
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        x[i], x[j] = x[j], x[i]


def sample_round(view: PlayerView, rng: random.Random, tries: int = 20) -> Round:
    """A full round consistent with ``view``: the unseen tiles dealt at random to the other
    hands (respecting known voids where possible) and the pile, in a random order."""
    pub = view.public
    tab = pub.tab
    seen = pub.hands[view.seat]
    for tid, _, _ in pub.line:
        seen |= 1 << tid
    unseen = [i for i in range(tab.n) if not seen >> i & 1]
    others = [s for s in range(view.players) if s != view.seat]
    need = {s: view.hand_sizes[s] for s in others}
    void_mask = {}
    for s in others:
        m, v, i = 0, pub.voids[s], 0
        while v:
            if v & 1:
                m |= tab.suit_mask[i]
            v >>= 1
            i += 1
        void_mask[s] = m
    order = sorted(others, key=lambda s: -void_mask[s].bit_count())
    hands: dict[int, int] = {}
    pool: list[int] = []
    for attempt in range(tries + 1):
        strict = attempt < tries
        pool = unseen[:]
        shuffle(rng, pool)
        hands = {}
        ok = True
        for s in order:
            m = 0
            k = need[s]
            rest = []
            for tid in pool:
                if k and (not strict or not void_mask[s] >> tid & 1):
                    m |= 1 << tid
                    k -= 1
                else:
                    rest.append(tid)
            if k:
                ok = False
                break
            hands[s] = m
            pool = rest
        if ok:
            break
    rnd = pub.copy()
    for s in others:
        rnd.hands[s] = hands[s]
    rnd.pile = pool[:view.pile_count]
    rnd.pile_pos = 0
    return rnd
