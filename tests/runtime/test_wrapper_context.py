"""The Docker wrapper's build context holds everything run-image imports (a fast check of what
tests/runtime/test_podman.py finds only after a 20-minute image build).

``.dockerignore`` is an allow-list (``*`` then ``!path`` lines). run-image's entry modules
(``builder.runtime.run``, ``builder.runtime.pull``) and every module of the tree they import, at any depth,
must be let in, and outside the tree they may import only the standard library and the three packages the
image installs (qemu.qmp, requests, rich).
"""

from __future__ import annotations

import ast
import sys

from tests.guardrails.imports import REPO, graph, modules

ENTRIES = ("builder.runtime.run", "builder.runtime.pull")
# What the wrapper image has besides the standard library (Dockerfile: Debian's python3-requests and
# python3-rich, qemu.qmp from PyPI).
THIRD_PARTY = frozenset({"qemu", "requests", "rich"})
# Imported inside the one function that needs it, with a clear error when absent (pull from hf://, PyAV for screen
# recordings: the wrapper installs it, run-image answers 501 without it).
OPTIONAL = frozenset({"huggingface_hub", "av"})


def context_files() -> list[str]:
    """Every Python file of ``builder/`` the build context holds, repository-relative, sorted."""
    allowed = allowed_paths()
    files = (p.relative_to(REPO).as_posix() for p in (REPO / "builder").rglob("*.py") if "__pycache__" not in p.parts)
    return sorted(f for f in files if let_in(f, allowed))


def allowed_paths() -> list[str]:
    """The ``!path`` lines of .dockerignore (a folder ends with ``/``)."""
    lines = (REPO / ".dockerignore").read_text(encoding="utf-8").splitlines()
    return [line[1:].strip() for line in lines if line.startswith("!")]


def let_in(path: str, allowed: list[str]) -> bool:
    """Whether the repository-relative ``path`` is in the build context."""
    return any(path == entry or (entry.endswith("/") and path.startswith(entry)) for entry in allowed)


def closure() -> list[str]:
    """run-image's entry modules and every module of the tree they import, sorted."""
    known = modules()
    edges = graph(known)
    seen, todo = set(), list(ENTRIES)
    while todo:
        name = todo.pop()
        if name not in seen:
            seen.add(name)
            todo.extend(edges[name])
    # A package's __init__ runs before any of its modules.
    for name in list(seen):
        parts = name.split(".")
        seen.update(".".join(parts[:i]) for i in range(1, len(parts)))
    return sorted(seen)


def test_every_module_run_image_imports_is_in_the_build_context():
    known = modules()
    allowed = allowed_paths()
    missing = [known[name].path.as_posix() for name in closure() if not let_in(known[name].path.as_posix(), allowed)]
    assert missing == [], f"add to .dockerignore (run-image imports them): {missing}"


def test_run_image_imports_only_what_the_image_installs():
    known = modules()
    outside = set()
    for name in closure():
        for node in ast.walk(known[name].tree):
            if isinstance(node, ast.Import):
                tops = [alias.name.split(".")[0] for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and not node.level:
                tops = [(node.module or "").split(".")[0]]
            else:
                continue
            outside.update(
                f"{name}: {top}"
                for top in tops
                if top not in sys.stdlib_module_names and top not in THIRD_PARTY | OPTIONAL and top not in ("builder",)
            )
    assert sorted(outside) == []
