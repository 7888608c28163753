"""Lesson files: the shipped ones load; a garbled one gets a clear error for the teacher."""

import json
from pathlib import Path

import pytest

from tests import driving as drive
from tutor.course.lessons import (
    LESSON_DIR,
    LESSON_ID,
    LessonError,
    check_folder,
    lesson_from_dict,
    list_lessons,
    load_lesson,
    shadowed_lessons,
)


def test_shipped_lessons_all_load():
    ids = {p.stem for p in LESSON_DIR.glob("*.json")}
    assert ids and {lesson.id for lesson in list_lessons()} == ids
    for lesson in list_lessons():
        assert lesson.title["es"] and lesson.title["en"]
        assert all(h < lesson.players for h in lesson.humans)


def test_lesson_settings_reach_the_objects():
    lesson = load_lesson("01-other-end")
    assert lesson.scaffold == {"T"} and lesson.ask == {"power"} and lesson.rounds == 2
    assert lesson.targets == {"other-end"} and lesson.rich_in == {"x/n", "+/n", "-/n"}
    other_end = lesson.mastery.for_skill("other-end")
    assert other_end.p_init == 0.2 and other_end.p_learn == 0.15
    assert other_end.p_slip == 0.08  # the skill's default kept (tutor.teaching.mastery table)


def test_the_curriculum_in_order():
    """Issue (lessons a teacher can assign): at least 8 lessons, in this order."""
    ids = [lesson.id for lesson in list_lessons()]
    assert ids[:8] == ["01-other-end", "02-plus", "03-minus", "04-times", "05-squares",
                       "06-doubles", "07-all-power", "08-full-match"]
    targets = {lesson.id: lesson.targets for lesson in list_lessons()}
    assert targets["01-other-end"] == {"other-end"} and targets["04-times"] == {"multiply"}
    assert targets["05-squares"] == {"square"} and targets["06-doubles"] == {"double"}
    assert {"add", "negative"} <= targets["03-minus"]


OK = {"id": "x", "title": {"es": "a", "en": "b"}}


@pytest.mark.parametrize("data,en,es", [
    ({"id": "x"}, "bad.json: title: is missing", "bad.json: title: falta"),
    ([1, 2], "bad.json: should be a group of settings in braces {}, got [1, 2]",
     "debería ser un grupo de ajustes entre llaves {}"),
    ({**OK, "game": {"bots": ["clever"]}},
     'bad.json: game.bots.0: must be one of "random", "greedy", "search", "expert"; got "clever"',
     "game.bots.0: debe ser uno de"),
    ({**OK, "game": {"players": 7}}, "bad.json: game.players: must be 2 to 5, got 7",
     "bad.json: game.players: debe ser de 2 a 5, no 7"),
    ({**OK, "game": {"players": "two"}},
     'bad.json: game.players: should be a whole number, got "two"',
     "game.players: debería ser un número entero"),
    ({**OK, "tutor": {"colour": 1}}, "bad.json: tutor.colour: is not a setting the tutor knows",
     "tutor.colour: no es un ajuste que el tutor conozca"),
    ({**OK, "game": {"players": 2, "humans": [3]}},
     "bad.json: game.humans: seat 3 is beyond the 2 players", "game.humans: el asiento 3"),
    ({**OK, "game": {"variant": "block", "players": 5}},
     "bad.json: game.players: block is played by 2 to 4 players, got 5", "game.players:"),
    ({**OK, "mastery": {"p_slip": 0.6, "p_guess": 0.5}},
     "bad.json: mastery: p_slip + p_guess must be less than 1",
     "p_slip + p_guess debe ser menor que 1"),
    ({**OK, "tutor": {"targets": ["juggling"]}}, "bad.json: tutor.targets.0: must be one of",
     "tutor.targets.0: debe ser uno de"),
    ({**OK, "title": {"es": "", "en": "b"}}, "bad.json: title.es: must not be empty",
     "title.es: no puede estar vacío"),
    ({**OK, "goal": {"es": "Sumar.", "en": ""}}, "bad.json: goal.en: must not be empty",
     "goal.en: no puede estar vacío"),
    ({**OK, "goal": "Add."}, 'bad.json: goal: should be a group of settings in braces {}',
     "goal: debería ser un grupo de ajustes entre llaves {}"),
    ({**OK, "game": {"deals": [{"hands": [["7/x"] * 9, ["1/1"] * 9]}]}},
     "bad.json: game.deals.0: seat 0's hand: '7/x' is not a Leonard tile", "game.deals.0"),
    ({**OK, "game": {"deals": [{"hands": [["1/1"]]}]}},
     "bad.json: game.deals.0.hands: gives 1 hands for 2 players", "game.deals.0.hands:"),
    # docs/rules.md §4: a lesson goes on until mastery or its cap (questions and/or minutes).
    ({**OK, "tutor": {"max_questions": 0}}, "bad.json: tutor.max_questions: must be 1 to 500, "
     "got 0", "tutor.max_questions: debe ser de 1 a 500, no 0"),
    ({**OK, "tutor": {"max_questions": "many"}},
     'bad.json: tutor.max_questions: should be a whole number or null, got "many"',
     "tutor.max_questions: debería ser un número entero o null"),
    ({**OK, "tutor": {"max_minutes": 1000}}, "bad.json: tutor.max_minutes: must be 1 to 240, "
     "got 1000", "tutor.max_minutes: debe ser de 1 a 240, no 1000"),
    ({**OK, "tutor": {"max_questions": None, "max_minutes": None}},
     "bad.json: tutor: max_questions and max_minutes cannot both be null",
     "bad.json: tutor: max_questions y max_minutes no pueden ser null los dos"),
])
def test_garbled_lessons_get_one_line_naming_the_field(data, en, es):
    """Issue: one specific message per broken file, naming the file, the field and what is
    wrong, in the teacher's language (a bad field, an unknown tile, a wrong type, a missing
    title, …)."""
    with pytest.raises(LessonError) as e:
        lesson_from_dict(data, "bad.json", "en")
    assert str(e.value).startswith(en) or en in str(e.value), str(e.value)
    assert "\n" not in str(e.value)
    with pytest.raises(LessonError) as e:
        lesson_from_dict(data, "bad.json", "es")
    assert es in str(e.value), str(e.value)


