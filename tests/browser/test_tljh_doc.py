"""deploy/tljh/README.md runs as written (issue 43, part 8; finding 12: step 1's ``pip install
-r binder/requirements.txt`` failed unless run from the clone's root, and nothing said how to
make the PostgreSQL role and database or how the servers get its password).

The test reads the shell commands of the README's fenced ``bash`` blocks and runs them, in
order, in one shell started in an administrator's folder that is *not* the clone (as an
administrator following the steps would), against a throwaway PostgreSQL cluster
(``tests/pg_cluster.py``). Then it starts a plain JupyterHub the way TLJH's own config does
(every file of ``jupyterhub_config.d``, here the ``leonard.py`` the steps copied there), logs
a student in, and checks what the steps promise: the student lands on the lessons page, and
step 5's link opens it, served from the users' environment the steps installed (step 1),
from the notebooks step 4 put in a new user's home, reading the class's store through the
store service; the tables are in the database the steps made (step 2), owned by the role the
steps made, which has the password typed at its prompt; that password is in the root-only
address file and the store service's environment, and not in the student's server; and
(issue 51) the write keys' secret ``leonard.py`` made is root's alone and the service's, the
student's server holding only the student's own key.

What cannot run here, and what stands in for it:

* **The TLJH installer** (``curl … | sudo python3 -``, "Install TLJH (its own guide)") is not
  run: it installs system services (systemd units, Traefik) on a real machine. What it makes
  and the steps use is made by the test instead: the users' environment
  ``/opt/tljh/user`` (a venv that sees the test's packages but not the tutor, see
  :func:`environment`, so that ``pip install -r binder/requirements.txt`` finds the pinned
  versions installed and builds only the clone, offline), the folder
  ``/opt/tljh/config/jupyterhub_config.d``, and a hub: JupyterHub from PyPI, its proxy from
  npm, the dummy authenticator and the simple local spawner instead of TLJH's
  (``tests/browser/hub_server.py``), with its server command the users' environment's
  ``jupyterhub.singleuser``, as TLJH's is.
* Commands for TLJH's own tools or for a person are skipped, each listed in :data:`SKIPPED`
  with the reason: ``apt-get install postgresql`` (PostgreSQL's programs are here already;
  the throwaway cluster stands in for the machine's), ``nano`` (the school edits
  ``TEACHERS``; the shipped ``ms.ruiz`` stays) and ``tljh-config`` (TLJH's memory limit and
  culler). Every other command runs, and so will one the README gains.
* Substituted (``places`` in the test): the clone's source (``<this repository>``: the
  test's checkout, its committed ``HEAD``), the system folders (``/opt/…``, ``/srv/leonard``,
  ``/etc/skel``: folders of the test's), PostgreSQL's port (``localhost:5432``; the commands
  themselves reach the throwaway cluster through ``PGHOST`` and ``PGPORT``), the password
  placeholder (``THE-PASSWORD``: what was typed at ``createuser``'s prompt) and ``<hub>``
  in step 5's link. ``sudo`` is a shim (:data:`SUDO_SHIM`): the test's user may do what the
  steps do to the test's folders, and ``sudo -u postgres`` is the cluster's superuser role.
  ``LEONARD_PURE=1`` (kept by ``sudo -E``) builds the clone's engine as pure Python, which
  installs in seconds where the compiled one takes a minute on a loaded machine.

Slow (about a minute each); needs git, npm, PostgreSQL's programs and psycopg.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import stat
import subprocess
import sys
import sysconfig
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hub_server import (
    ROOT,
    Hub,
    alive,
    command,
    descendants,
    environ,
    free_port,
    proxy_command,
)

pytestmark = pytest.mark.slow

README = ROOT / "deploy" / "tljh" / "README.md"
PASSWORD = "tljh-doc-9f3b"
"""What the administrator types at ``createuser --pwprompt``."""
STUDENT = "ana"
SKIPPED = {
    "sudo apt-get install -y postgresql": "PostgreSQL's programs are installed; a throwaway "
                                          "cluster stands in for the machine's",
    "sudo nano ": "a person edits TEACHERS; the shipped list stays",
    "sudo tljh-config ": "TLJH's own tool (memory limit, culler), not installed here",
}

SUDO_SHIM = """#!/bin/sh
# sudo, for a test that runs as root already: -E keeps the environment (it is kept anyway);
# -u USER runs a PostgreSQL client as the database role USER (the cluster trusts loopback).
while :; do
  case "$1" in
    -E) shift ;;
    -u) PGUSER="$2"; export PGUSER; shift 2 ;;
    *) break ;;
  esac
