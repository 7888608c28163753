"""A student's server on a class hub serves the tutor's pages and nothing else (issue 41 parts
1 and 4): a Jupyter Server extension, the mechanism ``deploy/`` chooses and says why.

Under JupyterHub, Voilà runs as an extension of the student's own Jupyter Server, and that
server's ordinary handlers accept anything its user sends: a new kernel (``POST
api/kernels``), code to run on a page's kernel (``execute_request`` on its websocket), a
terminal, JupyterLab, the file browser. Standalone Voilà limits the kernel's messages; the
server extension does not. This extension, loaded in the student's server, makes it standalone
Voilà's equal and more:

* **Only the pages' routes answer.** A rule put before every other handler refuses (403)
  any request outside :data:`ALLOWED`: Voilà's pages, their static files, the websocket of
  a page's kernel, Voilà's shutdown of a closed tab, the hub's login callback, and this
  extension's own page status. Kernels, sessions, terminals, contents, JupyterLab, the
  tree: refused, whichever extensions the environment has installed (an allow-list, not a
  list of what to refuse).
* **Only the page's messages reach a kernel.** ``allowed_message_types`` is Voilà's own list
  (:data:`PAGE_MESSAGES`): widget comms and the kernel's info; an ``execute_request`` is
  dropped by the server before it reaches the kernel.
* **A few pages at once** (:data:`KERNEL_CAP`, ``$LEONARD_KERNEL_CAP``): a page opened past the
  cap first frees the kernels of tabs already closed (no connection, idle a while); if the
  student really has that many pages open, they get a page in their language naming them,
  the one used longest ago first, and saying to close one. The cap holds under a burst (issue
  51 part 4: 20 tabs opened in the same second): Voilà starts a page's kernel a while after
  the request came in, so counting the running kernels alone let every tab of a burst in. A
  page request takes a slot when it is let in (:meth:`Lockdown.admit`, synchronously, as the
  request is routed), the slot passes to its kernel when Voilà starts it, and it is given
  back when the request ends without a kernel (an error, a redirect) or the start fails.
* **Idle tabs are closed** after ``$LEONARD_IDLE_TAB_MINUTES`` (:data:`IDLE_TAB_MINUTES`)
  without a message, and a closed tab's kernel after :data:`CLOSED_TAB_MINUTES`; a page
  that comes back asks :class:`PageStatus` and says it was closed and how to go on.

It acts only in a server a class hub started and asked for it (``$JUPYTERHUB_API_TOKEN`` and
``$LEONARD_LOCKDOWN=1``, both set by the hub: ``deploy/tljh/leonard.py``), and not for a user
the hub gives a full server (``$LEONARD_FULL_SERVER=1``, which that file sets for teachers
when the school wants it). Binder's servers are a hub's too, but the student owns the whole
container there: no lock. The hub enables the extension for every server
(``--ServerApp.jpserver_extensions=tutor.hub.lockdown=True`` in the spawner's arguments), and
its other settings come from the spawner's environment, which only the hub sets.
"""

from __future__ import annotations

import html
import os
import re
import time
import uuid
import weakref
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import TYPE_CHECKING, Protocol, cast
from urllib.parse import parse_qsl

import tornado.web
from jupyter_server.base.handlers import JupyterHandler
from tornado.httputil import HTTPServerRequest
from tornado.ioloop import PeriodicCallback
from tornado.routing import Matcher, Rule

from tutor.classroom.request import (
    FULL_SERVER_ENV,
    IDLE_TAB_DEFAULT,
    LOCKDOWN_ENV,
    idle_tab_minutes,
    locked_down,
)
from tutor.i18n import N_, SUPPORTED, ngettext, normalize_lang, translator

if TYPE_CHECKING:
    from jupyter_server.serverapp import ServerApp
    from jupyter_server.services.kernels.kernelmanager import MappingKernelManager

__all__ = ["ALLOWED", "CLOSED_TAB_MINUTES", "FULL_SERVER_ENV", "IDLE_TAB_MINUTES",
           "KERNEL_CAP", "LOCKDOWN_ENV", "PAGE_MESSAGES", "Lockdown", "active", "allowed"]

PAGE_MESSAGES = ("comm_open", "comm_close", "comm_msg", "comm_info_request",
                 "kernel_info_request", "shutdown_request")
