"""The dependency direction inside ``tutor``, read from the folders alone (issue 46, part 1).

Each package of ``tutor`` opens with a docstring whose "May import:" line is the rule for
its modules: a module may import its own package's modules and what that line names — a
package (``tutor.teaching``), a single module (``tutor.storage.records``), ``engine`` or a
widget toolkit — and nothing else of ``tutor``, ``engine`` or the widgets (the standard
library and other libraries are not checked here). A module directly in ``tutor/`` (``i18n``,
``games``, ``__main__`` and ``tutor/__init__.py`` itself) has its own line, in its own
docstring. There are no hand-kept
sets of module names: a module moved to another folder is under that folder's line.

The imports are found by a static scan, with ``ast``, of every module — at the top or inside
a function, since a lazy import still ties one layer to another. Imports under ``if
TYPE_CHECKING:`` are types only, never loaded, and are left out.

Each rule is also shown able to fail (:func:`test_each_rule_catches_a_bad_import`); the
lesson loader and the teaching are loaded in a fresh Python to check that the store really
stays out (:func:`test_loading_a_lesson_loads_no_store`); and no modules of ``tutor`` import
each other in a circle (:func:`test_no_import_cycle`).
"""

from __future__ import annotations

import ast
import json
import re
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import pytest

from tests import import_graph

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "tutor"
WIDGETS = frozenset({"ipywidgets", "ipycanvas"})
CHECKED = frozenset({"tutor", "engine"}) | WIDGETS
"""The top-level names whose imports the rules check."""
UI = "tutor.ui"
COMMANDS = "tutor.commands"


def module_name(path: Path) -> str:
    """:func:`tests.import_graph.module_name` (moved there, to be shared), from :data:`ROOT`."""
    return import_graph.module_name(path, ROOT)


def imports_of(path: Path) -> set[str]:
    """:func:`tests.import_graph.imports_of`, from :data:`ROOT`."""
    return import_graph.imports_of(path, ROOT)


def graph() -> dict[str, set[str]]:
    return {module_name(p): imports_of(p) for p in sorted(PACKAGE.rglob("*.py"))}


def _module(name: str, imports: dict[str, set[str]] | set[str]) -> str:
    """The module of ``tutor`` that ``name`` (a module, or a name in one) is: its longest
    prefix that is a module; "" if none is."""
    while name and name not in imports:
        name = name.rpartition(".")[0]
    return name


def reached(imports: dict[str, set[str]]) -> dict[str, set[str]]:
    """Each module's imports and, through the package's own modules they name, theirs: what
    loading it may load (a lazy import counted as if it ran)."""
    out: dict[str, set[str]] = {}
    for start in imports:
        seen: set[str] = set()
        stack = [start]
        while stack:
            for name in imports[stack.pop()]:
                target = _module(name, imports)
                # the module first: when ``name`` is the module itself, adding the name
                # first would leave the module unvisited (which depended on set order)
                if target and target not in seen:
                    seen.add(target)
                    stack.append(target)
                seen.add(name)
        out[start] = seen
    return out


def _in(name: str, modules: frozenset[str] | set[str] | str) -> bool:
    """``name`` is one of ``modules`` or inside one of them (a submodule, or a name of it)."""
    group = {modules} if isinstance(modules, str) else modules
    return any(name == m or name.startswith(m + ".") for m in group)


PACKAGES = frozenset(module_name(p) for p in PACKAGE.rglob("__init__.py"))
"""``tutor`` and each of its subpackages, by name (a folder with an ``__init__.py``)."""


def package_of(module: str) -> str:
    """The package ``module`` belongs to: itself for a package's ``__init__``, else the
    folder it is in."""
    return module if module in PACKAGES else module.rpartition(".")[0]


def holder(module: str) -> str:
    """The module whose docstring holds ``module``'s rule: its package's ``__init__``, or,
    for a module directly in ``tutor/`` (and ``tutor/__init__.py``), the module itself."""
    package = package_of(module)
    return module if package == "tutor" else package


def source(module: str) -> Path:
    """The file of ``module`` (a package's: its ``__init__.py``)."""
    path = ROOT / Path(*module.split("."))
    return path / "__init__.py" if module in PACKAGES else path.with_suffix(".py")


