"""Parley's two-app answer tasks: one question each whose answer needs exactly the two apps it names. Three sit among
its own tasks, after the actions they follow (what the persona still owes, who comes on the next trip, what was sent
a friend); the rest come last (ids ``<persona>/messaging/pair-...``, see :mod:`builder.tasks.pairs` for the shared
rules)."""

from __future__ import annotations

import datetime as dt
import re

from apps.mail.reader import booking_to, my_name, rebooked
from apps.messaging.reader import conversations, thread
from apps.messaging.seed import chat_contacts
from apps.messaging.tasks import KIT, time_forms
from builder.money import money
from builder.tasks import answers as A
from builder.tasks import pairs as P
from builder.tasks.collect import Scenario
from builder.tasks.model import Check, RubricItem, Task
from builder.tasks.reader import Reading, See, Unreadable, reader
from builder.tasks.dates import clock_text
from builder.tasks.phrasing import month_phrase
from builder.world import World
from builder.reference.locale import Fmt
from scenarios import PAIRS
from scenarios.errands.messaging import OWN_BEFORE, trip_ahead
from scenarios.views import airline_trip, airline_trips, p2p_with
from builder.tasks.matching import amounts


def pair_tasks(world: World) -> list[Task]:
    """Parley's pair tasks of ``world`` (empty when the world lacks their material)."""
    return P.collect(world, "messaging", _build)


def _build(world: World, task) -> None:
    today = world.now.date()
    me = world.persona.identity.name
    nxt = P.next_trip(world)
    if nxt:
        fb = nxt["booking"]
        friends = [n for n in fb.data["passengers"] if n != me]
        ref = {fb.id} | {f.id for f in nxt["flights"]}
        said = [
            m
            for m in P.done(world, "chat_message")
            if m.data.get("ref") in ref and m.data["sender"] != "me" and m.data.get("contact") in friends
        ]
        if said:
            who = said[-1].data["contact"]
            last = nxt["flights"][-1]
            dep = P.ts(nxt["flights"][0].data["dep_local"])
            back = P.ts(last.data["dep_local"])
            pnr = fb.data["pnr"]
            task(
                "pair-trip-friend-flight",
                ["messaging", "airline"],
                kind="lookup",
                difficulty="medium",
                time_limit_seconds=420,
                instruction=f"{who.split()[0]} has been texting me about our trip {month_phrase(dep.date(), today)}"
                ". What's our booking's confirmation code, and which flight brings us home on what day?",
                expected={
                    "friend": who,
                    "month": f"{dep:%Y-%m}",
                    "pnr": pnr,
                    "return_flight": last.data["flight_number"],
                    "return_departs": last.data["dep_local"],
                },
                rubric=[
                    RubricItem(id="pnr", weight=40, requirement=f"Gives {pnr}", check=A.text(pnr)),
                    RubricItem(
                        id="flight",
                        weight=35,
                        requirement=f"Names {last.data['flight_number']}",
                        check=A.text(last.data["flight_number"], last.data["flight_number"].replace(" ", "")),
                    ),
                    RubricItem(
                        id="day",
                        weight=25,
                        requirement=f"Leaves {back:%B %d}",
                        check=A.text(*A.date_forms(back.date())),
                    ),
                ],
            )


def owed_tasks(world: World) -> list[Task]:
    """Who the persona still has to pay back and how much in all: the open requests in Parley, none paid in the bank
    yet; none without an open request."""
    requests = [e for e in world.of_kind("money_request") if not e.data.get("paid")]
    cur = world.currency
    out: list[Task] = []
    task = KIT.adder(world, out)
    if requests:
        total = sum(e.data["amount_cents"] for e in requests)
        owed = sorted({e.data["contact"] for e in requests})
        task(
            "money-owed",
            ["messaging", "bank"],
            kind="aggregation",
            difficulty="medium",
            time_limit_seconds=480,
            instruction="Some friends asked me in Parley to pay them back. Checking my bank for what I have already "
            "sent, who am I still waiting to pay, and how much do I owe in total?",
            expected={"contacts": owed, "total_cents": total, "requests": len(requests)},
            rubric=[
                RubricItem(
                    id="total",
                    weight=60,
                    requirement=f"States the total {money(total, cur)}",
                    check=Check(type="answer_amount", cents=total),
                ),
                RubricItem(
                    id="who",
                    weight=40,
                    requirement=f"Names {', '.join(owed)}",
                    check=A.text(*owed) if len(owed) == 1 else None,
                ),
            ],
        )
    return out


