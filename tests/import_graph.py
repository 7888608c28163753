"""The import graph of a package of the repository, read statically with ``ast`` (the layer and
cycle tests share it): every import of every module, at the top or inside a function, since a
lazy import still ties one module to another; imports under ``if TYPE_CHECKING:`` are types
only, never loaded, and are left out."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def module_name(path: Path, root: Path = ROOT) -> str:
    """The dotted name of the module at ``path`` (a package: its ``__init__.py``)."""
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _type_checking_only(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def imports_of(path: Path, root: Path = ROOT, source: str | None = None) -> set[str]:
    """Every module ``path`` imports (``from a import b`` counts as ``a`` and ``a.b``), with
    relative imports resolved, wherever in the file they are (not under TYPE_CHECKING).
    ``source``: the module's text, when it is not read from ``path``."""
    name = module_name(path, root)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.If) and _type_checking_only(node):
            for child in node.orelse:
                visit(child)
            return
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[:len(base) - node.level + 1]
                head = ".".join(base + ([node.module] if node.module else []))
            else:
                head = node.module or ""
            found.add(head)
            found.update(f"{head}.{alias.name}" for alias in node.names)
        for child in ast.iter_child_nodes(node):
            visit(child)

    text = path.read_text(encoding="utf-8") if source is None else source
    visit(ast.parse(text, str(path)))
    return found


def module_graph(imports: dict[str, set[str]]) -> dict[str, set[str]]:
    """Each module's imports (``imports``: by module, as :func:`imports_of` gives them) as the
    modules of the same set they load: a name that is not a module (``from a import f``) counts
    as its module, names outside the set are dropped, and so are a module's own parent
    packages, which Python loads before the module anyway."""
    graph: dict[str, set[str]] = {}
    for module, names in imports.items():
        out: set[str] = set()
        for name in names:
            while name and name not in imports:
                name = name.rpartition(".")[0]
            if name and name != module and not module.startswith(name + "."):
                out.add(name)
        graph[module] = out
    return graph


def package_graph(package: Path, root: Path = ROOT) -> dict[str, set[str]]:
    """:func:`module_graph` of every module under the folder ``package``."""
    return module_graph({module_name(p, root): imports_of(p, root)
                         for p in sorted(package.rglob("*.py"))})


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The import cycles of ``graph`` (module → the modules it imports): each group of modules
    that import one another, directly or through others (Tarjan's strongly connected
    components of more than one module, found without recursion), sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.get(child, ())))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                group = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    group.append(member)
                    if member == node:
                        break
                if len(group) > 1:
                    found.append(sorted(group))
    return sorted(found)
