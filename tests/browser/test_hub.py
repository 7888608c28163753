"""A real JupyterHub, set up as ``deploy/tljh/`` says (issues 35, 41 and 45): JupyterHub from
PyPI, its proxy from npm, ``deploy/tljh/leonard.py`` loaded as it is (see
``tests/browser/hub_server.py`` for the overlay that stands in for TLJH), the store service
in front of the session's PostgreSQL cluster (or an SQLite file).

Issue 35: two students and a teacher log in through the hub's form in headless Chromium and
play; the answers are stored under each student's hub name, whatever the link says; the
teacher sees both, a student is refused the teacher's page.

Issue 41: a student tries what the issue's probe tried, and each is refused: a kernel of
their own, code on their page's kernel, a terminal, JupyterLab, files; the store's password
is nowhere a student's server can read; a write forged with the student's own token for
another student is refused, and so is a teacher's view for a student who says they are the
teacher; "José" typed two ways is one student; the fourth tab gets the page that says which
to close; an idle tab is closed and says so when the student comes back; PostgreSQL stopped
mid-class, then back, loses and doubles nothing, and the page says the truth meanwhile.

Issue 51 part 1: a token a student mints from the hub's API, or their server's own token
without the server's write key, writes nothing; the page's writes (token and key) land; the
key's secret is in no student's server, and each server holds its own user's key only.

Issue 45: a class's roster made from a hub group, and its assignment seen by its students
only, through each one's own server's token; and through the pages: a student's lessons
page lists their class's assignment and their game from it is tagged, another class's
student given its link sees a sentence and their game is not tagged.

One hub for the test session; slow (a few minutes). Needs npm (the proxy is installed into
``~/.cache/leonard-domino-tutor/chp`` when missing) and Debian's Chromium.
"""

from __future__ import annotations

import json
import os
import re
import secrets
import signal
import time
import unicodedata
import uuid
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from hub_server import (
    IDLE_USER,
    PASSWORD,
    ROOT,
    SECRET,
    TEACHER,
    Hub,
    alive,
    channel_message,
    cookie_header,
    environ,
    proxy_command,
    with_password,
    xsrf,
)

STUDENTS = ("ana", "beto")
LESSON = "04-times"
CHOICE = ".ld-move:not([title='draw']):not([title='pass'])"
IDLE = """() => {
  const shown = (sel) => [...document.querySelectorAll(sel)].some(e => e.offsetParent !== null);
  const moves = [...document.querySelectorAll('.ld-move')].filter(
      e => e.offsetParent !== null && e.title !== 'draw' && e.title !== 'pass');
  return moves.length > 0 || shown('.ld-answer input') || shown('.ld-round-end .ld-summary');
}"""

pytestmark = pytest.mark.slow


@pytest.fixture(scope="session")
def hub(request: pytest.FixtureRequest,
        tmp_path_factory: pytest.TempPathFactory) -> Iterator[Hub]:
    """One JupyterHub for the test session, stopped by its pid at the end."""
    try:
        import jupyterhub  # noqa: F401
    except ImportError:
        pytest.skip("jupyterhub is not installed (pip install -e '.[test]' brings it)")
    proxy = proxy_command()
    if proxy is None:
        pytest.skip("npm is not installed, so JupyterHub's proxy (configurable-http-proxy, "
                    "from npm) cannot be installed: apt-get install nodejs npm")
    folder = tmp_path_factory.mktemp("hub")
    try:
        database = with_password(request.getfixturevalue("pg_cluster").new_database())
    except pytest.skip.Exception:  # no PostgreSQL here: one SQLite file in the store's folder
        database = str(folder / "leonard" / "progress.sqlite3")
    print(f"hub test store: {database}")
    running = Hub(folder, database).start(proxy)
    try:
        yield running
    finally:
        if running.process is not None and running.process.poll() is None:
            left = running.stop()
            for pid in left:  # only what this hub started
                os.kill(pid, signal.SIGKILL)


def _login(browser: Any, hub: Hub, user: str, width: int = 1280, height: int = 900) -> Any:
    context = browser.new_context(viewport={"width": width, "height": height})
    page = context.new_page()
    page.goto(hub.url + "/hub/login", timeout=60_000)
    page.fill("input[name=username]", user)
    page.fill("input[name=password]", PASSWORD)
    page.click("input[type=submit], button[type=submit]")
    # the spawn page, or the user's server when it runs already
    page.wait_for_url(lambda url: "/hub/login" not in url, timeout=60_000)
    return page


def _open(page: Any, hub: Hub, user: str, notebook: str, query: str = "") -> Any:
    """Open a notebook of ``user``'s server (the hub spawns it on the first visit)."""
    from playwright.sync_api import Error

    url = f"{hub.url}/user/{user}/voila/render/{notebook}{query}"
    for _ in range(60):
        try:
            response = page.goto(url, timeout=180_000)
        except Error as err:  # the spawn page's own redirect interrupted this one
            if "interrupted by another navigation" not in str(err):
                raise
            time.sleep(1)
            continue
        if response is not None and response.ok and "/voila/render/" in page.url:
            return response
        time.sleep(1)  # the spawn page: try again
    raise AssertionError(f"{user}'s server did not serve {notebook}: {hub.tail()}")