def companion_tasks(world: World) -> list[Task]:
    """Who comes along on the next trip (Parley) and when its flight leaves (the booking mail); none without a trip
    ahead that a Parley contact comes on."""
    out: list[Task] = []
    task = KIT.adder(world, out)
    ahead = trip_ahead(world)
    names = {c.name for c in chat_contacts(world)}
    if not ahead:
        return out
    t, _, flight, dep = ahead
    fmt = Fmt(world.persona)
    companions = [n for n in t.companions if n in names]
    if companions:
        task(
            "trip-companion",
            ["messaging", "mail"],
            kind="lookup",
            difficulty="medium",
            time_limit_seconds=420,
            instruction=f"Who is coming with me to {t.destination}, and what time does our outbound flight leave?",
            expected={
                "destination": t.destination,
                "companions": companions,
                "departs": dep.isoformat(),
                "flight": flight,
            },
            rubric=[
                RubricItem(
                    id="who",
                    weight=50,
                    requirement=f"Names {', '.join(companions)}",
                    check=A.text(*A.person_among(companions[0], [c.name for c in world.persona.contacts])),
                ),
                RubricItem(
                    id="time",
                    weight=50,
                    requirement=f"States the departure {fmt.time(dep)}",
                    check=A.text(*time_forms(dep)),
                ),
            ],
        )
    return out


def p2p_tasks(world: World) -> list[Task]:
    """How much the persona sent a friend, as they told them in Parley (the bank shows the same); none without such a
    payment."""
    names = {c.name for c in chat_contacts(world)}
    msgs = [e for e in world.of_kind("chat_message") if e.status == "done" and e.data.get("contact") in names]
    events = {e.id: e for e in world.events}
    fmt = Fmt(world.persona)
    cur = world.currency
    out: list[Task] = []
    task = KIT.adder(world, out)
    paid = [
        events[e.data["ref"]]
        for e in msgs
        if e.data.get("ref") in events
        and events[e.data["ref"]].kind == "p2p_payment"
        and events[e.data["ref"]].data["direction"] == "sent"
    ]
    if paid:
        pay = paid[-1]
        who, memo = pay.data["contact"], pay.data.get("memo") or "that"
        task(
            "p2p-amount",
            ["messaging", "bank"],
            kind="lookup",
            difficulty="easy",
            time_limit_seconds=300,
            instruction=f"How much did I send {who} for \u201c{memo}\u201d on {fmt.date(pay.at)}?",
            expected={
                "contact": who,
                "day": pay.at.date().isoformat(),
                "amount_cents": pay.data["amount_cents"],
                "memo": memo,
            },
            rubric=[
                RubricItem(
                    id="amount",
                    weight=100,
                    requirement=f"States {money(pay.data['amount_cents'], cur)}",
                    check=Check(type="answer_amount", cents=pay.data["amount_cents"]),
                )
            ],
        )
    return out


# --- independent readers (builder.tasks.reader): Parley's chats, the bank's ledger, the mail, Meridian Air --------

#: How a friend asks for their share of a bill (en and de): "your share", "your half came to", "pay me back", "dein
#: Anteil", "deine Hälfte", "zahl's mir zurück"...
_ASK = re.compile(
    r"your (share|half|portion)|pay me back|for you\b|whenever|(dein|ihr) anteil|deine hälfte|zahl.s mir zurück"
    r"|für dich|wann immer|pro person",
    re.I,
)


def asks_to_pay(see: See) -> list[dict]:
    """The messages in which a contact asks the persona to pay them back (an amount of money and an asking
    phrase), oldest first: each ``{contact, at, cents, text}``."""
    out = []
    for c in conversations(see):
        if c["kind"] != "direct":
            continue
        for m in thread(see, c["id"]):
            if m["mine"] or not _ASK.search(m["text"]):
                continue
            stated = amounts(m["text"])  # in any currency: "$12.50", "PKR 1,639", "571,17 THB", "F CFA7,339"
            if len(stated) == 1:
                out.append({"contact": c["name"], "at": m["at"], "cents": stated.pop(), "text": m["text"]})
    return sorted(out, key=lambda r: r["at"])


