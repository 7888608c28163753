"""Rule sets as data: the house rules D-1…D-16 of docs/rules.md (and the ones this engine settles,
D-17…) and the variants built on them."""

from __future__ import annotations

from collections.abc import ItemsView, Iterable, Iterator, KeysView, Mapping, ValuesView
from dataclasses import dataclass, field, fields
from typing import TYPE_CHECKING, Any, Literal, Protocol, cast

from ._build import mypyc_attr
from .line import TWO_ENDED, LineShape
from .tiles import DOUBLE_SIX, LEONARD, Tile, TileSet, parse_tile

if TYPE_CHECKING:
    import random


class RulesError(ValueError):
    """A rule option with a value the engine does not know."""


@mypyc_attr(native_class=False)
class VariantOptions:
    """The variant's own house rules of a :class:`HouseRules` that differ from their default,
    by name in alphabetical order: an immutable, hashable mapping (``==`` any mapping with the
    same items). A :class:`~collections.abc.Mapping` by registration: a class mypyc compiles
    cannot be built on that ABC."""

    __slots__ = ("_items", "_map")

    def __init__(self, items: Iterable[tuple[str, str]] = ()) -> None:
        self._items: tuple[tuple[str, str], ...] = tuple(sorted(items))
        self._map: dict[str, str] = dict(self._items)

    def __getitem__(self, name: str) -> str:
        return self._map[name]

    def get(self, name: str, default: object = None) -> object:
        return self._map.get(name, default)

    def __iter__(self) -> Iterator[str]:
        return iter(self._map)

    def __len__(self) -> int:
        return len(self._items)

    def __contains__(self, name: object) -> bool:
        return name in self._map

    def keys(self) -> KeysView[str]:
        return self._map.keys()

    def items(self) -> ItemsView[str, str]:
        return self._map.items()

    def values(self) -> ValuesView[str]:
        return self._map.values()

    def __hash__(self) -> int:
        return hash(self._items)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, VariantOptions):
            return self._items == other._items
        if isinstance(other, Mapping):
            return self._map == dict(other.items())
        return NotImplemented

    def __repr__(self) -> str:
        return f"VariantOptions({self._map!r})"


Mapping.register(VariantOptions)


NO_OPTIONS: Mapping[str, str] = cast("Mapping[str, str]", VariantOptions())
"""No variant option set: every one at its default."""


