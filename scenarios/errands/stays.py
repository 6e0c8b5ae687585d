"""Bramblestay's errands across apps, with their reference solutions: leave a stay a night early with the calendar
showing it, book the cheapest rental with the card the bank then shows charged, and prepare a trip's arrival (the
flight, a ride, the calendar, chat and work chat)."""

from __future__ import annotations

import datetime as dt
import urllib.parse

from apps.calendar import steps as daybook
from apps.messaging import steps as parley
from apps.rides import steps as zipride
from apps.stays.inventory import inventory
from apps.stays.seed import bookings
from apps.stays.steps import change_dates, expect_confirmed
from apps.stays.tasks import APP, KIT, cheapest_rental, early_checkout
from apps.workchat import steps as huddle
from builder.money import money
from builder.reference.lodging.inventory import canonical_city
from builder.rng import rng
from builder.tasks import answers, effects
from builder.tasks.collect import FIRST, Scenario
from builder.tasks.model import Change, Check, RubricItem, Task
from builder.tasks.oracle import OracleError, Web
from builder.world import World
from builder.world.accounts import payment_cards
from scenarios import ERRANDS


def early_tasks(world: World) -> list[Task]:
    """Leave the next stay a night early while free changes still apply: the booking's new dates (a booking_changes
    row, the app's own) and the calendar's entry of the stay, from the changed .ics the change mail carries. None
    when the calendar has no entry of the stay (the change alone is then Bramblestay's own task)."""
    ec = early_checkout(world)
    if not ec or not ec.uid:
        return []
    out: list[Task] = []
    KIT.adder(world, out)(
        "leave-a-night-early",
        [APP, "calendar"],
        **ec.fields(),
        rubric=[
            ec.changed(55),
            RubricItem(
                id="calendar",
                weight=30,
                requirement=f"Daybook's stay entry ends on {ec.early}",
                check=Check(
                    type="sql",
                    app="calendar",
                    query="SELECT COUNT(*) FROM events WHERE uid = ? AND substr(end_local, 1, 10) = ?",
                    params=[ec.uid, ec.early],
                    expected=[[1]],
                ),
            ),
            ec.only(),
        ],
    )
    return [effects.acting(t, ("calendar", "the stay's entry a night shorter", daybook.moved_events(1))) for t in out]


def leave_a_night_early(task: Task, web: Web) -> str:
    """The booking a night shorter, then the changed stay from Bramblestay's mail added to Daybook, as a person
    would. (Solvers are found by slug: this one also solves Bramblestay's own variant without a calendar entry,
    ``uid`` None, where it stops after the change, as apps/stays/oracle.py's.)"""
    exp = task.expected
    change_dates(web, exp["confirmation"], exp["check_in"], exp["check_out"])
    if exp["uid"]:
        att = web.one(
            "mail",
            "SELECT a.id FROM attachments a JOIN messages m ON m.id = a.message_id "
            "WHERE a.filename = ? AND m.world_ref IS NULL ORDER BY a.id DESC LIMIT 1",
            (f"reservation-{exp['confirmation']}.ics",),
        )
        _, location = web.post_form("mail", "/api/calendar-add", [("attachment", str(att)), ("back", "/")])
        if "Updated in Daybook" not in urllib.parse.unquote_plus(location):
            raise OracleError(f"Mailbox did not update Daybook: {location!r}")
    return f"Your stay now ends on {exp['check_out']}."


