"""The dashboard's speed: one click on the server, page start in Voilà, kernel memory.

    python benchmarks/dashboard_speed.py [--clicks 300] [--loads 5] [--clicks-only]

1. Server side of one student click: the move, the bots' replies (without the visible pause
   between them) and the redraw of every panel and the board's canvas commands, in both builds
   of the engine (compiled by mypyc, and pure Python with ``LEONARD_PURE=1``), each in a
   process of its own, against the greedy, search and expert bots. Goals: p95 ≤ 50 ms; with
   the search bot, compiled, p95 ≤ 20 ms. ``--clicks-only`` stops here.
2. Voilà, from the request to an interactive board (first button rendered and canvas painted),
   against a bare notebook with one canvas, in the same run, in headless Chromium. Goal ≤ 1.5×.
3. The kernel's resident memory with the game loaded, against that bare ipywidgets+ipycanvas
   kernel. Goal ≤ 1.5×.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tutor.commands.server import start_voila, stop_server  # noqa: E402

CHROMIUM_ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
    "--disable-dev-shm-usage",
]
PAINTED = """(el) => { const c = document.createElement('canvas'); c.width = el.width;
  c.height = el.height; const x = c.getContext('2d'); x.drawImage(el, 0, 0);
  const d = x.getImageData(0, 0, c.width, c.height).data;
  for (let i = 3; i < d.length; i += 4) if (d[i]) return true; return false; }"""


def pct(values: list[float], q: int) -> float:
    return statistics.quantiles(values, n=100)[q - 1]


def click_times(clicks: int, bots: str) -> list[float]:
    """CPU milliseconds of kernel-side work per student move, over seeded games: CPU time is
    what a classroom server runs short of, and the wall clock on a shared machine also counts
    the waits for a core."""
    from tutor.ui.play.app import TutorApp

    times: list[float] = []
    seed = 0
    while len(times) < clicks:
        app = TutorApp(players=2, bots=bots, seed=seed, lang="en", pace=0.0, store=None)
        app.run_steps()
        for _ in range(200):
            s = app.session
            while s.pending_question is not None:
                s.reveal()
            if s.round.over or len(times) >= clicks:
                break
            legal = app.legal_actions()
            if not legal:
                app.run_steps()
                continue
            t0 = time.process_time()
            app.play(legal[0])   # the move and the redraw
            app.run_steps()      # the bots' replies, each redrawn
            times.append((time.process_time() - t0) * 1000)
        seed += 1
    return times


def clicks_in_build(clicks: int, bots: str, pure: str) -> tuple[str, list[float]]:
    """:func:`click_times` in a process of its own, with ``LEONARD_PURE`` set to ``pure``."""
    out = subprocess.run([sys.executable, __file__, "--clicks-worker",
                          json.dumps([clicks, bots])],
                         env={**os.environ, "LEONARD_PURE": pure}, capture_output=True,
                         text=True, check=True)
    data = json.loads(out.stdout.strip().splitlines()[-1])
    return data["build"], data["times"]


def _kernel_rss_kib(voila: subprocess.Popen[bytes]) -> int:
    """Resident memory of the newest kernel this voila started (its child process): earlier
    pages' kernels may still be shutting down."""
    newest = (-1, 0)
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            status = Path(f"/proc/{pid}/status").read_text()
            cmd = Path(f"/proc/{pid}/cmdline").read_bytes()
            started = int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[19])
        except (OSError, ValueError, IndexError):
            continue
        fields = dict(line.split(":", 1) for line in status.splitlines() if ":" in line)
        if int(fields["PPid"]) != voila.pid or b"ipykernel" not in cmd:
            continue
        if started > newest[0]:
            newest = (started, int(fields["VmRSS"].split()[0]))
    return newest[1]


