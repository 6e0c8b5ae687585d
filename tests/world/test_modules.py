"""Adding a later world module (investing, forecasts, tax year, projects, career) shifts nothing before it.

Each later module (tests/conftest.py LATER_MODULES) draws from its own named streams and keys its own
events, so every event the earlier modules make is identical with or without it. The one thing allowed to differ
is what finance.settle computes from the whole ledger afterwards (savings sweeps, card payments, interest,
statements), since the new modules move money through checking.
"""

from __future__ import annotations

import json
import pickle

import pytest

from builder.world import simulate
from builder.world.engine import plan, run_steps
from builder.world.simulate import begin, finish
from tests.conftest import LATER_MODULES, persona_digest, planned_world, shared, unpickle

# Event kinds finance.settle writes from the ledger's running balances.
SETTLED = {"transfer", "card_payment", "interest", "statement"}


_PREFIX: dict[str, bytes] = {}


def _without(persona, module: str):
    """``simulate(persona, without=(module,))``, continued from the state after the first steps that the full plan
    and every plan without one later module share: that state is computed once per test run (for all workers) and
    each plan goes on from a pickled copy of it. Steps run one after another, so this is :func:`simulate` step for
    step."""
    full, steps = plan(), plan((module,))
    names = [[s.name for s in p] for p in (full, *(plan((m,)) for m in LATER_MODULES))]
    k = next(i for i, column in enumerate(zip(*names)) if len(set(column)) > 1)

    def prefix() -> bytes:
        sim = begin(persona)
        run_steps(sim, full[:k])
        return pickle.dumps(sim, protocol=pickle.HIGHEST_PROTOCOL)

    key = f"before-later-{persona.id}-{persona_digest(persona)}"
    if key not in _PREFIX:
        _PREFIX[key] = shared(key, prefix)
    sim = unpickle(_PREFIX[key])
    run_steps(sim, steps[k:])
    return finish(sim)


@pytest.mark.parametrize("left_out", [*LATER_MODULES, "all"])
def test_earlier_events_are_identical_without_a_later_module(any_world, left_out):
    persona, world = any_world
    # "all": the world as the first twelve apps knew it, against today's; one name: that module added last.
    base = planned_world(persona) if left_out == "all" else _without(persona, left_out)
    full = {e.id: e for e in world.events}
    changed = [e for e in base.events if e.kind not in SETTLED and full.get(e.id) != e]
    assert not changed, f"{len(changed)} events changed, e.g. {json.dumps(changed[0].to_json(), default=str)[:300]}"
    assert json.dumps(base.planted, sort_keys=True, default=str) == json.dumps(
        world.planted, sort_keys=True, default=str
    )


def test_unknown_module_is_refused(persona):
    with pytest.raises(KeyError):
        simulate(persona, without=("astrology",))
