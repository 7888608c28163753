"""Where a click's CPU goes on the play page, and what it sends (issue 35 part 4).

    python benchmarks/click_cpu.py [--seeds 3] [--moves 12] [--lesson 04-times] [--json]
                                   [--profile N]

Each seed runs in a fresh Python: the play page's app (``tutor.ui.play.entry.dashboard``, as
``notebooks/Play.ipynb`` makes it, with a throwaway progress file) plays a lesson the way
``benchmarks/class_server.py``'s simulated student does (seeds 100, 101, … as there): a click
on the first move button that is not a draw or a pass, the right answer to each question (the
box's value, the box cleared, the access layer's ``submit``), ``--moves`` clicks, stopping at
the round's end. What a live kernel runs later runs too, in an asyncio loop whose sleeps are
zero: the bots' paced steps after a click and the scores' count-up after an answer.

The widgets' comms are recorded as ipykernel sends them: each message is cleaned, signed and
serialised by a ``jupyter_client`` session (the kernel's own work per message), and counted
with its bytes (header, parent header, metadata, content and binary buffers: about what the
server relays to the page). Each message the page sends is signed, serialised and read back
as the kernel does, with the ``busy``/``idle`` status pair the kernel publishes around it.

Everything is CPU time (``time.process_time``), never wall time: the machine is shared. The
report is per click, as ``class_server.py``'s "kernel CPU per click" is (all the kernel's
work while the class plays, divided by the clicks):

- by what set it off: the click itself (its message, the move, the redraw), what follows it
  (the bots' steps, the forced draws), the answers and what follows them (count-up frames);
- by phase, each counted once (a phase inside another is taken out of the outer one): the
  session (engine, questions, narration), the snapshot, each panel's render, the board's
  canvas drawing and its batch, the ARIA attributes, the comm messages' serialising, and
  the widget machinery around them (traitlets, ipywidgets state) as "widgets (other)";
- messages and bytes per click, by widget model and trait (``HTML.value``, a canvas's
  drawing buffers …), so a panel that sends more than it changed shows.

``--real-kernel``: the same student in a real ipykernel (no server), its process's CPU per
click read from ``/proc`` (10 ms ticks: use several seeds) from each message until what it
set off is over: the in-process figures above leave out ipykernel's own work per message
(reading it off ZMQ, the status pair, the IOPub thread), which this includes.

``--profile N``: also the N functions with the most own CPU under cProfile (one seed; the
profiler's overhead inflates small functions, so the phase split above is the measure).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

from serving import run_child

ROOT = Path(__file__).resolve().parents[1]
REST = "widgets (other: traitlets, ipywidgets state, glue)"

CHILD = r'''
import asyncio, cProfile, io, json, os, pstats, sys, time, uuid
from collections import defaultdict
from types import SimpleNamespace

clock = time.process_time
SEED, MOVES = int(os.environ["CC_SEED"]), int(os.environ["CC_MOVES"])
LESSON = os.environ["CC_LESSON"]
PROFILE = int(os.environ.get("CC_PROFILE", "0"))

# --- phases: exclusive CPU time by name ----------------------------------------------------
phase_cpu = defaultdict(float)
stack = []  # [name, start, child]


def enter(name):
    stack.append([name, clock(), 0.0])


def leave():
    name, start, child = stack.pop()
    spent = clock() - start
    phase_cpu[name] += spent - child
    if stack:
        stack[-1][2] += spent


def timed(name, fn):
    def run(*a, **k):
        enter(name)
        try:
            return fn(*a, **k)
        finally:
            leave()
    run.__wrapped__ = fn
    run.__name__ = getattr(fn, "__name__", "run")
    return run


def wrap(owner, attr, name):
    setattr(owner, attr, timed(name, getattr(owner, attr)))


# --- Python's garbage collector: its pauses are a phase of their own --------------------
import gc

gc_runs = defaultdict(int)


def _collecting(phase, info):
    if phase == "start":
        enter("garbage collection")
    else:
        leave()
        gc_runs[info["generation"]] += 1


gc.callbacks.append(_collecting)

# --- the kernel's side of the comms ---------------------------------------------------------
import comm
import comm.base_comm
from jupyter_client.session import Session as WireSession
from ipykernel.jsonutil import json_clean

wire = WireSession(key=uuid.uuid4().hex.encode(), username="kernel")
parent = {"header": {}}
sent = defaultdict(lambda: [0, 0])  # (model, trait) -> [messages, bytes]
kind_msgs = defaultdict(lambda: [0, 0])  # action kind -> [messages, bytes]
current_kind = ["setup"]
model_names = {}


class Socket:
    def send_multipart(self, parts, copy=True):
        # [ident, delimiter, signature, header, parent header, metadata, content, buffers…]
        self.last = sum(memoryview(p).nbytes for p in parts[3:])  # a buffer's bytes


socket = Socket()


def _what(msg_type, data):
    if data.get("method") == "update" and "_dom_classes" in data.get("state", {}):
        classes = [c for c in data["state"]["_dom_classes"] if c.startswith("ld-")]
        base = model_names.get(data["_comm_id"], "?").split(" ")[0]
        model_names[data["_comm_id"]] = base + (f" .{classes[0]}" if classes else "")
    model = model_names.get(data.get("_comm_id", ""), "?")
    if msg_type == "comm_open":
        return model, "(open)"
    method = data.get("method", "")
    if method == "update":
        return model, ",".join(sorted(data.get("state", {})))
    if method == "custom":
        c = data.get("content")
        event = c.get("event", c.get("method", "?")) if isinstance(c, dict) else "?"
        return model, "custom:" + event
    return model, method or msg_type


class RecordingComm(comm.base_comm.BaseComm):
    def publish_msg(self, msg_type, data=None, metadata=None, buffers=None, **keys):
        enter("comm messages (serialise, sign)")
        try:
            data = {} if data is None else data
            content = json_clean(dict(data=data, comm_id=self.comm_id, **keys))
            wire.send(socket, msg_type, content, metadata=json_clean(metadata or {}),
                      parent=parent, ident=b"comm-" + self.comm_id.encode(), buffers=buffers)
        finally:
            leave()
        if msg_type == "comm_open":
            state = data.get("state") or {}
            classes = [c for c in state.get("_dom_classes") or () if c.startswith("ld-")]
            model_names[self.comm_id] = state.get("_model_name", "?").replace("Model", "") + (
                f" .{classes[0]}" if classes else "")
        where = _what(msg_type, {**data, "_comm_id": self.comm_id})
        for table, key in ((sent, where), (kind_msgs, current_kind[0])):
            table[key][0] += 1
            table[key][1] += socket.last


comm.create_comm = lambda **kw: RecordingComm(**kw)


def incoming(widget, data):
    """A message from the page to ``widget``: what the kernel does with it (read and check
    it, say busy, hand it to the widget, say idle)."""
    global parent
    enter("kernel message in (read, status)")
    msg = wire.msg("comm_msg", {"comm_id": widget.comm.comm_id, "data": data})
    parts = wire.serialize(msg)
    msg = wire.deserialize(parts[1:])  # [delimiter, signature, …]: from the signature on
    parent = msg
    for state in ("busy", "idle"):
        wire.send(socket, "status", {"execution_state": state}, parent=parent, ident=b"status")
        kind_msgs[current_kind[0]][0] += 1
        kind_msgs[current_kind[0]][1] += socket.last
        sent[("(kernel)", "status")][0] += 1
        sent[("(kernel)", "status")][1] += socket.last
        if state == "busy":
            leave()
            widget._handle_msg(msg)
            enter("kernel message in (read, status)")
    leave()


# --- a live kernel's loop, with zero sleeps -----------------------------------------------
import IPython.core.getipython as getipython
getipython.get_ipython = lambda: SimpleNamespace(kernel=object())
real_sleep = asyncio.sleep


async def no_sleep(_delay, result=None):
    await real_sleep(0)
    return result

asyncio.sleep = no_sleep

# --- the phases -----------------------------------------------------------------------------
from tutor.session.game_loop import GameLoop
from tutor.session.session import Session
import tutor.ui.play.app as app_mod
import tutor.ui.play.board as board_mod
import tutor.ui.play.scores as scores_mod
from tutor.ui.play import header
from tutor.ui.play import log
from tutor.ui.play import moves
from tutor.ui.play import question
from tutor.ui.play import round_end
from tutor.ui.play import scores
from tutor.ui.play import sheet
from tutor.ui.play import skills

for attr in ("apply_action", "answer", "reveal", "hint", "legal_actions", "describe",
             "waiting", "new_round"):
    wrap(Session, attr, "session (engine, questions, narration)")
wrap(GameLoop, "bot_move", "session (engine, questions, narration)")
wrap(Session, "snapshot", "snapshot")
wrap(board_mod, "paint_table", "board: canvas drawing (felt layer)")
wrap(board_mod, "paint_tiles", "board: canvas drawing (tiles layer)")
wrap(board_mod, "paint_marks", "board: canvas drawing (marks layer)")
wrap(board_mod.Board, "repaint", "board: canvas batch (hold_canvas)")
wrap(board_mod, "layout", "board: layout")
wrap(board_mod, "board_words_html", "board: words (screen reader)")
wrap(board_mod.BoardPanel, "render", "board: render (rest)")
wrap(moves.MovesPanel, "render", "moves panel")
wrap(header.Status, "render", "status line")
wrap(header.LessonLine, "render", "lesson line")
wrap(scores.ScoresPanel, "render", "scores panel")
wrap(scores_mod, "scores_html", "scores panel")
wrap(skills.SkillsPanel, "render", "skills panel")
wrap(log.LogPanel, "render", "log panel")
wrap(question.TutorPanel, "render", "tutor panel")
wrap(question.AnsweredCard, "show", "answered card")
wrap(round_end.RoundEndPanel, "render", "round end panel")
wrap(sheet.SheetPanel, "render", "sheet panel")
wrap(app_mod.TutorApp, "_send_attributes", "ARIA attributes")
wrap(app_mod.TutorApp, "_follow", "focus and announcements")
wrap(app_mod.TutorApp, "_announce", "focus and announcements")

# --- the page --------------------------------------------------------------------------------
from tutor.ui.play.entry import dashboard

app = access = None


async def drain():
    me = asyncio.current_task()
    await real_sleep(0)  # what the loop was asked to call soon (warm_up, …)
    while any(t is not me and not t.done() for t in asyncio.all_tasks()):
        await real_sleep(0)


cpu = defaultdict(float)
count = defaultdict(int)


async def act(kind, fn):
    """``fn()`` (the page's message) as ``kind``, then what it sets off as ``kind + " → after"``."""
    for k, run in ((kind, fn), (kind + " → after", drain)):
        current_kind[0] = k
        enter(k)
        t0 = clock()
        r = run()
        if asyncio.iscoroutine(r):
            await r
        cpu[k] += clock() - t0
        leave()
    current_kind[0] = "between"
    count[kind] += 1


def choices():
    return [b for _k, (_m, b) in app.moves._shown.items() if b.tooltip not in ("draw", "pass")]


async def main():
    global app, access
    # Made inside the running loop, as the notebook's cell runs in the kernel's: the app
    # paces its bots and calls warm_up soon after.
    app = dashboard(LESSON, lang="en", seed=SEED, student=f"student-{SEED}")
    access = app.access
    await drain()  # warm_up, the first bot steps
    # What a page says once its widgets are drawn.
    for layer in app.board.canvas._canvases:
        incoming(layer, {"method": "custom", "content": {"event": "client_ready"}})
    incoming(access, {"method": "custom", "content": {"event": "width", "value": 1280}})
    await drain()
    for table in (phase_cpu, sent, kind_msgs, gc_runs):
        table.clear()
    prof = cProfile.Profile() if PROFILE else None
    if prof:
        prof.enable()
    clicks = 0
    while clicks < MOVES:
        s = app.session
        q = s.pending_question
        if q is not None:
            answer = str(q.expected)
            box = app.answer_in

            def answering():
                incoming(box, {"method": "update", "state": {"value": answer},
                               "buffer_paths": []})
                incoming(box, {"method": "update", "state": {"value": ""}, "buffer_paths": []})
                incoming(access, {"method": "custom",
                                  "content": {"event": "submit", "value": answer}})
            await act("answer", answering)
            continue
        if s.round.over:
            break
        found = choices()
        if not found:
            raise SystemExit("no move to click and no question")
        button = found[0]
        await act("click", lambda: incoming(button, {"method": "custom",
                                                     "content": {"event": "click"}}))
        clicks += 1
    if prof:
        prof.disable()
    top = ""
    if prof:
        out = io.StringIO()
        pstats.Stats(prof, stream=out).sort_stats("tottime").print_stats(PROFILE)
        top = out.getvalue()
    print(json.dumps({
        "clicks": clicks, "count": dict(count), "cpu": dict(cpu), "phases": dict(phase_cpu),
        "sent": [[m, t, n, b] for (m, t), (n, b) in sent.items()],
        "kinds": {k: v for k, v in kind_msgs.items()}, "profile": top,
        "full_collections": gc_runs[2]}))


asyncio.run(main())
'''


KERNEL_SETUP = r"""
import json
from tutor.ui.play.entry import dashboard
_app = dashboard(%(lesson)r, lang="en", seed=%(seed)d, student="student-%(seed)d")


def _next():
    s = _app.session
    q = s.pending_question
    if q is not None:
        return json.dumps({"kind": "answer", "box": _app.answer_in.model_id,
                           "access": _app.access.model_id, "value": str(q.expected)})
    if s.round.over:
        return json.dumps({"kind": "over"})
    found = [b for _k, (_m, b) in _app.moves._shown.items()
             if b.tooltip not in ("draw", "pass")]
    return json.dumps({"kind": "click", "button": found[0].model_id} if found else
                      {"kind": "wait"})


def _drawn():
    return json.dumps({"layers": [c.model_id for c in _app.board.canvas._canvases],
                       "access": _app.access.model_id})
"""
SETTLE = {"click": 2.0, "answer": 2.6, "wait": 1.0}
"""Seconds after a page's message for what it sets off in a live kernel to be over (the bots'
paced steps, 0.5 s each; the scores' count-up, 1.5 s)."""


def real_kernel(seed: int, moves: int, lesson: str) -> dict[str, Any]:
    """The same student in a real ipykernel (no server): the page's messages sent on the
    kernel's shell channel as the page sends them, the kernel process's CPU (``/proc``) from
    just before each message until what it set off is over, and the messages the kernel
    published meanwhile (IOPub, status messages included) with their bytes."""
    import os
    import tempfile
    import time

    from bench_browser import cpu_s
    from jupyter_client.manager import start_new_kernel

    with tempfile.TemporaryDirectory() as tmp:
        env = {**os.environ, "LEONARD_TUTOR_DB": str(Path(tmp) / "progress.sqlite3"),
               "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}
        km, kc = start_new_kernel(kernel_name="python3", env=env, cwd=tmp)
        try:
            pid = km.provisioner.process.pid  # type: ignore[union-attr]

            def run_code(code: str) -> str:
                out: list[str] = []
                kc.execute_interactive(code, timeout=120, output_hook=lambda m: out.append(
                    m["content"].get("text", "") if m["msg_type"] == "stream" else
                    str(m["content"].get("data", {}).get("text/plain", ""))
                    if m["msg_type"] == "execute_result" else ""))
                return "".join(out).strip().strip("'")

            run_code(KERNEL_SETUP % {"lesson": lesson, "seed": seed})
            time.sleep(3.0)  # warm_up, the first bot steps
            drawn = json.loads(run_code("print(_drawn())"))

            def drained() -> tuple[int, int]:
                n = b = 0
                while kc.iopub_channel.msg_ready():
                    raw = kc.iopub_channel.socket.recv_multipart()
                    n += 1
                    b += sum(len(p) for p in raw[3:])  # ident, delimiter, signature out
                return n, b

            def comm(model: str, data: dict[str, Any]) -> None:
                kc.shell_channel.send(kc.session.msg("comm_msg", {"comm_id": model,
                                                                  "data": data}))

            # What a page says once its widgets are drawn.
            for layer in drawn["layers"]:
                comm(layer, {"method": "custom", "content": {"event": "client_ready"}})
            comm(drawn["access"], {"method": "custom", "content": {"event": "width",
                                                                   "value": 1280}})
            time.sleep(1.0)
            clicks = answers = 0
            cpu = {"click": 0.0, "answer": 0.0}
            msgs = {"click": [0, 0], "answer": [0, 0]}
            while clicks < moves:
                step = json.loads(run_code("print(_next())"))
                if step["kind"] == "over":
                    break
                time.sleep(0.3)
                drained()
                c0 = cpu_s(pid)
                if step["kind"] == "click":
                    comm(step["button"], {"method": "custom", "content": {"event": "click"}})
                    clicks += 1
                elif step["kind"] == "answer":
                    for value in (step["value"], ""):
                        comm(step["box"], {"method": "update", "state": {"value": value},
                                           "buffer_paths": []})
                    comm(step["access"], {"method": "custom", "content": {
                        "event": "submit", "value": step["value"]}})
                    answers += 1
                time.sleep(SETTLE[step["kind"]])
                if step["kind"] in cpu:
                    cpu[step["kind"]] += cpu_s(pid) - c0
                    n, b = drained()
                    msgs[step["kind"]][0] += n
                    msgs[step["kind"]][1] += b
            # The closed tab: the kernel is asked to shut down; its CPU until it is gone.
            c0 = last = cpu_s(pid)
            km.request_shutdown()
            deadline = time.monotonic() + 30
            while km.is_alive() and time.monotonic() < deadline:
                last = max(last, cpu_s(pid))
                time.sleep(0.01)
            shutdown = last - c0
        finally:
            kc.stop_channels()
            km.shutdown_kernel(now=True)
    return {"clicks": clicks, "answers": answers, "cpu": cpu, "messages": msgs,
            "shutdown": shutdown}


def measure_real(seeds: int, moves: int, lesson: str) -> dict[str, Any]:
    clicks = answers = 0
    shutdown = 0.0
    cpu = {"click": 0.0, "answer": 0.0}
    msgs = {"click": [0, 0], "answer": [0, 0]}
    for k in range(seeds):
        out = real_kernel(100 + k, moves, lesson)
        shutdown += out["shutdown"]
        clicks += out["clicks"]
        answers += out["answers"]
        for kind in cpu:
            cpu[kind] += out["cpu"][kind]
            msgs[kind][0] += out["messages"][kind][0]
            msgs[kind][1] += out["messages"][kind][1]
    per = max(1, clicks)
    return {"seeds": seeds, "moves": moves, "lesson": lesson, "clicks": clicks,
            "answers": answers,
            "kernel_cpu_ms_per_click": 1000 * sum(cpu.values()) / per,
            "by_cause_ms_per_click": {k: 1000 * v / per for k, v in cpu.items()},
            "iopub_messages_per_click": sum(n for n, _b in msgs.values()) / per,
            "iopub_kib_per_click": sum(b for _n, b in msgs.values()) / per / 1024,
            "shutdown_cpu_ms_per_kernel": 1000 * shutdown / max(1, seeds)}


def run(seed: int, moves: int, lesson: str, profile: int = 0) -> dict[str, Any]:
    return run_child(CHILD, {"CC_SEED": str(seed), "CC_MOVES": str(moves), "CC_LESSON": lesson,
                             "CC_PROFILE": str(profile)})


def measure(seeds: int, moves: int, lesson: str, profile: int = 0) -> dict[str, Any]:
    """The seeds' runs summed, per click: CPU ms by cause and by phase, messages and bytes."""
    clicks = 0
    count: dict[str, int] = defaultdict(int)
    cpu: dict[str, float] = defaultdict(float)
    phases: dict[str, float] = defaultdict(float)
    sent: dict[tuple[str, str], list[int]] = defaultdict(lambda: [0, 0])
    kinds: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    top = ""
    full = 0
    for k in range(seeds):
        out = run(100 + k, moves, lesson, profile if k == 0 else 0)
        clicks += out["clicks"]
        full += out["full_collections"]
        top = top or out["profile"]
        for name, n in out["count"].items():
            count[name] += n
        for name, s in out["cpu"].items():
            cpu[name] += s
        for name, s in out["phases"].items():
            phases[name] += s
        for model, trait, n, b in out["sent"]:
            sent[(model, trait)][0] += n
            sent[(model, trait)][1] += b
        for name, (n, b) in out["kinds"].items():
            kinds[name][0] += n
            kinds[name][1] += b
    per = max(1, clicks)
    # What is left of a cause once its phases are out: the widgets' machinery around them.
    by_phase: dict[str, float] = defaultdict(float)
    for name, s in phases.items():
        by_phase[REST if name in cpu else name] += s
    total = sum(cpu.values())
    messages = sum(n for n, _b in kinds.values())
    size = sum(b for _n, b in kinds.values())
    return {
        "seeds": seeds, "moves": moves, "lesson": lesson, "clicks": clicks,
        "answers": count.get("answer", 0), "full_collections": full,
        "cpu_ms_per_click": 1000 * total / per,
        "by_cause_ms_per_click": {k: 1000 * v / per for k, v in sorted(cpu.items())},
        "by_phase_ms_per_click": {k: 1000 * v / per for k, v in
                                  sorted(by_phase.items(), key=lambda kv: -kv[1])},
        "messages_per_click": messages / per,
        "kib_per_click": size / per / 1024,
        "by_cause_messages_per_click": {k: {"messages": n / per, "kib": b / per / 1024}
                                        for k, (n, b) in sorted(kinds.items())},
        "by_model_per_click": [
            {"model": m, "what": t, "messages": n / per, "kib": b / per / 1024}
            for (m, t), (n, b) in sorted(sent.items(), key=lambda kv: -kv[1][1])],
        "profile": top,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", type=int, default=3)
    parser.add_argument("--moves", type=int, default=12)
    parser.add_argument("--lesson", default="04-times")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--profile", type=int, default=0, metavar="N",
                        help="also the N functions with the most own CPU (cProfile, one seed)")
    parser.add_argument("--real-kernel", action="store_true",
                        help="play in a real ipykernel instead (slower: the bots' pace is "
                             "waited out) and report its process's CPU per click")
    args = parser.parse_args(argv)
    if args.real_kernel:
        real = measure_real(args.seeds, args.moves, args.lesson)
        if args.json:
            print(json.dumps(real, indent=2))
        else:
            print(f"real ipykernel, lesson {real['lesson']}, {real['seeds']} seeds, "
                  f"{real['clicks']} clicks, {real['answers']} answers: kernel CPU "
                  f"{real['kernel_cpu_ms_per_click']:.1f} ms per click ("
                  + ", ".join(f"{k} {v:.1f}" for k, v in real["by_cause_ms_per_click"].items())
                  + f"); IOPub {real['iopub_messages_per_click']:.1f} messages, "
                  f"{real['iopub_kib_per_click']:.1f} KiB per click; a kernel's shutdown "
                  f"{real['shutdown_cpu_ms_per_kernel']:.0f} CPU ms")
        return 0
    r = measure(args.seeds, args.moves, args.lesson, args.profile)
    if args.json:
        print(json.dumps(r, indent=2))
        return 0
    print(f"lesson {r['lesson']}, {r['seeds']} seeds, {r['clicks']} clicks, {r['answers']} "
          f"answers: kernel CPU {r['cpu_ms_per_click']:.1f} ms per click; "
          f"{r['messages_per_click']:.1f} messages, {r['kib_per_click']:.1f} KiB per click; "
          f"{r['full_collections']} full garbage collections")
    print("\nCPU ms per click, by what set it off:")
    for k, v in r["by_cause_ms_per_click"].items():
        m = r["by_cause_messages_per_click"].get(k, {"messages": 0, "kib": 0})
        print(f"  {k:28s} {v:6.2f} ms   {m['messages']:5.1f} msgs {m['kib']:6.2f} KiB")
    print("\nCPU ms per click, by phase:")
    for k, v in r["by_phase_ms_per_click"].items():
        print(f"  {k:42s} {v:6.2f}")
    print("\nmessages per click, by widget model and what they carry:")
    for row in r["by_model_per_click"][:25]:
        print(f"  {row['model'][:30]:30s} {row['what'][:36]:36s} {row['messages']:5.2f} msgs "
              f"{row['kib']:6.2f} KiB")
    if r["profile"]:
        print("\n" + r["profile"])
    return 0


if __name__ == "__main__":
    sys.exit(main())