"""The messages a page may send its kernel: standalone Voilà's own list (``voila/app.py``)."""
KERNEL_CAP = 3
"""Pages (kernels) a student may have open at once; ``$LEONARD_KERNEL_CAP`` changes it. A
page's kernel holds about 100 MiB (``benchmarks/kernel_memory.py``); ``deploy/`` sizes the
memory limit from this."""
IDLE_TAB_MINUTES = IDLE_TAB_DEFAULT
"""An open tab's kernel that had no message for this long is closed
(``$LEONARD_IDLE_TAB_MINUTES``, :func:`tutor.classroom.request.idle_tab_minutes`): its page
says so when the student comes back."""
CLOSED_TAB_MINUTES = 5
"""A kernel no page is connected to (a tab closed without Voilà's shutdown) is closed after
this long idle."""
REAP_SECONDS = 20
"""A kernel with no page connected and idle this long may be closed to make room for a new
page (a tab closed without Voilà's shutdown); a kernel started less than this ago is left
alone (its page may still be loading)."""
CHECK_SECONDS = 60
"""How often the idle kernels are looked for."""
HOLD_SECONDS = 120
"""A slot taken by a page request whose kernel has not started this long after is given back
(a request that ended unseen: the end of every request gives its slot back before this)."""
KERNEL_CAP_ENV = "LEONARD_KERNEL_CAP"

_KERNEL = r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"
ALLOWED: tuple[tuple[str, str], ...] = (
    ("GET", r""),  # the server's root: a redirect to the hub's default page
    ("GET", r"voila/render/.+"),
    ("GET", r"voila/(static|templates|labextensions|files)/.*"),
    ("GET", r"voila/api/themes/.*"),
    ("POST", rf"voila/api/shutdown/{_KERNEL}"),
    ("GET", rf"api/kernels/{_KERNEL}"),  # the page's own kernel's model (Voilà reads it)
    ("GET", rf"api/kernels/{_KERNEL}/channels"),
    ("GET", r"static/.*"),
    ("GET", r"oauth_callback"),
    ("GET", r"logout"),
    ("GET", rf"leonard/page/{_KERNEL}"),
)
"""The requests a student's server answers (method, path under the server's base URL)."""
_RENDER = re.compile(r"voila/render/.+")


def allowed(method: str, path: str, base_url: str) -> bool:
    """Whether ``method path`` is one of :data:`ALLOWED` (``HEAD`` as ``GET``)."""
    if not path.startswith(base_url):
        return False
    rest = path[len(base_url):]
    method = "GET" if method == "HEAD" else method
    return any(method == m and re.fullmatch(p, rest) for m, p in ALLOWED)


def active(env: Mapping[str, str] | None = None) -> bool:
    """Whether a server with this environment is a student's (:func:`locked_down`): under a
    hub whose config asks for it (``LEONARD_LOCKDOWN=1``), and not given a full server."""
    return locked_down(env)


def _setting(env: Mapping[str, str], name: str, default: int) -> int:
    try:
        value = int(env.get(name, ""))
    except ValueError:
        return default
    return value if value > 0 else default


class _Start(Protocol):
    """The kernel manager's ``start_kernel`` as Voilà calls it (keywords only)."""

    def __call__(self, **kwargs: object) -> Awaitable[object]: ...


@dataclass
class Page:
    """What a kernel was started for: the page's path and link, and when."""

    path: str
    query: str
    started: float = field(default_factory=time.time)


