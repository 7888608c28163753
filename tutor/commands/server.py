"""Serving the dashboard: the server settings a class needs (kernel culling), and starting and
stopping Voilà or Jupyter Server on a free localhost port (tests, benchmarks, Binder's build).

``python -m tutor.commands.server --write-server-config`` writes the culling settings where this
environment's Jupyter Server reads them, and has both Jupyter Server and standalone Voilà
compile the page templates once per server (:mod:`tutor.hub.page_templates`);
``binder/postBuild``
runs it.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Sequence
from pathlib import Path

CULLING: dict[str, int | bool] = {
    "cull_idle_timeout": 300,
    "cull_interval": 30,
    "cull_connected": False,
    "cull_busy": False,
}
"""``MappingKernelManager`` settings: a kernel no page is connected to (a closed or reloaded
tab: Voilà's own shutdown on close is unreliable) is shut down after 5 idle minutes, checked
every 30 s; a kernel with an open page is never culled, however long the student thinks.
``voila.json`` (read by standalone Voilà from its working directory) holds the same values."""

EXECUTION: dict[str, int] = {"iopub_timeout": 60}
"""``VoilaExecutor`` settings. While Voilà runs the notebook for a page, it waits for the
cell's output after the kernel's reply at most ``iopub_timeout`` seconds (nbclient's default:
4) and then renders the page without it: a blank page. A class opening the page at once on
2 cores made the output that late (9 of 10 pages blank in ``benchmarks/classroom.py``)."""

TEMPLATE: dict[str, str] = {"template": "leonard"}
"""``VoilaConfiguration``: the project's page template (``share/jupyter/voila/templates/leonard``,
installed with the package), Voila's lab page without its links to Font Awesome on a CDN: the
icons come from Voila's own bundle on the same server, and no page asks another host for
anything (a school behind a filter, or offline, gets the same page)."""

SETTINGS: dict[str, dict[str, int | bool | str]] = {"MappingKernelManager": {**CULLING},
                                                    "VoilaExecutor": {**EXECUTION},
                                                    "VoilaConfiguration": {**TEMPLATE}}
"""Every server setting the project ships, by configurable class: ``voila.json``, the Jupyter
Server config that Binder's ``postBuild`` writes and ``python -m tutor dashboard``'s flags."""

MAX_MESSAGE_BYTES = 200 * 1024 * 1024 + 8 * 1024 * 1024
"""The largest websocket message the server takes from a page: the project's own limit on a
progress export (:data:`tutor.storage.store_files.MAX_IMPORT_BYTES`, 200 MiB) and room for the
message around it. Tornado's default, 10 MiB, closed the kernel's websocket on an upload of a
class's files and lost it without a word (issue 36)."""

TORNADO: dict[str, int] = {"websocket_max_message_size": MAX_MESSAGE_BYTES}
"""Tornado application settings, as each server takes them: ``ServerApp.tornado_settings``
(Jupyter Server, Binder) and ``Voila.tornado_settings`` (standalone Voilà, ``voila.json``)."""

NO_MATHJAX: dict[str, None] = {"mathjax_url": None, "mathjax_config": None}
"""Jupyter Server's Tornado settings for Voilà's pages: no MathJax. Unless a server sets both
to None, Voilà's page fills in its default, MathJax on cdnjs.cloudflare.com, and fetches it
to typeset its HTML (issue 43: no page may ask another host; seen in the Binder emulation).
The tutor writes its formulas as MathML and needs none; standalone Voilà already passes
none."""

SERVER_TORNADO = {"ServerApp": {"tornado_settings": {**TORNADO, **NO_MATHJAX}}}
VOILA_TORNADO = {"Voila": {"tornado_settings": TORNADO}}

