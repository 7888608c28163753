"""Tests for tutor.i18n: catalogs, language codes, plurals, numbers, and the translation gate."""

from __future__ import annotations

import doctest
import os
import shutil
from pathlib import Path

import pytest

import tutor.i18n as i18n
from tutor.i18n import (
    SUPPORTED,
    LanguageError,
    compile_catalogs,
    format_number,
    missing_translations,
    ngettext,
    normalize_lang,
    translator,
)


def test_every_message_has_a_spanish_translation() -> None:
    """The gate: a message marked in tutor/ with no (or a fuzzy) Spanish translation fails."""
    assert missing_translations("es") == []


def test_every_message_is_in_the_english_catalog() -> None:
    assert missing_translations("en") == []


def test_missing_translations_finds_a_new_message(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    source = tmp_path / "src"
    source.mkdir()
    (source / "mod.py").write_text(
        'from tutor.i18n import N_\nMSG = N_("A brand-new message with no translation")\n'
        'def f(_, n):\n    return ngettext("one tile", "{n} tiles", n)\n',
        encoding="utf-8",
    )
    monkeypatch.setattr(i18n, "SOURCE_DIR", source)
    monkeypatch.setattr(i18n._extract_messages, "__defaults__", (source,))
    missing = missing_translations("es")
    assert "A brand-new message with no translation" in missing
    assert "one tile" in missing and "{n} tiles" in missing


@pytest.mark.parametrize(
    ("code", "expected"),
    [("es", "es"), ("es_MX", "es"), ("es-419", "es"), ("ES", "es"), ("en_US.UTF-8", "en"),
     (" en ", "en"), ("es_AR@euro", "es")],
)
def test_normalize_lang(code: str, expected: str) -> None:
    assert normalize_lang(code) == expected


@pytest.mark.parametrize("code", ["fr", "", "xx_YY", "espanol"])
def test_unknown_language_is_a_clear_error(code: str) -> None:
    with pytest.raises(LanguageError, match="not available") as info:
        translator(code)
    assert isinstance(info.value, ValueError)
    assert "es, en" in str(info.value)


def test_spanish_and_english_translators() -> None:
    msg = "Write a whole number, like 45 (no decimals)."
    assert translator("en")(msg) == msg
    assert translator("es_MX")(msg) == "Escribe un número entero, como 45 (sin decimales)."
    assert translator("es")("A message nobody translated") == "A message nobody translated"


def test_ngettext_falls_back_to_english_plural_rule() -> None:
    assert ngettext("one point", "{n} points", 1, "en") == "one point"
    assert ngettext("one point", "{n} points", 2, "es") == "{n} points"


def test_supported_languages() -> None:
    assert SUPPORTED == ("es", "en")


@pytest.mark.parametrize(
    ("value", "lang", "expected"),
    [(1234.5, "es", "1.234,5"), (1234.5, "en", "1,234.5"), (-7, "es", "-7"),
     (1234567, "es", "1.234.567"), (10**12, "en", "1,000,000,000,000")],
)
def test_format_number(value: float, lang: str, expected: str) -> None:
    assert format_number(value, lang) == expected


def test_compile_catalogs_writes_missing_and_stale_mo(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    locale = tmp_path / "locale"
    shutil.copytree(i18n.LOCALE_DIR, locale, ignore=shutil.ignore_patterns("*.mo"))
    monkeypatch.setattr(i18n, "LOCALE_DIR", locale)
    written = compile_catalogs()
    assert sorted(p.parent.parent.name for p in written) == ["en", "es"]
    assert compile_catalogs() == []  # up to date: nothing to do
    po = locale / "es" / "LC_MESSAGES" / "tutor.po"
    later = po.with_suffix(".mo").stat().st_mtime + 10
    os.utime(po, (later, later))
    assert [p.parent.parent.name for p in compile_catalogs()] == ["es"]


def test_read_only_locale_compiles_in_memory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    locale = tmp_path / "locale"
    shutil.copytree(i18n.LOCALE_DIR, locale, ignore=shutil.ignore_patterns("*.mo"))
    monkeypatch.setattr(i18n, "LOCALE_DIR", locale)
    monkeypatch.setattr(i18n, "compile_catalogs", lambda force=False: [])
    i18n._translations.cache_clear()
    try:
        assert translator("es")("Too many parentheses. Write a whole number, like 45.").startswith(
            "Demasiados paréntesis"
        )
        assert not list(locale.rglob("*.mo"))
    finally:
        i18n._translations.cache_clear()


def test_doctests() -> None:
    assert doctest.testmod(i18n).failed == 0
