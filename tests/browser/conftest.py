"""Fixtures for the browser tests: Voilà serving the dashboard, Debian's headless Chromium.

Without Chromium these tests skip and say why — except under CI=true, where they fail, since
CI installs Chromium and a silent skip there would hide a broken dashboard.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browsing import (
    ARTIFACTS,
    CANVAS_STATS,
    CHROMIUM,
    CHROMIUM_ARGS,
    NOTEBOOK,
    ROOT,
    WINDOW,
    need_chromium,
    serve,
    watch_errors,
)

from tutor.commands.server import start_voila, stop_server
from tutor.ui.shared.panel import LOGGED


@pytest.fixture(scope="session")
def progress_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("progress") / "progress.sqlite3"


@pytest.fixture(scope="session")
def voila_log(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The play-page server's log, where its kernels write the tracebacks of their errors."""
    return tmp_path_factory.mktemp("voila") / "voila.log"


@pytest.fixture(scope="session")
def voila_url(voila_log: Path, progress_db: Path) -> Iterator[str]:
    need_chromium()
    proc, base = start_voila(NOTEBOOK, voila_log, {"LEONARD_TUTOR_DB": str(progress_db)},
                             cwd=ROOT)
    yield base
    stop_server(proc)


@pytest.fixture(scope="session")
def pages(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    """The play, lessons and teacher pages served as a class serves them (``voila
    notebooks/``), one server for the session's tests of those pages."""
    need_chromium()
    folder = tmp_path_factory.mktemp("pages")
    proc, url = serve(folder)
    yield {"url": url, "db": folder / "class.sqlite3", "lessons": folder / "lessons",
           "folder": folder}
    stop_server(proc)


def _server_log(request: pytest.FixtureRequest) -> Path | None:
    """The log of the server a test uses: the play page's, or the lessons and teacher pages'
    (tests/browser/test_pages.py's ``pages``)."""
    if "voila_url" in request.fixturenames:
        log: Path = request.getfixturevalue("voila_log")
        return log
    if "pages" in request.fixturenames:
        folder: Path = request.getfixturevalue("pages")["folder"]
        return folder / "voila.log"
    return None


@pytest.fixture(autouse=True)
def _no_kernel_errors(request: pytest.FixtureRequest) -> Iterator[None]:
    """A test of a page fails if a page action failed in its kernel while it ran (the page
    says "Something went wrong" and goes on, which a test could miss): the kernel wrote the
    error to the server's log after the line ``LOGGED``."""
    log = _server_log(request)
    if log is None:
        yield
        return
    start = log.stat().st_size if log.exists() else 0
    yield
    text = log.read_bytes()[start:].decode(errors="replace")
    if LOGGED in text:
        pytest.fail("a page action failed in the kernel while the test ran:\n"
                    + text[text.index(LOGGED):][:4000])


@pytest.fixture(scope="session")
def browser() -> Iterator[object]:
    need_chromium()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        yield b
        b.close()


@pytest.fixture()
def page(browser: object) -> Iterator[object]:
    context = browser.new_context(viewport=WINDOW)  # type: ignore[attr-defined]
    pg = watch_errors(context.new_page())
    console: list[str] = []
    pg.on("console", lambda m: " of shared " in m.text  # JupyterLab's module version notes
          or console.append(f"{m.type}: {m.text}"[:500]))
    pg.console_lines = console  # type: ignore[attr-defined]
    yield pg
    context.close()


# What a failed page test leaves for whoever meets it (a CI clone is wiped by the next run):
# the page's board(s) as the browser holds them, its console, the screenshot's path, the tail
# of its server's log. An intermittent failure is then read from the one run that had it.
PAGE_STATE = f"""() => [...document.querySelectorAll('canvas.ld-board')].map(el => {{
  const {{width, height, painted}} = ({CANVAS_STATS})(el);
  return {{width, height, shown: el.offsetWidth + 'x' + el.offsetHeight, painted,
          repaintAsks: el.dataset.ldRepaintAsks || '0'}};
}})"""


def _failure_report(item: pytest.Item) -> str:
    lines: list[str] = []
    pg: Any = item.funcargs.get("page")  # type: ignore[attr-defined]
    if pg is not None and not pg.is_closed():
        name = re.sub(r"[^\w.-]+", "_", item.nodeid.split("::", 1)[-1])[:100]
        shot = ARTIFACTS / f"failed-{name}.png"
        try:
            ARTIFACTS.mkdir(exist_ok=True)
            pg.screenshot(path=str(shot), full_page=True, timeout=10_000)
            lines.append(f"screenshot: {shot}")
            lines.append(f"url: {pg.url}")
            lines.append(f"boards: {pg.evaluate(PAGE_STATE)}")
        except Exception as err:  # a crashed or stuck page: say so, keep the rest
            lines.append(f"the page could not be read: {type(err).__name__}: {err}"[:500])
        lines += [f"page error: {e}"[:1000] for e in pg.page_errors[-5:]]
        lines.append("console (last 40):")
        lines += ["  " + line for line in pg.console_lines[-40:]]
    log = _server_log(item._request)  # type: ignore[attr-defined]
    if log is not None and log.exists():
        lines.append(f"server log {log} (last 60 lines):")
        lines += ["  " + line for line in
                  log.read_text(errors="replace").splitlines()[-60:]]
    return "\n".join(lines)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Iterator[None]:
    outcome = yield
    report = outcome.get_result()  # type: ignore[attr-defined]
    if report.when == "call" and report.failed:
        text = _failure_report(item)
        if text:
            report.sections.append(("the page and its server at the failure", text))


@pytest.fixture(scope="session")
def artifacts() -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS
