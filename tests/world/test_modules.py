"""Adding a later world module (investing, forecasts, tax year, projects, career) shifts nothing before it.

Each later module (tests/conftest.py LATER_MODULES) draws from its own named streams and keys its own
events, so every event the earlier modules make is identical with or without it. The one thing allowed to differ
is what finance.settle computes from the whole ledger afterwards (savings sweeps, card payments, interest,
statements), since the new modules move money through checking.
"""

from __future__ import annotations

import json

import pytest

from builder.world import simulate
from tests.conftest import LATER_MODULES, planned_world

# Event kinds finance.settle writes from the ledger's running balances.
SETTLED = {"transfer", "card_payment", "interest", "statement"}


_RECORDS: dict[int, tuple[object, dict[str, str]]] = {}


def _records(world) -> dict[str, str]:
    """Event id -> the event's JSON; a shipped persona's full world (cached by conftest) is written once per process."""
    if id(world) not in _RECORDS:
        _RECORDS[id(world)] = (world, {e.id: json.dumps(e.to_json(), sort_keys=True) for e in world.events})
    return _RECORDS[id(world)][1]


@pytest.mark.parametrize("left_out", [*LATER_MODULES, "all"])
def test_earlier_events_are_identical_without_a_later_module(any_world, left_out):
    persona, world = any_world
    # "all": the world as the first twelve apps knew it, against today's; one name: that module added last.
    base = planned_world(persona) if left_out == "all" else simulate(persona, without=(left_out,))
    full, before = _records(world), {e.id: json.dumps(e.to_json(), sort_keys=True) for e in base.events}
    kinds = {e.id: e.kind for e in base.events}
    changed = [i for i, text in before.items() if kinds[i] not in SETTLED and full.get(i) != text]
    assert not changed, f"{len(changed)} events changed, e.g. {before[changed[0]][:300]}"
    assert json.dumps(base.planted, sort_keys=True, default=str) == json.dumps(
        world.planted, sort_keys=True, default=str
    )


def test_unknown_module_is_refused(persona):
    with pytest.raises(KeyError):
        simulate(persona, without=("astrology",))
