"""Lesson files: the shipped ones load; a garbled one gets a clear error for the teacher."""

import json

import pytest

from tutor.lessons import LESSON_DIR, LessonError, lesson_from_dict, list_lessons, load_lesson


def test_shipped_lessons_all_load():
    ids = {p.stem for p in LESSON_DIR.glob("*.json")}
    assert ids and {lesson.id for lesson in list_lessons()} == ids
    for lesson in list_lessons():
        assert lesson.title["es"] and lesson.title["en"]
        assert all(h < lesson.players for h in lesson.humans)


def test_lesson_settings_reach_the_objects():
    lesson = load_lesson("first-steps")
    assert lesson.scaffold and lesson.ask == {"power"} and lesson.rounds == 1
    assert lesson.rules.rounds == 1
    assert lesson.mastery.p_init == 0.2 and lesson.mastery.p_learn == 0.25
    assert lesson.mastery.p_slip == 0.1  # documented default kept


@pytest.mark.parametrize("data,en,es", [
    ({"id": "x"}, "missing “title”", "le falta «title»"),
    ([1, 2], "“the lesson” should be a group of settings", "«la lección» debería ser un grupo"),
    ({"id": "x", "title": {"es": "a", "en": "b"}, "game": {"bots": ["clever"]}},
     "“game.bots.0” must be one of", "«game.bots.0» debe ser uno de"),
    ({"id": "x", "title": {"es": "a", "en": "b"}, "game": {"players": 7}},
     "“game.players” must be at most 5", "«game.players» debe ser como máximo 5"),
    ({"id": "x", "title": {"es": "a", "en": "b"}, "game": {"players": "two"}},
     "“game.players” should be a whole number", "«game.players» debería ser un número entero"),
    ({"id": "x", "title": {"es": "a", "en": "b"}, "tutor": {"colour": 1}},
     "does not know: colour", "no conoce: colour"),
    ({"id": "x", "title": {"es": "a", "en": "b"}, "game": {"players": 2, "humans": [3]}},
     "beyond the 2 players", "con 2 jugadores"),
    ({"id": "x", "title": {"es": "a", "en": "b"}, "mastery": {"p_slip": 0.6, "p_guess": 0.5}},
     "p_slip + p_guess must be less than 1", "p_slip + p_guess debe ser menor que 1"),
])
def test_garbled_lessons_get_clear_errors(data, en, es):
    with pytest.raises(LessonError) as e:
        lesson_from_dict(data, "bad.json", "en")
    assert str(e.value).startswith("bad.json: ") and en in str(e.value)
    with pytest.raises(LessonError) as e:
        lesson_from_dict(data, "bad.json", "es")
    assert es in str(e.value)


def test_broken_file_is_named_with_line(tmp_path):
    p = tmp_path / "broken.json"
    p.write_text('{"id": "x",\n "title": }', encoding="utf-8")
    with pytest.raises(LessonError, match=r"broken.json is not valid JSON: check line 2"):
        load_lesson(p)
    with pytest.raises(LessonError, match="No existe"):
        load_lesson(tmp_path / "nope.json", "es")
    (tmp_path / "bin.json").write_bytes(b"\xff\xfe\x00")
    with pytest.raises(LessonError):
        load_lesson(tmp_path / "bin.json")


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

    def refuse(*_a, **_k):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(type(tmp_path), "read_text", refuse)
    with pytest.raises(LessonError, match="locked.json cannot be read: Permission denied"):
        load_lesson("locked", "en")


def test_session_from_lesson_uses_its_settings():
    from tutor.session import Session

    s = Session.from_lesson("watch-the-bots", lang="en", seed=4)
    assert s.players == 3 and s.humans == (0,) and s.plan.ask_bot_plays
    assert s.plan.targets == {"add", "negative"}
    assert s.match.rules.rounds == 2
    assert s.mastery.params == load_lesson("watch-the-bots").mastery
    s2 = Session.from_lesson(load_lesson("first-steps"), seed=1, players=3, bots="random")
    assert s2.players == 3 and s2.plan.scaffolds == {"T"}
    assert s2.mastery.params.p_init == 0.2 and s2.plan.targets == {"other-end"}
    s3 = Session.from_lesson("free-play", seed=2, players=4)  # one bot named, three seats
    assert len(s3.bots) == 3
