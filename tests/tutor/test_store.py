"""Tests for tutor.storage.store: paths, schema checks, crash safety, mastery, export/import round
trips."""

from __future__ import annotations

import csv
import io
import os
import re
import signal
import sqlite3
import subprocess
import sys
import textwrap
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import pytest

from tutor.session.saving import load_mastery, save_mastery
from tutor.storage.store import (
    CSV_COLUMNS,
    DATASHOP_COLUMNS,
    ENV_VAR,
    MASTERY_COLUMNS,
    SCHEMA_VERSION,
    Attempt,
    Outcome,
    ProgressImportError,
    Store,
    StoreAddressError,
    StoreError,
    default_location,
    default_path,
    is_database_address,
)
from tutor.teaching.mastery import Mastery

ROOT = Path(__file__).resolve().parents[2]

Db = Callable[[str], str]


@pytest.fixture
def db(store_urls: Callable[[], str]) -> Db:
    """``db(name)``: the address of a fresh store called ``name`` in this test (the same
    address for the same name), on SQLite and on PostgreSQL (the conftest's ``store_urls``)."""
    made: dict[str, str] = {}

    def address(name: str) -> str:
        if name not in made:
            made[name] = store_urls()
        return made[name]

    return address


def _fill(store: Store) -> None:
    s1 = store.start_session("ana")
    store.record_attempt("ana", s1, lesson="L1", problem="x/3 on 4", step="gain",
                         outcome=Outcome.INCORRECT, input_text="-12", feedback="sign_flip",
                         kc=["multiply", "negative"], duration=4.25, expected=12, answered=-12)
    store.record_attempt("ana", s1, lesson="L1", problem="x/3 on 4", step="gain",
                         outcome="CORRECT", input_text="=4x3", kc="multiply", duration=2.0,
                         expected=12, answered=12)
    store.record_attempt("ana", s1, lesson="L1", problem="x/3 on 4", step="loss", outcome="HINT",
                         input_text="", feedback="", kc="negative", hints=1)
    s2 = store.start_session("beto")
    store.record_attempt("beto", s2, lesson="L2", problem="round end", step="sum",
                         outcome="GIVEUP", input_text="'no sé", kc="add", duration=30.5,
                         expected=37)


