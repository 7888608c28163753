"""The lesson builder makes a lesson's id from its title (issue 33 part 6): "Tabla del 6"
is saved as ``tabla-del-6`` and plays; accents are folded, anything else becomes a dash, a
long title is cut to the links' limit, a title with no letter or digit still gets a name, and
a name taken already (the teacher's lesson or a shipped one) is asked about, never silently
overwritten. Lesson ids are what a link's ``?lesson=`` takes (DESIGN: lessons are data)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tutor.course.builder import (
    LessonExistsError,
    build_lesson,
    free_lesson_id,
    lesson_id_from_title,
    lesson_links,
    save_lesson,
    taken_lesson_ids,
)
from tutor.course.lessons import LESSON_ID, MAX_ID_LENGTH, list_lessons, load_lesson


def lesson(lesson_id: str, es: str = "Tabla del 6", en: str = "Times 6") -> dict:
    return build_lesson(lesson_id=lesson_id, title={"es": es, "en": en},
                        description={"es": "", "en": ""}, targets=["multiply"], rich_in=[],
                        bots=["greedy"], players=2, rounds=1, scaffold=[], lang="en")


def test_tabla_del_6_saves_as_tabla_del_6_and_plays(tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LEONARD_LESSONS", str(tmp_path))
    made = lesson_id_from_title("Tabla del 6")
    assert made == "tabla-del-6"
    path = save_lesson(lesson(made), lang="en")
    assert path == tmp_path / "tabla-del-6.json"
    played = load_lesson("tabla-del-6", "es")
    assert played.id == "tabla-del-6" and played.targets == {"multiply"}
    assert "tabla-del-6" in {x.id for x in list_lessons("en")}
    assert lesson_links("tabla-del-6")["relative"] == "Play.ipynb?lesson=tabla-del-6&lang=es"


@pytest.mark.parametrize(("title", "made"), [
    ("Tabla del 6", "tabla-del-6"),
    ("  Ñandú: ¡Multiplicar!  ", "nandu-multiplicar"),        # accents folded, ends trimmed
    ("Àrea   y   perímetro", "area-y-perimetro"),             # runs of spaces: one dash
    ("Suma -- y -- resta", "suma-y-resta"),                   # dashes collapsed
    ("😀🎲 Dominó 😀", "domino"),                              # emoji: dashes, trimmed
    ("x² + 2·x", "x2-2-x"),                                    # ² folds to 2 (NFKD)
    ("Ｔａｂｌａ　①", "tabla-1"),                                # full-width letters, circled 1
    ("TIMES 6", "times-6"),
    ("04 times", "04-times"),                                  # may collide: asked at saving
])
def test_an_id_is_made_from_any_title(title: str, made: str) -> None:
    got = lesson_id_from_title(title)
    assert got == made and LESSON_ID.fullmatch(got)


@pytest.mark.parametrize("title", ["★★★", "😀😀", "¿?¡!", "", "   ", "---", "Ωμέγα"])
def test_a_title_without_letters_or_digits_still_gets_a_name(title: str) -> None:
    assert lesson_id_from_title(title) == "lesson-1"
    assert lesson_id_from_title(title, {"lesson-1", "lesson-2"}) == "lesson-3"


def test_a_very_long_title_is_cut_to_the_id_limit(tmp_path: Path) -> None:
    title = "Multiplicar por seis " * 20
    made = lesson_id_from_title(title)
    assert len(made) <= MAX_ID_LENGTH and LESSON_ID.fullmatch(made)
    assert made.startswith("multiplicar-por-seis-multiplicar") and not made.endswith("-")
    assert len(lesson_id_from_title("a" * 500)) == MAX_ID_LENGTH
    # cut where a dash falls: no dash is left at the end
    assert lesson_id_from_title("a" * (MAX_ID_LENGTH - 1) + " b") == "a" * (MAX_ID_LENGTH - 1)
    path = save_lesson(lesson(made, es=title.strip(), en="Times six"), tmp_path, lang="en")
    assert load_lesson(path, "en").id == made
    assert lesson_links(made)["relative"]


def test_a_free_name_beside_a_taken_one_stays_within_the_limit() -> None:
    assert free_lesson_id("tabla-del-6", set()) == "tabla-del-6"
    assert free_lesson_id("tabla-del-6", {"tabla-del-6"}) == "tabla-del-6-2"
    assert free_lesson_id("tabla-del-6", {"tabla-del-6", "tabla-del-6-2"}) == "tabla-del-6-3"
    long_id = "a" * MAX_ID_LENGTH
    free = free_lesson_id(long_id, {long_id})
    assert free == "a" * (MAX_ID_LENGTH - 2) + "-2" and LESSON_ID.fullmatch(free)


def test_a_collision_with_a_teachers_lesson_asks_and_keeps_it(tmp_path: Path) -> None:
    first = lesson(lesson_id_from_title("Tabla del 6"), en="Times 6")
    path = save_lesson(first, tmp_path, lang="en")
    again = lesson(lesson_id_from_title("Tabla del 6"), en="Times six, again")
    for lang, words in (("en", "Replace a lesson of the same name"),
                        ("es", "Reemplazar una lección con el mismo nombre")):
        with pytest.raises(LessonExistsError) as asked:
            save_lesson(again, tmp_path, lang=lang)
        assert asked.value.lesson_id == "tabla-del-6" and not asked.value.shipped
        assert words in str(asked.value) and asked.value.where == "id"
        assert json.loads(path.read_text(encoding="utf-8"))["title"]["en"] == "Times 6"
    assert "tabla-del-6" in taken_lesson_ids(tmp_path)
    assert free_lesson_id("tabla-del-6", taken_lesson_ids(tmp_path)) == "tabla-del-6-2"
    # confirmed: replaced
    assert save_lesson(again, tmp_path, lang="en", replace=True) == path
    assert json.loads(path.read_text(encoding="utf-8"))["title"]["en"] == "Times six, again"


def test_a_collision_with_a_shipped_lesson_asks_and_writes_nothing(tmp_path: Path) -> None:
    made = lesson_id_from_title("04 Times")
    assert made == "04-times" and made in taken_lesson_ids(tmp_path)
    with pytest.raises(LessonExistsError) as asked:
        save_lesson(lesson(made), tmp_path, lang="es")
    assert asked.value.shipped and "toda la clase" in str(asked.value)
    assert list(tmp_path.iterdir()) == []
