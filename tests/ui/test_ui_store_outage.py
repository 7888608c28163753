"""Issue 51, part 5: the pages while the class's store is down. The lessons page says, in the
student's language, that the progress comes back with the store, and still lists and links
every lesson (it was a Voilà error); the play page says so once and plays on."""

from __future__ import annotations

import html
import re
from pathlib import Path
from typing import Any

import pytest

from tests import driving as drive
from tests.outage import OutageStore
from tests.playing import play_to_question
from tutor import Session
from tutor.ui import lessons_page, play_page

LATER = {
    "en": "Your progress will be back when the class's store is: it cannot be reached now. "
          "The lessons below open all the same, and your answers in them are saved when it "
          "is back.",
    "es": "Tu progreso volverá cuando vuelva el progreso de la clase: ahora no se alcanza. "
          "Las lecciones de abajo se abren igual, y tus respuestas en ellas se guardan cuando "
          "vuelva.",
}


@pytest.mark.parametrize("lang", ["en", "es"])
def test_the_lessons_page_says_the_progress_comes_back_with_the_store(
        link: Any, tmp_path: Path, lang: str) -> None:
    link(f"lang={lang}&student=ana")
    store = OutageStore(tmp_path / "p.sqlite3", busy_timeout=0.01, retries=0)
    s = drive.start(Session.from_lesson("04-times", lang=lang, student="ana", store=store,
                                        seed=3))
    for _ in range(500):  # one right answer saved before the outage
        if s.pending_question is not None:
            drive.answer(s, str(s.pending_question.expected))
            break
        drive.play(s, 0)
    assert s.flush() and store.attempts("ana")
    up = lessons_page(store=store).lesson_list.value

    store.down = True
    page = lessons_page(store=store)  # an exception here was Voilà's "error in cell [1]"
    assert LATER[lang] in html.unescape(page.header.notes.value)
    ids = re.findall(r"data-lesson='([^']+)'", page.lesson_list.value)
    assert ids[:3] == ["01-other-end", "02-plus", "03-minus"]
    assert f"Play.ipynb?lesson=04-times&amp;lang={lang}&amp;student=ana" in \
        page.lesson_list.value
    assert page.lesson_list.value != up  # no progress shown: none could be read

    store.down = False
    page.refresh()  # the store is back: the progress too, and no word of the outage
    assert page.lesson_list.value == up
    assert LATER[lang] not in html.unescape(page.header.notes.value)
    store.close()


def test_a_play_page_opened_while_the_store_is_down_says_so_and_plays_on(
        link: Any, tmp_path: Path) -> None:
    link("lang=en&student=ana&lesson=04-times&seed=5")
    store = OutageStore(tmp_path / "p.sqlite3", busy_timeout=0.01, retries=0)
    store.down = True
    app = play_page(store=store)
    said = html.unescape(app.saving_note.value)
    assert "The class's store cannot be reached now: play on" in said
    q = play_to_question(app)
    assert q is not None
    app.session.answer(str(q.expected))
    assert app.session.unsaved
    store.down = False
    assert app.session.flush()
    assert [a.outcome.value for a in store.attempts("ana")] == ["CORRECT"]
    store.close()


def test_the_play_pages_progress_tab_says_the_file_comes_with_the_store(tmp_path: Path) -> None:
    """The play page's "My progress" section, opened while the store is down, says the file
    can be downloaded when the store is back (it raised StoreBusyError), and offers the file
    again once it is."""
    from tutor.ui.play.sheet import progress_file_html

    store = OutageStore(tmp_path / "p.sqlite3", busy_timeout=0.01, retries=0)
    s = drive.start(Session.from_lesson("04-times", lang="en", student="ana", store=store,
                                        seed=3))
    for _ in range(500):
        if s.pending_question is not None:
            drive.answer(s, str(s.pending_question.expected))
            break
        drive.play(s, 0)
    assert s.flush()
    store.down = True
    away = s.export_progress()
    assert away is not None and away.away and away.count == 0
    said = html.unescape(progress_file_html(away, "ana", "en"))
    assert said == "Your progress file can be downloaded when the class's store is back."
    store.down = False
    back = s.export_progress()
    assert back is not None and not back.away and back.count >= 1
    assert "download=" in progress_file_html(back, "ana", "en")
    store.close()
