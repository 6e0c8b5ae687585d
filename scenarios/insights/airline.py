"""Meridian Air's contradictions and counterfactuals with other apps (ids ``<persona>/airline/cx-...``,
``cf-...``): the booking mail against the airline's changed schedule, when the original flight would have landed,
the plans still on the old day, what a one-seat booking would have cost."""

from __future__ import annotations

import datetime as dt
import re

from apps.airline import reader as air
from apps.airline.tasks import KIT, in_use
from builder.money import money
from builder.tasks import answers as A
from builder.tasks.collect import Scenario
from builder.tasks.dates import clock_as_written, clock_in, day_in
from builder.tasks.model import RubricItem, Task
from builder.tasks.phrasing import day_phrase
from builder.tasks.reader import Reading, See, Unreadable, reader
from builder.world import World
from scenarios import travel_desktop as desk
from scenarios.which_trip import began, when_among, when_words

#: How a careful person settles the booking mail against the airline's schedule change.
RULE = "the airline's newer schedule-change notice beats the older booking confirmation and the plans made from it"


def insight_tasks(world: World) -> list[Task]:
    """The airline's schedule change against the booking mail and the trip's other plans (a planted
    ``chain/flight-change``), and a past booking for several passengers against one seat alone. Items the world
    lacks give no task."""
    p = world.persona
    cur, today = world.currency, world.now.date()
    out: list[Task] = []
    by_id = {e.id: e for e in world.events}

    task = KIT.adder(world, out)

    it = A.planted(world, "chain/flight-change")
    steps = {s["step"]: s for s in (it or {}).get("steps", [])}
    if it and "airline_change" in steps and "booking" in steps:
        old_dep, new_dep = (
            dt.datetime.fromisoformat(it["old_departure"]),
            dt.datetime.fromisoformat(it["new_departure"]),
        )
        new_arr = dt.datetime.fromisoformat(it["new_arrival"])
        old_arr = new_arr - (new_dep - old_dep)
        flight = by_id[it["flight_id"]]
        old_no, new_no = flight.data["flight_number"], steps["airline_change"]["new_flight"]
        dest = it["destination"]
        task(
            "cx-confirmation-vs-airline",
            ["airline", "mail"],
            kind="lookup",
            category="contradiction",
            difficulty="medium",
            time_limit_seconds=420,
            instruction=f"My booking confirmation email for {dest} says I'm on {old_no} "
            f"{day_phrase(old_dep.date(), today)}. Is that still what Meridian Air has? Give me the flight "
            "number and departure day I'm actually on now, and what the confirmation said.",
            rule=RULE,
            expected={
                "destination": dest,
                "pnr": it["pnr"],
                "right": {"flight": new_no, "departure": it["new_departure"]},
                "stale": {"flight": old_no, "departure": it["old_departure"]},
                "truth": "airline",
            },
            planted=[it["id"]],
            rubric=[
                RubricItem(
                    id="flight",
                    weight=35,
                    requirement=f"Gives the new flight {new_no}",
                    check=A.text(new_no, new_no.replace(" ", "")),
                ),
                RubricItem(
                    id="day",
                    weight=35,
                    requirement=f"Gives the new day {new_dep:%B %-d}",
                    check=A.text(*A.date_forms(new_dep)),
                ),
                RubricItem(
                    id="order",
                    weight=30,
                    requirement="Names the new day before the old one",
                    check=A.names([A.date_forms(new_dep), A.date_forms(old_dep)], ordered=True),
                ),
            ],
        )
        task(
            "cf-original-arrival",
            ["airline", "mail"],
            kind="lookup",
            category="counterfactual",
            difficulty="medium",
            time_limit_seconds=420,
            instruction=f"Meridian Air changed my flight to {dest}. Had they kept my original flight, on what day and "
            f"at what local time would I have landed in {dest}?",
            expected={"destination": dest, "arrival": old_arr.isoformat(), "flight": old_no},
            planted=[it["id"]],
            rubric=[
                RubricItem(
                    id="day", weight=50, requirement=f"Says {old_arr:%A, %B %-d}", check=A.text(*A.date_forms(old_arr))
                ),
                RubricItem(
                    id="time",
                    weight=50,
                    requirement=f"Says {A.clock(old_arr)} local time",
                    check=A.text(*A.time_forms(old_arr)),
                ),
            ],
        )
        stale = []
        if "calendar_flight" in steps:
            stale.append(("calendar", ["calendar", "Daybook"], "the calendar's flight entry"))
        # The airport ride ("airport_ride") is left out: ZipRide shows no scheduled ride (its seed has the rides
        # taken), so no one could name it.
        if "hotel_check_in" in steps:
            h = steps["hotel_check_in"].get("hotel") or by_id[steps["hotel_check_in"]["event_id"]].data["hotel"]
            stale.append(("hotel", [h], f"the hotel ({h})"))
        if "dinner_reservation" in steps and steps["dinner_reservation"].get("restaurant"):
            r = steps["dinner_reservation"]["restaurant"]
            stale.append(("dinner", [r], f"the dinner at {r}"))
        if len(stale) >= 3:
            apps = ["airline", "mail", "calendar", "rides", "stays"]
            w_each = 60 // len(stale)
            rubric = [
                RubricItem(
                    id="new-day",
                    weight=100 - w_each * len(stale),
                    requirement=f"Says the flight now leaves {new_dep:%B %-d}",
                    check=A.text(*A.date_forms(new_dep)),
                )
            ]
            rubric += [
                RubricItem(id=k, weight=w_each, requirement=f"Names {label}", check=A.text(*forms))
                for k, forms, label in stale
            ]
            task(
                "cx-plans-on-old-day",
                apps,
                kind="aggregation",
                category="contradiction",
                difficulty="hard",
                time_limit_seconds=900,
                instruction=f"Meridian Air moved my {dest} flight. Which of my other plans for that trip (calendar, "
                "rides, hotel, restaurant reservations) still assume the old day? List each one, and tell "
                "me the day I actually fly now.",
                rule=RULE,
                expected={
                    "destination": dest,
                    "new_departure": it["new_departure"],
                    "stale": [k for k, _, _ in stale],
                },
                planted=[it["id"]],
                rubric=rubric,
            )

    # A past booking for several passengers: what one seat alone would have cost.
    past = [
        b
        for b in world.of_kind("flight_booking")
        if b.status == "done"
        and len(b.data.get("passengers", [])) > 1
        and b.data["fare_per_passenger_cents"] * len(b.data["passengers"]) == b.data["total_cents"]
        and all(dt.datetime.fromisoformat(x["dep_local"]).replace(tzinfo=None) < world.now for x in b.data["itinerary"])
    ]
    if past:
        b = past[-1].data
        others = [n for n in b["passengers"] if n != p.identity.name]
        # Another past trip there (the Past tab lists it too) is told apart by when this one began.
        first = _first_day(b)
        there = [
            _first_day(x.data)
            for x in world.of_kind("flight_booking")
            if x.status == "done"
            and x.data["pnr"] != b["pnr"]
            and x.data["destination"] == b["destination"]
            and _first_day(x.data) < world.now.date()
        ]
        try:
            when = when_among(first, there)
        except ValueError as e:  # two trips there the same day: nothing on the desktop tells them apart
            out.append(KIT.dropped(world, "cf-solo-ticket", "counterfactual", str(e)))
            return out
        task(
            "cf-solo-ticket",
            ["airline", "bank"],
            kind="aggregation",
            category="counterfactual",
            difficulty="medium",
            time_limit_seconds=420,
            instruction=f"For my {b['destination']} trip{when_words(when)} I booked the flights for "
            f"{' and '.join(others)} too. Had I booked only my own ticket, what would the booking have cost, and what "
            "did I actually pay?",
            expected={
                "destination": b["destination"],
                "when": when,
                "others": others,
                "pnr": b["pnr"],
                "solo_cents": b["fare_per_passenger_cents"],
                "paid_cents": b["total_cents"],
            },
            rubric=[
                RubricItem(
                    id="solo",
                    weight=70,
                    requirement=f"States {money(b['fare_per_passenger_cents'], cur)}",
                    check=A.amount(b["fare_per_passenger_cents"]),
                ),
                RubricItem(
                    id="paid",
                    weight=30,
                    requirement=f"States the {money(b['total_cents'], cur)} paid",
                    check=A.amount(b["total_cents"]),
                ),
            ],
        )
    return out


