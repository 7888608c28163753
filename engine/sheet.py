"""The Leonard score sheet (docs/rules.md §2): one table per round, read from the round's event log.

Layout
    Rows are numbered 1, 2, 3 … ; row *k* holds every player's *k*-th turn. A turn is the draws
    of one player followed by their play or their pass (a :class:`~engine.events.Placed` or
    :class:`~engine.events.Passed` event ends it). Each seat has three columns, lettered by
    seat: ``A``, ``+a``, ``-a``, then ``B``, ``+b``, ``-b`` … After the players' columns every
    row carries the cumulative score of each player (``Σa``, ``Σb`` …): the sum of that
    player's ``+`` minus ``-`` entries in this row and all rows above it. The last row's
    cumulative scores are the round's gains minus losses.

The capital column (:attr:`SheetCell.play`), its parts in this order
    ``↓k``     drew *k* tiles on this turn (before the play, or before passing);
    the tile   as placed: the half that matched the line first (``5/4`` placed on a 5), an
               opening as placed (``6/6``); with a pass after drawing there is no tile;
    ``—``      passed without drawing;
    quality    ``!!`` ``!`` ``X`` ``XX`` (see below), right after the tile;
    ``N``      a neutralized power play (a power tile that opened the line);
    ``PS``     paso a la salida: on the opener's opening row (+20 there);
    ``PC``     paso corrido: on the row of the placement every other player passed on
               (+20 there, although the bonus is paid after the last pass);
    ``K/KP``   basic / power capicúa, on the domino row;
    ``T``      the tranque, on the turn that made it;
    ``$ = ∅``  the result, written for *every* player in the row of the turn that ended the
               round: ``$`` the winner, ``∅`` a loser; after a tranque with a shared lowest
               hand, ``=`` for those who share it and ``∅`` for the others.

Points
    ``+x`` holds what the player gained on that turn: power gains, and the bonuses (paso a la
    salida, paso corrido, capicúa, domino winnings) on the row named above; the tranque
    winnings go to the winner's ``+x`` in the row of the turn that made the tranque.
    ``-x`` holds what was taken from the player by another player's power play, written in the
    row of the play that caused it (the placing player's turn number), even if the victim's
    own turn of that number comes later or never. Both are written as positive numbers;
    ``0`` is left blank in the text, CSV and HTML forms.

Play quality (``!!`` ``!`` ``X`` ``XX``)
    The round is replayed from its deal (:attr:`Round.initial_hands`, pile, table, starter);
    before each placement every legal play — each (tile, end) the player could have placed —
    is valued by the points it changes at once: its power effect, own gain plus loss
    inflicted (docs/rules.md §1.6, with T the total of the tile at the opposite end; an opening is
    neutralized and worth 0; a basic tile is worth 0). With *lo* and *hi* the lowest and
    highest value on offer:

    * one distinct value (a forced play, or a choice that changes nothing): no mark;
    * value = hi: ``!!``;   value = lo: ``XX``;
    * otherwise ``!`` when value ≥ lo + ¾·(hi − lo), ``X`` when value ≤ lo + ¼·(hi − lo),
      no mark in between.

    Bonuses (domino, capicúa, tranque, pass bonuses) do not enter the value: they either do
    not depend on the choice of tile or are not known at the moment of the play.

The classic variants (docs/rules.md §3)
    A game without power tiles drops the ``-a`` columns (:attr:`Variant.sheet_losses`); a
    pair game adds the pairs' cumulative scores after the players' (``Σac``, ``Σbd``) and
    writes ``$`` for both partners of the winning pair. A play that made another seat draw
    is marked ``↓C`` (seat C drew; C's own cells are untouched).

    A game's own marks are its variant's (:attr:`Variant.sheet_marks`, declared in its
    module under ``engine/variants/``): a bonus of its own kind, by the kind, or one of its
    own events, by the key its round type gives it (:meth:`Round.sheet_event`). This module
    names no game.
"""

from __future__ import annotations

import csv
import html
import io
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Final, Literal

from .events import (
    Bonus,
    Drew,
    End,
    Passed,
    Placed,
    PowerEffect,
    RoundEnded,
    RoundStarted,
)
from .round import DRAW, PASS, Play, Round
from .rules import Variant
from .tiles import Tile

if TYPE_CHECKING:
    from .match import Match

__all__ = ["SheetCell", "SheetRow", "ScoreSheet", "match_sheets", "play_quality", "play_value"]

LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"

