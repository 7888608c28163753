"""Translations (gettext domain "tutor") and locale-aware numbers for learner-facing text.

Update both catalogs after changing messages: ``python tools/update_catalogs.py``.
Its layer: pyproject.toml's import contracts.
"""

from __future__ import annotations

import gettext as _gettext
import io
import os
import tempfile
import threading
from collections.abc import Callable
from functools import cache, lru_cache
from pathlib import Path

__all__ = [
    "DOMAIN",
    "LOCALE_DIR",
    "SUPPORTED",
    "LanguageError",
    "Message",
    "N_",
    "TranslatableError",
    "compile_catalogs",
    "format_number",
    "gettext",
    "missing_translations",
    "ngettext",
    "normalize_lang",
    "plural_translator",
    "translator",
    "translate_error",
    "visible",
]

DOMAIN = "tutor"
LOCALE_DIR = Path(__file__).resolve().parent / "locale"
SOURCE_DIR = Path(__file__).resolve().parent
SUPPORTED: tuple[str, ...] = ("es", "en")
# The msgids are written in English, so an empty English msgstr means "same as the msgid".
SOURCE_LANG = "en"
# Keywords that mark a translatable string; (1, 2) = singular and plural arguments.
KEYWORDS: dict[str, tuple[int, ...] | None] = {"_": None, "N_": None, "ngettext": (1, 2)}

_compile_lock = threading.Lock()


class LanguageError(ValueError):
    """A language code the tutor has no translation for."""


def N_(message: str) -> str:  # noqa: N802 - gettext convention for "mark now, translate later"
    """Mark ``message`` for extraction without translating it yet (deferred translation)."""
    return message


def normalize_lang(lang: str) -> str:
    """Reduce a locale name to a supported language: ``"es_MX"``, ``"es-419"``, ``"ES"`` → ``"es"``.

    >>> normalize_lang("es_MX.UTF-8")
    'es'
    """
    if lang in SUPPORTED:  # already a code (every panel asks at each redraw)
        return lang
    if not isinstance(lang, str):
        raise LanguageError(f"The language must be a code like 'es' or 'en', not {lang!r}.")
    base = lang.strip().replace("-", "_").split(".")[0].split("@")[0].split("_")[0].lower()
    if base not in SUPPORTED:
        choices = ", ".join(SUPPORTED)
        raise LanguageError(
            f"The language {lang!r} is not available; choose one of: {choices}. "
            f"/ El idioma {lang!r} no está disponible; elige uno de: {choices}."
        )
    return base


def _po_path(lang: str) -> Path:
    return LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


def _compile_bytes(po: Path, lang: str) -> bytes:
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    with po.open("rb") as fh:
        catalog = read_po(fh, locale=lang, domain=DOMAIN)
    buf = io.BytesIO()
    write_mo(buf, catalog, use_fuzzy=False)
    return buf.getvalue()


def compile_catalogs(force: bool = False) -> list[Path]:
    """Compile every ``tutor.po`` to ``tutor.mo`` when the .mo is missing or older.

    Returns the .mo files written. A read-only install is not an error: the
    translator then compiles in memory instead (see :func:`translator`).
    """
    written: list[Path] = []
    with _compile_lock:
        for lang in SUPPORTED:
            po = _po_path(lang)
            if not po.is_file():
                continue
            mo = po.with_suffix(".mo")
            if not force and mo.is_file() and mo.stat().st_mtime >= po.stat().st_mtime:
                continue
            data = _compile_bytes(po, lang)
            # A temporary name of its own: kernels started at once on a fresh install each
            # compile, and a shared name would let one rename the file another still writes.
            try:
                fd, name = tempfile.mkstemp(dir=mo.parent, prefix=".tutor.", suffix=".mo")
            except OSError:  # a read-only install
                continue
            tmp = Path(name)
            try:
                with os.fdopen(fd, "wb") as fh:
                    fh.write(data)
                tmp.chmod(0o644)
                tmp.replace(mo)  # atomic: a reader never sees half a file
            except OSError:
                tmp.unlink(missing_ok=True)
                continue
            written.append(mo)
    return written


@cache
def _translations(lang: str) -> _gettext.NullTranslations:
    compile_catalogs()
    po = _po_path(lang)
    mo = po.with_suffix(".mo")
    if mo.is_file() and (not po.is_file() or mo.stat().st_mtime >= po.stat().st_mtime):
        with mo.open("rb") as fh:
            return _gettext.GNUTranslations(fh)
    if po.is_file():  # could not write the .mo (read-only install): compile in memory
        return _gettext.GNUTranslations(io.BytesIO(_compile_bytes(po, lang)))
    return _gettext.NullTranslations()


def translator(lang: str) -> Callable[[str], str]:
    """The gettext function for ``lang`` (``"es"``, ``"en"``, ``"es_MX"`` …).

    >>> translator("en")("Write a whole number, like 45.")
    'Write a whole number, like 45.'
    """
    return _translations(normalize_lang(lang)).gettext


def plural_translator(lang: str) -> Callable[[str, str, int], str]:
    """The ngettext function for ``lang``: ``f(singular, plural, n)``."""
    return _translations(normalize_lang(lang)).ngettext


def gettext(message: str, lang: str) -> str:
    """Translate one message (for example a string marked earlier with :func:`N_`)."""
    return translator(lang)(message)


def ngettext(singular: str, plural: str, n: int, lang: str = SOURCE_LANG) -> str:
    """Translate a message with singular and plural forms, chosen by ``n``."""
    return plural_translator(lang)(singular, plural, n)


