"""What the pages share: the panel base, styles, the page header, uploads, the name form, a
student's answers and the access layer (``access.js``).
Its layer: pyproject.toml's import contracts."""
