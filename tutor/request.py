"""The page's request as its kernel sees it: the link's query string, read when the request
has arrived.

Voilà gives a kernel the request (``QUERY_STRING``, ``SERVER_NAME``, ``SCRIPT_NAME`` …) in its
environment when it starts the kernel for that request. A *preheated* kernel (standalone
Voilà with ``preheat_kernel``) is started and runs the notebook before any request; Voilà
then hands the request over a websocket once a page asks for the notebook, and
``voila.utils.wait_for_request`` waits for it and puts it into ``os.environ``. So a page
reads its link through :func:`page_query`, after the imports (which is the part preheating
makes fast) and before anything that depends on the link.
"""

from __future__ import annotations

import os
from collections.abc import Callable, MutableMapping

__all__ = ["PREHEAT_ENV", "page_query", "preheated"]

PREHEAT_ENV = "VOILA_PREHEAT"
"""Set to ``"True"`` by Voilà in a kernel of its preheated pool (``"False"`` otherwise)."""


def preheated(env: MutableMapping[str, str] | None = None) -> bool:
    """Whether this kernel was started before its page's request (Voilà's pool)."""
    env = os.environ if env is None else env
    return env.get(PREHEAT_ENV, "False") == "True"


def _voila_wait() -> None:
    from voila.utils import wait_for_request

    wait_for_request()


def page_query(env: MutableMapping[str, str] | None = None,
               wait: Callable[[], None] | None = None) -> str:
    """The query string of the page's link (``""`` when there is none).

    In a preheated kernel this waits until the request arrives (``wait``, default Voilà's
    ``wait_for_request``, which also puts the request's ``SERVER_NAME``, ``SCRIPT_NAME`` …
    into the environment); elsewhere it returns at once.
    """
    env = os.environ if env is None else env
    if preheated(env):
        (wait or _voila_wait)()
        # Once the request is in, this kernel serves that page like any other.
        env[PREHEAT_ENV] = "False"
    return env.get("QUERY_STRING") or ""
