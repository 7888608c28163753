"""The round-end panel: how the round ended, the tiles and points left in each hand and who
gained what (once no question waits), the match so far, at the match's end its final scores
and the student's answers, the buttons for the next round or a new match, and at a lesson's
or a match's end how the lesson went with the links back to the lessons page and on to the
next lesson."""

from __future__ import annotations

import html
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from urllib.parse import urlencode

import ipywidgets as widgets

from tutor.classroom.assignments import Assignment, assignment_query
from tutor.classroom.link import PLAY_PAGE, page_link, unnamed
from tutor.classroom.student_assignments import assignment_play_link
from tutor.course.lesson_end import LessonSummary
from tutor.games import BONUS_WORDS, END_WORDS, GAMES, game
from tutor.i18n import N_, format_number, ngettext, translator
from tutor.session.snapshot import MatchEndView, RoundSummary, Snapshot, StudentAnswers
from tutor.teaching.questions import seat_name
from tutor.ui.play.scores import pair_name
from tutor.ui.shared.access import Attributes
from tutor.ui.shared.panel import classed

__all__ = ["BONUS_WHY", "LESSONS_PAGE", "ROUND_END_BUTTONS", "SCORING_WHY", "Onward",
           "RoundEndPanel", "hands_left_text", "lesson_end_html", "lesson_links_html",
           "match_end_html", "match_html", "right_and_asked_row", "round_summary_html"]

ROUND_END_BUTTONS = ".ld-round-end .jupyter-button"
LESSONS_PAGE = "Lessons.ipynb"
"""The lessons page, beside the play page in the same folder."""
BONUS_WHY: Mapping[str, str] = MappingProxyType({
    "paso-a-la-salida": N_("paso a la salida"),
    "paso-corrido": N_("paso corrido"),
    "capicua": N_("capicúa"),
    "domino": N_("domino (the tiles left in the other hands)"),
    "tranque": N_("tranque (the other hands)"),
    **{kind: why for kind, (_said, why) in BONUS_WORDS.items()},
})
"""What each bonus was for: every game's own kinds, then each game's from its entry in
tutor.games (the one place to change them)."""

SCORING_WHY: Mapping[str, str] = MappingProxyType(
    {name: g.scoring for name, g in GAMES.items() if g.scoring})
"""How each game scores, one line under the round's summary, read from tutor.games (kept for
callers; each game's entry there is the one place to change)."""


def hands_left_text(tiles: Sequence[int] | None, points: Sequence[int], lang: str) -> str:
    """The tiles left in each hand and their points, with those words: ``"Tiles left in each
    hand: A: 5 tiles, 28 points; B: 0 tiles, 0 points"`` (``tiles`` None: the points only)."""
    _ = translator(lang)
    hands = []
    for seat, pts in enumerate(points):
        words = ngettext("{count} point", "{count} points", pts, lang).format(
            count=format_number(pts, lang))
        if tiles is not None:
            words = ngettext("{count} tile", "{count} tiles", tiles[seat], lang).format(
                count=format_number(tiles[seat], lang)) + ", " + words
        hands.append(f"{seat_name(seat)}: {words}")
    return _("Tiles left in each hand: {hands}").format(hands="; ".join(hands))


