"""Parley's (the messaging app's) errands across apps: its actions in or from a second app (a friend paid back in the
bank, a flight number from the booking mail, a dinner booked by mail told to a group) and a party's headcount from
the chat, with the calendar, mail, the shop and the bank; with their reference solutions."""

from __future__ import annotations

import datetime as dt

from apps.bank import steps as larkspur
from apps.calendar import steps as daybook
from apps.mail import steps as mailbox
from apps.messaging import steps as parley
from apps.messaging.seed import chat_contacts, groups
from apps.messaging.tasks import APP, DIRECT, GROUP, KIT, mine_written, time_forms
from apps.shop import steps as shopwell
from builder.money import money
from builder.tasks import answers, effects, kit
from builder.tasks import steps as S
from builder.tasks.collect import FIRST, Scenario
from builder.tasks.model import Change, RubricItem, Task
from builder.tasks.oracle import Web
from builder.world import World
from builder.world.calendar import reservation_time, trips
from builder.reference.locale import Fmt
from scenarios import ERRANDS


#: The bank's checks of a task in Parley that pays someone.
BANK = kit.Kit("bank", nothing_else="Nothing else changed in the bank: only {}")

#: Parley's own tasks its actions across apps follow, nearest first (the first the world has is the anchor).
OWN_BEFORE = ("create-group", "react", "reply-question", "messages-last-month", "dinner-time", FIRST)


def trip_ahead(world: World) -> tuple | None:
    """The persona's next trip with a flight booking (the first a Parley contact comes on, if any) as ``(trip, mate,
    flight number, departure)``: the mate is a companion in Parley, else the closest contact; the departure is the
    first leg's local time (naive). None without a booked trip ahead."""
    contacts = chat_contacts(world)
    names = {c.name for c in contacts}
    bookings = {b.data.get("trip"): b for b in world.of_kind("flight_booking")}
    ahead = [(i, t) for i, t in enumerate(trips(world)) if t.depart > world.now.date() and i in bookings]
    if not ahead:
        return None
    with_people = [(i, t) for i, t in ahead if any(n in names for n in t.companions)]
    i, t = (with_people or ahead)[0]
    closest = sorted(contacts, key=lambda c: (-(c.closeness or 0), c.name))
    mate = next((n for n in t.companions if n in names), None) or closest[0].name
    leg = bookings[i].data["itinerary"][0]
    return t, mate, leg["flight_number"], dt.datetime.fromisoformat(leg["dep_local"]).replace(tzinfo=None)


