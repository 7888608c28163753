"""A throwaway PostgreSQL cluster for one test run (Debian's PostgreSQL binaries).

One cluster per test session, on a free loopback port, its socket in its own folder; each
test asks it for a fresh database. It is stopped by its postmaster's pid at the end. The
server refuses to run as root, so as root the commands run as the ``postgres`` user.
"""

from __future__ import annotations

import glob
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

__all__ = ["Cluster", "bench_store", "find_bin", "why_not"]


def find_bin() -> Path | None:
    """The newest ``/usr/lib/postgresql/N/bin`` holding ``initdb`` (or ``$PG_BIN``), if any."""
    env = os.environ.get("PG_BIN")
    found = [env] if env else sorted(glob.glob("/usr/lib/postgresql/*/bin"),
                                     key=lambda p: int(Path(p).parent.name)
                                     if Path(p).parent.name.isdigit() else 0)
    for folder in reversed(found):
        if (Path(folder) / "initdb").is_file():
            return Path(folder)
    initdb = shutil.which("initdb")
    return Path(initdb).parent if initdb else None


def why_not() -> str | None:
    """Why a cluster cannot be started here (None: it can)."""
    try:
        import psycopg  # noqa: F401
    except ImportError:
        return ("psycopg is not installed (pip install -e '.[test]' brings it), so the "
                "PostgreSQL store cannot be tested")
    if find_bin() is None:
        return ("PostgreSQL's programs (initdb, pg_ctl) are not installed: apt-get install "
                "postgresql (.ci/run does) to test the PostgreSQL store")
    if os.geteuid() == 0:
        try:
            import pwd

            pwd.getpwnam("postgres")
        except KeyError:
            return "running as root and there is no postgres user to run the server as"
    return None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Cluster:
    """``start()``, then ``new_database()`` per test; ``restart()`` (pg_ctl restart -m fast);
    ``stop()`` kills the postmaster by its pid and removes the folder."""

    def __init__(self) -> None:
        bin_dir = find_bin()
        assert bin_dir is not None
        self.bin = bin_dir
        self.root = Path(tempfile.mkdtemp(prefix="leonard-pg-"))
        self.data = self.root / "data"
        self.port = _free_port()
        self.pid: int | None = None
        self._count = 0
        self._as_root = os.geteuid() == 0

    def _run(self, *args: str) -> None:
        command = [str(self.bin / args[0]), *args[1:]]
        if self._as_root:
            command = ["su", "postgres", "-s", "/bin/sh", "-c",
                       " ".join(_quote(a) for a in command)]
        subprocess.run(command, check=True, capture_output=True, text=True, timeout=120)

    def _pg_ctl(self, action: str) -> None:
        # fsync off: a throwaway cluster (a clean restart still writes everything out).
        options = (f"-p {self.port} -k {self.root} -c listen_addresses=127.0.0.1 "
                   "-c fsync=off -c max_connections=200")
        self._run("pg_ctl", "-D", str(self.data), "-o", options, "-l",
                  str(self.root / "log"), "-m", "fast", "-w", action)
        self.pid = int((self.data / "postmaster.pid").read_text().split()[0])

    def start(self) -> Cluster:
        if self._as_root:
            shutil.chown(self.root, "postgres")
        self._run("initdb", "-D", str(self.data), "-A", "trust", "-U", "postgres",
                  "-E", "UTF8", "--no-locale")
        self._pg_ctl("start")
        return self

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/{database}"

    def new_database(self) -> str:
        """A fresh, empty store's address: a schema of its own in the ``tutor`` database
        (its connections' search_path), made in milliseconds where CREATE DATABASE takes a
        quarter of a second."""
        import psycopg

        self._count += 1
        name = f"t{self._count}"
        with psycopg.connect(self.url(), autocommit=True) as conn:
            if self._count == 1:
                conn.execute("CREATE DATABASE tutor")
        with psycopg.connect(self.url("tutor"), autocommit=True) as conn:
            conn.execute(f"CREATE SCHEMA {name}")
        return self.url("tutor") + f"?options=-csearch_path%3D{name}"

    def restart(self) -> None:
        """``pg_ctl restart -m fast``: every connection is cut, the server comes back."""
        self._pg_ctl("restart")

    def pause(self) -> None:
        """``pg_ctl stop -m fast``, keeping the data: the server is down until
        :meth:`resume` (an outage mid-class)."""
        self._run("pg_ctl", "-D", str(self.data), "-m", "fast", "-w", "stop")

    def resume(self) -> None:
        """Start the server :meth:`pause` stopped, on the same port, with the same data."""
        self._pg_ctl("start")

    def stop(self) -> None:
        """SIGINT to the postmaster (a fast shutdown), waiting until its pid is gone."""
        if self.pid is not None:
            os.kill(self.pid, signal.SIGINT)
            for _ in range(3000):  # at most 30 s
                if not _alive(self.pid):
                    break
                time.sleep(0.01)
            self.pid = None
        shutil.rmtree(self.root, ignore_errors=True)


def _alive(pid: int) -> bool:
    """Whether ``pid`` still runs (a zombie no one has reaped yet counts as gone)."""
    try:
        with open(f"/proc/{pid}/stat") as fh:
            return fh.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False
    except OSError:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return False
        return True


def _quote(text: str) -> str:
    import shlex

    return shlex.quote(text)


@contextmanager
def bench_store(given: str | None, postgres: bool, file: Path) -> Iterator[str | None]:
    """A benchmark's store address: ``given`` (its ``--store``), else with ``postgres`` a
    fresh database of a throwaway cluster (stopped at the end), else the SQLite ``file``.
    None (the reason printed) when PostgreSQL is asked for and cannot start here."""
    if given:
        yield given
        return
    if not postgres:
        yield str(file)
        return
    reason = why_not()
    if reason:
        print(reason)
        yield None
        return
    cluster = Cluster().start()
    try:
        yield cluster.new_database()
    finally:
        cluster.stop()
