"""Daybook's two-app questions among its own tasks: what else falls during the next trip, which the confirmation in
the mail dates (id ``<persona>/calendar/trip-overlap``)."""

from __future__ import annotations

import datetime as dt

from apps.calendar.reader import between, is_travel
from apps.calendar.tasks import KIT
from apps.calendar.worldview import overlapping
from apps.mail.reader import booking_to, rebooked
from builder.tasks import answers as A
from builder.tasks.collect import Scenario
from builder.tasks.model import RubricItem, Task
from builder.tasks.reader import Reading, See, reader
from builder.world import World
from builder.world.planted import airline_flights


def trip_tasks(world: World) -> list[Task]:
    """What else is on the calendar during the persona's next trip, besides its flights and hotel (the trip's dates
    are in the booking confirmation mail, its departure as the airline's schedule change in the mail moved it); none
    without a trip ahead."""
    p = world.persona
    out: list[Task] = []
    task = KIT.adder(world, out)
    trips = p.travel.trips if p.travel else []
    upcoming = [t for t in trips if t.depart > world.now.date()]
    if upcoming:
        t = upcoming[0]
        # The trip leaves when its first flight does as the airline now has it: a schedule change the mail
        # announces (a planted ``chain/flight-change``) moves it, and what fell on the old day is no longer during it.
        moved = airline_flights(world)
        legs = [moved.get(f.id, f.data) for f in world.of_kind("flight") if f.data.get("trip") == trips.index(t)]
        depart = min(
            (dt.date.fromisoformat(x["dep_local"][:10]) for x in legs if x["direction"] == "outbound"),
            default=t.depart,
        )
        during = sorted(
            {o.title for o in overlapping(world, depart, t.return_) if o.source not in ("trip", "flight", "hotel")}
        )
        items = during[:4]
        if items:
            weights = [100 // len(items)] * len(items)
            weights[0] += 100 - sum(weights)
            rubric = [
                RubricItem(id=f"event-{i}", weight=w, requirement=f"Names {title}", check=A.text(title))
                for i, (title, w) in enumerate(zip(items, weights))
            ]
        else:
            rubric = [
                RubricItem(
                    id="none",
                    weight=100,
                    requirement="Says nothing else is planned during the trip",
                    check=A.text("nothing", "no other", "no events", "none"),
                )
            ]
        task(
            "trip-overlap",
            ["mail", "calendar"],
            kind="lookup",
            difficulty="medium",
            time_limit_seconds=420,
            instruction=f"My {t.destination} trip is booked (the confirmation is in my mail). Does anything else on my "
            "calendar fall during the trip, besides the flights and the hotel? Name it.",
            expected={
                "destination": t.destination,
                "depart": depart.isoformat(),
                "return": t.return_.isoformat(),
                "events": during,
            },
            rubric=rubric,
        )
    return out


@reader("destination")
def read_trip_overlap(see: See, given: dict) -> Reading:
    """The trip's days from the booking confirmation in the mail (a later schedule change from the airline moves
    the departure), then everything else the calendar has on those days: not the flights, the hotel stay or the
    trip's own span."""
    b = booking_to(see, given["destination"])
    depart, back = b["segments"][0]["dep_day"], b["segments"][-1]["dep_day"]
    steps = [f"~/Mail: booking {b['pnr']} {depart}..{back}"]
    for c in b["changes"]:
        new = rebooked(c, b)
        if new:
            depart = new[1]
            steps.append(f"{c['at']:%Y-%m-%d} \u201c{c['subject']}\u201d: now departs {depart}")
    during = sorted({o["title"] for o in between(see, depart, back) if not is_travel(o)})
    steps.append(f"calendar {depart}..{back}: " + (", ".join(during) or "nothing else"))
    values = {f"event-{i}": t for i, t in enumerate(during)} if during else {"none": "nothing"}
    return Reading(values=values, steps=steps)


SCENARIOS = [
    Scenario(
        home="calendar",
        apps=("calendar", "mail"),
        tasks=trip_tasks,
        readers={"trip-overlap": read_trip_overlap},
        after=(
            "block-flight",
            "delivery-to-calendar",
            "decline-invitation",
            "move-standup",
            "conflicts-next-week",
            "meetings-last-week",
        ),
    )
]
