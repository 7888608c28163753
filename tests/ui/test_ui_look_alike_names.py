"""Issue 51, part 6, on the pages: a name typed in the play page's name form (Binder, a
shared link) or carried by a link goes through the store's rule: a name that could pass for
another (a Cyrillic "а" in "аna") is refused, and the page says what is wrong with it."""

from __future__ import annotations

import html
from pathlib import Path
from typing import Any

from ui_views import browser_sends

from tutor.storage.store import Store
from tutor.ui import play_page

CYRILLIC_ANA = "\u0430na"


def test_the_name_form_says_what_is_wrong_with_a_look_alike_name(link: Any,
                                                                 tmp_path: Path) -> None:
    link("lesson=free-play&lang=es&seed=3")
    with Store(tmp_path / "p.sqlite3") as store:
        app = play_page(store=store)
        browser_sends(app.access, {"event": "name", "value": CYRILLIC_ANA,
                                          "code": ""})
        assert app.asking  # the game waits for a name that is one
        said = html.unescape(app.name_form.problem.value)
        assert "«аna» mezcla letras de dos alfabetos: su «а» (U+0430" in said
        browser_sends(app.access, {"event": "name", "value": "an\u200ba",
                                          "code": ""})
        assert not app.asking and app.session.student == "ana"  # the hidden space dropped
        assert app.session.flush() and store.students() == ["ana"]


def test_a_link_with_a_look_alike_name_asks_for_the_name_and_says_why(link: Any,
                                                                     tmp_path: Path) -> None:
    link("lesson=free-play&lang=en&seed=3&student=%D0%B0na")
    with Store(tmp_path / "p.sqlite3") as store:
        app = play_page(store=store)
        assert app.asking and app.session.store is None
        assert "“аna” mixes letters of two alphabets" in html.unescape(app.status.value)
        assert store.students() == []
