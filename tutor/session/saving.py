"""Saving a lesson's progress: every attempt and each student's mastery go to the progress
store, in order, and never get lost. A write the store cannot take now (it is busy: a class
saving at once) waits in memory and goes first with the next write or :meth:`Recorder.flush`.

An attempt arrives whole (a :class:`~tutor.storage.records.Attempt`, built at the answer by
:class:`tutor.teaching.asking.Asker`) and goes to the store unchanged. The store keeps mastery as
rows; :func:`load_mastery` and :func:`save_mastery` turn them into a
:class:`~tutor.teaching.mastery.Mastery` and back.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timezone
from typing import TYPE_CHECKING

from engine.match import Match
from tutor.course.lessons import lesson_params
from tutor.i18n import N_
from tutor.storage.records import Attempt, StoreError, move_of, tagged_session
from tutor.teaching.asking import Numbers
from tutor.teaching.evidence import question_numbers
from tutor.teaching.mastery import Mastery, Params
from tutor.teaching.replay import rebuild_mastery

if TYPE_CHECKING:
    from tutor.storage.progress_store import ProgressStore

__all__ = ["NOT_SAVED_YET", "REFUSED", "STORE_DOWN", "Recorder", "load_mastery",
           "save_mastery"]


NOT_SAVED_YET = N_("Your last answers are not saved yet: the progress store is busy or out of "
                   "reach. They wait on this page and are saved as soon as it answers; keep "
                   "this page open until then.")
"""Shown to the student while answers wait in memory for a busy progress file."""

STORE_DOWN = N_("The class's store cannot be reached now: play on, your answers wait on this "
                "page and are saved when it is back, and your progress so far shows again "
                "then.")
"""Shown to the student whose page started while the store was down (their saved mastery is
not read yet), until the store answers."""


REFUSED = N_("The class's store refused one of your answers, so it does not count: {reason} "
            "Your other answers are saved as usual.")
"""Shown to the student once the class's store refused a write (issue 51: the service
replays every answer it is sent and refuses one the tutor could not have recorded); the
other writes go on."""


def load_mastery(store: ProgressStore, student: str, params: Params | None = None) -> Mastery:
    """``student``'s saved mastery in ``store`` (a fresh one if nothing was saved), read from
    the store's mastery rows (:meth:`tutor.storage.store.Store.mastery_rows`)."""
    return Mastery.from_dict(store.mastery_rows(student), params)


def save_mastery(store: ProgressStore, student: str, mastery: Mastery) -> None:
    """Save every skill state of ``student``'s ``mastery`` to ``store`` as rows
    (:meth:`tutor.storage.store.Store.save_mastery_rows`, one transaction)."""
    store.save_mastery_rows(student, mastery.to_dict())


