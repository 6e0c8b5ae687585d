"""Meridian Air's errands across apps, with their reference solutions: an aisle seat on the next flight texted to
the travel companion (chat), a flight booked with the saved card (the bank shows the charge), and the fallout of
the airline's schedule change (the calendar, the airport ride, the hotel, mail, chat)."""

from __future__ import annotations

import datetime as dt
import urllib.parse

from apps.airline.seed import schedule_pairs, world_route
from apps.airline.steps import change_to_aisle, expect_confirmed
from apps.airline.tasks import APP, CITY, KIT, aisle_seat, in_use, legs, seat_news_for
from apps.calendar import steps as daybook
from apps.mail import steps as mailbox
from apps.messaging import steps as parley
from apps.rides import steps as zipride
from builder.tasks import effects, kit
from builder.tasks.collect import Scenario
from builder.tasks.model import Change, Check, RubricItem, Task
from builder.tasks.oracle import OracleError, Web
from builder.world import World
from builder.reference.airports import airport_label, distance_km
from builder.world import payment_cards


def seat_tasks(world: World) -> list[Task]:
    """An aisle seat on the next flight, the new seat then texted to the first fellow passenger (travelling alone: the
    persona's closest chat contact). None without a flight ahead or anyone to tell (the seat change alone is then
    the airline's own ``aisle-seat``)."""
    fl = legs(world)
    who = seat_news_for(world, fl) if fl.upcoming else None
    if who is None:
        return []
    nf = fl.upcoming[0].data
    seat = aisle_seat(fl)
    out: list[Task] = []
    KIT.adder(world, out)(
        "aisle-seat-tell",
        [APP, "messaging"],
        kind="action",
        category="long_horizon",
        difficulty="medium",
        time_limit_seconds=600,
        instruction=f"Change my seat on the flight to {seat.dest_city} ({nf['flight_number']}) to an aisle seat, "
        f"then text {who.split()[0]} my new seat number.",
        expected={**seat.expected, "contact": who, "world_ref": f"{fl.upcoming[0].id}:0"},
        rubric=[
            RubricItem(
                id="seat",
                weight=45,
                requirement=f"My seat on {nf['flight_number']} is now an aisle seat ({'/'.join(seat.aisles)})",
                check=seat.seat,
            ),
            RubricItem(
                id="text",
                weight=35,
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
            seat.only,
            RubricItem(
                id="only-texts",
                weight=5,
                requirement="Nothing else changed in Parley: only the text (and the reply it draws)",
                check=parley.only_texts(1, 4),
            ),
        ],
    )
    return out


def aisle_seat_tell(task: Task, web: Web) -> str:
    """The aisle seat in Meridian Air, then the new seat texted in Parley."""
    exp = task.expected
    seat = change_to_aisle(web, exp)
    parley.send(web, exp["contact"], f"I'm in seat {seat} now on {exp['flight_number']}.")
    return f"Your seat on {exp['flight_number']} is now {seat}, an aisle seat."


def booking_tasks(world: World) -> list[Task]:
    """Book a flight with the saved card (the bank shows the pending charge): the first nonstop of the day to Denver
    (or the first of a few hubs within nonstop range of home), 30 days after as_of, Economy, one traveller. None
    when no such hub is in reach."""
    p = world.persona
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
    if not dest:
        return []
    numbers, _ = world_route(world, home, dest)
    day = p.as_of + dt.timedelta(days=30)
    number = numbers[0]
    card = payment_cards(world)[0]["label"]
    out: list[Task] = []
    KIT.adder(world, out)(
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
            kit.only(
                APP,
                "Nothing else changed at Meridian Air: only the new one-way booking",
                *(
                    Change(table=t, op="insert", min=1, max=1)
                    for t in ("bookings", "segments", "passengers", "seats", "payments")
                ),
                rid="only-booking",
            ),
        ],
    )
    return out