def round_summary_html(summary: RoundSummary | None, lang: str, *,
                       pending: bool, variant: str = "leonard",
                       tiles: Sequence[int] | None = None,
                       points: Sequence[int] | None = None) -> str:
    """How the round ended (``summary``: the snapshot's ``round_summary``, None while it is
    played) and, unless a question is ``pending``, the tiles left in each hand (``tiles``:
    the snapshot's ``hand_sizes``) and their points (``points``: the snapshot's
    ``hand_points``; default the summary's hand totals), and who gained what (bonuses,
    power plays)."""
    _ = translator(lang)
    lines = []
    end = summary
    if end is not None:
        if end.reason == "domino":
            kind = _("Domino!")
            if end.capicua:
                kind = _("Domino with capicúa ({kind})!").format(kind=end.capicua)
            what = _("Player {seat} placed their last tile.").format(
                seat=seat_name(end.winner or 0))
        elif end.reason in END_WORDS:  # a game's own ending: its entry's words
            title, line, _said = END_WORDS[end.reason]
            kind, what = _(title), _(line)
        else:
            kind = _("Tranque!")
            what = (_("Nobody can play. Player {seat} has the lowest hand.").format(
                seat=seat_name(end.winner)) if end.winner is not None
                else _("Nobody can play, and the lowest hand is shared: nobody collects."))
        lines.append(f"<h2 class='ld-round-title'>{html.escape(kind)}</h2>"
                     f"<div>{html.escape(what)}</div>")
        if not pending:  # the totals are what a round-end question asks to add up
            left = hands_left_text(tiles, points or end.hand_totals, lang)
            lines.append(f"<div class='ld-hands-left'>{html.escape(left)}</div>")
    if pending:
        lines.append("<div class='ld-hidden-pts'>" + html.escape(
            _("Answer the question to see who gained what.")) + "</div>")
    else:
        why = []
        bonuses = end.bonuses if end is not None else ()
        for seat, kind, bonus in bonuses:
            why.append(_("Player {seat}: +{points} for {why}").format(
                seat=seat_name(seat), points=bonus, why=_(BONUS_WHY[kind])))
        power_g = end.power_gains if end is not None else ()
        power_l = end.power_losses if end is not None else ()
        for seat in range(len(power_g)):
            if power_g[seat] or power_l[seat]:
                why.append(_("Player {seat}: +{gain} / −{loss} from power plays").format(
                    seat=seat_name(seat), gain=power_g[seat], loss=power_l[seat]))
        if why:
            lines.append("<ul style='margin:4px 0'>" + "".join(
                f"<li>{html.escape(w)}</li>" for w in why) + "</ul>")
        scoring = game(variant).scoring
        if scoring:
            lines.append("<div class='ld-legend'>" + html.escape(_(scoring)) + "</div>")
    return "".join(lines)


def right_and_asked_row(view: Snapshot, lang: str, players: int) -> str:
    """The match table's row of each human seat's questions this lesson: right at the first
    try / asked (:meth:`tutor.session.session.Session.right_and_asked`; empty under a bot)."""
    _ = translator(lang)
    cells = "".join(
        f"<td>{format_number(view.first_try_right[i], lang)}/"
        f"{format_number(view.asked[i], lang)}</td>"
        if i in view.humans and i < len(view.asked) else "<td></td>" for i in range(players))
    label, scope = _("Right first try / asked"), _("this lesson")
    return (f"<tr class='ld-arithmetic'><td>{html.escape(label)} "
            f"<small>({html.escape(scope)})</small></td>{cells}</tr>")


def match_html(view: Snapshot, lang: str, *, pending: bool) -> str:
    """The match so far (the view's ``match_rows``), round by round; the current round shows
    ``?`` while a question is ``pending``; the winner once the match is over."""
    _ = translator(lang)
    players = view.players
    round_word, total_word, match_word = _("Round"), _("Total"), _("Match")
    head = "".join(f"<th>{seat_name(i)}</th>" for i in range(players))
    body = []
    for r in view.match_rows:
        hidden = pending and r.current
        cells = "".join(
            f"<td>{'?' if hidden else format_number(r.points[i], lang)}</td>"
            for i in range(players))
        body.append(f"<tr><td>{html.escape(round_word)} {r.number}</td>{cells}</tr>")
    total = "".join(f"<td><b>{format_number(v, lang)}</b></td>"
                    for v in view.scores_shown)
    body.append(f"<tr><td><b>{html.escape(total_word)}</b></td>{total}</tr>")
    body.append(right_and_asked_row(view, lang, players))
    for seats, pair_total in zip(view.teams, view.team_scores_shown, strict=True):
        # Pair games: each pair's total under its players' columns.
        pair = _("Pair {seats}").format(seats=pair_name(seats))
        points = format_number(pair_total, lang)
        cells = "".join(f"<td>{points if i in seats else ''}</td>" for i in range(players))
        body.append(f"<tr><td>{html.escape(pair)}</td>{cells}</tr>")
    result = ""
    if view.match_over and not pending and view.match_winners:
        result = "<div class='ld-ok'>★ " + html.escape(_("Match winner: {winners}").format(
            winners=", ".join(seat_name(w) for w in view.match_winners))) + "</div>"
    return (f"<table class='ld-score-table'><thead><tr><th>{html.escape(match_word)}</th>"
            f"{head}</tr></thead><tbody>{''.join(body)}</tbody></table>{result}")


