"""A class at once, measured at the server: N simulated students play a lesson against one
Voilà server through Voilà's own protocol (HTTP for the page, the kernel's websocket for the
widgets), with no browser, writing to one progress file.

    python benchmarks/class_server.py [--students 10] [--moves 12] [--think 0.5]
                                      [--arrival 0.5] [--lesson 04-times] [--json] [--check]
                                      [--stores file,service]

``benchmarks/classroom.py`` drives the same class in headless Chromium pages; on the server's
own two cores the browsers then take most of the CPU (issue 35: every click over 250 ms came
while other Chromiums were opening Voilà's front end). Here each student is a websocket client
that does what the page's JavaScript does, and nothing else:

1. ``GET voila/render/Play.ipynb?lesson=…&seed=…&student=…``: Voilà starts a kernel, runs the
   notebook and streams the page; the kernel's id is in the page's
   ``<script id="jupyter-config-data">`` (``kernelId``), and the response sets the ``_xsrf``
   cookie (:mod:`tutor.hub.page_xsrf`);
2. opens ``api/kernels/<id>/channels`` and asks for the widget models as ipywidgets 8's
   manager does: a ``comm_open`` on the ``jupyter.widget.control`` target, then
   ``{"method": "request_states"}``; the kernel answers ``update_states`` with every model's
   state. Later ``comm_open`` (new widgets), ``update``/``echo_update`` and ``comm_close``
   messages keep the client's copy of the models current;
3. says what a page says once its widgets are drawn: the board canvas's ``client_ready`` and
   the window's width (the access layer's ``width`` event);
4. plays: a click on a move button is the button model's ``custom`` message
   ``{"event": "click"}``, timed until the update that takes the button out of the moves
   panel's children arrives (the page's board changed); an answer is what typing and Enter
   send (the answer box's ``update`` of its value, the box cleared, and the access layer's
   ``{"event": "submit", "value": …}``), timed until the question, its feedback or the panel's
   visibility changes. A mirror :class:`tutor.session.session.Session` with the same lesson and seed
   says the legal moves and the right answers (as in the browser benchmark);
5. leaves as a closed tab does: ``POST voila/api/shutdown/<kernel>`` with the ``_xsrf`` cookie
   and field (``navigator.sendBeacon``), then closes the websocket.

The server is standalone ``voila notebooks/`` with the project's ``voila.json`` and the
``voila.py`` of ``python -m tutor.commands.server --write-server-config`` (the README's class
server;
the same shape as ``classroom.py``, so the two benchmarks compare): a school's own server runs
that, while Jupyter Server + the Voilà extension is Binder's one-student-per-container shape.

``--stores`` plays the same class (the same students, seeds and think times) once per store,
one after the other, and prints them side by side:

* ``file``: the server's kernels write one SQLite progress file themselves (a school's own
  server, as the README sets it up);
* ``service``: the class hub's store path (issue 41): a real JupyterHub started from
  ``deploy/tljh/leonard.py`` (``tests/browser/hub_server.py``) runs the store service over the
  same kind of SQLite file, and every kernel writes through it with its own student's hub
  token, checked by the hub, and its write key (issue 51), checked by the service. The
  students still play on this one Voilà server (a hub gives each student a server of their
  own; here the pages' cost stays the same in both runs, so the difference is the store
  path). Each kernel is given its student, token and key as a hub's server gives them
  (``JUPYTERHUB_USER``, ``JUPYTERHUB_API_TOKEN``, ``LEONARD_WRITE_KEY``): the page's request
  carries them in three headers, which Voilà puts in the kernel's environment
  (``http_header_envs``) and a ``sitecustomize`` of the run's own copies at the kernel's
  start.

It reports click → update and answer → feedback p50/p95 (milliseconds, measured in the
client when the kernel's reply arrives), the server's and the kernels' CPU seconds per click
while the class played (from /proc, every process's CPU time at its last sighting), memory per
kernel and in total at the peak (resident, /proc), kernels left after the clients left, and
attempts stored (read back from the progress file) against attempts sent. Goals (2 cores,
N = 30): click p95 ≤ 150 ms, nothing lost, no kernel left, ≤ 110 MiB per student kernel.
``--check`` exits 1 when an attempt is lost, a student failed or a kernel is left; timings
are never checked. Traffic goes only to 127.0.0.1; every wait has a timeout.
"""

