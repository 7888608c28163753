"""The lockdown of a student's server (issue 41 parts 1 and 4), without a hub: which requests
it answers, and where it acts. A real hub's server refusing each attack is in
``tests/browser/test_hub.py``."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Callable
from types import SimpleNamespace
from typing import Any

import pytest
from tornado.httputil import HTTPHeaders, HTTPServerRequest, RequestStartLine

from tutor.classroom.request import locked_down, page_status_url

pytest.importorskip("jupyter_server")
from tutor.hub.lockdown import KERNEL_CAP, PAGE_MESSAGES, Lockdown, allowed  # noqa: E402

BASE = "/user/ana/"
KERNEL = "0b7e52b4-5d3a-4c0e-9a57-0c6d1e2f3a4b"


@pytest.mark.parametrize(("method", "path"), [
    ("GET", ""), ("GET", "voila/render/Play.ipynb"), ("HEAD", "voila/render/Lessons.ipynb"),
    ("GET", "voila/static/voila.js"), ("GET", "voila/labextensions/x/y.js"),
    ("GET", "voila/api/themes/theme-light/index.css"),
    ("POST", f"voila/api/shutdown/{KERNEL}"), ("GET", f"api/kernels/{KERNEL}"),
    ("GET", f"api/kernels/{KERNEL}/channels"), ("GET", "static/favicon.ico"),
    ("GET", "oauth_callback"), ("GET", f"leonard/page/{KERNEL}"),
])
def test_a_pages_requests_are_answered(method: str, path: str) -> None:
    assert allowed(method, BASE + path, BASE)


@pytest.mark.parametrize(("method", "path"), [
    ("POST", "api/kernels"), ("GET", "api/kernels"), ("DELETE", f"api/kernels/{KERNEL}"),
    ("POST", f"api/kernels/{KERNEL}/restart"), ("POST", f"api/kernels/{KERNEL}/interrupt"),
    ("POST", "api/sessions"), ("GET", "api/sessions"), ("POST", "api/terminals"),
    ("GET", "terminals/websocket/1"), ("GET", "lab"), ("GET", "lab/tree/x.ipynb"),
    ("GET", "tree"), ("GET", "notebooks/x.ipynb"), ("GET", "api/contents"),
    ("PUT", "api/contents/x.py"), ("GET", "files/Play.ipynb"), ("GET", "edit/x.py"),
    ("GET", "voila/tree"), ("GET", "voila/api/contents"), ("GET", "api/kernelspecs"),
    ("POST", "voila/render/Play.ipynb"), ("GET", f"api/kernels/{KERNEL}x/channels"),
    ("GET", "/user/beto/voila/render/Play.ipynb"),
])
def test_everything_else_is_refused(method: str, path: str) -> None:
    full = path if path.startswith("/") else BASE + path
    assert not allowed(method, full, BASE)


def test_a_page_sends_its_kernel_only_widget_messages() -> None:
    assert "execute_request" not in PAGE_MESSAGES
    assert {"comm_open", "comm_msg", "comm_close", "kernel_info_request"} <= set(PAGE_MESSAGES)


def test_it_acts_only_in_a_students_server_of_a_class_hub() -> None:
    hub = {"JUPYTERHUB_API_TOKEN": "t", "JUPYTERHUB_USER": "ana"}
    assert locked_down({**hub, "LEONARD_LOCKDOWN": "1"})
    assert not locked_down(hub)  # Binder: a hub's server the student owns
    assert not locked_down({"LEONARD_LOCKDOWN": "1"})  # no hub
    assert not locked_down({**hub, "LEONARD_LOCKDOWN": "1", "LEONARD_FULL_SERVER": "1"})
    env = {**hub, "LEONARD_LOCKDOWN": "1", "VOILA_BASE_URL": "/user/ana/"}
    assert page_status_url(env, lambda: KERNEL) == f"/user/ana/leonard/page/{KERNEL}"
    assert page_status_url({**hub, "VOILA_BASE_URL": "/user/ana/"}, lambda: KERNEL) == ""
    assert page_status_url(env, lambda: None) == ""


class _Kernels:
    """The server's kernel manager as the lockdown sees it; a start takes a while (it yields
    to the loop, as a real kernel's start waits for the kernel), and may fail."""

    def __init__(self, fail: bool = False) -> None:
        self.running: dict[str, dict[str, str]] = {}
        self.fail = fail

    async def start_kernel(self, *, kernel_id: str | None = None,
                           env: dict[str, str] | None = None, **kwargs: object) -> str:
        for _ in range(3):
            await asyncio.sleep(0)
        if self.fail:
            raise RuntimeError("the kernel died as it started")
        kernel_id = kernel_id or str(uuid.uuid4())
        self.running[kernel_id] = dict(env or {})
        return kernel_id

    def list_kernel_ids(self) -> list[str]:
        return list(self.running)