def rental_tasks(world: World) -> list[Task]:
    """Book the cheapest free-cancellation rental for 2 in a city the persona has not stayed in (priced in the
    persona's currency, so the card is charged the listed total), pay with the card the bank then shows charged,
    and tell the host the arrival time."""
    p = world.persona
    cur = world.currency
    today = world.now.date()
    stays = bookings(world)
    out: list[Task] = []
    r = rng(world.seed, "stays/tasks")
    visited = {b["city"] for b in stays} | {canonical_city(p.identity.address.city)}
    # A city that prices in the persona's own currency, so the card is charged the listed total.
    cities = [c for c in inventory(world) if c["name"] not in visited]
    wanted = (
        "Lisbon",
        "Barcelona",
        "Rome",
        "Amsterdam",
        "Copenhagen",
        "Edinburgh",
        "Tokyo",
        "Mexico City",
        "Vienna",
        "New York",
        "San Francisco",
        "Denver",
        "London",
        "Berlin",
        "Boston",
        "Chicago",
    )
    choices = (
        [c["name"] for c in cities if c["name"] in wanted and c["currency"] == cur]
        or [c["name"] for c in cities if c["currency"] == cur]
        or [c["name"] for c in cities if c["name"] in wanted]
    )
    city = r.choice(sorted(choices))
    check_in = today + dt.timedelta(days=r.randint(40, 70))
    nights = r.randint(3, 5)
    check_out = check_in + dt.timedelta(days=nights)
    best = cheapest_rental(world, city, check_in, nights, 2)
    cards = payment_cards(world)
    card = next((c for c in cards if c["account"] == "credit_card"), cards[0])
    card_words = "credit card" if card["account"] == "credit_card" else "debit card"
    message = "Hi! We expect to arrive around 8 pm on the first day."
    booked = (
        "FROM bookings b JOIN properties p ON p.id = b.property_id JOIN cities c ON c.id = p.city_id "
        "WHERE b.world_ref IS NULL AND b.status = 'confirmed' AND p.kind = 'rental' AND c.name = ? "
        "AND b.check_in = ? AND b.check_out = ? AND b.guests = 2"
    )
    KIT.adder(world, out)(
        "book-rental",
        [APP, "bank"],
        kind="action",
        difficulty="hard",
        time_limit_seconds=900,
        instruction=f"Book the cheapest entire place (a rental, not a hotel) with free cancellation in {city} for 2 "
        f"guests, checking in {check_in:%A, %B %-d} and out {check_out:%A, %B %-d}. Pay with my "
        f"{card_words} and let the host know we'll arrive around 8 pm.",
        expected={
            "city": city,
            "check_in": check_in.isoformat(),
            "check_out": check_out.isoformat(),
            "guests": 2,
            "slug": best["slug"],
            "total_cents": best["total_cents"],
            "card_account": card["account"],
            "message": message,
        },
        rubric=[
            RubricItem(
                id="booked",
                weight=25,
                requirement=f"A rental in {city} is booked for those dates, 2 guests",
                check=KIT.sql(f"SELECT COUNT(*) {booked}", [city, check_in.isoformat(), check_out.isoformat()], [[1]]),
            ),
            RubricItem(
                id="cheapest",
                weight=20,
                requirement=f"It is the cheapest: {best['name']}",
                check=KIT.sql(
                    f"SELECT p.slug {booked}", [city, check_in.isoformat(), check_out.isoformat()], [[best["slug"]]]
                ),
            ),
            RubricItem(
                id="card",
                weight=10,
                requirement=f"Paid with the {card_words}",
                check=KIT.sql(
                    f"SELECT COUNT(*) {booked} AND b.card_id = (SELECT id FROM cards WHERE account = ?)",
                    [city, check_in.isoformat(), check_out.isoformat(), card["account"]],
                    [[1]],
                ),
            ),
            RubricItem(
                id="bank",
                weight=10,
                requirement=f"The bank shows the pending charge of {money(best['total_cents'], cur)}",
                check=KIT.sql(
                    "SELECT COUNT(*) FROM card_authorizations WHERE app = 'stays' AND kind = 'charge' "
                    "AND amount_cents = ? AND account_id = (SELECT id FROM accounts WHERE kind = ?)",
                    [best["total_cents"], card["account"]],
                    [[1]],
                    app="bank",
                ),
            ),
            RubricItem(
                id="message",
                weight=20,
                requirement="The host is told about the 8 pm arrival",
                check=KIT.sql(
                    "SELECT COUNT(*) FROM messages m JOIN threads t ON t.id = m.thread_id JOIN bookings b "
                    "ON b.id = t.booking_id WHERE b.world_ref IS NULL AND m.sender = 'guest' AND "
                    "(instr(m.body, '8') > 0 OR instr(m.body, '20') > 0)",
                    [],
                    [[1]],
                ),
            ),
            KIT.only(
                "the one booking, its nights and the message thread with the host",
                Change(table="bookings", op="insert", min=1, max=1),
                Change(table="booking_nights", op="insert", min=1),
                Change(table="threads", op="insert", min=0, max=1),
                Change(table="messages", op="insert", min=1, max=3),
            ),
        ],
    )
    return out


