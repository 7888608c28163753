"""Who is using the tutor on a JupyterHub, and whether they may see the class's data.

Outside a hub (no ``JUPYTERHUB_USER``) everyone may: the pages stay as they always were (a
teacher's own machine, Binder). Under a hub the student is the hub user, and the class's data
(the teacher page, the teacher's command line) is for teachers only.

On a hub set up as ``deploy/`` says, the class's store is the hub's store service
(``LEONARD_TUTOR_DB=http://…``, :mod:`tutor.hub.store_service`), and a teacher is whoever the
service says is one: the hub gives the teacher role (its scope ``custom:leonard:teach``) to
the teachers' names and groups, and the service reads it from the token of the page's server.
Nothing in the kernel's environment counts then: a kernel that sets ``JUPYTERHUB_USER`` or
``LEONARD_TEACHERS`` still holds its own student's token, and the service would refuse it the
class's rows anyway.

On an older hub whose servers were given the database itself (not secure: every kernel held
its address), the pages fall back to the rule they had:

* a user named in ``LEONARD_TEACHERS`` (names separated by commas or spaces), or in a hub
  group named there as ``group:NAME`` (for example ``LEONARD_TEACHERS="ms.ruiz, group:teachers"``);
* or a hub admin.

Whether the user is an admin, and their groups, come from the hub's REST API
(``$JUPYTERHUB_API_URL/user`` with the server's ``$JUPYTERHUB_API_TOKEN``). JupyterHub passes
no admin flag in the environment (``JUPYTERHUB_ADMIN_ACCESS`` only says whether admins may
open users' servers), and since JupyterHub 2 the server's token answers ``admin`` and
``groups`` only when its role grants ``read:users`` / ``read:users:groups`` for the user
(``c.JupyterHub.load_roles`` with a ``server`` role of scopes ``["inherit"]``, or those two).
When the hub does not answer them, only the names in ``LEONARD_TEACHERS`` count: that list is
the dependable setting, and the README says so.
"""

from __future__ import annotations

import json
import os
import re
import urllib.request
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from tutor.storage.address import PROGRESS_ENV, is_service_address
from tutor.storage.records import StoreError
from tutor.storage.service_store import TOKEN_ENV, ServiceStore

__all__ = ["HUB_USER_ENV", "TEACHERS_ENV", "HubProfile", "hub_profile", "hub_user",
           "is_teacher", "teachers_setting"]

HUB_USER_ENV = "JUPYTERHUB_USER"
TEACHERS_ENV = "LEONARD_TEACHERS"
_HUB_TIMEOUT = 3.0


@dataclass(frozen=True)
class HubProfile:
    """What the hub says of a user (nothing, when it does not say)."""

    admin: bool = False
    groups: frozenset[str] = frozenset()


def hub_user(env: Mapping[str, str] | None = None) -> str | None:
    """The signed-in hub user, None outside a JupyterHub."""
    name = (os.environ if env is None else env).get(HUB_USER_ENV, "").strip()
    return name or None


def teachers_setting(env: Mapping[str, str] | None = None) -> tuple[frozenset[str],
                                                                   frozenset[str]]:
    """The names and the ``group:`` groups listed in ``LEONARD_TEACHERS``."""
    text = (os.environ if env is None else env).get(TEACHERS_ENV, "")
    names, groups = set(), set()
    for entry in filter(None, re.split(r"[,\s]+", text)):
        if entry.startswith("group:") and len(entry) > len("group:"):
            groups.add(entry[len("group:"):])
        else:
            names.add(entry)
    return frozenset(names), frozenset(groups)


def hub_profile(env: Mapping[str, str] | None = None) -> HubProfile:
    """Ask the hub (``$JUPYTERHUB_API_URL/user``) whether the user is an admin, and their
    groups; an empty profile when it cannot be asked or does not say."""
    env = os.environ if env is None else env
    url, token = env.get("JUPYTERHUB_API_URL"), env.get("JUPYTERHUB_API_TOKEN")
    if not url or not token or not url.startswith(("http://", "https://")):
        return HubProfile()
    request = urllib.request.Request(url.rstrip("/") + "/user",
                                     headers={"Authorization": f"token {token}"})
    try:
        with urllib.request.urlopen(request, timeout=_HUB_TIMEOUT) as reply:  # noqa: S310
            data = json.loads(reply.read(1_000_000))
    except (OSError, ValueError):
        return HubProfile()
    if not isinstance(data, dict):
        return HubProfile()
    groups = data.get("groups")
    return HubProfile(admin=data.get("admin") is True,
                      groups=frozenset(g for g in groups if isinstance(g, str))
                      if isinstance(groups, list) else frozenset())


def is_teacher(env: Mapping[str, str] | None = None,
               profile: Callable[[Mapping[str, str]], HubProfile] = hub_profile) -> bool:
    """Whether this user may see the class's data: always outside a hub; under a hub whose
    store is the store service, whoever the service says is a teacher (the hub's role);
    under an older hub, a user named in ``LEONARD_TEACHERS`` or in a group listed there, or
    a hub admin."""
    env = os.environ if env is None else env
    user = hub_user(env)
    if user is None:
        return True
    address = env.get(PROGRESS_ENV, "")
    if is_service_address(address):
        try:
            store = ServiceStore(address, token=env.get(TOKEN_ENV, ""), retries=1)
        except StoreError:
            return False
        try:
            return store.me()[1]
        except StoreError:
            return False
        finally:
            store.close()
    names, groups = teachers_setting(env)
    if user in names:
        return True
    said = profile(env)
    return said.admin or bool(said.groups & groups)
