"""Storage: progress as rows (attempts, mastery rows, students), on SQLite or PostgreSQL,
and the export/import file formats. It knows what happened, not what it means: no teaching.
Its layer: pyproject.toml's import contracts.
Never teaching or widgets."""
