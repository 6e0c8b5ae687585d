"""ZipRide's contradiction and counterfactual with other apps (ids ``<persona>/rides/cx-...``, ``cf-...``): the
airport ride still booked for the day before the airline's change, and last month's tips at another rate against
the card's."""

from __future__ import annotations

import datetime as dt

from apps.rides.tasks import KIT, in_use, taken
from builder.money import money
from builder.tasks import answers as A
from builder.tasks.collect import Scenario
from builder.tasks.model import RubricItem, Task
from builder.tasks.phrasing import last_month, month_phrase
from builder.world import World


def airport_ride_tasks(world: World) -> list[Task]:
    """The airport ride's pickup day against the flight the airline moved (a planted ``chain/flight-change``)."""
    out: list[Task] = []

    task = KIT.adder(world, out)

    it = A.planted(world, "chain/flight-change")
    step = next((s for s in (it or {}).get("steps", []) if s["step"] == "airport_ride"), None)
    if it and step:
        old = dt.datetime.fromisoformat(step["old"])
        new_dep = dt.datetime.fromisoformat(it["new_departure"])
        task(
            "cx-airport-ride",
            ["rides", "airline", "mail"],
            kind="lookup",
            category="contradiction",
            difficulty="medium",
            time_limit_seconds=420,
            instruction=f"I have a ZipRide to the airport booked for my {it['destination']} flight. Does its pickup day "
            "still fit the flight? Tell me the day the flight leaves now first, then the day the ride is "
            "booked for.",
            expected={
                "destination": it["destination"],
                "ride_pickup": step["old"],
                "flight_departure": it["new_departure"],
                "truth": "airline",
            },
            rule="the airline's newest schedule notice for the flight wins over a ride booked for the old day",
            planted=[it["id"]],
            rubric=[
                RubricItem(
                    id="flight-day",
                    weight=40,
                    requirement=f"Says the flight leaves {new_dep:%B %-d}",
                    check=A.text(*A.date_forms(new_dep)),
                ),
                RubricItem(
                    id="ride-day",
                    weight=20,
                    requirement=f"Says the ride is booked for {old:%B %-d}",
                    check=A.text(*A.date_forms(old)),
                ),
                RubricItem(
                    id="order",
                    weight=40,
                    requirement="Names the flight's day before the ride's",
                    check=A.names([A.date_forms(new_dep), A.date_forms(old)], ordered=True),
                ),
            ],
        )
    return out


def tip_rate_tasks(world: World) -> list[Task]:
    """Last month's rides tipped at another rate (15 %, or 20 % for a persona who tips 15 %) against the tips the
    card shows. None without a ride last month."""
    p = world.persona
    cur, today = world.currency, world.now.date()
    rides = taken(world)
    out: list[Task] = []

    task = KIT.adder(world, out)

    start, end = last_month(today)
    month = [x for x in rides if start <= x.at.date() <= end]
    tp = p.preferences.tipping_percent or 15
    alt = 15 if tp != 15 else 20
    if month:
        paid = sum(x.data["tip_cents"] for x in month)
        would = sum(x.data["fare_cents"] * alt // 100 for x in month)
        task(
            "cf-tip-rate",
            ["rides", "bank"],
            kind="aggregation",
            category="counterfactual",
            difficulty="medium",
            time_limit_seconds=480,
            instruction=f"Had I tipped exactly {alt}% of the fare (rounded down to the cent) on every ZipRide "
            f"{month_phrase(start, today)}, how much would I have tipped in total, and how does that compare "
            "with the tips I actually gave?",
            expected={
                "rides": len(month),
                "tips_cents": paid,
                "alt_percent": alt,
                "alt_tips_cents": would,
                "difference_cents": would - paid,
            },
            rubric=[
                RubricItem(id="would", weight=50, requirement=f"States {money(would, cur)}", check=A.amount(would)),
                RubricItem(
                    id="paid",
                    weight=25,
                    requirement=f"States the {money(paid, cur)} actually tipped",
                    check=A.amount(paid),
                ),
                RubricItem(
                    id="difference",
                    weight=25,
                    requirement=f"States the difference {money(abs(would - paid), cur)}",
                    check=A.amount(would - paid),
                ),
            ],
        )
    return out


#: The airport ride's contradiction follows ZipRide's errands (scenarios/errands/rides.py) when the world has none of
#: its own tasks between them: placed after them.
AFTER_ERRANDS = 1
SCENARIOS = [
    Scenario(
        home="rides",
        apps=("rides", "airline", "mail"),
        tasks=airport_ride_tasks,
        after=(
            "save-place",
            "rate-ride",
            "tip-last-ride",
            "door-to-door",
            "ride-home-after-return",
            "airport-ride-next-flight",
            "work-rides-count",
        ),
        rank=AFTER_ERRANDS,
        when=in_use,
    ),
    Scenario(home="rides", apps=("rides", "bank"), tasks=tip_rate_tasks, after="cf-comfort", when=in_use),
]