def _no_title(lesson: str, _lang: str) -> str:
    return lesson


@dataclass(frozen=True)
class Onward:
    """Where a lesson's end leads (issue 52): the class code the page was opened with, and the
    assignment its link carried (None: none), whose next lesson comes next instead of the
    curriculum's; ``title(lesson, lang)`` gives a lesson's title."""

    class_code: str = ""
    assignment: Assignment | None = None
    title: Callable[[str, str], str] = field(default=_no_title, compare=False)


def lesson_links_html(lang: str, student: str, next_lesson: str | None = None,
                      next_title: str = "", *, onward: Onward | None = None,
                      lesson: str = "") -> str:
    """The links at a lesson's or a match's end, relative like the lessons page's own (built
    by the same :func:`tutor.classroom.link.page_link`): back to the lessons page and, unless this
    was the last lesson, on to the next one in the play page. Both keep the class code
    (``onward``), so the lessons page's progress file is named with it. From an assignment
    (``onward.assignment``), ``lesson`` being one of its lessons: on to the assignment's next
    lesson, "Assignment done" after its last, and back to the lessons page carrying the
    assignment (on Binder it is known from the link alone)."""
    _ = translator(lang)
    onward = onward or Onward()
    a = onward.assignment
    class_code = onward.class_code or (a.class_code if a is not None else "")
    back = page_link(LESSONS_PAGE, lang=lang, student=student, class_code=class_code)
    if a is not None:
        carried = {k: v for k, v in assignment_query(a).items() if k not in ("class", "lang")}
        if unnamed(student):
            carried["class"] = a.class_code
        back += ("&" if "?" in back else "?") + urlencode(carried)
    out = (f"<a class='ld-lessons-link' href='{html.escape(back)}'>"
           f"{html.escape(_('Back to the lessons'))}</a>")
    if a is not None and lesson in a.lessons:
        at = a.lessons.index(lesson) + 1
        if at < len(a.lessons):
            following = a.lessons[at]
            href = assignment_play_link(PLAY_PAGE, a, following, lang, student, class_code)
            words = _("Next lesson of “{assignment}”: {title}").format(
                assignment=a.title, title=onward.title(following, lang))
            out += (f" · <a class='ld-next-lesson-link' data-lesson='{html.escape(following)}' "
                    f"href='{html.escape(href)}'>{html.escape(words)}</a>")
        else:
            done = _("Assignment done: “{assignment}” has no lesson after this one.").format(
                assignment=a.title)
            out += f" · <span class='ld-assignment-done'>{html.escape(done)}</span>"
    elif next_lesson is not None:
        href = page_link(PLAY_PAGE, lesson=next_lesson, lang=lang, student=student,
                         class_code=class_code)
        words = _("Next lesson: {title}").format(title=next_title or next_lesson)
        out += (f" · <a class='ld-next-lesson-link' data-lesson='{html.escape(next_lesson)}' "
                f"href='{html.escape(href)}'>{html.escape(words)}</a>")
    return f"<div class='ld-end-links'>{out}</div>"


