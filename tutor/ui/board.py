"""The board widget: a three-layer MultiCanvas redrawn whole from the session's view state."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import ipycanvas.canvas as _ipc_canvas  # private: only for the client-ready reset (recipe §2)
import ipywidgets as widgets
from ipycanvas import MultiCanvas, hold_canvas

from .draw import paint_marks, paint_table, paint_tiles
from .layout import BoardLayout, Hit, hit_test, layout

__all__ = ["Board"]


class Board:
    """Layer 0 the felt, layer 1 the tiles, layer 2 the marks (ends, selection, last play).

    :meth:`show` takes everything it draws as arguments and keeps them, so a page that
    (re)connects gets the whole picture again from :meth:`repaint`.
    """

    def __init__(self, width: int = 820, height: int = 500) -> None:
        self.width, self.height = width, height
        self.canvas = MultiCanvas(3, width=width, height=height,
                                  layout=widgets.Layout(width=f"{width}px", height=f"{height}px",
                                                        min_width=f"{width}px"))
        self.canvas.add_class("ld-board")
        self.layout: BoardLayout = layout({}, width, height)
        self._args: dict[str, Any] = {}
        self._labels: dict[str, str] = {}
        self._on_click: Callable[[Hit, float, float], None] | None = None
        self._ends_clickable: tuple[str, ...] | None = None
        # What each layer was last painted from: a layer whose inputs did not change is not
        # sent again (most refreshes change the scores or the tutor panel, not the board).
        self._painted: tuple[Any, Any, Any] = (None, None, None)
        self.canvas.on_mouse_down(self._mouse_down)
        for layer in self.canvas._canvases:  # every layer: whichever is ready last repaints
            layer.on_client_ready(self._client_ready)

    def on_click(self, callback: Callable[[Hit, float, float], None]) -> None:
        self._on_click = callback

    def _mouse_down(self, x: float, y: float) -> None:
        if self._on_click is not None:
            self._on_click(hit_test(x, y, self.layout), x, y)

    def _client_ready(self) -> None:
        _ipc_canvas._CANVAS_MANAGER._current_canvas = None  # forget the lost "switch canvas"
        self.repaint(force=True)  # a (re)connected page has nothing drawn yet

    def show(self, view: Any, *, labels: dict[str, str], hidden_hand: bool = False,
             selected: int | None = None, fit_ends: tuple[str, ...] = (),
             playable: tuple[int, ...] = (), last: int | None = None) -> BoardLayout:
        """Lay out ``view`` and paint it in one batch. Returns the layout (for hit tests)."""
        self.layout = layout(view, self.width, self.height)
        self._labels = dict(labels)
        self._args = dict(hidden_hand=hidden_hand, selected=selected, fit_ends=fit_ends,
                          playable=playable, last=last)
        self.repaint()
        return self.layout

    def mark(self, *, selected: int | None, fit_ends: tuple[str, ...]) -> None:
        """Redraw only the highlight layer (a selection changed)."""
        self._args.update(selected=selected, fit_ends=fit_ends)
        self.repaint()

    def _paint_marks(self) -> None:
        a = self._args
        paint_marks(self.canvas[2], self.layout, selected=a.get("selected"),
                    fit_ends=a.get("fit_ends", ()), last=a.get("last"), labels=self._labels)

    def repaint(self, force: bool = False) -> None:
        """Paint, in one batch, every layer whose inputs changed (all with ``force``)."""
        a, lay, labels = self._args, self.layout, self._labels
        keys = (
            (lay.width, lay.height, lay.band_y, bool(lay.line), labels.get("hand"),
             labels.get("empty")),
            (lay.line, lay.hand, lay.turns, a.get("hidden_hand", False),
             tuple(a.get("playable", ()))),
            (lay.line, lay.ends, lay.hand, a.get("selected"), tuple(a.get("fit_ends", ())),
             a.get("last"), tuple(sorted(labels.items()))),
        )
        old = (None, None, None) if force else self._painted
        if keys == old:
            return
        with hold_canvas():
            if keys[0] != old[0]:
                paint_table(self.canvas[0], lay, labels)
            if keys[1] != old[1]:
                paint_tiles(self.canvas[1], lay, hidden_hand=a.get("hidden_hand", False),
                            playable=a.get("playable", ()))
            if keys[2] != old[2]:
                self._paint_marks()
        self._painted = keys
