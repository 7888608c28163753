"""The questions the tutor brings up itself, on positions it builds: the drill between rounds
for the skills a round left short (and its top-ups), the item after a named mistake that
tells it apart (remediation), and the review of a mastered skill. Each item is the best of a
bounded number of positions at telling apart what the skill's row has not ruled out yet.

:class:`Drills` is a part the :class:`~tutor.teaching.asking.Asker` holds (its ``drills``),
given the match's table and students when it is made: its methods return what they find, as
:class:`DrillItem` lists, and the asker queues them with its other questions (the methods
that must read the queue, e.g. to see whether the next question already tells a mistake
apart, are handed it).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace

from engine.rules import HouseRules
from engine.tiles import LEONARD, TileSet
from tutor.games import game
from tutor.teaching.coverage import (
    DRILL_SKILLS,
    SkillCoverage,
    drill_sources,
    item_tells,
    round_end_pool,
)
from tutor.teaching.diagnosis import mistake_skill, tells_apart
from tutor.teaching.mastery import Mastery
from tutor.teaching.pending import Pending
from tutor.teaching.practice import (
    DRILL_TOP_UPS,
    DRILL_TRIES,
    REMEDIATION_TRIES,
    Plan,
    Practice,
    drill_position,
    drill_round_end,
    pick_round_end,
    right_answers_to_mastery,
    wanted,
)
from tutor.teaching.questions import (
    Question,
    Situation,
    collect_question,
    power_questions,
    round_total_question,
    tens_question,
)
from tutor.teaching.review import REVIEW_ITEMS, review_problem

__all__ = ["DrillItem", "Drills"]


@dataclass(frozen=True)
class DrillItem:
    """Questions :class:`Drills` found for one student, to be queued together."""

    questions: tuple[Question, ...]
    seat: int
    drilled: str = ""
    """The skill a drill or a top-up practises ("" for a review or a remediation item)."""
    remediation: str = ""
    """The named mistake a remediation item tells apart (it goes right after the pending
    question)."""


class Drills:
    """Drills, remediation items and reviews: the questions the asker brings up on positions
    of its own (see the module's docstring)."""

    def __init__(self, *, lang: str, plan: Plan, players: int, students: Mapping[int, str],
                 masteries: Mapping[int, Mastery], practice: Mapping[int, Practice],
                 cover: Mapping[str, SkillCoverage], ask: Iterable[str], rules: HouseRules,
                 symbol_value: int, tileset: TileSet, id_prefix: str = "") -> None:
        self.lang = lang
        self.plan = plan
        self.players = players
        self.students = students
        """The human seats' students (the asker's)."""
        self.masteries = masteries
        """Each human seat's mastery (the asker's)."""
        self.practice = practice
        """Each human seat's practice (the asker's: its counts and its random numbers)."""
        self.cover = cover
        self.rules = rules
        self.symbol_value = symbol_value
        self.tileset = tileset
        self.id_prefix = id_prefix
        """Starts the problem ids of the remediation items and top-ups."""
        self.game = game(plan.game)
        self.sources = {s: sorted(drill_sources(s, self.game, tileset is LEONARD, ask))
                        for s in DRILL_SKILLS}
        """Per skill, where its drill items come from (a power play, a round's end)."""
        self._drills = 0
        self._remediations = 0
        self._top_ups: dict[int, Counter[str]] = {}

    def set_lang(self, lang: str) -> None:
        """Build the questions from now on in ``lang``."""
        self.lang = lang

    def drill(self, prefix: str) -> list[DrillItem]:
        """Between rounds: 2–4 questions on real positions for each student's target skills
        the round left short of practice, each position chosen to tell apart what the skill's
        row has not ruled out yet (:func:`tutor.teaching.practice.wanted`), in the order to
        queue them."""
        found: list[DrillItem] = []
        for seat in self.students:
            practice, mastery = self.practice[seat], self.masteries[seat]
            coming: dict[str, Counter[str]] = {}
            for k, skill in enumerate(practice.drill_skills(mastery)):
                if skill not in DRILL_SKILLS:
                    continue
                self._drills += 1
                tag = f"{prefix}drill{self._drills}-{k}-"
                told = coming.setdefault(skill, Counter())
                want = wanted(mastery, skill, self.requires(skill), told)
                qs = self._drill_questions(skill, seat, tag, want)
                for q in qs:
                    of, tells = item_tells(q)
                    if of == skill:
                        told.update(tells)
                found.append(DrillItem(tuple(qs), seat, drilled=skill))
            self._top_ups[seat] = Counter()
        return found

    def top_up(self, p: Pending, queue: Sequence[Pending]) -> list[DrillItem]:
        """In a lesson without targets (it ends with its match, and its drills are its only
        room to practise what the deal brings too seldom: a tranque's count, a −/n play):
        when the last queued drill item of a skill is answered and the skill is still short
        of mastery while its knowledge-tracing estimate is at the threshold (the student
        answers it right; the row still has to rule out what the lesson can show, or a slip
        broke it), what it still needs is queued again
        (:func:`~tutor.teaching.practice.right_answers_to_mastery`, leaving out the longer
        rows of the misconceptions it has shown), unless the student has shown a
        misconception of the skill by a number no typing slip gives (it holds a wrong rule:
        more drill now would only give it more tries at a lucky row), at most
        :data:`~tutor.teaching.practice.DRILL_TOP_UPS` times per skill and drill. A student
        who does not know the skill yet (the estimate below the threshold) gets the drill's
        usual room and no more. ``queue``: the asker's questions (``p`` among them); returns
        the items to queue after them."""
        skill, seat = p.drilled, p.seat
        mastery = self.masteries[seat]
        st = mastery.state(skill)
        params = mastery.params_for(skill)
        ups = self._top_ups.setdefault(seat, Counter())
        if (not skill or self.plan.targets or st.mastered or ups[skill] >= DRILL_TOP_UPS
                or st.p_known < params.mastery_threshold or st.sure
                or any(q is not p and q.seat == seat and q.drilled == skill and not
                       q.first_recorded for q in queue)):
            return []
        # A misconception the student has shown is not chased: its longer row is for the
        # rounds and drills to come, not for a drill that goes on until a lucky row; and a
        # student who has shown one for sure (no slip gives its number) gets no top-up.
        need = right_answers_to_mastery(mastery, skill, self.cover.get(skill), st.shown)
        if not need:
            return []
        ups[skill] += 1
        found: list[DrillItem] = []
        told: Counter[str] = Counter()
        for k in range(need):
            self._drills += 1
            want = wanted(mastery, skill, self.requires(skill), told)
            qs = self._drill_questions(skill, seat, f"{self.id_prefix}more{self._drills}-{k}-",
                                       want)
            for q in qs:
                of, tells = item_tells(q)
                if of == skill:
                    told.update(tells)
            found.append(DrillItem(tuple(qs), seat, drilled=skill))
        return found

    def requires(self, skill: str) -> frozenset[str]:
        """The mistakes of ``skill`` the lesson's items can show: its row must rule them out."""
        cover = self.cover.get(skill)
        return cover.shows if cover is not None else frozenset()

    def _drill_questions(self, skill: str, seat: int, tag: str,
                         want: Sequence[str] = ()) -> list[Question]:
        """A drill item of ``skill`` (its questions: the points, with T first where asked):
        of the positions tried (at most :data:`~tutor.teaching.practice.DRILL_TRIES`), the
        one telling apart the most of ``want`` in its order (the first counts most), never a
        trivial item of a skill it does not test (×1, +0, T = 0: issue 42 part 1). Empty
        when no position tried is an item of the skill."""
        sources = self.sources.get(skill) or ["round_end"]
        best: list[Question] = []
        score = -1
        for k in range(DRILL_TRIES):  # bounded
            qs = self.item(skill, seat, tag, sources[k % len(sources)], want)
            told = _told(qs, skill)
            if told is None:
                continue  # no question of the skill (a trivial item): not a drill of it
            value = sum(1 << (len(want) - i) for i, m in enumerate(want) if m in told)
            if value > score:
                best, score = qs, value
            if all(m in told for m in want):
                break
        return best

    def item(self, skill: str, seat: int, tag: str, source: str,
             want: Sequence[str]) -> list[Question]:
        """One drill item of ``skill`` for ``seat`` from ``source`` (of :attr:`sources`), its
        problem ids starting ``tag``, on a position drawn from the seat's practice's random
        numbers (``want``: what a round-end item is picked to tell apart)."""
        practice, mastery = self.practice[seat], self.masteries[seat]
        if source == "round_end":
            kind = "tens" if skill == "round" else "collect"
            pool = round_end_pool(self.plan.game, self.players, self.rules) \
                if kind in self.game.round_end else ()
            drill = pick_round_end(pool, kind, skill, practice.rng, seat, want) or \
                drill_round_end(skill, practice.rng, self.tileset, seat, self.players)
            hands = {s: tuple(map(str, h)) for s, h in drill.hands.items()}
            pips = {s: tuple(v for t in h for v in (t.a, t.b) if isinstance(v, int))
                    for s, h in drill.hands.items()}
            found = [collect_question(drill.end, lang=self.lang, you=seat, hands=hands,
                                      pips=pips, id_prefix=tag)]
            if skill == "round":
                found = [tens_question(drill.end, lang=self.lang, you=seat, id_prefix=tag,
                                       supposed=True)]
            return [replace(q, situation=replace(q.situation, drill=True))
                    for q in found if q is not None]
        pos = drill_position(skill, practice.rng, seat, self.players, self.symbol_value)
        situation = Situation(played=str(pos.event.tile), line=tuple(str(t) for t in pos.line),
                              played_end=pos.played_end, drill=True)
        if pos.round_end is not None:
            # A practice round, labelled as one: the play shown is its loss, its gains are
            # supposed (and the prompt says so), never the game's score table.
            return [round_total_question(pos.round_end, seat, lang=self.lang, you=seat,
                                         id_prefix=tag, situation=situation, supposed=True)]
        qs = power_questions(pos.event, lang=self.lang, you=seat, id_prefix=tag,
                             t_first=skill == "other-end" or practice.t_first(skill, mastery),
                             near_tile=pos.near_tile, symbol_value=self.symbol_value,
                             situation=situation)
        return [q for q in qs if q.skill == skill or q.step == "T"]

    def remediate(self, seat: int, rule: str | None,
                  queue: Sequence[Pending]) -> DrillItem | None:
        """After ``seat``'s first answer to the pending question showed the named mistake
        ``rule``, specific to one skill: make the student's next question one that tells that
        mistake apart (docs/rules.md §4, issue 32) — an item where the mistake gives a wrong
        answer, if possible one no other catalogue mistake gives. If the student's next
        question in the queue already is such an item, nothing is added; otherwise a drill
        of the mistake's skill, the best of at most :data:`REMEDIATION_TRIES` positions, goes
        right after the pending question. Not for a slip, a mistake of no one skill (an
        arithmetic slip's), a ``rules`` mistake, a mistake made on a remediation item itself,
        nor more than :data:`~tutor.teaching.practice.REMEDIATIONS_PER_ROUND` times per mistake and
        round. ``queue``: the asker's questions, the pending one first; returns the item to
        queue right after it (None: none)."""
        skill = mistake_skill(rule) if rule else None
        practice = self.practice.get(seat)
        if (rule is None or skill is None or skill not in DRILL_SKILLS or practice is None
                or not practice.may_remediate(rule) or not self.sources.get(skill)):
            return None
        head = queue[0] if queue else None
        if head is not None and head.remediation:
            return None
        after = [p for p in queue[1:] if p.seat == seat][:1]
        if after and tells_apart(after[0].question, rule):
            return None  # the game gives one
        best: list[Question] = []
        score = 0
        for _ in range(REMEDIATION_TRIES):  # bounded
            self._remediations += 1
            qs = self._drill_questions(skill, seat,
                                       f"{self.id_prefix}fix{self._remediations}-", [rule])
            found = max((tells_apart(q, rule) for q in qs), default=0)
            if found > score:
                best, score = qs, found
            if score == 2:
                break
        if not best:
            return None
        practice.remediated[rule] += 1
        return DrillItem(tuple(best), seat, remediation=rule)

    def review(self, due: Mapping[int, Sequence[str]], prefix: str) -> list[DrillItem]:
        """Review (:mod:`tutor.teaching.review`): for each student's skills ``due`` for review
        (by seat), :data:`~tutor.teaching.review.REVIEW_ITEMS` drill items of that skill
        alone, with problem ids starting ``review-``, in the order to queue them."""
        found: list[DrillItem] = []
        for seat, skills in due.items():
            if seat not in self.students:
                continue
            for skill in skills:
                if skill not in DRILL_SKILLS:
                    continue
                qs: list[Question] = []
                mastery = self.masteries[seat]
                told: Counter[str] = Counter()
                for k in range(REVIEW_ITEMS):
                    tag = review_problem(prefix, skill, k)
                    # the items that tell apart the most of what the lesson can show: a
                    # review tests the skill, never a trivial item of another (issue 42)
                    want = wanted(mastery, skill, self.requires(skill), told) or sorted(
                        self.requires(skill), key=lambda m: (told[m], m))
                    item = [q for q in self._drill_questions(skill, seat, tag, want)
                            if q.skill == skill][:1]
                    for q in item:
                        told.update(item_tells(q)[1])
                    qs += item
                found.append(DrillItem(tuple(qs), seat))
        return found


def _told(questions: Sequence[Question], skill: str) -> frozenset[str] | None:
    """What the questions of a drill item rule out of ``skill``'s mistakes (None: none of
    them is evidence for ``skill``, as a trivial item is not for its operation)."""
    found = [tells for of, tells in map(item_tells, questions) if of == skill]
    return frozenset().union(*found) if found else None
