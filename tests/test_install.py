"""A regular install finds its files (DESIGN "any install works"; issue: Binder's regular
install had no lessons). The wheel is built from the checkout and installed into a folder of
its own; the check runs from another working directory, so nothing beside the source tree
can be found by accident."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

pytestmark = pytest.mark.slow

CHECK = textwrap.dedent("""
    import json, os, sys
    import engine, tutor
    from tutor.course.lessons import list_lessons, load_lesson
    from tutor.course.paths import notebook
    from tutor.i18n import translator
    site = sys.argv[1]
    assert tutor.__file__.startswith(site) and engine.__file__.startswith(site), tutor.__file__
    ids = sorted(lesson.id for lesson in list_lessons())
    assert load_lesson("01-other-end").scaffold
    assert notebook().is_file() and notebook().is_relative_to(site)
    es = translator("es")("New game")
    import tutor.ui.shared.access  # the page's access layer ships its frontend code
    access = tutor.ui.shared.access
    assert access.__file__.startswith(site) and "aria-live" in access.ESM
    print(json.dumps({"ids": ids, "es": es}))
""")


@pytest.mark.slow
def test_a_regular_install_finds_lessons_notebooks_and_translations(
        tmp_path: Path, built_wheel: Path) -> None:
    site, elsewhere = tmp_path / "site", tmp_path / "elsewhere"
    elsewhere.mkdir()
    wheel = built_wheel  # pip wheel of a copy of the checkout (conftest.py)
    # The page template (no CDN links) goes where Voila looks: {prefix}/share/jupyter/voila/…
    with zipfile.ZipFile(wheel) as whl:
        data = {n.split(".data/data/", 1)[1] for n in whl.namelist() if ".data/data/" in n}
    template = "share/jupyter/voila/templates/leonard"
    assert {f"{template}/conf.json", f"{template}/index.html.j2"} <= data, data
    subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--target",
                    str(site), str(wheel)], check=True, cwd=tmp_path)
    env = {**os.environ, "PYTHONPATH": str(site)}
    env.pop("LEONARD_LESSONS", None)
    out = subprocess.run([sys.executable, "-c", CHECK, str(site)], cwd=elsewhere, env=env,
                         capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    shipped = sorted(p.stem for p in (ROOT / "lessons").glob("*.json"))
    assert f'"ids": {shipped}'.replace("'", '"') in out.stdout
    assert '"es": "Juego nuevo"' in out.stdout
