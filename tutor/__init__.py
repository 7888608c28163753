"""The Leonard-Domino tutor: questions on the engine's plays, answers, hints, diagnosis, progress.

>>> from tutor import Session
>>> s = Session(seed=1, lang="en")
>>> s.snapshot().round, s.snapshot().players
(1, 2)
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tutor.answers import AnswerError, Reading, parse_answer, read_answer
from tutor.asking import Feedback
from tutor.diagnosis import CATALOG, Diagnosis, diagnose
from tutor.hints import Hint, hint_ladder
from tutor.mastery import BKTParams, Mastery
from tutor.narration import describe_event
from tutor.questions import Question, QuestionError, question_for
from tutor.session import Session, SessionError
from tutor.snapshot import Snapshot

if TYPE_CHECKING:
    from tutor.store import Store

__all__ = [
    "CATALOG", "AnswerError", "BKTParams", "Diagnosis", "Feedback", "Hint", "Mastery",
    "Question", "QuestionError", "Reading", "Session", "SessionError", "Snapshot", "Store",
    "describe_event", "diagnose", "hint_ladder", "parse_answer", "question_for",
    "read_answer",
]


def __getattr__(name: str) -> type[Store]:
    # The progress store pulls in sqlite3; load it only when asked for.
    if name == "Store":
        from tutor.store import Store

        return Store
    raise AttributeError(f"module 'tutor' has no attribute {name!r}")
