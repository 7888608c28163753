"""A real JupyterHub set up as ``deploy/tljh/`` says, for the tests (issue 41).

The hub loads ``deploy/tljh/leonard.py`` as it is (``load_subconfig``), between two short
overlays that stand in for what TLJH itself provides: before it, the addresses, the dummy
authenticator and the simple local spawner (TLJH: its own authenticator and systemd spawner);
after it, the test's own admin token, ``--allow-root`` (the machines run as root), and the
folder of notebooks. The deploy README's step 1 (``python -m tutor.commands.server
--write-server-config`` in the users' environment) is done into a folder of the test's,
which the spawned servers read through ``JUPYTER_CONFIG_PATH``. The store is the session's
PostgreSQL cluster, with a password in its address that no student may ever see
(:data:`SECRET`), or an SQLite file when PostgreSQL cannot start.
"""

from __future__ import annotations

import json
import os
import re
import secrets
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from npm_cache import npm_install

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy" / "tljh" / "leonard.py"
CHP_CACHE = Path(os.environ.get("LEONARD_CHP_CACHE",
                                Path.home() / ".cache" / "leonard-domino-tutor" / "chp"))
PASSWORD = "classpw"
SECRET = "leonard-secret-7c1e9a"
"""The password in the store's address: only the store service may ever hold it."""
TEACHER = "ms.ruiz"  # named in deploy/tljh/leonard.py's TEACHERS
IDLE_USER = "ida"
"""A student whose idle tabs close after 6 s (the hub's setting for her alone)."""
IDLE_MINUTES = 0.1


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def proxy_command() -> Path | None:
    """configurable-http-proxy 5 from npm, installed into the cache folder when missing;
    None without npm."""
    chp = CHP_CACHE / "node_modules" / ".bin" / "configurable-http-proxy"
    return npm_install(CHP_CACHE, "configurable-http-proxy@5", chp)


def descendants(pid: int) -> set[int]:
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


