"""The old name of :mod:`tutor.hub.page_xsrf`, kept only for a class server whose config still
names it: it goes in version 0.2.0 (CHANGELOG.md).

From issue 34 to issue 46 ``python -m tutor.commands.server --write-server-config`` (then
``python -m tutor.classroom.serve``) wrote this name into the server's
``jupyter_server_config.json`` (``ServerApp.jpserver_extensions``) and ``voila.py``. It is the
same extension: the names below are :mod:`tutor.hub.page_xsrf`'s own, and Jupyter Server,
asking this module for its extension points, is sent there. Importing it warns
(``DeprecationWarning``, and a warning in the server's log): writing the config again puts the
new name in its place.
"""

from __future__ import annotations

from tutor.classroom.old_extension import REMOVED_IN, extension_points, warn_old_name
from tutor.hub.page_xsrf import install, installed, turn_on

__all__ = ["REMOVED_IN", "install", "installed", "turn_on"]

warn_old_name(__name__, "tutor.hub.page_xsrf")


def _jupyter_server_extension_points() -> list[dict[str, str]]:
    """Jupyter Server loads the extension from its new module."""
    return extension_points("tutor.hub.page_xsrf")
