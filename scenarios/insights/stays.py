"""Bramblestay's contradiction and counterfactual with other apps (ids ``<persona>/stays/cx-...``, ``cf-...``): the
stay still starting the night before the airline's changed arrival, what a late cancellation of the upcoming stay
would have cost (the confirmation mail states the terms)."""

from __future__ import annotations

import datetime as dt

from apps.stays.seed import bookings
from apps.stays.tasks import KIT
from builder.money import money
from builder.tasks import answers as A
from builder.tasks.collect import Scenario
from builder.tasks.model import RubricItem, Task
from builder.world import World
from scenarios.errands.stays import BEFORE_RENTAL


def insight_tasks(world: World) -> list[Task]:
    """The check-in day against the flight the airline moved (a planted ``chain/flight-change``), and the fee for
    cancelling the upcoming stay late. Items the world lacks give no task."""
    cur = world.currency
    out: list[Task] = []

    task = KIT.adder(world, out)

    it = A.planted(world, "chain/flight-change")
    step = next((s for s in (it or {}).get("steps", []) if s["step"] == "hotel_check_in"), None)
    if it and step:
        arr = dt.datetime.fromisoformat(it["new_arrival"])
        old, new = dt.date.fromisoformat(step["old"]), dt.date.fromisoformat(step["new"])
        hotel = step.get("hotel") or ""
        task(
            "cx-check-in",
            ["stays", "airline", "mail"],
            kind="lookup",
            category="contradiction",
            difficulty="medium",
            time_limit_seconds=420,
            instruction=f"Does my hotel booking in {it['destination']} still line up with my flight there? Tell me the "
            "day I actually arrive first, then the check-in day the hotel booking has.",
            expected={
                "hotel": hotel,
                "check_in": step["old"],
                "arrival": it["new_arrival"],
                "right": step["new"],
                "truth": "airline",
            },
            planted=[it["id"]],
            rubric=[
                RubricItem(
                    id="arrival", weight=40, requirement=f"Says I arrive {arr:%B %-d}", check=A.text(*A.date_forms(new))
                ),
                RubricItem(
                    id="check-in",
                    weight=20,
                    requirement=f"Says the booking checks in {old:%B %-d}",
                    check=A.text(*A.date_forms(old)),
                ),
                RubricItem(
                    id="order",
                    weight=40,
                    requirement="Names the arrival day before the booked check-in",
                    check=A.names([A.date_forms(new), A.date_forms(old)], ordered=True),
                ),
            ],
        )

    bs = bookings(world)
    upcoming = [b for b in bs if dt.date.fromisoformat(b["check_in"]) > world.now.date()]
    if upcoming:
        b = upcoming[0]
        price = b["price"]
        # web/lib/stays.ts cancelTerms: JavaScript's Math.round (half up) of the first night and its tax share.
        first = int(price["subtotal_cents"] / b["nights"] + 0.5)
        fee = first + int(price["taxes_cents"] * first / price["subtotal_cents"] + 0.5)
        task(
            "cf-late-cancel",
            ["stays", "mail"],
            kind="aggregation",
            category="counterfactual",
            difficulty="medium",
            time_limit_seconds=420,
            instruction=f"Say I had missed the free-cancellation deadline of my upcoming {b['city']} hotel and then "
            "cancelled it. What would Bramblestay have charged me for cancelling late, and how much would "
            "I have saved against paying the whole stay?",
            expected={
                "confirmation": b["confirmation"],
                "fee_cents": fee,
                "total_cents": price["total_cents"],
                "saved_cents": price["total_cents"] - fee,
            },
            rubric=[
                RubricItem(
                    id="fee",
                    weight=60,
                    requirement=f"States the fee {money(fee, cur)} (first night with tax)",
                    check=A.amount(fee),
                ),
                RubricItem(
                    id="saved",
                    weight=40,
                    requirement=f"States {money(price['total_cents'] - fee, cur)} saved",
                    check=A.amount(price["total_cents"] - fee),
                ),
            ],
        )
    return out


#: They follow the rental (scenarios/errands/stays.py, placed after the pairs): placed after it.
AFTER_ERRANDS = 2
SCENARIOS = [
    Scenario(
        home="stays",
        apps=("stays",),
        tasks=insight_tasks,
        after=("book-rental", *BEFORE_RENTAL),
        rank=AFTER_ERRANDS,
    )
]