DREW = "↓"
PASSED = "—"
WIN, TIE, LOSE = "$", "=", "∅"
_MARKS_BEFORE = ("N", "PS", "PC")
_MARKS_AFTER = ("K", "KP", "T", WIN, TIE, LOSE)
_MARK_ORDER = _MARKS_BEFORE + _MARKS_AFTER
"""The order of every game's marks in a cell; a game's own marks go between the two parts
(:func:`mark_order`), a forced draw's ``↓C`` last."""


def mark_order(variant: Variant) -> tuple[str, ...]:
    """The order of the marks in a cell of ``variant``'s sheet."""
    if not variant.sheet_marks:
        return _MARK_ORDER
    return (*_MARKS_BEFORE, *variant.sheet_marks.values(), *_MARKS_AFTER)


def play_value(rnd: Round, play: Play) -> int:
    """Points ``play`` would change at once in ``rnd`` as it stands: own gain plus loss
    inflicted by its power effect (0 for a basic tile, an opening, or a game without power)."""
    gain, loss = rnd.play_points(play)
    return gain + loss


def play_quality(value: int, values: list[int] | tuple[int, ...]) -> str:
    """The quality mark of a play worth ``value`` among the values of every legal play
    (``!!``, ``!``, ``X``, ``XX`` or ``""``; see the module docstring)."""
    if not values:
        return ""
    lo, hi = min(values), max(values)
    if hi == lo:
        return ""
    if value >= hi:
        return "!!"
    if value <= lo:
        return "XX"
    if 4 * (value - lo) >= 3 * (hi - lo):
        return "!"
    if 4 * (value - lo) <= hi - lo:
        return "X"
    return ""


@dataclass
class SheetCell:
    """One player's turn on one row: the capital column and the ``+``/``-`` columns."""

    seat: int
    row: int
    tile: Tile | None = None
    """The tile placed, matched half first (an opening as placed); None for a pass or no turn."""
    end: End | None = None
    drew: int = 0
    passed: bool = False
    quality: str = ""
    """``!!``, ``!``, ``X``, ``XX`` or ``""``."""
    marks: list[str] = field(default_factory=list)
    """``N``, ``PS``, ``PC``, ``K``/``KP``, ``T`` and the result ``$``/``=``/``∅``."""
    gain: int = 0
    loss: int = 0
    total: int = 0
    """The player's cumulative score (gains − losses) up to and including this row."""
    value: int | None = None
    """Points the play changed at once (power gain + loss inflicted); None without a play."""
    choices: tuple[int, ...] = ()
    """The value of every legal play the player had (one per tile and end)."""
    order: tuple[str, ...] = field(default=_MARK_ORDER, repr=False, compare=False)
    """The order :meth:`ordered_marks` writes the marks in (:func:`mark_order`)."""

    @property
    def played(self) -> bool:
        """The player had a turn on this row (played, drew or passed)."""
        return self.tile is not None or self.passed or self.drew > 0

    def ordered_marks(self) -> list[str]:
        order = self.order
        return sorted(self.marks, key=lambda m: order.index(m) if m in order else len(order))

    @property
    def play(self) -> str:
        """The capital column's text, e.g. ``↓2 5/x !! PC``."""
        parts: list[str] = []
        if self.drew:
            parts.append(f"{DREW}{self.drew}")
        if self.tile is not None:
            parts.append(str(self.tile))
            if self.quality:
                parts.append(self.quality)
        elif self.passed and not self.drew:
            parts.append(PASSED)
        parts.extend(self.ordered_marks())
        return " ".join(parts)

    @property
    def gain_text(self) -> str:
        return str(self.gain) if self.gain else ""

    @property
    def loss_text(self) -> str:
        return str(self.loss) if self.loss else ""

    def play_html(self) -> str:
        """The capital column as HTML: the tile as a fraction (matched half over open half)."""
        parts: list[str] = []
        if self.drew:
            parts.append(f'<span class="drew">{DREW}{self.drew}</span>')
        if self.tile is not None:
            parts.append(f'<span class="tile"><sup>{html.escape(str(self.tile.a))}</sup>'
                         f'&frasl;<sub>{html.escape(str(self.tile.b))}</sub></span>')
            if self.quality:
                parts.append(f'<span class="quality">{html.escape(self.quality)}</span>')
        elif self.passed and not self.drew:
            parts.append(f'<span class="pass">{PASSED}</span>')
        parts.extend(f'<span class="mark">{html.escape(m)}</span>'
                     for m in self.ordered_marks())
        return " ".join(parts)