def followup_tasks(world: World) -> list[Task]:
    """Parley's actions in or from a second app: pay a friend back in the bank what they asked for in the chat, text
    a companion the flight number from the booking mail, tell a group the dinner booked by mail. Missing material
    gives no task."""
    fmt = Fmt(world.persona)
    cur = world.currency
    out: list[Task] = []

    task = KIT.adder(world, out)

    # 1. Pay back what a friend asked for in chat (the world's open money request), in the bank.
    requests = [e for e in world.of_kind("money_request") if not e.data.get("paid")]
    if requests:
        req = requests[-1]
        who, cents = req.data["contact"], req.data["amount_cents"]
        task(
            "pay-back",
            ["messaging", "bank"],
            kind="action",
            difficulty="hard",
            time_limit_seconds=480,
            instruction=f"{who.split()[0]} asked me in Parley to pay them back. Send {who} what they asked for from "
            "my checking account.",
            expected={"contact": who, "amount_cents": cents, "memo": req.data.get("memo"), "request": req.id},
            rubric=[
                RubricItem(
                    id="payment",
                    weight=70,
                    requirement=f"A new payment of {money(cents, cur)} to {who} left checking",
                    check=KIT.sql(
                        """SELECT COUNT(*) FROM transactions WHERE world_ref IS NULL
                                AND account_id = (SELECT id FROM accounts WHERE kind = ?) AND amount_cents = ?
                                AND (counterparty = ? OR instr(upper(description), upper(?)) > 0)""",
                        ["checking", -cents, who, who],
                        [[1]],
                        app="bank",
                    ),
                ),
                RubricItem(
                    id="single",
                    weight=15,
                    requirement="Exactly one payment was made (no duplicates)",
                    check=KIT.sql("SELECT COUNT(*) FROM transactions WHERE world_ref IS NULL", [], [[1]], app="bank"),
                ),
                BANK.only(
                    "the one payment and the checking balance",
                    Change(table="transactions", op="insert", min=1, max=1),
                    Change(table="accounts", op="update", min=1, max=1, columns=["balance_cents"]),
                ),
            ],
        )

    # 2. Text a travel companion the flight number of the next trip (the booking is in mail / calendar).
    ahead = trip_ahead(world)
    if ahead:
        t, mate, flight, dep = ahead
        task(
            "flight-number",
            ["messaging", "mail"],
            kind="action",
            difficulty="medium",
            time_limit_seconds=420,
            instruction=f"Text {mate} my flight number for the {t.destination} trip on {fmt.long_date(t.depart)} "
            "(it's in my booking confirmation).",
            expected={"contact": mate, "flight": flight, "departs": dep.isoformat(), "destination": t.destination},
            rubric=[
                RubricItem(
                    id="flight",
                    weight=85,
                    requirement=f"A new message to {mate} names the flight {flight}",
                    check=KIT.sql(
                        mine_written(DIRECT, "AND instr(replace(upper(body), ' ', ''), ?) > 0"),
                        [mate, flight.replace(" ", "").upper()],
                        [[1]],
                    ),
                ),
                KIT.only(
                    f"my one text to {mate} (and {mate.split()[0]}'s answer to it arriving)",
                    Change(table="messages", op="insert", min=1, max=2),
                ),
            ],
        )

    # 3. Tell a group about an upcoming dinner booking its members are on (the confirmation is in mail).
    upcoming = [b for b in world.of_kind("restaurant_booking") if reservation_time(world, b) > world.now]
    for b in sorted(upcoming, key=lambda b: (reservation_time(world, b), b.id)):
        g = next((g for g in groups(world) if set(g.members) <= set(b.data.get("companions") or [])), None)
        if g is None:
            continue
        when = reservation_time(world, b)
        forms = [f.lower() for f in time_forms(when)]
        task(
            "invite-group",
            ["messaging", "mail"],
            kind="action",
            difficulty="hard",
            time_limit_seconds=480,
            instruction=f"Let the \u201c{g.title}\u201d group know about my upcoming reservation at "
            f"{b.data['restaurant']} (the confirmation is in my mail): send them the day and time.",
            expected={
                "group": g.title,
                "restaurant": b.data["restaurant"],
                "at": when.isoformat(),
                "members": list(g.members),
            },
            rubric=[
                RubricItem(
                    id="restaurant",
                    weight=40,
                    requirement=f"A new message from me in {g.title} names {b.data['restaurant']}",
                    check=KIT.sql(
                        mine_written(GROUP, "AND instr(lower(body), lower(?)) > 0"),
                        [g.title, b.data["restaurant"]],
                        [[1]],
                    ),
                ),
                RubricItem(
                    id="time",
                    weight=30,
                    requirement=f"It gives the time {fmt.time(when)}",
                    check=KIT.sql(
                        mine_written(GROUP, "AND (" + " OR ".join(["instr(lower(body), ?) > 0"] * len(forms)) + ")"),
                        [g.title, *forms],
                        [[1]],
                    ),
                ),
                RubricItem(id="day", weight=15, requirement=f"It gives the day, {fmt.long_date(when)}"),
                KIT.only(
                    f"my one message to {g.title} (and the members' answers to it arriving)",
                    Change(table="messages", op="insert", min=1, max=1 + len(g.members)),
                ),
            ],
        )
        break
    return out


def long_tasks(world: World) -> list[Task]:
    """Parley's long-horizon chain: a guest's +1 to the persona's own party (``chain/party-headcount``)."""
    from builder.tasks.phrasing import day_phrase
    from builder.world.accounts import payment_cards

    p = world.persona
    chain, own = answers.planted(world, "chain/party-headcount"), answers.planted(world, "own_event/party")
    cards = payment_cards(world)
    present = shopwell.gift("candle")
    if not chain or not own or not cards or not present:
        return []
    by_id = {e.id: e for e in world.events}
    steps = {s["step"]: s for s in chain["steps"]}
    if not {"food_order", "headcount_change"} <= set(steps):
        return []
    conf, trigger, party = (
        by_id[steps["food_order"]["event_id"]],
        by_id[steps["headcount_change"]["event_id"]],
        by_id[chain["event_id"]],
    )
    deli, deli_email = conf.data["from"]["name"], conf.data["from"]["email"]
    asker = trigger.data["contact"]
    pending = [n for n, v in own["replies"].items() if v == "pending"]
    chatting = {c.name for c in S.chat_contacts(world)}
    pending = [n for n in pending if n in chatting]
    pickup = party.at - dt.timedelta(hours=2)
    card = cards[0]
    today = world.now.date()
    nudge = [
        RubricItem(
            id=f"nudge-{n}",
            weight=10 // len(pending) + (10 % len(pending) if n == 0 else 0),
            requirement=f"{who} (no answer yet) got a text from me in Parley",
            check=parley.sent_direct(who),
        )
        for n, who in enumerate(pending)
    ]
    if not pending:
        return []
    task = Task(
        id=f"{p.id}/messaging/party-headcount",
        persona=p.id,
        kind="action",
        category="long_horizon",
        apps_involved=[APP, "mail", "calendar", "shop", "bank"],
        difficulty="hard",
        time_limit_seconds=1500,
        planted=[chain["id"], own["id"]],
        instruction=f"A guest asked in Parley to bring someone to my party {day_phrase(party.at.date(), today)}. "
        "Make it work: tell them yes in Parley; email the caterer of my party food order to add one "
        "more person to it; put picking up the food in my calendar at the pickup time their confirmation "
        f"gives; text whoever hasn't answered my invitation yet to ask if they can make it; and order the "
        f"{present['title']} from Shopwell for the table, with my {card['label']}.",
        expected={
            "asker": asker,
            "deli": deli,
            "deli_email": deli_email,
            "order": chain["order"],
            "needed": chain["needed"],
            "pickup": pickup.isoformat(),
            "pending": pending,
            "sku": present["sku"],
            "card_last4": card["last4"],
            "party": party.data["title"],
        },
        rubric=[
            RubricItem(
                id="yes",
                weight=15,
                requirement=f"{asker} got a text from me in Parley",
                check=parley.sent_direct(asker),
            ),
            RubricItem(id="yes-says", weight=5, requirement="It says yes, the +1 is welcome (judge: read it)"),
            RubricItem(
                id="caterer",
                weight=20,
                requirement=f"A mail to {deli} ({deli_email}) about order {chain['order']} was sent",
                check=mailbox.sent(deli_email, [[chain["order"]]]),
            ),
            RubricItem(
                id="caterer-asks",
                weight=5,
                requirement=f"It asks to change the order from {chain['ordered_for']} to {chain['needed']} "
                "people (judge: read it)",
            ),
            RubricItem(
                id="pickup",
                weight=15,
                requirement=f"Daybook has picking up the food on {pickup:%b %-d} at {pickup:%H:%M}",
                check=daybook.created(pickup.strftime("%Y-%m-%dT%H:%M"), [["pick", "collect", "food"]]),
            ),
            *nudge,
            RubricItem(
                id="candles",
                weight=15,
                requirement=f"A Shopwell order of {present['title']} ({present['sku']}) with {card['label']}",
                check=shopwell.bought(present["sku"], card["last4"]),
            ),
            RubricItem(
                id="only-parley",
                weight=15,
                requirement="Nothing else changed in Parley: only my texts (and the replies they got)",
                check=parley.only_texts(1 + len(pending)),
            ),
        ],
    )
    return [
        effects.acting(
            task,
            ("mail", f"the mail to {deli} (and the answer it draws)", mailbox.new_mail(1)),
            ("calendar", "the pickup added", daybook.new_events(1)),
            ("shop", "the order for the table", shopwell.order_rows(1)),
        )
    ]