done
exec "$@"
"""


def commands(text: str) -> list[str]:
    """The shell commands of the README's ``bash`` blocks, in order (a line ending in ``\\``
    joined to the next; comment lines and blank lines dropped)."""
    found: list[str] = []
    for block in re.findall(r"```bash\n(.*?)```", text, re.DOTALL):
        for line in block.replace("\\\n", " ").splitlines():
            if line.strip() and not line.strip().startswith("#"):
                found.append(line.strip())
    return found


def _substitute(line: str, places: dict[str, str]) -> str:
    for old, new in places.items():
        line = line.replace(old, new)
    return line


def environment(prefix: Path) -> Path:
    """A Python environment at ``prefix`` holding the test's packages but not the tutor: a
    ``.pth`` file to a folder of links to the test's own packages (all but the tutor's),
    their Jupyter data and settings copied as their installs put them (the tutor's server
    settings left out), and the ``voila`` command. So pip finds the pinned versions
    installed, offline, and installs the tutor only from where a command says."""
    subprocess.run([sys.executable, "-m", "venv", str(prefix)], check=True, timeout=300)
    purelib = Path(subprocess.run(
        [str(prefix / "bin" / "python"), "-c",
         "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        check=True, capture_output=True, text=True).stdout.strip())
    links = prefix / "test-packages"
    links.mkdir()
    for entry in Path(sysconfig.get_paths()["purelib"]).iterdir():
        if not entry.name.startswith(("leonard_domino_tutor", "__editable__")) \
                and entry.suffix != ".pth":
            (links / entry.name).symlink_to(entry)
    (purelib / "test-packages.pth").write_text(f"{links}\n")
    for data in ("etc/jupyter", "share/jupyter"):
        if (Path(sys.prefix) / data).is_dir():
            shutil.copytree(Path(sys.prefix) / data, prefix / data, dirs_exist_ok=True)
    (prefix / "etc" / "jupyter" / "jupyter_server_config.json").unlink(missing_ok=True)
    (prefix / "etc" / "jupyter" / "voila.py").unlink(missing_ok=True)
    voila = prefix / "bin" / "voila"
    voila.write_text(f"#!{prefix / 'bin' / 'python'}\nimport sys\nfrom voila.app import main\n"
                     "sys.exit(main())\n")
    voila.chmod(0o755)
    return prefix


def clean_env(**extra: str) -> dict[str, str]:
    """The test's environment without its Python and store settings, plus ``extra``."""
    env = {**os.environ, **extra}
    for key in ("PYTHONPATH", "VIRTUAL_ENV", "LEONARD_TUTOR_DB", "LEONARD_LESSONS", "PGUSER",
                "PGDATABASE", "PGHOST", "PGPORT", "JUPYTERHUB_API_TOKEN", "JUPYTERHUB_USER"):
        if key not in extra:
            env.pop(key, None)
    return env


class DocHub(Hub):
    """A plain JupyterHub configured as TLJH configures one: its own settings (the overlay
    of :class:`Hub`), then every file of ``jupyterhub_config.d`` in name order; the servers
    run from the users' environment, the store service too (``LEONARD_PYTHON``, the
    ``/opt/tljh/user/bin/python`` of leonard.py)."""

    def __init__(self, folder: Path, *, srv: Path, config_d: Path, users: Path,
                 homes: Path) -> None:
        super().__init__(folder, database="")
        self.home = srv
        self.config_d = config_d
        self.users_python = users / "bin" / "python"
        self.homes = homes

    def write_config(self, proxy: Path) -> Path:
        after = f"""
import glob
for _path in sorted(glob.glob({str(self.config_d)!r} + "/*.py")):  # as TLJH's config does
    load_subconfig(_path)  # noqa: F821
if {os.geteuid() == 0!r}:
    c.Spawner.args = list(c.Spawner.args) + ["--allow-root"]
c.Spawner.cmd = [{str(self.users_python)!r}, "-m", "jupyterhub.singleuser"]
c.Spawner.notebook_dir = {str(self.homes)!r}  # a home made from step 4's /etc/skel
{self.admin_overlay()}
"""
        path = self.folder / "jupyterhub_config.py"
        path.write_text("\n".join(self.overlay(proxy)) + "\n" + after, encoding="utf-8")
        return path

    def environment(self) -> dict[str, str]:
        env = super().environment()
        env.pop("PYTHONPATH", None)  # the service and the servers use what step 1 installed
        env["LEONARD_PYTHON"] = str(self.users_python)
        return env