def test_broken_file_is_named_with_line(tmp_path):
    p = tmp_path / "broken.json"
    p.write_text('{"id": "x",\n "title": }', encoding="utf-8")
    with pytest.raises(LessonError, match=r"broken.json: line 2, column 11: is not valid JSON"):
        load_lesson(p)
    with pytest.raises(LessonError, match="no existe ese archivo de lección"):
        load_lesson(tmp_path / "nope.json", "es")
    (tmp_path / "bin.json").write_bytes(b"\xff\xfe\x00")
    with pytest.raises(LessonError, match="is not a text file"):
        load_lesson(tmp_path / "bin.json")
    (tmp_path / "other.json").write_text(json.dumps(OK), encoding="utf-8")
    with pytest.raises(LessonError, match=r'other.json: id: must be the file\'s name, "other", '
                                          r'got "x"'):
        load_lesson(tmp_path / "other.json")


def test_rich_deals_are_searched_with_the_seed():
    """A lesson can ask for deals rich in its plays: a seeded, bounded search."""
    lesson = load_lesson("04-times")
    a, b = lesson.deals_for(3), lesson.deals_for(3)
    assert a == b and a != lesson.deals_for(4) and len(a) == lesson.rounds
    from tutor.session.session import Session

    s = drive.start(Session.from_lesson(lesson, lang="en", seed=3, store=None))
    hand = [str(t) for t in s.round.hand(0)]
    assert sorted(hand) == sorted(a[0]["hands"][0])
    from engine import parse_tile
    from engine.rules import effect_rule

    counts = [sum(effect_rule(parse_tile(t)) == "x/n" for t in deal["hands"][0])
              for seed in range(10) for deal in lesson.deals_for(seed)]
    # A random 9-tile hand holds 9 × 6/45 = 1.2 of the six x/n tiles on average.
    assert sum(counts) / len(counts) >= 2.5


def test_lessons_folder_can_be_moved(tmp_path, monkeypatch):
    (tmp_path / "mine.json").write_text(json.dumps(
        {"id": "mine", "title": {"es": "Mía", "en": "Mine"}, "game": {"players": 4,
         "humans": [0, 2], "bots": ["random"]}}), encoding="utf-8")
    monkeypatch.setenv("LEONARD_LESSONS", str(tmp_path))
    ids = [lesson.id for lesson in list_lessons()]
    assert ids[0] == "mine" and "free-play" in ids  # a teacher's folder adds to the shipped
    assert load_lesson("mine").humans == (0, 2)
    (tmp_path / "free-play.json").write_text(json.dumps(
        {"id": "free-play", "title": {"es": "Mía", "en": "Mine"}, "game": {"players": 3}}),
        encoding="utf-8")
    assert load_lesson("free-play").players == 3  # and its own ids come first


@pytest.mark.parametrize("value", [
    "/etc/ld.so.conf", "/etc/passwd", "../lessons/free-play", "free-play.json", "lessons/x",
    "x" * 300, "free\x00play", "free\nplay", "Free-Play", "-x", "", " ", ".", "..", "~",
])
def test_a_lesson_is_an_id_never_a_path(value):
    """Issue: ?lesson=/etc/ld.so.conf read the file and said "not valid JSON", so a link could
    check whether any path exists. Now anything but an id is refused before a file is opened,
    with the same message whether such a path exists or not."""
    with pytest.raises(LessonError) as err:
        load_lesson(value, "en")
    assert "is not the name of a lesson" in str(err.value)
    assert len(str(err.value)) < 250  # a 300-character value is not repeated whole


