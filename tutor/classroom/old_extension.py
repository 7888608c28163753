"""What the server extensions' two old names share (:mod:`tutor.classroom.template_cache`,
:mod:`tutor.classroom.xsrf_cookie`): the version that removes them, the warning an import of
one gives, and where Jupyter Server is sent for the extension. Goes with them in 0.2.0."""

from __future__ import annotations

import logging
import warnings

__all__ = ["REMOVED_IN", "extension_points", "warn_old_name"]

REMOVED_IN = "0.2.0"
"""The version of the Leonard-Domino Tutor that no longer has the old names."""


def warn_old_name(old: str, new: str) -> None:
    """Say, as the module ``old`` is imported, that it is ``new``'s old name and when it goes:
    a ``DeprecationWarning`` for its importer, and a warning in the server's log (a server
    shows no DeprecationWarning by default)."""
    said = (f"Leonard-Domino Tutor: {old} is the old name of {new} and goes in version "
            f"{REMOVED_IN}; re-run `python -m tutor.commands.server --write-server-config` "
            "to write the new name into this server's config.")
    # stacklevel 3: the line that imported the old name, past this function and the module
    warnings.warn(said, DeprecationWarning, stacklevel=3)
    logging.getLogger(old).warning(said)


def extension_points(new: str) -> list[dict[str, str]]:
    """Jupyter Server's extension points of an old name: the extension of its new module."""
    return [{"module": new}]
