"""Progress files for teachers: CSV and DataShop-style tab-separated export, checked import.

A file holds text typed by students (names, answers), so it is written as data that no
spreadsheet runs as a formula and no reader splits in the wrong place, and every file the
export writes imports back to exactly the same attempts:

* **CSV**: every field is quoted (``csv.QUOTE_ALL``; the header line is not, its names are
  fixed). A value keeps its line breaks, which CSV readers read inside the quotes; but a
  spreadsheet or other line-based reader may start a new line at any CR or LF, so at the
  start of a value *and after every CR or LF inside it*, a formula character (``=``, ``+``,
  ``-``, ``@``, tab, CR, LF) or a ``'`` gets a ``'`` put before it. Import removes exactly
  those: a ``'`` at the start of a value or right after a CR or LF in it.
* **DataShop** (tab-separated, one attempt per line, values not quoted, as DataShop reads
  them): a value cannot hold a tab or a line break, so ``\\`` (a backslash), tab, LF and
  CR are written as the two characters ``\\\\``, ``\\t``, ``\\n`` and ``\\r``; then a
  value that starts with ``=``, ``+``, ``-``, ``@``, ``'`` or ``"`` gets a ``'`` before it.
  Import removes that ``'`` and undoes the four escapes (a backslash before any other
  character stays as it is).

Import checks every row (numbers within :data:`tutor.storage.records.LIMITS`, text within
:data:`tutor.storage.records.MAX_TEXT` characters, times with their time zone) before anything is
written, and refuses a bad file with one :class:`~tutor.storage.records.ProgressImportError` naming
the file, the line and what is wrong.

A CSV export is **sealed** (:mod:`tutor.storage.seal`): its last column, ``seal``, chains a
hash over the rows, so a file changed after the tutor wrote it is told apart.
:func:`parse_progress` says what the seal says (:class:`ProgressRows`); whoever merges a file
into a student's progress decides what to do with a file whose seal is broken or missing
(:mod:`tutor.classroom.hand_in`: it is refused). A DataShop export carries no seal: it is
written for DataShop, not handed in.
"""

from __future__ import annotations

import codecs
import csv
import io
import math
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from tutor.i18n import N_, SOURCE_LANG, Message
from tutor.storage.records import (
    CSV_COLUMNS,
    DATASHOP_COLUMNS,
    DURATION_NOT_SECONDS,
    Attempt,
    Outcome,
    ProgressImportError,
    check_attempt,
    out_of_range,
)
from tutor.storage.seal import SEAL_COLUMN, SealCheck, check_seals, sealed

__all__ = ["MAX_IMPORT_BYTES", "SEALED_CSV_COLUMNS", "ProgressRows", "csv_cell", "parse_attempts",
           "parse_progress", "progress_file_name", "read_attempts", "read_progress", "write_csv",
           "write_datashop"]

SEALED_CSV_COLUMNS: tuple[str, ...] = (*CSV_COLUMNS, SEAL_COLUMN)
"""The columns of a CSV export: an attempt's, then its seal."""

MAX_IMPORT_BYTES = 200 * 1024 * 1024

# CSV: a "'" goes before a formula character (or a "'") at the start of a value and after
# each line break in it; import takes away a "'" found at those places (see the docstring).
_CSV_ESCAPE = re.compile(r"(?:^|(?<=[\r\n]))(?=[=+\-@\t\r\n'])")
_CSV_UNESCAPE = re.compile(r"(?:^|(?<=[\r\n]))'")
# DataShop: tab and line breaks as backslash escapes, then a "'" before a formula start
# (or a quote, which a CSV-style reader would take as quoting).
_TSV_ESCAPES = str.maketrans({"\\": "\\\\", "\t": "\\t", "\n": "\\n", "\r": "\\r"})
_TSV_UNESCAPE = re.compile(r"\\([\\tnr])")
_TSV_UNESCAPED = {"\\": "\\", "t": "\t", "n": "\n", "r": "\r"}
_TSV_GUARDED = ("=", "+", "-", "@", "'", '"')


