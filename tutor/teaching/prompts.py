"""The words of a question: each step's prompt in the source language (marked for
translation), and the prompt a question's numbers (:class:`~tutor.teaching.questions.Context`)
give it in a student's language, from the point of view of the seat it calls "you".

The questions themselves (what is asked, the engine's answer) are
:mod:`tutor.teaching.questions`'.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tutor.i18n import N_, translator

if TYPE_CHECKING:
    from tutor.teaching.questions import Context

__all__ = ["COUNTS", "INTROS", "PROMPTS", "SUPPOSED_STEPS", "prompt", "seat_name"]


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
says the numbers are supposed (:attr:`~tutor.teaching.questions.Context.supposed`)."""


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
