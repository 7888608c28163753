"""What the panels share: a widget with its CSS classes (the hooks the stylesheet and the
tests use), and the kernel's event loop for what runs over time."""

from __future__ import annotations

import asyncio
from typing import TypeVar

__all__ = ["classed", "running_loop"]

W = TypeVar("W")


def classed(widget: W, *classes: str) -> W:
    """``widget`` with CSS ``classes`` added."""
    for c in classes:
        widget.add_class(c)  # type: ignore[attr-defined]
    return widget


def running_loop() -> asyncio.AbstractEventLoop | None:
    """The kernel's event loop, when there is a live kernel to pace the bots or count up the
    scores in.

    Outside a kernel (tests, scripts) there is nobody to watch, and another library's loop
    (e.g. Playwright's in the same test process) must not be borrowed: no pacing then.
    """
    try:
        from IPython import get_ipython
    except ImportError:
        return None
    shell = get_ipython()
    if shell is None or getattr(shell, "kernel", None) is None:
        return None
    try:
        return asyncio.get_running_loop()
    except RuntimeError:
        return None
