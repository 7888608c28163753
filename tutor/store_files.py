"""Progress files for teachers: CSV and DataShop-style tab-separated export, checked import."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Sequence
from pathlib import Path

from tutor.i18n import N_, SOURCE_LANG, Message
from tutor.store import (
    CSV_COLUMNS,
    DATASHOP_COLUMNS,
    DURATION_NOT_SECONDS,
    Attempt,
    Outcome,
    ProgressImportError,
    check_attempt,
)

__all__ = ["MAX_IMPORT_BYTES", "read_attempts", "write_csv", "write_datashop"]

MAX_IMPORT_BYTES = 200 * 1024 * 1024
# A spreadsheet runs a cell that starts with one of these as a formula; a leading "'" stops it
# (and is removed again on import, so files round-trip exactly).
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r", "'")
_TEXT = ("student", "session", "lesson", "problem", "step", "input", "feedback", "kc")


def _cell(value: str) -> str:
    return "'" + value if value.startswith(_FORMULA_START) else value


def _uncell(value: str) -> str:
    return value[1:] if value.startswith("'") else value


def _csv_row(a: Attempt) -> list[str]:
    return [
        _cell(a.student), _cell(a.session), a.time, _cell(a.lesson), _cell(a.problem),
        _cell(a.step), a.outcome.value, _cell(a.input), _cell(a.feedback), _cell(a.kc),
        str(a.attempt_at_step), "1" if a.first_attempt else "0", str(a.hints),
        repr(a.duration), "" if a.expected is None else str(a.expected),
        "" if a.answered is None else str(a.answered),
    ]


def _datashop_row(a: Attempt) -> list[str]:
    return [
        _cell(a.student), _cell(a.session), a.time, _cell(a.lesson), _cell(a.problem),
        _cell(a.step), a.outcome.value, _cell(a.input), _cell(a.feedback), _cell(a.kc),
        str(a.attempt_at_step), repr(a.duration),
    ]


def _write(path: Path, header: Sequence[str], rows: Iterable[list[str]], delimiter: str) -> int:
    tmp = path.with_name(path.name + ".tmp")
    count = 0
    with tmp.open("w", encoding="utf-8", newline="") as fh:
        writer = csv.writer(fh, delimiter=delimiter, lineterminator="\n")
        writer.writerow(header)
        for row in rows:
            writer.writerow(row)
            count += 1
    tmp.replace(path)  # a half-written export never replaces a good one
    return count


def write_csv(path: Path, attempts: Iterable[Attempt]) -> int:
    """Write attempts as CSV with the columns ``CSV_COLUMNS``; return the number of rows."""
    return _write(path, CSV_COLUMNS, map(_csv_row, attempts), ",")


def write_datashop(path: Path, attempts: Iterable[Attempt]) -> int:
    """Write attempts as tab-separated DataShop columns; return the number of rows."""
    return _write(path, DATASHOP_COLUMNS, map(_datashop_row, attempts), "\t")


class _BadRow(Exception):
    """What is wrong with one row (turned into a ProgressImportError naming the line)."""

    def __init__(self, problem: Message | tuple[Message, ...]) -> None:
        super().__init__(problem)
        self.problem = problem


def _int(text: str, message: str, optional: bool = False) -> int | None:
    if optional and text == "":
        return None
    try:
        return int(text)
    except ValueError:
        raise _BadRow(Message(message, value=repr(text))) from None


def _parse_row(values: list[str], datashop: bool) -> Attempt:
    text = {name: _uncell(values[i]) for i, name in enumerate(("student", "session", "time",
            "lesson", "problem", "step", "outcome", "input", "feedback", "kc"))}
    try:
        outcome = Outcome(values[6])
    except ValueError:
        raise _BadRow(Message(N_("the outcome {value} is not one of: {choices}"),
                              value=repr(values[6]),
                              choices=", ".join(o.value for o in Outcome))) from None
    attempt_at_step = _int(values[10], N_("the attempt number {value} is not a whole number"))
    assert attempt_at_step is not None
    duration_text = values[11] if datashop else values[13]
    try:
        duration = float(duration_text)
    except ValueError:
        raise _BadRow(Message(DURATION_NOT_SECONDS, value=repr(duration_text))) from None
    if datashop:
        first, hints, expected, answered = attempt_at_step == 1, 0, None, None
    else:
        if values[11] not in ("0", "1"):
            raise _BadRow(Message(N_("first_attempt must be 1 or 0, not {value}"),
                                  value=repr(values[11])))
        first = values[11] == "1"
        hints_value = _int(values[12], N_("the number of hints {value} is not a whole number"))
        assert hints_value is not None
        hints = hints_value
        expected = _int(values[14], N_("the expected value {value} is not a whole number"),
                        optional=True)
        answered = _int(values[15], N_("the answered value {value} is not a whole number"),
                        optional=True)
    a = Attempt(text["student"], text["session"], values[2], text["lesson"], text["problem"],
                text["step"], outcome, text["input"], text["feedback"], text["kc"],
                attempt_at_step, first, hints, duration, expected, answered)
    problems = tuple(check_attempt(a))
    if problems:
        raise _BadRow(problems)
    return a


_AT_LINE = N_("{file}, line {line}: {problem}.")


def read_attempts(path: Path, lang: str = SOURCE_LANG) -> list[Attempt]:
    """Read and check a CSV or DataShop export (told apart by its header line).

    Raises :class:`ProgressImportError` naming the line and the problem (in ``lang``);
    returns the attempts only if every row is good.
    """
    name = path.name

    def error(msgid: str, **params: object) -> ProgressImportError:
        return ProgressImportError(msgid, file=name, lang=lang, **params)

    try:
        size = path.stat().st_size
        if size > MAX_IMPORT_BYTES:
            raise error(N_("{file} is too large for a progress export ({size} B)."), size=size)
        data = path.read_bytes()
    except OSError as err:
        raise error(N_("Cannot read {file}: {error}."), error=err.strerror or str(err)) from err
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
    columns = DATASHOP_COLUMNS if datashop else CSV_COLUMNS
    reader = csv.reader(io.StringIO(text, newline=""), delimiter="\t" if datashop else ",")
    attempts: list[Attempt] = []
    try:
        header = next(reader, None)
        if header is None or tuple(header) != columns:
            raise error(N_("{file}, line 1: the header is not that of a progress export; "
                           "expected the columns {csv} (CSV) or {datashop} (tab-separated "
                           "DataShop)."),
                        csv=", ".join(CSV_COLUMNS), datashop=", ".join(DATASHOP_COLUMNS))
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
    except csv.Error as err:
        raise error(_AT_LINE, line=reader.line_num, problem=str(err)) from None
    return attempts
