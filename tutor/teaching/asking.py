"""The asking: which of the game's computations become questions, the queue of questions, the
points they hide, and answer → hint → reveal with the evidence each first answer gives.

An :class:`Asker` reads the engine's events (it never changes the game); the session hands it
each move's events and the scores before the move. Each attempt is built here, once, as a
:class:`~tutor.storage.records.Attempt`, and goes with the mastery to a
:class:`~tutor.play.saving.Recorder` when there is one (which saves both unchanged).
"""

from __future__ import annotations

import random
import time
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Literal, Protocol

from engine.events import Bonus, Event, Placed, PowerEffect, RoundEnded
from engine.round import Round
from engine.rules import HouseRules
from engine.tiles import LEONARD, Tile, TileSet
from tutor.games import game
from tutor.i18n import N_, format_number, translator
from tutor.storage.records import Attempt, Outcome
from tutor.teaching.answers import AnswerError, read_answer
from tutor.teaching.coverage import (
    LazyCoverage,
    SkillCoverage,
    drill_sources,
    item_tells,
    plan_coverage,
    round_end_pool,
)
from tutor.teaching.diagnosis import (
    Diagnosis,
    candidates,
    diagnose,
    is_typo,
    mistake_skill,
    tells_apart,
)
from tutor.teaching.evidence import Evidence, blame_of, is_trivial, judge, step_name
from tutor.teaching.hints import ANSWER, Hint, hint_ladder
from tutor.teaching.mastery import Mastery
from tutor.teaching.practice import (
    DRILL_SKILLS,
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
    RULE_SKILL,
    Perspective,
    Question,
    Situation,
    collect_question,
    power_questions,
    round_total_question,
    score_question,
    tens_question,
)

__all__ = ["ASK_KINDS", "NOTES", "POWER_ON_POWER", "AnswerRecorder", "Asker", "Feedback",
           "Pending", "note_text"]

ASK_KINDS = frozenset({"power", "round_end"})
FeedbackKind = Literal["invalid", "working", "correct", "wrong", "revealed"]
UNCOUNTED = frozenset({"invalid", "working"})
"""Replies that are not attempts: unreadable text, and working instead of a number."""
POWER_ON_POWER = "power-on-power"
"""The note a student gets the first time a power tile meets a power tile and nothing is
asked (issue 43: three such plays in a row asked nothing, and nothing said why)."""
NOTES: Mapping[str, str] = {
    POWER_ON_POWER: N_("Power on power: {points} points, nothing to work out. When the tile at "
                       "the other end of the line is a power tile too, the player gains "
                       "{points} and the next player (on the right) loses {points}, whatever "
                       "tile was placed, so the tutor asks nothing about it."),
}
"""What the tutor explains once per student (:meth:`tutor.teaching.mastery.Mastery.say_once`),
by note."""


def note_text(note: str, lang: str) -> str:
    """A note of :data:`NOTES` in ``lang``, with the engine's numbers."""
    from engine.rules import POWER_VS_POWER

    return translator(lang)(NOTES[note]).format(points=POWER_VS_POWER)


WORKING = N_("That is the working. Now work it out: what number is it?")
"""The reply to working (``4*8``): docs/rules.md §4, the student computes (docs/teaching.md)."""
LONGEST_WAIT = 86_400.0
"""A question left open longer than this counts as this long (a day)."""


class AnswerRecorder(Protocol):
    """Where the asker hands each attempt and mastery (:class:`tutor.play.saving.Recorder`; the
    teaching code knows no store)."""

    lesson: str
    session_id: str

    def now(self) -> str: ...

    def attempt(self, attempt: Attempt) -> None: ...

    def save_mastery(self, student: str, mastery: Mastery) -> None: ...


