"""A page's link is data (issue: links could break or probe the server): every value is
checked and cleaned, and what cannot be used becomes a note, never an error."""

from __future__ import annotations

from urllib.parse import urlencode

import pytest

from tutor.classroom.link import ANONYMOUS, MAX_NAME, MAX_QUERY, clean_name, read_link


def q(**values: str) -> str:
    return urlencode(values)


def test_a_plain_link_gives_its_settings():
    link = read_link(q(lesson="first-steps", lang="en", seed="7", student="ana"), env={})
    assert (link.lesson, link.lang, link.seed, link.student, link.notes) == (
        "first-steps", "en", 7, "ana", ())


@pytest.mark.parametrize("raw,name", [
    ("ana\r=HYPERLINK(\"http://x\")", 'ana =HYPERLINK("http://x")'),
    ("\x1b[2J\x1b[31mEVIL", "[2J[31mEVIL"),
    ("  maría  josé ", "maría josé"),
    ("a\u200bb\u202ec", "abc"),          # zero-width and bidi controls are format characters
    ("   ", ANONYMOUS),
    ("\t\n\x00", ANONYMOUS),
    ("", ANONYMOUS),
])
def test_student_names_lose_control_characters_and_are_trimmed(raw, name):
    assert read_link(q(student=raw), env={}).student == name
    assert all(c.isprintable() for c in clean_name(raw)[0])


def test_a_long_name_is_cut_and_the_page_says_so():
    link = read_link(q(student="x" * 300, lang="en"), env={})
    assert link.student == "x" * MAX_NAME
    assert any("first 60 characters" in n for n in link.note_texts())


def test_on_a_hub_the_signed_in_user_is_the_student():
    env = {"JUPYTERHUB_USER": "alumna-7"}
    assert read_link(q(student="profe"), env=env).student == "alumna-7"
    assert read_link("", env=env).student == "alumna-7"
    assert read_link(q(student="profe"), env={"JUPYTERHUB_USER": "  "}).student == "profe"


@pytest.mark.parametrize("seed", ["abc", "1e9", "9" * 19, "", " ", "0x10", "1.5"])
def test_a_bad_seed_is_a_note_and_a_random_deal(seed):
    link = read_link(q(seed=seed, lang="es"), env={})
    assert link.seed is None
    assert any("semilla" in n for n in link.note_texts())


def test_an_unknown_language_is_a_note_in_the_default_language():
    link = read_link(q(lang="fr"), env={}, lang="en")
    assert link.lang == "en" and link.note_texts() == [
        "The link's language is unknown; using English."]
    assert read_link(q(lang="klingon" * 50), env={}).note_texts() == [
        "El idioma del enlace es desconocido; se usa español."]


def test_a_huge_or_crowded_query_is_ignored_whole():
    huge = read_link(q(student="a" * MAX_QUERY, seed="3"), env={})
    assert huge.seed is None and huge.student == ANONYMOUS and len(huge.notes) == 1
    crowded = read_link("&".join(f"k{i}=v" for i in range(100)) + "&seed=4", env={})
    assert crowded.seed is None and len(crowded.notes) == 1


def test_the_lesson_value_is_passed_on_as_given_for_the_lesson_lookup_to_judge():
    # The lookup (tutor.course.lessons.find_lesson) refuses anything that is not an id.
    assert read_link(q(lesson="/etc/ld.so.conf"), env={}).lesson == "/etc/ld.so.conf"
    assert read_link(q(lesson=" "), env={}, lesson="free-play").lesson == "free-play"


def test_a_name_typed_with_a_combining_accent_is_the_precomposed_name() -> None:
    """Issue 41 part 3: the link's name (and the hub's) is NFC, so "José" typed as e + a
    combining accent is the student the store already knows."""
    import unicodedata

    nfd = unicodedata.normalize("NFD", "José")
    assert clean_name(nfd) == ("José", False)
    assert read_link("student=" + nfd, {}).student == "José"
    assert read_link("", {"JUPYTERHUB_USER": nfd}).student == "José"
