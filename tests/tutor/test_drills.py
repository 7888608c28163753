"""Drill positions (docs/rules.md §4, issue 32 part 6): real positions of the Leonard set, the T
tile at either end of a random legal line, the points from the engine; the questions a drill
makes show the line, the end where the tile went and the tile it went next to; and a named
mistake is followed by an item that tells it apart (remediation)."""

from __future__ import annotations

import random
from itertools import pairwise

import pytest

import tutor.teaching.practice
from engine import power_effect
from engine.tiles import LEONARD
from tutor.teaching.asking import Asker
from tutor.teaching.diagnosis import diagnose, mistake_value, tells_apart
from tutor.teaching.mastery import Mastery
from tutor.teaching.practice import DRILL_CHAIN, POWER_DRILLS, DrillPosition, Plan, drill_position


def played_tile(pos: DrillPosition):  # noqa: ANN201 - a Tile
    return pos.line[-1] if pos.played_end == "R" else pos.line[0]


def check_position(pos: DrillPosition, symbol_value: int = 0) -> None:
    line = pos.line
    # a legal chain (§1.2): each tile's left half matches the right half of the tile before
    assert all(x.b == y.a for x, y in pairwise(line)), line
    assert len(set(line)) == len(line), line  # no tile twice
    assert all(t in LEONARD.tiles for t in line)
    assert DRILL_CHAIN[0] + 1 <= len(line) <= DRILL_CHAIN[1] + 1
    played = played_tile(pos)
    far = line[0] if pos.played_end == "R" else line[-1]
    assert pos.t_tile == far and not far.is_power  # T is a number, never power-vs-power
    near = line[-2] if pos.played_end == "R" else line[1]
    assert pos.near_tile == near
    # §1.6: T is the total of the tile at the other end; the points are the engine's
    ev = pos.event
    assert ev.t == far.total(symbol_value) and ev.t_tile == far
    assert (ev.gain, ev.loss) == power_effect(played, far, symbol_value)
    assert ev.tile == played
    # the event's tile is written as on the score sheet: the matched half first
    matched = played.b if pos.played_end == "L" else played.a
    assert ev.tile.a == matched


def test_drill_lines_are_legal_with_t_at_either_end_about_half_the_time() -> None:
    rng = random.Random(32)
    ends = []
    lengths = set()
    for k in range(600):
        skill = sorted(POWER_DRILLS)[k % len(POWER_DRILLS)]
        pos = drill_position(skill, rng, symbol_value=k % 2)
        check_position(pos, k % 2)
        ends.append(pos.played_end)
        lengths.add(len(pos.line))
    share_left = ends.count("R") / len(ends)  # played at the right end: T at the left
    assert 0.42 <= share_left <= 0.58, share_left
    assert lengths == set(range(DRILL_CHAIN[0] + 1, DRILL_CHAIN[1] + 2))  # lengths vary


def test_the_t_tile_and_its_neighbours_vary() -> None:
    rng = random.Random(3)
    positions = [drill_position("multiply", rng) for _ in range(200)]
    assert len({p.t_tile for p in positions}) >= 15
    assert len({p.near_tile for p in positions}) >= 15
    assert len({p.line for p in positions}) >= 190


def test_drills_are_seeded() -> None:
    a = [drill_position("square", random.Random(7)) for _ in range(3)]
    b = [drill_position("square", random.Random(7)) for _ in range(3)]
    assert a == b