QUIET_LOG: dict[str, dict[str, dict[str, str]]] = {"loggers": {"Voila": {"level": "INFO"}}}
"""``Voila.logging_config``: the server's logger at INFO. traitlets sets an application's
logger to DEBUG and filters at its handler, so every debug line was made and thrown away:
two for each message a kernel sends (the kernel manager's activity watch and the notebook
executor's), about a fifth of the server's own work while a class plays (cProfile of
``benchmarks/class_server.py``'s server). To see them (``--debug``), set the level back to DEBUG.
``voila.json`` holds it (a command-line flag does not reach ``logging_config``)."""
VOILA_LOGGING: dict[str, dict[str, object]] = {"Voila": {"logging_config": QUIET_LOG}}


def command_flags() -> list[str]:
    """:data:`SETTINGS` and standalone Voilà's :data:`TORNADO` as command-line flags
    (``--Class.name=value``)."""
    return [*(f"--{section}.{k}={v}" for section, values in SETTINGS.items()
              for k, v in values.items()),
            *(f"--{section}.{k}={json.dumps(v)}" for section, values in VOILA_TORNADO.items()
              for k, v in values.items())]


PREHEAT: tuple[str, ...] = (
    "--preheat_kernel=True", "--pool_size=1",
    '--VoilaKernelManager.preheat_denylist=["Teacher.ipynb"]',
)
"""Standalone Voilà's kernel preheating for a class (``voila notebooks/ …``): one kernel each
for the play page and the lessons page is started and runs its notebook up to the reading of
the link (:func:`tutor.classroom.request.page_query`) before any student asks, and is refilled a
second
after it is taken; the teacher page needs none. Jupyter Server's Voilà extension (Binder,
JupyterHub) has no pool: there these flags do not apply."""


SERVER_EXTENSIONS: dict[str, bool] = {"tutor.hub.page_templates": True,
                                      "tutor.hub.page_xsrf": True,
                                      "tutor.hub.lockdown": True}
"""Jupyter Server extensions the project enables (``ServerApp.jpserver_extensions``). The
lockdown of a student's server (:mod:`tutor.hub.lockdown`) acts only under a hub; the hub's
config enables it too, so that a server it starts is locked down even where this was not
written."""

OLD_EXTENSIONS = ("tutor.classroom.template_cache", "tutor.classroom.xsrf_cookie",
                  "tutor.template_cache", "tutor.xsrf_cookie")
"""The names :data:`SERVER_EXTENSIONS` had before: from the regrouping into packages (issue 34)
to the renaming of what clashed (issue 46), and before the regrouping. A config written then
names them (both, if it was written again in between), and writing it again puts the new names
in their place. Until version 0.2.0 the first two still load, with a warning
(:mod:`tutor.classroom.template_cache`, :mod:`tutor.classroom.xsrf_cookie`); the two before
the regrouping no longer do (CHANGELOG.md)."""

VOILA_PY = f"""\
# Written by `python -m tutor.commands.server --write-server-config` (Leonard-Domino Tutor).
# Standalone Voila runs it at start: compile the page templates once per server, not once per
# page, and take a page's uploads up to the project's own limit (Tornado's 10 MiB loses them).
import logging

try:
    c = get_config()  # noqa: F821 - traitlets gives it when Voila loads this file
except NameError:  # run as a plain script
    c = None
if c is not None:
    c.Voila.tornado_settings.update({{"websocket_max_message_size": {MAX_MESSAGE_BYTES}}})

try:
    from tutor.hub.page_templates import turn_on
except ImportError:  # the project is no longer installed in this environment
    pass
else:
    turn_on(logging.getLogger("Voila"))

# A closed tab frees its kernel: the page gets the XSRF cookie its shutdown request needs.
try:
    from tutor.hub.page_xsrf import turn_on as xsrf_cookie
except ImportError:
    pass
else:
    xsrf_cookie(logging.getLogger("Voila"))
"""
"""Standalone Voilà's Python config (``voila.py``): Voilà reads it, like ``voila.json``, from
its working directory and from the Jupyter config path. It is written into the environment's
config folder, not kept in the repository: a ``voila.py`` in the folder Python starts in
would hide the ``voila`` package from ``python -m voila`` and from the tests."""


