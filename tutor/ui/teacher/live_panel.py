"""The teacher page's live view (:mod:`tutor.classroom.live`): who is playing which lesson, their
questions so far and how many were right at the first try (one unit: questions), when they last
answered (in minutes), whether they are playing, stuck (and why), finished or from uploaded
files, and a "Refresh" button. On a shared store the page asks for it
again every few seconds (:attr:`tutor.ui.shared.access.PageAccess.tick_seconds`); each refresh reads
the store once and redraws one HTML table, so it costs the server little
(``benchmarks/teacher_refresh.py`` measures it)."""

from __future__ import annotations

import html
from collections.abc import Callable, Mapping
from datetime import datetime
from zoneinfo import ZoneInfo

import ipywidgets as widgets

from tutor.classroom.assignments import school_zone
from tutor.classroom.live import PLAYING_WINDOW, STUCK_MINUTES, WRONG_IN_A_ROW, LiveRow, LiveView
from tutor.i18n import N_, format_number, ngettext, translator
from tutor.ui.shared.panel import classed
from tutor.ui.shared.tables import table_box

__all__ = ["LivePanel", "ago_text", "live_html", "school_time", "state_text"]

STUCK_WHY = {
    "wrong": N_("stuck: {n} wrong first answers in a row"),
}
LEFT_WHY = N_("left: no answer for {minutes} min")

FINISHED_WHY = {
    "mastered": N_("finished: every skill mastered"),
    "questions": N_("finished: the lesson's questions are done"),
    "minutes": N_("finished: the lesson's time is up"),
    "rounds": N_("finished: the lesson's rounds are done"),
    "match": N_("finished: the match is over"),
}


