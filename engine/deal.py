"""A deal as a value: each seat's hand, the pile in drawing order, the table tile and the
seat that opens. What a lesson prepares, a game record saves (each round's ``hands``,
``pile``, ``table``, ``starter``) and :meth:`Round.from_deal <engine.round.Round.from_deal>`
plays.

The tiles are kept as text (``"5/x"``), as the saved files write them, so a deal is checked
against a game's tile set only when a round is made from it (:class:`DealError` then names the
seat and the tile). :meth:`Deal.to_dict` and :meth:`Deal.from_dict` read and write the saved
form unchanged.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .rules import Variant
from .tiles import Tile, TileError


class DealError(ValueError):
    """Given hands, pile or table that cannot be a deal of this game."""


def _texts(value: object, where: str) -> tuple[str, ...]:
    if isinstance(value, (str, bytes)) or not isinstance(value, Iterable):
        raise DealError(f"{where} must be a list of tiles, like [\"3/4\", \"x/5\"]")
    out = []
    for t in value:
        if not isinstance(t, (str, Tile)):
            raise DealError(f"{where}: {t!r} is not a tile: write it like 3/4 or x/5")
        out.append(str(t))
    return tuple(out)


@dataclass(frozen=True)
class Deal:
    """One round's deal. ``table``: the 4-player Leonard table tile (None: none);
    ``starter``: the seat that opens (None: the rule finds it, docs/rules.md §1.4)."""

    hands: tuple[tuple[str, ...], ...]
    pile: tuple[str, ...] = ()
    table: str | None = None
    starter: int | None = None

    @staticmethod
    def of(hands: object, pile: object = (), table: object = None,
           starter: object = None) -> Deal:
        """A deal from tiles or their text (hands, pile, table tile, starter). Raises
        :class:`DealError` for what is not a list of tiles or a seat (typed ``object``: a
        saved file may hold anything, and the compiled build would raise TypeError)."""
        if isinstance(hands, (str, bytes)) or not isinstance(hands, Iterable):
            raise DealError("the hands must be a list with one list of tiles per seat")
        seats = tuple(_texts(h, f"seat {s}'s hand") for s, h in enumerate(hands))
        if table is not None and not isinstance(table, (str, Tile)):
            raise DealError(f"the table tile {table!r} is not a tile: write it like 3/4")
        seat: int | None = None
        if starter is not None:
            if isinstance(starter, bool) or not isinstance(starter, int):
                raise DealError(f"the starter must be a seat number, not {starter!r}")
            seat = starter
        return Deal(seats, _texts(pile, "the pile"), None if table is None else str(table),
                    seat)

    @staticmethod
    def from_dict(data: object) -> Deal:
        """A deal from its saved form (``{"hands": [...], "pile": [...], "table": ...,
        "starter": ...}``; all but ``hands`` may be left out, other keys, such as a round record's
        ``turns``, are not read). Raises :class:`DealError`."""
        if not isinstance(data, Mapping):
            raise DealError("a deal is an object with hands, pile, table and starter")
        if "hands" not in data:
            raise DealError("a deal needs its hands: one list of tiles per seat")
        return Deal.of(data["hands"], data.get("pile") or (), data.get("table"),
                       data.get("starter"))

    def to_dict(self) -> dict[str, Any]:
        """The saved form (what game records and lessons write)."""
        return {"hands": [list(h) for h in self.hands], "pile": list(self.pile),
                "table": self.table, "starter": self.starter}

    @property
    def players(self) -> int:
        return len(self.hands)


def tile_ids(variant: Variant, hands: Sequence[Sequence[Tile | str]],
             pile: Sequence[Tile | str], table: Tile | str | None
             ) -> tuple[list[int], list[int], int | None]:
    """A deal of ``variant`` as its tile ids: each hand's bit mask, the pile's ids in order,
    the table tile's id. Raises :class:`DealError` naming the seat and the tile, for a deal
    that is not one of this game (players, hand sizes, tiles of the set each dealt once, every
    tile used where there is a pile, the table tile where the game has one)."""
    ts = variant.tileset
    players = len(hands)
    try:
        variant.check_players(players)
    except ValueError as e:
        raise DealError(str(e)) from None
    n = len(ts)
    seen: dict[int, str] = {}

    def ident(text: Tile | str, where: str) -> int:
        try:
            tile = ts.parse(text)
        except TileError as e:
            raise DealError(f"{where}: {e}") from None
        i = ts.id(tile)
        if i in seen:
            raise DealError(f"{where}: {tile} is dealt twice (also in {seen[i]})")
        seen[i] = where
        return i

    size = variant.hand_sizes[players]
    masks = []
    for s, hand in enumerate(hands):
        if len(hand) != size:
            raise DealError(f"seat {s} holds {len(hand)} tiles; {variant.name} with "
                            f"{players} players deals {size} each")
        m = 0
        for t in hand:
            m |= 1 << ident(t, f"seat {s}'s hand")
        masks.append(m)
    pile_ids = [ident(t, "the pile") for t in pile]
    table_id = None if table is None else ident(table, "the table tile")
    with_table = players in variant.table_tile_players
    if with_table and table_id is None:
        raise DealError(f"{variant.name} with {players} players needs a table tile")
    if not with_table and table_id is not None:
        raise DealError(f"{variant.name} with {players} players has no table tile")
    if pile_ids and not variant.pile:
        raise DealError(f"{variant.name} has no pile to draw from")
    if variant.pile and len(seen) != n:
        missing = [str(ts.tiles[i]) for i in range(n) if i not in seen]
        raise DealError(f"the deal must use all {n} tiles; missing: "
                        f"{', '.join(missing[:6])}{' …' if len(missing) > 6 else ''}")
    return masks, pile_ids, table_id