_NAME = r"``[\w.]+``(?:\s*\([^()]*\))?"
_SEPARATOR = r"(?:,\s*|\s+and\s+|,\s+and\s+)"
MAY_IMPORT = re.compile(rf"May import:\s*(nothing|{_NAME}(?:{_SEPARATOR}{_NAME})*)\s*\.")
"""A "May import:" line: ``nothing``, or names in double back-quotes, each maybe followed by
a word of why in brackets, separated by commas and "and", ended by a full stop (it may wrap
over lines of the docstring)."""


@cache
def may_import(module: str) -> frozenset[str]:
    """The names ``module``'s docstring allows (``module``: a package or a module directly
    in ``tutor/``)."""
    path = source(module)
    doc = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8"))) or ""
    lines = MAY_IMPORT.findall(doc)
    assert len(lines) == 1, f"{path.relative_to(ROOT)}: one 'May import:' line, not {lines}"
    return frozenset(re.findall(r"``([\w.]+)``", re.sub(r"\([^()]*\)", "", lines[0])))


def allowed(rule_of: str, name: str) -> bool:
    """Whether a module under the rule of ``rule_of`` (:func:`holder`) may import ``name``."""
    if name.split(".")[0] not in CHECKED:
        return True
    target = _module(name, PACKAGES | MODULES) if name.startswith("tutor") else name
    own = package_of(rule_of)
    if own != "tutor" and package_of(target) == own:
        return True  # its own package
    names = may_import(rule_of)
    if target in PACKAGES and (_in(rule_of, target) or any(_in(n, target) for n in names)):
        return True  # a package it is in, or one that holds a module it may import
    return target == rule_of or any(_in(target, n) for n in names)


MODULES = frozenset(module_name(p) for p in PACKAGE.rglob("*.py"))
HOLDERS = tuple(sorted({holder(m) for m in MODULES}))
"""Every package of ``tutor`` and every module directly in ``tutor/``: each has a line."""


@dataclass(frozen=True)
class Rule:
    says: str
    who: Callable[[str], bool]
    bad: Callable[[str], bool]
    through: bool = False
    """The rule holds for what the modules reach through others too (not only what they
    import themselves): a page must not reach the teacher CLI by way of the class's files."""

    @property
    def example(self) -> str:
        """A forbidden import, to show the rule can fail: the first module of ``tutor`` (or
        the widgets) it refuses."""
        return next(m for m in (*sorted(MODULES), *sorted(WIDGETS)) if self.bad(m))


OLD_NAMES = {"tutor.classroom.template_cache": "tutor.hub.page_templates",
             "tutor.classroom.xsrf_cookie": "tutor.hub.page_xsrf"}
"""Issue 53 part 5: the server extensions' old names, which a class server's config may
still hold, each a module that gives the extension of its new name (until version 0.2.0).
They sit in a folder below the one they import from, so no folder's line is their rule:
each has a rule of its own (:func:`_old_name_rule`): it imports its new module and nothing
else."""


def _line_rule(rule_of: str) -> Rule:
    names = ", ".join(sorted(may_import(rule_of))) or "nothing"
    return Rule(f"{rule_of} imports its own package and only: {names}",
                lambda m: holder(m) == rule_of and m not in OLD_NAMES,
                lambda i: not allowed(rule_of, i))


def _old_name_rule(old: str) -> Rule:
    new = OLD_NAMES[old]
    return Rule(f"{old} (an old name) imports only {new}", lambda m: m == old,
                lambda i: i.split(".")[0] in CHECKED and not _in(i, new))


RULES = (
    *(_line_rule(h) for h in HOLDERS),
    *(_old_name_rule(old) for old in sorted(OLD_NAMES)),
    Rule("a page reaches no command-line module", lambda m: _in(m, UI),
         lambda i: _in(i, COMMANDS), through=True),
)
"""One rule per "May import:" line, one per old name, and one that follows imports through
other modules."""


def broken(rule: Rule, imports: dict[str, set[str]]) -> list[str]:
    found = reached(imports) if rule.through else imports
    return sorted(f"{m} imports {i}" for m, names in found.items() if rule.who(m)
                  for i in names if rule.bad(i))