def _play_to_question(page: Any) -> None:
    """Play the first moves until the tutor asks a question."""
    page.locator("canvas.ld-board").wait_for(timeout=180_000)
    for _ in range(200):
        page.wait_for_function(IDLE, timeout=60_000)
        if page.locator(".ld-answer input").is_visible():
            return
        assert not page.locator(".ld-round-end .ld-summary").is_visible(), \
            "the round ended before a question"
        button = page.locator(CHOICE).first
        handle = button.element_handle()
        button.click()
        handle.wait_for_element_state("hidden", timeout=60_000)
    raise AssertionError("no question in 200 moves")


def _answer(page: Any, text: str = "7") -> str:
    """Answer the question asked; the feedback (on the question while it is open, on the
    answered card once it is done)."""
    said = """() => [...document.querySelectorAll('.ld-feedback, .ld-feedback-done')]
                 .map(e => e.innerText).join('|')"""
    before = page.evaluate(said)
    box = page.locator(".ld-answer input")
    box.fill(text)
    box.press("Enter")
    page.wait_for_function(f"(before) => ({said})() !== before", arg=before, timeout=60_000)
    return str(page.evaluate(said))


def _answer_a_question(page: Any) -> str:
    _play_to_question(page)
    return _answer(page)


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
        with Store(hub.database) as store:
            assert set(STUDENTS[:k + 1]) <= set(store.students())
        # A student opening the teacher's page is refused, with the sentence why.
        _open(page, hub, me, "Teacher.ipynb", "?lang=en")
        page.get_by_text("only a teacher can open it").wait_for(timeout=180_000)
        assert page.locator(".ld-live-panel").count() == 0
        page.context.close()

    with Store(hub.database) as store:
        stored = [a for a in store.attempts() if a.student in STUDENTS]
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


def test_a_student_reaches_nothing_but_the_pages(hub: Hub) -> None:
    """Issue 41 part 1: what the issue's probe did as a student, each refused. The page's
    own kernel takes the page's widget messages and nothing else: an ``execute_request`` is
    dropped before it reaches the kernel (the ``kernel_info_request`` sent after it is
    answered, so the kernel would have answered the first one before), and its code did not
    run."""
    from websockets.sync.client import connect

    user = "eve"
    hub.spawn(user)
    s = hub.login(user)
    _html, kernel = hub.open_page(s, user, "Play.ipynb", f"?lesson={LESSON}&lang=en")
    prefix = f"{hub.url}/user/{user}/"
    token = xsrf(s, user)
    assert token, "the page set no _xsrf cookie"
    headers = {"X-XSRFToken": token}
    kernels = hub.kernel_pids(user)  # the pages' (the hub's login opened the lessons page)
    refused = {
        "POST api/kernels": s.post(prefix + "api/kernels", json={"name": "python3"},
                                   headers=headers),
        "POST api/sessions": s.post(prefix + "api/sessions", headers=headers, json={
            "path": "x.ipynb", "type": "notebook", "kernel": {"name": "python3"}}),
        "GET api/kernels": s.get(prefix + "api/kernels"),
        f"POST api/kernels/{kernel}/restart": s.post(
            prefix + f"api/kernels/{kernel}/restart", headers=headers),
        "POST api/terminals": s.post(prefix + "api/terminals", headers=headers),
        "GET lab": s.get(prefix + "lab"),
        "GET tree": s.get(prefix + "tree"),
        "GET api/contents": s.get(prefix + "api/contents"),
        "PUT api/contents/x.py": s.put(prefix + "api/contents/x.py", headers=headers,
                                       json={"type": "file", "format": "text",
                                             "content": "print(1)"}),
        "GET files/Play.ipynb": s.get(prefix + "files/Play.ipynb"),
        "GET voila/tree": s.get(prefix + "voila/tree"),
        "GET voila/api/contents": s.get(prefix + "voila/api/contents"),
    }
    assert {what: r.status_code for what, r in refused.items()} == {
        what: 403 for what in refused}
    assert "only the tutor's pages" in refused["GET lab"].text.lower() or \
        "solo las páginas" in refused["GET lab"].text.lower()
    assert hub.kernel_pids(user) == kernels  # none more

    mark = Path(f"/tmp/leonard-attack-{uuid.uuid4().hex}")
    ws_url = prefix.replace("http", "ws", 1) + f"api/kernels/{kernel}/channels"
    session_id = secrets.token_hex(8)
    with connect(ws_url, additional_headers={"Cookie": cookie_header(s)},
                 origin=hub.url, open_timeout=30) as ws:
        run, code = channel_message("execute_request", {
            "code": f"open({str(mark)!r}, 'w').write('pwned')", "silent": False,
            "store_history": False, "user_expressions": {}, "allow_stdin": False},
            session_id)
        ws.send(code)
        info, ask = channel_message("kernel_info_request", {}, session_id)
        ws.send(ask)
        replies: dict[str, str] = {}
        while info not in replies:
            message = json.loads(ws.recv(timeout=60))
            parent = message.get("parent_header", {}).get("msg_id")
            if message.get("msg_type", "").endswith("_reply") and parent:
                replies[parent] = message["msg_type"]
    assert replies == {info: "kernel_info_reply"}
    assert run not in replies
    assert not mark.exists()
    assert "execute_request" in hub.tail(200_000) and "not allowed" in hub.tail(200_000)