@mypyc_attr(native_class=False)
@dataclass(frozen=True)
class HouseRules:
    """Every choice docs/rules.md leaves open, named after its D-number, with its default.

    A plain Python class in the compiled build too: a compiled (native) class stores an ``int``
    field as a number, so ``rounds=True`` (a lesson file's typo) would arrive as 1 and pass the
    check below. The check reads the fields as objects (``getattr``) for the same reason.
    """

    symbol_value: int = 0
    """D-1: what a symbol half (+ - x) is worth in a tile's total."""
    no_double_opener: Literal["heaviest"] = "heaviest"
    """D-2: when nobody holds a numeric double, the holder of the heaviest tile opens with it
    (highest total, then highest single half, then seat order)."""
    opener: Literal["rule", "rotate"] = "rule"
    """D-3: how later rounds open: ``"rule"`` as the first round; ``"rotate"``: the right-hand
    player of the previous opener opens, with any tile."""
    draw: Literal["until-playable", "one"] = "until-playable"
    """D-4: a player who cannot play draws until a tile fits or the pile is empty
    (``"one"``: draws a single tile and passes if it does not fit)."""
    seed_item1: Literal["x/+"] = "x/+"
    """D-5: seed item 1 (printed "X/2") is the x/+ tile: gain 1·T + T."""
    seed_item9: Literal["x/-"] = "x/-"
    """D-6: seed item 9 (printed "x/.") is the x/- tile: gain 1·T, loss 1·T."""
    both_pass_bonuses: bool = True
    """D-7: paso a la salida and paso corrido on the same opening tile both score
    (False: only the paso a la salida)."""
    capicua_kind: Literal["last-tile", "end-tiles"] = "last-tile"
    """D-8: a capicúa is power (KP) when the last tile is a power tile (``"end-tiles"``:
    when either end tile it closed was one)."""
    tranque_tie: Literal["nobody", "split"] = "nobody"
    """D-9: when two or more share the lowest hand in a tranque nobody gains
    (``"split"``: they share the gain, rounded down)."""
    rounds: int = 3
    """D-10: rounds in a match, for the games played to a number of rounds
    (``Variant.goal == "rounds"``; the others play to a score, ``target``)."""
    target: int = 0
    """§3.1–§3.4: the score that wins a match of the variants played to a score; 0 means the
    variant's own (``Variant.target``, at most ``Variant.max_target``)."""
    options: Mapping[str, str] = NO_OPTIONS
    """A variant's own house rules (``{"name": "value"}``): their names, values and meaning
    are declared by the variant's module (``Variant.options``, the default first), and the core
    names none of them. Read one with :meth:`option`. Kept as a :class:`VariantOptions`
    holding only the values that differ from the default, so that two rules equal in effect
    are equal (and hash alike) however they were written."""

    def __post_init__(self) -> None:
        allowed = {
            "no_double_opener": ("heaviest",),
            "opener": ("rule", "rotate"),
            "draw": ("until-playable", "one"),
            "seed_item1": ("x/+",),
            "seed_item9": ("x/-",),
            "capicua_kind": ("last-tile", "end-tiles"),
            "tranque_tie": ("nobody", "split"),
        }
        for name, values in allowed.items():
            _check_value(name, getattr(self, name), values)
        if not isinstance(self.options, VariantOptions) or self.options:
            object.__setattr__(self, "options", _normalise(self.options))
        raw: dict[str, object] = {name: getattr(self, name) for name in (
            "rounds", "target", "both_pass_bonuses", "symbol_value")}
        rounds, target = raw["rounds"], raw["target"]
        if type(rounds) is not int or rounds < 1:
            raise RulesError(f"house rule rounds must be a whole number ≥ 1, not {rounds!r}")
        if type(target) is not int or target < 0:
            raise RulesError(f"the match target must be a whole number of points (0: the "
                             f"variant's own), not {target!r}")
        if not isinstance(raw["both_pass_bonuses"], bool):
            raise RulesError("house rule both_pass_bonuses must be true or false")
        if type(raw["symbol_value"]) is not int:
            raise RulesError("house rule symbol_value must be a whole number")

    def option(self, name: str) -> str:
        """The value of a variant's own house rule ``name`` (its declared default when it was
        not set). Raises :class:`RulesError` for a name no variant declares."""
        value = self.options.get(name)
        if value is not None:
            return value
        return _declared_options(name)[0]

    def to_dict(self) -> dict[str, Any]:
        """The flat form the saved records and the lesson files use: the core rules in their
        order, then every variant's own rules with their values (defaults included), the
        variants in alphabetical order of their names and each one's in its declared order —
        an order that does not depend on which module registered first, so that a record is
        written byte for byte as before."""
        out = {f.name: getattr(self, f.name) for f in fields(self) if f.name != "options"}
        for name, values in declared_options().items():
            out[name] = self.options.get(name, values[0])
        return out

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> HouseRules:
        """Rules from their flat form (:meth:`to_dict`; a record or a lesson file may give only
        some). Raises :class:`RulesError` for a name that is no house rule."""
        core = {f.name for f in fields(cls) if f.name != "options"}
        declared = declared_options()
        unknown = sorted(set(data) - core - set(declared))
        if unknown:
            raise RulesError(f"unknown house rule(s): {', '.join(unknown)}")
        return cls(**{k: v for k, v in data.items() if k in core},
                   options={k: v for k, v in data.items() if k in declared})


