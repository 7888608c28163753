"""The table of who has done an assignment, as the teacher page shows it: one row per
student (done, in progress, not started, overdue, stuck), sortable by any of its
:data:`COLUMNS`, with its counts line and a link that downloads it as CSV. The rows
themselves are :func:`tutor.classroom.assignments.assignment_table`'s; the panel around it is
:mod:`tutor.ui.teacher.assignments_panel`.
"""

from __future__ import annotations

import base64
import html
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime
from zoneinfo import ZoneInfo

from tutor.classroom.assignments import (
    HOW_WORDS,
    STATE_WORDS,
    STATES,
    AssignmentTable,
    StudentState,
    assignment_csv,
)
from tutor.classroom.link import ANONYMOUS
from tutor.i18n import N_, gettext, translator
from tutor.ui.play.sheet import file_stem
from tutor.ui.shared.tables import table_box

__all__ = ["COLUMNS", "SORT_KEYS", "assignment_table_html", "counts_line", "csv_link_html",
           "sort_states"]

COLUMNS: tuple[tuple[str, str, str], ...] = (
    ("student", N_("Student"), ""),
    ("on_roster", N_("On the roster"), ""),
    ("state", N_("State"), ""),
    ("lessons", N_("Lessons done"), "ld-num"),
    ("targets", N_("Targets mastered"), "ld-num"),
    ("how", N_("How it ended"), ""),
    ("finished", N_("Finished"), ""),
    ("stuck", N_("Stuck now"), ""),
)
"""The assignment table's columns: (sort key, header, CSS class), in order."""

SORT_KEYS: dict[str, Callable[[StudentState], tuple[int | str, ...]]] = {
    "student": lambda r: (r.student.casefold(), r.student),
    "on_roster": lambda r: (int(not r.on_roster),),
    "state": lambda r: (STATES.index(r.state),),
    "lessons": lambda r: (r.done_lessons,),
    "targets": lambda r: (r.targets_mastered,),
    "how": lambda r: (r.how,),
    "finished": lambda r: (int(r.finished is None),
                           r.finished.isoformat() if r.finished else ""),
    "stuck": lambda r: (int(not r.stuck),),
}
"""How each column sorts the rows."""


def sort_states(rows: Sequence[StudentState], key: str = "student",
                descending: bool = False) -> list[StudentState]:
    """``rows`` sorted by the column ``key`` (:data:`COLUMNS`); ties keep the table's order
    (the roster's, then the others by name)."""
    if key not in SORT_KEYS:
        raise KeyError(key)
    return sorted(rows, key=SORT_KEYS[key], reverse=descending)


def _when(moment: datetime | None, tz: str, lang: str) -> str:
    """``moment`` on the school's clock, in ``lang`` ("vie, 11 dic 2026 15:02"), or "–"."""
    from babel.dates import format_skeleton

    if moment is None:
        return "–"
    local = moment.astimezone(ZoneInfo(tz)) if tz != "UTC" else moment
    return (f"{format_skeleton('yMMMEd', local, locale=lang)} "
            f"{format_skeleton('Hm', local, locale=lang)}")


def counts_line(table: AssignmentTable, lang: str) -> str:
    """How many students are done, in progress, not started, overdue and stuck now."""
    _ = translator(lang)
    return _("Done: {done} · In progress: {progress} · Not started: {not_started} · "
             "Overdue: {overdue} · Stuck now: {stuck}").format(
        done=table.count("done"), progress=table.count("in progress"),
        not_started=table.count("not started"), overdue=table.count("overdue"),
        stuck=len(table.stuck))


def assignment_table_html(table: AssignmentTable, lang: str, titles: Mapping[str, str],
                          sort: str = "student", descending: bool = False) -> str:
    """The assignment's table (one row per student, sorted by ``sort``), with its caption;
    or a sentence when no one is on it yet."""
    _ = translator(lang)
    a = table.assignment
    if not table.rows:
        return ("<div class='ld-legend ld-empty'>" + html.escape(_(
            "No students yet: save the class's roster below, or wait for students to open "
            "the assignment's link.")) + "</div>")
    caption = _("Who has done “{title}”, sorted by {column} ({order})").format(
        title=a.title, column=_(dict((k, n) for k, n, _c in COLUMNS)[sort]),
        order=_("descending") if descending else _("ascending"))
    heads = []
    for key, name, cls in COLUMNS:
        sorted_here = key == sort
        aria = (f" aria-sort='{'descending' if descending else 'ascending'}'"
                if sorted_here else "")
        heads.append(f"<th scope='col' class='{cls}{' ld-sorted' if sorted_here else ''}'"
                     f"{aria} data-sort='{key}'>{html.escape(gettext(name, lang))}</th>")
    out = [f"<table class='ld-assign-table' data-assignment='{html.escape(a.id)}'><caption>"
           + html.escape(caption) + "</caption><thead><tr>" + "".join(heads)
           + "</tr></thead><tbody>"]
    yes, no, stuck = _("yes"), _("no"), _("stuck")
    for r in sort_states(table.rows, sort, descending):
        how = gettext(HOW_WORDS[r.how], lang) if r.how else "–"
        lessons = ", ".join(
            f"{titles.get(s.lesson, s.lesson)}: "
            + (_(HOW_WORDS["mastered" if s.over == "mastered" else "cap"]) if s.over
               else _("in progress") if s.started else _("not started"))
            for s in r.lessons)
        out.append(
            f"<tr data-student='{html.escape(r.student)}' data-state='{r.state}'>"
            f"<th scope='row'>{html.escape(r.student)}</th>"
            f"<td>{html.escape(yes if r.on_roster else no)}</td>"
            f"<td class='ld-state ld-state-{r.state.replace(' ', '-')}'>"
            f"{html.escape(gettext(STATE_WORDS[r.state], lang))}</td>"
            f"<td class='ld-num' title='{html.escape(lessons)}'>{r.done_lessons} / "
            f"{len(r.lessons)}</td>"
            f"<td class='ld-num'>{r.targets_mastered} / {r.targets}</td>"
            f"<td>{html.escape(how)}</td>"
            f"<td class='ld-when'>{html.escape(_when(r.finished, a.tz, lang))}</td>"
            f"<td>{html.escape(stuck if r.stuck else '–')}</td></tr>")
    out.append("</tbody></table>")
    return table_box("".join(out), caption)


def csv_link_html(table: AssignmentTable, lang: str) -> str:
    """A link that downloads the table as CSV, named after the class and the assignment
    (``assignment-6B-<id>.csv``)."""
    _ = translator(lang)
    if not table.rows:
        return ""
    data = base64.b64encode(assignment_csv(table, lang).encode("utf-8")).decode("ascii")
    a = table.assignment
    name = html.escape(file_stem(f"assignment-{a.id}", ANONYMOUS, a.class_code) + ".csv")
    word = _("Download this table (CSV)")
    return (f"<a class='ld-download ld-assign-csv' download='{name}' "
            f"href='data:text/csv;charset=utf-8;base64,{data}'>⬇ {html.escape(word)}</a>")
