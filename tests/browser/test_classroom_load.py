"""A small class at once through the classroom benchmark (benchmarks/classroom.py): three
students play a lesson against one Voilà server, each in a Chromium page, writing to one
progress file. Nothing they answered is lost, no page fails, and once the pages are closed
the culling (voila.json's, scaled down) leaves no kernel behind. Times are reported by the
benchmark, never asserted here."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from browsing import ROOT, need_chromium

pytestmark = pytest.mark.slow


def test_a_class_of_three_loses_nothing_and_leaves_no_kernel() -> None:
    need_chromium()
    out = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "classroom.py"), "--students", "3",
         "--moves", "8", "--json", "--check"],
        cwd=ROOT, capture_output=True, text=True, timeout=1800)
    assert out.stdout.strip(), out.stderr[-3000:]
    report = json.loads(out.stdout)
    assert report["errors"] == [], report["errors"]
    assert report["answers_given"] > 0  # the seeded games ask questions
    assert report["lost"] == [] and report["answers_stored"] == report["answers_given"]
    assert report["kernels_left"] == 0
    assert out.returncode == 0
