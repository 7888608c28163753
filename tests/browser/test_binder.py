"""Binder's launch, emulated on this machine (issue: Binder showed only "There was an error
when executing cell [1]": the lessons were not in the regular install Binder makes).

As repo2docker does: a fresh environment from ``binder/requirements.txt`` alone (its ``.``
line is a regular, non-editable install), then ``binder/postBuild``, then Jupyter Server with
the Voilà extension serving the repository root. The page opened is the README's Binder link.
See the shared recipe ``binder-emulation.md``.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import sysconfig
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, unquote, urlsplit

import pytest
from browsing import ROOT, give_a_name, need_chromium, watch_errors
from test_assignment_student import FIRST, SECOND, stays_in_the_assignment, two_short_lessons
from test_assignment_teacher import binder_assignment_table
from test_classroom_server import check_culling, scaled

from engine._build import pure_requested
from tutor.commands.server import start_jupyter_server, stop_server

pytestmark = pytest.mark.slow


def readme_launch_path() -> str:
    """The ``urlpath`` of the README's Binder link that opens a lesson, as a server path."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    links = re.findall(r"https://mybinder\.org/v2/gh/\S+?\?urlpath=[^\s`)]+", text)
    paths = [unquote(parse_qs(urlsplit(u).query)["urlpath"][0]) for u in links]
    lesson = [p for p in paths if "lesson=" in p]
    assert lesson, f"no Binder link to a lesson in the README: {links}"
    return "/" + lesson[0].lstrip("/")


@pytest.fixture(scope="module")
def binder(tmp_path_factory: pytest.TempPathFactory, copy_checkout: Callable[[Path], Path],
           built_wheel: Path) -> Iterator[dict[str, Any]]:
    need_chromium()
    tmp = tmp_path_factory.mktemp("binder")
    repo, venv, home = tmp / "repo", tmp / "venv", tmp / "home"
    repo.mkdir()
    home.mkdir()
    copy_checkout(repo)
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    bin_dir = venv / "bin"
    env = {**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}",
           "HOME": str(home), "PIP_DISABLE_PIP_VERSION_CHECK": "1"}
    env.pop("LEONARD_TUTOR_DB", None)  # Binder has none: the default path under HOME
    env.pop("PYTHONPATH", None)
    # binder/requirements.txt as it is, but for its ``.`` line: ``pip install .`` builds the
    # wheel the install test builds too, so both install that one build (conftest.py).
    requirements = (repo / "binder" / "requirements.txt").read_text(encoding="utf-8")
    assert "\n.[postgres]\n" in requirements, requirements
    (tmp / "requirements.txt").write_text(
        requirements.replace("\n.[postgres]\n", f"\n{built_wheel}[postgres]\n"),
        encoding="utf-8")
    subprocess.run([str(bin_dir / "pip"), "install", "-q", "-r", str(tmp / "requirements.txt")],
                   cwd=repo, env=env, check=True)
    subprocess.run(["bash", "binder/postBuild"], cwd=repo, env=env, check=True)
    # psycopg too: the same image serves a Zero to JupyterHub class on a PostgreSQL store
    where = subprocess.run([str(bin_dir / "python"), "-c",
                            "import tutor, engine, psycopg; print(tutor.__file__)"],
                           cwd=home, env=env, check=True, capture_output=True, text=True)
    build = subprocess.run([str(bin_dir / "python"), "-m", "engine", "--version"],
                           cwd=home, env=env, check=True, capture_output=True, text=True)
    # Shipped culling settings, scaled from minutes to seconds for the test.
    config = venv / "etc" / "jupyter" / "jupyter_server_config.json"
    config.write_text(json.dumps(scaled(json.loads(config.read_text()))), encoding="utf-8")
    proc, base = start_jupyter_server(bin_dir / "python", repo, tmp / "server.log", env=env)
    try:
        yield {"base": base.rstrip("/"), "proc": proc, "home": home, "tutor": where.stdout,
               "log": tmp / "server.log", "engine": build.stdout.strip()}
    finally:
        stop_server(proc)


def test_binder_install_is_a_regular_one(binder: dict[str, Any]) -> None:
    assert "site-packages" in binder["tutor"], binder["tutor"]