def test_path_argument_beats_env_var(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(ENV_VAR, str(tmp_path / "env" / "p.sqlite3"))
    assert default_path() == tmp_path / "env" / "p.sqlite3"
    with Store() as store:
        assert store.path == tmp_path / "env" / "p.sqlite3"
    assert (tmp_path / "env" / "p.sqlite3").is_file()
    with Store(tmp_path / "arg" / "q.sqlite3") as store:
        assert store.path == tmp_path / "arg" / "q.sqlite3"


def test_default_path_without_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv(ENV_VAR, raising=False)
    monkeypatch.setenv("HOME", str(tmp_path))
    expected = tmp_path / ".local/share/leonard-domino-tutor/progress.sqlite3"
    assert default_path() == expected
    Store().close()
    assert expected.is_file()


def test_wal_busy_timeout_and_schema_version(tmp_path: Path) -> None:
    with Store(tmp_path / "p.sqlite3") as store:
        assert store.db.conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert store.db.conn.execute("PRAGMA busy_timeout").fetchone()[0] == 5000
        assert store.db.conn.execute("SELECT version FROM schema_version").fetchone()[0] == \
            SCHEMA_VERSION


def test_refuses_files_it_does_not_own(tmp_path: Path) -> None:
    text = tmp_path / "notes.txt"
    text.write_text("hello, not a database\n" * 10)
    with pytest.raises(StoreError, match="not an SQLite database"):
        Store(text)
    foreign = tmp_path / "other.sqlite3"
    with sqlite3.connect(foreign) as conn:
        conn.execute("CREATE TABLE recipes (name TEXT)")
    with pytest.raises(StoreError, match="another program"):
        Store(foreign)
    newer = tmp_path / "newer.sqlite3"
    Store(newer).close()
    with sqlite3.connect(newer) as conn:
        conn.execute(f"UPDATE schema_version SET version = {SCHEMA_VERSION + 1}")
    with pytest.raises(StoreError, match=f"version {SCHEMA_VERSION + 1}.*Update the tutor"):
        Store(newer)
    garbage = tmp_path / "garbage.sqlite3"
    garbage.write_bytes(b"SQLite format 3\x00" + os.urandom(4096))
    with pytest.raises(StoreError):
        Store(garbage)


def test_record_attempt_counts_attempts_at_a_step(tmp_path: Path, db: Db) -> None:
    with Store(db("p")) as store:
        _fill(store)
        rows = store.attempts("ana")
        assert [(a.attempt_at_step, a.first_attempt) for a in rows] == [(1, True), (2, False),
                                                                        (1, True)]
        assert rows[0].kc == "multiply~~negative"
        assert rows[0].outcome is Outcome.INCORRECT
        assert store.students() == ["ana", "beto"]
        with pytest.raises(StoreError, match="not one of"):
            store.record_attempt("ana", "s", lesson="L", problem="p", step="s", outcome="MAYBE")


def test_mastery_round_trip(tmp_path: Path, db: Db) -> None:
    with Store(db("p")) as store:
        m = Mastery()
        m.record("multiply", True, seconds=3)
        m.record("negative", False, hints_before_answer=1)
        save_mastery(store, "ana", m)
        m.record("multiply", True)
        save_mastery(store, "ana", m)
        assert load_mastery(store, "ana").states == m.states
        assert load_mastery(store, "nobody").states == {}


def test_the_store_keeps_mastery_as_plain_rows(tmp_path: Path, db: Db) -> None:
    """Issue 34 part 3: the store keeps rows (plain values by skill, MASTERY_COLUMNS); the
    teaching code makes them a Mastery (tutor.session.saving.load_mastery)."""
    with Store(db("p")) as store:
        m = Mastery()
        m.record("multiply", True, seconds=3)
        save_mastery(store, "ana", m)
        rows = store.mastery_rows("ana")
        assert list(rows) == ["multiply"]
        assert tuple(rows["multiply"]) == MASTERY_COLUMNS
        assert all(isinstance(v, (str, int, float)) for v in rows["multiply"].values())
        assert rows["multiply"]["asked"] == 1 and rows["multiply"]["total_seconds"] == 3
        assert Mastery.from_dict(rows).states == m.states
        store.save_mastery_rows("beto", {})  # no skill yet: nothing to keep
        assert store.mastery_rows("beto") == {} == store.mastery_rows("nobody")


def test_add_attempt_keeps_the_value_as_given(tmp_path: Path, db: Db) -> None:
    """An attempt built whole (as the tutor builds it at the answer) is stored unchanged,
    and refused whole when a value is out of range."""
    a = Attempt("ana", "s1", "2026-03-02T10:00:00.000001+00:00", "L1", "x/3 on 4",
                "gain[blanks]", Outcome.INCORRECT, "12", "slip", "multiply", 1, True, 0,
                2.5, 24, 12)
    b = Attempt("ana", "s1", "2026-03-02T10:00:01.000001+00:00", "L1", "x/3 on 4",
                "gain[blanks]", Outcome.CORRECT, "24", "correct", "multiply", 2, False, 1,
                4.0, 24, 24)
    with Store(db("p")) as store:
        store.add_attempt(a)
        store.add_attempt(b)
        assert store.attempts("ana") == [a, b]
        for bad in (replace(a, hints=10**20), replace(a, time="2026-03-02T10:00:00"),
                    replace(a, duration=float("inf"))):
            with pytest.raises(StoreError, match="cannot be stored"):
                store.add_attempt(bad)
        assert store.attempts("ana") == [a, b]


CHILD = textwrap.dedent(
    """
    import sys
    from tutor.storage.store import Store
    store = Store(sys.argv[1])
    session = store.start_session("crash")
    i = 0
    while True:
        i += 1
        aid = store.record_attempt("crash", session, lesson="L", problem=f"p{i}", step="s",
                                   outcome="CORRECT", input_text=str(i), kc="add",
                                   expected=i, answered=i)
        print(aid, flush=True)
    """
)


def test_sigkill_mid_write_keeps_every_committed_attempt(tmp_path: Path, db: Db) -> None:
    crash = db("crash")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    child = subprocess.Popen([sys.executable, "-c", CHILD, crash], stdout=subprocess.PIPE,
                             text=True, env=env)
    assert child.stdout is not None
    reported: list[int] = []
    for line in child.stdout:
        reported.append(int(line))
        if len(reported) >= 200:
            break
    child.send_signal(signal.SIGKILL)
    rest, _ = child.communicate(timeout=30)
    reported += [int(x) for x in rest.split()]
    assert child.returncode == -signal.SIGKILL
    with Store(crash) as store:
        assert store.integrity_ok()
        stored = {r[0] for r in store.db.conn.execute("SELECT id FROM attempts")}
    assert set(reported) <= stored
    assert len(reported) >= 200


def test_export_import_round_trip(tmp_path: Path, db: Db) -> None:
    with Store(db("a")) as src:
        _fill(src)
        original = src.attempts()
        assert src.export_csv(tmp_path / "all.csv") == 4
        assert src.export_csv(tmp_path / "ana.csv", student="ana") == 3
        assert src.export_datashop(tmp_path / "all.tsv") == 4
    header = (tmp_path / "all.tsv").read_text(encoding="utf-8").splitlines()[0]
    assert header.split("\t") == list(DATASHOP_COLUMNS)
    assert (tmp_path / "all.csv").read_text().splitlines()[0] == \
        ",".join(CSV_COLUMNS) + ",seal"
    assert "'=4x3" in (tmp_path / "all.csv").read_text()  # no formula runs in a spreadsheet
    with Store(db("b")) as dst:
        assert dst.import_file(tmp_path / "all.csv") == 4
        assert dst.attempts() == original
        assert dst.import_file(tmp_path / "all.csv") == 0  # same file again: nothing changes
        assert dst.import_file(tmp_path / "all.tsv") == 0  # same attempts in the other format
        assert dst.attempts() == original
    with Store(db("c")) as third:
        assert third.import_file(tmp_path / "all.tsv") == 4
        got = third.attempts()
        assert [(a.student, a.time, a.input, a.kc, a.outcome) for a in got] == [
            (a.student, a.time, a.input, a.kc, a.outcome) for a in original]
        assert third.import_file(tmp_path / "ana.csv") == 0


def _good_csv(tmp_path: Path) -> Path:
    with Store(tmp_path / "src.sqlite3") as src:
        _fill(src)
        src.export_csv(tmp_path / "good.csv")
    return tmp_path / "good.csv"


@pytest.mark.parametrize(
    ("mangle", "message"),
    [
        (lambda t: t.replace('"CORRECT"', '"MAYBE"', 1), r"line 3: the outcome 'MAYBE'"),
        (lambda t: "name,score\nana,3\n", r"line 1: the header"),
        (lambda t: t + "ana,1,2\n", r"line 6: expected 17 values, found 3"),
        (lambda t: t.replace("4.25", "soon"), r"line 2: the duration 'soon'"),
        (lambda t: t.replace('"L2"', '"L2\x00"'), r"line 5: .*binary"),
        (lambda t: t.replace("+00:00", "xx", 1), r"line 2: the time"),
        (lambda t: "", r"line 1: the header"),
    ],
)
def test_corrupt_import_changes_nothing(tmp_path: Path, db: Db, mangle,  # type: ignore[no-untyped-def]
                                       message: str) -> None:
    good = _good_csv(tmp_path)
    bad = tmp_path / "bad.csv"
    bad.write_text(mangle(good.read_text(encoding="utf-8")), encoding="utf-8")
    with Store(db("dst")) as dst:
        dst.import_file(good)
        before = dst.attempts()
        with pytest.raises(ProgressImportError, match=message) as info:
            dst.import_file(bad)
        assert isinstance(info.value, ValueError)
        assert dst.attempts() == before


def test_garbage_bytes_and_non_utf8(tmp_path: Path, db: Db) -> None:
    good = _good_csv(tmp_path)
    latin = tmp_path / "latin1.csv"
    latin.write_bytes(good.read_bytes() + "ana,é\n".encode("latin-1"))
    noise = tmp_path / "noise.bin"
    noise.write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(range(256)))
    with Store(db("dst")) as dst:
        with pytest.raises(ProgressImportError, match="line 6: this is not UTF-8"):
            dst.import_file(latin)
        with pytest.raises(ProgressImportError, match="not UTF-8"):
            dst.import_file(noise)
        with pytest.raises(ProgressImportError, match="Cannot read"):
            dst.import_file(tmp_path / "missing.csv")
        assert dst.attempts() == []