from __future__ import annotations

import argparse
import asyncio
import html
import json
import os
import random
import re
import signal
import sys
import tempfile
import time
import uuid
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

from bench_browser import ROOT, cpu_s, rss_kib
from serving import (
    cpu_now,
    forced,
    lost_answers,
    mirror,
    note_cpu,
    start_class_server,
    stats,
    wait_for_kernels,
)

from tutor.commands.server import kernel_pids, stop_server

GOAL_CLICK_MS = 150
GOAL_KERNEL_MIB = 110
PAGE_TIMEOUT = 600.0
"""Seconds a page may take to come (60 students' notebooks run at once on two cores)."""
STEP_TIMEOUT = 60.0
"""Seconds a student waits for any one thing the game should show."""
LEAVE_TIMEOUT = 60.0
"""Seconds the kernels have to go once every student has left."""

STUDENT_HEADER, TOKEN_HEADER = "X-Leonard-Student", "X-Leonard-Token"
KEY_HEADER = "X-Leonard-Key"
SITECUSTOMIZE = """# The class benchmark's kernels: the student, token and key a hub's server gives.
import os

_student = os.environ.get("HTTP_X_LEONARD_STUDENT")
_token = os.environ.get("HTTP_X_LEONARD_TOKEN")
_key = os.environ.get("HTTP_X_LEONARD_KEY")
if _student and _token:
    os.environ["JUPYTERHUB_USER"] = _student
    os.environ["JUPYTERHUB_API_TOKEN"] = _token
    os.environ["LEONARD_WRITE_KEY"] = _key or ""
"""

CONFIG_RE = re.compile(r'<script id="jupyter-config-data" type="application/json">(.*?)</script>',
                       re.S)


def _debug(*what: Any) -> None:
    """Progress on stderr when ``CLASS_SERVER_DEBUG`` is set."""
    if os.environ.get("CLASS_SERVER_DEBUG"):
        print(f"[{time.monotonic():.2f}]", *what, file=sys.stderr, flush=True)