class Lockdown:
    """The extension's state in one server: its settings, the page of each kernel, and the
    kernels it closed (so their pages can say why)."""

    def __init__(self, serverapp: ServerApp, env: Mapping[str, str] | None = None) -> None:
        env = os.environ if env is None else env
        self.serverapp = serverapp
        self.base_url: str = serverapp.base_url
        self.kernel_cap = _setting(env, KERNEL_CAP_ENV, KERNEL_CAP)
        self.idle_tab_minutes = idle_tab_minutes(dict(env))
        self.pages: dict[str, Page] = {}
        self.closed: dict[str, str] = {}
        """Kernel id → why this extension closed it (``idle``, ``room``)."""
        self.held: weakref.WeakKeyDictionary[HTTPServerRequest, float] = (
            weakref.WeakKeyDictionary())
        """The page requests let in whose kernel has not started yet, and when (each holds
        a slot of the cap; the oldest first)."""
        self.starting: dict[str, Page] = {}
        """The kernels being started (their ids chosen here) and their pages: each holds a
        slot of the cap until it is running, or its start failed."""

    @property
    def kernels(self) -> MappingKernelManager:
        return self.serverapp.kernel_manager

    def occupied(self) -> int:
        """The slots of the cap in use: the running kernels, the kernels being started, and
        the page requests let in whose kernel has not started yet."""
        now = time.monotonic()
        for request, since in list(self.held.items()):
            if now - since >= HOLD_SECONDS:
                self.held.pop(request, None)
        return len(set(self.kernels.list_kernel_ids()) | set(self.starting)) + len(self.held)

    def coming(self) -> list[Page]:
        """The pages whose kernels are not running yet (being started, or their requests
        let in): the cap page names them too."""
        running = set(self.kernels.list_kernel_ids())
        return ([p for k, p in self.starting.items() if k not in running]
                + [Page(r.path, r.query) for r in self.held.keys()])

    def admit(self, request: HTTPServerRequest) -> bool:
        """Whether a page request fits under the cap; if it does, it holds a slot from now
        (until its kernel starts, or it ends). Synchronous on purpose: requests routed one
        after the other in the same second see each other's slots, before any kernel
        exists."""
        if self.occupied() >= self.kernel_cap:
            return False
        self.held[request] = time.monotonic()
        return True

    def release(self, request: HTTPServerRequest) -> None:
        """A request ended: the slot it still holds (no kernel was started for it) is free."""
        self.held.pop(request, None)

    def _hand_over(self, path: str, query: str) -> None:
        """A kernel starts for the page ``path?query``: the slot of the request it is for
        (the oldest one let in for that page, else the oldest one) becomes the kernel's."""
        waiting = list(self.held.keys())
        mine = [r for r in waiting if (r.path, r.query) == (path, query)]
        if mine or waiting:
            self.held.pop((mine or waiting)[0], None)

    def watch_starts(self) -> None:
        """Remember each kernel's page: Voilà starts a page's kernel with the request's path
        and query string in its environment (``SCRIPT_NAME``, ``QUERY_STRING``). The
        request's slot passes to the kernel as its start begins; a start that fails frees
        it."""
        manager = self.kernels
        start = cast(_Start, manager.start_kernel)

        async def start_kernel(**kwargs: object) -> str:
            env = kwargs.get("env")
            page_env = env if isinstance(env, dict) else {}
            path = str(page_env.get("SCRIPT_NAME", ""))
            query = str(page_env.get("QUERY_STRING", ""))
            # The id is chosen here, so a kernel is counted once: being started, then running.
            wanted = kwargs.get("kernel_id")
            starting = wanted if isinstance(wanted, str) else str(uuid.uuid4())
            self._hand_over(path, query)
            self.starting[starting] = Page(path, query)
            try:
                kernel_id = str(await start(**{**kwargs, "kernel_id": starting}))
            finally:
                page = self.starting.pop(starting)
            self.pages[kernel_id] = page
            return kernel_id

        # The instance's own attribute: Voilà calls the server's manager, this one.
        manager.__dict__["start_kernel"] = start_kernel

    def idle_seconds(self, kernel_id: str, now: datetime) -> float:
        """Seconds since the kernel's last message (the server's activity watch)."""
        last = getattr(self.kernels.get_kernel(kernel_id), "last_activity", None)
        return (now - last).total_seconds() if isinstance(last, datetime) else 0.0

    def connections(self, kernel_id: str) -> int:
        """The page websockets connected to the kernel (0: its tab is closed)."""
        model: Callable[[str], Mapping[str, object]] = self.kernels.kernel_model
        count = model(kernel_id).get("connections", 0)
        return count if isinstance(count, int) else 0

    async def close(self, kernel_id: str, why: str) -> None:
        self.closed[kernel_id] = why
        self.pages.pop(kernel_id, None)
        if kernel_id in self.kernels.list_kernel_ids():
            shutdown: Callable[[str], Awaitable[object]] = self.kernels.shutdown_kernel
            await shutdown(kernel_id)

    async def close_idle(self) -> None:
        """Close the kernels of tabs idle past :attr:`idle_tab_minutes`, and of tabs closed
        (no page connected) idle past :data:`CLOSED_TAB_MINUTES`."""
        now = datetime.now(timezone.utc)
        for kernel_id in list(self.kernels.list_kernel_ids()):
            idle = self.idle_seconds(kernel_id, now)
            open_tab = self.connections(kernel_id) > 0
            if idle >= 60 * (self.idle_tab_minutes if open_tab else CLOSED_TAB_MINUTES):
                await self.close(kernel_id, "idle")

    async def make_room(self) -> bool:
        """Close the kernels of tabs already closed (no page connected, idle past
        :data:`REAP_SECONDS`, started at least that long ago); whether a page now fits."""
        now = datetime.now(timezone.utc)
        for kernel_id in list(self.kernels.list_kernel_ids()):
            page = self.pages.get(kernel_id)
            young = page is not None and time.time() - page.started < REAP_SECONDS
            if (not young and self.connections(kernel_id) == 0
                    and self.idle_seconds(kernel_id, now) >= REAP_SECONDS):
                await self.close(kernel_id, "room")
        return not self.full()

    def full(self) -> bool:
        return self.occupied() >= self.kernel_cap

    def watch_ends(self) -> None:
        """Give back the slot of each request that ends without its kernel started (the
        end of every request is logged: :meth:`tornado.web.Application.log_request`)."""
        app = self.serverapp.web_app
        log = app.log_request

        def log_request(handler: tornado.web.RequestHandler) -> None:
            self.release(handler.request)
            log(handler)

        app.__dict__["log_request"] = log_request

    def install(self) -> None:
        """Refuse what is not a page's, limit the messages, count the pages, close idle
        ones."""
        app = self.serverapp
        app.kernel_manager.allowed_message_types = list(PAGE_MESSAGES)
        self.watch_starts()
        self.watch_ends()
        router = app.web_app.default_router
        settings = {"lockdown": self}
        rules = [Rule(_Refused(self.base_url), _RefusedHandler),
                 Rule(_AtCap(self), _CapPageHandler, settings),
                 Rule(_StatusPath(self.base_url), PageStatus, settings)]
        router.rules[0:0] = [router.process_rule(r) for r in rules]
        # Often enough to close a tab within a tenth of its idle time after it is due.
        every = min(CHECK_SECONDS, max(1.0, self.idle_tab_minutes * 6))
        PeriodicCallback(self.close_idle, every * 1000).start()


