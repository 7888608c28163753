"""Where a machine's CPU goes, by kind of process, every few seconds: run it beside another
benchmark (e.g. ``classroom.py``) to see which processes take the cores at each moment.

    python benchmarks/cpu_by_process.py [--every 5]   # stop it with Ctrl-C or SIGTERM

Each line gives the seconds since the start, how busy the machine was (100 % = every core) and
the CPU seconds each kind used in that interval: Chromium's processes by their ``--type``
(``renderer`` pages, ``gpu-process`` compositing, ``browser``…), Jupyter kernels, the Voilà
server, Playwright's driver, the classroom simulation; anything else by its command line. A
process that ends between two lines does not count its last interval.
"""

from __future__ import annotations

import argparse
import os
import re
import signal
import time
from collections import defaultdict
from pathlib import Path

from bench_browser import cpu_s


def kind_of(cmdline: str) -> str:
    if "chrom" in cmdline:
        kind = re.search(r"--type=([\w-]+)", cmdline)
        return "chromium " + (kind.group(1) if kind else "browser")
    for needle, kind_name in (("ipykernel", "kernel"), ("voila", "voila server"),
                              ("playwright", "playwright driver"),
                              ("classroom.py", "simulated students")):
        if needle in cmdline:
            return kind_name
    return cmdline[:40] or "?"


def processes() -> dict[int, tuple[str, float]]:
    """Every process's kind and CPU seconds so far."""
    out = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                cmd = Path(f"/proc/{entry}/cmdline").read_bytes()[:400]
            except OSError:
                continue
            out[int(entry)] = (kind_of(" ".join(cmd.decode(errors="replace").split())),
                               cpu_s(int(entry)))
    return out


def busy_ticks() -> tuple[int, int]:
    """The machine's (busy, all) clock ticks so far, over every core."""
    ticks = [int(v) for v in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    return sum(ticks) - ticks[3] - ticks[4], sum(ticks)


def largest(used: dict[str, float], n: int) -> list[tuple[str, float]]:
    """The ``n`` kinds that used the most, leaving out those that used next to nothing."""
    return [(k, v) for k, v in sorted(used.items(), key=lambda kv: -kv[1])[:n] if v >= 0.05]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--every", type=float, default=5.0, help="seconds between lines")
    args = parser.parse_args()

    signal.signal(signal.SIGTERM, signal.default_int_handler)  # SIGTERM stops it as Ctrl-C does
    start = time.monotonic()
    before, (busy0, all0) = processes(), busy_ticks()
    total: defaultdict[str, float] = defaultdict(float)
    try:
        while True:
            time.sleep(args.every)
            now, (busy1, all1) = processes(), busy_ticks()
            used: defaultdict[str, float] = defaultdict(float)
            for pid, (kind, seconds) in now.items():
                spent = seconds - before.get(pid, (kind, 0.0))[1]
                used[kind] += spent
                total[kind] += spent
            share = (busy1 - busy0) / max(1, all1 - all0)
            print(f"{time.monotonic() - start:7.1f} s  busy {share:4.0%}  " + "  ".join(
                f"{k} {v:.1f}" for k, v in largest(used, 6)), flush=True)
            before, busy0, all0 = now, busy1, all1
    except KeyboardInterrupt:
        print("CPU s in all: " + "  ".join(f"{k} {v:.1f}" for k, v in largest(total, 10)))


if __name__ == "__main__":
    main()
