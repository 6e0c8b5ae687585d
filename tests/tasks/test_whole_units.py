"""Gate: in a currency without minor units every amount a task expects is in whole units, as the pages show it.

Money is integer cents whatever the currency (:mod:`builder.money`); a currency of precision 0 (yen, pesos, CFA
francs) is written in whole units, so an honest answer states a multiple of 100. A computed amount (shares x price, a
night's share of a bill, a fee) must be rounded the way the page writes it (:func:`builder.money.to_unit`), or every
honest answer misses it by a few cents. The Tokyo persona (``tests/data/tokyo-persona.json``, JPY) is the shipped
world of such a currency. An amount in another currency (a hotel abroad's bill in its own currency) is exempt when
the task's ``expected`` names that currency and the item's requirement states the amount in it.
"""

from __future__ import annotations

from builder.money import money, unit_cents
from tests.conftest import tokyo_world, world_tasks

#: The apps whose tasks this gate holds to whole units (bank, delivery and rides still compute some amounts in cents).
WHOLE_UNIT_APPS = ("airline", "brokerage", "shop", "stays")


def _other_currencies(task, home: str) -> set[str]:
    """The currencies other than ``home`` the task's expected values name (``currency``, ``..._currency``)."""
    return {v for k, v in task.expected.items() if k.endswith("currency") and isinstance(v, str) and v and v != home}


def test_amounts_of_a_whole_unit_currency_are_whole_units():
    _, world = tokyo_world()
    home = world.currency
    step = unit_cents(home)
    assert step == 100, f"the Tokyo persona's {home} has minor units"
    bad = []
    for t in world_tasks(world):
        if t.id.split("/")[1] not in WHOLE_UNIT_APPS:
            continue
        others = _other_currencies(t, home)
        for item in t.rubric:
            c = item.check
            if c.type != "answer_amount" or c.cents % step == 0:
                continue
            if any(money(c.cents, cur) in item.requirement for cur in others):
                continue  # stated in another currency, one with cents
            bad.append(f"{t.id} {item.id}: {c.cents} cents ({item.requirement})")
    assert not bad, "amounts not in whole units of " + home + ":\n" + "\n".join(bad)
