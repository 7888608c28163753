"""The tutor's formulas without sympy (issue 35 part 5: memory per student).

A question's computation is small: whole numbers, ``+`` and ``−``, ``×``, brackets, squares
and blanks (docs/rules.md §1.6, §4). This module writes them as unevaluated expression trees and
prints them as LaTeX exactly as ``sympy.latex(expr, mul_symbol="times", order="none")`` prints
the same unevaluated sympy expression (``5 \\times \\left(4 + 5\\right)``, ``\\left(3 +
4\\right)^{2}``, ``10 - 4``), so that a student kernel need not load sympy (about 33 MiB) to
show a formula, a hint or a worked solution. :func:`to_sympy` gives the sympy expression for
the few callers that want one (it imports sympy then).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, TypeGuard

if TYPE_CHECKING:
    from sympy import Expr  # sympy has no types: mypy reads Expr as Any

__all__ = ["Blank", "Formula", "Num", "Power", "Product", "Sum", "add", "is_atom", "latex",
           "mul", "square", "to_sympy"]


@dataclass(frozen=True)
class Num:
    """A whole number."""

    value: int


@dataclass(frozen=True)
class Blank:
    """A box the student fills in (``\\square``)."""


@dataclass(frozen=True)
class Sum:
    """Terms added in the order written; a negative number is written as a subtraction."""

    terms: tuple[Formula, ...]


@dataclass(frozen=True)
class Product:
    """Factors multiplied in the order written."""

    factors: tuple[Formula, ...]


@dataclass(frozen=True)
class Power:
    """``base`` squared (the only power the rules use)."""

    base: Formula
    exp: int = 2


Formula = Num | Blank | Sum | Product | Power


def _lift(x: Formula | int) -> Formula:
    return Num(x) if isinstance(x, int) else x


def add(*terms: Formula | int) -> Formula:
    """The unevaluated sum of ``terms`` (one term is itself, none is 0, as in sympy)."""
    if not terms:
        return Num(0)
    if len(terms) == 1:
        return _lift(terms[0])
    return Sum(tuple(_lift(t) for t in terms))


def mul(*factors: Formula | int) -> Formula:
    """The unevaluated product of ``factors`` (one factor is itself, none is 1)."""
    if not factors:
        return Num(1)
    if len(factors) == 1:
        return _lift(factors[0])
    return Product(tuple(_lift(f) for f in factors))


def square(base: Formula | int) -> Formula:
    return Power(_lift(base))


def is_atom(f: Formula) -> bool:
    """A bare number or blank: a stage that would give the answer away, or show nothing."""
    return isinstance(f, (Num, Blank))


def _negative(f: Formula) -> TypeGuard[Num]:
    """Whether a term after the first is written with ``−``: a negative number (sympy's
    ``could_extract_minus_sign`` for the tutor's formulas, whose multipliers are never
    negative)."""
    return isinstance(f, Num) and f.value < 0


def latex(f: Formula) -> str:
    """``f`` in LaTeX, as sympy writes the same unevaluated expression with ``\\times``."""
    if isinstance(f, Num):
        return str(f.value)
    if isinstance(f, Blank):
        return r"\square"
    if isinstance(f, Sum):
        out = ""
        for i, term in enumerate(f.terms):
            if i and _negative(term):
                out += " - "
                term = Num(-term.value)
            elif i:
                out += " + "
            tex = latex(term)
            out += rf"\left({tex}\right)" if isinstance(term, Sum) else tex
        return out
    if isinstance(f, Product):
        parts = []
        for i, factor in enumerate(f.factors):
            tex = latex(factor)
            if isinstance(factor, Sum) or (i and _negative(factor)):
                tex = rf"\left({tex}\right)"
            parts.append(tex)
        return r" \times ".join(parts)
    base = latex(f.base)
    if isinstance(f.base, (Sum, Product)) or _negative(f.base):
        base = rf"\left({base}\right)"
    return f"{base}^{{{f.exp}}}"


def to_sympy(f: Formula) -> Expr:
    """The same unevaluated expression in sympy (imports sympy)."""
    import sympy

    if isinstance(f, Num):
        return sympy.Integer(f.value)
    if isinstance(f, Blank):
        return sympy.Symbol(r"\square")
    if isinstance(f, Sum):
        return sympy.Add(*[to_sympy(t) for t in f.terms], evaluate=False)
    if isinstance(f, Product):
        return sympy.Mul(*[to_sympy(t) for t in f.factors], evaluate=False)
    return sympy.Pow(to_sympy(f.base), f.exp, evaluate=False)
