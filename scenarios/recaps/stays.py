"""Bramblestay's answers summed over several apps (ids ``<persona>/stays/x-...``)."""

from __future__ import annotations

import datetime as dt
import re

from apps.airline import reader as air
from apps.rides import reader as zp
from apps.stays.tasks import APP
from builder.tasks.collect import Scenario
from builder.tasks.model import RubricItem, Task
from builder.tasks.reader import Reading, See, reader
from builder.world import World
from scenarios import RECAPS
from scenarios import travel_desktop as desk


def crossapp_tasks(world: World) -> list[Task]:
    """The next trip across Meridian Air (outbound and return flight numbers as the airline has them now),
    Bramblestay (hotel and confirmation), ZipRide (the rides already scheduled for it: those the persona booked
    ahead, which its Scheduled rides list, :func:`apps.rides.seed.booked_ahead`; asked only when there is one) and
    the calendar (occasions during it)."""
    from builder.tasks import answers as A
    from builder.world.planted import airline_flights

    p = world.persona
    pid, now = p.id, world.now
    moved = airline_flights(world)
    legs = [dict(moved.get(f.id, f.data)) for f in world.of_kind("flight") if f.status == "scheduled"]
    if not legs:
        return []
    legs.sort(key=lambda d: d["dep_utc"])
    trip = legs[0]["trip"]
    legs = [d for d in legs if d["trip"] == trip]
    out_leg = next((d for d in legs if d["direction"] == "outbound"), None)
    back_leg = next((d for d in reversed(legs) if d["direction"] != "outbound"), None)
    stay = next((e for e in world.of_kind("hotel_booking") if e.data.get("trip") == trip), None)
    if not out_leg or not back_leg or not stay:
        return []
    start = dt.date.fromisoformat(out_leg["dep_local"][:10])
    end = dt.date.fromisoformat(back_leg["arr_local"][:10])
    occasions = sorted(
        {
            e.data["title"]
            for e in world.of_kind("calendar_event")
            if e.at > now
            and start <= e.at.date() <= end
            and e.data.get("calendar") == "personal"
            and e.data.get("source") in ("appointment", "birthday", "life_event", "holiday")
        }
    )
    from apps.rides.seed import booked_ahead

    booked = [r for r in booked_ahead(world) if r.data.get("trip") == trip]
    city = stay.data["city"]
    apps = ["airline", APP] + (["calendar"] if occasions else []) + (["rides"] if booked else [])
    # Each flight, the hotel and its confirmation; the rest to the rides booked and the occasions.
    w = {(True, True): (20, 10), (True, False): (20, 15), (False, True): (25, 15), (False, False): (30, 20)}[
        (bool(occasions), bool(booked))
    ]
    rubric = [
        RubricItem(
            id="out",
            weight=w[0],
            requirement=f"Outbound {out_leg['flight_number']}",
            check=A.text(out_leg["flight_number"], out_leg["flight_number"].replace(" ", "")),
        ),
        RubricItem(
            id="back",
            weight=w[0],
            requirement=f"Return {back_leg['flight_number']}",
            check=A.text(back_leg["flight_number"], back_leg["flight_number"].replace(" ", "")),
        ),
        RubricItem(
            id="hotel", weight=w[1], requirement=f"Hotel {stay.data['hotel']}", check=A.text(stay.data["hotel"])
        ),
        RubricItem(
            id="confirmation",
            weight=w[1],
            requirement=f"Confirmation {stay.data['confirmation']}",
            check=A.text(stay.data["confirmation"]),
        ),
    ]
    ask = ["the flight numbers out and back (as the airline has them now)", "the hotel and its confirmation number"]
    if booked:
        rubric.append(
            RubricItem(
                id="rides",
                weight=20,
                requirement=f"{len(booked)} ZipRide ride(s) already scheduled for it",
                check=A.number(len(booked)),
            )
        )
        ask.append("how many ZipRides I've already scheduled for it")
    if occasions:
        rubric.append(
            RubricItem(
                id="occasions",
                weight=100 - sum(i.weight for i in rubric),
                requirement="During the trip: " + "; ".join(occasions),
                check=A.names(occasions),
            )
        )
        ask.append("anything on my personal calendar while I'm away (birthdays, appointments and the like)")
    return [
        Task(
            id=f"{pid}/stays/x-next-trip-glance",
            persona=pid,
            apps_involved=sorted(apps),
            kind="lookup",
            difficulty="medium",
            time_limit_seconds=1200,
            instruction=f"Give me my {city} trip at a glance: " + ", ".join(ask[:-1]) + f", and {ask[-1]}.",
            expected={
                "trip": trip,
                "city": city,
                "out": out_leg["flight_number"],
                "back": back_leg["flight_number"],
                "hotel": stay.data["hotel"],
                "confirmation": stay.data["confirmation"],
                "occasions": occasions,
                "rides": len(booked),
            },
            rubric=rubric,
        )
    ]


# --- independent reader -----------------------------------------------------------------------------

#: Daybook titles of a trip's own entries (the trip, its flights, its stay), English and German.
LOGISTICS = re.compile(r"^(Trip to |Reise nach |Flight |Flug |Stay at |Hotel: )|\bMR \d+\b")


@reader("city")
def next_trip_glance(see: See, given: dict) -> Reading:
    t = air.trip_to(see, given["city"], "upcoming", latest=False)
    stay = desk.stay_of(see, t, "upcoming")
    start, end = desk.window(t)
    # The rides booked for the trip: ZipRide's Scheduled rides from the day before it leaves to the day after it is back.
    rides = [
        r for r in zp.scheduled(see) if start - dt.timedelta(days=1) <= r["when"].date() <= end + dt.timedelta(days=1)
    ]
    occasions = []
    for e in desk.agenda(see, start, end):
        if LOGISTICS.search(e.title) or stay.property in e.title or e.title in occasions:
            continue
        facts = desk.entry_facts(see, e)
        if re.search(r"Calendar (Personal|Privat)\b", facts) and not re.search(r"\b(Weekly|Wöchentlich)\b", facts):
            occasions.append(e.title)
    return Reading(
        values={
            "out": t.outbound[0].flight,
            "back": t.inbound[-1].flight if t.inbound else "",
            "hotel": stay.property,
            "confirmation": stay.confirmation,
            "occasions": occasions,
            "rides": len(rides),
        },
        steps=[
            f"Meridian Air trip {t.pnr} to {t.destination}: out {t.outbound[0].flight}, back "
            f"{t.inbound[-1].flight if t.inbound else '-'} ({start} to {end})",
            f"Bramblestay {stay.confirmation}: {stay.property}",
            f"Daybook, personal entries from {start} to {end} besides the trip's own: {occasions}",
            f"ZipRide, Scheduled rides from the day before to the day after: {[str(r['when']) for r in rides]}",
        ],
    )


SCENARIOS = [
    Scenario(
        home="stays",
        apps=("stays",),
        tasks=crossapp_tasks,
        rank=RECAPS,
        readers={"x-next-trip-glance": next_trip_glance},
    )
]
