"""The reference layer at the bottom (issue 25): reference data imports nothing above it, the world reads apps'
data only through it, and the world and the projections name apps only by role.

Imports are read from the source (every ``import``, at any depth: function-level imports count).
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from builder.apps import discover
from builder.reference import WEB_FILES, path, services

REPO = Path(__file__).resolve().parents[2]
#: What the reference layer may not import: the world, the apps and everything projecting them.
ABOVE_REFERENCE = (
    "builder.world",
    "apps",
    "builder.files",
    "builder.firefox",
    "builder.layer",
    "builder.tasks",
    "builder.bundle",
    "builder.image",
    "builder.runtime",
    "builder.site",
    "builder.cli",
    "builder.appkit",
)
#: Reference files that may reach above, and why.
TOOLS: dict[str, str] = {}
#: Generic code that names apps only by role (the app whose app.yaml provides it).
BY_ROLE = ("builder/world", "builder/files", "builder/firefox", "builder/layer.py")


def _modules(rel: str):
    root = REPO / rel
    for p in [root] if root.is_file() else sorted(root.rglob("*.py")):
        yield p, ast.parse(p.read_text(encoding="utf-8"), str(p))


def _imports(p: Path, tree: ast.AST) -> set[str]:
    package = ".".join(p.relative_to(REPO).parts[:-1])  # the package a relative import starts from
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                base = ".".join(parts[: len(parts) - node.level + 1] + ([node.module] if node.module else []))
            out |= {base} | {f"{base}.{a.name}" for a in node.names}
    return out


def _strings(tree: ast.AST):
    docs = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                docs.add(id(first.value))
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docs:
            yield node


def _above(name: str, layers: tuple[str, ...]) -> bool:
    return any(name == x or name.startswith(x + ".") for x in layers)


def test_reference_imports_nothing_above_it():
    bad = []
    for p, tree in _modules("builder/reference"):
        rel = p.relative_to(REPO).as_posix()
        found = sorted(m for m in _imports(p, tree) if _above(m, ABOVE_REFERENCE))
        if found and rel not in TOOLS:
            bad.append(f"{rel}: {found}")
    assert not bad, "the reference layer reaches above itself:\n" + "\n".join(bad)


def test_world_reads_no_app():
    """No import of ``apps`` and no path into ``apps/`` in the world: catalogues are reference data."""
    names = [a.name for a in discover(selected=False)]
    path_into_apps = re.compile(r"\bapps/(%s)\b" % "|".join(names))
    bad = []
    for p, tree in _modules("builder/world"):
        rel = p.relative_to(REPO).as_posix()
        bad += [f"{rel}: import {m}" for m in sorted(_imports(p, tree)) if _above(m, ("apps",))]
        bad += [
            f"{rel}:{s.lineno}: {s.value!r}"
            for s in _strings(tree)
            if s.value == "apps" or path_into_apps.search(s.value)
        ]
    assert not bad, "the world reads an app:\n" + "\n".join(bad)


def test_generic_code_names_apps_by_role():
    """No brand (an app's title) or host name (its domain) written into the world or the projections' generic
    code; they come from :func:`builder.reference.services.service`. Stream names (``mail/daybook/...``, lower
    case) are identifiers of the world's randomness, not brands, and stay."""
    apps = discover(selected=False)
    brand = re.compile("|".join(re.escape(x) for a in apps for x in (a.title, a.domain)))
    bad = []
    for rel in BY_ROLE:
        for p, tree in _modules(rel):
            bad += [f"{p.relative_to(REPO)}:{s.lineno}: {s.value!r}" for s in _strings(tree) if brand.search(s.value)]
    assert not bad, "brand or host literals in generic code:\n" + "\n".join(bad)


def test_services_resolve_to_the_providing_app():
    apps = discover(selected=False)
    for a in apps:
        for role in a.provides:
            s = services.service(role)
            assert (s.app, s.title, s.domain, s.url) == (a.name, a.title, a.domain, f"http://{a.domain}/")
    with pytest.raises(services.UnknownService, match="no-such-role"):
        services.service("no-such-role")


def test_web_files_exist():
    assert WEB_FILES and all(path(rel).is_file() for rel in WEB_FILES)
