"""A real JupyterHub in the tests (issue 35, part 1): JupyterHub from PyPI, its proxy from
npm, the dummy authenticator and the simple local spawner, one shared progress store (the
session's PostgreSQL cluster when it can start, else one SQLite file every spawned server
is given), ``LEONARD_TEACHERS=teacher``.

Two students (ana, beto) and a teacher log in through the hub's login form in headless
Chromium. Each student opens the play page through the hub with a link naming the other
student, plays first moves until the tutor asks a question and answers it: the answer is
stored under the student's hub name, whatever the link says. The teacher's page shows both
students, with no file uploaded; a student who opens the teacher's page is refused with the
sentence that says why. Stopping the hub (by its pid) leaves no single-user server or kernel.

One hub for the test session; slow (a minute or two). Needs npm (the proxy is installed
into ``~/.cache/leonard-domino-tutor/chp`` when missing) and Debian's Chromium.
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
CHP_CACHE = Path(os.environ.get("LEONARD_CHP_CACHE",
                                Path.home() / ".cache" / "leonard-domino-tutor" / "chp"))
PASSWORD = "classpw"
STUDENTS = ("ana", "beto")
TEACHER = "teacher"
LESSON = "04-times"
CHOICE = ".ld-move:not([title='draw']):not([title='pass'])"
IDLE = """() => {
  const shown = (sel) => [...document.querySelectorAll(sel)].some(e => e.offsetParent !== null);
  const moves = [...document.querySelectorAll('.ld-move')].filter(
      e => e.offsetParent !== null && e.title !== 'draw' && e.title !== 'pass');
  return moves.length > 0 || shown('.ld-answer input') || shown('.ld-round-end .ld-summary');
}"""

pytestmark = pytest.mark.slow


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _proxy_command() -> Path:
    """configurable-http-proxy 5 from npm, installed into the cache folder when missing."""
    chp = CHP_CACHE / "node_modules" / ".bin" / "configurable-http-proxy"
    if chp.exists():
        return chp
    npm = shutil.which("npm")
    if npm is None:
        pytest.skip("npm is not installed, so JupyterHub's proxy (configurable-http-proxy, "
                    "from npm) cannot be installed: apt-get install nodejs npm")
    CHP_CACHE.mkdir(parents=True, exist_ok=True)
    subprocess.run([npm, "install", "--silent", "--no-audit", "--no-fund",
                    "configurable-http-proxy@5"], cwd=CHP_CACHE, check=True,
                   capture_output=True, timeout=300)
    return chp


def _descendants(pid: int) -> set[int]:
    """Every live process under ``pid`` (read from /proc)."""
    parents: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if stat[0] != "Z":
                parents[int(entry.name)] = int(stat[1])
    found, todo = set(), [pid]
    while todo:
        p = todo.pop()
        for child, parent in parents.items():
            if parent == p and child not in found:
                found.add(child)
                todo.append(child)
    return found


def _alive(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def _command(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
    except OSError:
        return "?"


class Hub:
    """A running JupyterHub: its address, process, log and the store its servers share."""

    def __init__(self, folder: Path, store: str) -> None:
        self.folder = folder
        self.store = store
        self.port = _free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log = folder / "hub.log"
        self.process: subprocess.Popen[bytes] | None = None
        self.children: dict[int, str] = {}
        """The processes under the hub when it was stopped, with their command lines."""

    def config(self, proxy: Path) -> Path:
        env = {"LEONARD_TUTOR_DB": self.store, "LEONARD_TEACHERS": TEACHER,
               "PYTHONPATH": str(ROOT)}
        lines = [
            f"c.JupyterHub.ip = '127.0.0.1'; c.JupyterHub.port = {self.port}",
            f"c.JupyterHub.hub_ip = '127.0.0.1'; c.JupyterHub.hub_port = {_free_port()}",
            f"c.ConfigurableHTTPProxy.api_url = 'http://127.0.0.1:{_free_port()}'",
            f"c.ConfigurableHTTPProxy.command = [{str(proxy)!r}]",
            "c.JupyterHub.authenticator_class = 'dummy'",
            f"c.DummyAuthenticator.password = {PASSWORD!r}",
            "c.Authenticator.allow_all = True",
            "c.JupyterHub.spawner_class = 'simple'",
            # Every user's server serves the tutor's notebooks; the store is shared.
            f"c.Spawner.notebook_dir = {str(ROOT / 'notebooks')!r}",
            f"c.Spawner.environment = {env!r}",
            "c.Spawner.args = ['--allow-root']" if os.geteuid() == 0 else "",
            "c.Spawner.start_timeout = 180; c.Spawner.http_timeout = 180",
            f"c.JupyterHub.db_url = 'sqlite:///{self.folder}/hub.sqlite'",
            f"c.JupyterHub.cookie_secret_file = '{self.folder}/cookie'",
            f"c.JupyterHub.pid_file = '{self.folder}/hub.pid'",
            "c.JupyterHub.cleanup_servers = True; c.JupyterHub.cleanup_proxy = True",
        ]
        path = self.folder / "jupyterhub_config.py"
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
        return path

    def start(self, proxy: Path) -> Hub:
        import requests

        config = self.config(proxy)
        env = dict(os.environ)
        env["PATH"] = f"{Path(sys.executable).parent}:{env.get('PATH', '')}"
        env["PYTHONPATH"] = str(ROOT)
        with open(self.log, "wb") as log:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "jupyterhub", "-f", str(config)], cwd=self.folder,
                env=env, stdout=log, stderr=subprocess.STDOUT)
        for _ in range(600):  # at most a minute
            if self.process.poll() is not None:
                raise AssertionError(f"the hub stopped at start: {self.tail()}")
            try:
                if requests.get(self.url + "/hub/login", timeout=2).status_code == 200:
                    return self
            except requests.RequestException:
                pass
            time.sleep(0.1)
        raise AssertionError(f"the hub did not answer in a minute: {self.tail()}")

    def tail(self, chars: int = 3000) -> str:
        return self.log.read_text(encoding="utf-8", errors="replace")[-chars:]

    def stop(self) -> set[int]:
        """SIGTERM to the hub (it stops its proxy and the servers it spawned); the processes
        that were under it and still run afterwards."""
        assert self.process is not None
        self.children = {p: _command(p) for p in _descendants(self.process.pid)}
        self.process.send_signal(signal.SIGTERM)
        try:
            self.process.wait(timeout=60)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(timeout=10)
        for _ in range(300):  # the servers' kernels go with them, within a few seconds
            if not any(_alive(p) for p in self.children):
                break
            time.sleep(0.1)
        return {p for p in self.children if _alive(p)}


@pytest.fixture(scope="session")
def hub(request: pytest.FixtureRequest,
        tmp_path_factory: pytest.TempPathFactory) -> Iterator[Hub]:
    """One JupyterHub for the test session, stopped by its pid at the end."""
    try:
        import jupyterhub  # noqa: F401
    except ImportError:
        pytest.skip("jupyterhub is not installed (pip install -e '.[test]' brings it)")
    proxy = _proxy_command()
    folder = tmp_path_factory.mktemp("hub")
    try:
        store = request.getfixturevalue("pg_cluster").new_database()
    except pytest.skip.Exception:  # no PostgreSQL here: one SQLite file, shared
        store = str(folder / "class.sqlite3")
    print(f"hub test store: {store}")
    running = Hub(folder, store).start(proxy)
    try:
        yield running
    finally:
        if running.process is not None and running.process.poll() is None:
            left = running.stop()
            for pid in left:  # only what this hub started
                os.kill(pid, signal.SIGKILL)


def _login(browser: Any, hub: Hub, user: str) -> Any:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.goto(hub.url + "/hub/login", timeout=60_000)
    page.fill("input[name=username]", user)
    page.fill("input[name=password]", PASSWORD)
    page.click("input[type=submit], button[type=submit]")
    page.wait_for_url("**/hub/**", timeout=60_000)
    return page


def _open(page: Any, hub: Hub, user: str, notebook: str, query: str = "") -> None:
    """Open a notebook of ``user``'s server (the hub spawns it on the first visit)."""
    url = f"{hub.url}/user/{user}/voila/render/{notebook}{query}"
    for _ in range(60):
        response = page.goto(url, timeout=180_000)
        if response is not None and response.ok and "/voila/render/" in page.url:
            return
        time.sleep(1)  # the spawn page: try again
    raise AssertionError(f"{user}'s server did not serve {notebook}: {hub.tail()}")


