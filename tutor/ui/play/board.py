"""The board panel: a three-layer MultiCanvas redrawn from the snapshot, the student's tile
selection on it, and the hot-seat cover in its place between two human players' turns."""

from __future__ import annotations

import html
from collections.abc import Callable, Iterable
from dataclasses import replace
from typing import TypedDict

import ipycanvas.canvas as _ipc_canvas  # private: only for the layer reset (recipe §2)
import ipywidgets as widgets
from ipycanvas import MultiCanvas, hold_canvas

from engine.round import Action, Play
from engine.tiles import Tile
from tutor.i18n import N_, translator
from tutor.session.snapshot import WAIT_MOVE, WAIT_QUESTION, Snapshot
from tutor.session.words import half_words, tile_words
from tutor.teaching.questions import seat_name
from tutor.ui.play.cover import Cover
from tutor.ui.play.draw import paint_marks, paint_table, paint_tiles
from tutor.ui.play.layout import (
    BoardDict,
    BoardLayout,
    BoardView,
    Cursor,
    Hit,
    css_max_width,
    hit_test,
    layout,
)
from tutor.ui.shared.access import Attributes
from tutor.ui.shared.panel import Guard, pile_text, unguarded

__all__ = ["BOARD_WORDS_ID", "Board", "BoardPanel", "board_labels", "board_words_html"]

BOARD_WORDS_ID = "ld-board-words"
"""The id of the board's text alternative (the canvas is described by it)."""


def board_words_html(view: Snapshot, lang: str, *, hand_shown: bool = True) -> str:
    """The board in words, for a screen reader (the canvas's description): the line of play
    from end to end with both open ends, the student's hand and what fits, the other players'
    tile counts and the pile. ``hand_shown`` False: the hand is hidden (hot seat)."""
    _ = translator(lang)

    def tiles(ts: Iterable[Tile]) -> str:
        return ", ".join(tile_words(t, lang) for t in ts)

    parts = []
    if view.arms and view.line:  # a Doble 15 hub: the hub, then each arm to its open end
        parts.append(_("The hub: {tile}.").format(tile=tile_words(view.line[0], lang)))
        for a, name in enumerate(view.end_names):
            arm = view.arms[a] if a < len(view.arms) else ()
            open_half = "" if view.ends is None else half_words(view.ends[a], lang)
            parts.append(_("Arm {arm}, from the hub: {tiles}; open: {half}.").format(
                arm=name, tiles=tiles(arm), half=open_half) if arm else
                _("Arm {arm} is empty; open: {half}.").format(arm=name, half=open_half))
    elif view.line:
        parts.append(_("Line of play, from the left end to the right end: {tiles}.").format(
            tiles=tiles(view.line)))
    else:
        parts.append(_("The line is empty: the first tile opens the round."))
    if view.ends is not None and view.line and not view.arms:
        parts.append(_("Open ends: {left} on the left, {right} on the right.").format(
            left=half_words(view.ends[0], lang), right=half_words(view.ends[1], lang)))
    if view.table is not None:
        parts.append(_("The table tile: {tile}.").format(tile=tile_words(view.table, lang)))
    seat = view.hand_seat
    if hand_shown and seat is not None and view.hand:
        parts.append(_("Your tiles ({seat}): {tiles}.").format(seat=seat_name(seat),
                                                              tiles=tiles(view.hand)))
        fits = [m.tile for m in view.legal if isinstance(m, Play)]
        if view.human_to_move == seat:
            parts.append(_("They fit: {tiles}.").format(tiles=tiles(dict.fromkeys(fits)))
                         if fits else _("None of them fits."))
    others = [_("player {seat}: {count}").format(seat=seat_name(s), count=n)
              for s, n in enumerate(view.hand_sizes) if s != seat or not hand_shown]
    if others:
        parts.append(_("Tiles in the other hands: {counts}.").format(counts=", ".join(others)))
    parts.append(pile_text(view.pile, lang) + ".")
    parts.append(_("On the board, the arrow keys choose a tile and Enter places it."))
    body = "".join(f"<p>{html.escape(p)}</p>" for p in parts)
    return f"<div id='{BOARD_WORDS_ID}'>{body}</div>"


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


