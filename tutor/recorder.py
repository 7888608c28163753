"""Saving a lesson's progress: every attempt and each student's mastery go to the progress
store, in order, and never get lost. A write the store cannot take now (it is busy: a class
saving at once) waits in memory and goes first with the next write or :meth:`Recorder.flush`.
"""

from __future__ import annotations

import copy
import uuid
from collections.abc import Callable, Sequence
from datetime import datetime, timezone
from typing import Any

from tutor.i18n import N_
from tutor.mastery import Mastery

__all__ = ["NOT_SAVED_YET", "Recorder"]

NOT_SAVED_YET = N_("Your last answers are not saved yet: the progress file is busy. They will "
                   "be saved as soon as it is free.")
"""Shown to the student while answers wait in memory for a busy progress file."""


class Recorder:
    """The progress of one session (``session_id``) of one lesson, written to ``store``."""

    def __init__(self, store: Any, lesson: str,
                 clock: Callable[[], datetime] | None = None) -> None:
        from tutor.store import utc_now

        self.store = store
        self.lesson = lesson
        self.session_id = uuid.uuid4().hex
        self._unsaved: list[Callable[[], object]] = []
        self._started: set[str] = set()
        self._now: Callable[[], str] = utc_now
        if clock is not None:  # an injected clock (tests, simulated days): its time is saved
            self._now = lambda: clock().astimezone(timezone.utc).isoformat(
                timespec="microseconds")

    def start(self, student: str) -> None:
        """Open this session for ``student`` (once per student)."""
        if student in self._started:
            return
        self._started.add(student)
        started = self._now()
        self._save(lambda: self.store.start_session(student, self.session_id, started))
        self.flush()

    def load_mastery(self, student: str, params: Any) -> Mastery:
        """The student's saved mastery (a fresh one while the store is busy: the answers
        still count from here on, and are all saved)."""
        from tutor.store import StoreBusyError

        try:
            mastery: Mastery = self.store.load_mastery(student, params)
        except StoreBusyError:
            mastery = Mastery(params)
        return mastery

    def attempt(self, student: str, *, problem: str, step: str, outcome: str,
                input_text: str, feedback: str, kc: Sequence[str], hints: int,
                duration: float, expected: int | None, answered: int | None) -> None:
        record = dict(lesson=self.lesson, problem=problem, step=step, outcome=outcome,
                      input_text=input_text, feedback=feedback, kc=tuple(kc), hints=hints,
                      duration=duration, expected=expected, answered=answered,
                      time=self._now())
        self._save(lambda: self.store.record_attempt(student, self.session_id, **record))
        self.flush()

    def save_mastery(self, student: str, mastery: Mastery) -> None:
        saved = copy.deepcopy(mastery)
        self._save(lambda: self.store.save_mastery(student, saved))

    def _save(self, write: Callable[[], object]) -> None:
        self._unsaved.append(write)

    @property
    def unsaved(self) -> int:
        """How many writes wait for a busy progress file."""
        return len(self._unsaved)

    def flush(self) -> bool:
        """Write what waits, oldest first; True once nothing waits. While the store stays
        busy the writes are kept for the next try: never dropped, never out of order."""
        from tutor.store import StoreBusyError

        while self._unsaved:
            try:
                self._unsaved[0]()
            except StoreBusyError:
                return False
            self._unsaved.pop(0)
        return True
