"""The score sheet panel (the Leonard system's sheet of the round, to read or download) and
the student's progress, to download and hand in."""

from __future__ import annotations

import base64
import csv
import html
import io
import re
from collections.abc import Callable

import ipywidgets as widgets

from tutor.classroom.link import unnamed
from tutor.games import GAMES, SHEET_END_WORDS, game
from tutor.i18n import N_, ngettext, translator
from tutor.session.snapshot import (
    ProgressFile,
    ScoreSheetView,
    Snapshot,
    export_progress,
)
from tutor.storage.progress_store import ProgressStore
from tutor.ui.play.scores import student_label
from tutor.ui.shared.access import Attributes
from tutor.ui.shared.panel import accordion_attributes, classed

__all__ = ["SHEET_MARKS", "SHEET_WORDS", "SheetPanel", "accuracy_csv", "accuracy_rows",
           "accuracy_table_html", "file_stem", "progress_file_html", "progress_html",
           "readable_sheet_html",
           "sheet_caption", "sheet_legend_html", "sheet_links_html"]

SHEET_WORDS: dict[str, str] = {
    "round": N_("Round {number}"),
    "table": N_("table tile {tile}"),
    "pair wins": N_("{how}: {pair} win"),
    "seat wins": N_("{how}: {seat} wins"),
    "nobody wins": N_("{how}: nobody wins"),
    "domino": N_("domino"),
    "tranque": N_("tranque"),
}
"""The words of a score sheet's title (engine.sheet.TITLE_WORDS's keys), to translate; a
game's own end reasons are said by its entry in tutor/games.py (``SHEET_END_WORDS``)."""

SHEET_MARKS: tuple[tuple[str, str], ...] = (
    ("↓2", N_("drew 2 tiles before playing")),
    ("—", N_("passed without drawing")),
    ("!!", N_("the best play on offer (most points)")),
    ("!", N_("a good play")),
    ("X", N_("a weak play")),
    ("XX", N_("the weakest play on offer")),
    ("N", N_("a power tile that opened the line: it scores nothing")),
    ("PS", N_("pass at the start: the others passed after the opening (+20)")),
    ("PC", N_("everyone else passed after this play (+20)")),
    ("K", N_("capicúa: the last tile fits both ends")),
    ("KP", N_("power capicúa")),
    ("T", N_("tranque: nobody can play")),
    *(mark for g in GAMES.values() for mark in g.marks),  # each game's own (Ponce's P …)
    ("$", N_("won the round")),
    ("=", N_("shares the lowest hand after a tranque")),
    ("∅", N_("lost the round")),
)
"""The score sheet's abbreviations (engine.sheet's module docstring), said in words in the
sheet's legend; a child could not read "+a −a Σa !! XX"."""
_COLUMN = re.compile(r"^(?:([+-])([a-z])|Σ([a-z]+)|([A-Z]))$")


def _b64(text: str) -> str:
    return base64.b64encode(text.encode("utf-8")).decode("ascii")


def sheet_caption(sheet: ScoreSheetView, variant: str, lang: str) -> str:
    """The sheet's title ("Ronda 2 · dominó: gana A") in the page's language."""
    _ = translator(lang)
    words = {**SHEET_WORDS, **SHEET_END_WORDS}
    return str(sheet.title({key: _(text) for key, text in words.items()},
                           game=_(game(variant).label)))


def accuracy_rows(view: Snapshot, lang: str) -> list[list[str]]:
    """The match points and this lesson's arithmetic of each human seat, under a header
    row: player, student, match points, right at the first try, asked (docs/rules.md §4)."""
    _ = translator(lang)
    rows = [[_("Player"), _("Student"), _("Match points"),
             _("Right at the first try (this lesson)"), _("Questions asked (this lesson)")]]
    for seat in sorted(view.humans):
        rows.append([view.names[seat], student_label(view, seat, lang),
                     str(view.scores_shown[seat]), str(view.first_try_right[seat]),
                     str(view.asked[seat])])
    return rows


