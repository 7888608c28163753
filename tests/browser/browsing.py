"""What the browser tests share: where things are, and Debian's Chromium."""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Any

import pytest
from npm_cache import npm_install

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = ROOT / "notebooks"
NOTEBOOK = NOTEBOOKS / "Play.ipynb"
CHROMIUM = os.environ.get("CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
    "--disable-dev-shm-usage",
]
ARTIFACTS = ROOT / "test-artifacts"
WINDOW = {"width": 1280, "height": 900}
"""The browser window of the tests' pages (conftest's ``page``)."""
PHONE = {"width": 412, "height": 915}
"""A phone's window, for the checks that the pages fit one."""
SIDEWAYS = {"width": PHONE["height"], "height": PHONE["width"]}
"""The same phone turned sideways."""

# A canvas's pixels as the browser holds them: its size, how many are painted, and a sample of
# its colours.
CANVAS_STATS = """(el) => {
  const c = document.createElement('canvas'); c.width = el.width; c.height = el.height;
  const ctx = c.getContext('2d'); ctx.drawImage(el, 0, 0);
  const d = ctx.getImageData(0, 0, c.width, c.height).data;
  const colours = new Set(); let painted = 0;
  for (let i = 0; i < d.length; i += 4) {
    if (d[i + 3] > 0) painted++;
    if (i % 64 === 0) colours.add(d[i] + ',' + d[i + 1] + ',' + d[i + 2]);
  }
  return {width: c.width, height: c.height, painted, colours: colours.size,
          seen: [...colours]};
}"""


def serve(folder: Path) -> tuple[Any, str]:
    """Serve every page of ``notebooks/`` as a class would (``voila notebooks/``), with the
    progress file and the lessons folder in ``folder``: the server and its pages' base URL."""
    from tutor.commands.server import start_voila

    folder.mkdir(parents=True, exist_ok=True)
    env = {"LEONARD_TUTOR_DB": str(folder / "class.sqlite3"),
           "LEONARD_LESSONS": str(folder / "lessons")}
    proc, base = start_voila(NOTEBOOKS, folder / "voila.log", env, cwd=ROOT)
    return proc, base + "voila/render/"


def need_chromium() -> None:
    if Path(CHROMIUM).exists():
        return
    reason = (f"Chromium not found at {CHROMIUM}: install Debian's chromium "
              "(apt-get install -y chromium) to run the browser tests")
    if os.environ.get("CI") == "true":
        pytest.fail(reason)
    pytest.skip(reason)


AXE_VERSION = "4.14"
"""The axe-core the audits run: the newest 4.14 release on npm (4.14.1 when this was written),
installed into :data:`AXE_CACHE` on first use. A maintained checker, not the older axe-core
that Python wrappers bundle, which knows fewer rules."""
AXE_CACHE = Path(os.environ.get("LEONARD_AXE_CACHE",
                                Path.home() / ".cache" / "leonard-domino-tutor" / "axe-core"))
STRUCTURE = ("region", "heading-order")
"""The rules whose violations fail an audit whatever their impact (axe calls them moderate):
every panel of a page is in a landmark region and the headings go down one level at a time,
so that a screen reader's user can list the panels and jump to one."""

# Run axe with its experimental rules on too; only the violations come back.
_RUN_AXE = """async () => {
  const rules = {};
  for (const r of axe.getRules(['experimental'])) rules[r.ruleId] = {enabled: true};
  const result = await axe.run(document, {rules, resultTypes: ['violations']});
  return {version: axe.version, violations: result.violations.map(v => ({
    id: v.id, impact: v.impact, help: v.help, tags: v.tags,
    nodes: v.nodes.map(n => ({target: n.target, html: n.html.slice(0, 300),
                              summary: n.failureSummary}))}))};
}"""


def axe_script() -> Path:
    """axe.min.js of axe-core :data:`AXE_VERSION`, installed from npm into :data:`AXE_CACHE`
    when missing (the tests need npm, as the hub test does). Without npm the audits skip and say
    why, or fail under CI=true."""
    script = AXE_CACHE / AXE_VERSION / "node_modules" / "axe-core" / "axe.min.js"
    if npm_install(script.parents[2], f"axe-core@{AXE_VERSION}", script) is None:
        reason = "npm not found: install nodejs and npm (apt-get install -y npm) to audit pages"
        if os.environ.get("CI") == "true":
            pytest.fail(reason)
        pytest.skip(reason)
    return script