def voila_config_path() -> Path:
    """Where this environment's standalone Voilà reads its Python config:
    ``{sys.prefix}/etc/jupyter/voila.py``."""
    return Path(sys.prefix) / "etc" / "jupyter" / "voila.py"


def write_voila_config(path: Path | None = None) -> Path:
    """Write :data:`VOILA_PY` to ``path`` (default :func:`voila_config_path`). A ``voila.py``
    already there that is not the project's is kept: :class:`FileExistsError` says what to add
    to it."""
    path = path or voila_config_path()
    if path.is_file() and not any(name in path.read_text(encoding="utf-8")
                                  for name in ("tutor.hub.page_templates", *OLD_EXTENSIONS)):
        raise FileExistsError(
            f"{path} exists and is not the project's: add these lines to it to have Voila "
            f"compile the page templates once per server:\n{VOILA_PY}")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(VOILA_PY, encoding="utf-8")
    return path


def server_config_path() -> Path:
    """Where this environment's Jupyter Server reads its config:
    ``{sys.prefix}/etc/jupyter/jupyter_server_config.json`` (a venv on this machine, the conda
    env on Binder). Its ``jupyter_server_config.d`` folder would not do: the server reads only
    the extensions to enable from there."""
    return Path(sys.prefix) / "etc" / "jupyter" / "jupyter_server_config.json"


def write_server_config(path: Path | None = None) -> Path:
    """Add :data:`SETTINGS`, :data:`SERVER_EXTENSIONS` and the websocket limit
    (:data:`SERVER_TORNADO`) to the Jupyter Server config (other settings there are kept);
    return the file written."""
    path = path or server_config_path()
    config = json.loads(path.read_text(encoding="utf-8")) if path.is_file() else {}
    for section, values in SETTINGS.items():
        config.setdefault(section, {}).update(values)
    extensions = config.setdefault("ServerApp", {}).setdefault("jpserver_extensions", {})
    for old in OLD_EXTENSIONS:
        extensions.pop(old, None)
    extensions.update(SERVER_EXTENSIONS)
    config["ServerApp"].setdefault("tornado_settings", {}).update(
        SERVER_TORNADO["ServerApp"]["tornado_settings"])
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(config, indent=2) + "\n", encoding="utf-8")
    return path


