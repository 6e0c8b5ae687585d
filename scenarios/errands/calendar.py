"""Daybook's (the calendar's) errands across apps: its actions that read or answer mail (decline an invitation, a
delivery day, a flight blocked at work) and a friend's birthday dinner planned through the calendar, mail, chat, the
restaurant, the shop and the bank; with their reference solutions."""

from __future__ import annotations

import datetime as dt

from apps.bank import steps as larkspur
from apps.calendar import steps as daybook
from apps.calendar.seed import invitation_ids, is_invitation, uid_of
from apps.calendar.tasks import APP, KIT, new_event
from apps.calendar.worldview import occurrences
from apps.dining import steps as tabletime
from apps.mail import steps as mailbox
from apps.messaging import steps as parley
from apps.shop import steps as shopwell
from builder.tasks import effects
from builder.tasks.collect import Scenario
from builder.tasks.model import Change, Check, RubricItem, Task
from builder.tasks.oracle import Web
from builder.world import World
from scenarios import ERRANDS


def long_tasks(world: World) -> list[Task]:
    """Daybook's long-horizon chain: a friend's birthday coming up (present, dinner, calendar, the others)."""
    from collections import Counter

    from builder.tasks.phrasing import day_phrase
    from builder.world.accounts import payment_cards

    p = world.persona
    contacts = {c.name.split()[0]: c for c in p.contacts}
    chatting = {c.name for c in p.contacts if "chat" in (c.apps or []) and c.phone}
    horizon = world.now + dt.timedelta(days=21)

    def whose(title: str):
        """The contact a birthday entry is for ("Jonah's birthday", "Geburtstag Uwe"), or None."""
        words = set(title.replace("'s", " ").split())
        return next((c for first, c in contacts.items() if first in words), None)

    bday = next(
        (
            e
            for e in sorted(world.of_kind("calendar_event"), key=lambda e: e.at)
            if e.data.get("source") == "birthday"
            and world.now < e.at <= horizon
            and (c := whose(e.data["title"])) is not None
            and c.relationship in ("friend", "roommate")
            and c.name in chatting
        ),
        None,
    )
    cards = payment_cards(world)
    present = shopwell.gift("board-game")
    if not bday or not cards or not present:
        return []
    who = whose(bday.data["title"])
    friends = Counter(
        n
        for e in world.of_kind("restaurant_booking")
        if e.at <= world.now
        for n in e.data.get("companions") or ()
        if n != who.name and n in chatting
    )
    others = sorted(friends, key=lambda n: (-friends[n], n))[:2]
    places = tabletime.restaurants_by_visits(world)
    if len(others) < 2 or not places:
        return []
    place, day, time, card = places[0], bday.at.date(), "19:30", cards[0]
    party = 2 + len(others)
    first = who.name.split()[0]
    title = f"{first}'s birthday"
    task = Task(
        id=f"{p.id}/calendar/birthday-dinner",
        persona=p.id,
        kind="action",
        category="long_horizon",
        apps_involved=[APP, "shop", "bank", "dining", "mail", "messaging"],
        difficulty="hard",
        time_limit_seconds=1500,
        instruction=f"{first}'s birthday is {day_phrase(day, world.now.date())}. Order the {present['title']} "
        f"({present['variant']}) from Shopwell as a present, to my home, with my {card['label']}; book a "
        f"table at the restaurant I've booked most on TableTime for {party} that evening at 7:30 pm "
        f"({first}, me, {others[0]} and {others[1]}); add it to my calendar from the confirmation email; "
        f'and start a Parley group called "{title}" with {others[0].split()[0]} and '
        f"{others[1].split()[0]} (not {first}, it's a surprise) telling them where and when.",
        expected={
            "sku": present["sku"],
            "card_last4": card["last4"],
            "slug": place["slug"],
            "restaurant": place["name"],
            "day": day.isoformat(),
            "time": time,
            "party": party,
            "crew": others,
            "title": title,
            "friend": who.name,
        },
        rubric=[
            RubricItem(
                id="present",
                weight=15,
                requirement=f"A Shopwell order of {present['title']} ({present['sku']}) with {card['label']}",
                check=shopwell.bought(present["sku"], card["last4"]),
            ),
            RubricItem(
                id="charged",
                weight=5,
                requirement="The order's charge reached the card",
                check=larkspur.card_charged("shop"),
            ),
            RubricItem(
                id="booked",
                weight=25,
                requirement=f"{place['name']} booked for {party} on {day} at {time}",
                check=tabletime.booked(place["slug"], day.isoformat(), time, party),
            ),
            RubricItem(
                id="calendar",
                weight=15,
                requirement=f"Daybook has the dinner at {place['name']} on {day}",
                check=daybook.created(f"{day}T{time}", [[place["name"]]]),
            ),
            RubricItem(
                id="group",
                weight=20,
                requirement=f"A Parley group with {others[0]} and {others[1]} (only) names {place['name']}",
                check=parley.sent_group(others, [[place["name"]]]),
            ),
            RubricItem(
                id="group-says",
                weight=5,
                requirement=f"It gives the time and keeps it a surprise from {first} (judge: read it)",
            ),
            RubricItem(
                id="only-calendar",
                weight=15,
                requirement="Nothing else changed in Daybook: only the dinner added",
                check=Check(
                    type="state_diff",
                    app=APP,
                    ignore=["sessions"],
                    changes=[
                        Change(table="events", op="insert", min=1, max=1),
                        Change(table="reminders", op="insert", min=0, max=1),
                        Change(table="attendees", op="insert", min=0),
                    ],
                ),
            ),
        ],
    )
    return [
        effects.acting(
            task,
            ("shop", "the present ordered", shopwell.order_rows(1)),
            ("dining", "the table booked", tabletime.new_booking()),
            ("messaging", "the group and its message (and the replies)", parley.texts(1, 4, groups=1)),
        )
    ]


