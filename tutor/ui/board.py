"""The board panel: a three-layer MultiCanvas redrawn from the snapshot, the student's tile
selection on it, and the hot-seat cover in its place between two human players' turns."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

import ipycanvas.canvas as _ipc_canvas  # private: only for the client-ready reset (recipe §2)
import ipywidgets as widgets
from ipycanvas import MultiCanvas, hold_canvas

from engine.round import Action, Play
from engine.tiles import Tile
from tutor.i18n import N_, translator
from tutor.questions import seat_name
from tutor.snapshot import Snapshot

from .cover import Cover
from .draw import paint_marks, paint_table, paint_tiles
from .layout import BoardLayout, Hit, hit_test, layout

__all__ = ["Board", "BoardPanel", "board_labels"]


def board_labels(view: Snapshot, lang: str) -> dict[str, str]:
    """The words painted on the board: the hand's caption, the empty line, the ends."""
    _ = translator(lang)
    seat = view.hand_seat
    return {
        "hand": (_("Your tiles ({seat}) — click one to play it").format(
            seat=seat_name(seat)) if seat is not None and view.human_to_move == seat
            else _("Your tiles ({seat})").format(seat=seat_name(seat))
            if seat is not None else ""),
        "empty": _("The line is empty: the first tile opens the round."),
        "table": _("table"),
        "end_L": _("L"),
        "end_R": _("R"),
    }


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


class BoardPanel(widgets.Box):  # type: ignore[misc]
    """The board, or the hot-seat cover while the next human player takes the screen.

    A click on a hand tile places it when it fits one way, else lights the ends it fits; a
    click on a lit end places it there. The panel calls ``on_play(move)`` to play and
    ``on_message(text, kind)`` to tell the student why nothing happened.
    """

    def __init__(self, width: int, height: int, *,
                 on_play: Callable[[Action], None],
                 on_message: Callable[[str, str], None],
                 on_uncover: Callable[[], None]) -> None:
        self.board = Board(width, height)
        self.board.on_click(self._clicked)
        self.cover = Cover(width, height)
        self.cover.on_taken(self._taken)
        super().__init__([self.board.canvas])
        self._on_play, self._on_message, self._on_uncover = on_play, on_message, on_uncover
        self.hand: list[Tile] = []
        self.selected: int | None = None
        self.shown_seat: int | None = None
        """Hot seat: the human seat that has taken the screen."""
        self._view: Snapshot | None = None
        self._legal: tuple[Action, ...] = ()

    # --- what the student sees ----------------------------------------------------------------

    def covered(self, view: Snapshot) -> bool:
        """Hot seat: several humans, one to move who has not taken the screen yet."""
        seat = view.human_to_move
        return len(view.humans) > 1 and seat is not None and seat != self.shown_seat

    def legal(self, view: Snapshot) -> tuple[Action, ...]:
        """The moves on offer: none while the cover is up."""
        return () if self.covered(view) else view.legal

    def render(self, view: Snapshot) -> None:
        covered = self.covered(view)
        hand_view = view
        humans = view.humans
        if not humans or covered or (len(humans) > 1 and view.human_to_move is None):
            hand_view = replace(view, hand=())  # hot seat: no hand on show between turns
        self._view = view
        self._legal = self.legal(view)
        self.hand = list(hand_view.hand)
        playable = tuple(i for i, t in enumerate(self.hand)
                         if any(isinstance(m, Play) and m.tile == t for m in self._legal))
        if self.selected is not None and self.selected not in playable:
            self.selected = None
        fit: tuple[str, ...] = ()
        if self.selected is not None:
            fit = tuple(str(p.end) for p in self.plays_for(self.selected))
        self.board.show(hand_view, labels=board_labels(view, view.lang), selected=self.selected,
                        fit_ends=fit, playable=playable if self._legal else (),
                        last=view.last_placed)
        self.children = [self.cover if covered else self.board.canvas]
        if covered and view.human_to_move is not None:
            self.cover.render(view.human_to_move, view.lang)

    def reset(self) -> None:
        """A new round: nothing selected, nobody has taken the screen."""
        self.selected = None
        self.shown_seat = None

    # --- the student's clicks -----------------------------------------------------------------

    def plays_for(self, index: int) -> list[Play]:
        tile = self.hand[index]
        return [m for m in self._legal if isinstance(m, Play) and m.tile == tile]

    def _clicked(self, hit: Hit, x: float, y: float) -> None:
        if hit.kind == "hand":
            self.select(hit.index)
        elif hit.kind == "end" and hit.end is not None:
            self.place_at(hit.end)

    def _say(self, message: str, kind: str = "info", **values: Any) -> None:
        lang = self._view.lang if self._view is not None else "es"
        self._on_message(translator(lang)(message).format(**values), kind)

    def select(self, index: int) -> None:
        """A click on hand tile ``index``: place it when it fits one way only, else light up
        the ends it fits."""
        view = self._view
        if view is None:
            return
        if view.question is not None:
            self._say(N_("Answer the question first (or press Show me)."), "msg")
        elif view.human_to_move is None or self.covered(view):
            self._say(N_("Wait: it is not your turn."), "msg")
        elif not 0 <= index < len(self.hand):
            return
        else:
            plays = self.plays_for(index)
            if not plays:
                self.selected = None
                self._say(N_("{tile} does not fit either open end."), "msg",
                          tile=self.hand[index])
            elif len(plays) == 1:
                self._on_play(plays[0])
            else:
                self.selected = index
                self.board.mark(selected=index, fit_ends=tuple(str(p.end) for p in plays))
                self._say(N_("{tile} fits both ends: click the lit end where it goes."),
                          tile=self.hand[index])

    def place_at(self, end: str) -> None:
        """A click on an open end: place the selected tile there."""
        view = self._view
        if view is None:
            return
        if self.selected is None:
            if view.human_to_move is not None and not self.covered(view):
                self._say(N_("First click one of your tiles, then an end."), "msg")
            return
        plays = [p for p in self.plays_for(self.selected) if p.end == end]
        if not plays:
            self._say(N_("That tile does not fit there."), "msg")
            return
        self._on_play(plays[0])

    def _taken(self) -> None:
        if self._view is not None:
            self.shown_seat = self._view.human_to_move
        self._on_uncover()
