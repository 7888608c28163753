"""The teacher guides' sentences on the assignment's link and form are the page's (issue 52,
parts 1, 2, 5 and 7): every button and message the guides name in their "Assignments"
section is the page's own words in the guide's language, the settings the Binder link is
read from are the code's, and the progress file name with the class code is the one the
pages make. A guide that names a button the page no longer has, or a page whose words
change under the guide, fails here: change both."""

from __future__ import annotations

import re
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import pytest

from tutor.course import builder
from tutor.i18n import gettext
from tutor.ui.play.sheet import file_stem

ROOT = Path(__file__).resolve().parents[1]
GUIDES = {"en": "docs/teacher-guide.md", "es": "docs/guia-docente.md"}

# The page's words the guides name (as *word* or **word**), by message id; a message with a
# colon is named by the words before it.
NAMED = [
    "Copy",
    "New assignment",
    "Saved",
    "Edit",
    "Save the changes",
    "Assignments made",
    "Add a lesson",
    "Back to the lessons",
    "Assignment done: “{assignment}” has no lesson after this one.",
    "Assignment link",
    "Open the link",
]


def _section(lang: str) -> str:
    """The guide's assignments section (## 8), its whitespace runs made one space."""
    text = (ROOT / GUIDES[lang]).read_text(encoding="utf-8")
    found = re.search(r"^## 8\..*?(?=^## |\Z)", text, re.S | re.M)
    assert found, f"{GUIDES[lang]} has no section 8"
    return " ".join(found.group(0).split())


@pytest.mark.parametrize("lang", sorted(GUIDES))
@pytest.mark.parametrize("msgid", NAMED)
def test_each_word_the_guide_names_is_the_pages(lang: str, msgid: str) -> None:
    words = gettext(msgid, lang).split(":")[0]
    section = _section(lang)
    assert f"*{words}*" in section, f"{GUIDES[lang]} section 8 does not name *{words}*"


@pytest.mark.parametrize("lang", sorted(GUIDES))
def test_the_binder_settings_and_the_file_name_are_the_codes(lang: str) -> None:
    section = _section(lang)
    for variable in ("BINDER_REPO_URL", "BINDER_REF_URL", builder.BINDER_REPO_ENV,
                     builder.BINDER_REF_ENV):
        assert f"`{variable}`" in section
    assert "`https://mybinder.org/v2/gh/…`" in section
    assert builder.BINDER_HOST == "https://mybinder.org/"
    assert "`/hub/user-redirect/`" in section
    named = file_stem("leonard-progress", "NAME", "CLASS") + ".csv"
    assert named.replace("NAME", "<name>").replace("CLASS", "<class>") in section.replace(
        "<nombre>", "<name>").replace("<clase>", "<class>")
    assert (file_stem("leonard-progress", "Ana", "6B") + ".csv"
            in (ROOT / GUIDES[lang]).read_text(encoding="utf-8"))


# -- issue 52, part 7: the guides' claims on names, the table, the lessons and their links ----

def _guide(lang: str) -> str:
    """The whole guide, its whitespace runs made one space."""
    return " ".join((ROOT / GUIDES[lang]).read_text(encoding="utf-8").split())


# How each guide quotes a name: "…" in English, «…» in Spanish.
QUOTE = {"en": r'"([^"]+)"', "es": r"«([^»]+)»"}
SAME = {"en": r'{q} is {q}\.', "es": r"{q} es {q}\."}
TWO = {"en": r"so {q} and {q} stay two students", "es": r"así que {q} y {q} siguen siendo dos"}
OLD_NAMES = {"en": "whatever their case, accents or spaces",
             "es": "sin importar mayúsculas, tildes ni espacios"}
ALIKE = {"en": r"names that only look alike \(([^)]*)\) are shown",
         "es": r"los nombres que solo se parecen \(([^)]*)\) se muestran"}


@pytest.mark.parametrize("lang", sorted(GUIDES))
def test_the_rosters_names_match_as_the_guide_says(lang: str) -> None:
    """Section 8: names match whatever their case or spaces and however an accent is typed,
    but an accent is a letter ("José" and "Jose" are two students, shown as look-alikes):
    each example the guide gives is what :func:`name_key` and the roster check do."""
    from tutor.classroom.assignments import read_roster
    from tutor.storage.names import name_key

    section, q = _section(lang), QUOTE[lang]
    same = re.search(SAME[lang].format(q=q), section)
    assert same, f"{GUIDES[lang]} gives no example of two spellings of one name"
    assert name_key(same.group(1)) == name_key(same.group(2))
    assert name_key(" Ana  María ") == name_key("ana maría")  # "or spaces"
    assert name_key("Jose\u0301") == name_key("José")  # "however an accent is typed"
    two = re.search(TWO[lang].format(q=q), section)
    assert two, f"{GUIDES[lang]} does not say that an accent makes two names"
    assert name_key(two.group(1)) != name_key(two.group(2))
    assert OLD_NAMES[lang] not in section  # issue 52: "José" and "Jose" do not match
    pairs = [tuple(re.findall(q, pair)) for pair in
             re.search(ALIKE[lang], section).group(1).split(",")]  # type: ignore[union-attr]
    assert (two.group(1), two.group(2)) in pairs
    for pair in pairs:
        check = read_roster("\n".join(pair))
        assert check.names == pair and check.alike == (pair,), pair  # shown, never merged


