"""What one refresh of the teacher's live view costs the server, with a class's rows.

    python benchmarks/teacher_refresh.py [--students 30] [--lesson 04-times] [--repeat 50]
                                         [--postgres] [--store ADDRESS]

A class of ``--students`` plays ``--lesson`` through the tutor (``python -m tutor
simulate-students --write-progress``, the same tutor the page uses), their progress files are
merged into a store (a fresh SQLite file; ``--postgres``: a throwaway PostgreSQL cluster, as
the tests start one; ``--store``: that address), and the teacher page, built once over it,
is refreshed ``--repeat`` times:

- the page's tick (:meth:`tutor.ui.teacher.teacher_app.TeacherPage.refresh_live`: one read of the
  store's new rows, the live view, one HTML table), which runs every few seconds on a shared
  store; and a tick that finds a new row, which feeds it to every panel (issue 52 part 3);
- its parts: the store's read alone, and the live view from rows in memory;
- the "Refresh" button (:meth:`~tutor.ui.teacher.teacher_app.TeacherPage.refresh`: every panel);
- the same button once the class has an assignment of the lesson with the whole class on its
  roster (issue 45: the assignments panel's table is made from the counts the class table
  already has), and that table alone.

It prints wall and CPU milliseconds per refresh (median and 95th percentile), and the rows.
The clock is the page's own (the simulated rows were just written, so the class is in the view).
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def timed(work: Callable[[], object], repeat: int) -> dict[str, float]:
    wall, cpu = [], []
    for _ in range(repeat):
        w0, c0 = time.perf_counter(), time.process_time()
        work()
        wall.append((time.perf_counter() - w0) * 1000)
        cpu.append((time.process_time() - c0) * 1000)
    wall.sort()
    return {"p50": statistics.median(wall), "p95": wall[max(0, round(0.95 * len(wall)) - 1)],
            "cpu": statistics.mean(cpu)}


def class_files(students: int, lesson: str, folder: Path) -> list[Path]:
    subprocess.run([sys.executable, "-m", "tutor", "simulate-students", "--lesson", lesson,
                    "--students", str(students), "--seed", "35", "--profile",
                    "bkt:0.3,0.2,0.1,0.2", "--write-progress", str(folder), "--lang", "en"],
                   check=True, cwd=ROOT, capture_output=True)
    return sorted(folder.glob("*.csv"))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--students", type=int, default=30)
    ap.add_argument("--lesson", default="04-times")
    ap.add_argument("--repeat", type=int, default=50)
    ap.add_argument("--postgres", action="store_true",
                    help="a throwaway PostgreSQL cluster (tests/pg_cluster.py)")
    ap.add_argument("--store", help="the store's address (default: a fresh SQLite file)")
    args = ap.parse_args(argv)

    from tests.pg_cluster import bench_store
    from tutor.classroom.live import live_rows
    from tutor.classroom.overview import merge_files
    from tutor.course.lessons import list_lessons
    from tutor.storage.store import Store
    from tutor.ui.teacher.teacher_app import TeacherPage

    with tempfile.TemporaryDirectory(prefix="teacher-refresh-") as tmp, \
            bench_store(args.store, args.postgres, Path(tmp) / "class.sqlite3") as found:
        if found is None:
            return 2
        address: str = found
        folder = Path(tmp)
        files = class_files(args.students, args.lesson, folder / "class")
        with Store(address, lang="en") as store:
            merge_files(store, [(f.name, f.read_bytes()) for f in files], "en")
            rows = store.attempts()
            page = TeacherPage(store=store, lang="en", live_seconds=5)
            view = page.live.view
            assert view is not None
            print(f"store: {store.kind}; {len(files)} students, {len(rows)} rows; "
                  f"live view: {view.count('playing')} playing, {len(view.stuck)} stuck, "
                  f"{view.count('finished')} finished, {view.count('files')} from files")
            results = {
                "tick (refresh_live)": timed(page.refresh_live, args.repeat),
                "  store read (attempts)": timed(store.attempts, args.repeat),
                "  live view from rows": timed(lambda: live_rows(rows, page.clock()),
                                               args.repeat),
                "button (refresh: every panel)": timed(page.refresh,
                                                       max(3, args.repeat // 10)),
            }
            from datetime import timedelta

            from tutor.classroom.assignments import check_assignment

            lessons = {ls.id: ls for ls in list_lessons("en")}
            due = page.clock() + timedelta(days=7)
            store.save_roster("B1", store.students())
            store.save_assignment(check_assignment(
                class_code="B1", title="Benchmark", lessons=[args.lesson],
                installed=lessons, now=page.clock(), due_date=f"{due:%Y-%m-%d}"))
            page.refresh()
            table = page.assignments.table_now()
            assert table is not None and len(table.rows) == len(files)
            results["button, with an assignment"] = timed(page.refresh,
                                                         max(3, args.repeat // 10))
            results["  the assignment's table"] = timed(page.assignments.table_now,
                                                       args.repeat)
            student = rows[-1]
            added = iter(range(10**6))

            def tick_with_a_row() -> None:
                k = next(added)
                store.record_attempt(
                    student.student, student.session, lesson=student.lesson,
                    problem=f"bench-{k}", step="T", outcome="CORRECT",
                    input_text="12", kc=student.kc, expected=12, answered=12)
                page.refresh_live()

            results["tick with a new row (every panel)"] = timed(
                tick_with_a_row, max(3, args.repeat // 5))
    print(f"{'':32} {'p50 ms':>8} {'p95 ms':>8} {'CPU ms':>8}")
    for name, r in results.items():
        print(f"{name:32} {r['p50']:8.1f} {r['p95']:8.1f} {r['cpu']:8.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
