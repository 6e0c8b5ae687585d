"""The repository's Python import graph, read with :mod:`ast` (no module is imported): what the layer contract
(tests/guardrails/test_layers.py) checks.

A module is named by its dotted path from the repository root (``builder.world.mail``, ``apps.bank.seed``; a
package by its folder, ``builder.world``). :func:`imports` lists every import statement of a module at any depth,
function-level imports included, resolved to the most specific module of the tree it names: ``from builder.world
import accounts`` is ``builder.world.accounts`` (a submodule), ``from builder.world import World`` is
``builder.world``. Imports of modules outside the tree (the standard library, PyPI packages) are left out.
"""

from __future__ import annotations

import ast
import os
import re
from dataclasses import dataclass
from functools import cache, cached_property
from pathlib import Path

import yaml

REPO = Path(__file__).resolve().parents[2]
# The folders whose Python makes the product (tests, scripts and the apps' TypeScript are not part of the graph).
ROOTS = ("builder", "apps", "scenarios")
SKIPPED = frozenset({"node_modules", "web", "__pycache__"})


@dataclass(frozen=True)
class Module:
    """One Python file of the tree: ``name`` (dotted), ``path`` (relative to the repository), parsed ``tree``."""

    name: str
    path: Path
    tree: ast.Module

    @property
    def package(self) -> str:
        """The package relative imports start from: the module itself for an ``__init__.py``, else its parent."""
        return self.name if self.path.name == "__init__.py" else self.name.rpartition(".")[0]

    @cached_property
    def docstrings(self) -> frozenset[int]:
        """``id()`` of every docstring constant (module, class, function): text, not code."""
        ids = set()
        for node in ast.walk(self.tree):
            if isinstance(node, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and node.body:
                first = node.body[0]
                if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                    ids.add(id(first.value))
        return frozenset(ids)

    def strings(self) -> list[str]:
        """Every string constant of the code, docstrings left out (comments are not in the AST)."""
        return [
            node.value
            for node in ast.walk(self.tree)
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in self.docstrings
        ]


def _name(rel: Path) -> str:
    parts = rel.with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


@cache
def modules(root: Path = REPO) -> dict[str, Module]:
    """Every Python module under :data:`ROOTS` of ``root`` by dotted name (``node_modules`` and ``web/`` left out),
    read once per process (do not change the dict)."""
    found = {}
    for top in ROOTS:
        for folder, dirs, files in os.walk(root / top):
            dirs[:] = sorted(d for d in dirs if d not in SKIPPED)  # pruned: node_modules is large (and a link)
            for file in sorted(f for f in files if f.endswith(".py")):
                rel = (Path(folder) / file).relative_to(root)
                found[_name(rel)] = Module(
                    _name(rel), rel, ast.parse((root / rel).read_text(encoding="utf-8"), str(rel))
                )
    return dict(sorted(found.items()))


def _resolve(name: str, known: dict[str, Module]) -> str | None:
    """The longest prefix of dotted ``name`` that is a module of the tree, or None (outside the tree)."""
    while name:
        if name in known:
            return name
        name = name.rpartition(".")[0]
    return None


def imports(module: Module, known: dict[str, Module]) -> list[str]:
    """The tree's modules ``module`` imports, at any depth, sorted and without repeats (see the module docstring)."""
    found = set()
    for node in ast.walk(module.tree):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = module.package
                for _ in range(node.level - 1):
                    base = base.rpartition(".")[0]
                source = f"{base}.{node.module}" if node.module else base
            else:
                source = node.module or ""
            names = [f"{source}.{alias.name}" for alias in node.names]
        else:
            continue
        for name in names:
            target = _resolve(name, known)
            if target is not None and target != module.name:
                found.add(target)
    return sorted(found)


def graph(known: dict[str, Module]) -> dict[str, list[str]]:
    """Module name -> the tree's modules it imports."""
    return {name: imports(module, known) for name, module in known.items()}


def cycles(edges: dict[str, list[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan, iterative), each sorted, in name order."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    found: list[list[str]] = []
    for start in sorted(edges):
        if start in index:
            continue
        work = [(start, iter(sorted(edges[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in edges:
                    continue
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(edges[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return sorted(found)


@dataclass(frozen=True)
class AppIdentity:
    """What names one app in code: its folder ``name``, ``title`` and ``domain`` (from its ``app.yaml``)."""

    name: str
    title: str
    domain: str

    def named_in(self, text: str) -> bool:
        """Whether ``text`` names the app by its title (a whole word, case as written) or its domain."""
        return self.domain in text or re.search(rf"(?<![\w-]){re.escape(self.title)}(?![\w-])", text) is not None


def app_identities(root: Path = REPO) -> list[AppIdentity]:
    """Every app of ``root/apps`` (a folder with an ``app.yaml``), by name."""
    found = []
    for spec in sorted((root / "apps").glob("*/app.yaml")):
        data = yaml.safe_load(spec.read_text(encoding="utf-8"))
        found.append(AppIdentity(spec.parent.name, data["title"], data["domain"]))
    return found
