"""The dependency direction of DESIGN.md: ``engine`` imports the standard library only, and
no test imports the widget toolkit."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FORBIDDEN = ("ipywidgets", "ipycanvas", "sympy", "numpy", "tutor", "traitlets", "IPython")
ENGINE = ("engine", "leonard_engine__mypyc")
"""The engine's own modules: the package, and the shared library of its compiled build."""

PROBE = """
import json, sys
before = set(sys.modules)
import engine
import engine.tiles, engine.rules, engine.events, engine.round, engine.match, engine.record
print(json.dumps({"new": sorted(set(sys.modules) - before), "all": sorted(sys.modules),
                  "stdlib": sorted(sys.stdlib_module_names)}))
"""


def test_engine_imports_only_the_standard_library():
    out = subprocess.run([sys.executable, "-c", PROBE], cwd=ROOT, capture_output=True,
                         text=True, check=True, env={"PYTHONPATH": str(ROOT)})
    data = json.loads(out.stdout)
    stdlib = set(data["stdlib"])
    new = [m for m in data["new"] if m.split(".")[0] not in ENGINE]
    outside = [m for m in new if m.split(".")[0] not in stdlib]
    assert outside == [], f"engine imported non-stdlib modules: {outside}"
    loaded = {m.split(".")[0] for m in data["all"]}
    assert not loaded & set(FORBIDDEN), loaded & set(FORBIDDEN)


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
