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
from builder.tasks.reader import Reading, See, Unreadable, reader
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


def _day_text(day: dt.date) -> str:
    return f"{day:%B} {day.day}"


@reader("destination")
def read_airport_ride(see: See, given: dict) -> Reading:
    """The rule: the airline's own schedule (its newest notice) says when the flight leaves. Meridian Air's upcoming
    trip to the destination: its first outbound flight's day; ZipRide's Scheduled rides: the ride to that flight's
    airport booked before it, its pickup day."""
    from scenarios.pairs.rides import airline_flights

    from apps.rides.reader import receipt, scheduled

    dest = given["destination"]
    flights = sorted(
        (
            f
            for f in airline_flights(see)
            if dest.casefold() in (f["destination"].casefold(), f["named"].casefold()) and f["dep"] > see.now
        ),
        key=lambda f: f["dep"],
    )
    if not flights:
        raise Unreadable(f"no upcoming Meridian Air trip to {dest}")
    f = flights[0]
    rides = []
    for s in scheduled(see):
        r = receipt(see, s["href"])
        if r["dropoff"].split()[0] == f["from"] and r["pickup_at"] <= f["dep"]:
            rides.append(r)
    if not rides:
        raise Unreadable(f"no scheduled ZipRide to {f['from']} before {f['flight']}")
    ride = rides[-1]
    flight_day, ride_day = _day_text(f["dep"].date()), _day_text(ride["pickup_at"].date())
    return Reading(
        values={"flight-day": flight_day, "ride-day": ride_day, "order": [flight_day, ride_day]},
        steps=[
            f"Meridian Air {f['pnr']} to {dest}: {f['flight']} leaves {f['from']} {f['dep']:%Y-%m-%d %H:%M}",
            f"ZipRide Scheduled rides: {ride['ride_id']} {ride['pickup']} -> {ride['dropoff']}, pickup "
            f"{ride['pickup_at']:%Y-%m-%d %H:%M}",
        ],
    )


@reader("alt_percent")
def read_tip_rate(see: See, given: dict) -> Reading:
    """Last month's ride receipts: the tips given, and each fare at the other rate, rounded down."""
    from apps.rides.reader import last_month_of, month_rides

    month = last_month_of(see)
    rides = month_rides(see, month)
    alt = int(given["alt_percent"])
    paid = sum(r["tip"] for r in rides)
    would = sum(r["fare"] * alt // 100 for r in rides)
    return Reading(
        values={"would": would, "paid": paid, "difference": would - paid},
        steps=[
            f"Activity, {month}: {len(rides)} rides; fares " + ", ".join(str(r["fare"]) for r in rides),
            f"tips given {paid}; at {alt}%: {would}",
        ],
    )


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
        readers={"cx-airport-ride": read_airport_ride},
    ),
    Scenario(
        home="rides",
        apps=("rides", "bank"),
        tasks=tip_rate_tasks,
        after="cf-comfort",
        when=in_use,
        readers={"cf-tip-rate": read_tip_rate},
    ),
]