def audit(page: Any, name: str, artifacts: Path) -> list[dict[str, object]]:
    """Run axe-core (:func:`axe_script`, experimental rules on) on the page as it is; keep
    its report as ``axe-NAME.json`` in the test artifacts and return the violations that fail
    an audit (id, impact, where): the serious and critical ones, and any of :data:`STRUCTURE`."""
    import json

    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.add_script_tag(path=str(axe_script()))
    report = page.evaluate(_RUN_AXE)
    (artifacts / f"axe-{name}.json").write_text(json.dumps(report, indent=1),
                                                encoding="utf-8")
    return [{"id": v["id"], "impact": v["impact"],
             "nodes": [n["target"] for n in v["nodes"]]}
            for v in report["violations"]
            if v["impact"] in ("serious", "critical") or v["id"] in STRUCTURE]


# Each panel heading (h3) not inside a landmark named by it: a region or section named by
# the heading's words, or a form. [heading, the landmark around it and its name, if any].
_PANELS_OUTSIDE_REGIONS = """(scope) => [...document.querySelectorAll(scope + ' h3')]
  .filter(h => h.offsetParent !== null)
  .map(h => { const l = h.closest('[role=region], [role=form], section, [role=main]');
              const named = l && (l.getAttribute('aria-label')
                  || (document.getElementById(l.getAttribute('aria-labelledby')) || {})
                     .textContent || '');
              return [h.textContent.trim(), l ? (l.getAttribute('role') || l.tagName) : null,
                      named || null]; })
  .filter(([text, role, named]) => !(role === 'form'
           || (role && role !== 'main' && named && text.startsWith(named))))"""


def panels_outside_regions(page: Any, scope: str = ".ld-page") -> list[list[str | None]]:
    """The panels under ``scope`` whose heading is in no landmark named by it: a screen
    reader's list of landmarks does not offer them. [heading, landmark role, its name]."""
    return list(page.evaluate(_PANELS_OUTSIDE_REGIONS, scope))


# Every text cut off on screen under the elements matching the selector: a box's placeholder
# or a drop-down's chosen option wider than the room inside it, or a label or button whose text
# overflows it (ipywidgets cut a long label with an ellipsis). [text, its width, the room].
_CUT_TEXTS = """(selector) => {
  const ctx = document.createElement('canvas').getContext('2d');
  const room = (el, style) => el.clientWidth - parseFloat(style.paddingLeft)
      - parseFloat(style.paddingRight);
  const cut = [];
  for (const scope of document.querySelectorAll(selector)) {
    for (const el of scope.querySelectorAll('input, textarea, select, label, button, span')) {
      if (el.offsetParent === null || el.closest('.ld-sr')) continue;  // hidden, or for
      // screen readers only (clipped to a pixel on purpose)
      const style = getComputedStyle(el);
      let text = '';
      let width = 0;
      if (el.tagName === 'SELECT' || el.placeholder) {
        text = el.tagName === 'SELECT' ? (el.selectedOptions[0] || {}).text || '' : el.placeholder;
        ctx.font = style.font;
        width = ctx.measureText(text).width;
        if (width > room(el, style)) cut.push([text, width, room(el, style)]);
      } else if (style.overflowX !== 'visible' && el.textContent.trim()
                 && el.scrollWidth > el.clientWidth + 1) {
        cut.push([el.textContent.trim(), el.scrollWidth, el.clientWidth]);
      }
    }
  }
  return cut;
}"""


def cut_texts(page: Any, selector: str) -> list[tuple[str, float, float]]:
    """Each text under ``selector`` that the screen cuts off: (text, width in px, room in
    px). A placeholder, a drop-down's choice, a label or a button's words."""
    return [(text, width, room) for text, width, room in page.evaluate(_CUT_TEXTS, selector)]


def cut_in_each_language(page: Any, box: str, hint: str,
                         scope: str) -> dict[str, list[tuple[str, float, float]]]:
    """Switch the page to each language by its Español / English buttons, wait until the
    ``box`` input's placeholder is ``hint`` (an English message) in that language, and return
    each language's :func:`cut_texts` under ``scope``."""
    from tutor.i18n import translator

    cut = {}
    for lang, name in (("es", "Español"), ("en", "English")):
        page.get_by_role("button", name=name, exact=True).click()
        page.wait_for_function("([box, h]) => document.querySelector(box).placeholder === h",
                               arg=[box, translator(lang)(hint)], timeout=30_000)
        cut[lang] = cut_texts(page, scope)
    return cut


# Whether the element's middle is what the page shows there (not hidden under, or clipped by,
# something else): a box can be "visible" to Playwright and still unseen.
_ON_TOP = """(el) => {
  const r = el.getBoundingClientRect();
  const hit = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
  return r.width > 0 && r.height > 0 && el.contains(hit);
}"""


