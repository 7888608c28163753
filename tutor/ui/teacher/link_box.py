"""The link to send, as a teacher sends it (issue 52): the whole address for where the
teacher is (this server's, through the hub's ``user-redirect`` on a hub, or a Binder link on
Binder: :func:`tutor.course.builder.page_urls`, the lesson builder's links too), a line saying
what it was made from, a "Copy" button (:class:`tutor.ui.shared.copy_button.CopyButton`) and
a QR code for a class projector (``segno``, inline SVG with its name for screen readers)."""

from __future__ import annotations

import html
from collections.abc import Callable

import ipywidgets as widgets

from tutor.course.builder import BINDER_REF_ENV, BINDER_REPO_ENV, PageUrls, page_urls
from tutor.i18n import translator
from tutor.ui.shared.copy_button import CopyButton
from tutor.ui.shared.panel import Change, classed

__all__ = ["LinkBox", "qr_svg", "where_html"]

QR_PIXELS = 240
"""About how wide the QR code is drawn, in CSS pixels (a whole number of pixels a module)."""


def qr_svg(url: str, label: str) -> str:
    """``url`` as a QR code, inline SVG named ``label`` for screen readers (``role="img"``).
    (``segno`` is loaded here, once a link is shown: the pages open without it.)"""
    import segno

    code = segno.make(url, error="m")
    width, _height = code.symbol_size(scale=1, border=2)
    scale = max(2, QR_PIXELS // width)
    svg = code.svg_inline(scale=scale, border=2, dark="#000", light="#fff", title=label,
                          svgclass="ld-qr")
    return svg.replace("<svg ", f"<svg role=\"img\" aria-label=\"{html.escape(label)}\" ", 1)


def where_html(urls: PageUrls, lang: str) -> str:
    """What the link to send was made from, in one sentence."""
    _ = translator(lang)
    if urls.on_binder and not urls.binder_repo:
        text = _("This is Binder, but the page does not know the repository: put its "
                 "owner/name in {variable} (and its branch or tag in {ref}) for a working "
                 "link.").format(variable=BINDER_REPO_ENV, ref=BINDER_REF_ENV)
    elif urls.on_binder:
        text = _("A Binder link: it starts a new Binder session of github.com/{repo} at "
                 "{ref} for each student (read from {variables}).").format(
                     repo=urls.binder_repo, ref=urls.binder_ref,
                     variables=", ".join(urls.binder_from) or BINDER_REPO_ENV)
    elif urls.server and "/hub/user-redirect/" in urls.server:
        text = _("This class server's address, through the hub: each student opens it on "
                 "their own server.")
    elif urls.server:
        text = _("This server's address: it opens on this server for whoever has it.")
    else:
        text = _("The page does not know this server's address: put the address of the "
                 "folder of the pages in front of the link.")
    return f"<div class='ld-legend ld-link-where'>{html.escape(text)}</div>"


class LinkBox(widgets.VBox):
    """The link to send (:meth:`show` a page's link, ``None`` to hide it): the text box
    (``css``: its class, the hook of the tests), the Copy button, what it was made from and
    its QR code."""

    def __init__(self, css: str, description_style: dict[str, str]) -> None:
        W = widgets
        self.lang = "es"
        self.page, self.query = "", ""
        self.urls: PageUrls | None = None
        self.text = classed(W.Text(layout=W.Layout(width="100%"), style=description_style),
                            css)
        self.copy = classed(CopyButton(), "ld-copy-link")
        self.copy.observe(self._origin, names="origin")
        self.where = classed(W.HTML(), "ld-link-where-box")
        self.qr = classed(W.HTML(), "ld-link-qr")
        super().__init__([classed(W.HBox([self.text, self.copy]), "ld-link-row"), self.where,
                          self.qr])
        classed(self, "ld-link-box")
        self.layout.display = "none"

    @property
    def value(self) -> str:
        """The link shown ("" when none)."""
        return str(self.text.value)

    def relabel(self, lang: str, description: str) -> None:
        _ = translator(lang)
        self.lang = lang
        self.text.description = description
        self.copy.relabel(lang, _("Copy the link to send"))
        self._draw()

    def show(self, page: str, query: str | None) -> None:
        """Show the link that opens ``page`` with ``query`` (None: no link, hidden)."""
        self.page, self.query = page, query or ""
        self.layout.display = "none" if query is None else ""
        self._draw()

    def url_for(self, page: str, query: str) -> str:
        """The link to send that opens ``page`` with ``query`` (as :meth:`show` shows it)."""
        return page_urls(page, query, origin=self.origin).to_send

    @property
    def origin(self) -> str:
        """The page's origin as the browser said it (``https://host:port``), or ""."""
        return str(self.copy.origin)

    def on_origin(self, callback: Callable[[], None]) -> None:
        """Call ``callback`` once the page has said its origin (the browser's address):
        from then on :meth:`url_for` gives this server's whole address."""
        self.copy.observe(lambda _change: callback(), names="origin")

    def _origin(self, _change: Change) -> None:
        self._draw()

    def _draw(self) -> None:
        if self.layout.display == "none":
            self.urls = None
            self.text.value = self.copy.text = self.where.value = self.qr.value = ""
            return
        _ = translator(self.lang)
        urls = page_urls(self.page, self.query, origin=self.origin)
        self.urls = urls
        url = urls.to_send
        self.text.value = self.copy.text = url
        self.where.value = where_html(urls, self.lang)
        absolute = url.startswith(("http://", "https://")) and "<owner>" not in url
        label = _("QR code of the link to send, for a class projector")
        self.qr.value = ("<figure class='ld-qr-box'>" + qr_svg(url, label)
                         + f"<figcaption class='ld-legend'>{html.escape(label)}</figcaption>"
                         "</figure>") if absolute else ""
