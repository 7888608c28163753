"""A tutored game: the session that owns the loop, its frozen snapshot and its narration.

The session is what the dashboard, the terminal and the simulated students share: it
advances the game, asks through ``tutor.teaching`` and hands each screen one snapshot.
Its layer: pyproject.toml's import contracts. Never widgets."""