def book_flight(task: Task, web: Web) -> str:
    """The one-way booking in Meridian Air, paid with the saved card (the bank then shows the charge)."""
    exp = task.expected
    card = web.one(APP, "SELECT id FROM cards ORDER BY is_default DESC, id LIMIT 1")
    _, location = web.post_form(
        APP,
        "/api/bookings",
        [
            ("origin", exp["origin"]),
            ("destination", exp["destination"]),
            ("out", exp["option"]),
            ("family", exp["family"]),
            ("card", str(card)),
        ],
        expect=(303,),
    )
    expect_confirmed(location, "booked=1")
    pnr, total = web.query(
        APP, "SELECT pnr, total_cents FROM bookings WHERE world_ref IS NULL ORDER BY id DESC LIMIT 1"
    )[0]
    return f"Booked {exp['flight_number']}, confirmation {pnr}; {web.money(total)} was charged to the card."


def flight_change_task(world: World) -> Task | None:
    """The long chain the airline's schedule change breaks (``chain/flight-change`` of the world's planted items):
    move the flight in Daybook, book the airport ride for the new departure in ZipRide, start the Bramblestay
    stay the night the persona now arrives, ask the restaurant of the first evening's dinner (by mail) to move it a
    day, and tell the travel companion in Parley. None when the world planted no such change (or lacks a step).

    Checks are on outcomes, not on the route taken: a stay changed in place or cancelled and booked again both
    pass; rows the apps write are told apart from seeded ones, so doing nothing scores 0."""
    p = world.persona
    item = next((x for x in world.planted if x.get("id") == "chain/flight-change"), None)
    if not item or not p.travel or not p.travel.home_airport:
        return None
    steps = {s["step"]: s for s in item["steps"]}
    if not {"airline_change", "calendar_flight", "hotel_check_in", "dinner_reservation"} <= set(steps):
        return None
    by_id = {e.id: e for e in world.events}
    flight = by_id[item["flight_id"]]
    stay = by_id[steps["hotel_check_in"]["event_id"]]
    dinner_mail = by_id[steps["dinner_reservation"]["event_id"]]
    booking = by_id[steps["booking"]["event_id"]]
    companions = [n for n in booking.data.get("passengers", []) if n != p.identity.name]
    old_number, new_number = flight.data["flight_number"], steps["airline_change"]["new_flight"]
    old_dep, new_dep = (
        dt.datetime.fromisoformat(item["old_departure"]),
        dt.datetime.fromisoformat(item["new_departure"]),
    )
    z = "%Y-%m-%dT%H:%M:%SZ"
    old_utc, new_utc = old_dep.astimezone(dt.UTC).strftime(z), new_dep.astimezone(dt.UTC).strftime(z)
    airport = airport_label(p.travel.home_airport)
    lo, hi = new_dep - dt.timedelta(minutes=180), new_dep - dt.timedelta(minutes=150)
    dinner_at = dt.datetime.fromisoformat(steps["dinner_reservation"]["old"])
    restaurant, restaurant_email = dinner_mail.data["from"]["name"], dinner_mail.data["from"]["email"]
    hotel = stay.data["hotel"]
    check_in, check_out = steps["hotel_check_in"]["new"], stay.data["check_out"]
    dest = item["destination"]
    flight_match = "(ref = ? OR instr(title, ?) > 0 OR instr(title, ?) > 0)"
    rubric = [
        RubricItem(
            id="calendar-new",
            weight=10,
            requirement=f"Daybook has the flight at its new departure, {new_dep:%b %-d %H:%M}",
            check=kit.sql(
                "calendar",
                f"SELECT COUNT(*) > 0 FROM events WHERE start_utc = ? AND {flight_match}",
                [new_utc, flight.id, old_number, new_number],
                [[1]],
            ),
        ),
        RubricItem(
            id="calendar-old",
            weight=5,
            requirement=f"…and no longer at the old one, {old_dep:%b %-d %H:%M}",
            check=kit.sql(
                "calendar",
                f"SELECT COUNT(*) FROM events WHERE start_utc = ? AND {flight_match}",
                [old_utc, flight.id, old_number, new_number],
                [[0]],
            ),
        ),
        RubricItem(
            id="ride",
            weight=15,
            requirement=f"A ZipRide Home -> {airport} is scheduled with pickup between {lo:%b %-d %H:%M} and "
            f"{hi:%H:%M}",
            check=kit.sql(
                "rides",
                """SELECT COUNT(*) > 0 FROM rides r JOIN places a ON a.id = r.pickup_place_id
                                         JOIN places b ON b.id = r.dropoff_place_id
                                         WHERE r.world_ref IS NULL AND r.status = 'scheduled' AND a.kind = 'home'
                                         AND b.address = ? AND r.pickup_at BETWEEN ? AND ?""",
                [airport, lo.isoformat(), hi.isoformat()],
                [[1]],
            ),
        ),
        RubricItem(
            id="hotel-new",
            weight=15,
            requirement=f"A Bramblestay stay at {hotel} from {check_in} to {check_out} is booked",
            check=kit.sql(
                "stays",
                """SELECT COUNT(*) > 0 FROM bookings b JOIN properties p ON p.id = b.property_id
                                         WHERE p.name = ? AND b.status != 'cancelled' AND b.check_in = ?
                                         AND b.check_out = ?""",
                [hotel, check_in, check_out],
                [[1]],
            ),
        ),
        RubricItem(
            id="hotel-old",
            weight=5,
            requirement=f"…and none there still starts on {stay.data['check_in']}",
            check=kit.sql(
                "stays",
                """SELECT COUNT(*) FROM bookings b JOIN properties p ON p.id = b.property_id
                                         WHERE p.name = ? AND b.status != 'cancelled' AND b.check_in = ?""",
                [hotel, stay.data["check_in"]],
                [[0]],
            ),
        ),
        RubricItem(
            id="dinner-mail",
            weight=15,
            requirement=f"A mail to {restaurant} ({restaurant_email}) was sent",
            check=kit.sql(
                "mail",
                """SELECT COUNT(*) > 0 FROM messages WHERE world_ref IS NULL AND origin = 'app'
                                        AND folder = 'sent' AND instr(lower(to_json), lower(?)) > 0""",
                [restaurant_email],
                [[1]],
            ),
        ),
        RubricItem(
            id="dinner-asks",
            weight=5,
            requirement=f"The mail asks to move the {dinner_at:%b %-d %H:%M} table to the same time the next "
            "evening (judge: read the sent mail)",
        ),
    ]
    apps = [APP, "calendar", "rides", "stays", "mail"]
    if companions:
        who = companions[0]
        apps.append("messaging")
        rubric += [
            RubricItem(
                id="companion",
                weight=15,
                requirement=f"{who} got a message in Parley",
                check=kit.sql(
                    "messaging",
                    """SELECT COUNT(*) > 0 FROM messages WHERE sender_id IS NULL
                                                 AND world_ref IS NULL AND conversation_id IN (SELECT id FROM
                                                 conversations WHERE kind = 'direct' AND contact_id =
                                                 (SELECT id FROM contacts WHERE name = ?))""",
                    [who],
                    [[1]],
                ),
            ),
            RubricItem(
                id="companion-says",
                weight=5,
                requirement=f"The message gives the new flight ({new_number}, {new_dep:%b %-d %H:%M}) "
                "(judge: read the message)",
            ),
        ]
    else:  # the weights of the companion's items go to the two machine checks a solo traveller keeps
        rubric[2] = rubric[2].model_copy(update={"weight": 25})
        rubric[5] = rubric[5].model_copy(update={"weight": 20})
        rubric[6] = rubric[6].model_copy(update={"weight": 10})
    rubric.append(
        RubricItem(
            id="only-hotel",
            weight=10,
            requirement="Nothing else changed at Bramblestay: only that stay moved (or cancelled and booked again)",
            check=Check(
                type="state_diff",
                app="stays",
                ignore=["sessions"],
                changes=[
                    Change(table="bookings", op="update", min=1, max=1),
                    Change(table="bookings", op="insert", min=0, max=1),
                    Change(table="booking_nights", op="update", min=0),
                    Change(table="booking_nights", op="delete", min=0),
                    Change(table="booking_nights", op="insert", min=0),
                    Change(table="booking_changes", op="insert", min=0, max=1),
                    Change(table="threads", op="insert", min=0, max=1),
                    Change(table="messages", op="insert", min=0),
                ],
            ),
        )
    )
    todo = [
        "move the flight in my calendar",
        "book a ZipRide from home to the airport with pickup 2½ to 3 hours before the new departure",
        "change the hotel so the stay starts the night I now arrive (same check-out)",
        (
            "email the restaurant of the dinner booked for my first evening there to move it to the same time the "
            "next evening"
        ),
    ]
    if companions:
        todo.append(f"let {companions[0]} know about the new flight in Parley")
    # What the errand does in the apps it acts in besides Bramblestay, each app's own state_diff item (5 points each,
    # taken from the items above in proportion): the ride booked, the flight moved in Daybook (and the stay's entry,
    # when it comes from the change mail), the mail to the restaurant (the confirmations of the ride and the stay
    # counted with it), the text to the companion.
    acts = [
        ("rides", "the ride to the airport", zipride.new_rides(1)),
        ("calendar", "the flight moved (and the stay's entry with it)", daybook.moved_events(1, 2)),
        ("mail", "the mail to the restaurant", mailbox.new_mail(1)),
    ]
    if companions:
        acts.append(("messaging", f"the text to {companions[0]} (and the reply it draws)", parley.texts(1, 4)))
    task = Task(
        id=f"{p.id}/airline/flight-change-fallout",
        persona=p.id,
        apps_involved=apps,
        kind="action",
        category="long_horizon",
        planted=[item["id"]],
        difficulty="hard",
        time_limit_seconds=1800,
        instruction=f"Meridian Air changed my flight to {dest}. Sort out everything the change breaks: "
        + "; ".join(todo[:-1])
        + f"; and {todo[-1]}.",
        expected={
            "pnr": item["pnr"],
            "old_flight": old_number,
            "new_flight": new_number,
            "old_departure": item["old_departure"],
            "new_departure": item["new_departure"],
            "calendar_event": steps["calendar_flight"]["event_id"],
            "pickup": "Home",
            "dropoff": airport,
            "pickup_window": [lo.isoformat(), hi.isoformat()],
            "hotel": hotel,
            "confirmation": steps["hotel_check_in"]["confirmation"],
            "stay_event": stay.id,
            "check_in": check_in,
            "check_out": check_out,
            "restaurant": restaurant,
            "restaurant_email": restaurant_email,
            "dinner": steps["dinner_reservation"]["old"],
            "companion": companions[0] if companions else None,
        },
        rubric=rubric,
    )
    return effects.acting(task, *acts)