def test_corrupt_import_speaks_spanish_and_names_the_line(tmp_path: Path, db: Db) -> None:
    good = _good_csv(tmp_path)
    bad = tmp_path / "malo.csv"
    bad.write_text(good.read_text(encoding="utf-8").replace('"CORRECT"', '"MAYBE"', 1),
                   encoding="utf-8")
    with Store(db("dst")) as dst:
        with pytest.raises(ProgressImportError) as info:
            dst.import_file(bad, lang="es")
        assert str(info.value) == ("malo.csv, línea 3: el resultado 'MAYBE' no es ninguno de "
                                   "estos: CORRECT, INCORRECT, HINT, GIVEUP.")
        # the same error in the other language, and the default language is the store's
        assert info.value.message("en").startswith("malo.csv, line 3: the outcome 'MAYBE'")
        with pytest.raises(ProgressImportError, match="line 3: the outcome"):
            dst.import_file(bad)
        assert dst.attempts() == []
    with Store(db("es"), lang="es") as dst:
        bad.write_text(good.read_text(encoding="utf-8").replace("+00:00", "xx", 1)
                       .replace("4.25", "-1", 1), encoding="utf-8")
        with pytest.raises(ProgressImportError, match=r"^malo\.csv, línea 2: la hora '.*xx' no "
                           r"es una fecha y hora .*; la duración -1\.0 no es un número de "
                           r"segundos\.$"):
            dst.import_file(bad)
        (tmp_path / "cabecera.csv").write_text("nombre,nota\nana,3\n", encoding="utf-8")
        with pytest.raises(ProgressImportError, match=r"^cabecera\.csv, línea 1: el encabezado "
                           "no es el de una exportación de progreso"):
            dst.import_file(tmp_path / "cabecera.csv")


