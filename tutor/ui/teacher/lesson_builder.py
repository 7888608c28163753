"""The teacher page's lesson builder: a form (name, titles, skills, tiles, bots, rounds,
scaffolds) that writes a checked lesson file where the play page finds it, and shows the
links that open it: here, on this Voilà server, and on Binder."""

from __future__ import annotations

import html
from collections.abc import Callable
from pathlib import Path

import ipywidgets as widgets

from tutor.course.builder import (
    BINDER_REPO_ENV,
    LessonExistsError,
    build_lesson,
    free_lesson_id,
    lesson_id_from_title,
    lesson_links,
    save_lesson,
    taken_lesson_ids,
)
from tutor.course.deals import POWER_ROWS
from tutor.course.lessons import LESSON_ID, LessonError
from tutor.i18n import N_, gettext, translator
from tutor.teaching.mastery import SKILL_NAMES, SKILLS
from tutor.ui.play.game_setup import SEAT_KINDS
from tutor.ui.shared.panel import classed, guarded, unforeseen

__all__ = ["BuilderPanel", "exists_html", "saved_html"]

BOTS = ("greedy", "random", "search", "expert")
"""The bot levels a lesson can pick (every level of engine.bots.BOTS), the usual one first."""
SCAFFOLD_NAMES: dict[str, str] = {
    "T": N_("Ask for T first"),
    "blanks": N_("Show the formula with blanks"),
}
_WIDE = widgets.Layout(width="520px", max_width="100%")
_LABEL = {"description_width": "170px"}
CHECKS = "ld-checks"


def saved_html(path: Path, links: dict[str, str], lang: str) -> str:
    """What the builder says once a lesson is saved: its file and the links that open it."""
    _ = translator(lang)
    lesson_id = path.stem
    items = [(_("Open it here"), links["relative"], "ld-built-here", "")]
    if "voila" in links:
        items.append((_("Link for this server (Voilà)"), links["voila"], "ld-built-voila", ""))
    note = _("works once lessons/{file} is in the project's repository").format(file=path.name)
    if "<owner>" in links["binder"]:  # the page does not know the repository
        note = _("put your repository's owner/name in {variable} for a working link; it works "
                 "once lessons/{file} is in that repository").format(
                     variable=BINDER_REPO_ENV, file=path.name)
    items.append((_("Binder link"), links["binder"], "ld-built-binder", note))
    lis = "".join(
        f"<li>{html.escape(label)}: <a class='{cls}' href='{html.escape(url)}'>"
        f"{html.escape(url)}</a>{(' (' + html.escape(note) + ')') if note else ''}</li>"
        if "<owner>" not in url else
        f"<li>{html.escape(label)}: <code class='{cls}'>{html.escape(url)}</code> "
        f"({html.escape(note)})</li>"
        for label, url, cls, note in items)
    head = _("Saved the lesson “{id}” ({file}); it was checked and is ready to play.").format(
        id=lesson_id, file=path.name)
    return f"<div class='ld-ok'>{html.escape(head)}</div><ul class='ld-built-links'>{lis}</ul>"


def exists_html(err: LessonExistsError, free: str, lang: str) -> str:
    """What the builder asks when the lesson's name is taken: replace it (the checkbox) or
    take another name (``free``, a name no lesson has)."""
    _ = translator(lang)
    if err.shipped:
        head = _("A lesson shipped with the tutor is named “{id}” already: yours would replace "
                 "it for the whole class.").format(id=err.lesson_id)
    else:
        head = _("A lesson named “{id}” exists already.").format(id=err.lesson_id)
    ask = _("To replace it, tick “Replace a lesson of the same name” and save again; or change "
            "the lesson's name (“{free}” is free).").format(free=free)
    return (f"<div class='ld-msg ld-build-ask'>{html.escape(head)} {html.escape(ask)}"
            "</div>")


