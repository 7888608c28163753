"""docs/design.md's layers cannot drift from the code (issue 46, parts 1 and 4).

The table of docs/design.md says, for each package of ``tutor`` (a row) and each thing it
might import (a column), what the two sources of the rule say today:

* the package's ``__init__`` "May import:" line (the words), read as the layer test reads it
  (:func:`test_tutor_layers.may_import`), and
* tests/tutor/test_tutor_layers.py (the layer test): would an import of that column by a
  module of that row break one of its rules?

The layer test's rules are made from the words, so the two agree unless one of them is
broken; the table shows where a line allows a whole package and where only some of its
modules. This file works out each cell and compares it with the table as written; it also
compares the picture's arrows with the words. A change to either source (a package's line,
a rule, a module moved to another folder) fails here until design.md says it too.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import test_tutor_layers as layers  # the layer test, beside this file

ROOT = Path(__file__).resolve().parents[2]
DESIGN = ROOT / "docs" / "design.md"

ROWS = ("teaching", "storage", "course", "session", "classroom", "hub", "commands",
        "ui.shared", "ui.play", "ui.lessons", "ui.teacher")
"""The packages of ``tutor``, each with an ``__init__`` that says what it may import."""
COLUMNS = ("engine", "i18n", "games", *ROWS, "widgets")
"""What a package may import: the engine, the shared modules ``tutor.i18n`` and
``tutor.games``, the packages, and the widget toolkits."""

ALLOWED, FORBIDDEN, MIXED, UNCHECKED = "✓", "✗", "◐", "·"
"""A cell: the words allow it and no rule forbids it; the words do not allow it and the
layer test forbids it all; the words allow a part, or the test forbids a part, or the two
disagree; the words do not allow it and no rule of the test checks it."""


def _full(column: str) -> str:
    return {"engine": "engine", "widgets": "ipywidgets"}.get(column, f"tutor.{column}")


def _column_of(name: str) -> str | None:
    """The column a module or package name belongs to."""
    if name == "engine" or name.startswith("engine."):
        return "engine"
    if name.split(".")[0] in layers.WIDGETS:
        return "widgets"
    for column in sorted(COLUMNS, key=len, reverse=True):
        full = _full(column)
        if name == full or name.startswith(full + "."):
            return column
    return None


@dataclass(frozen=True)
class Words:
    allowed: frozenset[str]
    """Columns the "May import:" line allows whole."""
    partly: frozenset[str]
    """Columns it allows a part of (some modules of the package, one of the toolkits)."""


def may_import(row: str) -> Words:
    """What the package's ``__init__`` "May import:" line allows (its own package always)."""
    names = layers.may_import(f"tutor.{row}")
    allowed, partly = {row}, set()
    for name in names:
        column = _column_of(name)
        if column is not None and column != "widgets":
            (allowed if name == _full(column) else partly).add(column)
    toolkits = names & layers.WIDGETS
    if toolkits:
        (allowed if toolkits == layers.WIDGETS else partly).add("widgets")
    return Words(frozenset(allowed), frozenset(partly - allowed))


def _modules(column: str, graph: dict[str, set[str]]) -> list[str]:
    """The modules an import of ``column`` may name: a package's modules, or the name."""
    if column == "widgets":
        return sorted(layers.WIDGETS)
    if column in ("engine", "i18n", "games"):
        return [_full(column)]
    full = _full(column)
    return sorted(m for m in graph if m.startswith(full + ".") and m != full)


def forbidden_share(row: str, column: str, graph: dict[str, set[str]],
                    reach: dict[str, set[str]],
                    rules: tuple[layers.Rule, ...] = layers.RULES) -> tuple[int, int]:
    """How many of (a module of ``row``, a module of ``column``) pairs the layer test
    refuses, out of how many: a direct rule refuses what the module would import, a rule
    that follows imports refuses what it would reach through it too."""
    sources, targets = _modules(row, graph), _modules(column, graph)
    # the server extensions' old names are no part of their folder (layers.OLD_NAMES)
    sources = [m for m in sources if m not in layers.OLD_NAMES]
    refused = 0
    for m in sources:
        for x in targets:
            through = {x} | reach.get(x, set())
            if any(rule.who(m) and any(rule.bad(y) for y in (through if rule.through else {x}))
                   for rule in rules):
                refused += 1
    return refused, len(sources) * len(targets)


def cell(words: Words, column: str, refused: int, pairs: int) -> str:
    says = "all" if column in words.allowed else "part" if column in words.partly else "none"
    if says == "all" and refused == 0:
        return ALLOWED
    if says == "none" and refused == pairs:
        return FORBIDDEN
    if says == "none" and refused == 0:
        return UNCHECKED
    return MIXED


