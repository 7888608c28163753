"""The two deployments say the same thing (issue 41): ``deploy/tljh/leonard.py``, which
``tests/browser/test_hub.py`` runs on a real hub, and ``deploy/z2jh/`` (Kubernetes, which no
machine of the project runs) give students' servers the same lockdown, the store service's
address and no secret, and give the hub the same roles and teacher scope; issue 51: each user's
server its own write key, the same HMAC the store service checks, and the secret to the service
alone."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]
pytest.importorskip("jupyterhub")
yaml = pytest.importorskip("yaml")


def _load_leonard(home: Path) -> Any:
    """``leonard.py`` loaded as the hub loads it, on ``home``. What it sets on JupyterHub's
    Authenticator class (its name rule) is put back after, so that no later test meets
    a name check that runs this hub's users' Python."""
    from jupyterhub.auth import Authenticator
    from traitlets.config import PyFileConfigLoader

    with pytest.MonkeyPatch.context() as env:
        env.setenv("LEONARD_HOME", str(home))
        for method in ("normalize_username", "validate_username"):
            env.setattr(Authenticator, method, getattr(Authenticator, method))
        return PyFileConfigLoader("leonard.py", str(ROOT / "deploy" / "tljh")).load_config()


def _tljh(tmp_path: Path) -> Any:
    home = tmp_path / "leonard"
    home.mkdir()
    return _load_leonard(home)


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
    assert spawn("ms.ruiz")["LEONARD_WRITE_KEY"]  # the write key's hook runs beside it
    assert spawn("mr.gil", ("teachers",))["LEONARD_FULL_SERVER"] == "1"
    assert "LEONARD_FULL_SERVER" not in spawn("ana", ("6B",))


def test_each_server_gets_its_own_write_key_and_the_service_the_secret(tmp_path: Path
                                                                       ) -> None:
    """Issue 51 part 1, TLJH: ``leonard.py`` makes the secret once, root's alone (mode 600),
    gives it to the store service's environment only (not its command, which the hub's API
    shows), and each user's server, through the spawner's hook, the key the service checks
    (:func:`tutor.hub.store_service.write_key`) for that user's hub name, and no other's.
    The teachers' hook still works beside it. Deleting the file makes a new secret at the
    hub's next reload (the README's rotation)."""
    import stat
    from types import SimpleNamespace

    from tutor.hub.store_service import write_key

    tljh = _tljh(tmp_path)
    secret_file = tmp_path / "leonard" / "write-secret"
    assert stat.S_IMODE(secret_file.stat().st_mode) == 0o600
    secret = secret_file.read_text(encoding="utf-8").strip()
    assert len(secret) == 64 and int(secret, 16) >= 0
    service = next(s for s in tljh.JupyterHub.services.get_value([]) if s["name"] ==
                   "leonard-store")
    assert service["environment"]["LEONARD_WRITE_SECRET"] == secret
    assert secret not in " ".join(service["command"])
    shared = tljh.Spawner.environment.get_value({})
    assert not any(secret in v for v in shared.values())
    assert not any(k.startswith("LEONARD_WRITE") for k in shared)

    hook = tljh.Spawner.pre_spawn_hook

    def spawn(name: str) -> dict[str, str]:
        user = SimpleNamespace(name=name, groups=[])
        spawner = SimpleNamespace(user=user, environment=dict(shared))
        hook(spawner)
        return dict(spawner.environment)

    ana, beto = spawn("ana"), spawn("beto")
    assert ana["LEONARD_WRITE_KEY"] == write_key(secret, "ana") != write_key(secret, "beto")
    assert beto["LEONARD_WRITE_KEY"] == write_key(secret, "beto")
    assert not any(secret in v for v in ana.values())
    assert ana["LEONARD_LOCKDOWN"] == "1" and "LEONARD_FULL_SERVER" not in ana

    # A reload keeps the secret; a deleted file is a new one (and new keys).
    assert (_tljh_again(tmp_path).JupyterHub.services.get_value([])[0]["environment"]
            ["LEONARD_WRITE_SECRET"]) == secret
    secret_file.unlink()
    again = _tljh_again(tmp_path).JupyterHub.services.get_value([])[0]["environment"]
    assert again["LEONARD_WRITE_SECRET"] != secret
    assert again["LEONARD_WRITE_SECRET"] == secret_file.read_text(encoding="utf-8").strip()


def _tljh_again(tmp_path: Path) -> Any:
    """``leonard.py`` loaded again on the same LEONARD_HOME (the hub reloaded)."""
    return _load_leonard(tmp_path / "leonard")


def test_z2jh_gives_the_same_write_keys_from_a_kubernetes_secret() -> None:
    """Issue 51 part 1, Kubernetes: the hub (its ``extraEnv``) and the store service's pod
    read the secret from the same Kubernetes Secret, no student's pod does, and the hub's
    ``extraConfig`` gives each user's pod the key the service checks."""
    from types import SimpleNamespace

    from traitlets.config import Config

    from tutor.hub.store_service import write_key

    values = yaml.safe_load((ROOT / "deploy" / "z2jh" / "config.yaml").read_text())
    ref = values["hub"]["extraEnv"]["LEONARD_WRITE_SECRET"]["valueFrom"]["secretKeyRef"]
    docs = list(yaml.safe_load_all((ROOT / "deploy" / "z2jh" / "store-service.yaml")
                                   .read_text()))
    deployment = next(d for d in docs if d["kind"] == "Deployment")
    env = {e["name"]: e for e in deployment["spec"]["template"]["spec"]["containers"][0]["env"]}
    assert env["LEONARD_WRITE_SECRET"]["valueFrom"]["secretKeyRef"] == ref
    assert not any("WRITE" in k for k in values["singleuser"]["extraEnv"])

    secret = "f" * 64
    c = Config()
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("LEONARD_WRITE_SECRET", secret + "\n")
        exec(values["hub"]["extraConfig"]["leonard-write-key"], {"c": c})  # noqa: S102
    spawner = SimpleNamespace(user=SimpleNamespace(name="ana"),
                              environment={"LEONARD_LOCKDOWN": "1"})
    c.KubeSpawner.pre_spawn_hook(spawner)
    assert spawner.environment == {"LEONARD_LOCKDOWN": "1",
                                   "LEONARD_WRITE_KEY": write_key(secret, "ana")}