WHO = {"en": "then anyone else who played one of its lessons from its link",
       "es": "y después cualquiera que jugara una de sus lecciones desde su enlace"}


@pytest.mark.parametrize("lang", sorted(GUIDES))
def test_the_table_holds_who_the_guide_says(lang: str, tmp_path: Path,
                                            student_plays: Any) -> None:
    """Section 8: the table's rows are the roster, then whoever played from the link; a
    student who played the same lesson from another page is not in it."""
    from tutor.classroom.assignments import assignment_table, check_assignment
    from tutor.course.lessons import list_lessons
    from tutor.storage.store import Store

    assert WHO[lang] in _section(lang)
    lessons = {lesson.id: lesson for lesson in list_lessons("en")}
    now = datetime(2026, 12, 7, 9, 0, tzinfo=timezone.utc)
    a = check_assignment(class_code="6B", title="Week 12", lessons=["04-times"],
                         installed=lessons, now=now)
    db = str(tmp_path / "class.sqlite3")
    student_plays(lessons["04-times"], "Eli", db, seed=4, rounds=1, assignment=a.id)
    student_plays(lessons["04-times"], "Dora", db, seed=3, rounds=1)
    with Store(db) as store:
        table = assignment_table(a, ["Ana"], store.attempts(), lessons, now)
    assert [(r.student, r.on_roster) for r in table.rows] == [("Ana", True), ("Eli", False)]


# Section 1's paragraph on the lessons: those an assignment gives, then those it refuses.
TAKES = {"en": r"the ones an assignment \(section 8\) can give: (.*?) Two more have no skill"
               r" to master, so they are never done and an assignment refuses them; give "
               r"them by their link: (.*?)\n",
         "es": r"son las que puede dar una tarea \(sección 8\): (.*?) Otras dos no tienen "
               r"habilidad que dominar, así que nunca se terminan y una tarea las rechaza; "
               r"délas con su enlace: (.*?)\n"}


@pytest.mark.parametrize("lang", sorted(GUIDES))
def test_section_1_lists_the_lessons_the_form_takes(lang: str) -> None:
    """The lessons section 1 says an assignment can give are those the assignment form's own
    rule (:func:`check_assignment`) takes, and the others those it refuses: every
    installed lesson is in one list or the other."""
    from tutor.classroom.assignments import AssignmentError, check_assignment
    from tutor.course.lessons import list_lessons

    text = (ROOT / GUIDES[lang]).read_text(encoding="utf-8")
    one = re.search(r"^## 1\..*?(?=^## )", text, re.S | re.M)
    assert one
    paragraph = " ".join(one.group(0).split("\n\n")[1].split()) + "\n"
    found = re.search(TAKES[lang], paragraph)
    assert found, f"{GUIDES[lang]} section 1 does not say which lessons an assignment takes"
    takes, refuses = (set(re.findall(r"`([0-9a-z-]+)`", part)) for part in found.groups())
    lessons = {lesson.id: lesson for lesson in list_lessons(lang)}
    now = datetime(2026, 12, 7, 9, 0, tzinfo=timezone.utc)

    def accepted(lesson_id: str) -> bool:
        try:
            check_assignment(class_code="6B", title="t", lessons=[lesson_id],
                             installed=lessons, now=now)
        except AssignmentError:
            return False
        return True

    assert takes | refuses == set(lessons) and not takes & refuses
    assert {x for x in lessons if accepted(x)} == takes
    assert {x for x in lessons if not accepted(x)} == refuses


# A page's address in a guide: a page with a query, or under /voila/render/, plain or in a
# Binder link's urlpath (its ? and & written %3F and %26).
ADDRESS = re.compile(r"(?:/voila/render/|voila%2Frender%2F(?:notebooks%2F)?)?"
                     r"(?:Play|Lessons|Teacher)\.ipynb(?:\?|%3F)?[^`\s)]*")


@pytest.mark.parametrize("lang", sorted(GUIDES))
def test_each_guides_links_open_the_pages_in_its_language(lang: str) -> None:
    """A link the guide gives opens the page in the guide's language (without ``lang=`` a
    page opens in Spanish): ``Teacher.ipynb?class=6B&lang=en`` in the English guide."""
    from urllib.parse import parse_qs, unquote

    text = (ROOT / GUIDES[lang]).read_text(encoding="utf-8")
    links = [m.group(0) for m in ADDRESS.finditer(text)
             if "?" in unquote(m.group(0)) or "render" in m.group(0)]
    assert len(links) >= 6, links
    for link in links:
        query = unquote(link).partition("?")[2]
        assert parse_qs(query).get("lang") == [lang], f"{GUIDES[lang]}: {link}"


@pytest.mark.parametrize("lang", sorted(GUIDES))
def test_the_guides_class_server_is_the_readmes_that_serves_the_folder(lang: str) -> None:
    """The guides' class-server addresses (``/voila/render/…``) open on the README's
    deployment server, which serves the folder; the README's first line serves the play page
    alone, where they are refused (a 403), and the guides say so."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "voila notebooks/Play.ipynb" in readme.splitlines()[3]  # the quick try
    assert re.search(r"^voila notebooks/ ", readme, re.M)  # the deployment: the folder
    section = _guide(lang)
    assert "(`voila notebooks/`)" in section and "`voila notebooks/Play.ipynb`" in section
