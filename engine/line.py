"""Line shapes: where tiles go on the table and what their open ends are called.

Two shapes, one idea. A *two-ended line* (Leonard and the block games) has the ends ``"L"``
and ``"R"``. A *hub* (Doble 15, docs/rules.md §3.5) is a double with N arms, each an end of its own,
named ``"1"`` … ``"N"`` clockwise. Either way an end is a small index (0, 1, …) in the engine's
hot paths and a name in moves, events and records; :class:`LineShape` converts between them.

A :class:`Line` keeps the placed tiles as ``(tile id, inner suit, outer suit)`` triples with
two lists the round reads on every move: ``open[e]``, the suit open at end ``e``, and
``tips[e]``, the id of the tile at that end (both ``-1`` before the first tile).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Literal

Placement = tuple[int, int, int]
"""``(tile id, suit, suit)``: on a two-ended line left half then right half; on an arm the
half towards the hub first."""

ShapeKind = Literal["two-ended", "hub"]


@dataclass(frozen=True)
class LineShape:
    """The shape of a line of play and the names of its ends.

    >>> TWO_ENDED.ends, hub(6).ends
    (('L', 'R'), ('1', '2', '3', '4', '5', '6'))
    >>> hub(6).index("3")
    2
    """

    kind: ShapeKind
    ends: tuple[str, ...]

    def index(self, end: str) -> int:
        """The engine's index of end ``end`` (raises ValueError naming the valid ends)."""
        try:
            return self.ends.index(end)
        except ValueError:
            raise ValueError(f"{end!r} is not an end of this line: {self.describe()}") \
                from None

    def describe(self) -> str:
        """The ends in words: ``L or R``, ``an arm 1–6``."""
        if self.kind == "two-ended":
            return " or ".join(self.ends)
        return f"an arm {self.ends[0]}–{self.ends[-1]}"

    def new(self) -> Line:
        """An empty line of this shape."""
        if self.kind == "two-ended":
            return TwoEndedLine(self)
        return HubLine(self)


TWO_ENDED = LineShape("two-ended", ("L", "R"))
"""Leonard and the block games: a line with a left and a right end."""


def hub(arms: int) -> LineShape:
    """A hub with ``arms`` arms named ``"1"`` … (Doble 15 plays six)."""
    if arms < 1:
        raise ValueError(f"a hub needs at least one arm, not {arms}")
    return LineShape("hub", tuple(str(i) for i in range(1, arms + 1)))


class Line:
    """The tiles on the table (base of :class:`TwoEndedLine` and :class:`HubLine`)."""

    def __init__(self, shape: LineShape) -> None:
        # TwoEndedLine.__init__ sets these fields itself, without calling this: keep the two
        # in step.
        self.shape = shape
        n = len(shape.ends)
        self.open: list[int] = [-1] * n
        """The suit open at each end (-1 before the first tile)."""
        self.tips: list[int] = [-1] * n
        """The id of the tile at each end (-1 before the first tile)."""
        self.first = -1
        """The first tile's id (the table tile, the opening or the hub)."""

    @property
    def started(self) -> bool:
        return self.first >= 0

    def start(self, tid: int, left: int, right: int) -> None:
        """Lay the first tile with ``left`` as its left (or only) half."""
        raise NotImplementedError

    def put(self, tid: int, end: int, matched: int, outer: int) -> None:
        """Add tile ``tid`` at end ``end``: ``matched`` touches the end, ``outer`` is open."""
        raise NotImplementedError

    def other_tip(self, end: int) -> int:
        """The tile at the end opposite ``end`` (-1 where a line has no opposite end)."""
        return -1

    def placements(self) -> list[Placement]:
        """Every placed tile in layout order (see :data:`Placement`)."""
        raise NotImplementedError

    def arm(self, end: int) -> list[Placement]:
        """The tiles of arm ``end`` of a hub, outward (empty for a two-ended line)."""
        return []

    def copy(self) -> Line:
        raise NotImplementedError

    def _copy_ends(self, new: Line) -> None:
        new.open = list(self.open)
        new.tips = list(self.tips)
        new.first = self.first

    def __iter__(self) -> Iterator[Placement]:
        return iter(self.placements())

    def __len__(self) -> int:
        return len(self.placements())


