"""The dashboard's HTML panels as pure functions: view state (or the few session values a
panel needs) and a language in, an HTML string out. No widgets here, so each panel can be
tested on its own; :class:`tutor.ui.app.TutorApp` puts the strings into its widgets."""

from __future__ import annotations

import base64
import html
from collections.abc import Collection, Iterable, Mapping, Sequence
from typing import Any

from engine.events import Bonus, PowerEffect
from engine.round import Action, Draw, Pass
from tutor.hints import ANSWER
from tutor.i18n import N_, format_number, translator
from tutor.questions import seat_name
from tutor.snapshot import QuestionView, Snapshot

__all__ = ["BONUS_WHY", "BOT", "SEAT_KINDS", "VARIANT_NAMES", "answered_html", "board_labels",
           "cover_html", "feedback_html", "log_html", "match_html", "mastery_html", "move_label",
           "progress_html", "question_html", "round_summary_html", "scores_html",
           "sheet_links_html", "situation_html", "status_html"]

# The games the setup offers, by engine variant name.
VARIANT_NAMES: dict[str, str] = {
    "leonard": N_("Leonard-Domino"),
    "block": N_("Block game (double six)"),
}
# Seat kinds in the setup, by value.
SEAT_KINDS: dict[str, str] = {
    "human": N_("human"),
    "random": N_("bot: random"),
    "greedy": N_("bot: greedy"),
    "search": N_("bot: search"),
}
BOT = N_("bot")
BONUS_WHY: dict[str, str] = {
    "paso-a-la-salida": N_("paso a la salida"),
    "paso-corrido": N_("paso corrido"),
    "capicua": N_("capicúa"),
    "domino": N_("domino (the tiles left in the other hands)"),
    "tranque": N_("tranque (the other hands)"),
}


def board_labels(view: Snapshot, lang: str) -> dict[str, str]:
    """The words painted on the board: the hand's caption, the empty line, the ends."""
    _ = translator(lang)
    seat = view.hand_seat
    return {
        "hand": (_("Your tiles ({seat}) — click one to play it").format(
            seat=seat_name(seat)) if seat is not None and view.human_to_move == seat
            else _("Your tiles ({seat})").format(seat=seat_name(seat))
            if seat is not None else ""),
        "empty": _("The line is empty: the first tile opens the round."),
        "table": _("table"),
        "end_L": _("L"),
        "end_R": _("R"),
    }


def move_label(move: Action, lang: str) -> str:
    """A move button's caption: ``Draw``, ``Pass`` or ``6/4 → L``."""
    _ = translator(lang)
    if isinstance(move, Draw):
        return _("Draw")
    if isinstance(move, Pass):
        return _("Pass")
    if move.end is None:
        return str(move.tile)
    end = _("L") if move.end == "L" else _("R")
    return f"{move.tile} → {end}"


def status_html(view: Snapshot, lang: str, *, pending: bool, message: str = "",
                message_kind: str = "info") -> str:
    """The status line: round, whose turn (or why we wait) and the last message."""
    _ = translator(lang)
    turn = view.turn
    if view.match_over:
        state = _("The match is over.")
    elif view.round_over:
        state = _("The round is over.")
    elif pending:
        state = _("Answer the question below to see the points.")
    elif view.human_to_move is not None:
        state = _("Your turn, player {seat}.").format(seat=seat_name(turn))
    else:
        state = _("Player {seat} (bot) is thinking…").format(seat=seat_name(turn))
    head = _("Round {number} of {rounds}").format(number=view.round,
                                                   rounds=view.rounds)
    msg = ""
    if message:
        cls = "ld-msg" if message_kind == "msg" else "ld-info"
        msg = f" — <span class='{cls}'>{html.escape(message)}</span>"
    return f"<b>{html.escape(head)}</b> · {html.escape(state)}{msg}"


def cover_html(seat: int, lang: str) -> str:
    """The hot-seat cover over the board: pass the screen to ``seat``."""
    _ = translator(lang)
    return ("<h3>" + html.escape(
        _("Pass the screen to player {seat}").format(seat=seat_name(seat))) + "</h3><p>" +
        html.escape(_("The other players look away now.")) + "</p>")