def test_no_student_holds_the_stores_key(hub: Hub) -> None:
    """Issue 41 part 2: the store's password is in no student's server or kernel, nor in a
    file of their home, the notebooks or the server's config; the store's folder is root's
    alone; the hub's own config file holds no password. Issue 51 part 1: nor is the secret
    of the write keys; the student's server and its kernels hold the student's own key and
    no other, which is in no file they can read nor in anything the hub's API answers."""
    from tutor.hub.store_service import write_key

    user = "fran"
    hub.spawn(user)
    s = hub.login(user)
    hub.open_page(s, user, "Lessons.ipynb", "?lang=en")
    write_secret = hub.write_secret()
    own_key = write_key(write_secret, user)
    processes = [hub.server_pid(user), *hub.kernel_pids(user)]
    assert len(processes) >= 2
    for pid in processes:
        env = environ(pid)
        assert not any(SECRET in v for v in env.values()), f"the password is in {pid}'s env"
        assert not any(write_secret in v for v in env.values()), \
            f"the write keys' secret is in {pid}'s env"
        assert env["LEONARD_TUTOR_DB"] == hub.service_url
        assert env["LEONARD_WRITE_KEY"] == own_key  # its own, which the page sends
    if hub.database.startswith("postgresql"):
        assert SECRET in hub.database  # the test would see it if it leaked
    readable = [*Path(f"/tmp/{user}").rglob("*"), *(ROOT / "notebooks").rglob("*"),
                *hub.config_path.rglob("*"), ROOT / "deploy" / "tljh" / "leonard.py",
                hub.folder / "jupyterhub_config.py"]
    for path in readable:
        if path.is_file() and path.stat().st_size < 10_000_000:
            text = path.read_text(errors="replace")
            assert SECRET not in text and write_secret not in text, path
            assert own_key not in text, path
    # What the hub's API tells the student, or an admin, about them: no key, no secret.
    token = s.post(f"{hub.url}/hub/api/users/{user}/tokens", json={},
                   headers={"X-XSRFToken": s.cookies.get("_xsrf", path="/hub/") or ""})
    assert token.status_code == 201, token.text
    mine = {"Authorization": f"token {token.json()['token']}"}
    answers = [s.get(f"{hub.url}/hub/api/{path}", headers=mine).text
               for path in ("user", f"users/{user}", f"users/{user}/tokens", "services")]
    answers.append(json.dumps(hub.api("GET", f"users/{user}")))
    for answer in answers:
        assert own_key not in answer and write_secret not in answer, answer
    assert hub.home.stat().st_mode & 0o077 == 0
    for path in hub.home.iterdir():
        assert path.stat().st_mode & 0o077 == 0, path
    assert (hub.home / "write-secret").stat().st_mode & 0o777 == 0o600


def test_a_forged_write_and_a_forged_teacher_are_refused(hub: Hub) -> None:
    """Issue 41 part 2: what a student's kernel could do if it ran code (it cannot): with its
    own token, write for another student, read the class, or claim the teacher's name in
    ``JUPYTERHUB_USER``. The service refuses each and stores nothing; the teacher's own token
    reads the class."""
    from tutor.classroom.identity import is_teacher
    from tutor.storage.records import Attempt, Outcome
    from tutor.storage.store import ServiceStore, Store, StoreAccessError, StoreError

    hub.spawn("beto")
    kernel_env = environ(hub.server_pid("beto"))  # what beto's kernels are given
    token = kernel_env["JUPYTERHUB_API_TOKEN"]
    forged = Attempt("ana", "forged-session", "2026-12-01T10:00:00.000000+00:00", LESSON,
                     "m1r1-drill1-0-x/3", "gain", Outcome.CORRECT, "12", "correct", "multiply", 1,
                     True, 0, 2.0, 12, 12)
    # As the page sends it: the server's token and the key the hub gave beto's server.
    store = ServiceStore(kernel_env["LEONARD_TUTOR_DB"], token=token,
                         write_key=kernel_env["LEONARD_WRITE_KEY"])
    try:
        with pytest.raises(StoreAccessError):
            store.add_attempt(forged)
        with pytest.raises(StoreAccessError):
            store.merge([forged])
        with pytest.raises(StoreAccessError):
            store.attempts()
        with pytest.raises(StoreAccessError):
            store.attempts("ana")
        assert store.me() == ("beto", False)
        # Issue 51: beto's own wrong answer marked right is refused with the replay's words.
        with pytest.raises(StoreError, match="marked CORRECT, but the question's answer"):
            store.add_attempt(replace(forged, student="beto", session="beto-forged-session",
                                      input="5", answered=5))
        # beto's own answer goes in (so the teacher below reads him, whatever ran before).
        store.add_attempt(replace(forged, student="beto", session="beto-own-session"))
    finally:
        store.close()
    with Store(hub.database) as direct:
        assert not [a for a in direct.attempts()
                    if a.session in ("forged-session", "beto-forged-session")]
        assert [a.student for a in direct.attempts() if a.session == "beto-own-session"] == [
            "beto"]
    # The kernel sets JUPYTERHUB_USER (and the old LEONARD_TEACHERS) to be the teacher.
    forged_env = {**kernel_env, "JUPYTERHUB_USER": TEACHER, "LEONARD_TEACHERS": "beto"}
    assert not is_teacher(forged_env)
    hub.spawn(TEACHER)
    teacher_env = environ(hub.server_pid(TEACHER))
    assert is_teacher(teacher_env)
    teacher = ServiceStore(teacher_env["LEONARD_TUTOR_DB"],
                           token=teacher_env["JUPYTERHUB_API_TOKEN"],
                           write_key=teacher_env["LEONARD_WRITE_KEY"])
    assert teacher.me() == (TEACHER, True)
    assert "beto" in teacher.students()  # the class's rows are the teacher's to read
    teacher.close()


