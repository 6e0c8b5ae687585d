"""Parley's (the messaging app's) errand across apps: a party's headcount from the chat, with the calendar, mail, the
shop and the bank; with its reference solution."""

from __future__ import annotations

import datetime as dt

from apps.calendar import steps as daybook
from apps.mail import steps as mailbox
from apps.messaging import steps as parley
from apps.messaging.tasks import APP
from apps.shop import steps as shopwell
from builder.tasks import answers
from builder.tasks import steps as S
from builder.tasks.collect import Scenario
from builder.tasks.model import RubricItem, Task
from builder.tasks.oracle import Web
from builder.world import World
from scenarios import ERRANDS


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
    return (
        [
            Task(
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
        ]
        if pending
        else []
    )


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


SCENARIOS = [
    Scenario(
        home="messaging",
        apps=("messaging", "mail", "calendar", "shop", "bank"),
        tasks=long_tasks,
        solvers={"party-headcount": party_headcount},
        rank=ERRANDS,
    )
]