def test_an_unknown_id_lists_the_lessons():
    with pytest.raises(LessonError, match=r"There is no lesson “nope”\. The lessons are: .*"
                                          r"free-play"):
        load_lesson("nope", "en")


def test_odd_files_in_a_lessons_folder_get_a_message(tmp_path, monkeypatch):
    monkeypatch.setenv("LEONARD_LESSONS", str(tmp_path))
    (tmp_path / "folder.json").mkdir()
    with pytest.raises(LessonError, match="There is no lesson “folder”"):
        load_lesson("folder", "en")
    with pytest.raises(LessonError, match="is a folder"):
        load_lesson(tmp_path / "folder.json", "en")
    (tmp_path / "big.json").write_text(" " * 2_000_000, encoding="utf-8")
    with pytest.raises(LessonError, match="too large"):
        load_lesson("big", "en")
    (tmp_path / "deep.json").write_text("[" * 100_000 + "]" * 100_000, encoding="utf-8")
    with pytest.raises(LessonError, match="nested too deeply|should be"):
        load_lesson("deep", "en")
    (tmp_path / "locked.json").write_text("{}", encoding="utf-8")

    import os

    real_open = os.open

    def refuse(path, *args, **kwargs):
        if str(path).endswith("locked.json"):
            raise PermissionError(13, "Permission denied")
        return real_open(path, *args, **kwargs)

    monkeypatch.setattr(os, "open", refuse)
    with pytest.raises(LessonError, match="locked.json: cannot be read: Permission denied"):
        load_lesson("locked", "en")


def test_session_from_lesson_uses_its_settings():
    from tutor.session.session import Session

    s = drive.start(Session.from_lesson("03-minus", lang="en", seed=4))
    assert s.players == 2 and s.humans == (0,) and s.plan.ask_bot_plays
    assert s.plan.targets == {"add", "negative"}
    assert s.match.rules.rounds == 2
    assert s.mastery.params == load_lesson("03-minus").mastery
    s2 = drive.start(
            Session.from_lesson(load_lesson("01-other-end"), seed=1, players=3, bots="random"))
    assert s2.players == 3 and s2.plan.scaffolds == {"T"}
    assert s2.mastery.params_for("other-end").p_init == 0.2 and s2.plan.targets == {"other-end"}
    s3 = drive.start(
            Session.from_lesson("free-play", seed=2, players=4))  # one bot named, three seats
    assert len(s3.game.bots) == 3


def _check(*args: str, env: dict[str, str] | None = None, timeout: float | None = None):
    import os
    import subprocess
    import sys

    root = Path(__file__).resolve().parents[2]
    return subprocess.run([sys.executable, "-m", "tutor", "lessons", "check", *args],
                          cwd=root, capture_output=True, text=True,
                          env={**os.environ, **(env or {})}, timeout=timeout)


@pytest.mark.slow
def test_lessons_check_command(tmp_path):
    """`python -m tutor lessons check [DIR]`: one line per broken file (file, field, what is
    wrong, in the teacher's language); exit 2 if any is broken, 0 otherwise."""
    good = _check("--lang", "en")
    assert good.returncode == 0 and "all good" in good.stdout
    # Issue 42: for each lesson and skill it practises, the mistakes no question can show.
    assert ("02-plus: adding: its questions never show: left out one of the hands"
            in good.stdout)
    assert ("06-doubles: doubling (2 × T): its questions can show every mistake of the skill"
            in good.stdout)
    folder = tmp_path / "mine"
    folder.mkdir()
    (folder / "03-minus.json").write_text(json.dumps(
        {"id": "03-minus", "title": {"es": "a", "en": "b"}, "game": {"players": 7}}),
        encoding="utf-8")
    (folder / "tiles.json").write_text(json.dumps(
        {"id": "tiles", "title": {"es": "a", "en": "b"},
         "game": {"deals": [{"hands": [["9/9"] * 9, ["1/1"] * 9]}]}}), encoding="utf-8")
    (folder / "syntax.json").write_text('{"id": "syntax",', encoding="utf-8")
    (folder / "notitle.json").write_text('{"id": "notitle"}', encoding="utf-8")
    (folder / "fine.json").write_text(json.dumps(
        {"id": "fine", "title": {"es": "a", "en": "b"}}), encoding="utf-8")
    bad = _check(str(folder), "--lang", "en")
    lines = [line for line in bad.stdout.strip().splitlines() if line.startswith(str(folder))]
    assert bad.returncode == 2 and len(lines) == 4, bad.stdout
    assert "fine: adding: its questions never show: left out one of the hands" in bad.stdout
    assert f"{folder}/03-minus.json: game.players: must be 2 to 5, got 7" in lines
    assert any(line.startswith(f"{folder}/notitle.json: title: is missing") for line in lines)
    assert any("tiles.json: game.deals.0: seat 0's hand: '9/9' is not a Leonard tile" in line
               for line in lines)
    assert any("syntax.json: line 1, column" in line for line in lines)
    es = _check(str(folder), "--lang", "es")
    assert "03-minus.json: game.players: debe ser de 2 a 5, no 7" in es.stdout
    # A teacher's own folder (LEONARD_LESSONS) gets the same checks by default.
    own = _check("--lang", "en", env={"LEONARD_LESSONS": str(folder)})
    assert own.returncode == 2 and "03-minus.json: game.players" in own.stdout
    assert "Traceback" not in bad.stderr + own.stderr


