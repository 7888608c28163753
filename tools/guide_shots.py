#!/usr/bin/env python3
"""Retake the guides' pictures (``docs/img/*.png``) of the real pages, when a page changes.

    python tools/guide_shots.py

It runs ``tests/browser/test_guide_shots.py`` (a class's server, a headless Chromium) with
``LEONARD_GUIDE_SHOTS`` set to ``docs/img``, so that the pictures the test takes and checks go
to the guides instead of the test's artifacts folder, then lists the pictures that changed
(``git status``): commit one only when the change is meant to show. The test alone writes
nothing into the checkout. Exit status: the test's.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
IMG = ROOT / "docs" / "img"


def main() -> int:
    env = {**os.environ, "LEONARD_GUIDE_SHOTS": str(IMG)}
    test = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                           "tests/browser/test_guide_shots.py"], cwd=ROOT, env=env)
    changed = subprocess.run(["git", "status", "--short", "--", str(IMG)], cwd=ROOT,
                             capture_output=True, text=True).stdout
    print(f"Pictures changed in {IMG.relative_to(ROOT)}:" if changed.strip()
          else f"No picture in {IMG.relative_to(ROOT)} changed.")
    print(changed, end="")
    return test.returncode


if __name__ == "__main__":
    sys.exit(main())
