"""Shared fixtures: the default persona, its completed spec and its world (built once per session)."""

from __future__ import annotations

from pathlib import Path

import pytest

from builder.persona import complete, load
from builder.world import simulate

REPO = Path(__file__).resolve().parent.parent
DEFAULT_PERSONA = REPO / "personas" / "dana-whitfield.json"


@pytest.fixture(scope="session")
def persona():
    return complete(load(DEFAULT_PERSONA))


@pytest.fixture(scope="session")
def world(persona):
    return simulate(persona)
