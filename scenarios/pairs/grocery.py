"""Basketful's two-app counterfactual with the bank (id ``<persona>/grocery/cf-pickup``): last month's orders picked
up instead of delivered. It follows Basketful's camping list and the errands placed after it."""

from __future__ import annotations

from apps.grocery import reader as shown
from apps.grocery.tasks import APP, KIT, done_orders, in_use
from builder.money import money
from builder.tasks import answers as A
from builder.tasks.collect import Scenario
from builder.tasks.model import RubricItem, Task
from builder.tasks.reader import Reading, See, Unreadable, reader
from builder.tasks.phrasing import last_month, month_phrase
from builder.world import World


def pickup_tasks(world: World) -> list[Task]:
    """Last calendar month's orders without the delivery fee and the shopper tip: the total and the saving; none
    without orders that month."""
    cur, today = world.currency, world.now.date()
    out: list[Task] = []
    start, _ = last_month(today)
    month = [e for e in done_orders(world) if e.data["placed_local"][:7] == start.isoformat()[:7]]
    if month:
        extra = sum(e.data["delivery_fee_cents"] + e.data["tip_cents"] for e in month)
        spent = sum(e.data["total_cents"] for e in month)
        KIT.adder(world, out)(
            "cf-pickup",
            [APP, "bank"],
            kind="aggregation",
            category="counterfactual",
            difficulty="medium",
            time_limit_seconds=480,
            instruction=f"Had I picked up my Basketful orders {month_phrase(start, today)} myself instead of having them "
            "delivered (no delivery fee, no shopper tip, everything else the same), how much would I have "
            "paid in total, and how much would I have saved?",
            expected={
                "orders": len(month),
                "total_cents": spent,
                "saved_cents": extra,
                "pickup_cents": spent - extra,
                "month": start.isoformat()[:7],
            },
            rubric=[
                RubricItem(
                    id="pickup",
                    weight=60,
                    requirement=f"States {money(spent - extra, cur)}",
                    check=A.amount(spent - extra),
                ),
                RubricItem(
                    id="saved", weight=40, requirement=f"States {money(extra, cur)} saved", check=A.amount(extra)
                ),
            ],
        )
    return out


@reader("month")
def cf_pickup(see: See, given: dict) -> Reading:
    """Each order of the month: its total less the receipt's delivery fee and tip (the service fee stays)."""
    mine = shown.in_month(see, given["month"])
    if not mine:
        raise Unreadable(f"no Basketful order placed in {given['month']}")
    saved = 0
    for o in mine:
        r = shown.receipt(see, o)
        fee = next((c for k, c in r.items() if k.casefold() in ("delivery fee", "liefergebühr")), None)
        if fee is None:
            raise Unreadable(f"order {o['id']}'s receipt shows no delivery fee line")
        saved += fee + r["tip"]
    total = sum(o["total"] for o in mine)
    return Reading(
        values={"pickup": total - saved, "saved": saved},
        steps=[f"{len(mine)} orders placed in {given['month']}, {total} in all; delivery fees and tips {saved}"],
    )


SCENARIOS = [
    Scenario(
        home=APP,
        apps=(APP, "bank"),
        tasks=pickup_tasks,
        readers={"cf-pickup": cf_pickup},
        after="camping-list",
        when=in_use,
    )
]