class Kernel:
    """One student's connection: the kernel's websocket and the client's copy of the widget
    models, kept current from the kernel's comm messages."""

    def __init__(self, ws: Any) -> None:
        self.ws = ws
        self.session = uuid.uuid4().hex
        self.models: dict[str, dict[str, Any]] = {}
        """model id → ``{"name": model_name, "state": {...}}``."""
        self._waiters: list[tuple[Any, asyncio.Future[float]]] = []
        self.closed = False
        self.received = 0

    # --- sending ------------------------------------------------------------------------------

    async def send(self, msg_type: str, content: dict[str, Any],
                   metadata: dict[str, Any] | None = None) -> str:
        msg_id = uuid.uuid4().hex
        msg = {"header": {"msg_id": msg_id, "msg_type": msg_type, "username": "student",
                          "session": self.session, "version": "5.3",
                          "date": time.strftime("%Y-%m-%dT%H:%M:%S.000Z", time.gmtime())},
               "parent_header": {}, "metadata": metadata or {}, "content": content,
               "channel": "shell", "buffers": []}
        await self.ws.send(_encode(msg))
        return msg_id

    async def comm(self, model_id: str, data: dict[str, Any]) -> None:
        await self.send("comm_msg", {"comm_id": model_id, "data": data},
                        {"version": "2.1.0"})

    async def custom(self, model_id: str, content: dict[str, Any]) -> None:
        await self.comm(model_id, {"method": "custom", "content": content})

    async def update(self, model_id: str, state: dict[str, Any]) -> None:
        self.models[model_id]["state"].update(state)
        await self.comm(model_id, {"method": "update", "state": state, "buffer_paths": []})

    # --- receiving ----------------------------------------------------------------------------

    async def listen(self) -> None:
        try:
            async for raw in self.ws:
                self.received += 1
                msg = _decode(raw)
                if msg is not None:
                    try:
                        self._apply(msg)
                    except (KeyError, TypeError, AttributeError):
                        continue  # a message this client does not follow
                    self._wake()
        except Exception:  # the socket closed: waiters time out and say so
            pass
        finally:
            self.closed = True
            self._wake()

    def _apply(self, msg: dict[str, Any]) -> None:
        kind = msg.get("msg_type") or msg.get("header", {}).get("msg_type")
        content = msg.get("content") or {}
        if kind == "comm_open" and content.get("target_name") == "jupyter.widget":
            data = content.get("data") or {}
            state = dict(data.get("state") or {})
            self.models[content["comm_id"]] = {"name": state.get("_model_name", ""),
                                               "state": state}
        elif kind == "comm_msg":
            data = content.get("data") or {}
            method = data.get("method")
            if method in ("update", "echo_update"):
                model = self.models.get(content.get("comm_id", ""))
                if model is not None:
                    model["state"].update(data.get("state") or {})
            elif method == "update_states":
                for mid, m in (data.get("states") or {}).items():
                    self.models[mid] = {"name": m.get("model_name", ""),
                                        "state": dict(m.get("state") or {})}
                self.have_states = True
        elif kind == "comm_close":
            self.models.pop(content.get("comm_id", ""), None)

    def _wake(self) -> None:
        now = time.perf_counter()
        for waiter in list(self._waiters):
            predicate, future = waiter
            if future.done():
                self._waiters.remove(waiter)
                continue
            try:
                hit = self.closed or predicate()
            except (KeyError, TypeError):
                hit = False
            if hit:
                self._waiters.remove(waiter)
                future.set_result(now)

    async def until(self, predicate: Any, timeout: float, what: str) -> float:
        """Wait until ``predicate()`` holds on the models; the time (``perf_counter``) the
        message that made it hold arrived."""
        if predicate():
            return time.perf_counter()
        if self.closed:
            raise ConnectionError(f"the kernel's websocket closed before {what}")
        future: asyncio.Future[float] = asyncio.get_running_loop().create_future()
        self._waiters.append((predicate, future))
        try:
            at = await asyncio.wait_for(future, timeout)
        except asyncio.TimeoutError:
            raise TimeoutError(f"no {what} in {timeout:.0f} s") from None
        if self.closed and not predicate():
            raise ConnectionError(f"the kernel's websocket closed while waiting for {what}")
        return at

    # --- the page's parts ---------------------------------------------------------------------

    def find(self, css_class: str) -> str:
        for mid, m in self.models.items():
            if css_class in (m["state"].get("_dom_classes") or ()):
                return mid
        raise KeyError(css_class)

    def state(self, model_id: str) -> dict[str, Any]:
        return self.models[model_id]["state"]

    def shown(self, model_id: str) -> bool:
        layout = self.state(model_id).get("layout", "")
        lid = layout[len("IPY_MODEL_"):] if isinstance(layout, str) else ""
        return self.models.get(lid, {}).get("state", {}).get("display") != "none"

    def move_buttons(self) -> list[tuple[str, str]]:
        """The move buttons on show: (model id, the move's notation), in order."""
        panel = self.state(self.find("ld-moves"))
        out = []
        for ref in panel.get("children") or ():
            mid = ref[len("IPY_MODEL_"):]
            out.append((mid, str(self.state(mid).get("tooltip") or "")))
        return out


PROTOCOL = "v1.kernel.websocket.jupyter.org"
"""The kernel websocket protocol Voilà's page speaks (Jupyter Server's v1: binary frames of
offsets, the channel and the message's parts). The legacy protocol (JSON text, and Jupyter's
older binary frames for messages with buffers) is not usable with Voilà 0.5: its websocket
handler reads every binary frame as v1, and on a legacy frame (the board's drawings) it loops
over a count of billions of offsets, holding the whole server."""


def _encode(msg: dict[str, Any]) -> bytes:
    """A message as a v1 frame: the part count, the offsets (little-endian, 8 bytes each),
    the channel, then header, parent header, metadata and content as JSON."""
    parts = [json.dumps(msg[key]).encode("utf-8")
             for key in ("header", "parent_header", "metadata", "content")]
    channel = msg["channel"].encode("utf-8")
    offsets = [8 * (1 + 1 + len(parts) + 1)]
    offsets.append(offsets[-1] + len(channel))
    for part in parts:
        offsets.append(offsets[-1] + len(part))
    return b"".join([len(offsets).to_bytes(8, "little"),
                     *(o.to_bytes(8, "little") for o in offsets), channel, *parts])


