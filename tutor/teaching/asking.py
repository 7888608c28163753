"""The asking: which of the game's computations become questions, the queue of questions, the
points they hide, and answer → hint → reveal with the evidence each first answer gives.

An :class:`Asker` reads the engine's events (it never changes the game); the session hands it
each move's events and the scores before the move. Each attempt is built here, once, as a
:class:`~tutor.storage.records.Attempt`, and goes with the mastery to a
:class:`~tutor.session.saving.Recorder` when there is one (which saves both unchanged).
"""

from __future__ import annotations

import random
import time
from collections.abc import Mapping, Sequence
from typing import Protocol

from engine.events import Bonus, Event, Placed, PowerEffect, RoundEnded
from engine.round import Round
from engine.rules import POWER_VS_POWER, HouseRules
from engine.tiles import LEONARD, Tile, TileSet
from tutor.games import game
from tutor.i18n import N_, format_number, translator
from tutor.storage.records import Attempt, Outcome
from tutor.teaching.answers import AnswerError, read_answer
from tutor.teaching.coverage import LazyCoverage, SkillCoverage, item_tells
from tutor.teaching.diagnosis import Diagnosis, candidates, diagnose, is_typo
from tutor.teaching.drilling import DrillItem, Drills
from tutor.teaching.evidence import (
    REPLAYED,
    SHOWN,
    Evidence,
    blame_of,
    is_trivial,
    judge,
    question_numbers,
)
from tutor.teaching.hints import ANSWER, Hint, hint_ladder
from tutor.teaching.mastery import Mastery
from tutor.teaching.pending import AskingView, Feedback, Pending
from tutor.teaching.practice import Plan, Practice, plan_coverage
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
from tutor.teaching.review import missed_review, review_missed, reviewed_skill

__all__ = ["ASK_KINDS", "NOTES", "POWER_ON_POWER", "AnswerRecorder", "Asker", "AskingView",
           "Feedback", "Pending", "note_text"]

ASK_KINDS = frozenset({"power", "round_end"})
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
    return translator(lang)(NOTES[note]).format(points=POWER_VS_POWER)


WORKING = N_("That is the working. Now work it out: what number is it?")
"""The reply to working (``4*8``): docs/rules.md §4, the student computes (docs/teaching.md)."""
LONGEST_WAIT = 86_400.0
"""A question left open longer than this counts as this long (a day)."""
Numbers = tuple[str, str, int | None]
"""A question's numbers: :func:`tutor.teaching.evidence.question_numbers`."""


class AnswerRecorder(Protocol):
    """Where the asker hands each attempt and mastery (:class:`tutor.session.saving.Recorder`; the
    teaching code knows no store)."""

    lesson: str
    session_id: str

    def now(self) -> str: ...

    def attempt(self, attempt: Attempt) -> None: ...

    def save_mastery(self, student: str, mastery: Mastery) -> None: ...

    def revealed(self, student: str) -> list[Numbers] | None:
        """The numbers of the questions "Show me" revealed to ``student`` in this lesson, as
        the store has them (any tab's); None when the store cannot say now."""
        ...


