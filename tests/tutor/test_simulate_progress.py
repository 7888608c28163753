"""`python -m tutor simulate-students` for teachers (issue 33, part 6): a table with a header
row in both languages, and ``--write-progress DIR``, one progress file per simulated student
that the teacher page merges as its class. Run in-process through the command's ``main``."""

from __future__ import annotations

import json
import tempfile
from collections import Counter
from pathlib import Path

import pytest

import tutor.__main__ as cli
import tutor.commands.simulate as sim
from tutor.classroom.overview import class_table, merge_files, merge_student_files
from tutor.commands.learners import SimClock, learner
from tutor.commands.simulate import (
    ProgressFilesError,
    simulate,
    simulate_one,
    student_names,
    student_seed,
    write_progress,
)
from tutor.course.lessons import load_lesson
from tutor.storage.records import Outcome
from tutor.storage.store import Store
from tutor.storage.store_files import progress_file_name, read_attempts
from tutor.teaching.replay import first_answer_evidence

LESSON = "04-times"


def run_cli(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = cli.main(["simulate-students", "--lesson", LESSON, *argv])
    out = capsys.readouterr()
    return code, out.out, out.err


@pytest.mark.parametrize("lang, header", [
    ("en", ["skill", "questions", "share", "right 1st try", "mastered"]),
    ("es", ["habilidad", "preguntas", "parte", "bien al 1.er intento", "dominada"]),
])
def test_the_table_has_a_header_row(lang: str, header: list[str],
                                    capsys: pytest.CaptureFixture[str]) -> None:
    """The header names each column above the skills' rows, in the command's language; the
    columns line up under it; the rows are the report's (docs/rules.md §4, the skills)."""
    code, out, err = run_cli(["--students", "3", "--seed", "2", "--lang", lang], capsys)
    assert code == 0, err
    lines = out.splitlines()
    at = next(i for i, line in enumerate(lines) if line.split()[:1] == [header[0]])
    head = lines[at]
    for word, nxt in zip(header, header[1:], strict=False):
        assert head.index(word) < head.index(nxt)
    report = simulate(LESSON, 3, "perfect", 2, lang)
    rows = lines[at + 1: at + 1 + len(report["skills"])]
    assert [r.split()[0] for r in rows] == list(report["skills"])
    assert [int(r.split()[1]) for r in rows] == [v["questions"] for v in report["skills"].values()]
    assert {len(r) for r in rows} == {len(head)}  # last column right-aligned under its name
    legend = lines[at + 1 + len(rows)]
    assert legend.startswith(f"{header[2]}: ") and header[3] in legend


def test_the_table_helper_aligns_under_the_names() -> None:
    lines = cli._text_table(["skill", "n"], [["add", "12"], ["multiply", "3"]])
    assert lines == ["  skill     n", "  add      12", "  multiply  3"]


@pytest.mark.slow
@pytest.mark.parametrize("profile", ["random", "hints", "mistake:added_instead_of_multiplied:0.5"])
def test_write_progress_writes_one_file_per_student_that_the_teacher_page_merges(
        profile: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """N files, each one student's, named as "Download my progress" names them; merged into a
    fresh store with the teacher page's merge, they give N students in the class table, each
    with the answers, hints and shown answers the simulated student gave (docs/rules.md §4: only
    counted replies are attempts; working typed is not)."""
    folder = tmp_path / "class"
    code, out, err = run_cli(["--students", "4", "--seed", "3", "--profile", profile,
                              "--write-progress", str(folder), "--lang", "en"], capsys)
    assert code == 0, err
    names = ["sim-01", "sim-02", "sim-03", "sim-04"]
    files = sorted(folder.iterdir())
    assert [f.name for f in files] == [progress_file_name(n) for n in names]
    assert "Wrote 4 progress files" in out and "sim-01 … sim-04" in out

    lesson = load_lesson(LESSON, "en")
    questions: dict[str, int] = {}
    counted: dict[str, int] = {}
    for k, (name, path) in enumerate(zip(names, files, strict=True)):
        rows = read_attempts(path)
        assert {a.student for a in rows} == {name}
        assert {a.lesson for a in rows} == {LESSON}
        run, _ = simulate_one(lesson, learner(profile), student_seed(3, k))
        outcomes = Counter(a.outcome for a in rows)
        assert len({(a.problem, a.step) for a in rows}) == len(run.questions)
        assert outcomes[Outcome.CORRECT] + outcomes[Outcome.INCORRECT] == \
            sum(r.counted for r in run.replies)
        assert outcomes[Outcome.HINT] == sum(r.hints for r in run.replies)
        assert outcomes[Outcome.GIVEUP] == sum(r.revealed for r in run.replies)
        questions[name] = len(run.questions)
        # a right answer to numbers "Show me" gave before is no evidence (issue 51): the
        # class table counts the questions whose first answer was
        counted[name] = len({a for a, ev in first_answer_evidence(rows) if ev.kind != "none"})
    report = simulate(LESSON, 4, profile, 3)
    assert sum(questions.values()) == report["questions"]  # the same students as the report

    with tempfile.TemporaryDirectory() as tmp, Store(Path(tmp) / "class.sqlite") as store:
        result = merge_files(store, [(f.name, f.read_bytes()) for f in files], "en")
        assert result.refused == [] and result.files == 4
        assert result.students == set(names) and result.known == 0
        assert result.added == sum(len(read_attempts(f)) for f in files)
        assert sorted(store.students()) == names
        table = class_table(store.attempts())
        assert sorted({r.student for r in table}) == names
        asked: Counter[str] = Counter()
        for r in table:
            asked[r.student] += r.asked
        assert all(asked[n] >= counted[n] > 0 for n in names)  # each answer in its skill
        again = merge_files(store, [(f.name, f.read_bytes()) for f in files], "en")
        assert again.added == 0 and again.known == result.added  # nothing counted twice
    with tempfile.TemporaryDirectory() as tmp, Store(Path(tmp) / "own.sqlite") as store:
        own = merge_student_files(store, [(files[1].name, files[1].read_bytes())], "sim-02")
        assert own.refused == [] and own.students == {"sim-02"}  # the lessons page loads it


def test_json_lists_the_files(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_cli(["--students", "2", "--json", "--name-prefix", "demo.6b",
                              "--write-progress", str(tmp_path)], capsys)
    assert code == 0, err
    data = json.loads(out)
    assert [f["student"] for f in data["progress_files"]] == ["demo.6b-01", "demo.6b-02"]
    for f in data["progress_files"]:
        assert len(read_attempts(Path(f["file"]))) == f["attempts"] > 0


def test_names_are_distinct_and_sort_in_order() -> None:
    assert student_names(3) == ["sim-01", "sim-02", "sim-03"]
    names = student_names(120, "6b")
    assert names[0] == "6b-001" and names[-1] == "6b-120"
    assert len(set(names)) == 120 and sorted(names) == names


@pytest.mark.parametrize("prefix", ["", "../x", "a/b", "-x", "_x", "a b", "x" * 41])
def test_a_prefix_that_is_no_name_is_refused(prefix: str) -> None:
    with pytest.raises(ProgressFilesError, match="name prefix"):
        student_names(2, prefix)


def test_the_files_carry_the_injected_clock(tmp_path: Path) -> None:
    clock = SimClock()
    files = write_progress(LESSON, 2, "perfect", 1, tmp_path, clock=clock)
    assert [f.student for f in files] == ["sim-01", "sim-02"]
    times = {a.time for f in files for a in read_attempts(f.path)}
    assert times == {clock().isoformat(timespec="microseconds")}
    again = write_progress(LESSON, 2, "perfect", 1, tmp_path, clock=clock)  # replaced
    assert sorted(tmp_path.iterdir()) == sorted(f.path for f in again)


def test_a_folder_that_is_a_file_is_refused(tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    target = tmp_path / "class.csv"
    target.write_text("not a folder")
    code, out, err = run_cli(["--students", "2", "--write-progress", str(target), "--lang",
                              "en"], capsys)
    assert code == 2 and out == ""
    assert err.strip() == f"{target} is a file, not a folder: give a folder for the progress files."
    assert target.read_text() == "not a folder"
    code, _, err = run_cli(["--students", "2", "--write-progress", str(target / "sub"),
                            "--lang", "es"], capsys)
    assert code == 2 and err.startswith(f"No se puede crear la carpeta {target / 'sub'}: ")
    assert err.count("\n") == 1 and "Traceback" not in err


def test_a_folder_that_cannot_be_written_is_refused(tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    def refuse(*args: object, **kwargs: object) -> None:
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(sim.tempfile, "NamedTemporaryFile", refuse)  # root ignores chmod
    code, out, err = run_cli(["--students", "2", "--write-progress", str(tmp_path), "--lang",
                              "en"], capsys)
    assert code == 2 and out == ""
    assert err.strip() == f"Cannot write in the folder {tmp_path}: Permission denied."
    assert list(tmp_path.iterdir()) == []


def test_a_name_prefix_needs_write_progress(tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_cli(["--students", "2", "--name-prefix", "x", "--lang", "en"], capsys)
    assert code == 2 and out == "" and "--write-progress" in err
    code, out, err = run_cli(["--students", "2", "--name-prefix", "../x", "--write-progress",
                              str(tmp_path / "class"), "--lang", "en"], capsys)
    assert code == 2 and out == "" and "name prefix" in err
    assert not (tmp_path / "class").exists()  # checked before anything is made
