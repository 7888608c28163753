"""The dependency direction inside ``tutor`` (DESIGN.md "Dependency direction", rules 3 and 6,
and the widget rule of the layout): a static scan, with ``ast``, of every import of every
module of the package — at the top or inside a function, since a lazy import still ties one
layer to another. Imports under ``if TYPE_CHECKING:`` are types only, never loaded, and are
left out.

Each rule is also shown able to fail (:func:`test_each_rule_catches_a_bad_import`), and the
lesson loader and the teaching are loaded in a fresh Python to check that the store really
stays out (:func:`test_loading_a_lesson_loads_no_store`).
"""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "tutor"

def package(name: str) -> frozenset[str]:
    """The modules of the subpackage ``tutor.<name>`` (issue 34 part 7: a folder per part)."""
    return frozenset(".".join(p.relative_to(ROOT).with_suffix("").parts)
                     for p in (PACKAGE / name).glob("*.py") if p.name != "__init__.py")


TEACHING = package("teaching") | {"tutor.classroom.counts"}
"""DESIGN.md rule 6's teaching modules (``tutor.teaching``: questions, answers, diagnosis,
hints, mastery, asking, practice, the evidence rule and what is computed from it: mastery
replayed, review), and the counts, which interpret stored rows."""
STORAGE = frozenset({"tutor.storage.store", "tutor.storage.store_backends",
                     "tutor.storage.store_files", "tutor.storage.service_store",
                     "tutor.storage.names", "tutor.storage.seal",
                     "tutor.storage.class_rows"})
STORAGE_MAY_IMPORT = STORAGE | {"tutor.i18n", "tutor.course.paths", "tutor.storage.records"}
"""The store keeps rows: it reads the shared record types (:mod:`tutor.storage.records`), the
translations and the default place of its file, and nothing of the teaching."""
LESSON_LOADING = frozenset({"tutor.course.lessons", "tutor.course.paths"})
SESSION = package("play") | {"tutor.teaching.asking"}
CLASS_FILES = frozenset({"tutor.classroom.overview", "tutor.classroom.student_answers",
                         "tutor.classroom.counts", "tutor.teaching.replay",
                         "tutor.teaching.review", "tutor.classroom.live",
                         "tutor.classroom.hand_in"})
"""The class's file handling: what the lessons and teacher pages show, from the attempts."""
COMMANDS = package("commands") | {"tutor.__main__", "tutor.classroom.serve"}
"""Command-line modules (``python -m tutor …``, ``python -m tutor.classroom.serve``)."""
HUB = package("hub")
"""The class server around the kernels (issue 41): the store service and the lockdown of a
student's server. They keep rows and requests, never teaching or pages."""
WIDGETS = frozenset({"ipywidgets", "ipycanvas"})
UI = "tutor.ui"


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _type_checking_only(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def imports_of(path: Path) -> set[str]:
    """Every module ``path`` imports (``from a import b`` counts as ``a`` and ``a.b``), with
    relative imports resolved, wherever in the file they are (not under TYPE_CHECKING)."""
    name = module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.If) and _type_checking_only(node):
            for child in node.orelse:
                visit(child)
            return
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[:len(base) - node.level + 1]
                head = ".".join(base + ([node.module] if node.module else []))
            else:
                head = node.module or ""
            found.add(head)
            found.update(f"{head}.{alias.name}" for alias in node.names)
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(ast.parse(path.read_text(encoding="utf-8"), str(path)))
    return found


def graph() -> dict[str, set[str]]:
    return {module_name(p): imports_of(p) for p in sorted(PACKAGE.rglob("*.py"))}


def reached(imports: dict[str, set[str]]) -> dict[str, set[str]]:
    """Each module's imports and, through the package's own modules they name, theirs: what
    loading it may load (a lazy import counted as if it ran)."""
    def module(name: str) -> str:
        while name and name not in imports:
            name = name.rpartition(".")[0]
        return name

    out: dict[str, set[str]] = {}
    for start in imports:
        seen: set[str] = set()
        stack = [start]
        while stack:
            for name in imports[stack.pop()]:
                target = module(name)
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


@dataclass(frozen=True)
class Rule:
    says: str
    who: Callable[[str], bool]
    bad: Callable[[str], bool]
    example: str
    """A forbidden import, to show the rule can fail."""
    through: bool = False
    """The rule holds for what the modules reach through others too (not only what they
    import themselves): a page must not reach the teacher CLI by way of the class's files."""


