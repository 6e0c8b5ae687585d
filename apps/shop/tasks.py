"""Shopwell tasks derived from the world, each with its expected values and rubric.

Action checks read the end state of ``shop.sqlite`` (and the bank's ``card_authorizations``). Rows the app
writes are told apart from seeded ones: an order with ``world_ref IS NULL``, a review with ``world_ref IS NULL``,
a return or a subscription (the seed writes none), the bank's authorisations of app ``shop`` (the seed's are
other apps'), so an agent that does nothing fails every action check. Check queries are fixed SQL with ``?``
placeholders; every world value travels in ``params``.
"""

from __future__ import annotations

import datetime as dt
from collections import Counter

from builder.money import money
from builder.tasks import kit
from builder.tasks.model import Change, Check, RubricItem, Task
from builder.world import World, retail
from builder.world.accounts import payment_cards

from .seed import REVIEWED_AFTER_DAYS, orders, returnable_until, tracking_state

APP = "shop"
KIT = kit.Kit(APP, ignore=("sessions", "cart_items"))
MONTHS_EN = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
]


def _new_order(lines: int, most: int) -> RubricItem:
    return KIT.only(
        "Nothing else changed at Shopwell: only the one new order",
        Change(table="orders", op="insert", min=1, max=1),
        Change(table="order_items", op="insert", min=lines, max=most),
    )


def _text(*options: str) -> Check:
    return Check(type="answer_text", any_of=[o for o in options if o])


def _day(d: dt.date) -> str:
    return f"{MONTHS_EN[d.month - 1]} {d.day}, {d.year}"


def in_use(world: World) -> bool:
    """Whether the persona has ordered from Shopwell: without an order it has no tasks, nor do the scenarios homed
    there."""
    return bool(orders(world))