def declared_options() -> dict[str, tuple[str, ...]]:
    """Every variant's own house rules (``Variant.options``) with their values, the default
    first: the variants in alphabetical order of their names, each one's in its declared order
    (the order of :meth:`HouseRules.to_dict`). Raises :class:`RulesError` when two games declare
    the same name or one declares a core rule's name."""
    games = tuple(VARIANTS.values())
    seen, found = _DECLARED[0]
    if games == seen:
        return found
    out: dict[str, tuple[str, ...]] = {}
    core = {f.name for f in fields(HouseRules)}
    for game in sorted(VARIANTS.values(), key=lambda v: v.name):
        for name, values in game.options.items():
            if name in out or name in core:
                raise RulesError(f"house rule {name} is declared twice (variant {game.name})")
            out[name] = values
    _DECLARED[0] = (games, out)
    return out


_DECLARED: list[tuple[tuple[Variant, ...], dict[str, tuple[str, ...]]]] = [((), {})]
"""The variants :func:`declared_options` last read, and what it made of them (a game's round
asks for its options every round)."""


def _declared_options(name: str) -> tuple[str, ...]:
    declared = declared_options()
    if name not in declared:
        raise RulesError(f"unknown house rule {name!r}: a variant's own house rules are "
                         f"{', '.join(declared)}")
    return declared[name]


def _check_value(name: str, value: object, values: tuple[str, ...]) -> None:
    if value not in values:
        raise RulesError(f"house rule {name} cannot be {value!r}: "
                         f"choose one of {', '.join(map(repr, values))}")


def _normalise(options: object) -> Mapping[str, str]:
    """``options`` checked against the variants' declarations, kept without its defaults."""
    if not isinstance(options, Mapping):
        raise RulesError(f"a variant's own house rules are given as a mapping of names to "
                         f"values, not {options!r}")
    kept = []
    for name, value in options.items():
        values = _declared_options(name)
        _check_value(name, value, values)
        if value != values[0]:
            kept.append((name, value))
    return cast("Mapping[str, str]", VariantOptions(kept))


_TEAMS: dict[tuple[bool, int], tuple[tuple[tuple[int, ...], ...], tuple[int, ...]]] = {}
"""Variant.teams and Variant.seat_teams by (pairs, players), built once: every deal asks."""


class RoundType(Protocol):
    """What a variant's :attr:`Variant.round_type` is to the rules: a class that deals a round
    of the game, :class:`~engine.round.Round` or a subclass of it. The rules sit below the
    round (it reads them), so they name it only by this;
    :func:`engine.round.round_type` gives a variant's class as the ``Round`` it is."""

    @classmethod
    def deal(cls, variant: Variant, rules: HouseRules, players: int, rng: random.Random, *,
             number: int = 1, starter: int | None = None, record: bool = True,
             context: object = None) -> object: ...


