"""Basketful tasks derived from the world, each with its expected values and rubric.

Action checks read Basketful's (and the bank's) database end state. Rows the app writes are told apart from
seeded ones: an order placed in the app and a list made in the app have ``world_ref IS NULL`` (the seed sets
it on every row it writes), a card authorisation exists only when the app charged; so an agent that does
nothing fails every action check. Check queries are fixed SQL text with ``?`` placeholders; every world value
travels in ``params``.
"""

from __future__ import annotations

import datetime as dt
from collections import Counter

from builder.money import money
from builder.tasks import kit
from builder.tasks.model import Change, Check, RubricItem, Task
from builder.reference.grocery import catalogue as grocery
from builder.world import World

APP = "grocery"
KIT = kit.Kit(APP, ignore=("sessions", "cart_items"))


def order_rows(lines: int | None = None) -> tuple[Change, ...]:
    """The rows one new order (with ``lines`` items, or any) writes: it, its items, its seat in a delivery or pickup
    window."""
    return (
        Change(table="orders", op="insert", min=1, max=1),
        Change(table="order_items", op="insert", min=lines or 1, max=lines),
        Change(table="window_seats", op="insert", min=1, max=1),
    )


def new_order(lines: int | None = None) -> RubricItem:
    """Only one new order (:func:`order_rows`)."""
    return KIT.only("Nothing else changed at Basketful: only the one new order", *order_rows(lines))


def new_list(name: str, lines: int) -> RubricItem:
    """Only the new list ``name`` with its ``lines`` items."""
    return KIT.only(
        f"Nothing else changed at Basketful: only the new list “{name}” and its {lines} items",
        Change(table="lists", op="insert", min=1, max=1),
        Change(table="list_items", op="insert", min=lines, max=lines),
    )


def done_orders(world: World) -> list:
    """The persona's Basketful orders that are done (delivered or picked up), oldest first."""
    return [e for e in world.of_kind("grocery_order") if e.status == "done"]


def in_use(world: World) -> bool:
    """Whether the persona has had a Basketful order: without one it has no tasks, nor do the scenarios homed
    there."""
    return bool(done_orders(world))


# The basket of the pickup task and the list task: products by (aisle, position in the aisle's catalogue order).
PICKUP_PICKS = (("fruit", 0), ("bread", 2), ("coffee-tea", 4))
CAMPING = (("nuts", 5), ("chips", 3), ("water-juice", 6), ("paper", 3))


def pick(aisle: str, n: int) -> dict:
    """The ``n``-th non-staple product of ``aisle`` in catalogue (id) order."""
    pool = [p for p in grocery.catalogue() if p["aisle"] == aisle and not p["staple"]]
    return pool[n % len(pool)]


def _label(p: dict, locale: str) -> str:
    brand = f"{p['brand']} " if p["brand"] else ""
    return f"{brand}{grocery.title(p, locale)} ({grocery.size_label(p, locale)})"