def _seat_who(seat: int, humans: Collection[int], bots: Mapping[int, Any], lang: str) -> str:
    _ = translator(lang)
    if seat in humans:
        return _("you") if len(humans) == 1 else _("human")
    bot = bots.get(seat)
    level = type(bot).__name__.replace("Bot", "").lower() if bot else ""
    return _(SEAT_KINDS.get(level, BOT))


def scores_html(view: Snapshot, lang: str, *, humans: Collection[int],
                bots: Mapping[int, Any], scores: Sequence[int] | None = None,
                flash: tuple[Sequence[int], Sequence[int]] | None = None) -> str:
    """The scores table: tiles in hand, this round and the match, as far as they are shown.

    ``scores`` are the match totals to print (by default ``view.scores_shown``; the
    dashboard passes in-between values while it counts up); ``flash`` = (old, new) marks the
    cells that changed."""
    _ = translator(lang)
    if scores is None:
        scores = view.scores_shown
    rows = []
    for seat in range(view.players):
        who = _seat_who(seat, humans, bots, lang)
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
    pile = _("Pile: {count} tiles").format(count=view.pile)
    heads = "".join(f"<th>{html.escape(h)}</th>"
                    for h in (_("Player"), _("Tiles"), _("Round"), _("Match")))
    return (
        f"<table class='ld-score-table'><thead><tr>{heads}</tr></thead>"
        f"<tbody>{''.join(rows)}</tbody></table>"
        f"<div class='ld-legend'>{html.escape(pile)}</div>{hidden}")


def mastery_html(view: Snapshot, lang: str) -> str:
    """One pair of bars per skill shown (the lesson's targets, and any skill asked): mastery
    and first-try accuracy, for the student whose question or turn it is."""
    _ = translator(lang)
    rows = []
    for st in view.skills:
        m = int(round(100 * st.p_known))
        acc = st.accuracy
        a = 0 if acc is None else int(round(100 * acc))
        a_text = "–" if acc is None else f"{a}%"
        star = " ★" if st.mastered else ""
        rows.append(
            f"<div class='ld-bar-row'><span>{html.escape(st.name)}{star}</span>"
            f"<div><div class='ld-bar m' title='{m}%'><span style='width:{m}%'></span></div>"
            f"<div class='ld-bar a' title='{a_text}'><span style='width:{a}%'></span></div>"
            f"</div><span>{m}%</span></div>")
    legend = _("green: mastery (chance you know it) · blue: right on the first try")
    title = _("Skills of {student}").format(student=view.student)
    return (f"<b>{html.escape(title)}</b><div class='ld-bars'>{''.join(rows)}</div>"
            f"<div class='ld-legend'>{html.escape(legend)}</div>")


def log_html(lines: Iterable[str], lang: str) -> str:
    """The "what happened" log: the last six lines (hidden points are already left out)."""
    _ = translator(lang)
    items = "".join(f"<li>{html.escape(line)}</li>" for line in list(lines)[-6:])
    title = _("What happened")
    return (f"<b>{html.escape(title)}</b>"
            f"<ul style='margin:4px 0;padding-left:18px'>{items}</ul>")


def situation_html(question: QuestionView, lang: str) -> str:
    """What the student may see before answering: the tile played and where, the line with
    both ends marked, the tiles of the hands to count. Never the working."""
    _ = translator(lang)
    sit = question.situation
    parts = []
    if sit.line:
        tiles = " ".join(f"[{t}]" for t in sit.line)
        parts.append(_("Line: ◀ {tiles} ▶ (both ends are open)").format(tiles=tiles))
    if sit.played and sit.played_end:
        where = _("left end") if sit.played_end == "L" else _("right end")
        parts.append(_("{tile} was placed at the {end}.").format(tile=sit.played, end=where))
    for seat, hand in sit.hands:
        parts.append(_("Hand of {seat}: {tiles}").format(
            seat=seat_name(seat), tiles=" ".join(f"[{t}]" for t in hand) or "—"))
    if sit.drill:
        parts.insert(0, _("Practice position (not from your game):"))
    return "".join(f"<div class='ld-situation'>{html.escape(p)}</div>" for p in parts)