def _answers_html(answers: StudentAnswers, lang: str, *, named: bool) -> str:
    """One student's answers of the match: each skill asked with right at the first answer
    / asked, and all of them together."""
    _ = translator(lang)
    caption = (_("Answers of {student} in this match").format(student=answers.student)
               if named and not unnamed(answers.student) else _("Your answers in this match"))
    if not answers.skills:
        return (f"<div class='ld-match-answers'><b>{html.escape(caption)}</b>: "
                + html.escape(_("no questions in this match.")) + "</div>")
    head = [_("Skill"), _("Right / asked")]
    rows = [f"<tr class='ld-answer-skill' data-skill='{html.escape(sk.skill)}'>"
            f"<th scope='row'>{html.escape(sk.name)}</th>"
            f"<td class='ld-num'>{sk.first_try_right} / {sk.asked}</td></tr>"
            for sk in answers.skills]
    every = _("All")
    rows.append(f"<tr class='ld-answer-total'><th scope='row'>{html.escape(every)}</th>"
                f"<td class='ld-num'><b>{answers.first_try_right} / {answers.asked}</b></td></tr>")
    return (f"<table class='ld-lesson-summary ld-match-answers'><caption>"
            f"{html.escape(caption)}</caption><thead><tr>"
            + "".join(f"<th scope='col'>{html.escape(h)}</th>" for h in head)
            + f"</tr></thead><tbody>{''.join(rows)}</tbody></table>")


def match_end_html(end: MatchEndView, view: Snapshot, lang: str, *, links: bool = True,
                   onward: Onward | None = None) -> str:
    """The match's end (docs/rules.md §1.9, §4): the final scores, every point counted (pair
    games: each pair's too); each student's answers of the match, right at the first answer /
    asked per skill; and (``links``) the links back to the lessons page and on to the next
    lesson (``view.next_lesson``)."""
    _ = translator(lang)
    scores = ", ".join(
        f"{seat_name(seat)}: " + ngettext("{count} point", "{count} points", v, lang).format(
            count=format_number(v, lang)) for seat, v in enumerate(end.scores))
    final = _("Final score")
    parts = [f"<div class='ld-final-scores'><b>{html.escape(final)}</b>: "
             f"{html.escape(scores)}</div>"]
    if end.team_scores:
        pairs = ", ".join(
            _("Pair {seats}").format(seats=pair_name(seats)) + ": " + ngettext(
                "{count} point", "{count} points", v, lang).format(count=format_number(v, lang))
            for seats, v in zip(view.teams, end.team_scores, strict=True))
        parts.append(f"<div class='ld-final-pairs'>{html.escape(pairs)}</div>")
    named = len(end.answers) > 1
    parts += [_answers_html(a, lang, named=named) for a in end.answers]
    if links:
        parts.append(lesson_links_html(lang, end.student, view.next_lesson,
                                       view.next_lesson_title, onward=onward,
                                       lesson=end.lesson))
    return "".join(parts)


def lesson_end_html(summary: LessonSummary, lang: str, *, next_lesson: str | None = None,
                    next_title: str = "", onward: Onward | None = None) -> str:
    """The lesson's end (docs/rules.md §4): why it ended, a table of its target skills (right at
    the first answer of those asked, mastered ✔ or not, what to practise next), and the link
    back to the lessons page (relative, like the lessons page's links here) and, given
    ``next_lesson`` (its id and ``next_title``), the link on to it."""
    _ = translator(lang)
    why = {
        "mastered": _("Lesson complete: you mastered every skill of this lesson."),
        "questions": _("The lesson is over: that was all its questions for today."),
        "minutes": _("The lesson is over: that was all its time for today."),
        "rounds": _("The lesson is over: that was all its rounds for today."),
        "match": _("The match is over."),
    }[summary.reason or "match"]
    head = [_("Skill"), _("Right / asked"), _("Mastered"), _("What to practise next")]
    rows = []
    for sk in summary.skills:
        mark = ("<span class='ld-done'>✔ " + html.escape(_("yes")) + "</span>" if sk.mastered
                else "<span class='ld-todo'>" + html.escape(_("not yet")) + "</span>")
        rows.append(
            f"<tr class='ld-lesson-skill' data-skill='{html.escape(sk.skill)}'>"
            f"<th scope='row'>{html.escape(sk.name)}</th>"
            f"<td class='ld-num'>{sk.first_try_right} / {sk.asked}</td><td>{mark}</td>"
            f"<td>{html.escape(sk.next_step)}</td></tr>")
    caption = _("How the lesson went")
    return (f"<h2 class='ld-lesson-title'>{html.escape(why)}</h2>"
            f"<table class='ld-lesson-summary'><caption>{html.escape(caption)}"
            "</caption><thead><tr>"
            + "".join(f"<th scope='col'>{html.escape(h)}</th>" for h in head)
            + f"</tr></thead><tbody>{''.join(rows)}</tbody></table>"
            + lesson_links_html(lang, summary.student, next_lesson, next_title, onward=onward,
                                lesson=summary.lesson))


