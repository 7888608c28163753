"""The old name of :mod:`tutor.hub.page_xsrf`, kept for the server configs written
before the tutor's modules were grouped into packages (the extension ``tutor.xsrf_cookie``,
a ``voila.py`` importing ``turn_on`` from here).
May import: ``tutor.hub.page_xsrf``."""

from __future__ import annotations

from tutor.hub.page_xsrf import (
    _jupyter_server_extension_points,
    _load_jupyter_server_extension,
    install,
    installed,
    turn_on,
)

__all__ = ["_jupyter_server_extension_points", "_load_jupyter_server_extension", "install",
           "installed", "turn_on"]
