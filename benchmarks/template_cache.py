"""The server's CPU for a page, with and without the template cache, side by side in one run.

    python benchmarks/template_cache.py [--loads 8]

Voilà makes a new nbconvert exporter for every page, whose Jinja environment compiled the
page's templates again; ``tutor.hub.page_templates`` (turned on by ``python -m
tutor.commands.server
--write-server-config``) compiles them once per server. Two standalone Voilà servers serve
``notebooks/`` with the shipped ``voila.json``: one without the cache, one with the
``voila.py`` that command writes (each reads only its own config folder). The play page (by a
lesson link) and the lessons page are fetched from each in turn, ``--loads`` times each, as a
browser's first request does: the server starts a kernel, runs the notebook and renders the
page's HTML (the scripts and the widgets' websocket that follow are served the same way with
or without the cache, and are not fetched). Reported for each: the server process's CPU
seconds per page (median and range; the first page of each server is a warm-up and not
counted) and the ratio cached/plain. Both servers run on the same machine at the same time,
so a busy machine slows both.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

from bench_browser import ROOT, cpu_s, median

from tutor.commands.server import start_voila, stop_server, write_voila_config
from tutor.hub import page_templates

PAGES = {
    "play (lesson link)": "Play.ipynb?lesson=04-times&lang=en&seed={n}&student=bench-{n}",
    "lessons": "Lessons.ipynb?lang=en&student=bench-{n}",
}


def fetch(url: str) -> str:
    with urllib.request.urlopen(url, timeout=300) as reply:
        return str(reply.read().decode("utf-8", errors="replace"))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--loads", type=int, default=8)
    args = parser.parse_args(argv)
    tmp = Path(tempfile.mkdtemp(prefix="template-cache-"))
    shipped = json.loads((ROOT / "voila.json").read_text(encoding="utf-8"))
    servers: dict[str, tuple[subprocess.Popen[bytes], str]] = {}
    try:
        for mode in ("plain", "cached"):
            config = tmp / mode
            config.mkdir()
            (config / "voila.json").write_text(json.dumps(shipped), encoding="utf-8")
            if mode == "cached":
                write_voila_config(config / "voila.py")
            proc, base = start_voila(
                ROOT / "notebooks", tmp / f"{mode}.log",
                {"LEONARD_TUTOR_DB": str(tmp / f"{mode}.sqlite3")}, cwd=tmp,
                args=[f"--Voila.config_file_paths={json.dumps([str(config)])}"])
            servers[mode] = (proc, base + "voila/render/")
        cached_log = (tmp / "cached.log").read_text(errors="replace")
        if page_templates.ON not in cached_log:
            raise SystemExit(f"the cached server did not turn the cache on:\n{cached_log}")
        used: dict[tuple[str, str], list[float]] = {}
        n = 0
        for i in range(args.loads + 1):
            for name, query in PAGES.items():
                order = list(servers) if i % 2 == 0 else list(reversed(servers))
                for mode in order:
                    proc, url = servers[mode]
                    n += 1
                    before = cpu_s(proc.pid)
                    html = fetch(url + query.format(n=n))
                    spent = cpu_s(proc.pid) - before
                    if "There was an error" in html or "application/vnd.jupyter.widget-view"\
                            not in html:
                        raise SystemExit(f"{mode} served a broken page for {query}")
                    if i > 0:  # the first load of each page compiles, cache or not
                        used.setdefault((name, mode), []).append(spent)
                    time.sleep(0.5)
    finally:
        for proc, _ in servers.values():
            stop_server(proc)

    print(f"Server CPU per page, {args.loads} loads per page and server after one warm-up "
          f"(CPU seconds, median [min–max]); load average at the end: "
          f"{os.getloadavg()[0]:.1f}")
    for name in PAGES:
        for mode in servers:
            times = used[(name, mode)]
            print(f"{name:20} {mode:7} {median(times):5.3f} [{min(times):.3f}–"
                  f"{max(times):.3f}]")
        ratio = median(used[(name, "cached")]) / median(used[(name, "plain")])
        print(f"{name:20} ratio cached/plain (medians): {ratio:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