RULES = (
    Rule("the teaching imports no store", lambda m: m in TEACHING,
         lambda i: _in(i, STORAGE), "tutor.storage.store"),
    Rule("the teaching imports no widgets and no page", lambda m: m in TEACHING,
         lambda i: _in(i, WIDGETS | {UI}), "ipywidgets"),
    Rule("the store imports no teaching (only rows, translations and paths)",
         lambda m: m in STORAGE,
         lambda i: i.startswith("tutor") and not _in(i, STORAGE_MAY_IMPORT),
         "tutor.teaching.mastery"),
    Rule("the record types import neither store nor teaching",
         lambda m: m == "tutor.storage.records",
         lambda i: i.startswith("tutor") and not _in(i, {"tutor.i18n"}), "tutor.storage.store"),
    Rule("lesson loading imports no store", lambda m: m in LESSON_LOADING,
         lambda i: _in(i, STORAGE), "tutor.storage.store"),
    Rule("the session imports no page", lambda m: m in SESSION,
         lambda i: _in(i, UI), "tutor.ui.play.app"),
    Rule("a page reaches no command-line module", lambda m: _in(m, UI),
         lambda i: _in(i, COMMANDS), "tutor.commands.teacher", through=True),
    Rule("the class's file handling reaches no command-line module",
         lambda m: m in CLASS_FILES, lambda i: _in(i, COMMANDS), "tutor.commands.teacher",
         through=True),
    Rule("the hub's side imports only the store, translations, paths and the request",
         lambda m: m in HUB,
         lambda i: i.startswith("tutor") and not _in(
             i, HUB | STORAGE_MAY_IMPORT | {"tutor.classroom.request"}),
         "tutor.teaching.mastery"),
    Rule("no page and no session imports the hub's side (it runs outside the kernels)",
         lambda m: _in(m, UI) or m in SESSION, lambda i: _in(i, HUB),
         "tutor.hub.store_service"),
    Rule("only tutor.ui imports ipywidgets or ipycanvas", lambda m: not _in(m, UI),
         lambda i: _in(i, WIDGETS), "ipycanvas"),
    Rule("nothing outside tutor.ui imports tutor.ui (but the commands that start a page)",
         lambda m: not _in(m, UI) and m not in COMMANDS,
         lambda i: _in(i, UI), "tutor.ui.shared.pages"),
)


def broken(rule: Rule, imports: dict[str, set[str]]) -> list[str]:
    found = reached(imports) if rule.through else imports
    return sorted(f"{m} imports {i}" for m, names in found.items() if rule.who(m)
                  for i in names if rule.bad(i))


@pytest.mark.parametrize("rule", RULES, ids=lambda r: r.says)
def test_dependency_direction(rule: Rule) -> None:
    """DESIGN.md "Dependency direction" 3 and 6 (and the layout: only tutor.ui has widgets)."""
    assert broken(rule, graph()) == []


@pytest.mark.parametrize("rule", RULES, ids=lambda r: r.says)
def test_each_rule_catches_a_bad_import(rule: Rule) -> None:
    """Each rule applies to modules that exist, and one forbidden import breaks it."""
    imports = graph()
    covered = [m for m in imports if rule.who(m)]
    assert covered, f"no module is under the rule {rule.says!r}"
    imports[covered[0]] = imports[covered[0]] | {rule.example}
    assert f"{covered[0]} imports {rule.example}" in broken(rule, imports)


def test_the_groups_name_modules_that_exist() -> None:
    """A renamed module would silently leave its rule: every named module is there."""
    modules = set(graph())
    named = TEACHING | STORAGE | LESSON_LOADING | SESSION | CLASS_FILES | COMMANDS | HUB
    assert named - modules == set()
    assert {"tutor.storage.records", "tutor.i18n", "tutor.course.paths", UI} <= modules


def test_imports_are_resolved(tmp_path: Path) -> None:
    """The scan sees lazy and relative imports and skips TYPE_CHECKING-only ones."""
    lessons = imports_of(PACKAGE / "course" / "lessons.py")
    assert "tutor.course.paths" in lessons  # `from .paths import …`
    assert "tutor.storage.store" in imports_of(PACKAGE / "commands" / "teacher.py")
    assert "tutor.storage.store" in imports_of(PACKAGE / "play" / "saving.py")  # in a method
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


PROBE = """
import json, sys
import {modules}
print(json.dumps(sorted(sys.modules)))
"""


@pytest.mark.parametrize("modules", ["tutor.course.lessons", "tutor.course.paths",
                                     "tutor.teaching.asking, tutor.teaching.replay, "
                                     "tutor.classroom.counts"])
def test_loading_a_lesson_loads_no_store(modules: str) -> None:
    """At run time too: loading a lesson (or the teaching) loads no store, no SQLite and no
    widgets (rule 6; DESIGN.md suggests the subprocess check)."""
    out = subprocess.run([sys.executable, "-c", PROBE.format(modules=modules)], cwd=ROOT,
                         capture_output=True, text=True, check=True,
                         env={"PYTHONPATH": str(ROOT)})
    loaded = set(json.loads(out.stdout))
    assert not {m for m in loaded if _in(m, STORAGE | WIDGETS | {"sqlite3", UI})}


def test_engine_and_tutor_load_no_widgets() -> None:
    """``import engine, tutor`` loads no widget toolkit (DESIGN.md: only tutor.ui does)."""
    out = subprocess.run([sys.executable, "-c", PROBE.format(modules="engine, tutor")],
                         cwd=ROOT, capture_output=True, text=True, check=True,
                         env={"PYTHONPATH": str(ROOT)})
    assert not {m for m in json.loads(out.stdout) if _in(m, WIDGETS)}


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
