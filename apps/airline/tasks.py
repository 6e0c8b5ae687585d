"""Meridian Air tasks derived from the world, each with its expected values and rubric.

Action checks read the end state: rows the airline writes have ``world_ref IS NULL`` (new bookings, payments)
or ``changed_at`` set (a seat moved in the app); seeded rows never do, so an agent that does nothing fails every
action. Every world value travels in a check's ``params``.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from zoneinfo import ZoneInfo

from builder.money import money
from builder.tasks import kit
from builder.tasks import steps as S
from builder.tasks.model import Change, Check, RubricItem, Task
from builder.world import World
from builder.world.accounts import payment_cards
from builder.world.planted import airline_flights
from builder.reference.airports import distance_km

from .seed import FAMILY_BY_NAME, NETWORK, schedule_pairs, segment_miles, world_route

APP = "airline"
KIT = kit.Kit(APP)
CITY = NETWORK["cities"]


def _diff(*changes: Change) -> Check:
    """Only ``changes`` in the airline's database (its sign-in sessions aside)."""
    return Check(type="state_diff", app=APP, changes=list(changes), ignore=["sessions"])


def _text(*forms: str) -> Check:
    return Check(type="answer_text", any_of=[f for f in forms if f])


def _utc(s: str) -> dt.datetime:
    return dt.datetime.fromisoformat(s)


def _clock(iso: str) -> list[str]:
    t = dt.datetime.fromisoformat(iso)
    h12 = (t.hour - 1) % 12 + 1
    return [
        f"{h12}:{t.minute:02d} {'AM' if t.hour < 12 else 'PM'}",
        f"{h12}:{t.minute:02d}{'am' if t.hour < 12 else 'pm'}",
        f"{t.hour:02d}:{t.minute:02d}",
        f"{t.hour}:{t.minute:02d}",
    ]


def aisle_letters(aircraft: str) -> list[str]:
    """The aisle seat letters of the economy cabin of ``aircraft`` (network.json layouts: ``ABC|DEF`` -> C, D)."""
    a = next(x for x in NETWORK["aircraft"] if x["name"] == aircraft)
    groups = a["economy_letters"].split("|")
    out = []
    for i, g in enumerate(groups):
        if i > 0:
            out.append(g[0])
        if i < len(groups) - 1:
            out.append(g[-1])
    return sorted(out)


def _trip_of(world: World, city: str) -> int | None:
    for b in world.of_kind("flight_booking"):
        if b.data["destination"] == city:
            return b.data["trip"]
    return None


def in_use(world: World) -> bool:
    """Whether the persona travels and flies: without flights Meridian Air has no tasks, nor do the scenarios homed
    there."""
    return bool(world.of_kind("flight")) and bool(world.persona.travel)


