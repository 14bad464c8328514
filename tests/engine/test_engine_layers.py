"""The engine's modules import one another only down the layers: no circles
(STYLE.md "imports only run down the layers"), counting every import, those
under ``if TYPE_CHECKING:`` and inside functions included."""

from __future__ import annotations

import ast
from pathlib import Path

ENGINE = Path(__file__).resolve().parents[2] / "tables" / "engine"
PACKAGE = "tables.engine"


def engine_modules() -> dict[str, Path]:
    return {
        ("" if path.stem == "__init__" else path.stem): path
        for path in sorted(ENGINE.glob("*.py"))
    }


def parse(path: Path) -> ast.Module:
    return ast.parse(path.read_text(), filename=str(path))


def engine_imports(tree: ast.Module) -> dict[str, list[ast.AST]]:
    """The engine modules ``tree`` imports (anywhere in it), each with the nodes that import it."""
    found: dict[str, list[ast.AST]] = {}
    modules = engine_modules()
    for node in ast.walk(tree):
        targets: list[str] = []
        if isinstance(node, ast.ImportFrom):
            if node.level == 1:
                base = node.module or ""
            elif node.level == 0 and node.module and (node.module + ".").startswith(PACKAGE + "."):
                base = node.module[len(PACKAGE) + 1:] if node.module != PACKAGE else ""
            else:
                continue
            if base:
                targets.append(base.split(".")[0])
            else:
                # ``from . import x``: x may be a module of the package.
                targets.extend(alias.name for alias in node.names if alias.name in modules)
                targets.append("")
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if (alias.name + ".").startswith(PACKAGE + "."):
                    rest = alias.name[len(PACKAGE) + 1:] if alias.name != PACKAGE else ""
                    targets.append(rest.split(".")[0])
        for target in targets:
            found.setdefault(target, []).append(node)
    return found


def import_graph() -> dict[str, set[str]]:
    return {name: set(engine_imports(parse(path))) - {name} for name, path in engine_modules().items()}


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One circle of imports, as the list of modules around it, or None."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def visit(name: str) -> list[str] | None:
        state[name] = 1
        path.append(name)
        for target in sorted(graph.get(name, ())):
            if state.get(target) == 1:
                return path[path.index(target):] + [target]
            if target not in state:
                cycle = visit(target)
                if cycle:
                    return cycle
        path.pop()
        state[name] = 2
        return None

    for name in sorted(graph):
        if name not in state:
            cycle = visit(name)
            if cycle:
                return cycle
    return None


def test_the_cycle_finder_finds_a_circle():
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": set()}) is None


def test_the_graph_sees_the_engine_s_own_imports():
    graph = import_graph()
    assert len(graph) >= 15
    assert "round_state" in graph["round_flow"]
    assert "round" in graph[""]  # __init__ re-exports GameRound


def test_no_engine_module_imports_back_up_the_layers():
    cycle = find_cycle(import_graph())
    assert cycle is None, "a circle of imports: " + " -> ".join(name or "__init__" for name in cycle)


def test_engine_modules_import_each_other_only_at_the_top():
    # No import hidden in a function or under ``if TYPE_CHECKING:``.
    for name, path in engine_modules().items():
        tree = parse(path)
        top = set(tree.body)
        for target, nodes in engine_imports(tree).items():
            for node in nodes:
                assert node in top, f"{path.name}:{node.lineno} imports {target or '__init__'} below the top level"