def _answer_a_question(page: Any) -> str:
    """Play the first moves until the tutor asks a question, and answer it; the feedback."""
    page.locator("canvas.ld-board").wait_for(timeout=180_000)
    for _ in range(200):
        page.wait_for_function(IDLE, timeout=60_000)
        box = page.locator(".ld-answer input")
        if box.is_visible():
            box.fill("7")
            box.press("Enter")
            page.wait_for_function(
                "() => (document.querySelector('.ld-feedback') || {}).innerText",
                timeout=60_000)
            return str(page.locator(".ld-feedback").inner_text())
        assert not page.locator(".ld-round-end .ld-summary").is_visible(), \
            "the round ended before a question"
        button = page.locator(CHOICE).first
        handle = button.element_handle()
        button.click()
        handle.wait_for_element_state("hidden", timeout=60_000)
    raise AssertionError("no question in 200 moves")


def test_two_students_and_a_teacher_on_a_real_hub(hub: Hub, browser: Any) -> None:
    """Issue 35: two students and a teacher on a real JupyterHub (the session's Chromium)."""
    from tutor.storage.store import Store

    # Each link names someone else: the page plays as the hub user all the same.
    for k, (me, other) in enumerate(((STUDENTS[0], STUDENTS[1]),
                                     (STUDENTS[1], "mallory"))):
        page = _login(browser, hub, me)
        _open(page, hub, me, "Play.ipynb",
              f"?lesson={LESSON}&lang=en&seed=7&student={other}")
        assert _answer_a_question(page)
        with Store(hub.store) as store:
            assert store.students() == list(STUDENTS[:k + 1])
        # A student opening the teacher's page is refused, with the sentence why.
        _open(page, hub, me, "Teacher.ipynb", "?lang=en")
        page.get_by_text("only a teacher can open it").wait_for(timeout=180_000)
        assert page.locator(".ld-live-panel").count() == 0
        page.context.close()

    with Store(hub.store) as store:
        stored = store.attempts()
    assert {a.student for a in stored} == set(STUDENTS)
    assert all(a.lesson == LESSON and a.input == "7" for a in stored
               if a.outcome.value in ("CORRECT", "INCORRECT"))

    page = _login(browser, hub, TEACHER)
    _open(page, hub, TEACHER, "Teacher.ipynb", "?lang=en")
    live = page.locator(".ld-live-table")
    live.wait_for(timeout=180_000)
    for student in STUDENTS:  # no file uploaded: the shared store has them
        live.locator(f"tr[data-student='{student}']").wait_for(timeout=10_000)
    assert page.get_by_text("only a teacher can open it").count() == 0
    page.context.close()

    left = hub.stop()
    commands = list(hub.children.values())
    assert sum("jupyterhub-singleuser" in c for c in commands) == 3, commands
    assert any("configurable-http-proxy" in c for c in commands), commands
    assert any("ipykernel" in c for c in commands), commands  # the pages' kernels
    assert not left, f"left running after the hub stopped: {[hub.children[p] for p in left]}"