def tasks(world: World) -> list[Task]:
    """The airline's tasks of ``world`` (at least 8 when the persona flies: lookups, aggregations, 3 actions), in a
    fixed order; none for a persona without flights."""
    p = world.persona
    cur = world.currency
    # Legs as the airline holds them (a rebooked leg under its new number and day).
    moved = airline_flights(world)
    flights = sorted(
        (dataclasses.replace(f, data=moved.get(f.id, f.data)) for f in world.of_kind("flight")),
        key=lambda f: (f.data["dep_utc"], f.data["leg"]),
    )
    bookings = world.of_kind("flight_booking")
    if not in_use(world):
        return []
    now = world.now.replace(tzinfo=ZoneInfo(p.timezone)).astimezone(dt.UTC)
    upcoming = [f for f in flights if _utc(f.data["dep_utc"]) > now]
    flown = [f for f in flights if _utc(f.data["dep_utc"]) <= now]
    out: list[Task] = []

    task = KIT.adder(world, out)

    # 1. Next flight: number, local departure time, confirmation code.
    if upcoming:
        nf = upcoming[0].data
        task(
            "next-flight",
            [APP],
            kind="lookup",
            difficulty="easy",
            time_limit_seconds=240,
            instruction="When does my next flight leave (local time at the airport), what is the flight number, "
            "and what's the confirmation code?",
            expected={"flight_number": nf["flight_number"], "dep_local": nf["dep_local"], "pnr": nf["pnr"]},
            rubric=[
                RubricItem(
                    id="flight",
                    weight=30,
                    requirement=f"Names flight {nf['flight_number']}",
                    check=_text(nf["flight_number"], nf["flight_number"].replace(" ", "")),
                ),
                RubricItem(
                    id="time",
                    weight=40,
                    requirement=f"Gives the departure {nf['dep_local']}",
                    check=_text(*_clock(nf["dep_local"])),
                ),
                RubricItem(
                    id="pnr", weight=30, requirement=f"Gives the confirmation code {nf['pnr']}", check=_text(nf["pnr"])
                ),
            ],
        )

    # 2. The seat on the flight into the last trip's destination (Lisbon for the default persona).
    if flown:
        last_trip = flown[-1].data["trip"]
        into = [f.data for f in flown if f.data["trip"] == last_trip and f.data["direction"] == "outbound"][-1]
        city = next(b.data["destination"] for b in bookings if b.data["trip"] == last_trip)
        task(
            "last-trip-seat",
            [APP],
            kind="lookup",
            difficulty="easy",
            time_limit_seconds=240,
            instruction=f"Which seat did I have on the flight that took me to {city}?",
            expected={"flight_number": into["flight_number"], "seat": into["seat"]},
            rubric=[
                RubricItem(
                    id="seat",
                    weight=100,
                    requirement=f"Says seat {into['seat']} on {into['flight_number']}",
                    check=_text(into["seat"]),
                )
            ],
        )

        # 3. What the whole trip cost: flights + hotel + rides (the world's sums), across airline and bank.
        fare = sum(b.data["price_cents"] for b in bookings if b.data["trip"] == last_trip)
        hotel = sum(e.data["total_cents"] for e in world.of_kind("hotel_checkout") if e.data.get("trip") == last_trip)
        rides = sum(e.data["total_cents"] for e in world.of_kind("ride") if e.data.get("trip") == last_trip)
        total = fare + hotel + rides
        task(
            "last-trip-cost",
            [APP, "bank"],
            kind="aggregation",
            difficulty="hard",
            time_limit_seconds=900,
            instruction=f"What did my whole {city} trip cost: the flights, the hotel and the rides together?",
            expected={"flights_cents": fare, "hotel_cents": hotel, "rides_cents": rides, "total_cents": total},
            rubric=[
                RubricItem(
                    id="flights",
                    weight=25,
                    requirement=f"Flights {money(fare, cur)}",
                    check=Check(type="answer_amount", cents=fare),
                ),
                RubricItem(
                    id="hotel",
                    weight=25,
                    requirement=f"Hotel {money(hotel, cur)}",
                    check=Check(type="answer_amount", cents=hotel),
                ),
                RubricItem(
                    id="total",
                    weight=50,
                    requirement=f"Total {money(total, cur)} (rides {money(rides, cur)})",
                    check=Check(type="answer_amount", cents=total),
                ),
            ],
        )

    # 4. Status miles this year (MileagePass rules in network.json).
    year = p.as_of.year
    miles = sum(
        segment_miles(f.data["from"], f.data["to"])
        for f in flown
        if _utc(f.data["dep_utc"]).astimezone(ZoneInfo(p.timezone)).year == year
    )
    task(
        "status-miles",
        [APP],
        kind="lookup",
        difficulty="easy",
        time_limit_seconds=240,
        instruction=f"How many status miles have I flown with {bookings[0].data['airline']} this year?",
        expected={"status_miles": miles},
        rubric=[
            RubricItem(
                id="miles",
                weight=100,
                requirement=f"States {miles:,} status miles",
                check=_text(f"{miles:,}", str(miles), f"{miles:,}".replace(",", ".")),
            )
        ],
    )

    # 5. Spent on airline tickets this year, as the card statement shows it.
    spent = sum(b.data["price_cents"] for b in bookings if b.at.year == year and b.at <= world.now)
    task(
        "tickets-this-year",
        [APP, "bank"],
        kind="aggregation",
        difficulty="medium",
        time_limit_seconds=600,
        instruction=f"How much have I paid {bookings[0].data['airline']} for tickets booked this year?",
        expected={"total_cents": spent},
        rubric=[
            RubricItem(
                id="total",
                weight=100,
                requirement=f"States {money(spent, cur)}",
                check=Check(type="answer_amount", cents=spent),
            )
        ],
    )

    if upcoming:
        nf = upcoming[0].data
        arrive = [f.data for f in upcoming if f.data["pnr"] == nf["pnr"] and f.data["direction"] == "outbound"][-1]
        stay = next((e.data for e in world.of_kind("hotel_booking") if e.data.get("trip") == nf["trip"]), None)
        # 6. Arrival time and the hotel of the next trip (airline + the hotel's confirmation in mail).
        if stay:
            task(
                "next-arrival-hotel",
                [APP, "mail"],
                kind="lookup",
                difficulty="medium",
                time_limit_seconds=480,
                instruction="On my next trip, what local time do I land, and which hotel am I staying at?",
                expected={"arr_local": arrive["arr_local"], "hotel": stay["hotel"]},
                rubric=[
                    RubricItem(
                        id="time",
                        weight=50,
                        requirement=f"Lands {arrive['arr_local']}",
                        check=_text(*_clock(arrive["arr_local"])),
                    ),
                    RubricItem(
                        id="hotel", weight=50, requirement=f"Stays at {stay['hotel']}", check=_text(stay["hotel"])
                    ),
                ],
            )

        # 7. Action across airline and messaging: an aisle seat on the next flight, and tell the companion.
        companions = [n for n in nf["passengers"][1:]]
        aisles = aisle_letters(nf["aircraft"])
        marks = ",".join("?" for _ in aisles)
        seat_check = kit.sql(
            APP,
            f"""SELECT COUNT(*) FROM seats t JOIN passengers x ON x.id = t.passenger_id
                                  WHERE t.world_ref = ? AND x.position = 0 AND t.changed_at IS NOT NULL
                                  AND substr(t.seat, -1) IN ({marks})""",
            [f"{upcoming[0].id}:0", *aisles],
            [[1]],
        )
        dest_city = CITY.get(arrive["to"], arrive["to"])
        seat_only = RubricItem(
            id="only-seat",
            weight=15,
            requirement="Nothing else changed at Meridian Air: only my seat",
            check=_diff(Change(table="seats", op="update", min=1, max=1, columns=["seat", "changed_at"])),
        )
        # Tell the companion, or (travelling alone) the person the persona is closest to on Parley.
        closest = S.closest_contact(world)
        if companions or closest:
            who = companions[0] if companions else closest.name
            task(
                "aisle-seat-tell",
                [APP, "messaging"],
                kind="action",
                category="long_horizon",
                difficulty="medium",
                time_limit_seconds=600,
                instruction=f"Change my seat on the flight to {dest_city} ({nf['flight_number']}) to an aisle seat, "
                f"then text {who.split()[0]} my new seat number.",
                expected={
                    "pnr": nf["pnr"],
                    "flight_number": nf["flight_number"],
                    "aisle_letters": aisles,
                    "contact": who,
                    "world_ref": f"{upcoming[0].id}:0",
                },
                rubric=[
                    RubricItem(
                        id="seat",
                        weight=45,
                        requirement=f"My seat on {nf['flight_number']} is now an aisle seat ({'/'.join(aisles)})",
                        check=seat_check,
                    ),
                    RubricItem(
                        id="text",
                        weight=40,
                        requirement=f"A new text to {who} in Parley",
                        check=kit.sql(
                            "messaging",
                            """SELECT COUNT(*) > 0 FROM messages m
                                               JOIN conversations c ON c.id = m.conversation_id JOIN contacts k ON k.id = c.contact_id
                                               WHERE m.world_ref IS NULL AND m.sender_id IS NULL AND k.name = ?""",
                            [who],
                            [[1]],
                        ),
                    ),
                    seat_only,
                ],
            )
        else:
            task(
                "aisle-seat",
                [APP],
                kind="action",
                difficulty="easy",
                time_limit_seconds=420,
                instruction=f"Change my seat on the flight to {dest_city} ({nf['flight_number']}) to an aisle seat.",
                expected={
                    "pnr": nf["pnr"],
                    "flight_number": nf["flight_number"],
                    "aisle_letters": aisles,
                    "world_ref": f"{upcoming[0].id}:0",
                },
                rubric=[
                    RubricItem(id="seat", weight=85, requirement="My seat is now an aisle seat", check=seat_check),
                    seat_only,
                ],
            )

        # 9. Cancel the next trip: what the fare rules give back.
        booking = next(b for b in bookings if b.data["pnr"] == nf["pnr"])
        fam = FAMILY_BY_NAME.get(booking.data["fare_class"], FAMILY_BY_NAME["Economy"])
        back = {
            "none": "no credit and no refund",
            "credit": f"{money(booking.data['price_cents'], cur)} travel credit",
            "refund": f"a refund of {money(booking.data['price_cents'], cur)}",
        }[fam["cancel"]]
        rubric = [
            RubricItem(
                id="cancelled",
                weight=55,
                requirement=f"Trip {nf['pnr']} is cancelled",
                check=kit.sql(
                    APP,
                    "SELECT status FROM bookings WHERE pnr = ? AND cancelled_at IS NOT NULL",
                    [nf["pnr"]],
                    [["cancelled"]],
                ),
            ),
            RubricItem(
                id="outcome",
                weight=30,
                requirement=f"Reports what comes back: {back}",
                check=Check(type="answer_amount", cents=booking.data["price_cents"])
                if fam["cancel"] != "none"
                else _text("no credit", "no refund", "nothing back", "not refundable", "non-refundable"),
            ),
            RubricItem(
                id="only-cancel",
                weight=15,
                requirement="Nothing else changed at Meridian Air: only that trip cancelled (with its credit "
                "or refund)",
                check=_diff(
                    Change(
                        table="bookings",
                        op="update",
                        min=1,
                        max=1,
                        columns=["status", "cancelled_at", "credit_cents", "refund_cents"],
                    ),
                    Change(table="segments", op="update", min=1, columns=["status"]),
                    Change(table="travel_credits", op="insert", min=0, max=1),
                    Change(table="payments", op="insert", min=0, max=1),
                ),
            ),
        ]
        task(
            "cancel-next-trip",
            [APP],
            kind="action",
            difficulty="medium",
            time_limit_seconds=420,
            instruction=f"I can't make my {booking.data['destination']} trip any more. Cancel it, and tell me what I get back.",
            expected={"pnr": nf["pnr"], "fare_class": booking.data["fare_class"], "back": fam["cancel"]},
            rubric=rubric,
        )

    # 8. Book a flight with the saved card (airline + bank): the first nonstop of the day to Denver (or the first
    # of a few hubs within nonstop range of home), 30 days after as_of, Economy, one traveller.
    home = p.travel.home_airport
    nonstop = {(a, b) for a, b, via in schedule_pairs(world)[0] if via is None}
    dest = next(
        (
            d
            for d in ("DEN", "SEA", "SFO", "ORD", "AMS", "LHR", "BER", "LIS")
            if (home, d) in nonstop and distance_km(home, d) >= 500
        ),
        None,
    )
    if dest:
        numbers, _ = world_route(world, home, dest)
        day = p.as_of + dt.timedelta(days=30)
        number = numbers[0]
        card = payment_cards(world)[0]["label"]
        task(
            "book-flight",
            [APP, "bank"],
            kind="action",
            difficulty="hard",
            time_limit_seconds=900,
            instruction=f"Book me a one-way Economy flight from {CITY.get(home, home)} to {CITY.get(dest, dest)} on "
            f"{day:%B} {day.day}, the first departure of the day, just me, paid with my saved {card}. "
            "How much was charged?",
            expected={
                "origin": home,
                "destination": dest,
                "date": day.isoformat(),
                "flight_number": f"MR {number}",
                "option": f"{number}@{day.isoformat()}",
                "family": "MAIN",
            },
            rubric=[
                RubricItem(
                    id="booking",
                    weight=45,
                    requirement=f"A new Economy booking on MR {number} {home}-{dest} on {day}",
                    check=kit.sql(
                        APP,
                        """SELECT COUNT(*) FROM bookings b JOIN segments s ON s.booking_id = b.id
                                           WHERE b.world_ref IS NULL AND b.status != 'cancelled' AND b.fare_family = 'MAIN'
                                           AND b.passengers = 1 AND s.flight_number = ? AND s.origin = ? AND s.destination = ?
                                           AND substr(s.dep_local, 1, 10) = ?""",
                        [f"MR {number}", home, dest, day.isoformat()],
                        [[1]],
                    ),
                ),
                RubricItem(
                    id="charged",
                    weight=40,
                    requirement="The card shows the airline's pending charge in the bank",
                    check=kit.sql(
                        "bank",
                        "SELECT COUNT(*) FROM card_authorizations WHERE app = ? AND kind = 'charge'",
                        [APP],
                        [[1]],
                    ),
                ),
                RubricItem(
                    id="only-booking",
                    weight=15,
                    requirement="Nothing else changed at Meridian Air: only the new one-way booking",
                    check=_diff(
                        *(
                            Change(table=t, op="insert", min=1, max=1)
                            for t in ("bookings", "segments", "passengers", "seats", "payments")
                        )
                    ),
                ),
            ],
        )

    out.extend(insight_tasks(world))
    return out