def test_binder_reports_which_engine_build_it_gets(binder: dict[str, Any],
                                                  artifacts: Path) -> None:
    """Binder's install compiles the engine when its image has a C compiler (repo2docker's
    has); this emulation, on this machine, gets what this machine's compiler allows. The
    build is printed (pytest -s, or -rA) and kept in the artifacts."""
    build = binder["engine"]
    print(f"Binder's engine: {build}")
    (artifacts / "binder-engine-build.txt").write_text(build + "\n", encoding="utf-8")
    assert re.fullmatch(r"engine \S+, (compiled \(mypyc\)|pure Python.*)", build), build
    cc = os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc"
    if shutil.which(cc.split()[0]) and not pure_requested():  # LEONARD_PURE reaches pip too
        assert build.endswith("compiled (mypyc)"), f"a C compiler is here, yet {build}"
    else:
        assert "pure Python" in build


def test_binder_server_compiles_the_page_templates_once(binder: dict[str, Any]) -> None:
    """postBuild's ``--write-server-config`` enables the template cache as a Jupyter Server
    extension (Voilà compiles every page's templates again without it)."""
    log = binder["log"].read_text(errors="replace")
    assert "tutor.hub.page_templates: page templates are compiled once per server" in log, log


def test_binder_launch_reaches_a_question_in_english(binder: dict[str, Any], page: Any,
                                                     artifacts: Path) -> None:
    page.goto(binder["base"] + readme_launch_path(), timeout=180_000)
    give_a_name(page, timeout=180_000)  # the link names no student: the page asks first
    page.locator("canvas.ld-board").wait_for(timeout=180_000)
    assert "There was an error" not in page.content(), binder["log"].read_text()
    status = page.locator(".ld-status")
    assert "There is no lesson" not in status.inner_text()
    for _ in range(100):  # play the first offered tile until the tutor asks
        answer = page.locator(".ld-answer input")
        move = page.locator(".ld-move:not([title='draw']):not([title='pass'])")
        page.wait_for_function(
            "() => [...document.querySelectorAll('.ld-answer input, .ld-move')]"
            ".some(e => e.offsetParent !== null && e.title !== 'draw' && e.title !== 'pass')",
            timeout=60_000)
        if answer.is_visible():
            break
        handle = move.first.element_handle()
        move.first.click()
        handle.wait_for_element_state("hidden", timeout=30_000)
    else:
        raise AssertionError("no question in 100 moves")
    question = page.locator(".ld-question").inner_text()
    assert re.search(r"\b(What is|How many)\b", question), question  # a question, in English
    assert "Leonard-Domino Tutor" in page.locator(".ld-title").inner_text()
    page.screenshot(path=str(artifacts / "binder-first-question.png"))
    assert page.locator('[data-mime-type="application/vnd.jupyter.stderr"]').count() == 0
    assert page.page_errors == []
    # Progress went where Binder keeps it: the default store under the user's home.
    assert (binder["home"] / ".local" / "share" / "leonard-domino-tutor").is_dir()


def test_binder_server_culls_closed_tabs_kernels(binder: dict[str, Any], browser: Any) -> None:
    check_culling(browser, binder["base"] + readme_launch_path(), binder["proc"].pid)


def test_binder_pages_ask_no_other_host(binder: dict[str, Any], page: Any) -> None:
    """Issue 43 (finding 11): Binder's regular install ships the page template and its
    server config selects it, so the page asks its own server only (Voilà's lab template
    asked a CDN for Font Awesome); the icons come from the same server."""
    from test_offline import _icons_drawn, only_own_server

    elsewhere = only_own_server(page, binder["base"])
    page.goto(binder["base"] + readme_launch_path(), timeout=180_000)
    give_a_name(page, "Offline", timeout=180_000)
    page.locator("canvas.ld-board").wait_for(timeout=180_000)
    _icons_drawn(page, "Binder's play page", {"fa-refresh"})
    assert elsewhere == []
    assert page.page_errors == []