@lru_cache(maxsize=4096, typed=True)
def format_number(value: int | float, lang: str) -> str:
    """Format a number for readers of ``lang`` (``es``: ``1.234,5``; ``en``: ``1,234.5``).
    Remembered: the score panels format the same scores at every redraw.

    >>> format_number(-1234.5, "en")
    '-1,234.5'
    """
    from babel.numbers import format_decimal

    return str(format_decimal(value, locale=normalize_lang(lang)))


def _extract_messages(source_dir: Path = SOURCE_DIR) -> list[str]:
    """Every msgid marked in the Python files under ``source_dir`` (plural forms included)."""
    from babel.messages.extract import extract_from_dir

    found: dict[str, None] = {}
    method_map = [("**/.*/**", "ignore"), ("**.py", "python")]
    for _filename, _lineno, message, _comments, _context in extract_from_dir(
        str(source_dir), method_map=method_map, keywords=KEYWORDS
    ):
        for msgid in message if isinstance(message, tuple) else (message,):
            if msgid:
                found.setdefault(msgid, None)
    return list(found)


def missing_translations(lang: str = "es") -> list[str]:
    """The messages in the tutor's source with no usable translation in ``lang``'s catalog.

    A message is missing when it is not in the .po, is marked fuzzy, or (for
    languages other than the English source) has an empty translation.
    """
    from babel.messages.pofile import read_po

    lang = normalize_lang(lang)
    po = _po_path(lang)
    if not po.is_file():
        return _extract_messages()
    with po.open("rb") as fh:
        catalog = read_po(fh, locale=lang, domain=DOMAIN)
    usable: set[str] = set()
    for msg in catalog:
        if not msg.id or msg.fuzzy:
            continue
        ids = [msg.id] if isinstance(msg.id, str) else list(msg.id)
        strings = [msg.string] if isinstance(msg.string, str) else list(msg.string or ())
        if lang == SOURCE_LANG or all(strings):
            usable.update(str(i) for i in ids)
    return [msgid for msgid in _extract_messages() if msgid not in usable]


class Message:
    """A message kept untranslated until shown: a msgid (marked with :func:`N_`) and the
    values of its ``{placeholders}``.

    A value that is itself a :class:`Message` is translated into the same language, and a
    list or tuple of them is joined with ``"; "``.

    >>> m = Message(N_("Choose a move from 1 to {count}."), count=3)
    >>> m.translate("es")
    'Elige una jugada del 1 al 3.'
    """

    __slots__ = ("msgid", "params")

    def __init__(self, msgid: str, /, **params: object) -> None:
        self.msgid = msgid
        self.params = params

    def translate(self, lang: str) -> str:
        """The message in ``lang`` (in English if the translation cannot be formatted)."""
        try:
            lang = normalize_lang(lang)
        except LanguageError:
            lang = SOURCE_LANG
        values = {k: _param_text(v, lang) for k, v in self.params.items()}
        try:
            return translator(lang)(self.msgid).format(**values)
        except (KeyError, IndexError, ValueError):  # a broken translation: show the English
            try:
                return self.msgid.format(**values)
            except (KeyError, IndexError, ValueError):
                return self.msgid

    def __str__(self) -> str:
        return self.translate(SOURCE_LANG)

    def __repr__(self) -> str:
        params = "".join(f", {k}={v!r}" for k, v in self.params.items())
        return f"Message({self.msgid!r}{params})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Message):
            return NotImplemented
        return self.msgid == other.msgid and self.params == other.params

    def __hash__(self) -> int:
        return hash(self.msgid)


def _param_text(value: object, lang: str) -> object:
    if isinstance(value, Message):
        return value.translate(lang)
    if isinstance(value, (list, tuple)) and value and all(isinstance(v, Message) for v in value):
        return "; ".join(v.translate(lang) for v in value if isinstance(v, Message))
    return value


class TranslatableError(ValueError):
    """An error that keeps its message untranslated, so it can be shown in any language.

    ``str(err)`` speaks ``err.lang`` (the language of whoever raised it: a store, a
    session …); ``err.message("es")`` speaks any other.  Raise it with a msgid marked by
    :func:`N_` and the values of its placeholders::

        raise StoreError(N_("{path} is not a progress file."), path=path, lang=self.lang)
    """

    def __init__(self, message: str | Message, /, *, lang: str = SOURCE_LANG,
                 **params: object) -> None:
        self.msg = message if isinstance(message, Message) else Message(message, **params)
        try:
            self.lang = normalize_lang(lang)
        except LanguageError:
            self.lang = SOURCE_LANG
        super().__init__(self.msg.msgid)

    def message(self, lang: str | None = None) -> str:
        """The message in ``lang`` (default: the error's own language)."""
        return self.msg.translate(lang or self.lang)

    def __str__(self) -> str:
        return self.message()

    def __reduce__(self) -> tuple[object, ...]:  # keep msg and lang through pickle and copy
        return (type(self), (self.msg,), dict(self.__dict__))


def translate_error(err: BaseException, lang: str) -> str:
    """``err`` in ``lang`` if it is a :class:`TranslatableError`, else ``str(err)``."""
    return err.message(lang) if isinstance(err, TranslatableError) else str(err)


def visible(text: object) -> str:
    r"""``text`` with every control or invisible character written as its escape, so a name
    or a file name shows as itself and cannot clear, recolour or move the teacher's
    terminal, or start a line of its own.

    >>> visible("\x1b[2Jana\nbeto")
    '\\x1b[2Jana\\nbeto'
    """
    return "".join(ch if ch.isprintable() else repr(ch)[1:-1] for ch in str(text))