def alive(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def command(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
    except OSError:
        return "?"


def environ(pid: int) -> dict[str, str]:
    """A process's environment, as a program running as it would read it."""
    raw = Path(f"/proc/{pid}/environ").read_bytes()
    pairs = (item.split(b"=", 1) for item in raw.split(b"\0") if b"=" in item)
    return {k.decode(errors="replace"): v.decode(errors="replace") for k, v in pairs}


class Hub:
    """A running JupyterHub: its address, process, log, the store behind its service, and
    an admin token of the test's own."""

    def __init__(self, folder: Path, database: str) -> None:
        self.folder = folder
        self.database = database
        """The store's real address (the test reads the rows there directly)."""
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.service_port = free_port()
        self.service_url = (f"http://127.0.0.1:{self.service_port}/services/"
                            "leonard-store/")
        self.home = folder / "leonard"  # LEONARD_HOME: root's alone
        self.config_path = folder / "etc" / "jupyter"
        self.admin_token = secrets.token_hex(16)
        self.log = folder / "hub.log"
        self.process: subprocess.Popen[bytes] | None = None
        self.children: dict[int, str] = {}
        """The processes under the hub when it was stopped, with their command lines."""

    def overlay(self, proxy: Path) -> list[str]:
        """What TLJH itself gives a hub (its addresses, authenticator, spawner and state
        files), as config lines for a plain JupyterHub on loopback ports."""
        return [
            f"c.JupyterHub.ip = '127.0.0.1'; c.JupyterHub.port = {self.port}",
            f"c.JupyterHub.hub_ip = '127.0.0.1'; c.JupyterHub.hub_port = {free_port()}",
            f"c.ConfigurableHTTPProxy.api_url = 'http://127.0.0.1:{free_port()}'",
            f"c.ConfigurableHTTPProxy.command = [{str(proxy)!r}]",
            "c.JupyterHub.authenticator_class = 'dummy'",
            f"c.DummyAuthenticator.password = {PASSWORD!r}",
            "c.Authenticator.allow_all = True",
            "c.JupyterHub.spawner_class = 'simple'",
            f"c.Spawner.notebook_dir = {str(ROOT / 'notebooks')!r}",
            "c.Spawner.start_timeout = 180; c.Spawner.http_timeout = 180",
            f"c.JupyterHub.db_url = 'sqlite:///{self.folder}/hub.sqlite'",
            f"c.JupyterHub.cookie_secret_file = '{self.folder}/cookie'",
            f"c.JupyterHub.pid_file = '{self.folder}/hub.pid'",
            "c.JupyterHub.cleanup_servers = True; c.JupyterHub.cleanup_proxy = True",
        ]

    def admin_overlay(self) -> str:
        """The test's own admin service and its token (config lines)."""
        return f"""
c.JupyterHub.services.append({{"name": "test-admin", "api_token": {self.admin_token!r}}})
c.JupyterHub.load_roles.append({{"name": "test-admin", "services": ["test-admin"],
    "scopes": ["admin:users", "admin:groups", "admin:servers", "list:users", "read:users",
               "tokens"]}})
"""

    def write_config(self, proxy: Path) -> Path:
        from tutor.commands.server import write_server_config

        # deploy/tljh/README.md step 1, into a folder of the test's (the users' environment).
        write_server_config(self.config_path / "jupyter_server_config.json")
        # Step 2: the store's folder, root's alone, with the PostgreSQL address in it.
        self.home.mkdir(mode=0o700)
        if self.database.startswith("postgresql"):
            address = self.home / "store-address"
            address.write_text(self.database + "\n", encoding="utf-8")
            address.chmod(0o600)
        before = self.overlay(proxy)
        after = f"""
load_subconfig({str(DEPLOY)!r})  # noqa: F821 - deploy/tljh/leonard.py, as it is
if {os.geteuid() == 0!r}:
    c.Spawner.args = list(c.Spawner.args) + ["--allow-root"]
c.Spawner.default_url = "/voila/render/Lessons.ipynb"
c.Spawner.environment.update({{"JUPYTER_CONFIG_PATH": {str(self.config_path)!r},
                              "PYTHONPATH": {str(ROOT)!r}}})
{self.admin_overlay()}
_deploy_hook = c.Spawner.pre_spawn_hook


def _idle_student(spawner):
    _deploy_hook(spawner)
    if spawner.user.name == {IDLE_USER!r}:
        spawner.environment = {{**spawner.environment,
                               "LEONARD_IDLE_TAB_MINUTES": {str(IDLE_MINUTES)!r}}}


c.Spawner.pre_spawn_hook = _idle_student
"""
        path = self.folder / "jupyterhub_config.py"
        path.write_text("\n".join(before) + "\n" + after, encoding="utf-8")
        return path

    def start(self, proxy: Path) -> Hub:
        import requests

        config = self.write_config(proxy)
        env = self.environment()
        with open(self.log, "wb") as log:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "jupyterhub", "-f", str(config)], cwd=self.folder,
                env=env, stdout=log, stderr=subprocess.STDOUT)
        for _ in range(900):  # at most 90 s
            if self.process.poll() is not None:
                raise AssertionError(f"the hub stopped at start: {self.tail()}")
            try:
                if (requests.get(self.url + "/hub/login", timeout=2).status_code == 200
                        and requests.get(self.service_url + "api/v1/me",
                                         timeout=2).status_code == 401):
                    return self
            except requests.RequestException:
                pass
            time.sleep(0.1)
        raise AssertionError(f"the hub did not answer in 90 s: {self.tail()}")

    def environment(self) -> dict[str, str]:
        """The hub's environment: the test's Python and checkout, and leonard.py's
        LEONARD_HOME, LEONARD_PYTHON and LEONARD_SERVICE_PORT."""
        env = dict(os.environ)
        env["PATH"] = f"{Path(sys.executable).parent}:{env.get('PATH', '')}"
        env["PYTHONPATH"] = str(ROOT)
        env.update(LEONARD_HOME=str(self.home), LEONARD_PYTHON=sys.executable,
                   LEONARD_SERVICE_PORT=str(self.service_port))
        for key in ("LEONARD_TUTOR_DB", "JUPYTERHUB_API_TOKEN", "JUPYTERHUB_USER"):
            env.pop(key, None)
        return env

    def write_secret(self) -> str:
        """The secret of the write keys, which ``leonard.py`` made in the store's folder
        (issue 51): the hub's and the store service's alone."""
        return (self.home / "write-secret").read_text(encoding="utf-8").strip()

    def tail(self, chars: int = 4000) -> str:
        return self.log.read_text(encoding="utf-8", errors="replace")[-chars:]

    def api(self, method: str, path: str, **kwargs: Any) -> Any:
        """A call to the hub's REST API with the test's admin token."""
        import requests

        reply = requests.request(method, f"{self.url}/hub/api/{path}", timeout=30,
                                 headers={"Authorization": f"token {self.admin_token}"},
                                 **kwargs)
        reply.raise_for_status()
        return reply.json() if reply.content else None

    def spawn(self, user: str) -> None:
        """Start ``user``'s server (the hub makes the user) and wait until it is ready."""
        import requests

        if not self.api("GET", "users?name_filter=" + user):
            self.api("POST", f"users/{user}")
        model = self.api("GET", f"users/{user}")
        if not model["servers"].get("", {}).get("ready"):
            try:
                self.api("POST", f"users/{user}/server")
            except requests.HTTPError as err:  # 400: already starting
                if err.response is None or err.response.status_code != 400:
                    raise
        for _ in range(1800):  # at most 3 minutes
            server = self.api("GET", f"users/{user}")["servers"].get("", {})
            if server.get("ready"):
                return
            time.sleep(0.1)
        raise AssertionError(f"{user}'s server did not start: {self.tail()}")

    def server_pid(self, user: str) -> int:
        """The pid of ``user``'s single-user server (the simple spawner's child)."""
        assert self.process is not None
        for pid in descendants(self.process.pid):
            cmd = command(pid)
            if "jupyterhub-singleuser" in cmd or "jupyterhub.singleuser" in cmd:
                if environ(pid).get("JUPYTERHUB_USER") == user:
                    return pid
        raise AssertionError(f"no server of {user} runs")

    def kernel_pids(self, user: str) -> list[int]:
        return sorted(p for p in descendants(self.server_pid(user))
                      if "ipykernel" in command(p))

    def login(self, user: str) -> Any:
        """A ``requests`` session logged in as ``user`` through the hub's form."""
        import requests

        session = requests.Session()
        session.get(self.url + "/hub/login", timeout=30)
        reply = session.post(self.url + "/hub/login?next=", timeout=60,
                             data={"username": user, "password": PASSWORD,
                                   "_xsrf": session.cookies.get("_xsrf", path="/hub/")})
        reply.raise_for_status()
        return session

    def open_page(self, session: Any, user: str, page: str, query: str = "") -> tuple[str, str]:
        """``GET`` one of ``user``'s pages (it runs to its end); the page's HTML and its
        kernel's id."""
        reply = session.get(f"{self.url}/user/{user}/voila/render/{page}{query}", timeout=300)
        reply.raise_for_status()
        found = re.search(r'"kernelId":\s*"([0-9a-f-]{36})"', reply.text)
        assert found, reply.text[:2000]
        return reply.text, found.group(1)

    def stop(self) -> set[int]:
        """SIGTERM to the hub (it stops its proxy, the service and the servers it spawned);
        the processes that were under it and still run afterwards."""
        assert self.process is not None
        self.children = {p: command(p) for p in descendants(self.process.pid)}
        self.process.send_signal(signal.SIGTERM)
        try:
            self.process.wait(timeout=60)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(timeout=10)
        for _ in range(300):  # the servers' kernels go with them, within a few seconds
            if not any(alive(p) for p in self.children):
                break
            time.sleep(0.1)
        return {p for p in self.children if alive(p)}


def with_password(url: str) -> str:
    """The PostgreSQL address with :data:`SECRET` as its password (the test cluster trusts
    every connection, so any password logs in: what matters is where it shows)."""
    return url.replace("postgresql://postgres@", f"postgresql://postgres:{SECRET}@", 1)


def xsrf(session: Any, user: str) -> str:
    """The ``_xsrf`` cookie ``user``'s server set (the one a page's POST must echo)."""
    for cookie in session.cookies:
        if cookie.name == "_xsrf" and cookie.path.startswith(f"/user/{user}"):
            return str(cookie.value)
    return ""


def cookie_header(session: Any) -> str:
    return "; ".join(f"{c.name}={c.value}" for c in session.cookies)


def channel_message(kind: str, content: dict[str, Any], session_id: str) -> tuple[str, str]:
    """A kernel message as a page sends it on the websocket (its id, its JSON)."""
    msg_id = secrets.token_hex(8)
    return msg_id, json.dumps({
        "header": {"msg_id": msg_id, "msg_type": kind, "session": session_id,
                   "username": "", "version": "5.3", "date": ""},
        "parent_header": {}, "metadata": {}, "channel": "shell", "content": content,
        "buffers": []})
