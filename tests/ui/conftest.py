"""Fixtures the widget tests share."""

from __future__ import annotations

from typing import Any

import pytest


@pytest.fixture()
def link(monkeypatch: pytest.MonkeyPatch) -> Any:
    """Set the page's link (``QUERY_STRING``) as Voilà does, outside a hub and a preheated
    kernel: ``link("lang=en&student=ana")``."""
    def set_link(query: str) -> None:
        monkeypatch.setenv("QUERY_STRING", query)
    monkeypatch.delenv("JUPYTERHUB_USER", raising=False)
    monkeypatch.delenv("VOILA_PREHEAT", raising=False)
    return set_link
