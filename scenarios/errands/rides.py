"""ZipRide's errands across apps, with their reference solutions: the rides to and from the airport for the next
flight (its details in the booking mail), the next trip door to door (both airport rides, their pickups in the
calendar, the return flight texted, a work-chat status while away), and a tip on the last ride (the bank shows the
charge)."""

from __future__ import annotations

import datetime as dt

from apps.calendar import steps as daybook
from apps.messaging import steps as parley
from apps.rides import steps as zipride
from apps.rides.tasks import APP, CANCEL_STALE, FEEDBACK_DAYS, KIT, NEW_RIDE, airport_trip, in_use, taken
from apps.workchat import steps as huddle
from builder.money import money
from builder.tasks import effects
from builder.tasks import steps as S
from builder.tasks.collect import Scenario
from builder.tasks.model import Change, Check, RubricItem, Task
from builder.tasks.oracle import Web
from builder.world import World
from builder.reference.addresses import format_address


def airport_tasks(world: World) -> list[Task]:
    """Schedule the ride to the airport for the next flight from home so that the pickup is the world's own lead
    before it departs, and (when the return flight lands within the scheduling window) the ride home 15 to 75 minutes
    after it lands; the flights' details are in the booking mail. None without a flight from home in the window."""
    trip = airport_trip(world)
    if not trip:
        return []
    airport = trip.airport
    out: list[Task] = []
    task = KIT.adder(world, out)
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
    return out


def _schedule(task: Task, web: Web, ride_type: str) -> str:
    exp = task.expected
    zipride.schedule(web, exp["pickup"], exp["dropoff"], exp["pickup_at"], ride_type)
    return (
        f"Scheduled a ZipRide from {exp['pickup']} to {exp['dropoff']}, pickup at {exp['pickup_at'][11:16]} "
        f"on {exp['pickup_at'][:10]}."
    )


def airport_ride_next_flight(task: Task, web: Web) -> str:
    """The Zip ride from home to the airport, at the pickup the task names."""
    return _schedule(task, web, "zip")


def ride_home_after_return(task: Task, web: Web) -> str:
    """The ride home from the airport, half an hour after the return flight lands."""
    return _schedule(task, web, task.expected["ride_type"])


def tip_tasks(world: World) -> list[Task]:
    """Tip the last ride 20 % (a new card charge the bank shows), while the app still takes a tip on it. None
    after that."""
    p, cur = world.persona, world.currency
    rides = taken(world)
    home = format_address(p.identity.address) if p.identity.address else ""
    out: list[Task] = []
    task = KIT.adder(world, out)
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
    return out


def tip_last_ride(task: Task, web: Web) -> str:
    """The 20 % tip on the last ride, in ZipRide."""
    rid = zipride.ride_row(web, task.expected["ride_id"])
    _, location = web.post_form(APP, f"/api/rides/{rid}/tip", [("ride", str(rid)), ("percent", "20")], expect=(303,))
    zipride.expect_confirmed(location, "tipped=1")
    return f"Tipped the driver 20%: {web.money(task.expected['tip_cents'])}."