@dataclass(frozen=True)
class SheetRow:
    """Row ``number``: one :class:`SheetCell` per seat."""

    number: int
    cells: tuple[SheetCell, ...]
    losses: bool = True
    """The row has the ``-x`` columns."""
    teams: tuple[tuple[int, ...], ...] = ()
    """Pair games: the pairs, whose cumulative scores follow the players'."""

    @property
    def totals(self) -> tuple[int, ...]:
        """Each player's cumulative score at the end of this row."""
        return tuple(c.total for c in self.cells)

    @property
    def team_totals(self) -> tuple[int, ...]:
        """Pair games: each pair's cumulative score at the end of this row."""
        return tuple(sum(self.cells[s].total for s in seats) for seats in self.teams)

    def values(self) -> list[str]:
        """The row as text cells, in the order of :attr:`ScoreSheet.header`."""
        out = [str(self.number)]
        for c in self.cells:
            out += [c.play, c.gain_text, c.loss_text] if self.losses else [c.play, c.gain_text]
        out += [str(t) for t in self.totals]
        out += [str(t) for t in self.team_totals]
        return out

    def as_dict(self, header: list[str]) -> dict[str, str]:
        return dict(zip(header, self.values(), strict=True))


TITLE_WORDS: Final[Mapping[str, str]] = {
    "round": "Round {number}",
    "table": "table {tile}",
    "pair wins": "{how}: {pair} win",
    "seat wins": "{how}: {seat} wins",
    "nobody wins": "{how}: nobody wins",
    "domino": "domino",
    "tranque": "tranque",
}
"""The words of :meth:`ScoreSheet.title`, in English, by key (the base end reasons among
them); the tutor passes the same keys in the page's language. A game's own end reason (its
module's ``END_REASONS``) is said by its key unless the caller's ``words`` name it."""