def _first_day(booking: dict) -> dt.date:
    """The local day a flight booking's first flight leaves."""
    return dt.date.fromisoformat(booking["itinerary"][0]["dep_local"][:10])


# --- independent readers ----------------------------------------------------------------------------


def booking_mail(see: See, pnr: str) -> tuple[str, list[dict]]:
    """The booking confirmation mail of ``pnr`` (the one giving its ``(PNR)``): ``(its text, its legs)``, each leg
    ``{flight, origin, dest, dep_day, dep_clock, arr_day, arr_clock, arr_time}`` as the mail lists it. Raises
    :class:`Unreadable` when the mailbox has no such mail."""
    found = [m for m in see.mailbox() if f"(PNR): {pnr}" in desk.body(m)]
    if not found:
        raise Unreadable(f"no booking confirmation mail of {pnr}")
    text = desk.body(found[0])
    rows = text.splitlines()
    legs = []
    for i, row in enumerate(rows):
        m = re.match(r"^(MR \d+)\s+([A-Z]{3}) → ([A-Z]{3})\s*$", row)
        if m and i + 2 < len(rows):
            dep, arr = (re.sub(r"^\s*\S+\s+", "", rows[i + k]) for k in (1, 2))
            legs.append(
                {
                    "flight": m.group(1),
                    "origin": m.group(2),
                    "dest": m.group(3),
                    "dep_day": day_in(dep),
                    "dep_clock": clock_as_written(dep),
                    "arr_day": day_in(arr),
                    "arr_clock": clock_as_written(arr),
                    "arr_time": clock_in(arr),
                }
            )
    if not legs:
        raise Unreadable(f"the confirmation mail of {pnr} lists no flight")
    return text, legs


