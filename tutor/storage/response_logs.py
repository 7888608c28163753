"""Response logs of other tutors, read for fitting knowledge tracing (``fit-bkt``).

Two kinds of file besides the tutor's own exports (:mod:`tutor.storage.store_files`):

* a **DataShop transaction export** (tab-separated, DataShop's column names: ``Anon
  Student Id``, ``Problem Name``, ``Step Name``, ``Attempt At Step``, ``Outcome``, ``KC
  (…)``, ``Time`` …): each step's first attempt is one answer (``CORRECT`` right; ``INCORRECT``,
  ``HINT``, ``BUG`` or ``ERROR`` wrong), about each skill of its KC column (several are
  separated by ``~~``), in the order of ``Time``;
* a **table** (CSV, or TSV, or ``;``-separated) with one answer a row: the student, the
  skill and whether the answer was right, with an optional order or time column and an
  optional item. The columns are found from the header by their usual names
  (:data:`COLUMN_NAMES`: ``user_id``, ``skill_name``, ``correct`` for ASSISTments;
  ``Anon Student Id``, ``KC(Default)``, ``Correct First Attempt`` for a DataShop step
  rollup or the KDD Cup files …) or named by the caller (:class:`Columns`). With an item
  column, only a student's first answer at an item counts (a later row at the same item is a
  retry).

A file is read as a stream: only the answers it keeps are held (a byte a answer, and its
order and item when those columns are used), never the rows. Every row left out is counted
by reason, with the first line where it happened (:class:`Skipped`). A file that cannot be
read as such (no skill column, say) raises :class:`LogError`, one sentence naming the file
and the column.
"""

from __future__ import annotations

import codecs
import csv
import io
import math
import re
from array import array
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from tutor.i18n import N_, SOURCE_LANG, Message, TranslatableError
from tutor.storage.records import CSV_COLUMNS, DATASHOP_COLUMNS, KC_SEPARATOR
from tutor.storage.store_files import SEALED_CSV_COLUMNS

if TYPE_CHECKING:
    from _csv import Reader as _CsvReader

__all__ = ["COLUMN_NAMES", "ROLES", "SKIP_REASONS", "Columns", "LogError", "LogKind",
           "ResponseLog", "Skipped", "log_kind", "read_logs"]

LogKind = Literal["progress", "datashop", "table"]
Role = Literal["student", "skill", "correct", "order", "item"]
ROLES: tuple[Role, ...] = ("student", "skill", "correct", "order", "item")


def _key(name: str) -> str:
    """A column name as compared: lower case, letters and digits only."""
    return re.sub(r"[^0-9a-z]", "", name.lower())


COLUMN_NAMES: dict[Role, tuple[str, ...]] = {
    "student": ("user_id", "Anon Student Id", "student_id", "student", "user", "learner_id",
                "learner", "student_name", "estudiante", "alumno"),
    "skill": ("skill_name", "KC (Default)", "skill", "skill_id", "kc", "knowledge_component",
              "kc_id", "skills", "habilidad"),
    "correct": ("correct", "Correct First Attempt", "First Attempt", "is_correct", "right",
                "answered_correctly", "correcto", "acierto"),
    "order": ("order_id", "order", "First Transaction Time", "Time", "timestamp",
              "start_time", "time", "datetime", "date", "orden", "fecha", "hora"),
    "item": ("item_id", "item", "problem_id", "Problem Name", "problem", "question_id",
             "question", "assistment_id", "pregunta", "problema"),
}
"""The header names each column is found by, in order of preference (compared in lower case,
letters and digits only: ``KC(Default)`` is ``KC (Default)``)."""

_RIGHT_WORDS = frozenset({"1", "1.0", "true", "t", "yes", "y", "correct", "right", "ok",
                          "sí", "si", "s", "v", "verdadero", "correcto", "correcta", "bien"})
_WRONG_WORDS = frozenset({"0", "0.0", "false", "f", "no", "n", "incorrect", "wrong", "hint",
                          "bug", "error", "falso", "incorrecto", "incorrecta", "mal", "pista"})
