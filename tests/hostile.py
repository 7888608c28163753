"""What a class throws at the code that reads files (issue 36): upload names, encodings, sizes,
numbers and special files. New file-reading code is run against the whole set
(the ``hostile_*`` fixtures of the root ``conftest.py``): each must cost only itself, with one
line saying why, never a traceback, a hang or a file left behind.
"""

from __future__ import annotations

import codecs
import json
import os
from pathlib import Path

UPLOAD_NAMES: tuple[str, ...] = (
    "..", ".", "", "/", "a\x00b.csv", "x" * 300, "leonard-progress-" + "😀" * 60 + ".csv",
    "/etc/passwd", "../../outside.csv", "a/b/c.csv", "C:\\Users\\ana\\p.csv", "con",
    "line\nbreak.csv", "tab\t.csv", "\x1b[2Jclear.csv", "\u202eright-to-left.csv",
    "\ud800lone.csv", "ñandú progreso.csv", " ", "~", "-rf.csv", "*.csv", "$(id).csv",
)
"""File names an upload may carry: the name of an upload is data, never a path."""


def lesson(lesson_id: str = "odd", **extra: object) -> dict[str, object]:
    """A good lesson file's data (``extra`` added at its top level)."""
    return {"id": lesson_id, "title": {"es": "Raro", "en": "Odd"}, **extra}


def _text(data: object) -> str:
    return json.dumps(data, ensure_ascii=False)


# Lesson files as bytes, by a name that says what is odd about them; each is a broken lesson
# (the problem its line must name: a fragment of it) or a good one (None).
LESSON_BYTES: dict[str, tuple[bytes, str | None]] = {
    "utf8-bom": (codecs.BOM_UTF8 + _text(lesson("utf8-bom")).encode(), None),
    "utf16": (_text(lesson("utf16")).encode("utf-16"), "not a text file (UTF-8)"),
    "latin1": (_text(lesson("latin1", description={"es": "ñandú", "en": "rhea"}))
               .encode("latin-1"), "not a text file (UTF-8)"),
    "lone-surrogate": (b'{"id": "lone-surrogate", "title": {"es": "\\ud800", "en": "b"}}',
                       "title.es"),
    "nul": (b'{"id": "nul", "title": {"es": "a\x00", "en": "b"}}', "not valid JSON"),
    "empty": (b"", "not valid JSON"),
    "huge-int": (('{"id": "huge-int", "title": {"es": "a", "en": "b"}, "game": {"seed": '
                  + "9" * 5000 + "}}").encode(), "number"),
    "huge-float": (b'{"id": "huge-float", "title": {"es": "a", "en": "b"}, "mastery": '
                   b'{"p_init": 1e400}}', "mastery.p_init"),
    "nan": (b'{"id": "nan", "title": {"es": "a", "en": "b"}, "mastery": {"p_init": NaN}}',
            "NaN"),
    "infinity": (b'{"id": "infinity", "title": {"es": "a", "en": "b"}, "game": '
                 b'{"rounds": Infinity}}', "Infinity"),
    "too-large": ((_text(lesson("too-large", title={"es": "a" * 1_000_001, "en": "b"})))
                  .encode(), "too large"),
    "deep": (b"[" * 100_000 + b"]" * 100_000, "deeply"),
    "long-id": (_text(lesson("x" * 65)).encode(), "id"),
}
"""Lesson files whose bytes are odd (encodings, sizes, numbers)."""


def write_lesson_files(folder: Path) -> dict[str, str | None]:
    """Write :data:`LESSON_BYTES` into ``folder`` (``<name>.json``); return each file's name
    with the fragment its problem line must hold (None: a good lesson)."""
    folder.mkdir(parents=True, exist_ok=True)
    out = {}
    for name, (data, problem) in LESSON_BYTES.items():
        file = "x" * 65 if name == "long-id" else name
        (folder / f"{file}.json").write_bytes(data)
        out[f"{file}.json"] = problem
    return out


def make_special_files(folder: Path) -> dict[str, str]:
    """Files that are not regular files, under lesson-like names, in ``folder``: a FIFO
    (reading it waits for a writer for ever), a symlink to ``/dev/zero`` (endless), a
    folder, a dangling symlink. Returns each name with the fragment its line must hold."""
    folder.mkdir(parents=True, exist_ok=True)
    os.mkfifo(folder / "fifo.json")
    (folder / "zero.json").symlink_to("/dev/zero")
    (folder / "folder.json").mkdir()
    (folder / "dangling.json").symlink_to(folder / "nowhere")
    return {"fifo.json": "not a regular file", "zero.json": "not a regular file",
            "folder.json": "folder", "dangling.json": "no such"}
