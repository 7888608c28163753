"""The teacher page's assignments (issue 45): a short form that makes one (class code, title,
lessons in order, an optional due date on the school's clock, the settings folded away) and
shows the link to send; the assignments made, each with its table of who is done, in
progress, not started, overdue or stuck (sortable, with a CSV), and its edit and close
buttons; a pasted link that opens an assignment (Binder: no server); and the class's roster,
pasted or uploaded as a CSV. What an assignment is and who has done it is
:mod:`tutor.classroom.assignments`; this panel only asks and shows. The table's HTML is
:mod:`tutor.ui.teacher.assignment_table`'s, the roster's part
:mod:`tutor.ui.teacher.roster_box`'s.

Nothing the teacher typed is lost to a mistake: a refused form, roster or link stays as it
was typed, with the sentence saying what is wrong next to it."""

from __future__ import annotations

import functools
import html
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime
from typing import TYPE_CHECKING
from urllib.parse import urlencode

import ipywidgets as widgets

from tutor.classroom.assignments import (
    LESSONS_PAGE,
    Assignment,
    AssignmentError,
    AssignmentTable,
    assignment_from_link,
    assignment_link,
    assignment_query,
    assignment_table,
    check_assignment,
    due_text,
    files_for_assignment,
    school_zone,
    with_closed,
)
from tutor.i18n import TranslatableError, translator
from tutor.storage.records import SessionMark, StoreError
from tutor.ui.shared.panel import Guard, classed
from tutor.ui.teacher.assignment_table import (
    COLUMNS,
    SORT_KEYS,
    assignment_table_html,
    counts_line,
    csv_link_html,
    sort_states,
)
from tutor.ui.teacher.book import Book
from tutor.ui.teacher.link_box import LinkBox
from tutor.ui.teacher.roster_box import (
    AUTO,
    LABEL,
    NOT_TEXT,
    SHORT,
    RosterBox,
    clicked,
    error_html,
)

if TYPE_CHECKING:
    from tutor.classroom.live import LiveView
    from tutor.course.lessons import Lesson
    from tutor.storage.progress_store import ProgressStore
    from tutor.storage.records import Attempt
    from tutor.teaching.counts import StudentCounts

__all__ = ["COLUMNS", "NOT_TEXT", "AssignmentsPanel", "assignment_table_html", "counts_line",
           "csv_link_html", "sort_states"]

_WIDE = widgets.Layout(width="520px", max_width="100%")


