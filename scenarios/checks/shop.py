"""Shopwell's look-ups through one other app (ids ``<persona>/shop/<slug>``): last month's spend against the card
statement and the parcel on its way with its shipping mail (they open Shopwell's list), the card charge traced to what was bought (after
the price of an item)."""

from __future__ import annotations

import datetime as dt
from collections import Counter

from apps.shop import reader as shown
from apps.shop.seed import orders, tracking_state
from apps.shop.tasks import APP, KIT, MONTHS_EN, day, in_use, text
from builder.money import money
from builder.tasks import kit
from builder.tasks.collect import Scenario
from builder.tasks.model import RubricItem, Task
from builder.tasks.reader import Reading, See, Unreadable, reader
from builder.reference.retail.catalogue import english_title
from builder.world import World


def month_tasks(world: World) -> list[Task]:
    """Shopwell's spend in the last full month (the card statement shows the same charges)."""
    cur, today = world.currency, world.now.date()
    all_orders = orders(world)
    out: list[Task] = []
    task = KIT.adder(world, out)

    first_of_month = today.replace(day=1)
    last_month_end = first_of_month - dt.timedelta(days=1)
    month = last_month_end.strftime("%Y-%m")
    in_month = [o for o in all_orders if o["placed_at"][:7] == month]
    total = sum(o["total_cents"] for o in in_month)
    month_name = f"{MONTHS_EN[last_month_end.month - 1]} {last_month_end.year}"
    task(
        "month-spend",
        [APP, "bank"],
        kind="aggregation",
        difficulty="medium",
        time_limit_seconds=420,
        instruction=f"How much did I spend at Shopwell in {month_name}, and in how many orders? Check it against "
        "my card statement.",
        expected={"month": month, "total_cents": total, "orders": [o["order_id"] for o in in_month]},
        rubric=[
            RubricItem(id="total", weight=75, requirement=f"States {money(total, cur)}", check=kit.amount(total)),
            RubricItem(id="count", weight=25, requirement=f"Says {len(in_month)} orders"),
        ],
    )
    return out


def parcel_tasks(world: World) -> list[Task]:
    """The carrier and tracking number of the parcel on its way (the shipping mail has them too)."""
    now = world.now
    all_orders = orders(world)
    out: list[Task] = []
    task = KIT.adder(world, out)

    moving = [o for o in all_orders if tracking_state(o, now) == "shipped"] or [
        o for o in all_orders if tracking_state(o, now) == "ordered"
    ]
    if moving:
        o = moving[-1]
        names = ", ".join(i["name"] for i in o["items"])
        task(
            "parcel-tracking",
            [APP, "mail"],
            kind="lookup",
            difficulty="easy",
            time_limit_seconds=300,
            instruction=f"My Shopwell order with the {names} hasn't arrived yet. Which carrier has it and what is the "
            "tracking number?",
            expected={
                "order": o["order_id"],
                "carrier": o["carrier"],
                "tracking_number": o["tracking_number"],
                "items": [i["name"] for i in o["items"]],
            },
            rubric=[
                RubricItem(
                    id="tracking",
                    weight=70,
                    requirement=f"Gives tracking number {o['tracking_number']}",
                    check=text(o["tracking_number"]),
                ),
                RubricItem(id="carrier", weight=30, requirement=f"Names {o['carrier']}", check=text(o["carrier"])),
            ],
        )
    return out


