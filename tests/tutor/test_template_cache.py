"""The page templates compiled once per server (``tutor.hub.page_templates``): Voilà makes a
new
nbconvert environment for every page, and each compiled the templates again. The cache must
give the same pages, compile each template once, and never serve one template's code for
another source or another kind of environment."""

from __future__ import annotations

import asyncio
import json
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import jinja2
import nbformat
import pytest
from nbconvert import HTMLExporter
from nbconvert.exporters.templateexporter import TemplateExporter

from tutor.commands import server as serving
from tutor.hub import page_templates, page_xsrf
from tutor.hub.page_templates import SharedBytecodeCache


@pytest.fixture
def cache(monkeypatch: pytest.MonkeyPatch) -> SharedBytecodeCache:
    """The cache installed for this test only (nbconvert's method is put back after)."""
    monkeypatch.setattr(TemplateExporter, "_create_environment",
                        TemplateExporter._create_environment)
    fresh = SharedBytecodeCache()
    monkeypatch.setattr(page_templates, "CACHE", fresh)
    return fresh


@pytest.fixture
def compiled(monkeypatch: pytest.MonkeyPatch) -> Counter[str]:
    """How many times Jinja compiled each template, by name."""
    counts: Counter[str] = Counter()
    original = jinja2.Environment.compile

    def counting(self: jinja2.Environment, source: Any, name: str | None = None,
                 *args: Any, **kwargs: Any) -> Any:
        counts[str(name)] += 1
        return original(self, source, name, *args, **kwargs)

    monkeypatch.setattr(jinja2.Environment, "compile", counting)
    return counts


def notebook() -> nbformat.NotebookNode:
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_markdown_cell("# Suma\n\n$3 \\times 4$"),
                nbformat.v4.new_code_cell("3 * 4", outputs=[nbformat.v4.new_output(
                    "execute_result", {"text/plain": "12"}, execution_count=1)])]
    for k, cell in enumerate(nb.cells):
        cell.id = f"cell-{k}"  # not random: the pages are compared
    return nb


def export() -> str:
    """The notebook as a lab-template HTML page, by a new exporter (as Voilà does per page)."""
    body, _ = HTMLExporter(template_name="lab").from_notebook_node(notebook())
    return str(body)


def test_pages_are_the_same_and_each_template_compiles_once(
        cache: SharedBytecodeCache, compiled: Counter[str]) -> None:
    plain = export()
    per_page = sum(compiled.values())
    assert per_page >= 5, compiled  # the lab template and the files it extends and includes
    compiled.clear()
    assert page_templates.install()
    first = export()
    assert sum(compiled.values()) == per_page  # the first page compiles them, once each
    assert all(n == 1 for n in compiled.values()), compiled
    compiled.clear()
    again = [export() for _ in range(3)]
    assert sum(compiled.values()) == 0, compiled  # the next pages compile nothing
    assert first == plain and again == [plain] * 3
    assert len(cache) == per_page


def test_installing_twice_wraps_nbconvert_once(cache: SharedBytecodeCache) -> None:
    assert not page_templates.installed()
    assert page_templates.install()
    wrapped = TemplateExporter._create_environment
    assert page_templates.install() and TemplateExporter._create_environment is wrapped
    assert page_templates.installed()
    assert HTMLExporter().environment.bytecode_cache is cache


def test_a_changed_template_is_compiled_again(cache: SharedBytecodeCache) -> None:
    def render(source: str) -> str:
        env = jinja2.Environment(loader=jinja2.DictLoader({"page.j2": source}),
                                 bytecode_cache=cache)
        return env.get_template("page.j2").render(x=7)

    assert render("Hola {{ x }}") == "Hola 7"
    assert render("Adiós {{ x * 2 }}") == "Adiós 14"
    assert render("Hola {{ x }}") == "Hola 7"


def test_async_and_plain_environments_do_not_share_code(
        cache: SharedBytecodeCache, own_thread: Callable[[Callable[[], str]], str]) -> None:
    """Voilà's environment is async, nbconvert's HTML export's is not: the same file compiles
    to different code for each."""
    def env(is_async: bool) -> jinja2.Environment:
        return jinja2.Environment(loader=jinja2.DictLoader({"t.j2": "{{ x }}+{{ x }}"}),
                                  enable_async=is_async, bytecode_cache=cache)

    assert env(False).get_template("t.j2").render(x=2) == "2+2"
    rendered = own_thread(lambda: asyncio.run(env(True).get_template("t.j2").render_async(x=3)))
    assert rendered == "3+3"
    assert env(False).get_template("t.j2").render(x=4) == "4+4"
    assert len(cache) == 2


