"""What a question's first answer is evidence of (RULES.md §4 "Evidence"), in one function
used both live (:class:`tutor.teaching.asking.Asker`) and when mastery is replayed from stored
attempts
(:func:`tutor.commands.teacher.rebuild_mastery`) or fitted (``python -m tutor fit-bkt``).

:func:`judge` decides, from the facts of one first answer, which skill it is about and
whether it is *proof* (an unscaffolded, unhinted right answer: BKT observes "right"),
*practice* (a scaffolded right answer: BKT's learning step only, the streak stays),
*against* (a wrong answer, a give-up, or a hint before answering: BKT observes "wrong", the
streak resets) or *none* (nothing to learn from).

The stored attempt keeps those facts without a new column: the step name carries tags in
brackets (:func:`step_name`: ``gain[blanks]``, ``gain[T]``, ``gain[T,trivial]``) and the
``kc`` column the skill the answer was judged about (the blamed skill for a wrong answer).
Judging the replayed facts again gives the same evidence (the rule is idempotent on its
own output), so a report rebuilt from a progress file or an export equals live mastery.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

__all__ = ["SCAFFOLD_TAGS", "TRIVIAL", "Evidence", "blame_of", "is_trivial", "judge",
           "parse_step", "step_name"]

Kind = Literal["proof", "practice", "against", "none"]
SCAFFOLD_TAGS = ("T", "blanks")
"""Scaffolds a question may show: ``T`` (T asked first, before the points), ``blanks``
(the formula with blanks)."""
TRIVIAL = "trivial"
"""Step tag of an item whose operation does nothing (×1, +0, T = 0)."""
OTHER_END = "other-end"


@dataclass(frozen=True)
class Evidence:
    """What one first answer says, and about which skill."""

    skill: str
    kind: Kind
    why: str
    """``proof``, ``scaffolded``, ``hinted``, ``wrong``, ``blamed`` or ``repeat``."""
    correct: bool = False
    """The first answer was right (whatever it counts as)."""
    hints: int = 0
    scaffolded: bool = False
    misconception: bool = False
    """A wrong first answer that a catalogue mistake of ``skill`` itself explains (the
    diagnosis's mistake, :func:`tutor.teaching.diagnosis.mistake_skill` of it is ``skill``):
    stronger
    evidence than a slip (:class:`tutor.teaching.mastery.Mastery`)."""

    @property
    def observation(self) -> bool | None:
        """BKT's observation: True (right), False (wrong) or None (no observation)."""
        return {"proof": True, "against": False}.get(self.kind)


def judge(skill: str, correct: bool, *, scaffold: Iterable[str] = (), hints: int = 0,
          trivial: bool = False, blame: str | None = None,
          mistake: str | None = None) -> Evidence:
    """The evidence of a question's first answer (RULES.md §4).

    ``skill``: the question's skill; ``correct``: the first answer was right (a give-up is
    not); ``scaffold``: the scaffolds shown (:data:`SCAFFOLD_TAGS`); ``hints``: hints taken
    before answering; ``trivial``: the item's operation does nothing (:func:`is_trivial`);
    ``blame``: another skill a uniquely named mistake puts the wrong answer on
    (:func:`blame_of`); ``mistake``: the catalogue mistake the diagnosis gave (named or
    likeliest), which makes a wrong answer a *misconception* when it is a mistake of the
    skill judged (:attr:`Evidence.misconception`).

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
    """
    shown = frozenset(scaffold)
    scaffolded = bool(shown)
    if trivial:
        own = OTHER_END
        if "T" in shown and skill != OTHER_END:
            return Evidence(own, "none", "repeat", correct, hints, scaffolded)
        blame = None
    else:
        own = skill
    if not correct:
        about = blame if blame is not None and blame != own else own
        why = "blamed" if about != own else "wrong"
        return Evidence(about, "against", why, False, hints, scaffolded,
                        _misconception(mistake, about))
    if hints:
        return Evidence(own, "against", "hinted", True, hints, scaffolded)
    if scaffolded:
        return Evidence(own, "practice", "scaffolded", True, hints, scaffolded)
    return Evidence(own, "proof", "proof", True, hints, scaffolded)


def _misconception(mistake: str | None, skill: str) -> bool:
    """Whether catalogue mistake ``mistake`` is a misconception of ``skill`` (an arithmetic
    slip's mistakes, of no one skill, are not)."""
    if not mistake:
        return False
    from tutor.teaching.diagnosis import mistake_skill

    try:
        return mistake_skill(mistake) == skill
    except (KeyError, ValueError):
        return False


def blame_of(kind: str, rule_skill: str | None, skill: str) -> str | None:
    """The other skill a wrong answer counts against: only when the diagnosis names one
    mistake (``kind`` ``named``: no other mistake explains the answer, so the rest of the
    computation was right) and that mistake belongs to a skill other than the question's.
    A ``likely`` (ambiguous) diagnosis or a slip counts against the question's own skill."""
    if kind == "named" and rule_skill is not None and rule_skill != skill:
        return rule_skill
    return None


# Rows (RULES.md §1.6) whose points are n × T, n + T, T × T, 2 × T or 1 × T: with n = 1 (×),
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


def step_name(step: str, scaffold: Iterable[str] = (), trivial: bool = False) -> str:
    """The step name to store: the question's step with its scaffolds and ``trivial`` as
    tags (``gain``, ``gain[blanks]``, ``gain[T,trivial]``); DataShop's Step Name is free
    text, and each question keeps one name for all its attempts.

    >>> step_name("gain", ["blanks", "T"], True)
    'gain[T,blanks,trivial]'
    """
    tags = [t for t in SCAFFOLD_TAGS if t in set(scaffold)] + ([TRIVIAL] if trivial else [])
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
