"""The scores panel: tiles in hand, this round and the match for every seat, as far as they
are shown (the points a question asks for stay hidden), counted up when they change."""

from __future__ import annotations

import asyncio
import html
from collections.abc import Collection, Iterable, Sequence

import ipywidgets as widgets

from tutor.classroom.link import unnamed
from tutor.i18n import N_, format_number, ngettext, translator
from tutor.session.snapshot import Snapshot
from tutor.teaching.questions import seat_name
from tutor.ui.play.game_setup import SEAT_KINDS
from tutor.ui.shared.access import Attributes
from tutor.ui.shared.panel import pile_text, running_loop

__all__ = ["BOT", "ScoresPanel", "accuracy_html", "accuracy_text", "pair_name",
           "right_and_asked_text", "scores_html", "student_label"]

BOT = N_("bot")
STEPS = 8
"""Frames of the count-up when the scores change."""


def pair_name(seats: Iterable[int]) -> str:
    """A pair by its players: ``A & C``."""
    return " & ".join(seat_name(s) for s in seats)


def student_label(view: Snapshot, seat: int, lang: str) -> str:
    """A human seat by its student's name ("Ana"), or "Player A" when the page has none."""
    names = view.seat_students
    name = names[seat] if seat < len(names) else ""
    if name and not unnamed(name):
        return name
    return translator(lang)(N_("Player {seat}")).format(seat=seat_name(seat))


def right_and_asked_text(right: int, asked: int, lang: str) -> str:
    """This lesson's questions right at the first try of those asked, as the student reads it:
    "arithmetic this lesson: 7/9 right at the first try" (questions, not tries; docs/rules.md
    §4; :meth:`tutor.session.session.Session.right_and_asked`)."""
    _ = translator(lang)
    if not asked:
        return _("arithmetic this lesson: no questions yet")
    return _("arithmetic this lesson: {right}/{asked} right at the first try").format(
        right=format_number(right, lang), asked=format_number(asked, lang))


def accuracy_text(view: Snapshot, seat: int, lang: str, points: int | None = None) -> str:
    """One human seat's game points beside their arithmetic: "Ana: 45 points · arithmetic
    this lesson: 7/9 right at the first try". ``points``: the match points to print (default
    the shown score)."""
    if points is None:
        points = view.scores_shown[seat]
    score = ngettext("{who}: {points} point", "{who}: {points} points", abs(points), lang)
    score = score.format(who=student_label(view, seat, lang),
                         points=format_number(points, lang))
    right, asked = view.first_try_right[seat], view.asked[seat]
    return f"{score} · {right_and_asked_text(right, asked, lang)}"


def accuracy_html(view: Snapshot, lang: str, humans: Collection[int],
                  scores: Sequence[int] | None = None) -> str:
    """Each human seat's line of :func:`accuracy_text`, under the scores table."""
    if scores is None:
        scores = view.scores_shown
    lines = "".join(f"<li>{html.escape(accuracy_text(view, seat, lang, scores[seat]))}</li>"
                    for seat in sorted(humans) if seat < len(view.asked))
    return f"<ul class='ld-accuracy'>{lines}</ul>" if lines else ""


def _seat_who(seat: int, humans: Collection[int], kinds: Sequence[str], lang: str) -> str:
    _ = translator(lang)
    if seat in humans:
        return _("you") if len(humans) == 1 else _("human")
    level = kinds[seat] if seat < len(kinds) else ""
    return _(SEAT_KINDS.get(level, BOT))


