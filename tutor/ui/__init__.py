"""The Voilà dashboard: the only package that imports ipywidgets and ipycanvas.

>>> from tutor.ui import dashboard   # doctest: +SKIP
>>> dashboard()                       # doctest: +SKIP
"""

from .app import TutorApp
from .entry import dashboard
from .layout import BoardLayout, EndSpot, Hit, PlacedTile, hit_test, layout

__all__ = ["BoardLayout", "EndSpot", "Hit", "PlacedTile", "TutorApp", "dashboard", "hit_test",
           "layout"]