@reader()
def read_money_owed(see: See, given: dict) -> Reading:
    asks, steps, owed = asks_to_pay(see), [], []
    for a in asks:
        paid = [
            p
            for p in p2p_with(see, a["contact"])
            if p["direction"] == "sent" and p["day"] >= a["at"].date() and -p["cents"] == a["cents"]
        ]
        if paid:
            steps.append(f"{a['contact']} asked {a['cents'] / 100:.2f} on {a['at']:%Y-%m-%d}: paid {paid[-1]['day']}")
        else:
            owed.append(a)
            steps.append(
                f"{a['contact']} asked {a['cents'] / 100:.2f} on {a['at']:%Y-%m-%d} (\u201c{a['text']}\u201d): "
                "no payment to them since in the bank"
            )
    if not owed:
        raise Unreadable("no open request to pay someone back in Parley")
    names = sorted({a["contact"] for a in owed})
    total = sum(a["cents"] for a in owed)
    return Reading(values={"total": total, "who": ", ".join(names)}, steps=[*steps, f"still owed: {total / 100:.2f}"])


@reader("contact", "memo", "day")
def read_p2p_amount(see: See, given: dict) -> Reading:
    who, memo, day = given["contact"], given["memo"], dt.date.fromisoformat(given["day"])
    rows = [p for p in p2p_with(see, who) if p["direction"] == "sent" and p["day"] == day]
    match = [p for p in rows if p["memo"].strip().lower() == memo.strip().lower()] or rows
    if len(match) != 1:
        raise Unreadable(f"{len(match)} payments to {who} on {day} (memo {memo!r}) in the bank")
    p = match[0]
    return Reading(
        values={"amount": abs(p["cents"])},
        steps=[f"bank: {p['day']} {p['description']} memo {p['memo']!r}: {p['cents'] / 100:.2f}"],
    )


@reader("destination")
def read_trip_companion(see: See, given: dict) -> Reading:
    b = booking_to(see, given["destination"])
    me = my_name(see)
    names = {c["name"] for c in conversations(see) if c["kind"] == "direct"}
    others = [t for t in b["travellers"] if t != me]
    companions = [t for t in others if t in names]
    if not companions:
        raise Unreadable(f"booking {b['pnr']} lists no Parley contact besides me ({b['travellers']})")
    out = b["segments"][0]
    flight, day, time = out["flight"], out["dep_day"], out["dep_time"]
    steps = [
        f"booking {b['pnr']} ({b['at']:%Y-%m-%d}): travellers {', '.join(b['travellers'])}; "
        f"{flight} departs {day} {clock_text(time)}"
    ]
    for c in b["changes"]:
        new = rebooked(c, b)
        if new:
            flight, day, time = new
            steps.append(
                f"{c['at']:%Y-%m-%d} \u201c{c['subject']}\u201d: rebooked on {flight}, {day} {clock_text(time)}"
            )
    return Reading(values={"who": companions[0], "time": clock_text(time)}, steps=steps)


@reader("friend", "month")
def read_trip_friend_flight(see: See, given: dict) -> Reading:
    friend, month = given["friend"], given["month"]
    trips = [airline_trip(see, pnr) for pnr in airline_trips(see, "upcoming")]
    ours = [
        t
        for t in trips
        if friend in t["travellers"]
        and t["journeys"].get("outbound")
        and t["journeys"]["outbound"][0]["dep_day"].strftime("%Y-%m") == month
    ]
    if len(ours) != 1:
        raise Unreadable(f"{len(ours)} upcoming trips in {month} with {friend} on Meridian Air")
    t = ours[0]
    home = (t["journeys"].get("return") or [None])[-1]
    if home is None:
        raise Unreadable(f"trip {t['pnr']} has no return flight")
    return Reading(
        values={"pnr": t["pnr"], "flight": home["flight"], "day": home["dep_day"].isoformat()},
        steps=[
            f"My Trips: {t['title']} {t['pnr']} with {', '.join(t['travellers'])}; home on {home['flight']} "
            f"{home['origin']}\u2192{home['destination']} leaving {home['dep_day']} {home['dep_time']}"
        ],
    )


SCENARIOS = [
    Scenario(
        home="messaging",
        apps=("messaging", "bank"),
        tasks=owed_tasks,
        readers={"money-owed": read_money_owed},
        after=("pay-back", *OWN_BEFORE),
    ),
    Scenario(
        home="messaging",
        apps=("messaging", "mail"),
        tasks=companion_tasks,
        readers={"trip-companion": read_trip_companion},
        after=("flight-number", *OWN_BEFORE),
    ),
    Scenario(
        home="messaging",
        apps=("messaging", "bank"),
        tasks=p2p_tasks,
        readers={"p2p-amount": read_p2p_amount},
        after=("invite-group", "trip-companion", "flight-number", "money-owed", "pay-back", *OWN_BEFORE),
    ),
    Scenario(
        home="messaging",
        apps=("messaging",),
        tasks=pair_tasks,
        readers={"pair-trip-friend-flight": read_trip_friend_flight},
        rank=PAIRS,
    ),
]
