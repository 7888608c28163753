"""What the teacher's live view reads from the class's store service at each tick, after a long
class: the whole class's rows (``GET attempts``, what each tick read before issue 51) beside
the rows stored since the last tick (``GET attempts-after``, what it reads now), side by side;
and the session marks of the live window it reads too (``GET marks``: one per lesson a play
page ended, here one for each session at its last row).

    python benchmarks/live_read.py [--students 30] [--minutes 120] [--every 10] [--tick 5]
                                   [--ticks 6] [--postgres] [--store ADDRESS]

A class of ``--students`` has played for ``--minutes``, each storing a row every ``--every``
seconds (an answer, a hint, "Show me": the rows are shaped as ``simulate-students`` writes
them); the rows are written straight into a store (a fresh SQLite file; ``--postgres``: a
throwaway PostgreSQL cluster, as the tests start one; ``--store``: that address). The store
service's routes (:func:`tutor.hub.store_service.make_app`) then run in this process, in a
thread, with the teacher's token (the hub's check of it stood in for), and for ``--ticks``
ticks of ``--tick`` seconds the class stores that many seconds' rows, and the two reads are
made as the page makes them (HTTP, JSON, no compression: the page's client asks for none).
It prints each read's bytes and milliseconds per tick, and the rows the live view holds
(the same number as the full read's, or it says so).
"""

from __future__ import annotations

import argparse
import asyncio
import http.client
import json
import math
import secrets
import socket
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from pathlib import Path
from urllib.parse import urlencode, urlsplit

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tutor.storage.records import Attempt, Outcome  # noqa: E402

TEACHER_TOKEN = "tok-teacher"
START = datetime(2026, 3, 2, 8, 0, tzinfo=timezone.utc)
_SHAPES = (  # (problem, step, outcome, input, feedback, kc, expected, answered)
    ("m1r1t2-6/x", "gain[blanks,out=am.oo.st.tt.wf,need=am.oo.st.tt.wf,alt=am18.oh36.oo42.st12"
     ".tt66/78.wf60/84]", Outcome.INCORRECT, "43", "slip", "multiply", 72, 43),
    ("m1r1t2-6/x", "gain[blanks,out=am.oo.st.tt.wf,need=am.oo.st.tt.wf,alt=am18.oh36.oo42.st12"
     ".tt66/78.wf60/84]", Outcome.CORRECT, "72", "correct", "multiply", 72, 72),
    ("m1r1t3-x/-", "loss[blanks,trivial,out=ne.oh,need=ne.oh,alt=am13.ne6.oh6]",
     Outcome.HINT, "", "rung-1", "other-end", 12, None),
    ("m1r1t12-5/-", "score[out=al.dm.sz,need=al.dm.sz,alt=al54.dm6.sz0.wp24]",
     Outcome.CORRECT, "-6", "correct", "negative", -6, -6),
)


def class_rows(students: int, start: float, end: float, every: float) -> Iterator[Attempt]:
    """The rows the class stores from ``start`` to ``end`` seconds into the class (each
    student one every ``every`` seconds, the students a little apart)."""
    for n in range(students):
        student = f"student-{n + 1:02d}"
        offset = every * n / students
        k = max(0, math.ceil((start - offset) / every))  # the first at or after start
        while offset + k * every < end:
            t = offset + k * every
            problem, step, outcome, given, feedback, kc, expected, answered = _SHAPES[k % 4]
            yield Attempt(student, f"session-{n:02d}-{int(t // 2700)}",
                          (START + timedelta(seconds=t)).isoformat(timespec="microseconds"),
                          "04-times", f"{problem}#{k // 4}", step, outcome, given, feedback,
                          kc, 1 + (k % 4 == 1), k % 4 != 1, int(outcome is Outcome.HINT),
                          4.2, expected, answered)
            k += 1


def _session_ends(rows: list[Attempt]) -> dict[str, tuple[str, str]]:
    """Each session's student and the time of its last row: the play page ended the lesson
    there (one mark per session)."""
    ends: dict[str, tuple[str, str]] = {}
    for a in rows:
        ends[a.session] = (a.student, max(a.time, ends.get(a.session, ("", ""))[1]))
    return ends


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def service(database: str) -> Iterator[str]:
    """The store service's routes over ``database``, in a thread of this process; its
    address. The teacher's token (:data:`TEACHER_TOKEN`) is the only one it takes."""
    from tutor.hub.store_service import Caller, Keeper, make_app

    port = _free_port()
    ready = threading.Event()
    loops: list[asyncio.AbstractEventLoop] = []

    async def identify(token: str) -> Caller | None:
        return Caller("teacher", True) if token == TEACHER_TOKEN else None

    def run() -> None:
        loop = asyncio.new_event_loop()
        asyncio.set_event_loop(loop)
        keeper = Keeper(database)
        # The benchmark only reads, which needs no write key: any secret will do.
        server = make_app(identify, keeper, "/services/leonard-store/",
                          write_secret=secrets.token_hex(32)).listen(port, "127.0.0.1")
        loops.append(loop)
        ready.set()
        loop.run_forever()
        server.stop()
        keeper.close()
        loop.close()

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    ready.wait(30)
    try:
        yield f"http://127.0.0.1:{port}/services/leonard-store/"
    finally:
        loops[0].call_soon_threadsafe(loops[0].stop)
        thread.join(30)