def tasks(world: World) -> list[Task]:
    """Return the Shopwell tasks of ``world`` (8 when the world has delivered and in-transit orders; fewer for a
    persona with no orders), in a fixed order."""
    p = world.persona
    cur = world.currency
    now = world.now
    today = now.date()
    out: list[Task] = []
    all_orders = orders(world)
    if not in_use(world):
        return out
    delivered = [o for o in all_orders if tracking_state(o, now) == "delivered"]
    card = payment_cards(world)[0]
    by_id = {x["id"]: x for x in retail.catalogue()}

    task = KIT.adder(world, out)

    # 1. Shopwell spending in the last full month (the card statement shows the same charges).
    first_of_month = today.replace(day=1)
    last_month_end = first_of_month - dt.timedelta(days=1)
    month = last_month_end.strftime("%Y-%m")
    in_month = [o for o in all_orders if o["placed_at"][:7] == month]
    total = sum(o["total_cents"] for o in in_month)
    month_name = f"{MONTHS_EN[last_month_end.month - 1]} {last_month_end.year}"
    task(
        "month-spend",
        [APP, "bank"],
        kind="aggregation",
        difficulty="medium",
        time_limit_seconds=420,
        instruction=f"How much did I spend at Shopwell in {month_name}, and in how many orders? Check it against "
        "my card statement.",
        expected={"month": month, "total_cents": total, "orders": [o["order_id"] for o in in_month]},
        rubric=[
            RubricItem(id="total", weight=75, requirement=f"States {money(total, cur)}", check=kit.amount(total)),
            RubricItem(id="count", weight=25, requirement=f"Says {len(in_month)} orders"),
        ],
    )

    # 2. The parcel on its way: carrier and tracking number (the shipping mail has them too).
    moving = [o for o in all_orders if tracking_state(o, now) == "shipped"] or [
        o for o in all_orders if tracking_state(o, now) == "ordered"
    ]
    if moving:
        o = moving[-1]
        names = ", ".join(i["name"] for i in o["items"])
        task(
            "parcel-tracking",
            [APP, "mail"],
            kind="lookup",
            difficulty="easy",
            time_limit_seconds=300,
            instruction=f"My Shopwell order with the {names} hasn't arrived yet. Which carrier has it and what is the "
            "tracking number?",
            expected={"order": o["order_id"], "carrier": o["carrier"], "tracking_number": o["tracking_number"]},
            rubric=[
                RubricItem(
                    id="tracking",
                    weight=70,
                    requirement=f"Gives tracking number {o['tracking_number']}",
                    check=_text(o["tracking_number"]),
                ),
                RubricItem(id="carrier", weight=30, requirement=f"Names {o['carrier']}", check=_text(o["carrier"])),
            ],
        )

    # 3. What an item cost (the latest delivered order of two or more items).
    multi = [o for o in delivered if len(o["items"]) > 1] or delivered
    o = multi[-1]
    it = o["items"][-1]
    placed = dt.date.fromisoformat(o["placed_at"][:10])
    task(
        "item-price",
        [APP],
        kind="lookup",
        difficulty="easy",
        time_limit_seconds=240,
        instruction=f"What did I pay for the {it['name']} I ordered from Shopwell on {_day(placed)}?",
        expected={"order": o["order_id"], "sku": it["sku"], "price_cents": it["price_cents"]},
        rubric=[
            RubricItem(
                id="price",
                weight=100,
                requirement=f"States {money(it['price_cents'], cur)}",
                check=kit.amount(it["price_cents"]),
            )
        ],
    )

    # 4. A card charge traced to what was bought (a total no other order has).
    counts = Counter(x["total_cents"] for x in all_orders)
    unique = [x for x in delivered if counts[x["total_cents"]] == 1 and len(x["items"]) == 1]
    if unique:
        o = unique[len(unique) // 2]
        placed = dt.date.fromisoformat(o["placed_at"][:10])
        it = o["items"][0]
        task(
            "charge-to-item",
            [APP, "bank"],
            kind="lookup",
            difficulty="medium",
            time_limit_seconds=360,
            instruction=f"There is a Shopwell charge of {money(o['total_cents'], cur)} on my card around "
            f"{_day(placed)}. What did I buy?",
            expected={"order": o["order_id"], "item": it["name"], "total_cents": o["total_cents"]},
            rubric=[
                RubricItem(
                    id="item",
                    weight=80,
                    requirement=f"Names {it['name']}",
                    check=_text(it["name"], by_id[it["product_id"]]["title"]["en_US"]),
                ),
                RubricItem(
                    id="order", weight=20, requirement=f"Gives order {o['order_id']}", check=_text(o["order_id"])
                ),
            ],
        )

    # 5. Action: return an item inside the 30-day window; the refund shows in the bank at once.
    inside = [x for x in delivered if today <= returnable_until(x)]
    if inside:
        o = inside[0]
        it = o["items"][0]
        refund = it["qty"] * it["price_cents"]
        task(
            "return-item",
            [APP, "bank"],
            kind="action",
            difficulty="medium",
            time_limit_seconds=420,
            instruction=f"I don't need the {it['name']} from my Shopwell order {o['order_id']}. Return it and tell me "
            "how much comes back to my card.",
            expected={"order": o["order_id"], "sku": it["sku"], "refund_cents": refund},
            rubric=[
                RubricItem(
                    id="returned",
                    weight=35,
                    requirement="The item is returned in Shopwell",
                    check=KIT.sql(
                        "SELECT COUNT(*) FROM returns r JOIN order_items i ON i.id = r.order_item_id "
                        "JOIN orders o ON o.id = i.order_id WHERE o.order_number = ? AND i.sku = ?",
                        [o["order_id"], it["sku"]],
                        [[1]],
                    ),
                ),
                RubricItem(
                    id="refund",
                    weight=30,
                    requirement=f"The bank shows a refund of {money(refund, cur)}",
                    check=KIT.sql(
                        "SELECT COUNT(*) FROM card_authorizations WHERE app = ? AND kind = 'refund' "
                        "AND amount_cents = ?",
                        [APP, refund],
                        [[1]],
                        app="bank",
                    ),
                ),
                RubricItem(
                    id="amount", weight=20, requirement=f"States {money(refund, cur)}", check=kit.amount(refund)
                ),
                KIT.only(
                    "Nothing else changed at Shopwell: only the new return",
                    Change(table="returns", op="insert", min=1, max=1),
                ),
            ],
        )

    # 6. Action: buy two more of an item bought before, with the main card (total = catalogue price x 2 + shipping).
    again = delivered[-1]["items"][0]
    prod, k = retail.by_sku()[again["sku"]]
    unit = retail.local_price(prod["variants"][k]["price_usd"], cur)
    sub = 2 * unit
    total2 = sub + retail.shipping(sub)
    placed = dt.date.fromisoformat(delivered[-1]["placed_at"][:10])
    variant = f" ({again['variant']})" if again["variant"] else ""
    task(
        "reorder-item",
        [APP, "bank"],
        kind="action",
        difficulty="medium",
        time_limit_seconds=480,
        instruction=f"Order two more of the {again['name']}{variant} I bought on Shopwell on {_day(placed)}, "
        f"delivered to my home and paid with my {card['label']}. What is the order total?",
        expected={"sku": again["sku"], "qty": 2, "card_last4": card["last4"], "total_cents": total2},
        rubric=[
            RubricItem(
                id="order",
                weight=35,
                requirement="A new order of two of that item is placed with that card",
                check=KIT.sql(
                    "SELECT COUNT(*) FROM orders o JOIN order_items i ON i.order_id = o.id "
                    "JOIN cards c ON c.id = o.card_id WHERE o.world_ref IS NULL AND i.sku = ? "
                    "AND i.qty = 2 AND c.last4 = ?",
                    [again["sku"], card["last4"]],
                    [[1]],
                ),
            ),
            RubricItem(
                id="charge",
                weight=30,
                requirement=f"The bank shows a pending charge of {money(total2, cur)}",
                check=KIT.sql(
                    "SELECT COUNT(*) FROM card_authorizations WHERE app = ? AND kind = 'charge' AND amount_cents = ?",
                    [APP, total2],
                    [[1]],
                    app="bank",
                ),
            ),
            RubricItem(id="total", weight=20, requirement=f"States {money(total2, cur)}", check=kit.amount(total2)),
            _new_order(1, 1),
        ],
    )

    # 7. Action: Subscribe & Save for the household item bought most often (else the first such product).
    household = Counter(i["sku"] for x in all_orders for i in x["items"] if by_id[i["product_id"]]["subscribe"])
    if household:
        sku = min(household.items(), key=lambda kv: (-kv[1], kv[0]))[0]
    else:
        sku = next(x for x in retail.catalogue() if x["subscribe"])["variants"][0]["sku"]
    sprod, sk = retail.by_sku()[sku]
    sname = retail.title(sprod, p.locale)
    slabel = retail.variant_label(sprod, sk, p.locale)
    task(
        "subscribe",
        [APP],
        kind="action",
        difficulty="easy",
        time_limit_seconds=300,
        instruction=f"Set up Subscribe & Save on Shopwell for {sname}{f' ({slabel})' if slabel else ''}, delivered "
        "every 4 weeks.",
        expected={"sku": sku, "every_weeks": 4},
        rubric=[
            RubricItem(
                id="subscription",
                weight=85,
                requirement="An active 4-weekly subscription of that item",
                check=KIT.sql(
                    "SELECT COUNT(*) FROM subscriptions WHERE sku = ? AND every_weeks = 4 AND status = 'active'",
                    [sku],
                    [[1]],
                ),
            ),
            KIT.only(
                "Nothing else changed at Shopwell: only the new subscription",
                Change(table="subscriptions", op="insert", min=1, max=1),
            ),
        ],
    )

    # 8. Action: review a recently delivered item never delivered before (the seed reviews only older deliveries).
    def age(x: dict) -> int:
        return (now - dt.datetime.fromisoformat(x["delivered_at"])).days

    old = {i["product_id"] for x in delivered if age(x) > REVIEWED_AFTER_DAYS for i in x["items"]}
    recent = [
        (x, i) for x in delivered if age(x) <= REVIEWED_AFTER_DAYS for i in x["items"] if i["product_id"] not in old
    ]
    if recent:
        o, it = recent[-1]
        arrived = dt.date.fromisoformat(o["delivered_at"][:10])
        task(
            "review-product",
            [APP],
            kind="action",
            difficulty="easy",
            time_limit_seconds=300,
            instruction=f"Write a 4-star review on Shopwell of the {it['name']} that arrived on {_day(arrived)}.",
            expected={"product_id": it["product_id"], "rating": 4},
            rubric=[
                RubricItem(
                    id="review",
                    weight=65,
                    requirement="A 4-star review of that product by me",
                    check=KIT.sql(
                        "SELECT COUNT(*) FROM reviews WHERE product_id = ? AND user_id = 1 "
                        "AND world_ref IS NULL AND rating = 4",
                        [it["product_id"]],
                        [[1]],
                    ),
                ),
                RubricItem(id="text", weight=20, requirement="The review has a headline and a few words of text"),
                KIT.only(
                    "Nothing else changed at Shopwell: only the new review",
                    Change(table="reviews", op="insert", min=1, max=1),
                ),
            ],
        )

    # 9. Action: reorder what was bought just before the last trip (the calendar and mail have the trip's dates).
    trips = [t for t in ((p.travel.trips or []) if p.travel else []) if t.return_ < today]
    trip = max(trips, key=lambda t: t.depart) if trips else None
    before = [x for x in all_orders if trip and x["placed_at"][:10] < trip.depart.isoformat()] if trip else []
    if before:
        o = before[-1]
        skus = [i["sku"] for i in o["items"]]
        marks = ", ".join("?" for _ in skus)
        task(
            "reorder-before-trip",
            [APP, "calendar", "bank"],
            kind="action",
            difficulty="hard",
            time_limit_seconds=600,
            instruction=f"Order again everything I bought on Shopwell in my last order before my trip to "
            f"{trip.destination}, to my home address.",
            expected={"order": o["order_id"], "skus": skus, "trip_depart": trip.depart.isoformat()},
            rubric=[
                RubricItem(
                    id="items",
                    weight=65,
                    requirement=f"A new order holds every item of {o['order_id']}",
                    check=KIT.sql(
                        f"SELECT COUNT(DISTINCT i.sku) FROM order_items i JOIN orders o ON "
                        f"o.id = i.order_id WHERE o.world_ref IS NULL AND i.sku IN ({marks})",
                        skus,
                        [[len(set(skus))]],
                    ),
                ),
                RubricItem(
                    id="charge",
                    weight=20,
                    requirement="The bank shows the new order's pending charge",
                    check=KIT.sql(
                        "SELECT COUNT(*) FROM card_authorizations WHERE app = ? AND kind = 'charge'",
                        [APP],
                        [[1]],
                        app="bank",
                    ),
                ),
                _new_order(len(set(skus)), len(skus)),
            ],
        )

    # 10. The last birthday present sent through Shopwell (the calendar has the birthday, the order the recipient).
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
            },
            rubric=[
                RubricItem(
                    id="item",
                    weight=70,
                    requirement=f"Names {it['name']}",
                    check=_text(it["name"], by_id[it["product_id"]]["title"]["en_US"]),
                ),
                RubricItem(
                    id="arrived",
                    weight=30,
                    requirement=f"Says it arrived on {_day(arrived)}, before the birthday on "
                    f"{_day(dt.date.fromisoformat(o['gift_birthday']))}",
                ),
            ],
        )
    out.extend(insight_tasks(world))
    return out


