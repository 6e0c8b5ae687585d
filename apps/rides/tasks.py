"""ZipRide tasks derived from the world, each with its expected values and rubric.

Action checks read ZipRide's (and the bank's) database end state. Rows the app writes are told apart from
seeded ones: a new ride has ``world_ref IS NULL``, a tip added in the app sets ``tipped_at`` (the seed never
does), a new rating is on a ride the seed left unrated, a new saved place has ``world_ref IS NULL``; so an
agent that does nothing fails every action check. Check queries are fixed SQL text with ``?`` placeholders;
every world value travels in ``params``.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from collections import Counter

from builder.money import money
from builder.tasks import kit
from builder.tasks.model import Change, Check, RubricItem, Task
from builder.tasks.phrasing import last_month
from builder.world import World
from builder.world.planted import airline_flights
from builder.reference.addresses import format_address
from builder.reference.airports import airport_label

APP = "rides"
KIT = kit.Kit(APP)
#: Rides ended less than this many days before now are unrated in the seed (apps/rides/seed.py).
UNRATED_DAYS = 14
#: The app lets a rider rate and tip a ride this many days after it (web/lib/rides.ts FEEDBACK_DAYS).
FEEDBACK_DAYS = 30
SCHEDULE_MAX_DAYS = 30


# A scheduled ride: its row, and the places it names when ZipRide did not know them yet.
NEW_RIDE = (Change(table="rides", op="insert", min=1, max=1), Change(table="places", op="insert", min=0, max=2))


def _done(world: World) -> list:
    return [e for e in world.of_kind("ride") if e.status == "done"]


def _aware(iso: str) -> dt.datetime:
    return dt.datetime.fromisoformat(iso)


def in_use(world: World) -> bool:
    """Whether the persona has taken a ride: without one ZipRide has no tasks, nor do the scenarios homed there."""
    return bool(_done(world))


@dataclass(frozen=True)
class AirportTrip:
    """The next flight from the home airport within the scheduling window, as ZipRide's airport rides see it: the
    outbound ``flight`` (a world event) and its ``leg`` as the airline now has it (a planted schedule change moves
    it), its local departure ``dep``, the ``pickup`` ``lead_text`` before it (the world's own lead, 2½ or 3 hours),
    the ``airport``'s place label, the return leg ``back`` into the home airport and its local arrival ``arr`` (None
    without one), and the window's end ``horizon`` (naive local)."""

    flight: object
    leg: dict
    dep: dt.datetime
    pickup: dt.datetime
    lead_text: str
    airport: str
    back: dict | None
    arr: dt.datetime | None
    horizon: dt.datetime


def airport_trip(world: World) -> AirportTrip | None:
    """The :class:`AirportTrip` of ``world``, or None without a flight from home in the next 30 days."""
    p = world.persona
    airport = airport_label(p.travel.home_airport) if p.travel and p.travel.home_airport else None
    horizon = world.now + dt.timedelta(days=SCHEDULE_MAX_DAYS)
    ahead = [
        f
        for f in world.of_kind("flight")
        if f.status != "done"
        and airport
        and f.data["from"] == p.travel.home_airport
        and world.now + dt.timedelta(hours=4) < f.at < horizon
    ]
    if not ahead:
        return None
    f = ahead[0]
    leg = airline_flights(world).get(f.id, f.data)
    dep = _aware(leg["dep_local"])
    # The world's own lead (travel.py: 2.5 h, 3 h international) read off its ride to the airport for that trip.
    own = [r for r in world.of_kind("ride") if r.data.get("trip") == f.data["trip"] and r.data["dropoff"] == airport]
    own_lead = (_aware(f.data["dep_local"]) - _aware(own[0].data["pickup_local"])).total_seconds() / 60 if own else 150
    lead = 180 if own_lead >= 170 else 150
    legs = [
        x for x in world.of_kind("flight") if x.data["pnr"] == f.data["pnr"] and x.data["to"] == p.travel.home_airport
    ]
    return AirportTrip(
        flight=f,
        leg=leg,
        dep=dep,
        pickup=dep - dt.timedelta(minutes=lead),
        lead_text="3 hours" if lead == 180 else "2½ hours",
        airport=airport,
        back=legs[-1].data if legs else None,
        arr=_aware(legs[-1].data["arr_local"]) if legs else None,
        horizon=horizon,
    )