def read_bytes(address: str, route: str, query: dict[str, str] | None = None
               ) -> tuple[int, dict[str, object]]:
    """One ``GET`` of the service with the teacher's token, as the page's client sends it:
    the answer's size in bytes (its body, as read), and its JSON."""
    parts = urlsplit(address)
    conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=120)
    try:
        conn.request("GET", parts.path + "api/v1/" + route
                     + (("?" + urlencode(query)) if query else ""),
                     headers={"Authorization": f"token {TEACHER_TOKEN}",
                              "Accept": "application/json"})
        reply = conn.getresponse()
        body = reply.read()
    finally:
        conn.close()
    if reply.status != 200:
        raise RuntimeError(f"HTTP {reply.status}: {body[:300]!r}")
    answer = json.loads(body)
    assert isinstance(answer, dict)
    return len(body), answer


@dataclass
class Tick:
    """One tick's two reads: bytes and milliseconds."""

    full_bytes: int
    full_ms: float
    new_bytes: int
    new_ms: float
    new_rows: int
    marks_bytes: int
    """The session marks of the live window (``GET marks?since=``: the lessons the play pages
    ended, issue 52), read at each tick beside the new rows."""


def measure(database: str, students: int = 30, minutes: float = 120.0, every: float = 10.0,
            tick: float = 5.0, ticks: int = 6,
            on_tick: Callable[[int, Tick], None] | None = None) -> tuple[int, list[Tick]]:
    """The class's rows written into ``database`` (its first ``minutes``), then ``ticks``
    ticks through the service: the rows in the store after the class, and each tick's reads.
    The live view's own rows (:class:`tutor.classroom.live.LiveFeed`, through a
    :class:`~tutor.storage.store.ServiceStore`) are checked against the full read at the
    end."""
    from tutor.classroom.live import LiveFeed, marks_since
    from tutor.storage.store import ServiceStore, Store

    history = 60 * minutes
    with Store(database, lang="en") as store:
        rows = list(class_rows(students, 0, history, every))
        for i in range(0, len(rows), 2000):
            store.merge(rows[i:i + 2000])
        for session, (student, ended) in _session_ends(rows).items():
            store.mark_session(student, session, "04-times", "mastered", ended)
        before = len(rows)
        results: list[Tick] = []
        with service(database) as address, ServiceStore(address, token=TEACHER_TOKEN,
                                                         lang="en") as teacher:
            feed = LiveFeed()
            feed.read(teacher)  # the page's "Refresh": the whole class, once
            _size, answer = read_bytes(address, "attempts-after")
            mark = str(answer["after"])
            for n in range(ticks):
                start = history + n * tick
                store.merge(class_rows(students, start, start + tick, every))
                t0 = time.perf_counter()
                full_bytes, _ = read_bytes(address, "attempts")
                t1 = time.perf_counter()
                new_bytes, answer = read_bytes(address, "attempts-after", {"after": mark})
                t2 = time.perf_counter()
                mark = str(answer["after"])
                got = answer["attempts"]
                assert isinstance(got, list)
                now = START + timedelta(seconds=start + tick)
                marks_bytes, _ = read_bytes(address, "marks", {"since": marks_since(now)})
                result = Tick(full_bytes, (t1 - t0) * 1000, new_bytes, (t2 - t1) * 1000,
                              len(got), marks_bytes)
                results.append(result)
                feed.read(teacher)
                if on_tick is not None:
                    on_tick(n, result)
            held = len(feed.attempts())
            stored = len(store.attempts())
            if held != stored:
                raise AssertionError(f"the live view holds {held} rows, the store {stored}")
    return before, results


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--students", type=int, default=30)
    ap.add_argument("--minutes", type=float, default=120.0, help="the class so far")
    ap.add_argument("--every", type=float, default=10.0,
                    help="seconds between two rows of one student")
    ap.add_argument("--tick", type=float, default=5.0, help="seconds between two reads")
    ap.add_argument("--ticks", type=int, default=6)
    ap.add_argument("--postgres", action="store_true",
                    help="a throwaway PostgreSQL cluster (tests/pg_cluster.py)")
    ap.add_argument("--store", help="the store's address (default: a fresh SQLite file)")
    args = ap.parse_args(argv)

    from tests.pg_cluster import bench_store

    with tempfile.TemporaryDirectory(prefix="live-read-") as tmp, \
            bench_store(args.store, args.postgres, Path(tmp) / "class.sqlite3") as found:
        if found is None:
            return 2
        address: str = found
        print(f"{args.students} students, {args.minutes:g} minutes, a row every "
              f"{args.every:g} s each, a tick every {args.tick:g} s "
              f"({'PostgreSQL' if '://' in address else 'SQLite'})")
        print(f"{'tick':>4}  {'full read':>12} {'ms':>7}  {'new rows read':>14} {'ms':>6}"
              f"  {'rows':>5}  {'marks read':>10}")

        def say(n: int, t: Tick) -> None:
            print(f"{n + 1:>4}  {t.full_bytes:>12,} {t.full_ms:>7.1f}  {t.new_bytes:>14,} "
                  f"{t.new_ms:>6.1f}  {t.new_rows:>5}  {t.marks_bytes:>10,}")

        rows, ticks = measure(address, args.students, args.minutes, args.every,
                              args.tick, args.ticks, say)
        full = statistics.median(t.full_bytes for t in ticks)
        new = statistics.median(t.new_bytes + t.marks_bytes for t in ticks)
        print(f"rows after the class: {rows:,}; bytes per tick (median): full read "
              f"{full:,.0f} ({full / 2**20:.2f} MiB), new rows and the window's marks "
              f"{new:,.0f} ({new / 2**20:.4f} MiB): {full / max(new, 1):,.0f}× less")
    return 0


if __name__ == "__main__":
    sys.exit(main())
