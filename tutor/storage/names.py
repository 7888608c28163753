"""One name, one student: the key by which a student's name is matched wherever it enters
(the hub's login, a page's link, the store's lookup, a teacher's uploads and rosters), and
the rule that refuses a name that would pass for another (:func:`name_problem`).

"José" typed with a precomposed "é" (NFC) and with an "e" and a combining accent (NFD)
look the same and are one student; so are "Ana" and "ana", " Ana  María " and "Ana María",
and the fullwidth "ａｎａ" and "ana". The key is the name with its spaces collapsed, in Unicode
NFKC (compatibility forms fold: fullwidth letters, ligatures), case-folded (``str.casefold``:
"Straße" and "STRASSE" match), and in NFKC again (case folding can undo the composition).
Names are shown as they were first written; they are matched by key.

>>> name_key("Jose\\u0301") == name_key("JOSÉ") == name_key(" josé ") == name_key("ＪＯＳＥ́")
True

Some names are not keyed but refused, because no key could make them one with the name they
look like (issue 51: Cyrillic "аna" and "ana" with a zero-width space were two students who
looked the same on every page):

- a character that does not show (a zero-width space U+200B, a joiner, a direction mark: any
  Unicode format or control character, or an unassigned or private one; but a tab or a line
  break is a space, which the key collapses like any other);
- letters of two scripts mixed (Cyrillic "а" among Latin letters), by Unicode's script data
  as the ``confusable_homoglyphs`` library keeps it (with Unicode's confusables, which the
  sentence uses to name the look-alike letter). A script's letters mixed with digits,
  punctuation and combining accents are one script; so are the mixes Unicode's "highly
  restrictive" profile (Unicode Technical Standard 39, section 5.2) allows: Han with
  Hiragana and Katakana (Japanese), with Bopomofo (Chinese) or with Hangul (Korean), each
  with Latin.

The hub's login (``deploy/tljh/leonard.py``), the store (every name a row is stored under)
and the pages' name forms apply this one rule.

>>> name_problem("ana") is None and name_problem("José") is None
True
>>> name_problem("\\u0430na").msgid.startswith("“{name}” mixes")
True
"""

from __future__ import annotations

import functools
import json
import sys
import unicodedata
from typing import IO

from tutor.i18n import N_, Message

__all__ = ["ANONYMOUS", "INVISIBLE", "MIXED_LOOKALIKE", "MIXED_SCRIPTS", "name_key",
           "name_problem", "same_name", "serve", "unnamed"]

ANONYMOUS = "anon"
"""The name a page opened without one gives its player (a link with no ``student=``)."""

INVISIBLE = N_("“{name}” holds a character that does not show ({char}), so it could pass for "
               "another name. Type the name again with letters, digits and spaces only.")
MIXED_LOOKALIKE = N_("“{name}” mixes letters of two alphabets: its “{char}” ({char_name}) "
                     "looks like “{like}” ({like_name}), so it could pass for another name. "
                     "Type the name again in one alphabet.")
MIXED_SCRIPTS = N_("“{name}” mixes letters of different alphabets ({scripts}), so it could "
                   "pass for another name. Type the name again in one alphabet.")

_NEUTRAL = frozenset({"COMMON", "INHERITED"})
"""Scripts that go with any other: digits, punctuation, spaces (Common), combining marks
(Inherited)."""

_TOGETHER = (frozenset({"LATIN", "HAN", "HIRAGANA", "KATAKANA"}),
             frozenset({"LATIN", "HAN", "BOPOMOFO"}),
             frozenset({"LATIN", "HAN", "HANGUL"}))
"""The script mixes the highly restrictive profile (UTS 39) allows in one identifier."""

_HIDDEN = frozenset({"Cf", "Cc", "Co", "Cn", "Cs", "Zl", "Zp"})
"""Unicode general categories of characters that do not show as a letter: format (U+200B
zero-width space, U+200D joiner, U+202E right-to-left override …), control, private use,
unassigned, surrogates, line and paragraph separators."""


