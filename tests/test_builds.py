"""The engine's two builds: compiled by mypyc where the install had a C compiler, else pure
Python, from one source (``engine._build``, ``setup.py``).

The main test run tests whichever build is installed (the header says which). When that is
the compiled build, the tests below also run the engine's tests against the pure modules, in
a process where ``LEONARD_PURE=1`` hides the compiled ones, and check that both builds play
the same games move for move, from the same seeds, with every bot.
"""

from __future__ import annotations

import importlib.machinery
import json
import os
import shutil
import subprocess
import sys
import sysconfig
import textwrap
import time
from pathlib import Path

import pytest

import engine
from engine import _build

ROOT = Path(__file__).resolve().parents[1]

ENGINE_TESTS = ["tests/engine", "tests/test_playout_kernel.py", "tests/test_bots.py"]
"""The engine's tests: rules, properties, the playout kernel against apply(), the record
replays, the command line, the bots."""
NOT_IN_PURE_RUN = "not beats"
"""The bots' strength duels (``test_*_beats_*``) run in the main run only: they are hundreds of
games between seeded bots, which play the same games move for move in both builds (checked by
:func:`test_both_builds_play_the_same_games`), so a second, pure run would only repeat them
three times slower. Everything else runs in both builds."""

needs_compiled = pytest.mark.skipif(
    not engine.COMPILED, reason=f"the engine running is {engine.BUILD}: the main run tests it, "
                                f"and there is no compiled build here to compare it with")


def run_python(code: str, *, pure: bool, timeout: float = 900) -> str:
    env = {**os.environ, _build.PURE_ENV: "1" if pure else ""}
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True,
                         text=True, timeout=timeout)
    assert out.returncode == 0, out.stderr
    return out.stdout


def c_compiler() -> str | None:
    cc = os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc"
    return shutil.which(cc.split()[0])


def test_the_version_says_which_build_runs():
    for pure, build in ((True, "pure Python (LEONARD_PURE is set)"), (False, engine.BUILD)):
        env = {**os.environ, _build.PURE_ENV: "1" if pure else ""}
        out = subprocess.run([sys.executable, "-m", "engine", "--version"], cwd=ROOT, env=env,
                             capture_output=True, text=True, timeout=120)
        assert out.returncode == 0, out.stderr
        assert out.stdout.startswith("engine ") and out.stdout.strip().endswith(build)


def test_the_rollout_kernel_knows_which_build_runs_it():
    """``engine.round.NATIVE`` picks the code each build runs faster (the same result either
    way); if it were wrong, rollouts would only be slower, so nothing else would notice."""
    code = "import engine, engine.round as r; print(r.NATIVE, engine.COMPILED)"
    assert run_python(code, pure=True).split() == ["False", "False"]
    assert run_python(code, pure=False).split() == [str(engine.COMPILED)] * 2


@pytest.mark.skipif(c_compiler() is None, reason="no C compiler here: the pure build is right")
def test_where_a_c_compiler_is_the_engine_runs_compiled():
    """The install compiled the engine (CI would otherwise test the pure build twice)."""
    if _build.pure_requested():
        pytest.skip(f"{_build.PURE_ENV} is set: this run tests the pure build")
    assert engine.COMPILED, (
        f"a C compiler is here ({c_compiler()}), but the engine runs {engine.BUILD}: "
        f"reinstall (pip install -e .) to compile it, or set {_build.PURE_ENV}=1 to test the "
        f"pure build alone")


@needs_compiled
@pytest.mark.slow
def test_the_engine_tests_pass_in_the_pure_build():
    """CI tests both builds: here the engine's tests again, with the compiled modules hidden."""
    out = subprocess.run(
        # Not -q: the header says which build the run tests.
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-k", NOT_IN_PURE_RUN,
         *ENGINE_TESTS],
        cwd=ROOT, env={**os.environ, _build.PURE_ENV: "1"}, capture_output=True, text=True,
        timeout=3600)
    assert "engine: pure Python (LEONARD_PURE is set)" in out.stdout, out.stdout[-3000:]
    assert out.returncode == 0, out.stdout[-6000:] + out.stderr[-2000:]


