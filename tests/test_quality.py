"""House checks: ruff and mypy (strict for engine) stay clean, and tutor never runs student text."""

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", *args], cwd=ROOT, capture_output=True,
                          text=True, timeout=600)


@pytest.mark.skipif(shutil.which("ruff") is None and not (ROOT / ".venv/bin/ruff").exists(),
                    reason="ruff is not installed (pip install -e '.[test]')")
def test_ruff_is_clean():
    out = _run("ruff", "check", ".")
    assert out.returncode == 0, out.stdout + out.stderr


@pytest.mark.slow
def test_mypy_is_clean():
    pytest.importorskip("mypy")
    out = _run("mypy", "engine", "tutor")
    assert out.returncode == 0, out.stdout + out.stderr


def test_no_code_evaluation_in_tutor():
    """Student text is parsed with a whitelist: nothing in tutor/ may call eval, exec,
    sympify or parse_expr."""
    bad = re.compile(r"\b(eval|exec|sympify|parse_expr)\s*\(")
    hits = [f"{p.relative_to(ROOT)}:{i}" for p in (ROOT / "tutor").rglob("*.py")
            for i, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
            if bad.search(line)]
    assert hits == []
