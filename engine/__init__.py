"""Leonard-Domino and classic domino games: tiles, rules, rounds, matches, records, bots.

Standard library only. The public names below are stable; see the README.
"""

from .events import (
    Annulled,
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
    Special,
)
from .line import TWO_ENDED, HubLine, Line, LineShape, TwoEndedLine, hub
from .match import Match
from .record import RecordError, load_record, replay
from .round import (
    ANNUL,
    DRAW,
    PASS,
    Action,
    Annul,
    DealError,
    Draw,
    IllegalMoveError,
    Pass,
    Play,
    Round,
    RoundContext,
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
from .variants import CUBAN, DOBLE15, PONCE, TRADITIONAL, VENEZUELA

__all__ = [
    "Action", "BLOCK_VARIANT", "Bonus", "DOUBLE_FIFTEEN", "DOUBLE_NINE", "DOUBLE_SIX", "DRAW",
    "DealError", "Draw", "Drew", "Event", "HouseRules", "IllegalMoveError", "LEONARD",
    "LEONARD_VARIANT", "Match", "MatchEnded", "PASS", "Pass", "Passed", "Placed", "Play",
    "PowerEffect", "RecordError", "Round", "RoundEnded", "RoundStarted", "RulesError", "Tile",
    "TileError", "TileSet", "Variant", "double_n", "load_record", "parse_tile", "power_effect",
    "replay", "variant", "ScoreSheet",
    # the classic variants (RULES.md §3) and the line shapes
    "ANNUL", "Annul", "Annulled", "CUBAN", "DOBLE15", "End", "Line", "LineShape", "PONCE",
    "RoundContext", "Special", "TRADITIONAL", "TWO_ENDED", "VARIANTS", "VENEZUELA", "hub",
    "HubLine", "TwoEndedLine",
]
