"""Parley's two-app answer tasks: one question each whose answer needs exactly the two apps it names. Three sit among
its own tasks, after the actions they follow (what the persona still owes, who comes on the next trip, what was sent
a friend); the rest come last (ids ``<persona>/messaging/pair-...``, see :mod:`builder.tasks.pairs` for the shared
rules)."""

from __future__ import annotations

from apps.messaging.seed import chat_contacts
from apps.messaging.tasks import KIT, time_forms
from builder.money import money
from builder.tasks import answers as A
from builder.tasks import pairs as P
from builder.tasks.collect import Scenario
from builder.tasks.model import Check, RubricItem, Task
from builder.tasks.phrasing import month_phrase
from builder.world import World
from builder.reference.locale import Fmt
from scenarios import PAIRS
from scenarios.errands.messaging import OWN_BEFORE, trip_ahead


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
            expected={"companions": companions, "departs": dep.isoformat(), "flight": flight},
            rubric=[
                RubricItem(
                    id="who",
                    weight=50,
                    requirement=f"Names {', '.join(companions)}",
                    check=A.text(companions[0], companions[0].split()[0]),
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
            expected={"contact": who, "amount_cents": pay.data["amount_cents"], "memo": memo},
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


SCENARIOS = [
    Scenario(home="messaging", apps=("messaging", "bank"), tasks=owed_tasks, after=("pay-back", *OWN_BEFORE)),
    Scenario(home="messaging", apps=("messaging", "mail"), tasks=companion_tasks, after=("flight-number", *OWN_BEFORE)),
    Scenario(
        home="messaging",
        apps=("messaging", "bank"),
        tasks=p2p_tasks,
        after=("invite-group", "trip-companion", "flight-number", "money-owed", "pay-back", *OWN_BEFORE),
    ),
    Scenario(home="messaging", apps=("messaging",), tasks=pair_tasks, rank=PAIRS),
]
