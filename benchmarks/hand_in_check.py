"""What checking the files a class hands in costs the teacher's merge (issue 41, part 5).

    python benchmarks/hand_in_check.py [--students 30] [--lesson 04-times] [--repeat 5]

A class of ``--students`` plays ``--lesson`` through the tutor (``python -m tutor
simulate-students --write-progress``), and their progress files are, side by side in one run,
``--repeat`` times each:

- read (:func:`tutor.storage.store_files.parse_progress`: the CSV, every row checked, and the
  seal, :mod:`tutor.storage.seal`), and the seal's share of it alone
  (:func:`~tutor.storage.seal.check_seals` over the rows already split);
- checked against the tutor's replay (:func:`tutor.classroom.hand_in.replay_misfits`);
- merged by the teacher page into a fresh SQLite store
  (:func:`tutor.classroom.overview.merge_files`, which does all of the above, then writes and
  rebuilds each student's mastery).

It prints milliseconds for the whole class (the repeats' median wall time and mean CPU time),
rows per second (wall), and each part's share of the merge's CPU time (which the machine's
load does not change as it does the wall time).
"""

from __future__ import annotations

import argparse
import csv
import io
import subprocess
import sys
import tempfile
from pathlib import Path

from teacher_refresh import timed  # wall p50/p95 and mean CPU milliseconds of a repeated call

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--students", type=int, default=30)
    ap.add_argument("--lesson", default="04-times")
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args(argv)

    from tutor.classroom.hand_in import replay_misfits
    from tutor.classroom.overview import merge_files
    from tutor.storage.seal import check_seals
    from tutor.storage.store import Store
    from tutor.storage.store_files import parse_progress

    with tempfile.TemporaryDirectory(prefix="hand-in-check-") as tmp:
        folder = Path(tmp)
        subprocess.run([sys.executable, "-m", "tutor", "simulate-students", "--lesson",
                        args.lesson, "--students", str(args.students), "--seed", "35",
                        "--profile", "bkt:0.3,0.2,0.1,0.2", "--write-progress",
                        str(folder / "class"), "--lang", "en"],
                       check=True, cwd=ROOT, capture_output=True)
        files = [(f.name, f.read_bytes()) for f in sorted((folder / "class").glob("*.csv"))]
        read = [parse_progress(data, name) for name, data in files]
        rows = sum(len(r.attempts) for r in read)
        split = []
        for _, data in files:
            table = list(csv.reader(io.StringIO(data.decode("utf-8"), newline="")))[1:]
            split.append([(i + 2, r[:-1], r[-1]) for i, r in enumerate(table)])
        assert all(r.seal.intact for r in read)
        assert not any(replay_misfits(r.attempts, r.lines) for r in read)
        stores = iter(range(10**6))

        def merge() -> None:
            with Store(folder / f"class-{next(stores)}.sqlite3", lang="en") as store:
                result = merge_files(store, files, "en")
            assert not result.refused

        results = {
            "read (parse_progress)": timed(
                lambda: [parse_progress(data, name) for name, data in files], args.repeat),
            "  of which the seal (check_seals)": timed(
                lambda: [check_seals(s) for s in split], args.repeat),
            "replay (replay_misfits)": timed(
                lambda: [replay_misfits(r.attempts, r.lines) for r in read], args.repeat),
            "merge (merge_files, all of it)": timed(merge, args.repeat),
        }
    merge_cpu = results["merge (merge_files, all of it)"]["cpu"]
    print(f"{len(files)} files, {rows} rows; {args.repeat} runs: median wall, mean CPU")
    print(f"{'':36} {'wall ms':>9} {'CPU ms':>9} {'rows/s':>10} {'of merge':>9}")
    for name, r in results.items():
        print(f"{name:36} {r['p50']:9.1f} {r['cpu']:9.1f} {rows / (r['p50'] / 1000):10.0f} "
              f"{r['cpu'] / merge_cpu:9.1%}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
