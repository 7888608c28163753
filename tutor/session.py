"""A tutored game: the engine's match and bots, the questions, answers, hints, mastery, progress."""

from __future__ import annotations

import copy
import time
import uuid
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from os import PathLike
from typing import Any, Literal

from engine.bots import Bot, make_bot
from engine.events import (
    Bonus,
    Drew,
    Event,
    MatchEnded,
    Passed,
    Placed,
    PowerEffect,
    RoundEnded,
    RoundStarted,
)
from engine.match import Match
from engine.round import Action, Round
from engine.rules import HouseRules, RulesError
from engine.tiles import Tile
from engine.view import view_of
from tutor.answers import AnswerError, parse_answer
from tutor.diagnosis import Diagnosis, diagnose
from tutor.hints import ANSWER, LADDER_SIZE, Hint, hint_ladder
from tutor.i18n import N_, TranslatableError, format_number, normalize_lang, translator
from tutor.mastery import SKILL_NAMES, SKILLS, BKTParams, Mastery
from tutor.questions import Question, question_for, seat_name

__all__ = ["ASK_KINDS", "NOT_SAVED_YET", "Feedback", "Session", "SessionError",
           "describe_event"]

ASK_KINDS = frozenset({"power", "round_end"})
FeedbackKind = Literal["invalid", "correct", "wrong", "revealed"]
# Shown to the student while answers wait in memory for a busy progress file.
NOT_SAVED_YET = N_("Your last answers are not saved yet: the progress file is busy. They will "
                   "be saved as soon as it is free.")


class SessionError(TranslatableError):
    """Something the game does not allow right now (answer first, not your turn, …).

    ``str(err)`` speaks the session's language; ``err.message(lang)`` any other.
    """


@dataclass(frozen=True)
class Feedback:
    """The tutor's reply to an answer (or to giving up)."""

    kind: FeedbackKind
    message: str
    question: Question
    diagnosis: Diagnosis | None = None
    hint: str | None = None
    """The next rung of the hint ladder, given after a wrong answer."""
    hint_latex: str = ""
    expected: int | None = None
    """Shown once the question is over (right answer or revealed)."""
    answered: int | None = None
    done: bool = False
    """The question is over; the next one, if any, is now pending."""
    events: tuple[Event, ...] = ()
    """What the bots did after the question was over."""

    @property
    def counted(self) -> bool:
        """Whether this reply counted as an attempt (an unreadable answer does not)."""
        return self.kind != "invalid"


@dataclass
class _Asking:
    question: Question
    source: Event | None = None
    shown_at: float = field(default_factory=time.monotonic)
    attempts: int = 0
    hints: int = 0
    first_recorded: bool = False
    given: list[Hint] = field(default_factory=list)


_SETTINGS = ("players", "humans", "bots", "rounds", "seed", "ask", "scaffold", "ask_bot_plays",
             "variant", "rules", "deals", "auto_bots")