def progress_file_name(student: str) -> str:
    """The name of ``student``'s progress file ("Download my progress" on the pages, and
    ``simulate-students --write-progress``): ``leonard-progress-NAME.csv``."""
    return f"leonard-progress-{student}.csv"


def csv_cell(value: str) -> str:
    """A text value made safe for a spreadsheet: a "'" before a formula start."""
    return _CSV_ESCAPE.sub("'", value)


def _csv_uncell(value: str) -> str:
    return _CSV_UNESCAPE.sub("", value)


def _tsv_cell(value: str) -> str:
    value = value.translate(_TSV_ESCAPES)
    return "'" + value if value.startswith(_TSV_GUARDED) else value


def _tsv_uncell(value: str) -> str:
    value = value[1:] if value.startswith("'") else value
    return _TSV_UNESCAPE.sub(lambda m: _TSV_UNESCAPED[m[1]], value)


def _texts(a: Attempt) -> list[str]:
    return [a.student, a.session, a.time, a.lesson, a.problem, a.step]


def _csv_row(a: Attempt) -> list[str]:
    return [
        *map(csv_cell, _texts(a)), a.outcome.value,
        *map(csv_cell, (a.input, a.feedback, a.kc)),
        str(a.attempt_at_step), "1" if a.first_attempt else "0", str(a.hints),
        repr(a.duration), "" if a.expected is None else str(a.expected),
        "" if a.answered is None else str(a.answered),
    ]


def _datashop_row(a: Attempt) -> list[str]:
    return [
        *map(_tsv_cell, _texts(a)), a.outcome.value,
        *map(_tsv_cell, (a.input, a.feedback, a.kc)),
        str(a.attempt_at_step), repr(a.duration),
    ]


def _write(path: Path, lines: Iterable[str]) -> int:
    tmp = path.with_name(path.name + ".tmp")
    count = -1  # the header is not a row
    with tmp.open("w", encoding="utf-8", newline="") as fh:
        for line in lines:
            fh.write(line)
            count += 1
    tmp.replace(path)  # a half-written export never replaces a good one
    return count


def _csv_lines(rows: Iterable[list[str]]) -> Iterable[str]:
    yield ",".join(SEALED_CSV_COLUMNS) + "\n"
    buf = io.StringIO()
    writer = csv.writer(buf, quoting=csv.QUOTE_ALL, lineterminator="\n")
    for row in rows:
        writer.writerow(row)
        yield buf.getvalue()
        buf.seek(0)
        buf.truncate()


def write_csv(path: Path, attempts: Iterable[Attempt]) -> int:
    """Write attempts as CSV with the columns :data:`SEALED_CSV_COLUMNS` (each row sealed:
    :mod:`tutor.storage.seal`); return the number of rows."""
    return _write(path, _csv_lines(sealed(map(_csv_row, attempts))))


def _datashop_lines(rows: Iterable[list[str]]) -> Iterable[str]:
    # Not the csv module: no value holds a tab or a line break any more (see the module's
    # docstring), and DataShop reads values as they are, without quotes.
    yield "\t".join(DATASHOP_COLUMNS) + "\n"
    for row in rows:
        yield "\t".join(row) + "\n"


def write_datashop(path: Path, attempts: Iterable[Attempt]) -> int:
    """Write attempts as tab-separated DataShop columns; return the number of rows."""
    return _write(path, _datashop_lines(map(_datashop_row, attempts)))


class _BadRow(Exception):
    """What is wrong with one row (turned into a ProgressImportError naming the line)."""

    def __init__(self, problem: Message | tuple[Message, ...]) -> None:
        super().__init__(problem)
        self.problem = problem


_WHOLE = re.compile(r"[+-]?[0-9]+")
_DECIMAL = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")
_LONGEST_NUMBER = 40  # characters; a longer number is out of every range in LIMITS


