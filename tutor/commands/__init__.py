"""The commands: the teacher's ``export``/``import``/``report``/``fit-bkt`` and the
simulated students (``simulate-students``). ``python -m tutor`` (``tutor.__main__``) dispatches.
``python -m tutor.commands.server --write-server-config`` writes a class server's settings;
:mod:`tutor.commands.server` also starts and stops Voilà and Jupyter Server (tests, benchmarks).
Its layer: pyproject.toml's import contracts. Never widgets or a page."""