def _decode(raw: str | bytes) -> dict[str, Any] | None:
    """A kernel message from a v1 frame (its buffers, the board's drawings, are not read)."""
    try:
        if isinstance(raw, str):
            return dict(json.loads(raw))
        n = int.from_bytes(raw[:8], "little")
        if not 2 <= n <= 1024:
            return None
        offsets = [int.from_bytes(raw[8 * (i + 1):8 * (i + 2)], "little") for i in range(n)]
        parts = [raw[offsets[i]:offsets[i + 1]] for i in range(1, min(n - 1, 5))]
        header, parent, metadata, content = (json.loads(p) for p in parts[:4])
        return {"channel": raw[offsets[0]:offsets[1]].decode("utf-8"), "header": header,
                "parent_header": parent, "metadata": metadata, "content": content,
                "msg_type": header.get("msg_type")}
    except (ValueError, IndexError):
        return None


@dataclass
class Student:
    name: str
    seed: int
    page_s: float = 0.0
    ready_at: float = 0.0
    kernel_id: str = ""
    clicks_ms: list[float] = field(default_factory=list)
    answers_ms: list[float] = field(default_factory=list)
    answers: list[str] = field(default_factory=list)
    """Every answer sent, in order (each right at the first try: one attempt each)."""
    token: str = ""
    """The student's hub token (the ``service`` store: the page's request carries it)."""
    key: str = ""
    """The student's write key, as the hub gives their server (the ``service`` store)."""
    left: bool = False
    """The closed tab's shutdown request was answered 204."""
    error: str = ""


@dataclass
class Report:
    students: int
    lesson: str
    moves: int
    think_s: float
    arrival_s: float
    click_ms: dict[str, float]
    answer_ms: dict[str, float]
    page_s: dict[str, float]
    clicks: int
    cpu_s: dict[str, float]
    """CPU seconds while the class played (from the last student ready to the last done)."""
    cpu_per_click_s: dict[str, float]
    peak_total_mib: float
    server_mib: float
    kernel_mib: dict[str, float]
    kernels_while_playing: int
    kernels_left: int
    attempts_sent: int
    attempts_stored: int
    lost: list[str]
    errors: list[str]
    load_average: float
    store: str = "file"
    """``file`` (the kernels write the progress file) or ``service`` (the hub's store
    service)."""

    def ok(self) -> bool:
        return not self.lost and not self.errors and self.kernels_left == 0


def _choices(k: Kernel) -> list[tuple[str, str]]:
    return [(mid, t) for mid, t in k.move_buttons() if t not in ("draw", "pass")]


def _idle(k: Kernel) -> bool:
    """The student has something to do: a move to choose, a question, or the round's end."""
    if _choices(k):
        return True
    if k.shown(k.find("ld-tutor")) and k.state(k.find("ld-question")).get("value"):
        return True
    try:
        return k.shown(k.find("ld-round-end"))
    except KeyError:
        return False


async def fetch_page(http: Any, url: str, headers: dict[str, str] | None = None
                     ) -> tuple[str, str]:
    """The page's kernel id and the ``_xsrf`` cookie."""
    from tornado.httpclient import HTTPRequest

    reply = await http.fetch(HTTPRequest(url, request_timeout=PAGE_TIMEOUT,
                                         connect_timeout=60, headers=headers or {}))
    body = reply.body.decode("utf-8", "replace")
    found = CONFIG_RE.search(body)
    if not found:
        raise RuntimeError("the page has no jupyter-config-data (did a cell fail?)")
    kernel_id = json.loads(found.group(1)).get("kernelId")
    if not kernel_id:
        raise RuntimeError("the page names no kernel")
    xsrf = ""
    for cookie in reply.headers.get_list("Set-Cookie"):
        if cookie.startswith("_xsrf="):
            xsrf = cookie.split(";", 1)[0][len("_xsrf="):]
    return kernel_id, xsrf


async def leave(http: Any, base: str, kernel_id: str, xsrf: str) -> bool:
    """What a closed tab sends: ``POST voila/api/shutdown/<kernel>`` with the XSRF value."""
    from tornado.httpclient import HTTPClientError, HTTPRequest

    try:
        reply = await http.fetch(HTTPRequest(
            f"{base}voila/api/shutdown/{kernel_id}", method="POST",
            body=urlencode({"_xsrf": xsrf}), request_timeout=60,
            headers={"Cookie": f"_xsrf={xsrf}",
                     "Content-Type": "application/x-www-form-urlencoded"}))
        return reply.code == 204
    except (HTTPClientError, OSError):
        return False


