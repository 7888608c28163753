"""The play page: the board and the panels around a session, and the notebook's one call.
Its layer: pyproject.toml's import contracts."""
