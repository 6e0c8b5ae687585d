"""Every task of a build, in bundle order: each app's own tasks (``apps/<app>/tasks.py``) with the cross-app
scenarios (the top-level ``scenarios`` package) placed among them.

A scenario module declares ``SCENARIOS``, a list of :class:`Scenario`: the app its task ids name (``home``), the
apps every one of its tasks needs, the function that builds its tasks from the world, its reference solutions
(task slug -> ``solve(task, web) -> str``, as an app's ``oracle.py`` ``SOLVERS``) and where its tasks sit among the
home app's: right after one of the home app's tasks (``after``, a slug; :data:`FIRST` for the head of the list),
or after all of them (by ``rank``, then module name, then list order). This module names no app and no scenario: it
finds them by walking the package.
Pure and deterministic: the order depends on the world, the ranks and the sorted module names only.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from functools import cache

from builder.world import World

from . import effects
from .model import NOT_APPS, Dropped, Task

#: The package the scenarios live in (a top-level folder of the repository).
PACKAGE = "scenarios"

#: The anchor ``after=FIRST`` names no task: the scenario's tasks come before all the home app's own tasks.
FIRST = ""


@dataclass(frozen=True)
class Scenario:
    """Cross-app tasks whose ids name the app ``home`` (``<persona>/<home>/<slug>``).

    ``apps``: the apps every task of it involves (app folder names, ``home`` among them); it is built only when all
    are in the build, and each task is still kept only when all its ``apps_involved`` are. ``tasks(world)``: its
    tasks, in order (empty when the world lacks their material). ``solvers``: task slug -> reference solution;
    ``readers``: task slug -> the independent reader of an answer task (:class:`builder.tasks.reader.Reader`).
    ``after``: the slug of the home app's task these tasks follow (their place in the bundle), or several, the
    first one the home app has for this world winning (for an anchor task the world may lack); :data:`FIRST`: the
    head of the list. The anchor may be another scenario's task when that scenario is placed first: anchored
    scenarios are placed by ``rank`` (lower first), then module name, then list order, so ``rank`` lets one follow
    a task of a module that sorts after it. ``None``: they come after all the home app's own and anchored tasks,
    ordered by ``rank`` (lower first). ``when(world)``: whether it has tasks at all (the home app's own gate, such
    as "the persona has taken a ride"); ``None``: always."""

    home: str
    apps: tuple[str, ...]
    tasks: Callable[[World], list[Task]]
    solvers: Mapping[str, Callable] = field(default_factory=dict)
    readers: Mapping[str, object] = field(default_factory=dict)
    after: str | tuple[str, ...] | None = None
    rank: int = 0
    when: Callable[[World], bool] | None = None


@cache
def discover() -> tuple[tuple[str, Scenario], ...]:
    """Every ``(module name, scenario)`` of the scenarios package, by module name, then list order."""
    root = importlib.import_module(PACKAGE)
    names = sorted(m.name for m in pkgutil.walk_packages(root.__path__, f"{PACKAGE}.") if not m.ispkg)
    return tuple((name, s) for name in names for s in getattr(importlib.import_module(name), "SCENARIOS", ()))


def _slug(task: Task) -> str:
    return task.id.rsplit("/", 1)[-1]


def _built(world: World, scenario: Scenario, name: str) -> list[Task]:
    if scenario.when is not None and not scenario.when(world):
        return []
    out = scenario.tasks(world)
    for t in out:
        if isinstance(t, Dropped):
            continue
        if t.id.split("/")[-2] != scenario.home or not set(scenario.apps) <= set(t.apps_involved):
            raise ValueError(f"{name}: task {t.id} is not {scenario.home}'s or does not involve {scenario.apps}")
    return out


def home_tasks(
    world: World, app: str, own: list[Task], built: Iterable[str] | None = None, *, dropped: bool = False
) -> list[Task]:
    """The tasks whose ids name ``app``: its ``own`` tasks (its ``tasks.py``'s) with the scenarios homed there
    placed among them, leaving out scenarios that need an app outside ``built`` (``None``: every app), every action
    task given a state_diff item for each app of ``built`` its actions write into through a service
    (:func:`builder.tasks.effects.complete`: the confirmation mail, the card payment). With ``dropped``, the
    :class:`~builder.tasks.model.Dropped` records among them instead of the tasks.

    Raises ``ValueError`` when a scenario's anchor task is missing though the scenario has tasks, or a scenario's
    task names another app in its id or lacks one of the scenario's ``apps``."""
    built = None if built is None else set(built)
    out = list(own)
    placed: dict[str, int] = {}  # anchor slug -> scenario tasks already placed after it (in placement order)
    tail: list[tuple[int, int, list[Task]]] = []
    for i, (name, s) in sorted(enumerate(discover()), key=lambda x: (x[1][1].rank, x[0])):
        if s.home != app or (built is not None and not set(s.apps) - NOT_APPS <= built):
            continue
        made = _built(world, s, name)
        if s.after is None:
            tail.append((s.rank, i, made))
        elif made:
            slugs = [FIRST, *(_slug(t) for t in out)]  # a task's index here is the place right after it
            anchor = next((a for a in ((s.after,) if isinstance(s.after, str) else s.after) if a in slugs), None)
            if anchor is None:
                raise ValueError(f"{name}: {app} has none of the tasks {s.after!r} for its tasks to follow")
            k = slugs.index(anchor) + placed.get(anchor, 0)
            out[k:k] = made
            placed[anchor] = placed.get(anchor, 0) + len(made)
    for _, _, made in sorted(tail, key=lambda x: x[:2]):
        out += made
    if dropped:
        return [t for t in out if isinstance(t, Dropped)]
    return [effects.complete(t, built) for t in out if not isinstance(t, Dropped)]


def tasks(world: World, apps: list) -> list[Task]:
    """The tasks of a build of ``apps`` (:class:`builder.apps.App`, in build order): app by app, each app's
    :func:`home_tasks`, keeping only tasks whose apps (files and the browser aside) are all built, every answer
    check given the other candidates it rejects (:func:`builder.tasks.adversary.harden`)."""
    from .adversary import harden

    built = {a.name for a in apps}
    names = [world.persona.identity.name, *(a.title for a in apps), *(a.name for a in apps)]
    return harden(
        [
            t
            for a in apps
            for t in home_tasks(world, a.name, a.module("tasks").tasks(world), built)
            if set(t.apps_involved) - NOT_APPS <= built
        ],
        keep=names,
    )


def solvers(app: str) -> dict[str, Callable]:
    """Slug -> reference solution of the scenarios homed in ``app``."""
    return {slug: fn for _, s in discover() if s.home == app for slug, fn in s.solvers.items()}


def readers(app: str) -> dict[str, object]:
    """Readers of the answer tasks of scenarios homed in ``app``: task slug -> :class:`builder.tasks.reader.Reader`."""
    return {slug: r for _, s in discover() if s.home == app for slug, r in s.readers.items()}


def dropped(world: World, apps: list) -> list[Dropped]:
    """The tasks a build of ``apps`` made and left out (:class:`~builder.tasks.model.Dropped`), in bundle order."""
    built = {a.name for a in apps}
    return [d for a in apps for d in home_tasks(world, a.name, a.module("tasks").tasks(world), built, dropped=True)]


def app_tasks(world: World, app: str) -> list[Task]:
    """Every task whose id names ``app``, as a build of every app has them: its own and the scenarios homed there,
    in bundle order."""
    return home_tasks(world, app, importlib.import_module(f"apps.{app}.tasks").tasks(world))


def tasks_of(app: str) -> Callable[[World], list[Task]]:
    """``world -> app_tasks(world, app)``: the whole task list of ``app``, as its ``tasks.py`` ``tasks`` is its own."""
    return lambda world: app_tasks(world, app)
