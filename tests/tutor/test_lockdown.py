"""The lockdown of a student's server (issue 41 parts 1 and 4), without a hub: which requests
it answers, and where it acts. A real hub's server refusing each attack is in
``tests/browser/test_hub.py``."""

from __future__ import annotations

import pytest

from tutor.classroom.request import locked_down, page_status_url

pytest.importorskip("jupyter_server")
from tutor.hub.lockdown import PAGE_MESSAGES, allowed  # noqa: E402

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
