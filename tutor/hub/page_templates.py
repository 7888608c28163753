"""Compile Voilà's page templates once per server, not once per page.

Voilà makes a new nbconvert exporter for every page it serves, and with it a new Jinja
environment, which compiles the page's templates again (the lab template is 13 files:
``index.html.j2``, ``base.html.j2``, the macros …): measured, 0.22 CPU s of the server per page,
a quarter of all it spends on a page, on the one thread that also relays every other
student's clicks. :func:`install` gives every nbconvert environment one shared, in-memory
bytecode cache, Jinja's own mechanism for this: a template is compiled the first time a page
needs it, and again only if its source changed (the cache checks each template's checksum).

``python -m tutor.commands.server --write-server-config`` turns it on for both kinds of server: it
writes
a ``voila.py`` that standalone Voilà runs at start (:data:`tutor.commands.server.VOILA_PY`) and
enables
this module as a Jupyter Server extension (Binder, JupyterHub). The server imports only this
module and the light ``tutor`` package with it (no ipywidgets, no sympy).
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

import jinja2
from jinja2.bccache import Bucket

if TYPE_CHECKING:
    from jupyter_server.serverapp import ServerApp
    from nbconvert.exporters.templateexporter import TemplateExporter

__all__ = ["CACHE", "ON", "SharedBytecodeCache", "install", "installed", "turn_on"]

LOG = logging.getLogger(__name__)
ON = "tutor.hub.page_templates: page templates are compiled once per server"
"""What a server's log says once the cache is on (the tests and benchmarks look for it)."""
MARK = "_leonard_shared_bytecode_cache"
"""Set on nbconvert's wrapped method, so that :func:`install` never wraps it twice."""


def _flavour(env: jinja2.Environment) -> str:
    """What, besides the source, decides the code Jinja compiles a template to: the same file
    compiles differently for an async environment (Voilà's) and a plain one (nbconvert's
    HTML export), with other extensions or other syntax."""
    finalize = getattr(env.finalize, "__qualname__", env.finalize)
    autoescape = env.autoescape if isinstance(env.autoescape, bool) else "select"
    return repr((env.is_async, sorted(env.extensions), env.optimized, finalize, autoescape,
                 env.block_start_string, env.block_end_string, env.variable_start_string,
                 env.variable_end_string, env.comment_start_string, env.comment_end_string,
                 env.line_statement_prefix, env.line_comment_prefix, env.trim_blocks,
                 env.lstrip_blocks, env.newline_sequence, env.keep_trailing_newline))


class SharedBytecodeCache(jinja2.BytecodeCache):
    """Compiled templates, in memory, for every environment of the process (keyed by the
    template, its file and the environment's :func:`_flavour`; checked against the source)."""

    def __init__(self) -> None:
        self._code: dict[str, bytes] = {}

    def get_bucket(self, environment: jinja2.Environment, name: str, filename: str | None,
                   source: str) -> Bucket:
        return super().get_bucket(environment, f"{_flavour(environment)}|{name}", filename,
                                  source)

    def load_bytecode(self, bucket: Bucket) -> None:
        data = self._code.get(bucket.key)
        if data is not None:
            bucket.bytecode_from_string(data)

    def dump_bytecode(self, bucket: Bucket) -> None:
        self._code[bucket.key] = bucket.bytecode_to_string()

    def clear(self) -> None:
        self._code.clear()

    def __len__(self) -> int:
        return len(self._code)


CACHE = SharedBytecodeCache()


def installed() -> bool:
    """Whether this process's nbconvert environments share :data:`CACHE`."""
    from nbconvert.exporters.templateexporter import TemplateExporter

    return bool(getattr(TemplateExporter._create_environment, MARK, False))


def install() -> bool:
    """Make every nbconvert environment made from now on use :data:`CACHE`. Returns whether
    it is on; if this nbconvert builds its environments some other way, says so in the log
    and changes nothing (the pages are served as before, only slower)."""
    from nbconvert.exporters.templateexporter import TemplateExporter

    if installed():
        return True
    create = getattr(TemplateExporter, "_create_environment", None)
    if create is None:
        LOG.warning("tutor.hub.page_templates: this nbconvert has no "
                    "TemplateExporter._create_environment; page templates stay uncached")
        return False

    def _create_environment(self: TemplateExporter) -> jinja2.Environment:
        env: jinja2.Environment = create(self)
        env.bytecode_cache = CACHE
        return env

    setattr(_create_environment, MARK, True)
    setattr(TemplateExporter, "_create_environment", _create_environment)  # noqa: B010
    return True


def turn_on(log: logging.Logger) -> bool:
    """:func:`install`, and say :data:`ON` in the server's ``log`` if it is on."""
    on = install()
    if on:
        log.info(ON)
    return on


def _jupyter_server_extension_points() -> list[dict[str, str]]:
    return [{"module": "tutor.hub.page_templates"}]


def _load_jupyter_server_extension(serverapp: ServerApp) -> None:
    turn_on(serverapp.log)
