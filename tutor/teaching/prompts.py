"""The words of a question: each step's prompt in the source language (marked for
translation), and the prompt a question's numbers (:class:`Context`) give it in a student's
language, from the point of view of the seat it calls "you". The numbers' type is here, below
the questions that fill it in, so that the two modules do not import each other.

The questions themselves (what is asked, the engine's answer) are
:mod:`tutor.teaching.questions`'.
"""

from __future__ import annotations

from dataclasses import dataclass

from tutor.i18n import N_, translator

__all__ = ["COUNTS", "INTROS", "PROMPTS", "SUPPOSED_STEPS", "Context", "prompt", "seat_name"]


@dataclass(frozen=True)
class Context:
    """The numbers behind a question, all read from the engine's events, line and scores."""

    rule: str
    """The §1.6 row (``x/n`` … ``power-vs-power``, ``neutralized``), ``collect-domino`` /
    ``collect-tranque``, ``score`` or ``round``."""
    seat: int
    """Who played (round end: who collects; a score: whose play took the points)."""
    target: int
    """Who loses (the right-hand player of ``seat``); for a score, whose score it is."""
    tile: str = ""
    own_rule: str = ""
    """The played tile's own §1.6 row (differs from ``rule`` for power-vs-power)."""
    n: int = 0
    t: int | None = None
    t_tile: str = ""
    t_halves: tuple[int, int] | None = None
    """The values of the T tile's halves (a symbol half counts its D-1 value)."""
    t_symbols: int = 0
    """How many halves of the T tile are symbols (for the D-1 "symbol value" mistake)."""
    symbol_value: int = 0
    near_tile: str = ""
    """The tile next to the played one, at the end where it went (before the play)."""
    near_total: int | None = None
    gain: int = 0
    loss: int = 0
    hands: tuple[int, ...] = ()
    """Round end: the hand totals the winner collects, in seat order."""
    pips: tuple[int, ...] = ()
    """Round end with one hand to count: the values of its tiles' halves, in order."""
    winner_hand: int = 0
    counted: str = ""
    """Round end: whose hands are counted: ``others``, ``pair``, ``all`` or ``block`` (the
    traditional block's differences)."""
    count: int = 0
    """Round end: the points of the hands, before rounding (a ``tens`` question)."""
    before: int = 0
    """A score question: the score before the loss (or the round's gains)."""
    taken: int = 0
    """A score question: the points lost (or the round's losses)."""
    supposed: bool = False
    """A practice item's numbers that neither the game nor the practice position on the
    screen shows (a round's gains, the points of hands not shown): the prompt says they are
    supposed ("Practice: suppose that …")."""


PROMPTS: dict[tuple[str, str], str] = {
    ("T", "any"): N_("What is T, the total of the tile at the other end of the line?"),
    ("gain", "you"): N_("You played {tile}. How many points do you gain?"),
    ("gain", "other"): N_("Player {seat} played {tile}. How many points does player {seat} "
                          "gain?"),
    ("loss", "you-played"): N_("You played {tile}. How many points does player {target} lose?"),
    ("loss", "you"): N_("Player {seat} played {tile}. How many points did you just lose?"),
    ("loss", "other"): N_("Player {seat} played {tile}. How many points does player {target} "
                          "lose?"),
    ("neutral", "you"): N_("You opened the line with {tile}. How many points does it score?"),
    ("neutral", "other"): N_("Player {seat} opened the line with {tile}. How many points does "
                             "it score?"),
    ("score", "you"): N_("Your score was {before}. You lost {loss}. What is your score now?"),
    ("score", "other"): N_("Player {target} had {before} points and lost {loss}. What is "
                           "player {target}'s score now?"),
    ("total", "you"): N_("This round you gained {gains} points and lost {losses}. What is your "
                         "score for the round?"),
    ("total", "other"): N_("This round player {seat} gained {gains} points and lost {losses}. "
                           "What is player {seat}'s score for the round?"),
    ("tens", "any"): N_("The hands hold {count} points. Counted in tens, half up, how many "
                        "points is that?"),
    # A practice item between rounds whose numbers are not on the screen says they are
    # supposed (issue 43: "you won 15 and lost 16" matched nothing the student could see).
    ("total", "supposed"): N_("Practice: suppose that this round you gained {gains} points "
                              "and lost {losses}. What would your score for the round be?"),
    ("tens", "supposed"): N_("Practice: suppose that the hands hold {count} points. Counted "
                             "in tens, half up, how many points is that?"),
}
SUPPOSED_STEPS = frozenset(step for step, who in PROMPTS if who == "supposed")
"""The steps whose practice items carry numbers of their own, not the screen's: their prompt
says the numbers are supposed (:attr:`Context.supposed`)."""


# A round-end question is an opening (how the round ended) and what to count.
INTROS: dict[tuple[str, str], str] = {
    ("domino", "you"): N_("Domino! You placed your last tile."),
    ("domino", "other"): N_("Player {seat} placed their last tile."),
    ("tranque", "you"): N_("Tranque! Nobody can play and your hand is the lowest."),
    ("tranque", "other"): N_("Tranque! Nobody can play and player {seat} has the lowest hand."),
}
COUNTS: dict[tuple[str, str], str] = {
    ("others", "you"): N_("How many points do you collect from the other hands?"),
    ("others", "other"): N_("How many points does player {seat} collect from the other "
                            "hands?"),
    ("pair", "any"): N_("How many points do the other pair's hands hold?"),
    ("all", "any"): N_("How many points do all the hands hold together?"),
    ("block", "any"): N_("In the traditional game the lowest hand collects how much each other "
                         "hand holds more than it. How many points is that?"),
}


def seat_name(seat: int) -> str:
    """The score-sheet letter of a seat (docs/rules.md §2): 0 → A, 1 → B …"""
    return chr(ord("A") + seat)


def _who(step: str, ctx: Context, you: int | None) -> str:
    if step == "T":
        return "any"
    if step in ("loss", "score"):
        if you is not None and you == ctx.target:
            return "you"
        if step == "loss" and you is not None and you == ctx.seat:
            return "you-played"
        return "other"
    return "you" if you is not None and you == ctx.seat else "other"


def prompt(step: str, ctx: Context, you: int | None, lang: str) -> str:
    """The prompt of a ``step`` question about ``ctx`` in ``lang``, addressed to seat ``you``
    (None: third person only)."""
    _ = translator(lang)
    if step == "collect":
        who = "you" if you is not None and you == ctx.seat else "other"
        reason = "tranque" if ctx.rule.endswith("tranque") or ctx.counted == "block" \
            else "domino"
        count = COUNTS.get((ctx.counted, who)) or COUNTS[(ctx.counted, "any")]
        return (_(INTROS[(reason, who)]) + " " + _(count)).format(seat=seat_name(ctx.seat))
    if step == "tens":
        return _(PROMPTS[("tens", "supposed" if ctx.supposed else "any")]).format(
            count=ctx.count)
    key = "neutral" if ctx.rule == "neutralized" else step
    template = PROMPTS[(key, "supposed" if ctx.supposed and step in SUPPOSED_STEPS
                        else _who(step, ctx, you))]
    return _(template).format(tile=ctx.tile, seat=seat_name(ctx.seat),
                              target=seat_name(ctx.target), before=ctx.before,
                              loss=ctx.taken, gains=ctx.before, losses=ctx.taken)