def party_headcount(task: Task, web: Web) -> str:
    """The +1 chain: yes to the guest, the caterer by mail, the pickup in Daybook, nudges, candles from Shopwell."""
    import datetime as dt

    exp = task.expected
    parley.send(web, exp["asker"], "Of course, bring them along! The more the merrier.")
    mailbox.send(
        web,
        exp["deli_email"],
        f"Order {exp['order']}: one more guest",
        f"Hello,\n\ncould you please change my order {exp['order']} to serve {exp['needed']} people instead of "
        f"{exp['needed'] - 1}? The pickup time stays the same.\n\nThank you!",
    )
    at = dt.datetime.fromisoformat(exp["pickup"])
    end = at + dt.timedelta(minutes=30)
    daybook.create(
        web,
        title="Pick up party food",
        date=f"{at:%Y-%m-%d}",
        start_time=f"{at:%H:%M}",
        end_date=f"{end:%Y-%m-%d}",
        end_time=f"{end:%H:%M}",
        description=f"Order {exp['order']}",
    )
    for who in exp["pending"]:
        parley.send(web, who, f"Hey! Can you make it to {exp['party']}? Let me know so I can plan the food.")
    shopwell.order(web, exp["sku"], 1, exp["card_last4"])
    return "Told the guest yes, asked the caterer for one more, added the pickup, nudged and ordered the candles."


def pay_back(task: Task, web: Web) -> str:
    """What the friend asked for, sent from checking with Larkspur Bank's Send money form."""
    exp = task.expected
    larkspur.send(web, exp["contact"], exp["amount_cents"], exp.get("memo") or "")
    return f"Sent {exp['contact']} {web.money(exp['amount_cents'])} from checking."


def flight_number(task: Task, web: Web) -> str:
    """The flight number from the booking confirmation, texted to the companion."""
    exp = task.expected
    parley.send(web, exp["contact"], f"My flight to {exp['destination']} is {exp['flight']}.")
    return f"Texted {exp['contact']} the flight number {exp['flight']}."


def invite_group(task: Task, web: Web) -> str:
    """The dinner's day and time from its confirmation mail, posted in the group."""
    exp = task.expected
    at = dt.datetime.fromisoformat(exp["at"])
    when = f"{at:%A, %B} {at.day} at {answers.clock(at)}"
    parley.group_post(web, exp["group"], f"I booked {exp['restaurant']} for {when}. See you there!")
    return f"Told {exp['group']} about {exp['restaurant']} on {when}."


SCENARIOS = [
    Scenario(
        home="messaging",
        apps=("messaging",),
        tasks=followup_tasks,
        solvers={"pay-back": pay_back, "flight-number": flight_number, "invite-group": invite_group},
        after=OWN_BEFORE,
    ),
    Scenario(
        home="messaging",
        apps=("messaging", "mail", "calendar", "shop", "bank"),
        tasks=long_tasks,
        solvers={"party-headcount": party_headcount},
        rank=ERRANDS,
    ),
]
