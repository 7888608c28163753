"""Issue 51, part 6: names that look alike are one name or refused. Cyrillic "аna" and "ana"
with a zero-width space were two students who looked the same on every page. One rule
(:func:`tutor.storage.names.name_problem`, on Unicode's script and confusables data through
``confusable_homoglyphs``; the key in NFKC) refuses them in the store, the store service and
the hub's login (``deploy/tljh/leonard.py``)."""

from __future__ import annotations

import os
import sys
import unicodedata
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.tutor.test_store_service import TOKENS, Service, start_service
from tutor.hub.store_service import Caller
from tutor.storage.names import name_key, name_problem, same_name
from tutor.storage.records import StoreError
from tutor.storage.store import Store

ROOT = Path(__file__).resolve().parents[2]
CYRILLIC_ANA = "\u0430na"  # a Cyrillic "а", then Latin "na"
HIDDEN_ANA = "an\u200ba"  # a zero-width space inside
FULLWIDTH_ANA = "\uff41\uff4e\uff41"  # ａｎａ
CYRILLIC_SAID = ("“аna” mixes letters of two alphabets: its “а” (U+0430 CYRILLIC SMALL LETTER "
                 "A) looks like “a” (U+0061 LATIN SMALL LETTER A), so it could pass for "
                 "another name. Type the name again in one alphabet.")


def said(name: str, lang: str = "en") -> str | None:
    problem = name_problem(name)
    return None if problem is None else problem.translate(lang)


def test_the_rule_refuses_look_alikes_and_keeps_real_names() -> None:
    assert said(CYRILLIC_ANA) == CYRILLIC_SAID
    assert said(CYRILLIC_ANA, "es") == (
        "«аna» mezcla letras de dos alfabetos: su «а» (U+0430 CYRILLIC SMALL LETTER A) se "
        "parece a «a» (U+0061 LATIN SMALL LETTER A), así que podría pasar por otro nombre. "
        "Escribe el nombre de nuevo en un solo alfabeto.")
    assert said(HIDDEN_ANA) == (
        "“ana” holds a character that does not show (U+200B ZERO WIDTH SPACE), so it could "
        "pass for another name. Type the name again with letters, digits and spaces only.")
    for hidden in ("\u200d", "\u2060", "\ufeff", "\u202e", "\x07", "\x1b", "\u00ad"):
        assert said(f"an{hidden}a") is not None, repr(hidden)
    assert "GREEK SMALL LETTER ALPHA" in (said("Ωmega") or "")  # Greek among Latin
    # fullwidth letters are the same letters: one name, not refused
    assert said(FULLWIDTH_ANA) is None and name_key(FULLWIDTH_ANA) == "ana"
    assert same_name("ＡＮＡ", "ana")
    # real names stay, and stay apart
    for name in ("José", "Jose", unicodedata.normalize("NFD", "José"), "Zoë O'Neil",
                 "María-José 2", "Ана", "田中さくら", "김민준", "李 Li", "Ólafur Þór"):
        assert said(name) is None, name
    assert not same_name("José", "Jose")
    assert same_name("José", unicodedata.normalize("NFD", "JOSÉ"))


def test_the_store_refuses_look_alike_names_and_keeps_one_for_fullwidth(
        store_urls: Callable[[], str]) -> None:
    with Store(store_urls()) as store:
        for name in (CYRILLIC_ANA, HIDDEN_ANA):
            with pytest.raises(StoreError) as refused:
                store.start_session(name)
            assert "could pass for another name" in str(refused.value)
        assert store.students() == []
        store.start_session("ana")
        store.start_session(FULLWIDTH_ANA)
        assert store.students() == ["ana"]


@pytest.fixture
def service(store_urls: Callable[[], str]) -> Iterator[Service]:
    running = start_service(store_urls())
    yield running
    running.stop()


