"""No test imports the widget toolkit (ipywidgets) itself. (What the engine and the tutor
import is pyproject.toml's import contracts: tests/test_import_contracts.py.)"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


IMPORT_IPYWIDGETS = re.compile(r"^\s*(?:import|from)\s+ipywidgets\b|__import__\(\s*['\"]ipywidgets"
                               r"|import_module\(\s*['\"]ipywidgets", re.MULTILINE)


def test_no_test_imports_ipywidgets():
    offenders = []
    for path in sorted((ROOT / "tests").rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        if IMPORT_IPYWIDGETS.search(text):
            offenders.append(str(path.relative_to(ROOT)))
    assert offenders == []


def test_the_ipywidgets_pattern_finds_imports():
    assert IMPORT_IPYWIDGETS.search("x = 1\nimport ipywidgets as w\n")
    assert IMPORT_IPYWIDGETS.search("    from ipywidgets import Button\n")
    assert not IMPORT_IPYWIDGETS.search('FORBIDDEN = ("ipywidgets",)\n')
