"""The house's layers: imports run down only, and no module imports itself back through others.

Every import counts, wherever it is written: at the top, inside a function
(a function-local import must not hide a circle) or under `TYPE_CHECKING`.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("casino", "accounts", "tables")

# Lowest first: a module may import its own layer and the layers below it, never one above.
LAYERS: list[tuple[str, tuple[str, ...]]] = [
    ("the game", ("tables.engine", "casino.env")),
    (
        "chips and players",
        (
            "casino.sql", "casino.rows", "casino.json_values", "casino.database_thread", "accounts.models", "accounts.ledger",
            "accounts.system_accounts", "accounts.balances", "accounts.audit", "accounts.services", "accounts.limits", "accounts.pauses",
        ),
    ),
    ("tables' rows", ("tables.models", "tables.signals", "tables.forms")),
    ("shoe fairness", ("tables.fairness.shoes", "tables.fairness.verification")),
    ("playing a table", ("tables.play",)),
    ("the live view", ("tables.live",)),
    ("hand history", ("tables.history",)),
    (
        "the web and commands",
        (
            "tables.views", "tables.urls", "tables.routing", "tables.admin", "tables.apps",
            "tables.fairness.views", "tables.history.views", "tables.history.urls", "tables.management",
            "tables.loadtest", "tables.migrations", "tables.templatetags", "accounts", "casino",
        ),
    ),
]


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def project_modules() -> dict[str, Path]:
    return {
        module_name(path): path
        for package in PACKAGES
        for path in (ROOT / package).rglob("*.py")
    }


def imported(path: Path, name: str, modules: dict[str, Path]) -> set[str]:
    """The project modules `path` imports, anywhere in it."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(anchor + ([base] if base else []))
            # `from tables.play import services` imports a module; `from tables.models import Table` a name.
            targets = [f"{base}.{alias.name}" for alias in node.names] + [base]
        else:
            continue
        for target in targets:
            while target and target not in modules:
                target = target.rpartition(".")[0]
            if target and target != name and not name.startswith(target + "."):
                found.add(target)
    return found


def packages() -> set[str]:
    """Package __init__ modules: empty here, so they sit in no layer."""
    return {module_name(path) for package in PACKAGES for path in (ROOT / package).rglob("__init__.py")}


def layer_of(name: str) -> int:
    best, rank = -1, None
    for index, (_, prefixes) in enumerate(LAYERS):
        for prefix in prefixes:
            if (name == prefix or name.startswith(prefix + ".")) and len(prefix) > best:
                best, rank = len(prefix), index
    return rank


@pytest.fixture(scope="module")
def graph() -> dict[str, set[str]]:
    modules = project_modules()
    return {name: imported(path, name, modules) for name, path in modules.items()}


def test_every_module_has_a_layer(graph):
    assert [name for name in graph if layer_of(name) is None and name not in packages()] == []


def test_no_module_imports_a_higher_layer(graph):
    inits = packages()
    upward = [
        f"{name} ({LAYERS[layer_of(name)][0]}) imports {target} ({LAYERS[layer_of(target)][0]})"
        for name, targets in graph.items()
        if name not in inits
        for target in targets
        if target not in inits and layer_of(target) > layer_of(name)
    ]
    assert upward == []


def test_no_circle_of_imports(graph):
    # Tarjan's strongly connected components: any component of two or more modules is a circle.
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    circles: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in graph.get(node, ()):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                circles.append(sorted(component))

    for node in graph:
        if node not in index:
            visit(node)
    assert circles == []


def test_no_python_file_is_over_400_lines():
    long = [
        f"{path.relative_to(ROOT)}: {count} lines"
        for package in PACKAGES
        for path in (ROOT / package).rglob("*.py")
        if "migrations" not in path.parts and (count := len(path.read_text().splitlines())) > 400
    ]
    assert long == []
