"""The pages without internet (issue 43, finding 11): a school behind a strict filter, or
offline, reaches its own server and nothing else.

Every request to another host is blocked (and noted); the play page (up to a question, whose
Hint button carries a regular-weight icon), the lessons page and the teacher page are opened.
No page asks another host for anything (Voilà's lab template linked Font Awesome from a CDN:
the project's template, ``share/jupyter/voila/templates/leonard``, drops those links), and
every icon shown is drawn in its icon font, loaded from the page's own server.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from test_dashboard import _open, _play_to_a_question

from tests import driving as drive
from tutor.session.session import Session

SEED = 11

# Each icon shown (ipywidgets' Font Awesome <i class="fa …">): its classes, its font and
# weight, its glyph, its width, and the font faces the browser loaded to draw that glyph (a
# font that could not be fetched gives none).
ICONS = """async () => {
  const shown = [...document.querySelectorAll('i.fa')].filter(i => i.offsetParent !== null);
  const out = [];
  for (const i of shown) {
    const style = getComputedStyle(i);
    const glyph = getComputedStyle(i, '::before').content.replace(/^"|"$/g, '');
    let faces = [];
    try {
      faces = await document.fonts.load(`${style.fontWeight} 16px ${style.fontFamily}`, glyph);
    } catch (e) { faces = []; }
    out.push({icon: i.className, family: style.fontFamily, weight: style.fontWeight,
              glyph, width: i.getBoundingClientRect().width,
              loaded: faces.filter(f => f.status === 'loaded').map(f => f.family)});
  }
  return out;
}"""


def _icons_drawn(page: Any, name: str, want: set[str]) -> None:
    """Every icon shown is drawn in its loaded icon font; ``want`` are among them."""
    page.wait_for_function("() => document.fonts.status === 'loaded'", timeout=30_000)
    icons = page.evaluate(ICONS)
    assert want <= {c for i in icons for c in i["icon"].split()}, (name, icons)
    for icon in icons:
        assert "Font Awesome" in icon["family"] and icon["glyph"] not in ("", "none"), \
            (name, icon)
        assert icon["width"] > 0, (name, icon)
        assert any("Font Awesome" in f for f in icon["loaded"]), (name, icon)


def only_own_server(page: Any, base: str) -> list[str]:
    """Every request ``page`` makes to a host other than ``base``'s aborted, as a school's
    filter or no internet would; returns the list the aborted addresses go into."""
    own = urlsplit(base).netloc
    elsewhere: list[str] = []

    def route(route: Any) -> None:
        url = route.request.url
        if urlsplit(url).scheme in ("data", "blob") or urlsplit(url).netloc == own:
            route.continue_()
        else:
            elsewhere.append(url)
            route.abort()

    page.route("**/*", route)
    return elsewhere


def test_no_page_asks_another_host_and_the_icons_show(page: Any,
                                                     pages: dict[str, Any]) -> None:
    own = urlsplit(pages["url"]).netloc
    elsewhere = only_own_server(page, pages["url"])
    sockets: list[str] = []
    page.on("websocket", lambda ws: sockets.append(ws.url))

    _open(page, pages["url"] + "Play.ipynb",
          f"?lesson=free-play&lang=en&seed={SEED}&student=offline")
    _icons_drawn(page, "the play page", {"fa-refresh"})  # New game
    _play_to_a_question(page, drive.start(Session.from_lesson("free-play", lang="en", seed=SEED,
                                                  store=None)))
    page.locator(".ld-hint").wait_for(state="visible", timeout=10_000)
    _icons_drawn(page, "the play page's question", {"fa-lightbulb-o", "fa-eye"})  # Hint

    page.goto(pages["url"] + "Lessons.ipynb?lang=en&student=offline", timeout=120_000)
    page.locator(".ld-lesson-link").first.wait_for(timeout=120_000)
    _icons_drawn(page, "the lessons page", {"fa-upload"})  # Load my progress

    page.goto(pages["url"] + "Teacher.ipynb?lang=en", timeout=120_000)
    page.locator(".ld-class-upload").first.wait_for(timeout=120_000)
    _icons_drawn(page, "the teacher page", {"fa-upload", "fa-save"})

    assert elsewhere == []
    assert sockets and all(urlsplit(s).netloc == own for s in sockets), sockets
    assert page.page_errors == []
