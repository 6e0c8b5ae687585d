"""Daybook's answers summed or compared over several apps: what the calendar says against the mail, the airline or a
friend's text (the contradictions, placed after its own tasks), a year in numbers and the fortnight ahead (ids
``<persona>/calendar/x-...``)."""

from __future__ import annotations

import datetime as dt

from apps.calendar.reader import FLIGHT, between, detail, is_appointment, is_travel
from apps.calendar.tasks import KIT
from apps.mail.reader import moved_by_mail
from apps.messaging.reader import direct, mentions, thread
from builder.tasks.collect import Scenario
from builder.tasks.model import RubricItem, Task
from builder.tasks.reader import Reading, See, Unreadable, reader
from builder.tasks.dates import clock_text, clocks, first_day
from builder.world import World
from scenarios import RECAPS
from scenarios.views import (
    airline_trip,
    airline_trips,
    delivery_orders,
    dining_reservations,
    grocery_orders,
    rides_scheduled,
    rides_taken,
    shop_orders,
    shop_orders_in,
    stays,
)


def contradiction_tasks(world: World) -> list[Task]:
    """The calendar's contradiction tasks: a meeting the organizer's mail moved, the flight the airline moved, a
    dinner time a friend misremembers (each a planted item of the world; absent items give no task)."""
    from builder.tasks import answers as A
    from builder.tasks.phrasing import day_phrase

    today = world.now.date()
    out: list[Task] = []

    task = KIT.adder(world, out, kind="lookup", category="contradiction")

    def right_then_stale(right: list[str], stale: list[str], what: str, w: tuple[int, int, int] = (40, 20, 40)):
        return [
            RubricItem(
                id="right", weight=w[0], requirement=f"Gives the right {what} ({right[0]})", check=A.text(*right)
            ),
            RubricItem(
                id="stale", weight=w[1], requirement=f"Names the out-of-date {what} ({stale[0]})", check=A.text(*stale)
            ),
            RubricItem(
                id="order",
                weight=w[2],
                requirement=f"Names the right {what} before the stale one",
                check=A.names([right, stale], ordered=True),
            ),
        ]

    it = A.planted(world, "contradiction/meeting-moved")
    if it:
        cal, new = dt.datetime.fromisoformat(it["calendar_start"]), dt.datetime.fromisoformat(it["mail_start"])
        task(
            "cx-meeting-moved",
            ["calendar", "mail"],
            difficulty="medium",
            time_limit_seconds=360,
            instruction=f"My calendar has “{it['title']}” {day_phrase(cal.date(), today)} at {A.clock(cal)}. Is that "
            "still when it happens? Check my email too. Give me the time that's right first (and the day, "
            "if it changed), then the one that's out of date.",
            expected={
                "title": it["title"],
                "calendar_day": cal.date().isoformat(),
                "right": it["mail_start"],
                "stale": it["calendar_start"],
                "truth": "mail",
            },
            planted=[it["id"]],
            rule="The organizer's newest mail about the meeting beats the calendar entry it has not updated yet.",
            rubric=right_then_stale(A.time_forms(new), A.time_forms(cal), "start time")
            if new.date() == cal.date()
            else [
                RubricItem(
                    id="day",
                    weight=20,
                    requirement=f"Gives the new day ({new:%A, %B %-d})",
                    check=A.text(*A.date_forms(new), f"{new:%A}"),
                ),
                *right_then_stale(A.time_forms(new), A.time_forms(cal), "start time", (30, 15, 35)),
            ],
        )

    it = A.planted(world, "chain/flight-change")
    step = next((s for s in (it or {}).get("steps", []) if s["step"] == "calendar_flight"), None)
    if it and step:
        old, new = dt.datetime.fromisoformat(step["old"]), dt.datetime.fromisoformat(step["new"])
        task(
            "cx-flight-on-calendar",
            ["calendar", "airline", "mail"],
            difficulty="medium",
            time_limit_seconds=420,
            instruction=f"My calendar says I fly to {it['destination']} {day_phrase(old.date(), today)}. Does the airline "
            "agree? Tell me the correct departure day first, then the day my calendar shows.",
            expected={"right": step["new"], "stale": step["old"], "destination": it["destination"], "truth": "airline"},
            planted=[it["id"]],
            rule="The airline's booking (after its schedule change) beats the calendar's copy of the flight.",
            rubric=right_then_stale(A.date_forms(new), A.date_forms(old), "departure day"),
        )

    it = A.planted(world, "contradiction/restaurant-time")
    if it:
        booked, said = dt.datetime.fromisoformat(it["booked_time"]), dt.datetime.fromisoformat(it["friend_time"])
        first = it["friend"].split()[0]
        task(
            "cx-dinner-time",
            ["calendar", "dining", "messaging"],
            difficulty="medium",
            time_limit_seconds=420,
            instruction=f"{first} and I have a table at {it['restaurant']} {day_phrase(booked.date(), today)}. "
            f"{first} texted me what time we're meeting there; does that match my calendar and the actual reservation? "
            "Tell me the right time first, then the wrong one.",
            expected={
                "right": it["booked_time"],
                "stale": it["friend_time"],
                "restaurant": it["restaurant"],
                "friend": it["friend"],
                "day": booked.date().isoformat(),
                "truth": "booking",
            },
            planted=[it["id"]],
            rule="The restaurant's reservation beats a friend's memory of the time.",
            rubric=right_then_stale(A.time_forms(booked), A.time_forms(said), "time"),
        )
    return out


