"""The layers: pyproject.toml's import contracts hold (``lint-imports``; type-only and lazy
imports count), each can fail, and docs/design.md draws them (issue 53 part 4)."""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
BAD = {  # contract id: a file of a copy of the code, and a forbidden import added to it
    "layers": ("tutor/storage/records.py", "def _f():\n    import tutor.session  # lazy\n"),
    "ui": ("tutor/ui/shared/tables.py", "import tutor.ui.lessons\n"),
    "no-store": ("tutor/teaching/hints.py", "import sqlite3\n"),
    "no-cli": ("tutor/ui/play/log.py", "import tutor.commands.teacher\n"),
    "engine": ("engine/line.py", "import sympy\n"),
    "widgets": ("tutor/hub/lockdown.py", "import ipywidgets\n"),
    "acyclic": ("engine/tiles.py", "if TYPE_CHECKING:\n    from engine.round import Round\n"),
}


def lint(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """``lint-imports`` with pyproject.toml's contracts on the code under ``root``, with no
    cache (nothing written into the checkout)."""
    return subprocess.run(
        [sys.executable, "-c", "from importlinter.cli import lint_imports_command as c; c()",
         "--no-cache", "--no-logo", *args, str(ROOT / "pyproject.toml")], cwd=root, text=True,
        capture_output=True, env={**os.environ, "PYTHONPATH": str(root)}, timeout=300)


def test_the_import_contracts_hold() -> None:
    out = lint(ROOT)
    assert out.returncode == 0, out.stdout + out.stderr


def test_the_engine_imports_the_standard_library_only() -> None:
    """Whatever the ``engine`` contract names: every module outside it the engine imports,
    but mypyc's class options, a type only (engine/_build.py: the build reads them)."""
    import grimp

    graph = grimp.build_graph("engine", include_external_packages=True, cache_dir=None)
    outside = {m for m in graph.modules if m.split(".")[0] != "engine"} - {"mypy_extensions"}
    assert outside and outside <= set(sys.stdlib_module_names), outside - set(
        sys.stdlib_module_names)


@pytest.mark.slow
def test_each_contract_catches_a_bad_import(tmp_path: Path) -> None:
    """In a copy of the code, each import of :data:`BAD` alone breaks its contract."""
    for package in ("tutor", "engine"):
        shutil.copytree(ROOT / package, tmp_path / package,
                        ignore=shutil.ignore_patterns("__pycache__", "*.so", "locale"))
    contracts = {c["id"]: c["name"] for c in _tool().contracts()}
    assert set(contracts) == set(BAD)
    for contract, (path, line) in BAD.items():
        assert lint(tmp_path, "--contract", contract).returncode == 0, contract
        source = (tmp_path / path).read_text(encoding="utf-8")
        (tmp_path / path).write_text(f"{source}\nfrom typing import TYPE_CHECKING\n{line}",
                                     encoding="utf-8")
        out = lint(tmp_path, "--contract", contract)
        assert out.returncode == 1 and f"{contracts[contract]} BROKEN" in out.stdout, contract
        (tmp_path / path).write_text(source, encoding="utf-8")


def _tool():  # tools/layers_picture.py
    spec = importlib.util.spec_from_file_location("layers_picture",
                                                  ROOT / "tools" / "layers_picture.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_design_doc_draws_the_contracts() -> None:
    tool = _tool()
    made = tool.picture(tool.contracts())
    assert tool.written(tool.DESIGN.read_text(encoding="utf-8")) == made, (
        "docs/design.md's picture is not the contracts': run tools/layers_picture.py --write")