GAMES = textwrap.dedent("""
    import hashlib, json, random
    import engine
    from engine import VARIANTS, HouseRules, Match, Round
    from engine.bots import SearchBot, make_bot, play_match

    out = {"build": engine.BUILD, "games": [], "playouts": []}
    names = ["expert", "search", "greedy", "random"]
    for name, v in sorted(VARIANTS.items()):
        for players in sorted({v.min_players, min(v.max_players, 4)}):
            for seed in range(3):
                target = 30 if v.goal == "points" and name != "ponce" else 0
                m = Match(name, players, HouseRules(rounds=1, target=target), seed=seed)
                bots = [make_bot(names[(seed + s) % 4], 100 * seed + s, work=0.1)
                        for s in range(players)]
                play_match(m, bots)
                out["games"].append(json.dumps(m.to_record(), sort_keys=True))
            for seed in range(200):
                rng = random.Random(seed)
                rnd = Round.deal(v, HouseRules(), players, rng, record=False)
                trace = []
                rnd.playout(rng, trace)
                out["playouts"].append([trace, rnd.gains, rnd.losses, rnd.result.reason])
    # Two Leonard games with the bots' full budgets.
    for seed in (1, 2):
        m = Match("leonard", 2, HouseRules(rounds=1), seed=seed)
        play_match(m, [make_bot("expert", seed), make_bot("search", seed + 1)])
        out["games"].append(json.dumps(m.to_record(), sort_keys=True))
    print(json.dumps(out))
""")


@needs_compiled
@pytest.mark.slow
def test_both_builds_play_the_same_games():
    """The same seeds give the same games, move for move, in both builds: matches of every
    variant between all the bots (their rollouts draw on the same random numbers), and random
    playouts through the kernel."""
    pure = json.loads(run_python(GAMES, pure=True))
    compiled = json.loads(run_python(GAMES, pure=False))
    assert pure["build"].startswith("pure") and compiled["build"].startswith("compiled")
    assert len(pure["games"]) == len(compiled["games"]) > 30
    for a, b in zip(pure["games"], compiled["games"], strict=True):
        assert a == b
    assert pure["playouts"] == compiled["playouts"]
    for record in compiled["games"]:  # and the records replay (in this build)
        engine.replay(json.loads(record))


def test_pure_finder_loads_sources_only():
    """With LEONARD_PURE=1 every engine module comes from its .py file."""
    code = ("import sys, engine, engine.bots, engine.variants.doble15\n"
            "mods = [m for n, m in sys.modules.items() if n.startswith('engine')]\n"
            "print(sorted({m.__file__.rsplit('.', 1)[-1] for m in mods}))\n"
            "print('leonard_engine__mypyc' in sys.modules, engine.COMPILED)")
    assert run_python(code, pure=True).split("\n")[:2] == ["['py']", "False False"]


def _touch(path: Path, when: float) -> None:
    path.write_text("", encoding="utf-8")
    os.utime(path, (when, when))


def test_an_edited_source_is_not_shadowed_by_its_stale_compiled_module(tmp_path: Path):
    """An editable install compiles in place: after an edit the compiled module is old code,
    so the engine runs the sources (and says why) until it is reinstalled."""
    suffix = importlib.machinery.EXTENSION_SUFFIXES[0]
    root = tmp_path / "engine"
    (root / "variants").mkdir(parents=True)
    now = time.time()
    for name in ("__init__.py", "_build.py", "__main__.py"):
        _touch(root / name, now)  # never compiled
    assert _build.stale_source(str(root)) is None  # nothing compiled: the pure build, not stale
    for stem in ("round", "variants/ponce"):
        _touch(root / f"{stem}.py", now - 100)
        _touch(root / f"{stem}{suffix}", now - 50)
    assert _build.stale_source(str(root)) is None  # compiled after the last edit
    _touch(root / "variants" / "ponce.py", now)
    assert _build.stale_source(str(root)) == os.path.join("engine", "variants", "ponce.py")
    _touch(root / "variants" / f"ponce{suffix}", now + 10)
    _touch(root / "line.py", now)  # a new module that was never compiled
    assert _build.stale_source(str(root)) == os.path.join("engine", "line.py")


def test_setup_compiles_every_engine_module_but_the_three_that_choose():
    sources = {os.path.relpath(p, ROOT) for p in _build.compiled_sources()}
    every = {str(p.relative_to(ROOT)) for p in (ROOT / "engine").rglob("*.py")}
    assert every - sources == {"engine/__init__.py", "engine/__main__.py", "engine/_build.py"}