@pytest.fixture()
def cluster() -> Iterator[Any]:
    """A PostgreSQL cluster of this test's own (the steps make the role and the database
    ``tutor``, which the session's cluster may hold already)."""
    from tests.pg_cluster import Cluster, why_not

    reason = why_not()
    if reason:
        pytest.skip(reason)
    running = Cluster().start()
    try:
        yield running
    finally:
        running.stop()


def test_the_tljh_steps_run_as_written(tmp_path: Path, cluster: Any) -> None:
    pytest.importorskip("jupyterhub")
    if shutil.which("git") is None:
        pytest.skip("git is not installed: the steps clone the repository")
    proxy = proxy_command()
    if proxy is None:
        pytest.skip("npm is not installed, so JupyterHub's proxy (configurable-http-proxy, "
                    "from npm) cannot be installed: apt-get install nodejs npm")
    import psycopg

    from tutor.commands.server import SERVER_EXTENSIONS
    from tutor.hub.store_service import write_key

    port = cluster.port
    machine = tmp_path / "machine"
    opt, srv = machine / "opt", machine / "srv" / "leonard"
    users = opt / "tljh" / "user"
    config_d = opt / "tljh" / "config" / "jupyterhub_config.d"
    # What the TLJH installer makes: the users' environment and the hub's config folder.
    environment(users)
    config_d.mkdir(parents=True)
    shims = tmp_path / "shims"
    shims.mkdir()
    (shims / "sudo").write_text(SUDO_SHIM)
    (shims / "sudo").chmod(0o755)
    admin = tmp_path / "admin"  # where the administrator's shell is: not the clone
    admin.mkdir()

    skel = machine / "etc" / "skel"  # a new user's home is a copy of it
    places = {"<this repository>": str(ROOT), "/opt/": f"{opt}/", "/srv/leonard": str(srv),
              "/etc/skel": str(skel),
              "localhost:5432": f"localhost:{port}", "THE-PASSWORD": PASSWORD}
    run, skipped = [], []
    for line in commands(README.read_text(encoding="utf-8")):
        if any(line.startswith(prefix) for prefix in SKIPPED):
            skipped.append(line)
        else:
            run.append(_substitute(line, places))
    env = clean_env(PATH=f"{shims}:{os.environ['PATH']}", PGHOST="127.0.0.1",
                    PGPORT=str(port), LEONARD_PURE="1")
    # One shell, as the administrator types the steps; createuser's prompt reads the
    # password from stdin (no terminal: a session of its own).
    done = subprocess.run(["bash", "-e", "-x", "-c", "\n".join(run)], cwd=admin, env=env,
                          input=f"{PASSWORD}\n{PASSWORD}\n", text=True, capture_output=True,
                          start_new_session=True, timeout=900)
    assert done.returncode == 0, f"the README's commands failed:\n{done.stderr[-6000:]}"
    assert {p for p in SKIPPED if not any(c.startswith(p) for c in skipped)} == set(), \
        "a command SKIPPED names is no longer in the README"
    assert any("createuser" in c for c in run), "the README makes no PostgreSQL role"

    # Step 1: the users' environment has the clone's tutor and its server settings.
    clone = Path(_substitute("/opt/leonard-src", places))
    where = subprocess.run([str(users / "bin" / "python"), "-c",
                            "import tutor, psycopg; print(tutor.__file__)"],
                           capture_output=True, text=True, cwd=admin, env=env)
    assert where.returncode == 0 and where.stdout.startswith(str(users)), where.stderr
    written = users / "etc" / "jupyter" / "jupyter_server_config.json"
    assert written.is_file(), "step 1 wrote no server settings into the users' environment"
    assert set(SERVER_EXTENSIONS) <= set(
        json.loads(written.read_text())["ServerApp"]["jpserver_extensions"])
    # Step 2: the store's folder and its address file are root's alone, and the role the
    # steps made has the password typed at its prompt.
    assert stat.S_IMODE(srv.stat().st_mode) == 0o700
    address_file = srv / "store-address"
    assert stat.S_IMODE(address_file.stat().st_mode) == 0o600
    address = address_file.read_text(encoding="utf-8").strip()
    assert f"tutor:{PASSWORD}@" in address
    with psycopg.connect(cluster.url(), autocommit=True) as conn:
        row = conn.execute("SELECT rolpassword FROM pg_authid WHERE rolname = 'tutor'").fetchone()
        assert row is not None and row[0], "the role tutor has no password"
        owner = conn.execute("SELECT pg_get_userbyid(datdba) FROM pg_database "
                             "WHERE datname = 'tutor'").fetchone()
        assert owner == ("tutor",)
    # Step 3 copied leonard.py where TLJH reads it; step 4 put the notebooks in /etc/skel,
    # which the students' servers get as their folder (a new home is a copy of it).
    assert (config_d / "leonard.py").read_bytes() == (clone / "deploy/tljh/leonard.py").read_bytes()

    hub = DocHub(tmp_path / "hub", srv=srv, config_d=config_d, users=users, homes=skel)
    hub.folder.mkdir()
    hub.start(proxy)
    try:
        # Step 5: the student signs in and lands on the lessons page (leonard.py's
        # default_url), which reads the class's store through the service.
        session = hub.login(STUDENT)
        hub.spawn(STUDENT)
        page = session.get(f"{hub.url}/user/{STUDENT}/", timeout=300)
        page.raise_for_status()
        assert page.url.endswith("/voila/render/leonard-domino-tutor/notebooks/Lessons.ipynb"), \
            page.url
        assert '"kernelId"' in page.text
        link = re.search(r"`https://<hub>/user-redirect/(\S+?)`", README.read_text())
        assert link, "step 5 gives the students no link"
        page = session.get(f"{hub.url}/hub/user-redirect/{link.group(1)}", timeout=300)
        page.raise_for_status()  # step 5's link, for the signed-in student
        assert page.url == f"{hub.url}/user/{STUDENT}/{link.group(1)}", page.url
        assert '"kernelId"' in page.text
        server = hub.server_pid(STUDENT)
        assert command(server).startswith(str(users / "bin" / "python")), command(server)
        student_env = environ(server)
        assert PASSWORD not in " ".join(student_env.values())
        assert student_env["LEONARD_TUTOR_DB"].endswith("/services/leonard-store/")
        assert hub.process is not None
        service = next(p for p in descendants(hub.process.pid)
                       if "tutor.hub.store_service" in command(p))
        assert command(service).startswith(str(users / "bin" / "python")), command(service)
        assert environ(service)["LEONARD_TUTOR_DB"] == address
        # Issue 51: leonard.py made the write keys' secret in the store's folder, root's
        # alone; the service holds it, the student's server only the student's own key.
        secret_file = srv / "write-secret"
        assert stat.S_IMODE(secret_file.stat().st_mode) == 0o600
        write_secret = secret_file.read_text(encoding="utf-8").strip()
        assert environ(service)["LEONARD_WRITE_SECRET"] == write_secret
        assert write_secret not in " ".join(student_env.values())
        assert student_env["LEONARD_WRITE_KEY"] == write_key(write_secret, STUDENT)
        # The tables are the tutor's, in the database the steps made, made by its role.
        with psycopg.connect(address) as conn:
            tables = {r[0] for r in conn.execute(
                "SELECT tablename FROM pg_tables WHERE tableowner = 'tutor'")}
        assert {"attempts", "schema_version"} <= tables, tables
    finally:
        left = hub.stop()
        for pid in left:  # only what this hub started
            os.kill(pid, signal.SIGKILL)
    assert not left, f"left running: {[hub.children[p] for p in left]}"



