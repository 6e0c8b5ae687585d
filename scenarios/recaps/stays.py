"""Bramblestay's answers summed over several apps (ids ``<persona>/stays/x-...``)."""

from __future__ import annotations

import datetime as dt

from apps.stays.tasks import APP
from builder.tasks.collect import Scenario
from builder.tasks.model import RubricItem, Task
from builder.world import World
from scenarios import RECAPS


def crossapp_tasks(world: World) -> list[Task]:
    """The next trip across Meridian Air (outbound and return flight numbers as the airline has them now),
    Bramblestay (hotel and confirmation), ZipRide (rides booked for it) and the calendar (occasions during it)."""
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
    rides = [e for e in world.of_kind("ride") if e.data.get("trip") == trip and e.status == "scheduled"]
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
    city = stay.data["city"]
    apps = ["airline", APP] + (["rides"] if rides else []) + (["calendar"] if occasions else [])
    if len(apps) < 3:
        return []
    rubric = [
        RubricItem(
            id="out",
            weight=20,
            requirement=f"Outbound {out_leg['flight_number']}",
            check=A.text(out_leg["flight_number"], out_leg["flight_number"].replace(" ", "")),
        ),
        RubricItem(
            id="back",
            weight=20,
            requirement=f"Return {back_leg['flight_number']}",
            check=A.text(back_leg["flight_number"], back_leg["flight_number"].replace(" ", "")),
        ),
        RubricItem(id="hotel", weight=15, requirement=f"Hotel {stay.data['hotel']}", check=A.text(stay.data["hotel"])),
        RubricItem(
            id="confirmation",
            weight=15,
            requirement=f"Confirmation {stay.data['confirmation']}",
            check=A.text(stay.data["confirmation"]),
        ),
    ]
    ask = ["the flight numbers out and back (as the airline has them now)", "the hotel and its confirmation number"]
    if rides:
        rubric.append(
            RubricItem(
                id="rides",
                weight=15 if occasions else 30,
                requirement=f"{len(rides)} ZipRides booked",
                check=A.number(len(rides)),
            )
        )
        ask.append("how many ZipRides I've already booked for it")
    if occasions:
        rubric.append(
            RubricItem(
                id="occasions",
                weight=15 if rides else 30,
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
                "out": out_leg["flight_number"],
                "back": back_leg["flight_number"],
                "hotel": stay.data["hotel"],
                "confirmation": stay.data["confirmation"],
                "rides": [e.data["ride_id"] for e in rides],
                "occasions": occasions,
            },
            rubric=rubric,
        )
    ]


SCENARIOS = [Scenario(home="stays", apps=("stays",), tasks=crossapp_tasks, rank=RECAPS)]
