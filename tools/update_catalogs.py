#!/usr/bin/env python3
"""Bring the tutor's gettext catalogs up to date with the source.

    python tools/update_catalogs.py            # add new messages, list what lacks Spanish
    python tools/update_catalogs.py --check    # change nothing; exit 1 if anything is to do

Every message marked in ``tutor/`` (with the keywords of ``tutor.i18n.KEYWORDS``: ``_``,
``N_``, ``ngettext``) that ``tutor/locale/{es,en}/LC_MESSAGES/tutor.po`` lacks is appended
at the end of the catalog with an empty translation (for English, the source language,
an empty msgstr means "same as the msgid"). Nothing else in the files is rewritten:
existing entries keep their order, text, translations and comments, so a diff shows only
the new messages. Entries whose message is no longer in the source are listed, not
deleted. Finally it prints the messages still lacking a Spanish translation.

Each catalog is read again just before it is written, and the write is atomic, so an
edit made to a .po file while the tool runs is not lost.
"""

from __future__ import annotations

import argparse
import fnmatch
import io
import os
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tutor import i18n  # noqa: E402 - needs the repository on sys.path first

MsgId = str | tuple[str, ...]


@dataclass
class Extracted:
    """One message found in the source: its msgid (a tuple for plural forms) and files."""

    id: MsgId
    files: list[str] = field(default_factory=list)
    comments: list[str] = field(default_factory=list)


def _key(msgid: MsgId) -> str:
    """The catalog key of a msgid: the singular form of a plural message."""
    return msgid if isinstance(msgid, str) else msgid[0]


def extract(source_dir: Path = i18n.SOURCE_DIR) -> list[Extracted]:
    """Every message marked in the Python files under ``source_dir``, in source order
    (files sorted by path, messages by line; paths relative to ``source_dir``)."""
    found: dict[str, Extracted] = {}
    method_map = [("**/.*/**", "ignore"), ("**.py", "python")]
    for filename, _lineno, message, comments, _context in extract_from_dir(
        str(source_dir), method_map=method_map, keywords=i18n.KEYWORDS,
        comment_tags=("TRANSLATORS:",), strip_comment_tags=True,
    ):
        path = filename.replace(os.sep, "/")
        msgid: MsgId = message if isinstance(message, str) else tuple(message)
        if not _key(msgid):
            continue
        entry = found.setdefault(_key(msgid), Extracted(msgid))
        if path not in entry.files:
            entry.files.append(path)
        entry.comments.extend(c for c in comments if c not in entry.comments)
    return list(found.values())


def _read(po_text: str, lang: str) -> tuple[list[str], str]:
    """The msgids of a catalog and its Plural-Forms (from its header, not from CLDR)."""
    catalog = read_po(io.StringIO(po_text), locale=lang, domain=i18n.DOMAIN)
    ids = [m.id if isinstance(m.id, str) else m.id[0] for m in catalog if m.id]
    return ids, catalog.plural_forms


def _entries_text(messages: Sequence[Extracted], lang: str, plural_forms: str) -> str:
    """The .po text of new, untranslated entries, in the catalogs' style (no wrapping,
    file names without line numbers)."""
    catalog = Catalog(locale=lang, domain=i18n.DOMAIN)
    catalog.mime_headers = [("Plural-Forms", plural_forms)]
    for m in messages:
        string: str | tuple[str, ...] = ("" if isinstance(m.id, str)
                                         else ("",) * catalog.num_plurals)
        locations: list[Any] = [(f, None) for f in m.files]  # file names, no line numbers
        catalog.add(m.id, string, locations=locations, auto_comments=m.comments)
    buf = io.BytesIO()
    write_po(buf, catalog, width=0, omit_header=True, include_lineno=False)
    return buf.getvalue().decode("utf-8").strip("\n") + "\n"


@dataclass
class Result:
    lang: str
    added: list[str]
    unused: list[str]


def excluded(message: Extracted, patterns: Sequence[str]) -> bool:
    """Whether every file ``message`` is in matches one of the globs ``patterns``."""
    return bool(patterns) and all(any(fnmatch.fnmatch(f, p) for p in patterns)
                                  for f in message.files)


def update_catalog(lang: str, messages: Sequence[Extracted], write: bool = True,
                   exclude: Sequence[str] = ()) -> Result:
    """Append the messages ``lang``'s catalog lacks (except those only in files matching
    ``exclude``); return what was (or would be) added and which of its entries the source
    no longer uses."""
    po = i18n.LOCALE_DIR / lang / "LC_MESSAGES" / f"{i18n.DOMAIN}.po"
    for _ in range(5):  # retry if someone else writes the file meanwhile
        text = po.read_text(encoding="utf-8") if po.is_file() else ""
        known, plural_forms = _read(text, lang) if text else ([], "")
        known_set = set(known)
        new = [m for m in messages
               if _key(m.id) not in known_set and not excluded(m, exclude)]
        source = {_key(m.id) for m in messages}
        result = Result(lang, [_key(m.id) for m in new], [k for k in known if k not in source])
        if not write or not new:
            return result
        if not text:
            raise SystemExit(f"{po} does not exist: create it (with its header) first.")
        updated = text.rstrip("\n") + "\n\n" + _entries_text(new, lang, plural_forms)
        tmp = po.with_name(po.name + ".tmp")
        tmp.write_text(updated, encoding="utf-8")
        if po.read_text(encoding="utf-8") != text:  # changed under us: start again
            tmp.unlink()
            continue
        tmp.replace(po)
        return result
    raise SystemExit(f"{po} keeps changing; run the tool again later.")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--check", action="store_true",
                        help="change nothing; exit 1 if messages are to add or translate")
    parser.add_argument("--exclude", action="append", default=[], metavar="GLOB",
                        help="skip source files matching GLOB, relative to tutor/ (repeatable)")
    args = parser.parse_args(argv)

    messages = extract()
    print(f"{len(messages)} messages in {i18n.SOURCE_DIR.relative_to(ROOT)}/")
    todo = False
    shown: list[str] | None = None
    for lang in i18n.SUPPORTED:
        result = update_catalog(lang, messages, write=not args.check, exclude=args.exclude)
        verb = "to add" if args.check else "added"
        same = " (the same as above)" if result.added and result.added == shown else ""
        print(f"{lang}: {len(result.added)} {verb}{same}")
        if not same:
            for msgid in result.added:
                print(f"  + {msgid!r}")
        shown = result.added
        if result.unused:
            print(f"{lang}: {len(result.unused)} entries not in the source (kept):")
            for msgid in result.unused:
                print(f"  ? {msgid!r}")
        todo = todo or bool(result.added)
    missing = i18n.missing_translations("es")  # of every message, excluded or not
    if args.exclude:
        print(f"(not added: messages only in {', '.join(args.exclude)})")
    print(f"Messages lacking Spanish: {len(missing)}")
    for msgid in missing:
        print(f"  - {msgid!r}")
    return 1 if args.check and (todo or missing) else 0


if __name__ == "__main__":
    sys.exit(main())