async def play(http: Any, base: str, lesson: str, student: Student, moves: int, think: float,
               arrival: float, everyone_ready: asyncio.Event, ready_count: list[int],
               total: int) -> None:
    import websockets

    await asyncio.sleep(arrival)
    rng = random.Random(student.seed)
    kernel_id = xsrf = ""
    ws = None
    listener = None
    counted = False
    try:
        query = urlencode({"lesson": lesson, "lang": "en", "seed": student.seed,
                           "student": student.name})
        t0 = time.perf_counter()
        headers = ({STUDENT_HEADER: student.name, TOKEN_HEADER: student.token,
                    KEY_HEADER: student.key} if student.token else None)
        kernel_id, xsrf = await fetch_page(http, f"{base}voila/render/Play.ipynb?{query}",
                                           headers)
        student.kernel_id = kernel_id
        _debug(student.name, "page", kernel_id)
        ws = await websockets.connect(
            f"ws://{base.split('//', 1)[1]}api/kernels/{kernel_id}/channels"
            f"?session_id={uuid.uuid4().hex}", max_size=None, open_timeout=60,
            ping_interval=None, subprotocols=[PROTOCOL])
        k = Kernel(ws)
        listener = asyncio.create_task(k.listen())
        control = uuid.uuid4().hex
        await k.send("comm_open", {"comm_id": control, "target_name": "jupyter.widget.control",
                                   "data": {}}, {"version": "1.0.0"})
        await k.send("comm_msg", {"comm_id": control, "data": {"method": "request_states"}},
                     {"version": "1.0.0"})
        await k.until(lambda: getattr(k, "have_states", False), STEP_TIMEOUT, "widget states")
        # What the page says once its widgets are drawn.
        for mid, m in list(k.models.items()):
            if m["name"] == "CanvasModel" and m["state"].get("_send_client_ready_event"):
                await k.custom(mid, {"event": "client_ready"})
        await k.custom(k.find("ld-access"), {"event": "width", "value": 1280})
        _debug(student.name, "states", len(k.models))
        await k.until(lambda: _idle(k), STEP_TIMEOUT, "board ready to play")
        _debug(student.name, "ready")
        student.page_s = time.perf_counter() - t0
        student.ready_at = time.perf_counter()
        ready_count[0] += 1
        counted = True
        if ready_count[0] >= total:
            everyone_ready.set()
        await asyncio.wait_for(everyone_ready.wait(), PAGE_TIMEOUT)
        session = mirror(lesson, student.seed)
        answered_value = None
        while len(student.clicks_ms) < moves:
            await k.until(lambda: _idle(k), STEP_TIMEOUT, "turn, question or round end")
            forced(session)
            q = session.pending_question
            if q is not None:
                qid, tutor = k.find("ld-question"), k.find("ld-tutor")
                prompt = html.escape(q.prompt)
                await k.until(lambda: k.shown(tutor) and prompt in k.state(qid)["value"]  # noqa: B023 - awaited at once
                              and k.state(qid)["value"] != answered_value,  # noqa: B023 - awaited at once
                              STEP_TIMEOUT, f"question {q.prompt!r}")
                answer = str(q.expected)
                await asyncio.sleep(think * rng.uniform(0.5, 1.5))
                box, feedback = k.find("ld-answer"), k.find("ld-feedback")
                before = (k.state(qid)["value"], k.state(feedback).get("value"))
                answered_value = before[0]
                await k.update(box, {"value": answer})      # typed (the last keystroke)
                t = time.perf_counter()
                await k.update(box, {"value": ""})          # Enter: the box is cleared,
                await k.custom(k.find("ld-access"), {"event": "submit", "value": answer})
                at = await k.until(
                    lambda: not k.shown(tutor) or  # noqa: B023 - awaited at once
                    (k.state(qid)["value"], k.state(feedback).get("value")) != before,  # noqa: B023 - awaited at once
                    STEP_TIMEOUT, "feedback to an answer")
                student.answers_ms.append((at - t) * 1000)
                student.answers.append(answer)
                if session.answer(answer).kind != "correct":
                    raise AssertionError(f"the mirror did not take {answer}")
                continue
            if session.round.over:
                break
            await asyncio.sleep(think * rng.uniform(0.5, 1.5))
            legal = {str(m): m for m in session.legal_actions()}
            choices = _choices(k)
            if not choices:
                raise AssertionError("the engine waits for the student, the page shows no move")
            button, move = choices[0]
            if move not in legal:
                raise AssertionError(f"page offers {move!r}, engine allows {sorted(legal)}")
            # Done when the moves on show change: the button leaves the panel, or stays as
            # the next move's button relabelled (the panel reuses its buttons), or the panel
            # shows the next turn's moves.
            shown = k.move_buttons()
            t = time.perf_counter()
            await k.custom(button, {"event": "click"})
            at = await k.until(lambda: k.move_buttons() != shown,  # noqa: B023 - awaited at once
                               STEP_TIMEOUT, f"board update after {move}")
            student.clicks_ms.append((at - t) * 1000)
            session.apply_action(legal[move])
        # The last answer's write: the status says when a busy file kept it waiting.
        status = k.find("ld-status")
        await k.until(lambda: not re.search(
            r"cannot be saved yet|waiting to be saved|not saved yet",
            str(k.state(status).get("value", "")), re.I), STEP_TIMEOUT, "answers saved")
    except Exception as err:  # one student's failure is reported, the class goes on
        student.error = f"{student.name}: {type(err).__name__}: {err}".split("\n")[0]
        _debug(student.error)
    finally:
        if not counted:
            ready_count[0] += 1
            if ready_count[0] >= total:
                everyone_ready.set()
        if kernel_id:
            student.left = await leave(http, base, kernel_id, xsrf)
        if ws is not None:
            await ws.close()
        if listener is not None:
            await asyncio.wait_for(listener, 10)


