"""Parley's answers summed over several apps (ids ``<persona>/messaging/x-...``)."""

from __future__ import annotations

from apps.messaging.tasks import APP
from builder.money import money
from builder.tasks.collect import Scenario
from builder.tasks.model import RubricItem, Task
from builder.world import World
from scenarios import RECAPS


def crossapp_tasks(world: World) -> list[Task]:
    """For up to five contacts who text, email and exchange money with the persona: the day of their last text in
    Parley, of their last email, and the last Zelle payment between us (day, amount). Contacts lacking one of the
    three give no task."""
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
                "in, and what was the last Zelle payment between us (day, amount, and which way)?",
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
                        requirement=f"Last Zelle {z.at:%B %-d, %Y}",
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


SCENARIOS = [Scenario(home="messaging", apps=("messaging",), tasks=crossapp_tasks, rank=RECAPS)]
