"""Page start with and without Voilà's kernel preheating, side by side in one run.

    python benchmarks/page_start.py [--loads 5] [--gap 10]

Two standalone Voilà servers serve ``notebooks/`` as a class would (``voila notebooks/``): one
plain, one with the README's preheat flags (``tutor.commands.server.PREHEAT``: a kernel for the
play page
and one for the lessons page, started and their notebook run up to the link's reading before
any request). Headless Chromium opens, in turn on each server, a lesson link of the play page
and the lessons page, ``--loads`` times with ``--gap`` seconds between loads (time for the pool
to fill again): once in a fresh browser context (a first visit: nothing cached) and once in a
context that has seen the page before (the browser cache holds Voilà's scripts, as on a
student's second day). For each load it reports:

- html: from navigation start until the page's HTML has arrived (the server ran the notebook),
- ready: from ``goto`` until the page can be used (a move button / a lesson link),

and checks that the page honoured the link (the lesson's skill and the student's name are
shown: a preheated kernel reads the link only once the request has reached it). The server
logs say which loads were served by a preheated kernel. Preheating is standalone Voilà only:
Jupyter Server's Voilà extension (Binder) has no pool.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from bench_browser import CHROMIUM, CHROMIUM_ARGS, ROOT, median, server_rss_kib

from tutor.commands.server import PREHEAT, start_voila, stop_server, wait_for_pool

PAGES = {
    "play (lesson link)": ("Play.ipynb?lesson=04-times&lang=en&seed=3&student=bench-{n}",
                           ".ld-move", ".ld-mastery", ["multiplying", "Skills of bench-{n}"]),
    "lessons": ("Lessons.ipynb?lang=en&student=bench-{n}", ".ld-lesson-link",
                ".ld-lessons-table caption", ["Lessons of bench-{n}"]),
}
CACHES = ("cold", "cached")
NAV = "() => { const n = performance.getEntriesByType('navigation')[0]; return n.responseEnd; }"


def load(context: Any, url: str, ready: str, check: str, wants: list[str]) -> tuple[float,
                                                                                   float]:
    page = context.new_page()
    try:
        t0 = time.perf_counter()
        page.goto(url, timeout=180_000)
        page.locator(ready).first.wait_for(timeout=180_000)
        ready_s = time.perf_counter() - t0
        html_s = page.evaluate(NAV) / 1000
        text = page.locator(check).first.inner_text()
        missing = [w for w in wants if w not in text]
        if missing:
            raise SystemExit(f"the page did not honour its link {url}: {missing} not in "
                             f"{text!r}")
        return html_s, ready_s
    finally:
        page.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--loads", type=int, default=5)
    parser.add_argument("--gap", type=float, default=10.0,
                        help="seconds between loads (the pool refills)")
    args = parser.parse_args(argv)
    from playwright.sync_api import sync_playwright

    tmp = Path(tempfile.mkdtemp(prefix="page-start-"))
    modes = {"plain": [], "preheat": list(PREHEAT)}
    servers: dict[str, tuple[Any, str, Path]] = {}
    try:
        for mode, extra in modes.items():
            env = {"LEONARD_TUTOR_DB": str(tmp / f"{mode}.sqlite3")}
            log = tmp / f"{mode}.log"
            proc, base = start_voila(ROOT / "notebooks", log, env, cwd=ROOT, args=extra)
            servers[mode] = (proc, base + "voila/render/", log)
            if extra:
                wait_for_pool(base, log, kernels=2)
        time.sleep(args.gap * 2)  # the pools run their notebooks up to the link's reading
        idle = {mode: server_rss_kib(proc.pid) for mode, (proc, _, _) in servers.items()}
        results: dict[tuple[str, str, str], list[tuple[float, float]]] = {}
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, headless=True,
                                        args=CHROMIUM_ARGS)
            size = {"viewport": {"width": 1280, "height": 900}}
            seen = {mode: browser.new_context(**size) for mode in servers}
            for mode, (_, url, _) in servers.items():  # fill each "seen" context's cache
                for query, ready, check, wants in PAGES.values():
                    load(seen[mode], url + query.format(n=0), ready, check,
                         [w.format(n=0) for w in wants])
            time.sleep(args.gap)
            n = 0
            for i in range(args.loads):
                order = list(servers) if i % 2 == 0 else list(reversed(servers))
                for name, (query, ready, check, wants) in PAGES.items():
                    for cache in CACHES:
                        for mode in order:
                            n += 1
                            _, url, _ = servers[mode]
                            context = (browser.new_context(**size) if cache == "cold"
                                       else seen[mode])
                            got = load(context, url + query.format(n=n), ready, check,
                                       [w.format(n=n) for w in wants])
                            if cache == "cold":
                                context.close()
                            results.setdefault((name, cache, mode), []).append(got)
                            time.sleep(args.gap)
            browser.close()
        used = len(re.findall(r"Using pre-heated kernel",
                              servers["preheat"][2].read_text(errors="replace")))
    finally:
        for proc, _, _ in servers.values():
            stop_server(proc)

    print(f"Page start, {args.loads} loads per page, cache and mode, {args.gap:.0f} s apart "
          f"(seconds, median [min–max]); load average at the end: {os.getloadavg()[0]:.1f}")
    print(f"{'page':20} {'cache':6} {'mode':8} {'html':>19} {'ready':>19}")
    for name in PAGES:
        for cache in CACHES:
            for mode in modes:
                rows = results[(name, cache, mode)]
                html = [h for h, _ in rows]
                ready = [r for _, r in rows]
                print(f"{name:20} {cache:6} {mode:8} {median(html):6.2f} [{min(html):.2f}–"
                      f"{max(html):.2f}]  {median(ready):6.2f} [{min(ready):.2f}–"
                      f"{max(ready):.2f}]")
            plain = median([r for _, r in results[(name, cache, "plain")]])
            heat = median([r for _, r in results[(name, cache, "preheat")]])
            print(f"{name:20} {cache:6} ratio preheat/plain (ready, medians): "
                  f"{heat / plain:.2f}")
    total = args.loads * len(PAGES) * len(CACHES)
    print(f"preheated kernels used: {used} of {total + len(PAGES)} preheat loads ({total} "
          f"measured, {len(PAGES)} warm-up); every page honoured its link")
    for mode, (kib, kernels) in idle.items():
        print(f"idle server before any page ({mode}): {kib / 1024:.0f} MiB, "
              f"{kernels} kernels")
    return 0


if __name__ == "__main__":
    sys.exit(main())
