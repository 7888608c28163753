"""Issue 41 part 3: a name is one student however it is typed. "José" with a precomposed é
(NFC) and with a combining accent (NFD), or with other capitals, is one student in the
store, on SQLite and PostgreSQL; a store written before (version 2, with such names as two
students) is migrated into one student each, and the merges are listed for the teacher."""

from __future__ import annotations

import unicodedata
from collections.abc import Callable

import pytest

from tutor.session.saving import Recorder, load_mastery, save_mastery
from tutor.storage.names import name_key, same_name
from tutor.storage.store import SCHEMA_VERSION, Attempt, Outcome, Store, StoreAccessError
from tutor.teaching.mastery import Mastery, default_params

NFC = unicodedata.normalize("NFC", "José")
NFD = unicodedata.normalize("NFD", "José")


def _attempt(student: str, session: str, second: int, answer: str = "12") -> Attempt:
    return Attempt(student, session, f"2026-12-01T10:00:{second:02d}.000000+00:00", "04-times",
                   "x/3 on 4", "gain", Outcome.CORRECT, answer, "", "multiply", 1, True, 0,
                   2.0, 12, int(answer))


def test_the_two_spellings_differ_as_text_and_are_one_name() -> None:
    assert NFC != NFD and len(NFD) == len(NFC) + 1
    assert same_name(NFC, NFD) and same_name(NFC, "JOSÉ") and same_name("  josé ", NFD)
    assert not same_name("José", "Jose")
    assert name_key("Ana  María") == name_key("ana maría")


def test_nfc_and_nfd_jose_are_one_student(store_urls: Callable[[], str]) -> None:
    with Store(store_urls()) as store:
        s1 = store.start_session(NFC)
        store.add_attempt(_attempt(NFC, s1, 1))
        s2 = store.start_session(NFD)
        store.add_attempt(_attempt(NFD, s2, 2))
        store.add_attempt(_attempt("JOSÉ", s2, 3))
        assert store.students() == [NFC]  # shown as first written
        assert len(store.attempts(NFD)) == len(store.attempts("josé")) == 3
        assert {a.student for a in store.attempts()} == {NFC}
        m = Mastery()
        m.record("multiply", True)
        save_mastery(store, NFD, m)
        assert load_mastery(store, NFC).states == m.states


def test_a_store_for_one_student_takes_their_name_in_any_spelling(
        store_urls: Callable[[], str]) -> None:
    url = store_urls()
    with Store(url) as class_store:
        class_store.start_session(NFC)
    with Store(url, owner=NFD) as own:
        s = own.start_session("josé")
        own.add_attempt(_attempt(NFC, s, 4))
        assert own.students() == [NFC]
        assert len(own.attempts()) == 1
        with pytest.raises(StoreAccessError):
            own.attempts("ana")


class _Raw:
    """The store's database opened without the tutor (which would migrate it at once)."""

    def __init__(self, url: str) -> None:
        if url.startswith("postgresql"):
            import psycopg

            self.conn = psycopg.connect(url, autocommit=True)
            self.mark = "%s"
        else:
            import sqlite3

            self.conn = sqlite3.connect(url, isolation_level=None)
            self.mark = "?"

    def run(self, sql: str, args: tuple[object, ...] = ()) -> None:
        self.conn.execute(sql.replace("?", self.mark), args)

    def back_to_version_2(self) -> None:
        """The store as version 2 left it: no name keys, no merges table, no evidence."""
        for statement in ("DROP INDEX students_key", "DROP TABLE name_merges",
                          "ALTER TABLE students DROP COLUMN name_key",
                          "ALTER TABLE mastery DROP COLUMN evidence",
                          "UPDATE schema_version SET version = 2"):
            self.run(statement)


def test_a_version_2_store_merges_the_spellings_into_one_student(
        store_urls: Callable[[], str]) -> None:
    url = store_urls()
    Store(url).close()
    raw = _Raw(url)
    raw.back_to_version_2()
    # Three spellings as three students (version 2 matched names exactly), and ana.
    for sid, name in ((1, NFC), (2, "ana"), (3, NFD), (4, "josé")):
        raw.run("INSERT INTO students (id, name, created) VALUES (?, ?, ?)",
                (sid, name, "2026-12-01T09:00:00+00:00"))
    for sid, session in ((1, "s1"), (2, "s2"), (3, "s3"), (4, "s4")):
        raw.run("INSERT INTO sessions (id, student_id, started) VALUES (?, ?, ?)",
                (session, sid, "2026-12-01T09:00:00+00:00"))
    rows = [(1, _attempt(NFC, "s1", 1)), (3, _attempt(NFD, "s3", 2)),
            (4, _attempt("josé", "s4", 3)), (2, _attempt("ana", "s2", 4)),
            # the same answer under two spellings (a file loaded twice): kept once
            (3, _attempt(NFD, "s1", 1))]
    for sid, a in rows:
        raw.run("INSERT INTO attempts (student_id, session, time, lesson, problem, step, "
                "outcome, input, feedback, kc, attempt_at_step, first_attempt, hints, "
                "duration, expected, answered) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, "
                "?, ?)", (sid, a.session, a.time, a.lesson, a.problem, a.step,
                          a.outcome.value, a.input, a.feedback, a.kc, a.attempt_at_step,
                          int(a.first_attempt), a.hints, a.duration, a.expected, a.answered))
    for sid in (1, 2, 3):
        raw.run("INSERT INTO mastery (student_id, skill, p_known, mastered, asked, "
                "first_try_right, hints_used, total_seconds) VALUES (?, 'multiply', 0.5, 0, "
                "1, 1, 0, 2.0)", (sid,))
    raw.conn.close()
    with Store(url) as store:  # opened: migrated to version 3
        assert store.db.conn.execute("SELECT version FROM schema_version").fetchone()[0] == \
            SCHEMA_VERSION
        assert sorted(store.students()) == [NFC, "ana"]
        jose = store.attempts("JOSE\u0301")
        assert sorted(a.session for a in jose) == ["s1", "s3", "s4"]
        assert {a.student for a in jose} == {NFC}
        merges = store.name_merges()
        assert [(kept, merged) for kept, merged, _ in merges] == [(NFC, NFD), (NFC, "josé")]
        # The teacher page says so for a month (in the teacher's language).
        from datetime import datetime, timedelta, timezone

        from tutor.ui.pages import name_merge_notes

        notes = name_merge_notes(store, "en")
        assert len(notes) == 2 and all(f"“{NFC}”" in n for n in notes)
        assert "separate accent mark" in notes[0] and "separate accent" not in notes[1]
        later = datetime.now(timezone.utc) + timedelta(days=31)
        assert name_merge_notes(store, "es", later) == []
        # José's mastery rows go; ana's stay. A page rebuilds José's from his answers.
        assert store.mastery_rows(NFC) == {}
        assert store.mastery_rows("ana") != {}
        rebuilt = Recorder(store, "04-times").load_mastery(NFD, default_params())
        assert rebuilt.states["multiply"].asked == 3
        s = store.start_session("JOSÉ")  # and the tutor writes on, under the one student
        store.add_attempt(_attempt(NFD, s, 9))
        assert len(store.attempts(NFC)) == 4
    with Store(url, owner="ana") as own, pytest.raises(StoreAccessError):
        own.name_merges()