def accuracy_table_html(view: Snapshot, lang: str) -> str:
    """:func:`accuracy_rows` as a table under the score sheet."""
    _ = translator(lang)
    head, *body = accuracy_rows(view, lang)
    ths = "".join(f'<th scope="col">{html.escape(h)}</th>' for h in head)
    trs = "".join("<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in row) + "</tr>"
                  for row in body)
    caption = html.escape(_("Points and arithmetic"))
    return (f'<table class="ld-sheet ld-accuracy-sheet"><caption>{caption}</caption>'
            f"<thead><tr>{ths}</tr></thead><tbody>{trs}</tbody></table>\n")


def accuracy_csv(view: Snapshot, lang: str) -> str:
    """:func:`accuracy_rows` as CSV, to follow the sheet's rows after a blank line."""
    buf = io.StringIO()
    csv.writer(buf, lineterminator="\n").writerows(accuracy_rows(view, lang))
    return buf.getvalue()


def column_name(column: str, lang: str) -> str:
    """A score sheet column's name in words, with the sheet's own abbreviation after it
    ("A: points won (+a)"); ``#`` is the turn."""
    _ = translator(lang)
    found = _COLUMN.match(column)
    if column == "#":
        return _("Turn")
    if found is None:
        return column
    sign, seat, total, player = found.groups()
    if player:
        return _("{player}: play").format(player=player)
    if sign:
        words = _("{player}: points won") if sign == "+" else _("{player}: points lost")
        return f"{words.format(player=seat.upper())} ({column.replace('-', '−')})"
    if len(total) == 1:
        words = _("{player}: score").format(player=total.upper())
    else:
        words = _("pair {pair}: score").format(pair=total.upper())
    return f"{words} ({column})"


def sheet_legend_html(lang: str) -> str:
    """What the sheet's marks mean, one a line (the column names say theirs)."""
    _ = translator(lang)
    items = "".join(f"<div><dt><code>{html.escape(mark)}</code></dt>"
                    f"<dd>{html.escape(_(words))}</dd></div>" for mark, words in SHEET_MARKS)
    summary = html.escape(_("What the marks mean"))
    return (f"<details class='ld-sheet-legend'><summary>{summary}</summary><dl>{items}</dl>"
            "</details>")


def readable_sheet_html(sheet: ScoreSheetView, caption: str, lang: str) -> str:
    """The sheet's HTML table with its columns named in words (the seed's abbreviations in
    brackets) and the legend of its marks under it."""
    table = sheet.to_html(caption)
    head = "".join(f'<th scope="col">{html.escape(column_name(h, lang))}</th>'
                   for h in sheet.header)
    table = re.sub(r"<thead><tr>.*?</tr></thead>", lambda _m: f"<thead><tr>{head}</tr></thead>",
                   table, count=1, flags=re.S)
    return table + sheet_legend_html(lang)


def file_stem(stem: str, student: str, class_code: str = "") -> str:
    """A downloaded file's name (without its extension): ``stem``, then the student's name
    and class code, so every file a student hands in says whose it is."""
    parts = [stem] + ([] if unnamed(student) else [student]) + ([class_code] if class_code
                                                               else [])
    name = "-".join(parts)
    return re.sub(r'[\\/:*?"<>|\s]+', "_", name)


def sheet_links_html(table: str, csv: str, round_number: int, lang: str,
                     student: str = "anon", class_code: str = "") -> str:
    """Download links for the score sheet (``table`` its HTML, ``csv`` its CSV text); their
    file names and the page's title carry the student's name."""
    _ = translator(lang)
    title = "Leonard" if unnamed(student) else f"Leonard · {student}"
    page = (f"<!DOCTYPE html><meta charset='utf-8'><title>{html.escape(title)}</title>"
            + table)
    name = html.escape(file_stem(f"leonard-round-{round_number}", student, class_code))
    csv_word, html_word = _("Download CSV"), _("Download HTML")
    return (
        f"<a class='ld-download' download='{name}.csv' "
        f"href='data:text/csv;charset=utf-8;base64,{_b64(csv)}'>⬇ "
        f"{html.escape(csv_word)}</a>"
        f"<a class='ld-download' download='{name}.html' "
        f"href='data:text/html;charset=utf-8;base64,{_b64(page)}'>⬇ "
        f"{html.escape(html_word)}</a>")