# --- Reasoning tasks (contradiction, counterfactual, preference inference) ---------------------------------------


def _seat_kind(seat: str, aircraft: str) -> str:
    """``window``, ``aisle`` or ``middle`` for ``seat`` (``17A``) on ``aircraft`` (network.json economy layout)."""
    a = next((x for x in NETWORK["aircraft"] if x["name"] == aircraft), None)
    letters = a["economy_letters"].replace("|", "") if a else "ABCDEF"
    letter = seat[-1]
    if letter in (letters[0], letters[-1]):
        return "window"
    return "aisle" if a and letter in aisle_letters(aircraft) else "middle"


def insight_tasks(world: World) -> list[Task]:
    """Meridian Air's contradiction, counterfactual and preference tasks: the booking mail against the airline's
    changed schedule, the plans still on the old day, when the original flight would have landed, a one-seat booking,
    the seat and departure time the persona picks. Items the world lacks give no task."""
    from collections import Counter

    from builder.tasks import answers as A
    from builder.tasks.phrasing import day_phrase

    p = world.persona
    _pid, cur, today = p.id, world.currency, world.now.date()
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
            expected={
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
            expected={"arrival": old_arr.isoformat(), "flight": old_no},
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
        if "airport_ride" in steps:
            stale.append(("ride", ["ZipRide", "ride"], "the ZipRide airport ride"))
        if "hotel_check_in" in steps:
            h = steps["hotel_check_in"].get("hotel") or by_id[steps["hotel_check_in"]["event_id"]].data["hotel"]
            stale.append(("hotel", [h, "hotel"], f"the hotel ({h})"))
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
                expected={"new_departure": it["new_departure"], "stale": [k for k, _, _ in stale]},
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
        task(
            "cf-solo-ticket",
            ["airline", "bank"],
            kind="aggregation",
            category="counterfactual",
            difficulty="medium",
            time_limit_seconds=420,
            instruction=f"For my {b['destination']} trip I booked the flights for {' and '.join(others)} too. Had I "
            "booked only my own ticket, what would the booking have cost, and what did I actually pay?",
            expected={"pnr": b["pnr"], "solo_cents": b["fare_per_passenger_cents"], "paid_cents": b["total_cents"]},
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

    flights = [
        e
        for e in world.of_kind("flight")
        if e.status == "done"
        and e.data.get("seat")
        and dt.datetime.fromisoformat(e.data["dep_local"]).replace(tzinfo=None) < world.now
    ]
    kinds = Counter(_seat_kind(e.data["seat"], e.data["aircraft"]) for e in flights)
    top = kinds.most_common(2)
    if top and top[0][0] != "middle" and (len(top) == 1 or top[0][1] > top[1][1]):
        kind, n = top[0]
        task(
            "pref-seat",
            ["airline"],
            kind="aggregation",
            category="preference_inference",
            difficulty="medium",
            time_limit_seconds=420,
            instruction="Looking at the seats I've had on my past Meridian Air flights, do I prefer a window or an "
            "aisle seat? On how many of those flights did I sit that way?",
            expected={"preference": kind, "flights": n, "of": len(flights)},
            rubric=[
                RubricItem(
                    id="kind",
                    weight=70,
                    requirement=f"Says {kind}",
                    check=A.text(kind, {"window": "Fenster", "aisle": "Gang"}[kind]),
                ),
                RubricItem(id="count", weight=30, requirement=f"Says {n} flights", check=A.number(n)),
            ],
        )

    outbound = [e for e in flights if e.data.get("direction") == "outbound"]

    def slot(h: int) -> str:
        return "morning" if h < 12 else "afternoon" if h < 17 else "evening"

    slots = Counter(slot(dt.datetime.fromisoformat(e.data["dep_local"]).hour) for e in outbound)
    top = slots.most_common(2)
    if top and (len(top) == 1 or top[0][1] > top[1][1]):
        s, n = top[0]
        task(
            "pref-departure-time",
            ["airline"],
            kind="aggregation",
            category="preference_inference",
            difficulty="medium",
            time_limit_seconds=420,
            instruction="When I fly out on a trip, what time of day do my outbound flights usually leave: morning "
            "(before noon), afternoon (noon to 5 PM) or evening? How many of my past outbound flights "
            "did?",
            expected={"slot": s, "flights": n, "of": len(outbound)},
            rubric=[
                RubricItem(
                    id="slot",
                    weight=70,
                    requirement=f"Says {s}",
                    check=A.text(s, {"morning": "Vormittag", "afternoon": "Nachmittag", "evening": "Abend"}[s]),
                ),
                RubricItem(id="count", weight=30, requirement=f"Says {n} flights", check=A.number(n)),
            ],
        )
    return out


# --- Cross-app answer tasks: what each past trip cost, all in ---------------------------------------------------