def mail_tasks(world: World) -> list[Task]:
    """Daybook's actions that read or answer mail: decline an invitation (the reply goes out by mail), put the
    delivery day from a shipping mail on the calendar, block the work calendar for the flight in the airline's
    confirmation mail. Missing material gives no task."""
    p = world.persona
    now = world.now
    occs = occurrences(world)
    out: list[Task] = []

    task = KIT.adder(world, out)

    # 1. Decline an invitation (calendar + the reply in mail).
    invited = [
        o
        for o in occs
        if o.source in ("meeting", "life_event")
        and o.start > now
        and not o.series
        and is_invitation(world, _event(world, o.id))
    ]
    if invited:
        o = invited[0]
        ev = _event(world, o.id)
        org = o.data["organizer"]
        task(
            "decline-invitation",
            ["calendar", "mail"],
            kind="action",
            difficulty="medium",
            time_limit_seconds=360,
            instruction=f'Decline {org["name"]}\'s invitation to "{o.title}" on {o.start:%A, %B} {o.start.day} '
            "so they get my reply.",
            expected={
                "event": o.id,
                "uid": uid_of(ev),
                "organizer": org["email"],
                "in_reply_to": invitation_ids(world).get(o.id),
            },
            rubric=[
                RubricItem(
                    id="rsvp",
                    weight=50,
                    requirement="My RSVP on the event is DECLINED",
                    check=KIT.sql(
                        """SELECT partstat FROM attendees WHERE event_id = ? AND is_self = 1
                                              AND responded_at IS NOT NULL""",
                        [o.id],
                        [["DECLINED"]],
                    ),
                ),
                RubricItem(
                    id="reply",
                    weight=35,
                    requirement=f"A reply 'Declined: {o.title}' went to {org['email']} through mail",
                    check=KIT.sql(
                        """SELECT COUNT(*) FROM rsvp_replies WHERE event_id = ? AND partstat = ?
                                              AND mail_status = ?""",
                        [o.id, "DECLINED", "sent"],
                        [[1]],
                    ),
                ),
                KIT.only(
                    "my answer on that one invitation and its one reply",
                    Change(table="attendees", op="update", min=1, max=1, columns=["partstat", "responded_at"]),
                    Change(table="rsvp_replies", op="insert", min=1, max=1),
                ),
            ],
        )

    # 2. Package delivery from the shipping notice (mail -> calendar).
    shipped = {}
    for mail in world.of_kind("email"):
        subj = mail.data.get("subject") or ""
        if subj.startswith("Shipped:") and mail.at <= now:
            shipped[subj.rsplit(" ", 1)[-1]] = mail
    deliveries = [e for e in world.of_kind("retail_delivery") if e.at > now and e.data.get("order_id") in shipped]
    if deliveries:
        d = deliveries[0]
        day = d.at.date()
        oid = d.data["order_id"]
        task(
            "delivery-to-calendar",
            ["mail", "calendar"],
            kind="action",
            difficulty="medium",
            time_limit_seconds=420,
            instruction=f'My order {oid} has shipped. Put an all-day event "Package delivery" on my personal '
            "calendar on the estimated delivery day from the shipping email.",
            expected={"order_id": oid, "date": day.isoformat()},
            rubric=[
                RubricItem(
                    id="event",
                    weight=70,
                    requirement=f"A new all-day event on {day.isoformat()}",
                    check=KIT.sql(
                        """SELECT COUNT(*) FROM events WHERE world_ref IS NULL AND all_day = 1
                                              AND start_local = ? AND end_local = ?""",
                        [day.isoformat(), (day + dt.timedelta(days=1)).isoformat()],
                        [[1]],
                    ),
                ),
                RubricItem(
                    id="title",
                    weight=15,
                    requirement="Its title mentions the delivery, on the personal calendar",
                    check=KIT.sql(
                        """SELECT COUNT(*) FROM events WHERE world_ref IS NULL AND calendar_id = ?
                                              AND instr(lower(title), ?) > 0""",
                        ["personal", "deliver"],
                        [[1]],
                    ),
                ),
                new_event("the one new delivery event"),
            ],
        )

    # 3. The next trip: block the outbound flight at work.
    upcoming = [t for t in (p.travel.trips if p.travel else []) if t.depart > now.date()]
    if upcoming:
        t = upcoming[0]
        flights = [o for o in occs if o.source == "flight" and t.depart <= o.start.date() <= t.return_]
        if flights:
            f = flights[0]
            s_utc = (
                dt.datetime.fromisoformat(f.data["start"]).astimezone(dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
            )
            e_utc = dt.datetime.fromisoformat(f.data["end"]).astimezone(dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
            task(
                "block-flight",
                ["mail", "calendar"],
                kind="action",
                difficulty="hard",
                time_limit_seconds=540,
                instruction=f"Using the airline's booking confirmation in my mail, block my work calendar as "
                f'"Out of office - travel" from the departure to the arrival of my first flight to '
                f"{t.destination}. Mind the time zones.",
                expected={"start_utc": s_utc, "end_utc": e_utc, "flight": f.title},
                rubric=[
                    RubricItem(
                        id="span",
                        weight=70,
                        requirement=f"A new work event from {f.data['start']} to {f.data['end']}",
                        check=KIT.sql(
                            """SELECT COUNT(*) FROM events WHERE world_ref IS NULL AND calendar_id = ?
                                                  AND start_utc = ? AND end_utc = ?""",
                            ["work", s_utc, e_utc],
                            [[1]],
                        ),
                    ),
                    RubricItem(
                        id="title",
                        weight=15,
                        requirement="Titled 'Out of office - travel'",
                        check=KIT.sql(
                            """SELECT COUNT(*) FROM events WHERE world_ref IS NULL
                                                  AND instr(lower(title), ?) > 0""",
                            ["out of office"],
                            [[1]],
                        ),
                    ),
                    new_event("the one new out-of-office event"),
                ],
            )
    return out


def _event(world: World, event_id: str):
    return next(e for e in world.of_kind("calendar_event") if e.id == event_id)


def birthday_dinner(task: Task, web: Web) -> str:
    """The present from Shopwell, the table at TableTime, into Daybook from its mail, the surprise group in Parley."""

    exp = task.expected
    shopwell.order(web, exp["sku"], 1, exp["card_last4"])
    conf = tabletime.book(web, exp["slug"], exp["day"], exp["time"], exp["party"])
    mailbox.add_to_calendar(web, conf)
    parley.group_send(
        web,
        exp["title"],
        exp["crew"],
        f"Surprise dinner for {exp['friend'].split()[0]}: "
        f"{exp['restaurant']}, {exp['day']} at {exp['time']}. "
        "Don't tell!",
    )
    return f"Ordered the present, booked {exp['restaurant']} ({conf}), added it to the calendar and told the others."


def decline_invitation(task: Task, web: Web) -> str:
    """No on the invitation in Daybook; its reply goes to the organizer by mail."""
    exp = task.expected
    daybook.answer(web, exp["event"], "no")
    return f"Declined; the reply went to {exp['organizer']}."


def delivery_to_calendar(task: Task, web: Web) -> str:
    """An all-day "Package delivery" on the day the shipping mail gives."""
    exp = task.expected
    daybook.create(
        web,
        title="Package delivery",
        date=exp["date"],
        end_date=exp["date"],
        all_day="1",
        calendar="personal",
        description=f"Order {exp['order_id']}",
    )
    return f'Added an all-day "Package delivery" on {exp["date"]}.'


def block_flight(task: Task, web: Web) -> str:
    """The work calendar blocked from the flight's departure to its arrival, entered in UTC as the mail gives them."""
    exp = task.expected
    start = dt.datetime.strptime(exp["start_utc"], "%Y-%m-%dT%H:%M:%SZ")
    end = dt.datetime.strptime(exp["end_utc"], "%Y-%m-%dT%H:%M:%SZ")
    daybook.create(
        web,
        title="Out of office - travel",
        date=f"{start:%Y-%m-%d}",
        start_time=f"{start:%H:%M}",
        end_date=f"{end:%Y-%m-%d}",
        end_time=f"{end:%H:%M}",
        timezone="UTC",
        calendar="work",
        description=exp["flight"],
    )
    return f"Blocked the work calendar for {exp['flight']}, {exp['start_utc']} to {exp['end_utc']}."


SCENARIOS = [
    Scenario(
        home="calendar",
        apps=("calendar", "mail"),
        tasks=mail_tasks,
        solvers={
            "decline-invitation": decline_invitation,
            "delivery-to-calendar": delivery_to_calendar,
            "block-flight": block_flight,
        },
        after=("move-standup", "conflicts-next-week", "meetings-last-week"),
    ),
    Scenario(
        home="calendar",
        apps=("calendar", "shop", "bank", "dining", "mail", "messaging"),
        tasks=long_tasks,
        solvers={"birthday-dinner": birthday_dinner},
        rank=ERRANDS,
    ),
]
