"""The package's layers, measured from its import graph (built with ast, nothing is imported).

engine < solving < play < views / cli / teaching; books sit beside the engine (they use only the engine)
and are loaded by the engine's registry on first lookup. No import cycles.

Run as a script to print the numbers: ``python tests/test_layers.py``.
"""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "duel_lessons"

#: What each layer may import (besides itself and the top-level package's own modules listed here).
ALLOWED: dict[str, set[str]] = {
    "engine": set(),
    "books": {"engine"},
    "solving": {"engine"},
    "play": {"engine", "solving", "books"},
    "views": {"engine", "solving", "play", "books"},
    "cli": {"engine", "solving", "play", "books", "views", "teaching"},
    "teaching": {"engine", "solving", "play", "books", "views"},
}


def module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def import_graph() -> dict[str, set[str]]:
    """Module -> the duel_lessons modules it imports (at any depth of the file, lazy imports included)."""
    modules = {module_name(p): p for p in PACKAGE.rglob("*.py")}
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        found: set[str] = set()
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        tree = ast.parse(path.read_text(encoding="utf-8"))
        type_only = {
            id(inner)
            for node in ast.walk(tree)
            if isinstance(node, ast.If) and ast.unparse(node.test) in ("TYPE_CHECKING", "typing.TYPE_CHECKING")
            for inner in ast.walk(node)
        }
        for node in ast.walk(tree):
            if id(node) in type_only:  # imports for type checkers only: never run
                continue
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                    base = ".".join([*anchor, base] if base else anchor)
                targets = [base] + [f"{base}.{alias.name}" for alias in node.names]
            for target in targets:
                while target and target not in modules:
                    target = target.rpartition(".")[0]
                if target and target != name and target.startswith("duel_lessons"):
                    found.add(target)
        graph[name] = found
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in graph.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def layer(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else ""


def violations(graph: dict[str, set[str]]) -> list[str]:
    """Imports that go up or sideways between layers."""
    bad = []
    for module, targets in sorted(graph.items()):
        here = layer(module)
        if here not in ALLOWED:
            continue
        for target in sorted(targets):
            there = layer(target)
            if there == here or there == "":
                if there == "" and here in ALLOWED and target == "duel_lessons":
                    bad.append(f"{module} imports the top-level package")
                continue
            if there not in ALLOWED[here]:  # whole layers only: no module is excused
                bad.append(f"{module} ({here}) imports {target} ({there})")
    return bad


def largest_modules(count: int = 5) -> list[tuple[int, str]]:
    sizes = [(len(p.read_text(encoding="utf-8").splitlines()), module_name(p)) for p in PACKAGE.rglob("*.py")]
    return sorted(sizes, reverse=True)[:count]


def test_no_import_cycles() -> None:
    assert cycles(import_graph()) == []


def test_each_layer_imports_only_the_layers_below() -> None:
    assert violations(import_graph()) == []


def test_cycle_finder_finds_a_cycle() -> None:
    """The test can fail: a made-up graph with a cycle is caught."""
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert cycles(graph) == [["a", "b", "c"]]
    assert violations({"duel_lessons.engine.x": {"duel_lessons.play.y"}}) == [
        "duel_lessons.engine.x (engine) imports duel_lessons.play.y (play)"
    ]
    assert violations({"duel_lessons.books.x": {"duel_lessons.solving.closed_forms"}}) == [
        "duel_lessons.books.x (books) imports duel_lessons.solving.closed_forms (solving)"
    ]


def test_no_module_over_600_lines() -> None:
    """Every module of every layer (the board's JavaScript and CSS are files of their own, views/front/)."""
    big = [(size, name) for size, name in largest_modules(100) if size > 600]
    assert big == []


def test_the_graph_sees_known_imports() -> None:
    """The test can fail: the graph finds an import that is certainly there."""
    assert "duel_lessons.engine.rules" in import_graph()["duel_lessons.engine.game"]


if __name__ == "__main__":
    g = import_graph()
    print("cycles:", len(cycles(g)), cycles(g))
    print("layer violations:", len(violations(g)))
    for line in violations(g):
        print("  ", line)
    print("largest modules:", largest_modules())
