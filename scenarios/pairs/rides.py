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
from builder.tasks.reader import Reading, See, Unreadable, reader, visible_text
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
        expected={
            "trip": i,
            "destination": trip.destination,
            "month": f"{trip.depart:%Y-%m}",
            "rides": len(on_trip),
            "total_cents": total,
        },
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
                    "day": dep.date().isoformat(),
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


# --- independent readers ---------------------------------------------------------------------------


@reader("destination", "month")
def read_trip_cost(see: See, given: dict) -> Reading:
    """The trip's rides (ZipRide's Trip rides between leaving home and getting back), their totals summed."""
    from apps.rides.reader import trip_to

    rides, steps = trip_to(see, given["destination"], given["month"])
    total = sum(r["total"] for r in rides)
    return Reading(values={"total": total}, steps=[*steps, f"{len(rides)} rides, {total} with tips"])


@reader("month")
def read_month_spend(see: See, given: dict) -> Reading:
    """Activity filtered to the month: the rides' totals."""
    from apps.rides.reader import activity

    rows = activity(see, month=given["month"])
    total = sum(r["cents"] for r in rows)
    return Reading(
        values={"total": total},
        steps=[f"Activity, {given['month']}: {len(rows)} rides, " + " + ".join(str(r["cents"]) for r in rows)],
    )


def airline_flights(see: See) -> list[dict]:
    """Every flight of the persona's Meridian Air trips (upcoming and past tabs, each trip's page): ``{pnr,
    destination (the trip card's city), named (the trip page's "Trip to ..."), flight, from, to (codes), dep, arr (naive local)}``."""
    import re

    from builder.tasks.dates import clock_in, day_in

    out = []
    for tab in ("upcoming", "past"):
        page = see.page("airline", "/", {"tab": tab} if tab != "upcoming" else None)
        for li in page.xpath('//li[@data-testid="trip"]'):
            pnr = li.get("data-pnr")
            city = li.xpath('.//*[@class="ma-trip-city"]')
            title = visible_text(city[0]) if city else ""
            trip = see.page("airline", f"/trips/{pnr}")
            h1 = trip.xpath("//main//h1")
            named = visible_text(h1[0]).removeprefix("Trip to").strip() if h1 else ""
            for seg in trip.xpath('//*[@data-testid="segment"]'):
                ends = seg.xpath('./div[@class="ma-flight-end"]')

                def at(end) -> dt.datetime:
                    clock = visible_text(end.xpath('.//*[@class="ma-time"]')[0])
                    day = visible_text(end.xpath('.//*[@class="ma-muted"]')[0])
                    return dt.datetime.combine(day_in(day), clock_in(clock))

                out.append(
                    {
                        "pnr": pnr,
                        "destination": title,
                        "named": named,
                        "flight": re.sub(r"\s+", " ", seg.get("data-flight")),
                        "from": visible_text(ends[0].xpath('.//*[@class="ma-code"]')[0]),
                        "to": visible_text(ends[1].xpath('.//*[@class="ma-code"]')[0]),
                        "dep": at(ends[0]),
                        "arr": at(ends[1]),
                    }
                )
    return out


