"""The class's roster on the teacher page's assignments panel: the names box for the class
code typed (one name per line, pasted or uploaded as a CSV, or taken from a JupyterHub group
through the store service) and its save, which says how many names were saved and which
only look alike. What a roster may hold is :mod:`tutor.classroom.assignments`'
(:func:`~tutor.classroom.assignments.check_roster`).
"""

from __future__ import annotations

import html
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

import ipywidgets as widgets

from tutor.classroom.assignments import RosterError, check_roster, read_roster
from tutor.classroom.overview import shown_name
from tutor.i18n import N_, TranslatableError, gettext, translator
from tutor.storage.records import StoreError
from tutor.ui.shared.panel import Guard, Widget, classed
from tutor.ui.shared.uploads import ProgressUpload
from tutor.ui.teacher.book import Book

if TYPE_CHECKING:
    from tutor.storage.progress_store import ProgressStore

__all__ = ["AUTO", "LABEL", "NOT_TEXT", "SHORT", "RosterBox", "clicked", "error_html"]

NOT_TEXT = N_("{file} is not a text file (CSV in UTF-8): save it from the spreadsheet as "
              "CSV UTF-8 and upload it again.")
LABEL = {"description_width": "150px"}
"""The style of the assignments panel's labelled widgets (its form's and the roster's)."""
SHORT = widgets.Layout(width="290px", max_width="100%")
"""The layout of the panel's short boxes (a class code, a group)."""
AUTO = widgets.Layout(width="auto")
"""The layout of the panel's buttons."""


def error_html(text: str) -> str:
    """A refusal said next to what was typed."""
    return f"<div class='ld-msg' role='alert'>{html.escape(text)}</div>"


def clicked(action: Callable[[], object]) -> Callable[[object], None]:
    """A button's callback that does ``action`` (what it returns is for tests)."""
    def run(_button: object) -> None:
        action()
    return run


