"""The three-rung hint ladder of a question: the rule in words, the worked numbers, the answer."""

from __future__ import annotations

from dataclasses import dataclass

from tutor.i18n import N_, format_number, normalize_lang, translator
from tutor.questions import Question, plain_math

__all__ = ["LADDER_SIZE", "Hint", "hint_ladder"]

LADDER_SIZE = 3

_WHERE_T = N_("T is the total of the tile at the other end ({t_tile}).")

# Rung 1 by the question's rule (and step for T and the round end).
RULE_WORDS: dict[str, str] = {
    "x/n": N_("The {tile} tile multiplies: its player gains {n} x T."),
    "+/n": N_("The {tile} tile adds: its player gains {n} + T."),
    "-/n": N_("The {tile} tile takes points away: the next player (on the right) loses {n} + T."),
    "x/x": N_("The x/x tile squares: its player gains T x T."),
    "+/+": N_("The +/+ tile doubles: its player gains 2 x T."),
    "-/-": N_("The -/- tile takes double: the next player (on the right) loses 2 x T."),
    "+/-": N_("The +/- tile gives T to its player and takes T from the next player "
              "(on the right)."),
    "x/+": N_("The x/+ tile multiplies T by 1 and adds T again: its player gains 1 x T + T."),
    "x/-": N_("The x/- tile multiplies T by 1: its player gains 1 x T and the next player "
              "(on the right) loses 1 x T."),
    "power-vs-power": N_("The tile at the other end ({t_tile}) is a power tile too. When both "
                         "ends are power tiles, the player gains 30 and the next player (on the "
                         "right) loses 30, whatever the tile."),
    "T": N_("Add the two halves of the tile at the other end of the line ({t_tile}). A symbol "
            "half (+, -, x) counts 0."),
    "collect-domino": N_("The player who goes out collects the points left in every other hand: "
                         "add up the totals of those hands."),
    "collect-tranque": N_("In a tranque the lowest hand wins and collects the points of all the "
                          "other hands: add up their totals."),
}
WORK_IT_OUT = N_("Work it out: {steps} = ?")
FIXED = N_("There is nothing to compute: with power tiles at both ends the amount is fixed.")
ANSWER = N_("The answer is {answer}.")


@dataclass(frozen=True)
class Hint:
    """One rung: ``text`` for any screen (plain math), ``latex`` the math alone (may be empty)."""

    level: int
    text: str
    latex: str = ""
    reveals: bool = False
    """True for the bottom-out rung, which gives the answer."""

    def __str__(self) -> str:
        return self.text


def hint_ladder(question: Question, lang: str | None = None) -> tuple[Hint, Hint, Hint]:
    """The three hints of ``question`` in ``lang`` (default: the question's language).

    Rung 2 shows the computation with the numbers filled in and stops before the result.
    """
    lang = normalize_lang(lang or question.lang)
    _ = translator(lang)
    ctx = question.context
    key = "T" if question.step == "T" else ctx.rule
    fill = {"tile": ctx.tile, "n": ctx.n, "t_tile": ctx.t_tile}
    words = _(RULE_WORDS[key]).format(**fill)
    if question.step in ("gain", "loss") and ctx.rule != "power-vs-power":
        words += " " + _(_WHERE_T).format(**fill)
    first = Hint(1, words)
    if question.stages:
        latex = " = ".join(question.stages) + " = ?"
        steps = " = ".join(plain_math(s) for s in question.stages)
        second = Hint(2, _(WORK_IT_OUT).format(steps=steps), latex)
    else:
        second = Hint(2, _(FIXED))
    answer = format_number(question.expected, lang)
    third = Hint(3, _(ANSWER).format(answer=answer), str(question.expected), reveals=True)
    return first, second, third