def scores_html(view: Snapshot, lang: str, *, humans: Collection[int] | None = None,
                scores: Sequence[int] | None = None,
                flash: tuple[Sequence[int], Sequence[int]] | None = None) -> str:
    """The scores table: tiles in hand, this round and the match, as far as they are shown;
    who plays each seat (``humans``, default the view's; a bot by its level, the view's
    ``seat_kinds``).

    ``scores`` are the match totals to print (by default ``view.scores_shown``; the
    dashboard passes in-between values while it counts up); ``flash`` = (old, new) marks the
    cells that changed."""
    _ = translator(lang)
    if scores is None:
        scores = view.scores_shown
    if humans is None:
        humans = view.humans
    kinds = view.seat_kinds
    rows = []
    for seat in range(view.players):
        who = _seat_who(seat, humans, kinds, lang)
        cls = " class='ld-turn'" if (seat == view.turn and not view.round_over) else ""
        td = "<td>"
        if flash is not None and flash[0][seat] != flash[1][seat]:
            td = ("<td class='ld-flash'>" if flash[1][seat] > flash[0][seat]
                  else "<td class='ld-flash-down'>")
        rnd = view.round_gains_shown[seat] - view.round_losses_shown[seat]
        marker = "▶ " if cls else ""
        rows.append(
            f"<tr{cls}><td>{marker}<b>{seat_name(seat)}</b> "
            f"<small>({html.escape(who)})</small></td>"
            f"<td>{view.hand_sizes[seat]}</td>"
            f"<td>{format_number(rnd, lang)}</td>"
            f"{td}{format_number(scores[seat], lang)}</td></tr>")
    hidden = ""
    if view.hiding:
        hidden = ("<div class='ld-hidden-pts'>" + html.escape(
            _("Points of the last play are hidden until you answer.")) + "</div>")
    pairs = ""
    if view.teams:  # pair games score by pairs: partners sit opposite
        cells = ""
        for seats in view.teams:
            text = _("Pair {seats}: {points}").format(
                seats=pair_name(seats), points=format_number(sum(scores[s] for s in seats),
                                                             lang))
            cells += f"<li>{html.escape(text)}</li>"
        title = _("Pairs")
        pairs = (f"<div class='ld-pairs'><b>{html.escape(title)}</b>"
                 f"<ul>{cells}</ul></div>")
    if view.target:
        pairs += ("<div class='ld-legend'>" + html.escape(
            _("The match ends when a player or pair reaches {target} points.").format(
                target=view.target)) + "</div>")
    pile = pile_text(view.pile, lang)
    heads = "".join(f"<th>{html.escape(h)}</th>"
                    for h in (_("Player"), _("Tiles"), _("Round"), _("Match")))
    return (
        f"<table class='ld-score-table'><thead><tr>{heads}</tr></thead>"
        f"<tbody>{''.join(rows)}</tbody></table>"
        f"{accuracy_html(view, lang, humans, scores)}{pairs}"
        f"<div class='ld-legend'>{html.escape(pile)}</div>{hidden}")


class ScoresPanel(widgets.HTML):
    """The scores table; with a live kernel, changed totals count up and flash."""

    def __init__(self) -> None:
        super().__init__()
        self.add_class("ld-scores")
        self.add_class("ld-card")
        self._view: Snapshot | None = None

    def attributes(self, lang: str) -> Attributes:
        _ = translator(lang)
        return {".ld-scores": {"role": "region", "aria-label": _("Scores")}}

    def render(self, view: Snapshot, *, animate_from: Sequence[int] | None = None) -> None:
        """Show ``view``'s scores; ``animate_from``: the totals shown before an answer, to
        count up from."""
        self._view = view
        new = list(view.scores_shown)
        loop = running_loop()
        if animate_from is not None and list(animate_from) != new and loop is not None:
            loop.create_task(self._animate(list(animate_from), new))
        else:
            self.value = scores_html(view, view.lang)

    async def _animate(self, old: list[int], new: list[int]) -> None:
        for k in range(1, STEPS + 1):
            cur = [round(o + (n - o) * k / STEPS) for o, n in zip(old, new, strict=False)]
            view = self._view
            assert view is not None
            self.value = scores_html(view, view.lang, scores=cur, flash=(old, new))
            await asyncio.sleep(0.07)
        await asyncio.sleep(0.9)
        view = self._view
        assert view is not None
        self.value = scores_html(view, view.lang)