async def sample(server_pid: int, stop: asyncio.Event, peak: dict[str, Any],
                 cpu: dict[str, dict[int, float]]) -> None:
    """Peak memory (server + kernels) and each process's CPU time at its last sighting."""
    while not stop.is_set():
        kernels = kernel_pids(server_pid)
        server = rss_kib(server_pid)
        per = [rss_kib(p) for p in kernels]
        total = server + sum(per)
        if total > peak.get("total", 0):
            peak.update(total=total, server=server, kernels=[x for x in per if x])
        note_cpu(cpu["server"], [server_pid])
        note_cpu(cpu["kernels"], kernels)
        try:
            await asyncio.wait_for(stop.wait(), 0.5)
        except asyncio.TimeoutError:
            pass


async def run_class(base: str, server_pid: int, students: list[Student], lesson: str,
                    moves: int, think: float, arrival: float) -> dict[str, Any]:
    from tornado.httpclient import AsyncHTTPClient

    http = AsyncHTTPClient(force_instance=True, max_clients=max(10, len(students) * 2))
    peak: dict[str, Any] = {}
    cpu: dict[str, dict[int, float]] = {"server": {}, "kernels": {}}
    stop = asyncio.Event()
    sampler = asyncio.create_task(sample(server_pid, stop, peak, cpu))
    everyone_ready = asyncio.Event()
    ready_count = [0]
    at_ready: dict[str, dict[int, float]] = {}

    async def mark_ready() -> None:
        await everyone_ready.wait()
        at_ready.update(cpu_now(server_pid))

    marker = asyncio.create_task(mark_ready())
    await asyncio.gather(*(play(http, base, lesson, s, moves, think, i * arrival,
                                everyone_ready, ready_count, len(students))
                           for i, s in enumerate(students)))
    # The students are done playing; their kernels are being shut down by their requests.
    # The last sighting of each kernel's CPU is taken before that.
    stop.set()
    await sampler
    await marker
    http.close()
    used = {kind: sum(t - at_ready.get(kind, {}).get(pid, 0.0) for pid, t in seen.items()
                      if pid in at_ready.get(kind, {}))
            for kind, seen in cpu.items()}
    return {"peak": peak, "cpu": used}


