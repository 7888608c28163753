"""Prepared deals and scripted turns for the engine tests (importable: the sheet tests
use them too).

A Leonard deal must use all 45 tiles (hands + pile + table), so ``make_round`` completes
short hands and the pile from the tiles the test did not name, in a fixed order.
"""


from __future__ import annotations

from collections.abc import Iterable, Sequence

from engine import (
    ANNUL,
    DRAW,
    LEONARD,
    LEONARD_VARIANT,
    PASS,
    Event,
    HouseRules,
    Play,
    Round,
    Tile,
    TileSet,
    Variant,
)


def tiles_of(variant: Variant, texts: Iterable[Tile | str]) -> list[Tile]:
    return [variant.tileset.parse(t) for t in texts]


def complete_deal(
    hands: Sequence[Sequence[Tile | str]],
    pile: Sequence[Tile | str] = (),
    table: Tile | str | None = None,
    *,
    variant: Variant = LEONARD_VARIANT,
    fill_order: Sequence[Tile | str] | None = None,
    reserve: Sequence[Tile | str] = (),
) -> tuple[list[list[Tile]], list[Tile]]:
    """Fill each hand up to the variant's hand size and complete the pile.

    Fillers and the pile's tail come from the tiles nobody named (``reserve`` tiles are
    never used as fillers, they go to the pile), in ``fill_order`` (default: set order).
    The given ``pile`` tiles come first, so they are the first drawn.
    """
    ts = variant.tileset
    size = variant.hand_sizes[len(hands)]
    named = [ts.parse(t) for h in hands for t in h] + [ts.parse(t) for t in pile]
    if table is not None:
        named.append(ts.parse(table))
    order = [ts.parse(t) for t in fill_order] if fill_order is not None else list(ts.tiles)
    order += [t for t in ts.tiles if t not in order]
    reserved = {ts.parse(t) for t in reserve}
    free = [t for t in order if t not in named and t not in reserved]
    out_hands = []
    for h in hands:
        hand = [ts.parse(t) for t in h]
        while len(hand) < size:
            hand.append(free.pop(0))
        out_hands.append(hand)
    out_pile = [ts.parse(t) for t in pile]
    if variant.pile:
        out_pile += free + [t for t in order if t in reserved and t not in named]
    return out_hands, out_pile


def make_round(
    hands: Sequence[Sequence[Tile | str]],
    pile: Sequence[Tile | str] = (),
    table: Tile | str | None = None,
    *,
    variant: Variant = LEONARD_VARIANT,
    rules: HouseRules | None = None,
    starter: int | None = None,
    opening: str = "rule",
    fill_order: Sequence[Tile | str] | None = None,
    reserve: Sequence[Tile | str] = (),
) -> Round:
    """``Round.from_deal`` on a deal completed by :func:`complete_deal`."""
    full_hands, full_pile = complete_deal(hands, pile, table, variant=variant,
                                          fill_order=fill_order, reserve=reserve)
    return Round.from_deal(variant, rules or HouseRules(), hands=full_hands, pile=full_pile,
                           table=table, starter=starter, opening=opening)  # type: ignore[arg-type]


def action(text: str, tileset: TileSet = LEONARD) -> Play | object:
    """``"6/6"`` (a round's first tile), ``"6/5 R"``, ``"13/5 1"`` (arm 1 of a hub),
    ``"draw"``, ``"pass"`` or ``"annul"`` (a Cuban redeal)."""
    words = text.split()
    if words[0].lower() == "draw":
        return DRAW
    if words[0].lower() == "pass":
        return PASS
    if words[0].lower() == "annul":
        return ANNUL
    end = words[1] if len(words) > 1 else None
    return Play(tileset.parse(words[0]), end)  # type: ignore[arg-type]


def run(rnd: Round, script: Iterable[str], seats: Iterable[int] | None = None) -> list[Event]:
    """Apply scripted actions in turn order (``seats``, if given, checks whose turn it is);
    return every event they caused."""
    events: list[Event] = []
    seat_list = list(seats) if seats is not None else None
    for k, text in enumerate(script):
        seat = seat_list[k] if seat_list is not None else None
        events += rnd.apply(action(text, rnd.tileset), seat)  # type: ignore[arg-type]
    return events


def snapshot(rnd: Round) -> tuple[object, ...]:
    """Everything observable about a round's state (for "an illegal action changes nothing")."""
    return (
        [sorted(map(str, rnd.hand(s))) for s in range(rnd.players)],
        [str(t) for t in rnd.pile_tiles],
        [str(t) for t in rnd.line_tiles()],
        rnd.ends,
        rnd.turn,
        list(rnd.gains),
        list(rnd.losses),
        list(rnd.log),
        [dict(t) for t in rnd.turns],
        rnd.over,
        [str(m) for m in rnd.legal_actions()],
    )
