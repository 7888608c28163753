"""What opening a page costs the browser: our play page against a bare Voilà page, in one run.

    python benchmarks/browser_cost.py [--loads 3]

One standalone Voilà server serves the repository; one headless Chromium opens, in turn and
each in a fresh context (a first visit, nothing cached), ``--loads`` times each:

- ours: the play page by a lesson link (``notebooks/Play.ipynb?lesson=04-times…``), until a
  move button shows;
- bare Voilà: ``benchmarks/bare_canvas.ipynb``, one canvas and one button, until the button
  shows.

For each it reports the CPU seconds Chromium's processes spent on the load (every thread of the
browser, its pages, GPU and network processes, read from /proc from just before ``goto`` until
two seconds after the page is ready, so the page's last work is counted), the median over the
loads, and ours ÷ bare. The classroom benchmark opens ten such pages on the same two cores as
the server: this is the part of a class's arrival the page itself decides and Voilà's own
front end (its scripts, styles and widget manager) does not.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
from pathlib import Path
from typing import Any

from bench_browser import CHROMIUM, CHROMIUM_ARGS, ROOT, median
from cpu_by_process import processes

from tutor.commands.server import start_voila, stop_server

PAGES = {
    "ours: play page by a lesson link": (
        "notebooks/Play.ipynb?lesson=04-times&lang=en&seed=3&student=bench-{n}",
        ".ld-move:not([title='draw']):not([title='pass'])"),
    "bare Voilà: one canvas, one button": ("benchmarks/bare_canvas.ipynb",
                                           ".widget-button"),
}
SETTLE_S = 2.0
"""Seconds after the page is ready that still count (the widgets' last drawing)."""


def chromium_cpu() -> dict[str, float]:
    """CPU seconds used so far by each kind of Chromium process (``cpu_by_process``'s kinds:
    ``chromium renderer``, ``chromium gpu-process``…)."""
    out: dict[str, float] = {}
    for kind, seconds in processes().values():
        if kind.startswith("chromium "):
            out[kind] = out.get(kind, 0.0) + seconds
    return out


async def load(browser: Any, url: str, ready: str) -> dict[str, float]:
    """Open ``url`` in a fresh context; the CPU each process kind spent until it was ready."""
    context = await browser.new_context(viewport={"width": 1280, "height": 900})
    try:
        page = await context.new_page()
        before = chromium_cpu()
        await page.goto(url, timeout=300_000)
        await page.wait_for_selector(ready, state="visible", timeout=300_000)
        await asyncio.sleep(SETTLE_S)
        after = chromium_cpu()
    finally:
        await context.close()
    return {k: after[k] - before.get(k, 0.0) for k in after}


async def run(base: str, loads: int) -> dict[str, list[dict[str, float]]]:
    from playwright.async_api import async_playwright

    seen: dict[str, list[dict[str, float]]] = {name: [] for name in PAGES}
    async with async_playwright() as p:
        browser = await p.chromium.launch(executable_path=CHROMIUM, headless=True,
                                          args=CHROMIUM_ARGS)
        for n in range(loads + 1):  # the first round warms the server and is not counted
            for name, (path, ready) in PAGES.items():
                used = await load(browser, base + "voila/render/" + path.format(n=n), ready)
                if n:
                    seen[name].append(used)
        await browser.close()
    return seen


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--loads", type=int, default=3, help="loads of each page counted")
    args = parser.parse_args(argv)
    tmp = Path(tempfile.mkdtemp(prefix="browser-cost-"))
    proc, base = start_voila(ROOT, tmp / "voila.log",
                             {"LEONARD_TUTOR_DB": str(tmp / "progress.sqlite3")}, cwd=tmp)
    try:
        seen = asyncio.run(run(base, args.loads))
    finally:
        stop_server(proc)
    totals = {}
    print(f"Chromium CPU seconds per page load, median of {args.loads} (fresh context each):")
    for name, runs in seen.items():
        totals[name] = median([sum(r.values()) for r in runs])
        kinds = sorted({k for r in runs for k in r})
        parts = ", ".join(f"{k} {m:.2f}" for k in kinds
                          if (m := median([r.get(k, 0.0) for r in runs])) >= 0.005)
        print(f"  {name:36} {totals[name]:5.2f} s  ({parts})")
    ours, bare = totals.values()
    print(f"ours ÷ bare Voilà: {ours / bare:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