def start_store_service(tmp: Path, students: list[Student]) -> Any:
    """A JupyterHub from ``deploy/tljh/leonard.py`` whose store service keeps
    ``tmp/class.sqlite3``; each student gets a hub user, a token of theirs that may reach
    the service, and the write key the hub's spawner would give their server. Returns the
    hub (``hub.stop()`` ends it)."""
    sys.path.insert(0, str(ROOT / "tests" / "browser"))
    from hub_server import Hub, proxy_command

    from tutor.hub.store_service import write_key

    proxy = proxy_command()
    if proxy is None:
        raise SystemExit("the service store needs npm (JupyterHub's proxy): apt-get install npm")
    hub = Hub(tmp / "hub", str(tmp / "hub" / "leonard" / "progress.sqlite3"))
    hub.folder.mkdir()
    hub.start(proxy)
    for s in students:
        hub.api("POST", f"users/{s.name}")
        s.token = hub.api("POST", f"users/{s.name}/tokens", json={
            "scopes": ["access:services!service=leonard-store"],
            "note": "class benchmark"})["token"]
        s.key = write_key(hub.write_secret(), s.name)
    return hub


def service_pid(hub: Any) -> int:
    """The store service's process (the hub's child running tutor.hub.store_service)."""
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                cmd = (entry / "cmdline").read_bytes()
            except OSError:
                continue
            if b"tutor.hub.store_service" in cmd and str(hub.home).encode() in (
                    entry / "environ").read_bytes():
                return int(entry.name)
    raise RuntimeError("the store service does not run")


def measure(n: int, moves: int, think: float, arrival: float, lesson: str,
            store: str = "file") -> Report:
    students = [Student(f"student-{k:02d}", seed=100 + k) for k in range(n)]
    hub = None
    env: dict[str, str] = {}
    args: list[str] = []
    tmp = Path(tempfile.mkdtemp(prefix=f"class-server-{store}-"))
    if store == "service":
        hub = start_store_service(tmp, students)
        site = tmp / "site"
        site.mkdir()
        (site / "sitecustomize.py").write_text(SITECUSTOMIZE, encoding="utf-8")
        env = {"LEONARD_TUTOR_DB": hub.service_url,
               "PYTHONPATH": os.pathsep.join(filter(None, [str(site), str(ROOT),
                                                           os.environ.get("PYTHONPATH")]))}
        args = [f"--VoilaConfiguration.http_header_envs={h}"
                for h in (STUDENT_HEADER, TOKEN_HEADER, KEY_HEADER)]
    service_cpu0 = cpu_s(service_pid(hub)) if hub is not None else 0.0
    try:
        proc, base, _tmp, db = start_class_server("class-server-", "XSRF cookie", args, env=env,
                                                  tmp=tmp)
    except BaseException:
        if hub is not None:
            hub.stop()
        raise
    if hub is not None:
        db = Path(hub.database)
    try:
        result = asyncio.run(run_class(base, proc.pid, students, lesson, moves, think,
                                       arrival))
        # A closed tab's shutdown request ends its kernel; none should be left.
        left = wait_for_kernels(proc.pid, LEAVE_TIMEOUT, want=0, poll=0.25)
    finally:
        stop_server(proc)
        service_cpu = (cpu_s(service_pid(hub)) - service_cpu0) if hub is not None else None
        if hub is not None:
            hub.stop()
    lost, sent, stored = lost_answers(db, students, "sent")
    clicks = [ms for s in students for ms in s.clicks_ms]
    answers = [ms for s in students for ms in s.answers_ms]

    peak = result["peak"]
    per_kernel = [k / 1024 for k in peak.get("kernels", [])]
    used = result["cpu"]
    if service_cpu is not None:  # the whole run's: the service does nothing but the class
        used["store service"] = service_cpu
    return Report(
        students=n, lesson=lesson, moves=moves, think_s=think, arrival_s=arrival,
        click_ms=stats(clicks), answer_ms=stats(answers),
        page_s=stats([s.page_s for s in students if s.page_s]), clicks=len(clicks),
        cpu_s=used,
        cpu_per_click_s={kind: sec / max(1, len(clicks)) for kind, sec in used.items()},
        peak_total_mib=peak.get("total", 0) / 1024, server_mib=peak.get("server", 0) / 1024,
        kernel_mib={"mean": sum(per_kernel) / max(1, len(per_kernel)),
                    "max": max(per_kernel, default=float("nan")),
                    "min": min(per_kernel, default=float("nan"))},
        kernels_while_playing=len(per_kernel), kernels_left=left,
        attempts_sent=sent, attempts_stored=stored, lost=lost,
        errors=[s.error for s in students if s.error]
        + [f"{s.name}: the closed tab's shutdown request failed"
           for s in students if s.kernel_id and not s.left],
        load_average=os.getloadavg()[0], store=store)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--students", type=int, default=10)
    parser.add_argument("--moves", type=int, default=12, help="moves each student plays")
    parser.add_argument("--think", type=float, default=0.5,
                        help="seconds a student looks before a click or an answer "
                             "(each time 0.5-1.5 × this, seeded)")
    parser.add_argument("--arrival", type=float, default=0.5,
                        help="seconds between two students opening their page")
    parser.add_argument("--lesson", default="04-times")
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    parser.add_argument("--check", action="store_true",
                        help="exit 1 if an attempt is lost, a student failed or a kernel is "
                             "left")
    parser.add_argument("--stores", default="file",
                        help="the stores to play the class on, in turn: file, service "
                             "(comma-separated; see the docstring)")
    args = parser.parse_args(argv)
    stores = [s.strip() for s in args.stores.split(",") if s.strip()]
    if not stores or set(stores) - {"file", "service"}:
        parser.error("--stores takes file, service or both")
    # A SIGTERM (a test's timeout) stops the server and its kernels on the way out.
    signal.signal(signal.SIGTERM, lambda *_a: sys.exit(143))
    reports = [measure(args.students, args.moves, args.think, args.arrival, args.lesson, store)
               for store in stores]
    if args.json:
        print(json.dumps([asdict(r) for r in reports] if len(reports) > 1
                         else asdict(reports[0]), indent=2))
    else:
        for report in reports:
            print_report(report)
        if len(reports) > 1:
            print("side by side (click → update p50 / p95 ms): " + "; ".join(
                f"{r.store} {r.click_ms['p50']:.0f} / {r.click_ms['p95']:.0f}" for r in reports)
                + f"; ratio {reports[1].store} ÷ {reports[0].store} at p95: "
                f"{reports[1].click_ms['p95'] / reports[0].click_ms['p95']:.2f}")
    return 1 if args.check and not all(r.ok() for r in reports) else 0


