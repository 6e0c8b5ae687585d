"""The import contract of issue 25 (tests/guardrails/layers.py states the layers and the rules).

The tree still breaks the contract in places that other work of issue 25 is removing; :data:`ALLOWED` lists each
of today's violations as a ``(module, imported or named)`` pair by rule. The test fails on any violation not in the
list (a new one) and on any entry of the list that no longer occurs (remove it: the list only shrinks).
"""

from __future__ import annotations

import pytest

from tests.guardrails.layers import RULES, by_module, layer, violations, world_modules_in_cycles
from tests.guardrails.imports import modules

# Today's violations by rule: each may only be removed.
ALLOWED: dict[str, set[tuple[str, str]]] = {
    "app->app": set(),
    "world->apps": set(),
    "generic->app": set(),
    "projection->world internals": set(),
    "world cycle": set(),
    "layer order": set(),
}


@pytest.fixture(scope="module")
def found():
    return violations()


@pytest.mark.parametrize("rule", RULES)
def test_no_new_violation(found, rule):
    new = found[rule] - ALLOWED.get(rule, set())
    assert not new, f"{rule}: {len(new)} new violation(s) of the layer contract (tests/guardrails/layers.py):\n" + (
        "\n".join(f"  {module} -> {', '.join(targets)}" for module, targets in by_module(new).items())
    )


@pytest.mark.parametrize("rule", RULES)
def test_allowlist_only_shrinks(found, rule):
    gone = ALLOWED.get(rule, set()) - found[rule]
    assert not gone, f"{rule}: these allowed violations no longer occur; delete them from ALLOWED:\n" + "\n".join(
        f"        {pair!r}," for pair in sorted(gone)
    )


def test_allowlist_names_only_known_rules():
    assert set(ALLOWED) <= set(RULES)


def test_every_module_has_a_layer():
    for name in modules():
        layer(name)  # raises for a module of builder/ that no layer holds


def test_counts(found, capsys):
    """The counts issue 25 reports (printed with ``-s``), and a check that the analysis sees the tree at all."""
    cyclic, world = world_modules_in_cycles()
    with capsys.disabled():
        print()
        for rule in RULES:
            print(f"  {rule:<30} {len(found[rule]):>4}")
        print(f"  {'world modules in cycles':<30} {cyclic:>4} of {world}")
    assert world > 10 and len(modules()) > 100
