"""Shared fixtures: the shipped personas, completed and simulated once per session."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import pytest

from builder.persona import complete, load
from builder.world import simulate

REPO = Path(__file__).resolve().parent.parent
DEFAULT_PERSONA = REPO / "personas" / "dana-whitfield.json"
PERSONAS = sorted(p.stem for p in (REPO / "personas").glob("*.json") if p.name != "persona.schema.json")


@lru_cache(maxsize=None)
def _world(stem: str):
    persona = complete(load(REPO / "personas" / f"{stem}.json"))
    return persona, simulate(persona)


_PLANNED: dict[str, object] = {}


# World modules that came after the first twelve apps' world (builder/world/engine.py orders them after it by their
# declarations and ranks); tests/world/test_modules.py checks that leaving any of them out shifts nothing before it.
LATER_MODULES = ("investing", "forecasts", "tax_year", "projects", "career")


def planned_world(persona):
    """The world of ``persona`` without the :data:`LATER_MODULES`: the world the first twelve apps knew, whose money
    only the budget's own flows move. Simulated once per persona id."""
    if persona.id not in _PLANNED:
        _PLANNED[persona.id] = simulate(persona, without=LATER_MODULES)
    return _PLANNED[persona.id]


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
def default_layer(world, tmp_path_factory):
    """The default persona's persona layer (every app's database, the Firefox profile), built once."""
    from .app_e2e import layer

    return layer(world, tmp_path_factory.mktemp("layers"))