def tasks(world: World) -> list[Task]:
    """Basketful's own tasks for ``world`` (lookups, aggregations, actions that need no other app; the ones with the
    bank, mail and the calendar are scenarios homed here: scenarios/{checks,errands,pairs}/grocery.py), in a fixed
    order. Empty when the persona has no grocery deliveries."""
    p = world.persona
    cur = world.currency
    loc = p.bank
    orders = done_orders(world)
    out: list[Task] = []

    task = KIT.adder(world, out)

    if not orders:
        return out

    # 3. The store ordered from most.
    counts = Counter(e.data["store"] for e in orders)
    usual, n_usual = min(counts.items(), key=lambda kv: (-kv[1], kv[0]))
    task(
        "usual-store",
        ["grocery"],
        kind="aggregation",
        category="preference_inference",
        difficulty="easy",
        time_limit_seconds=300,
        instruction="Which store do I order groceries from most often on Basketful, and how many orders was that?",
        expected={"store": usual, "orders": n_usual},
        rubric=[
            RubricItem(
                id="store", weight=70, requirement=f"Names {usual}", check=Check(type="answer_text", any_of=[usual])
            ),
            RubricItem(
                id="count",
                weight=30,
                requirement=f"Says {n_usual} orders",
                check=Check(type="answer_number", value=n_usual),
            ),
        ],
    )

    # 4. Tips paid on grocery orders this year.
    year = world.now.year
    tips = sum(e.data["tip_cents"] for e in orders if e.at.year == year)
    task(
        "tips-this-year",
        ["grocery"],
        kind="aggregation",
        difficulty="medium",
        time_limit_seconds=420,
        instruction=f"How much have I tipped Basketful shoppers in {year} so far?",
        expected={"year": year, "tip_cents": tips},
        rubric=[RubricItem(id="total", weight=100, requirement=f"States {money(tips, cur)}", check=kit.amount(tips))],
    )

    # 6. Action: a pickup order for the first pickup window the day after tomorrow at the usual store.
    usual_key = grocery.usual_store(world.seed, loc)
    chains = grocery.stores(loc)
    store = next(s for s in chains if s["key"] == usual_key)
    if not store["pickup"]:
        store = next(s for s in chains if s["pickup"])
    s_pos = next(i for i, s in enumerate(chains, start=1) if s["key"] == store["key"])
    day = world.now.date() + dt.timedelta(days=2)
    start = dt.datetime.combine(day, dt.time(int(store["open"][:2]) + 1, 0))
    picks = [pick(a, n) for a, n in PICKUP_PICKS]
    task(
        "pickup-order",
        ["grocery"],
        kind="action",
        difficulty="medium",
        time_limit_seconds=600,
        instruction=f"Order these from {store['name']} for pickup in the first pickup window on {day:%A, %B %-d}: "
        + "; ".join(_label(x, loc) for x in picks)
        + ". One of each, and if the "
        f"{grocery.title(picks[0], loc)} is out, don't substitute it.",
        expected={
            "store": store["name"],
            "store_key": store["key"],
            "store_id": s_pos,
            "window_start": start.isoformat(),
            "products": [x["id"] for x in picks],
        },
        rubric=[
            RubricItem(
                id="order",
                weight=45,
                requirement=f"A pickup order at {store['name']} for {start:%b %-d %H:%M}",
                check=KIT.sql(
                    """SELECT COUNT(*) FROM orders WHERE world_ref IS NULL AND store_id = ?
                                          AND fulfilment = 'pickup' AND window_start = ?""",
                    [s_pos, start.isoformat()],
                    [[1]],
                ),
            ),
            RubricItem(
                id="items",
                weight=25,
                requirement="It holds exactly the three products, one each",
                check=KIT.sql(
                    """SELECT group_concat(x.product_id || ':' || x.qty, ',') FROM
                                          (SELECT i.product_id, i.qty FROM order_items i JOIN orders o ON o.id = i.order_id
                                           WHERE o.world_ref IS NULL AND o.fulfilment = 'pickup' ORDER BY i.product_id) x""",
                    [],
                    [[",".join(f"{x}:1" for x in sorted(q["id"] for q in picks))]],
                ),
            ),
            RubricItem(
                id="no-sub",
                weight=15,
                requirement=f"{grocery.title(picks[0], loc)}: don't substitute",
                check=KIT.sql(
                    """SELECT COUNT(*) FROM order_items i JOIN orders o ON o.id = i.order_id
                                          WHERE o.world_ref IS NULL AND i.product_id = ? AND i.substitution = 'none'""",
                    [picks[0]["id"]],
                    [[1]],
                ),
            ),
            new_order(len(picks)),
        ],
    )

    # 7. Action: a camping list.
    camp = [pick(a, n) for a, n in CAMPING]
    task(
        "camping-list",
        ["grocery"],
        kind="action",
        difficulty="easy",
        time_limit_seconds=420,
        instruction="Make a Basketful shopping list called “Camping weekend” with "
        + "; ".join(_label(x, loc) for x in camp)
        + " (two of the first, one of the rest).",
        expected={"name": "Camping weekend", "products": [x["id"] for x in camp], "qty": [2, 1, 1, 1]},
        rubric=[
            RubricItem(
                id="list",
                weight=30,
                requirement="A list “Camping weekend” exists",
                check=KIT.sql(
                    "SELECT COUNT(*) FROM lists WHERE world_ref IS NULL AND name = ?", ["Camping weekend"], [[1]]
                ),
            ),
            RubricItem(
                id="items",
                weight=55,
                requirement="It holds the four products with those quantities",
                check=KIT.sql(
                    """SELECT group_concat(x.product_id || ':' || x.qty, ',') FROM
                                          (SELECT i.product_id, i.qty FROM list_items i JOIN lists l ON l.id = i.list_id
                                           WHERE l.world_ref IS NULL AND l.name = ? ORDER BY i.product_id) x""",
                    ["Camping weekend"],
                    [
                        [
                            ",".join(
                                f"{x['id']}:{q}" for x, q in sorted(zip(camp, [2, 1, 1, 1]), key=lambda t: t[0]["id"])
                            )
                        ]
                    ],
                ),
            ),
            new_list("Camping weekend", len(camp)),
        ],
    )

    out.extend(insight_tasks(world))
    return out


# --- Reasoning tasks (contradiction, counterfactual, preference inference) ---------------------------------------


def insight_tasks(world: World) -> list[Task]:
    """Basketful's preference task: the items in almost every basket. None without orders. (Last month's orders
    without the delivery fees and tips, with the bank: scenarios/pairs/grocery.py.)"""
    from builder.tasks import answers as A

    orders = done_orders(world)
    out: list[Task] = []
    if not orders:
        return out

    task = KIT.adder(world, out)

    items = Counter(x["name"] for e in orders for x in {i["name"]: i for i in e.data["items"]}.values())
    top = items.most_common(4)
    if len(top) == 4 and top[0][1] > top[1][1] > top[2][1] > top[3][1]:
        names = [n for n, _ in top[:3]]
        task(
            "pref-staples",
            ["grocery"],
            kind="aggregation",
            category="preference_inference",
            difficulty="hard",
            time_limit_seconds=600,
            instruction="Which three grocery items end up in my Basketful orders most often? Rank them, most frequent "
            "first (count the orders each appears in).",
            expected={"items": names, "orders": [c for _, c in top[:3]], "of": len(orders)},
            rubric=[
                RubricItem(id="top", weight=40, requirement=f"Names {names[0]} first", check=A.text(names[0])),
                RubricItem(
                    id="ranking",
                    weight=60,
                    requirement="Ranks " + ", ".join(names),
                    check=A.names([[n] for n in names], ordered=True),
                ),
            ],
        )
    return out