class RosterBox:
    """The roster's part of :class:`~tutor.ui.teacher.assignments_panel.AssignmentsPanel`:
    its widgets (:meth:`widgets`, labelled by :meth:`relabel`) and what they do. The panel
    gives it what it needs: where rosters are kept (``book``), the language it speaks now
    (``lang``), and what to do after a save (``saved``: show its table again)."""

    def __init__(self, book: Book, store: ProgressStore | None, class_code: str, guard: Guard,
                 *, lang: Callable[[], str], saved: Callable[[], None]) -> None:
        self.book = book
        self._lang = lang
        self._saved = saved
        self._loaded = ""
        """The roster last shown or saved in the names box."""
        self._said: Callable[[str], str] | None = None
        """What the result box last said, as a function of the language (said again in a
        new language)."""
        W = widgets
        self.roster_heading = W.HTML()
        self.roster_class = classed(W.Text(value=class_code, layout=SHORT, style=LABEL),
                                    "ld-roster-class")
        self.roster_class.observe(guard(lambda _c: self.show()), names="value")
        self.roster_in = classed(W.Textarea(layout=W.Layout(width="520px", max_width="100%",
                                                            height="120px"), style=LABEL),
                                 "ld-roster-names")
        self.roster_btn = classed(W.Button(icon="save", layout=AUTO), "ld-roster-save")
        self.roster_btn.on_click(guard(clicked(self.save_roster)))
        self.roster_upload = classed(ProgressUpload(multiple=False), "ld-roster-upload")
        self.roster_upload.on_files(guard(self._roster_file))
        self.roster_result = classed(W.HTML(), "ld-roster-result")
        # On a hub, a roster from one of its groups (the store service asks the hub).
        self.group_in = classed(W.Text(layout=SHORT, style=LABEL), "ld-roster-group")
        self.group_btn = classed(W.Button(icon="users", layout=AUTO), "ld-roster-group-take")
        self.group_btn.on_click(guard(clicked(self.roster_from_group)))
        self.group_box = classed(W.HBox([self.group_in, self.group_btn]), "ld-checks")
        if not getattr(store, "hub_groups", False):
            self.group_box.layout.display = "none"

    def widgets(self) -> list[Widget]:
        """The roster's widgets, in the panel's order."""
        return [self.roster_heading, self.roster_class, self.roster_in,
                classed(widgets.HBox([self.roster_btn, self.roster_upload]), "ld-upload-box"),
                self.group_box, self.roster_result]

    def _say(self, said: Callable[[str], str]) -> None:
        self._said = said
        self.roster_result.value = said(self._lang())

    def _refuse(self, err: TranslatableError) -> None:
        self._say(lambda lang: error_html(err.message(lang)))

    def relabel(self, lang: str) -> None:
        _ = translator(lang)
        self.roster_heading.value = ("<h4>" + html.escape(_("The class's roster")) + "</h4>"
                                     + "<div class='ld-legend'>" + html.escape(_(
                                         "One student's name per line, or upload a CSV file "
                                         "with the names in its first column. With a roster, "
                                         "the table shows who has not started.")) + "</div>")
        self.roster_class.description = _("Class code")
        self.roster_in.description = _("Names")
        self.roster_btn.description = _("Save the roster")
        self.roster_btn.tooltip = _("Check the names and save them as the class's roster")
        self.roster_upload.description = _("Upload a roster (CSV)")
        self.roster_upload.tooltip = _("Upload a CSV file with one student's name per line")
        self.group_in.description = _("Hub group")
        self.group_in.placeholder = _("the group's name on the hub")
        self.group_btn.description = _("Take the group's members")
        self.group_btn.tooltip = _("Save the members of this JupyterHub group as the roster "
                                   "of the class code above (empty: the group's name)")
        if self._said is not None:
            self.roster_result.value = self._said(lang)

    def show(self) -> None:
        """The roster of the class code typed, into the names box, unless the box holds
        names the teacher typed and has not saved (they stay)."""
        code = " ".join(str(self.roster_class.value).split())
        try:
            names = "\n".join(self.book.roster(code))
        except StoreError as err:
            self._refuse(err)
            return
        if str(self.roster_in.value).strip() in ("", self._loaded):
            self.roster_in.value = names
            self._loaded = names

    def _roster_file(self, files: Sequence[tuple[str, bytes]]) -> None:
        name, content = files[0]
        try:
            text = content.decode("utf-8-sig")
        except UnicodeDecodeError:
            self._say(lambda lang: error_html(gettext(
                NOT_TEXT, lang).format(file=shown_name(name))))
            return
        self.roster_in.value = text
        self.save_roster()

    def roster_from_group(self) -> list[str] | None:
        """The members of the hub's group (typed in the group box) saved as the roster of
        the class code typed (empty: the group's name), and shown in the names box."""
        group = " ".join(str(self.group_in.value).split())
        code = " ".join(str(self.roster_class.value).split())
        try:
            if not group:
                raise RosterError(N_("Type the name of the hub's group first."))
            if self.book.store is None:
                raise RosterError(N_("Progress cannot be saved here, so a roster cannot be "
                                     "taken from a group."))
            names = self.book.store.roster_from_group(group, code or None)
        except (RosterError, StoreError) as err:
            self._refuse(err)
            return None
        code = code or group
        self._loaded = "\n".join(names)
        self.roster_class.value = code  # shows the saved roster in the names box
        self.roster_in.value = self._loaded

        def said(lang: str) -> str:
            _ = translator(lang)
            return "<div class='ld-ok'>" + html.escape(_(
                "Saved the roster of {code} from the hub group {group}: {count} "
                "students.").format(code=code, group=group, count=len(names))) + "</div>"

        self._say(said)
        self._saved()
        return names

    def save_roster(self) -> list[str] | None:
        """Check the names and save them as the class's roster; say how many, and which
        names only look alike (never merged), or why nothing was saved."""
        code = " ".join(str(self.roster_class.value).split())
        try:
            if not code:
                raise RosterError(N_("A roster needs a class code: the one the students "
                                     "type with their name, like 6B."))
            check = read_roster(str(self.roster_in.value))
            names = check_roster(check)
            self.book.save_roster(code, names)
        except (RosterError, StoreError) as err:
            self._refuse(err)
            return None
        self._loaded = str(self.roster_in.value).strip()
        alike = "; ".join(f"“{a}” / “{b}”" for a, b in check.alike)

        def said(lang: str) -> str:
            _ = translator(lang)
            out = "<div class='ld-ok'>" + html.escape(_(
                "Saved the roster of {code}: {count} students.").format(
                    code=code, count=len(names))) + "</div>"
            if alike:
                out += "<div class='ld-warn ld-roster-alike'>" + html.escape(_(
                    "These names look alike: check they are two students (they are kept as "
                    "two): {names}.").format(names=alike)) + "</div>"
            return out

        self._say(said)
        self._saved()
        return names
