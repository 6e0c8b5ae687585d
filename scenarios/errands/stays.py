"""Bramblestay's errand across apps: prepare a trip's arrival (the flight, a ride, the calendar, chat and work chat);
with its reference solution."""

from __future__ import annotations

import datetime as dt

from apps.calendar import steps as daybook
from apps.messaging import steps as parley
from apps.rides import steps as zipride
from apps.stays.tasks import APP, KIT
from apps.workchat import steps as huddle
from builder.tasks import answers
from builder.tasks.collect import Scenario
from builder.tasks.model import Change, RubricItem, Task
from builder.tasks.oracle import Web
from builder.world import World
from scenarios import ERRANDS


def long_tasks(world: World) -> list[Task]:
    """Bramblestay's long-horizon chain: getting ready for the trip whose flight the airline moved."""
    from zoneinfo import ZoneInfo

    from builder.tasks import steps as S

    p = world.persona
    item = answers.planted(world, "chain/flight-change")
    if not item:
        return []
    steps = {s["step"]: s for s in item["steps"]}
    by_id = {e.id: e for e in world.events}
    if "hotel_check_in" not in steps or "booking" not in steps:
        return []
    stay = by_id[steps["hotel_check_in"]["event_id"]]
    booking = by_id[steps["booking"]["event_id"]]
    companions = [n for n in booking.data.get("passengers", []) if n != p.identity.name]
    back = [
        f.data
        for f in world.of_kind("flight")
        if f.data.get("pnr") == item["pnr"] and f.data.get("direction") == "return"
    ]
    if not back:
        return []
    if not companions:  # travelling alone: tell the person the persona is closest to on Parley
        from apps.messaging.steps import closest_contact

        closest = closest_contact(world)
        if closest is None:
            return []
        companions = [closest.name]
    home_leg = max(back, key=lambda d: d["arr_utc"])
    arr = dt.datetime.fromisoformat(home_leg["arr_local"])
    zone = ZoneInfo(p.timezone)
    lo, hi = arr + dt.timedelta(minutes=15), arr + dt.timedelta(minutes=75)
    landing = dt.datetime.fromisoformat(item["new_arrival"])
    conf, hotel = steps["hotel_check_in"]["confirmation"], stay.data["hotel"]
    who = companions[0]
    airport = home_leg["to"]
    from builder.reference.airports import airport_label

    pickup = airport_label(airport)
    return [
        Task(
            id=f"{p.id}/stays/trip-arrival-prep",
            persona=p.id,
            kind="action",
            category="long_horizon",
            apps_involved=[APP, "airline", "rides", "messaging", "workchat", "calendar"],
            difficulty="hard",
            time_limit_seconds=1500,
            planted=[item["id"]],
            instruction=f"Get me ready for {item['destination']}: my outbound flight was changed, so message the hotel "
            f"through Bramblestay that I'll only arrive late on the night I now land (say when I land); "
            f"schedule a ZipRide home from the airport for when my return flight lands (pickup 15 to 75 "
            f"minutes after it lands); put that ride in my calendar; send {who.split()[0]} the hotel's "
            f'name and my confirmation number in Parley; and set my Huddle status to "Traveling" until the '
            "day I fly back.",
            expected={
                "confirmation": conf,
                "hotel": hotel,
                "landing": item["new_arrival"],
                "companion": who,
                "pickup": pickup,
                "ride_at": (lo + (hi - lo) / 2).strftime("%Y-%m-%dT%H:%M"),
                "back": arr.date().isoformat(),
            },
            rubric=[
                RubricItem(
                    id="hotel-message",
                    weight=20,
                    requirement=f"A message to {hotel} on booking {conf}",
                    check=KIT.sql(
                        """SELECT COUNT(*) > 0 FROM messages m JOIN threads t ON t.id = m.thread_id
                                         JOIN bookings b ON b.id = t.booking_id WHERE b.confirmation = ?
                                         AND m.sender = 'guest' AND m.world_ref IS NULL""",
                        [conf],
                        [[1]],
                    ),
                ),
                RubricItem(
                    id="hotel-says",
                    weight=5,
                    requirement=f"It says I land {landing:%b %-d} at {landing:%H:%M} "
                    "local time and will check in late (judge: read it)",
                ),
                RubricItem(
                    id="ride",
                    weight=20,
                    requirement=f"A ZipRide {pickup} -> Home picks me up between {lo:%b %-d %H:%M} and {hi:%H:%M}",
                    check=zipride.booked(
                        pickup, "Home", lo.astimezone(zone).isoformat(), hi.astimezone(zone).isoformat()
                    ),
                ),
                RubricItem(
                    id="calendar",
                    weight=10,
                    requirement=f"Daybook has the ride on {arr.date()}",
                    check=daybook.created(arr.date().isoformat(), [["ride", "zipride", "pickup", "pick-up"]]),
                ),
                RubricItem(
                    id="companion",
                    weight=20,
                    requirement=f"{who} got the hotel and confirmation {conf} in Parley",
                    check=parley.sent_direct(who, [[conf]]),
                ),
                RubricItem(
                    id="status",
                    weight=15,
                    requirement=f'Huddle status "Traveling" until {arr.date()}',
                    check=huddle.status_set(["travel"], arr.date().isoformat()),
                ),
                RubricItem(
                    id="only-stay",
                    weight=10,
                    requirement="Nothing else changed at Bramblestay: only my message to the hotel",
                    check=S.diff(
                        "stays",
                        Change(table="messages", op="insert", min=1, max=3),
                        Change(table="threads", op="insert", min=0, max=1),
                    ),
                ),
            ],
        )
    ]


def trip_arrival_prep(task: Task, web: Web) -> str:
    """Late arrival to the hotel, the ride home, the ride in Daybook, the companion in Parley, the Huddle status."""
    import datetime as dt

    exp = task.expected
    land = dt.datetime.fromisoformat(exp["landing"])
    web.post_form(
        APP,
        "/api/messages",
        [
            ("confirmation", exp["confirmation"]),
            (
                "body",
                (
                    f"Hello! My flight was changed: I land on {land:%B %-d} at "
                    f"{land:%H:%M}, so I'll check in late that night."
                ),
            ),
        ],
        expect=(303,),
    )
    zipride.schedule(web, exp["pickup"], "Home", exp["ride_at"])
    at = dt.datetime.fromisoformat(exp["ride_at"])
    end = at + dt.timedelta(minutes=45)
    daybook.create(
        web,
        title="ZipRide home from the airport",
        date=f"{at:%Y-%m-%d}",
        start_time=f"{at:%H:%M}",
        end_date=f"{end:%Y-%m-%d}",
        end_time=f"{end:%H:%M}",
    )
    parley.send(web, exp["companion"], f"Hotel: {exp['hotel']}, confirmation {exp['confirmation']}.")
    huddle.set_status(web, ":airplane:", "Traveling", exp["back"])
    return "Messaged the hotel, booked the ride home and put it in the calendar, told my companion, set my status."


SCENARIOS = [
    Scenario(
        home="stays",
        apps=("stays", "airline", "rides", "messaging", "workchat", "calendar"),
        tasks=long_tasks,
        solvers={"trip-arrival-prep": trip_arrival_prep},
        rank=ERRANDS,
    )
]