def question_html(question: QuestionView, lang: str) -> str:
    """The tutor's question: the prompt, the situation, the scaffold if the lesson shows it,
    and how many more questions follow. No formula, no other-end total, no answer."""
    _ = translator(lang)
    more = ""
    if question.queued:
        more = ("<div class='ld-legend'>" + html.escape(
            _("{count} more question(s) after this one.").format(count=question.queued)) +
            "</div>")
    scaffold = f"$${question.scaffold}$$" if question.scaffold else ""
    return (f"<b>{html.escape(question.prompt)}</b>{situation_html(question, lang)}"
            f"{scaffold}{more}")


def feedback_html(fb: Any) -> str:
    """The answer's feedback (a :class:`tutor.asking.Feedback`): right, wrong (with the
    hint) or shown."""
    msg = html.escape(fb.message)
    if fb.kind == "correct":
        body = f"<span class='ld-ok'>✔ {msg}</span>"
    elif fb.kind == "wrong":
        body = f"<span class='ld-bad'>✘ {msg}</span>"
        if fb.hint:
            body += "<br><span class='ld-warn'>" + html.escape(fb.hint.text) + "</span>"
            if fb.hint.latex and not fb.hint.reveals:
                body += f" $${fb.hint.latex}$$"
    else:
        body = f"<span class='ld-warn'>{msg}</span>"
    return body


def answered_html(fb: Any, body: str) -> str:
    """The card left under the board once a question is done: prompt, feedback ``body``,
    the answer in words and the worked solution. It stays until the next question is done."""
    q = fb.question
    answer = ""
    if fb.expected is not None and fb.kind != "revealed":  # a reveal's message says it
        text = translator(q.lang)(ANSWER).format(answer=format_number(fb.expected, q.lang))
        answer = f"<br><span class='ld-answer-value'>{html.escape(text)}</span>"
    worked = fb.worked
    shown = f" $${worked}$$" if worked and worked != str(fb.expected) else ""
    return "<div class='ld-card'>" + html.escape(q.prompt) + "<br>" + body + answer + shown + \
        "</div>"


def round_summary_html(result: Any, events: Iterable[Any], players: int, lang: str, *,
                       pending: bool) -> str:
    """How the round ended (``result``: a round result or None) and, unless a question is
    ``pending``, who gained what from the round's ``events`` (bonuses, power plays)."""
    _ = translator(lang)
    events = list(events)
    lines = []
    end = result
    if end is not None:
        if end.reason == "domino":
            kind = _("Domino!")
            if end.capicua:
                kind = _("Domino with capicúa ({kind})!").format(kind=end.capicua)
            what = _("Player {seat} placed their last tile.").format(
                seat=seat_name(end.winner or 0))
        else:
            kind = _("Tranque!")
            what = (_("Nobody can play. Player {seat} has the lowest hand.").format(
                seat=seat_name(end.winner)) if end.winner is not None
                else _("Nobody can play, and the lowest hand is shared: nobody collects."))
        lines.append(f"<h3 style='margin:2px 0'>{html.escape(kind)}</h3>"
                     f"<div>{html.escape(what)}</div>")
        if not pending:  # the totals are what a round-end question asks to add up
            totals = ", ".join(f"{seat_name(i)}: {v}" for i, v in enumerate(end.hand_totals))
            lines.append("<div>" + html.escape(_("Tiles left in each hand: {totals}").format(
                totals=totals)) + "</div>")
    if pending:
        lines.append("<div class='ld-hidden-pts'>" + html.escape(
            _("Answer the question to see who gained what.")) + "</div>")
    else:
        why = []
        for e in events:
            if isinstance(e, Bonus):
                why.append(_("Player {seat}: +{points} for {why}").format(
                    seat=seat_name(e.seat), points=e.points, why=_(BONUS_WHY[e.kind])))
        power_g = [0] * players
        power_l = [0] * players
        for e in events:
            if isinstance(e, PowerEffect):
                power_g[e.seat] += e.gain
                power_l[e.target] += e.loss
        for seat in range(players):
            if power_g[seat] or power_l[seat]:
                why.append(_("Player {seat}: +{gain} / −{loss} from power plays").format(
                    seat=seat_name(seat), gain=power_g[seat], loss=power_l[seat]))
        if why:
            lines.append("<ul style='margin:4px 0'>" + "".join(
                f"<li>{html.escape(w)}</li>" for w in why) + "</ul>")
    return "".join(lines)