class Session:
    """One student (or several at one screen) playing a match against bots, with questions.

    The dashboard and the terminal drive the same object: :meth:`legal_moves`, :meth:`play`,
    :meth:`answer`, :meth:`hint`, :meth:`reveal`, :meth:`view_state`. The score is decided by
    the engine when a tile is placed; answers never change it.
    """

    def __init__(
        self,
        players: int = 2,
        humans: Sequence[int] = (0,),
        bots: str | Sequence[str | None] = "greedy",
        rounds: int = 3,
        seed: int | None = None,
        lang: str = "es",
        ask: Iterable[str] = ("power", "round_end"),
        scaffold: bool = False,
        ask_bot_plays: bool = False,
        student: str = "anon",
        store: Any = None,
        lesson: str = "free-play",
        bkt: BKTParams | None = None,
        *,
        variant: str = "leonard",
        rules: HouseRules | None = None,
        deals: list[dict[str, Any]] | None = None,
        auto_bots: bool = True,
    ) -> None:
        self.lang = normalize_lang(lang)
        self.student = student
        self.lesson = lesson
        self.store, self._owns_store = _open_store(store, self.lang)
        # Writes the store could not take yet (it was busy), oldest first: see flush().
        self._unsaved: list[Callable[[], object]] = []
        self.session_id = uuid.uuid4().hex
        if self.store is not None:
            started = _utc_now()
            self._save(lambda: self.store.start_session(student, self.session_id, started))
            self.flush()
        params = bkt or BKTParams()
        self.mastery: Mastery = (self.store.load_mastery(student, params)
                                 if self.store is not None else Mastery(params))
        self.match_number = 0
        self._setup(players=players, humans=humans, bots=bots, rounds=rounds, seed=seed,
                    ask=ask, scaffold=scaffold, ask_bot_plays=ask_bot_plays, variant=variant,
                    rules=rules, deals=deals, auto_bots=auto_bots)

    @classmethod
    def from_lesson(cls, lesson: Any, *, lang: str = "es", student: str = "anon",
                    store: Any = None, seed: int | None = None, **overrides: Any) -> Session:
        """A session with a lesson's settings (a :class:`tutor.lessons.Lesson` or its id);
        ``overrides`` change single settings (e.g. ``players=3``)."""
        from tutor.lessons import Lesson, load_lesson

        if not isinstance(lesson, Lesson):
            lesson = load_lesson(lesson, lang)
        settings: dict[str, Any] = dict(
            variant=lesson.variant, players=lesson.players, humans=lesson.humans,
            bots=list(lesson.bots),
            rounds=lesson.rounds, seed=lesson.seed if seed is None else seed,
            ask=lesson.ask, scaffold=lesson.scaffold, ask_bot_plays=lesson.ask_bot_plays,
            bkt=lesson.mastery, rules=lesson.rules)
        settings.update(overrides)
        bots = settings["bots"]
        seats = settings["players"] - len(settings["humans"])
        if not isinstance(bots, str) and bots and len(bots) not in (seats, settings["players"]):
            settings["bots"] = [bots[i % len(bots)] for i in range(seats)]  # lesson's bots cycle
        return cls(lang=lang, student=student, store=store, lesson=lesson.id, **settings)

    # --- setup ------------------------------------------------------------------------------

    def _setup(self, **s: Any) -> None:
        ask = frozenset(s["ask"])
        if ask - ASK_KINDS:
            raise self._error(N_("ask can hold {allowed}, not {given}."),
                              allowed=", ".join(sorted(ASK_KINDS)),
                              given=", ".join(sorted(ask - ASK_KINDS)))
        players = s["players"]
        humans = tuple(s["humans"])
        if not isinstance(players, int) or players < 2:
            raise self._error(N_("A game needs at least 2 players, not {players}."),
                              players=repr(players))
        if len(set(humans)) != len(humans) or any(
                not isinstance(h, int) or not 0 <= h < players for h in humans):
            raise self._error(N_("humans must be different seats from 0 to {last}, not "
                                 "{humans}."), last=players - 1, humans=repr(humans))
        rules = s["rules"] or HouseRules()
        if s["rounds"] != rules.rounds:
            rules = HouseRules(**{**rules.to_dict(), "rounds": s["rounds"]})
        try:
            match = Match(s["variant"], players, rules, seed=s["seed"], deals=s["deals"])
            bots = _make_bots(s["bots"], players, humans, s["seed"], self.lang)
        except RulesError as err:
            raise self._error(N_("The game settings are not valid: {error}."),
                              error=str(err)) from None
        self.settings = dict(s, ask=ask, humans=humans, rules=rules)
        self.players = players
        self.humans = humans
        self.ask = ask
        self.scaffold = bool(s["scaffold"])
        self.ask_bot_plays = bool(s["ask_bot_plays"])
        self.auto_bots = bool(s["auto_bots"])
        self.seed = s["seed"]
        self.match = match
        self.bots: dict[int, Bot] = bots
        self.match_number += 1
        self._queue: list[_Asking] = []
        self._asked: list[Event] = []  # events questions were made from (kept alive for id())
        self.last_events: list[Event] = list(match.current.log)
        self.round_events: list[Event] = list(match.current.log)
        if self.auto_bots:
            self.last_events += self.run_bots()

    def new_match(self, **changes: Any) -> list[Event]:
        """Start a new match with the same settings except ``changes`` (any constructor
        setting but the student's). Without a ``seed`` a seeded session moves to seed + 1,
        so the new match has a new deal. Mastery and the progress store carry over."""
        unknown = set(changes) - set(_SETTINGS) - {"lang"}
        if unknown:
            raise self._error(N_("new_match cannot change {settings}."),
                              settings=", ".join(sorted(unknown)))
        if "lang" in changes:
            self.set_lang(changes.pop("lang"))
        s = dict(self.settings)
        if "seed" not in changes and s["seed"] is not None:
            changes["seed"] = s["seed"] + 1
        if "rounds" in changes and "rules" not in changes:
            s["rules"] = HouseRules(**{**s["rules"].to_dict(), "rounds": changes["rounds"]})
        s.update(changes)
        self._setup(**s)
        return list(self.last_events)

    def set_lang(self, lang: str) -> None:
        """Speak ``lang`` from now on; the game, the questions and the hints so far stay."""
        self.lang = normalize_lang(lang)
        for a in self._queue:
            a.question = a.question.in_lang(self.lang)
            a.given = list(hint_ladder(a.question, self.lang)[:len(a.given)])

    # --- the game ---------------------------------------------------------------------------

    @property
    def round(self) -> Round:
        return self.match.current

    @property
    def human_to_move(self) -> int | None:
        """The human seat whose turn it is (None: a bot's turn, a question, or the round over)."""
        rnd = self.round
        if rnd.over or self._queue or rnd.turn not in self.humans:
            return None
        return rnd.turn

    def legal_moves(self) -> list[Action]:
        """The moves of the human whose turn it is (empty while a question waits or a bot
        is to move)."""
        return self.round.legal_moves() if self.human_to_move is not None else []

    def play(self, action: Action | int) -> list[Event]:
        """Apply the human's move (an action, or an index into :meth:`legal_moves`), then let
        the bots move (with ``auto_bots``) until a human's turn or a question."""
        if self._queue:
            raise self._error(N_("Answer the question first (or ask to see the answer)."))
        if self.round.over:
            raise self._error(N_("The round is over: start the next round."))
        seat = self.human_to_move
        if seat is None:
            raise self._error(N_("It is not your turn."))
        if isinstance(action, int):
            legal = self.legal_moves()
            if not 0 <= action < len(legal):
                raise self._error(N_("Choose a move from 1 to {count}."), count=len(legal))
            action = legal[action]
        events = self._apply(action, seat)
        if self.auto_bots:
            events += self.run_bots()
        self.last_events = events
        return events

    def bot_pending(self) -> bool:
        """A bot is to move and nothing waits for the student."""
        rnd = self.round
        return not rnd.over and not self._queue and rnd.turn not in self.humans

    def step_bot(self) -> list[Event]:
        """Apply one bot move (for a board that animates them one by one)."""
        if not self.bot_pending():
            return []
        rnd = self.round
        seat = rnd.turn
        events = self._apply(self.bots[seat].choose(view_of(rnd, seat)), seat)
        self.last_events = events
        return events

    def run_bots(self) -> list[Event]:
        """Let the bots move until a human's turn, a question or the round's end."""
        events: list[Event] = []
        while self.bot_pending():
            events += self.step_bot()
        self.last_events = events
        return events

    def new_round(self) -> list[Event]:
        """Start the next round of the match (after the round-end question, if any)."""
        if self._queue:
            raise self._error(N_("Answer the question first (or ask to see the answer)."))
        if self.match.over:
            raise self._error(N_("The match is over."))
        if not self.round.over:
            raise self._error(N_("The round is not over yet."))
        rnd = self.match.start_round()
        events: list[Event] = list(rnd.log)
        self.round_events = list(events)
        if self.auto_bots:
            events += self.run_bots()
        self.last_events = events
        return events

    def _apply(self, action: Action, seat: int) -> list[Event]:
        rnd = self.round
        events = self.match.apply(action, seat)
        self.round_events += events
        self._questions_from(events, rnd)
        return events

    # --- questions --------------------------------------------------------------------------

    def _questions_from(self, events: list[Event], rnd: Round) -> None:
        prefix = f"m{self.match_number}r{rnd.number}t{rnd.placements}-"
        placed: Placed | None = None
        end: RoundEnded | None = next((e for e in events if isinstance(e, RoundEnded)), None)
        new: list[_Asking] = []
        for ev in events:
            if isinstance(ev, Placed):
                placed = ev
            elif isinstance(ev, PowerEffect) and "power" in self.ask:
                who = self._power_perspective(ev)
                if who is None:
                    continue
                perspective, you = who
                qs = question_for(ev, lang=self.lang, scaffold=self.scaffold,
                                  perspective=perspective, you=you,
                                  near_tile=_near_tile(rnd, placed),
                                  symbol_value=rnd.rules.symbol_value, id_prefix=prefix)
                if qs:
                    self._asked.append(ev)
                new += [_Asking(q, ev) for q in qs]
            elif (isinstance(ev, Bonus) and ev.kind in ("domino", "tranque")
                  and "round_end" in self.ask and self.humans):
                you = ev.seat if ev.seat in self.humans else None
                qs = question_for(ev, lang=self.lang, round_end=end, you=you,
                                  perspective="player" if you is not None else "observer",
                                  id_prefix=prefix)
                if qs:
                    self._asked.append(ev)
                new += [_Asking(q, ev) for q in qs]
        was_empty = not self._queue
        self._queue += new
        if was_empty and self._queue:
            self._queue[0].shown_at = time.monotonic()

    def _power_perspective(self, ev: PowerEffect) -> tuple[Any, int | None] | None:
        if ev.seat in self.humans:
            return "player", ev.seat
        if not self.ask_bot_plays:
            return None
        if ev.target in self.humans and ev.loss:
            return "victim", ev.target
        return "observer", None

    def asked_about(self, event: Event) -> bool:
        """Whether ``event`` (from this session) became a question."""
        return any(e is event for e in self._asked)

    @property
    def pending_question(self) -> Question | None:
        return self._queue[0].question if self._queue else None

    @property
    def queued_questions(self) -> list[Question]:
        return [a.question for a in self._queue]

    def _head(self) -> _Asking:
        if not self._queue:
            raise self._error(N_("There is no question to answer right now."))
        return self._queue[0]

    def answer(self, text: str) -> Feedback:
        """Check the student's typed answer to the pending question."""
        a = self._head()
        q = a.question
        try:
            value = parse_answer(text, self.lang)
        except AnswerError as err:
            return Feedback("invalid", str(err), q)
        a.attempts += 1
        diag = diagnose(q, value, self.lang)
        seconds = time.monotonic() - a.shown_at
        if not a.first_recorded:
            self._trace(a, diag.correct, seconds)
        self._record(a, "CORRECT" if diag.correct else "INCORRECT", text, diag.rule or diag.kind,
                     seconds, value)
        if diag.correct:
            events = self._resolve()
            return Feedback("correct", diag.message, q, diag, expected=q.expected,
                            answered=value, done=True, events=tuple(events))
        hint = self._next_hint(a)
        return Feedback("wrong", diag.message, q, diag, hint=hint.text, hint_latex=hint.latex,
                        answered=value)

    def hint(self) -> str:
        """The next rung of the pending question's hint ladder (the last rung gives the answer
        and then repeats)."""
        a = self._head()
        hint = self._next_hint(a)
        self._record(a, "HINT", "", f"hint-{hint.level}", time.monotonic() - a.shown_at, None)
        return hint.text

    def hints_given(self) -> list[Hint]:
        return list(self._queue[0].given) if self._queue else []

    def reveal(self) -> Feedback:
        """Give up on the pending question: show the answer (a wrong first attempt if the
        student had not answered yet) and move on."""
        a = self._head()
        q = a.question
        seconds = time.monotonic() - a.shown_at
        if not a.first_recorded:
            self._trace(a, False, seconds)
        self._record(a, "GIVEUP", "", "revealed", seconds, None)
        message = self._t(ANSWER).format(answer=format_number(q.expected, self.lang))
        events = self._resolve()
        return Feedback("revealed", message, q, expected=q.expected, done=True,
                        events=tuple(events))

    def _next_hint(self, a: _Asking) -> Hint:
        ladder = hint_ladder(a.question, self.lang)
        if len(a.given) < LADDER_SIZE:
            a.given.append(ladder[len(a.given)])
            if not a.first_recorded:
                a.hints += 1
        return a.given[-1]

    def _trace(self, a: _Asking, correct: bool, seconds: float) -> None:
        """Update the mastery with the first answer; its saving goes with the attempt's."""
        a.first_recorded = True
        self.mastery.record(a.question.skills, correct, hints_before_answer=a.hints,
                            seconds=_longest_wait(seconds))
        if self.store is not None:
            snapshot = copy.deepcopy(self.mastery)
            self._save(lambda: self.store.save_mastery(self.student, snapshot))

    def _record(self, a: _Asking, outcome: str, text: str, feedback: str, seconds: float,
                value: int | None) -> None:
        if self.store is None:
            return
        q = a.question
        record = dict(lesson=self.lesson, problem=q.problem, step=q.step, outcome=outcome,
                      input_text=text, feedback=feedback, kc=q.skills, hints=len(a.given),
                      duration=_longest_wait(seconds), expected=q.expected,
                      answered=value, time=_utc_now())
        self._save(lambda: self.store.record_attempt(self.student, self.session_id, **record))
        self.flush()

    # --- saving -----------------------------------------------------------------------------

    def _save(self, write: Callable[[], object]) -> None:
        self._unsaved.append(write)

    @property
    def unsaved(self) -> int:
        """How many writes (attempts, mastery, the session's start) wait for a busy progress
        file. They are written, in order, with the next answer or :meth:`flush`."""
        return len(self._unsaved)

    @property
    def unsaved_message(self) -> str | None:
        """What to tell the student while :attr:`unsaved` is not 0 (else None)."""
        return self._t(NOT_SAVED_YET) if self._unsaved else None

    def flush(self) -> bool:
        """Write what waits for the progress file, oldest first; True once nothing waits.

        While the file stays busy (:class:`tutor.store.StoreBusyError`) the writes are kept
        for the next try: never dropped, never out of order. Any other error is raised (and
        the write is kept), but one the store refuses for its values is dropped as it is
        raised: it could never be saved.
        """
        from tutor.store import StoreBusyError, StoreError

        while self._unsaved:
            try:
                self._unsaved[0]()
            except StoreBusyError:
                return False
            except StoreError:
                # Values the store refuses (see tutor.store.LIMITS) are never stored, so
                # keeping this write would block every later one: it goes, and is reported.
                self._unsaved.pop(0)
                raise
            self._unsaved.pop(0)
        return True

    def _resolve(self) -> list[Event]:
        self._queue.pop(0)
        if self._queue:
            self._queue[0].shown_at = time.monotonic()
            return []
        if self.auto_bots:
            events = self.run_bots()
            self.last_events = events
            return events
        return []

    # --- what a board shows -----------------------------------------------------------------

    def _hidden(self) -> tuple[list[int], list[int]]:
        """Per seat, the gains and losses still behind an unanswered question."""
        gains = [0] * self.players
        losses = [0] * self.players
        for a in self._queue:
            q = a.question
            if q.step in ("gain", "collect"):
                gains[q.context.seat] += q.expected
            elif q.step == "loss":
                losses[q.context.target] += q.expected
        return gains, losses

    def view_state(self, seat: int | None = None) -> dict[str, Any]:
        """Everything a board draws, as plain data (tiles as text). ``seat``: whose hand to
        show (default: the human to move, else the first human).

        The scores to display are ``scores_shown`` / ``round_gains_shown`` /
        ``round_losses_shown``: they leave out the points a pending question asks for.
        """
        rnd = self.round
        if seat is None:
            seat = self.human_to_move
            if seat is None:
                seat = self.humans[0] if self.humans else None
        hidden_g, hidden_l = self._hidden()
        scores = self.match.scores
        q = self.pending_question
        ladder = self.hints_given()
        end = rnd.result
        return {
            "lang": self.lang,
            "players": self.players,
            "names": [seat_name(s) for s in range(self.players)],
            "humans": list(self.humans),
            "round": rnd.number,
            "rounds": self.match.rules.rounds,
            "tileset": rnd.tileset,
            "line": [str(t) for t in rnd.line_tiles()],
            "ends": None if rnd.ends is None else [str(e) for e in rnd.ends],
            "table": None if rnd.table is None else str(rnd.tileset.tiles[rnd.table]),
            "turn": rnd.turn,
            "human_to_move": self.human_to_move,
            "bot_pending": self.bot_pending(),
            "hand_sizes": rnd.hand_sizes,
            "hand_seat": seat,
            "hand": [] if seat is None else [str(t) for t in rnd.hand(seat)],
            "legal": [str(m) for m in self.legal_moves()] if seat == self.human_to_move else [],
            "pile": rnd.pile_count,
            "scores": scores,
            "scores_shown": [scores[s] - hidden_g[s] + hidden_l[s] for s in range(self.players)],
            "round_gains_shown": [rnd.gains[s] - hidden_g[s] for s in range(self.players)],
            "round_losses_shown": [rnd.losses[s] - hidden_l[s] for s in range(self.players)],
            "hiding": any(hidden_g) or any(hidden_l),
            "question": None if q is None else {
                "id": q.id, "prompt": q.prompt, "step": q.step, "skills": list(q.skills),
                "latex": q.latex, "attempts": self._queue[0].attempts,
                "hints": [h.text for h in ladder], "hints_latex": [h.latex for h in ladder],
                "queued": len(self._queue) - 1},
            "mastery": self.skill_report(),
            "unsaved": self.unsaved,
            "unsaved_message": self.unsaved_message,
            "last_events": list(self.last_events),
            "log": [describe_event(e, self.lang, hidden=self.is_hidden(e))
                    for e in self.last_events],
            "round_over": rnd.over,
            "round_winner": None if end is None else end.winner,
            "round_end": None if end is None else end.reason,
            "match_over": self.match.over,
            "match_winners": None if self.match.match_end is None
            else list(self.match.match_end.winners),
        }

    def is_hidden(self, event: Event) -> bool:
        """True while ``event`` holds points a pending question asks for (show it without them)."""
        return any(a.source is event for a in self._queue)

    def skill_report(self) -> dict[str, dict[str, Any]]:
        """Per skill: the name to show, chance known (BKT), mastered, asked, first-try accuracy."""
        out = {}
        for skill in SKILLS:
            st = self.mastery.state(skill)
            out[skill] = {
                "name": self._t(SKILL_NAMES[skill]),
                "p_known": st.p_known,
                "mastered": st.mastered,
                "asked": st.asked,
                "first_try_right": st.first_try_right,
                "accuracy": st.first_try_right / st.asked if st.asked else None,
            }
        return out

    def sheet(self) -> Any:
        """The Leonard score sheet of the current round (None if the engine has no sheets)."""
        try:
            from engine.sheet import ScoreSheet
        except ImportError:
            return None
        return ScoreSheet.from_round(self.round)

    def _t(self, message: str) -> str:
        return translator(self.lang)(message)

    def _error(self, msgid: str, **params: Any) -> SessionError:
        """A :class:`SessionError` in the session's language."""
        return SessionError(msgid, lang=self.lang, **params)

    def close(self) -> None:
        """Write what waits (see :meth:`flush`) and close the store the session opened.

        If the progress file is still busy, nothing is lost: the store stays open and
        :class:`SessionError` says so; call :meth:`flush` or :meth:`close` again later.
        """
        if not self.flush():
            raise self._error(NOT_SAVED_YET)
        if self.store is not None and self._owns_store:
            self.store.close()