"""How a right or a wrong answer is written (in lower case; DataShop's outcomes, and English
and Spanish words)."""

SKIP_REASONS: dict[str, str] = {
    "no_student": N_("no student"),
    "no_skill": N_("no skill"),
    "not_right_or_wrong": N_("not marked right or wrong"),
    "no_order": N_("no order or time that can be read"),
    "later_attempt": N_("a later attempt at a step (only first attempts count)"),
    "repeat_item": N_("an item the student had answered before (only first answers count)"),
    "short_row": N_("fewer values than the header has columns"),
}
"""Why a row was left out: the key written to ``fit-bkt --json``, and its words."""

_DATASHOP_NEEDS = ("Anon Student Id", "Attempt At Step", "Outcome")


class LogError(TranslatableError):
    """A response log that cannot be read as one (no skill column, not text …)."""


@dataclass(frozen=True)
class Columns:
    """The columns the caller named (``None``: found from the header)."""

    student: str | None = None
    skill: str | None = None
    correct: str | None = None
    order: str | None = None
    item: str | None = None

    def named(self, role: Role) -> str | None:
        value: str | None = getattr(self, role)
        return value


@dataclass
class Skipped:
    """Rows left out for one reason: how many, and the first (file, line, the value that
    could not be read)."""

    rows: int = 0
    file: str = ""
    line: int = 0
    value: str | None = None


@dataclass
class _Sequence:
    codes: bytearray = field(default_factory=bytearray)
    order: array[float] | None = None
    items: array[int] | None = None


@dataclass
class ResponseLog:
    """What the files hold: per skill, per student, the first answers (1 right, 0 wrong) in
    order; and what was left out, by reason (:data:`SKIP_REASONS`)."""

    answers: int = 0
    """Answers kept (one a skill of a row)."""
    rows: int = 0
    """Data rows read."""
    skipped: dict[str, Skipped] = field(default_factory=dict)
    columns: dict[str, dict[str, str]] = field(default_factory=dict)
    """Per file: the column used for each role."""
    _seqs: dict[str, dict[str, _Sequence]] = field(default_factory=dict)
    _items: dict[str, int] = field(default_factory=dict)

    def sequences(self) -> dict[str, list[bytes]]:
        """Per skill (in the order first seen), each student's answers in order; with an
        item column, each item's first answer only (the others are counted as skipped
        ``repeat_item``, once)."""
        out: dict[str, list[bytes]] = {}
        repeats = 0
        for skill, by in self._seqs.items():
            out[skill] = []
            for s in by.values():
                codes = _ordered(s)
                repeats += len(s.codes) - len(codes)
                out[skill].append(codes)
        if repeats and "repeat_item" not in self.skipped:
            self.skipped["repeat_item"] = Skipped(repeats)
            self.answers -= repeats
        return out

    def students(self) -> int:
        return len({st for by in self._seqs.values() for st in by})

    def _skip(self, reason: str, file: str, line: int, value: str | None = None) -> None:
        s = self.skipped.setdefault(reason, Skipped(0, file, line, value))
        s.rows += 1


def _ordered(s: _Sequence) -> bytes:
    """The answers in order (stable: ties keep the file's order), each item's first only."""
    if s.order is None and s.items is None:
        return bytes(s.codes)
    n = len(s.codes)
    idx = sorted(range(n), key=s.order.__getitem__) if s.order is not None else range(n)
    if s.items is None:
        return bytes(s.codes[i] for i in idx)
    seen: set[int] = set()
    out = bytearray()
    for i in idx:
        item = s.items[i]
        if item not in seen:
            seen.add(item)
            out.append(s.codes[i])
    return bytes(out)


# -- reading --------------------------------------------------------------------------------

_BOMS = ((codecs.BOM_UTF32_LE, "utf-32"), (codecs.BOM_UTF32_BE, "utf-32"),
         (codecs.BOM_UTF16_LE, "utf-16"), (codecs.BOM_UTF16_BE, "utf-16"))


