"""One name, one student: the key by which a student's name is matched wherever it enters
(the hub's login, a page's link, the store's lookup, a teacher's uploads and rosters).

"José" typed with a precomposed "é" (NFC) and with an "e" and a combining accent (NFD)
look the same and are one student; so are "Ana" and "ana", and " Ana  María " and
"Ana María". The key is the name with its spaces collapsed, in Unicode NFC, case-folded
(``str.casefold``: "Straße" and "STRASSE" match), and in NFC again (case folding can undo
the composition). Names are shown as they were first written; they are matched by key.

>>> name_key("Jose\\u0301") == name_key("JOSÉ") == name_key(" josé ")
True
"""

from __future__ import annotations

import unicodedata

__all__ = ["ANONYMOUS", "name_key", "same_name", "unnamed"]

ANONYMOUS = "anon"
"""The name a page opened without one gives its player (a link with no ``student=``)."""


def name_key(name: str) -> str:
    """The key ``name`` is matched by: spaces collapsed, NFC, case-folded."""
    spaced = " ".join(name.split())
    return unicodedata.normalize("NFC", unicodedata.normalize("NFC", spaced).casefold())


def same_name(a: str, b: str) -> bool:
    """Whether ``a`` and ``b`` name the same student."""
    return name_key(a) == name_key(b)


def unnamed(student: str) -> bool:
    """Whether ``student`` is the name a page opened without one gives its player, or (hot
    seat) another seat's name made from it, like ``"anon (B)"``: the page says "your", not
    that name."""
    return student == ANONYMOUS or student.startswith(f"{ANONYMOUS} (")