def _minutes(seconds: float) -> int:
    return int(seconds // 60)


def ago_text(seconds: float, lang: str) -> str:
    """How long ago, in whole minutes (the unit of "no answer for 2 min"): ``under a
    minute ago``, ``11 min ago``."""
    minutes = _minutes(seconds)
    if minutes < 1:
        return translator(lang)(N_("under a minute ago"))
    return ngettext("{n} min ago", "{n} min ago", minutes, lang).format(
        n=format_number(minutes, lang))


def state_text(row: LiveRow, lang: str) -> str:
    """What the student is doing now, in words."""
    _ = translator(lang)
    if row.state == "finished" and row.finished is not None:
        return _(FINISHED_WHY[row.finished])
    if row.state == "files":
        return _("from uploaded files")
    if row.stuck == "wrong":
        return _(STUCK_WHY["wrong"]).format(n=row.wrong_in_a_row)
    if row.state == "left":
        return _(LEFT_WHY).format(minutes=_minutes(row.idle_seconds))
    return _("playing")



def school_time(when: datetime) -> datetime:
    """``when`` on the school's clock (:func:`tutor.classroom.assignments.school_zone`), the
    clock of every time on the teacher page (issue 52: "Read at" was in UTC next to due
    times in Madrid's)."""
    return when.astimezone(ZoneInfo(school_zone()))


def live_html(view: LiveView, lang: str, titles: Mapping[str, str] | None = None) -> str:
    """The live view as a table (stuck students first, then playing, left, finished and from
    files), with a line of when it was read (the school's clock) and how many are in each
    state."""
    _ = translator(lang)
    titles = titles or {}
    when = school_time(view.now).strftime("%H:%M:%S")
    read_at = _("Read at {time}.").format(time=when)
    parts = [f"<div class='ld-live-when'>{html.escape(read_at)}"]
    window = _minutes(PLAYING_WINDOW.total_seconds())
    tally = [(ngettext("{n} playing", "{n} playing", n, lang) if state == "playing" else
              ngettext("{n} stuck", "{n} stuck", n, lang) if state == "stuck" else
              ngettext("{n} left", "{n} left", n, lang) if state == "left" else
              ngettext("{n} finished", "{n} finished", n, lang) if state == "finished" else
              ngettext("{n} from uploaded files", "{n} from uploaded files", n, lang)
              ).format(n=n)
             for state, n in ((s, view.count(s)) for s in ("playing", "stuck", "left",
                                                            "finished", "files")) if n]
    if view.away:
        tally.append(ngettext("{n} away (no answer in the last {minutes} min)",
                              "{n} away (no answer in the last {minutes} min)", view.away,
                              lang).format(n=view.away, minutes=window))
    if tally:
        parts.append(" " + html.escape(", ".join(tally) + "."))
    parts.append("</div>")
    if not view.rows:
        parts.append("<div class='ld-legend ld-empty'>"
                     + html.escape(_("Nobody is playing now.")) + "</div>")
        return "".join(parts)
    head = "".join(f"<th scope='col' class='{c}'>{html.escape(h)}</th>" for h, c in [
        (_("Student"), ""), (_("Lesson"), ""), (_("Questions"), "ld-num"),
        (_("Right at the first try"), "ld-num"), (_("Last answer"), "ld-num"),
        (_("Now"), "")])
    rows = []
    for r in view.rows:
        right = _("{right} of {asked}").format(right=r.right_first, asked=r.questions)
        stuck = f" data-stuck='{r.stuck}'" if r.stuck else ""
        rows.append(
            f"<tr class='ld-live-row' data-student='{html.escape(r.student)}' "
            f"data-state='{r.state}'{stuck}>"
            f"<th scope='row'>{html.escape(r.student)}</th>"
            f"<td>{html.escape(titles.get(r.lesson, r.lesson))}</td>"
            f"<td class='ld-num'>{r.questions}</td><td class='ld-num'>{html.escape(right)}</td>"
            f"<td class='ld-num'>{html.escape(ago_text(r.idle_seconds, lang))}</td>"
            f"<td class='ld-live-state'>{html.escape(state_text(r, lang))}</td></tr>")
    parts.append(table_box(f"<table class='ld-live-table'><thead><tr>{head}</tr></thead>"
                           f"<tbody>{''.join(rows)}</tbody></table>",
                           _("The class now, student by student")))
    return "".join(parts)


class LivePanel(widgets.VBox):
    """The live view's heading, its "Refresh" button (``on_refresh``) and its table."""

    def __init__(self, on_refresh: Callable[[], None]) -> None:
        self.heading = widgets.HTML()
        self.button = classed(widgets.Button(icon="refresh"), "ld-live-refresh")
        self.button.on_click(lambda _b: on_refresh())
        self.legend = classed(widgets.HTML(), "ld-legend")
        self.table = classed(widgets.HTML(), "ld-live-box")
        super().__init__([self.heading, self.button, self.legend, self.table])
        classed(self, "ld-live-panel")
        self.view: LiveView | None = None

    def relabel(self, lang: str, every: float) -> None:
        _ = translator(lang)
        self.heading.value = "<h3>" + html.escape(_("The class now")) + "</h3>"
        self.button.description = _("Refresh")
        legend = _("Stuck: an answer in the last {minutes} minutes and {n} wrong first "
                   "answers in a row. Left: no answer for {minutes} minutes (a closed tab), "
                   "the lesson not over. Finished: the play page ended the lesson (every "
                   "skill mastered and the first match played, or its questions, time or "
                   "rounds used up). "
                   "From uploaded files: answers handed in as files, not played here. "
                   "Times are on the school's clock: {zone}.").format(
            n=WRONG_IN_A_ROW, minutes=STUCK_MINUTES, zone=school_zone())
        if every > 0:
            legend += " " + _("This view reads the class again every {n} seconds.").format(
                n=format_number(every, lang))
        self.legend.value = html.escape(legend)

    def render(self, view: LiveView, lang: str, titles: Mapping[str, str]) -> None:
        self.view = view
        self.table.value = live_html(view, lang, titles)


def now_utc() -> datetime:
    """The page's clock (the tests give the panel their own)."""
    from datetime import timezone

    return datetime.now(timezone.utc)
