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
from builder.tasks.reader import Reading, See, Unreadable, reader
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
                check=Check(type="answer_number", value=len(in_month)),
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
            "month": month,
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


@reader("month")
def read_month(see: See, given: dict) -> Reading:
    """Orders, filtered to the month: the orders and what they came to."""
    from apps.delivery.reader import orders

    rows = orders(see, given["month"])
    total = sum(o["cents"] for o in rows)
    return Reading(
        values={"total": total, "count": len(rows)},
        steps=[f"Orders, {given['month']}: {len(rows)} orders, " + " + ".join(str(o["cents"]) for o in rows)],
    )


@reader("month", unique=True)
def read_biggest(see: See, given: dict) -> Reading:
    """Orders, filtered to the month: the largest total; its margin over the largest order that differs (another
    restaurant or amount: the same usual order twice is the same answer)."""
    from apps.delivery.reader import orders

    rows = sorted(orders(see, given["month"]), key=lambda o: -o["cents"])
    if not rows:
        raise Unreadable(f"no DashBite order in {given['month']}")
    top = rows[0]
    other = next((o for o in rows if (o["restaurant"], o["cents"]) != (top["restaurant"], top["cents"])), None)
    return Reading(
        values={"restaurant": top["restaurant"], "total": top["cents"]},
        steps=[
            f"Orders, {given['month']}: {len(rows)} orders; the largest {top['restaurant']} {top['cents']}"
            + (f"; next {other['restaurant']} {other['cents']}" if other else "")
        ],
        margin=top["cents"] - (other["cents"] if other else 0),
    )


SCENARIOS = [
    Scenario(
        home=APP,
        apps=(APP, "bank"),
        tasks=month_tasks,
        after="usual-tip",
        when=in_use,
        readers={"last-month-takeout": read_month},
    ),
    Scenario(
        home=APP,
        apps=(APP, "bank"),
        tasks=biggest_tasks,
        after=("usual-order", "last-month-takeout"),
        when=in_use,
        readers={"biggest-order": read_biggest},
    ),
]
