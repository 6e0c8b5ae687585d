"""ZipRide's errand across apps: the next trip door to door (both airport rides, their pickups in the calendar, the
return flight texted, a work-chat status while away); with its reference solution."""

from __future__ import annotations

import datetime as dt

from apps.calendar import steps as daybook
from apps.messaging import steps as parley
from apps.rides import steps as zipride
from apps.rides.tasks import APP, airport_trip, in_use
from apps.workchat import steps as huddle
from builder.tasks import steps as S
from builder.tasks.collect import Scenario
from builder.tasks.model import Change, Check, RubricItem, Task
from builder.tasks.oracle import Web
from builder.world import World


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
    return Task(
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
        apps=("rides", "airline", "calendar", "messaging"),
        tasks=door_to_door_tasks,
        solvers={"door-to-door": door_to_door},
        after="ride-home-after-return",
    )
]