# --- Reasoning tasks (contradiction, counterfactual, preference inference) ---------------------------------------


def insight_tasks(world: World) -> list[Task]:
    """Shopwell's contradiction, counterfactual and preference tasks: the carrier's delivery day against the shop's,
    the shipping paid this year, the brand bought most. Items the world lacks give no task."""
    from builder.tasks import answers as A

    p = world.persona
    _pid, cur = p.id, world.currency
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
            expected={"order_id": it["order_id"], "right": it["shop_day"], "stale": it["carrier_day"], "truth": "shop"},
            planted=[it["id"]],
            rubric=[
                RubricItem(
                    id="right",
                    weight=40,
                    requirement=f"Says {shop:%A, %B %-d} (Shopwell)",
                    check=A.text(*A.date_forms(shop)),
                ),
                RubricItem(
                    id="stale",
                    weight=20,
                    requirement=f"Names {carrier:%A, %B %-d} ({it['carrier']})",
                    check=A.text(*A.date_forms(carrier)),
                ),
                RubricItem(
                    id="order",
                    weight=40,
                    requirement="Names Shopwell's day before the carrier's",
                    check=A.names([A.date_forms(shop), A.date_forms(carrier)], ordered=True),
                ),
            ],
        )

    year = world.now.year
    done = [e for e in world.of_kind("retail_order") if e.status == "done" and e.at.year == year]
    paid = [e for e in done if e.data.get("shipping_cents")]
    if paid:
        ship = sum(e.data["shipping_cents"] for e in paid)
        task(
            "cf-free-shipping",
            ["shop"],
            kind="aggregation",
            category="counterfactual",
            difficulty="medium",
            time_limit_seconds=480,
            instruction=f"Had every Shopwell order I placed in {year} shipped for free, how much would I have saved on "
            "shipping, and on how many orders did I pay for it?",
            expected={"shipping_cents": ship, "orders": len(paid)},
            rubric=[
                RubricItem(id="saved", weight=75, requirement=f"States {money(ship, cur)}", check=A.amount(ship)),
                RubricItem(id="orders", weight=25, requirement=f"Says {len(paid)} orders", check=A.number(len(paid))),
            ],
        )

    brands = Counter(
        x["brand"]
        for e in world.of_kind("retail_order")
        if e.status == "done"
        for x in e.data["items"]
        for _ in range(x["qty"])
        if x.get("brand")
    )
    top = brands.most_common(2)
    if top and (len(top) == 1 or top[0][1] > top[1][1]):
        brand, n = top[0]
        task(
            "pref-brand",
            ["shop"],
            kind="aggregation",
            category="preference_inference",
            difficulty="medium",
            time_limit_seconds=480,
            instruction="Which brand do I buy most from on Shopwell? Count the items across all my orders and tell me "
            "how many were that brand.",
            expected={"brand": brand, "items": n},
            rubric=[
                RubricItem(id="brand", weight=70, requirement=f"Names {brand}", check=A.text(brand)),
                RubricItem(id="count", weight=30, requirement=f"Says {n} items", check=A.number(n)),
            ],
        )
    return out


# --- Cross-app answer tasks: fees and shipping across the apps ----------------------------------------------------