def test_binder_carries_an_assignment_from_teacher_to_student(
        binder: dict[str, Any], page: Any, student_plays: Any, tmp_path: Path) -> None:
    """Issue 45 in Binder's shape (a regular install, pages under
    ``/voila/render/notebooks/``): the assignment's link opens the lessons page with the
    assignment first; its lesson opens the play page carrying it; and the teacher page,
    given the link and the students' files, shows who is done, in progress and not
    started."""
    from datetime import datetime, timedelta, timezone

    from tutor.classroom.assignments import assignment_link, check_assignment
    from tutor.course.lessons import list_lessons

    now = datetime.now(timezone.utc)
    a = check_assignment(class_code="6B", title="Semana 12", lessons=["04-times"],
                         installed={ls.id: ls for ls in list_lessons()}, now=now,
                         due_date=f"{now + timedelta(days=7):%Y-%m-%d}")
    pages = binder["base"] + "/voila/render/notebooks/"
    page.goto(pages + assignment_link(a) + "&student=ana", timeout=180_000)
    card = page.locator(f"article.ld-assignment[data-assignment='{a.id}']")
    card.wait_for(timeout=180_000)
    assert card.locator(".ld-assignment-state").get_attribute("data-state") == "not started"
    card.locator("a.ld-assignment-link").first.click()
    page.wait_for_url(re.compile(r"/voila/render/notebooks/Play\.ipynb\?.*assignment="
                                 + re.escape(a.id)), timeout=120_000)
    page.locator("canvas.ld-board").wait_for(timeout=180_000)
    assert page.locator('[data-mime-type="application/vnd.jupyter.stderr"]').count() == 0
    binder_assignment_table(page, pages, student_plays, tmp_path)


def test_binder_teacher_copies_a_link_that_keeps_the_student_in_the_assignment(
        binder: dict[str, Any], page: Any, artifacts: Path) -> None:
    """Issue 52 in Binder's shape (a regular install under Jupyter Server): the teacher makes
    a two-lesson assignment and copies its link with the Copy button; the link is whole and
    opens the assignment in a fresh browser (a student's); the student finishes its first
    lesson, the lesson's end offers the second, and the download is named with the class."""
    # The teacher's own lessons, where the builder saves them on Binder (under HOME).
    two_short_lessons(binder["home"] / ".local" / "share" / "leonard-domino-tutor" / "lessons")
    pages = binder["base"] + "/voila/render/notebooks/"
    page.goto(pages + "Teacher.ipynb?lang=en&class=6B", timeout=180_000)
    form = page.locator(".ld-assign-form")
    form.locator(".ld-assign-title input").wait_for(timeout=180_000)
    form.locator(".ld-assign-title input").fill("Dos lecciones")
    lessons = form.locator(".ld-assign-lessons input")
    for lesson_id, title, shown in ((FIRST, "Primera de la tarea", FIRST),
                                    (SECOND, "Segunda de la tarea", f"{FIRST}, {SECOND}")):
        form.locator(".ld-assign-add-lesson select").select_option(
            label=f"{title} ({lesson_id})")
        page.wait_for_function("([el, v]) => el.value === v",
                               arg=[lessons.element_handle(), shown], timeout=30_000)
    form.locator("button.ld-assign-save").click()
    box = form.locator(".ld-assign-link input")
    page.wait_for_function("(el) => /^http:\\/\\/.*\\/voila\\/render\\/notebooks\\/"
                           "Lessons\\.ipynb\\?assignment=/.test(el.value)",
                           arg=box.element_handle(), timeout=60_000)
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    form.locator("button.ld-copy").click()
    form.locator(".ld-copy-status", has_text="Copied").wait_for(timeout=10_000)
    picked = page.evaluate("() => navigator.clipboard.readText()")
    assert picked == box.input_value()
    assignment = parse_qs(urlsplit(picked).query)["assignment"][0]

    fresh = page.context.browser.new_context()  # the student's browser: the link alone
    try:
        student = watch_errors(fresh.new_page())
        student.goto(picked, timeout=180_000)
        student.locator(f"article.ld-assignment[data-assignment='{assignment}']").wait_for(
            timeout=180_000)
        stays_in_the_assignment(student, assignment, "6B", artifacts)
    finally:
        fresh.close()