def test_every_test_the_docs_cite_exists() -> None:
    """A test named in the README, CONTRIBUTING.md, docs/ or deploy/ is where the text says
    (issue 43: the hub test was cited as ``tests/test_hub.py``; it is
    ``tests/browser/test_hub.py``)."""
    import re

    texts = [ROOT / "README.md", ROOT / "CONTRIBUTING.md", *(ROOT / "docs").glob("*.md"),
             *(ROOT / "deploy").rglob("*")]
    cited = {(t.relative_to(ROOT), m) for t in texts if t.is_file()
             for m in re.findall(r"\btests/[\w/]+\.py\b", t.read_text(encoding="utf-8"))}
    assert cited, "the docs cite no test"
    assert not {c for c in cited if not (ROOT / c[1]).is_file()}


def test_contributing_gives_a_command_for_every_benchmark() -> None:
    """CONTRIBUTING.md's benchmark table (issue 46, part 5) has a row with the command that
    runs it for every script of benchmarks/ that runs alone; the modules the benchmarks share
    and the worker another one starts are named in the text; every script named exists."""
    import re

    text = (ROOT / "CONTRIBUTING.md").read_text(encoding="utf-8")
    rows = set(re.findall(r"^\| `(\w+\.py)` \|.*\| `python benchmarks/\1 ?[^`]*` \|$", text,
                          re.MULTILINE))
    named = set(re.findall(r"`(\w+\.py)`", text))
    scripts = {p.name: p.read_text(encoding="utf-8") for p in (ROOT / "benchmarks").glob("*.py")}
    worker = {"kt_pybkt_worker.py"}  # kt_real_data.py runs it in pyBKT's interpreter
    alone = {name for name, code in scripts.items() if 'if __name__ == "__main__"' in code}
    assert set(scripts) - named == set(), "benchmarks CONTRIBUTING.md does not name"
    assert alone - worker - rows == set(), "benchmarks without a command in the table"
    assert rows <= set(scripts), "commands for benchmarks that are not there"