def test_a_token_a_student_mints_writes_nothing(hub: Hub) -> None:
    """Issue 51 part 1, as the issue tried it: jack, who never opened a page, mints a token
    with the store service's scope from the hub's API (his own login, and an admin's call on
    his behalf), and POSTs answers, a session and mastery: each refused with the sentence
    why, nothing stored. A classmate's key does not help. beto's server's own token, sent
    without the key the hub gave his server, writes nothing either; the same token reads."""
    import requests

    from tutor.storage.records import Attempt, Outcome
    from tutor.storage.service_store import WRITE_KEY_HEADER, attempt_json
    from tutor.storage.store import ServiceStore, Store, StoreAccessError
    from tutor.teaching.mastery import Mastery

    user, scope = "jack", "access:services!service=leonard-store"
    s = hub.login(user)  # his login makes him a hub user; he opens no page
    mint = s.post(f"{hub.url}/hub/api/users/{user}/tokens", json={"scopes": [scope]},
                  headers={"X-XSRFToken": s.cookies.get("_xsrf", path="/hub/") or ""})
    assert mint.status_code == 201, mint.text
    tokens = [mint.json()["token"],
              hub.api("POST", f"users/{user}/tokens", json={"scopes": [scope]})["token"]]
    hub.spawn("beto")
    beto_env = environ(hub.server_pid("beto"))
    row = Attempt(user, "minted-session", "2026-12-01T10:00:00.000000+00:00", LESSON,
                  "x/3 on 4", "gain", Outcome.CORRECT, "12", "", "multiply", 1, True, 0,
                  2.0, 12, 12)
    mastered = Mastery()
    mastered.record("multiply", True)
    refusal = f"this request did not come from {user}'s page"
    for token in tokens:
        for key in ("", beto_env["LEONARD_WRITE_KEY"]):
            store = ServiceStore(hub.service_url, token=token, write_key=key, lang="en")
            try:
                assert store.me() == (user, False)  # the hub vouches for the token
                with pytest.raises(StoreAccessError, match=refusal):
                    store.add_attempt(row)
                with pytest.raises(StoreAccessError, match=refusal):
                    store.start_session(user, "minted-session")
                with pytest.raises(StoreAccessError, match=refusal):
                    store.save_mastery_rows(user, mastered.to_dict())
                assert store.attempts(user) == []  # reading his own rows: allowed, none
            finally:
                store.close()
        # And by hand, as the jack sent 79 rows: the service's 403 and its sentence.
        reply = requests.post(hub.service_url + "api/v1/attempts", timeout=30,
                              json={"attempts": [attempt_json(row)] * 3},
                              headers={"Authorization": f"token {token}"})
        assert reply.status_code == 403 and reply.json()["error"] == "access", reply.text

    # beto's server's token without its key: refused; with it (the page), his row lands.
    beto_row = replace(row, student="beto", session="beto-keyless")
    keyless = ServiceStore(hub.service_url, token=beto_env["JUPYTERHUB_API_TOKEN"],
                           write_key="", lang="en")
    try:
        with pytest.raises(StoreAccessError, match="did not come from beto's page"):
            keyless.add_attempt(beto_row)
        reply = requests.post(hub.service_url + "api/v1/attempts", timeout=30,
                              json={"attempts": [attempt_json(beto_row)]},
                              headers={"Authorization":
                                       f"token {beto_env['JUPYTERHUB_API_TOKEN']}",
                                       WRITE_KEY_HEADER: write_key_of_another(hub, "beto")})
        assert reply.status_code == 403, reply.text
        read = [a.session for a in keyless.attempts("beto")]  # reads: the token is enough
    finally:
        keyless.close()
    with Store(hub.database) as direct:
        assert read == [a.session for a in direct.attempts("beto")]
        assert direct.attempts(user) == [] and direct.mastery_rows(user) == {}
        assert user not in direct.students()
        assert not [a for a in direct.attempts() if a.session in ("minted-session",
                                                                  "beto-keyless")]


def write_key_of_another(hub: Hub, user: str) -> str:
    """A key the hub never gave ``user``'s server: their key under another secret."""
    from tutor.hub.store_service import write_key

    return write_key(hub.write_secret()[::-1], user)


def test_a_member_of_the_teachers_group_is_a_teacher(hub: Hub) -> None:
    """The teacher role comes from the hub: a user the admin puts in the ``teachers`` group
    (``TEACHER_GROUPS``) gets the teacher's scope on their server's next start."""
    from tutor.classroom.identity import is_teacher

    user = "mr.gil"
    hub.api("POST", f"users/{user}")
    hub.api("POST", "groups/teachers/users", json={"users": [user]})
    hub.spawn(user)
    assert is_teacher(environ(hub.server_pid(user)))


