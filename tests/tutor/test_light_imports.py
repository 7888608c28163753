"""What importing a part of the tutor loads at run time, and why an import waits inside a
function. The import contracts (tests/test_import_contracts.py) say what each module may
import; these check what a user meets: a lesson opens with no store, no SQLite and no widgets;
``import engine, tutor`` loads no widget toolkit; the public names stay where they were; and
each lazy import says what loading it earlier would cost."""

from __future__ import annotations

import ast
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "tutor"
WIDGETS = frozenset({"ipywidgets", "ipycanvas"})
STORE = frozenset({"tutor.storage.store", "tutor.storage.store_backends",
                   "tutor.storage.service_store", "tutor.storage.store_schema",
                   "tutor.storage.class_rows", "tutor.storage.store_files", "sqlite3"})
"""What opens or reads a store (and SQLite): what a lesson's loading must not load."""

PROBE = """
import json, sys
import {modules}
print(json.dumps(sorted(sys.modules)))
"""


def loaded(modules: str) -> set[str]:
    """The modules a fresh Python has loaded after ``import {modules}``."""
    out = subprocess.run([sys.executable, "-c", PROBE.format(modules=modules)], cwd=ROOT,
                         capture_output=True, text=True, check=True,
                         env={"PYTHONPATH": str(ROOT)})
    return set(json.loads(out.stdout))


def _in(name: str, modules: frozenset[str]) -> bool:
    return any(name == m or name.startswith(m + ".") for m in modules)


@pytest.mark.parametrize("modules", ["tutor.course.lessons", "tutor.course.paths",
                                     "tutor.teaching.asking, tutor.teaching.replay, "
                                     "tutor.teaching.counts"])
def test_loading_a_lesson_loads_no_store(modules: str) -> None:
    """Loading a lesson (or the teaching) loads no store, no SQLite and no widgets."""
    assert not {m for m in loaded(modules) if _in(m, STORE | WIDGETS | {"tutor.ui"})}


def test_engine_and_tutor_load_no_widgets() -> None:
    """``import engine, tutor`` loads no widget toolkit (only tutor.ui does)."""
    assert not {m for m in loaded("engine, tutor") if _in(m, WIDGETS)}


SESSION_STACK = frozenset({"tutor.session", "tutor.teaching", "tutor.storage", "tutor.course",
                           "tutor.classroom", "tutor.commands", "tutor.ui"})
"""What a page or a teacher's command loads, and a server extension never needs."""


@pytest.mark.parametrize("modules", ["tutor", "tutor.hub.page_xsrf",
                                     "tutor.hub.page_templates, tutor.hub.page_xsrf"])
def test_a_server_extension_loads_no_session_stack(modules: str) -> None:
    """Issue 53 part 5: Python runs ``tutor/__init__.py`` before any ``tutor.…`` module, and
    it imported the whole session stack (about 40 modules for the 77-line
    ``tutor.hub.page_xsrf``, in every class server). It now loads nothing until a public name
    is asked for."""
    found = loaded(modules)
    assert "tutor" in found
    assert sorted(m for m in found if _in(m, SESSION_STACK | WIDGETS | {"sqlite3"})) == []


def test_a_public_name_loads_only_its_own_module() -> None:
    """``from tutor import hint_ladder`` loads the hints, not the session or the store."""
    found = loaded("tutor\nfrom tutor import hint_ladder")
    assert "tutor.teaching.hints" in found
    assert sorted(m for m in found if _in(m, frozenset({"tutor.session", "tutor.storage.store",
                                                        "sqlite3", "tutor.ui"}))) == []


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
