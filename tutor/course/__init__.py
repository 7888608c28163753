"""Lessons: lesson files read and checked, the builder's lesson files, chosen deals, when
a lesson ends, and where shipped lessons and notebooks live.
Its layer: pyproject.toml's import contracts.
Never the store, the classroom or widgets."""
