"""Which build of the engine runs: the modules compiled by mypyc, or the same modules as pure
Python.

An install with a C compiler compiles the engine's modules (``setup.py``); each compiled module
(``round.cpython-311-….so``) sits beside its source (``round.py``), and Python imports the
compiled one first. This module, never compiled itself, decides before any other engine
module is imported whether to let it: the pure sources are used instead when

* ``LEONARD_PURE`` is set (to anything but ``0`` or nothing), at install time (nothing is
  compiled) or at run time (the compiled modules are there but hidden), or
* a source is newer than its compiled module, or has none (an edited checkout of an editable
  install): running the compiled engine then would run old code, so the engine says so once
  and runs the sources until it is reinstalled.

Both builds come from the same source and behave identically (the tests check it).
"""

from __future__ import annotations

import importlib.machinery
import os
import sys
import warnings
from collections.abc import Mapping, Sequence
from importlib.machinery import ModuleSpec
from types import ModuleType
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from mypy_extensions import mypyc_attr as mypyc_attr
else:
    def mypyc_attr(*args: Any, **kwargs: Any) -> Any:
        """mypyc's class options (``mypy_extensions.mypyc_attr``), which mypyc reads from the
        source when it compiles; at run time a no-op, so the engine needs only the standard
        library. Defined here because this module is never compiled."""
        return lambda cls: cls

PURE_ENV = "LEONARD_PURE"
"""Set it (``LEONARD_PURE=1``) for the pure-Python engine, at install time or at run time."""

PURE_ONLY = frozenset({"__init__.py", "__main__.py", "_build.py"})
"""Files of the ``engine`` folder that are never compiled: this module, which must run before
the compiled ones are looked for; the package's ``__init__``, which runs it; and ``__main__``
(``python -m`` needs a source file). ``setup.py`` reads this set."""

SLACK = 2.0
"""Seconds a source may be newer than its compiled module (files written by one install)."""

HERE = os.path.dirname(os.path.abspath(__file__))


def pure_requested(environ: Mapping[str, str] = os.environ) -> bool:
    return environ.get(PURE_ENV, "").strip() not in ("", "0")


def compiled_sources(root: str = HERE) -> list[str]:
    """The engine's modules that a compiled build compiles, as paths under ``root``."""
    out = []
    for folder, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__")
        for name in sorted(files):
            if name.endswith(".py") and not (folder == root and name in PURE_ONLY):
                out.append(os.path.join(folder, name))
    return out


def _compiled_file(source: str) -> str | None:
    base = source[:-3]
    for suffix in importlib.machinery.EXTENSION_SUFFIXES:
        if os.path.exists(base + suffix):
            return base + suffix
    return None


def stale_source(root: str = HERE) -> str | None:
    """The first source (relative to the ``engine`` folder) that is newer than its compiled
    module or has none, when some module is compiled; None when the compiled build is whole
    and up to date, or when there is no compiled build at all."""
    sources = compiled_sources(root)
    compiled = [_compiled_file(s) for s in sources]
    if not any(compiled):
        return None
    for src, so in zip(sources, compiled, strict=True):
        if so is None or os.path.getmtime(src) > os.path.getmtime(so) + SLACK:
            return os.path.relpath(src, os.path.dirname(root))
    return None


class SourceOnlyFinder:
    """Finds ``engine.*`` submodules as source files only, so the compiled modules beside
    them are never loaded (a meta path finder, ahead of the usual ones)."""

    def find_spec(self, fullname: str, path: Sequence[str] | None,
                  target: ModuleType | None = None) -> ModuleSpec | None:
        if not fullname.startswith("engine.") or not path:
            return None
        loaders = [(importlib.machinery.SourceFileLoader, importlib.machinery.SOURCE_SUFFIXES)]
        for entry in path:
            spec = importlib.machinery.FileFinder(entry, *loaders).find_spec(fullname)
            if spec is not None:
                return spec
        return None


def choose() -> str:
    """Hide the compiled modules when the pure engine must run; return why ("" if not)."""
    why = ""
    if pure_requested():
        why = f"{PURE_ENV} is set"
    else:
        stale = stale_source()
        if stale is not None:
            why = (f"{stale} is newer than its compiled module; reinstall "
                   f"(pip install -e .) to compile it again")
            warnings.warn(f"engine: {why}. Running the pure-Python engine meanwhile.",
                          RuntimeWarning, stacklevel=3)
    if why and not any(isinstance(f, SourceOnlyFinder) for f in sys.meta_path):
        sys.meta_path.insert(0, SourceOnlyFinder())
    return why