def year_counts(world, year: int) -> dict[str, int]:
    """How often each app was used in ``year`` up to now: appointments in the calendar, flights flown, hotel nights, rides, TableTime meals, DashBite
    orders, Basketful orders, Shopwell orders (the apps' own histories)."""
    now = world.now

    def past(e) -> bool:
        return e.status == "done" and e.at <= now and e.at.year == year

    flights = [
        f
        for f in world.of_kind("flight")
        if f.status == "done"
        and dt.datetime.fromisoformat(f.data["dep_local"]).replace(tzinfo=None) < now
        and f.data["dep_local"][:4] == str(year)
    ]
    nights = sum(h.data["nights"] for h in world.of_kind("hotel_checkout") if past(h))
    meals = [
        r
        for r in world.of_kind("restaurant_booking")
        if dt.datetime.fromisoformat(r.data["reservation_local"]).replace(tzinfo=None) < now
        and r.data["reservation_local"][:4] == str(year)
    ]
    appointments = [e for e in world.of_kind("calendar_event") if past(e) and e.data.get("source") == "appointment"]
    return {
        "calendar": len(appointments),
        "airline": len(flights),
        "stays": nights,
        "rides": sum(past(e) for e in world.of_kind("ride")),
        "dining": len(meals),
        "delivery": sum(past(e) for e in world.of_kind("food_order")),
        "grocery": sum(past(e) for e in world.of_kind("grocery_order")),
        "shop": sum(past(e) for e in world.of_kind("retail_order")),
    }


