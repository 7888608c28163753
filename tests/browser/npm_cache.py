"""npm packages the tests run (axe-core, configurable-http-proxy), installed once into a cache
folder. Test workers run side by side (pytest-xdist), so the install holds a lock: the second
worker waits, then finds the package there instead of installing over the first one's."""

from __future__ import annotations

import fcntl
import shutil
import subprocess
from pathlib import Path


def npm_install(folder: Path, spec: str, wanted: Path) -> Path | None:
    """``wanted`` (a file the package ``spec`` installs under ``folder``), installing it with
    npm when missing; None when it is missing and there is no npm."""
    if wanted.exists():
        return wanted
    npm = shutil.which("npm")
    if npm is None:
        return None
    folder.mkdir(parents=True, exist_ok=True)
    with open(folder.parent / f".{folder.name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes
        if not wanted.exists():
            # A package.json of its own, or npm installs into the first folder above with one.
            (folder / "package.json").write_text('{"private": true}\n', encoding="utf-8")
            subprocess.run([npm, "install", "--silent", "--no-audit", "--no-fund", "--no-save",
                            spec], cwd=folder, check=True, capture_output=True, timeout=300)
    return wanted