def match_html(match: Any, view: Snapshot, lang: str, *, pending: bool) -> str:
    """The match so far, round by round; the current round shows ``?`` while a question
    is ``pending``; the winner once the match is over."""
    _ = translator(lang)
    m = match
    round_word, total_word, match_word = _("Round"), _("Total"), _("Match")
    head = "".join(f"<th>{seat_name(i)}</th>" for i in range(m.players))
    body = []
    for r in m.rounds:
        hidden = pending and r is m.current
        cells = "".join(
            f"<td>{'?' if hidden else format_number(r.gains[i] - r.losses[i], lang)}</td>"
            for i in range(m.players))
        body.append(f"<tr><td>{html.escape(round_word)} {r.number}</td>{cells}</tr>")
    total = "".join(f"<td><b>{format_number(v, lang)}</b></td>"
                    for v in view.scores_shown)
    body.append(f"<tr><td><b>{html.escape(total_word)}</b></td>{total}</tr>")
    result = ""
    if view.match_over and not pending and view.match_winners:
        result = "<div class='ld-ok'>★ " + html.escape(_("Match winner: {winners}").format(
            winners=", ".join(seat_name(w) for w in view.match_winners))) + "</div>"
    return (f"<table class='ld-score-table'><thead><tr><th>{html.escape(match_word)}</th>"
            f"{head}</tr></thead><tbody>{''.join(body)}</tbody></table>{result}")


def _b64(text: str) -> str:
    return base64.b64encode(text.encode("utf-8")).decode("ascii")


def sheet_links_html(table: str, csv: str, round_number: int, lang: str) -> str:
    """Download links for the score sheet (``table`` its HTML, ``csv`` its CSV text)."""
    _ = translator(lang)
    page = ("<!DOCTYPE html><meta charset='utf-8'><title>Leonard</title>" + table)
    name = f"leonard-round-{round_number}"
    csv_word, html_word = _("Download CSV"), _("Download HTML")
    return (
        f"<a class='ld-download' download='{name}.csv' "
        f"href='data:text/csv;charset=utf-8;base64,{_b64(csv)}'>⬇ "
        f"{html.escape(csv_word)}</a>"
        f"<a class='ld-download' download='{name}.html' "
        f"href='data:text/html;charset=utf-8;base64,{_b64(page)}'>⬇ "
        f"{html.escape(html_word)}</a>")


def progress_html(store: Any, student: str, lang: str) -> str:
    """The student's attempts as a CSV to download: on Binder the progress file goes
    away with the server, so this is how the work reaches the teacher
    (``python -m tutor import FILE``). ``store`` None: nothing is being saved."""
    import tempfile
    from pathlib import Path

    _ = translator(lang)
    if store is None:
        return html.escape(_("Progress is not being saved in this game."))
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "progress.csv"
        count = store.export_csv(path, student=student)
        data = base64.b64encode(path.read_bytes()).decode("ascii")
    name = f"leonard-progress-{student}.csv"
    saved = _("{count} answers saved for {student}.").format(count=count, student=student)
    word = _("Download my progress (CSV)")
    give = _("Give this file to your teacher.")
    return (
        f"<div>{html.escape(saved)}</div>"
        f"<a class='ld-download ld-progress-download' download='{html.escape(name)}' "
        f"href='data:text/csv;charset=utf-8;base64,{data}'>⬇ {html.escape(word)}</a>"
        f"<div class='ld-legend'>{html.escape(give)}</div>")
