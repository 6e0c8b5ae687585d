"""Shopwell's two-app answer tasks (ids ``<persona>/shop/<slug>``): the last birthday present sent (the calendar has
the birthday) and the delivery day Shopwell and the carrier's mail disagree on (the carrier's newer notice wins). They follow Shopwell's last action
task."""

from __future__ import annotations

import datetime as dt

from apps.shop import reader as shown
from apps.shop.seed import orders, tracking_state
from apps.shop.tasks import APP, KIT, day, in_use, text
from builder.tasks import answers as A
from builder.tasks.collect import Scenario
from builder.tasks.model import RubricItem, Task
from builder.tasks.reader import Reading, See, Unreadable, reader
from builder.tasks.dates import day_in
from builder.reference.retail.catalogue import english_title
from builder.world import World


def birthday_tasks(world: World) -> list[Task]:
    """What the last birthday present sent through Shopwell was, and whether it arrived before the day."""
    now = world.now
    delivered = [o for o in orders(world) if tracking_state(o, now) == "delivered"]
    out: list[Task] = []
    task = KIT.adder(world, out)

    gifts = [x for x in delivered if x.get("gift_for")]
    if gifts:
        o = gifts[-1]
        it = o["items"][0]
        arrived = dt.date.fromisoformat(o["delivered_at"][:10])
        task(
            "birthday-present",
            [APP, "calendar"],
            kind="lookup",
            difficulty="medium",
            time_limit_seconds=360,
            instruction=f"What did I send {o['gift_for']} for their last birthday, and did it arrive before the day?",
            expected={
                "order": o["order_id"],
                "item": it["name"],
                "delivered": arrived.isoformat(),
                "birthday": o["gift_birthday"],
                "gift_for": o["gift_for"],
            },
            rubric=[
                RubricItem(
                    id="item",
                    weight=70,
                    requirement=f"Names {it['name']}",
                    check=text(it["name"], english_title(it)),
                ),
                RubricItem(
                    id="arrived",
                    weight=30,
                    requirement=f"Says it arrived on {day(arrived)}, before the birthday on "
                    f"{day(dt.date.fromisoformat(o['gift_birthday']))}",
                ),
            ],
        )
    return out


#: How a careful person settles the delivery day (the task's ``rule``): the carrier has the parcel once it shipped.
DELIVERY_RULE = (
    "the newest notice from the party responsible wins: once the parcel has shipped, the carrier's newer delay "
    "notice beats the shop's earlier estimate"
)


def contradiction_tasks(world: World) -> list[Task]:
    """The delivery day the carrier's newer tracking mail gives against Shopwell's earlier estimate
    (``contradiction/delivery-date``), the carrier's first: it has the parcel and wrote last."""
    out: list[Task] = []
    task = KIT.adder(world, out)

    it = A.planted(world, "contradiction/delivery-date")
    if it:
        shop, carrier = dt.date.fromisoformat(it["shop_day"]), dt.date.fromisoformat(it["carrier_day"])
        task(
            "cx-delivery-day",
            ["shop", "mail"],
            kind="lookup",
            category="contradiction",
            difficulty="medium",
            time_limit_seconds=420,
            instruction=f"When will my Shopwell order {it['order_id']} actually arrive? I've had different dates from "
            f"Shopwell and from {it['carrier']}. Give me the day to expect first, then the other one.",
            expected={
                "order_id": it["order_id"],
                "right": it["carrier_day"],
                "stale": it["shop_day"],
                "truth": "carrier",
            },
            planted=[it["id"]],
            rule=DELIVERY_RULE,
            rubric=[
                RubricItem(
                    id="right",
                    weight=40,
                    requirement=f"Says {carrier:%A, %B %-d} ({it['carrier']}'s newer notice)",
                    check=A.text(*A.date_forms(carrier)),
                ),
                RubricItem(
                    id="stale",
                    weight=20,
                    requirement=f"Names {shop:%A, %B %-d} (Shopwell's earlier estimate)",
                    check=A.text(*A.date_forms(shop)),
                ),
                RubricItem(
                    id="order",
                    weight=40,
                    requirement=f"Names {it['carrier']}'s day before Shopwell's",
                    check=A.names([A.date_forms(carrier), A.date_forms(shop)], ordered=True),
                ),
            ],
        )
    return out


