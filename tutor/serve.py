"""Starting and stopping a Voilà server on a free localhost port (tests, benchmarks)."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_voila(
    notebook: Path, log_path: Path, env: dict[str, str] | None = None,
    cwd: Path | None = None, timeout: float = 90,
) -> tuple[subprocess.Popen[bytes], str]:
    """Start Voilà for ``notebook`` and wait until it serves its static files.

    Polling the page itself would start a kernel on every poll, so readiness is checked on
    ``voila/static/voila.js``. Returns the process (its own process group) and the base URL.
    """
    port = free_port()
    log = open(log_path, "wb")  # noqa: SIM115 - the child holds it; closed at exit
    cmd = [sys.executable, "-m", "voila", str(notebook), "--no-browser", f"--port={port}",
           "--Voila.ip=127.0.0.1", "--port_retries=0", "--show_tracebacks=True"]
    proc = subprocess.Popen(cmd, cwd=cwd or notebook.parent, stdout=log,
                            stderr=subprocess.STDOUT, start_new_session=True,
                            env={**os.environ, **(env or {})})
    log.close()
    base = f"http://127.0.0.1:{port}/"
    deadline = time.monotonic() + timeout
    while True:
        if proc.poll() is not None:
            raise RuntimeError(f"voila exited early:\n{log_path.read_text()}")
        try:
            urllib.request.urlopen(base + "voila/static/voila.js", timeout=2).close()
            return proc, base
        except OSError:
            if time.monotonic() > deadline:
                stop_voila(proc)
                raise RuntimeError(f"voila not up in {timeout:.0f} s:\n{log_path.read_text()}"
                                   ) from None
            time.sleep(0.2)


def stop_voila(proc: subprocess.Popen[bytes]) -> None:
    """Stop voila and the kernels it started (they share its process group)."""
    try:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(timeout=15)
    except (ProcessLookupError, subprocess.TimeoutExpired):
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        proc.wait()