def name_key(name: str) -> str:
    """The key ``name`` is matched by: spaces collapsed, NFKC, case-folded."""
    spaced = " ".join(name.split())
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", spaced).casefold())


def same_name(a: str, b: str) -> bool:
    """Whether ``a`` and ``b`` name the same student."""
    return name_key(a) == name_key(b)


def _char(c: str) -> str:
    return f"U+{ord(c):04X} {unicodedata.name(c, '')}".rstrip()


@functools.lru_cache(maxsize=4096)  # the store checks each name it keeps, at each row
def name_problem(name: str) -> Message | None:
    """Why ``name`` is refused as a student's or user's name (a sentence that says what is
    wrong with it), or None if it is a name: see the module's docstring. The rule reads the
    name in NFKC, as its key does."""
    # lazy: the script data (about 3 MB in memory) is read only when a name is checked, the
    # confusables (about 6 MB more) only to name the look-alike letter of a refused name
    from confusable_homoglyphs import categories

    text = unicodedata.normalize("NFKC", name)
    for c in text:  # a line break or a tab is a space: the key collapses it
        if unicodedata.category(c) in _HIDDEN and not c.isspace():
            # the name is said without its hidden characters (a direction mark would turn
            # the sentence around)
            shown = "".join(k for k in name if k.isspace()
                            or unicodedata.category(k) not in _HIDDEN)
            return Message(INVISIBLE, name=" ".join(shown.split()), char=_char(c))
    scripts = {str(categories.alias(c)) for c in text if not c.isspace()} - _NEUTRAL
    if len(scripts) <= 1 or any(scripts <= allowed for allowed in _TOGETHER):
        return None
    from confusable_homoglyphs import confusables

    letters = [str(categories.alias(c)) for c in text]
    found_all = confusables.is_confusable(text, greedy=True, preferred_aliases=[]) or []
    # the odd letter out first: the one of the script the name has fewest letters of
    for found in sorted(found_all, key=lambda f: letters.count(
            str(categories.alias(str(f["character"]))))):
        c = str(found["character"])
        for glyph in found["homoglyphs"]:
            like = str(glyph["c"])
            if len(like) == 1 and str(categories.alias(like)) in scripts - {
                    str(categories.alias(c))}:
                return Message(MIXED_LOOKALIKE, name=name, char=c, char_name=_char(c),
                               like=like, like_name=_char(like))
    return Message(MIXED_SCRIPTS, name=name,
                   scripts=", ".join(s.title() for s in sorted(scripts)))


def unnamed(student: str) -> bool:
    """Whether ``student`` is the name a page opened without one gives its player, or (hot
    seat) another seat's name made from it, like ``"anon (B)"``: the page says "your", not
    that name."""
    return student == ANONYMOUS or student.startswith(f"{ANONYMOUS} (")


def problem_json(name: str) -> dict[str, dict[str, str] | None]:
    """``{"problem": null}``, or ``{"problem": {"en": …, "es": …}}``: :func:`name_problem`'s
    sentence in both languages, as a hub's login asks it (:func:`serve`; on Kubernetes the
    store service's ``name-check``)."""
    problem = name_problem(name)
    return {"problem": None if problem is None else {
        lang: problem.translate(lang) for lang in ("en", "es")}}


def serve(lines: IO[str], out: IO[str]) -> None:
    """Answer name checks, one a line, until ``lines`` ends: each line a name as a JSON
    string, each answer a JSON line ``{"problem": null}`` or ``{"problem": {"en": …, "es":
    …}}`` (the sentence in both languages). The hub's ``normalize_username``
    (``deploy/tljh/leonard.py``) asks this of the users' Python, where the tutor is
    installed, so that the hub and the store refuse the same names."""
    for line in lines:
        try:
            name = json.loads(line)
        except ValueError:
            name = line.rstrip("\n")
        out.write(json.dumps(problem_json(str(name)), ensure_ascii=True) + "\n")
        out.flush()

if __name__ == "__main__":  # python -m tutor.storage.names: the hub's name check
    serve(sys.stdin, sys.stdout)
