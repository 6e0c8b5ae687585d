"""The layer contract of issue 25: which module may import which, and the violations the tree has.

Layers, bottom to top (a module may import its own layer and the ones below, never one above):

0. ``reference``: reference data (``builder/reference/``: places, catalogues, brands and services by role), the
   persona spec (``builder/persona``) and builder's generic utilities (money, dates, rng, names, yamlfile, dbfile,
   the app registry ``builder/apps.py``);
1. ``world``: ``builder/world/``, the simulation;
2. ``projection``: what turns the world into files: each app's Python (``apps/<app>/*.py``: models, seed, catalogue
   readers), ``builder/appkit.py``, ``builder/files``, ``builder/firefox``, ``builder/layer.py``;
3. ``tasks``: each app's ``tasks``, ``steps``, ``oracle``, ``reader``, ``pairs`` and ``effects``, ``scenarios/``,
   ``builder/tasks``, ``builder/bundle.py``;
4. ``top``: the image, the runtime, the site build, the scaffold, the CLI and its output folder, and
   ``audit-tasks`` (``builder/tasks/audit.py``: it serves the site build to read the tasks' answers).

Rules beside the order (each names its violations as ``(module, what it imports or names)`` pairs):

- ``app->app``: no ``apps.<x>`` module imports ``apps.<y>`` (y != x);
- ``world->apps``: ``builder/world`` imports no ``apps.*`` and holds no path into ``apps/`` (a string ``"apps"``
  or ``apps/<name>`` outside docstrings; the pair's second item is ``path:<the string>``);
- ``generic->app``: generic code (``builder/**``) imports no ``apps.<name>`` and names no app by the title or
  domain of its ``app.yaml`` in a string outside docstrings (the pair's second item is ``names:<app>``);
- ``projection->world internals``: projections import from the world only :data:`WORLD_API`;
- ``world cycle``: no import edge between two world modules of one import cycle;
- ``layer order``: no import of a higher layer (edges already counted by a rule above are not repeated).
"""

from __future__ import annotations

from collections import defaultdict

from tests.guardrails.imports import REPO, Module, app_identities, cycles, graph, modules

LAYERS = ("reference", "world", "projection", "tasks", "top")
# Dotted prefixes of builder/ by layer: the longest prefix that matches a module decides.
BUILDER_LAYERS = {
    "builder": "reference",
    "builder.reference": "reference",
    "builder.persona": "reference",
    "builder.money": "reference",
    "builder.dates": "reference",
    "builder.rng": "reference",
    "builder.names": "reference",
    "builder.yamlfile": "reference",
    "builder.dbfile": "reference",
    "builder.apps": "reference",
    "builder.bundle_format": "reference",
    "builder.world": "world",
    "builder.appkit": "projection",
    "builder.files": "projection",
    "builder.firefox": "projection",
    "builder.layer": "projection",
    "builder.tasks": "tasks",
    "builder.tasks.audit": "top",
    "builder.bundle": "tasks",
    "builder.image": "top",
    "builder.runtime": "top",
    "builder.site": "top",
    "builder.scaffold": "top",
    "builder.webcheck": "top",
    "builder.output": "top",
    "builder.cli": "top",
    "builder.coverage": "top",
}
# An app's modules in the tasks layer (by the first part below apps/<app>/); every other module is a projection.
APP_TASK_MODULES = frozenset({"tasks", "steps", "oracle", "pairs", "scenarios", "reader", "effects"})
# The world's public API: what a projection may import from builder/world (the package's own exports, the world
# model with its events and their schema).
WORLD_API = frozenset({"builder.world", "builder.world.model", "builder.world.events", "builder.world.schema"})

RULES = (
    "app->app",
    "world->apps",
    "generic->app",
    "projection->world internals",
    "world cycle",
    "layer order",
)


class UnplacedModule(Exception):
    """A module of builder/ that no entry of :data:`BUILDER_LAYERS` places in a layer."""


