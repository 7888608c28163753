"""The commands: the teacher's ``export``/``import``/``report``/``fit-bkt`` and the
simulated students (``simulate-students``). ``python -m tutor`` (``tutor.__main__``) dispatches.
``python -m tutor.commands.server --write-server-config`` writes a class server's settings;
:mod:`tutor.commands.server` also starts and stops Voilà and Jupyter Server (tests, benchmarks).
May import: ``engine``, ``tutor.i18n``, ``tutor.games``, ``tutor.teaching``,
``tutor.storage``, ``tutor.course``, ``tutor.session``, ``tutor.classroom`` and ``tutor.hub``. Never
widgets or a page."""
