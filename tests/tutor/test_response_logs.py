"""Issue 44 part 2: ``fit-bkt`` reads real logs — a DataShop transaction export, a CSV or TSV
table of student, skill and right/wrong (columns found by name, in any order, or named by
flags) — streams them, and says what it left out and why; part 3: ``--write-params``."""

from __future__ import annotations

import codecs
import json
import tracemalloc
from pathlib import Path

import pytest

from tutor.__main__ import main
from tutor.storage.response_logs import Columns, LogError, log_kind, read_logs
from tutor.teaching.mastery import PARAMS_ENV, default_params, load_params

DATASHOP_HEADER = [
    "Row", "Sample Name", "Transaction Id", "Anon Student Id", "Session Id", "Time",
    "Time Zone", "Duration (sec)", "Student Response Type", "Tutor Response Type",
    "Level (Unit)", "Problem Name", "Problem View", "Step Name", "Attempt At Step",
    "Is Last Attempt", "Outcome", "Selection", "Action", "Input", "Feedback Text",
    "KC (Default)", "KC Category (Default)", "KC (Area)", "School", "Class",
]


def datashop_row(row: int, student: str, time: str, problem: str, step: str, attempt: int,
                 outcome: str, kc: str) -> list[str]:
    values = dict.fromkeys(DATASHOP_HEADER, "")
    values.update({
        "Row": str(row), "Sample Name": "All Data", "Transaction Id": f"t{row}",
        "Anon Student Id": student, "Session Id": "s1", "Time": time, "Time Zone": "UTC",
        "Duration (sec)": "3", "Student Response Type": "HINT_REQUEST" if outcome == "HINT"
        else "ATTEMPT", "Tutor Response Type": "RESULT", "Level (Unit)": "Unit 1",
        "Problem Name": problem, "Problem View": "1", "Step Name": step,
        "Attempt At Step": str(attempt), "Outcome": outcome, "Selection": step,
        "Action": "UpdateTextField", "Input": "42", "KC (Default)": kc,
        "KC Category (Default)": "", "KC (Area)": "geometry", "School": "North",
        "Class": "6B"})
    return [values[c] for c in DATASHOP_HEADER]


def write_tsv(path: Path, header: list[str], rows: list[list[str]]) -> Path:
    path.write_text("\n".join("\t".join(r) for r in [header, *rows]) + "\n", encoding="utf-8")
    return path


def test_datashop_transaction_export(tmp_path: Path) -> None:
    """First attempts only (a hint first counts wrong), each skill of ``~~`` separately, in
    the order of Time (the rows here are not); later attempts and steps with no KC are
    counted as left out."""
    rows = [
        datashop_row(1, "Stu_a", "2010-01-05 10:00:09", "p1", "s2", 1, "CORRECT", "Area"),
        datashop_row(2, "Stu_a", "2010-01-05 10:00:00", "p1", "s1", 1, "INCORRECT",
                     "Area~~Perimeter"),
        datashop_row(3, "Stu_a", "2010-01-05 10:00:05", "p1", "s1", 2, "CORRECT",
                     "Area~~Perimeter"),
        datashop_row(4, "Stu_a", "2010-01-05 10:01:00", "p2", "s1", 1, "HINT", "Area"),
        datashop_row(5, "Stu_a", "2010-01-05 10:01:30", "p2", "s1", 2, "CORRECT", "Area"),
        datashop_row(6, "Stu_b", "2010-01-06 09:00:00", "p1", "s1", 1, "CORRECT", "Perimeter"),
        datashop_row(7, "Stu_b", "2010-01-06 09:00:10", "p1", "done", 1, "CORRECT", ""),
    ]
    path = write_tsv(tmp_path / "ds_tx_export.txt", DATASHOP_HEADER, rows)
    assert log_kind(path) == "datashop"
    log = read_logs([path])
    seqs = log.sequences()
    assert seqs == {"Area": [bytes([0, 1, 0])], "Perimeter": [bytes([0]), bytes([1])]}
    assert log.columns["ds_tx_export.txt"] == {
        "student": "Anon Student Id", "skill": "KC (Default)", "correct": "Outcome",
        "order": "Time"}
    assert {r: (s.rows, s.line) for r, s in log.skipped.items()} == {
        "later_attempt": (2, 4), "no_skill": (1, 8)}
    # another KC model, by name
    other = read_logs([path], Columns(skill="KC (Area)")).sequences()
    assert other == {"geometry": [bytes([0, 1, 0]), bytes([1, 1])]}