def crossapp_tasks(world: World) -> list[Task]:
    """A year in numbers across seven apps (flights flown, hotel nights, rides, meals out, DashBite, Basketful and
    Shopwell orders) and the next two weeks across Daybook, TableTime, Shopwell and ZipRide. Missing material gives
    no task."""
    from builder.tasks import answers as A

    p = world.persona
    pid, today = p.id, world.now.date()
    out: list[Task] = []
    labels = {
        "calendar": ("appointments (doctor, dentist and the like) on my calendar", "appointments"),
        "airline": ("flights flown on Meridian Air", "flights"),
        "stays": ("hotel nights booked on Bramblestay", "nights"),
        "rides": ("ZipRide rides", "rides"),
        "dining": ("restaurant meals booked on TableTime", "meals out"),
        "delivery": ("DashBite orders", "DashBite orders"),
        "grocery": ("Basketful grocery orders", "Basketful orders"),
        "shop": ("Shopwell orders", "Shopwell orders"),
    }
    for year in (today.year, today.year - 1):
        counts = {k: v for k, v in year_counts(world, year).items() if v}
        if len(counts) < 3:
            continue
        when = "this year so far" if year == today.year else f"in {year}"
        ws = [100 // len(counts)] * len(counts)
        ws[0] += 100 - sum(ws)
        ask = ", ".join(labels[k][0] for k in counts)
        opening = "My year in numbers, please" if year == today.year else f"Looking back at {year}"
        out.append(
            Task(
                id=f"{pid}/calendar/x-year-in-numbers-{year}",
                persona=pid,
                apps_involved=sorted(counts),
                kind="aggregation",
                difficulty="hard",
                time_limit_seconds=1500,
                instruction=f"{opening}: how many {ask} did I have {when}? One number each.",
                expected={"year": year, "counts": counts},
                rubric=[
                    RubricItem(id=k, weight=w, requirement=f"{v} {labels[k][1]}", check=A.number(v))
                    for (k, v), w in zip(counts.items(), ws)
                ],
            )
        )

    # The next two weeks: personal appointments and occasions (calendar), tables booked (TableTime), parcels due
    # (Shopwell), rides booked (ZipRide).
    end = world.now + dt.timedelta(days=14)
    soon = [e for e in world.events if world.now < e.at <= end]
    appts = sorted(
        {
            e.data["title"]
            for e in soon
            if e.kind == "calendar_event"
            and e.data.get("calendar") == "personal"
            and e.data.get("source") in ("appointment", "life_event", "birthday")
        }
    )
    tables = [
        e
        for e in world.of_kind("restaurant_booking")
        if world.now < dt.datetime.fromisoformat(e.data["reservation_local"]).replace(tzinfo=None) <= end
    ]
    parcels = [e for e in soon if e.kind == "retail_delivery"]
    rides = [e for e in soon if e.kind == "ride"]
    groups = [x for x in (appts, tables, parcels, rides) if x]
    if appts and len(groups) >= 2:
        apps = (
            ["calendar"] + (["dining"] if tables else []) + (["shop"] if parcels else []) + (["rides"] if rides else [])
        )
        items: list = [[t] for t in appts] + [[e.data["restaurant"]] for e in tables]
        rubric = [
            RubricItem(
                id="named",
                weight=60 if parcels or rides else 100,
                requirement="Names " + "; ".join(x[0] for x in items),
                check=A.names(items),
            )
        ]
        ask = [
            "my appointments, birthdays and other occasions in the calendar (not the gym, meetings or public holidays)"
        ]
        expected = {"calendar": appts, "tables": [e.data["restaurant"] for e in tables]}
        if tables:
            ask.append("the restaurant tables I've booked")
        if parcels:
            ask.append("how many Shopwell parcels are due")
            rubric.append(
                RubricItem(
                    id="parcels",
                    weight=40 if not rides else 20,
                    requirement=f"{len(parcels)} parcels due",
                    check=A.number(len(parcels)),
                )
            )
            expected["parcels"] = [e.data["order_id"] for e in parcels]
        if rides:
            ask.append("how many ZipRides I have booked")
            rubric.append(
                RubricItem(
                    id="rides",
                    weight=40 if not parcels else 20,
                    requirement=f"{len(rides)} rides booked",
                    check=A.number(len(rides)),
                )
            )
            expected["rides"] = [e.data["ride_id"] for e in rides]
        out.append(
            Task(
                id=f"{pid}/calendar/x-next-two-weeks",
                persona=pid,
                apps_involved=apps,
                kind="aggregation",
                difficulty="medium",
                time_limit_seconds=900,
                instruction="Brief me on the next two weeks: " + ", ".join(ask[:-1]) + f" and {ask[-1]}.",
                expected=expected,
                rubric=rubric,
            )
        )
    return out


# --- independent readers (builder.tasks.reader): Daybook's week view against the mail, Meridian Air, TableTime,
# --- Parley and the other apps' own histories ------------------------------------------------------------------


@reader("title", "calendar_day")
def read_meeting_moved(see: See, given: dict) -> Reading:
    """The calendar's slot against the organizer's newest mail moving it; the mail wins."""
    title, day = given["title"], dt.date.fromisoformat(given["calendar_day"])
    on_cal = [o for o in between(see, day, day) if o["title"] == title and o["start"].date() == day]
    if not on_cal:
        raise Unreadable(f"no {title!r} on the calendar on {day}")
    cal = on_cal[0]
    mail, new = moved_by_mail(see, title, day)
    right, stale = clock_text(new), clock_text(cal["start"])
    return Reading(
        values={"right": right, "stale": stale, "order": [right, stale], "day": new.date().isoformat()},
        steps=[
            f"calendar: {title} {cal['start']:%a %Y-%m-%d %H:%M}-{cal['end']:%H:%M}",
            f"mail from {mail['from_name']} {mail['at']:%Y-%m-%d %H:%M} \u201c{mail['subject']}\u201d: moved to "
            f"{new:%a %Y-%m-%d %H:%M}",
        ],
    )


@reader("destination")
def read_flight_on_calendar(see: See, given: dict) -> Reading:
    """Meridian Air's trip to the destination (its outbound departure day) against the calendar's flight entry for
    the same route; the airline wins."""
    dest = given["destination"]
    trips = [airline_trip(see, pnr) for pnr in airline_trips(see, "upcoming")]
    trips = [t for t in trips if dest.lower() in t["title"].lower()]
    if len(trips) != 1:
        raise Unreadable(f"{len(trips)} upcoming Meridian Air trips to {dest}")
    seg = trips[0]["journeys"]["outbound"][0]
    near = seg["dep_day"]
    route = f"{seg['origin']} \u2192 {seg['destination']}"
    cal = [
        o
        for o in between(see, near - dt.timedelta(days=7), near + dt.timedelta(days=7))
        if FLIGHT.match(o["title"]) and o["title"].endswith(route)
    ]
    if len(cal) != 1:
        raise Unreadable(f"{len(cal)} calendar flights {route} around {near}")
    right, stale = near.isoformat(), cal[0]["start"].date().isoformat()
    return Reading(
        values={"right": right, "stale": stale, "order": [right, stale]},
        steps=[
            f"Meridian Air {trips[0]['pnr']}: {seg['flight']} {route} departs {near} {seg['dep_time']}",
            f"calendar: {cal[0]['title']} on {stale}",
        ],
    )


@reader("restaurant", "friend", "day")
def read_dinner_time(see: See, given: dict) -> Reading:
    """TableTime's reservation against the friend's text; the reservation wins."""
    place, friend, day = given["restaurant"], given["friend"], dt.date.fromisoformat(given["day"])
    booked = [r for r in dining_reservations(see) if r["name"] == place and r["day"] == day]
    if len(booked) != 1:
        raise Unreadable(f"{len(booked)} reservations at {place} on {day} on TableTime")
    said = [
        m
        for m in thread(see, direct(see, friend)["id"])
        if m["sender"] == friend and mentions(m["text"], place) and clocks(m["text"])
    ]
    if not said:
        raise Unreadable(f"{friend} names no time for {place} in our chat")
    right, stale = clock_text(booked[0]["time"]), clock_text(clocks(said[-1]["text"])[-1][1])
    cal = [o for o in between(see, day, day) if place in o["title"] and o["start"].date() == day]
    return Reading(
        values={"right": right, "stale": stale, "order": [right, stale]},
        steps=[
            f"TableTime {booked[0]['confirmation']}: {place} {day} {right}",
            f"{friend}, {said[-1]['at']:%Y-%m-%d %H:%M}: \u201c{said[-1]['text']}\u201d",
            "calendar: " + (", ".join(f"{o['title']} {o['start']:%H:%M}" for o in cal) or "nothing that day"),
        ],
    )


@reader("year")
def read_year_in_numbers(see: See, given: dict) -> Reading:
    """Each app's own history of the year up to now: Daybook's past appointments (one-off events with an emailed
    reminder the day before), Meridian Air's flown legs, Bramblestay's nights of stays checked out, ZipRide's
    Activity, TableTime's past reservations, DashBite's, Basketful's and Shopwell's orders placed."""
    year, today = int(given["year"]), see.now.date()
    first, last = dt.date(year, 1, 1), min(dt.date(year, 12, 31), today)
    appts = [
        o
        for o in between(see, first, last)
        if o["start"].year == year and o["start"] < see.now and is_appointment(see, o)
    ]
    legs = []
    for tab in ("past", "upcoming"):
        for pnr in airline_trips(see, tab):
            for segs in airline_trip(see, pnr)["journeys"].values():
                legs += [s for s in segs if s["dep_day"].year == year and s["dep_day"] < today]
    nights = sum(
        (s["check_out"] - s["check_in"]).days
        for tab in ("past", "upcoming")
        for s in stays(see, tab)
        if s["check_out"].year == year and s["check_out"] <= today
    )
    counts = {
        "calendar": len(appts),
        "airline": len(legs),
        "stays": nights,
        "rides": sum(r["day"].year == year for r in rides_taken(see)),
        "dining": sum(r["day"].year == year for r in dining_reservations(see, "past")),
        "delivery": sum(o["placed"].year == year and o["placed"] <= today for o in delivery_orders(see)),
        "grocery": sum(o["placed"].year == year and o["placed"] <= today for o in grocery_orders(see)),
        "shop": shop_orders_in(see, year),
    }
    return Reading(
        values=counts,
        steps=[
            f"{year} up to {last}: " + ", ".join(f"{k} {v}" for k, v in counts.items()),
            "appointments: " + ", ".join(f"{o['title']} {o['start']:%m-%d}" for o in appts),
        ],
    )


@reader()
def read_next_two_weeks(see: See, given: dict) -> Reading:
    """The fortnight after now: the personal calendar's events and birthdays (not the gym's weekly series, the work
    calendar, travel, the tables TableTime holds or public holidays, which carry no reminder), TableTime's
    upcoming reservations, Shopwell's parcels arriving and ZipRide's scheduled rides."""
    end = see.now + dt.timedelta(days=14)
    today = see.now.date()
    tables = [r for r in dining_reservations(see) if see.now < dt.datetime.combine(r["day"], r["time"]) <= end]
    names = {r["name"] for r in tables}
    cal = []
    for o in between(see, today, end.date()):
        if not (see.now < o["start"] <= end) or o["calendar"] != "Personal" or is_travel(o):
            continue
        if o["series"] and not o["banner"]:  # a weekly routine (the gym), not an occasion
            continue
            continue
        if any(n in o["title"] for n in names):
            continue
        if detail(see, o)["reminders"] in ("", "None"):
            continue  # a public holiday: Daybook sets it no reminder
        cal.append(o["title"])
    cal = sorted(set(cal))
    parcels = []
    for o in shop_orders(see):
        if o["state"] == "delivered":
            continue
        arriving = first_day(o["status"], today)
        if arriving and today <= arriving <= end.date():
            parcels.append(o["order"])
    rides = [r for r in rides_scheduled(see) if (d := first_day(r["text"], today)) and today <= d <= end.date()]
    return Reading(
        values={"named": cal + [r["name"] for r in tables], "parcels": len(parcels), "rides": len(rides)},
        steps=[
            f"{today}..{end:%Y-%m-%d}: calendar {', '.join(cal)}",
            "TableTime: " + ", ".join(f"{r['name']} {r['day']} {r['time']:%H:%M}" for r in tables),
            f"Shopwell arriving: {', '.join(parcels) or 'none'}; ZipRide scheduled: {len(rides)}",
        ],
    )


SCENARIOS = [
    Scenario(
        home="calendar",
        apps=("calendar",),
        tasks=contradiction_tasks,
        readers={
            "cx-meeting-moved": read_meeting_moved,
            "cx-flight-on-calendar": read_flight_on_calendar,
            "cx-dinner-time": read_dinner_time,
        },
        after="weekly-lesson",
    ),
    Scenario(
        home="calendar",
        apps=("calendar",),
        tasks=crossapp_tasks,
        readers={"x-year-in-numbers-" + str(y): read_year_in_numbers for y in range(2020, 2041)}
        | {"x-next-two-weeks": read_next_two_weeks},
        rank=RECAPS,
    ),
]
