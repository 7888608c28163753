"""What a lesson id is: small letters, digits and dashes, at most :data:`MAX_ID_LENGTH`.

Here, below the lessons (:mod:`tutor.course.lessons` reads it from here), so that the store
can check the lessons of an assignment it is sent without loading any lesson.
"""

from __future__ import annotations

import re

__all__ = ["LESSON_ID", "MAX_ID_LENGTH"]

MAX_ID_LENGTH = 64
"""The longest lesson id: what a link's ``?lesson=`` takes (:data:`LESSON_ID`), and so what
the schema allows (a longer id would be saved, then never found)."""
LESSON_ID = re.compile(rf"[a-z0-9][a-z0-9-]{{0,{MAX_ID_LENGTH - 1}}}")
"""A lesson id (what a link's ``?lesson=`` gives, and the file's name in a lessons folder):
small letters, digits and dashes."""
