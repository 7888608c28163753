"""Issue 51 part 3, "a deal gives evidence once": the store remembers the deals each student
played (schema version 5), a deal opened a second time on a class server is practice, and an
answer "Show me" revealed is no proof when its numbers come again, in any tab; the replay
agrees with the live tutor."""

from __future__ import annotations

import random
import sqlite3
import threading
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest

from tests import driving as drive
from tests.tutor.test_store_service import Service, start_service
from tutor import Session
from tutor.course.lessons import lesson_params
from tutor.session.saving import load_mastery
from tutor.storage.records import MasteryValue, Outcome
from tutor.storage.store import SCHEMA_VERSION, Store, StoreAccessError, StoreError
from tutor.teaching.evidence import REPLAYED, SHOWN, step_flags
from tutor.teaching.replay import first_answer_evidence, rebuild_mastery

LESSON = "04-times"
DEAL = "leonard:2:7:0123456789abcdef"


# --- the store ------------------------------------------------------------------------------

def test_the_store_records_each_students_deal_once(store_url: str) -> None:
    with Store(store_url) as store:
        assert store.record_deal("ana", LESSON, DEAL, "tab-a")  # the first to play it
        assert store.record_deal("ana", LESSON, DEAL, "tab-a")  # the same session again
        assert not store.record_deal("ANA", LESSON, DEAL, "tab-b")  # another tab: practice
        assert store.record_deal("beto", LESSON, DEAL, "tab-c")  # another student's own
        assert store.record_deal("ana", "05-squares", DEAL, "tab-d")  # another lesson
        assert [(lesson, deal, session) for lesson, deal, session, _ in store.deals("ana")] \
            == [(LESSON, DEAL, "tab-a"), ("05-squares", DEAL, "tab-d")]
        with pytest.raises(StoreError, match="deal"):
            store.record_deal("ana", LESSON, "", "tab-e")
        with pytest.raises(StoreError, match="session"):
            store.record_deal("ana", LESSON, DEAL, "s" * 201)
    with Store(store_url, owner="beto") as beto:
        with pytest.raises(StoreAccessError):
            beto.record_deal("ana", LESSON, "another deal", "tab-f")
        with pytest.raises(StoreAccessError):
            beto.deals("ana")
        assert [d[1] for d in beto.deals("beto")] == [DEAL]