@dataclass(frozen=True)
class Variant:
    """A game played on the engine: which tiles, how many, and which scoring hooks apply."""

    name: str
    tileset: TileSet
    min_players: int
    max_players: int
    hand_sizes: dict[int, int]
    """Tiles dealt to each player, by number of players."""
    pile: bool
    """Undealt tiles form a pile to draw from (False: they stay aside unseen)."""
    power: bool
    """Power tiles score (docs/rules.md §1.6)."""
    table_tile_players: tuple[int, ...] = ()
    """Player counts that play the 4-player opening: a starter by pre-draw and a table tile."""
    pass_bonus: int = 0
    """Paso a la salida / paso corrido bonus (docs/rules.md §1.7)."""
    capicua_bonus: int = 0
    """Bonus for a last tile that fits both ends (docs/rules.md §1.8)."""
    extra: dict[str, Any] = field(default_factory=dict)
    title: str = ""
    """The game's name for people."""
    line: LineShape = TWO_ENDED
    """Where tiles go: a two-ended line, or a hub with arms (:func:`~engine.line.hub`)."""
    pairs: bool = False
    """Four players in two pairs, partners opposite: seats 0 & 2 against 1 & 3 (§3)."""
    keep: dict[int, int] = field(default_factory=dict)
    """Tiles that always stay in the pile, by number of players (§3.1: 1, or 2 with two)."""
    goal: Literal["rounds", "points"] = "rounds"
    """A match is a number of rounds (D-10) or is played to a score (``target``)."""
    target: int = 0
    """The default match target for ``goal == "points"``."""
    max_target: int = 0
    """The highest target the game allows (0: no limit)."""
    sheet_losses: bool = True
    """The score sheet has ``-a`` columns (a game without power tiles may drop them)."""
    round_type: type[RoundType] | None = None
    """The :class:`~engine.round.Round` subclass with this game's hooks (None: Round)."""
    options: dict[str, tuple[str, ...]] = field(default_factory=dict)
    """The house rules only this game reads, each with the values it may take (the first
    is the default); :class:`HouseRules` checks them, keeps them in ``HouseRules.options`` and
    gives their value by :meth:`HouseRules.option`. A name is the game's own: no other game
    and no core rule may use it."""
    sheet_marks: dict[str, str] = field(default_factory=dict)
    """The marks this game writes on the score sheet (:mod:`engine.sheet`) beyond every game's,
    by the key its round type gives the event (:meth:`~engine.round.Round.sheet_event`), in
    the order they are written in a cell (after ``N PS PC``, before ``K KP T`` and the
    result)."""
    void_ends: tuple[str, ...] = ()
    """The game's own end reasons (its module's ``END_REASONS``) after which the hand counts
    for nobody, as if never dealt: the score sheet marks no result."""
    sheet_named: bool = True
    """The score sheet's title names the game (False: Leonard-Domino and the block game, the
    sheet's own games)."""
    section: str = ""
    """The section of docs/rules.md that states the game (``"3.1"`` …; empty: a house game): the
    registry (:func:`engine.variants.discover`) lists the classic games in this order."""

    def check_players(self, players: int) -> None:
        if not isinstance(players, int) or not self.min_players <= players <= self.max_players:
            if self.min_players == self.max_players:
                raise RulesError(f"{self.name} is played by {self.min_players} players, "
                                 f"not {players}")
            raise RulesError(
                f"{self.name} is played by {self.min_players} to {self.max_players} players, "
                f"not {players}"
            )

    def teams(self, players: int) -> tuple[tuple[int, ...], ...]:
        """Who scores together: the pairs (``((0, 2), (1, 3))``) or one team per seat."""
        return self.teams_and_seats(players)[0]

    def seat_teams(self, players: int) -> tuple[int, ...]:
        """The index in :meth:`teams` of each seat's team."""
        return self.teams_and_seats(players)[1]

    def teams_and_seats(self, players: int
                        ) -> tuple[tuple[tuple[int, ...], ...], tuple[int, ...]]:
        """:meth:`teams` and :meth:`seat_teams` at once (what a deal sets)."""
        key = (self.pairs, players)
        found = _TEAMS.get(key)
        if found is None:
            if self.pairs:  # seat s plays in pair s % 2
                teams = tuple(tuple(range(t, players, 2)) for t in range(2))
                found = (teams, tuple(s % 2 for s in range(players)))
            else:
                found = (tuple((s,) for s in range(players)), tuple(range(players)))
            _TEAMS[key] = found
        return found

    def match_target(self, rules: HouseRules) -> int:
        """The score that wins a match (0 for a game of a number of rounds). Raises
        :class:`RulesError` for a target the game does not allow."""
        if self.goal == "rounds":
            return 0
        target = rules.target or self.target
        if self.max_target and target > self.max_target:
            raise RulesError(f"{self.name} is played to at most {self.max_target} points, "
                             f"not {target}")
        return target