def layer(name: str) -> str:
    """The layer of module ``name`` (see the module docstring); raises :class:`UnplacedModule` for a new module of
    ``builder/`` whose top-level name is not in :data:`BUILDER_LAYERS`."""
    parts = name.split(".")
    if parts[0] == "scenarios":
        return "tasks"
    if parts[0] == "apps":
        return "tasks" if len(parts) > 2 and parts[2] in APP_TASK_MODULES else "projection"
    for cut in range(len(parts), 0, -1):
        prefix = ".".join(parts[:cut])
        if prefix in BUILDER_LAYERS and (cut > 1 or len(parts) == 1):
            return BUILDER_LAYERS[prefix]
    raise UnplacedModule(f"{name}: place it in a layer (tests/guardrails/layers.py BUILDER_LAYERS)")


def _placed(name: str) -> str | None:
    """:func:`layer`, or None for a module no layer holds yet (test_every_module_has_a_layer names it)."""
    try:
        return layer(name)
    except UnplacedModule:
        return None


def _app_of(name: str, apps: set[str]) -> str | None:
    parts = name.split(".")
    return parts[1] if parts[0] == "apps" and len(parts) > 1 and parts[1] in apps else None


def violations(root=REPO) -> dict[str, set[tuple[str, str]]]:
    """Every violation of the contract in the tree at ``root``, by rule (all of :data:`RULES` present)."""
    known = modules(root)
    edges = graph(known)
    identities = app_identities(root)
    apps = {a.name for a in identities}
    found: dict[str, set[tuple[str, str]]] = defaultdict(set)

    world = {name for name in known if _placed(name) == "world"}
    world_edges = {m: [t for t in edges[m] if t in world] for m in world}
    in_cycle = {}
    for component in cycles(world_edges):
        for member in component:
            in_cycle[member] = set(component)

    for name, module in known.items():
        own = _placed(name)
        source_app = _app_of(name, apps)
        generic = name.split(".")[0] == "builder"
        for target in edges[name]:
            target_app = _app_of(target, apps)
            counted = True
            if source_app and target_app and target_app != source_app:
                found["app->app"].add((name, target))
            elif own == "world" and target.split(".")[0] == "apps":
                found["world->apps"].add((name, target))
            elif generic and target_app:
                found["generic->app"].add((name, target))
            elif own == "projection" and _placed(target) == "world" and target not in WORLD_API:
                found["projection->world internals"].add((name, target))
            elif target in in_cycle.get(name, ()):
                found["world cycle"].add((name, target))
            else:
                counted = False
            if not counted and own and _placed(target) and LAYERS.index(_placed(target)) > LAYERS.index(own):
                found["layer order"].add((name, target))
        if own == "world":
            for text in module.strings():
                if _names_apps_path(text, apps):
                    found["world->apps"].add((name, f"path:{text}"))
        if generic:
            for text in module.strings():
                for app in identities:
                    if app.named_in(text):
                        found["generic->app"].add((name, f"names:{app.name}"))
    return {rule: set(found.get(rule, ())) for rule in RULES}


def _names_apps_path(text: str, apps: set[str]) -> bool:
    """Whether a string of code is a path part ``"apps"`` or a path ``apps/<an app>...``."""
    if text == "apps":
        return True
    return any(f"apps/{app}/" in text or text.endswith(f"apps/{app}") for app in apps)


def world_modules_in_cycles(root=REPO) -> tuple[int, int]:
    """(world modules in an import cycle with another world module, world modules)."""
    known = modules(root)
    edges = graph(known)
    world = {name for name in known if _placed(name) == "world"}
    components = cycles({m: [t for t in edges[m] if t in world] for m in world})
    return sum(len(c) for c in components), len(world)


def by_module(pairs: set[tuple[str, str]]) -> dict[str, list[str]]:
    """``pairs`` grouped by their first item, both levels sorted (for messages)."""
    out: dict[str, list[str]] = defaultdict(list)
    for module, target in sorted(pairs):
        out[module].append(target)
    return dict(out)


__all__ = ["LAYERS", "Module", "RULES", "WORLD_API", "by_module", "layer", "violations", "world_modules_in_cycles"]