class _Refused(Matcher):
    def __init__(self, base_url: str) -> None:
        self.base_url = base_url

    def match(self, request: HTTPServerRequest) -> dict[str, object] | None:
        return None if allowed(request.method or "GET", request.path, self.base_url) else {}


class _AtCap(Matcher):
    def __init__(self, lockdown: Lockdown) -> None:
        self.lockdown = lockdown

    def match(self, request: HTTPServerRequest) -> dict[str, object] | None:
        rest = request.path[len(self.lockdown.base_url):]
        if request.method == "GET" and _RENDER.fullmatch(rest):
            return None if self.lockdown.admit(request) else {}
        return None


class _StatusPath(Matcher):
    def __init__(self, base_url: str) -> None:
        self.pattern = re.compile(re.escape(base_url) + rf"leonard/page/({_KERNEL})")

    def match(self, request: HTTPServerRequest) -> dict[str, object] | None:
        found = self.pattern.fullmatch(request.path)
        return None if found is None else {"path_args": [found.group(1).encode()],
                                           "path_kwargs": {}}


def _lang(request: HTTPServerRequest) -> str:
    """The page's language: the link's ``lang=``, else the browser's, else Spanish."""
    asked = dict(parse_qsl(request.query)).get("lang", "")
    for wish in [asked, *re.findall(r"([a-zA-Z]{2})(?:-[a-zA-Z]+)?",
                                    request.headers.get("Accept-Language", ""))]:
        if wish.lower() in SUPPORTED:
            return normalize_lang(wish.lower())
    return "es"


_PAGE = """<!DOCTYPE html>
<html lang="{lang}"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title}</title>
<style>body{{font-family:system-ui,sans-serif;max-width:40em;margin:2em auto;padding:0 1em;
line-height:1.5;color:#1a1a1a}} h1{{font-size:1.4em}} li{{margin:.3em 0}}
a.button{{display:inline-block;padding:.5em 1em;background:#1f5fa8;color:#fff;
border-radius:.3em;text-decoration:none}}</style></head>
<body><main><h1>{title}</h1>{body}</main></body></html>
"""


class _RefusedHandler(tornado.web.RequestHandler):
    """Anything but the pages: refused, with a sentence that says so."""

    def prepare(self) -> None:
        _ = translator(_lang(self.request))
        self.set_status(403)
        self.finish(_PAGE.format(
            lang=_lang(self.request), title=html.escape(_("Only the tutor's pages")),
            body="<p>" + html.escape(_(
                "This class server shows the Leonard-Domino tutor's pages and nothing "
                "else: no notebooks, terminals or files.")) + "</p>"))

    def check_xsrf_cookie(self) -> None:
        """Nothing is done here: there is nothing to protect."""


