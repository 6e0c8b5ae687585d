"""Parley's answers summed or compared over several apps: the party food against the guests' answers (a
contradiction, placed after Parley's own one), and catching up on a person across Parley, the bank and mail (ids
``<persona>/messaging/x-...``)."""

from __future__ import annotations

import datetime as dt

from apps.messaging.tasks import APP, KIT
from builder.money import money
from builder.reference.banking import rail
from builder.tasks.collect import Scenario
from builder.tasks.model import RubricItem, Task
from builder.world import World
from scenarios import RECAPS
from scenarios.errands.messaging import OWN_BEFORE


def contradiction_tasks(world: World) -> list[Task]:
    """The food ordered for the persona's party against the guests who said they come (chat, the caterer's mail, the
    calendar): how many it serves, how many it must, the order and until when it can change; none without the
    planted party."""
    from builder.tasks import answers as A
    from builder.tasks.phrasing import day_phrase

    today = world.now.date()
    out: list[Task] = []

    task = KIT.adder(world, out)

    it = A.planted(world, "chain/party-headcount")
    own = A.planted(world, "own_event/party")
    if it and own:
        start = dt.datetime.fromisoformat(own["start"])
        change_by = dt.date.fromisoformat(it["change_by"])
        task(
            "cx-party-headcount",
            ["messaging", "mail", "calendar"],
            kind="lookup",
            category="contradiction",
            difficulty="hard",
            time_limit_seconds=600,
            instruction=f"For “{own['title']}” {day_phrase(start.date(), today)}, which I'm hosting: how many people is the food I "
            "ordered for, and how many does it need to be for now, going by what my guests have told me? "
            "What's the order number, and until when can I still change it?",
            expected={
                "order": it["order"],
                "ordered_for": it["ordered_for"],
                "needed": it["needed"],
                "change_by": it["change_by"],
            },
            planted=[it["id"], own["id"]],
            rubric=[
                RubricItem(
                    id="ordered",
                    weight=25,
                    requirement=f"Says the order serves {it['ordered_for']}",
                    check=A.number(it["ordered_for"]),
                ),
                RubricItem(
                    id="needed",
                    weight=35,
                    requirement=f"Says it needs to serve {it['needed']}",
                    check=A.number(it["needed"]),
                ),
                RubricItem(
                    id="order",
                    weight=20,
                    requirement=f"Gives the order number {it['order']}",
                    check=A.text(it["order"]),
                ),
                RubricItem(
                    id="change-by",
                    weight=20,
                    requirement=f"Says changes are possible until {change_by:%B %-d}",
                    check=A.text(*A.date_forms(change_by)),
                ),
            ],
        )
    return out


def crossapp_tasks(world: World) -> list[Task]:
    """For up to five contacts who text, email and exchange money with the persona: the day of their last text in
    Parley, of their last email, and the last payment between us (day, amount) by the country's person-to-person
    scheme (:func:`builder.reference.banking.rail`: Zelle in the US). Contacts lacking one of the three give no
    task."""
    from builder.tasks import answers as A

    p = world.persona
    pid, cur, now = p.id, world.currency, world.now
    out: list[Task] = []
    texts: dict[str, object] = {}
    for e in world.of_kind("chat_message"):
        if e.status == "done" and e.at <= now and e.data["sender"] == e.data["contact"]:
            texts[e.data["contact"]] = e
    mails: dict[str, object] = {}
    for e in world.of_kind("email"):
        if e.status == "done" and e.at <= now and e.data.get("folder") != "sent":
            mails[e.data["from"]["name"]] = e
    pays: dict[str, object] = {}
    for e in world.of_kind("p2p_payment"):
        if e.status == "done" and e.at <= now:
            pays[e.data["contact"]] = e
    openings = [
        "Catch me up on {first}",
        "When did I last hear from {first}?",
        "{first} check-in",
        "Remind me where things stand with {first}",
        "Quick one about {first}",
    ]
    people = [c.name for c in p.contacts if c.name in texts and c.name in mails and c.name in pays][:5]
    payment = rail(p.identity.address.country)["payment"]
    for i, name in enumerate(people):
        first = name.split()[0]
        t, m, z = texts[name], mails[name], pays[name]
        way = "I sent" if z.data["direction"] == "sent" else "I received"
        out.append(
            Task(
                id=f"{pid}/messaging/x-catch-up-{i + 1}",
                persona=pid,
                apps_involved=["bank", "mail", APP],
                kind="lookup",
                difficulty="medium",
                time_limit_seconds=900,
                instruction=openings[i % len(openings)].format(first=first)
                + f": on what day did {name} last text me on Parley, on what day did their last email come "
                f"in, and what was the last {payment} between us (day, amount, and which way)?",
                expected={
                    "contact": name,
                    "text_day": t.at.date().isoformat(),
                    "mail_day": m.at.date().isoformat(),
                    "zelle_day": z.at.date().isoformat(),
                    "zelle_cents": z.data["amount_cents"],
                    "direction": z.data["direction"],
                },
                rubric=[
                    RubricItem(
                        id="text",
                        weight=25,
                        requirement=f"Last text {t.at:%B %-d, %Y}",
                        check=A.text(*A.date_forms(t.at)),
                    ),
                    RubricItem(
                        id="mail",
                        weight=25,
                        requirement=f"Last email {m.at:%B %-d, %Y}",
                        check=A.text(*A.date_forms(m.at)),
                    ),
                    RubricItem(
                        id="zelle-day",
                        weight=20,
                        requirement=f"Last {payment} {z.at:%B %-d, %Y}",
                        check=A.text(*A.date_forms(z.at)),
                    ),
                    RubricItem(
                        id="zelle-amount",
                        weight=20,
                        requirement=f"…of {money(z.data['amount_cents'], cur)}",
                        check=A.amount(z.data["amount_cents"]),
                    ),
                    RubricItem(id="zelle-way", weight=10, requirement=f"…which {way}"),
                ],
            )
        )
    return out


SCENARIOS = [
    Scenario(
        home="messaging",
        apps=("messaging", "mail", "calendar"),
        tasks=contradiction_tasks,
        after=(
            "cx-plan-times",
            "p2p-amount",
            "invite-group",
            "trip-companion",
            "flight-number",
            "money-owed",
            "pay-back",
            *OWN_BEFORE,
        ),
    ),
    Scenario(home="messaging", apps=("messaging",), tasks=crossapp_tasks, rank=RECAPS),
]
