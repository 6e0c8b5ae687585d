"""ZipRide's own tasks derived from the world, each with its expected values and rubric, and the look-ups the
scenarios homed here share (the rides taken, the next airport trip): its tasks with other apps are in
``scenarios/``.

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


#: The airport ride the rider booked ahead for a flight the airline has since moved (apps/rides/seed.py
#: ``booked_ahead``): a rider scheduling the ride for the flight's new time may cancel it too.
CANCEL_STALE = Change(
    table="rides",
    op="update",
    min=0,
    max=1,
    columns=["status", "cancelled_at", "cancel_fee_cents", "refund_cents", "refund_auth", "total_cents", "tip_cents"],
)
# A scheduled ride: its row, and the places it names when ZipRide did not know them yet (and the stale one cancelled).
NEW_RIDE = (
    Change(table="rides", op="insert", min=1, max=1),
    Change(table="places", op="insert", min=0, max=2),
    CANCEL_STALE,
)


def taken(world: World) -> list:
    """The persona's rides that are done (the world's ``ride`` events), in time order."""
    return [e for e in world.of_kind("ride") if e.status == "done"]


def _aware(iso: str) -> dt.datetime:
    return dt.datetime.fromisoformat(iso)


def in_use(world: World) -> bool:
    """Whether the persona has taken a ride: without one ZipRide has no tasks, nor do the scenarios homed there."""
    return bool(taken(world))


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
    """Return ZipRide's own tasks for ``world`` (lookups, aggregations, actions in ZipRide alone), in a fixed order.
    Its tasks with other apps are scenarios homed here (``scenarios/``)."""
    p = world.persona
    cur = world.currency
    rides = taken(world)
    out: list[Task] = []

    task = KIT.adder(world, out)

    if not in_use(world):
        return out

    # 1. The rides of the last trip come first, with the bank: scenarios/pairs/rides.py.

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

    # 3. Spending in the month of the last ride (with the bank) follows: scenarios/pairs/rides.py.

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
        expected={"year": year, "rides": len(work), "total_cents": sum(e.data["total_cents"] for e in work)},
        rubric=[
            RubricItem(
                id="count",
                weight=50,
                requirement=f"Says {len(work)} rides",
                check=Check(type="answer_number", value=len(work)),
            ),
            RubricItem(
                id="total",
                weight=50,
                requirement=f"States {money(sum(e.data['total_cents'] for e in work), cur)}",
                check=kit.amount(sum(e.data["total_cents"] for e in work)),
            ),
        ],
    )

    # 6, 7. Schedule the rides to and from the airport for the next flight (its details in the booking mail), the
    # whole trip door to door, and tip the last ride (8.) come here: scenarios/errands/rides.py.

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
    home = format_address(p.identity.address) if p.identity.address else ""
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
    """ZipRide's own counterfactual and preference tasks: what the last ride would have cost as Zip Comfort, the last
    trip's rides as XL, where the persona rides to most, the usual ride type. Items the world lacks give no task. Its
    contradiction and counterfactual with other apps are scenarios/insights/rides.py."""
    from collections import Counter

    from builder.tasks import answers as A
    from builder.tasks.phrasing import day_phrase

    from .seed import fare_parts, ride_types

    p = world.persona
    cur, today = world.currency, world.now.date()
    rides = taken(world)
    out: list[Task] = []

    task = KIT.adder(world, out)

    if not rides:
        return out

    types = {t["code"]: t for t in ride_types()}
    e = rides[-1]
    d = e.data
    tenths = round(d["distance_miles"] * 10)
    comfort = fare_parts(tenths, d["duration_minutes"], types["comfort"]["price_percent"], world.currency)["fare_cents"]
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

    trip_ids = sorted({x.data["trip"] for x in rides if x.data.get("trip") is not None})
    if trip_ids:
        on = [x for x in rides if x.data.get("trip") == trip_ids[-1]]
        xl = sum(
            fare_parts(
                round(x.data["distance_miles"] * 10),
                x.data["duration_minutes"],
                types["xl"]["price_percent"],
                world.currency,
            )["fare_cents"]
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
            expected={
                "trip": trip_ids[-1],
                "destination": dest,
                "rides": len(on),
                "fares_cents": fares,
                "xl_cents": xl,
            },
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
