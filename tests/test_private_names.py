"""No module reaches into another module's private names (issue 53 part 3).

A static scan, with ``ast``, of every module of ``engine`` and ``tutor``. A reach is

* ``x._name`` where ``x`` is not ``self`` or ``cls`` and no code of the same module defines
  ``_name`` (a function, a class, a name or an attribute it assigns), or
* ``from m import _name``.

What a module defines it may use on any object: a class's own private fields on another
instance of itself (a copy's ``new._x = self._x``) are its own business. A part that other
modules need is public, with a docstring: the round's steps its helpers call
(:class:`engine.round.Round`), the database the store, the class rows and the migrations use
(:class:`tutor.storage.database.Database`).

Named below, each with its reason, are the only reaches left, all into other projects' code:
a type the standard library has no public name for, in the signature of the method it
overrides, and ipycanvas's command channel, which the board writes to directly (see
:mod:`tutor.ui.play.draw` and :meth:`tutor.ui.play.board.Board.repaint`).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

NAMEDTUPLE_API = frozenset({"_replace", "_asdict", "_fields", "_make", "_field_defaults"})
"""A named tuple's documented methods: public, though their names start with ``_``."""

OTHER_PROJECTS = {
    ("tutor/__main__.py", "argparse._MutuallyExclusiveGroup"):
        "HelpFormatter.add_usage's own parameter type, in the override's signature",
    ("tutor/ui/play/board.py", "_ipc_canvas._CANVAS_MANAGER"):
        "ipycanvas names a layer only when it changes: each batch names its own",
    ("tutor/ui/play/draw.py", "c._canvas_manager"):
        "a canvas attribute sent as its command, without traitlets' 28 µs per set",
}
"""(file, reach) → why: the reaches into other projects' private names that stay."""


def _defined(tree: ast.AST) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.add(node.id)
        elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
            names.add(node.attr)
        elif isinstance(node, ast.arg):
            names.add(node.arg)
    return names


def reaches(source: str, package_init: bool = False) -> list[str]:
    """The reaches into other modules' private names in ``source``, as written."""
    tree = ast.parse(source)
    own = _defined(tree)
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute):
            name = node.attr
            if not name.startswith("_") or name.startswith("__") or name in NAMEDTUPLE_API:
                continue
            if isinstance(node.value, ast.Name) and node.value.id in ("self", "cls"):
                continue
            if name not in own:
                found.append(ast.unparse(node))
        elif isinstance(node, ast.ImportFrom):
            # a package's __init__ may load its own private module (``from . import _build``)
            if package_init and node.level == 1 and node.module is None:
                continue
            found += [f"from {'.' * node.level}{node.module or ''} import {a.name}"
                      for a in node.names if a.name.startswith("_")
                      and not a.name.startswith("__")]
    return found


def test_no_module_reaches_into_another_modules_private_names() -> None:
    left = []
    for path in sorted([*ROOT.glob("engine/**/*.py"), *ROOT.glob("tutor/**/*.py")]):
        where = path.relative_to(ROOT).as_posix()
        for reach in reaches(path.read_text(encoding="utf-8"), path.name == "__init__.py"):
            if (where, reach) not in OTHER_PROJECTS:
                left.append(f"{where}: {reach}")
    assert left == []


@pytest.mark.parametrize("source, expected", [
    ("def f(rnd):\n    return rnd._fits(1, 2)\n", ["rnd._fits"]),
    ("from engine.kernel import _bits\n", ["from engine.kernel import _bits"]),
    ("class A:\n    def copy(self, new):\n        new._x = self._x\n", []),
    ("def f(p):\n    return p._replace(a=1)\n", []),
    ("def f(store):\n    store._retry(lambda: 1)\n", ["store._retry"]),
])
def test_the_scan_finds_a_reach_and_only_a_reach(source: str, expected: list[str]) -> None:
    assert reaches(source) == expected
