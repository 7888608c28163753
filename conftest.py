"""Test-wide setup: progress written by tests (and by the notebooks nbval runs) goes to a
throwaway file, never to the user's real progress store."""

import os
import shutil
import subprocess
import tempfile
from collections.abc import Callable
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent


def pytest_report_header(config):  # noqa: ARG001 - pytest hook signature
    """Which engine build the run tests: compiled by mypyc, or pure Python (and why)."""
    import engine

    return f"engine: {engine.BUILD}"


def pytest_configure(config):  # noqa: ARG001 - pytest hook signature
    if "LEONARD_TUTOR_DB" not in os.environ:
        folder = tempfile.mkdtemp(prefix="leonard-tests-")
        os.environ["LEONARD_TUTOR_DB"] = os.path.join(folder, "progress.sqlite3")


def _copy_checkout(dest: Path) -> Path:
    """Copy the repository as a clone would have it (tracked and new files, nothing ignored)
    into ``dest``, so a build or an install test leaves the checkout untouched."""
    files = subprocess.run(["git", "ls-files", "-z", "--cached", "--others",
                            "--exclude-standard"], cwd=ROOT, check=True,
                           capture_output=True).stdout.decode().split("\0")
    for name in filter(None, files):
        src = ROOT / name
        if src.is_file():
            (dest / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dest / name)
    return dest


@pytest.fixture(scope="session")
def copy_checkout() -> Callable[[Path], Path]:
    return _copy_checkout