def test_the_store_service_refuses_a_look_alike_hub_name(
        service: Service, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(TOKENS, "tok-cyr", Caller(CYRILLIC_ANA, False))
    with service.client("tok-cyr") as cyr:
        with pytest.raises(StoreError) as refused:
            cyr.start_session(CYRILLIC_ANA)
        assert str(refused.value) == CYRILLIC_SAID
    with Store(service.database) as direct:
        assert direct.students() == []


@pytest.fixture
def hub_names(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    """A JupyterHub authenticator with ``deploy/tljh/leonard.py`` loaded as it is (its name
    check in the users' Python: here this one, with this checkout's tutor)."""
    pytest.importorskip("jupyterhub")
    from jupyterhub.auth import Authenticator
    from traitlets.config import PyFileConfigLoader

    monkeypatch.setattr(Authenticator, "normalize_username", Authenticator.normalize_username)
    monkeypatch.setattr(Authenticator, "validate_username", Authenticator.validate_username)
    monkeypatch.setenv("LEONARD_HOME", str(tmp_path))
    monkeypatch.setenv("LEONARD_PYTHON", sys.executable)
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([str(ROOT), os.environ.get(
        "PYTHONPATH", "")]))
    PyFileConfigLoader("leonard.py", str(ROOT / "deploy" / "tljh")).load_config()
    yield Authenticator()
    checker = Authenticator.validate_username.__globals__["_name_checker"]
    for helper in checker:
        helper.stdin.close()
        helper.wait(10)


def test_the_hub_refuses_look_alike_names_with_a_sentence(hub_names: Any) -> None:
    _refuses_look_alikes(hub_names)


def test_a_z2jh_hub_asks_the_store_service_and_refuses_the_same_names(
        service: Service, monkeypatch: pytest.MonkeyPatch) -> None:
    """Zero to JupyterHub: the hub's image has no tutor, so ``deploy/z2jh/config.yaml``'s
    ``leonard-names`` (run here as the chart runs ``hub.extraConfig``) asks the store
    service's ``name-check``, the real service here: the same names refused, with the same
    sentences, as on TLJH."""
    import json
    import urllib.error
    import urllib.request

    from tutor.storage.service_store import message_from_json

    yaml = pytest.importorskip("yaml")
    pytest.importorskip("jupyterhub")
    from jupyterhub.auth import Authenticator
    from traitlets.config import Config

    monkeypatch.setattr(Authenticator, "normalize_username", Authenticator.normalize_username)
    monkeypatch.setattr(Authenticator, "validate_username", Authenticator.validate_username)
    check = f"http://127.0.0.1:{service.port}/services/leonard-store/api/v1/name-check"
    monkeypatch.setenv("LEONARD_NAME_CHECK", check)
    values = yaml.safe_load((ROOT / "deploy" / "z2jh" / "config.yaml").read_text())
    exec(values["hub"]["extraConfig"]["leonard-names"], {"c": Config()})  # noqa: S102
    _refuses_look_alikes(Authenticator())
    for bad in ("", "a" * 256):  # no name, or a long text: 400 and a sentence
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(check + "?name=" + bad, timeout=10)
        assert refused.value.code == 400
        assert message_from_json(json.load(refused.value)["message"]).translate("en") == (
            "A name to check has 1 to 255 characters.")


def _refuses_look_alikes(auth: Any) -> None:
    """``auth`` (a JupyterHub authenticator with a deployment's name rule) keeps real names
    and refuses look-alikes with the tutor's sentence, as its login page shows it."""
    from tornado import web

    assert auth.normalize_username(FULLWIDTH_ANA) == "ana"
    assert auth.normalize_username(unicodedata.normalize("NFD", "José")) == "josé"
    assert auth.validate_username("ana") and auth.validate_username("josé")
    for name, sentence in ((CYRILLIC_ANA, CYRILLIC_SAID),
                           (HIDDEN_ANA, "“ana” holds a character that does not show")):
        with pytest.raises(web.HTTPError) as refused:
            auth.validate_username(auth.normalize_username(name))
        assert refused.value.status_code == 403
        message = refused.value.jupyterhub_message  # what the login page shows
        assert sentence in message and "podría pasar por otro nombre" in message
    assert not auth.validate_username("a/b")  # the hub's own rule still holds