def _open(path: Path, lang: str) -> io.TextIOWrapper:
    try:
        fh = path.open("rb")
        start = fh.read(4)
        fh.seek(0)
    except OSError as err:
        raise LogError(N_("Cannot read {file}: {error}."), file=path.name,
                       error=err.strerror or str(err), lang=lang) from err
    encoding = next((enc for bom, enc in _BOMS if start.startswith(bom)), "utf-8-sig")
    return io.TextIOWrapper(fh, encoding=encoding, newline="")


def _header(path: Path, lang: str) -> tuple[list[str], str]:
    """The header's names and the separator (tab, ``;`` or ``,``: the most frequent)."""
    with _open(path, lang) as fh:
        try:
            first = fh.readline()
        except UnicodeDecodeError:
            raise LogError(N_("{file}, line {line}: this is not UTF-8 text."), file=path.name,
                           line=1, lang=lang) from None
    line = first.rstrip("\r\n")
    if not line.strip():
        raise LogError(N_("{file} is empty: its first line should name the columns."),
                       file=path.name, lang=lang)
    sep = max(("\t", ";", ","), key=lambda c: (line.count(c), c == ","))
    if sep == "\t":
        names = line.split("\t")
    else:
        names = next(csv.reader([line], delimiter=sep))
    return [n.strip() for n in names], sep


def log_kind(path: Path, lang: str = SOURCE_LANG) -> LogKind:
    """``progress`` (the tutor's own CSV or DataShop export), ``datashop`` (a DataShop
    transaction export) or ``table`` (anything else: columns found by name)."""
    names, _sep = _header(path, lang)
    if tuple(names) in (SEALED_CSV_COLUMNS, CSV_COLUMNS, DATASHOP_COLUMNS):
        return "progress"
    keys = {_key(n) for n in names}
    if all(_key(n) in keys for n in _DATASHOP_NEEDS):
        return "datashop"
    return "table"


def _find(names: list[str], role: Role, columns: Columns, kind: LogKind, file: str,
          lang: str) -> int | None:
    """The index of ``role``'s column (None for a missing optional one)."""
    keys = [_key(n) for n in names]
    named = columns.named(role)
    if named is not None:
        if _key(named) not in keys:
            raise LogError(N_("{file} has no column {column}; its columns are: {columns}."),
                           file=file, column=repr(named), columns=", ".join(names), lang=lang)
        return keys.index(_key(named))
    if kind == "datashop" and role == "skill":
        kcs = [i for i, k in enumerate(keys) if k.startswith("kc") and not
               k.startswith("kccategory")]
        found = keys.index("kcdefault") if "kcdefault" in keys else kcs[0] if kcs else None
    elif kind == "datashop" and role == "correct":
        found = keys.index("outcome")
    elif kind == "datashop" and role == "order":
        found = keys.index("time") if "time" in keys else None
    elif kind == "datashop" and role == "item":
        found = None  # a step is (problem, step): see _datashop_item
    else:
        found = next((keys.index(_key(c)) for c in COLUMN_NAMES[role] if _key(c) in keys), None)
    if found is None and role in ("student", "skill", "correct"):
        flag = f"--{role}"
        what = Message({"student": N_("student"), "skill": N_("skill"),
                        "correct": N_("right or wrong")}[role])
        raise LogError(N_("{file} has no {what} column: none of its columns ({columns}) has "
                          "one of the usual names ({names}). Name it with {flag} COLUMN."),
                       file=file, what=what, columns=", ".join(names) or "—",
                       names=", ".join(COLUMN_NAMES[role]), flag=flag, lang=lang)
    return found


def _order_value(text: str) -> float:
    """A number, or a date and time (as seconds); NaN if neither."""
    text = text.strip()
    try:
        return float(text)
    except ValueError:
        pass
    try:
        when = datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        return math.nan
    if when.tzinfo is None:
        when = when.replace(tzinfo=timezone.utc)
    return when.timestamp()