def test_two_tabs_opening_one_deal_at_once_give_one_first(store_url: str) -> None:
    """Eight pages of one student open seed 7 at the same moment: exactly one is first."""
    with Store(store_url):
        pass  # the tables, made once
    barrier = threading.Barrier(8)
    firsts: list[bool] = []

    def tab(k: int) -> None:
        with Store(store_url, busy_timeout=10) as store:
            barrier.wait()
            firsts.append(store.record_deal("ana", LESSON, DEAL, f"tab-{k}"))

    threads = [threading.Thread(target=tab, args=(k,)) for k in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert sorted(firsts) == [False] * 7 + [True]


def test_a_version_4_store_gets_the_deals_table(store_url: str) -> None:
    """A store of version 4 (before issue 51) is brought to today's: the deals table is made
    (version 5), every row already there stays."""
    with Store(store_url) as store:
        session = store.start_session("ana")
        store.record_attempt("ana", session, lesson=LESSON, problem="m1r1t1-4/x", step="gain",
                             outcome="CORRECT", input_text="12", kc="multiply", expected=12,
                             answered=12)
        store.db.conn.execute("DROP TABLE deals")
        store.db.conn.execute("DROP TABLE session_marks")  # version 6's
        store.db.conn.execute("UPDATE schema_version SET version = 4")
        assert "deals" not in store.db.tables()
    with Store(store_url) as store:
        assert store.db.conn.execute("SELECT version FROM schema_version").fetchall() == [
            (SCHEMA_VERSION,)]
        assert SCHEMA_VERSION == 7  # through 5, 6 (the session marks), then 7
        assert {"deals", "session_marks"} <= store.db.tables()
        assert [a.input for a in store.attempts("ana")] == ["12"]
        assert store.record_deal("ana", LESSON, DEAL, session)
        assert not store.record_deal("ana", LESSON, DEAL, "another tab")


def test_only_a_class_store_remembers_deals(tmp_path: Path) -> None:
    with Store(tmp_path / "mine.sqlite3") as mine:
        assert not mine.shared  # a student's own file, Binder's: link seeds as they are
    with Store(tmp_path / "class.sqlite3", shared=True) as served:
        assert served.shared  # the store service opens its SQLite file so


def test_the_class_servers_file_remembers_deals(tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """The README's class server names one file for every page in $LEONARD_TUTOR_DB: a page
    opens it as Store() and it remembers deals, so a second tab with the same seed is
    practice there too. Without the variable a page's store is the student's own file."""
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.delenv("LEONARD_TUTOR_DB", raising=False)
    with Store() as own:
        assert not own.shared
    monkeypatch.setenv("LEONARD_TUTOR_DB", str(tmp_path / "class.sqlite3"))
    with Store() as page:
        assert page.shared
    stores = [Store(), Store()]  # two tabs: each page opens Store() (tutor.ui.play.entry)
    first, again = (Session.from_lesson("04-times", lang="en", student="ana", seed=7,
                                        store=store) for store in stores)
    drive.start(first)
    drive.start(again)
    assert not first.replayed and again.replayed
    for s, store in zip((first, again), stores, strict=True):
        s.close()
        store.close()


# --- the sessions ---------------------------------------------------------------------------

def _rows(store: Store, student: str = "ana") -> dict[str, dict[str, MasteryValue]]:
    """The student's saved mastery rows of the skills some answer was evidence for (a page
    saves the prior of a skill it only looked at: no evidence)."""
    return {skill: row for skill, row in store.mastery_rows(student).items()
            if row["asked"] or row["scaffolded_right"] or row["streak"]}


def _to_question(s: Session, rng: random.Random) -> bool:
    """Play on (random moves) until a question waits; False once the match is over."""
    for _ in range(10_000):
        if s.pending_question is not None:
            return True
        if s.current_player() is not None:
            drive.play(s, rng.randrange(len(s.legal_actions())))
        elif s.round.over and not s.match.over and not s.lesson_over:
            drive.new_round(s)
        else:
            return False
    raise AssertionError("stuck")


def _answer_right(s: Session, questions: int, moves: int = 0) -> int:
    rng = random.Random(moves)
    answered = 0
    while answered < questions and _to_question(s, rng):
        q = s.pending_question
        assert q is not None
        assert drive.answer(s, str(q.expected)).kind == "correct"
        answered += 1
    return answered


def _agrees_with_replay(store: Store, student: str = "ana") -> None:
    """The mastery rebuilt from the stored answers is the one the live tutor saved."""
    saved = load_mastery(store, student)
    rebuilt = rebuild_mastery(store.attempts(student), lesson_params())
    assert set(rebuilt.states) <= set(saved.states)
    for skill, st in saved.states.items():
        again = rebuilt.state(skill)  # a skill never observed: its prior
        assert (again.asked, again.first_try_right, again.mastered, again.streak,
                again.scaffolded_right) == (st.asked, st.first_try_right, st.mastered,
                                            st.streak, st.scaffolded_right), skill
        assert again.log_odds == pytest.approx(st.log_odds, rel=1e-9, abs=1e-9)


@pytest.fixture
def class_store(tmp_path: Path) -> Iterator[Store]:
    """A class server's store (as the store service opens it)."""
    with Store(tmp_path / "class.sqlite3", shared=True) as store:
        yield store


def test_a_deal_opened_again_is_practice_and_says_so(class_store: Store) -> None:
    """Tab A plays seed 7 and its right answers count; tab B (another page, the same link)
    opens seed 7 again: the page says it is practice before the first question, its right
    answers leave the mastery as it was, and the replay agrees."""
    a = drive.start(Session.from_lesson(LESSON, lang="en", student="ana", store=class_store,
                                        seed=7))
    assert a.snapshot().practice_note == ""
    assert _answer_right(a, 4) == 4
    a.close()
    before = _rows(class_store)
    assert any(row["first_try_right"] for row in before.values())  # A's answers counted

    for lang, words in (("en", "practice"), ("es", "práctica")):
        b = drive.start(Session.from_lesson(LESSON, lang=lang, student="ana",
                                            store=class_store, seed=7))
        assert words in b.snapshot().practice_note  # said from the start
        assert _answer_right(b, 6) == 6
        assert words in b.snapshot().practice_note
        b.close()
        assert _rows(class_store) == before  # not evidence: mastery unchanged
    rows = [a for a in class_store.attempts("ana") if a.session == b.session_id]
    assert rows and all(REPLAYED in step_flags(r.step) for r in rows)
    assert all(ev.kind == "none" for r, ev in first_answer_evidence(rows))
    _agrees_with_replay(class_store)


def test_the_same_deal_again_in_one_page_is_practice(class_store: Store) -> None:
    """Game setup's seed box: a new game with the seed just played, in the same page."""
    s = drive.start(Session.from_lesson(LESSON, lang="en", student="ana", store=class_store,
                                        seed=7))
    assert not s.replayed
    drive.new_match(s, seed=7)
    assert s.replayed and s.snapshot().practice_note
    drive.new_match(s, seed=9)  # a deal of its own: counts
    assert not s.replayed and not s.snapshot().practice_note
    s.close()


def test_a_personal_store_keeps_link_seeds(tmp_path: Path) -> None:
    """Binder (a student's own file): the same seed twice deals the same game, and its
    answers are evidence both times (no server remembers deals there)."""
    db = tmp_path / "mine.sqlite3"
    for _ in range(2):
        s = drive.start(Session.from_lesson(LESSON, lang="en", student="ana", store=db,
                                            seed=7))
        assert not s.replayed and not s.snapshot().practice_note
        s.close()


@pytest.mark.parametrize("shared", [False, True], ids=["binder", "class"])
def test_show_me_in_one_tab_is_no_proof_in_another(tmp_path: Path, shared: bool) -> None:
    """'Show me' in tab A gives the answer; typing it in tab B to the same numbers is right,
    but no proof: the mastery stays as it was, the row says why, and the replay agrees. On a
    class server tab B opened seed 7 first (its answers count) and waits at its first
    question while tab A, opened on the same link, is practice; on Binder (a student's own
    file: link seeds count every time) tab A is played first, then tab B."""
    with Store(tmp_path / "p.sqlite3", shared=shared) as store:
        def tab() -> Session:
            s = drive.start(Session.from_lesson(LESSON, lang="en", student="ana", store=store,
                                                seed=7))
            assert _to_question(s, random.Random(0))
            return s

        b = tab() if shared else None
        a = tab()
        assert bool(a.replayed) == shared
        shown = a.pending_question
        assert shown is not None
        assert drive.reveal(a).kind == "revealed"
        if b is None:
            a.close()
            b = tab()
        assert not b.replayed
        q = b.pending_question
        assert q is not None
        assert (shown.problem, shown.step, shown.expected) == (q.problem, q.step, q.expected)
        before = _rows(store)
        assert drive.answer(b, str(q.expected)).kind == "correct"  # right, as it says
        assert _rows(store) == before  # but no proof: nothing changed
        b.close()
        a.close()
        row = next(r for r in store.attempts("ana") if r.session == b.session_id
                   and r.outcome is Outcome.CORRECT and r.problem == q.problem)
        assert SHOWN in step_flags(row.step)
        _agrees_with_replay(store)


def _untag(step: str) -> str:
    name, _, rest = step[:-1].partition("[")
    tags = [t for t in rest.split(",") if t != SHOWN]
    return f"{name}[{','.join(tags)}]" if tags else name


def test_the_replay_finds_a_reveal_its_rows_do_not_tag(tmp_path: Path) -> None:
    """A right answer whose row lacks the tag (a page that could not read the store then)
    is still no proof in the replay when a give-up of the same numbers came before it."""
    with Store(tmp_path / "p.sqlite3") as store:
        a = drive.start(Session.from_lesson(LESSON, lang="en", student="ana", store=store,
                                            seed=7))
        assert _to_question(a, random.Random(0))
        drive.reveal(a)
        a.close()
        b = drive.start(Session.from_lesson(LESSON, lang="en", student="ana", store=store,
                                            seed=7))
        assert _to_question(b, random.Random(0))
        q = b.pending_question
        assert q is not None
        drive.answer(b, str(q.expected))
        b.close()
        rows = store.attempts("ana")
    untagged = [replace(r, step=_untag(r.step)) if SHOWN in step_flags(r.step) else r
                for r in rows]
    assert not any(SHOWN in step_flags(r.step) for r in untagged)
    judged = {(r.session, r.problem): ev for r, ev in first_answer_evidence(untagged)}
    assert judged[(b.session_id, q.problem)].kind == "none"
    assert judged[(b.session_id, q.problem)].why == SHOWN


def _deals_table(db: Path) -> list[tuple[str, ...]]:
    with sqlite3.connect(db) as conn:
        return conn.execute("SELECT lesson, deal FROM deals").fetchall()


def test_a_class_store_deals_every_match_from_a_seed_it_records(tmp_path: Path) -> None:
    """A lesson's match without a seed in its link (a fresh random deal) gets one drawn on a
    class's store, so that the store's service can deal the game again and replay it (issue
    51 part 2): each such deal is new, recorded once, and not practice; a seeded one is
    recorded too. A student's own file (Binder) records nothing and draws no seed."""
    db = tmp_path / "class.sqlite3"
    with Store(db, shared=True) as store:
        seeds = []
        for _ in range(2):
            s = drive.start(Session.from_lesson(LESSON, lang="en", student="ana", store=store))
            assert s.seed is not None and s.deal is not None and not s.replayed
            seeds.append(s.seed)
            s.close()
        assert seeds[0] != seeds[1]
        s = drive.start(Session.from_lesson(LESSON, lang="en", student="ana", store=store,
                                            seed=7))
        s.close()
    assert [lesson for lesson, _ in _deals_table(db)] == [LESSON] * 3
    with Store(tmp_path / "own.sqlite3") as own:
        s = drive.start(Session.from_lesson(LESSON, lang="en", student="ana", store=own))
        assert s.seed is None and s.deal is None
        s.close()


# --- the store service ----------------------------------------------------------------------

@pytest.fixture
def service(store_url: str) -> Iterator[Service]:
    running = start_service(store_url)
    yield running
    running.stop()


def test_the_service_records_a_students_own_deals_only(service: Service) -> None:
    with service.client("tok-ana", owner="ana") as ana:
        assert ana.shared
        assert ana.record_deal("ana", LESSON, DEAL, "tab-a")
        assert ana.record_deal("ana", LESSON, DEAL, "tab-a")  # a reply lost, asked again
        assert not ana.record_deal("ana", LESSON, DEAL, "tab-b")
        assert [d[:3] for d in ana.deals("ana")] == [(LESSON, DEAL, "tab-a")]
    with service.client("tok-beto") as beto:  # a page that does not check: the service does
        with pytest.raises(StoreAccessError):
            beto.record_deal("ana", LESSON, "another deal", "tab-c")
        with pytest.raises(StoreAccessError):
            beto.deals("ana")
        with pytest.raises(StoreAccessError):
            beto.revealed("ana", LESSON)
        assert beto.record_deal("beto", LESSON, DEAL, "tab-d")  # beto's own: new for him
    with service.client("tok-ruiz") as teacher:
        assert [d[2] for d in teacher.deals("ana")] == ["tab-a"]
        with pytest.raises(StoreAccessError):  # a teacher plays no deal as a student
            teacher.record_deal("ana", LESSON, "a third deal", "tab-e")


def test_through_the_service_a_second_tab_is_practice(service: Service) -> None:
    """The pages of a class server: tab A's Show me, then tab B (the same link) is practice
    and says so, and the reveal comes back from the service's revealed route."""
    with service.client("tok-ana", owner="ana") as store:
        a = drive.start(Session.from_lesson(LESSON, lang="en", student="ana", store=store,
                                            seed=7))
        assert not a.replayed
        assert _to_question(a, random.Random(0))
        q = a.pending_question
        assert q is not None
        drive.reveal(a)
        a.close()
        assert [(p, e) for p, _, e, _ in store.revealed("ana", LESSON)] == [
            (q.problem, q.expected)]
        before = _rows(store)
        b = drive.start(Session.from_lesson(LESSON, lang="es", student="ana", store=store,
                                            seed=7))
        assert b.replayed and "práctica" in b.snapshot().practice_note
        assert _answer_right(b, 3) == 3
        b.close()
        assert _rows(store) == before


def test_the_play_page_says_a_replayed_deal_is_practice(class_store: Store) -> None:
    """The sentence is on the play page, at the head of the question's column, from the
    page's start (before its first question), in the page's language."""
    from tutor.ui import TutorApp

    first = TutorApp(Session.from_lesson(LESSON, lang="en", student="ana", store=class_store,
                                         seed=7))
    assert "ld-practice" not in first.saving_note.value
    first.session.close()
    again = TutorApp(Session.from_lesson(LESSON, lang="es", student="ana", store=class_store,
                                         seed=7))
    assert "ld-practice" in again.saving_note.value
    assert "práctica" in again.saving_note.value
    assert again.saving_note.layout.display != "none"
    again.session.close()


def test_a_reveal_counts_in_every_match_of_the_lesson() -> None:
    """No store at all: the session itself remembers what Show me revealed, in its later
    matches too (a new game with the same seed from Game setup)."""
    s = drive.start(Session.from_lesson(LESSON, lang="en", student="ana", seed=7))
    assert _to_question(s, random.Random(0))
    shown = s.pending_question
    assert shown is not None
    drive.reveal(s)
    drive.new_match(s, seed=7)
    assert not s.replayed  # no class store: the deal is no practice
    assert _to_question(s, random.Random(0))
    q = s.pending_question
    assert q is not None and (q.problem.partition("-")[2], q.step, q.expected) == (
        shown.problem.partition("-")[2], shown.step, shown.expected)
    mastery = s.asker.masteries[0]
    before = mastery.to_dict()
    assert drive.answer(s, str(q.expected)).kind == "correct"
    assert mastery.to_dict() == before


def test_a_lessons_prepared_deal_is_one_deal_without_a_seed(class_store: Store) -> None:
    """A lesson whose file prepares its deals deals the same game whatever the seed: on a
    class server its second play is practice, with or without a seed in the link."""
    from dataclasses import replace as changed

    from tutor.course.lessons import load_lesson

    lesson = load_lesson(LESSON, "en")
    prepared = changed(lesson, deals=tuple(lesson.deals_for(7) or ()), rich_in=frozenset())
    assert prepared.deals
    first = drive.start(Session.from_lesson(prepared, lang="en", student="ana",
                                            store=class_store))
    assert first.deal is not None and not first.replayed
    first.close()
    again = drive.start(Session.from_lesson(prepared, lang="en", student="ana",
                                            store=class_store))
    assert again.replayed and again.snapshot().practice_note
    again.close()