def test_lesson_caps_default_and_reach_the_session():
    """docs/rules.md §4: a lesson ends at mastery or at its cap; the file may set either cap
    (null: none) and the session takes them."""
    from tutor.course.lesson_end import DEFAULT_MAX_MINUTES, DEFAULT_MAX_QUESTIONS

    plain = lesson_from_dict(OK)
    assert (plain.max_questions, plain.max_minutes) == (DEFAULT_MAX_QUESTIONS,
                                                       DEFAULT_MAX_MINUTES)
    set_ = lesson_from_dict({**OK, "tutor": {"targets": ["add"], "max_questions": 12,
                                             "max_minutes": None}})
    assert (set_.max_questions, set_.max_minutes) == (12, None)
    from tutor.session.session import Session

    s = drive.start(Session.from_lesson(set_, lang="en", seed=1))
    assert (s.max_questions, s.max_minutes) == (12, None)


def test_every_hostile_lesson_file_costs_only_itself(hostile_lessons, monkeypatch):
    """Issue 36 (failures 6, 7, the BOM): a 5,000-digit number, a FIFO, a symlink to
    /dev/zero, other encodings, NaN … in a lessons folder: each file gets one line naming
    its problem, a good file saved with a UTF-8 BOM loads, and the other lessons still list.
    docs/rules.md §4 (a lesson is a file the teacher sets)."""
    folder, expected = hostile_lessons
    count, problems = check_folder(folder, "en")
    assert count == len(expected)
    broken = {name: fragment for name, fragment in expected.items() if fragment is not None}
    assert len(problems) == len(broken), problems
    for name, fragment in broken.items():
        line = next((p for p in problems if p.startswith(f"{folder / name}: ")), None)
        assert line is not None and fragment in line, (name, line)
        assert len(line) < 300 + len(str(folder))
    assert load_lesson(folder / "utf8-bom.json", "en").id == "utf8-bom"
    monkeypatch.setenv("LEONARD_LESSONS", str(folder))
    ids = [lesson.id for lesson in list_lessons("en")]
    assert "utf8-bom" in ids and "04-times" in ids  # the lessons page still lists them
    for name in broken:
        stem = name[:-5]
        if LESSON_ID.fullmatch(stem):
            with pytest.raises(LessonError):
                load_lesson(stem, "en")


def test_lessons_check_survives_the_hostile_set(hostile_lessons):
    """Issue 36: `lessons check` printed a traceback for a huge integer, hung on a FIFO and
    read /dev/zero for ever through a symlink; now one line per file, exit 2, at once."""
    folder, expected = hostile_lessons
    done = _check(str(folder), "--lang", "en", timeout=60)
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
    lines = [line for line in done.stdout.strip().splitlines()
             if line.startswith(str(folder))]  # the others: what good lessons can show
    assert len(lines) == sum(1 for f in expected.values() if f is not None)
    assert any("huge-int.json" in line and "number" in line for line in lines)


def test_a_shipped_lesson_shadowed_by_a_teachers_is_named(tmp_path, monkeypatch):
    """Issue 36: a teacher's 04-times hides the shipped one for the whole class; the lessons
    page must say so (shadowed_lessons names it)."""
    monkeypatch.setenv("LEONARD_LESSONS", str(tmp_path))
    assert shadowed_lessons() == []
    (tmp_path / "04-times.json").write_text(json.dumps(
        {"id": "04-times", "title": {"es": "Mía", "en": "Mine"}}), encoding="utf-8")
    (tmp_path / "mine.json").write_text(json.dumps(
        {"id": "mine", "title": {"es": "Mía", "en": "Mine"}}), encoding="utf-8")
    assert shadowed_lessons() == ["04-times"]