class TwoEndedLine(Line):
    """A line with two ends, kept left to right in a deque (``tiles``), read through its
    methods: the playout kernel adds tiles to :attr:`added`, which they settle first."""

    def __init__(self, shape: LineShape = TWO_ENDED) -> None:
        # Line.__init__'s fields set here (no super() call: every deal makes a line)
        self.shape = shape
        self.open = [-1, -1]
        self.tips = [-1, -1]
        self.first = -1
        self.tiles: deque[Placement] = deque()
        self.added: tuple[list[int], list[int], tuple[int, ...]] | None = None
        """Tiles that :meth:`Round.playout` placed and ``tiles`` does not hold yet: the ids
        put on the left end and on the right end, each in the order placed, and each tile's
        two suits added (its open suit is that less the matched one). The kernel keeps
        :attr:`open` and :attr:`tips` itself."""

    def adding(self, half_sum: tuple[int, ...]) -> tuple[list[int], list[int]]:
        """The lists of :attr:`added` (made empty if there are none) for the playout kernel
        to append to; ``half_sum``: each tile's two suits added."""
        added = self.added
        if added is None:
            self.added = added = ([], [], half_sum)
        return added[0], added[1]

    def _settle(self) -> None:
        """Move :attr:`added` into ``tiles``."""
        added = self.added
        if added is None:
            return
        self.added = None
        lefts, rights, half_sum = added
        tiles = self.tiles
        if not tiles:
            return
        open_ = tiles[0][1]
        for tid in lefts:
            outer = half_sum[tid] - open_
            tiles.appendleft((tid, outer, open_))
            open_ = outer
        open_ = tiles[-1][2]
        for tid in rights:
            outer = half_sum[tid] - open_
            tiles.append((tid, open_, outer))
            open_ = outer

    def start(self, tid: int, left: int, right: int) -> None:
        self.tiles.append((tid, left, right))
        self.open[0], self.open[1] = left, right
        self.tips[0] = self.tips[1] = tid
        self.first = tid

    def put(self, tid: int, end: int, matched: int, outer: int) -> None:
        self._settle()
        if end == 0:
            self.tiles.appendleft((tid, outer, matched))
        else:
            self.tiles.append((tid, matched, outer))
        self.open[end] = outer
        self.tips[end] = tid

    def other_tip(self, end: int) -> int:
        return self.tips[1 - end]

    def placements(self) -> list[Placement]:
        self._settle()
        return list(self.tiles)

    def copy(self) -> TwoEndedLine:
        self._settle()
        new = TwoEndedLine(self.shape)
        self._copy_ends(new)
        new.tiles = deque(self.tiles)
        return new

    def __iter__(self) -> Iterator[Placement]:
        self._settle()
        return iter(self.tiles)

    def __len__(self) -> int:
        self._settle()
        return len(self.tiles)


class HubLine(Line):
    """A double in the middle (``first``) and one list of tiles per arm, outward."""

    def __init__(self, shape: LineShape) -> None:
        super().__init__(shape)
        self.arms: list[list[Placement]] = [[] for _ in shape.ends]
        self._hub: Placement = (-1, -1, -1)

    def start(self, tid: int, left: int, right: int) -> None:
        # The hub is a double: every arm starts open on its number.
        for e in range(len(self.open)):
            self.open[e] = left
            self.tips[e] = tid
        self.first = tid
        self._hub = (tid, left, right)

    def put(self, tid: int, end: int, matched: int, outer: int) -> None:
        self.arms[end].append((tid, matched, outer))
        self.open[end] = outer
        self.tips[end] = tid

    def arm(self, end: int) -> list[Placement]:
        return list(self.arms[end])

    def placements(self) -> list[Placement]:
        """The hub, then arm 1 outward, arm 2 outward, …"""
        if self.first < 0:
            return []
        out = [self._hub]
        for arm in self.arms:
            out += arm
        return out

    def copy(self) -> HubLine:
        new = HubLine(self.shape)
        self._copy_ends(new)
        new.arms = [list(a) for a in self.arms]
        new._hub = self._hub
        return new

    def __len__(self) -> int:
        return (self.first >= 0) + sum(len(a) for a in self.arms)
