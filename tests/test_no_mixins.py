"""No mixins in ``tutor/`` (issue 53): no class stands in for another class's attributes.

A class whose method only raises ``NotImplementedError`` waits for another class to give the
method; a class that declares ``name: type`` at class level and never assigns it waits for
another class to set it. Either way its code reads attributes it does not own. A part gets
what it needs instead (composition), or names what it needs of the other side as a
:class:`typing.Protocol`; an abstract method (``abc.abstractmethod``) is a subclass's own.
"""

from __future__ import annotations

import ast
from pathlib import Path

TUTOR = Path(__file__).resolve().parent.parent / "tutor"


def _is_protocol(cls: ast.ClassDef) -> bool:
    return any(_name(b.value if isinstance(b, ast.Subscript) else b) == "Protocol"
               for b in cls.bases)


def _only_raises_not_implemented(func: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    body = [s for s in func.body
            if not (isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant)
                    and isinstance(s.value.value, str))]  # docstrings
    if len(body) != 1 or not isinstance(body[0], ast.Raise) or body[0].exc is None:
        return False
    exc = body[0].exc
    if isinstance(exc, ast.Call):
        exc = exc.func
    return isinstance(exc, ast.Name) and exc.id == "NotImplementedError"


def _assigned_by_class(cls: ast.ClassDef) -> set[str]:
    """The names ``cls`` gives a value itself: in its body, or as ``self.name`` in its
    methods."""
    names: set[str] = set()
    for node in ast.walk(cls):
        targets: list[ast.expr] = []
        if isinstance(node, ast.Assign):
            targets = list(node.targets)
        elif isinstance(node, (ast.AnnAssign, ast.AugAssign)) and (
                not isinstance(node, ast.AnnAssign) or node.value is not None):
            targets = [node.target]
        for target in targets:
            for t in ast.walk(target):
                if isinstance(t, ast.Name):
                    names.add(t.id)
                elif (isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name)
                      and t.value.id in ("self", "cls")):
                    names.add(t.attr)
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node is not cls:
            names.add(node.name)  # a property or a method of that name
    return names


def mixins(source: str, where: str = "<sample>") -> list[str]:
    """Each class of ``source`` that stands in for another class's attributes, and why."""
    found = []
    records: set[str] = set()
    for cls in ast.walk(ast.parse(source)):
        if not isinstance(cls, ast.ClassDef) or _is_protocol(cls):
            continue
        if _is_record(cls, records):
            records.add(cls.name)
        for item in cls.body:
            if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)) \
                    and _only_raises_not_implemented(item):
                found.append(f"{where}: {cls.name}.{item.name} only raises "
                             "NotImplementedError")
        assigned = _assigned_by_class(cls)
        for item in cls.body:
            if isinstance(item, ast.AnnAssign) and item.value is None \
                    and isinstance(item.target, ast.Name) and item.target.id not in assigned:
                if cls.name in records:
                    continue
                found.append(f"{where}: {cls.name}.{item.target.id} is declared, never "
                             "assigned by the class")
    return found


def _is_record(cls: ast.ClassDef, records: set[str]) -> bool:
    """A dataclass, a NamedTuple or a TypedDict (``total=``, or a base among ``records``,
    this module's): its annotations are its fields."""
    for dec in cls.decorator_list:
        node = dec.func if isinstance(dec, ast.Call) else dec
        if _name(node) == "dataclass":
            return True
    if any(k.arg == "total" for k in cls.keywords):
        return True
    return any(_name(b.value if isinstance(b, ast.Subscript) else b)
               in ("NamedTuple", "TypedDict", *records) for b in cls.bases)


def _name(node: ast.expr) -> str:
    return node.attr if isinstance(node, ast.Attribute) else \
        node.id if isinstance(node, ast.Name) else ""


def test_no_class_in_tutor_stands_in_for_another_classes_attributes() -> None:
    found = []
    for path in sorted(TUTOR.rglob("*.py")):
        found += mixins(path.read_text(encoding="utf-8"), str(path.relative_to(TUTOR.parent)))
    assert found == []


SAMPLE = '''
from dataclasses import dataclass
from typing import Protocol, TypedDict

class Mixin:
    """Waits for the class it is mixed into."""
    lang: str
    book: object

    def _say(self, text: str) -> None:
        """The panel's."""
        raise NotImplementedError

    def relabel(self) -> None:
        raise NotImplementedError("the page's")

    def hello(self) -> str:
        return self.lang

class Owns:
    lang: str

    @dataclass
    class Row:
        name: str

    class Settings(TypedDict, total=False):
        seed: int

    class More(Settings, total=False):
        rounds: int

    def __init__(self) -> None:
        self.lang = "es"

class Needs(Protocol):
    lang: str

    def say(self, text: str) -> None:
        raise NotImplementedError
'''


def test_the_check_finds_a_mixin_and_only_a_mixin() -> None:
    assert mixins(SAMPLE) == [
        "<sample>: Mixin._say only raises NotImplementedError",
        "<sample>: Mixin.relabel only raises NotImplementedError",
        "<sample>: Mixin.lang is declared, never assigned by the class",
        "<sample>: Mixin.book is declared, never assigned by the class",
    ]