@pytest.mark.parametrize("rule", RULES, ids=lambda r: r.says.partition(" ")[0])
def test_dependency_direction(rule: Rule) -> None:
    """Every module imports only its own package and what its package's line allows."""
    assert broken(rule, graph()) == []


@pytest.mark.parametrize("rule", RULES, ids=lambda r: r.says.partition(" ")[0])
def test_each_rule_catches_a_bad_import(rule: Rule) -> None:
    """Each rule applies to modules that exist, and one forbidden import breaks it."""
    imports = graph()
    covered = [m for m in imports if rule.who(m)]
    assert covered, f"no module is under the rule {rule.says!r}"
    imports[covered[0]] = imports[covered[0]] | {rule.example}
    assert f"{covered[0]} imports {rule.example}" in broken(rule, imports)


def test_each_line_names_what_exists() -> None:
    """A renamed module would silently leave a rule: every name a line allows is a module or
    package of ``tutor``, ``engine`` or a widget toolkit, and every module is under a line."""
    for rule_of in HOLDERS:
        for name in may_import(rule_of):
            assert name in MODULES | PACKAGES | WIDGETS | {"engine"}, (rule_of, name)
    assert {holder(m) for m in MODULES} == set(HOLDERS)
    assert {"tutor.teaching", "tutor.ui.play", "tutor.i18n", "tutor"} <= set(HOLDERS)


def test_the_lines_are_read() -> None:
    """A line is read as written: packages, single modules, ``nothing``."""
    assert may_import("tutor.teaching") == {"engine", "tutor.i18n", "tutor.games",
                                            "tutor.storage.records"}
    assert may_import("tutor.i18n") == frozenset()
    assert allowed("tutor.teaching", "tutor.storage.records.Attempt")
    assert not allowed("tutor.teaching", "tutor.storage.store")
    assert allowed("tutor.teaching", "tutor.teaching.mastery")  # its own package
    assert allowed("tutor.teaching", "json") and not allowed("tutor.teaching", "ipywidgets")
    assert not allowed("tutor.ui", "tutor.ui.lessons.lessons_app")  # a subpackage is not its own


def test_imports_are_resolved(tmp_path: Path) -> None:
    """The scan sees lazy and relative imports and skips TYPE_CHECKING-only ones."""
    lessons = imports_of(PACKAGE / "course" / "lessons.py")
    assert "tutor.course.paths" in lessons  # `from .paths import …`
    assert "tutor.storage.store" in imports_of(PACKAGE / "commands" / "teacher.py")
    assigned = imports_of(PACKAGE / "classroom" / "student_assignments.py")
    assert "tutor.storage.store.StoreAccessError" in assigned  # in a function
    review = imports_of(PACKAGE / "teaching" / "review.py")
    assert "tutor.teaching.evidence" not in review  # under TYPE_CHECKING only


def test_reaching_goes_through_other_modules() -> None:
    """A page that reaches the teacher CLI through another module breaks the rule (as the
    pages did through tutor.classroom.overview, before tutor.teaching.replay)."""
    imports = graph()
    overview = "tutor.classroom.overview"
    imports[overview] = imports[overview] | {"tutor.commands.teacher"}
    rule = next(r for r in RULES if r.says.startswith("a page"))
    assert broken(rule, graph()) == []
    reported = broken(rule, imports)
    assert "tutor.ui.lessons.lessons_app imports tutor.commands.teacher" in reported
    assert all(line.endswith(" imports tutor.commands.teacher") for line in reported)


def cycles(imports: dict[str, set[str]]) -> list[list[str]]:
    """The import cycles among the modules of ``tutor``: each group of modules that import
    each other in a circle (a strongly connected component of more than one module), sorted.
    An import of a module's own parent package (``tutor.ui`` from ``tutor.ui.play.app``) is
    no edge: Python loads it first anyway, and it imports the module only if it asks.
    :func:`tests.import_graph.cycles`, which the engine's cycle test shares."""
    return import_graph.cycles(import_graph.module_graph(imports))


def test_no_import_cycle() -> None:
    """Issue 46: no modules of ``tutor`` import each other in a circle, lazy imports inside
    functions counted (an import moved into a function to dodge a cycle is still one)."""
    assert cycles(graph()) == []