_PAGE_NAMES = {"Play.ipynb": N_("Play"), "Lessons.ipynb": N_("Lessons"),
               "Teacher.ipynb": N_("Teacher")}


def _page_name(page: Page | None, lang: str) -> str:
    _ = translator(lang)
    if page is None:
        return _("A tutor page")
    name = page.path.rsplit("/", 1)[-1]
    title = _(_PAGE_NAMES[name]) if name in _PAGE_NAMES else name
    lesson = dict(parse_qsl(page.query)).get("lesson")
    return f"{title}: {lesson}" if lesson else title


def _minutes_ago(seconds: float, lang: str) -> str:
    minutes = int(seconds // 60)
    if minutes < 1:
        return translator(lang)(N_("used just now"))
    return ngettext("used {n} minute ago", "used {n} minutes ago", minutes,
                    lang).format(n=minutes)


class _CapPageHandler(JupyterHandler):
    """A page opened past the cap: room is made from tabs already closed, else the student
    is shown their open pages and asked to close one."""

    def initialize(self, lockdown: Lockdown) -> None:
        self.lockdown = lockdown

    @tornado.web.authenticated
    async def get(self, *args: object) -> None:
        if await self.lockdown.make_room():
            self.redirect(self.request.uri or self.request.path)
            return
        lang = _lang(self.request)
        _ = translator(lang)
        now = datetime.now(timezone.utc)
        kernels = sorted(self.lockdown.kernels.list_kernel_ids(),
                         key=lambda k: -self.lockdown.idle_seconds(k, now))
        pages = [(self.lockdown.pages.get(k), self.lockdown.idle_seconds(k, now))
                 for k in kernels]
        # Pages opened in the same burst, whose kernels are still starting: used just now.
        pages += [(page, 0.0) for page in self.lockdown.coming()]
        items = "".join(
            "<li>" + html.escape(_page_name(page, lang)) + " — "
            + html.escape(_minutes_ago(idle, lang)) + "</li>" for page, idle in pages)
        self.set_status(429)
        self.set_header("Cache-Control", "no-store")
        self.finish(_PAGE.format(
            lang=lang, title=html.escape(_("Too many tutor pages are open")),
            body="<p>" + html.escape(ngettext(
                "You have {n} page of the tutor open, the most one student can have at "
                "once. Close one of these tabs, then reload this one:",
                "You have {n} pages of the tutor open, the most one student can have at "
                "once. Close one of these tabs, then reload this one:",
                len(pages), lang).format(n=len(pages))) + "</p><ol class='ld-open-pages'>"
            + items + "</ol><p>" + html.escape(_(
                "The one at the top is the one you used longest ago. Your answers are saved "
                "whichever tab you close.")) + "</p><p><a class='button' href='"
            + html.escape(self.request.uri or "", quote=True) + "'>"
            + html.escape(_("Reload this page")) + "</a></p>"))


class PageStatus(JupyterHandler):
    """``GET leonard/page/<kernel>``: whether a page's kernel still runs (``open``), was
    closed for being idle (``idle``) or to make room (``room``), or is gone (``gone``): the
    page asks when the student comes back to it (``tutor/ui/shared/access.js``)."""

    def initialize(self, lockdown: Lockdown) -> None:
        self.lockdown = lockdown

    @tornado.web.authenticated
    def get(self, kernel_id: str) -> None:
        if kernel_id in self.lockdown.kernels.list_kernel_ids():
            state = "open"
        else:
            state = self.lockdown.closed.get(kernel_id, "gone")
        self.set_header("Cache-Control", "no-store")
        self.finish({"state": state, "idle_minutes": self.lockdown.idle_tab_minutes})


def _jupyter_server_extension_points() -> list[dict[str, str]]:
    return [{"module": "tutor.hub.lockdown"}]


def _load_jupyter_server_extension(serverapp: ServerApp) -> None:
    if not active():
        serverapp.log.info("Leonard-Domino lockdown: off (not a student's server on a hub).")
        return
    lockdown = Lockdown(serverapp)
    lockdown.install()
    serverapp.log.info(
        "Leonard-Domino lockdown: only the tutor's pages; at most %d pages at once; idle tabs "
        "closed after %g minutes.", lockdown.kernel_cap, lockdown.idle_tab_minutes)