LEONARD_VARIANT = Variant(
    name="leonard",
    tileset=LEONARD,
    min_players=2,
    max_players=5,
    hand_sizes={2: 9, 3: 9, 4: 11, 5: 9},
    pile=True,
    power=True,
    table_tile_players=(4,),
    pass_bonus=20,
    capicua_bonus=20,
    title="Leonard-Domino",
    sheet_named=False,
)

BLOCK_VARIANT = Variant(
    name="block",
    tileset=DOUBLE_SIX,
    min_players=2,
    max_players=4,
    hand_sizes={2: 7, 3: 7, 4: 7},
    pile=False,
    power=False,
    title="block game (double six)",
    sheet_named=False,
)

VARIANTS: dict[str, Variant] = {v.name: v for v in (LEONARD_VARIANT, BLOCK_VARIANT)}
"""Every game by name; :mod:`engine.variants` adds the classic variants of §3 when the
package is imported."""


def variant(name: str) -> Variant:
    try:
        return VARIANTS[name]
    except KeyError:
        raise RulesError(f"unknown variant {name!r}: choose one of {', '.join(VARIANTS)}") from None


# --- power effects (docs/rules.md §1.6) -------------------------------------------------------

POWER_VS_POWER = 30
"""Seed item 10: a power tile played against a power tile at the other end."""

# Effect codes per power tile, by its orientation-free key.
_EFFECTS: dict[tuple[Any, Any], str] = {
    ("x", "x"): "x/x",
    ("+", "+"): "+/+",
    ("-", "-"): "-/-",
    ("+", "-"): "+/-",
    ("+", "x"): "x/+",
    ("-", "x"): "x/-",
}


def effect_rule(tile: Tile) -> str:
    """The row of the docs/rules.md §1.6 table that applies to a power tile (``"x/n"``,
    ``"+/n"`` …), or ``""`` for a basic tile."""
    if not tile.is_power:
        return ""
    key = tile.key
    if key in _EFFECTS:
        return _EFFECTS[key]
    symbol = key[1]
    return f"{symbol}/n"


def effect_from_total(rule: str, n: int, t: int) -> tuple[int, int]:
    """Gain and loss of a power play with rule ``rule``, number half ``n`` and other-end total T."""
    if rule == "x/n":
        return n * t, 0
    if rule == "+/n":
        return n + t, 0
    if rule == "-/n":
        return 0, n + t
    if rule == "x/x":
        return t * t, 0
    if rule == "+/+":
        return 2 * t, 0
    if rule == "-/-":
        return 0, 2 * t
    if rule == "+/-":
        return t, t
    if rule == "x/+":
        return 1 * t + t, 0
    if rule == "x/-":
        return 1 * t, 1 * t
    return 0, 0


def number_half(tile: Tile) -> int:
    """The number half of an ``x/n``, ``+/n`` or ``-/n`` tile (0 for the others)."""
    for h in (tile.a, tile.b):
        if isinstance(h, int):
            return h
    return 0


def power_effect(
    played: Tile | str, other_end: Tile | str | None, symbol_value: int = 0
) -> tuple[int, int]:
    """``(gain, loss)`` of placing ``played`` when ``other_end`` is the tile at the other end
    of the line (docs/rules.md §1.6). ``other_end=None`` (an opening) gives ``(0, 0)``.

    >>> power_effect("5/x", "6/6"), power_effect("x/x", "3/4"), power_effect("-/6", "4/5")
    ((60, 0), (49, 0), (0, 15))
    >>> power_effect("+/-", "x/3")
    (30, 30)
    """
    tile = parse_tile(played)
    if other_end is None or not tile.is_power:
        return 0, 0
    other = parse_tile(other_end)
    if other.is_power:
        return POWER_VS_POWER, POWER_VS_POWER
    return effect_from_total(effect_rule(tile), number_half(tile), other.total(symbol_value))
