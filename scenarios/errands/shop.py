"""Shopwell's errands across apps: a birthday present while away, or one to send; with the reference solution."""

from __future__ import annotations

import datetime as dt

from apps.calendar import steps as daybook
from apps.dining import steps as tabletime
from apps.mail import steps as mailbox
from apps.messaging import steps as parley
from apps.shop import steps as shopwell
from apps.shop.tasks import APP, in_use
from builder.tasks.collect import Scenario
from builder.tasks.model import RubricItem, Task
from builder.tasks.oracle import Web
from builder.world import World
from builder.world.accounts import payment_cards
from scenarios import ERRANDS


def long_tasks(world: World) -> list[Task]:
    """Shopwell's long-horizon chain: the parent's birthday falls while the persona is away on the next trip."""
    from builder.tasks import steps as S
    from builder.tasks.model import Change as _Change
    from builder.tasks.phrasing import day_phrase
    from builder.world.planted import airline_flights

    p = world.persona
    parent = next((c for c in p.contacts if c.relationship == "parent" and c.email), None)
    sibling = next((c for c in p.contacts if c.relationship == "sibling"), None)
    cards = payment_cards(world)
    present = shopwell.gift("cashmere-scarf")
    if not parent or not sibling or not cards or not present:
        return []
    moved = airline_flights(world)
    legs = [{**f.data, **moved.get(f.id, {})} for f in world.of_kind("flight")]
    now = world.now.isoformat()
    trips: dict[int, list[dict]] = {}
    for d in legs:
        trips.setdefault(d["trip"], []).append(d)
    first = parent.name.split()[0]
    bday = next(
        (
            e
            for e in world.of_kind("calendar_event")
            if e.data.get("source") == "birthday" and e.data["title"].startswith(f"{first}'s") and e.at > world.now
        ),
        None,
    )
    if not bday:
        return []
    away = next(
        (
            t
            for t in trips.values()
            if min(d["dep_local"] for d in t)[:19] > now
            and min(d["dep_local"] for d in t)[:10] <= bday.at.date().isoformat() <= max(d["arr_local"] for d in t)[:10]
        ),
        None,
    )
    places = tabletime.restaurants_by_visits(world, {sibling.name}) or tabletime.restaurants_by_visits(world)
    if not away or not places:
        return []
    back = dt.date.fromisoformat(max(d["arr_local"] for d in away)[:10])
    dinner = back + dt.timedelta(days=2)
    place, time, card, day = places[0], "19:00", cards[0], bday.at.date()
    dest = next(d["to"] for d in sorted(away, key=lambda d: d["dep_utc"]) if d.get("direction") == "outbound")
    from builder.reference.airports import airport_label

    return [
        Task(
            id=f"{p.id}/{APP}/birthday-while-away",
            persona=p.id,
            kind="action",
            category="long_horizon",
            apps_involved=[APP, "bank", "airline", "calendar", "dining", "mail", "messaging"],
            difficulty="hard",
            time_limit_seconds=1800,
            instruction=f"{first}'s birthday is {day_phrase(day, world.now.date())}, while I'm away. Order the "
            f"{present['title']} ({present['variant']}) from Shopwell for {first}, to my home, with my "
            f'{card["label"]}; put "Call {first}" in my calendar at 10 am on the birthday; book a table for '
            f"three ({first}, {sibling.name.split()[0]} and me) at the restaurant {sibling.name.split()[0]} and "
            f"I have booked together most, at 7 pm on the second day after I fly back; email {first} that I'll "
            f"call on the day and invite them to that dinner; and text {sibling.name.split()[0]} in Parley "
            "where and when the dinner is.",
            expected={
                "sku": present["sku"],
                "card_last4": card["last4"],
                "birthday": day.isoformat(),
                "parent": parent.name,
                "parent_email": parent.email,
                "sibling": sibling.name,
                "slug": place["slug"],
                "restaurant": place["name"],
                "day": dinner.isoformat(),
                "time": time,
                "party": 3,
                "away_to": airport_label(dest),
                "back": back.isoformat(),
            },
            rubric=[
                RubricItem(
                    id="present",
                    weight=15,
                    requirement=f"A Shopwell order of {present['title']} ({present['sku']}) with {card['label']}",
                    check=shopwell.bought(present["sku"], card["last4"]),
                ),
                RubricItem(
                    id="call",
                    weight=15,
                    requirement=f'Daybook has "Call {first}" on {day} at 10:00',
                    check=daybook.created(f"{day}T10:00", [["call"]]),
                ),
                RubricItem(
                    id="booked",
                    weight=20,
                    requirement=f"{place['name']} booked for 3 on {dinner} at {time} (I fly back {back})",
                    check=tabletime.booked(place["slug"], dinner.isoformat(), time, 3),
                ),
                RubricItem(
                    id="mail",
                    weight=15,
                    requirement=f"A mail to {parent.name} ({parent.email}) names {place['name']}",
                    check=mailbox.sent(parent.email, [[place["name"]]]),
                ),
                RubricItem(
                    id="sibling",
                    weight=15,
                    requirement=f"{sibling.name} got a text naming {place['name']}",
                    check=parley.sent_direct(sibling.name, [[place["name"]]]),
                ),
                RubricItem(
                    id="says",
                    weight=5,
                    requirement="The mail says I'll call on the birthday and invites to the "
                    "dinner with its day and time (judge: read it)",
                ),
                RubricItem(
                    id="only-shop",
                    weight=15,
                    requirement="Nothing else changed at Shopwell: only the one order",
                    check=S.diff(
                        "shop",
                        _Change(table="orders", op="insert", min=1, max=1),
                        _Change(table="order_items", op="insert", min=1, max=1),
                        _Change(table="cart_items", op="insert", min=0),
                        _Change(table="cart_items", op="delete", min=0),
                    ),
                ),
            ],
        )
    ]


def birthday_while_away(task: Task, web: Web) -> str:
    """The present, the call in Daybook, the family dinner at TableTime, the mail to the parent, the sibling."""

    exp = task.expected
    shopwell.order(web, exp["sku"], 1, exp["card_last4"])
    first = exp["parent"].split()[0]
    daybook.create(
        web, title=f"Call {first}", date=exp["birthday"], start_time="10:00", end_date=exp["birthday"], end_time="10:30"
    )
    tabletime.book(web, exp["slug"], exp["day"], exp["time"], exp["party"])
    mailbox.send(
        web,
        exp["parent_email"],
        "Happy birthday soon!",
        f"I'm away on your birthday, so I'll call you that morning. And let's celebrate when I'm back: dinner "
        f"at {exp['restaurant']} on {exp['day']} at {exp['time']}, with {exp['sibling'].split()[0]}. Love you!",
    )
    parley.send(
        web,
        exp["sibling"],
        f"Birthday dinner for {first}: {exp['restaurant']}, {exp['day']} at "
        f"{exp['time']}. I booked for the three of us.",
    )
    return f"Ordered the present, added the call, booked {exp['restaurant']} and told both."


SCENARIOS = [
    Scenario(
        home="shop",
        apps=("shop", "calendar"),
        tasks=long_tasks,
        solvers={"birthday-while-away": birthday_while_away},
        rank=ERRANDS,
        when=in_use,
    )
]