class _Marks(TypedDict, total=False):
    """What the board paints beside the layout: the hot seat's hidden hand, the selection,
    the ends it fits, the playable tiles, the last tile placed and the keyboard's cursor."""

    hidden_hand: bool
    selected: int | None
    fit_ends: tuple[str, ...]
    playable: tuple[int, ...]
    last: int | None
    cursor: Cursor | None


_Keys = tuple[tuple[object, ...] | None, tuple[object, ...] | None, tuple[object, ...] | None]
"""What each of the three layers was painted from (None: not painted yet)."""


class Board:
    """Layer 0 the felt, layer 1 the tiles, layer 2 the marks (ends, selection, last play).

    :meth:`show` takes everything it draws as arguments and keeps them, so a page that
    (re)connects gets the whole picture again from :meth:`repaint`.
    """

    def __init__(self, width: int = 820, height: int = 500) -> None:
        self.width, self.height = width, height
        # The bitmap keeps its size; on a narrow or short screen CSS scales the canvas down
        # (height follows the bitmap's ratio) and ipycanvas scales the clicks back to bitmap
        # pixels.
        self.canvas = MultiCanvas(3, width=width, height=height,
                                  layout=widgets.Layout(width="100%",
                                                        max_width=css_max_width(width, height),
                                                        height="auto"))
        # The layers, each by its index (MultiCanvas.__getitem__): the table, the line, the hand.
        self.layers = [self.canvas[k] for k in range(3)]
        self.canvas.add_class("ld-board")
        self.layout: BoardLayout = layout({}, width, height)
        self._view: BoardView = BoardDict()
        self._args: _Marks = {}
        self._labels: dict[str, str] = {}
        self._on_click: Callable[[Hit, float, float], None] | None = None
        self._on_key: Callable[[str], None] | None = None
        self._ends_clickable: tuple[str, ...] | None = None
        # What each layer was last painted from: a layer whose inputs did not change is not
        # sent again (most refreshes change the scores or the tutor panel, not the board).
        self._painted: _Keys = (None, None, None)
        # The layers the page has said it has: nothing is sent before it has every one (see
        # :meth:`page_ready`).
        self._layers_ready: set[int] = set()
        self.canvas.on_mouse_down(self._mouse_down)
        self.canvas.on_key_down(self._key_down)
        for k, layer in enumerate(self.layers):
            layer.on_client_ready(lambda k=k: self._layer_ready(k))

    def on_click(self, callback: Callable[[Hit, float, float], None]) -> None:
        self._on_click = callback

    def on_key(self, callback: Callable[[str], None]) -> None:
        """``callback(key)`` for a key pressed on the focused board (only the board's own
        keys reach it: arrows, Enter, Space, Escape, Home, End; see access.js)."""
        self._on_key = callback

    def _key_down(self, key: str, *_modifiers: object) -> None:
        if self._on_key is not None:
            self._on_key(key)

    def _mouse_down(self, x: float, y: float) -> None:
        if self._on_click is not None:
            self._on_click(hit_test(x, y, self.layout), x, y)

    def _layer_ready(self, k: int) -> None:
        self._layers_ready.add(k)
        if self._page_has_layers():
            self.page_ready()  # each layer again on a page that connects again

    def _page_has_layers(self) -> bool:
        return len(self._layers_ready) == len(self.layers)

    def page_ready(self) -> None:
        """The page has the board's layers (each said so, or the page's board is shown and
        blank): paint every layer. Until then nothing is sent: ipycanvas's page side runs
        every drawing after the one before, and one that failed (a layer the page did not
        have yet, or no layer chosen because the choice was in a drawing lost while the page
        built itself) stops every later one: the board stayed blank for good (seen about once
        in ten Doble 15 lesson openings beside two CPU hogs)."""
        self._layers_ready.update(range(len(self.layers)))
        self.repaint(force=True)

    def show(self, view: BoardView, *, labels: dict[str, str], hidden_hand: bool = False,
             selected: int | None = None, fit_ends: tuple[str, ...] = (),
             playable: tuple[int, ...] = (), last: int | None = None,
             cursor: Cursor | None = None) -> BoardLayout:
        """Lay out ``view`` and paint it in one batch. Returns the layout (for hit tests)."""
        self._view = view
        self.layout = layout(view, self.width, self.height)
        self._labels = dict(labels)
        self._args = _Marks(hidden_hand=hidden_hand, selected=selected, fit_ends=fit_ends,
                            playable=playable, last=last, cursor=cursor)
        self.repaint()
        return self.layout

    def resize(self, width: int, height: int) -> None:
        """Draw the board on a ``width`` × ``height`` bitmap from now on, the same view laid
        out again and painted whole (the canvas is cleared when its size changes)."""
        if (width, height) == (self.width, self.height):
            return
        self.width, self.height = width, height
        self.canvas.width, self.canvas.height = width, height  # every layer
        self.canvas.layout.max_width = css_max_width(width, height)
        self.layout = layout(self._view, width, height)
        self.repaint(force=True)

    def mark(self, *, selected: int | None, fit_ends: tuple[str, ...],
             cursor: Cursor | None = None) -> None:
        """Redraw only the highlight layer (a selection or the keyboard's cursor changed)."""
        self._args.update({"selected": selected, "fit_ends": fit_ends, "cursor": cursor})
        self.repaint()

    def _paint_marks(self) -> None:
        a = self._args
        paint_marks(self.canvas[2], self.layout, selected=a.get("selected"),
                    fit_ends=a.get("fit_ends", ()), last=a.get("last"), labels=self._labels,
                    cursor=a.get("cursor"))

    def repaint(self, force: bool = False) -> None:
        """Paint, in one batch, every layer whose inputs changed (all with ``force``)."""
        a, lay, labels = self._args, self.layout, self._labels
        keys: _Keys = (
            (lay.width, lay.height, lay.band_y, bool(lay.line), labels.get("hand"),
             labels.get("empty")),
            (lay.line, lay.hand, lay.turns, a.get("hidden_hand", False),
             tuple(a.get("playable", ()))),
            (lay.line, lay.ends, lay.hand, a.get("selected"), tuple(a.get("fit_ends", ())),
             a.get("last"), tuple(sorted(labels.items())), a.get("cursor")),
        )
        old = (None, None, None) if force else self._painted
        if keys == old or not self._page_has_layers():
            return
        # Every batch names its layer first: it does not rely on an earlier batch, which the
        # page may have lost (ipycanvas names a layer only when it changes).
        _ipc_canvas._CANVAS_MANAGER._current_canvas = None
        with hold_canvas():
            if keys[0] != old[0]:
                paint_table(self.canvas[0], lay, labels)
            if keys[1] != old[1]:
                paint_tiles(self.canvas[1], lay, hidden_hand=a.get("hidden_hand", False),
                            playable=a.get("playable", ()))
            if keys[2] != old[2]:
                self._paint_marks()
        self._painted = keys


