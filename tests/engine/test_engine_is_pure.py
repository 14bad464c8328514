from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

ENGINE = Path(__file__).resolve().parents[2] / "tables" / "engine"
FORBIDDEN = ("django", "random", "channels")


def imported_modules(path: Path) -> set[str]:
    names = set()
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module.split(".")[0])
    return names


def test_no_engine_module_imports_django_or_the_random_module():
    files = sorted(ENGINE.rglob("*.py"))
    assert len(files) >= 10
    for path in files:
        assert not imported_modules(path) & set(FORBIDDEN), path


def test_importing_the_engine_loads_no_django():
    code = "import sys, tables.engine, tables.engine.scenario, tables.engine.simulate; print('django' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         cwd=ENGINE.parents[1])
    assert out.stdout.strip() == "False"
