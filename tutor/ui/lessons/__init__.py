"""The lessons page for students: the lesson list, reviews due, progress files.
Its layer: pyproject.toml's import contracts."""