class ScoreSheet:
    """The score sheet of one round. Build it with :meth:`from_round`."""

    def __init__(self, number: int, players: int, table: Tile | None, rows: list[SheetRow],
                 result: RoundEnded | None, *, losses: bool = True,
                 teams: tuple[tuple[int, ...], ...] = (), game: str = "") -> None:
        self.number = number
        """The round's number in its match."""
        self.players = players
        self.table = table
        """The 4-player table tile (not a play of anyone's), or None."""
        self.rows = rows
        self.result = result
        """The round's end, or None while it is still being played."""
        self.losses = losses
        """The sheet has ``-x`` columns (False: a game without power tiles)."""
        self.teams = teams
        """Pair games: the pairs (empty otherwise)."""
        self.game = game
        """The game's name for the title (empty: Leonard-Domino and the block game)."""
        self.letters = [LETTERS[s] for s in range(players)]
        self.columns: list[str] = []
        """The players' columns: ``A``, ``+a``, ``-a``, ``B``, ``+b``, ``-b`` …"""
        for x in self.letters:
            self.columns += [x, f"+{x.lower()}", f"-{x.lower()}"] if losses \
                else [x, f"+{x.lower()}"]
        self.total_columns = [f"Σ{x.lower()}" for x in self.letters]
        """The cumulative score columns at the end of each row: ``Σa``, ``Σb`` … and, in a
        pair game, the pairs': ``Σac``, ``Σbd``."""
        self.total_columns += ["Σ" + "".join(self.letters[s].lower() for s in seats)
                               for seats in teams]

    # --- building ---------------------------------------------------------------------------

    @classmethod
    def from_round(cls, rnd: Round) -> ScoreSheet:
        """The sheet of ``rnd`` (finished or still in play), from its event log; the deal is
        replayed only to judge play quality. Raises ValueError for a round played without a
        record or whose log does not replay from its deal."""
        log = rnd.log
        if not log or not isinstance(log[0], RoundStarted):
            raise ValueError("this round was played without an event log (record=False): "
                             "it has no score sheet")
        players = rnd.players
        opening: Literal["rule", "any"] = (
            "rule" if rnd.table is None and rnd.open_tile is not None else "any")
        replay = type(rnd)(rnd.variant, rnd.rules, list(rnd.initial_hands), list(rnd.pile),
                           rnd.table, rnd.starter, number=rnd.number, opening=opening,
                           record=True, context=rnd.context)

        variant = rnd.variant
        own_marks = variant.sheet_marks
        order = mark_order(variant)
        grid: list[list[SheetCell]] = [[] for _ in range(players)]
        turns = [0] * players          # turns begun per seat
        in_turn = [False] * players    # the seat's latest turn is still going (drew only)
        last_place = [0] * players     # row of each seat's latest placement
        opening_row = (-1, 0)          # (seat, row) of the opening
        last_turn = (-1, 0)            # (seat, row) of the latest finished turn

        def cell(seat: int, row: int) -> SheetCell:
            cells = grid[seat]
            while len(cells) < row:
                cells.append(SheetCell(seat, len(cells) + 1, order=order))
            return cells[row - 1]

        def turn_cell(seat: int) -> SheetCell:
            if not in_turn[seat]:
                turns[seat] += 1
                in_turn[seat] = True
            return cell(seat, turns[seat])

        for ev in log[1:]:
            if isinstance(ev, Drew) and ev.forced:
                # made to draw by the play just placed (Doble 15's 15): not the drawer's turn
                cell(last_turn[0], last_turn[1]).marks.append(f"{DREW}{LETTERS[ev.seat]}")
            elif isinstance(ev, Drew):
                replay.apply(DRAW, ev.seat)
                turn_cell(ev.seat).drew += 1
            elif isinstance(ev, Passed):
                replay.apply(PASS, ev.seat)
                c = turn_cell(ev.seat)
                c.passed = True
                in_turn[ev.seat] = False
                last_turn = (ev.seat, c.row)
            elif isinstance(ev, Placed):
                play = Play(ev.tile, ev.end)
                options = [m for m in replay.legal_actions() if isinstance(m, Play)]
                values = tuple(play_value(replay, m) for m in options)
                value = play_value(replay, play)
                replay.apply(play, ev.seat)
                c = turn_cell(ev.seat)
                c.tile, c.end = ev.tile, ev.end
                c.value, c.choices = value, values
                c.quality = play_quality(value, values)
                in_turn[ev.seat] = False
                last_place[ev.seat] = c.row
                last_turn = (ev.seat, c.row)
                if ev.opening:
                    opening_row = (ev.seat, c.row)
            elif isinstance(ev, PowerEffect):
                row = last_place[ev.seat]
                c = cell(ev.seat, row)
                if ev.neutralized:
                    c.marks.append("N")
                c.gain += ev.gain
                cell(ev.target, row).loss += ev.loss
            elif isinstance(ev, Bonus):
                if ev.kind == "paso-a-la-salida":
                    row = opening_row[1] if opening_row[0] == ev.seat else last_place[ev.seat]
                    mark = "PS"
                elif ev.kind == "paso-corrido":
                    row, mark = last_place[ev.seat], "PC"
                elif ev.kind == "capicua":
                    row, mark = last_place[ev.seat], ev.detail or "K"
                elif ev.kind in ("tranque", "block"):
                    row, mark = last_turn[1], ""
                elif ev.kind in own_marks:  # a bonus of the game's own (Ponce's pass points)
                    row, mark = last_place[ev.seat], own_marks[ev.kind] if ev.points else ""
                else:  # domino
                    row, mark = last_place[ev.seat], ""
                c = cell(ev.seat, row)
                c.gain += ev.points
                if mark:
                    c.marks.append(mark)
            elif isinstance(ev, RoundEnded):
                seat, row = last_turn
                if ev.reason == "tranque" and seat >= 0:
                    cell(seat, row).marks.append("T")
                if ev.reason in variant.void_ends:
                    continue
                low = min(ev.hand_totals) if ev.hand_totals else 0
                for s in range(players):
                    if ev.teams:
                        mark = TIE if ev.team is None else \
                            WIN if s in ev.teams[ev.team] else LOSE
                    elif ev.winner is not None:
                        mark = WIN if s == ev.winner else LOSE
                    else:
                        mark = TIE if ev.hand_totals[s] == low else LOSE
                    cell(s, max(row, 1)).marks.append(mark)
            else:  # one of the game's own events (Variant.sheet_marks, Round.sheet_event)
                key, seat, move = replay.sheet_event(ev)
                mark = own_marks.get(key, "")
                if move is not None:  # the seat's turn: a move of the game's own
                    replay.apply(move, seat)
                    c = turn_cell(seat)
                    in_turn[seat] = False
                    last_turn = (seat, c.row)
                elif mark:
                    c = cell(seat, last_place[seat])
                if mark:
                    c.marks.append(mark)

        if replay.log != log:
            raise ValueError("the round's event log does not replay from its deal")

        height = max((len(g) for g in grid), default=0)
        running = [0] * players
        rows: list[SheetRow] = []
        pairs = rnd.teams if len(rnd.teams) < players else ()
        losses = rnd.variant.sheet_losses
        for r in range(1, height + 1):
            cells = []
            for s in range(players):
                c = cell(s, r)
                running[s] += c.gain - c.loss
                c.total = running[s]
                cells.append(c)
            rows.append(SheetRow(r, tuple(cells), losses, pairs))
        started = log[0]
        game = variant.title if variant.sheet_named else ""
        return cls(started.number, players, started.table, rows, rnd.result, losses=losses,
                   teams=pairs, game=game)

    # --- reading ----------------------------------------------------------------------------

    @property
    def header(self) -> list[str]:
        """Every column of the text, CSV and HTML forms: ``#``, the players' columns, then the
        cumulative scores."""
        return ["#", *self.columns, *self.total_columns]

    @property
    def totals(self) -> tuple[int, ...]:
        """Each player's cumulative score on the last row (the round's gains − losses)."""
        return self.rows[-1].totals if self.rows else (0,) * self.players

    def cell(self, row: int, seat: int) -> SheetCell:
        """The cell of ``seat`` on row ``row`` (1-based)."""
        return self.rows[row - 1].cells[seat]

    def title(self, words: Mapping[str, str] = TITLE_WORDS, game: str | None = None) -> str:
        """The sheet's title, like "Round 2 · table 6/6 · domino: A wins". ``words`` (the
        keys of :data:`TITLE_WORDS`) and ``game`` (the variant's name, shown for the classic
        variants; default its English title) say it in another language."""
        out = words["round"].format(number=self.number)
        if self.game:
            out = f"{self.game if game is None else game} · {out}"
        if self.table is not None:
            out += " · " + words["table"].format(tile=self.table)
        if self.result is not None:
            how = words.get(self.result.reason, self.result.reason)
            if self.result.team is not None and self.result.teams:
                pair = "".join(self.letters[s] for s in self.result.teams[self.result.team])
                out += " · " + words["pair wins"].format(how=how, pair=pair)
            elif self.result.winner is not None:
                out += " · " + words["seat wins"].format(
                    how=how, seat=self.letters[self.result.winner])
            else:
                out += " · " + words["nobody wins"].format(how=how)
        return out

    # --- output -----------------------------------------------------------------------------

    def to_text(self) -> str:
        """An aligned plain-text table (title line, header, rule, one line per row)."""
        header = self.header
        body = [r.values() for r in self.rows]
        widths = [max([len(h), *(len(v[i]) for v in body)]) for i, h in enumerate(header)]
        stride = 3 if self.losses else 2
        left = {1 + stride * s for s in range(self.players)}

        def line(values: list[str]) -> str:
            cells = [v.ljust(w) if i in left else v.rjust(w)
                     for i, (v, w) in enumerate(zip(values, widths, strict=True))]
            return "  ".join(cells).rstrip()

        lines = [self.title(), line(header), "  ".join("-" * w for w in widths)]
        lines += [line(v) for v in body]
        return "\n".join(lines) + "\n"

    def to_csv(self) -> str:
        """CSV text: the header row, then one record per row (0 points left blank)."""
        buf = io.StringIO()
        writer = csv.writer(buf, lineterminator="\n")
        writer.writerow(self.header)
        for r in self.rows:
            writer.writerow(r.values())
        return buf.getvalue()

    def to_html(self, caption: str | None = None) -> str:
        """An HTML ``<table class="ld-sheet">``; each play is shown as a fraction. The caption
        is :meth:`title` unless given."""
        esc = html.escape
        caption = self.title() if caption is None else caption
        out = ['<table class="ld-sheet">', f"<caption>{esc(caption)}</caption>",
               "<thead><tr>"]
        for h in self.header:
            out.append(f'<th scope="col">{esc(h)}</th>')
        out.append("</tr></thead>")
        out.append("<tbody>")
        for r in self.rows:
            out.append(f'<tr><th scope="row">{r.number}</th>')
            for c in r.cells:
                out.append(f'<td class="play">{c.play_html()}</td>'
                           f'<td class="gain">{esc(c.gain_text)}</td>')
                if self.losses:
                    out.append(f'<td class="loss">{esc(c.loss_text)}</td>')
            for t in (*r.totals, *r.team_totals):
                out.append(f'<td class="total">{t}</td>')
            out.append("</tr>")
        out.append("</tbody></table>")
        return "\n".join(out) + "\n"

    def __str__(self) -> str:
        return self.to_text()

    def __repr__(self) -> str:
        return f"<ScoreSheet round {self.number}: {len(self.rows)} rows, totals {self.totals}>"


def match_sheets(match: Match) -> list[ScoreSheet]:
    """One sheet per round of ``match`` (the current round too, while it is being played)."""
    return [ScoreSheet.from_round(r) for r in match.rounds]