class BoardPanel(widgets.Box):
    """The board, or the hot-seat cover while the next human player takes the screen; and
    :attr:`words`, the board in words for screen readers (the app places it under the board).

    A click on a hand tile places it when it fits one way, else lights the ends it fits; a
    click on a lit end places it there. On the focused board the arrow keys do the same: ← →
    choose a tile (or, once a tile fitting both ends is chosen, an end), ↑ ↓ go between the
    tiles and the ends, Enter or Space places, Escape chooses again. The panel calls
    ``on_play(move)`` to play, ``on_message(text, kind)`` to tell the student why nothing
    happened, and ``on_speak(text)`` to say where the keyboard is. ``guard(handler)`` wraps
    each handler of the page's clicks and keys (the app's says what went wrong).
    """

    def __init__(self, width: int, height: int, *,
                 on_play: Callable[[Action], None],
                 on_message: Callable[[str, str], None],
                 on_speak: Callable[[str], None],
                 on_uncover: Callable[[], None],
                 guard: Guard = unguarded,
                 ) -> None:
        self.board = Board(width, height)
        self.board.on_click(guard(self._clicked))
        self.board.on_key(guard(self.key))
        self.cover = Cover(width, height)
        self.cover.on_taken(guard(self._taken))
        self.words = widgets.HTML()
        self.words.add_class("ld-board-words")
        self.words.add_class("ld-sr")
        super().__init__([self.board.canvas])
        self.add_class("ld-board-slot")
        self._on_play, self._on_message = on_play, on_message
        self._on_speak, self._on_uncover = on_speak, on_uncover
        self.hand: list[Tile] = []
        self.selected: int | None = None
        self.cursor: Cursor | None = None
        self.shown_seat: int | None = None
        """Hot seat: the human seat that has taken the screen."""
        self._view: Snapshot | None = None
        self._legal: tuple[Action, ...] = ()

    def resize(self, width: int, height: int) -> None:
        """The board (and the cover in its place) at ``width`` × ``height`` from now on."""
        self.board.resize(width, height)
        self.cover.layout.max_width = css_max_width(width, height)

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
        playable = self._playable()
        if self.selected is not None and self.selected not in playable:
            self.selected = None
        if self.cursor is not None and (
                (self.cursor[0] == "hand" and not 0 <= self.cursor[1] < len(self.hand))
                or (self.cursor[0] == "end" and self.selected is None)):
            self.cursor = None
        self.board.show(hand_view, labels=board_labels(view, view.lang), selected=self.selected,
                        fit_ends=self._fit(), playable=playable if self._legal else (),
                        last=view.last_placed, cursor=self.cursor)
        self.words.value = board_words_html(hand_view, view.lang, hand_shown=bool(self.hand))
        self.children = [self.cover if covered else self.board.canvas]
        if covered and view.human_to_move is not None:
            self.cover.render(view.human_to_move, view.lang)

    def attributes(self, lang: str) -> Attributes:
        _ = translator(lang)
        return {"canvas.ld-board": {"role": "application",
                                    "aria-label": _("Domino board"),
                                    "aria-describedby": BOARD_WORDS_ID}}

    def _playable(self) -> tuple[int, ...]:
        return tuple(i for i, t in enumerate(self.hand)
                     if any(isinstance(m, Play) and m.tile == t for m in self._legal))

    def _fit(self) -> tuple[str, ...]:
        if self.selected is None:
            return ()
        return tuple(str(p.end) for p in self.plays_for(self.selected))

    def _mark(self) -> None:
        self.board.mark(selected=self.selected, fit_ends=self._fit(), cursor=self.cursor)

    def reset(self) -> None:
        """A new round: nothing selected, nobody has taken the screen."""
        self.selected = None
        self.cursor = None
        self.shown_seat = None

    # --- the student's clicks -----------------------------------------------------------------

    def plays_for(self, index: int) -> list[Play]:
        tile = self.hand[index]
        return [m for m in self._legal if isinstance(m, Play) and m.tile == tile]

    def _clicked(self, hit: Hit, x: float, y: float) -> None:
        self.cursor = None
        if hit.kind == "hand":
            self.select(hit.index)
        elif hit.kind == "end" and hit.end is not None:
            self.place_at(hit.end)

    def _t(self, message: str, **values: object) -> str:
        lang = self._view.lang if self._view is not None else "es"
        return translator(lang)(message).format(**values)

    def why_not(self, view: Snapshot) -> str | None:
        """Why no tile may be played now (a message id), or None: the session's verdict
        (the snapshot's ``waiting``, the check :meth:`Session.play` makes) in the board's
        words, or the hot-seat cover still up."""
        if view.waiting == WAIT_QUESTION:
            return N_("Answer the question first (or press Show me).")
        if view.waiting != WAIT_MOVE or self.covered(view):
            return N_("Wait: it is not your turn.")
        return None

    def _say(self, message: str, kind: str = "info", **values: object) -> None:
        self._on_message(self._t(message, **values), kind)

    def select(self, index: int) -> None:
        """A click on hand tile ``index``: place it when it fits one way only, else light up
        the ends it fits."""
        view = self._view
        if view is None:
            return
        why_not = self.why_not(view)
        if why_not is not None:
            self._say(why_not, "msg")
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
                if self.cursor is not None:  # the keyboard goes on to the ends
                    self.cursor = ("end", str(plays[0].end))
                self._mark()
                if len(plays) > 2 or str(plays[0].end) not in ("L", "R"):  # a hub's arms
                    self._say(N_("{tile} fits several arms: choose one with the arrow keys and "
                                 "press Enter.") if self.cursor is not None else
                              N_("{tile} fits several arms: click the lit one where it goes."),
                              tile=self.hand[index])
                    return
                self._say(N_("{tile} fits both ends: choose the end with the arrow keys and "
                             "press Enter.") if self.cursor is not None else
                          N_("{tile} fits both ends: click the lit end where it goes."),
                          tile=self.hand[index])

    def place_at(self, end: str) -> None:
        """A click on an open end: place the selected tile there."""
        view = self._view
        if view is None:
            return
        if self.selected is None:
            if self.why_not(view) is None:
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

    # --- the keyboard -------------------------------------------------------------------------

    def key(self, key: str) -> None:
        """A key pressed on the focused board (see the class docstring)."""
        if self._view is None or not self.hand:
            if self._view is not None and key in ("Enter", " "):
                self._say(N_("Wait: it is not your turn."), "msg")
            return
        cursor = self.cursor
        if key in ("Enter", " "):
            if cursor is None:
                self._move_in_hand(0)
            elif cursor[0] == "hand":
                self.select(int(cursor[1]))
            else:
                self.place_at(str(cursor[1]))
            return
        if key == "Escape":  # back to the tiles, on the one that was chosen
            back = self.selected if self.selected is not None else (
                int(cursor[1]) if cursor is not None and cursor[0] == "hand" else None)
            self.selected = None
            self.cursor = None if back is None else ("hand", back)
            self._mark()
            self._on_speak(self._t(N_("Choose a tile.")))
            return
        if key in ("ArrowUp", "ArrowDown"):
            ends = self._fit()
            if key == "ArrowUp" and ends:
                self._to_end(ends[0])
            else:
                self._move_in_hand(0)
            return
        step = {"ArrowLeft": -1, "ArrowRight": 1, "Home": -len(self.hand),
                "End": len(self.hand)}.get(key)
        if step is None:
            return
        if cursor is not None and cursor[0] == "end":
            ends = self._fit()
            if ends:
                i = ends.index(str(cursor[1])) if cursor[1] in ends else 0
                self._to_end(ends[(i + (1 if step > 0 else -1)) % len(ends)])
            return
        self._move_in_hand(step)

    def _move_in_hand(self, step: int) -> None:
        """Move the keyboard's cursor ``step`` tiles along the hand (0: stay, or start on the
        first tile that fits) and say the tile and where it fits."""
        n = len(self.hand)
        cursor = self.cursor
        if abs(step) >= n:  # Home, End
            index = 0 if step < 0 else n - 1
        elif cursor is None or cursor[0] != "hand":
            playable = self._playable()
            index = playable[0] if playable and step == 0 else (0 if step >= 0 else n - 1)
        else:
            index = (int(cursor[1]) + step) % n
        self.cursor = ("hand", index)
        self._mark()
        ends = {p.end for p in self.plays_for(index)}
        lang = self._view.lang if self._view is not None else "es"
        if ends and None not in ends and not ends <= {"L", "R"}:  # a hub's arms
            where = self._t(N_("It fits arm {arms}."), arms=", ".join(
                e for e in self._view_end_names() if e in ends))
        else:
            where = self._t(N_("It does not fit.") if not ends
                            else N_("It opens the line.") if None in ends
                            else N_("It fits both ends.") if len(ends) == 2
                            else N_("It fits the left end.") if "L" in ends
                            else N_("It fits the right end."))
        self._on_speak(self._t(N_("Tile {number} of {count}: {tile}."), number=index + 1,
                               count=n, tile=tile_words(self.hand[index], lang))
                       + " " + where)

    def _view_end_names(self) -> tuple[str, ...]:
        return self._view.end_names if self._view is not None else ("L", "R")

    def _to_end(self, end: str) -> None:
        self.cursor = ("end", end)
        self._mark()
        view = self._view
        assert view is not None
        names = view.end_names
        half = "" if view.ends is None or end not in names else half_words(
            view.ends[names.index(end)], view.lang)
        self._on_speak(self._t(N_("The left end, where {half} is open.") if end == "L"
                               else N_("The right end, where {half} is open.") if end == "R"
                               else N_("Arm {arm}, where {half} is open."), half=half, arm=end))
