"""The spec is in the repository (issue 46, part 4): every rule section (``RULES §1.6``,
``docs/rules.md §1.6`` or a bare ``§1.6``) and every house rule (``D-9``, ``H-1``) that the
code, the catalogs or the tests cite is a heading of docs/rules.md and of its Spanish twin
docs/reglas.md, so that a person who clones the repository can look each one up.

The two files keep the same numbers: a section or a house rule added to one is added to the
other.
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CITING = ("engine", "tutor", "tests")
"""Where the citations are: the code, its catalogs and the tests."""
SUFFIXES = {".py", ".po", ".js", ".md"}
DOCS = ("docs/rules.md", "docs/reglas.md")

SECTION = re.compile(r"§\s?(\d+(?:\.\d+)*)")
HOUSE_RULE = re.compile(r"\b([DH]-\d+)\b")
OTHER_DOCUMENT = re.compile(r"(?:recipe|DESIGN\.md)\s*$")
"""A ``§`` that follows one of these names cites another document (the browser recipe's
sections), not the rules."""
HEADING = re.compile(r"^#{1,6}\s+(§\d+(?:\.\d+)*|[DH]-\d+)(?=\s|$)", re.MULTILINE)


def citations_in(text: str) -> set[str]:
    """The rule sections (``§1.6``) and house rules (``D-9``) a text cites."""
    found = {m.group(1) for m in HOUSE_RULE.finditer(text)}
    found |= {f"§{m.group(1)}" for m in SECTION.finditer(text)
              if not OTHER_DOCUMENT.search(text[max(0, m.start() - 20):m.start()])}
    return found


def cited() -> dict[str, list[str]]:
    """Each citation, with the files that make it."""
    out: dict[str, list[str]] = {}
    for folder in CITING:
        for path in sorted((ROOT / folder).rglob("*")):
            if path.suffix not in SUFFIXES or ".venv" in path.parts or not path.is_file():
                continue
            if path == Path(__file__).resolve():
                continue  # this file's examples are no citations
            for name in citations_in(path.read_text(encoding="utf-8")):
                out.setdefault(name, []).append(str(path.relative_to(ROOT)))
    return out


def headings(text: str) -> set[str]:
    """The section numbers and house rules a rules document has a heading for."""
    return set(HEADING.findall(text))


def missing(citations: dict[str, list[str]], text: str) -> list[str]:
    have = headings(text)
    return sorted(f"{name} (cited in {files[0]})" for name, files in citations.items()
                  if name not in have)


def _doc(name: str) -> str:
    return (ROOT / name).read_text(encoding="utf-8")


def test_the_scan_finds_the_codes_citations() -> None:
    """The scan reads every way the code cites a rule (so an empty scan cannot pass)."""
    found = cited()
    assert {"§1.6", "§1.8", "§3.4", "§4", "D-1", "D-9", "D-21", "D-28", "H-1"} <= set(found)
    assert citations_in("RULES §4 and docs/rules.md §1.6, docs/rules.md §3.1–§3.4 (D-1…D-16)") == {
        "§4", "§1.6", "§3.1", "§3.4", "D-1", "D-16"}
    assert citations_in("only for the layer reset (recipe §2)") == set()


def test_every_citation_is_a_heading_in_both_languages() -> None:
    """RULES §x and D-n, wherever the code cites them, resolve in docs/rules.md and in
    docs/reglas.md."""
    citations = cited()
    for doc in DOCS:
        gaps = missing(citations, _doc(doc))
        assert not gaps, f"{doc} has no heading for: {', '.join(gaps)}"


def test_english_and_spanish_have_the_same_numbers() -> None:
    english, spanish = (headings(_doc(d)) for d in DOCS)
    assert english == spanish, (f"only in rules.md: {sorted(english - spanish)}; "
                                f"only in reglas.md: {sorted(spanish - english)}")


def test_a_missing_section_is_caught() -> None:
    """Taking one cited section's heading out of the document makes the check fail."""
    citations = cited()
    text = _doc("docs/rules.md")
    without = re.sub(r"^### §1\.6 .*$", "### Power plays", text, flags=re.MULTILINE)
    assert without != text
    assert [m for m in missing(citations, without) if m.startswith("§1.6 ")]