@dataclass(frozen=True)
class Feedback:
    """The tutor's reply to an answer (or to giving up)."""

    kind: FeedbackKind
    message: str
    question: Question
    diagnosis: Diagnosis | None = None
    hint: Hint | None = None
    """The next rung of the hint ladder, given after a wrong answer."""
    expected: int | None = None
    """Shown once the question is over (right answer or revealed)."""
    answered: int | None = None
    done: bool = False
    """The question is over; the next one, if any, is now pending."""
    events: tuple[Event, ...] = ()
    """What the bots did after the question was over."""

    @property
    def counted(self) -> bool:
        """Whether this reply counted as an attempt (an unreadable answer and working do
        not)."""
        return self.kind not in UNCOUNTED

    @property
    def worked(self) -> str:
        """The worked solution (LaTeX), once the question is over."""
        return self.question.worked if self.done else ""


@dataclass
class Pending:
    """A question in the queue, with what happened at it so far."""

    question: Question
    seat: int
    """The human seat (the student) the question is for."""
    source: Event | None = None
    hidden_gains: tuple[int, ...] = ()
    hidden_losses: tuple[int, ...] = ()
    scaffold: str = ""
    """The blanks formula shown with the question (LaTeX), or empty."""
    shown_at: float = field(default_factory=time.monotonic)
    attempts: int = 0
    hints: int = 0
    """Hints taken before the first answer."""
    pressed: int = 0
    """Hint presses that showed a rung so far (a rung given after a wrong answer is
    feedback, not a press): the ``hints`` column of each row stored (issue 43)."""
    first_recorded: bool = False
    given: list[Hint] = field(default_factory=list)
    remediation: str = ""
    """The catalogue mistake this item was queued to tell apart (:meth:`Asker.remediate`)."""
    shown: frozenset[str] = frozenset()
    """The scaffolds this question comes with: ``blanks`` (the formula with blanks) and/or
    ``T`` (T was asked first, before the points): its right first answer is practice."""
    trivial: bool = False
    """The operation does nothing here (×1, +0, T = 0): no evidence for it (docs/rules.md §4)."""
    tells: frozenset[str] = frozenset()
    """The catalogue mistakes a right answer here is proof against, of the skill it is proof
    of (:func:`tutor.teaching.coverage.item_tells`)."""
    requires: frozenset[str] = frozenset()
    """The catalogue mistakes of that skill the lesson can show: what its row must rule out
    (:func:`tutor.teaching.coverage.coverage`)."""
    values: Mapping[str, frozenset[int]] = field(default_factory=dict)
    """Each catalogue mistake's wrong numbers here (:func:`tutor.teaching.diagnosis.candidates`):
    which mistakes a wrong answer may be."""
    drilled: str = ""
    """The skill a drill between rounds queued this item for (empty: not a drill item)."""
    evidence: Evidence | None = None
    """What the first answer (or giving up) was judged to be evidence of."""

    @property
    def step_name(self) -> str:
        """The step name stored with each attempt (the scaffolds, ``trivial``, and what a
        right answer rules out of what the lesson requires, as tags)."""
        return step_name(self.question.step, self.shown, self.trivial, self.tells,
                         self.requires, self.values)


