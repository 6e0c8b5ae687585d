"""Basketful's look-ups with the bank's card lines (ids ``<persona>/grocery/<slug>``): the last order's total and
store, last month's spend. They open Basketful's list."""

from __future__ import annotations

import datetime as dt

from apps.grocery import reader as shown
from apps.grocery.tasks import APP, KIT, done_orders, in_use
from builder.money import money
from builder.tasks import kit
from builder.tasks.collect import Scenario
from builder.tasks.model import Check, RubricItem, Task
from builder.tasks.reader import Reading, See, Unreadable, reader
from builder.world import World


def bank_tasks(world: World) -> list[Task]:
    """The last order's total and store (the bank shows the charge, BASKETFUL*<number>), then last calendar month's
    spend, fees and tips included (the orders placed in it)."""
    cur = world.currency
    orders = done_orders(world)
    out: list[Task] = []
    task = KIT.adder(world, out)
    d = orders[-1].data
    task(
        "last-order-total",
        [APP, "bank"],
        kind="lookup",
        difficulty="easy",
        time_limit_seconds=240,
        instruction="How much was my last Basketful grocery order, and which store did it come from?",
        expected={"order_id": d["order_id"], "total_cents": d["total_cents"], "store": d["store"]},
        rubric=[
            RubricItem(
                id="total",
                weight=60,
                requirement=f"States {money(d['total_cents'], cur)}",
                check=kit.amount(d["total_cents"]),
            ),
            RubricItem(
                id="store",
                weight=40,
                requirement=f"Names {d['store']}",
                check=Check(type="answer_text", any_of=[d["store"]]),
            ),
        ],
    )

    first_this = world.now.date().replace(day=1)
    prev = (first_this - dt.timedelta(days=1)).replace(day=1)
    in_month = [e for e in orders if prev <= e.at.date() < first_this]
    m_total = sum(e.data["total_cents"] for e in in_month)
    task(
        "spend-last-month",
        [APP, "bank"],
        kind="aggregation",
        difficulty="medium",
        time_limit_seconds=420,
        instruction=f"What did I spend on Basketful grocery orders in {prev:%B %Y}, fees and tips included?",
        expected={"month": prev.isoformat()[:7], "orders": len(in_month), "total_cents": m_total},
        rubric=[
            RubricItem(id="total", weight=80, requirement=f"States {money(m_total, cur)}", check=kit.amount(m_total)),
            RubricItem(id="count", weight=20, requirement=f"Says it was {len(in_month)} orders"),
        ],
    )
    return out


# --- readers (builder.tasks.reader): Basketful's Your orders, as the persona sees it ------------------------------


@reader()
def last_order_total(see: See, given: dict) -> Reading:
    """The newest order of Your orders: its total and store."""
    mine = shown.orders(see)
    if not mine:
        raise Unreadable("no Basketful order")
    last = max(mine, key=lambda o: o["placed"])
    if sum(o["placed"] == last["placed"] for o in mine) > 1:
        raise Unreadable(f"two Basketful orders were placed on {last['placed']}")
    return Reading(
        values={"total": last["total"], "store": last["store"]},
        steps=[f"Your orders: the newest is {last['id']} of {last['placed']} from {last['store']}, {last['total']}"],
    )


@reader("month")
def spend_last_month(see: See, given: dict) -> Reading:
    """The totals of the orders Your orders lists as placed in the month."""
    mine = shown.in_month(see, given["month"])
    total = sum(o["total"] for o in mine)
    return Reading(
        values={"total": total},
        steps=[f"Your orders: {len(mine)} placed in {given['month']}: " + ", ".join(o["id"] for o in mine), str(total)],
    )


SCENARIOS = [
    Scenario(
        home=APP,
        apps=(APP, "bank"),
        tasks=bank_tasks,
        readers={"last-order-total": last_order_total, "spend-last-month": spend_last_month},
        after="",
        when=in_use,
    )
]
