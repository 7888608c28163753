"""Count the explicit ``Any`` and the ``type: ignore`` comments in the tutor, module by module.

Issue 34 asks for a typed tutor: ``Any`` only where an untyped library hands us values (the
widgets, Voilà/Jupyter server hooks, database rows). This script measures how far we are::

    python tools/count_any.py            # one line per module with any, then the totals
    python tools/count_any.py --all      # every module, zeros included
    python tools/count_any.py --check    # exit 1 if a module mypy types with
                                         # disallow_any_explicit (pyproject.toml) still has an
                                         # ``Any`` or a ``type: ignore``
    python tools/count_any.py --check --max-any 120 --max-ignore 30   # and a ceiling on totals

It reads tokens, not lines: ``Any`` in a comment, a docstring or an ``import`` line is not
counted, and ``typing.Any`` counts once. A ``type: ignore`` counts where it is a comment.
Standard library only (``tomllib``), so a test can run it.
"""

from __future__ import annotations

import argparse
import io
import sys
import tokenize
from collections.abc import Collection
from dataclasses import dataclass
from pathlib import Path

import tomllib

ROOT = Path(__file__).resolve().parent.parent


@dataclass(frozen=True)
class Count:
    module: str
    any: int
    ignores: int


def module_name(path: Path, root: Path = ROOT) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def count_source(source: str) -> tuple[int, int]:
    """(explicit ``Any`` uses, ``type: ignore`` comments) in one module's source."""
    anys = ignores = 0
    in_import = False
    for tok in tokenize.generate_tokens(io.StringIO(source).readline):
        if tok.type == tokenize.NAME and tok.string in ("import", "from") and tok.start[1] == 0:
            in_import = True
        elif tok.type == tokenize.NEWLINE:
            in_import = False
        elif tok.type == tokenize.NAME and tok.string == "Any" and not in_import:
            anys += 1
        elif tok.type == tokenize.COMMENT:
            text = tok.string.lstrip("#").strip()
            if text.replace(" ", "").startswith("type:ignore"):
                ignores += 1
    return anys, ignores


def count_tree(package: str = "tutor", root: Path = ROOT) -> list[Count]:
    counts = []
    for path in sorted((root / package).rglob("*.py")):
        anys, ignores = count_source(path.read_text(encoding="utf-8"))
        counts.append(Count(module_name(path, root), anys, ignores))
    return counts


def _overrides(root: Path) -> list[dict[str, object]]:
    config = tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8"))
    overrides: list[dict[str, object]] = config.get("tool", {}).get("mypy", {}).get(
        "overrides", [])
    return overrides


def _modules_where(root: Path, refused: bool) -> list[str]:
    """The module patterns of the mypy overrides that set ``disallow_any_explicit`` to
    ``refused``."""
    names: list[str] = []
    for override in _overrides(root):
        if override.get("disallow_any_explicit") is refused:
            module = override["module"]
            names.extend([module] if isinstance(module, str)
                         else [str(m) for m in module] if isinstance(module, list) else [])
    return names


def strict_modules(root: Path = ROOT) -> list[str]:
    """Modules that pyproject.toml's mypy overrides give ``disallow_any_explicit = true``."""
    return _modules_where(root, True)


def exempt_modules(root: Path = ROOT) -> set[str]:
    """Modules an override names exactly with ``disallow_any_explicit = false`` inside a pattern
    that refuses Any (the ui's widget aliases, :mod:`tutor.ui.shared.panel`)."""
    return set(_modules_where(root, False))


def _covered(module: str, patterns: list[str]) -> bool:
    return any(module == p or (p.endswith(".*") and module.startswith(p[:-1])) for p in patterns)


def check(counts: list[Count], patterns: list[str], max_any: int | None = None,
          max_ignore: int | None = None, exempt: Collection[str] = ()) -> list[str]:
    """What breaks the rules, as sentences (empty: all is well)."""
    problems = [f"{c.module}: {c.any} Any and {c.ignores} type: ignore in a module typed "
                "without Any (pyproject.toml disallow_any_explicit)"
                for c in counts if _covered(c.module, patterns) and c.module not in exempt
                and (c.any or c.ignores)]
    total_any = sum(c.any for c in counts)
    total_ignores = sum(c.ignores for c in counts)
    if max_any is not None and total_any > max_any:
        problems.append(f"{total_any} Any in all, more than the ceiling {max_any}")
    if max_ignore is not None and total_ignores > max_ignore:
        problems.append(f"{total_ignores} type: ignore in all, more than the ceiling {max_ignore}")
    return problems


def report(counts: list[Count], every: bool = False) -> str:
    width = max(len(c.module) for c in counts)
    lines = [f"{'module':<{width}}  {'Any':>4}  {'ignore':>6}"]
    lines += [f"{c.module:<{width}}  {c.any:>4}  {c.ignores:>6}"
              for c in counts if every or c.any or c.ignores]
    lines.append(f"{'total':<{width}}  {sum(c.any for c in counts):>4}  "
                 f"{sum(c.ignores for c in counts):>6}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--package", default="tutor")
    parser.add_argument("--all", action="store_true", help="list modules with no Any too")
    parser.add_argument("--check", action="store_true",
                        help="fail if a disallow_any_explicit module has Any or type: ignore")
    parser.add_argument("--max-any", type=int, default=None)
    parser.add_argument("--max-ignore", type=int, default=None)
    args = parser.parse_args(argv)
    counts = count_tree(args.package)
    if not args.check:
        print(report(counts, args.all))
        return 0
    problems = check(counts, strict_modules(), args.max_any, args.max_ignore, exempt_modules())
    for p in problems:
        print(p, file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