def read_logs(paths: list[Path], columns: Columns = Columns(), lang: str = SOURCE_LANG,
              log: ResponseLog | None = None) -> ResponseLog:
    """Read DataShop exports and tables (:func:`log_kind` tells them apart; the tutor's own
    exports are read by :func:`tutor.storage.store_files.read_attempts`) into one
    :class:`ResponseLog`; a student's answers in several files follow the files' order."""
    log = ResponseLog() if log is None else log
    for path in paths:
        _read(path, columns, lang, log)
    return log


def _rows(fh: io.TextIOWrapper, sep: str) -> _CsvReader:
    if sep == "\t":  # values are not quoted in a tab-separated file (DataShop's)
        return csv.reader(fh, delimiter="\t", quoting=csv.QUOTE_NONE)
    return csv.reader(fh, delimiter=sep)


def _read(path: Path, columns: Columns, lang: str, log: ResponseLog) -> None:
    kind = log_kind(path, lang)
    file = path.name
    if kind == "progress":
        raise LogError(N_("{file} is a progress file of this tutor, not another tutor's log."),
                       file=file, lang=lang)
    names, sep = _header(path, lang)
    col = {role: _find(names, role, columns, kind, file, lang) for role in ROLES}
    log.columns[file] = {role: names[i] for role, i in col.items() if i is not None}
    student_i, skill_i, correct_i = col["student"], col["skill"], col["correct"]
    assert student_i is not None and skill_i is not None and correct_i is not None
    order_i, item_i = col["order"], col["item"]
    keys = [_key(n) for n in names]
    attempt_i = keys.index("attemptatstep") if kind == "datashop" else None
    need = max(i for i in (student_i, skill_i, correct_i, order_i, item_i, attempt_i)
               if i is not None) + 1
    seqs, items = log._seqs, log._items
    line = 1
    with _open(path, lang) as fh:
        reader = _rows(fh, sep)
        try:
            next(reader, None)  # the header
            for values in reader:
                line = reader.line_num
                if not values or values == [""]:
                    continue
                log.rows += 1
                if len(values) < need:
                    log._skip("short_row", file, line)
                    continue
                if attempt_i is not None and values[attempt_i].strip() != "1":
                    log._skip("later_attempt", file, line)
                    continue
                student = values[student_i].strip()
                if not student:
                    log._skip("no_student", file, line)
                    continue
                skills = [s.strip() for s in values[skill_i].split(KC_SEPARATOR) if s.strip()]
                if not skills:
                    log._skip("no_skill", file, line)
                    continue
                word = values[correct_i].strip().lower()
                if word in _RIGHT_WORDS:
                    code = 1
                elif word in _WRONG_WORDS:
                    code = 0
                else:
                    log._skip("not_right_or_wrong", file, line, values[correct_i].strip())
                    continue
                order = math.nan
                if order_i is not None:
                    order = _order_value(values[order_i])
                    if math.isnan(order):
                        log._skip("no_order", file, line, values[order_i].strip())
                        continue
                item = (items.setdefault(values[item_i].strip(), len(items))
                        if item_i is not None else -1)
                for skill in dict.fromkeys(skills):
                    by = seqs.setdefault(skill, {})
                    s = by.get(student)
                    if s is None:
                        s = by[student] = _Sequence(
                            order=array("d") if order_i is not None else None,
                            items=array("q") if item_i is not None else None)
                    s.codes.append(code)
                    if s.order is not None:
                        s.order.append(order)
                    if s.items is not None:
                        s.items.append(item)
                    log.answers += 1
        except UnicodeDecodeError:
            raise LogError(N_("{file}, line {line}: this is not UTF-8 text."), file=file,
                           line=line + 1, lang=lang) from None
        except csv.Error as err:
            raise LogError(N_("{file}, line {line}: this line cannot be read ({error})."),
                           file=file, line=line, error=str(err), lang=lang) from None
