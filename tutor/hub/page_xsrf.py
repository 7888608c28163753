"""A closed tab frees its kernel at once: Voilà's page gets the XSRF cookie its shutdown
request needs.

When a tab closes, Voilà's page sends ``POST voila/api/shutdown/<kernel>`` with the
``_xsrf`` value it reads from the ``_xsrf`` cookie (``navigator.sendBeacon``). But Voilà
(0.5) never makes Tornado set that cookie on the pages it renders, so the page sends an empty
value, the server answers ``403 '_xsrf' argument missing from POST`` (voila-dashboards/voila
issue 1458) and the kernel lives until the culler stops it, minutes later. Here Voilà's page
handler asks Tornado for the page's XSRF token before it renders, which sets the cookie: the
shutdown request then passes the server's XSRF check, which stays on.

Turned on by Jupyter Server (a server extension, :data:`tutor.commands.server.SERVER_EXTENSIONS`)
and
by standalone Voilà (``voila.py``, :data:`tutor.commands.server.VOILA_PY`).
"""

from __future__ import annotations

import inspect
import logging
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from jupyter_server.serverapp import ServerApp
    from voila.handler import VoilaHandler  # Voilà has no types: mypy reads it as Any

__all__ = ["install", "installed", "turn_on"]

_MARK = "_leonard_xsrf_cookie"


def installed() -> bool:
    try:
        from voila.handler import VoilaHandler
    except ImportError:
        return False
    return bool(getattr(VoilaHandler, _MARK, False))


def install() -> bool:
    """Have Voilà's page handler set the ``_xsrf`` cookie on every page it serves (once per
    process); False when Voilà is not installed."""
    try:
        from voila.handler import VoilaHandler
    except ImportError:
        return False
    if getattr(VoilaHandler, _MARK, False):
        return True
    original = VoilaHandler.prepare

    async def prepare(self: VoilaHandler, *args: object, **kwargs: object) -> object:
        result: object = original(self, *args, **kwargs)
        if inspect.isawaitable(result):
            result = await result
        if self.request.method == "GET" and not self._finished:
            self.xsrf_token  # noqa: B018 - reading it sets the cookie the page sends back
        return result

    VoilaHandler.prepare = prepare
    setattr(VoilaHandler, _MARK, True)
    return True


def turn_on(log: logging.Logger) -> bool:
    on = install()
    if on:
        log.info("Leonard-Domino Tutor: Voila pages get their XSRF cookie (a closed tab "
                 "frees its kernel).")
    return on


def _jupyter_server_extension_points() -> list[dict[str, str]]:
    return [{"module": "tutor.hub.page_xsrf"}]


def _load_jupyter_server_extension(serverapp: ServerApp) -> None:
    turn_on(serverapp.log)