def _section(text: str, heading: str) -> str:
    """``text`` from the line ``heading`` to the next heading of the same level."""
    level = heading.split(" ")[0]
    start = text.index("\n" + heading + "\n")
    end = re.search(rf"\n{level} ", text[start + len(heading) + 2:])
    return text[start:] if end is None else text[start:start + len(heading) + 2 + end.start()]


def test_the_readmes_server_commands_run_as_written(tmp_path: Path, cluster: Any) -> None:
    """The README's *Deployment* section: its PostgreSQL block (``pip install -e
    ".[postgres]"`` and the address, from the repository's root) reaches a database made by
    the deploy README's SQL, and its standalone-Voilà block serves the lessons page with the
    class's progress file where the block says, its page templates compiled once.
    Substituted: the database's host and port and ``THE-PASSWORD``, ``/srv/leonard`` (a folder
    of the test's) and the port 8866 (a free one); the repository is a clone of the test's
    checkout (its committed ``HEAD``), the environment one like :func:`environment`."""
    if shutil.which("git") is None:
        pytest.skip("git is not installed: the test clones the repository")
    import psycopg
    import requests



    readme = _section(ROOT.joinpath("README.md").read_text(encoding="utf-8"), "## Deployment")
    blocks = re.findall(r"```bash\n(.*?)```", readme, re.DOTALL)
    postgres = next(b for b in blocks if "LEONARD_TUTOR_DB=postgresql://" in b)
    standalone = next(b for b in blocks if "voila notebooks/" in b)
    assert len(blocks) == 2, "a new command block in the README's Deployment section: run it here"
    sql = re.findall(r"```sql\n(.*?)```",
                     (ROOT / "deploy" / "tljh" / "README.md").read_text(encoding="utf-8"),
                     re.DOTALL)
    assert len(sql) == 1, "deploy/tljh/README.md's SQL for a school's own database"

    port = cluster.port
    with psycopg.connect(cluster.url(), autocommit=True) as conn:
        for statement in sql[0].replace("THE-PASSWORD", PASSWORD).split(";"):
            if statement.strip():
                conn.execute(statement)
    repo = tmp_path / "leonard-domino-tutor"
    subprocess.run(["git", "clone", "-q", str(ROOT), str(repo)], check=True, timeout=120)
    prefix = environment(tmp_path / "env")
    env = clean_env(PATH=f"{prefix / 'bin'}:{os.environ['PATH']}", LEONARD_PURE="1")

    # The PostgreSQL block, then the tutor's first use of the store it names.
    script = (postgres.replace("db.school:5432", f"127.0.0.1:{port}")
              .replace("THE-PASSWORD", PASSWORD)
              + "\npython -c 'from tutor.storage.store import Store; Store().close()'\n")
    done = subprocess.run(["bash", "-e", "-x", "-c", script], cwd=repo, env=env, text=True,
                          capture_output=True, timeout=900)
    assert done.returncode == 0, f"the README's PostgreSQL commands failed:\n{done.stderr[-6000:]}"
    with psycopg.connect(f"postgresql://tutor:{PASSWORD}@127.0.0.1:{port}/tutor") as conn:
        tables = {r[0] for r in conn.execute(
            "SELECT tablename FROM pg_tables WHERE tableowner = 'tutor'")}
    assert {"attempts", "schema_version"} <= tables, tables

    # The standalone-Voilà block, left running while a student opens the lessons page.
    srv, web = tmp_path / "srv" / "leonard", free_port()
    script = standalone.replace("/srv/leonard", str(srv)).replace("8866", str(web))
    log = tmp_path / "voila.log"
    with open(log, "wb") as out:
        voila = subprocess.Popen(["bash", "-e", "-c", script], cwd=repo, env=env, stdout=out,
                                 stderr=subprocess.STDOUT, start_new_session=True)
    try:
        page = None
        for _ in range(1800):  # at most 3 minutes
            assert voila.poll() is None, log.read_text(errors="replace")[-4000:]
            try:
                page = requests.get(f"http://127.0.0.1:{web}/voila/render/Lessons.ipynb"
                                    "?student=ana", timeout=120)
                break
            except requests.ConnectionError:
                time.sleep(0.1)
        assert page is not None and page.status_code == 200, log.read_text(errors="replace")
        assert '"kernelId"' in page.text
        kernels = [p for p in descendants(voila.pid) if "ipykernel" in command(p)]
        assert kernels and {environ(p).get("LEONARD_TUTOR_DB") for p in kernels} == {
            str(srv / "progress.sqlite3")}
        assert "page templates are compiled once per server" in log.read_text(errors="replace")
    finally:
        left = descendants(voila.pid) | {voila.pid}
        os.killpg(voila.pid, signal.SIGTERM)  # the shell and the Voilà it started
        try:
            voila.wait(timeout=60)
        except subprocess.TimeoutExpired:
            os.killpg(voila.pid, signal.SIGKILL)
            voila.wait(timeout=10)
        for _ in range(300):
            if not any(alive(p) for p in left):
                break
            time.sleep(0.1)
        for pid in left:
            if alive(pid):
                os.kill(pid, signal.SIGKILL)
