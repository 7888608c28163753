"""Old module names: a clean break (issue 53 part 5).

The tutor's modules no longer answer to the names they had before they moved (an import finder
kept them all importable, silently, with no end). Only the two names a class server's config
may still hold, the server extensions' names from issue 34 to issue 46, stay for one more
version, as two plain modules that warn and say when they go. Writing the config again
(``python -m tutor.commands.server --write-server-config``) puts the new names in their place,
the names from before issue 34 included (tests/tutor/test_template_cache.py)."""

from __future__ import annotations

import importlib
import json
import re
import subprocess
import sys
import warnings
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SHIMS = {"tutor.classroom.template_cache": "tutor.hub.page_templates",
         "tutor.classroom.xsrf_cookie": "tutor.hub.page_xsrf"}
"""The old names kept, and each one's module today."""


def _version(text: str) -> tuple[int, ...]:
    return tuple(int(part) for part in text.split("."))


@pytest.mark.parametrize("old", ["tutor.serve", "tutor.template_cache", "tutor.xsrf_cookie",
                                 "tutor.classroom.serve", "tutor.classroom.counts",
                                 "tutor.storage.recorder", "tutor.play", "tutor.play.session"])
def test_the_other_old_names_are_gone(old: str) -> None:
    """No finder on ``sys.meta_path`` makes up a module for an old name any more."""
    with pytest.raises(ModuleNotFoundError):
        importlib.import_module(old)
    assert not [f for f in sys.meta_path if type(f).__module__.startswith("tutor")]
    assert not (ROOT / "tutor" / "old_names.py").exists()


@pytest.mark.parametrize("old", sorted(SHIMS))
def test_an_old_extension_name_warns_and_is_the_same_extension(
        old: str, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    """Importing an old name warns (a ``DeprecationWarning`` and, since a server shows none by
    default, a warning in its log) with the version that removes it and the command that
    writes the new name; what it gives is the new module's own objects, and Jupyter Server,
    asking it for its extension points, is sent to the new module."""
    monkeypatch.delitem(sys.modules, old, raising=False)  # imported afresh, so it warns
    with pytest.warns(DeprecationWarning) as warned:
        module = importlib.import_module(old)
    new = importlib.import_module(SHIMS[old])
    said = [str(w.message) for w in warned if issubclass(w.category, DeprecationWarning)]
    assert len(said) == 1
    assert f"{old} is the old name of {SHIMS[old]}" in said[0]
    assert f"goes in version {module.REMOVED_IN}" in said[0]
    assert "python -m tutor.commands.server --write-server-config" in said[0]
    assert [r.getMessage() for r in caplog.records if r.name == old] == said
    names = [n for n in module.__all__ if n != "REMOVED_IN"]
    assert set(names) == set(new.__all__)
    assert all(getattr(module, n) is getattr(new, n) for n in names)
    assert module._jupyter_server_extension_points() == new._jupyter_server_extension_points()


def test_a_shim_goes_in_the_version_it_says() -> None:
    """Each shim names the next minor version after this one, and CHANGELOG.md tells a class
    server's keeper so under this version: when the project reaches it, this fails until the
    shims are deleted."""
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    found = re.search(r'^version = "([0-9.]+)"$', pyproject, re.MULTILINE)  # [project]'s
    assert found is not None
    version = found[1]
    major, minor, *_ = _version(version)
    for old in SHIMS:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)  # what it says: tested above
            shim = importlib.import_module(old)
        assert _version(shim.REMOVED_IN) == (major, minor + 1, 0), shim.__name__
        assert _version(version) < _version(shim.REMOVED_IN)
    changelog = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    this = changelog.split(f"\n## {version}", 1)[1].split("\n## ", 1)[0]
    assert all(f"`{old}`" in this for old in SHIMS)
    assert f"removed in version {shim.REMOVED_IN}" in this
    assert "python -m tutor.commands.server --write-server-config" in this


LOAD = """
import json, logging, sys
from jupyter_server.extension.manager import ExtensionPackage

logging.basicConfig(stream=sys.stdout, format="%(levelname)s %(name)s: %(message)s")


class Server:  # what an extension's loader reads of Jupyter Server's app
    log = logging.getLogger("ServerApp")


package = ExtensionPackage(name={old!r}, enabled=True)
assert package.validate()
package.load_all_points(Server())
from {new_package} import {new_module} as new
print(json.dumps({{"installed": new.installed(),
                   "points": sorted(p.module.__name__ for p in
                                    package.extension_points.values())}}))
"""


@pytest.mark.parametrize("old", sorted(SHIMS))
def test_jupyter_server_loads_an_old_extension_name_with_a_warning_in_its_log(old: str) -> None:
    """A server whose ``jupyter_server_config.json`` still names the old extension loads it
    (Jupyter Server's own loader, in a fresh Python) and its log says to write the config
    again."""
    new_package, _, new_module = SHIMS[old].rpartition(".")
    ran = subprocess.run(
        [sys.executable, "-c", LOAD.format(old=old, new_package=new_package,
                                           new_module=new_module)],
        cwd=ROOT, capture_output=True, text=True, env={"PYTHONPATH": str(ROOT)})
    assert ran.returncode == 0, ran.stderr
    *log, last = ran.stdout.splitlines()
    assert json.loads(last) == {"installed": True, "points": [SHIMS[old]]}
    assert [line for line in log if line.startswith(f"WARNING {old}: ")
            and "--write-server-config" in line and "0.2.0" in line]


def test_a_voila_py_with_the_old_names_keeps_its_settings_and_says_so(tmp_path: Path) -> None:
    """Standalone Voilà runs the ``voila.py`` written from issue 34 to issue 46: it still turns
    on the template cache and the closed tab's cookie (its ImportErrors would have lost both
    without a word), and the server's output says to write it again."""
    from tutor.commands.server import VOILA_PY

    old = VOILA_PY.replace("tutor.hub.page_templates", "tutor.classroom.template_cache")
    old = old.replace("tutor.hub.page_xsrf", "tutor.classroom.xsrf_cookie")
    assert old != VOILA_PY and "tutor.hub" not in old
    script = tmp_path / "old_config.py"  # not voila.py: it would shadow the voila package
    script.write_text(old + "from tutor.hub import page_templates, page_xsrf\n"
                      "print(page_templates.installed(), page_xsrf.installed())\n")
    ran = subprocess.run([sys.executable, str(script)], cwd=tmp_path, capture_output=True,
                         text=True, env={"PYTHONPATH": str(ROOT)})
    assert ran.returncode == 0, ran.stderr
    assert ran.stdout.split() == ["True", "True"], ran.stderr
    for name in SHIMS:
        assert f"{name} is the old name of {SHIMS[name]}" in ran.stderr