def charge_tasks(world: World) -> list[Task]:
    """What a card charge bought: a delivered one-item order whose total no other order has."""
    cur, now = world.currency, world.now
    all_orders = orders(world)
    delivered = [o for o in all_orders if tracking_state(o, now) == "delivered"]
    out: list[Task] = []
    task = KIT.adder(world, out)

    counts = Counter(x["total_cents"] for x in all_orders)
    unique = [x for x in delivered if counts[x["total_cents"]] == 1 and len(x["items"]) == 1]
    if unique:
        o = unique[len(unique) // 2]
        placed = dt.date.fromisoformat(o["placed_at"][:10])
        it = o["items"][0]
        task(
            "charge-to-item",
            [APP, "bank"],
            kind="lookup",
            difficulty="medium",
            time_limit_seconds=360,
            instruction=f"There is a Shopwell charge of {money(o['total_cents'], cur)} on my card around "
            f"{day(placed)}. What did I buy?",
            expected={
                "order": o["order_id"],
                "item": it["name"],
                "total_cents": o["total_cents"],
                "around": placed.isoformat(),
            },
            rubric=[
                RubricItem(
                    id="item",
                    weight=80,
                    requirement=f"Names {it['name']}",
                    check=text(it["name"], english_title(it)),
                ),
                RubricItem(
                    id="order", weight=20, requirement=f"Gives order {o['order_id']}", check=text(o["order_id"])
                ),
            ],
        )
    return out


# --- readers (builder.tasks.reader): Your orders and the orders' pages, as the persona sees them ------------------


@reader("month")
def month_spend(see: See, given: dict) -> Reading:
    """The totals of the orders Your orders lists as placed in the month."""
    month = given["month"]
    mine = [o for o in shown.orders(see) if o["placed"].isoformat()[:7] == month]
    total = sum(o["total"] for o in mine)
    return Reading(
        values={"total": total},
        steps=[
            f"Your orders: {len(mine)} placed in {month}: " + ", ".join(o["number"] for o in mine),
            f"{total} cents",
        ],
    )


@reader("items")
def parcel_tracking(see: See, given: dict) -> Reading:
    """The carrier and tracking number on the page of the undelivered order holding exactly those items."""
    want = sorted(" ".join(n.split()).casefold() for n in given["items"])
    hits = [
        o
        for o in shown.orders(see)
        if o["state"] != "delivered" and sorted(" ".join(n.split()).casefold() for n in o["items"]) == want
    ]
    if len(hits) != 1:
        raise Unreadable(f"{len(hits)} orders on their way hold exactly {given['items']!r}")
    o = shown.order(see, hits[0]["number"])
    if not o["tracking"] or not o["carrier"]:
        raise Unreadable(f"order {o['number']} shows no carrier or tracking number")
    return Reading(
        values={"tracking": o["tracking"], "carrier": o["carrier"]},
        steps=[f"Your orders: {o['number']} ({hits[0]['status']})", f"its page: {o['carrier']} · {o['tracking']}"],
    )


@reader("total_cents", "around")
def charge_to_item(see: See, given: dict) -> Reading:
    """The one-item order of that total placed within a week of the day: its item and number."""
    around = dt.date.fromisoformat(given["around"])
    hits = [
        o for o in shown.orders(see) if o["total"] == given["total_cents"] and abs((o["placed"] - around).days) <= 7
    ]
    if len(hits) != 1:
        raise Unreadable(f"{len(hits)} Shopwell orders of {given['total_cents']} cents within a week of {around}")
    o = hits[0]
    if len(o["items"]) != 1:
        raise Unreadable(f"order {o['number']} holds {len(o['items'])} items")
    return Reading(
        values={"item": o["items"][0], "order": o["number"]},
        steps=[f"Your orders: {o['number']} placed {o['placed']}, total {o['total']} cents: {o['items'][0]}"],
    )


SCENARIOS = [
    Scenario(
        home=APP,
        apps=(APP, "bank"),
        tasks=month_tasks,
        readers={"month-spend": month_spend},
        after="",
        when=in_use,
    ),
    Scenario(
        home=APP,
        apps=(APP, "mail"),
        tasks=parcel_tasks,
        readers={"parcel-tracking": parcel_tracking},
        after="",
        when=in_use,
    ),
    Scenario(
        home=APP,
        apps=(APP, "bank"),
        tasks=charge_tasks,
        readers={"charge-to-item": charge_to_item},
        after="item-price",
        when=in_use,
    ),
]