class BuilderPanel(widgets.VBox):
    """The form; :meth:`save` writes the lesson (to ``folder``, default the builder's folder
    :func:`tutor.course.paths.own_lessons_dir`) and shows its links, or one line saying what is
    wrong. The lesson's name is made from its title
    (:func:`tutor.course.builder.lesson_id_from_title`)
    until the teacher edits it; a name taken already is saved only once the teacher ticks
    “Replace a lesson of the same name”."""

    def __init__(self, folder: Path | None = None,
                 on_saved: Callable[[Path], None] | None = None,
                 origin: Callable[[], str] | None = None) -> None:
        W = widgets
        self.folder = folder
        self.on_saved = on_saved
        """Called with the lesson file once one is saved (the page offers it at once)."""
        self.origin = origin
        """The page's origin as the browser said it (``https://host``), or "": the server's
        link is made from it, as the assignment's link to send is (issue 52)."""
        self.lang = "es"
        self.heading = W.HTML()
        self.help = W.HTML()
        self.id_in = classed(W.Text(layout=_WIDE, style=_LABEL), "ld-build-id")
        self.title_es = classed(W.Text(layout=_WIDE, style=_LABEL), "ld-build-title-es")
        self.title_en = classed(W.Text(layout=_WIDE, style=_LABEL), "ld-build-title-en")
        self.about_es = classed(W.Textarea(layout=_WIDE, style=_LABEL), "ld-build-about-es")
        self.about_en = classed(W.Textarea(layout=_WIDE, style=_LABEL), "ld-build-about-en")
        self.skills_label = W.HTML()
        self.skill_cbs = {s: classed(W.Checkbox(value=False, indent=False,
                                                layout=W.Layout(width="auto")),
                                     "ld-build-skill", f"ld-build-skill-{s}") for s in SKILLS}
        self.tiles_label = W.HTML()
        self.tile_cbs = {r: classed(W.Checkbox(value=False, indent=False,
                                               layout=W.Layout(width="auto")),
                                    "ld-build-tile") for r in POWER_ROWS}
        self.players_dd = classed(W.Dropdown(options=[2, 3, 4, 5], value=2, style=_LABEL,
                                             layout=W.Layout(width="260px")), "ld-build-players")
        self.bots_dd = classed(W.Dropdown(options=list(BOTS), value="greedy", style=_LABEL,
                                          layout=W.Layout(width="320px")), "ld-build-bots")
        self.rounds_in = classed(W.BoundedIntText(value=2, min=1, max=20, style=_LABEL,
                                                  layout=W.Layout(width="260px")),
                                 "ld-build-rounds")
        self.scaffold_cbs = {k: classed(W.Checkbox(value=False, indent=False,
                                                   layout=W.Layout(width="auto")),
                                        "ld-build-scaffold") for k in SCAFFOLD_NAMES}
        self.ask_power = classed(W.Checkbox(value=True, indent=False,
                                            layout=W.Layout(width="auto")), "ld-build-ask-power")
        self.ask_round = classed(W.Checkbox(value=False, indent=False,
                                            layout=W.Layout(width="auto")), "ld-build-ask-round")
        self.replace_cb = classed(W.Checkbox(value=False, indent=False,
                                             layout=W.Layout(width="auto")), "ld-build-replace")
        self.save_btn = classed(W.Button(button_style="primary", icon="save"), "ld-build-save")
        self.save_btn.on_click(guarded(lambda _b: self.save(), self._failed))
        self.result = classed(W.HTML(), "ld-build-result")
        self._made_id = ""  # the name last made from the title (the field follows the title
        # while it holds this, or nothing)
        for title in (self.title_es, self.title_en):
            title.observe(lambda _change: self._follow_title(), names="value")
        super().__init__([
            self.heading, self.help, self.id_in, self.title_es, self.title_en, self.about_es,
            self.about_en, self.skills_label,
            classed(W.HBox(list(self.skill_cbs.values())), CHECKS),
            self.tiles_label,
            classed(W.HBox(list(self.tile_cbs.values())), CHECKS),
            classed(W.HBox([self.players_dd, self.bots_dd, self.rounds_in]), CHECKS),
            classed(W.HBox([*self.scaffold_cbs.values(), self.ask_power, self.ask_round]),
                    CHECKS),
            self.replace_cb, self.save_btn, self.result])
        classed(self, "ld-form", "ld-builder")

    def relabel(self, lang: str) -> None:
        _ = translator(lang)
        self.lang = lang
        self.heading.value = "<h3>" + html.escape(_("Lesson builder")) + "</h3>"
        self.help.value = ("<div class='ld-legend'>" + html.escape(_(
            "Make a lesson for your class: the skills it practises, the tiles its deals are "
            "rich in, the bots, the rounds and the help it gives. It is checked like every "
            "lesson and saved where the play page finds it.")) + "</div>")
        self.id_in.description = _("Lesson name")
        self.id_in.placeholder = _("made from the title, e.g. tabla-del-6")
        self.id_in.tooltip = _("The lesson's name in links and its file name: made from the "
                               "title; you may change it")
        self.title_es.description = _("Title in Spanish")
        self.title_en.description = _("Title in English")
        self.about_es.description = _("About it, in Spanish")
        self.about_en.description = _("About it, in English")
        self.skills_label.value = ("<b>" + html.escape(_("Skills it practises (none: every "
                                                         "arithmetic skill)")) + "</b>")
        for skill, cb in self.skill_cbs.items():
            cb.description = gettext(SKILL_NAMES[skill], lang)
        self.tiles_label.value = ("<b>" + html.escape(_("Its deals are rich in these tiles "
                                                        "(none: dealt at random)")) + "</b>")
        for row, cb in self.tile_cbs.items():
            cb.description = row
            cb.tooltip = _("Deals rich in {row} tiles").format(row=row)
        self.players_dd.description = _("Players")
        bot = self.bots_dd.value
        self.bots_dd.options = [(_(SEAT_KINDS[b]), b) for b in BOTS]
        self.bots_dd.value = bot
        self.bots_dd.description = _("Bots")
        self.rounds_in.description = _("Rounds")
        for key, cb in self.scaffold_cbs.items():
            cb.description = _(SCAFFOLD_NAMES[key])
        self.ask_power.description = _("Ask about power plays")
        self.ask_round.description = _("Ask at the round's end")
        self.replace_cb.description = _("Replace a lesson of the same name")
        self.save_btn.description = _("Save the lesson")
        self.save_btn.tooltip = _("Check the lesson and save it")

    def _title(self) -> str:
        """The title the name is made from: the one in the page's language, else the other."""
        first, other = ((self.title_es, self.title_en) if self.lang == "es"
                        else (self.title_en, self.title_es))
        return str(first.value).strip() or str(other.value).strip()

    def _follow_title(self) -> None:
        """Fill the name from the title, unless the teacher has written a name of their own."""
        if str(self.id_in.value).strip() not in ("", self._made_id):
            return
        title = self._title()
        self._made_id = lesson_id_from_title(title, taken_lesson_ids(self.folder)) if title else ""
        self.id_in.value = self._made_id

    def lesson_id(self) -> str:
        """The lesson's name: the name field's if it is one (small letters, digits, dashes),
        else made from what it holds (``Tabla del 6`` → ``tabla-del-6``), or from the title
        when it is empty."""
        typed = str(self.id_in.value).strip()
        if typed and LESSON_ID.fullmatch(typed):
            return typed
        return lesson_id_from_title(typed or self._title(), taken_lesson_ids(self.folder))

    def lesson_data(self) -> dict[str, object]:
        """The lesson file the form describes; :class:`LessonError` names what is wrong."""
        ask = [k for k, cb in (("power", self.ask_power), ("round_end", self.ask_round))
               if cb.value]
        lesson_id = self.lesson_id()
        if lesson_id != self.id_in.value:
            if self.id_in.value.strip() in ("", self._made_id):
                self._made_id = lesson_id
            self.id_in.value = lesson_id  # the teacher sees the name it is saved under
        return build_lesson(
            lesson_id=lesson_id,
            title={"es": self.title_es.value, "en": self.title_en.value},
            description={"es": self.about_es.value, "en": self.about_en.value},
            targets=[s for s, cb in self.skill_cbs.items() if cb.value],
            rich_in=[r for r, cb in self.tile_cbs.items() if cb.value],
            bots=[self.bots_dd.value], players=int(self.players_dd.value),
            rounds=int(self.rounds_in.value),
            scaffold=[k for k, cb in self.scaffold_cbs.items() if cb.value],
            ask=ask, lang=self.lang)

    def _failed(self, err: Exception) -> None:
        self.result.value = f"<div class='ld-msg'>{html.escape(unforeseen(err, self.lang))}</div>"

    def save(self) -> Path | None:
        """Check and save the lesson; show its links (or why it was not saved)."""
        try:
            data = self.lesson_data()
            path = save_lesson(data, self.folder, lang=self.lang,
                               replace=bool(self.replace_cb.value))
            links = lesson_links(str(data["id"]), self.lang,
                                 origin=self.origin() if self.origin is not None else "")
        except LessonExistsError as err:  # ask: replace it, or another name
            free = free_lesson_id(err.lesson_id, taken_lesson_ids(self.folder))
            self.result.value = exists_html(err, free, self.lang)
            return None
        except (LessonError, OSError) as err:
            self.result.value = f"<div class='ld-msg'>{html.escape(str(err))}</div>"
            return None
        self.result.value = saved_html(path, links, self.lang)
        self.replace_cb.value = False  # the next lesson asks again before replacing one
        if self.on_saved is not None:
            self.on_saved(path)
        return path
