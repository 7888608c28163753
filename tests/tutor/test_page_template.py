"""The page template every server is given (issue 43, finding 11: Voila's lab template links
Font Awesome from a CDN; the project's ``leonard`` template drops those links). Standalone
Voila (``voila.json``, ``python -m tutor dashboard``'s flags) and Jupyter Server (the config
Binder's postBuild and a hub write) all name it, and it is the one in the repository."""

from __future__ import annotations

import json
from pathlib import Path

from tutor.commands import server

ROOT = Path(__file__).resolve().parents[2]


def test_every_server_config_names_the_template(tmp_path: Path) -> None:
    assert (ROOT / "share/jupyter/voila/templates/leonard/index.html.j2").is_file()
    shipped = json.loads((ROOT / "voila.json").read_text(encoding="utf-8"))
    assert shipped["VoilaConfiguration"]["template"] == "leonard"
    written = json.loads(server.write_server_config(tmp_path / "server.json").read_text())
    assert written["VoilaConfiguration"]["template"] == "leonard"
    # Nor MathJax from a CDN, which Voila's pages under Jupyter Server load by default.
    tornado = written["ServerApp"]["tornado_settings"]
    assert tornado["mathjax_url"] is None and tornado["mathjax_config"] is None
    assert "--VoilaConfiguration.template=leonard" in server.command_flags()



def test_this_install_puts_the_template_where_voila_looks() -> None:
    """The environment the tests run in was installed by the README's command
    (``pip install -e ".[test]"``): its Voila finds the template, as a newcomer's ``voila
    notebooks/Play.ipynb`` must. setuptools' editable install skipped data files (it asks the
    distribution ``has_data()``; setup.py's distribution class answers it)."""
    from voila.paths import collect_template_paths

    paths = collect_template_paths(["voila", "nbconvert"], "leonard", prune=True)
    assert any(Path(p, "index.html.j2").is_file() and Path(p).name == "leonard" for p in paths)
