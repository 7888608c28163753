"""What a question's first answer is evidence of (docs/rules.md §4 "Evidence"), in one function
used both live (:class:`tutor.teaching.asking.Asker`) and when mastery is replayed from stored
attempts
(:func:`tutor.commands.teacher.rebuild_mastery`) or fitted (``python -m tutor fit-bkt``).

:func:`judge` decides, from the facts of one first answer, which skill it is about and
whether it is *proof* (an unscaffolded, unhinted right answer: BKT observes "right"),
*practice* (a scaffolded right answer: BKT's learning step only, the streak stays),
*against* (a wrong answer, a give-up, or a hint before answering: BKT observes "wrong", the
streak resets) or *none* (nothing to learn from).

Two facts make an answer *none* whatever it is (issue 51): the deal was played before by the
student (a deal opened a second time on a class server is practice: ``replayed``), and a
right first answer whose numbers "Show me" gave the student earlier in the lesson
(``shown``: the same play, step and answer, :func:`question_numbers`), which may be memory
rather than computation.

The stored attempt keeps those facts without a new column: the step name carries tags in
brackets (:func:`step_name`: ``gain[blanks]``, ``gain[T]``, ``gain[T,trivial]``) and the
``kc`` column the skill the answer was judged about (the blamed skill for a wrong answer).
Judging the replayed facts again gives the same evidence (the rule is idempotent on its
own output), so a report rebuilt from a progress file or an export equals live mastery.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Literal

from tutor.teaching.diagnosis import LIKELIHOOD, MISTAKE_CODES, mistake_skill

__all__ = ["REPLAYED", "SCAFFOLD_TAGS", "SHOWN", "TRIVIAL", "Evidence", "blame_of",
           "is_trivial", "judge", "parse_step", "parse_tells", "parse_values",
           "question_numbers", "step_flags", "step_name"]

Kind = Literal["proof", "practice", "against", "none"]
SCAFFOLD_TAGS = ("T", "blanks")
"""Scaffolds a question may show: ``T`` (T asked first, before the points), ``blanks``
(the formula with blanks)."""
TRIVIAL = "trivial"
"""Step tag of an item whose operation does nothing (×1, +0, T = 0)."""
OTHER_END = "other-end"
REPLAYED = "replayed"
"""Step tag of a question of a deal the student played before (on a class server): practice,
no evidence, right or wrong."""
SHOWN = "shown"
"""Step tag of a right first answer whose numbers "Show me" gave the student before in the
lesson (:func:`question_numbers`): no evidence."""


@dataclass(frozen=True)
class Evidence:
    """What one first answer says, and about which skill."""

    skill: str
    kind: Kind
    why: str
    """``proof``, ``scaffolded``, ``hinted``, ``wrong``, ``blamed``, ``repeat``,
    ``replayed`` (a deal played before) or ``shown`` (its answer was revealed before)."""
    correct: bool = False
    """The first answer was right (whatever it counts as)."""
    hints: int = 0
    scaffolded: bool = False
    misconception: bool = False
    """A wrong first answer that a catalogue mistake of ``skill`` itself explains (the
    diagnosis's mistake, :func:`tutor.teaching.diagnosis.mistake_skill` of it is ``skill``), or
    a mistake of the question's own computation (a times-table fact, a wrong factor, stopping
    at T: of no one skill, so of the question's): stronger evidence than a slip
    (:class:`tutor.teaching.mastery.Mastery`)."""
    mistake: str | None = None
    """The misconception's catalogue mistake (None when the answer is no misconception)."""
    tells: frozenset[str] | None = None
    """A right answer: the catalogue mistakes of ``skill`` its question told apart, which it is
    proof against (:func:`tutor.teaching.coverage.item_tells`). None: an attempt stored before
    issue 42, judged to rule out every mistake."""
    requires: frozenset[str] | None = None
    """The catalogue mistakes of ``skill`` the lesson can show, which mastery needs the row to
    rule out (:func:`tutor.teaching.coverage.coverage`). None: stored before issue 42, the row
    alone."""
    consistent: frozenset[str] | None = None
    """A wrong answer: the catalogue mistakes of ``skill`` that give its number there (what it
    may be evidence of): their proof so far no longer counts. None (a give-up, a hint before
    answering, an attempt stored before issue 42): it may be any of them."""
    typo: bool = False
    """A wrong answer one typing slip away from the right one
    (:func:`tutor.teaching.diagnosis.is_typo`): a misconception it shows may be a slip."""

    @property
    def observation(self) -> bool | None:
        """BKT's observation: True (right), False (wrong) or None (no observation)."""
        return {"proof": True, "against": False}.get(self.kind)


def judge(skill: str, correct: bool, *, scaffold: Iterable[str] = (), hints: int = 0,
          trivial: bool = False, blame: str | None = None, mistake: str | None = None,
          tells: Iterable[str] | None = None,
          requires: Iterable[str] | None = None,
          consistent: Iterable[str] | None = None, typo: bool = False,
          replayed: bool = False, shown: bool = False) -> Evidence:
    """The evidence of a question's first answer (docs/rules.md §4).

    ``skill``: the question's skill; ``correct``: the first answer was right (a give-up is
    not); ``scaffold``: the scaffolds shown (:data:`SCAFFOLD_TAGS`); ``hints``: hints taken
    before answering; ``trivial``: the item's operation does nothing (:func:`is_trivial`);
    ``blame``: another skill a uniquely named mistake puts the wrong answer on
    (:func:`blame_of`); ``mistake``: the catalogue mistake the diagnosis gave (named or
    likeliest), which makes a wrong answer a *misconception* when it is a mistake of the
    skill judged, or one of the question's own computation (:attr:`Evidence.misconception`);
    ``tells`` and ``requires``: for the skill a right answer is proof of (the question's, or
    ``other-end`` on a trivial item), the mistakes the question tells apart and those the
    lesson can show (:attr:`Evidence.tells`, :attr:`Evidence.requires`); ``consistent``: the
    catalogue mistakes that give a wrong answer's number (None: unknown), of which those of
    the skill judged are kept (:attr:`Evidence.consistent`); ``typo``: the wrong answer is one
    typing slip away from the right one (:func:`tutor.teaching.diagnosis.is_typo`), so the
    diagnosis named no mistake, but a mistake of the skill that gives it makes it a
    misconception all the same (the tutor cannot tell which it was: it does not say, and it
    does not let it pass). ``replayed``: the question is of a deal the student played before
    (:data:`REPLAYED`); ``shown``: its numbers' answer was revealed to the student before in
    the lesson (:data:`SHOWN`).

    - A deal played before is practice: no answer of it is evidence.
    - A right first answer whose answer "Show me" gave before is no evidence (memory, not
      computation); a wrong one is evidence against, as any.
    - A trivial item (×1, +0, T = 0) is no evidence for its operation: its answer is T (or
      the tile's own number when T = 0), so it is evidence for ``other-end`` — right or
      wrong, whatever the diagnosis — unless T was just asked in the same play (the same
      number asked twice counts once: no evidence).
    - A wrong first answer (or a give-up) is evidence against the question's skill, or
      against ``blame`` alone when a named mistake of another skill explains it.
    - A hint before the first answer counts as wrong, against the question's skill.
    - A scaffolded right first answer is practice; an unscaffolded, unhinted one is proof.

    >>> judge("multiply", True).kind, judge("multiply", True, scaffold=["blanks"]).kind
    ('proof', 'practice')
    >>> e = judge("multiply", False, blame="other-end"); e.skill, e.kind
    ('other-end', 'against')
    >>> judge("multiply", True, trivial=True).skill
    'other-end'
    >>> judge("multiply", True, replayed=True).kind, judge("multiply", True, shown=True).why
    ('none', 'shown')
    """
    scaffolds = frozenset(scaffold)
    scaffolded = bool(scaffolds)
    if replayed:
        return Evidence(OTHER_END if trivial else skill, "none", REPLAYED, correct, hints,
                        scaffolded)
    if shown and correct and not hints:
        return Evidence(OTHER_END if trivial else skill, "none", SHOWN, correct, hints,
                        scaffolded)
    told = None if tells is None else frozenset(tells)
    needs = None if requires is None else frozenset(requires)
    if trivial:
        own = OTHER_END
        if "T" in scaffolds and skill != OTHER_END:
            return Evidence(own, "none", "repeat", correct, hints, scaffolded)
        blame = None
    else:
        own = skill
    if not correct:
        about = blame if blame is not None and blame != own else own
        why = "blamed" if about != own else "wrong"
        own_computation = not trivial and about == skill
        fits = None if consistent is None or hints else frozenset(
            m for m in consistent if _misconception(m, about, own_computation))
        rule = mistake if _misconception(mistake, about, own_computation) else None
        if rule is None and typo and fits:
            rule = next(m for m in LIKELIHOOD if m in fits)
        return Evidence(about, "against", why, False, hints, scaffolded, rule is not None,
                        rule, consistent=fits, typo=typo)
    if hints:
        return Evidence(own, "against", "hinted", True, hints, scaffolded)
    if scaffolded:
        return Evidence(own, "practice", "scaffolded", True, hints, scaffolded,
                        tells=told, requires=needs)
    return Evidence(own, "proof", "proof", True, hints, scaffolded, tells=told, requires=needs)


def _misconception(mistake: str | None, skill: str, own_computation: bool) -> bool:
    """Whether catalogue mistake ``mistake`` is a misconception of ``skill``: a mistake of that
    skill, or (``own_computation``: the answer is judged about the question's own skill, not a
    trivial item's other end) a mistake of no one skill: a wrong times-table fact, a wrong
    factor, stopping at T are evidence against the question's own skill (issue 42 part 2)."""
    if not mistake:
        return False
    try:
        of = mistake_skill(mistake)
    except (KeyError, ValueError):
        return False
    return of == skill or (of is None and own_computation)


def blame_of(kind: str, rule_skill: str | None, skill: str) -> str | None:
    """The other skill a wrong answer counts against: only when the diagnosis names one
    mistake (``kind`` ``named``: no other mistake explains the answer, so the rest of the
    computation was right) and that mistake belongs to a skill other than the question's.
    A ``likely`` (ambiguous) diagnosis or a slip counts against the question's own skill."""
    if kind == "named" and rule_skill is not None and rule_skill != skill:
        return rule_skill
    return None


# Rows (docs/rules.md §1.6) whose points are n × T, n + T, T × T, 2 × T or 1 × T: with n = 1 (×),
# n = 0 (+), T = 0, or the x/- row's 1 × T, the answer is just T (or n).
_MULTIPLY_ONE = frozenset({"x/-"})
_BY_N = {"x/n": 1, "+/n": 0, "-/n": 0}
_ON_T = frozenset({"x/n", "+/n", "-/n", "x/x", "+/+", "-/-", "x/+", "x/-"})


def is_trivial(step: str, rule: str, n: int, t: int | None) -> bool:
    """Whether the points of a power play make its operation do nothing: ×1 (x/1, x/-), +0,
    or T = 0. The T step and the ``+/-`` row (whose points are T: ``other-end``) are never
    trivial; nor are questions that are not about a power play's points.

    >>> is_trivial("gain", "x/n", 1, 7), is_trivial("gain", "x/-", 3, 7)
    (True, True)
    >>> is_trivial("gain", "x/n", 5, 7), is_trivial("gain", "x/x", 6, 0)
    (False, True)
    """
    if step not in ("gain", "loss") or rule not in _ON_T or t is None:
        return False
    return t == 0 or rule in _MULTIPLY_ONE or _BY_N.get(rule) == n


TELLS_TAG = "out="
"""Step tag of the mistakes a question tells apart (their codes,
:data:`tutor.teaching.diagnosis.MISTAKE_CODES`, joined by ``.``)."""
REQUIRES_TAG = "need="
"""Step tag of the mistakes the lesson requires the row to rule out (the same codes)."""
VALUES_TAG = "alt="
"""Step tag of the wrong numbers each catalogue mistake gives on the question (``am14.tt40/50``:
a code, then its values joined by ``/``; mistakes joined by ``.``), so that the replay knows
which mistakes a stored wrong answer may be."""


def _codes(mistakes: Iterable[str]) -> str:
    return ".".join(sorted(MISTAKE_CODES[m] for m in mistakes))


def step_name(step: str, scaffold: Iterable[str] = (), trivial: bool = False,
              tells: Iterable[str] | None = None,
              requires: Iterable[str] | None = None,
              values: Mapping[str, Iterable[int]] | None = None,
              flags: Iterable[str] = ()) -> str:
    """The step name to store: the question's step with its scaffolds and ``trivial`` as
    tags (``gain``, ``gain[blanks]``, ``gain[T,trivial]``), and what a right answer to it
    rules out (``out=``) of what the lesson requires (``need=``), as mistake codes, and the
    wrong numbers of each mistake there (``alt=``), and ``flags`` (:data:`REPLAYED`,
    :data:`SHOWN`: no evidence); DataShop's Step Name is free text, and each question keeps
    one name for all its attempts.

    >>> step_name("gain", ["blanks", "T"], True)
    'gain[T,blanks,trivial]'
    >>> step_name("gain", (), False, ["forgot_to_double"], ["forgot_to_double",
    ...                                                    "squared_instead_of_doubled"])
    'gain[out=fd,need=fd.sd]'
    """
    tags = [t for t in SCAFFOLD_TAGS if t in set(scaffold)] + ([TRIVIAL] if trivial else [])
    tags += [f for f in (REPLAYED, SHOWN) if f in set(flags)]
    if tells is not None:
        tags.append(TELLS_TAG + _codes(tells))
    if requires is not None:
        tags.append(REQUIRES_TAG + _codes(requires))
    if values is not None:
        tags.append(VALUES_TAG + ".".join(sorted(
            MISTAKE_CODES[m] + "/".join(map(str, sorted(v))) for m, v in values.items() if v)))
    return f"{step}[{','.join(tags)}]" if tags else step


def parse_step(name: str) -> tuple[str, frozenset[str], bool]:
    """A stored step name's step, scaffolds and whether the item was trivial (older rows
    have no tags: no scaffold recorded, not trivial).

    >>> parse_step("gain[T,trivial]")
    ('gain', frozenset({'T'}), True)
    """
    if not name.endswith("]") or "[" not in name:
        return name, frozenset(), False
    step, _, rest = name[:-1].partition("[")
    tags = {t.strip() for t in rest.split(",")}
    return step, frozenset(t for t in SCAFFOLD_TAGS if t in tags), TRIVIAL in tags


def step_flags(name: str) -> frozenset[str]:
    """A stored step name's :data:`REPLAYED` and :data:`SHOWN` tags (those it carries).

    >>> sorted(step_flags("gain[blanks,replayed]")), sorted(step_flags("gain"))
    (['replayed'], [])
    """
    if not name.endswith("]") or "[" not in name:
        return frozenset()
    tags = {t.strip() for t in name[:-1].partition("[")[2].split(",")}
    return frozenset(f for f in (REPLAYED, SHOWN) if f in tags)


_TILE = re.compile(r"[^-/]+/[^/]+$|-/[^/]+$")


def question_numbers(problem: str, step: str, expected: int | None
                     ) -> tuple[str, str, int | None]:
    """What makes two questions "the same numbers" for :data:`SHOWN`: the play (the tile
    placed, read from the end of the problem id, whose start names the match, round and turn;
    a round's end: its last part), the step (its tags left out) and the answer. For a power
    play the tile gives the rule and its number, and the step and answer then give T: the
    same tile, step and answer is the same computation, whichever deal, turn or tab it comes
    in; another tile with the same answer (4 × 8 after 8 × 4 was shown) is not.

    >>> question_numbers("m1r1t3-4/x", "gain[blanks]", 32)
    ('4/x', 'gain', 32)
    >>> question_numbers("m2r1t7--/4", "loss", 8), question_numbers("m1r1t9-domino", "collect", 20)
    (('-/4', 'loss', 8), ('domino', 'collect', 20))
    """
    found = _TILE.search(problem)
    play = found.group(0) if found else problem.rpartition("-")[2]
    return play, parse_step(step)[0], expected


def parse_values(name: str) -> dict[str, frozenset[int]] | None:
    """A stored step name's wrong numbers of each mistake (:data:`VALUES_TAG`; None: the name
    does not say, an attempt stored before issue 42).

    >>> parse_values("gain[alt=am14.tt40/50]") == {
    ...     "added_instead_of_multiplied": {14}, "times_table_slip": {40, 50}}
    True
    """
    if not name.endswith("]") or "[" not in name:
        return None
    by_code = {c: m for m, c in MISTAKE_CODES.items()}
    for tag in name[:-1].partition("[")[2].split(","):
        if tag.strip().startswith(VALUES_TAG):
            out: dict[str, frozenset[int]] = {}
            for part in filter(None, tag.strip()[len(VALUES_TAG):].split(".")):
                code, numbers = part[:2], part[2:]
                try:
                    values = frozenset(int(v) for v in numbers.split("/"))
                except ValueError:
                    continue
                if code in by_code:
                    out[by_code[code]] = values
            return out
    return None


def parse_tells(name: str) -> tuple[frozenset[str] | None, frozenset[str] | None]:
    """A stored step name's mistakes told apart and mistakes required (:func:`step_name`);
    None for what the name does not say (attempts stored before issue 42). Unknown codes are
    left out.

    >>> parse_tells("gain[blanks,out=fd,need=fd.sd]") == (
    ...     {"forgot_to_double"}, {"forgot_to_double", "squared_instead_of_doubled"})
    True
    """
    if not name.endswith("]") or "[" not in name:
        return None, None
    by_code = {c: m for m, c in MISTAKE_CODES.items()}
    found: dict[str, frozenset[str]] = {}
    for tag in name[:-1].partition("[")[2].split(","):
        for prefix in (TELLS_TAG, REQUIRES_TAG):
            if tag.strip().startswith(prefix):
                codes = tag.strip()[len(prefix):].split(".")
                found[prefix] = frozenset(by_code[c] for c in codes if c in by_code)
    return found.get(TELLS_TAG), found.get(REQUIRES_TAG)
