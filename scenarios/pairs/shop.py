"""Shopwell's two-app answer tasks (ids ``<persona>/shop/<slug>``): the last birthday present sent (the calendar has
the birthday) and the delivery day Shopwell and the carrier's mail disagree on. They follow Shopwell's last action
task."""

from __future__ import annotations

import datetime as dt

from apps.shop.seed import orders, tracking_state
from apps.shop.tasks import APP, KIT, day, in_use, text
from builder.tasks import answers as A
from builder.tasks.collect import Scenario
from builder.tasks.model import RubricItem, Task
from builder.reference.retail.catalogue import english_title
from builder.world import World


def birthday_tasks(world: World) -> list[Task]:
    """What the last birthday present sent through Shopwell was, and whether it arrived before the day."""
    now = world.now
    delivered = [o for o in orders(world) if tracking_state(o, now) == "delivered"]
    out: list[Task] = []
    task = KIT.adder(world, out)

    gifts = [x for x in delivered if x.get("gift_for")]
    if gifts:
        o = gifts[-1]
        it = o["items"][0]
        arrived = dt.date.fromisoformat(o["delivered_at"][:10])
        task(
            "birthday-present",
            [APP, "calendar"],
            kind="lookup",
            difficulty="medium",
            time_limit_seconds=360,
            instruction=f"What did I send {o['gift_for']} for their last birthday, and did it arrive before the day?",
            expected={
                "order": o["order_id"],
                "item": it["name"],
                "delivered": arrived.isoformat(),
                "birthday": o["gift_birthday"],
            },
            rubric=[
                RubricItem(
                    id="item",
                    weight=70,
                    requirement=f"Names {it['name']}",
                    check=text(it["name"], english_title(it)),
                ),
                RubricItem(
                    id="arrived",
                    weight=30,
                    requirement=f"Says it arrived on {day(arrived)}, before the birthday on "
                    f"{day(dt.date.fromisoformat(o['gift_birthday']))}",
                ),
            ],
        )
    return out


def contradiction_tasks(world: World) -> list[Task]:
    """The delivery day Shopwell gives against the one the carrier mailed (``contradiction/delivery-date``), the
    shop's first."""
    out: list[Task] = []
    task = KIT.adder(world, out)

    it = A.planted(world, "contradiction/delivery-date")
    if it:
        shop, carrier = dt.date.fromisoformat(it["shop_day"]), dt.date.fromisoformat(it["carrier_day"])
        task(
            "cx-delivery-day",
            ["shop", "mail"],
            kind="lookup",
            category="contradiction",
            difficulty="medium",
            time_limit_seconds=420,
            instruction=f"When will my Shopwell order {it['order_id']} actually arrive? I've had different dates from "
            f"Shopwell and from {it['carrier']}. Give me the day to expect first, then the other one.",
            expected={"order_id": it["order_id"], "right": it["shop_day"], "stale": it["carrier_day"], "truth": "shop"},
            planted=[it["id"]],
            rubric=[
                RubricItem(
                    id="right",
                    weight=40,
                    requirement=f"Says {shop:%A, %B %-d} (Shopwell)",
                    check=A.text(*A.date_forms(shop)),
                ),
                RubricItem(
                    id="stale",
                    weight=20,
                    requirement=f"Names {carrier:%A, %B %-d} ({it['carrier']})",
                    check=A.text(*A.date_forms(carrier)),
                ),
                RubricItem(
                    id="order",
                    weight=40,
                    requirement="Names Shopwell's day before the carrier's",
                    check=A.names([A.date_forms(shop), A.date_forms(carrier)], ordered=True),
                ),
            ],
        )
    return out


#: After Shopwell's last action task there is.
_AFTER = ("reorder-before-trip", "review-product", "subscribe")

SCENARIOS = [
    Scenario(home=APP, apps=(APP, "calendar"), tasks=birthday_tasks, after=_AFTER, when=in_use),
    Scenario(home=APP, apps=(APP, "mail"), tasks=contradiction_tasks, after=_AFTER, when=in_use),
]
