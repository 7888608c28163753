"""tools/count_any.py (issue 34 part 6, a typed tutor): the modules pyproject.toml types
without an explicit ``Any`` hold none, nor a ``type: ignore`` (mypy refuses the first, this
check the second); the counter reads tokens, so a word in a comment or a string is no ``Any``."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[2]


def _tool() -> ModuleType:
    spec = importlib.util.spec_from_file_location("count_any", ROOT / "tools" / "count_any.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look the module up by name
    spec.loader.exec_module(module)
    return module


def test_modules_typed_without_any_hold_no_any_nor_ignore() -> None:
    tool = _tool()
    typed = tool.strict_modules()
    assert "tutor.*" in typed  # every module of the tutor refuses an explicit Any …
    exempt = tool.exempt_modules()
    # … but the two boundaries: the ui's widget aliases and a database row
    assert exempt == {"tutor.ui.shared.panel", "tutor.storage.connection"}
    assert tool.check(tool.count_tree(), typed, exempt=exempt) == []
    assert tool.main(["--check"]) == 0


def test_counts_code_not_comments_strings_or_imports() -> None:
    tool = _tool()
    source = ("from typing import Any\n"
              "import typing\n"
              "x: Any = 1  # Any in a comment\n"
              "y: typing.Any = 'Any'\n"
              "z = f(x)  # type: ignore[arg-type]\n"
              "w = 1  # not a type: ignore, a sentence\n")
    assert tool.count_source(source) == (2, 1)


def test_check_names_the_module_and_the_ceilings() -> None:
    tool = _tool()
    counts = [tool.Count("tutor.session.words", 1, 0), tool.Count("tutor.ui.play.board", 3, 2)]
    problems = tool.check(counts, ["tutor.session.words", "tutor.storage.store"])
    assert len(problems) == 1 and problems[0].startswith("tutor.session.words: 1 Any")
    assert tool.check(counts, ["tutor.ui.*"])[0].startswith("tutor.ui.play.board")
    assert tool.check(counts, ["tutor.ui.*"], exempt={"tutor.ui.play.board"}) == []
    assert tool.check(counts, [], max_any=4, max_ignore=2) == []
    assert len(tool.check(counts, [], max_any=4, max_ignore=1)) == 1