ODD_ORDER = (
    "Problem,correct,skill_name,When,order_id,user_id,extra\n"
    "q1,1,fractions,x,3,ana,.\n"
    "q2,0,fractions,x,1,ana,.\n"
    "q2,1,fractions,x,2,ana,.\n"  # a retry at q2 (after it in order): left out
    "q9,TRUE,multiply,x,7,ana,.\n"
    "q1,correct,fractions,x,1,beto,.\n"
    "q3,incorrect,fractions,x,2,beto,.\n"
    "q4,0.5,fractions,x,3,beto,.\n"  # partial credit: neither right nor wrong
    ",1,,x,4,beto,.\n"  # no skill
)


def test_generic_csv_with_odd_column_order_and_bom(tmp_path: Path) -> None:
    """A spreadsheet's CSV: a byte order mark, the columns in any order among others; the
    order column sorts each student's answers; an item answered again is a retry."""
    path = tmp_path / "class.csv"
    path.write_bytes(codecs.BOM_UTF8 + ODD_ORDER.encode())
    assert log_kind(path) == "table"
    log = read_logs([path])
    assert log.columns["class.csv"] == {"student": "user_id", "skill": "skill_name",
                                        "correct": "correct", "order": "order_id",
                                        "item": "Problem"}
    assert log.sequences() == {"fractions": [bytes([0, 1]), bytes([1, 0])],
                               "multiply": [bytes([1])]}
    assert {r: s.rows for r, s in log.skipped.items()} == {
        "not_right_or_wrong": 1, "no_skill": 1, "repeat_item": 1}
    assert (log.skipped["not_right_or_wrong"].line,
            log.skipped["not_right_or_wrong"].value) == (8, "0.5")


def test_right_and_wrong_in_words(tmp_path: Path) -> None:
    """A teacher's spreadsheet says right and wrong in words, in English or Spanish."""
    path = tmp_path / "notas.csv"
    path.write_text("Nombre,Tema,Primer intento\n" + "".join(
        f"ana,fracciones,{w}\n" for w in ("sí", "no", "Bien", "mal", "correcto", "Incorrecto",
                                         "TRUE", "false", "yes", "wrong", "✓")))
    log = read_logs([path], Columns(student="Nombre", skill="Tema", correct="Primer intento"))
    assert log.sequences() == {"fracciones": [bytes([1, 0, 1, 0, 1, 0, 1, 0, 1, 0])]}
    assert log.skipped["not_right_or_wrong"].value == "✓"


def test_tsv_and_utf16_read_the_same(tmp_path: Path) -> None:
    """The same table tab-separated, and as a spreadsheet's "Unicode text" (UTF-16, tabs)."""
    rows = [line.split(",") for line in ODD_ORDER.strip().split("\n")]
    text = "\n".join("\t".join(r) for r in rows) + "\n"
    tsv = tmp_path / "class.tsv"
    tsv.write_text(text, encoding="utf-8")
    utf16 = tmp_path / "class.txt"
    utf16.write_bytes(text.encode("utf-16"))
    csv_path = tmp_path / "class.csv"
    csv_path.write_text(ODD_ORDER, encoding="utf-8")
    expected = read_logs([csv_path]).sequences()
    assert read_logs([tsv]).sequences() == expected
    assert read_logs([utf16]).sequences() == expected


