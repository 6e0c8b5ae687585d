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
from builder.reference.retail import catalogue as retail
from builder.world import World

from .seed import REVIEWED_AFTER_DAYS, orders, tracking_state

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


def new_order(lines: int, most: int) -> RubricItem:
    """Only one new order, with ``lines`` to ``most`` items."""
    return KIT.only(
        "Nothing else changed at Shopwell: only the one new order",
        Change(table="orders", op="insert", min=1, max=1),
        Change(table="order_items", op="insert", min=lines, max=most),
    )


def text(*options: str) -> Check:
    """An answer check: the answer holds one of ``options`` (empty ones dropped, duplicates kept)."""
    return Check(type="answer_text", any_of=[o for o in options if o])


def day(d: dt.date) -> str:
    """``d`` as Shopwell's tasks name it ("March 5, 2026")."""
    return f"{MONTHS_EN[d.month - 1]} {d.day}, {d.year}"


def in_use(world: World) -> bool:
    """Whether the persona has ordered from Shopwell: without an order it has no tasks, nor do the scenarios homed
    there."""
    return bool(orders(world))


def tasks(world: World) -> list[Task]:
    """Return Shopwell's own tasks of ``world`` (those that need no other app; the ones with the bank, mail and the
    calendar are scenarios homed here: scenarios/{checks,errands,pairs}/shop.py), in a fixed order; none for a
    persona with no orders."""
    p = world.persona
    cur = world.currency
    now = world.now
    out: list[Task] = []
    all_orders = orders(world)
    if not in_use(world):
        return out
    delivered = [o for o in all_orders if tracking_state(o, now) == "delivered"]
    by_id = {x["id"]: x for x in retail.catalogue()}

    task = KIT.adder(world, out)

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
        instruction=f"What did I pay for the {it['name']} I ordered from Shopwell on {day(placed)}?",
        expected={
            "order": o["order_id"],
            "sku": it["sku"],
            "price_cents": it["price_cents"],
            "item": it["name"],
            "placed": placed.isoformat(),
        },
        rubric=[
            RubricItem(
                id="price",
                weight=100,
                requirement=f"States {money(it['price_cents'], cur)}",
                check=kit.amount(it["price_cents"]),
            )
        ],
    )

    # 7. Action: Subscribe & Save for the household item bought most often (else the first such product).
    household = Counter(
        i["sku"] for x in all_orders for i in x["items"] if by_id.get(i["product_id"], {}).get("subscribe")
    )
    if household:
        sku = min(household.items(), key=lambda kv: (-kv[1], kv[0]))[0]
    else:
        sku = next(x for x in retail.catalogue() if x["subscribe"])["variants"][0]["sku"]
    sprod, sk = retail.by_sku()[sku]
    sname = retail.title(sprod, p.bank)
    slabel = retail.variant_label(sprod, sk, p.bank)
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
            instruction=f"Write a 4-star review on Shopwell of the {it['name']} that arrived on {day(arrived)}.",
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

    out.extend(insight_tasks(world))
    return out


# --- Reasoning tasks (contradiction, counterfactual, preference inference) ---------------------------------------


def insight_tasks(world: World) -> list[Task]:
    """Shopwell's counterfactual and preference tasks: the shipping paid this year, the brand bought most. Items the
    world lacks give no task. (The carrier's delivery day against the shop's, with mail: scenarios/pairs/shop.py.)"""
    from builder.tasks import answers as A

    p = world.persona
    _pid, cur = p.id, world.currency
    out: list[Task] = []

    task = KIT.adder(world, out)

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
            expected={"shipping_cents": ship, "orders": len(paid), "year": year},
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