def tasks(world: World) -> list[Task]:
    """Return ZipRide's tasks for ``world`` (lookups, aggregations, actions; several with the bank and mail), in a fixed order."""
    p = world.persona
    cur = world.currency
    rides = _done(world)
    out: list[Task] = []
    home = format_address(p.identity.address) if p.identity.address else ""

    task = KIT.adder(world, out)

    if not in_use(world):
        return out

    # 1. Rides on the last trip (with the bank: the card lines say ZIPRIDE TRIP).
    trips = sorted({e.data["trip"] for e in rides if e.data.get("trip") is not None})
    if trips:
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

    # 2. The usual tip (percent of the fare, the most common among tipped rides).
    percents = Counter(round(e.data["tip_cents"] * 100 / e.data["fare_cents"]) for e in rides if e.data["tip_cents"])
    if percents:
        usual = min(percents.items(), key=lambda x: (-x[1], x[0]))[0]
        task(
            "usual-tip",
            ["rides"],
            kind="aggregation",
            category="preference_inference",
            difficulty="easy",
            time_limit_seconds=300,
            instruction="What percentage do I usually tip on ZipRide?",
            expected={"percent": usual},
            rubric=[
                RubricItem(
                    id="percent",
                    weight=100,
                    requirement=f"Says about {usual}% of the fare",
                    check=kit.percent(usual),
                )
            ],
        )

    # 3. Spending in the month of the last ride (with the bank's card lines).
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

    # 4. The driver who took the persona home from the airport after the last trip.
    airport = airport_label(p.travel.home_airport) if p.travel and p.travel.home_airport else None
    back = [e for e in rides if airport and e.data["pickup"] == airport]
    if back:
        e = back[-1]
        task(
            "driver-from-airport",
            ["rides"],
            kind="lookup",
            difficulty="easy",
            time_limit_seconds=240,
            instruction="Who drove me home from the airport after my last trip, and what was the car's plate?",
            expected={"ride_id": e.data["ride_id"], "driver": e.data["driver"], "plate": e.data["plate"]},
            rubric=[
                RubricItem(
                    id="driver",
                    weight=60,
                    requirement=f"Names {e.data['driver']}",
                    check=Check(type="answer_text", any_of=[e.data["driver"]]),
                ),
                RubricItem(
                    id="plate",
                    weight=40,
                    requirement=f"Gives the plate {e.data['plate']}",
                    check=Check(type="answer_text", any_of=[e.data["plate"]]),
                ),
            ],
        )

    # 5. Work rides this year.
    year = world.now.year
    work = [e for e in rides if e.data.get("purpose") == "work" and e.at.year == year]
    task(
        "work-rides-count",
        ["rides"],
        kind="aggregation",
        difficulty="medium",
        time_limit_seconds=360,
        instruction=f"How many ZipRide rides did I take to or from the office in {year}, and what did they cost in total?",
        expected={"rides": len(work), "total_cents": sum(e.data["total_cents"] for e in work)},
        rubric=[
            RubricItem(
                id="count",
                weight=50,
                requirement=f"Says {len(work)} rides",
                check=Check(type="answer_text", any_of=[f"{len(work)} ride", f"{len(work)} trip"]),
            ),
            RubricItem(
                id="total",
                weight=50,
                requirement=f"States {money(sum(e.data['total_cents'] for e in work), cur)}",
                check=kit.amount(sum(e.data["total_cents"] for e in work)),
            ),
        ],
    )

    # 6. Schedule the ride to the airport for the next flight (the departure is in the booking mail).
    trip = airport_trip(world)
    if trip:
        f, leg, dep, pickup, lead_text, horizon = (
            trip.flight,
            trip.leg,
            trip.dep,
            trip.pickup,
            trip.lead_text,
            trip.horizon,
        )
        lo, hi = pickup - dt.timedelta(minutes=15), pickup + dt.timedelta(minutes=15)
        task(
            "airport-ride-next-flight",
            ["rides", "mail"],
            kind="action",
            difficulty="medium",
            time_limit_seconds=600,
            instruction=f"Schedule a ZipRide from home to the airport for my next flight so that I'm picked up "
            f"{lead_text} before it departs. The flight details are in my email.",
            expected={
                "pnr": f.data["pnr"],
                "flight": leg["flight_number"],
                "dep_local": dep.isoformat(),
                "pickup": "Home",
                "dropoff": airport,
                "pickup_at": pickup.isoformat(),
            },
            rubric=[
                RubricItem(
                    id="scheduled",
                    weight=85,
                    requirement=f"A ride Home -> {airport} is scheduled with pickup {pickup:%b %-d %H:%M} "
                    "(within 15 minutes)",
                    check=KIT.sql(
                        """SELECT COUNT(*) FROM rides r JOIN places a ON a.id = r.pickup_place_id
                                              JOIN places b ON b.id = r.dropoff_place_id
                                              WHERE r.world_ref IS NULL AND r.status = 'scheduled' AND a.kind = 'home'
                                              AND b.address = ? AND r.pickup_at BETWEEN ? AND ?""",
                        [airport, lo.isoformat(), hi.isoformat()],
                        [[1]],
                    ),
                ),
                KIT.only("Nothing else changed at ZipRide: only the one scheduled ride", *NEW_RIDE),
            ],
        )

        # 7. And the ride home after the return flight lands.
        if trip.back is not None:
            back, arr = trip.back, trip.arr
            if arr.replace(tzinfo=None) < horizon:
                lo, hi = arr + dt.timedelta(minutes=15), arr + dt.timedelta(minutes=75)
                task(
                    "ride-home-after-return",
                    ["rides", "mail"],
                    kind="action",
                    difficulty="hard",
                    time_limit_seconds=600,
                    instruction="Schedule a ZipRide home from the airport for when my return flight from my next "
                    "trip lands: pickup 15 to 75 minutes after its arrival.",
                    expected={
                        "flight": back["flight_number"],
                        "arr_local": back["arr_local"],
                        "pickup": airport,
                        "dropoff": "Home",
                        "ride_type": "zip",
                        "pickup_at": (arr + dt.timedelta(minutes=30)).isoformat(),
                    },
                    rubric=[
                        RubricItem(
                            id="scheduled",
                            weight=85,
                            requirement=f"A ride {airport} -> Home is scheduled with pickup between "
                            f"{lo:%b %-d %H:%M} and {hi:%H:%M}",
                            check=KIT.sql(
                                """SELECT COUNT(*) FROM rides r
                                                      JOIN places a ON a.id = r.pickup_place_id
                                                      JOIN places b ON b.id = r.dropoff_place_id
                                                      WHERE r.world_ref IS NULL AND r.status = 'scheduled'
                                                      AND a.address = ? AND b.kind = 'home'
                                                      AND r.pickup_at BETWEEN ? AND ?""",
                                [airport, lo.isoformat(), hi.isoformat()],
                                [[1]],
                            ),
                        ),
                        KIT.only("Nothing else changed at ZipRide: only the one scheduled ride", *NEW_RIDE),
                    ],
                )
                # 7b. The whole trip's rides as one errand across five apps: scenarios/errands/rides.py.

    # 8. Tip the last ride 20 % (a new card charge the bank shows).
    last = rides[-1]
    if last.at >= world.now - dt.timedelta(days=FEEDBACK_DAYS - 1):
        tip = (last.data["fare_cents"] * 20 + 50) // 100
        where = last.data["dropoff"] if last.data["dropoff"] != home else last.data["pickup"]
        where_text = "home" if last.data["dropoff"] == home else where.split(",")[0]
        task(
            "tip-last-ride",
            ["rides", "bank"],
            kind="action",
            difficulty="easy",
            time_limit_seconds=300,
            instruction=f"Tip the driver of my last ZipRide ride (to {where_text}) 20% of the fare.",
            expected={"ride_id": last.data["ride_id"], "tip_cents": tip, "tip_before_cents": last.data["tip_cents"]},
            rubric=[
                RubricItem(
                    id="tip",
                    weight=55,
                    requirement=f"A tip of {money(tip, cur)} is added to ride {last.data['ride_id']}",
                    check=KIT.sql(
                        """SELECT COUNT(*) FROM rides WHERE ride_id = ? AND tipped_at IS NOT NULL
                                              AND tip_cents = ?""",
                        [last.data["ride_id"], last.data["tip_cents"] + tip],
                        [[1]],
                    ),
                ),
                RubricItem(
                    id="charged",
                    weight=30,
                    requirement="The bank shows the tip as a pending card charge",
                    check=KIT.sql(
                        """SELECT COUNT(*) FROM card_authorizations WHERE app = 'rides'
                                              AND kind = 'charge' AND amount_cents = ? AND status = 'pending'""",
                        [tip],
                        [[1]],
                        app="bank",
                    ),
                ),
                KIT.only(
                    "Nothing else changed at ZipRide: only the tip on that ride",
                    Change(
                        table="rides",
                        op="update",
                        min=1,
                        max=1,
                        columns=["tip_cents", "tip_auth", "tipped_at", "total_cents"],
                    ),
                ),
            ],
        )

    # 9. Rate the newest unrated ride.
    unrated = [e for e in rides if e.at >= world.now - dt.timedelta(days=UNRATED_DAYS - 1)]
    if unrated:
        e = unrated[-1]
        first = e.data["driver"].split()[0]
        task(
            "rate-ride",
            ["rides"],
            kind="action",
            difficulty="easy",
            time_limit_seconds=240,
            instruction=f"Rate my ZipRide ride with {first} on {e.at:%B %-d} 5 stars, with the compliments "
            "“Smooth driving” and “Knew the way”.",
            expected={"ride_id": e.data["ride_id"], "stars": 5, "compliments": ["Smooth driving", "Knew the way"]},
            rubric=[
                RubricItem(
                    id="stars",
                    weight=55,
                    requirement="The ride is rated 5 stars",
                    check=KIT.sql(
                        "SELECT COUNT(*) FROM rides WHERE ride_id = ? AND rating = 5 AND rated_at IS NOT NULL",
                        [e.data["ride_id"]],
                        [[1]],
                    ),
                ),
                RubricItem(
                    id="compliments",
                    weight=30,
                    requirement="Both compliments are given",
                    check=KIT.sql(
                        """SELECT COUNT(*) FROM rides WHERE ride_id = ?
                                              AND instr(compliments, ?) > 0 AND instr(compliments, ?) > 0""",
                        [e.data["ride_id"], "Smooth driving", "Knew the way"],
                        [[1]],
                    ),
                ),
                KIT.only(
                    "Nothing else changed at ZipRide: only that ride's rating",
                    Change(table="rides", op="update", min=1, max=1, columns=["rating", "compliments", "rated_at"]),
                ),
            ],
        )

    # 10. Save a contact's home as a place.
    saved = _saved_addresses(world)
    city = p.identity.address.city if p.identity.address else None
    people = [
        c
        for c in p.contacts
        if c.address
        and c.address.city == city
        and format_address(c.address) != home
        and format_address(c.address) not in saved
    ]
    if people:
        c = people[0]
        label = c.name.split()[0]
        address = format_address(c.address)
        task(
            "save-place",
            ["rides"],
            kind="action",
            difficulty="easy",
            time_limit_seconds=240,
            instruction=f"In ZipRide, save {c.name}'s place ({address}) as a saved place called “{label}”.",
            expected={"label": label, "address": address},
            rubric=[
                RubricItem(
                    id="saved",
                    weight=85,
                    requirement=f"A saved place “{label}” at {address}",
                    check=KIT.sql(
                        """SELECT COUNT(*) FROM saved_places s JOIN places p ON p.id = s.place_id
                                              WHERE s.world_ref IS NULL AND s.label = ? AND p.address = ?""",
                        [label, address],
                        [[1]],
                    ),
                ),
                KIT.only(
                    f"Nothing else changed at ZipRide: only the new saved place “{label}”",
                    Change(table="saved_places", op="insert", min=1, max=1),
                    Change(table="places", op="insert", min=0, max=1),
                ),
            ],
        )
    out.extend(insight_tasks(world))
    return out