class RoundEndPanel(widgets.VBox):
    """Shown once the round is over. ``on_next_round()``, ``on_new_match()``."""

    def __init__(self, *, on_next_round: Callable[[], None],
                 on_new_match: Callable[[], None]) -> None:
        W = widgets
        self.lesson_end = classed(W.HTML(), "ld-lesson-end")
        self.lesson_end.layout.display = "none"
        self.summary = classed(W.HTML(), "ld-summary")
        self.match_table = classed(W.HTML(), "ld-match")
        self.match_end = classed(W.HTML(), "ld-match-end")
        self.match_end.layout.display = "none"
        self.next_round_btn = classed(W.Button(button_style="success"), "ld-next-round")
        self.next_round_btn.on_click(lambda _b: on_next_round())
        self.new_match_btn = classed(W.Button(button_style="info"), "ld-new-match")
        self.new_match_btn.on_click(lambda _b: on_new_match())
        self.onward = Onward()
        """Where the lesson's end leads (the page's class code and assignment)."""
        super().__init__([self.lesson_end, self.summary, self.match_table, self.match_end,
                          W.HBox([self.next_round_btn, self.new_match_btn])])
        self.add_class("ld-round-end")

    def attributes(self, lang: str) -> Attributes:
        _ = translator(lang)
        return {".ld-round-end": {"role": "region", "aria-label": _("The round is over.")},
                ".ld-next-round": {"aria-keyshortcuts": "N"}}

    def relabel(self, lang: str) -> None:
        _ = translator(lang)
        self.next_round_btn.description = _("Next round")
        self.new_match_btn.description = _("New match")

    def render(self, view: Snapshot) -> None:
        over = view.round_over
        self.layout.display = None if over else "none"
        if not over:
            return
        pending = view.question is not None
        lesson = view.lesson_end
        self.lesson_end.value = "" if lesson is None else lesson_end_html(
            lesson, view.lang, next_lesson=view.next_lesson, next_title=view.next_lesson_title,
            onward=self.onward)
        self.lesson_end.layout.display = None if lesson is not None else "none"
        self.summary.value = round_summary_html(
            view.round_summary, view.lang, pending=pending, variant=view.variant,
            tiles=view.hand_sizes, points=view.hand_points)
        self.match_table.value = match_html(view, view.lang, pending=pending)
        end = view.match_end  # the lesson's end, when shown too, holds the links
        self.match_end.value = "" if end is None else match_end_html(
            end, view, view.lang, links=lesson is None, onward=self.onward)
        self.match_end.layout.display = None if end is not None else "none"
        self.next_round_btn.layout.display = (
            None if not view.lesson_over and not pending else "none")
        _ = translator(view.lang)  # a lesson that goes on after its match: a new match
        self.next_round_btn.description = _("Next match") if view.match_over else _(
            "Next round")
        self.new_match_btn.layout.display = None if not pending else "none"
