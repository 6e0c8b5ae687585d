"""Basketful's two-app counterfactual with the bank (id ``<persona>/grocery/cf-pickup``): last month's orders picked
up instead of delivered. It follows Basketful's camping list and the errands placed after it."""

from __future__ import annotations

from apps.grocery.tasks import APP, KIT, done_orders, in_use
from builder.money import money
from builder.tasks import answers as A
from builder.tasks.collect import Scenario
from builder.tasks.model import RubricItem, Task
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
            expected={"orders": len(month), "total_cents": spent, "saved_cents": extra, "pickup_cents": spent - extra},
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


SCENARIOS = [Scenario(home=APP, apps=(APP, "bank"), tasks=pickup_tasks, after="camping-list", when=in_use)]