def _changed(see: See, destination: str) -> tuple[air.Trip, dict, air.Segment]:
    """The upcoming trip to ``destination`` with its schedule change, the first leg the confirmation mail booked on
    a flight the trip no longer has, and the trip's flight on that route now. Raises :class:`Unreadable` when the
    trip shows no schedule change."""
    t = air.trip_to(see, destination, "upcoming", latest=False)
    if not t.changes:
        raise Unreadable(f"trip {t.pnr} shows no schedule change")
    _, legs = booking_mail(see, t.pnr)
    now = {s.flight for s in t.segments}
    old = next((x for x in legs if x["flight"] not in now), None)
    if old is None:
        raise Unreadable(f"the confirmation mail of {t.pnr} books the flights the trip still has")
    seg = next((s for s in t.segments if (s.origin, s.dest) == (old["origin"], old["dest"])), None)
    if seg is None:
        raise Unreadable(f"trip {t.pnr} has no flight {old['origin']}→{old['dest']} now")
    return t, old, seg


@reader("destination")
def confirmation_vs_airline(see: See, given: dict) -> Reading:
    t, old, seg = _changed(see, given["destination"])
    return Reading(
        values={
            "flight": seg.flight,
            "day": seg.dep_day.isoformat(),
            "order": [seg.dep_day.isoformat(), old["dep_day"].isoformat()],
        },
        steps=[
            f"Meridian Air, trip {t.pnr}: {t.changes[0]}",
            f"the booking confirmation mail: {old['flight']} {old['origin']}→{old['dest']} on {old['dep_day']}",
            f"the airline's newer notice wins: {seg.flight} on {seg.dep_day}",
        ],
    )


@reader("destination")
def original_arrival(see: See, given: dict) -> Reading:
    t = air.trip_to(see, given["destination"], "upcoming", latest=False)
    if not t.changes:
        raise Unreadable(f"trip {t.pnr} shows no schedule change")
    _, legs = booking_mail(see, t.pnr)
    into = next((x for x in legs if x["dest"] == t.arrival.dest), None)
    if into is None:
        raise Unreadable(f"the confirmation mail of {t.pnr} lands nowhere in {t.arrival.dest}")
    return Reading(
        values={"day": into["arr_day"].isoformat(), "time": into["arr_clock"]},
        steps=[
            f"trip {t.pnr}: {t.changes[0]}",
            f"the original booking (confirmation mail): {into['flight']} {into['origin']}→{into['dest']} arriving "
            f"{into['arr_day']} {into['arr_clock']} local",
        ],
    )


