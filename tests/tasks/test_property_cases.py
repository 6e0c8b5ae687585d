"""Schema-drawn specs a property run (scripts/property-run --source schema) once crashed on, kept as cases: their
worlds and every task built from them, with no layer (the crash was in the task builders)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from builder.apps import discover
from builder.persona import complete
from builder.persona.model import Persona
from builder.tasks.collect import tasks
from builder.world import simulate

CASES = Path(__file__).parents[1] / "data" / "property"


@pytest.mark.parametrize(
    "name, why",
    [
        # A Pakistani home, one month of history: at as_of the persona is away, only the flight home is ahead, and
        # the airline's "next trip's landing" looked for an outbound leg among the upcoming ones.
        ("away-at-as-of", "airline.arrival"),
        # as_of 2000-01-01: the tax year 1998-99 is one Ledgerleaf Tax has no rules for.
        ("as-of-2000", "taxes.in_use"),
    ],
)
def test_a_spec_the_property_run_crashed_on_builds_its_tasks(name, why):
    spec = json.loads((CASES / f"{name}.json").read_text())
    world = simulate(complete(Persona.model_validate(spec)))
    built = tasks(world, discover(selected=False))
    assert built and len({t.id for t in built}) == len(built), why