def test_server_config_enables_the_cache_for_both_servers(
        tmp_path: Path, cache: SharedBytecodeCache) -> None:
    server = tmp_path / "jupyter_server_config.json"
    server.write_text(json.dumps({"ServerApp": {"jpserver_extensions": {"other": True}}}))
    serving.write_server_config(server)
    written = json.loads(server.read_text())
    assert written["ServerApp"]["jpserver_extensions"] == {"other": True,
                                                           "tutor.hub.page_templates": True,
                                                           "tutor.hub.page_xsrf": True,
                                                           "tutor.hub.lockdown": True}
    assert written["MappingKernelManager"]["cull_idle_timeout"] == 300
    voila = serving.write_voila_config(tmp_path / "etc" / "voila.py")
    assert voila.read_text() == serving.VOILA_PY
    exec(compile(serving.VOILA_PY, str(voila), "exec"), {})  # as Voilà runs it at start
    assert page_templates.installed()
    assert serving.write_voila_config(voila) == voila  # writing again is fine


OLD_VOILA_PY = '''\
import logging
try:
    from tutor.template_cache import turn_on
except ImportError:  # the project is no longer installed in this environment
    pass
else:
    turn_on(logging.getLogger("Voila"))
try:
    from tutor.xsrf_cookie import turn_on as xsrf_cookie
except ImportError:
    pass
else:
    xsrf_cookie(logging.getLogger("Voila"))
'''
"""The part of the ``voila.py`` that ``python -m tutor.serve --write-server-config`` wrote
before the tutor's modules were grouped into packages (issue 34 part 7): its ImportErrors
now silently lose the template cache and the cookie, until it is written again."""


def test_a_config_written_with_the_old_names_is_written_again_with_the_new(
        tmp_path: Path) -> None:
    """Issue 46 renamed the server extensions (``tutor.classroom.template_cache`` is
    ``tutor.hub.page_templates``), and issue 34 before it (``tutor.template_cache``):
    running ``--write-server-config`` again on a server set up with either puts the new names
    in their place (issue 53: the older no longer load, the newer only until 0.2.0), and
    rewrites its ``voila.py`` instead of taking it for someone else's."""
    server = tmp_path / "jupyter_server_config.json"
    server.write_text(json.dumps({"ServerApp": {"jpserver_extensions": {
        "tutor.classroom.template_cache": True, "tutor.classroom.xsrf_cookie": True,
        "tutor.template_cache": True, "tutor.xsrf_cookie": True, "other": True}}}))
    serving.write_server_config(server)
    written = json.loads(server.read_text())["ServerApp"]["jpserver_extensions"]
    assert written == {"other": True, **serving.SERVER_EXTENSIONS}
    for old in (serving.VOILA_PY.replace("tutor.hub.page_templates",
                                         "tutor.classroom.template_cache"), OLD_VOILA_PY):
        voila = tmp_path / "voila.py"
        voila.write_text(old)
        assert serving.write_voila_config(voila) == voila
        assert voila.read_text() == serving.VOILA_PY


def test_a_voila_py_of_someone_else_is_kept(tmp_path: Path) -> None:
    theirs = tmp_path / "voila.py"
    theirs.write_text("c.VoilaConfiguration.theme = 'dark'\n")
    with pytest.raises(FileExistsError, match="add these lines"):
        serving.write_voila_config(theirs)
    assert theirs.read_text() == "c.VoilaConfiguration.theme = 'dark'\n"


def test_the_server_extension_is_found_where_jupyter_server_looks() -> None:
    from tutor.hub import lockdown

    points = [*page_templates._jupyter_server_extension_points(),
              *page_xsrf._jupyter_server_extension_points(),
              *lockdown._jupyter_server_extension_points()]
    assert points == [{"module": "tutor.hub.page_templates"},
                      {"module": "tutor.hub.page_xsrf"},
                      {"module": "tutor.hub.lockdown"}]
    assert list(serving.SERVER_EXTENSIONS) == [p["module"] for p in points]


