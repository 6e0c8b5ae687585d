"""Shared fixtures: the shipped personas, completed and simulated once per session; the site build; the lanes.

The fast lane (pytest's default selection, ``-m`` in pyproject's ``addopts``) leaves out the tests marked
``site``, ``slow``, ``alone`` and ``pipeline`` (pyproject.toml lists what each means). It applies to a run of the
default ``testpaths`` (a bare ``pytest``, with ``-k`` or not) and to ``PERSONA_LANE=fast`` (``scripts/test.sh
--fast``); a run naming test files or folders runs every test in them, whatever its marks, unless it gives its own
``-m``. ``site`` is set here from the fixtures a test uses: every test whose fixtures include :func:`site_build`
gets it, and :func:`tests.app_e2e.site` fails a test that builds the site without it (so a new test cannot slip
the site build into the fast lane).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from functools import lru_cache
from pathlib import Path

import pytest

from builder.persona import complete, load
from builder.world import simulate

REPO = Path(__file__).resolve().parent.parent
DEFAULT_PERSONA = REPO / "personas" / "dana-whitfield.json"
PERSONAS = sorted(p.stem for p in (REPO / "personas").glob("*.json") if p.name != "persona.schema.json")


# The run's temporary-path factory (set by the session fixture below): where workers share what they build.
_TMP: list[pytest.TempPathFactory] = []


@pytest.fixture(scope="session", autouse=True)
def _share_folder(tmp_path_factory):
    _TMP.append(tmp_path_factory)


def shared_folder() -> Path | None:
    """The folder the run's pytest-xdist workers share (beside their own temporary folders), or None when there is
    nothing to share (no xdist, or the session has not started)."""
    if not _TMP or not os.environ.get("PYTEST_XDIST_WORKER"):
        return None
    folder = _TMP[0].getbasetemp().parent / "shared"
    folder.mkdir(exist_ok=True)
    return folder


@contextmanager
def locked(folder: Path, key: str) -> Iterator[None]:
    """Hold the exclusive ``fcntl`` lock ``<folder>/<key>.lock``: one worker at a time builds what ``key`` names."""
    import fcntl

    with (folder / f"{key}.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        yield


def persona_digest(persona) -> str:
    """12 hex digits of the completed spec's SHA-256: keys what is built from it, so two specs of one id never share."""
    import hashlib

    return hashlib.sha256(persona.model_dump_json(by_alias=True, exclude_none=True).encode()).hexdigest()[:12]


def shared(key: str, make):
    """``make()``, computed once per test run for all pytest-xdist workers: the first worker to ask pickles it into
    :func:`shared_folder` (under :func:`locked`), the others load it (a world loads in a fifth of the time it takes to
    simulate). Without xdist (or before the session starts) it is just ``make()``. Deterministic builds only: every
    worker would have made the same value."""
    folder = shared_folder()
    if folder is None:
        return make()
    import pickle

    path = folder / f"{key}.pickle"
    with locked(folder, key):
        if path.exists():
            return unpickle(path.read_bytes())
        value = make()
        part = folder / f"{key}.part"
        part.write_bytes(pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL))
        part.rename(path)
        return value


def unpickle(data: bytes):
    """``pickle.loads(data)`` with the cyclic garbage collector paused: a world is some 10^6 small objects, and the
    collections their allocation would trigger (finding nothing to free) take ten times the load itself."""
    import gc
    import pickle

    paused = gc.isenabled()
    gc.disable()
    try:
        return pickle.loads(data)
    finally:
        if paused:
            gc.enable()


@lru_cache(maxsize=None)
def _world(stem: str):
    def make():
        persona = complete(load(REPO / "personas" / f"{stem}.json"))
        return persona, simulate(persona)

    return shared(f"world-{stem}", make)


@lru_cache(maxsize=None)
def tokyo_world():
    """(persona, world) of ``tests/data/tokyo-persona.json``: a new user's trial, en_US text and a home in Tokyo
    (issue 26), completed and simulated once per test run for every test of a home abroad."""

    def make():
        persona = complete(load(REPO / "tests" / "data" / "tokyo-persona.json"))
        return persona, simulate(persona)

    return shared("world-tokyo", make)