def test_store_errors_in_the_store_language(tmp_path: Path, db: Db) -> None:
    text = tmp_path / "notas.txt"
    text.write_text("hola\n")
    with pytest.raises(StoreError, match=r"^.*notas\.txt no es un archivo de progreso \(no es "
                       r"una base de datos SQLite\)\.$") as info:
        Store(text, lang="es_MX")
    assert info.value.message("en").endswith("is not a progress file (not an SQLite database).")
    with Store(db("p"), lang="es") as store:
        with pytest.raises(StoreError, match="^Cada estudiante necesita un nombre"):
            store.start_session(" ")
        with pytest.raises(StoreError, match="^El resultado 'MAYBE' no es ninguno de estos"):
            store.record_attempt("ana", "s", lesson="L", problem="p", step="s", outcome="MAYBE")


def test_translatable_errors_survive_pickle_and_copy() -> None:
    import copy
    import pickle

    err = ProgressImportError("{file}, line {line}: the file contains binary data (NUL).",
                              file="a.csv", line=4, lang="es")
    for clone in (pickle.loads(pickle.dumps(err)), copy.copy(err)):
        assert type(clone) is ProgressImportError and clone.lang == "es"
        assert str(clone) == str(err) == "a.csv, línea 4: el archivo contiene datos binarios (NUL)."


# Text a spreadsheet would run as a formula, or that would break a line-based reader.
NASTY = ['ana\r=HYPERLINK("http://x")', "=1+1", "-3", "+1", "@x", "\tx", "a\nb", "'quoted",
         "a\r\n-b", "\n=x", "x\ty", "back\\slash", "\\t", '"q"', "'", "''x", "x\r", "plain"]
_LINE_BREAK = re.compile(r"\r\n|\r|\n")
_FORMULA = ("=", "+", "-", "@", "\t", "\r", "\n")


def _nasty_store(path: str) -> list[Attempt]:
    with Store(path) as store:
        for i, text in enumerate(NASTY):
            s = store.start_session(text)
            store.record_attempt(text, s, lesson=text, problem=text, step=text,
                                 outcome="INCORRECT", input_text=text, feedback=text, kc=text,
                                 expected=-5 - i, answered=7, duration=1.5,
                                 time=f"2026-03-02T10:00:{i:02d}.000000+00:00")
        return store.attempts()