def _door_to_door(
    world: World,
    out_flight,
    out_leg: dict,
    back: dict,
    airport: str,
    pickup: dt.datetime,
    lead_text: str,
    arr: dt.datetime,
    who,
) -> Task:
    """The long task "rides for my next trip": ride to the airport ``lead_text`` before ``out_leg`` departs, ride home
    15-75 minutes after ``back`` lands at ``arr``, both pickups in Daybook, ``who`` texted the return flight and its
    landing time, and (when the persona works) a Huddle status "Travelling" until the day it lands."""
    from apps.calendar import steps as daybook
    from apps.messaging import steps as parley
    from apps.rides import steps as zipride
    from apps.workchat import steps as huddle
    from builder.tasks import answers as A
    from builder.tasks.phrasing import day_phrase

    p = world.persona
    city = p.travel.trips[out_flight.data["trip"]].destination
    home_lo, home_hi = arr + dt.timedelta(minutes=15), arr + dt.timedelta(minutes=75)
    out_lo, out_hi = pickup - dt.timedelta(minutes=15), pickup + dt.timedelta(minutes=15)
    flight = back["flight_number"]
    flight_forms = sorted({flight, flight.replace(" ", "")})
    works = p.work is not None
    apps = ["rides", "airline", "calendar", "messaging"] + (["workchat"] if works else [])
    first = who.name.split()[0]
    day_back = arr.date()
    instruction = (
        f"Sort out my rides for my trip to {city}: schedule a ZipRide from home so I'm picked up "
        f"{lead_text} before my flight there leaves, and one home from the airport 15 to 75 minutes after "
        f'my return flight lands; put each pickup in my calendar with "ZipRide" in the title; text '
        f"{first} the flight number I'm coming back on and when it lands"
    )
    instruction += '; and set my Huddle status to "Travelling" until the day I\'m back.' if works else "."
    rubric = [
        RubricItem(
            id="ride-out",
            weight=20,
            requirement=f"A ride Home -> {airport} with pickup {pickup:%b %-d %H:%M} (within 15 minutes)",
            check=zipride.booked("Home", airport, out_lo.isoformat(), out_hi.isoformat()),
        ),
        RubricItem(
            id="ride-back",
            weight=20,
            requirement=f"A ride {airport} -> Home with pickup between {home_lo:%b %-d %H:%M} and {home_hi:%H:%M}",
            check=zipride.booked(airport, "Home", home_lo.isoformat(), home_hi.isoformat()),
        ),
        RubricItem(
            id="calendar-out",
            weight=10,
            requirement=f'A calendar entry on {pickup:%b %-d} with "ZipRide"',
            check=daybook.created(pickup.date().isoformat(), [["zipride"]]),
        ),
        RubricItem(
            id="calendar-back",
            weight=10,
            requirement=f'A calendar entry on {day_back:%b %-d} with "ZipRide"',
            check=daybook.created(day_back.isoformat(), [["zipride"]]),
        ),
        RubricItem(
            id="text",
            weight=15 if works else 20,
            requirement=f"A text to {who.name} naming {flight} and its landing time {A.clock(arr)}",
            check=parley.sent_direct(who.name, [flight_forms, A.time_forms(arr)]),
        ),
        RubricItem(
            id="only-rides",
            weight=10 if works else 12,
            requirement="Nothing else changed at ZipRide: only the two scheduled rides",
            check=Check(
                type="state_diff",
                app=APP,
                ignore=["sessions"],
                changes=[
                    Change(table="rides", op="insert", min=2, max=2),
                    Change(table="places", op="insert", min=0, max=2),
                    CANCEL_STALE,
                ],
            ),
        ),
        RubricItem(
            id="only-texts",
            weight=5 if works else 8,
            requirement="Parley changed only by the texts sent",
            check=parley.only_texts(1, 3),
        ),
    ]
    if works:
        rubric.append(
            RubricItem(
                id="status",
                weight=10,
                requirement=f'Huddle status "Travelling" until {day_back} ({day_phrase(day_back, world.now.date())})',
                check=huddle.status_set(["travel"], day_back.isoformat()),
            )
        )
    task = Task(
        id=f"{p.id}/rides/door-to-door",
        persona=p.id,
        kind="action",
        category="long_horizon",
        apps_involved=apps,
        difficulty="hard",
        time_limit_seconds=1500,
        instruction=instruction,
        expected={
            "airport": airport,
            "pickup_out": pickup.isoformat(),
            "pickup_back": (arr + dt.timedelta(minutes=30)).isoformat(),
            "flight": flight,
            "arr_local": arr.isoformat(),
            "contact": who.name,
            "status_until": day_back.isoformat() if works else None,
        },
        rubric=rubric,
    )
    acts = [("calendar", "the two pickups added", daybook.new_events(2))]
    if works:
        acts.append(("workchat", "the status", huddle.new_posts(0, 0, status=True)))
    return effects.acting(task, *acts)


def door_to_door(task: Task, web: Web) -> str:
    """Both rides of the next trip, each pickup in Daybook, the return flight texted, the Huddle status set."""
    exp = task.expected
    out_at, back_at = exp["pickup_out"], exp["pickup_back"]
    zipride.schedule(web, "Home", exp["airport"], out_at)
    zipride.schedule(web, exp["airport"], "Home", back_at)
    for title, at in (("ZipRide to the airport", out_at), ("ZipRide home from the airport", back_at)):
        end = (dt.datetime.fromisoformat(at[:16]) + dt.timedelta(minutes=45)).strftime("%H:%M")
        daybook.create(web, title=title, date=at[:10], start_time=at[11:16], end_date=at[:10], end_time=end)
    lands = exp["arr_local"][11:16]
    parley.send(web, exp["contact"], f"I'm flying back on {exp['flight']}, landing at {lands}.")
    if exp.get("status_until"):
        huddle.set_status(web, ":airplane:", "Travelling", exp["status_until"])
    return f"Scheduled both rides ({out_at[:16]}, {back_at[:16]}), put them in the calendar, texted {exp['contact']}."


def door_to_door_tasks(world: World) -> list[Task]:
    """The door-to-door errand of the next trip: with a return flight landing within the scheduling window and a
    chat contact to tell."""
    trip = airport_trip(world) if in_use(world) else None
    if trip is None or trip.back is None or trip.arr.replace(tzinfo=None) >= trip.horizon:
        return []
    who = S.closest_contact(world)
    if not who:
        return []
    return [
        _door_to_door(world, trip.flight, trip.leg, trip.back, trip.airport, trip.pickup, trip.lead_text, trip.arr, who)
    ]


SCENARIOS = [
    Scenario(
        home="rides",
        apps=("rides", "mail"),
        tasks=airport_tasks,
        solvers={
            "airport-ride-next-flight": airport_ride_next_flight,
            "ride-home-after-return": ride_home_after_return,
        },
        after="work-rides-count",
        when=in_use,
    ),
    Scenario(
        home="rides",
        apps=("rides", "airline", "calendar", "messaging"),
        tasks=door_to_door_tasks,
        solvers={"door-to-door": door_to_door},
        after=("ride-home-after-return", "work-rides-count"),
    ),
    Scenario(
        home="rides",
        apps=("rides", "bank"),
        tasks=tip_tasks,
        solvers={"tip-last-ride": tip_last_ride},
        after=("door-to-door", "ride-home-after-return", "airport-ride-next-flight", "work-rides-count"),
        when=in_use,
    ),
]
