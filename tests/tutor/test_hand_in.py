"""Issue 41, part 5: a progress file edited after the tutor wrote it is refused, and so is one
whose rows the tutor could not have written (tutor.storage.seal, tutor.classroom.hand_in).

Each edit a class may try in a spreadsheet is made on a real student's file (a lesson played
through the tutor) and loaded three ways, as a teacher and a student would: the teacher
page's merge, ``python -m tutor import`` and the lessons page's "Load my progress". Each
refuses the file, names it, and changes nobody's mastery. Rows sealed again by someone who
can run Python (the forger a seal cannot stop on Binder) are checked against the tutor's own
replay. The file the tutor writes is taken back unchanged.
"""

from __future__ import annotations

import csv
import io
import os
import subprocess
import sys
import unicodedata
from collections.abc import Callable
from dataclasses import replace
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from tutor.classroom.hand_in import replay_misfits, scaffolds_of
from tutor.classroom.overview import merge_files, merge_student_files
from tutor.course.lessons import lesson_params
from tutor.storage.records import Attempt, Outcome
from tutor.storage.store import Store
from tutor.storage.store_files import (
    SEALED_CSV_COLUMNS,
    parse_progress,
    write_csv,
    write_datashop,
)
from tutor.teaching.evidence import parse_step
from tutor.teaching.replay import rebuild_mastery

ROOT = Path(__file__).resolve().parents[2]
Rows = list[list[str]]


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory, student_plays: Any) -> dict[str, Any]:
    """ana's and beto's progress, really played: ana lesson 01 (T asked first: ``[T]`` tags)
    and a round of 04 (the blanks scaffold), some answers wrong; beto a round of 04."""
    folder = tmp_path_factory.mktemp("played")
    db = folder / "own.sqlite3"
    student_plays("01-other-end", "ana", db, seed=5, wrong_every=3)
    student_plays("04-times", "ana", db, seed=6, wrong_every=3, rounds=1)
    student_plays("04-times", "beto", db, seed=7, wrong_every=2, rounds=1)
    with Store(db) as store:
        store.export_csv(folder / "ana.csv", "ana")
        store.export_csv(folder / "beto.csv", "beto")
        rows = {name: store.attempts(name) for name in ("ana", "beto")}
    return {"ana": (folder / "ana.csv").read_bytes(), "beto": (folder / "beto.csv").read_bytes(),
            "rows": rows}


def table(data: bytes) -> Rows:
    return list(csv.reader(io.StringIO(data.decode("utf-8"), newline="")))


def untable(rows: Rows) -> bytes:
    """The rows written back as a careful tool would (every field quoted, as the tutor
    does): only the edit changes the file."""
    out = io.StringIO()
    out.write(",".join(rows[0]) + "\n")
    csv.writer(out, quoting=csv.QUOTE_ALL, lineterminator="\n").writerows(rows[1:])
    return out.getvalue().encode("utf-8")


COL = {name: i for i, name in enumerate(SEALED_CSV_COLUMNS)}


def _first(rows: Rows, **where: str) -> int:
    return next(i for i, r in enumerate(rows) if i and all(r[COL[k]] == v
                                                             for k, v in where.items()))


def wrong_made_right(rows: Rows) -> Rows:
    """Every INCORRECT made CORRECT (the typed answer too, as a careful cheat would)."""
    for r in rows[1:]:
        if r[COL["outcome"]] == "INCORRECT":
            r[COL["outcome"]], r[COL["feedback"]] = "CORRECT", "correct"
            r[COL["input"]] = r[COL["answered"]] = r[COL["expected"]]
    return rows


def tags_removed(rows: Rows) -> Rows:
    for r in rows[1:]:
        r[COL["step"]] = r[COL["step"]].split("[")[0]
    return rows


def renamed(rows: Rows) -> Rows:
    for r in rows[1:]:
        r[COL["student"]] = "beto"
    return rows


def middle_row_removed(rows: Rows) -> Rows:
    return rows[:10] + rows[11:]


def last_rows_removed(rows: Rows) -> Rows:
    return rows[:-5]


