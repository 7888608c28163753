"""The tutor's old module names, still importable: what a class server's config, a teacher's
notes or a script wrote before a module moved keeps working.

Each old name is one line of :data:`MOVED` (a package's old name covers its modules too).
Importing an old name gives the module under its new name: the same module object, not a
copy, so an extension's hooks and a module's state are shared. ``python -m`` with an old
name runs the new module. ``tutor/__init__`` puts the finder first on ``sys.meta_path``:
before Python's own, which would otherwise find ``tutor.play.session`` in the renamed
package's folder and load a second copy of the module. No old name is a module that exists
(tests/tutor/test_old_names.py checks it).
May import: nothing."""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import sys
from collections.abc import Sequence
from types import CodeType, ModuleType

__all__ = ["MOVED", "install", "new_name"]

MOVED: dict[str, str] = {
    # before the packages (issue 34): what class servers set up then name
    "tutor.serve": "tutor.commands.server",
    "tutor.template_cache": "tutor.hub.page_templates",
    "tutor.xsrf_cookie": "tutor.hub.page_xsrf",
    # issue 46: the folders are the layers, and what clashed was renamed
    "tutor.classroom.serve": "tutor.commands.server",
    "tutor.classroom.template_cache": "tutor.hub.page_templates",
    "tutor.classroom.xsrf_cookie": "tutor.hub.page_xsrf",
    "tutor.classroom.counts": "tutor.teaching.counts",
    "tutor.storage.recorder": "tutor.session.saving",
    "tutor.play": "tutor.session",
}
"""Old module name → new module name."""


def new_name(name: str) -> str | None:
    """The module's name today, if ``name`` is an old one (or a module of an old package)."""
    for old, new in MOVED.items():
        if name == old:
            return new
        if name.startswith(old + "."):
            return new + name[len(old):]
    return None


class _OldNames(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Finds an old name and loads it as the module of its new name."""

    def __init__(self) -> None:
        self._specs: dict[str, importlib.machinery.ModuleSpec | None] = {}
        """The new module's own spec, by old name, while the import system loads it."""

    def find_spec(self, fullname: str, path: Sequence[str] | None = None,
                  target: ModuleType | None = None) -> importlib.machinery.ModuleSpec | None:
        if new_name(fullname) is None:
            return None
        return importlib.util.spec_from_loader(fullname, self)

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType:
        module = importlib.import_module(new_name(spec.name) or spec.name)
        self._specs[spec.name] = module.__spec__
        return module

    def exec_module(self, module: ModuleType) -> None:
        # the import system has just set the old name's spec on the module: give it back its own
        old = module.__spec__.name if module.__spec__ is not None else ""
        if old in self._specs:
            module.__spec__ = self._specs.pop(old)

    def get_code(self, fullname: str) -> CodeType | None:
        """For ``python -m <old name>``: the new module's code."""
        spec = importlib.util.find_spec(new_name(fullname) or fullname)
        loader = spec.loader if spec is not None else None
        if not isinstance(loader, importlib.abc.InspectLoader):
            return None
        return loader.get_code(spec.name if spec is not None else fullname)

    def is_package(self, fullname: str) -> bool:
        spec = importlib.util.find_spec(new_name(fullname) or fullname)
        return spec is not None and spec.submodule_search_locations is not None


def install() -> None:
    """Put the finder first on ``sys.meta_path`` (once)."""
    if not any(isinstance(f, _OldNames) for f in sys.meta_path):
        sys.meta_path.insert(0, _OldNames())