def expected_table() -> dict[str, dict[str, str]]:
    graph = layers.graph()
    reach = layers.reached(graph)
    table: dict[str, dict[str, str]] = {}
    for row in ROWS:
        words = may_import(row)
        table[row] = {c: cell(words, c, *forbidden_share(row, c, graph, reach))
                      for c in COLUMNS}
    return table


def written_table(text: str) -> dict[str, dict[str, str]]:
    """The table of design.md whose first header cell is "package"."""
    lines = [line for line in text.splitlines() if line.startswith("|")]
    start = next(i for i, line in enumerate(lines) if _cells(line)[0] == "package")
    header = _cells(lines[start])[1:]
    table = {}
    for line in lines[start + 2:]:
        cells = _cells(line)
        if not cells[0].startswith("`"):
            break
        table[cells[0].strip("`")] = dict(zip(header, cells[1:], strict=True))
    return table


def _cells(line: str) -> list[str]:
    return [c.strip() for c in line.strip().strip("|").split("|")]


def written_arrows(text: str) -> set[tuple[str, str]]:
    """The picture's arrows (``a --> b``: a may import b), by the package a node is labelled
    with (``tutor.`` left out)."""
    block = re.search(r"```mermaid\n(.*?)```", text, re.DOTALL)
    assert block, "docs/design.md has no mermaid picture"
    names = {node: label.removeprefix("tutor.") for node, label in
             re.findall(r"^\s*(\w+)\[\"?([\w.]+)", block.group(1), re.MULTILINE)}
    return {(names.get(a, a), names.get(b, b))
            for a, b in re.findall(r"^\s*(\w+)\s*-->\s*(\w+)\s*$", block.group(1), re.MULTILINE)}


def expected_arrows() -> set[tuple[str, str]]:
    """An arrow for each package another package's words allow (whole or in part), but the
    commands (which may import everything), ``tutor.i18n`` (every package may), the widgets
    (the packages under ``tutor.ui``) and the games (no line names them)."""
    arrows = set()
    for row in ROWS:
        if row == "commands":
            continue
        words = may_import(row)
        for column in words.allowed | words.partly:
            if column not in (row, "i18n", "widgets", "games"):
                arrows.add((row, column))
    return arrows


def test_the_table_says_what_the_words_and_the_layer_test_say() -> None:
    written = written_table(DESIGN.read_text(encoding="utf-8"))
    expected = expected_table()
    assert list(written) == list(expected), "the rows are the packages, in this order"
    wrong = [f"{row} → {column}: design.md says {written[row].get(column)!r}, the code "
             f"says {want!r}" for row, cells in expected.items()
             for column, want in cells.items() if written[row].get(column) != want]
    assert not wrong, "\n".join(wrong)


def test_the_picture_draws_what_the_words_allow() -> None:
    drawn = written_arrows(DESIGN.read_text(encoding="utf-8"))
    expected = expected_arrows()
    assert drawn == expected, (f"drawn, not allowed: {sorted(drawn - expected)}; "
                               f"allowed, not drawn: {sorted(expected - drawn)}")
    assert all(row == "commands" or "i18n" in may_import(row).allowed for row in ROWS), (
        "the picture leaves tutor.i18n out because every package may import it")


def test_a_changed_rule_changes_the_table() -> None:
    """The cells follow the layer test: one rule fewer turns its cells from ✗ to ·, and the
    count the cells come from agrees with the layer test's own check on a real pair."""
    graph = layers.graph()
    reach = layers.reached(graph)
    assert cell(may_import("teaching"), "widgets",
                *forbidden_share("teaching", "widgets", graph, reach)) == FORBIDDEN
    fewer = tuple(r for r in layers.RULES if not r.says.startswith("tutor.teaching "))
    assert len(fewer) == len(layers.RULES) - 1
    assert cell(may_import("teaching"), "widgets",
                *forbidden_share("teaching", "widgets", graph, reach, fewer)) == UNCHECKED
    session = "tutor.session.session"
    imports = {**graph, session: graph[session] | {"tutor.hub.lockdown"}}
    assert any(layers.broken(rule, imports) for rule in layers.RULES)
    assert forbidden_share("session", "hub", graph, reach)[0] > 0


def test_the_words_are_read() -> None:
    """The "May import:" lines are read as they are written (a sample of each kind)."""
    teaching = may_import("teaching")
    assert teaching.allowed == {"teaching", "engine", "i18n", "games"}
    assert teaching.partly == {"storage"}  # tutor.storage.records only
    assert may_import("hub").partly == {"classroom"}
    assert "widgets" not in may_import("commands").allowed | may_import("commands").partly
    assert may_import("ui.shared").partly >= {"ui.lessons", "ui.teacher", "session", "storage"}
    assert may_import("ui.lessons").partly >= {"widgets"}  # ipywidgets, not ipycanvas
