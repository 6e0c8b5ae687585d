"""The world's engine: finds the steps of the world's modules and runs them in the order their declarations give.

A world module is a life domain (finance, travel, orders, career...) or a channel's own traffic (personal mail,
chat). Each of its steps is a function ``f(sim)`` marked with :func:`world_step`, which declares what the step
reads, writes and amends: event kinds (``flight_booking``, ``email``) and two shared products,

* ``ledger``: the postings (money moved) on events; a step that attaches charges writes it, settlement reads it;
* ``merchants``: restaurants added to ``sim.merchants`` (the marketing mail reads the shops there).

Order: a step runs after every step that writes something it reads, and a step that *amends* a kind runs after
every step that reads that kind (those readers never see what it adds: the loose ends planted into the calendar,
the calendar entries of a module added later); a cycle is an error naming its steps. Among the steps free to run,
the lower ``rank`` goes first, then the step's name. The rank is the step's place in the timeline of writes:
readers that walk the events of several writers in creation order (settlement's ledger lines of one minute, the
visits browsing makes after events with a site, the inbox and calendar that planted quotes) see them in rank
order, so a new step takes a rank after those whose output it must not change. (Everyday spending reads the
persona's own merchants before orders adds restaurants: its rank keeps it first.)

Which step runs when decides only what a reader sees, never an id or a draw: event ids derive from (kind, time,
key), each step draws from its own named streams (``sim.rng("<module>/<what>")``, a fresh generator per name; the
business mail the domains send keeps the ``mail/...`` stream names it had when mail.py sent it), and the world's
events are sorted by (time, id) at the end. ``simulate(persona, without=...)`` leaves out modules or steps.

While a step runs, :class:`~builder.world.context.Sim` refuses a read (``of_kind``) or a write (``event``,
charges) it did not declare; walks over ``sim.events`` and ``sim.merchants`` are declared by hand.
"""

from __future__ import annotations

import heapq
import importlib
import pkgutil
from dataclasses import dataclass
from typing import Callable

from .context import Sim

PRODUCTS = ("ledger", "merchants")  # what a step may read or write besides event kinds


@dataclass(frozen=True)
class Step:
    """One declared step of a world module: ``run(sim)`` reads ``reads``, writes ``writes`` and amends ``amends``
    (event kinds and :data:`PRODUCTS`); ``name`` is ``<module>.<function>``, ``module`` the module's short name
    (``travel``)."""

    name: str
    module: str
    run: Callable[[Sim], None]
    reads: frozenset[str]
    writes: frozenset[str]
    amends: frozenset[str]
    rank: int


def world_step(*, rank: int, reads: tuple[str, ...] = (), writes: tuple[str, ...] = (), amends: tuple[str, ...] = ()):
    """Mark ``f(sim)`` as a step of its world module (see the module docstring for ``rank``, ``reads``, ``writes``
    and ``amends``)."""

    def mark(f: Callable[[Sim], None]) -> Callable[[Sim], None]:
        f.world_step = (rank, frozenset(reads), frozenset(writes), frozenset(amends))
        return f

    return mark


def discover(package: str = __package__) -> list[Step]:
    """Every step of the modules of ``package`` (imported in name order), sorted by name.

    Raises ``ValueError`` if a step reads something no step writes (a misspelt kind).
    """
    pkg = importlib.import_module(package)
    found = []
    for info in sorted(pkgutil.iter_modules(pkg.__path__), key=lambda m: m.name):
        module = importlib.import_module(f"{package}.{info.name}")
        for attr, f in sorted(vars(module).items()):
            mark = getattr(f, "world_step", None)
            if mark is None or getattr(f, "__module__", None) != module.__name__:
                continue
            rank, reads, writes, amends = mark
            found.append(Step(f"{info.name}.{attr}", info.name, f, reads, writes, amends, rank))
    written = {w for s in found for w in s.writes}
    for s in found:
        if s.reads - written:
            raise ValueError(f"world step {s.name} reads {sorted(s.reads - written)}, which no step writes")
    return sorted(found, key=lambda s: s.name)


def order(steps: list[Step]) -> list[Step]:
    """``steps`` in run order: each after every step writing what it reads and before every step amending it,
    ties by (rank, name).

    A step never waits for itself (a step may read what it writes or amends). Raises ``ValueError`` naming the steps of a
    cycle if the declarations allow no order.
    """
    after: dict[str, set[str]] = {s.name: set() for s in steps}  # step -> steps that must run before it
    for s in steps:
        for w in steps:
            if w is not s and s.reads & w.writes:
                after[s.name].add(w.name)
            if w is not s and s.amends & w.reads:
                after[s.name].add(w.name)
    by_name = {s.name: s for s in steps}
    waiting = {name: set(deps) for name, deps in after.items()}
    ready = [(s.rank, s.name) for s in steps if not waiting[s.name]]
    heapq.heapify(ready)
    out: list[Step] = []
    while ready:
        _, name = heapq.heappop(ready)
        out.append(by_name[name])
        for other, deps in waiting.items():
            if name in deps:
                deps.discard(name)
                if not deps:
                    heapq.heappush(ready, (by_name[other].rank, other))
    if len(out) < len(steps):
        raise ValueError(f"world steps depend on each other in a cycle: {' -> '.join(_cycle(after, waiting))}")
    return out


def _cycle(after: dict[str, set[str]], waiting: dict[str, set[str]]) -> list[str]:
    """One cycle among the steps still ``waiting``: follow a dependency that is waiting itself until one repeats."""
    name = min(n for n, deps in waiting.items() if deps)
    path: list[str] = []
    while name not in path:
        path.append(name)
        name = min(d for d in after[name] if waiting[d])
    return path[path.index(name) :] + [name]


def plan(without: tuple[str, ...] = ()) -> list[Step]:
    """The run order of every discovered step but those of the modules (``travel``) or steps (``finance.settle``)
    named in ``without``. Raises ``KeyError`` for a name that is neither."""
    steps = discover()
    known = {s.module for s in steps} | {s.name for s in steps}
    unknown = set(without) - known
    if unknown:
        raise KeyError(f"no world module {sorted(unknown)}")
    return order([s for s in steps if s.module not in without and s.name not in without])


def run_steps(sim: Sim, steps: list[Step]) -> None:
    """Run ``steps`` over ``sim`` in the given order, each held to its declarations (see :class:`Sim`)."""
    for s in steps:
        sim.step = s
        try:
            s.run(sim)
        finally:
            sim.step = None
