"""Issue 51, part 5: nothing is lost, ever, while the progress store is down. A page that
starts during an outage keeps the answers and saves them when the store is back, and never
writes a mastery it did not read over the one saved before."""

from __future__ import annotations

import random
from collections.abc import Mapping
from pathlib import Path

from tests import driving as drive
from tests.outage import OutageStore
from tutor import Session
from tutor.session.saving import load_mastery


def answer_right(s: Session, n: int, seed: int = 0) -> list[str]:
    """Play on (random moves) and answer ``n`` questions right at the first try; their skills."""
    rng = random.Random(seed)
    skills = []
    for _ in range(20_000):
        q = s.pending_question
        if q is not None:
            drive.answer(s, str(q.expected))
            skills.append(q.skill)
            if len(skills) == n:
                return skills
        elif s.current_player() is not None:
            drive.play(s, rng.randrange(len(s.legal_actions())))
        elif s.round.over and not s.match.over:
            drive.new_round(s)
        else:
            drive.new_match(s)
    raise AssertionError("stuck")


def test_a_page_opened_during_an_outage_loses_no_answer_and_lowers_no_mastery(
        tmp_path: Path) -> None:
    db = tmp_path / "progress.sqlite3"
    store = OutageStore(db, busy_timeout=0.01, retries=0)
    before = drive.start(Session.from_lesson("04-times", lang="en", student="hana",
                                             store=store, seed=11))
    answer_right(before, 12, seed=1)
    assert before.flush()
    saved = store.mastery_rows("hana")
    assert saved and any(row["mastered"] for row in saved.values())

    store.down = True  # the store service stopped (or its database) before the page opens
    during = drive.start(Session.from_lesson("04-times", lang="en", student="hana",
                                             store=store, seed=23))
    assert during.unsaved_message == (  # the page says so, once, and plays on
        "The class's store cannot be reached now: play on, your answers wait on this page and "
        "are saved when it is back, and your progress so far shows again then.")
    skills = answer_right(during, 5, seed=2)
    assert during.unsaved > 0 and not during.flush()
    assert during.right_and_asked("hana") == (5, 5)

    store.down = False  # back
    assert during.flush() and during.unsaved == 0 and during.unsaved_message is None
    rows = store.attempts("hana")
    assert sum(1 for a in rows if a.session == during.session_id
               and a.outcome.value == "CORRECT") == 5
    after = store.mastery_rows("hana")
    for skill, row in saved.items():  # nothing saved before is lowered
        assert after[skill]["p_known"] >= row["p_known"], skill
        assert after[skill]["mastered"] or not row["mastered"], skill
        assert after[skill]["asked"] == row["asked"] + skills.count(skill), skill
    # the page's mastery is now the merged one, and its tally still counts only its answers
    assert during.mastery.states == load_mastery(store, "hana").states
    assert during.right_and_asked("hana") == (5, 5)
    answer_right(during, 1, seed=3)
    assert during.right_and_asked("hana") == (6, 6)
    during.close()
    store.close()


def test_an_answer_the_store_refuses_does_not_hold_the_answers_after_it(
        tmp_path: Path) -> None:
    """The class's store refuses a row it finds the tutor could not have recorded (the
    service's replay answers 400). That write is dropped and said once on the page; it does
    not stay first in the queue, where it held every later answer unsaved (and raised at each
    save)."""
    from tutor.storage.records import Attempt, StoreError
    from tutor.storage.store import Store

    class Refusing(Store):
        refuse = 1

        def add_attempt(self, attempt: Attempt, game: Mapping[str, object] | None = None
                        ) -> int:
            if self.refuse:
                self.refuse -= 1
                raise StoreError("the answer does not fit the question")
            return super().add_attempt(attempt, game)

    store = Refusing(tmp_path / "p.sqlite3")
    s = drive.start(Session.from_lesson("04-times", lang="en", student="ana", store=store,
                                        seed=3))
    answer_right(s, 3)
    assert s.flush() and s.unsaved == 0
    rows = store.attempts("ana")
    assert len({(a.problem, a.step) for a in rows}) == 2  # the 2nd and 3rd answers, saved
    said = s.unsaved_message
    assert said is not None and "the answer does not fit the question" in said
    store.close()