def print_report(report: Report) -> None:
    """The report in words."""
    c, a, p = report.click_ms, report.answer_ms, report.page_s
    print(f"[store: {report.store}] {report.students} simulated students (websocket "
          f"clients), lesson {report.lesson}, standalone Voilà; arriving "
          f"{report.arrival_s:.1f} s apart, {report.think_s:.1f} s think time, "
          f"{report.moves} moves each; load average {report.load_average:.1f}")
    print(f"click → update:    p50 {c['p50']:6.0f} ms  p95 {c['p95']:6.0f} ms  "
          f"max {c['max']:6.0f} ms  ({c['n']:.0f} clicks)   goal: p95 ≤ {GOAL_CLICK_MS} ms")
    print(f"answer → feedback: p50 {a['p50']:6.0f} ms  p95 {a['p95']:6.0f} ms  "
          f"max {a['max']:6.0f} ms  ({a['n']:.0f} answers)")
    print(f"page ready (GET → board playable): p50 {p['p50']:.1f} s  p95 {p['p95']:.1f} s")
    print("CPU while the class played: " + ", ".join(
        f"{kind} {sec:.1f} s ({report.cpu_per_click_s[kind] * 1000:.0f} ms per click)"
        for kind, sec in report.cpu_s.items()))
    km = report.kernel_mib
    print(f"memory at peak: {report.peak_total_mib:.0f} MiB in total (server "
          f"{report.server_mib:.0f} MiB + {report.kernels_while_playing} kernels, "
          f"{km['mean']:.0f} MiB each, {km['min']:.0f}-{km['max']:.0f})   goal: ≤ "
          f"{GOAL_KERNEL_MIB} MiB per kernel")
    print(f"kernels left after the students left: {report.kernels_left}")
    print(f"attempts sent {report.attempts_sent}, stored {report.attempts_stored}: "
          + ("nothing lost" if not report.lost else "; ".join(report.lost)))
    for e in report.errors:
        print("error:", e)


if __name__ == "__main__":
    sys.exit(main())
