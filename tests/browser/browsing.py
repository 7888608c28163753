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


def audit(page: object, name: str, artifacts: Path) -> list[dict[str, object]]:
    """Run axe-core on the page as it is; keep its report as ``axe-NAME.json`` in the test
    artifacts and return the serious and critical violations (id, impact, where)."""
    import json

    from axe_playwright_python.sync_playwright import Axe

    result = Axe().run(page)
    violations = result.response["violations"]
    (artifacts / f"axe-{name}.json").write_text(json.dumps(violations, indent=1),
                                                encoding="utf-8")
    return [{"id": v["id"], "impact": v["impact"],
             "nodes": [n["target"] for n in v["nodes"]]}
            for v in violations if v["impact"] in ("serious", "critical")]
