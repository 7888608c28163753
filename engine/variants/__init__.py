"""The variants beside Leonard and the block game (:mod:`engine.rules`): the classic variants
of docs/rules.md §3 and the house variants, each a :class:`~engine.rules.Variant` whose
``round_type`` overrides a few hooks of :class:`~engine.round.Round` (python-chess's
``variant.py`` style), one module each.

Importing this package adds every variant it holds to :data:`engine.rules.VARIANTS`: the
classic ones in the order of §3, then any other module's (found by :func:`discover`, in the
order of their module names), so a new variant is its module alone, with no registry edit."""

from __future__ import annotations

import importlib
import pkgutil

from ..rules import VARIANTS, Variant
from .cuban import ANNUL, CUBAN, Annul, CubanRound
from .doble15 import DOBLE15, Doble15Round
from .ponce import PONCE, PonceContext, PonceRound, RoundContext, round_count
from .traditional import TRADITIONAL, TraditionalRound
from .venezuela import VENEZUELA, VenezuelaRound

CLASSIC = (TRADITIONAL, VENEZUELA, PONCE, CUBAN, DOBLE15)
"""The classic variants of §3, in its order."""


def discover() -> list[Variant]:
    """Every variant declared (a :class:`~engine.rules.Variant` at the top level) by a module
    of this package, each once, the classic ones first."""
    found = {v.name: v for v in CLASSIC}
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        module = importlib.import_module(f"{__name__}.{info.name}")
        for value in vars(module).values():
            if isinstance(value, Variant) and value.name not in found:
                found[value.name] = value
    return list(found.values())


VARIANTS.update({v.name: v for v in discover()})

__all__ = ["ANNUL", "Annul", "CLASSIC", "CUBAN", "CubanRound", "DOBLE15", "Doble15Round",
           "PONCE", "PonceContext", "PonceRound", "RoundContext", "TRADITIONAL",
           "TraditionalRound", "VENEZUELA", "VenezuelaRound", "discover", "round_count"]