def book_rental(task: Task, web: Web) -> str:
    """The rental booked with the card, then the host messaged."""
    exp = task.expected
    room = web.one(
        APP, "SELECT r.id FROM rooms r JOIN properties p ON p.id = r.property_id WHERE p.slug = ?", (exp["slug"],)
    )
    policy = web.one(APP, "SELECT policy FROM properties WHERE slug = ?", (exp["slug"],))
    card = web.one(APP, "SELECT id FROM cards WHERE account = ?", (exp["card_account"],))
    fields = [
        ("p", exp["slug"]),
        ("room", str(room)),
        ("plan", policy),
        ("checkin", exp["check_in"]),
        ("checkout", exp["check_out"]),
        ("guests", str(exp["guests"])),
        ("card", str(card)),
        ("request", ""),
    ]
    _, location = web.post_form(APP, "/api/bookings", fields, expect=(303,))
    expect_confirmed(location, "booked=1")
    conf = location.split("/trips/")[1].split("?")[0]
    web.post_form(APP, "/api/messages", [("confirmation", conf), ("body", exp["message"])], expect=(303,))
    return f"Booked, confirmation {conf}."


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
    from apps.rides.tasks import SCHEDULE_MAX_DAYS

    if hi.astimezone(zone).replace(tzinfo=None) > world.now + dt.timedelta(days=SCHEDULE_MAX_DAYS):
        return []  # ZipRide schedules rides at most 30 days ahead: the ride home could not be booked yet
    landing = dt.datetime.fromisoformat(item["new_arrival"])
    conf, hotel = steps["hotel_check_in"]["confirmation"], stay.data["hotel"]
    who = companions[0]
    airport = home_leg["to"]
    from builder.reference.airports import airport_label

    pickup = airport_label(airport)
    task = Task(
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
                check=zipride.booked(pickup, "Home", lo.astimezone(zone).isoformat(), hi.astimezone(zone).isoformat()),
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
    return [
        effects.acting(
            task,
            ("rides", "the ride home", zipride.new_rides(1)),
            ("calendar", "the ride added", daybook.new_events(1)),
            ("messaging", f"the text to {who} (and the reply it draws)", parley.texts(1, 4)),
            ("workchat", "the status", huddle.new_posts(0, 0, status=True)),
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


#: Where the rental sits: after the last of Bramblestay's tasks of the stay ahead (and before them, of its past stays)
#: that the world has, this module's and scenarios/pairs/stays.py's among them.
BEFORE_RENTAL = (
    "leave-a-night-early",
    "cancel-upcoming",
    "upcoming-confirmation",
    "review-stay",
    "stay-abroad-exchange",
    "stay-room",
    FIRST,
)
#: The rental follows tasks of scenarios/pairs/stays.py (the upcoming stay's confirmation): placed after it.
AFTER_PAIRS = 1
SCENARIOS = [
    Scenario(
        home="stays",
        apps=("stays", "calendar"),
        tasks=early_tasks,
        solvers={"leave-a-night-early": leave_a_night_early},
        after="cancel-upcoming",
    ),
    Scenario(
        home="stays",
        apps=("stays", "bank"),
        tasks=rental_tasks,
        solvers={"book-rental": book_rental},
        after=BEFORE_RENTAL,
        rank=AFTER_PAIRS,
    ),
    Scenario(
        home="stays",
        apps=("stays", "airline", "rides", "messaging", "workchat", "calendar"),
        tasks=long_tasks,
        solvers={"trip-arrival-prep": trip_arrival_prep},
        rank=ERRANDS,
    ),
]
