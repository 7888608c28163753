"""The variants beside Leonard and the block game (:mod:`engine.rules`): the classic variants
of docs/rules.md §3 and the house variants, each a :class:`~engine.rules.Variant` whose
``round_type`` overrides a few hooks of :class:`~engine.round.Round` (python-chess's
``variant.py`` style), one module each.

The one registry is :data:`engine.rules.VARIANTS`: importing this package adds to it every
variant a module of this package declares (found by :func:`discover`: the classic ones in
the order of §3, by their :attr:`~engine.rules.Variant.section`, then the others by module
name), so a new variant is its module alone, with no registry edit."""

from __future__ import annotations

import importlib
import pkgutil

from ..rules import VARIANTS, Variant
from .cuban import ANNUL, CUBAN, Annul, Annulled, CubanRound
from .doble15 import DOBLE15, Doble15Round, Special
from .ponce import PONCE, PonceContext, PonceRound, RoundContext, round_count
from .traditional import TRADITIONAL, TraditionalRound
from .venezuela import VENEZUELA, VenezuelaRound


def discover() -> list[Variant]:
    """Every variant declared (a :class:`~engine.rules.Variant` at the top level) by a module
    of this package, each once: the classic ones in the order of docs/rules.md §3 (their
    ``section``), then the house games in the order of their module names."""
    found: dict[str, tuple[str, str, Variant]] = {}
    for info in pkgutil.iter_modules(__path__):
        module = importlib.import_module(f"{__name__}.{info.name}")
        for value in vars(module).values():
            if isinstance(value, Variant) and value.name not in found:
                found[value.name] = (value.section or "~", info.name, value)
    return [v for _section, _module, v in sorted(found.values(), key=lambda f: f[:2])]


VARIANTS.update({v.name: v for v in discover() if v.name not in VARIANTS})

CLASSIC = tuple(v for v in VARIANTS.values() if v.section.startswith("3."))
"""The classic variants of §3, in its order (read off the registry)."""

__all__ = ["ANNUL", "Annul", "Annulled", "CLASSIC", "CUBAN", "CubanRound", "DOBLE15",
           "Doble15Round", "PONCE", "PonceContext", "PonceRound", "RoundContext", "Special",
           "TRADITIONAL", "TraditionalRound", "VENEZUELA", "VenezuelaRound", "discover",
           "round_count"]
