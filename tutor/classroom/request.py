"""The page's request as its kernel sees it: the link's query string, read when the request
has arrived.

Voilà gives a kernel the request (``QUERY_STRING``, ``SERVER_NAME``, ``SCRIPT_NAME`` …) in its
environment when it starts the kernel for that request. A *preheated* kernel (standalone
Voilà with ``preheat_kernel``) is started and runs the notebook before any request; Voilà
then hands the request over a websocket once a page asks for the notebook, and
:func:`wait_for_request` waits for it and puts it into ``os.environ``. So a page reads its
link through :func:`page_query`, after the imports (which is the part preheating makes fast)
and before anything that depends on the link.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, MutableMapping

__all__ = ["IDLE_TAB_DEFAULT", "PREHEAT_ENV", "idle_tab_minutes", "page_query",
           "page_status_url", "preheated", "wait_for_request"]

PREHEAT_ENV = "VOILA_PREHEAT"
"""Set to ``"True"`` by Voilà in a kernel of its preheated pool (``"False"`` otherwise)."""


def preheated(env: MutableMapping[str, str] | None = None) -> bool:
    """Whether this kernel was started before its page's request (Voilà's pool)."""
    env = os.environ if env is None else env
    return env.get(PREHEAT_ENV, "False") == "True"


OPEN_TIMEOUT = 5.0
"""Seconds to open the request's websocket, as Voilà's own wait."""


def _request_url(env: MutableMapping[str, str]) -> str:
    """Where a preheated kernel gets its request: the server's ``voila/query/<kernel id>``
    websocket, from the variables Voilà (0.5) starts its pool's kernels with."""
    ws_base = env.get("VOILA_WS_BASE_URL", env.get("VOILA_SERVER_URL", "/"))
    return (f"{env.get('VOILA_WS_PROTOCOL', 'ws')}://{env.get('VOILA_APP_IP', '127.0.0.1')}:"
            f"{env.get('VOILA_APP_PORT', '8866')}{ws_base}voila/query/"
            f"{env.get('VOILA_KERNEL_ID', '')}")


def wait_for_request(env: MutableMapping[str, str]) -> None:
    """What Voilà's ``voila.utils.wait_for_request`` does, without importing ``voila``: that
    import brings Jupyter Server and JupyterLab Server into the kernel, 3.4 CPU s on the
    development machine, more than the rest of a page's kernel start, and in every kernel of
    the pool. Wait on :func:`_request_url` until the server sends the page's request, and put
    its variables (``QUERY_STRING``, ``SERVER_NAME`` …) into ``env``. If the
    server cannot be reached (or sends no request), return without them, as Voilà's does: the
    page opens without its link."""
    from websockets.exceptions import WebSocketException
    from websockets.sync.client import connect

    try:
        with connect(_request_url(env), open_timeout=OPEN_TIMEOUT) as ws:
            request = json.loads(ws.recv())
    except (OSError, TimeoutError, ValueError, WebSocketException):
        return
    if isinstance(request, dict):  # anything else is not a request: the page opens without it
        for key, value in request.items():
            env[str(key)] = str(value)


def page_query(env: MutableMapping[str, str] | None = None,
               wait: Callable[[], None] | None = None) -> str:
    """The query string of the page's link (``""`` when there is none).

    In a preheated kernel this waits until the request arrives (``wait``, default
    :func:`wait_for_request`, which also puts the request's ``SERVER_NAME``, ``SCRIPT_NAME`` …
    into ``env``); elsewhere it returns at once.
    """
    env = os.environ if env is None else env
    if preheated(env):
        if wait is None:
            wait_for_request(env)
        else:
            wait()
        # Once the request is in, this kernel serves that page like any other.
        env[PREHEAT_ENV] = "False"
    return env.get("QUERY_STRING") or ""


def _kernel_id() -> str | None:
    """This kernel's id: its connection file is ``kernel-<id>.json`` (None outside one)."""
    try:
        from ipykernel.connect import get_connection_file
    except ImportError:
        return None
    try:
        name = os.path.basename(get_connection_file())
    except (RuntimeError, AttributeError):
        return None
    if name.startswith("kernel-") and name.endswith(".json"):
        return name[len("kernel-"):-len(".json")]
    return None


def page_status_url(env: MutableMapping[str, str] | None = None,
                    kernel_id: Callable[[], str | None] = _kernel_id) -> str:
    """Where this page asks whether its kernel still runs (``""``: nowhere): on a class
    hub's student server (:mod:`tutor.hub.lockdown`), ``<server>/leonard/page/<kernel>``. A
    page that comes back after its tab was closed for being idle says so
    (``tutor/ui/shared/access.js``)."""
    env = os.environ if env is None else env
    if not env.get("JUPYTERHUB_API_TOKEN") or env.get("LEONARD_FULL_SERVER") == "1":
        return ""
    base = env.get("VOILA_BASE_URL", "")
    kernel = kernel_id()
    if not base.startswith("/") or not kernel:
        return ""
    return f"{base.rstrip('/')}/leonard/page/{kernel}"


IDLE_TAB_DEFAULT = 30.0
"""Minutes without use after which a class server closes an open tab, unless its hub says
otherwise (``deploy/tljh/leonard.py``'s ``IDLE_TAB_MINUTES``)."""


def idle_tab_minutes(env: MutableMapping[str, str] | None = None) -> float:
    """After how many minutes without use the class server closes an open tab
    (``$LEONARD_IDLE_TAB_MINUTES``, :data:`IDLE_TAB_DEFAULT` when unset or unusable)."""
    env = os.environ if env is None else env
    try:
        minutes = float(env.get("LEONARD_IDLE_TAB_MINUTES", ""))
    except ValueError:
        return IDLE_TAB_DEFAULT
    return minutes if minutes > 0 else IDLE_TAB_DEFAULT
