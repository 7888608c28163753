"""The classic variants of RULES.md §3, each a :class:`~engine.rules.Variant` whose
``round_type`` overrides a few hooks of :class:`~engine.round.Round` (python-chess's
``variant.py`` style). Importing this package adds them to :data:`engine.rules.VARIANTS`."""

from __future__ import annotations

from ..rules import VARIANTS
from .cuban import ANNUL, CUBAN, Annul, CubanRound
from .doble15 import DOBLE15, Doble15Round
from .ponce import PONCE, PonceContext, PonceRound, RoundContext, round_count
from .traditional import TRADITIONAL, TraditionalRound
from .venezuela import VENEZUELA, VenezuelaRound

CLASSIC = (TRADITIONAL, VENEZUELA, PONCE, CUBAN, DOBLE15)
VARIANTS.update({v.name: v for v in CLASSIC})

__all__ = ["ANNUL", "Annul", "CLASSIC", "CUBAN", "CubanRound", "DOBLE15", "Doble15Round",
           "PONCE", "PonceContext", "PonceRound", "RoundContext", "TRADITIONAL",
           "TraditionalRound", "VENEZUELA", "VenezuelaRound", "round_count"]