def test_a_class_from_a_hub_group_and_its_assignment_no_other_class_sees(hub: Hub) -> None:
    """Issue 45 part 5, on the real hub: the teacher makes class 6a's roster from the hub
    group ``6a`` (the service reads it from the hub's API with its own token and the scope
    ``read:groups`` that ``leonard.py`` gives it) and an assignment for 6a. Through each
    one's own server's token, as a page's kernel sends it: beto (in 6a) reads it, by list and
    by id; eve (in 6b) gets neither, is refused it by its id with the sentence why, and
    cannot make, edit or read a roster."""
    from tutor.storage.class_rows import Assignment
    from tutor.storage.records import StoreError
    from tutor.storage.store import ServiceStore, Store, StoreAccessError

    def page_store(user: str) -> ServiceStore:
        hub.spawn(user)
        env = environ(hub.server_pid(user))  # what the user's kernels are given
        return ServiceStore(env["LEONARD_TUTOR_DB"], token=env["JUPYTERHUB_API_TOKEN"],
                            write_key=env["LEONARD_WRITE_KEY"])

    for group, members in (("6a", ["beto"]), ("6b", ["eve"])):
        for user in members:
            if not hub.api("GET", "users?name_filter=" + user):
                hub.api("POST", f"users/{user}")
        hub.api("POST", f"groups/{group}", json={"users": members})
    teacher, beto, eve = page_store(TEACHER), page_store("beto"), page_store("eve")
    week = Assignment(id="hub-6a-week1", class_code="6a", title="Week 1: times",
                      lessons=(LESSON,), due="2026-12-11T15:00", tz="Europe/Madrid")
    try:
        assert teacher.roster_from_group("6a") == ["beto"]
        assert teacher.roster_from_group("6b") == ["eve"]
        with pytest.raises(StoreError, match="The hub has no group named \"7z\""):
            teacher.roster_from_group("7z")
        teacher.save_assignment(week)
        assert teacher.assignments("6a") == [week]
        assert beto.assignments() == [week] and beto.assignment(week.id) == week
        assert beto.classes_of("beto") == ["6a"]
        assert eve.assignments() == [] and eve.assignments("6a") == []
        with pytest.raises(StoreAccessError, match="for another class; eve is not on its"):
            eve.assignment(week.id)
        for refused in (lambda: eve.save_assignment(Assignment(
                            id="eve-made", class_code="6b", title="Mine", lessons=(LESSON,))),
                        lambda: eve.save_assignment(replace(week, class_code="6b")),
                        lambda: eve.roster("6a"), lambda: eve.roster_from_group("6b")):
            with pytest.raises(StoreAccessError, match="Only a teacher"):
                refused()
    finally:
        for store in (teacher, beto, eve):
            store.close()
    with Store(hub.database) as direct:
        assert direct.roster("6a") == ["beto"] and direct.assignments() == [week]


def test_each_students_pages_show_and_count_only_their_classs_assignment(
        hub: Hub, browser: Any) -> None:
    """Issue 45 part 5 through the pages: gil (class 7a) sees 7a's assignment first on the
    lessons page, with its due date and state, and plays its lesson from there: his answers
    are tagged with it. hana (7b), given 7a's whole link, sees one sentence and nothing of
    it; the play page opened with its id says her game does not count for it, and her
    answers are not tagged."""
    from datetime import datetime, timedelta, timezone
    from urllib.parse import urlencode

    from tutor.classroom.assignments import assignment_query, due_text, session_assignment
    from tutor.storage.class_rows import Assignment
    from tutor.storage.store import Store

    due = (datetime.now(timezone.utc) + timedelta(days=7)).strftime("%Y-%m-%dT15:00")
    week = Assignment(id="hub-7a-week", class_code="7a", title="Week 7: times",
                      lessons=(LESSON,), due=due, tz="Europe/Madrid")
    with Store(hub.database) as store:
        store.save_roster("7a", ["gil"])
        store.save_roster("7b", ["hana"])
        store.save_assignment(week)

    page = _login(browser, hub, "gil")
    _open(page, hub, "gil", "Lessons.ipynb", "?lang=en")
    card = page.locator(f"article.ld-assignment[data-assignment='{week.id}']")
    card.wait_for(timeout=180_000)
    assert card.locator(".ld-assignment-due").inner_text() == f"Due: {due_text(week, 'en')}"
    assert card.locator(".ld-assignment-state").inner_text() == "Not started"
    card.locator("a.ld-assignment-link").click()
    page.wait_for_url(lambda url: f"assignment={week.id}" in url, timeout=60_000)
    assert _answer_a_question(page)
    page.context.close()

    page = _login(browser, hub, "hana")
    _open(page, hub, "hana", "Lessons.ipynb", "?lang=en&" + urlencode(assignment_query(week)))
    page.locator(".ld-assignments-note", has_text="This link's assignment is for another "
                 "class").wait_for(timeout=180_000)
    assert page.locator("article.ld-assignment").count() == 0
    assert "Week 7" not in page.locator(".ld-assignments-panel").inner_text()
    _open(page, hub, "hana", "Play.ipynb", f"?lesson={LESSON}&lang=en&assignment={week.id}")
    page.locator(".ld-msg", has_text="so this game does not count for it").wait_for(
        timeout=180_000)
    assert _answer_a_question(page)
    page.context.close()

    with Store(hub.database) as store:
        assert {session_assignment(a.session) for a in store.attempts("gil")} == {week.id}
        assert {session_assignment(a.session) for a in store.attempts("hana")} == {None}


