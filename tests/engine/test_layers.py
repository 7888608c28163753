"""The dependency direction of DESIGN.md: ``engine`` imports the standard library only, and
no test imports the widget toolkit."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

from tests.import_graph import cycles, package_graph

ROOT = Path(__file__).resolve().parents[2]
FORBIDDEN = ("ipywidgets", "ipycanvas", "sympy", "numpy", "tutor", "traitlets", "IPython")
ENGINE = ("engine", "leonard_engine__mypyc")
"""The engine's own modules: the package, and the shared library of its compiled build."""

PROBE = """
import json, sys
before = set(sys.modules)
import engine
import engine.tiles, engine.rules, engine.events, engine.round, engine.match, engine.game_file
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


def test_the_engine_has_no_import_cycle():
    """No engine module imports, directly or through others, a module that imports it (a lazy
    import inside a function counts; a type-only import under TYPE_CHECKING does not): the
    helpers around the round take it as a value and never import it (issue 46 part 3)."""
    assert cycles(package_graph(ROOT / "engine")) == []


CYCLE = {
    "pkg/__init__.py": "from .sub.x import X\n",  # an edge up to a parent package: not one
    "pkg/sub/__init__.py": "",
    "pkg/sub/x.py": "from ... import pkg\nfrom .. import a\nX = 1\n",
    "pkg/a.py": "def f():\n    from .b import g  # lazy: still an edge\n    return g\n",
    "pkg/b.py": "from pkg import c\ng = c\n",
    "pkg/c.py": "from typing import TYPE_CHECKING\nfrom . import a\n"
                "if TYPE_CHECKING:\n    from .d import D\n",
    "pkg/d.py": "from .c import a\nD = 1\n",  # d → c, but c → d is type-only: no cycle
}


def test_the_cycle_finder_finds_a_cycle(tmp_path):
    for name, text in CYCLE.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text, encoding="utf-8")
    graph = package_graph(tmp_path / "pkg", tmp_path)
    assert graph["pkg.sub.x"] == {"pkg.a"} and graph["pkg.d"] == {"pkg.c"}
    assert cycles(graph) == [["pkg.a", "pkg.b", "pkg.c"]]
    (tmp_path / "pkg" / "a.py").write_text("def f():\n    return 1\n", encoding="utf-8")
    assert cycles(package_graph(tmp_path / "pkg", tmp_path)) == []