def progress_html(store: ProgressStore | None, student: str, lang: str,
                  class_code: str = "") -> str:
    """:func:`progress_file_html` of ``student``'s attempts in ``store`` (the lessons page's
    download; the play page's comes from its session)."""
    return progress_file_html(export_progress(store, student), student, lang, class_code)


def progress_file_html(saved: ProgressFile | None, student: str, lang: str,
                       class_code: str = "") -> str:
    """The student's attempts (``saved``) as a CSV to download: on Binder the progress file
    goes away with the server, so this is how the work reaches the teacher (``python -m
    tutor import FILE``). ``saved`` None: nothing is being saved."""
    _ = translator(lang)
    if saved is None:
        return html.escape(_("Progress is not being saved in this game."))
    if saved.away:
        return html.escape(_(N_("Your progress file can be downloaded when the class's store "
                                "is back.")))
    count = saved.count
    data = base64.b64encode(saved.data).decode("ascii")
    name = file_stem("leonard-progress", student, class_code) + ".csv"
    if unnamed(student):
        said = ngettext("{count} answer saved.", "{count} answers saved.", count, lang)
    else:
        said = ngettext("{count} answer saved for {student}.",
                        "{count} answers saved for {student}.", count, lang)
    said = said.format(count=count, student=student)
    word = _("Download my progress (CSV)")
    give = _("Give this file to your teacher.")
    return (
        f"<div>{html.escape(said)}</div>"
        f"<a class='ld-download ld-progress-download' download='{html.escape(name)}' "
        f"href='data:text/csv;charset=utf-8;base64,{data}'>⬇ {html.escape(word)}</a>"
        f"<div class='ld-legend'>{html.escape(give)}</div>")


class SheetPanel(widgets.Accordion):
    """Two closed sections. The page's controller asks the session for the sheet (a replay
    of the round) or the progress file only while their section is open, and hands them to
    :meth:`render`; the sheet waits while a question hides points. ``on_open()``: a section
    was opened or closed (the controller renders the panel again)."""

    def __init__(self, *, on_open: Callable[[], None] = lambda: None) -> None:
        W = widgets
        self.sheet_html = classed(W.HTML(), "ld-sheet-table")
        self.sheet_links = classed(W.HTML(), "ld-downloads")
        self.progress_html = classed(W.HTML(), "ld-progress")
        super().__init__(children=[W.VBox([self.sheet_links, self.sheet_html]),
                                   self.progress_html])
        self.add_class("ld-sheet")
        self.selected_index = None
        self.observe(lambda _c: on_open(), "selected_index")

    def attributes(self, lang: str) -> Attributes:
        return accordion_attributes(".ld-sheet", 2, self.selected_index)

    def relabel(self, lang: str) -> None:
        _ = translator(lang)
        self.set_title(0, _("Score sheet (Leonard system)"))
        self.set_title(1, _("My progress (download it to hand it in)"))

    def render(self, view: Snapshot, *, sheet: ScoreSheetView | None = None,
               progress: ProgressFile | None = None,
               class_code: str = "") -> None:
        """The open section from ``view`` and what the controller asked the session for:
        ``sheet`` the round's score sheet (None: the engine has none), ``progress`` the
        student's progress file (None: nothing is being saved); ``class_code``: the
        student's class code, for the files' names."""
        if self.selected_index == 1:
            self.progress_html.value = progress_file_html(progress, view.student, view.lang,
                                                          class_code)
            return
        if self.selected_index != 0 or view.hiding:
            return  # closed, or it would show the points the question asks for
        if sheet is None:
            self.sheet_html.value = ""
            return
        table = (readable_sheet_html(sheet, sheet_caption(sheet, view.variant, view.lang),
                                     view.lang)
                 + accuracy_table_html(view, view.lang))
        data = sheet.to_csv() + "\n" + accuracy_csv(view, view.lang)
        self.sheet_links.value = sheet_links_html(table, data, view.round, view.lang,
                                                  view.student, class_code)
        self.sheet_html.value = table