def test_a_cycle_is_found() -> None:
    """The cycle check can fail: the hints importing the session (which imports the hints)
    make a cycle, as a lazy import would; an import of a module's own parent package makes
    none (``tutor.ui`` imports the play page's app, which may name ``tutor.ui``)."""
    imports = graph()
    before = cycles(imports)
    imports["tutor.teaching.hints"] = imports["tutor.teaching.hints"] | {
        "tutor.session.session.Session"}
    made = [c for c in cycles(imports) if c not in before]
    assert made and all({"tutor.teaching.hints", "tutor.session.session"} <= set(c) for c in made)
    parent = graph()
    assert _in("tutor.ui.play.app", _module("tutor.ui.dashboard", parent))
    parent["tutor.ui.play.app"] = parent["tutor.ui.play.app"] | {"tutor.ui.dashboard"}
    assert cycles(parent) == before


PROBE = """
import json, sys
import {modules}
print(json.dumps(sorted(sys.modules)))
"""

STORE = frozenset(m for m in MODULES if package_of(m) == "tutor.storage" and m != "tutor.storage"
                  and not allowed("tutor.teaching", m))
"""The store: the modules of ``tutor.storage`` the teaching's line does not allow (all but
the record types)."""


@pytest.mark.parametrize("modules", ["tutor.course.lessons", "tutor.course.paths",
                                     "tutor.teaching.asking, tutor.teaching.replay, "
                                     "tutor.teaching.counts"])
def test_loading_a_lesson_loads_no_store(modules: str) -> None:
    """At run time too: loading a lesson (or the teaching) loads no store, no SQLite and no
    widgets (rule 6; DESIGN.md suggests the subprocess check)."""
    out = subprocess.run([sys.executable, "-c", PROBE.format(modules=modules)], cwd=ROOT,
                         capture_output=True, text=True, check=True,
                         env={"PYTHONPATH": str(ROOT)})
    loaded = set(json.loads(out.stdout))
    assert STORE >= {"tutor.storage.store", "tutor.storage.store_backends"}
    assert not {m for m in loaded if _in(m, STORE | WIDGETS | {"sqlite3", UI})}


def test_engine_and_tutor_load_no_widgets() -> None:
    """``import engine, tutor`` loads no widget toolkit (DESIGN.md: only tutor.ui does)."""
    out = subprocess.run([sys.executable, "-c", PROBE.format(modules="engine, tutor")],
                         cwd=ROOT, capture_output=True, text=True, check=True,
                         env={"PYTHONPATH": str(ROOT)})
    assert not {m for m in json.loads(out.stdout) if _in(m, WIDGETS)}


SESSION_STACK = ("tutor.session", "tutor.teaching", "tutor.storage", "tutor.course",
                 "tutor.classroom", "tutor.commands", UI)
"""What a page or a teacher's command loads, and a server extension never needs."""


@pytest.mark.parametrize("modules", ["tutor", "tutor.hub.page_xsrf",
                                     "tutor.hub.page_templates, tutor.hub.page_xsrf"])
def test_a_server_extension_loads_no_session_stack(modules: str) -> None:
    """Issue 53 part 5: Python runs ``tutor/__init__.py`` before any ``tutor.…`` module, and
    it imported the whole session stack (about 40 modules for the 77-line
    ``tutor.hub.page_xsrf``, in every class server). It now loads nothing until a public name
    is asked for."""
    out = subprocess.run([sys.executable, "-c", PROBE.format(modules=modules)], cwd=ROOT,
                         capture_output=True, text=True, check=True,
                         env={"PYTHONPATH": str(ROOT)})
    loaded = set(json.loads(out.stdout))
    assert "tutor" in loaded
    assert sorted(m for m in loaded if _in(m, {*SESSION_STACK, *WIDGETS, "sqlite3"})) == []


def test_a_public_name_loads_only_its_own_module() -> None:
    """``from tutor import hint_ladder`` loads the hints, not the session or the store."""
    out = subprocess.run([sys.executable, "-c", PROBE.format(
        modules="tutor\nfrom tutor import hint_ladder")], cwd=ROOT, capture_output=True,
        text=True, check=True, env={"PYTHONPATH": str(ROOT)})
    loaded = set(json.loads(out.stdout))
    assert "tutor.teaching.hints" in loaded
    assert sorted(m for m in loaded if _in(m, {"tutor.session", "tutor.storage.store",
                                               "sqlite3", UI})) == []


