"""docs/design.md's picture of the layers, made from pyproject.toml's import contracts
(``[tool.importlinter]``, which ``lint-imports`` checks; issue 53 part 4).

    python tools/layers_picture.py           # print the picture
    python tools/layers_picture.py --write   # put it into docs/design.md

The picture sits in docs/design.md between :data:`START` and :data:`END`;
tests/test_import_contracts.py checks that it is what this tool makes.
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

import tomllib

ROOT = Path(__file__).resolve().parents[1]
DESIGN = ROOT / "docs" / "design.md"
START = "<!-- layers: made by tools/layers_picture.py from pyproject.toml; do not edit -->"
END = "<!-- end of layers -->"

Contract = dict[str, object]


def contracts(pyproject: Path = ROOT / "pyproject.toml") -> list[Contract]:
    """The contracts of ``[tool.importlinter]``, in order."""
    with pyproject.open("rb") as f:
        contracts: list[Contract] = tomllib.load(f)["tool"]["importlinter"]["contracts"]
    return contracts


def _names(value: object) -> list[str]:
    assert isinstance(value, list) and all(isinstance(v, str) for v in value), value
    return list(value)


def _code(names: list[str]) -> str:
    return ", ".join(f"`{n}`" for n in names)


def _flowchart(contract: Contract) -> list[str]:
    """A layers contract as a mermaid flowchart: each layer above the next (``a --> b``: a may
    import b and what is below it; nothing imports up), independent siblings side by side."""
    prefix = "".join(f"{c}." for c in _names(contract.get("containers", [])))
    rows = [[name.strip() for name in re.split(r"[|:]", layer)]
            for layer in _names(contract["layers"])]
    lines = ["```mermaid", "flowchart TD"]
    ids = {}
    for row in rows:
        for name in row:
            ids[name] = re.sub(r"\W", "_", name)
            lines.append(f'    {ids[name]}["{prefix}{name}"]')
    for upper, lower in zip(rows, rows[1:], strict=False):
        lines += [f"    {ids[a]} --> {ids[b]}" for a in upper for b in lower]
    return [*lines, "```"]


def _sentence(contract: Contract) -> str:
    kind = contract["type"]
    if kind == "forbidden":
        rule = (f"{_code(_names(contract['source_modules']))} import none of "
                f"{_code(_names(contract['forbidden_modules']))}, directly or through others")
    elif kind == "protected":
        rule = (f"only {_code(_names(contract['allowed_importers']))} imports "
                f"{_code(_names(contract['protected_modules']))} directly")
    elif kind == "acyclic_siblings":
        rule = (f"no two modules or packages under {_code(_names(contract['ancestors']))} "
                "import each other, directly or through others")
    else:
        rule = f"a `{kind}` contract"
    ignored = _names(contract.get("ignore_imports", []))
    if ignored:
        rule += f"; but for these imports, not yet fixed: {_code(ignored)}"
    return f"- **{contract['name']}** (`{contract['id']}`): {rule}."


def picture(found: list[Contract]) -> str:
    """The text between :data:`START` and :data:`END`: a flowchart per layers contract, then
    each other contract in a sentence."""
    lines = [START, ""]
    for contract in (c for c in found if c["type"] == "layers"):
        containers = _names(contract.get("containers", []))
        inside = f" (inside {_code(containers)})" if containers else ""
        lines += [f"**{contract['name']}** (`{contract['id']}`){inside}:", "",
                  *_flowchart(contract), ""]
    lines += [_sentence(c) for c in found if c["type"] != "layers"]
    return "\n".join([*lines, "", END])


def written(text: str) -> str:
    """The picture as docs/design.md has it (from :data:`START` to :data:`END`)."""
    start, end = text.index(START), text.index(END)
    return text[start:end + len(END)]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true", help="update docs/design.md")
    args = parser.parse_args(argv)
    made = picture(contracts())
    if not args.write:
        print(made)
        return 0
    text = DESIGN.read_text(encoding="utf-8")
    DESIGN.write_text(text.replace(written(text), made), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
