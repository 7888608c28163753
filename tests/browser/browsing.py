"""What the browser tests share: where things are, and Debian's Chromium."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOK = ROOT / "notebooks" / "Play.ipynb"
CHROMIUM = os.environ.get("CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
    "--disable-dev-shm-usage",
]
ARTIFACTS = ROOT / "test-artifacts"


def need_chromium() -> None:
    if Path(CHROMIUM).exists():
        return
    reason = (f"Chromium not found at {CHROMIUM}: install Debian's chromium "
              "(apt-get install -y chromium) to run the browser tests")
    if os.environ.get("CI") == "true":
        pytest.fail(reason)
    pytest.skip(reason)
