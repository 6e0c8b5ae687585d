"""ZipRide's two-app answer tasks: one question each whose answer needs exactly the two apps it names. What the
last trip's rides cost comes first, what the month of the last ride cost after the usual tip (both with the bank's
card lines); the ``pair-...`` ones come after ZipRide's own tasks (see :mod:`builder.tasks.pairs` for the shared
rules)."""

from __future__ import annotations

import datetime as dt

from apps.rides.tasks import KIT, in_use, taken
from builder.money import money
from builder.tasks import answers as A
from builder.tasks import kit
from builder.tasks import pairs as P
from builder.tasks.collect import FIRST, Scenario
from builder.tasks.model import RubricItem, Task
from builder.tasks.phrasing import day_phrase
from builder.world import World
from scenarios import PAIRS


def trip_cost_tasks(world: World) -> list[Task]:
    """What the rides of the last trip with rides cost, tips included (the card lines say ZIPRIDE TRIP). None without
    a ride on a trip."""
    p, cur = world.persona, world.currency
    rides = taken(world)
    trips = sorted({e.data["trip"] for e in rides if e.data.get("trip") is not None})
    if not trips:
        return []
    out: list[Task] = []
    task = KIT.adder(world, out)
    i = trips[-1]
    trip = p.travel.trips[i]
    on_trip = [e for e in rides if e.data.get("trip") == i]
    total = sum(e.data["total_cents"] for e in on_trip)
    task(
        "trip-rides-cost",
        ["rides", "bank"],
        kind="aggregation",
        difficulty="medium",
        time_limit_seconds=420,
        instruction=f"How much did I spend on ZipRide rides for my {trip.destination} trip in {trip.depart:%B %Y}, "
        "tips included?",
        expected={"trip": i, "rides": len(on_trip), "total_cents": total},
        rubric=[
            RubricItem(
                id="total", weight=80, requirement=f"States the total {money(total, cur)}", check=kit.amount(total)
            ),
            RubricItem(id="count", weight=20, requirement=f"Says it was {len(on_trip)} rides"),
        ],
    )
    return out


def month_tasks(world: World) -> list[Task]:
    """What ZipRide cost in the month of the last ride (the bank's card lines)."""
    cur = world.currency
    rides = taken(world)
    out: list[Task] = []
    task = KIT.adder(world, out)
    month = rides[-1].data["pickup_local"][:7]
    in_month = [e for e in rides if e.data["pickup_local"][:7] == month]
    m_total = sum(e.data["total_cents"] for e in in_month)
    m_name = dt.date.fromisoformat(f"{month}-01").strftime("%B %Y")
    task(
        "month-spend",
        ["rides", "bank"],
        kind="aggregation",
        difficulty="medium",
        time_limit_seconds=360,
        instruction=f"What did I spend on ZipRide in {m_name}?",
        expected={"month": month, "rides": len(in_month), "total_cents": m_total},
        rubric=[
            RubricItem(id="total", weight=100, requirement=f"States {money(m_total, cur)}", check=kit.amount(m_total))
        ],
    )
    return out


def pair_tasks(world: World) -> list[Task]:
    """ZipRide's pair tasks of ``world`` (empty when the world lacks their material)."""
    return P.collect(world, "rides", _build)


def _build(world: World, task) -> None:
    today, cur = world.now.date(), world.currency
    trip = P.past_trip(world)
    if trip:
        first = trip["flights"][0]
        dep = P.ts(first.data["dep_local"])
        rides = [
            e
            for e in P.done(world, "ride")
            if e.data.get("trip") == first.data["trip"]
            and first.data["from"] in e.data["dropoff"]
            and P.ts(e.data["dropoff_local"]) <= dep
        ]
        if rides:
            r = rides[-1]
            lead = int((dep - P.ts(r.data["dropoff_local"])).total_seconds() // 60)
            task(
                "pair-airport-lead",
                ["rides", "airline"],
                kind="lookup",
                difficulty="medium",
                time_limit_seconds=420,
                instruction=f"My ZipRide dropped me at the airport for my {trip['booking'].data['destination']} "
                f"trip {day_phrase(dep.date(), today)}. How many minutes before the scheduled departure "
                "did I get there, and what was the flight number?",
                expected={
                    "flight": first.data["flight_number"],
                    "dropoff": r.data["dropoff_local"],
                    "departure": first.data["dep_local"],
                    "minutes": lead,
                },
                rubric=[
                    RubricItem(id="minutes", weight=60, requirement=f"Says {lead} minutes", check=A.number(lead)),
                    RubricItem(
                        id="flight",
                        weight=40,
                        requirement=f"Names flight {first.data['flight_number']}",
                        check=A.text(first.data["flight_number"], first.data["flight_number"].replace(" ", "")),
                    ),
                ],
            )
    bookings = {}
    for b in P.done(world, "restaurant_booking"):
        bookings.setdefault((b.data["address"], b.data["reservation_local"][:10]), b)
    hits = [
        (r, bookings[(r.data["dropoff"], r.data["dropoff_local"][:10])])
        for r in P.done(world, "ride")
        if (r.data["dropoff"], r.data["dropoff_local"][:10]) in bookings
    ]
    hits = [(r, b) for r, b in hits if b.data.get("companions")]
    if hits:
        r, b = hits[-1]
        who = b.data["companions"]
        day = P.ts(r.data["dropoff_local"]).date()
        task(
            "pair-ride-to-dinner",
            ["rides", "dining"],
            kind="lookup",
            difficulty="medium",
            time_limit_seconds=420,
            instruction="The last time I took a ZipRide straight to a restaurant I'd booked on TableTime, who was I "
            "eating with, and what did that ride cost me in total?",
            expected={
                "restaurant": b.data["restaurant"],
                "day": day.isoformat(),
                "companions": who,
                "ride_total_cents": r.data["total_cents"],
            },
            rubric=[
                RubricItem(
                    id="who",
                    weight=50,
                    requirement="Names " + ", ".join(who),
                    check=A.names([A.person(n) for n in who]),
                ),
                RubricItem(
                    id="cost",
                    weight=40,
                    requirement=f"States {money(r.data['total_cents'], cur)}",
                    check=A.amount(r.data["total_cents"]),
                ),
                RubricItem(id="where", weight=10, requirement=f"Mentions {b.data['restaurant']}"),
            ],
        )


SCENARIOS = [
    Scenario(home="rides", apps=("rides", "bank"), tasks=trip_cost_tasks, after=FIRST, when=in_use),
    Scenario(
        home="rides",
        apps=("rides", "bank"),
        tasks=month_tasks,
        after=("usual-tip", "trip-rides-cost", FIRST),
        when=in_use,
    ),
    Scenario(home="rides", apps=("rides",), tasks=pair_tasks, rank=PAIRS, when=in_use),
]
