"""The independent readers stay independent: what reads the desktop for them imports no world, no database driver
and no app's seed, and no reader function names the world or a task's expected values (builder/tasks/reader.py)."""

from __future__ import annotations

import ast
from tests.guardrails.imports import REPO

# Modules that exist only to read the desktop for the readers.
READING = [
    *sorted((REPO / "apps").glob("*/reader.py")),
    REPO / "builder/tasks/reader.py",
    *(REPO / "builder/tasks" / f"{m}.py" for m in ("dates", "seen", "matching")),
    *(REPO / "scenarios" / f for f in ("views.py", "work_readers.py", "travel_desktop.py", "bankbook.py")),
    REPO / "scenarios/recaps/pages.py",
]
FORBIDDEN = ("builder.world", "sqlite3", "sqlalchemy")


def _imports(tree: ast.AST) -> list[str]:
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module:
            out.append(node.module)
    return out


def test_reading_modules_import_no_world_and_no_database():
    bad = []
    for path in READING:
        assert path.is_file(), path
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for name in _imports(tree):
            if name.startswith(FORBIDDEN) or (name.startswith("apps.") and name.endswith((".seed", ".models"))):
                bad.append((path.relative_to(REPO).as_posix(), name))
        if ".query(" in path.read_text(encoding="utf-8"):
            bad.append((path.relative_to(REPO).as_posix(), ".query("))
    assert not bad, bad


def _is_reader(node: ast.FunctionDef) -> bool:
    for d in node.decorator_list:
        target = d.func if isinstance(d, ast.Call) else d
        if isinstance(target, ast.Name) and target.id == "reader":
            return True
    return False


def test_no_reader_function_names_the_world_or_the_answers():
    bad = []
    files = [*READING, *sorted((REPO / "scenarios").rglob("*.py"))]
    for path in files:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef) and _is_reader(node):
                for sub in ast.walk(node):
                    if isinstance(sub, ast.Name) and sub.id in ("world", "task"):
                        bad.append((path.relative_to(REPO).as_posix(), node.name, sub.id))
                    if isinstance(sub, ast.Attribute) and sub.attr in ("expected", "rubric", "query"):
                        bad.append((path.relative_to(REPO).as_posix(), node.name, sub.attr))
    assert len([p for p in files if "reader" in p.read_text(encoding="utf-8")]) >= 20
    assert not bad, bad
