"""Leonard-Domino and classic domino games: tiles, rules, rounds, matches, records, bots.

Standard library only. The public names below are stable; see the README.

The modules below come compiled by mypyc when the install could compile them, else as pure
Python: the same source either way (:data:`COMPILED`, :data:`BUILD`; ``engine._build``).
"""

from importlib.machinery import ExtensionFileLoader as _ExtensionFileLoader

from . import _build

# First: decides whether the imports below may load the compiled modules.
_PURE_WHY = _build.choose()

from . import round as _round_module
from .actions import ActionError, parse_action
from .deal import Deal
from .events import (
    Bonus,
    Drew,
    End,
    Event,
    MatchEnded,
    Passed,
    Placed,
    PowerEffect,
    RoundEnded,
    RoundStarted,
)
from .game_file import RecordError, load_record, replay
from .line import TWO_ENDED, HubLine, Line, LineShape, TwoEndedLine, hub
from .match import Match
from .round import (
    DRAW,
    PASS,
    Action,
    DealError,
    Draw,
    IllegalMoveError,
    Pass,
    Play,
    Round,
)
from .rules import (
    BLOCK_VARIANT,
    LEONARD_VARIANT,
    VARIANTS,
    HouseRules,
    RulesError,
    Variant,
    power_effect,
    variant,
)
from .sheet import ScoreSheet
from .tiles import (
    DOUBLE_FIFTEEN,
    DOUBLE_NINE,
    DOUBLE_SIX,
    LEONARD,
    Tile,
    TileError,
    TileSet,
    double_n,
    parse_tile,
)
from .variants import (
    ANNUL,
    CUBAN,
    DOBLE15,
    PONCE,
    TRADITIONAL,
    VENEZUELA,
    Annul,
    Annulled,
    RoundContext,
    Special,
)

COMPILED: bool = isinstance(_round_module.__loader__, _ExtensionFileLoader)
"""The engine running here was compiled by mypyc (False: the pure-Python modules)."""
BUILD: str = "compiled (mypyc)" if COMPILED else (
    f"pure Python ({_PURE_WHY})" if _PURE_WHY else "pure Python")
"""Which build runs, for people: ``python -m engine --version`` prints it."""

__all__ = [
    "Action", "BLOCK_VARIANT", "Bonus", "DOUBLE_FIFTEEN", "DOUBLE_NINE", "DOUBLE_SIX", "DRAW",
    "DealError", "Draw", "Drew", "Event", "HouseRules", "IllegalMoveError", "LEONARD",
    "LEONARD_VARIANT", "Match", "MatchEnded", "PASS", "Pass", "Passed", "Placed", "Play",
    "PowerEffect", "RecordError", "Round", "RoundEnded", "RoundStarted", "RulesError", "Tile",
    "TileError", "TileSet", "Variant", "double_n", "load_record", "parse_tile", "power_effect",
    "replay", "variant", "ScoreSheet",
    # the classic variants (docs/rules.md §3) and the line shapes
    "ANNUL", "Annul", "Annulled", "CUBAN", "DOBLE15", "End", "Line", "LineShape", "PONCE",
    "RoundContext", "Special", "TRADITIONAL", "TWO_ENDED", "VARIANTS", "VENEZUELA", "hub",
    "HubLine", "TwoEndedLine",
    # moves that print and parse, deals as values
    "ActionError", "Deal", "parse_action",
    # which build runs
    "BUILD", "COMPILED",
]