def test_nfc_and_nfd_jose_are_one_student(hub: Hub, browser: Any) -> None:
    """Issue 41 part 3: "José" typed with a precomposed é and with a combining accent logs in
    as one hub user, and plays as one student of the store."""
    from tutor.storage.store import Store

    nfc, nfd = unicodedata.normalize("NFC", "José"), unicodedata.normalize("NFD", "José")
    for typed in (nfc, nfd):
        page = _login(browser, hub, typed)
        users = [u["name"] for u in hub.api("GET", "users")]
        assert users.count("josé") == 1 and nfd.lower() not in users
        _open(page, hub, "josé", "Play.ipynb", f"?lesson={LESSON}&lang=en&seed=3")
        assert _answer_a_question(page)
        page.context.close()
    with Store(hub.database) as store:
        names = [n for n in store.students() if n.casefold().startswith("jos")]
        assert names == ["josé"]
        sessions = {a.session for a in store.attempts("JOSÉ")}
    assert len(sessions) == 2


def test_two_tabs_with_one_seed_the_second_is_practice_and_show_me_proves_nothing(
        hub: Hub, browser: Any) -> None:
    """Issue 51 part 3: the same link with seed=7 in two tabs. The first tab's answers count;
    the second says, before its first question, that the game is practice. "Show me" in the
    second tab gives the answer; typing it in the first tab is right, but no proof: the
    student's saved mastery stays as it was."""
    from tutor.storage.store import Store

    user = "kim"
    link = f"?lesson={LESSON}&lang=en&seed=7"

    def evidence() -> dict[str, object]:
        with Store(hub.database) as store:
            return {skill: row for skill, row in store.mastery_rows(user).items()
                    if row["asked"] or row["streak"] or row["scaffolded_right"]}

    first = _login(browser, hub, user)
    # the server spawned first, so that its spawn page's redirect opens no Play page (a page
    # opened again, even by a reload, is a second opening of the deal)
    _open(first, hub, user, "Lessons.ipynb", "?lang=en")
    _open(first, hub, user, "Play.ipynb", link)
    _play_to_question(first)
    assert first.locator(".ld-practice").count() == 0
    second = first.context.new_page()
    _open(second, hub, user, "Play.ipynb", link)
    note = second.locator(".ld-practice")
    note.wait_for(timeout=180_000)  # said from the page's start
    assert "played this deal before" in note.inner_text()
    _play_to_question(second)  # the same moves: the same question
    second.locator(".ld-reveal").click()
    for _ in range(120):
        with Store(hub.database) as store:
            shown = store.revealed(user, LESSON)
        if shown:
            break
        time.sleep(0.5)
    assert len(shown) == 1
    before = evidence()
    assert "Right" in _answer(first, str(shown[0][2]))
    time.sleep(1)  # the mastery saved with the answer
    assert evidence() == before
    with Store(hub.database) as store:
        right = [a for a in store.attempts(user) if a.outcome.value == "CORRECT"]
    assert right and all("shown" in a.step for a in right)
    first.context.close()


def test_the_fourth_tab_gets_the_page_that_says_which_to_close(hub: Hub, browser: Any
                                                               ) -> None:
    """Issue 41 part 4: three pages open at once are the most; the fourth tab gets a page in
    the student's language that names the open ones and says to close one. Once one is
    closed, the fourth opens."""
    user = "carla"
    first = _login(browser, hub, user)
    context = first.context
    _open(first, hub, user, "Lessons.ipynb", "?lang=es")
    tabs = [first]
    for lesson in ("04-times", "05-squares"):
        tab = context.new_page()
        _open(tab, hub, user, "Play.ipynb", f"?lesson={lesson}&lang=es")
        tab.locator("canvas.ld-board").wait_for(timeout=180_000)
        tabs.append(tab)
    fourth = context.new_page()
    reply = fourth.goto(f"{hub.url}/user/{user}/voila/render/Play.ipynb?lesson=06-doubles"
                        "&lang=es", timeout=180_000)
    assert reply is not None and reply.status == 429
    fourth.get_by_text("Demasiadas páginas del tutor abiertas").wait_for(timeout=10_000)
    listed = fourth.locator(".ld-open-pages li").all_inner_texts()
    assert len(listed) == 3, listed
    assert listed[0].startswith("Lecciones")  # the one used longest ago first
    assert any("04-times" in item for item in listed)
    tabs[0].close(run_before_unload=True)  # Voilà's page shuts its kernel down as it goes
    for _ in range(180):  # the shutdown, or the reaping of a closed tab (20 s idle)
        reply = fourth.reload(timeout=180_000)
        if reply is not None and reply.status == 200:
            break
        time.sleep(1)
    fourth.locator("canvas.ld-board").wait_for(timeout=180_000)
    context.close()


