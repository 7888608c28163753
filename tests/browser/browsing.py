"""What the browser tests share: where things are, and Debian's Chromium."""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Any

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


# Each visible box matching the selector that shows a placeholder: its text, the text's width
# in the box's font, and the room inside the box (its width less its padding).
_PLACEHOLDERS = """(selector) => [...document.querySelectorAll(selector)]
  .filter(box => box.offsetParent !== null && box.placeholder).map(box => {
    const style = getComputedStyle(box);
    const ctx = document.createElement('canvas').getContext('2d');
    ctx.font = style.font;
    const room = box.clientWidth - parseFloat(style.paddingLeft)
        - parseFloat(style.paddingRight);
    return [box.placeholder, ctx.measureText(box.placeholder).width, room];
  })"""


def placeholders(page: Any, selector: str) -> list[tuple[str, float, float]]:
    """(text, width in px, room in px) of each visible ``selector`` box's placeholder: a
    hint wider than its room is cut off on the screen."""
    return [(text, width, room) for text, width, room in page.evaluate(_PLACEHOLDERS, selector)]