def _saved_addresses(world: World) -> set[str]:
    """Addresses the seed saves (home, work, the frequent places): apps/rides/seed.py."""
    from .seed import frequent_places, known_places

    places = known_places(world)
    return {x["address"] for x in places if x["kind"] in ("home", "work")} | {
        x["address"] for x in frequent_places(world, places)
    }


# --- Reasoning tasks (contradiction, counterfactual, preference inference) ---------------------------------------


def insight_tasks(world: World) -> list[Task]:
    """ZipRide's contradiction, counterfactual and preference tasks: the airport ride still on the day before the
    airline's change, what the last ride would have cost as Zip Comfort, last month's tips at another rate, the usual
    ride type. Items the world lacks give no task."""
    from collections import Counter

    from builder.tasks import answers as A
    from builder.tasks.phrasing import day_phrase, month_phrase

    from .seed import fare_parts, ride_types

    p = world.persona
    _pid, cur, today = p.id, world.currency, world.now.date()
    rides = _done(world)
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
            expected={"ride_pickup": step["old"], "flight_departure": it["new_departure"], "truth": "airline"},
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
    if not rides:
        return out

    types = {t["code"]: t for t in ride_types()}
    e = rides[-1]
    d = e.data
    tenths = round(d["distance_miles"] * 10)
    comfort = fare_parts(tenths, d["duration_minutes"], types["comfort"]["price_percent"])["fare_cents"]
    picked = dt.datetime.fromisoformat(d["pickup_local"]).replace(tzinfo=None)
    task(
        "cf-comfort",
        ["rides"],
        kind="aggregation",
        category="counterfactual",
        difficulty="medium",
        time_limit_seconds=420,
        instruction=f"My last ZipRide, {day_phrase(picked.date(), today)}, was a regular Zip. Had I booked "
        f"{types['comfort']['name']} for the same trip, what would the fare have been (before tip), and how "
        "much more is that than what I paid in fare?",
        expected={
            "ride_id": d["ride_id"],
            "fare_cents": d["fare_cents"],
            "comfort_cents": comfort,
            "difference_cents": comfort - d["fare_cents"],
        },
        rubric=[
            RubricItem(id="comfort", weight=60, requirement=f"States {money(comfort, cur)}", check=A.amount(comfort)),
            RubricItem(
                id="more",
                weight=40,
                requirement=f"States {money(comfort - d['fare_cents'], cur)} more",
                check=A.amount(comfort - d["fare_cents"]),
            ),
        ],
    )

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

    trip_ids = sorted({x.data["trip"] for x in rides if x.data.get("trip") is not None})
    if trip_ids:
        on = [x for x in rides if x.data.get("trip") == trip_ids[-1]]
        xl = sum(
            fare_parts(round(x.data["distance_miles"] * 10), x.data["duration_minutes"], types["xl"]["price_percent"])[
                "fare_cents"
            ]
            for x in on
        )
        fares = sum(x.data["fare_cents"] for x in on)
        dest = p.travel.trips[trip_ids[-1]].destination
        task(
            "cf-xl-trip",
            ["rides"],
            kind="aggregation",
            category="counterfactual",
            difficulty="hard",
            time_limit_seconds=600,
            instruction=f"On my {dest} trip I took {len(on)} ZipRide rides. Had I booked {types['xl']['name']} for every "
            "one of them, what would the fares have come to in total (before tips), against what I paid "
            "in fares?",
            expected={"trip": trip_ids[-1], "rides": len(on), "fares_cents": fares, "xl_cents": xl},
            rubric=[
                RubricItem(id="xl", weight=70, requirement=f"States {money(xl, cur)}", check=A.amount(xl)),
                RubricItem(
                    id="fares", weight=30, requirement=f"States {money(fares, cur)} paid", check=A.amount(fares)
                ),
            ],
        )

    home_addr = format_address(p.identity.address) if p.identity.address else ""
    spots = Counter(x.data["dropoff"] for x in rides if x.data["dropoff"] != home_addr and x.data.get("trip") is None)
    top = spots.most_common(2)
    if top and (len(top) == 1 or top[0][1] > top[1][1]):
        addr, n = top[0]
        task(
            "pref-destination",
            ["rides"],
            kind="aggregation",
            category="preference_inference",
            difficulty="medium",
            time_limit_seconds=480,
            instruction="Apart from going home, where do I take ZipRide to most often in my own city? Give me the "
            "address and how many rides ended there.",
            expected={"address": addr, "rides": n},
            rubric=[
                RubricItem(id="address", weight=70, requirement=f"Gives {addr}", check=A.text(addr.split(",")[0])),
                RubricItem(id="count", weight=30, requirement=f"Says {n} rides", check=A.number(n)),
            ],
        )

    # Every world ride is a Zip (apps/rides/seed.py): the usual type is what the history shows.
    kinds = Counter("zip" for _ in rides)
    code, n = kinds.most_common(1)[0]
    task(
        "pref-ride-type",
        ["rides"],
        kind="aggregation",
        category="preference_inference",
        difficulty="easy",
        time_limit_seconds=300,
        instruction="Which ZipRide ride type do I normally book? Going by my ride history, how many of my rides were "
        "that type?",
        expected={"type": types[code]["name"], "rides": n},
        rubric=[
            RubricItem(
                id="type",
                weight=70,
                requirement=f"Says {types[code]['name']}",
                check=A.text(
                    *(
                        f.format(types[code]["name"])
                        for f in (
                            "“{}”",
                            '"{}"',
                            "'{}'",
                            "{} ride",
                            "{} type",
                            "{} (",
                            "regular {}",
                            "standard {}",
                            "plain {}",
                            "{} rides",
                            "{}.",
                            "{},",
                        )
                    )
                ),
            ),
            RubricItem(id="count", weight=30, requirement=f"Says {n} rides", check=A.number(n)),
        ],
    )
    return out


# --- Cross-app answer tasks: tips across the apps ---------------------------------------------------------------