def _utc_now() -> str:
    from tutor.store import utc_now

    return utc_now()


def _longest_wait(seconds: float) -> float:
    """``seconds`` to answer, a question left open longer than the store keeps counting as
    the longest it keeps (a day)."""
    from tutor.store import LIMITS

    return min(seconds, float(LIMITS["duration"][1]))


def _open_store(store: Any, lang: str) -> tuple[Any, bool]:
    """The store to use and whether the session opened it (and so closes it)."""
    if store is None or hasattr(store, "record_attempt"):
        return store, False
    if isinstance(store, (str, PathLike)):
        from tutor.store import Store

        return Store(store, lang=lang), True
    raise SessionError(N_("store must be a tutor.store.Store, a file path or None, not "
                          "{store}."), store=repr(store), lang=lang)


def _make_bots(spec: str | Sequence[str | None], players: int, humans: tuple[int, ...],
               seed: int | None, lang: str) -> dict[int, Bot]:
    seats = [s for s in range(players) if s not in humans]
    if isinstance(spec, str):
        names: list[str | None] = [spec] * len(seats)
    elif len(spec) == players:
        names = [spec[s] for s in seats]
    elif len(spec) == len(seats):
        names = list(spec)
    else:
        raise SessionError(N_("bots: give one name, one per seat ({players}) or one per bot "
                              "seat ({bot_seats}), not {given}."), players=players,
                           bot_seats=len(seats), given=len(spec), lang=lang)
    out: dict[int, Bot] = {}
    for s, name in zip(seats, names, strict=True):
        out[s] = make_bot(name or "greedy", None if seed is None else seed * 1009 + s)
    return out