class Asker:
    """The questions of one match for its human seats, each seat a student of its own."""

    def __init__(self, *, lang: str, plan: Plan, ask: frozenset[str], students: dict[int, str],
                 masteries: dict[int, Mastery], players: int, rng: random.Random,
                 recorder: AnswerRecorder | None = None, symbol_value: int = 0,
                 tileset: TileSet = LEONARD, id_prefix: str = "",
                 rules: HouseRules | None = None,
                 replayed: frozenset[int] = frozenset(),
                 shown: dict[str, set[Numbers]] | None = None) -> None:
        self.lang = lang
        self.replayed = replayed
        """The seats whose student played this deal before (on a class server): their
        questions are practice, no evidence (:data:`tutor.teaching.evidence.REPLAYED`)."""
        self.shown = shown if shown is not None else {}
        """Per student, the numbers "Show me" revealed to them in this lesson (the session
        keeps them across its matches; the store has them too, once saved, with those of the
        student's other tabs: :meth:`AnswerRecorder.revealed`)."""
        self.plan = plan
        self.ask = ask
        self.students = students
        self.masteries = masteries
        self.players = players
        self.recorder = recorder
        self.symbol_value = symbol_value
        self.rules = rules if rules is not None else HouseRules(symbol_value=symbol_value)
        self.cover: Mapping[str, SkillCoverage] = LazyCoverage(
            lambda: plan_coverage(plan, players, ask, self.rules))
        """What the lesson's items can tell apart, per skill: what each skill's row must rule
        out (issue 42 part 1)."""
        self.practice = {seat: Practice(plan, random.Random(rng.random()), cover=self.cover)
                         for seat in students}
        self.drills = Drills(lang=lang, plan=plan, players=players, students=students,
                             masteries=masteries, practice=self.practice, cover=self.cover,
                             ask=ask, rules=self.rules, symbol_value=symbol_value,
                             tileset=tileset, id_prefix=id_prefix)
        """The drills, remediation items and reviews (:class:`~tutor.teaching.drilling.
        Drills`): ``id_prefix`` starts the problem ids of the questions they make, so that no
        two questions of a session share a problem id and step (the session gives each
        match's asker ``m{match}-``)."""
        self.queue: list[Pending] = []
        self._events: list[Event] = []  # events questions were made from (kept alive for id)
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

    def new_round(self) -> None:
        for practice in self.practice.values():
            practice.new_round()

    # --- the questions on positions of the tutor's own (self.drills) --------------------------

    def drill(self, prefix: str) -> int:
        """Queue the drill between rounds (:meth:`~tutor.teaching.drilling.Drills.drill`).
        Returns how many questions were queued."""
        return self._enqueue_items(self.drills.drill(prefix))

    def review(self, due: Mapping[int, Sequence[str]], prefix: str) -> int:
        """Queue review items for the skills ``due`` for review, by seat
        (:meth:`~tutor.teaching.drilling.Drills.review`). Returns how many were queued."""
        return self._enqueue_items(self.drills.review(due, prefix))

    def remediate(self, seat: int, rule: str | None) -> int:
        """After ``seat``'s first answer showed the named mistake ``rule``: an item that tells
        it apart right after the pending question
        (:meth:`~tutor.teaching.drilling.Drills.remediate`). Returns how many questions were
        queued."""
        item = self.drills.remediate(seat, rule, self.queue)
        if item is None:
            return 0
        self._enqueue(item.questions, item.seat, None, (), (), at=1 if self.queue else 0,
                      remediation=item.remediation)
        return len(item.questions)

    def _enqueue_items(self, items: Sequence[DrillItem]) -> int:
        for item in items:
            self._enqueue(item.questions, item.seat, None, (), (), drilled=item.drilled)
        return sum(len(item.questions) for item in items)

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
                tells=tells, requires=self.drills.requires(of), values=candidates(q),
                drilled=drilled if of == drilled else "",
                flags=frozenset({REPLAYED}) if seat in self.replayed else frozenset()))
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

    def view(self) -> AskingView:
        """What a screen shows of the asking now: the pending question, what happened at it
        so far, and the points the queue hides (the session's snapshot reads it)."""
        gains, losses = self.hidden()
        p = self.pending
        if p is None:
            return AskingView(hidden_gains=tuple(gains), hidden_losses=tuple(losses))
        return AskingView(question=p.question, seat=p.seat, attempts=p.attempts,
                          hints=tuple(p.given), scaffold=p.scaffold,
                          queued=len(self.queue) - 1, more_hints=self.more_hints(),
                          hidden_gains=tuple(gains), hidden_losses=tuple(losses))

    def set_lang(self, lang: str) -> None:
        self.lang = lang
        self.drills.set_lang(lang)
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
        self.shown.setdefault(self.students[p.seat], set()).add(self._numbers(p))
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
        if correct and not p.hints and REPLAYED not in p.flags and self._was_shown(p):
            p.flags = p.flags | {SHOWN}  # its row says so: the replay judges it the same
        ev = judge(q.skill, correct, scaffold=p.shown, hints=p.hints, trivial=p.trivial,
                   blame=blame, mistake=None if diag is None else diag.rule, tells=p.tells,
                   requires=p.requires,
                   consistent=None if answered is None else frozenset(
                       m for m, v in p.values.items() if answered in v),
                   typo=answered is not None and is_typo(q.expected, answered),
                   replayed=REPLAYED in p.flags, shown=SHOWN in p.flags)
        p.evidence = ev
        mastery = self.masteries[p.seat]
        reviewed = reviewed_skill(q.problem) or ev.skill
        was_mastered = mastery.state(reviewed).mastered  # review (tutor.teaching.review)
        mastery.observe(ev, seconds=seconds)
        self._review_evidence(p, mastery, ev, was_mastered)
        if p.drilled:
            self._enqueue_items(self.drills.top_up(p, self.queue))
        if self.recorder is not None:
            self.recorder.save_mastery(self.students[p.seat], mastery)
        return ev

    def _numbers(self, p: Pending) -> Numbers:
        q = p.question
        return question_numbers(q.problem, q.step, q.expected)

    def _was_shown(self, p: Pending) -> bool:
        """Whether "Show me" revealed the answer to ``p``'s numbers to its student before in
        this lesson: here, or in another tab (the store's give-up rows of the student, read
        now: only at a right first answer, and only the student's rows of this lesson)."""
        numbers = self._numbers(p)
        if numbers in self.shown.get(self.students[p.seat], ()):
            return True
        if self.recorder is None:
            return False
        found = self.recorder.revealed(self.students[p.seat])
        return found is not None and numbers in found

    def _review_evidence(self, p: Pending, mastery: Mastery, ev: Evidence,
                         was_mastered: bool) -> None:
        """A wrong (or hinted) first answer to a review item of a mastered skill takes that
        skill's mastery away, whatever the wrong answer was blamed on
        (:func:`tutor.teaching.review.missed_review`, the rule the replay uses too)."""
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


def _near_tile(rnd: Round, placed: Placed | None) -> Tile | None:
    """The tile the just-placed tile went next to (the end where it went)."""
    if placed is None or placed.end not in ("L", "R"):
        return None  # an opening, or an arm of a hub (no power tiles there)
    line = rnd.line_tiles()
    if len(line) < 2:
        return None
    return line[1] if placed.end == "L" else line[-2]
