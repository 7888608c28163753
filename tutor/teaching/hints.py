"""The hint ladder of a question: the rule in words, where the numbers are, the computation
with the numbers filled in, and last the answer (docs/rules.md §4: the formula, T's tile and value
and the hand totals reach the student only through here, or after the question is over)."""

from __future__ import annotations

from dataclasses import dataclass

from tutor.i18n import N_, format_number, normalize_lang, translator
from tutor.teaching.questions import Question, plain_math

__all__ = ["ANSWER", "Hint", "hint_ladder"]

# Rung 1 by the question's rule (and step for T, a score and the round end).
RULE_WORDS: dict[str, str] = {
    "x/n": N_("The {tile} tile multiplies: its player gains {n} × T, where T is the total of "
              "the tile at the other end of the line."),
    "+/n": N_("The {tile} tile adds: its player gains {n} + T, where T is the total of the "
              "tile at the other end of the line."),
    "-/n": N_("The {tile} tile takes points away: the next player (on the right) loses {n} + T, "
              "where T is the total of the tile at the other end of the line."),
    "x/x": N_("The x/x tile squares: its player gains T × T, where T is the total of the tile "
              "at the other end of the line."),
    "+/+": N_("The +/+ tile doubles: its player gains 2 × T, where T is the total of the tile "
              "at the other end of the line."),
    "-/-": N_("The -/- tile takes double: the next player (on the right) loses 2 × T, where T "
              "is the total of the tile at the other end of the line."),
    "+/-": N_("The +/- tile gives T to its player and takes T from the next player (on the "
              "right), where T is the total of the tile at the other end of the line."),
    "x/+": N_("The x/+ tile multiplies T by 1 and adds T again: its player gains 1 × T + T, "
              "where T is the total of the tile at the other end of the line."),
    "x/-": N_("The x/- tile multiplies T by 1: its player gains 1 × T and the next player (on "
              "the right) loses 1 × T, where T is the total of the tile at the other end of the "
              "line."),
    "power-vs-power": N_("Look at the tile at the other end of the line. When it is a power "
                         "tile too, the rule is different: the player gains 30 and the next "
                         "player (on the right) loses 30, whatever the tile."),
    "neutralized": N_("A power tile that opens the line has no tile at the other end, so it "
                      "has no effect."),
    "T": N_("Find the tile at the other end of the line, away from the tile just played, and "
            "add its two halves. A symbol half (+, -, x) counts {symbol}."),
    "collect-domino": N_("The player who goes out collects the points left in every other hand: "
                         "add up the pips of those tiles."),
    "collect-tranque": N_("In a tranque the lowest hand wins and collects the points of all the "
                          "other hands: add up the pips of their tiles."),
    "score": N_("Points lost are taken away from the score. If more is taken away than there "
                "was, the score goes below zero."),
    "total": N_("The score for the round is what you gained minus what you lost. It is below "
                "zero when you lost more than you gained."),
    "collect-block": N_("In a traditional block the lowest hand collects, from each other "
                        "hand, how much more it holds: subtract the lowest hand from each, then "
                        "add the differences."),
    "collect-pair": N_("In a pair game the winning pair collects the points of the other "
                       "pair's two hands: add up the pips of their tiles."),
    "collect-all": N_("Here the winner's pair collects the points of all the hands: add up the "
                      "pips of every tile left."),
    "tens": N_("Count in tens, half up: 1 to 4 points count 0, 5 to 14 count 1, 15 to 24 count "
               "2, and so on."),
}
WHERE_T = N_("The tile at the other end of the line is {t_tile}: T = {halves}.")
WHERE_HANDS = N_("The points in the other hands: {totals}.")
WORK_IT_OUT = N_("Work it out: {steps} = ?")
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


def hint_ladder(question: Question, lang: str | None = None) -> tuple[Hint, ...]:
    """The hints of ``question`` in ``lang`` (default: the question's language), from the rule
    in words to the answer; the rung before the answer shows the computation with the numbers
    filled in and stops before the result."""
    lang = normalize_lang(lang or question.lang)
    _ = translator(lang)
    ctx = question.context
    if question.step == "T":
        key = "T"
    elif question.step in ("score", "total", "tens"):
        key = question.step
    elif question.step == "collect" and ctx.counted in ("block", "pair", "all"):
        key = f"collect-{ctx.counted}"
    else:
        key = ctx.rule
    words = _(RULE_WORDS[key]).format(tile=ctx.tile, n=ctx.n, symbol=ctx.symbol_value)
    rungs: list[tuple[str, str]] = [(words, "")]
    if ctx.t_halves is not None and question.step in ("T", "gain", "loss") \
            and ctx.rule not in ("power-vs-power", "neutralized"):
        halves = " + ".join(str(h) for h in ctx.t_halves)
        rungs.append((_(WHERE_T).format(t_tile=ctx.t_tile, halves=halves), ""))
    if question.step == "collect" and ctx.hands:
        totals = ", ".join(str(h) for h in ctx.hands)
        rungs.append((_(WHERE_HANDS).format(totals=totals), ""))
    if question.stages and (question.step not in ("T",) or len(rungs) < 2):
        steps = " = ".join(plain_math(s) for s in question.stages)
        rungs.append((_(WORK_IT_OUT).format(steps=steps),
                      " = ".join(question.stages) + " = ?"))
    answer = format_number(question.expected, lang)
    out = [Hint(i + 1, text, latex) for i, (text, latex) in enumerate(rungs)]
    out.append(Hint(len(out) + 1, _(ANSWER).format(answer=answer), str(question.expected),
                    reveals=True))
    return tuple(out)