class AssignmentsPanel(widgets.VBox):
    """The assignments of the teacher page (see the module). ``class_code``: the page's
    (prefilled); ``clock``: now, an aware datetime; ``guard`` wraps the buttons' actions (the
    page's: an unforeseen error is said on the page)."""

    def __init__(self, store: ProgressStore | None, *, class_code: str = "",
                 clock: Callable[[], datetime], guard: Guard) -> None:
        W = widgets
        self.book = Book(store)
        self.clock = clock
        self.lang = "es"
        self.zone = school_zone()
        self.editing: Assignment | None = None
        """The assignment the form changes (None: the form makes a new one). Only *Edit*
        sets it: after *Save* the form is a new assignment's again (issue 52: a second
        assignment typed after saving one replaced it)."""
        self.saved: Assignment | None = None
        """The assignment just saved, while the form still shows it unchanged (its Save
        button says "Saved"; any change makes the form a new assignment's)."""
        self.shown: Assignment | None = None
        self.sort_key, self.descending = "student", False
        self.lessons: Mapping[str, Lesson] = {}
        self.titles: Mapping[str, str] = {}
        self._attempts: Sequence[Attempt] = ()
        self._counts: Mapping[str, StudentCounts] | None = None
        self._live: LiveView | None = None
        self._marks: Sequence[SessionMark] = ()
        self._files: list[tuple[str, list[Attempt]]] = []
        self._quiet = False
        self._said: dict[str, Callable[[str], str]] = {}
        """What each message box last said, as a function of the language (said again in a
        new language)."""

        self.heading = W.HTML()
        self.help = W.HTML()
        # -- the form
        self.class_in = classed(W.Text(value=class_code, layout=SHORT, style=LABEL),
                                "ld-assign-class")
        self.title_in = classed(W.Text(layout=_WIDE, style=LABEL), "ld-assign-title")
        self.lesson_dd = classed(W.Dropdown(options=[("", "")], value="", layout=_WIDE,
                                            style=LABEL), "ld-assign-add-lesson")
        self.lesson_dd.observe(guard(self._add_lesson), names="value")
        self.lessons_in = classed(W.Text(layout=_WIDE, style=LABEL), "ld-assign-lessons")
        self.lessons_in.observe(guard(lambda _c: self._show_chosen()), names="value")
        self.chosen = classed(W.HTML(), "ld-assign-chosen")
        self.due_date = classed(W.Text(layout=SHORT, style=LABEL), "ld-assign-due-date")
        self.due_time = classed(W.Text(layout=W.Layout(width="200px", max_width="100%"),
                                       style={"description_width": "60px"}),
                                "ld-assign-due-time")
        self.zone_note = classed(W.HTML(), "ld-assign-zone")
        self.lang_dd = classed(W.Dropdown(options=[("", "")], value="", style=LABEL,
                                          layout=SHORT), "ld-assign-lang")
        self.scaffolds_dd = classed(W.Dropdown(options=[("", "")], value="", style=LABEL,
                                               layout=SHORT), "ld-assign-scaffolds")
        self.settings = classed(W.Accordion([W.VBox([self.lang_dd, self.scaffolds_dd])],
                                            selected_index=None), "ld-assign-settings")
        self.save_btn = classed(W.Button(button_style="primary", icon="save", layout=AUTO),
                                "ld-assign-save")
        self.save_btn.on_click(guard(clicked(self.save)))
        self.new_btn = classed(W.Button(icon="plus", layout=AUTO), "ld-assign-new")
        self.new_btn.on_click(guard(lambda _b: self.new()))
        self.result = classed(W.HTML(), "ld-assign-result")
        self.links = LinkBox("ld-assign-link", LABEL)
        self.link_out = self.links.text
        self.form = classed(W.VBox([
            self.class_in, self.title_in, self.lesson_dd, self.lessons_in, self.chosen,
            classed(W.HBox([self.due_date, self.due_time]), "ld-checks"), self.zone_note,
            self.settings, classed(W.HBox([self.save_btn, self.new_btn]), "ld-checks"),
            self.result, self.links]), "ld-form", "ld-assign-form")
        for box in (self.class_in, self.title_in, self.lessons_in, self.due_date,
                    self.due_time, self.lang_dd, self.scaffolds_dd):
            box.observe(guard(self._typed), names="value")
        # -- the assignments made, and the one shown
        self.list_heading = W.HTML()
        self.pick_dd = classed(W.Dropdown(options=[("", "")], value="", layout=_WIDE,
                                          style=LABEL), "ld-assign-pick")
        self.pick_dd.observe(guard(self._picked), names="value")
        self.edit_btn = classed(W.Button(icon="pencil", layout=AUTO), "ld-assign-edit")
        self.edit_btn.on_click(guard(lambda _b: self.edit()))
        self.close_btn = classed(W.Button(icon="lock", layout=AUTO), "ld-assign-close")
        self.close_btn.on_click(guard(lambda _b: self.toggle_closed()))
        self.summary = classed(W.HTML(), "ld-assign-summary")
        self.csv_link = classed(W.HTML(), "ld-assign-csv-link")
        self.sort_label = classed(W.HTML(), "ld-sort-label")
        self.sort_buttons: dict[str, widgets.Button] = {}
        for key, _name, _cls in COLUMNS:
            button = classed(W.Button(layout=W.Layout(width="auto")), "ld-sort-button",
                             f"ld-assign-sort-{key}")
            button.on_click(guard(functools.partial(self._pressed, key)))
            self.sort_buttons[key] = button
        self.sort_bar = classed(W.HBox([self.sort_label, *self.sort_buttons.values()]),
                                "ld-sort-buttons")
        self.table = classed(W.HTML(), "ld-assign-table-box")
        self.view = classed(W.VBox([
            self.list_heading, self.pick_dd,
            classed(W.HBox([self.edit_btn, self.close_btn]), "ld-checks"), self.summary,
            self.csv_link, self.sort_bar, self.table]), "ld-assign-view")
        # -- a pasted link (Binder)
        self.paste_in = classed(W.Text(layout=_WIDE, style=LABEL), "ld-assign-paste")
        self.open_btn = classed(W.Button(icon="folder-open", layout=AUTO), "ld-assign-open")
        self.open_btn.on_click(guard(clicked(self.open_link)))
        self.paste_result = classed(W.HTML(), "ld-assign-paste-result")
        self.roster = RosterBox(self.book, store, class_code, guard, lang=lambda: self.lang,
                                saved=self._show_table)
        """The class's roster: its names box and its save (:class:`RosterBox`)."""
        super().__init__([
            self.heading, self.help, self.form, self.view,
            classed(W.HBox([self.paste_in, self.open_btn]), "ld-checks"), self.paste_result,
            *self.roster.widgets()])
        classed(self, "ld-assignments")
        self.roster.show()

    # -- words -------------------------------------------------------------------------------

    def relabel(self, lang: str) -> None:
        _ = translator(lang)
        self.lang = lang
        self.heading.value = "<h3>" + html.escape(_("Assignments")) + "</h3>"
        self.help.value = "<div class='ld-legend'>" + html.escape(_(
            "Give your class lessons to do, with a due date if you like: save the assignment "
            "and send its link. The table below says who is done, in progress, not started, "
            "overdue or stuck.")) + "</div>"
        self.class_in.description = _("Class code")
        self.class_in.placeholder = _("like 6B")
        self.title_in.description = _("Title")
        self.title_in.placeholder = _("like Week 12: times")
        self.lesson_dd.description = _("Add a lesson")
        self.lessons_in.description = _("Lessons, in order")
        self.lessons_in.placeholder = _("choose them above, or write their names")
        self.lessons_in.tooltip = _("The lessons' names, separated by commas, in the order "
                                    "the students do them")
        self.due_date.description = _("Due date (optional)")
        self.due_date.placeholder = "2026-12-11"
        self.due_time.description = _("Time")
        self.due_time.placeholder = "23:59"
        self.zone_note.value = "<div class='ld-legend'>" + html.escape(_(
            "Due dates are on the school's clock: {zone}. A date without a time is due at "
            "the end of that day.").format(zone=self.zone)) + "</div>"
        kept = (self.lang_dd.value, self.scaffolds_dd.value)
        self.lang_dd.description = _("Language")
        self.scaffolds_dd.description = _("Scaffolds")
        self._quiet = True  # new words for the same choices: not a change to the form
        try:
            self.lang_dd.options = [(_("the student's"), ""), (_("Spanish"), "es"),
                                    (_("English"), "en")]
            self.scaffolds_dd.options = [(_("each lesson's own"), ""), (_("on"), "on"),
                                         (_("off"), "off")]
            self.lang_dd.value, self.scaffolds_dd.value = kept
        finally:
            self._quiet = False
        self.settings.set_title(0, _("More settings (language, scaffolds)"))
        self.new_btn.description = _("New assignment")
        self.new_btn.tooltip = _("Empty the form to make another assignment")
        self.links.relabel(lang, _("Link to send"))
        self.list_heading.value = "<h4>" + html.escape(_("Assignments made")) + "</h4>"
        self.pick_dd.description = _("Show")
        self.edit_btn.description = _("Edit")
        self.edit_btn.tooltip = _("Change this assignment in the form above")
        self.close_btn.description = _("Close")
        for key, name, _cls in COLUMNS:
            self.sort_buttons[key].description = _(name)
        self.paste_in.description = _("Assignment link")
        self.paste_in.placeholder = _("paste an assignment's link to open it here")
        self.open_btn.description = _("Open the link")
        self.open_btn.tooltip = _("Open the assignment this link carries")
        self.roster.relabel(lang)
        self._relabel_form()
        self._show_chosen()
        for box, said in self._said.items():
            getattr(self, box).value = said(lang)

    def _relabel_form(self) -> None:
        _ = translator(self.lang)
        if self.saved is not None:
            self.save_btn.description = _("Saved")
            self.save_btn.tooltip = _("Saved: change the form to make a new assignment, or "
                                      "press Edit below to change this one")
            self.save_btn.icon = "check"
        else:
            self.save_btn.description = (_("Save the changes") if self.editing is not None
                                         else _("Save the assignment"))
            self.save_btn.tooltip = _("Check the assignment and save it")
            self.save_btn.icon = "save"
        self.save_btn.disabled = self.saved is not None

    def _typed(self, _change: Mapping[str, object]) -> None:
        """A change to the form after Save: it now makes a new assignment (the one saved
        stays as it is: changing it is *Edit*'s)."""
        if self.saved is None or self._quiet:
            return
        self.saved = None
        self.editing = None
        self.links.show(LESSONS_PAGE, None)

        def said(lang: str) -> str:
            _ = translator(lang)
            return "<div class='ld-legend'>" + html.escape(_(
                "A new assignment: saving it keeps the one saved before.")) + "</div>"

        self._say("result", said)
        self._relabel_form()

    def _say(self, box: str, said: Callable[[str], str]) -> None:
        self._said[box] = said
        getattr(self, box).value = said(self.lang)

    def _refuse(self, box: str, err: TranslatableError) -> None:
        self._say(box, lambda lang: error_html(err.message(lang)))

    # -- the page's data ---------------------------------------------------------------------

    def render(self, attempts: Sequence[Attempt], lessons: Mapping[str, Lesson],
               titles: Mapping[str, str], lang: str, *,
               counts: Mapping[str, StudentCounts] | None = None, live: LiveView | None = None,
               marks: Sequence[SessionMark] = ()) -> None:
        """Show the assignments from the page's one read of the store: ``counts`` and
        ``live`` are the class table's and the live view's, so the three agree; ``marks``:
        the store's session marks the live view read (the lessons the play page ended)."""
        self.lang = lang
        self._attempts, self._counts, self._live = attempts, counts, live
        self._marks = marks
        self.show_lessons(lessons, titles)
        self._show_list()

    def show_lessons(self, lessons: Mapping[str, Lesson], titles: Mapping[str, str]) -> None:
        """The lessons *Add a lesson* offers (those with target skills): the page's, read
        again when the lesson builder saves one, so that it is offered at once."""
        self.lessons, self.titles = lessons, titles
        _ = translator(self.lang)
        chosen = self.lesson_dd.value
        self.lesson_dd.options = [(_("choose a lesson to add it"), "")] + [
            (f"{titles.get(x, x)} ({x})", x) for x, lesson in lessons.items()
            if lesson.plan.targets]
        self.lesson_dd.value = chosen if chosen in lessons else ""
        self._show_chosen()

    def files_merged(self, merged: Sequence[tuple[str, Sequence[Attempt]]]) -> None:
        """The files the page merged (the teacher's upload: each file's shown name and rows,
        :attr:`tutor.classroom.overview.MergeResult.by_file`): the shown assignment names
        those that are not its."""
        self._files = [(name, list(rows)) for name, rows in merged]
        self._show_table()

    # -- the form ----------------------------------------------------------------------------

    def _add_lesson(self, change: Mapping[str, object]) -> None:
        lesson_id = str(change["new"] or "")
        if not lesson_id:
            return
        typed = [x.strip() for x in str(self.lessons_in.value).split(",") if x.strip()]
        if lesson_id not in typed:
            self.lessons_in.value = ", ".join([*typed, lesson_id])
        self.lesson_dd.value = ""

    def _show_chosen(self) -> None:
        _ = translator(self.lang)
        typed = [x.strip() for x in str(self.lessons_in.value).split(",") if x.strip()]
        if not typed:
            self.chosen.value = ""
            return
        items = "".join(f"<li>{html.escape(self.titles.get(x, x))}</li>" for x in typed)
        label = html.escape(_("Lessons, in order"))
        self.chosen.value = (f"<ol class='ld-legend ld-assign-order' aria-label='{label}'>"
                             f"{items}</ol>")

    def save(self) -> Assignment | None:
        """Check the form and save the assignment (new, or the one being edited); show its
        link, or the sentence that says what is wrong (the form keeps what was typed). The
        form unchanged since it was saved is saved already: nothing is saved again."""
        if self.saved is not None:
            return self.saved
        try:
            a = check_assignment(
                class_code=str(self.class_in.value), title=str(self.title_in.value),
                lessons=str(self.lessons_in.value).split(","), installed=self.lessons,
                now=self.clock(), due_date=str(self.due_date.value),
                due_time=str(self.due_time.value), tz=self.zone,
                lang=str(self.lang_dd.value), scaffolds=str(self.scaffolds_dd.value),
                previous=self.editing)
            self.book.save_assignment(a)
        except (AssignmentError, StoreError) as err:
            self._refuse("result", err)
            return None
        edited = self.editing is not None
        self.editing = None  # the next save is a new assignment's, unless Edit says otherwise
        self.saved = a
        self.shown = a
        self._relabel_form()
        link = assignment_link(a)
        self.links.show(LESSONS_PAGE, urlencode(assignment_query(a)))

        def said(lang: str) -> str:
            _ = translator(lang)
            head = (_("Saved the changes to “{title}”. Its link is the same:") if edited
                    else _("Saved “{title}” for {code}. Send your class this link:"))
            after = _("Press “New assignment” to make another; Edit, under “Assignments "
                      "made”, changes this one.")
            due = due_text(a, lang)
            when = (" " + _("Due {due}.").format(due=due)) if due else ""
            head = head.format(title=a.title, code=a.class_code)
            open_it = _("Open it")
            return (f"<div class='ld-ok'>{html.escape(head)}</div>"
                    f"<div class='ld-legend'><a class='ld-assign-link-a' target='_blank' "
                    f"href='{html.escape(link)}'>{html.escape(open_it)}</a>"
                    f"{html.escape(when)}</div>"
                    f"<div class='ld-legend'>{html.escape(after)}</div>")

        self._say("result", said)
        self._show_list()
        return a

    def new(self) -> None:
        """An empty form for another assignment (the class code stays)."""
        self._quiet = True
        try:
            for field in (self.title_in, self.lessons_in, self.due_date, self.due_time):
                field.value = ""
            self.lang_dd.value = self.scaffolds_dd.value = ""
        finally:
            self._quiet = False
        self.editing = self.saved = None
        self.links.show(LESSONS_PAGE, None)
        self._say("result", lambda _lang: "")
        self._relabel_form()

    def edit(self) -> None:
        """The shown assignment in the form, to change it (its id and link stay)."""
        a = self.shown
        if a is None:
            return
        self._quiet = True
        try:
            self.class_in.value = a.class_code
            self.title_in.value = a.title
            self.lessons_in.value = ", ".join(a.lessons)
            day, _t, clock = a.due.partition("T")
            self.due_date.value, self.due_time.value = day, clock
            self.lang_dd.value = a.lang
            self.scaffolds_dd.value = a.scaffolds
        finally:
            self._quiet = False
        self.editing, self.saved = a, None
        self.links.show(LESSONS_PAGE, urlencode(assignment_query(a)))

        def said(lang: str) -> str:
            _ = translator(lang)
            return "<div class='ld-legend'>" + html.escape(_(
                "Editing “{title}”: change it and save the changes.").format(
                    title=a.title)) + "</div>"

        self._say("result", said)
        self._relabel_form()

    def toggle_closed(self) -> None:
        """Close the shown assignment (students no longer see it), or open it again."""
        a = self.shown
        if a is None:
            return
        changed = with_closed(a, not a.closed)
        try:
            self.book.save_assignment(changed)
        except StoreError as err:
            self._refuse("summary", err)
            return
        self.shown = changed
        if self.editing is not None and self.editing.id == a.id:
            self.editing = changed
        if self.saved is not None and self.saved.id == a.id:
            self.saved = changed
        self._show_list()

    # -- the list and the table --------------------------------------------------------------

    def _known(self) -> list[Assignment]:
        try:
            return self.book.assignments()
        except StoreError as err:
            self._refuse("summary", err)
            return []

    def _show_list(self) -> None:
        _ = translator(self.lang)
        made = self._known()
        if self.shown is not None and all(a.id != self.shown.id for a in made):
            made.append(self.shown)  # opened from a link on a page that cannot save it
        if self.shown is None and made:
            code = " ".join(str(self.class_in.value).split())
            mine = [a for a in made if a.class_code == code] or made
            self.shown = mine[-1]
        if self.shown is not None:
            self.shown = next(a for a in made if a.id == self.shown.id)
        closed = _("closed")
        self._quiet = True
        try:
            self.pick_dd.options = [(_("no assignment yet"), "")] if not made else [
                (f"{a.title} · {a.class_code}" + (f" · {closed}" if a.closed else ""),
                 a.id) for a in reversed(made)]
            self.pick_dd.value = self.shown.id if self.shown is not None else ""
        finally:
            self._quiet = False
        self.view.layout.display = "" if made else "none"
        self._show_table()

    def _picked(self, change: Mapping[str, object]) -> None:
        wanted = str(change["new"] or "")
        if self._quiet or not wanted or (self.shown is not None and self.shown.id == wanted):
            return
        self.shown = next((a for a in self._known() if a.id == wanted), self.shown)
        self._show_table()

    def _pressed(self, key: str, _button: object) -> None:
        self.sort(key)

    def sort(self, key: str) -> None:
        """Sort the table by the column ``key``; the column already sorted by: the other
        way."""
        if key not in SORT_KEYS:
            raise KeyError(key)
        self.descending = not self.descending if key == self.sort_key else False
        self.sort_key = key
        self._show_table()

    def table_now(self, roster: Sequence[str] | None = None) -> AssignmentTable | None:
        """The shown assignment's table, from the page's last read (``roster``: its class's,
        read here if not given). An uploaded file that is not the assignment's
        (:func:`files_for_assignment`) has no row in it: its student is neither on the roster
        nor played from the assignment's link."""
        a = self.shown
        if a is None:
            return None
        if roster is None:
            roster = self.book.roster(a.class_code)
        return assignment_table(a, roster, self._attempts, self.lessons, self.clock(),
                                counts=self._counts, live=self._live, marks=self._marks)

    def _show_table(self) -> None:
        _ = translator(self.lang)
        try:
            roster = self.book.roster(self.shown.class_code) if self.shown else []
            table = self.table_now(roster)
        except StoreError as err:
            self._refuse("summary", err)
            return
        if table is None:
            self.summary.value = self.csv_link.value = self.table.value = ""
            return
        a = table.assignment
        self.close_btn.description = _("Reopen") if a.closed else _("Close")
        self.close_btn.tooltip = (_("Open this assignment again: students see it again")
                                  if a.closed else
                                  _("Close this assignment: students no longer see it"))
        due = due_text(a, self.lang)
        lines = [_("For {code}; lessons: {lessons}.").format(
            code=a.class_code, lessons=", ".join(self.titles.get(x, x) for x in a.lessons))]
        lines.append(_("Due {due}.").format(due=due) if due else _("No due date."))
        if a.closed:
            lines.append(_("Closed: students no longer see it."))
        its_link = _("Its link:")
        out = [f"<div class='ld-legend'>{html.escape(' '.join(lines))}</div>",
               f"<div class='ld-assign-counts'>{html.escape(counts_line(table, self.lang))}"
               "</div>",
               f"<div class='ld-legend'>{html.escape(its_link)} "
               f"<code class='ld-assign-shown-link'>"
               f"{html.escape(self.links.url_for(LESSONS_PAGE, urlencode(assignment_query(a))))}"
               "</code>"
               "</div>"]
        if table.missing:
            out.append("<div class='ld-warn ld-assign-missing'>" + html.escape(_(
                "These lessons of the assignment are no longer here and are left out of its "
                "table: {lessons}.").format(lessons=", ".join(table.missing))) + "</div>")
        if not roster:
            out.append("<div class='ld-legend'>" + html.escape(_(
                "{code} has no roster: the table shows only the students who opened the "
                "assignment's link. Save the roster below to see who has not started.").format(
                    code=a.class_code)) + "</div>")
        if self._files:
            _belong, others = files_for_assignment(self._files, a, roster)
            if others:
                out.append("<div class='ld-warn ld-assign-others'>" + html.escape(_(
                    "Uploaded files that are not of this assignment (left out of its "
                    "table):")) + "<ul>" + "".join(
                        f"<li>{html.escape(why.translate(self.lang))}</li>"
                        for _name, why in others) + "</ul></div>")
        self._said.pop("summary", None)
        self.summary.value = "".join(out)
        self.csv_link.value = csv_link_html(table, self.lang)
        label = html.escape(_("Sort the table by:"))
        self.sort_label.value = f"<span class='ld-sort-label'>{label}</span>"
        for key, name, _cls in COLUMNS:
            button = self.sort_buttons[key]
            here = key == self.sort_key
            button.description = _(name) + ((" ▼" if self.descending else " ▲") if here
                                            else "")
            button.tooltip = _("Sort the assignment's table by {column}").format(
                column=_(name))
            if here:
                button.add_class("ld-sorted")
            else:
                button.remove_class("ld-sorted")
        self.table.value = assignment_table_html(table, self.lang, self.titles,
                                                 self.sort_key, self.descending)

    # -- a pasted link -----------------------------------------------------------------------

    def open_link(self) -> Assignment | None:
        """Open the assignment a pasted link carries: show it (and its table), and save it
        to the page's store if it is not there; the notes say what the link left out."""
        found, notes = assignment_from_link(str(self.paste_in.value), self.lessons)
        if found is None or not found.lessons:
            self._say("paste_result", lambda lang: "".join(
                error_html(n.translate(lang)) for n in notes))
            return None
        try:
            if all(a.id != found.id for a in self._known()):
                self.book.save_assignment(found)
        except StoreError as err:
            self._refuse("paste_result", err)
            return None
        self.shown = found

        def said(lang: str) -> str:
            _ = translator(lang)
            head = _("Opened “{title}” ({code}).").format(
                title=found.title, code=found.class_code or "–")
            return (f"<div class='ld-ok'>{html.escape(head)}</div>" + "".join(
                f"<div class='ld-warn'>{html.escape(n.translate(lang))}</div>" for n in notes))

        self._say("paste_result", said)
        self._show_list()
        return found