def _reservation(m, names: set[str]) -> tuple[str, dt.datetime] | None:
    """``(restaurant, when)`` of a table reservation mail for a restaurant in one of ``names`` (its signature line
    ``<restaurant>, <city>``), else None. A day written without its year is the first such day on or after the
    mail was sent (a mail of November books "31 December" of that year, one of December "2 January" of the next)."""
    import email.utils

    sender = email.utils.parseaddr(str(m["From"]))[0]
    text = desk.body(m)
    if not sender or not any(f"{sender}, {n}".casefold() in text.casefold() for n in names):
        return None
    when = re.search(r"\b(?:on|am)\s+(.+?)\s+(?:at|um)\s+(\d{1,2}[:.]\d{2}(?:\s*[AP]M)?)", text)
    if not when:
        return None
    sent = email.utils.parsedate_to_datetime(str(m["Date"])).date()
    day = day_in(when.group(1), after=sent)
    return sender, dt.datetime.combine(day, clock_in(when.group(2)))


@reader("destination")
def plans_on_old_day(see: See, given: dict) -> Reading:
    t, old, seg = _changed(see, given["destination"])
    old_day, new_day = old["dep_day"], seg.dep_day
    arrive = t.arrival.arr
    values, steps = {"new-day": new_day.isoformat()}, [f"trip {t.pnr}: {t.changes[0]}"]
    flight = re.compile(rf"\b{re.escape(old['flight'])}\b")
    cal = [e for e in desk.agenda(see, old_day, old_day) if flight.search(e.title)]
    if cal:
        values["calendar"] = "Daybook"
        steps.append(f"Daybook still has {cal[0].title!r} on {old_day}")
    stay = desk.stay_of(see, t, "upcoming")
    if stay.check_in < arrive.date():
        values["hotel"] = stay.property
        steps.append(f"Bramblestay {stay.confirmation} at {stay.property} checks in {stay.check_in}, before I land")
    for m in see.mailbox():
        found = _reservation(m, {n for n in t.names()} | {t.destination})
        if not found:
            continue
        name, at = found
        if old_day <= at.date() and at < arrive:
            values["dinner"] = name
            steps.append(f"the mail confirms a table at {name} on {at:%Y-%m-%d %H:%M}, before I now land ({arrive})")
    return Reading(values=values, steps=steps)


@reader("destination", "when", "others")
def solo_ticket(see: See, given: dict) -> Reading:
    found = [
        t
        for t in air.trips(see, "past")
        if given["destination"].casefold() in t.names()
        and began(t.outbound[0].dep_day, given["when"])
        and all(o in t.travellers for o in given["others"])
    ]
    if len(found) != 1:
        raise Unreadable(
            f"{len(found)} past trips to {given['destination']}{when_words(given['when'])} with {given['others']}"
        )
    t = found[0]
    return Reading(
        values={"solo": t.per_traveller, "paid": t.total},
        steps=[
            f"trip {t.pnr} to {t.destination}, travellers {', '.join(t.travellers)}: "
            f"per traveller {t.per_traveller}, total paid {t.total}"
        ],
    )


#: They follow the errands of the trip ahead (scenarios/errands/airline.py, placed after the pairs): placed after
#: them.
AFTER_ERRANDS = 2
SCENARIOS = [
    Scenario(
        home="airline",
        apps=("airline",),
        tasks=insight_tasks,
        after=("flight-change-fallout", "book-flight", "cancel-next-trip", "tickets-this-year"),
        rank=AFTER_ERRANDS,
        when=in_use,
        readers={
            "cx-confirmation-vs-airline": confirmation_vs_airline,
            "cf-original-arrival": original_arrival,
            "cx-plans-on-old-day": plans_on_old_day,
            "cf-solo-ticket": solo_ticket,
        },
    )
]
