"""The teacher page: the class table, heat map, mistakes, live view, uploads of many
files, each student's answers and the lesson builder.
Its layer: pyproject.toml's import contracts."""
