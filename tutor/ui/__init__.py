"""The Voilà dashboard: the only package that imports ipywidgets and ipycanvas.

A package per page, and what they share:

- ``tutor.ui.play``: the play page. One module per panel, each a widget that renders itself
  from the session's :class:`~tutor.session.snapshot.Snapshot` with its pure HTML functions
  beside it (testable without widgets): ``header``, ``game_setup``, ``board`` (``layout``
  and ``draw`` under it), ``cover``, ``moves``, ``question``, ``scores``, ``skills``, ``log``,
  ``round_end``, ``sheet``, ``keys``; ``app`` only wires them and paces the session;
  ``entry`` is the notebook's one call.
- ``tutor.ui.lessons``: the lessons page (lesson list, reviews due, progress files).
- ``tutor.ui.teacher``: the teacher page (class table, heat map, mistakes, live view, uploads,
  answers, lesson builder).
- ``tutor.ui.shared``: the panel base, styles, page header, uploads, the name form, a
  student's answers (``answer_list``, on both the lessons and the teacher page) and the
  access layer (``access.js``).
- ``tutor.ui.pages``: the lessons and teacher pages' one call, above both.

Panels read the snapshot (or the pages' data from :mod:`tutor.classroom`) and raise intents;
they import no store and no engine beyond its types. This package re-exports the public names.
Its layer: pyproject.toml's import contracts.

>>> from tutor.ui import dashboard   # doctest: +SKIP
>>> dashboard()                       # doctest: +SKIP
"""

from tutor.ui.pages import lessons_page, teacher_page
from tutor.ui.play.app import TutorApp
from tutor.ui.play.entry import dashboard, play_page
from tutor.ui.play.layout import BoardLayout, EndSpot, Hit, PlacedTile, hit_test, layout

__all__ = ["BoardLayout", "EndSpot", "Hit", "PlacedTile", "TutorApp", "dashboard", "hit_test",
           "layout", "lessons_page", "play_page", "teacher_page"]