# --- readers (builder.tasks.reader): Your orders, the order's page and the mailbox ------------------------------


@reader("gift_for")
def birthday_present(see: See, given: dict) -> Reading:
    """The item of the last order Your orders marks a gift for the person."""
    gifts = [o for o in shown.orders(see) if o["gift_for"] and o["gift_for"] == given["gift_for"]]
    if not gifts:
        raise Unreadable(f"no Shopwell order is marked a gift for {given['gift_for']}")
    last = max(gifts, key=lambda o: o["placed"])
    if len(last["items"]) != 1:
        raise Unreadable(f"the last gift order {last['number']} holds {len(last['items'])} items")
    return Reading(
        values={"item": last["items"][0]},
        steps=[
            f"Your orders: {len(gifts)} gift(s) for {given['gift_for']}; the last is {last['number']} of "
            f"{last['placed']} ({last['status']}): {last['items'][0]}"
        ],
    )


def _mail_text(m) -> str:
    body = m.get_body(preferencelist=("plain", "html"))
    return f"{m.get('Subject', '')}\n{body.get_content() if body is not None else ''}"


@reader("order_id")
def cx_delivery_day(see: See, given: dict) -> Reading:
    """The carrier's newest mailed delivery day (right) against the day the order's page still shows (stale)."""
    import email.utils

    number = given["order_id"]
    o = shown.order(see, number)
    today = see.now.date()
    if not o["tracking"]:
        raise Unreadable(f"order {number} shows no tracking number")
    shop_day = day_in(o["status"], today)
    notices = []  # (sent, who, day): every mail that gives this parcel a delivery day
    for m in see.mailbox():
        text = _mail_text(m)
        if o["tracking"] not in text and number not in text:
            continue
        sender = email.utils.parseaddr(str(m.get("From", "")))[1]
        sent = email.utils.parsedate_to_datetime(str(m["Date"]))
        for line in text.splitlines():
            low = line.casefold()
            # US "now expected on", British "now due on", "New estimated delivery", German "voraussichtlich".
            if any(
                w in low for w in ("expected", "estimated delivery", "due on", "arriving", "voraussichtlich", "zustell")
            ):
                try:
                    notices.append((sent, sender, day_in(line.split(":", 1)[-1] if ":" in line else line, today)))
                except Unreadable:
                    continue
    carrier = [n for n in notices if not n[1].endswith("shopwell.test")]
    if not carrier:
        raise Unreadable(f"no mail from {o['carrier']} gives order {number} a delivery day")
    newest = max(carrier, key=lambda n: n[0])
    shop_notes = [n for n in notices if n[1].endswith("shopwell.test")]
    if shop_notes and max(n[0] for n in shop_notes) > newest[0]:
        raise Unreadable(f"Shopwell wrote after {o['carrier']}'s notice: the carrier's day is not the newest")
    right, stale = newest[2], shop_day
    if right == stale:
        raise Unreadable(f"{o['carrier']} and Shopwell agree on {right}")
    return Reading(
        values={
            "right": right.isoformat(),
            "stale": stale.isoformat(),
            "order": [right.isoformat(), stale.isoformat()],
        },
        steps=[
            f"Shopwell's order page: {o['status']} ({o['carrier']} {o['tracking']})",
            f"{o['carrier']}'s mail of {newest[0]:%Y-%m-%d %H:%M}: expected {right}"
            + (f"; Shopwell's last mail {max(n[0] for n in shop_notes):%Y-%m-%d %H:%M}" if shop_notes else ""),
            "the newest notice from the party that has the parcel (the carrier) wins",
        ],
    )


#: After Shopwell's last action task there is.
_AFTER = ("reorder-before-trip", "review-product", "subscribe")

SCENARIOS = [
    Scenario(
        home=APP,
        apps=(APP, "calendar"),
        tasks=birthday_tasks,
        readers={"birthday-present": birthday_present},
        after=_AFTER,
        when=in_use,
    ),
    Scenario(
        home=APP,
        apps=(APP, "mail"),
        tasks=contradiction_tasks,
        readers={"cx-delivery-day": cx_delivery_day},
        after=_AFTER,
        when=in_use,
    ),
]
