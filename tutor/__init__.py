"""The Leonard-Domino tutor: questions on the engine's plays, answers, hints, diagnosis, progress.

A package per part of the design (DESIGN.md): ``teaching`` (questions, answers, diagnosis,
hints, evidence, mastery, practice, review), ``session`` (the session that owns the loop, its
snapshot, narration), ``storage`` (rows on SQLite or PostgreSQL, file formats), ``course``
(lesson files, deals, when a lesson ends), ``classroom`` (what the pages show as data,
identity, the link, server settings), ``commands`` (teacher commands, simulated students) and
``ui`` (the only widgets). ``i18n`` (translations) and ``games`` (one entry per game) serve
them all. What each may import is pyproject.toml's import contracts (``lint-imports``); this
file re-exports the public names of ``teaching``, ``session`` and ``storage``.

Python runs this file first for every import of a ``tutor.…`` module, a server extension's
(:mod:`tutor.hub.page_xsrf`) too, so it loads nothing itself: each public name is imported
from its module the first time it is asked for (:func:`__getattr__`, PEP 562), and
``import tutor`` loads no session, no store and no widgets.

>>> from tutor import Session
>>> s = Session(seed=1, lang="en")
>>> s.snapshot().round, s.snapshot().players
(1, 2)
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the names as mypy and readers see them; at run time, __getattr__
    from tutor.session.narration import describe_event
    from tutor.session.session import Session, SessionError
    from tutor.session.snapshot import Snapshot
    from tutor.storage.store import Store
    from tutor.teaching.answers import AnswerError, Reading, parse_answer, read_answer
    from tutor.teaching.asking import Feedback
    from tutor.teaching.diagnosis import CATALOG, Diagnosis, diagnose
    from tutor.teaching.hints import Hint, hint_ladder
    from tutor.teaching.mastery import BKTParams, Mastery
    from tutor.teaching.questions import Question, QuestionError, question_for

__all__ = [
    "CATALOG", "AnswerError", "BKTParams", "Diagnosis", "Feedback", "Hint", "Mastery",
    "Question", "QuestionError", "Reading", "Session", "SessionError", "Snapshot", "Store",
    "describe_event", "diagnose", "hint_ladder", "parse_answer", "question_for",
    "read_answer",
]

_HOME: dict[str, str] = {
    "describe_event": "tutor.session.narration",
    "Session": "tutor.session.session", "SessionError": "tutor.session.session",
    "Snapshot": "tutor.session.snapshot",
    "Store": "tutor.storage.store",
    "AnswerError": "tutor.teaching.answers", "Reading": "tutor.teaching.answers",
    "parse_answer": "tutor.teaching.answers", "read_answer": "tutor.teaching.answers",
    "Feedback": "tutor.teaching.asking",
    "CATALOG": "tutor.teaching.diagnosis", "Diagnosis": "tutor.teaching.diagnosis",
    "diagnose": "tutor.teaching.diagnosis",
    "Hint": "tutor.teaching.hints", "hint_ladder": "tutor.teaching.hints",
    "BKTParams": "tutor.teaching.mastery", "Mastery": "tutor.teaching.mastery",
    "Question": "tutor.teaching.questions", "QuestionError": "tutor.teaching.questions",
    "question_for": "tutor.teaching.questions",
}
"""Each public name's module. Only what is asked for is loaded: ``from tutor import
hint_ladder`` loads the hints, not the session or the store (nor sqlite3)."""


def __getattr__(name: str) -> object:
    """A public name, from its module (:data:`_HOME`), kept here once asked for."""
    home = _HOME.get(name)
    if home is None:
        raise AttributeError(f"module 'tutor' has no attribute {name!r}")
    value: object = getattr(importlib.import_module(home), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
