"""Kernels alive after tabs close: N tabs open a Voilà page, close (running the page's
``beforeunload``, as closing a tab does), and the server's kernels are counted ``--wait``
seconds later (issue 36).

    python benchmarks/closed_tabs.py [--tabs 10] [--wait 10] [--without-fix] [--json]

Standalone Voilà serves a one-widget notebook with no culling, so only the page's own
shutdown request (``POST voila/api/shutdown/<kernel>``) can stop a kernel. With the project's
``voila.py`` (:data:`tutor.commands.server.VOILA_PY`, which turns on
:mod:`tutor.hub.page_xsrf`) the page
has the ``_xsrf`` cookie that request needs; ``--without-fix`` serves it without, as Voilà
does alone (every shutdown: ``403 '_xsrf' argument missing from POST``).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "browser"))

from browsing import CHROMIUM, CHROMIUM_ARGS  # noqa: E402

from tutor.commands.server import VOILA_PY, kernel_pids, start_voila, stop_server  # noqa: E402

NOTEBOOK = {
    "cells": [{"cell_type": "code", "execution_count": None, "id": "a", "metadata": {},
               "outputs": [], "source": "import ipywidgets as w\nw.Button(description='hi')"}],
    "metadata": {"kernelspec": {"display_name": "Python 3", "language": "python",
                                "name": "python3"}},
    "nbformat": 4, "nbformat_minor": 5,
}


def measure(tabs: int, wait: float, fix: bool) -> dict[str, object]:
    from playwright.sync_api import sync_playwright

    folder = Path(tempfile.mkdtemp(prefix="closed-tabs-"))
    (folder / "tab.ipynb").write_text(json.dumps(NOTEBOOK), encoding="utf-8")
    config = folder / "config"
    config.mkdir()
    if fix:
        (config / "voila.py").write_text(VOILA_PY, encoding="utf-8")
    env = {"JUPYTER_CONFIG_PATH": str(config),
           "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    proc, base = start_voila(folder / "tab.ipynb", folder / "voila.log", env, cwd=folder)
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, headless=True,
                                        args=CHROMIUM_ARGS)
            context = browser.new_context()
            pages = []
            for _ in range(tabs):
                page = context.new_page()
                page.goto(base, timeout=120_000)
                page.locator("button", has_text="hi").wait_for(timeout=120_000)
                pages.append(page)
            opened = len(kernel_pids(proc.pid))
            for page in pages:
                page.close(run_before_unload=True)
            time.sleep(wait)
            alive = len(kernel_pids(proc.pid))
            browser.close()
        log = (folder / "voila.log").read_text(errors="replace")
    finally:
        stop_server(proc)
    return {"fix": fix, "tabs": tabs, "kernels_open": opened, "wait_s": wait,
            "kernels_alive_after": alive, "shutdown_403": log.count("403 POST"),
            "shutdown_204": log.count("204 POST")}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tabs", type=int, default=10)
    parser.add_argument("--wait", type=float, default=10.0)
    parser.add_argument("--without-fix", action="store_true")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    result = measure(args.tabs, args.wait, not args.without_fix)
    print(json.dumps(result) if args.json else
          "\n".join(f"{k}: {v}" for k, v in result.items()))


if __name__ == "__main__":
    main()