def _shortened(text: str) -> str:
    return text if len(text) <= _LONGEST_NUMBER else text[:_LONGEST_NUMBER // 2] + "…"


def _int(text: str, column: str, message: str, optional: bool = False) -> int | None:
    """A whole number written as the export writes it (ASCII digits, no ``_`` or spaces)."""
    if optional and text == "":
        return None
    if not _WHOLE.fullmatch(text):
        raise _BadRow(Message(message, value=repr(_shortened(text))))
    if len(text) > _LONGEST_NUMBER:
        raise _BadRow(out_of_range(column, _shortened(text)))
    return int(text)


def _parse_row(values: list[str], datashop: bool) -> Attempt:
    uncell = _tsv_uncell if datashop else _csv_uncell
    text = {name: uncell(values[i]) for i, name in enumerate(("student", "session", "time",
            "lesson", "problem", "step", "outcome", "input", "feedback", "kc"))}
    try:
        outcome = Outcome(values[6])
    except ValueError:
        raise _BadRow(Message(N_("the outcome {value} is not one of: {choices}"),
                              value=repr(_shortened(values[6])),
                              choices=", ".join(o.value for o in Outcome))) from None
    attempt_at_step = _int(values[10], "attempt_at_step",
                           N_("the attempt number {value} is not a whole number"))
    assert attempt_at_step is not None
    duration_text = values[11] if datashop else values[13]
    duration = float(duration_text) if _DECIMAL.fullmatch(duration_text) else math.nan
    if not math.isfinite(duration):  # also "inf", "nan" and "1e400" (too large: inf)
        raise _BadRow(Message(DURATION_NOT_SECONDS, value=repr(_shortened(duration_text))))
    if datashop:
        first, hints, expected, answered = attempt_at_step == 1, 0, None, None
    else:
        if values[11] not in ("0", "1"):
            raise _BadRow(Message(N_("first_attempt must be 1 or 0, not {value}"),
                                  value=repr(_shortened(values[11]))))
        first = values[11] == "1"
        hints_value = _int(values[12], "hints",
                           N_("the number of hints {value} is not a whole number"))
        assert hints_value is not None
        hints = hints_value
        expected = _int(values[14], "expected",
                        N_("the expected value {value} is not a whole number"), optional=True)
        answered = _int(values[15], "answered",
                        N_("the answered value {value} is not a whole number"), optional=True)
    a = Attempt(text["student"], text["session"], text["time"], text["lesson"],
                text["problem"], text["step"], outcome, text["input"], text["feedback"],
                text["kc"], attempt_at_step, first, hints, duration, expected, answered)
    problems = tuple(check_attempt(a))
    if problems:
        raise _BadRow(problems)
    return a


_AT_LINE = N_("{file}, line {line}: {problem}.")


@dataclass(frozen=True)
class ProgressRows:
    """A progress export read and checked: its attempts, the line each ends on, and what its
    seal says (:mod:`tutor.storage.seal`; a DataShop export or an unsealed CSV has none)."""

    attempts: list[Attempt]
    lines: list[int]
    """The line of the file each attempt ends on (a value may hold line breaks)."""
    seal: SealCheck
    datashop: bool = False


def read_attempts(path: Path, lang: str = SOURCE_LANG) -> list[Attempt]:
    """Read and check a CSV or DataShop export (told apart by its header line).

    Raises :class:`ProgressImportError` naming the line and the problem (in ``lang``);
    returns the attempts only if every row is good. The seal is not looked at (see
    :func:`read_progress`).
    """
    return read_progress(path, lang).attempts


def read_progress(path: Path, lang: str = SOURCE_LANG) -> ProgressRows:
    """:func:`read_attempts`, with each attempt's line and what the file's seal says."""
    name = path.name

    def error(msgid: str, **params: object) -> ProgressImportError:
        return ProgressImportError(msgid, file=name, lang=lang, **params)

    too_large = N_("{file} is too large for a progress export (more than {size} B).")
    try:
        if path.stat().st_size > MAX_IMPORT_BYTES:
            raise error(too_large, size=MAX_IMPORT_BYTES)
        with path.open("rb") as fh:  # at most the limit, whatever the file (a pipe, a device)
            data = fh.read(MAX_IMPORT_BYTES + 1)
    except OSError as err:
        raise error(N_("Cannot read {file}: {error}."), error=err.strerror or str(err)) from err
    return parse_progress(data, name, lang)


def parse_attempts(data: bytes, name: str, lang: str = SOURCE_LANG) -> list[Attempt]:
    """Check the bytes of a CSV or DataShop export, as :func:`read_attempts` does a file's;
    ``name`` is only what the messages call it (an upload's name is data, never a path)."""
    return parse_progress(data, name, lang).attempts


def parse_progress(data: bytes, name: str, lang: str = SOURCE_LANG) -> ProgressRows:
    """:func:`parse_attempts`, with each attempt's line and what the file's seal says."""

    def error(msgid: str, **params: object) -> ProgressImportError:
        return ProgressImportError(msgid, file=name, lang=lang, **params)

    if len(data) > MAX_IMPORT_BYTES:
        raise error(N_("{file} is too large for a progress export (more than {size} B)."),
                    size=MAX_IMPORT_BYTES)
    for bom, encoding in _OTHER_BOMS:
        if data.startswith(bom):
            raise error(N_("{file} is {encoding} text, not UTF-8: save it again as UTF-8 (in "
                           "a spreadsheet: CSV UTF-8) and import that."), encoding=encoding)
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        line = data[: err.start].count(b"\n") + 1
        raise error(N_("{file}, line {line}: this is not UTF-8 text, so not a progress export."),
                    line=line) from None
    if "\x00" in text:
        line = text[: text.index("\x00")].count("\n") + 1
        raise error(N_("{file}, line {line}: the file contains binary data (NUL)."), line=line)
    first_line = text.split("\n", 1)[0].rstrip("\r")
    datashop = "\t" in first_line
    reader = csv.reader(io.StringIO(text, newline=""), delimiter="\t" if datashop else ",")
    attempts: list[Attempt] = []
    lines: list[int] = []
    seals: list[tuple[int, Sequence[str], str]] = []
    try:
        header = next(reader, None)
        columns = _columns(header, datashop)
        if columns is None:
            raise error(N_("{file}, line 1: the header is not that of a progress export; "
                           "expected the columns {csv} (CSV) or {datashop} (tab-separated "
                           "DataShop)."),
                        csv=", ".join(SEALED_CSV_COLUMNS), datashop=", ".join(DATASHOP_COLUMNS))
        has_seal = columns == SEALED_CSV_COLUMNS
        for values in reader:
            if not values or values == [""]:
                continue
            if len(values) != len(columns):
                raise error(N_("{file}, line {line}: expected {expected} values, found "
                               "{found}."),
                            line=reader.line_num, expected=len(columns), found=len(values))
            try:
                attempts.append(_parse_row(values, datashop))
            except _BadRow as bad:
                raise error(_AT_LINE, line=reader.line_num, problem=bad.problem) from None
            lines.append(reader.line_num)
            if has_seal:
                seals.append((reader.line_num, values[:-1], values[-1]))
    except csv.Error as err:
        if "field larger than field limit" in str(err):
            problem = Message(N_("a value is longer than {limit} characters"),
                              limit=csv.field_size_limit())
        else:
            problem = Message(N_("this line cannot be read ({error})"), error=str(err))
        raise error(_AT_LINE, line=reader.line_num, problem=problem) from None
    seal = check_seals(seals) if has_seal else SealCheck(False)
    return ProgressRows(attempts, lines, seal, datashop)


def _columns(header: list[str] | None, datashop: bool) -> tuple[str, ...] | None:
    """The columns a header names: a DataShop export's, a sealed CSV export's, or (an older
    tutor's, or one whose seal column was removed) an unsealed one's; None for any other."""
    found = None if header is None else tuple(header)
    choices = (DATASHOP_COLUMNS,) if datashop else (SEALED_CSV_COLUMNS, CSV_COLUMNS)
    return found if found in choices else None


# Byte order marks of encodings other than UTF-8 (UTF-32 first: its little-endian mark
# starts like UTF-16's).
_OTHER_BOMS = ((codecs.BOM_UTF32_LE, "UTF-32"), (codecs.BOM_UTF32_BE, "UTF-32"),
               (codecs.BOM_UTF16_LE, "UTF-16"), (codecs.BOM_UTF16_BE, "UTF-16"))