PUBLIC = {
    "tutor": ("CATALOG", "AnswerError", "BKTParams", "Diagnosis", "Feedback", "Hint", "Mastery",
              "Question", "QuestionError", "Reading", "Session", "SessionError", "Snapshot",
              "Store", "describe_event", "diagnose", "hint_ladder", "parse_answer",
              "question_for", "read_answer"),
    "tutor.ui": ("BoardLayout", "EndSpot", "Hit", "PlacedTile", "TutorApp", "dashboard",
                 "hit_test", "layout", "lessons_page", "play_page", "teacher_page"),
}
"""The public names of ``tutor`` and ``tutor.ui`` before the modules were grouped into
packages (issue 34, part 7): notebooks, scripts and teachers' notes import them."""


@pytest.mark.parametrize("package", sorted(PUBLIC))
def test_the_public_names_stay_where_they_were(package: str) -> None:
    """Part 7: grouping the modules moved no public name: each one still imports from the
    package it was imported from, and the package still lists it."""
    import importlib

    module = importlib.import_module(package)
    for name in PUBLIC[package]:
        assert name in module.__all__, (package, name)
        assert getattr(module, name) is not None, (package, name)


def test_each_package_says_what_lives_there_and_what_it_may_import() -> None:
    """Part 7: every package of the tutor opens with a docstring that says what lives there
    and what it may import (the rules :func:`test_dependency_direction` checks)."""
    packages = sorted(p for p in PACKAGE.rglob("__init__.py") if p.parent != PACKAGE)
    assert len(packages) >= 10
    for init in packages:
        doc = ast.get_docstring(ast.parse(init.read_text(encoding="utf-8"))) or ""
        assert len(doc.splitlines()) >= 2 and "import" in doc.lower(), init.relative_to(ROOT)


LAZY = re.compile(r"#\s*lazy:\s*\S")
"""The comment that says why an import waits inside a function: ``# lazy: <why>``."""


def unexplained_lazy_imports(path: Path) -> list[str]:
    """The imports of ``tutor`` or ``engine`` (or relative ones) inside a function of
    ``path`` with no ``# lazy: <why>`` comment on their first line or the line above, as
    ``file:line``."""
    text = path.read_text(encoding="utf-8")
    lines = text.splitlines()
    found: set[int] = set()
    for func in ast.walk(ast.parse(text)):
        if not isinstance(func, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        for node in ast.walk(func):
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                names = ["." * node.level + (node.module or "")]
            else:
                continue
            if not any(n.startswith(".") or n.split(".")[0] in {"tutor", "engine"}
                       for n in names):
                continue
            near = lines[max(node.lineno - 2, 0):node.lineno]
            if not any(LAZY.search(line) for line in near):
                found.add(node.lineno)
    return [f"{path.name}:{n}" for n in sorted(found)]


def test_each_lazy_import_says_why() -> None:
    """Issue 46: an import of the tutor or the engine inside a function is at the top of its
    module, unless a ``# lazy: <why>`` comment on it (or the line above) says what loading it
    there would cost (the store or sqlite3 in ``import tutor``, …)."""
    found = [f"{p.relative_to(ROOT)}:{line.rpartition(':')[2]}"
             for p in sorted(PACKAGE.rglob("*.py")) for line in unexplained_lazy_imports(p)]
    assert found == []


def test_a_lazy_import_without_a_why_is_found(tmp_path: Path) -> None:
    """The check can fail: a bare import of the tutor, the engine or a sibling inside a
    function is found; one with its comment, one of the standard library, one at the top,
    are not."""
    module = tmp_path / "m.py"
    module.write_text(
        "import tutor.i18n\n"
        "\n"
        "\n"
        "def f():\n"
        "    import json\n"
        "    from tutor.storage.store import Store\n"
        "    # lazy: the store loads sqlite3\n"
        "    from tutor.storage.store import StoreError\n"
        "    import engine.sheet  # lazy: a reason\n"
        "    if json:\n"
        "        from . import sibling\n"
        "    from engine.rules import VARIANTS  # not lazy: no why\n",
        encoding="utf-8")
    assert unexplained_lazy_imports(module) == ["m.py:6", "m.py:11", "m.py:12"]
