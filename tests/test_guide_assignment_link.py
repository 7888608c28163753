"""The teacher guides' sentences on the assignment's link and form are the page's (issue 52,
parts 1, 2, 5 and 7): every button and message the guides name in their "Assignments"
section is the page's own words in the guide's language, the settings the Binder link is
read from are the code's, and the progress file name with the class code is the one the
pages make. A guide that names a button the page no longer has, or a page whose words
change under the guide, fails here: change both."""

from __future__ import annotations

import re
from pathlib import Path

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