def test_twenty_tabs_opened_at_once_give_three_kernels_and_seventeen_cap_pages(
        hub: Hub) -> None:
    """Issue 51 part 4: 20 tabs of one student opened in the same second. Voilà starts a
    page's kernel a while after the request comes in, so the cap must count the pages let in
    whose kernels are not there yet: exactly the cap's number of kernels start, and every
    other tab gets the page that names the open ones."""
    import threading
    from concurrent.futures import ThreadPoolExecutor

    import requests

    user = "burst"
    hub.spawn(user)
    s = requests.Session()  # logged in without opening a page: no kernel yet
    s.get(hub.url + "/hub/login", timeout=30)
    s.post(hub.url + "/hub/login?next=/hub/home", timeout=60, data={
        "username": user, "password": PASSWORD,
        "_xsrf": s.cookies.get("_xsrf", path="/hub/")}).raise_for_status()
    prefix = f"{hub.url}/user/{user}/"
    assert s.get(prefix + f"leonard/page/{uuid.uuid4()}", timeout=60).json()["state"] == "gone"
    assert hub.kernel_pids(user) == []
    start = threading.Barrier(20)

    def open_tab(n: int) -> tuple[int, str, str]:
        tab = requests.Session()
        tab.cookies.update(s.cookies)
        start.wait(timeout=60)
        reply = tab.get(prefix + f"voila/render/Play.ipynb?lesson={LESSON}&lang=en&tab={n}",
                        timeout=300, allow_redirects=False)
        return reply.status_code, reply.text, xsrf(tab, user)

    with ThreadPoolExecutor(20) as pool:
        tabs = list(pool.map(open_tab, range(20)))
    kernels = [m.group(1) for code, text, _x in tabs if code == 200
               for m in [re.search(r'"kernelId":\s*"([0-9a-f-]{36})"', text)] if m]
    pids = hub.kernel_pids(user)
    try:
        assert sorted(code for code, _t, _x in tabs) == [200] * 3 + [429] * 17
        assert len(set(kernels)) == 3
        assert len(pids) == 3
        for code, text, _x in tabs:
            if code == 429:  # the cap page names the three pages (the ones still starting too)
                assert "Too many tutor pages are open" in text
                assert text.count("<li>") == 3, text
    finally:
        token = next(x for _c, _t, x in tabs if x) if any(x for _c, _t, x in tabs) else ""
        for kernel in kernels:
            s.post(prefix + f"voila/api/shutdown/{kernel}", timeout=60,
                   headers={"X-XSRFToken": token}, cookies={"_xsrf": token})
        hub.api("DELETE", f"users/{user}/server")
        for _ in range(300):  # the kernels go with the server
            if not any(alive(p) for p in pids):
                break
            time.sleep(0.1)
    assert not any(alive(p) for p in pids)


def test_an_idle_tab_is_closed_and_says_so(hub: Hub, browser: Any) -> None:
    """Issue 41 part 4: an open tab with nothing done for the hub's idle time (6 s for this
    student) has its kernel closed; when the student comes back, the page says it was
    closed, and how to go on, in their language."""
    page = _login(browser, hub, IDLE_USER, width=390, height=844)
    _open(page, hub, IDLE_USER, "Lessons.ipynb", "?lang=es")
    page.locator(".ld-lessons-page").wait_for(timeout=180_000)
    kernel = page.evaluate(
        "() => JSON.parse(document.getElementById('jupyter-config-data').textContent)"
        ".kernelId")
    status = f"{hub.url}/user/{IDLE_USER}/leonard/page/{kernel}"
    ask = """async (url) => {
        const xsrf = document.cookie.match(/(?:^|;\\s*)_xsrf=([^;]*)/)[1];
        const reply = await fetch(url, {headers: {"X-XSRFToken": decodeURIComponent(xsrf)}});
        return (await reply.json()).state; }"""
    for _ in range(300):  # the check runs every few seconds for this student
        state = page.evaluate(ask, status)
        if state != "open":
            break
        time.sleep(0.5)
    assert state == "idle"
    page.evaluate("() => document.dispatchEvent(new Event('visibilitychange'))")
    closed = page.locator(".ld-page-closed")
    closed.wait_for(timeout=30_000)
    assert "minutos sin uso" in closed.inner_text()
    assert closed.locator("button").inner_text() == "Recargar la página"
    page.context.close()


def test_postgresql_stopped_mid_class_loses_and_doubles_nothing(
        hub: Hub, browser: Any, request: pytest.FixtureRequest) -> None:
    """Issue 41 part 6: the class store's database stops while a student plays. Her answer
    waits on the page, which says so (and never that it is saved); when the database is
    back, the next answer saves both, once each."""
    from tutor.storage.store import Store

    if not hub.database.startswith("postgresql"):
        pytest.skip("the hub's store is SQLite here (no PostgreSQL to stop)")
    cluster = request.getfixturevalue("pg_cluster")
    user = "dora"
    page = _login(browser, hub, user)
    _open(page, hub, user, "Play.ipynb", f"?lesson={LESSON}&lang=en&seed=11")
    _play_to_question(page)

    def stored() -> list[tuple[str, str, str]]:
        with Store(hub.database) as store:
            return [(a.time, a.step, a.input) for a in store.attempts(user)]

    _answer(page, "7")
    before = stored()
    assert before
    cluster.pause()
    try:
        _play_to_question_after_feedback(page)
        _answer(page, "8")
        message = page.locator(".ld-unsaved")
        message.wait_for(timeout=60_000)
        text = message.inner_text()
        assert "not saved yet" in text and "saved as soon as" in text
        assert "are saved under your name" not in page.inner_text("body")
    finally:
        cluster.resume()
    time.sleep(3.5)  # the page does not ask the store again for 3 s after "busy"
    _play_to_question_after_feedback(page)
    _answer(page, "9")
    page.locator(".ld-unsaved").wait_for(state="hidden", timeout=60_000)
    after = stored()
    assert len(after) == len(set(after))  # nothing twice
    inputs = [i for _t, _s, i in after]
    assert inputs.count("8") == 1 and inputs.count("9") == 1 and set(before) <= set(after)
    page.context.close()


