"""A small class measured at the server (benchmarks/class_server.py): three simulated students,
websocket clients speaking Voilà's own protocol (no browser), play a lesson against one
standalone Voilà server and leave as a closed tab does. Every answer they sent is stored once
under their own name (docs/rules.md §4: the tutor's questions and the answers recorded), no student
fails, and no kernel is left once they left; on the progress file the kernels write, and
through the class hub's store service (issue 41: a real JupyterHub from deploy/, each kernel
with its own student's hub token). Timings are reported, never asserted."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.slow
@pytest.mark.parametrize("store", ["file", "service"])
def test_three_simulated_students_lose_nothing_and_leave_no_kernel(store: str) -> None:
    pytest.importorskip("voila")
    pytest.importorskip("websockets")
    if store == "service":
        pytest.importorskip("jupyterhub")
    out = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "class_server.py"), "--students", "3",
         "--moves", "8", "--json", "--check", "--stores", store],
        cwd=ROOT, capture_output=True, text=True, timeout=900)
    assert out.stdout.strip(), out.stderr[-3000:]
    report = json.loads(out.stdout)
    assert report["store"] == store
    assert report["errors"] == [], report["errors"]
    assert report["clicks"] > 0
    assert report["attempts_sent"] > 0  # the seeded games ask questions
    assert report["lost"] == [] and report["attempts_stored"] == report["attempts_sent"]
    assert report["kernels_left"] == 0
    assert out.returncode == 0