class Recorder:
    """The progress of one session (``session_id``) of one lesson, written to ``store``."""

    def __init__(self, store: ProgressStore, lesson: str,
                 clock: Callable[[], datetime] | None = None,
                 assignment: str | None = None) -> None:
        # lazy: `import tutor` loads no store, no sqlite3 (test_loading_a_lesson_loads_no_store)
        from tutor.storage.store import utc_now

        self.store = store
        self.lesson = lesson
        self.session_id = tagged_session(assignment)
        """A new id; a game opened from an assignment's link carries the assignment's id in
        it (issue 45)."""
        self._unsaved: list[Callable[[], object]] = []
        self._droppable: set[int] = set()
        """The ids of the queued writes that are answers (:meth:`_save`)."""
        self._started: set[str] = set()
        self._unread: dict[str, tuple[Mastery, Callable[[Mastery], None] | None]] = {}
        self._own: dict[str, list[Attempt]] = {}  # an unread student's answers of this session
        self._merging: set[str] = set()
        self._dealt: set[tuple[str, str]] = set()  # (student, deal) played in this session
        self._matches: dict[int, Match] = {}  # the session's matches by number (:meth:`playing`)
        self._now: Callable[[], str] = utc_now
        if clock is not None:  # an injected clock (tests, simulated days): its time is saved
            self._now = lambda: clock().astimezone(timezone.utc).isoformat(
                timespec="microseconds")

    def now(self) -> str:
        """The time an attempt made now carries (ISO 8601 UTC, microseconds): the session's
        clock when it has one."""
        return self._now()

    def start(self, student: str) -> None:
        """Open this session for ``student`` (once per student)."""
        if student in self._started:
            return
        self._started.add(student)
        started = self._now()
        self._save(lambda: self.store.start_session(student, self.session_id, started))
        self.flush()

    def load_mastery(self, student: str, params: Params,
                     on_read: Callable[[Mastery], None] | None = None) -> Mastery:
        """The student's saved mastery. A student with answers but no saved mastery rows
        (their rows were dropped when two spellings of their name were merged,
        :mod:`tutor.storage.store` version 3) gets the mastery replayed from the answers.

        While the store cannot answer, a fresh mastery: the answers count from here on and
        are all saved, but this mastery is not the student's, so it is never saved as theirs
        (issue 51: a page opened during an outage wrote its blank start over a skill mastered
        before). Once the store answers again, the saved mastery is read and this session's
        own answers are replayed onto it (:meth:`_merge`); the mastery returned becomes that
        merged one, in place, and ``on_read`` is called with the saved mastery read."""
        # lazy: `import tutor` loads no store, no sqlite3 (test_loading_a_lesson_loads_no_store)
        from tutor.storage.store import StoreBusyError

        try:
            return self._read_mastery(student, params)
        except StoreBusyError:
            live = Mastery(params)
            self._unread[student] = (live, on_read)
            self._own[student] = []
            return live

    def _read_mastery(self, student: str, params: Params) -> Mastery:
        mastery = load_mastery(self.store, student, params)
        if mastery.states:
            return mastery
        attempts = [a for a in self.store.attempts(student) if a.session != self.session_id]
        if not attempts:
            return mastery
        rebuilt = rebuild_mastery(attempts, lesson_params())
        rebuilt.params = params
        rebuilt.said = mastery.said  # what the tutor said once is not in the answers
        return rebuilt

    @property
    def unread(self) -> frozenset[str]:
        """The students whose saved mastery this session could not read yet (the store did
        not answer when they started): their mastery is not saved until it is."""
        return frozenset(self._unread)

    @property
    def shared(self) -> bool:
        """The store is a class's (:attr:`tutor.storage.store.Store.shared`): it remembers
        the deals each student played, and the session deals every match from a seed."""
        return bool(getattr(self.store, "shared", False))

    def first_deal(self, student: str, deal: str | None) -> bool:
        """Whether ``student`` plays ``deal`` (:func:`tutor.session.settings.deal_key`) of
        this lesson for the first time, so that its answers are evidence (issue 51). Only a
        class's store remembers deals (:attr:`tutor.storage.store.Store.shared`): elsewhere,
        and for a deal without a seed (a fresh one, new by construction), every deal is new.
        A store busy or out of reach now: new, and the deal is recorded once it answers."""
        # lazy: `import tutor` loads no store, no sqlite3 (test_loading_a_lesson_loads_no_store)
        from tutor.storage.store import StoreBusyError

        if deal is None or not self.shared:
            return True
        if (student, deal) in self._dealt:  # the same deal again in this session (Game setup)
            return False
        self._dealt.add((student, deal))
        if self._unsaved:  # the store is busy: keep the order of the writes
            self._save(lambda: self.store.record_deal(student, self.lesson, deal,
                                                      self.session_id))
            return True
        try:
            return self.store.record_deal(student, self.lesson, deal, self.session_id)
        except StoreBusyError:
            self._save(lambda: self.store.record_deal(student, self.lesson, deal,
                                                      self.session_id))
            return True

    def revealed(self, student: str) -> list[Numbers] | None:
        """The numbers of the questions "Show me" revealed to ``student`` in this lesson,
        in any session (the store's give-up rows of the student in the lesson); None while
        the store is busy or out of reach."""
        # lazy: `import tutor` loads no store, no sqlite3 (test_loading_a_lesson_loads_no_store)
        from tutor.storage.store import StoreError

        try:
            rows = self.store.revealed(student, self.lesson)
        except StoreError:
            return None
        return [question_numbers(problem, step, expected) for problem, step, expected, _ in rows]

    def lesson_ended(self, student: str, reason: str) -> None:
        """The play page ended this lesson for ``student`` (``reason``: its
        :data:`tutor.course.lesson_end.EndReason`): the store records it, at this session's
        clock, after the answers before it (the teacher page's "finished" reads it: issue
        52 part 3). A store busy now gets it when it answers, in order."""
        when = self._now()
        self._save(lambda: self.store.mark_session(student, self.session_id, self.lesson,
                                                   reason, when))
        self.flush()

    def playing(self, number: int, match: Match) -> None:
        """This session plays ``match``, its match number ``number``: an answer about one of
        its moves goes to the store with the match's record as it is then, which a class's
        store service replays (issue 51 part 2:
        :func:`tutor.classroom.played_games.game_misfits`)."""
        self._matches[number] = match

    def attempt(self, attempt: Attempt) -> None:
        """Save ``attempt`` as it is (the store numbers nothing of it), with the record of
        its match when it is about a move of the game (:meth:`playing`)."""
        own = self._own.get(attempt.student)
        if own is not None:
            own.append(attempt)
        move = move_of(attempt.problem)
        match = None if move is None else self._matches.get(move[0])
        self._save(lambda: self.store.add_attempt(
            attempt, None if match is None else match.to_record()), droppable=True)
        self.flush()

    def save_mastery(self, student: str, mastery: Mastery) -> None:
        """Save ``student``'s ``mastery`` (a copy of it now). A mastery not read from the store
        is not saved: the merge that reads the saved one and adds this session's answers to
        it waits in the queue in its place (once)."""
        if student in self._unread:
            if student not in self._merging:
                self._merging.add(student)
                self._save(lambda: self._merge(student))
            return
        rows = mastery.to_dict()  # a copy: later answers change the mastery, not these rows
        self._save(lambda: self.store.save_mastery_rows(student, rows))

    def _merge(self, student: str) -> None:
        """Read ``student``'s saved mastery (the store answers again), replay this session's
        own answers onto it (the one evidence rule, :func:`rebuild_mastery`), make the
        session's mastery that, and save it. Nothing saved before is overwritten by a state
        that did not see it."""
        live, on_read = self._unread[student]
        saved = self._read_mastery(student, live.params)
        merged = rebuild_mastery(self._own[student], lesson_params(), start=saved)
        merged.said = saved.said | live.said
        self.store.save_mastery_rows(student, merged.to_dict())
        live.states, live.said = merged.states, merged.said
        del self._unread[student], self._own[student]
        self._merging.discard(student)
        if on_read is not None:
            on_read(saved)

    refused: StoreError | None = None
    """The last write the store refused for what it was, not for being busy (None: none);
    it was dropped, and the writes after it went on."""

    def _save(self, write: Callable[[], object], droppable: bool = False) -> None:
        """Queue ``write``; a ``droppable`` one (an answer) the store refuses is dropped and
        said (:attr:`refused`), any other refusal raises (a name the store cannot keep)."""
        self._unsaved.append(write)
        if droppable:
            self._droppable.add(id(write))

    @property
    def unsaved(self) -> int:
        """How many writes wait for a busy progress file."""
        return len(self._unsaved)

    def flush(self) -> bool:
        """Write what waits, oldest first; True once nothing waits. While the store stays
        busy the writes are kept for the next try: never dropped, never out of order."""
        # lazy: `import tutor` loads no store, no sqlite3 (test_loading_a_lesson_loads_no_store)
        from tutor.storage.store import StoreBusyError, StoreError

        while self._unsaved:
            try:
                self._unsaved[0]()
            except StoreBusyError:
                return False
            except StoreError as err:
                # An answer refused for what it is (the service's replay, a limit): sending it
                # again gets the same answer, and keeping it first would hold every later one.
                if id(self._unsaved[0]) not in self._droppable:
                    raise
                self.refused = err
            self._droppable.discard(id(self._unsaved.pop(0)))
        return True
