"""What the class benchmarks (``classroom.py`` in browsers, ``class_server.py`` over websockets)
share: the class server started as the README sets it up, the mirror session that knows the
moves and answers, the processes' CPU read from /proc, the kernels left, the answers stored,
and the p50/p95 of the times."""

from __future__ import annotations

import json
import tempfile
import time
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any, Protocol

from bench_browser import ROOT, cpu_s, percentile

from tutor.commands.server import CULLING, kernel_pids, start_voila, stop_server, write_voila_config


def start_class_server(prefix: str, started: str, args: Sequence[str] = (),
                       culling: dict[str, Any] | None = None,
                       env: dict[str, str] | None = None,
                       tmp: Path | None = None) -> tuple[Any, str, Path, Path]:
    """Standalone ``voila notebooks/`` with the project's ``voila.json`` (the culling of
    :data:`tutor.commands.server.CULLING` under its kernel manager's settings, or under ``culling``)
    and the ``voila.py`` of ``python -m tutor.commands.server --write-server-config`` (in a folder
    of
    its own: a voila.py in the working directory would hide the voila package from ``python
    -m voila``), one progress file for the class.

    ``env`` is added to the server's environment (a store service's address in
    ``LEONARD_TUTOR_DB``: the file is then the service's), ``tmp`` is the run's folder (default
    a new one). Returns (the server's process, its address, the run's folder, the progress
    file); exits when the server's log lacks ``started`` (the voila.py did not run)."""
    tmp = tmp or Path(tempfile.mkdtemp(prefix=prefix))
    config = json.loads((ROOT / "voila.json").read_text(encoding="utf-8"))
    config["MappingKernelManager"] = {
        **CULLING, **(config.get("MappingKernelManager", {}) if culling is None else culling)}
    write_voila_config(tmp / "config" / "voila.py")
    (tmp / "config" / "voila.json").write_text(json.dumps(config), encoding="utf-8")
    db = tmp / "class.sqlite3"
    proc, base = start_voila(
        ROOT / "notebooks", tmp / "voila.log", {"LEONARD_TUTOR_DB": str(db), **(env or {})},
        cwd=tmp,
        args=[*args, f"--Voila.config_file_paths={json.dumps([str(tmp / 'config')])}"])
    if started not in (tmp / "voila.log").read_text(errors="replace"):
        stop_server(proc)
        raise SystemExit(f"the server did not run {tmp / 'config' / 'voila.py'}")
    return proc, base, tmp, db


def mirror(lesson: str, seed: int) -> Any:
    """A session with the page's lesson and seed: it knows the legal moves and the answers."""
    from tutor.session.session import Session

    return Session.from_lesson(lesson, lang="en", seed=seed, store=None)


def forced(session: Any) -> None:
    """The page takes the session's own steps by itself (the bots' moves, a human's forced
    draw or pass: :meth:`Session.advance`); so does the mirror."""
    while session.advance().events:
        pass


def note_cpu(cpu: dict[int, float], pids: Iterable[int]) -> None:
    """Each process's CPU seconds at its last sighting (a process gone reads 0: kept)."""
    for pid in pids:
        cpu[pid] = max(cpu.get(pid, 0.0), cpu_s(pid))


def cpu_now(server_pid: int) -> dict[str, dict[int, float]]:
    """The CPU seconds the server and each of its kernels have used so far."""
    return {"server": {server_pid: cpu_s(server_pid)},
            "kernels": {p: cpu_s(p) for p in kernel_pids(server_pid)}}


def wait_for_kernels(server_pid: int, within: float, want: int = 0,
                     poll: float = 0.25) -> int:
    """Poll until the server runs at most ``want`` kernels, or ``within`` seconds passed;
    the kernels it runs then."""
    deadline = time.monotonic() + within
    while True:
        n = len(kernel_pids(server_pid))
        if n <= want or time.monotonic() > deadline:
            return n
        time.sleep(poll)


class _Student(Protocol):
    name: str
    answers: list[str]


def stored_answers(db: Path, name: str) -> list[str]:
    """What the progress file holds of ``name``'s answers, in order."""
    from tutor.storage.store import Store

    if not db.exists():
        return []
    with Store(db) as store:
        return [a.input for a in store.attempts(name)]


def lost_answers(db: Path, students: Iterable[_Student], verb: str
                 ) -> tuple[list[str], int, int]:
    """(each student whose stored answers are not the ones ``verb`` (sent, gave), in words;
    the answers handed in; the answers stored)."""
    lost = []
    given = stored = 0
    for s in students:
        saved = stored_answers(db, s.name)
        given += len(s.answers)
        stored += len(saved)
        if saved != s.answers:
            lost.append(f"{s.name}: {verb} {len(s.answers)} answers, the store has "
                        f"{len(saved)}")
    return lost, given, stored


def stats(values: list[float]) -> dict[str, float]:
    """How many, p50, p95 and the largest."""
    return {"n": len(values), "p50": percentile(values, 50), "p95": percentile(values, 95),
            "max": max(values, default=float("nan"))}


def run_child(code: str, env: dict[str, str]) -> dict[str, Any]:
    """Run ``code`` in a fresh Python (the repository first on its path, a throwaway progress
    file, ``env`` added) and return the JSON object its last line prints."""
    import os
    import subprocess
    import sys

    with tempfile.TemporaryDirectory() as tmp:
        full = {**os.environ, **env, "LEONARD_TUTOR_DB": str(Path(tmp) / "progress.sqlite3"),
                "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}
        out = subprocess.run([sys.executable, "-c", code], env=full, cwd=tmp,
                             capture_output=True, text=True, timeout=300)
    if out.returncode != 0:
        raise SystemExit(out.stderr[-3000:])
    return dict(json.loads(out.stdout.strip().splitlines()[-1]))
