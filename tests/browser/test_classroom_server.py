"""A server that survives a class (issue: every page load left its kernel running, and 10
reloads plus a few tabs left 25 kernels using 1.9 GB): kernels no page is connected to are
culled, by the settings shipped in ``voila.json`` (standalone Voilà) and in the Jupyter Server
config ``binder/postBuild`` writes (Binder); a kernel with an open page is kept.

The shipped times (minutes) are scaled down to seconds in a copy of the config, so the test
exercises the shipped file's settings without waiting minutes.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

from browsing import NOTEBOOK, ROOT, WINDOW, give_a_name, need_chromium

from tutor.commands.server import (
    CULLING,
    EXECUTION,
    kernel_pids,
    start_voila,
    stop_server,
    write_voila_config,
)

FAST = {"cull_idle_timeout": 30, "cull_interval": 2}
"""Seconds, not minutes: long enough that a page still connecting on a busy machine is not
culled before it connects (an unconnected kernel counts as idle), short enough to wait for."""


def scaled(config: dict[str, Any]) -> dict[str, Any]:
    """The config with its culling times in seconds instead of minutes (the rest as shipped)."""
    section = config["MappingKernelManager"]
    assert section == CULLING  # the file holds the project's settings, nothing else
    assert config["VoilaExecutor"] == EXECUTION
    return {**config, "MappingKernelManager": {**section, **FAST}}


def open_dashboard(page: Any, url: str) -> None:
    page.goto(url, timeout=120_000)
    give_a_name(page)
    page.locator(".ld-move").first.wait_for(timeout=120_000)


def wait_for_kernels(server_pid: int, want: int, within: float = 240) -> list[int]:
    """Poll until the server runs ``want`` kernels (a stable state: culling only removes)."""
    deadline = time.monotonic() + within
    while True:
        pids = kernel_pids(server_pid)
        if len(pids) == want or time.monotonic() > deadline:
            return pids
        time.sleep(0.5)


def check_culling(browser: Any, url: str, server_pid: int) -> None:
    context = browser.new_context(viewport=WINDOW)
    keep = context.new_page()
    open_dashboard(keep, url)
    for _ in range(3):  # tabs opened and closed, and a reload of one of them
        tab = context.new_page()
        open_dashboard(tab, url)
        tab.reload()
        tab.locator(".ld-move").first.wait_for(timeout=120_000)
        tab.close()
    assert len(kernel_pids(server_pid)) >= 2  # closed tabs' kernels are still there
    left = wait_for_kernels(server_pid, 1)
    assert len(left) == 1, f"{len(left)} kernels left after the tabs closed"
    # The open page kept its kernel: it still plays.
    button = keep.locator(".ld-move").first
    handle = button.element_handle()
    button.click()
    handle.wait_for_element_state("hidden", timeout=10_000)
    assert kernel_pids(server_pid) == left
    context.close()


def test_voila_culls_closed_tabs_kernels(browser: Any, tmp_path: Path) -> None:
    need_chromium()
    config = scaled(json.loads((ROOT / "voila.json").read_text(encoding="utf-8")))
    (tmp_path / "voila.json").write_text(json.dumps(config), encoding="utf-8")
    proc, base = start_voila(NOTEBOOK, tmp_path / "voila.log", cwd=tmp_path,
                             env={"LEONARD_TUTOR_DB": str(tmp_path / "p.sqlite3")})
    try:
        check_culling(browser, base + "?lang=en&seed=2", proc.pid)
    finally:
        stop_server(proc)


def test_standalone_voila_compiles_the_templates_once_and_serves_the_pages(
        browser: Any, tmp_path: Path) -> None:
    """A class server set up as the README says (``python -m tutor.commands.server
    --write-server-config`` writes the ``voila.py`` standalone Voilà reads from the Jupyter
    config path): the server turns the template cache on, and pages rendered from cached
    templates open and play."""
    need_chromium()
    config = tmp_path / "etc-jupyter"
    write_voila_config(config / "voila.py")
    proc, base = start_voila(NOTEBOOK, tmp_path / "voila.log", cwd=tmp_path,
                             env={"LEONARD_TUTOR_DB": str(tmp_path / "p.sqlite3"),
                                  "JUPYTER_CONFIG_PATH": str(config)})
    try:
        log = (tmp_path / "voila.log").read_text(errors="replace")
        assert ("tutor.hub.page_templates: page templates are compiled once per server"
                in log), log
        context = browser.new_context(viewport=WINDOW)
        for seed in (2, 3):  # the second page is rendered from the cached templates
            page = context.new_page()
            open_dashboard(page, base + f"?lang=en&seed={seed}")
            button = page.locator(".ld-move").first
            handle = button.element_handle()
            button.click()
            handle.wait_for_element_state("hidden", timeout=30_000)
            page.close()
        context.close()
    finally:
        stop_server(proc)
