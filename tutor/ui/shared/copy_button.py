"""A "Copy" button for a link (issue 52): ipywidgets has no clipboard, so a small frontend
piece (anywidget, its code sent through the widget's comm: it works offline, in Voilà and on
Binder) copies :attr:`CopyButton.text` when pressed, says "Copied" (or, where the browser
refuses, to select the link and copy it by hand) in a polite live region, and tells the kernel
the page's own origin (``https://host:port``, :attr:`CopyButton.origin`): behind a hub's proxy
the kernel cannot tell http from https, the browser can."""

from __future__ import annotations

from collections.abc import Callable

import anywidget
import traitlets

from tutor.i18n import translator

from .panel import WidgetValue

__all__ = ["CopyButton"]

ESM = r"""
function render({ model, el }) {
  const button = document.createElement("button");
  button.type = "button";
  button.className = "jupyter-widgets jupyter-button widget-button ld-copy";
  button.style.width = "auto";
  button.style.flex = "none";
  const status = document.createElement("span");
  status.className = "ld-copy-status";
  status.setAttribute("role", "status");
  status.setAttribute("aria-live", "polite");
  const draw = () => {
    button.textContent = model.get("button_label");
    button.title = model.get("button_title");
    button.disabled = !model.get("text");
  };
  draw();
  model.on("change:button_label", draw);
  model.on("change:button_title", draw);
  model.on("change:text", () => { draw(); status.textContent = ""; });
  if (model.get("origin") !== window.location.origin) {
    model.set("origin", window.location.origin);
    model.save_changes();
  }
  async function copy(text) {
    try {
      if (navigator.clipboard && window.isSecureContext) {
        await navigator.clipboard.writeText(text);
        return true;
      }
    } catch (e) { /* refused: the old way below */ }
    const area = document.createElement("textarea");
    area.value = text;
    area.setAttribute("readonly", "");
    area.style.position = "fixed";
    area.style.opacity = "0";
    document.body.appendChild(area);
    area.select();
    let done = false;
    try { done = document.execCommand("copy"); } catch (e) { done = false; }
    area.remove();
    return done;
  }
  button.addEventListener("click", async () => {
    const done = await copy(model.get("text"));
    status.textContent = done ? model.get("copied") : model.get("refused");
    model.send({ copied: done });
  });
  el.classList.add("ld-copy-box");
  el.style.display = "flex";
  el.style.flexWrap = "wrap";
  el.style.alignItems = "center";
  el.style.gap = "6px";
  el.append(button, status);
}
export default { render };
"""


class CopyButton(anywidget.AnyWidget):
    """A button that copies :attr:`text` to the clipboard (see the module)."""

    _esm = ESM
    text = traitlets.Unicode("").tag(sync=True)
    button_label = traitlets.Unicode("Copy").tag(sync=True)
    button_title = traitlets.Unicode("").tag(sync=True)
    copied = traitlets.Unicode("").tag(sync=True)
    refused = traitlets.Unicode("").tag(sync=True)
    origin = traitlets.Unicode("").tag(sync=True)
    """The page's origin as the browser knows it ("" until the page is drawn)."""

    def __init__(self, **kwargs: WidgetValue) -> None:
        super().__init__(**kwargs)
        self._on_copied: Callable[[bool], None] | None = None
        self.on_msg(self._message)

    def relabel(self, lang: str, what: str) -> None:
        """The button's words in ``lang``; ``what`` names what it copies (its tooltip)."""
        _ = translator(lang)
        self.button_label = _("Copy")
        self.button_title = what
        self.copied = _("Copied: paste it into your message.")
        self.refused = _("The browser did not let the page copy it: select the link and "
                         "copy it.")

    def on_copied(self, callback: Callable[[bool], None]) -> None:
        """``callback(done)`` after each press (``done``: the browser copied it)."""
        self._on_copied = callback

    def _message(self, _widget: object, content: WidgetValue, _buffers: object) -> None:
        if isinstance(content, dict) and "copied" in content and self._on_copied is not None:
            self._on_copied(bool(content["copied"]))