@reader("day")
def read_airport_lead(see: See, given: dict) -> Reading:
    """The ride that day whose drop-off is an airport (its receipt's drop-off time), and the Meridian Air flight
    leaving that airport that day after it: its number and departure."""
    from apps.rides.reader import activity, receipt

    day = dt.date.fromisoformat(given["day"])
    rides = [receipt(see, r["href"]) for r in activity(see, month=f"{day:%Y-%m}") if r["when"].date() == day]
    rides = [r for r in rides if "Airport" in r["dropoff"] or "Flughafen" in r["dropoff"]]
    if not rides:
        raise Unreadable(f"no ZipRide to an airport on {day}")
    ride = rides[0]
    code = ride["dropoff"].split()[0]
    flights = sorted(
        (
            f
            for f in airline_flights(see)
            if f["from"] == code and f["dep"].date() == day and f["dep"] > ride["dropoff_at"]
        ),
        key=lambda f: f["dep"],
    )
    if not flights:
        raise Unreadable(f"no Meridian Air flight from {code} on {day} after {ride['dropoff_at']:%H:%M}")
    f = flights[0]
    minutes = int((f["dep"] - ride["dropoff_at"]).total_seconds() // 60)
    return Reading(
        values={"minutes": minutes, "flight": f["flight"]},
        steps=[
            f"ZipRide {ride['ride_id']}: dropped at {ride['dropoff']} {ride['dropoff_at']:%Y-%m-%d %H:%M}",
            f"Meridian Air {f['pnr']}: {f['flight']} {f['from']}->{f['to']} departs {f['dep']:%H:%M}: {minutes} min later",
        ],
    )


def reservations(see: See) -> list[dict]:
    """TableTime's past reservations: ``{confirmation, day, time, restaurant, href (its page), companions}``."""
    page = see.page("dining", "/reservations", {"tab": "past"})
    out = []
    for li in page.xpath('//li[@data-testid="reservation"]'):
        conf = li.get("data-confirmation")
        detail = see.page("dining", f"/reservations/{conf}")
        link = detail.xpath('//main//a[starts-with(@href, "/r/")]')
        who = detail.xpath('//*[@data-testid="companions"]')
        names = []
        if who:
            text = visible_text(who[0]).removeprefix("Dining with").strip()
            names = [n.strip() for n in text.split(",") if n.strip()]
        out.append(
            {
                "confirmation": conf,
                "day": li.get("data-day"),
                "time": li.get("data-time"),
                "restaurant": visible_text(link[0]) if link else "",
                "href": link[0].get("href") if link else "",
                "companions": names,
            }
        )
    return out


def restaurant_address(see: See, href: str) -> str:
    """The street address a TableTime restaurant page gives."""
    page = see.page("dining", href)
    node = page.xpath('//*[@data-testid="address"]')
    if not node:
        raise Unreadable(f"{href} gives no address")
    return visible_text(node[0])


@reader()
def read_ride_to_dinner(see: See, given: dict) -> Reading:
    """The newest ride whose drop-off is the address of a restaurant booked on TableTime for that day: who the
    reservation names, what the ride cost."""
    from apps.rides.reader import activity, receipt

    booked = {}
    for b in reservations(see):
        if b["href"]:
            booked.setdefault((restaurant_address(see, b["href"]), b["day"]), b)
    for row in activity(see):
        if row["purpose"] and row["purpose"] not in ("Dinner", "Personal", "Visit"):
            continue
        r = receipt(see, row["href"])
        b = booked.get((r["dropoff"], r["dropoff_at"].date().isoformat()))
        if b is None:
            continue
        return Reading(
            values={"who": b["companions"], "cost": r["total"]},
            steps=[
                f"ZipRide {r['ride_id']} on {r['dropoff_at']:%Y-%m-%d} to {r['dropoff']}: total {r['total']}",
                f"TableTime {b['confirmation']} at {b['restaurant']} that day, with {', '.join(b['companions']) or 'nobody'}",
            ],
        )
    raise Unreadable("no ride ends at a restaurant booked on TableTime that day")


SCENARIOS = [
    Scenario(
        home="rides",
        apps=("rides", "bank"),
        tasks=trip_cost_tasks,
        after=FIRST,
        when=in_use,
        readers={"trip-rides-cost": read_trip_cost},
    ),
    Scenario(
        home="rides",
        apps=("rides", "bank"),
        tasks=month_tasks,
        after=("usual-tip", "trip-rides-cost", FIRST),
        when=in_use,
        readers={"month-spend": read_month_spend},
    ),
    Scenario(
        home="rides",
        apps=("rides",),
        tasks=pair_tasks,
        rank=PAIRS,
        when=in_use,
        readers={"pair-airport-lead": read_airport_lead, "pair-ride-to-dinner": read_ride_to_dinner},
    ),
]