def page_loads(loads: int) -> dict[str, tuple[list[float], list[int]]]:
    """Seconds from request to interactive board, and kernel memory, for both notebooks."""
    from playwright.sync_api import sync_playwright

    chromium = shutil.which("chromium") or "/usr/bin/chromium"
    notebooks = {"dashboard (Play.ipynb)": ROOT / "notebooks" / "Play.ipynb",
                 "bare canvas notebook": ROOT / "benchmarks" / "bare_canvas.ipynb"}
    results: dict[str, tuple[list[float], list[int]]] = {k: ([], []) for k in notebooks}
    after_question: list[int] = []
    tmp = Path(tempfile.mkdtemp(prefix="ld-bench-"))
    servers = {}
    env = {"LEONARD_TUTOR_DB": str(tmp / "progress.sqlite3")}
    for name, nb in notebooks.items():
        servers[name] = start_voila(nb, tmp / f"{nb.stem}.log", env, cwd=ROOT)
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=chromium, headless=True,
                                        args=CHROMIUM_ARGS)
            for _ in range(loads):  # interleaved, so machine noise hits both alike
                for name, (proc, base) in servers.items():
                    page = browser.new_page()
                    t0 = time.perf_counter()
                    # a named student: a page without one asks for the name first
                    page.goto(f"{base}?student=bench", timeout=120_000)
                    page.locator(".jupyter-widgets.widget-button").first.wait_for(
                        timeout=120_000)
                    board = page.locator("canvas.ld-board")
                    page.wait_for_function(PAINTED, arg=board.element_handle(),
                                           timeout=60_000)
                    results[name][0].append(time.perf_counter() - t0)
                    time.sleep(0.5)
                    results[name][1].append(_kernel_rss_kib(proc))
                    if name.startswith("dashboard"):
                        after_question.append(_play_to_question(page, proc))
                    page.close()
                    time.sleep(1.0)  # let voila shut that kernel down
            browser.close()
    finally:
        for proc, _ in servers.values():
            stop_server(proc)
    results["dashboard after its first question"] = ([], after_question)
    return results


def _play_to_question(page: object, proc: subprocess.Popen[bytes]) -> int:
    """Click the first move until the tutor asks (sympy is imported then); kernel RSS."""
    for _ in range(60):
        if page.locator(".ld-answer input").is_visible():  # type: ignore[attr-defined]
            time.sleep(0.5)
            return _kernel_rss_kib(proc)
        moves = page.locator(  # type: ignore[attr-defined]
            ".ld-move:not([title='draw']):not([title='pass'])")
        if moves.count():
            moves.first.click()
        time.sleep(0.7)
    return 0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--clicks", type=int, default=300)
    ap.add_argument("--loads", type=int, default=5)
    ap.add_argument("--clicks-only", action="store_true", help="skip page loads and memory")
    ap.add_argument("--clicks-worker", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.clicks_worker:  # one build's click times, as JSON (see clicks_in_build)
        import engine

        clicks, bots = json.loads(args.clicks_worker)
        print(json.dumps({"build": engine.BUILD, "times": click_times(clicks, bots)}))
        return
    print("one click, server side (CPU ms)")
    print(f"{'bots':7} {'build':44} {'median':>7} {'p95':>7} {'max':>7} {'clicks':>7}")
    medians: dict[tuple[str, str], float] = {}
    for bots in ("greedy", "search", "expert"):
        for pure in ("", "1"):
            build, t = clicks_in_build(args.clicks, bots, pure)
            medians[bots, pure] = statistics.median(t)
            print(f"{bots:7} {build:44} {statistics.median(t):7.1f} {pct(t, 95):7.1f} "
                  f"{max(t):7.1f} {len(t):7d}", flush=True)
    print("pure / compiled, median click: " + ", ".join(
        f"{b} {medians[b, '1'] / medians[b, '']:.2f}x" for b in ("greedy", "search", "expert")))
    if args.clicks_only:
        return
    if not (shutil.which("chromium") or Path("/usr/bin/chromium").exists()):
        print("page load and memory: skipped (no chromium)")
        return
    res = page_loads(args.loads)
    bare_t, bare_m = res["bare canvas notebook"]
    print(f"{'notebook':36} {'load median s':>14} {'min':>6} {'max':>6} {'kernel RSS MiB':>15}")
    for name, (t, m) in res.items():
        load = (f"{statistics.median(t):14.2f} {min(t):6.2f} {max(t):6.2f}" if t
                else f"{'':14} {'':6} {'':6}")
        print(f"{name:36} {load} {statistics.median(m) / 1024:15.1f}")
    dash_t, dash_m = res["dashboard (Play.ipynb)"]
    _, after_m = res["dashboard after its first question"]
    bare = statistics.median(bare_m)
    print(f"ratio dashboard / bare: load "
          f"{statistics.median(dash_t) / statistics.median(bare_t):.2f}x, memory at load "
          f"{statistics.median(dash_m) / bare:.2f}x, after the first question "
          f"{statistics.median(after_m) / bare:.2f}x")


if __name__ == "__main__":
    main()
