"""The old name of :mod:`tutor.hub.page_templates`, kept for the server configs written
before the tutor's modules were grouped into packages: a ``jupyter_server_config.json`` that
enables the extension ``tutor.template_cache``, a ``voila.py`` that imports ``turn_on`` from
here. Loading it turns on the same cache, once.
May import: ``tutor.hub.page_templates``."""

from __future__ import annotations

from tutor.hub.page_templates import (
    _jupyter_server_extension_points,
    _load_jupyter_server_extension,
    install,
    installed,
    turn_on,
)

__all__ = ["_jupyter_server_extension_points", "_load_jupyter_server_extension", "install",
           "installed", "turn_on"]