def test_a_file_with_no_skill_column_is_refused_naming_it(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """One sentence, naming the file, the missing column, the columns there are and the
    flag that names it — in the teacher's language."""
    path = tmp_path / "scores.csv"
    path.write_text("user_id,score,correct\nana,3,1\n")
    with pytest.raises(LogError) as err:
        read_logs([path])
    text = str(err.value)
    assert text.startswith("scores.csv has no skill column")
    assert "user_id, score, correct" in text and "--skill COLUMN" in text
    assert main(["fit-bkt", str(path), "--lang", "en"]) == 2
    assert capsys.readouterr().err.strip() == text
    assert main(["fit-bkt", str(path), "--lang", "es"]) == 2
    spanish = capsys.readouterr().err.strip()
    assert spanish.startswith("scores.csv no tiene columna de habilidad") and "--skill" in spanish
    # named by a flag, it is read
    assert main(["fit-bkt", str(path), "--skill", "score", "--lang", "en"]) == 1
    assert "No skill has 10 first answers" in capsys.readouterr().err
    # a flag naming a column that is not there
    assert main(["fit-bkt", str(path), "--skill", "kc", "--lang", "en"]) == 2
    assert capsys.readouterr().err.strip() == (
        "scores.csv has no column 'kc'; its columns are: user_id, score, correct.")


def test_reading_streams(tmp_path: Path) -> None:
    """Memory does not grow with the file beyond the answers kept: 60,000 rows left out
    (no skill) take far less than the file's size."""
    path = tmp_path / "big.csv"
    with path.open("w") as fh:
        fh.write("user_id,skill_name,correct,comment\n")
        for i in range(60_000):
            fh.write(f"student-{i % 500},,1,{'x' * 40}\n")
    size = path.stat().st_size
    tracemalloc.start()
    log = read_logs([path])
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert log.rows == 60_000 and log.skipped["no_skill"].rows == 60_000
    assert peak < size / 20, (peak, size)


def _log(tmp_path: Path) -> Path:
    """A class of 40 students: multiply (the tutor's skill) and fractions (not the tutor's),
    columns found by name; two rows with no student."""
    lines = ["student,skill,correct"]
    for s in range(40):
        for i in range(8):
            lines.append(f"s{s},multiply,{int(i >= s % 5)}")
            lines.append(f"s{s},fractions,{int((i + s) % 3 != 0)}")
    lines += [",multiply,1", ",fractions,0"]
    path = tmp_path / "term.csv"
    path.write_text("\n".join(lines) + "\n")
    return path


def test_write_params_for_the_tutor(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """Part 3: --write-params writes the file LEONARD_BKT_PARAMS and a lesson's mastery read;
    a skill the tutor does not know goes under other_skills, which is no error."""
    target = tmp_path / "fit.json"
    assert main(["fit-bkt", str(_log(tmp_path)), "--write-params", str(target),
                 "--lang", "en"]) == 0
    out = capsys.readouterr().out
    assert "term.csv: 2 rows left out: no student (the first at line 642)." in out
    assert "fractions" in out and "other_skills" in out
    assert f"Wrote the parameters of 1 of the tutor's skills to {target}" in out
    data = json.loads(target.read_text())
    assert set(data["skills"]) == {"multiply"} and set(data["other_skills"]) == {"fractions"}
    assert data["skills"]["multiply"]["students"] == 40
    assert data["skipped_rows"] == {"no_student": 2}
    table = load_params(target)
    assert table.for_skill("multiply").p_init == data["skills"]["multiply"]["p_init"]
    monkeypatch.setenv(PARAMS_ENV, str(target))
    assert default_params().for_skill("multiply").p_slip == data["skills"]["multiply"]["p_slip"]


def test_json_output_stays_json_and_forgets_is_not_written(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _log(tmp_path)
    assert main(["fit-bkt", str(path), "--json", "--forgets", "--lang", "en"]) == 0
    captured = capsys.readouterr()
    data = json.loads(captured.out)  # the notes went to stderr
    assert "p_forget" in data["skills"]["multiply"]
    assert "no student" in captured.err
    assert main(["fit-bkt", str(path), "--forgets", "--write-params",
                 str(tmp_path / "f.json"), "--lang", "en"]) == 2
    assert "leave out --forgets" in capsys.readouterr().err
    assert not (tmp_path / "f.json").exists()
    assert main(["fit-bkt", str(path), "--num-fits", "0", "--lang", "en"]) == 2
    assert "--num-fits must be a whole number from 1 to 100, not 0." in capsys.readouterr().err


def test_a_fit_that_cannot_tell_knowing_is_not_used(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Students who get worse (right, then wrong) end the fit at guess + slip = 0.99: right
    answers would be no evidence of knowing, so the file leaves the skill to the tutor's own
    parameters (under not_used) and says so."""
    import random

    rng = random.Random(5)
    lines = ["user_id,skill_name,correct"]
    for s in range(100):
        turn = rng.randint(3, 8)
        lines += [f"s{s},round,{int(rng.random() < (0.9 if t < turn else 0.1))}"
                  for t in range(20)]
    path = tmp_path / "worse.csv"
    path.write_text("\n".join(lines) + "\n")
    target = tmp_path / "fit.json"
    assert main(["fit-bkt", str(path), "--write-params", str(target), "--lang", "en"]) == 0
    assert "round: not used by the tutor: p_guess + p_slip reached 0.99" in (
        capsys.readouterr().out)
    data = json.loads(target.read_text())
    assert data["skills"] == {} and set(data["not_used"]) == {"round"}
    assert data["at_bound"]["round"][-1] == "p_guess+p_slip"
    assert load_params(target).for_skill("round") == default_params().for_skill("round")


def test_a_spanish_spreadsheet_with_semicolons(tmp_path: Path) -> None:
    """A spreadsheet saved in a Spanish locale: ``;`` between values, CRLF line ends, the
    columns named in Spanish (found by name), a date column that orders the answers."""
    path = tmp_path / "notas.csv"
    path.write_bytes("Alumno;Habilidad;Correcto;Fecha\r\n"
                     "ana;sumar;1;2026-03-01 10:00\r\n"
                     "ana;sumar;0;2026-03-01 09:00\r\n"
                     "beto;sumar;sí;2026-03-02\r\n".encode())
    log = read_logs([path])
    assert log.columns["notas.csv"] == {"student": "Alumno", "skill": "Habilidad",
                                        "correct": "Correcto", "order": "Fecha"}
    assert log.sequences() == {"sumar": [bytes([0, 1]), bytes([1])]}
