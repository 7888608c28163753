"""What the browser benchmarks share: Debian's Chromium, percentiles, and a server's memory and
kernels read from /proc."""

from __future__ import annotations

import os
import shutil
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

CHROMIUM = os.environ.get("CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
    "--disable-dev-shm-usage",
]


def percentile(values: list[float], q: float) -> float:
    """The ``q``-th percentile (0–100), interpolated between the closest ranks."""
    if not values:
        return float("nan")
    if len(values) == 1:
        return values[0]
    ordered = sorted(values)
    k = (len(ordered) - 1) * q / 100
    low = int(k)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (k - low)


def median(values: list[float]) -> float:
    return statistics.median(values) if values else float("nan")


def rss_kib(pid: int) -> int:
    """Resident memory of one process (0 if it is gone)."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


def cpu_s(pid: int) -> float:
    """CPU seconds (user + system) ``pid`` has used so far, 0 once it is gone."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def browser_pids() -> list[int]:
    """Every Chromium process on the machine (the benchmark's browsers)."""
    out = []
    for pid in os.listdir("/proc"):
        if pid.isdigit():
            try:
                if b"chrom" in Path(f"/proc/{pid}/cmdline").read_bytes()[:200]:
                    out.append(int(pid))
            except OSError:
                continue
    return out


def server_rss_kib(server_pid: int) -> tuple[int, int]:
    """(the server's and all its kernels' resident memory in KiB, kernels counted)."""
    from tutor.commands.server import kernel_pids

    kernels = kernel_pids(server_pid)
    return rss_kib(server_pid) + sum(rss_kib(k) for k in kernels), len(kernels)
