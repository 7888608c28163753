"""The two deployments say the same thing (issue 41): ``deploy/tljh/leonard.py``, which
``tests/browser/test_hub.py`` runs on a real hub, and ``deploy/z2jh/`` (Kubernetes, which no
machine of the project runs) give students' servers the same lockdown, the store service's
address and no secret, and give the hub the same roles and teacher scope."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]
pytest.importorskip("jupyterhub")
yaml = pytest.importorskip("yaml")


def _tljh(tmp_path: Path) -> Any:
    from traitlets.config import PyFileConfigLoader

    home = tmp_path / "leonard"
    home.mkdir()
    with pytest.MonkeyPatch.context() as env:
        env.setenv("LEONARD_HOME", str(home))
        return PyFileConfigLoader("leonard.py", str(ROOT / "deploy" / "tljh")).load_config()


def test_z2jh_gives_what_tljh_gives(tmp_path: Path) -> None:
    tljh = _tljh(tmp_path)
    values = yaml.safe_load((ROOT / "deploy" / "z2jh" / "config.yaml").read_text())
    hub = values["hub"]
    roles = {r["name"]: {k: v for k, v in r.items() if k != "name"}
             for r in tljh.JupyterHub.load_roles}
    assert hub["loadRoles"]["user"]["scopes"] == roles["user"]["scopes"]
    assert hub["loadRoles"]["server"]["scopes"] == roles["server"]["scopes"]
    assert hub["loadRoles"]["leonard-teacher"] == roles["leonard-teacher"]
    # issue 45: the service reads a hub group's members for a roster, and nothing more
    assert hub["loadRoles"]["leonard-store"] == roles["leonard-store"] == {
        "scopes": ["read:groups"], "services": ["leonard-store"]}
    assert hub["config"]["JupyterHub"]["custom_scopes"] == dict(tljh.JupyterHub.custom_scopes)
    spawner = hub["config"]["KubeSpawner"]
    assert spawner["args"] == list(tljh.Spawner.args)
    assert spawner["disable_user_config"] is tljh.Spawner.disable_user_config is True
    service = next(s for s in tljh.JupyterHub.services.get_value([]) if s["name"] ==
                   "leonard-store")
    z2jh_env = values["singleuser"]["extraEnv"]
    tljh_env = tljh.Spawner.environment.get_value({})
    assert set(z2jh_env) == set(tljh_env)
    assert z2jh_env["LEONARD_TUTOR_DB"].endswith("/services/leonard-store/")
    assert z2jh_env["LEONARD_TIMEZONE"] == tljh_env["LEONARD_TIMEZONE"] == "UTC"
    assert not any("postgresql" in v for v in [*z2jh_env.values(), *tljh_env.values()])
    assert service["environment"]["LEONARD_TUTOR_DB"].endswith("progress.sqlite3")
    assert "leonard-store" in hub["services"]


def test_the_store_service_pod_holds_the_secret_and_nothing_else_does() -> None:
    docs = list(yaml.safe_load_all((ROOT / "deploy" / "z2jh" / "store-service.yaml").read_text()))
    deployment = next(d for d in docs if d["kind"] == "Deployment")
    container = deployment["spec"]["template"]["spec"]["containers"][0]
    assert container["command"] == ["python", "-m", "tutor.hub.store_service"]
    env = {e["name"]: e for e in container["env"]}
    assert env["LEONARD_TUTOR_DB"]["valueFrom"]["secretKeyRef"]["name"] == "leonard-db"
    values = (ROOT / "deploy" / "z2jh" / "config.yaml").read_text()
    assert "secretKeyRef" not in values.split("hub:", 1)[0]  # none in the students' pods


def test_teachers_get_a_full_server_only_if_the_school_says_so(tmp_path: Path) -> None:
    """``FULL_SERVER_FOR_TEACHERS``: off, every server is locked down; on, a teacher's (a name
    in ``TEACHERS`` or a member of a ``TEACHER_GROUPS`` group) is not, a student's still is."""
    from types import SimpleNamespace

    hook = _tljh(tmp_path).Spawner.pre_spawn_hook

    def spawn(name: str, groups: tuple[str, ...] = ()) -> dict[str, str]:
        user = SimpleNamespace(name=name, groups=[SimpleNamespace(name=g) for g in groups])
        spawner = SimpleNamespace(user=user, environment={"LEONARD_LOCKDOWN": "1"})
        hook(spawner)
        return dict(spawner.environment)

    assert "LEONARD_FULL_SERVER" not in spawn("ms.ruiz")
    hook.__globals__["FULL_SERVER_FOR_TEACHERS"] = True
    assert spawn("ms.ruiz")["LEONARD_FULL_SERVER"] == "1"
    assert spawn("mr.gil", ("teachers",))["LEONARD_FULL_SERVER"] == "1"
    assert "LEONARD_FULL_SERVER" not in spawn("ana", ("6B",))


def test_every_test_the_docs_cite_exists() -> None:
    """A test named in the README, docs/ or deploy/ is where the text says (issue 43: the hub
    test was cited as ``tests/test_hub.py``; it is ``tests/browser/test_hub.py``)."""
    import re

    texts = [ROOT / "README.md", *(ROOT / "docs").glob("*.md"), *(ROOT / "deploy").rglob("*")]
    cited = {(t.relative_to(ROOT), m) for t in texts if t.is_file()
             for m in re.findall(r"\btests/[\w/]+\.py\b", t.read_text(encoding="utf-8"))}
    assert cited, "the docs cite no test"
    assert not {c for c in cited if not (ROOT / c[1]).is_file()}
