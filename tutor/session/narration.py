"""Narration: one line of what happened for each engine event, for the log and the terminal;
the bots' power plays worked out ("B gains 5 × (2 + 6) = 40.") as examples to learn from."""

from __future__ import annotations

from functools import lru_cache

from engine.events import (
    Bonus,
    Drew,
    Event,
    GameEvent,
    MatchEnded,
    Passed,
    Placed,
    PowerEffect,
    RoundEnded,
    RoundStarted,
)
from tutor.games import BONUS_WORDS, END_WORDS, EVENT_WORDS
from tutor.i18n import N_, translator
from tutor.teaching.questions import plain_math, power_questions, seat_name

__all__ = ["describe_event", "worked_play"]

_BONUS = {
    "paso-a-la-salida": N_("Paso a la salida: player {seat} gains {points}."),
    "paso-corrido": N_("Paso corrido: player {seat} gains {points}."),
    "capicua": N_("Capicúa: player {seat} gains {points}."),
    "domino": N_("Domino: player {seat} collects {points}."),
    "tranque": N_("Tranque: player {seat} collects {points}."),
}
"""The lines of the bonuses every game pays; a game's own are its entry's in tutor.games."""


def worked_play(event: PowerEffect, lang: str, symbol_value: int = 0) -> str:
    """A power play's points with its working, for a player to learn from:
    ``Player B gains 5 × (2 + 6) = 40.`` (the numbers are the engine's)."""
    _ = translator(lang)
    seat, target = seat_name(event.seat), seat_name(event.target)
    if event.rule == "power-vs-power":
        return _(N_("Both ends are power tiles: player {seat} gains {gain} and player {target} "
                    "loses {loss}.")).format(seat=seat, target=target, gain=event.gain,
                                             loss=event.loss)
    (q,) = power_questions(event, lang=lang, perspective="observer",
                           symbol_value=symbol_value)
    working = plain_math(q.stages[0]) + " = " if q.stages else ""
    if event.gain and event.loss:
        return _(N_("Player {seat} gains {working}{gain} and player {target} loses as "
                    "much.")).format(seat=seat, target=target, working=working,
                                     gain=event.gain)
    if event.loss:
        return _(N_("Player {target} loses {working}{loss}.")).format(
            target=target, working=working, loss=event.loss)
    return _(N_("Player {seat} gains {working}{gain}.")).format(seat=seat, working=working,
                                                                gain=event.gain)


def describe_event(event: Event, lang: str, *, hidden: bool = False, worked: bool = False,
                   symbol_value: int = 0) -> str:
    """One line of what happened. ``hidden``: the points are the answer of a pending question
    and are left out; ``worked``: a power play is shown with its working.

    Events are values (frozen, with tuple fields), so a line is told once and remembered: the
    board's log tells its last events again at every redraw, and a power play's working
    (sympy) cost most of a redraw. The key holds the event's repr too: a tile equals its
    turned self, but is told as written."""
    return _describe(event, repr(event), lang, hidden, worked, symbol_value)


@lru_cache(maxsize=2048)
def _describe(event: Event, _written: str, lang: str, hidden: bool, worked: bool,
              symbol_value: int) -> str:
    _ = translator(lang)
    if isinstance(event, RoundStarted):
        return _(N_("Round {number} starts.")).format(number=event.number)
    if isinstance(event, Placed):
        seat = seat_name(event.seat)
        if event.end is None:
            return _(N_("Player {seat} opens with {tile}.")).format(seat=seat, tile=event.tile)
        if event.end == "L":
            msg = N_("Player {seat} places {tile} at the left end.")
        elif event.end == "R":
            msg = N_("Player {seat} places {tile} at the right end.")
        else:
            msg = N_("Player {seat} places {tile} on arm {end}.")
        return _(msg).format(seat=seat, tile=event.tile, end=event.end)
    if isinstance(event, Drew):
        return _(N_("Player {seat} draws a tile.")).format(seat=seat_name(event.seat))
    if isinstance(event, GameEvent):  # a game's own: its words are its entry's
        words = EVENT_WORDS.get(event.key)
        if words is None:
            return str(event)
        seats = {name: seat_name(seat) for name, seat in event.seats().items()}
        return _(words).format(**seats, **event.numbers())
    if isinstance(event, Passed):
        return _(N_("Player {seat} passes.")).format(seat=seat_name(event.seat))
    if isinstance(event, PowerEffect):
        if event.neutralized:
            return _(N_("{tile} opens the line: no power effect.")).format(tile=event.tile)
        if hidden:
            return _(N_("Power play! The points stay hidden until the question is answered."))
        if worked:
            return worked_play(event, lang, symbol_value)
        parts = []
        if event.gain:
            parts.append(_(N_("Player {seat} gains {points}.")).format(
                seat=seat_name(event.seat), points=event.gain))
        if event.loss:
            parts.append(_(N_("Player {seat} loses {points}.")).format(
                seat=seat_name(event.target), points=event.loss))
        return " ".join(parts)
    if isinstance(event, Bonus):
        if hidden:
            return _(N_("The round is over! The points stay hidden until the question is "
                        "answered."))
        said = _BONUS[event.kind] if event.kind in _BONUS else BONUS_WORDS[event.kind][0]
        return _(said).format(seat=seat_name(event.seat), points=event.points)
    if isinstance(event, RoundEnded):
        if event.reason in END_WORDS:  # a game's own ending: its entry's words
            return _(END_WORDS[event.reason][2])
        if event.winner is None:
            return _(N_("The round is over, with no winner."))
        return _(N_("The round is over. Player {seat} wins it.")).format(
            seat=seat_name(event.winner))
    if isinstance(event, MatchEnded):
        winners = ", ".join(seat_name(s) for s in event.winners)
        return _(N_("The match is over. Winner: {winners}.")).format(winners=winners)
    return str(event)
