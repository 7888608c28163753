"""The score sheet and progress panel's HTML (tutor/ui/play/sheet.py): no widgets, no kernel."""

from __future__ import annotations

import base64
import re
from pathlib import Path

import pytest

from tutor.classroom.link import ANONYMOUS
from tutor.i18n import translator
from tutor.storage.store import Store
from tutor.ui.play.sheet import progress_html, sheet_links_html


def test_sheet_links_carry_the_table_and_the_csv() -> None:
    out = sheet_links_html("<table>t</table>", "a,b\n1,2\n", 2, "en")
    assert "download='leonard-round-2.csv'" in out and "download='leonard-round-2.html'" in out
    data = dict(re.findall(r"href='data:text/(\w+);charset=utf-8;base64,([^']+)'", out))
    assert base64.b64decode(data["csv"]).decode() == "a,b\n1,2\n"
    assert base64.b64decode(data["html"]).decode().endswith("<table>t</table>")
    assert "Download CSV" in out


def test_progress_panel_says_when_nothing_is_saved(tmp_path: Path) -> None:
    assert progress_html(None, "ana", "en") == "Progress is not being saved in this game."
    store = Store(tmp_path / "p.sqlite3")
    try:
        out = progress_html(store, "ana", "en")
    finally:
        store.close()
    assert "0 answers saved for ana." in out
    assert "ld-progress-download" in out and "download='leonard-progress-ana.csv'" in out


def test_progress_panel_counts_in_words_and_leaves_out_a_placeholder_name(
        tmp_path: Path) -> None:
    """One answer is "1 answer", not "1 answers"; a page opened without a name says how many
    answers are saved without calling the student "anon"."""
    with Store(tmp_path / "p.sqlite3") as store:
        for student in ("ana", ANONYMOUS):
            session = store.start_session(student)
            store.record_attempt(student, session, lesson="L1", problem="x/3 on 4",
                                 step="gain", outcome="CORRECT", kc="multiply")
        assert "1 answer saved for ana." in progress_html(store, "ana", "en")
        assert "1 respuesta guardada de ana." in progress_html(store, "ana", "es")
        for lang, saved in (("en", "1 answer saved."), ("es", "1 respuesta guardada.")):
            out = progress_html(store, ANONYMOUS, lang)
            assert f"<div>{saved}</div>" in out and "anon" not in out.split("<a ")[0]


def test_the_sheet_title_speaks_the_page_language() -> None:
    """The score sheet's caption on a Spanish page is Spanish ("Ronda 1 · dominó: gana A"),
    for every word the engine's title uses; a classic variant's name is the page's too."""
    from engine import HouseRules, Match
    from engine.bots import make_bot, play_match
    from engine.sheet import TITLE_WORDS, ScoreSheet
    from tutor.ui.play.sheet import SHEET_WORDS, sheet_caption

    assert set(SHEET_WORDS) == set(TITLE_WORDS)
    for game, start in (("leonard", "Ronda 1 · "),
                        ("traditional", "Juego tradicional de robar (doble seis) · Ronda 1 · ")):
        m = play_match(Match(game, 2, HouseRules(rounds=1), seed=4),
                       [make_bot("random", s) for s in range(2)])
        first = m.rounds[0]
        sheet = ScoreSheet.from_round(first)
        caption = sheet_caption(sheet, game, "es")
        result = first.result
        how = {"domino": "dominó", "tranque": "tranque"}[result.reason]
        who = ("nadie gana" if result.winner is None
               else f"gana {sheet.letters[result.winner]}")
        assert caption == f"{start}{how}: {who}", caption
        if game == "leonard":  # in English, the engine's own title
            assert sheet_caption(sheet, game, "en") == sheet.title()



@pytest.mark.parametrize("variant,reason", [("ponce", "target"), ("cuban", "annulled")])
def test_a_games_own_ending_is_titled_by_its_entry(variant, reason) -> None:
    """The engine's sheet names only domino and tranque; a game's own ending (Ponce's match
    point, Cuban's redeal) is titled with the words of its entry in tutor/games.py, in the
    page's language, and by its key in the engine's own English title."""
    from engine.events import RoundEnded
    from engine.sheet import TITLE_WORDS, ScoreSheet
    from tutor.games import SHEET_END_WORDS
    from tutor.ui.play.sheet import sheet_caption

    assert reason not in TITLE_WORDS
    end = RoundEnded(reason=reason, winner=None, gains=(0,) * 4, losses=(0,) * 4,
                     hand_totals=(5, 6, 7, 8))
    sheet = ScoreSheet(1, 4, None, [], end, teams=((0, 2), (1, 3)), game="G")
    assert sheet.title() == f"G · Round 1 · {reason}: nobody wins"
    for lang in ("en", "es"):
        _ = translator(lang)
        said = _(SHEET_END_WORDS[reason])
        assert said != reason
        assert sheet_caption(sheet, variant, lang).endswith(
            " · " + _("{how}: nobody wins").format(how=said))