def flight_change_fallout(task: Task, web: Web) -> str:
    """The chain the schedule change breaks: Daybook, ZipRide, Bramblestay (and its change mail into Daybook),
    the restaurant by mail, the companion in Parley."""
    exp = task.expected
    new = dt.datetime.fromisoformat(exp["new_departure"])
    # Daybook: move the flight to its new day and time (the form takes the persona's local date and HH:MM).
    _, location = web.post_form(
        "calendar",
        f"/api/events/{exp['calendar_event']}/move",
        [("date", new.date().isoformat()), ("time", new.strftime("%H:%M"))],
        expect=(303,),
    )
    expect_confirmed(location, "notice=moved")
    # ZipRide: the ride to the airport, in the middle of the window.
    lo, hi = (dt.datetime.fromisoformat(x) for x in exp["pickup_window"])
    zipride.schedule(web, exp["pickup"], exp["dropoff"], (lo + (hi - lo) / 2).strftime("%Y-%m-%dT%H:%M"))
    # Bramblestay: change the stay's dates (inside its free window), then put the changed stay from the mail it
    # sends into Daybook (its .ics carries the calendar's own UID at a higher SEQUENCE, so the entry moves).
    _, location = web.post_form(
        "stays",
        "/api/change",
        [
            ("confirmation", exp["confirmation"]),
            ("checkin", exp["check_in"]),
            ("checkout", exp["check_out"]),
            ("confirm", "yes"),
        ],
        expect=(303,),
    )
    expect_confirmed(location, "changed=1")
    att = web.one(
        "mail",
        "SELECT a.id FROM attachments a JOIN messages m ON m.id = a.message_id WHERE a.filename = ? "
        "AND m.world_ref IS NULL ORDER BY a.id DESC LIMIT 1",
        (f"reservation-{exp['confirmation']}.ics",),
    )
    _, location = web.post_form("mail", "/api/calendar-add", [("attachment", str(att)), ("back", "/")], expect=(303,))
    if "Updated in Daybook" not in urllib.parse.unquote_plus(location):
        raise OracleError(f"Mailbox did not update Daybook: {location!r}")
    # Mailbox: ask the restaurant to move the table a day.
    dinner = dt.datetime.fromisoformat(exp["dinner"])
    later = dinner + dt.timedelta(days=1)
    mailbox.send(
        web,
        exp["restaurant_email"],
        "Moving my reservation",
        f"Hello,\n\nmy flight has been moved a day, so I can't make our table on {dinner:%A, %B %-d} at "
        f"{dinner:%H:%M}. Could you move the reservation to the same time the next evening, {later:%A, %B %-d}?"
        "\n\nThank you!",
    )
    if exp["companion"]:
        parley.send(
            web,
            exp["companion"],
            f"Our flight moved to {new:%a %b %-d} {new:%H:%M}, {exp['new_flight']}. I've moved the hotel and dinner.",
        )
    return (
        f"Done: the flight is now {exp['new_flight']} on {new:%A, %B %-d} at {new:%H:%M}; calendar, airport ride, "
        f"hotel (from {exp['check_in']}) and the dinner request are sorted."
    )