def test_both_servers_take_uploads_up_to_the_projects_own_limit(tmp_path: Path) -> None:
    """Issue 36 (failure 1): Tornado's 10 MiB websocket limit closed the page's connection on
    a bigger upload and lost it without a word. Every server config the project writes or
    ships takes a message of a whole progress export (MAX_IMPORT_BYTES) and more."""
    from tutor.storage.store_files import MAX_IMPORT_BYTES

    server = tmp_path / "jupyter_server_config.json"
    server.write_text(json.dumps({"ServerApp": {"tornado_settings": {"headers": {"X": "1"}}}}))
    serving.write_server_config(server)
    tornado = json.loads(server.read_text())["ServerApp"]["tornado_settings"]
    assert tornado["headers"] == {"X": "1"}  # a setting already there is kept
    assert tornado["websocket_max_message_size"] > MAX_IMPORT_BYTES
    shipped = json.loads((Path(serving.__file__).parents[2] / "voila.json").read_text())
    assert shipped["Voila"]["tornado_settings"] == serving.TORNADO
    flag = [f for f in serving.command_flags() if f.startswith("--Voila.tornado_settings=")]
    assert json.loads(flag[0].split("=", 1)[1]) == serving.TORNADO

    class Section(dict):  # what traitlets hands a voila.py as c.Voila
        def __getattr__(self, name: str) -> Any:
            return self.setdefault(name, Section() if name != "tornado_settings" else {})

    config = Section()
    exec(compile(serving.VOILA_PY, "voila.py", "exec"), {"get_config": lambda: config})
    assert config.Voila.tornado_settings == serving.TORNADO


@pytest.mark.slow
def test_a_closed_tab_frees_its_kernel_through_the_xsrf_check(tmp_path: Path) -> None:
    """Issue 36: Voilà's page sends its shutdown request (on closing the tab) with the value
    of an ``_xsrf`` cookie that Voilà never set: 403, and the kernel lived until the culler.
    With the project's voila.py the page sets the cookie, the request as the page sends it
    (form field ``_xsrf`` = the cookie) frees the kernel, and one without it is still
    refused: XSRF protection stays on."""
    import http.cookiejar
    import os
    import urllib.error
    import urllib.parse
    import urllib.request

    import nbformat

    from tutor.commands.server import kernel_pids, start_voila, stop_server

    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell("1 + 1")]
    nbformat.write(nb, str(tmp_path / "tab.ipynb"))
    config = tmp_path / "config"
    serving.write_voila_config(config / "voila.py")
    root = str(Path(serving.__file__).resolve().parents[2])
    env = {"JUPYTER_CONFIG_PATH": str(config),
           "PYTHONPATH": os.pathsep.join([root, os.environ.get("PYTHONPATH", "")])}
    proc, base = start_voila(tmp_path / "tab.ipynb", tmp_path / "voila.log", env,
                             cwd=tmp_path)
    try:
        jar = http.cookiejar.CookieJar()
        opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
        page = opener.open(base, timeout=120).read().decode()
        kernel = page.split('"kernelId": "', 1)[1].split('"', 1)[0]
        assert kernel_pids(proc.pid)
        xsrf = {c.name: c.value for c in jar}.get("_xsrf")
        assert xsrf, "the page set no _xsrf cookie"
        url = f"{base}voila/api/shutdown/{kernel}"
        with pytest.raises(urllib.error.HTTPError, match="403"):
            opener.open(urllib.request.Request(url, data=b"", method="POST"), timeout=30)
        done = opener.open(urllib.request.Request(
            url, data=urllib.parse.urlencode({"_xsrf": xsrf}).encode(), method="POST"),
            timeout=30)
        assert done.status == 204
    finally:
        stop_server(proc)


def test_the_class_servers_logger_makes_no_debug_records() -> None:
    """Issue 35 part 4: traitlets leaves an application's logger at DEBUG and filters at its
    handler, so the class server made and dropped two debug records for every message a
    kernel sent. The shipped voila.json keeps Voilà's logger at INFO, and traitlets reads it
    so (the level of the logger itself, not only of its handler)."""
    import logging

    from traitlets.config import Application

    shipped = json.loads((Path(serving.__file__).parents[2] / "voila.json").read_text())
    assert shipped["Voila"]["logging_config"] == serving.QUIET_LOG

    class Voila(Application):  # type: ignore[misc]  # the logger is named after the class
        pass

    app = Voila(logging_config=shipped["Voila"]["logging_config"])
    app._configure_logging()
    assert not logging.getLogger("Voila").isEnabledFor(logging.DEBUG)
    assert logging.getLogger("Voila").isEnabledFor(logging.INFO)