def kernel_pids(server_pid: int) -> list[int]:
    """The kernels (``ipykernel_launcher``) a server process started, read from ``/proc``."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            cmd = (entry / "cmdline").read_bytes()
        except OSError:
            continue
        ppid = int(stat.rsplit(")", 1)[1].split()[1])
        if ppid == server_pid and b"ipykernel_launcher" in cmd:
            found.append(int(entry.name))
    return sorted(found)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_voila(
    notebook: Path, log_path: Path, env: dict[str, str] | None = None,
    cwd: Path | None = None, timeout: float = 90, args: Sequence[str] = (),
) -> tuple[subprocess.Popen[bytes], str]:
    """Start standalone Voilà for ``notebook`` and wait until it serves its static files.

    Polling the page itself would start a kernel on every poll, so readiness is checked on
    ``voila/static/voila.js``. Returns the process (its own process group) and the base URL.
    """
    port = free_port()
    cmd = [sys.executable, "-m", "voila", str(notebook), "--no-browser", f"--port={port}",
           "--Voila.ip=127.0.0.1", "--port_retries=0", "--show_tracebacks=True", *args]
    return _start(cmd, port, "voila/static/voila.js", log_path, env, cwd or notebook.parent,
                  timeout)


def start_jupyter_server(
    python: Path, root: Path, log_path: Path, env: dict[str, str] | None = None,
    timeout: float = 120, args: Sequence[str] = (),
) -> tuple[subprocess.Popen[bytes], str]:
    """Start Jupyter Server (with the Voilà extension of ``python``'s environment) serving
    ``root``, as Binder does; the dashboard is then at ``voila/render/notebooks/Play.ipynb``.
    ``env`` is the server's whole environment (default: this process's). Readiness is checked
    on ``api/status``."""
    port = free_port()
    cmd = [str(python), "-m", "jupyter_server", "--no-browser", f"--port={port}",
           "--port-retries=0", "--ServerApp.ip=127.0.0.1", "--IdentityProvider.token=",
           "--ServerApp.password=", "--allow-root", *args]
    return _start(cmd, port, "api/status", log_path, dict(env or os.environ), root, timeout,
                  inherit=False)


def wait_for_pool(base: str, log_path: Path, kernels: int, timeout: float = 180) -> list[str]:
    """Wait until standalone Voilà's preheated pool has ``kernels`` kernels running their
    notebooks, and return their ids.

    Voilà only hands a request a pool kernel once that kernel has started and begun its
    notebook; a request before that gets a fresh kernel instead (on a busy machine the pool
    can take many seconds to start). Kernels are read from the server's log ("Kernel
    started: <id>") and each is asked for its state (``api/kernels/<id>``) until none is
    still ``starting``.
    """
    deadline = time.monotonic() + timeout
    while True:
        ids = re.findall(r"Kernel started: (\S+)", log_path.read_text(errors="replace"))
        states = [_kernel_state(base, k) for k in ids[:kernels]]
        if len(states) == kernels and all(s in ("idle", "busy") for s in states):
            return ids[:kernels]
        if time.monotonic() > deadline:
            raise RuntimeError(f"the preheated pool has {len(ids)} of {kernels} kernels after "
                               f"{timeout:.0f} s (states {states}):\n"
                               f"{log_path.read_text(errors='replace')}")
        time.sleep(0.2)


def _kernel_state(base: str, kernel_id: str) -> str:
    try:
        with urllib.request.urlopen(f"{base}api/kernels/{kernel_id}", timeout=5) as reply:
            return str(json.load(reply).get("execution_state", ""))
    except (OSError, ValueError):
        return ""


def _start(cmd: list[str], port: int, ready: str, log_path: Path, env: dict[str, str] | None,
           cwd: Path, timeout: float, inherit: bool = True) -> tuple[subprocess.Popen[bytes], str]:
    log = open(log_path, "wb")  # noqa: SIM115 - the child holds it; closed at exit
    full = {**os.environ, **(env or {})} if inherit else dict(env or {})
    proc = subprocess.Popen(cmd, cwd=cwd, stdout=log, stderr=subprocess.STDOUT,
                            start_new_session=True, env=full)
    log.close()
    base = f"http://127.0.0.1:{port}/"
    deadline = time.monotonic() + timeout
    while True:
        if proc.poll() is not None:
            raise RuntimeError(f"{cmd[2]} exited early:\n{log_path.read_text()}")
        try:
            urllib.request.urlopen(base + ready, timeout=2).close()
            return proc, base
        except OSError:
            if time.monotonic() > deadline:
                stop_server(proc)
                raise RuntimeError(f"{cmd[2]} not up in {timeout:.0f} s:\n"
                                   f"{log_path.read_text()}") from None
            time.sleep(0.2)


def stop_server(proc: subprocess.Popen[bytes]) -> None:
    """Stop a server started here and every kernel it started. SIGTERM lets it shut its
    kernels down; kernels run in sessions of their own, so any left are ended by pid."""
    kernels = kernel_pids(proc.pid)
    try:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(timeout=15)
    except (ProcessLookupError, subprocess.TimeoutExpired):
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        proc.wait()
    for pid in kernels:
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tutor.commands.server", description=__doc__)
    parser.add_argument("--write-server-config", action="store_true",
                        help="write the kernel culling settings and the template cache for "
                             "Jupyter Server, and the template cache for standalone Voila")
    args = parser.parse_args(argv)
    if args.write_server_config:
        print(f"wrote {write_server_config()}")
        try:
            print(f"wrote {write_voila_config()}")
        except FileExistsError as err:
            print(err, file=sys.stderr)
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