_PLANNED: dict[str, object] = {}


# World modules that came after the first twelve apps' world (builder/world/engine.py orders them after it by their
# declarations and ranks); tests/world/test_modules.py checks that leaving any of them out shifts nothing before it.
# A new world module adds its name here (CONTRIBUTING.md, "Add a world module").
LATER_MODULES = ("investing", "forecasts", "tax_year", "projects", "career")


def planned_world(persona):
    """The world of ``persona`` without the :data:`LATER_MODULES`: the world the first twelve apps knew, whose money
    only the budget's own flows move. Simulated once per persona id."""
    if persona.id not in _PLANNED:
        _PLANNED[persona.id] = shared(
            f"planned-{persona.id}-{persona_digest(persona)}", lambda: simulate(persona, without=LATER_MODULES)
        )
    return _PLANNED[persona.id]


_TASKS: dict[int, tuple[object, tuple]] = {}


def world_tasks(world) -> list:
    """Every task of ``world`` as a build of every app has them (each app's :func:`builder.tasks.collect.app_tasks`,
    apps in :func:`builder.apps.discover` order), generated once per world object in this process: read them, do not
    change them. A test of the generator itself calls the generator."""
    if id(world) not in _TASKS:
        from builder.apps import discover
        from builder.tasks.collect import app_tasks

        _TASKS[id(world)] = (world, tuple(t for a in discover() for t in app_tasks(world, a.name)))
    return list(_TASKS[id(world)][1])


@pytest.fixture(scope="session")
def persona():
    return _world(DEFAULT_PERSONA.stem)[0]


@pytest.fixture(scope="session")
def world():
    return _world(DEFAULT_PERSONA.stem)[1]


@pytest.fixture(scope="session", params=PERSONAS)
def any_world(request):
    """(persona, world) for every shipped persona."""
    return _world(request.param)


@pytest.fixture(scope="session")
def site_build():
    """The site serving every app (tests/app_e2e.py ``site()``), built once: requesting it marks a test ``site``."""
    from .app_e2e import site

    return site()


# The test being set up or run (pytest runs one at a time per process): what tests/app_e2e.py site() checks.
RUNNING: list[pytest.Item] = []


def pytest_configure(config):
    if hasattr(config, "workerinput"):
        return  # a pytest-xdist worker: it runs with the options the controller settled
    addopts = config.getini("addopts")
    lane = addopts[addopts.index("-m") + 1] if "-m" in addopts else None
    named = config.args_source is pytest.Config.ArgsSource.ARGS
    if named and config.option.markexpr == lane and os.environ.get("PERSONA_LANE") != "fast":
        config.option.markexpr = ""  # tests named on the command line run whatever their marks


# Files whose tests run longest (a generated population built and read, a build killed 20 times, tsc and eslint,
# every persona's bundle tasks and their adversarial answers): they run first, so that the two pytest-xdist workers end on short tests instead of one waiting on the other.
LONG_FIRST = (
    "tests/tasks/test_population_readers.py",
    "tests/build/test_output.py",
    "tests/apps/test_typescript.py",
    "tests/tasks/test_adversary.py",
    "tests/tasks/test_gates.py",
    "tests/files/test_work_docs.py",
    "tests/runtime/test_pull.py",
)


@pytest.hookimpl(tryfirst=True)  # before -m deselects by marker
def pytest_collection_modifyitems(config, items):
    for item in items:
        if "site_build" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.site)
    rank = {name: i for i, name in enumerate(LONG_FIRST)}
    items.sort(key=lambda item: rank.get(item.nodeid.split("::")[0], len(rank)))  # stable: files keep their order


@pytest.hookimpl(wrapper=True)
def pytest_runtest_protocol(item, nextitem):
    RUNNING.append(item)
    try:
        return (yield)
    finally:
        RUNNING.remove(item)


@pytest.fixture(scope="session")
def default_layer(world, tmp_path_factory):
    """The default persona's persona layer (every app's database, the Firefox profile), built once."""
    from .app_e2e import layer

    return layer(world, tmp_path_factory.mktemp("layers"))
