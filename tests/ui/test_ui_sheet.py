"""The score sheet and progress panel's HTML (tutor/ui/sheet.py): no widgets, no kernel."""

from __future__ import annotations

import base64
import re
from pathlib import Path

from tutor.store import Store
from tutor.ui.sheet import progress_html, sheet_links_html


def test_sheet_links_carry_the_table_and_the_csv() -> None:
    out = sheet_links_html("<table>t</table>", "a,b\n1,2\n", 2, "en")
    assert "download='leonard-round-2.csv'" in out and "download='leonard-round-2.html'" in out
    data = dict(re.findall(r"href='data:text/(\w+);charset=utf-8;base64,([^']+)'", out))
    assert base64.b64decode(data["csv"]).decode() == "a,b\n1,2\n"
    assert base64.b64decode(data["html"]).decode().endswith("<table>t</table>")
    assert "Download CSV" in out


def test_progress_panel_says_when_nothing_is_saved(tmp_path: Path) -> None:
    assert progress_html(None, "ana", "en") == "Progress is not being saved in this game."
    store = Store(tmp_path / "p.sqlite3")
    try:
        out = progress_html(store, "ana", "en")
    finally:
        store.close()
    assert "0 answers saved for ana." in out
    assert "ld-progress-download" in out and "download='leonard-progress-ana.csv'" in out
