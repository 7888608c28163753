"""tools/update_catalogs.py: new messages are appended, existing entries are left alone."""

from __future__ import annotations

import importlib.util
import shutil
import sys
from pathlib import Path
from types import ModuleType

import pytest

from tutor import i18n

ROOT = Path(__file__).resolve().parents[2]


def _tool() -> ModuleType:
    spec = importlib.util.spec_from_file_location("update_catalogs",
                                                  ROOT / "tools" / "update_catalogs.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look the module up by name
    spec.loader.exec_module(module)
    return module


def test_appends_new_messages_and_keeps_the_rest(tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    tool = _tool()
    source = tmp_path / "src"
    source.mkdir()
    (source / "m.py").write_text(
        'from tutor.i18n import N_, ngettext\n'
        'A = N_("Old message")\n'
        'B = N_("New {thing} message")\n'
        'def f(n):\n    return ngettext("one tile", "{n} tiles", n)\n', encoding="utf-8")
    locale = tmp_path / "locale"
    shutil.copytree(i18n.LOCALE_DIR, locale, ignore=shutil.ignore_patterns("*.mo"))
    po = locale / "es" / "LC_MESSAGES" / "tutor.po"
    po.write_text(po.read_text(encoding="utf-8").split("\n\n")[0] + "\n\n"
                  '#: m.py\nmsgid "Old message"\nmsgstr "Mensaje viejo"\n\n'
                  'msgid "Somebody else\'s message"\nmsgstr "Mensaje de otra persona"\n',
                  encoding="utf-8")
    before = po.read_text(encoding="utf-8")
    monkeypatch.setattr(i18n, "LOCALE_DIR", locale)
    monkeypatch.setattr(i18n._extract_messages, "__defaults__", (source,))
    messages = tool.extract(source)
    assert [m.id for m in messages] == ["Old message", "New {thing} message",
                                        ("one tile", "{n} tiles")]

    assert tool.update_catalog("es", messages, exclude=["m*"]).added == []
    assert po.read_text(encoding="utf-8") == before
    result = tool.update_catalog("es", messages, write=False)
    assert result.added == ["New {thing} message", "one tile"]
    assert po.read_text(encoding="utf-8") == before

    result = tool.update_catalog("es", messages)
    assert result.unused == ["Somebody else's message"]
    after = po.read_text(encoding="utf-8")
    assert after.startswith(before)  # nothing rewritten, nothing deleted
    assert after[len(before):] == (
        '\n#: m.py\n#, python-brace-format\nmsgid "New {thing} message"\nmsgstr ""\n\n'
        '#: m.py\n#, python-brace-format\nmsgid "one tile"\nmsgid_plural "{n} tiles"\n'
        'msgstr[0] ""\nmsgstr[1] ""\n')
    assert tool.update_catalog("es", messages).added == []  # a second run adds nothing
    assert po.read_text(encoding="utf-8") == after
    assert i18n.missing_translations("es") == ["New {thing} message", "one tile", "{n} tiles"]