def flight_change_tasks(world: World) -> list[Task]:
    """The flight-change chain, when the world planted one."""
    chain = flight_change_task(world)
    return [chain] if chain else []


#: Its place: right after the airline's tasks of the trip ahead, the last of them the world has (the airline's
#: order, backwards; book-flight is this module's own, placed before it).
AFTER = (
    "book-flight",
    "cancel-next-trip",
    "aisle-seat-tell",
    "aisle-seat",
    "next-arrival-hotel",
    "tickets-this-year",
    "status-miles",
    "last-trip-cost",
    "last-trip-seat",
    "next-flight",
)
#: These errands follow tasks of scenarios/pairs/airline.py (the tickets paid this year, the next arrival): placed
#: after it.
AFTER_PAIRS = 1
SCENARIOS = [
    Scenario(
        home="airline",
        apps=("airline", "messaging"),
        tasks=seat_tasks,
        solvers={"aisle-seat-tell": aisle_seat_tell},
        after=("next-arrival-hotel", "tickets-this-year"),
        rank=AFTER_PAIRS,
        when=in_use,
    ),
    Scenario(
        home="airline",
        apps=("airline", "bank"),
        tasks=booking_tasks,
        solvers={"book-flight": book_flight},
        after=("cancel-next-trip", "tickets-this-year"),
        rank=AFTER_PAIRS,
        when=in_use,
    ),
    Scenario(
        home="airline",
        apps=("airline", "calendar", "rides", "mail"),
        tasks=flight_change_tasks,
        solvers={"flight-change-fallout": flight_change_fallout},
        after=AFTER,
        rank=AFTER_PAIRS,
        when=in_use,
    ),
]