class Asker:
    """The questions of one match for its human seats, each seat a student of its own."""

    def __init__(self, *, lang: str, plan: Plan, ask: frozenset[str], students: dict[int, str],
                 masteries: dict[int, Mastery], players: int, rng: random.Random,
                 recorder: AnswerRecorder | None = None, symbol_value: int = 0,
                 tileset: TileSet = LEONARD, id_prefix: str = "",
                 rules: HouseRules | None = None) -> None:
        self.lang = lang
        self.id_prefix = id_prefix
        """Starts the problem ids of the questions this asker makes on its own (remediation
        items), so that no two questions of a session share a problem id and step (the
        session gives each match's asker ``m{match}-``)."""
        self.plan = plan
        self.ask = ask
        self.students = students
        self.masteries = masteries
        self.players = players
        self.recorder = recorder
        self.symbol_value = symbol_value
        self.tileset = tileset
        self.rules = rules if rules is not None else HouseRules(symbol_value=symbol_value)
        leonard = tileset is LEONARD
        self._game = game(plan.game)
        self.cover: Mapping[str, SkillCoverage] = LazyCoverage(
            lambda: plan_coverage(plan, players, ask, self.rules))
        """What the lesson's items can tell apart, per skill: what each skill's row must rule
        out (issue 42 part 1)."""
        self._sources = {s: sorted(drill_sources(s, self._game, leonard, ask))
                         for s in DRILL_SKILLS}
        self.practice = {seat: Practice(plan, random.Random(rng.random()), cover=self.cover)
                         for seat in students}
        self.queue: list[Pending] = []
        self._events: list[Event] = []  # events questions were made from (kept alive for id)
        self._drills = 0
        self._remediations = 0
        self._top_ups: dict[int, Counter[str]] = {}
        self._rows: dict[tuple[str, str, str], int] = {}  # rows recorded per question step
        self.notes: list[tuple[int, str]] = []
        """The notes of :data:`NOTES` said since the session last took them
        (:meth:`take_notes`): (seat, note)."""

    # --- reading the game -------------------------------------------------------------------

    @property
    def humans(self) -> tuple[int, ...]:
        return tuple(self.students)

    def _student_for(self, *seats: int) -> int | None:
        """The human seat a question goes to: the first of ``seats`` that is human, else the
        first human."""
        for s in seats:
            if s in self.students:
                return s
        return self.humans[0] if self.humans else None

    def consider(self, events: Sequence[Event], rnd: Round, scores_before: Sequence[int],
                 prefix: str) -> None:
        """Turn the computations of one move's ``events`` into questions, as the lesson's plan
        and each student's mastery decide (docs/rules.md §4)."""
        placed: Placed | None = None
        for ev in events:
            if isinstance(ev, Placed):
                placed = ev
            elif isinstance(ev, PowerEffect) and "power" in self.ask:
                self._power(ev, rnd, placed, scores_before, prefix)
            elif isinstance(ev, RoundEnded) and "round_end" in self.ask and self.students:
                collecting = next((e for e in events if isinstance(e, Bonus)
                                   and e.kind in ("domino", "tranque")), None)
                self._round_end(ev, collecting, rnd, prefix)
                self._round_totals(ev, prefix)

    def _situation(self, rnd: Round, placed: Placed | None) -> Situation:
        line = tuple(str(t) for t in rnd.line_tiles())
        if placed is None:
            return Situation(line=line)
        return Situation(played=str(placed.tile), line=line, played_end=placed.end)

    def _power(self, ev: PowerEffect, rnd: Round, placed: Placed | None,
               scores_before: Sequence[int], prefix: str) -> None:
        skill = RULE_SKILL.get(ev.rule, "")
        perspective: Perspective
        if ev.seat in self.students:
            seat, perspective = ev.seat, "player"
        else:
            seat_or_none = self._student_for(ev.target)
            if seat_or_none is None:
                return
            seat = seat_or_none
            if not (self.plan.ask_bot_plays
                    or self.practice[seat].short_of_practice(skill,
                                                             self.masteries[seat])):
                self._nothing_asked(ev, seat)
                return
            perspective = "victim" if ev.target == seat and ev.loss else "observer"
        practice, mastery = self.practice[seat], self.masteries[seat]
        situation = self._situation(rnd, placed)
        new: list[Question] = []
        # A lesson practising the other end asks T at every power play of the student, alone
        # when the play's own skill is not wanted (docs/rules.md §4; lesson 01 promises it).
        t_alone = perspective == "player" and practice.wants_other_end(mastery)
        wanted = practice.wants(skill, mastery)
        if wanted or t_alone:
            same = ev.t in (ev.gain, ev.loss)  # one number, asked once (as T in this lesson)
            t_first = t_alone or (practice.t_first(skill, mastery) and not same)
            new = power_questions(ev, lang=self.lang, perspective=perspective,
                                  you=seat if perspective != "observer" else None,
                                  t_first=t_first, near_tile=_near_tile(rnd, placed),
                                  symbol_value=self.symbol_value, id_prefix=prefix,
                                  situation=situation)
            if t_alone and (same or not wanted):
                new = [q for q in new if q.step == "T"]
        before, after = scores_before[ev.target], scores_before[ev.target] - ev.loss
        if ev.loss and before > 0 > after and practice.wants("negative", mastery):
            # The engine's score after the move is the one to ask for.
            new.append(score_question(ev, before, after, lang=self.lang,
                                      you=seat if ev.target == seat else None,
                                      id_prefix=prefix, situation=situation))
        gains = [0] * self.players
        losses = [0] * self.players
        gains[ev.seat] += ev.gain
        losses[ev.target] += ev.loss
        if not any(q.skill == skill for q in new):
            self._nothing_asked(ev, seat)
        self._enqueue(new, seat, ev, tuple(gains), tuple(losses))

    def _nothing_asked(self, ev: PowerEffect, seat: int) -> None:
        """A power play of the student's, or against them (``seat``), that the tutor asks
        nothing about: the first power tile against a power tile (a flat
        :data:`~engine.rules.POWER_VS_POWER`, nothing to work out) gets the note that says
        why, once per student (:meth:`Mastery.say_once`; saved with their mastery, so a page
        reloaded does not say it again)."""
        if ev.rule != "power-vs-power" or seat not in (ev.seat, ev.target):
            return
        mastery = self.masteries[seat]
        if not mastery.say_once(POWER_ON_POWER):
            return
        self.notes.append((seat, POWER_ON_POWER))
        if self.recorder is not None:
            self.recorder.save_mastery(self.students[seat], mastery)

    def take_notes(self) -> list[tuple[int, str]]:
        """The notes said since the last call (:attr:`notes`), which it empties."""
        notes, self.notes = self.notes, []
        return notes

    def _round_end(self, end: RoundEnded, source: Bonus | None, rnd: Round,
                   prefix: str) -> None:
        """The round's count (``add``, or ``subtract`` for the traditional block) and, in
        Ponce, the count in tens (``round``); the collected points stay hidden meanwhile."""
        if end.winner is None:
            return
        seat = self._student_for(end.winner)
        if seat is None:
            return
        practice, mastery = self.practice[seat], self.masteries[seat]
        hands = {s: tuple(rnd.hand(s)) for s in range(rnd.players)}
        value = self.symbol_value
        you = seat if seat == end.winner else None
        new: list[Question] = []
        asks = game(self.plan.game).round_end  # the round-end questions this game asks
        collect = None if "collect" not in asks else collect_question(
            end, lang=self.lang, you=you, id_prefix=prefix,
            hands={s: tuple(map(str, h)) for s, h in hands.items()},
            pips={s: tuple(v if isinstance(v, int) else value for t in h for v in (t.a, t.b))
                  for s, h in hands.items()})
        if collect is not None and practice.wants(collect.skill, mastery):
            new.append(collect)
        tens = tens_question(end, lang=self.lang, you=you, id_prefix=prefix) \
            if "tens" in asks else None
        if tens is not None and practice.wants("round", mastery):
            new.append(tens)
        gains = [0] * self.players
        if source is not None:
            gains[source.seat] = source.points
        self._enqueue(new, seat, source, tuple(gains), (0,) * self.players)

    def _round_totals(self, end: RoundEnded, prefix: str) -> None:
        if "total" not in game(self.plan.game).round_end:
            return
        for seat in self.students:
            gained, lost = end.gains[seat], end.losses[seat]
            if gained and end.scores[seat] < 0 \
                    and self.practice[seat].wants("negative", self.masteries[seat]):
                q = round_total_question(end, seat, lang=self.lang, you=seat, id_prefix=prefix)
                gains = [0] * self.players
                losses = [0] * self.players
                gains[seat], losses[seat] = gained, lost
                self._enqueue([q], seat, end, tuple(gains), tuple(losses))

    def drill(self, prefix: str) -> int:
        """Between rounds: 2–4 questions on real positions for each student's target skills
        the round left short of practice, each position chosen to tell apart what the skill's
        row has not ruled out yet (:func:`tutor.teaching.practice.wanted`). Returns how many
        were queued."""
        added = 0
        for seat in self.students:
            practice, mastery = self.practice[seat], self.masteries[seat]
            coming: dict[str, Counter[str]] = {}
            for k, skill in enumerate(practice.drill_skills(mastery)):
                if skill not in DRILL_SKILLS:
                    continue
                self._drills += 1
                tag = f"{prefix}drill{self._drills}-{k}-"
                told = coming.setdefault(skill, Counter())
                want = wanted(mastery, skill, self._requires(skill), told)
                qs = self._drill_questions(skill, seat, tag, want)
                for q in qs:
                    of, tells = item_tells(q)
                    if of == skill:
                        told.update(tells)
                self._enqueue(qs, seat, None, (), (), drilled=skill)
                added += len(qs)
            self._top_ups[seat] = Counter()
        return added

    def _top_up(self, p: Pending) -> None:
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
        usual room and no more."""
        skill, seat = p.drilled, p.seat
        mastery = self.masteries[seat]
        st = mastery.state(skill)
        params = mastery.params_for(skill)
        ups = self._top_ups.setdefault(seat, Counter())
        if (not skill or self.plan.targets or st.mastered or ups[skill] >= DRILL_TOP_UPS
                or st.p_known < params.mastery_threshold or st.sure
                or any(q is not p and q.seat == seat and q.drilled == skill and not
                       q.first_recorded for q in self.queue)):
            return
        # A misconception the student has shown is not chased: its longer row is for the
        # rounds and drills to come, not for a drill that goes on until a lucky row; and a
        # student who has shown one for sure (no slip gives its number) gets no top-up.
        need = right_answers_to_mastery(mastery, skill, self.cover.get(skill), st.shown)
        if not need:
            return
        ups[skill] += 1
        told: Counter[str] = Counter()
        for k in range(need):
            self._drills += 1
            want = wanted(mastery, skill, self._requires(skill), told)
            qs = self._drill_questions(skill, seat, f"{self.id_prefix}more{self._drills}-{k}-",
                                       want)
            for q in qs:
                of, tells = item_tells(q)
                if of == skill:
                    told.update(tells)
            self._enqueue(qs, seat, None, (), (), drilled=skill)

    def _requires(self, skill: str) -> frozenset[str]:
        cover = self.cover.get(skill)
        return cover.shows if cover is not None else frozenset()

    def _drill_questions(self, skill: str, seat: int, tag: str,
                         want: Sequence[str] = ()) -> list[Question]:
        """A drill item of ``skill`` (its questions: the points, with T first where asked):
        of the positions tried (at most :data:`~tutor.teaching.practice.DRILL_TRIES`), the
        one telling apart the most of ``want`` in its order (the first counts most), never a
        trivial item of a skill it does not test (×1, +0, T = 0: issue 42 part 1). Empty
        when no position tried is an item of the skill."""
        sources = self._sources.get(skill) or ["round_end"]
        best: list[Question] = []
        score = -1
        for k in range(DRILL_TRIES):  # bounded
            qs = self._drill_item(skill, seat, tag, sources[k % len(sources)], want)
            told = _told(qs, skill)
            if told is None:
                continue  # no question of the skill (a trivial item): not a drill of it
            value = sum(1 << (len(want) - i) for i, m in enumerate(want) if m in told)
            if value > score:
                best, score = qs, value
            if all(m in told for m in want):
                break
        return best

    def _drill_item(self, skill: str, seat: int, tag: str, source: str,
                    want: Sequence[str]) -> list[Question]:
        practice, mastery = self.practice[seat], self.masteries[seat]
        if source == "round_end":
            kind = "tens" if skill == "round" else "collect"
            pool = round_end_pool(self.plan.game, self.players, self.rules) \
                if kind in self._game.round_end else ()
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

    def remediate(self, seat: int, rule: str | None) -> int:
        """After ``seat``'s first answer to the pending question showed the named mistake
        ``rule``, specific to one skill: make the student's next question one that tells that
        mistake apart (docs/rules.md §4, issue 32) — an item where the mistake gives a wrong
        answer, if possible one no other catalogue mistake gives. If the student's next
        question in the queue already is such an item, nothing is added; otherwise a drill
        of the mistake's skill, the best of at most :data:`REMEDIATION_TRIES` positions, goes
        right after the pending question. Not for a slip, a mistake of no one skill (an
        arithmetic slip's), a ``rules`` mistake, a mistake made on a remediation item itself,
        nor more than :data:`~tutor.teaching.practice.REMEDIATIONS_PER_ROUND` times per mistake and
        round. Returns how many questions were queued."""
        skill = mistake_skill(rule) if rule else None
        practice = self.practice.get(seat)
        if (rule is None or skill is None or skill not in DRILL_SKILLS or practice is None
                or not practice.may_remediate(rule) or not self._sources.get(skill)):
            return 0
        head = self.pending
        if head is not None and head.remediation:
            return 0
        after = [p for p in self.queue[1:] if p.seat == seat][:1]
        if after and tells_apart(after[0].question, rule):
            return 0  # the game gives one
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
            return 0
        practice.remediated[rule] += 1
        self._enqueue(best, seat, None, (), (), at=1 if self.queue else 0, remediation=rule)
        return len(best)

    def review(self, due: Mapping[int, Sequence[str]], prefix: str) -> int:
        """Review (:mod:`tutor.teaching.review`): for each student's skills ``due`` for review (by
        seat), queue :data:`~tutor.teaching.review.REVIEW_ITEMS` drill items of that skill alone,
        with
        problem ids starting ``review-``. Returns how many were queued."""
        from tutor.teaching.review import REVIEW_ITEMS, review_problem

        added = 0
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
                    want = wanted(mastery, skill, self._requires(skill), told) or sorted(
                        self._requires(skill), key=lambda m: (told[m], m))
                    item = [q for q in self._drill_questions(skill, seat, tag, want)
                            if q.skill == skill][:1]
                    for q in item:
                        told.update(item_tells(q)[1])
                    qs += item
                self._enqueue(qs, seat, None, (), ())
                added += len(qs)
        return added

    def new_round(self) -> None:
        for practice in self.practice.values():
            practice.new_round()

    def _enqueue(self, questions: Sequence[Question], seat: int, source: Event | None,
                 gains: tuple[int, ...], losses: tuple[int, ...], at: int | None = None,
                 remediation: str = "", drilled: str = "") -> None:
        """Queue ``questions`` at the end, or from position ``at`` on."""
        if not questions:
            return
        if source is not None:
            self._events.append(source)
        was_empty = not self.queue
        practice, mastery = self.practice[seat], self.masteries[seat]
        where = len(self.queue) if at is None else at
        for k, q in enumerate(questions):
            practice.count(q.skill)
            # the formula is built now (sympy), when the play is made, so that the answer
            # that brings the question to the front does not wait for it; _show decides
            if practice.scaffold("blanks", q.skill, mastery):
                _ = q.blanks
            t_asked = q.step != "T" and any(e.step == "T" and e.problem == q.problem
                                            for e in questions[:k])
            ctx = q.context
            of, tells = item_tells(q)
            self.queue.insert(where + k, Pending(
                q, seat, source, gains, losses, shown=frozenset({"T"} if t_asked else ()),
                trivial=is_trivial(q.step, ctx.rule, ctx.n, ctx.t), remediation=remediation,
                tells=tells, requires=self._requires(of), values=candidates(q),
                drilled=drilled if of == drilled else ""))
        if was_empty:
            self._show(self.queue[0])

    def _show(self, p: Pending) -> None:
        """``p`` comes to the front: the blanks scaffold shows if the student's mastery asks
        for it now (decided here, not when queued, so that it fades as soon as two right
        scaffolded answers are in, docs/rules.md §4)."""
        p.shown_at = time.monotonic()
        if p.attempts or p.first_recorded:
            return
        q = p.question
        show = self.practice[p.seat].scaffold("blanks", q.skill, self.masteries[p.seat])
        p.scaffold = q.blanks if show else ""
        p.shown = (p.shown - {"blanks"}) | (frozenset({"blanks"}) if p.scaffold else frozenset())

    # --- the queue --------------------------------------------------------------------------

    @property
    def pending(self) -> Pending | None:
        return self.queue[0] if self.queue else None

    def asked_about(self, event: Event) -> bool:
        return any(e is event for e in self._events)

    def is_hidden(self, event: Event) -> bool:
        """True while ``event`` holds points a pending question asks for."""
        return any(p.source is event for p in self.queue)

    def hidden(self) -> tuple[list[int], list[int]]:
        """Per seat, the gains and losses still behind unanswered questions (each source
        event's points counted once)."""
        gains = [0] * self.players
        losses = [0] * self.players
        seen: list[Event] = []
        for p in self.queue:
            if p.source is None or any(p.source is e for e in seen) or not p.hidden_gains:
                continue
            seen.append(p.source)
            for s in range(self.players):
                gains[s] += p.hidden_gains[s]
                losses[s] += p.hidden_losses[s]
        return gains, losses

    def set_lang(self, lang: str) -> None:
        self.lang = lang
        for p in self.queue:
            p.question = p.question.in_lang(lang)
            p.given = list(hint_ladder(p.question, lang)[:len(p.given)])

    # --- answering --------------------------------------------------------------------------

    def answer(self, text: str) -> tuple[Feedback, bool]:
        """Check ``text`` against the pending question. Returns the feedback and whether the
        question is over (the caller then lets the game go on)."""
        p = self._head()
        q = p.question
        try:
            reading = read_answer(text, self.lang)
        except AnswerError as err:
            return Feedback("invalid", str(err), q), False
        if reading.working:
            # Not an answer: no attempt, no evidence, nothing recorded, the question stays
            # open, and no word on whether the working is right (docs/teaching.md).
            return Feedback("working", translator(self.lang)(WORKING), q), False
        value = reading.value
        p.attempts += 1
        mastery = self.masteries[p.seat]
        diag = diagnose(q, value, self.lang,
                        frozenset().union(*(st.shown for st in mastery.states.values())))
        seconds = self._seconds(p)
        if not p.first_recorded and not diag.correct:
            self.remediate(p.seat, diag.rule)
        if not p.first_recorded:
            kc = self._evidence(p, diag.correct, seconds, diag, value).skill
        else:
            kc = q.skill if diag.correct else (diag.skill or q.skill)
        self._record(p, Outcome.CORRECT if diag.correct else Outcome.INCORRECT, text,
                     diag.rule or diag.kind, seconds, value, kc)
        if diag.correct:
            self._pop()
            return Feedback("correct", diag.message, q, diag, expected=q.expected,
                            answered=value, done=True), True
        return Feedback("wrong", diag.message, q, diag, hint=self._next_hint(p),
                        answered=value), False

    def hint(self) -> Hint:
        """The next rung of the pending question's ladder (the last gives the answer, then
        repeats). A rung is saved once: asking again after the last one saves no row."""
        p = self._head()
        if not self.more_hints():
            return p.given[-1]
        hint = self._next_hint(p)
        p.pressed += 1
        self._record(p, Outcome.HINT, "", f"hint-{hint.level}", self._seconds(p), None,
                     p.question.skill)
        return hint

    def more_hints(self) -> bool:
        """Whether the pending question's ladder has a rung not given yet."""
        p = self._head()
        return len(p.given) < len(hint_ladder(p.question, self.lang))

    def reveal(self) -> Feedback:
        """Give up on the pending question: show the answer (a wrong first attempt if the
        student had not answered yet)."""
        p = self._head()
        q = p.question
        seconds = self._seconds(p)
        kc = self._evidence(p, False, seconds).skill if not p.first_recorded else q.skill
        self._record(p, Outcome.GIVEUP, "", "revealed", seconds, None, kc)
        self._pop()
        message = translator(self.lang)(ANSWER).format(answer=format_number(q.expected,
                                                                            self.lang))
        return Feedback("revealed", message, q, expected=q.expected, done=True)

    def _head(self) -> Pending:
        return self.queue[0]  # the session checks that a question waits

    def _pop(self) -> None:
        self.queue.pop(0)
        if self.queue:
            self._show(self.queue[0])

    def _seconds(self, p: Pending) -> float:
        return min(time.monotonic() - p.shown_at, LONGEST_WAIT)

    def _next_hint(self, p: Pending) -> Hint:
        ladder = hint_ladder(p.question, self.lang)
        if len(p.given) < len(ladder):
            p.given.append(ladder[len(p.given)])
            if not p.first_recorded:
                p.hints += 1
        return p.given[-1]

    def _evidence(self, p: Pending, correct: bool, seconds: float,
                  diag: Diagnosis | None = None, value: int | None = None) -> Evidence:
        """The first answer (or giving up) is one piece of evidence for one skill, as
        :func:`tutor.teaching.evidence.judge` decides (docs/rules.md §4): proof only unscaffolded
        and unhinted; against the question's skill, or against another skill alone when a
        uniquely named mistake of that skill explains the answer."""
        p.first_recorded = True
        q = p.question
        blame = None if diag is None or diag.correct else blame_of(diag.kind, diag.skill,
                                                                    q.skill)
        answered = None if diag is None or correct else value
        ev = judge(q.skill, correct, scaffold=p.shown, hints=p.hints, trivial=p.trivial,
                   blame=blame, mistake=None if diag is None else diag.rule, tells=p.tells,
                   requires=p.requires,
                   consistent=None if answered is None else frozenset(
                       m for m, v in p.values.items() if answered in v),
                   typo=answered is not None and is_typo(q.expected, answered))
        p.evidence = ev
        mastery = self.masteries[p.seat]
        from tutor.teaching.review import reviewed_skill

        reviewed = reviewed_skill(q.problem) or ev.skill
        was_mastered = mastery.state(reviewed).mastered  # review (tutor.teaching.review)
        mastery.observe(ev, seconds=seconds)
        self._review_evidence(p, mastery, ev, was_mastered)
        if p.drilled:
            self._top_up(p)
        if self.recorder is not None:
            self.recorder.save_mastery(self.students[p.seat], mastery)
        return ev

    def _review_evidence(self, p: Pending, mastery: Mastery, ev: Evidence,
                         was_mastered: bool) -> None:
        """A wrong (or hinted) first answer to a review item of a mastered skill takes that
        skill's mastery away, whatever the wrong answer was blamed on
        (:func:`tutor.teaching.review.missed_review`, the rule the replay uses too)."""
        from tutor.teaching.review import missed_review, review_missed, reviewed_skill

        if missed_review(p.question.problem, ev):
            review_missed(mastery, reviewed_skill(p.question.problem) or ev.skill,
                          was_mastered)

    def _record(self, p: Pending, outcome: Outcome, text: str, feedback: str,
                seconds: float, value: int | None, skill: str | None) -> None:
        """Build the attempt, once and whole, and hand it to the recorder (which saves it
        unchanged): its number at the step counts this session's earlier rows at the same
        problem and step (the problem ids of a session are unique per match)."""
        if self.recorder is None:
            return
        q = p.question
        student = self.students[p.seat]
        key = (student, q.problem, p.step_name)
        self._rows[key] = at_step = self._rows.get(key, 0) + 1
        self.recorder.attempt(Attempt(
            student=student, session=self.recorder.session_id, time=self.recorder.now(),
            lesson=self.recorder.lesson, problem=q.problem, step=p.step_name,
            outcome=outcome, input=text, feedback=feedback, kc=skill or q.skill,
            attempt_at_step=at_step, first_attempt=at_step == 1, hints=p.pressed,
            duration=float(seconds), expected=q.expected, answered=value))


def _told(questions: Sequence[Question], skill: str) -> frozenset[str] | None:
    """What the questions of a drill item rule out of ``skill``'s mistakes (None: none of
    them is evidence for ``skill``, as a trivial item is not for its operation)."""
    found = [tells for of, tells in map(item_tells, questions) if of == skill]
    return frozenset().union(*found) if found else None


def _near_tile(rnd: Round, placed: Placed | None) -> Tile | None:
    """The tile the just-placed tile went next to (the end where it went)."""
    if placed is None or placed.end not in ("L", "R"):
        return None  # an opening, or an arm of a hub (no power tiles there)
    line = rnd.line_tiles()
    if len(line) < 2:
        return None
    return line[1] if placed.end == "L" else line[-2]