def _near_tile(rnd: Round, placed: Placed | None) -> Tile | None:
    """The tile the just-placed tile went next to (the end where it went)."""
    if placed is None or placed.end is None:
        return None
    line = rnd.line_tiles()
    if len(line) < 2:
        return None
    return line[1] if placed.end == "L" else line[-2]


# --- narration --------------------------------------------------------------------------------

def describe_event(event: Event, lang: str, *, hidden: bool = False) -> str:
    """One line of what happened, for a log or the terminal (``hidden``: the points are the
    answer of a pending question and are not shown)."""
    _ = translator(lang)
    if isinstance(event, RoundStarted):
        return _(N_("Round {number} starts.")).format(number=event.number)
    if isinstance(event, Placed):
        seat = seat_name(event.seat)
        if event.end is None:
            return _(N_("Player {seat} opens with {tile}.")).format(seat=seat, tile=event.tile)
        msg = (N_("Player {seat} places {tile} at the left end.") if event.end == "L"
               else N_("Player {seat} places {tile} at the right end."))
        return _(msg).format(seat=seat, tile=event.tile)
    if isinstance(event, Drew):
        return _(N_("Player {seat} draws a tile.")).format(seat=seat_name(event.seat))
    if isinstance(event, Passed):
        return _(N_("Player {seat} passes.")).format(seat=seat_name(event.seat))
    if isinstance(event, PowerEffect):
        if event.neutralized:
            return _(N_("{tile} opens the line: no power effect.")).format(tile=event.tile)
        if hidden:
            return _(N_("Power play! The points stay hidden until the question is answered."))
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
        names = {
            "paso-a-la-salida": N_("Paso a la salida: player {seat} gains {points}."),
            "paso-corrido": N_("Paso corrido: player {seat} gains {points}."),
            "capicua": N_("Capicúa: player {seat} gains {points}."),
            "domino": N_("Domino: player {seat} collects {points}."),
            "tranque": N_("Tranque: player {seat} collects {points}."),
        }
        return _(names[event.kind]).format(seat=seat_name(event.seat), points=event.points)
    if isinstance(event, RoundEnded):
        if event.winner is None:
            return _(N_("The round is over, with no winner."))
        return _(N_("The round is over. Player {seat} wins it.")).format(
            seat=seat_name(event.winner))
    if isinstance(event, MatchEnded):
        winners = ", ".join(seat_name(s) for s in event.winners)
        return _(N_("The match is over. Winner: {winners}.")).format(winners=winners)
    return str(event)
