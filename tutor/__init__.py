"""The Leonard-Domino tutor: questions on the engine's plays, answers, hints, diagnosis, progress.

A package per part of the design (DESIGN.md), each ``__init__`` saying what it may import:
``teaching`` (questions, answers, diagnosis, hints, evidence, mastery, practice, review),
``session`` (the session that owns the loop, its snapshot, narration), ``storage`` (rows on
SQLite or PostgreSQL, file formats), ``course`` (lesson files, deals, when a lesson ends),
``classroom`` (what the pages show as data, identity, the link, server settings),
``commands`` (teacher commands, simulated students) and ``ui`` (the only widgets).
``i18n`` (translations) and ``games`` (one entry per game) serve them all.

The layer test (tests/tutor/test_tutor_layers.py) reads each package's "May import:" line as
the rule for its modules. A module directly in ``tutor/`` has its own line in its own
docstring: ``i18n`` imports nothing of the tutor, ``games`` the engine and ``i18n``,
``__main__`` the commands and what they start, and ``old_names`` (the modules' old names,
still importable) nothing. This file, which re-exports the public names, has the line below.
May import: ``tutor.old_names``, ``tutor.teaching``, ``tutor.session`` and ``tutor.storage``.

>>> from tutor import Session
>>> s = Session(seed=1, lang="en")
>>> s.snapshot().round, s.snapshot().players
(1, 2)
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tutor import old_names
from tutor.session.narration import describe_event
from tutor.session.session import Session, SessionError
from tutor.session.snapshot import Snapshot
from tutor.teaching.answers import AnswerError, Reading, parse_answer, read_answer
from tutor.teaching.asking import Feedback
from tutor.teaching.diagnosis import CATALOG, Diagnosis, diagnose
from tutor.teaching.hints import Hint, hint_ladder
from tutor.teaching.mastery import BKTParams, Mastery
from tutor.teaching.questions import Question, QuestionError, question_for

if TYPE_CHECKING:
    from tutor.storage.store import Store

old_names.install()  # what a config or a script wrote before a module moved still imports

__all__ = [
    "CATALOG", "AnswerError", "BKTParams", "Diagnosis", "Feedback", "Hint", "Mastery",
    "Question", "QuestionError", "Reading", "Session", "SessionError", "Snapshot", "Store",
    "describe_event", "diagnose", "hint_ladder", "parse_answer", "question_for",
    "read_answer",
]


def __getattr__(name: str) -> type[Store]:
    if name == "Store":
        # lazy: `import tutor` loads no store, no sqlite3 (test_loading_a_lesson_loads_no_store)
        from tutor.storage.store import Store

        return Store
    raise AttributeError(f"module 'tutor' has no attribute {name!r}")