def seen(page: Any, selector: str) -> bool:
    """Whether the first ``selector`` element is on top where it is drawn (scrolled into
    view first): a sighted user sees it."""
    element = page.locator(selector).first
    element.scroll_into_view_if_needed()
    return bool(element.evaluate(_ON_TOP))


# Visible elements reaching past the window's right edge, unless they are in a table's own
# sideways-scrolling box: the page does not scroll sideways, so a form or menu out there is cut
# off (or left in an accidental scroll strip of a widget box, which nobody finds).
_PAST_THE_EDGE = """(selector) => {
  const edge = document.documentElement.clientWidth + 1;
  const scrolls = (el) => {
    const box = el.closest('.widget-html-content');
    return !!box && box !== el && getComputedStyle(box).overflowX === 'auto';
  };
  return [...document.querySelectorAll(selector + ' *')]
    .filter(el => el.offsetParent !== null && !el.closest('.ld-sr')
            && el.getBoundingClientRect().right > edge && !scrolls(el))
    .map(el => el.className || el.tagName).slice(0, 5);
}"""


def past_the_edge(page: Any, selector: str) -> list[str]:
    """The classes of the first elements under ``selector`` that reach past the window's
    right edge outside a table's own scrolling box: parts of the page a narrow screen
    cuts."""
    return list(page.evaluate(_PAST_THE_EDGE, selector))


# Visible elements reaching past the window's right edge unless a table's own scroll box
# (``.ld-table-scroll``, :func:`tutor.ui.shared.panel.table_box`) holds them: stricter than
# :data:`_PAST_THE_EDGE`, where any widget's box that scrolls sideways counts, so a whole panel
# (legends, forms) scrolling in its widget strip passed. [class, its right edge, the window's].
_OUTSIDE_TABLE_SCROLL = """(selector) => {
  const edge = document.documentElement.clientWidth + 1;
  const held = (el) => {
    const box = el.closest('.ld-table-scroll');
    return !!box && box !== el && getComputedStyle(box).overflowX === 'auto'
           && box.getBoundingClientRect().right <= edge;
  };
  return [...document.querySelectorAll(selector + ' *')]
    .filter(el => el.offsetParent !== null && !el.closest('.ld-sr')
            && el.getBoundingClientRect().right > edge && !held(el))
    .map(el => [String(el.className || el.tagName), Math.round(el.getBoundingClientRect().right),
                edge - 1]).slice(0, 5);
}"""


def past_the_edge_outside_tables(page: Any, selector: str) -> list[list[object]]:
    """The first elements under ``selector`` that reach past the window's right edge and are
    not in a table's own sideways-scrolling box: what the window cuts off, or what makes
    a whole panel or the page scroll sideways."""
    return list(page.evaluate(_OUTSIDE_TABLE_SCROLL, selector))


def past_the_edge_on_a_phone(page: Any, selector: str) -> list[str]:
    """:func:`past_the_edge` with the window a phone's (:data:`PHONE`), then back to the
    tests' :data:`WINDOW`. The page's boxes take the new width over a few frames (seen in CI:
    the header and its boxes still at the old width when read at once), so this waits up to
    10 s for the page to fit before it reads what is past the edge."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    page.set_viewport_size(PHONE)
    try:
        try:
            page.wait_for_function(f"(s) => ({_PAST_THE_EDGE})(s).length === 0", arg=selector,
                                   timeout=10_000, polling=100)
        except PlaywrightTimeout:
            pass  # the page does not fit: the caller's assertion shows what is cut
        return past_the_edge(page, selector)
    finally:
        page.set_viewport_size(WINDOW)


NAME_OR_BOARD = """() => [...document.querySelectorAll('.ld-name-in input, .ld-move')]
    .some(e => e.offsetParent !== null)"""


def give_a_name(page: Any, name: str = "Ana", timeout: float = 120_000) -> None:
    """A page opened without ``student=`` asks for the student's name before the game (issue
    33): type it and press Enter, as a student does; a page that knows its student plays at
    once."""
    page.wait_for_function(NAME_OR_BOARD, timeout=timeout)
    box = page.locator(".ld-name-in input")
    if box.is_visible():
        box.fill(name)
        box.press("Enter")


def watch_errors(page: Any) -> Any:
    """``page`` keeping its script errors in ``page.page_errors`` (what ``no_errors``
    checks), each with the page it happened on and its stack, so a failure says where it
    came from. The ``page`` fixture's page is watched; a page a test opens itself (another
    browser context: a student's) is watched by this."""
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(f"{e} (on {page.url})\n{e.stack or ''}"))
    page.page_errors = errors
    return page
