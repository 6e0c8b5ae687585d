"""ZipRide's answers summed over several apps (ids ``<persona>/rides/x-...``)."""

from __future__ import annotations

import datetime as dt

from apps.rides.tasks import in_use
from builder.money import money
from builder.tasks.collect import Scenario
from builder.tasks.model import RubricItem, Task
from builder.tasks.reader import Reading, See, reader
from builder.world import World
from scenarios import RECAPS


def crossapp_tasks(world: World) -> list[Task]:
    """What the persona tipped on ZipRide, DashBite and Basketful in a year (this year and last), each and together."""
    from apps.bank.spending import service_spend
    from builder.tasks import answers as A

    p = world.persona
    pid, cur, today = p.id, world.currency, world.now.date()
    out: list[Task] = []
    for year in (today.year, today.year - 1):
        start, end = dt.date(year, 1, 1), min(dt.date(year, 12, 31), today)
        tips = []
        for s in service_spend(world, start, end):
            if s.app == "rides":
                tips.append(("rides", "ZipRide drivers", s.extra_cents))
            elif s.app in ("delivery", "grocery"):
                t = sum(e.data["tip_cents"] for e in s.events)
                tips.append((s.app, "DashBite couriers" if s.app == "delivery" else "Basketful shoppers", t))
        tips = [x for x in tips if x[2]]
        if len(tips) < 2 or "rides" not in {x[0] for x in tips}:
            continue
        total = sum(x[2] for x in tips)
        when = "so far this year" if year == today.year else f"in {year}"
        out.append(
            Task(
                id=f"{pid}/rides/x-tips-{year}",
                persona=pid,
                apps_involved=sorted(x[0] for x in tips),
                kind="aggregation",
                difficulty="hard",
                time_limit_seconds=1200,
                instruction=f"How generous have I been {when}? Add up my tips to ZipRide drivers, DashBite "
                "couriers and Basketful shoppers: each app's tips and the total.",
                expected={"year": year, "tips_cents": {k: c for k, _, c in tips}, "total_cents": total},
                rubric=[
                    RubricItem(
                        id=k,
                        weight=70 // len(tips) + (70 % len(tips) if i == 0 else 0),
                        requirement=f"{label}: {money(c, cur)}",
                        check=A.amount(c),
                    )
                    for i, (k, label, c) in enumerate(tips)
                ]
                + [RubricItem(id="total", weight=30, requirement=f"Total {money(total, cur)}", check=A.amount(total))],
            )
        )
    return out


@reader("year")
def read_tips(see: See, given: dict) -> Reading:
    """The year's tips: each ZipRide receipt's tip, each DashBite order page's tip, each Basketful order page's tip
    (rides by pickup day, orders by the day they were placed), up to today."""
    from apps.rides.reader import activity, receipt
    from scenarios.recaps.pages import basketful_orders, basketful_tip, dashbite_orders, dashbite_tip

    year = int(given["year"])
    rides = sum(receipt(see, r["href"])["tip"] for r in activity(see) if r["when"].year == year)
    food = sum(dashbite_tip(see, o["href"]) for o in dashbite_orders(see) if o["day"].year == year)
    groc = sum(basketful_tip(see, o["href"]) for o in basketful_orders(see) if o["placed"].year == year)
    return Reading(
        values={"rides": rides, "delivery": food, "grocery": groc, "total": rides + food + groc},
        steps=[f"{year}: ZipRide receipts' tips {rides}, DashBite orders' tips {food}, Basketful orders' tips {groc}"],
    )


SCENARIOS = [
    Scenario(
        home="rides",
        apps=("rides",),
        tasks=crossapp_tasks,
        rank=RECAPS,
        when=in_use,
        # One reader for every year a task can name (its id carries the year: a pattern key).
        readers={"x-tips-*": read_tips},
    )
]
