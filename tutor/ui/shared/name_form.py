"""The name form: a page opened without a student (and not on a JupyterHub, where the
signed-in user is the student) asks for one before anything else, with the class code a
teacher may give. Every student of a class opens the same link (on Binder, a lesson's link),
so without it all their answers were saved, and handed in, as "anon".

One box for the name, one optional box for the class code, one button (Enter in a box does
the same); the page's access layer (``access.js``) hands in the text typed, then writes
``student=`` (and ``class=``) into the address bar's link, so a reload keeps the name.
"""

from __future__ import annotations

import html
from collections.abc import Callable
from dataclasses import dataclass

import ipywidgets as widgets

from tutor.classroom.link import MAX_CLASS, clean_name, name_problem, unnamed
from tutor.i18n import N_, translator
from tutor.ui.shared.access import Attributes
from tutor.ui.shared.panel import classed

__all__ = ["NAME_INPUT", "NameForm", "Named", "read_name"]

NAME_INPUT = ".ld-name-in input"
"""The name box, where the focus goes when the form shows."""

NO_NAME = N_("Type your name to start: your answers are saved under it, and the file you "
             "hand in carries it.")
NO_NAME_NOT_SAVED = N_("Type your name to start.")
SAVED_WHY = N_("Your answers are saved under your name, and the progress file you hand in to "
               "your teacher carries it.")
NOT_SAVED_WHY = N_("Progress cannot be saved on this page, so your answers will not be kept "
                   "and there is no file to hand in: tell your teacher. You can still play.")
"""Said instead of :data:`SAVED_WHY` by a page whose progress store could not be opened: it
never says both (issue 41)."""
NOT_ANON = N_("“{name}” is what a page without a name calls its student, so the teacher "
              "could not tell your answers from anyone else's: type your own name.")


@dataclass(frozen=True)
class Named:
    """What the form read: the student's name (cleaned as a link's, :func:`clean_name`) and
    the class code (``""`` when none was given); or the problem to say instead."""

    student: str = ""
    class_code: str = ""
    problem: str = ""


def read_name(name: str, class_code: str, lang: str, saving: bool = True) -> Named:
    """The name and class code typed, as data, or the problem (in ``lang``) that keeps the
    page from starting: no name, the anonymous page's own name ("anon"), or a name that
    could pass for another (:func:`tutor.classroom.link.name_problem`). ``saving``:
    whether the page saves the answers (its words about the name say so only then).

    >>> read_name("  Ana\\tMaría ", " 6-B ", "en")
    Named(student='Ana María', class_code='6-B', problem='')
    """
    _ = translator(lang)
    student, _cut = clean_name(name)
    if not name.strip() or student == "anon" and name.strip() != "anon":
        return Named(problem=_(NO_NAME if saving else NO_NAME_NOT_SAVED))
    if unnamed(student):
        return Named(problem=_(NOT_ANON).format(name=student))
    refused = name_problem(student)  # a name that could pass for another (issue 51)
    if refused is not None:
        return Named(problem=refused.translate(lang))
    code, _cut = clean_name(class_code, MAX_CLASS)
    return Named(student=student, class_code="" if code == "anon" else code)


class NameForm(widgets.VBox):
    """The form; ``on_name(callback)``: ``callback(student, class_code)`` once a usable name
    was handed in (a problem is said on the form instead)."""

    def __init__(self, saving: bool = True) -> None:
        W = widgets
        self.lang = "es"
        self.saving = saving
        """Whether the page saves the answers (the form's words say so only then)."""
        self.heading = W.HTML()
        self.why = W.HTML()
        self.name_in = classed(W.Text(layout=W.Layout(width="320px", max_width="100%")),
                               "ld-name-in")
        self.class_in = classed(W.Text(layout=W.Layout(width="320px", max_width="100%")),
                                "ld-class-in")
        self.start_btn = classed(W.Button(button_style="primary", icon="play"), "ld-name-start")
        self.start_btn.on_click(lambda _b: self.hand_in(self.name_in.value,
                                                        self.class_in.value))
        self.problem = classed(W.HTML(), "ld-name-problem")
        super().__init__([self.heading, self.why, self.name_in, self.class_in, self.start_btn,
                          self.problem])
        self.add_class("ld-name-form")
        self._callback: Callable[[str, str], None] | None = None

    def on_name(self, callback: Callable[[str, str], None]) -> None:
        self._callback = callback

    def hand_in(self, name: str, class_code: str) -> None:
        """The form's name and class code (from the button, or from the page's access layer
        with the text typed): the page starts, or the form says what is wrong."""
        named = read_name(name, class_code, self.lang, self.saving)
        if named.problem:
            self.problem.value = f"<div class='ld-warn'>{html.escape(named.problem)}</div>"
            return
        self.problem.value = ""
        if self._callback is not None:
            self._callback(named.student, named.class_code)

    def relabel(self, lang: str) -> None:
        self.lang = lang
        _ = translator(lang)
        self.heading.value = "<h2>" + html.escape(_("Who is playing?")) + "</h2>"
        why = "ld-name-why" if self.saving else "ld-name-why ld-warn"
        self.why.value = (f"<p class='{why}'>"
                          + html.escape(_(SAVED_WHY if self.saving else NOT_SAVED_WHY))
                          + "</p>")
        self.name_in.description = _("Your name")
        self.name_in.placeholder = _("your name, then Enter")
        self.class_in.description = _("Class code")
        self.class_in.placeholder = _("if your teacher gave you one")
        self.start_btn.description = _("Start")
        if self.problem.value:
            self.problem.value = ""
        for box in (self.name_in, self.class_in):
            box.style.description_width = "110px"

    def attributes(self, lang: str) -> Attributes:
        _ = translator(lang)
        return {
            ".ld-name-form": {"role": "form", "aria-label": _("Who is playing?")},
            NAME_INPUT: {"aria-label": _("Your name"), "aria-required": "true",
                         "autocomplete": "name"},
            ".ld-class-in input": {"aria-label": _("Class code (if your teacher gave you one)"),
                                   "autocomplete": "off"},
            ".ld-name-problem": {"role": "alert"},
        }