def first_row_removed(rows: Rows) -> Rows:
    return rows[:1] + rows[2:]


def rows_swapped(rows: Rows) -> Rows:
    rows[5], rows[6] = rows[6], rows[5]
    return rows


def seal_dropped(rows: Rows) -> Rows:
    return [r[:-1] for r in rows]


def tags_removed_and_seal_dropped(rows: Rows) -> Rows:
    return seal_dropped(tags_removed(rows))


EDITS: dict[str, tuple[Callable[[Rows], Rows], str]] = {
    "INCORRECT made CORRECT": (wrong_made_right, "was changed after the tutor saved it"),
    "scaffold tags removed": (tags_removed, "was changed after the tutor saved it"),
    "name changed to another student's": (renamed, "was changed after the tutor saved it"),
    "a row removed": (middle_row_removed, "line 11 is not the row the tutor wrote there"),
    "the last rows removed": (last_rows_removed, "the tutor wrote more rows after line"),
    "the first row removed": (first_row_removed, "line 2 is not the row the tutor wrote"),
    "two rows swapped": (rows_swapped, "line 6 is not the row the tutor wrote there"),
    "the seal column dropped": (seal_dropped, "has no seal"),
    "tags removed, seal dropped": (tags_removed_and_seal_dropped, "has no seal"),
}


def edited(played: dict[str, Any], edit: str) -> bytes:
    return untable(EDITS[edit][0](table(played["ana"])))


@pytest.mark.parametrize("edit", EDITS)
def test_an_edited_file_is_refused_by_the_teacher_page_and_changes_no_mastery(
        edit: str, played: dict[str, Any], tmp_path: Path) -> None:
    """The teacher holds ana's (and beto's) honest files; a spreadsheet-edited file comes
    in: it is refused, named, and every student's mastery stays as it was."""
    data = edited(played, edit)
    assert data != played["ana"]
    with Store(tmp_path / "class.sqlite3") as store:
        first = merge_files(store, [("ana.csv", played["ana"]), ("beto.csv", played["beto"])],
                            "en")
        assert not first.refused
        attempts = store.attempts()
        mastery = {n: store.mastery_rows(n) for n in ("ana", "beto")}
        result = merge_files(store, [("ana-edited.csv", data)], "en")
        assert result.added == 0 and result.students == set()
        assert len(result.refused) == 1
        assert result.refused[0].startswith("ana-edited.csv ")
        assert EDITS[edit][1] in result.refused[0], result.refused[0]
        assert store.attempts() == attempts
        assert {n: store.mastery_rows(n) for n in ("ana", "beto")} == mastery
    with Store(tmp_path / "fresh.sqlite3") as fresh:  # nor does it count on its own
        alone = merge_files(fresh, [("ana-edited.csv", data)], "es")
        assert len(alone.refused) == 1 and fresh.attempts() == []
        assert fresh.students() == []


def test_the_edits_would_change_mastery(played: dict[str, Any]) -> None:
    """The edits above matter: read as they are, they change the rebuilt mastery (so the
    refusal is what keeps it)."""
    honest = rebuild_mastery(played["rows"]["ana"], lesson_params())
    for edit in ("INCORRECT made CORRECT", "scaffold tags removed"):
        rows = parse_progress(edited(played, edit), "x.csv").attempts
        assert rebuild_mastery(rows, lesson_params()) != honest, edit


@pytest.mark.parametrize("edit", EDITS)
def test_a_student_cannot_load_an_edited_file_either(edit: str, played: dict[str, Any],
                                                      tmp_path: Path) -> None:
    """The lessons page's "Load my progress" applies the same check: otherwise an edited
    file loaded on Binder would be downloaded again, sealed. Its line speaks to the
    student."""
    with Store(tmp_path / "binder.sqlite3") as store:
        result = merge_student_files(store, [("mine.csv", edited(played, edit))], "ana", "en")
        assert result.added == 0 and len(result.refused) == 1 and store.attempts() == []
        line = result.refused[0]
        assert line.startswith("mine.csv ") and EDITS[edit][1] in line
        assert "your teacher" in line or "Load the file exactly as" in line