def test_the_search_is_bounded_with_a_legal_fallback(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(tutor.teaching.practice, "DRILL_ATTEMPTS", 0)
    for skill in sorted(POWER_DRILLS):
        pos = drill_position(skill, random.Random(1))
        assert all(x.b == y.a for x, y in pairwise(pos.line))
        assert (pos.event.gain, pos.event.loss) == power_effect(played_tile(pos), pos.t_tile)


@pytest.mark.parametrize("skill", sorted(POWER_DRILLS - {"negative"}))
def test_drill_questions_say_where_the_tile_went_and_next_to_what(skill: str) -> None:
    asker = Asker(lang="en", plan=Plan(targets=frozenset({skill})),
                  ask=frozenset({"power"}), students={0: "s"}, masteries={0: Mastery()},
                  players=2, rng=random.Random(4))
    ends = set()
    for r in range(20):
        asker.queue.clear()
        asker.drill(f"r{r}-")
        for p in asker.queue:
            q = p.question
            sit = q.situation
            assert sit.drill and sit.played_end in ("L", "R")
            line = sit.line
            played, near, far = ((line[-1], line[-2], line[0]) if sit.played_end == "R"
                                 else (line[0], line[1], line[-1]))
            assert q.context.near_tile == near and q.context.t_tile == far
            assert sit.played in (played, "/".join(reversed(played.split("/"))))
            ends.add(sit.played_end)
    assert ends == {"L", "R"}


# --- remediation: a named mistake is followed by an item that tells it apart ---------------

ADDED = "added_instead_of_multiplied"


def one_question(skill: str, seed: int) -> Asker:
    """An asker for one student with one drill question of ``skill`` pending."""
    asker = Asker(lang="en", plan=Plan(targets=frozenset({skill})), ask=frozenset({"power"}),
                  students={0: "s"}, masteries={0: Mastery()}, players=2,
                  rng=random.Random(seed))
    asker.drill("d-")
    del asker.queue[1:]
    return asker


def test_a_named_mistake_makes_the_next_question_one_that_tells_it_apart() -> None:
    """docs/rules.md §4, issue 32 part 6: after x/n answered n + T, the next question is an x/n
    item where n + T is a wrong answer no other mistake gives (so n + T ≠ n × T)."""
    for seed in range(6):
        asker = one_question("multiply", seed)
        q = asker.queue[0].question
        value = mistake_value(q, ADDED)
        assert value is not None
        fb, done = asker.answer(str(value))
        assert not done and fb.diagnosis is not None and fb.diagnosis.rule == ADDED
        assert len(asker.queue) == 2 and asker.queue[1].remediation == ADDED
        fix = asker.queue[1].question
        assert fix.skill == "multiply" and fix.context.rule == "x/n" and fix.situation.drill
        assert fix.context.n + fix.context.t != fix.expected
        assert tells_apart(fix, ADDED) == 2
        assert diagnose(fix, mistake_value(fix, ADDED)).kind == "named"
        asker.answer(str(q.expected))  # the question ends: the item comes next
        assert asker.pending is not None and asker.pending.question is fix


def test_other_end_mistakes_get_an_other_end_item() -> None:
    asker = one_question("other-end", 3)
    q = asker.queue[0].question
    assert q.step == "T"
    value = mistake_value(q, "one_half_only")
    assert value is not None and diagnose(q, value).rule == "one_half_only"
    asker.answer(str(value))
    fixes = [p for p in asker.queue if p.remediation]
    assert fixes and any(tells_apart(p.question, "one_half_only") == 2 for p in fixes)


def test_a_slip_queues_nothing() -> None:
    asker = one_question("multiply", 1)
    q = asker.queue[0].question
    slip = next(v for v in range(q.expected + 1, q.expected + 100)
                if diagnose(q, v).kind == "slip")
    asker.answer(str(slip))
    assert len(asker.queue) == 1


def test_no_item_when_the_next_question_already_tells_it_apart() -> None:
    asker = one_question("multiply", 2)
    asker.drill("again-")  # more x/n items of the same student follow
    size = len(asker.queue)
    q = asker.queue[0].question
    assert tells_apart(asker.queue[1].question, ADDED)
    asker.answer(str(mistake_value(q, ADDED)))
    assert len(asker.queue) == size


def test_remediation_is_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    asker = one_question("multiply", 4)
    tried: list[int] = []
    monkeypatch.setattr("tutor.teaching.drilling.tells_apart",
                        lambda q, rule: tried.append(1) or 0)  # never tells it apart
    assert asker.remediate(0, ADDED) == 0 and len(asker.queue) == 1
    assert len(tried) == tutor.teaching.practice.REMEDIATION_TRIES
    monkeypatch.undo()
    # at most REMEDIATIONS_PER_ROUND items per mistake and round; none for a slip
    got = []
    for _ in range(4):
        got.append(asker.remediate(0, ADDED))
        del asker.queue[1:]  # answered (else the queued item is already the next one)
    assert sum(1 for g in got if g) == tutor.teaching.practice.REMEDIATIONS_PER_ROUND
    assert asker.remediate(0, None) == 0 and asker.remediate(0, "times_table_slip") == 0
    asker.new_round()
    assert asker.remediate(0, ADDED)


def test_a_mistake_on_the_remediation_item_does_not_chain() -> None:
    asker = one_question("multiply", 5)
    q = asker.queue[0].question
    asker.answer(str(mistake_value(q, ADDED)))
    asker.answer(str(q.expected))
    fix = asker.pending
    assert fix is not None and fix.remediation == ADDED
    asker.answer(str(mistake_value(fix.question, ADDED)))
    assert len(asker.queue) == 1


def test_the_drill_gives_each_short_skill_its_room() -> None:
    """docs/rules.md §4 (issue 32 part 4: drills between rounds until every skill is mastered):
    the drill after a round asks the skills still below mastery, each as often as it still
    needs (up to 7 right in a row), at most DRILL_LIMIT (4) questions when one or two skills
    are short and DRILL_PER_SKILL (3) per skill when more are — a free match practises six
    skills and has only its drills for those the deal brings seldom."""
    from tutor.teaching.practice import DRILL_LIMIT, DRILL_PER_SKILL, Practice

    one = Practice(Plan(targets=frozenset({"multiply"})), random.Random(1))
    assert one.drill_skills(Mastery()) == ["multiply"] * DRILL_LIMIT
    free = Practice(Plan(game="leonard"), random.Random(1))
    mastery = Mastery()
    picked = free.drill_skills(mastery)
    skills = free.plan.focus
    assert len(skills) == 6 and len(picked) == DRILL_PER_SKILL * 6
    assert all(picked.count(s) == DRILL_PER_SKILL for s in skills)
    # the round-robin order: each skill once before any skill twice
    assert sorted(picked[:6]) == sorted(skills)
    # a skill one right answer from mastery gets one item, a mastered one none; the room
    # is DRILL_PER_SKILL per skill short, shared out one item each in turn
    for s in ("add", "double"):
        st = mastery.state(s)
        st.p_known, st.streak = 0.999, 6
    mastery.state("double").mastered = True
    picked = free.drill_skills(mastery)
    assert picked.count("add") == 1 and "double" not in picked
    assert len(picked) == DRILL_PER_SKILL * 5
    assert all(picked.count(s) >= DRILL_PER_SKILL for s in skills - {"add", "double"})
