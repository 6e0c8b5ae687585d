"""DashBite's look-ups with the bank's card lines (ids ``<persona>/delivery/<slug>``): last month's takeout, the
biggest order of the month of the last order. Each follows the DashBite task before it (the usual tip, the usual
order)."""

from __future__ import annotations

import datetime as dt

from apps.delivery.steps import KIT
from apps.delivery.tasks import APP, done_orders, in_use
from builder.money import money
from builder.tasks import kit
from builder.tasks.collect import Scenario
from builder.tasks.model import Check, RubricItem, Task
from builder.world import World


def month_tasks(world: World) -> list[Task]:
    """What DashBite cost last calendar month and in how many orders (the card lines say DASHBITE*<restaurant>)."""
    out: list[Task] = []
    orders = done_orders(world)
    first_this = world.now.date().replace(day=1)
    last_month = (first_this - dt.timedelta(days=1)).strftime("%Y-%m")
    in_month = [e for e in orders if e.data["placed_local"][:7] == last_month]
    m_total = sum(e.data["total_cents"] for e in in_month)
    m_name = dt.date.fromisoformat(f"{last_month}-01").strftime("%B %Y")
    KIT.adder(world, out)(
        "last-month-takeout",
        [APP, "bank"],
        kind="aggregation",
        difficulty="medium",
        time_limit_seconds=420,
        instruction=f"How much did I spend on DashBite food delivery in {m_name}, and how many orders was that?",
        expected={"month": last_month, "orders": len(in_month), "total_cents": m_total},
        rubric=[
            RubricItem(
                id="total",
                weight=80,
                requirement=f"States {money(m_total, world.currency)}",
                check=kit.amount(m_total),
            ),
            RubricItem(
                id="count",
                weight=20,
                requirement=f"Says {len(in_month)} orders",
                check=Check(type="answer_text", any_of=[f"{len(in_month)} order"]),
            ),
        ],
    )
    return out


def biggest_tasks(world: World) -> list[Task]:
    """The most expensive order of the month of the last order: the restaurant and the amount on the card."""
    out: list[Task] = []
    orders, cur = done_orders(world), world.currency
    month = orders[-1].data["placed_local"][:7]
    big = max((e for e in orders if e.data["placed_local"][:7] == month), key=lambda e: (e.data["total_cents"], e.at))
    b_name = dt.date.fromisoformat(f"{month}-01").strftime("%B %Y")
    KIT.adder(world, out)(
        "biggest-order",
        [APP, "bank"],
        kind="lookup",
        difficulty="medium",
        time_limit_seconds=360,
        instruction=f"Which was my most expensive DashBite order in {b_name}: the restaurant and the amount charged "
        "to my card?",
        expected={
            "order_id": big.data["order_id"],
            "restaurant": big.data["restaurant"],
            "total_cents": big.data["total_cents"],
        },
        rubric=[
            RubricItem(
                id="restaurant",
                weight=50,
                requirement=f"Names {big.data['restaurant']}",
                check=Check(type="answer_text", any_of=[big.data["restaurant"]]),
            ),
            RubricItem(
                id="total",
                weight=50,
                requirement=f"States {money(big.data['total_cents'], cur)}",
                check=kit.amount(big.data["total_cents"]),
            ),
        ],
    )
    return out


SCENARIOS = [
    Scenario(home=APP, apps=(APP, "bank"), tasks=month_tasks, after="usual-tip", when=in_use),
    Scenario(
        home=APP, apps=(APP, "bank"), tasks=biggest_tasks, after=("usual-order", "last-month-takeout"), when=in_use
    ),
]