def tutor(*args: str) -> subprocess.CompletedProcess[str]:
    base = {k: v for k, v in os.environ.items()
            if k not in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG", "LEONARD_TUTOR_DB")}
    return subprocess.run([sys.executable, "-m", "tutor", *args], cwd=ROOT, capture_output=True,
                          text=True, timeout=120, env=base)


@pytest.mark.parametrize("edit", ["INCORRECT made CORRECT", "name changed to another student's",
                                  "the last rows removed", "the seal column dropped"])
def test_import_refuses_an_edited_file_with_one_line(edit: str, played: dict[str, Any],
                                                      tmp_path: Path) -> None:
    db = tmp_path / "class.sqlite3"
    (tmp_path / "ana.csv").write_bytes(played["ana"])
    out = tutor("import", str(tmp_path / "ana.csv"), "--db", str(db), "--lang", "en")
    assert out.returncode == 0, out.stderr
    with Store(db) as store:
        before = store.attempts(), store.mastery_rows("ana")
    bad = tmp_path / "ana-edited.csv"
    bad.write_bytes(edited(played, edit))
    for lang, word in (("en", EDITS[edit][1]), ("es", "ana-edited.csv")):
        out = tutor("import", str(bad), "--db", str(db), "--lang", lang)
        assert out.returncode == 2 and out.stdout == ""
        assert len(out.stderr.splitlines()) == 1 and out.stderr.startswith("ana-edited.csv ")
        assert word in out.stderr, out.stderr
    with Store(db) as store:
        assert (store.attempts(), store.mastery_rows("ana")) == before


def test_only_the_teachers_word_loads_an_unsealed_file_and_its_rows_are_still_checked(
        played: dict[str, Any], tmp_path: Path) -> None:
    """``--unsealed``: an old file (no seal column) loads on the teacher's word; an unsealed
    file with rows the tutor could not have written is refused all the same, and a broken
    seal is never taken."""
    db = tmp_path / "class.sqlite3"
    old = tmp_path / "old.csv"
    old.write_bytes(edited(played, "the seal column dropped"))
    out = tutor("import", str(old), "--unsealed", "--db", str(db), "--lang", "en")
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == f"old.csv: {len(played['rows']['ana'])} new attempts added, " \
                                 "0 were already there."
    forged = tmp_path / "forged.csv"
    forged.write_bytes(edited(played, "tags removed, seal dropped"))
    out = tutor("import", str(forged), "--unsealed", "--db", str(tmp_path / "b.sqlite3"),
                "--lang", "en")
    assert out.returncode == 2 and "its scaffold tag was removed" in out.stderr, out.stderr
    broken = tmp_path / "broken.csv"
    broken.write_bytes(edited(played, "INCORRECT made CORRECT"))
    out = tutor("import", str(broken), "--unsealed", "--db", str(tmp_path / "c.sqlite3"),
                "--lang", "en")
    assert out.returncode == 2 and "was changed after the tutor saved it" in out.stderr
    assert not (tmp_path / "c.sqlite3").exists()  # refused before the store was opened


def test_the_file_the_tutor_writes_comes_back_unchanged(played: dict[str, Any],
                                                        tmp_path: Path) -> None:
    """The round trip: a student's download, loaded on a new Binder, merged by the teacher
    page and imported; then the teacher's own export of the class, imported elsewhere. Every
    time every row comes in, as it was, with its seal intact."""
    progress = parse_progress(played["ana"], "ana.csv")
    assert progress.seal.sealed and progress.seal.intact
    assert progress.attempts == played["rows"]["ana"]
    with Store(tmp_path / "binder.sqlite3") as binder:
        own = merge_student_files(binder, [("ana.csv", played["ana"])], "ana", "en")
        assert not own.refused and binder.attempts("ana") == played["rows"]["ana"]
        binder.export_csv(tmp_path / "again.csv", "ana")
    assert (tmp_path / "again.csv").read_bytes() == played["ana"]  # byte for byte
    with Store(tmp_path / "class.sqlite3") as store:
        result = merge_files(store, [("ana.csv", played["ana"]), ("beto.csv", played["beto"])],
                             "en")
        assert not result.refused and result.students == {"ana", "beto"}
        again = merge_files(store, [("ana.csv", played["ana"])], "en")  # twice: nothing new
        assert not again.refused and again.added == 0
        store.export_csv(tmp_path / "class.csv")
    out = tutor("import", str(tmp_path / "class.csv"), "--db", str(tmp_path / "copy.sqlite3"),
                "--lang", "en")
    assert out.returncode == 0, out.stderr
    with Store(tmp_path / "copy.sqlite3") as copy, Store(tmp_path / "class.sqlite3") as store:
        assert copy.attempts() == store.attempts()


def test_an_empty_export_is_no_hand_in_and_no_harm(tmp_path: Path) -> None:
    write_csv(tmp_path / "none.csv", [])
    with Store(tmp_path / "class.sqlite3") as store:
        result = merge_files(store, [("none.csv", (tmp_path / "none.csv").read_bytes())], "en")
    assert not result.refused and result.added == 0


# -- the replay: rows a forger sealed again with the tutor's own code -------------------------

def resealed(rows: list[Attempt], tmp_path: Path, name: str = "forged.csv") -> bytes:
    """``rows`` written and sealed by the tutor's code, as a student who runs Python could."""
    write_csv(tmp_path / name, rows)
    return (tmp_path / name).read_bytes()


def misfits(data: bytes) -> list[tuple[int, str]]:
    progress = parse_progress(data, "forged.csv")
    assert progress.seal.intact  # the seal cannot tell: the replay must
    return [(m.line, str(m.problem))
            for m in replay_misfits(progress.attempts, progress.lines)]


def _at(rows: list[Attempt], test: Callable[[Attempt], bool]) -> int:
    return next(i for i, a in enumerate(rows) if test(a))


def test_every_row_the_tutor_writes_fits_its_replay(played: dict[str, Any]) -> None:
    for name in ("ana", "beto"):
        assert misfits(played[name]) == []


def _retag(name: str, add: str = "", drop: str = "") -> str:
    """A stored step name with the scaffold tag ``add`` put in or ``drop`` taken out, every
    other tag kept (as a forger editing the file would)."""
    step, _, rest = name[:-1].partition("[") if name.endswith("]") else (name, "", "")
    tags = [t for t in rest.split(",") if t and t != drop] + ([add] if add else [])
    return f"{step}[{','.join(tags)}]" if tags else step


def _is(a: Attempt, step: str, lesson: str | None = None, tagged: bool | None = None) -> bool:
    name, scaffolds, _ = parse_step(a.step)
    return (name == step and (lesson is None or a.lesson == lesson)
            and (tagged is None or ("T" in scaffolds) == tagged))


def _forge_points(rows: list[Attempt]) -> list[Attempt]:
    """A play whose T is in the file gets other points, right by its own (forged) numbers."""
    k = _at(rows, lambda a: _is(a, "gain", tagged=True))
    points = (rows[k].expected or 0) + 7
    rows[k] = replace(rows[k], expected=points, answered=points, input=str(points),
                      outcome=Outcome.CORRECT, feedback="correct")
    return rows


def _flip_outcome(rows: list[Attempt]) -> list[Attempt]:
    k = _at(rows, lambda a: a.outcome is Outcome.INCORRECT)
    rows[k] = replace(rows[k], outcome=Outcome.CORRECT, feedback="correct")
    return rows


def _flip_with_answer(rows: list[Attempt]) -> list[Attempt]:
    k = _at(rows, lambda a: a.outcome is Outcome.INCORRECT)
    rows[k] = replace(rows[k], outcome=Outcome.CORRECT, answered=rows[k].expected)
    return rows


def _typed_right(rows: list[Attempt]) -> list[Attempt]:
    """A wrong first try made right in every column: the right try after it is left."""
    k = _at(rows, lambda a: a.outcome is Outcome.INCORRECT and a.attempt_at_step == 1)
    rows[k] = replace(rows[k], outcome=Outcome.CORRECT, feedback="correct",
                      answered=rows[k].expected, input=str(rows[k].expected))
    return rows


def _untagged(rows: list[Attempt]) -> list[Attempt]:
    return [replace(a, step=_retag(a.step, drop="T")) if _is(a, "gain", tagged=True) else a
            for a in rows]


def _tagged(rows: list[Attempt]) -> list[Attempt]:
    k = _at(rows, lambda a: _is(a, "gain", "04-times", tagged=False))
    rows[k] = replace(rows[k], step=_retag(rows[k].step, add="T"))
    return rows


def _blanks_in_01(rows: list[Attempt]) -> list[Attempt]:
    k = _at(rows, lambda a: _is(a, "T", "01-other-end"))
    rows[k] = replace(rows[k], step=_retag(rows[k].step, add="blanks"))
    return rows


def _first_try_dropped(rows: list[Attempt]) -> list[Attempt]:
    """The wrong first try taken out and the right second one made the first."""
    k = _at(rows, lambda a: a.outcome is Outcome.INCORRECT and a.attempt_at_step == 1)
    right = rows[k + 1]
    assert (right.problem, right.step) == (rows[k].problem, rows[k].step)
    return rows[:k] + rows[k + 1:]


def _moved(a: Attempt, by: timedelta, session: str | None = None) -> Attempt:
    when = datetime.fromisoformat(a.time) + by
    return replace(a, time=when.isoformat(timespec="microseconds"),
                   session=session or a.session)


def _overlapping(rows: list[Attempt]) -> list[Attempt]:
    """A question answered in one try given 30 seconds to answer, and dated two seconds
    after the first question of its session was answered: it was open while that one was."""
    first = rows[0]
    counts: dict[tuple[str, str], int] = {}
    for a in rows:
        if a.session == first.session:
            counts[(a.problem, a.step)] = counts.get((a.problem, a.step), 0) + 1
    k = _at(rows, lambda a: a.session == first.session and a.problem != first.problem
            and counts[(a.problem, a.step)] == 1)
    end = max(datetime.fromisoformat(a.time) for a in rows
              if (a.session, a.problem, a.step) == (first.session, first.problem, first.step))
    rows[k] = replace(rows[k], duration=30.0,
                      time=(end + timedelta(seconds=2)).isoformat(timespec="microseconds"))
    return rows


def _shifted_copies(rows: list[Attempt]) -> list[Attempt]:
    """The last seven right answers again, an hour later (same session)."""
    right = [a for a in rows if a.outcome is Outcome.CORRECT][-7:]
    return rows + [_moved(a, timedelta(hours=1)) for a in right]


def _copied_session(rows: list[Attempt]) -> list[Attempt]:
    """A session copied whole under a new session id, at the same times."""
    first = [a for a in rows if a.session == rows[0].session]
    return rows + [replace(a, session="f" * 32) for a in first]


def _one_copy(rows: list[Attempt]) -> list[Attempt]:
    """One right answer given again, dated two days before."""
    right = next(a for a in rows if a.outcome is Outcome.CORRECT)
    return rows + [_moved(right, timedelta(days=-2), session="e" * 32)]


def _two_lessons(rows: list[Attempt]) -> list[Attempt]:
    rows[3] = replace(rows[3], lesson="04-times")
    return rows


FORGERIES: dict[str, tuple[Callable[[list[Attempt]], list[Attempt]], str]] = {
    "points that are not the play's": (_forge_points, "played with T = "),
    "INCORRECT made CORRECT": (_flip_outcome, "is marked CORRECT, but the question's answer"),
    "made CORRECT with the right number": (_flip_with_answer, "the answer typed"),
    "made CORRECT in every column": (_typed_right, "its question was over at line"),
    "the [T] tag removed": (_untagged, "its scaffold tag was removed"),
    "a [T] tag with no T asked": (_tagged, "says T was asked first"),
    "blanks in a lesson without them": (_blanks_in_01, "which lesson 01-other-end does not use"),
    "a wrong first try removed": (_first_try_dropped, "attempt 1 at its question is missing"),
    "a question inside another": (_overlapping, "a session asks one question at a time"),
    "right answers again, times moved": (_shifted_copies, "again with its time or session"),
    "a session copied under a new id": (_copied_session, "again with its time or session"),
    "one right answer again, finely timed": (_one_copy, "again with its time or session"),
    "a session in two lessons": (_two_lessons, "a session plays one lesson"),
}


@pytest.mark.parametrize("forgery", FORGERIES)
def test_rows_the_tutor_could_not_have_written_are_named(
        forgery: str, played: dict[str, Any], tmp_path: Path) -> None:
    forge, why = FORGERIES[forgery]
    data = resealed(forge(list(played["rows"]["ana"])), tmp_path)
    found = misfits(data)
    assert any(why in problem for _, problem in found), found
    with Store(tmp_path / "class.sqlite3") as store:
        result = merge_files(store, [("forged.csv", data)], "en")
        assert result.added == 0 and store.attempts() == []
        assert result.refused[0].startswith("forged.csv holds answers the tutor did not "
                                            "record so (line ")
        assert why in result.refused[0] or "more line" in result.refused[0]


def test_copies_of_answers_already_loaded_are_named(played: dict[str, Any],
                                                    tmp_path: Path) -> None:
    """The honest file first; then a file of the same answers, moved an hour on (sealed by
    the tutor's code): refused as copies of what the store holds, mastery unchanged."""
    honest = played["rows"]["ana"]
    last = [a for a in honest if a.session == honest[-1].session]
    plays = list(dict.fromkeys(a.problem for a in last))[-3:]  # its last three plays, whole
    copies = [_moved(a, timedelta(hours=1), session="d" * 32) for a in last
              if a.problem in plays]
    data = resealed(copies, tmp_path)
    assert misfits(data) == []  # nothing wrong within the file itself
    with Store(tmp_path / "class.sqlite3") as store:
        assert not merge_files(store, [("ana.csv", played["ana"])], "en").refused
        mastery = store.mastery_rows("ana")
        result = merge_files(store, [("later.csv", data)], "en")
        assert result.added == 0 and store.mastery_rows("ana") == mastery
        assert "as one already loaded (given at " in result.refused[0]
    with Store(tmp_path / "binder.sqlite3") as binder:  # the same on the lessons page
        assert not merge_student_files(binder, [("a.csv", played["ana"])], "ana").refused
        again = merge_student_files(binder, [("b.csv", data)], "ana")
        assert again.added == 0 and len(again.refused) == 1


def test_two_sessions_at_once_are_honest(played: dict[str, Any], tmp_path: Path,
                                         student_plays: Any) -> None:
    """Two tabs open at once: two sessions of one student whose answers interleave in time.
    The tutor writes that for an honest student, so it is not refused."""
    db = tmp_path / "tabs.sqlite3"
    student_plays("04-times", "ana", db, seed=8, wrong_every=4, rounds=1)
    student_plays("04-times", "ana", db, seed=9, wrong_every=4, rounds=1)
    with Store(db) as store:
        rows = store.attempts("ana")
    one, two = rows[0].session, rows[-1].session
    assert one != two
    start = datetime.fromisoformat(rows[0].time)
    second = [a for a in rows if a.session == two]
    by = start - datetime.fromisoformat(second[0].time) + timedelta(milliseconds=1)
    tabs = sorted([a for a in rows if a.session == one] + [_moved(a, by) for a in second],
                  key=lambda a: a.time)
    assert [a.session for a in tabs] != sorted(a.session for a in tabs)  # interleaved
    assert misfits(resealed(tabs, tmp_path)) == []


def test_a_datashop_export_has_no_seal(played: dict[str, Any], tmp_path: Path) -> None:
    write_datashop(tmp_path / "ana.tsv", played["rows"]["ana"])
    progress = parse_progress((tmp_path / "ana.tsv").read_bytes(), "ana.tsv")
    assert progress.datashop and not progress.seal.sealed
    with Store(tmp_path / "class.sqlite3") as store:
        result = merge_files(store, [("ana.tsv", (tmp_path / "ana.tsv").read_bytes())], "en")
    assert result.added == 0 and "ana.tsv has no seal" in result.refused[0]


def test_a_scaffold_is_checked_against_the_lesson_it_names() -> None:
    """``blanks`` fits a lesson with that scaffold; a lesson not installed here is not
    judged."""
    row = Attempt("ana", "s1", "2026-03-02T10:00:05+00:00", "mine", "m1r1t3-5/x",
                  "gain[blanks]", Outcome.CORRECT, "45", "correct", "multiply", 1, True, 0,
                  3.0, 45, 45)
    assert replay_misfits([row], [2], scaffolds=scaffolds_of({"mine": frozenset({"blanks"})})) \
        == []
    assert replay_misfits([row], [2], scaffolds=scaffolds_of({})) == []
    found = replay_misfits([row], [2], scaffolds=scaffolds_of({"mine": frozenset({"T"})}))
    assert [m.line for m in found] == [2] and "does not use" in str(found[0].problem)


def test_a_file_with_a_time_to_come_or_a_tile_no_game_has_is_refused(
        played: dict[str, Any], tmp_path: Path) -> None:
    """Sealed, yet not what the tutor recorded: a play of 9/x in the Leonard game (tiles
    1-6, +, -, x), refused by the file upload with its line named; a row dated in the year
    9999, refused by ``import``'s check (the teacher page says it of the file first), as the
    store service refuses such an answer sent."""
    from tutor.classroom.hand_in import replay_refusal

    rows = played["rows"]["ana"]
    k = next(i for i, a in enumerate(rows) if a.problem.endswith("/x"))
    forged = replace(rows[k], problem=rows[k].problem.rpartition("-")[0] + "-9/x")
    data = resealed([*rows[:k], forged, *rows[k + 1:]], tmp_path, "ana.csv")
    with Store(tmp_path / "class.sqlite3") as store:
        result = merge_files(store, [("ana.csv", data)], "en")
        assert result.added == 0 and store.attempts() == []
    assert len(result.refused) == 1 and "9/x of its question is not a tile of lesson" \
        in result.refused[0], result.refused
    later = replace(rows[k], time="9999-01-01T10:00:00+00:00")
    data = resealed([*rows[:k], later, *rows[k + 1:]], tmp_path, "ana.csv")
    said = replay_refusal("ana.csv", parse_progress(data, "ana.csv"), "en")
    assert said is not None and "is later than now" in said


# -- one student, one name ----------------------------------------------------------------------

def _spelled(rows: list[Attempt], name: str, tmp_path: Path, sessions: str = "") -> bytes:
    """``rows`` under ``name``, sealed (``sessions``: a letter that makes their sessions
    others')."""
    renamed = [replace(a, student=name, session=sessions + a.session[1:] if sessions
                       else a.session) for a in rows]
    return resealed(renamed, tmp_path, f"{name}{sessions}.csv")


def test_jose_typed_two_ways_is_one_student(played: dict[str, Any], tmp_path: Path) -> None:
    """"José" with a precomposed é (NFC) and with e + accent (NFD): one student on the
    teacher page (a second José with no session in common is "two students under one name")
    and on the lessons page (José's own file, whichever way the page spells the name)."""
    nfc, nfd = unicodedata.normalize("NFC", "José"), unicodedata.normalize("NFD", "José")
    assert nfc != nfd
    ana, beto = played["rows"]["ana"], played["rows"]["beto"]
    with Store(tmp_path / "class.sqlite3") as store:
        result = merge_files(store, [("a.csv", _spelled(ana, nfc, tmp_path)),
                                     ("b.csv", _spelled(beto, nfd, tmp_path))], "en")
        assert len(result.refused) == 1, result.refused
        assert result.refused[0].startswith("b.csv and a.csv both hold answers of")
    with Store(tmp_path / "binder.sqlite3") as binder:
        own = merge_student_files(binder, [("mine.csv", _spelled(ana, nfd, tmp_path))], nfc,
                                  "en")
        assert not own.refused and own.added == len(ana)
    with Store(tmp_path / "again.sqlite3") as store:  # a copy under the other spelling
        assert not merge_files(store, [("a.csv", _spelled(ana, nfc, tmp_path))]).refused
        copied = merge_files(store, [("c.csv", _spelled(ana, nfd, tmp_path, "c"))], "en")
        assert copied.added == 0 and "already loaded" in copied.refused[0]