def test_csv_quotes_every_field_and_no_line_starts_a_formula(tmp_path: Path, db: Db) -> None:
    original = _nasty_store(db("src"))
    with Store(db("src")) as src:
        assert src.export_csv(tmp_path / "all.csv") == len(NASTY)
    text = (tmp_path / "all.csv").read_text(encoding="utf-8")
    # Every data field is quoted: writing the parsed rows again with QUOTE_ALL gives the file.
    rows = list(csv.reader(io.StringIO(text, newline="")))
    again = io.StringIO()
    again.write(",".join(CSV_COLUMNS) + ",seal\n")
    csv.writer(again, quoting=csv.QUOTE_ALL, lineterminator="\n").writerows(rows[1:])
    assert again.getvalue() == text
    # A reader that splits at every line break (a spreadsheet's, a log viewer's) never sees
    # a line, nor a field, that starts a formula.
    for line in _LINE_BREAK.split(text):
        assert not line.startswith(_FORMULA), repr(line)
        assert not line.startswith(tuple('"' + c for c in _FORMULA)), repr(line)
    with Store(db("dst")) as dst:
        assert dst.import_file(tmp_path / "all.csv") == len(NASTY)
        assert dst.attempts() == original


def test_datashop_keeps_one_attempt_per_line_and_round_trips(tmp_path: Path, db: Db) -> None:
    original = _nasty_store(db("src"))
    with Store(db("src")) as src:
        assert src.export_datashop(tmp_path / "all.tsv") == len(NASTY)
    data = (tmp_path / "all.tsv").read_bytes()
    assert b"\r" not in data
    lines = data.decode("utf-8").split("\n")
    assert lines[-1] == "" and len(lines) == 2 + len(NASTY)
    for line in lines[1:-1]:
        cells = line.split("\t")
        assert len(cells) == len(DATASHOP_COLUMNS)
        assert not any(c.startswith(_FORMULA) for c in cells), repr(line)
    with Store(db("dst")) as dst:
        assert dst.import_file(tmp_path / "all.tsv") == len(NASTY)
        got = dst.attempts()
    keep = ("student", "session", "time", "lesson", "problem", "step", "outcome", "input",
            "feedback", "kc", "attempt_at_step", "duration")
    assert [[getattr(a, k) for k in keep] for a in got] == \
        [[getattr(a, k) for k in keep] for a in original]


@pytest.mark.parametrize(("column", "value", "message"), [
    ("attempt_at_step", str(10**30), r"line 3: the attempt number 1000000000000000000000000000000 "
                                     r"is not between 1 and 10000"),
    ("attempt_at_step", "0", r"line 3: the attempt number 0 is not between 1 and 10000"),
    ("attempt_at_step", "10001", r"the attempt number 10001 is not between"),
    ("attempt_at_step", "1_0", r"the attempt number '1_0' is not a whole number"),
    ("hints", str(10**20), r"line 3: the number of hints 100000000000000000000 is not between "
                           r"0 and 1000"),
    ("hints", "-1", r"the number of hints -1 is not between 0 and 1000"),
    ("duration", "inf", r"the duration 'inf' is not a number of seconds"),
    ("duration", "nan", r"the duration 'nan' is not a number of seconds"),
    ("duration", "1e400", r"the duration '1e400' is not a number of seconds"),
    ("duration", "86400.5", r"the duration in seconds 86400.5 is not between 0 and 86400"),
    ("expected", str(2**63), r"the expected value 9223372036854775808 is not between "
                             r"-1000000000000 and 1000000000000"),
    ("answered", str(-10**13), r"the answered value -10000000000000 is not between"),
    ("time", "2026-03-02T10:00:00", r"the time '2026-03-02T10:00:00' has no time zone"),
    ("student", "x" * 10_001, r"line 3: the value of student is 10001 characters long; at "
                              r"most 10000"),
    ("input", "x" * 200_000, r"line 3: a value is longer than"),
])
def test_import_refuses_numbers_and_text_out_of_range(tmp_path: Path, db: Db, column: str,
                                                      value: str, message: str) -> None:
    good = {"student": "ana", "session": "s1", "time": "2026-03-02T10:00:00+00:00",
            "lesson": "L", "problem": "p", "step": "gain", "outcome": "CORRECT", "input": "12",
            "feedback": "", "kc": "multiply", "attempt_at_step": "1", "first_attempt": "1",
            "hints": "0", "duration": "2.5", "expected": "12", "answered": "12"}
    bad = tmp_path / "bad.csv"
    with bad.open("w", encoding="utf-8", newline="") as fh:
        writer = csv.writer(fh)
        writer.writerow(CSV_COLUMNS)
        writer.writerow(list(good.values()))
        writer.writerow(list({**good, column: value}.values()))
    with Store(db("dst")) as dst:
        with pytest.raises(ProgressImportError, match=message):
            dst.import_file(bad)
        assert dst.attempts() == []