def _lockdown(kernels: _Kernels) -> Lockdown:
    server = SimpleNamespace(base_url=BASE, kernel_manager=kernels)
    lockdown = Lockdown(server, env={})  # type: ignore[arg-type]
    lockdown.watch_starts()
    return lockdown


def _get(uri: str) -> HTTPServerRequest:
    return HTTPServerRequest(start_line=RequestStartLine("GET", uri, "HTTP/1.1"),
                             headers=HTTPHeaders({"Host": "127.0.0.1"}))


async def _open_tab(lockdown: Lockdown, n: int) -> str:
    """One tab opening a page as Voilà serves it: the request is routed (let in, or the cap
    page), Voilà reads the notebook, then starts the page's kernel; the request ends."""
    request = _get(f"{BASE}voila/render/Play.ipynb?tab={n}")
    if not lockdown.admit(request):
        return "cap page"
    try:
        await asyncio.sleep(0)  # the notebook read and the template, before the kernel
        return str(await lockdown.kernels.start_kernel(
            kernel_name="python3", env={"SCRIPT_NAME": request.path,
                                        "QUERY_STRING": request.query}))
    finally:
        lockdown.release(request)


def test_twenty_tabs_opened_at_once_get_the_caps_kernels_and_the_rest_the_cap_page(
        own_thread: Callable[[Callable[[], Any]], Any]) -> None:
    """Issue 51 part 4: a burst of 20 tabs, all routed before any kernel exists."""
    kernels = _Kernels()
    lockdown = _lockdown(kernels)

    async def burst() -> list[str]:
        return await asyncio.gather(*(_open_tab(lockdown, n) for n in range(20)))

    shown = own_thread(lambda: asyncio.run(burst()))
    assert len(kernels.running) == KERNEL_CAP == 3
    assert shown.count("cap page") == 17
    assert {k for k in shown if k != "cap page"} == set(kernels.running)
    assert lockdown.occupied() == 3 and not lockdown.held and not lockdown.starting
    # Each kernel is known by its page (the cap page names them).
    assert sorted(p.query for p in lockdown.pages.values()) == sorted(
        kernels.running[k]["QUERY_STRING"] for k in kernels.running)
    # A tab closed (its kernel shut): the next page fits, one only.
    kernels.running.pop(next(iter(kernels.running)))
    again = own_thread(lambda: asyncio.run(burst()))
    assert again.count("cap page") == 19 and len(kernels.running) == 3


def test_a_failed_start_or_a_request_without_a_kernel_gives_its_slot_back(
        own_thread: Callable[[Callable[[], Any]], Any]) -> None:
    kernels = _Kernels(fail=True)
    lockdown = _lockdown(kernels)

    async def burst() -> list[BaseException | str]:
        return await asyncio.gather(*(_open_tab(lockdown, n) for n in range(5)),
                                    return_exceptions=True)

    shown = own_thread(lambda: asyncio.run(burst()))
    assert sum(isinstance(s, RuntimeError) for s in shown) == 3
    assert lockdown.occupied() == 0 and not lockdown.full()
    # A page request that ends before its kernel (a redirect, an error): its slot is free.
    request = _get(f"{BASE}voila/render/Play.ipynb")
    assert lockdown.admit(request) and lockdown.occupied() == 1
    lockdown.release(request)
    assert lockdown.occupied() == 0
