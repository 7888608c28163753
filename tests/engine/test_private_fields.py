"""Each engine module writes only its own objects' private fields (issue 46 part 3): the helper
modules around :class:`~engine.round.Round` (dealing, opening, checking, turns, ending, …) call
its methods instead of setting ``rnd._something``. A static scan with ``ast`` of every module
under ``engine/``: a write is an assignment (plain, augmented, annotated), a ``del``, or a call
of a mutating method (``.append``, ``.pop``, ``.update``, …) on a value reached through a
private attribute (one named ``_x``, not ``__x__``) of an object other than ``self``/``cls``.
A class may still write its own private fields on another instance of itself (a copy's
``new._x = self._x``); a subclass may not write its base's that way."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
ENGINE = ROOT / "engine"

MUTATORS = frozenset({"append", "extend", "insert", "pop", "remove", "clear", "update",
                      "setdefault", "add", "discard", "sort", "reverse", "popitem",
                      "appendleft", "popleft", "__setitem__", "__delitem__"})
"""Methods of the built-in containers that change the container they are called on."""


def _private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def _own_names(cls: ast.ClassDef) -> set[str]:
    """The attributes a class declares itself: its slots, its class-level names and methods,
    and what its methods set on ``self``."""
    own: set[str] = set()
    for node in cls.body:
        if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            own.add(node.target.id)
        elif isinstance(node, ast.Assign):
            for target in node.targets:
                if isinstance(target, ast.Name):
                    own.add(target.id)
                    if target.id == "__slots__" and isinstance(node.value, (ast.Tuple, ast.List)):
                        own.update(e.value for e in node.value.elts
                                   if isinstance(e, ast.Constant) and isinstance(e.value, str))
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            own.add(node.name)
            for sub in ast.walk(node):
                if isinstance(sub, ast.Attribute) and isinstance(sub.ctx, ast.Store) and \
                        isinstance(sub.value, ast.Name) and sub.value.id == "self":
                    own.add(sub.attr)
    return own


def _targets(node: ast.AST) -> list[ast.expr]:
    """The expressions ``node`` writes to (or whose value it changes in place)."""
    if isinstance(node, ast.Assign):
        return list(node.targets)
    if isinstance(node, (ast.AugAssign, ast.AnnAssign)):
        return [node.target]
    if isinstance(node, ast.Delete):
        return list(node.targets)
    if isinstance(node, (ast.For, ast.AsyncFor)):
        return [node.target]
    if isinstance(node, (ast.With, ast.AsyncWith)):
        return [item.optional_vars for item in node.items if item.optional_vars is not None]
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and \
            node.func.attr in MUTATORS:
        return [node.func.value]
    return []


def _unpacked(target: ast.expr) -> list[ast.expr]:
    if isinstance(target, (ast.Tuple, ast.List)):
        return [t for e in target.elts for t in _unpacked(e)]
    if isinstance(target, ast.Starred):
        return _unpacked(target.value)
    return [target]


def private_writes(source: str, filename: str = "<snippet>") -> list[str]:
    """Every write in ``source`` to a private attribute of an object other than ``self`` (or
    ``cls``), outside the class that declares that attribute: ``"file:line: text"``."""
    found: list[str] = []

    def check(target: ast.expr, own: set[str]) -> None:
        node: ast.expr = target
        while isinstance(node, (ast.Attribute, ast.Subscript, ast.Call)):
            if isinstance(node, ast.Attribute):
                receiver = node.value
                is_self = isinstance(receiver, ast.Name) and receiver.id in ("self", "cls")
                if _private(node.attr) and not is_self and node.attr not in own:
                    found.append(f"{filename}:{target.lineno}: {ast.unparse(target)}")
                    return
                node = receiver
            elif isinstance(node, ast.Subscript):
                node = node.value
            else:
                node = node.func

    def visit(node: ast.AST, own: set[str]) -> None:
        if isinstance(node, ast.ClassDef):
            own = own | _own_names(node)
        for target in _targets(node):
            for t in _unpacked(target):
                check(t, own)
        for child in ast.iter_child_nodes(node):
            visit(child, own)

    visit(ast.parse(source, filename), set())
    return found


def test_no_engine_module_writes_another_objects_private_fields() -> None:
    found = [w for path in sorted(ENGINE.rglob("*.py"))
             for w in private_writes(path.read_text(encoding="utf-8"),
                                     str(path.relative_to(ROOT)))]
    assert found == []


BAD = {
    "assigned": "def f(rnd):\n    rnd._ending = None\n",
    "unpacked": "def f(rnd, new):\n    a, new._result = 1, 2\n",
    "augmented": "def f(rnd):\n    rnd._count += 1\n",
    "annotated": "def f(rnd):\n    rnd._turn: dict = {}\n",
    "deleted": "def f(rnd):\n    del rnd._turn\n",
    "item set": "def f(rnd):\n    rnd._turn['play'] = None\n",
    "appended": "def f(rnd):\n    rnd._turns.append(1)\n",
    "through a method": "def f(rnd):\n    rnd._begin_turn()['drew'].append('1|2')\n",
    "deeper": "def f(rnd):\n    rnd.line._tips.pop()\n",
    "a base's field": "class Cuban(Round):\n    def _copy_into(self, new, record):\n"
                      "        new._result = self._result\n",
    "self's part": "class Cuban(Round):\n    def f(self):\n        self.line._tips = []\n",
}
GOOD = {
    "own field": "class R:\n    def f(self):\n        self._turn = None\n        "
                 "self._turns.append(1)\n",
    "own field on a copy": "class R:\n    __slots__ = ('_result',)\n\n"
                           "    def copy_into(self, new):\n        new._result = self._result\n",
    "set in the class": "class C(R):\n    def _start(self):\n        self._first = 0\n\n"
                        "    def _copy_into(self, new, record):\n"
                        "        new._first = self._first\n",
    "public field": "def f(rnd):\n    rnd.turn = 1\n    rnd.log.append(1)\n",
    "a method called": "def f(rnd):\n    rnd._bonus(1, 'domino', 3)\n    x = rnd._result\n",
    "a local": "def f(rnd):\n    _x = []\n    _x.append(rnd._tile(1))\n",
    "a dunder": "def f(cls, rnd):\n    rnd.__class__ = cls\n",
}


def test_the_scan_finds_each_kind_of_write() -> None:
    for name, source in BAD.items():
        assert len(private_writes(source)) == 1, name
    for name, source in GOOD.items():
        assert private_writes(source) == [], name