def test_record_attempt_refuses_what_an_import_would_refuse(tmp_path: Path, db: Db) -> None:
    """What the store keeps always exports and imports again."""
    with Store(db("p")) as store:
        s = store.start_session("ana")
        for bad in ({"hints": 10**20}, {"expected": 10**19}, {"duration": float("inf")},
                    {"time": "2026-03-02T10:00:00"}, {"input_text": "x" * 10_001}):
            with pytest.raises(StoreError, match="cannot be stored"):
                store.record_attempt("ana", s, lesson="L", problem="p", step="s",
                                     outcome="CORRECT", **bad)  # type: ignore[arg-type]
        assert store.attempts() == []


def test_record_types_live_apart_from_the_store_and_its_files() -> None:
    """The store and its file formats share tutor.storage.records; the file formats never import the
    store (the import cycle is gone)."""
    import subprocess
    import sys

    code = ("import sys, tutor.storage.store_files, tutor.storage.records; "
            "print('tutor.storage.store' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == "False"


# -- where the store is, and its versions (docs/rules.md §4: the tutor keeps every answer) --------
def test_a_database_address_is_not_taken_for_a_file_name(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``LEONARD_TUTOR_DB=mysql://…`` once became a folder named ``mysql:``; now an address
    of a kind the tutor cannot use is refused with a sentence, and nothing is created."""
    monkeypatch.chdir(tmp_path)
    for address in ("mysql://ana:secret@db.school/tutor", "sqlite:///progress.db"):
        monkeypatch.setenv(ENV_VAR, address)
        with pytest.raises(StoreAddressError, match=r"is a (mysql|sqlite) address, which this "
                           r"tutor cannot use\. Give a file path \(SQLite\) or a "
                           r"postgresql:// address\.") as info:
            Store()
        assert "secret" not in str(info.value)
        assert isinstance(info.value, ValueError)
        with pytest.raises(StoreAddressError):
            default_location()
    assert list(tmp_path.iterdir()) == []
    monkeypatch.setenv(ENV_VAR, "postgresql://ana@127.0.0.1:9/tutor")
    assert is_database_address(default_location())
    assert default_path().name == "progress.sqlite3"  # the default file, not the address
    monkeypatch.setenv(ENV_VAR, str(tmp_path / "p.sqlite3"))
    assert default_location() == tmp_path / "p.sqlite3"
    assert list(tmp_path.iterdir()) == []


def test_an_unreachable_database_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("psycopg")
    import socket

    with socket.socket() as s:  # a port nothing listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    with pytest.raises(StoreError, match=r"^The progress database postgresql://ana:\*\*\*@"
                       r"127\.0\.0\.1:\d+/tutor cannot be reached: "):
        Store(f"postgresql://ana:pw@127.0.0.1:{port}/tutor", busy_timeout=1)


def test_env_var_selects_the_postgresql_store(pg_cluster, monkeypatch: pytest.MonkeyPatch  # type: ignore[no-untyped-def]
                                              ) -> None:
    url = pg_cluster.new_database()
    monkeypatch.setenv(ENV_VAR, url)
    with Store() as store:
        assert store.kind == "postgresql"
        s = store.start_session("ana")
        store.record_attempt("ana", s, lesson="L", problem="p", step="s", outcome="CORRECT")
    with Store(url) as again:
        assert [a.student for a in again.attempts()] == ["ana"]
        assert again.db.conn.execute("SELECT version FROM schema_version").fetchone()[0] == \
            SCHEMA_VERSION


# The tables exactly as the released version 1 created them, before the mastery table had
# streak and scaffolded_right (git show 9990fde:tutor/storage/store.py has them with those columns
# added on open: both kinds of version-1 file must open).
V1_TABLES = (
    "CREATE TABLE schema_version (version INTEGER NOT NULL)",
    "INSERT INTO schema_version VALUES (1)",
    "CREATE TABLE students (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, "
    "created TEXT NOT NULL)",
    "CREATE TABLE sessions (id TEXT PRIMARY KEY, student_id INTEGER NOT NULL REFERENCES "
    "students(id), started TEXT NOT NULL)",
    """CREATE TABLE attempts (id INTEGER PRIMARY KEY,
    student_id INTEGER NOT NULL REFERENCES students(id),
    session TEXT NOT NULL REFERENCES sessions(id),
    time TEXT NOT NULL, lesson TEXT NOT NULL, problem TEXT NOT NULL, step TEXT NOT NULL,
    outcome TEXT NOT NULL CHECK (outcome IN ('CORRECT', 'INCORRECT', 'HINT', 'GIVEUP')),
    input TEXT NOT NULL, feedback TEXT NOT NULL, kc TEXT NOT NULL,
    attempt_at_step INTEGER NOT NULL, first_attempt INTEGER NOT NULL,
    hints INTEGER NOT NULL, duration REAL NOT NULL, expected INTEGER, answered INTEGER,
    UNIQUE (student_id, session, time, lesson, problem, step, outcome, input, feedback, kc,
            attempt_at_step))""",
    """CREATE TABLE mastery (student_id INTEGER NOT NULL REFERENCES students(id),
    skill TEXT NOT NULL, p_known REAL NOT NULL, mastered INTEGER NOT NULL,
    asked INTEGER NOT NULL, first_try_right INTEGER NOT NULL, hints_used INTEGER NOT NULL,
    total_seconds REAL NOT NULL, PRIMARY KEY (student_id, skill))""",
    "INSERT INTO students VALUES (1, 'ana', '2026-03-02T10:00:00.000000+00:00')",
    "INSERT INTO sessions VALUES ('s1', 1, '2026-03-02T10:00:00.000000+00:00')",
    "INSERT INTO attempts VALUES (1, 1, 's1', '2026-03-02T10:00:01.000000+00:00', 'L1', "
    "'x/3 on 4', 'gain', 'CORRECT', '12', '', 'multiply', 1, 1, 0, 2.5, 12, 12)",
    "INSERT INTO mastery VALUES (1, 'multiply', 0.6, 0, 3, 2, 0, 7.5)",
)


@pytest.mark.parametrize("with_added_columns", [False, True])
def test_a_version_1_file_opens_and_is_migrated(tmp_path: Path, with_added_columns: bool
                                                ) -> None:
    """A progress file written by the tutor before versioned migrations (schema version 1,
    with or without the columns that version added on open) opens: it is migrated to
    the current version once, its answers and mastery kept, and the tutor writes on in it."""
    old = tmp_path / "v1.sqlite3"
    with sqlite3.connect(old) as conn:
        for statement in V1_TABLES:
            conn.execute(statement)
        if with_added_columns:
            conn.execute("ALTER TABLE mastery ADD COLUMN streak INTEGER NOT NULL DEFAULT 0")
            conn.execute("ALTER TABLE mastery ADD COLUMN scaffolded_right INTEGER NOT NULL "
                         "DEFAULT 0")
    with Store(old) as store:
        assert store.db.conn.execute("SELECT version FROM schema_version").fetchall() == [
            (SCHEMA_VERSION,)]
        assert [(a.student, a.input, a.first_attempt) for a in store.attempts()] == [
            ("ana", "12", True)]
        state = load_mastery(store, "ana").states["multiply"]
        assert (state.asked, state.streak, state.scaffolded_right) == (3, 0, 0)
        store.record_attempt("ana", "s1", lesson="L1", problem="x/3 on 4", step="gain",
                             outcome="INCORRECT", input_text="7")
        assert [a.attempt_at_step for a in store.attempts("ana")] == [1, 2]
    with Store(old) as again:  # opened again: nothing more to migrate
        assert again.db.conn.execute("SELECT version FROM schema_version").fetchall() == [
            (SCHEMA_VERSION,)]


def test_a_version_1_store_is_migrated_on_both_backends(db: Db) -> None:
    """The migrations from 1 on SQLite and on PostgreSQL: a store brought back to version 1
    (the added mastery columns dropped) opens at the current version with them."""
    url = db("old")
    Store(url).close()
    with Store(url) as store:
        for statement in ("ALTER TABLE mastery DROP COLUMN streak",
                          "ALTER TABLE mastery DROP COLUMN scaffolded_right",
                          "ALTER TABLE mastery DROP COLUMN evidence",
                          "UPDATE schema_version SET version = 1"):
            store.db.conn.execute(statement)
    with Store(url) as store:
        assert store.db.conn.execute("SELECT version FROM schema_version").fetchall() == [
            (SCHEMA_VERSION,)]
        m = Mastery()
        m.record("multiply", True)
        m.record("multiply", True)
        save_mastery(store, "ana", m)
        assert load_mastery(store, "ana").states == m.states
        assert load_mastery(store, "ana").states["multiply"].streak == 2
        store.db.conn.execute("UPDATE schema_version SET version = 0")
    with pytest.raises(StoreError,
                       match=f"version 0; this tutor reads version {SCHEMA_VERSION}"):
        Store(url)


def _indexes(store: Store) -> set[str]:
    if store.kind == "sqlite":
        return {r[0] for r in store.db.conn.execute(
            "SELECT name FROM sqlite_master WHERE type = 'index'")}
    return {r[0] for r in store.db.conn.execute(
        "SELECT indexname FROM pg_indexes WHERE tablename = 'attempts'")}


def test_a_version_6_store_gets_when_each_answer_was_received(db: Db) -> None:
    """Version 7 (issue 51): a store of version 6 opens at 7 with every row kept, the
    answers of the last day dated as received at their own times (one dated later than
    now, at the migration's), older ones undated (past every day the daily cap counts), and
    the indexes of a question's answers and of the answers received; then each answer
    stored is dated by the store's clock, whatever time it carries."""
    from datetime import datetime, timedelta, timezone

    url = db("v6")
    now = datetime.now(timezone.utc)

    def at(**ago: float) -> str:
        return (now - timedelta(**ago)).isoformat(timespec="microseconds")

    times = {"week": at(days=7), "hour": at(hours=1), "future": at(days=-400)}
    with Store(url) as store:
        for k, (what, when) in enumerate(times.items()):
            store.add_attempt(Attempt("ana", "s1", when, "L1", f"p{k}", "gain",
                                      Outcome.CORRECT, "12", what, "multiply", 1, True, 0,
                                      2.5, 12, 12))
        store.record_attempt("beto", store.start_session("beto"), lesson="L2", problem="q",
                             step="sum", outcome="GIVEUP", time=times["hour"])
        for index in ("attempts_question", "attempts_received"):
            store.db.conn.execute(f"DROP INDEX {index}")
        store.db.conn.execute("ALTER TABLE attempts DROP COLUMN received")
        store.db.conn.execute("UPDATE schema_version SET version = 6")
        tables = ("students", "sessions", "attempts", "mastery", "deals", "session_marks")
        before = {t: store.db.conn.execute(f"SELECT * FROM {t} ORDER BY 1, 2").fetchall()
                  for t in tables}
        attempts = store.attempts()
        assert "received" not in store.db.columns("attempts")
    with Store(url) as store:
        assert SCHEMA_VERSION == 7
        assert store.db.conn.execute("SELECT version FROM schema_version").fetchall() == [(7,)]
        assert store.attempts() == attempts
        after = {t: store.db.conn.execute(f"SELECT * FROM {t} ORDER BY 1, 2").fetchall()
                 for t in tables}
        assert {t: [r[:-1] for r in rows] if t == "attempts" else rows
                for t, rows in after.items()} == before
        received = dict(store.db.conn.execute("SELECT feedback, received FROM attempts"))
        assert received["week"] is None and received["hour"] == times["hour"]
        assert times["hour"] < received["future"] <= datetime.now(timezone.utc).isoformat()
        assert {"attempts_question", "attempts_received"} <= _indexes(store)
        assert store.usage("ana", at(days=1))[:2] == (2, 3)
        store.add_attempt(Attempt("ana", "s1", at(days=30), "L1", "p9", "gain",
                                  Outcome.CORRECT, "12", "late", "multiply", 1, True, 0, 2.5,
                                  12, 12))
        assert store.usage("ana", at(days=1))[:2] == (3, 4)
