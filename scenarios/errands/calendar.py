"""Daybook's (the calendar's) errand across apps: a friend's birthday dinner planned through the calendar, mail, chat,
the restaurant, the shop and the bank; with its reference solution."""

from __future__ import annotations

import datetime as dt

from apps.bank import steps as larkspur
from apps.calendar import steps as daybook
from apps.calendar.tasks import APP
from apps.dining import steps as tabletime
from apps.mail import steps as mailbox
from apps.messaging import steps as parley
from apps.shop import steps as shopwell
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
    return [
        Task(
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
    ]


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


SCENARIOS = [
    Scenario(
        home="calendar",
        apps=("calendar", "shop", "bank", "dining", "mail", "messaging"),
        tasks=long_tasks,
        solvers={"birthday-dinner": birthday_dinner},
        rank=ERRANDS,
    )
]