def test_a_page_opened_while_the_store_is_down_loses_and_lowers_nothing(
        hub: Hub, browser: Any, request: pytest.FixtureRequest) -> None:
    """Issue 51 part 5: the class store's database is stopped before the student opens her
    pages. The lessons page says her progress comes back with the store (not a Voila error);
    the play page says the store is out of reach and plays on. Five answers, then the store
    is back: all five are stored, and the mastery saved before the outage is merged with the
    page's answers, never overwritten by the page's blank start (hana: multiply mastered,
    p = 1.0, then p = 0.42)."""
    from tutor.storage.store import Store
    from tutor.teaching.mastery import Mastery

    if not hub.database.startswith("postgresql"):
        pytest.skip("the hub's store is SQLite here (no PostgreSQL to stop)")
    cluster = request.getfixturevalue("pg_cluster")
    user = "ines"
    earlier = Mastery()
    for _ in range(12):  # mastered in earlier classes
        earlier.record("multiply", True)
    with Store(hub.database) as store:
        store.start_session(user)
        store.save_mastery_rows(user, earlier.to_dict())
        saved = store.mastery_rows(user)
    assert saved["multiply"]["mastered"]
    page = _login(browser, hub, user)
    cluster.pause()
    try:
        _open(page, hub, user, "Lessons.ipynb", "?lang=en")
        page.get_by_text("Your progress will be back when the class's store is").wait_for(
            timeout=180_000)
        assert "There was an error" not in page.inner_text("body")
        assert page.locator(f".ld-lesson-link[href*='lesson={LESSON}']").count()
        _open(page, hub, user, "Play.ipynb", f"?lesson={LESSON}&lang=en&seed=13")
        _play_to_question(page)
        note = page.locator(".ld-unsaved")
        note.wait_for(timeout=60_000)
        assert "The class's store cannot be reached now: play on" in note.inner_text()
        typed = [str(9001 + k) for k in range(5)]
        box = page.locator(".ld-answer input")
        for text in typed:  # five answers to the question (wrong ones: each is a row)
            box.fill(text)
            box.press("Enter")
            # The page took it: it empties the box. Beside two busy processes the box once
            # stayed full past 60 s: the kernel waits for the store at each answer while it
            # is down, and the page's widgets follow the kernel.
            page.wait_for_function(
                "() => document.querySelector('.ld-answer input').value === ''",
                timeout=180_000)
    finally:
        cluster.resume()
    # The box empties in the browser at Enter, before the kernel has the answer: under load
    # the last answers reach the kernel after the first ones are saved and the note has gone.
    # So wait for what the store holds, not for the note.
    for _ in range(240):
        with Store(hub.database) as store:
            if set(typed) <= {a.input for a in store.attempts(user)}:
                break
        time.sleep(0.5)
    page.locator(".ld-unsaved").wait_for(state="hidden", timeout=120_000)
    with Store(hub.database) as store:
        inputs = [a.input for a in store.attempts(user)]
        after = store.mastery_rows(user)
    assert sorted(i for i in inputs if i in typed) == typed  # each once
    assert after["multiply"]["asked"] >= saved["multiply"]["asked"]  # merged, not blank
    assert sum(int(r["asked"]) for r in after.values()) > sum(
        int(r["asked"]) for r in saved.values())
    _open(page, hub, user, "Lessons.ipynb", "?lang=en")
    page.locator(".ld-lesson-link").first.wait_for(timeout=180_000)
    assert "Your progress will be back" not in page.inner_text("body")
    page.context.close()


def _play_to_question_after_feedback(page: Any) -> None:
    """After an answer: go on (the question's own buttons, then the moves) until the next
    question is asked."""
    more = page.locator(".ld-question button.ld-next, .ld-question button:has-text('Next')")
    if more.count() and more.first.is_visible():
        more.first.click()
    _play_to_question(page)


def test_stopping_the_hub_leaves_nothing_running(hub: Hub) -> None:
    """Stopping the hub (by its pid) stops its proxy, the store service, every student's
    server and their kernels. Runs last in this module: it stops the session's hub."""
    left = hub.stop()
    commands = list(hub.children.values())
    assert any("jupyterhub-singleuser" in c for c in commands), commands
    assert any("configurable-http-proxy" in c for c in commands), commands
    assert any("tutor.hub.store_service" in c for c in commands), commands
    assert any("ipykernel" in c for c in commands), commands  # the pages' kernels
    assert not left, f"left running after the hub stopped: {[hub.children[p] for p in left]}"
