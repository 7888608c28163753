"""Old module names still import (issue 46 part 1: "keep the old public names importable"):
a class server's config, a teacher's notes or a script written before a module moved keeps
working, and gets the very module of the new name (tutor/old_names.py)."""

from __future__ import annotations

import importlib
import subprocess
import sys
from pathlib import Path

import pytest

import tutor  # noqa: F401  # installs the old names
from tutor.old_names import MOVED, new_name

ROOT = Path(__file__).resolve().parents[2]
LAST_LANDING = "94b7639"
"""The commit before the modules moved in issue 46."""


def _exists(name: str) -> bool:
    path = ROOT.joinpath(*name.split("."))
    return path.with_suffix(".py").is_file() or (path / "__init__.py").is_file()


@pytest.mark.parametrize("old", sorted(MOVED))
def test_an_old_name_imports_the_module_of_its_new_name(old: str) -> None:
    new = MOVED[old]
    assert not _exists(old), f"{old} is a module again: take it out of MOVED"
    assert _exists(new), f"{old} names {new}, which does not exist"
    module = importlib.import_module(old)
    assert module is importlib.import_module(new)
    assert module.__name__ == new and module.__spec__ is not None
    assert module.__spec__.name == new  # the module keeps its own spec


def test_a_module_of_a_renamed_package_is_the_same_module() -> None:
    """``tutor.play.session`` is ``tutor.session.session``: one Session class, not a copy
    loaded a second time from the renamed folder."""
    from tutor.play.session import Session
    from tutor.play.snapshot import Snapshot

    assert Session is tutor.Session and Snapshot is tutor.Snapshot
    assert new_name("tutor.play.session") == "tutor.session.session"
    assert new_name("tutor.playground") is None and new_name("tutor.session") is None


def test_a_name_that_never_was_still_fails_as_usual() -> None:
    with pytest.raises(ModuleNotFoundError, match="tutor.classroom.nothing_here"):
        importlib.import_module("tutor.classroom.nothing_here")


def test_every_module_moved_since_the_last_landing_keeps_its_name() -> None:
    """Each module of ``tutor`` at the last landing is a module today or an old name."""
    listed = subprocess.run(["git", "ls-tree", "-r", "--name-only", LAST_LANDING, "tutor"],
                            cwd=ROOT, capture_output=True, text=True)
    if listed.returncode != 0:
        pytest.skip(f"this clone does not have the commit {LAST_LANDING}: {listed.stderr}")
    names = {".".join(Path(p).with_suffix("").parts).removesuffix(".__init__")
             for p in listed.stdout.split() if p.endswith(".py")}
    lost = sorted(n for n in names if not _exists(n) and new_name(n) is None)
    assert lost == []


def test_a_server_set_up_in_either_old_way_keeps_its_extensions_and_command() -> None:
    """The extensions a ``jupyter_server_config.json`` named before the packages and before
    issue 46 still load (the same hooks), and the old commands still run."""
    from tutor.commands.server import OLD_EXTENSIONS
    from tutor.hub import page_templates, page_xsrf

    for old in ("tutor.template_cache", "tutor.xsrf_cookie", *OLD_EXTENSIONS):
        module = importlib.import_module(old)
        assert module in (page_templates, page_xsrf)  # the extension's own hooks
    for old in ("tutor.serve", "tutor.classroom.serve"):
        ran = subprocess.run([sys.executable, "-m", old, "--help"], capture_output=True,
                             text=True, check=True)
        assert "--write-server-config" in ran.stdout
