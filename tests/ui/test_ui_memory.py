"""Memory per student (issue 35 part 5): the play page loads sympy for nothing a student sees.

A lesson's page, up to its first question and through it (the hint ladder's formulas, a wrong
answer, the worked solution after the right one, docs/rules.md §4), writes its formulas with
:mod:`tutor.teaching.formula`, so sympy (about 33 MiB of a kernel) is never imported; the formulas
themselves are compared with sympy's in tests/tutor/test_formula.py.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

PLAY = r"""
import json, sys
from tutor.teaching.questions import warm_up
from tests.playing import play_to_question
from tutor.ui import dashboard
out = {}
for lesson in sys.argv[1:]:
    app = dashboard(lesson, lang="en", seed=100, student="memory")
    warm_up("en")  # what a live page runs once the board is out
    q = play_to_question(app)  # the first offered move each time, as the benchmark
    s = app.session
    at_question = "sympy" in sys.modules
    hints = 0
    while q is not None and s.asker.more_hints() and hints < 10:
        app.hint()  # each rung: plain math and its formula drawn as MathML
        hints += 1
    app.submit(str(q.expected + 1))
    fb = s.reveal() if s.pending_question is q else None
    out[lesson] = {"question": q is not None, "at_question": at_question,
                   "hints": hints, "worked": q.worked if q is not None else "",
                   "feedback": fb.worked if fb is not None else ""}
out["sympy"] = "sympy" in sys.modules
print(json.dumps(out))
"""


def test_a_lesson_up_to_its_first_question_and_through_it_never_imports_sympy(
        tmp_path: Path) -> None:
    lessons = ["01-other-end", "04-times", "05-squares", "07-all-power"]
    env = {**os.environ, "LEONARD_TUTOR_DB": str(tmp_path / "progress.sqlite3"),
           "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    run = subprocess.run([sys.executable, "-c", PLAY, *lessons], cwd=tmp_path, env=env,
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr[-2000:]
    out = json.loads(run.stdout.strip().splitlines()[-1])
    for lesson in lessons:
        got = out[lesson]
        assert got["question"] and not got["at_question"], (lesson, got)
        assert got["hints"] >= 1, (lesson, got)
    # the worked solutions were written (formula, steps, the engine's number) without sympy
    assert any(" = " in out[lesson]["worked"] for lesson in lessons), out
    assert all(out[lesson]["feedback"] in ("", out[lesson]["worked"]) for lesson in lessons)
    assert out["sympy"] is False
