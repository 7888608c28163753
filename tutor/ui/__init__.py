"""The Voilà dashboard: the only package that imports ipywidgets and ipycanvas.

One module per panel, each a widget that renders itself from the session's
:class:`~tutor.snapshot.Snapshot` with its pure HTML functions beside it (testable without
widgets): ``header`` (title, language, new game, status line), ``game_setup``, ``board`` (the
canvas and the student's selection; ``layout`` and ``draw`` under it), ``cover`` (hot seat),
``moves``, ``question`` (the tutor panel and the answered card), ``scores``, ``skills``,
``log``, ``round_end``, ``sheet`` (score sheet and progress download), ``keys`` (the
shortcuts and their help panel). ``access`` is the page's access layer (live region, ARIA
attributes, keys, focus; its frontend is ``access.js``); ``panel`` holds what panels share.
``app`` only wires them.

>>> from tutor.ui import dashboard   # doctest: +SKIP
>>> dashboard()                       # doctest: +SKIP
"""

from .app import TutorApp
from .entry import dashboard, play_page
from .layout import BoardLayout, EndSpot, Hit, PlacedTile, hit_test, layout
from .pages import lessons_page, teacher_page

__all__ = ["BoardLayout", "EndSpot", "Hit", "PlacedTile", "TutorApp", "dashboard", "hit_test",
           "layout", "lessons_page", "play_page", "teacher_page"]
