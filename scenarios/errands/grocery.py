"""Basketful's errands across apps, among its own tasks: the last basket again (the bank shows the charge), the first
order's items onto a list from its confirmation mail, the staples delivered around the calendar; with their
reference solutions."""

from __future__ import annotations

import datetime as dt

from apps.grocery import steps as basketful
from apps.grocery.seed import STAPLES_LIST
from apps.grocery.seed import stores as store_rows
from apps.grocery.seed import windows as seed_windows
from apps.grocery.tasks import APP, KIT, done_orders, in_use, new_list, new_order
from builder.money import money, to_unit
from builder.reference import prices
from builder.tasks.collect import Scenario
from builder.tasks.model import RubricItem, Task
from builder.tasks.oracle import Web
from builder.reference.grocery import catalogue as grocery
from builder.world import World


#: The tip of the reorder task in cents of dollars (the same number in pounds and euros; converted elsewhere).
TIP_CENTS = 725


def reorder_tasks(world: World) -> list[Task]:
    """The last order again at the same store, in any delivery window, with a tip of an amount none of the suggested
    percentages gives ("Other amount"); the bank shows the pending charge."""
    out: list[Task] = []
    d = done_orders(world)[-1].data
    tip = to_unit(prices.figure(TIP_CENTS, world.currency), world.currency)
    skus = ",".join(sorted(x["sku"] for x in d["items"]))
    store_pos = next(i for i, s in enumerate(grocery.stores(world.persona.bank), start=1) if s["key"] == d["store_key"])
    KIT.adder(world, out)(
        "reorder-last-basket",
        [APP, "bank"],
        kind="action",
        difficulty="medium",
        time_limit_seconds=600,
        instruction="Reorder my last Basketful order: same store, same items and quantities, delivered in any "
        f"window, with my usual card, and tip the shopper {money(tip, world.currency)}.",
        expected={
            "order_id": d["order_id"],
            "store": d["store"],
            "store_id": store_pos,
            "skus": skus,
            "tip_cents": tip,
            "tip_amount": f"{tip / 100:.2f}",
        },
        rubric=[
            RubricItem(
                id="order",
                weight=55,
                requirement=f"A new {d['store']} order with the same items",
                check=KIT.sql(
                    """SELECT COUNT(*) FROM orders o WHERE o.world_ref IS NULL AND o.store_id = ?
                                          AND (SELECT group_concat(x.product_id || ':' || x.qty, ',') FROM
                                               (SELECT product_id, qty FROM order_items WHERE order_id = o.id
                                                ORDER BY product_id) x) = ?""",
                    [store_pos, ",".join(f"{x['sku']}:{x['qty']}" for x in sorted(d["items"], key=lambda x: x["sku"]))],
                    [[1]],
                ),
            ),
            RubricItem(
                id="tip",
                weight=15,
                requirement=f"The shopper's tip is {money(tip, world.currency)}",
                check=KIT.sql(
                    "SELECT COUNT(*) FROM orders WHERE world_ref IS NULL AND store_id = ? AND tip_cents = ?",
                    [store_pos, tip],
                    [[1]],
                ),
            ),
            RubricItem(
                id="charged",
                weight=15,
                requirement="The bank shows the order as a pending card charge",
                check=KIT.sql(
                    """SELECT COUNT(*) FROM card_authorizations WHERE app = 'grocery'
                                          AND kind = 'charge' AND status = 'pending'""",
                    [],
                    [[1]],
                    app="bank",
                ),
            ),
            new_order(),
        ],
    )
    return out


def reorder_last_basket(task: Task, web: Web) -> str:
    """Reorder from the order page, then check out in the first delivery window with a free seat."""
    exp = task.expected
    key = web.one(APP, "SELECT key FROM stores WHERE id = ?", (exp["store_id"],))
    basketful.post(web, "/api/reorder", [("order", exp["order_id"])])
    window = web.one(
        APP,
        "SELECT w.id FROM windows w WHERE w.store_id = ? AND w.kind = 'delivery' "
        "AND date(w.starts_at) > (SELECT date(value) FROM meta WHERE key = 'now') "
        "AND (SELECT COUNT(*) FROM window_seats s WHERE s.window_id = w.id) < w.capacity "
        "ORDER BY w.starts_at LIMIT 1",
        (exp["store_id"],),
    )
    return (
        f"Reordered {exp['order_id']} from {exp['store']}: "
        + basketful.checkout(web, key, "delivery", window, "custom", exp["tip_amount"])
        + "."
    )


def mail_tasks(world: World) -> list[Task]:
    """The items of the first order (its confirmation mail names it) onto a new list "Favourites"."""
    out: list[Task] = []
    first_order = done_orders(world)[0].data
    skus_first = sorted({x["sku"] for x in first_order["items"]})
    KIT.adder(world, out)(
        "first-order-to-list",
        [APP, "mail"],
        kind="action",
        difficulty="hard",
        time_limit_seconds=600,
        instruction=f"Find the confirmation email of my Basketful order {first_order['order_id']} and put everything "
        "from that order on a new Basketful list called “Favourites” (one of each).",
        expected={"order_id": first_order["order_id"], "products": skus_first},
        rubric=[
            RubricItem(
                id="list",
                weight=85,
                requirement="“Favourites” holds exactly that order's products",
                check=KIT.sql(
                    """SELECT group_concat(x.product_id, ',') FROM
                                          (SELECT i.product_id FROM list_items i JOIN lists l ON l.id = i.list_id
                                           WHERE l.world_ref IS NULL AND l.name = ? ORDER BY i.product_id) x""",
                    ["Favourites"],
                    [[",".join(skus_first)]],
                ),
            ),
            new_list("Favourites", len(skus_first)),
        ],
    )
    return out


def first_order_to_list(task: Task, web: Web) -> str:
    """The list "Favourites" with one of each product of that order."""
    return basketful.make_list(web, "Favourites", [(pid, 1) for pid in task.expected["products"]])


def calendar_tasks(world: World) -> list[Task]:
    """The staples list delivered from the usual store in three days, in the latest delivery window that clears the
    calendar that day (none when no window does)."""
    out: list[Task] = []
    loc = world.persona.bank
    usual_key = grocery.usual_store(world.seed, loc)
    chains = grocery.stores(loc)
    u_pos = next(i for i, s in enumerate(chains, start=1) if s["key"] == usual_key)
    u_name = next(s["name"] for s in chains if s["key"] == usual_key)
    cal_day = world.now.date() + dt.timedelta(days=3)
    busy = [
        (e.data["start"][:19], e.data["end"][:19])
        for e in world.of_kind("calendar_event")
        if not e.data.get("all_day") and e.data["start"][:10] == cal_day.isoformat()
    ]
    fits = [
        w
        for w in seed_windows(world, store_rows(world))
        if w["store"] == usual_key
        and w["kind"] == "delivery"
        and w["starts_at"][:10] == cal_day.isoformat()
        and w["taken"] < w["capacity"]
        and not any(w["starts_at"] < b and a < w["ends_at"] for a, b in busy)
    ]
    if fits:
        w = fits[-1]
        KIT.adder(world, out)(
            "staples-around-calendar",
            [APP, "calendar"],
            kind="action",
            difficulty="hard",
            time_limit_seconds=720,
            instruction=f"Have my “{STAPLES_LIST}” list delivered from {u_name} on {cal_day:%A, %B %-d}, in the "
            "latest delivery window that doesn't overlap anything in my calendar that day.",
            expected={
                "store_id": u_pos,
                "store_key": usual_key,
                "day": cal_day.isoformat(),
                "window_start": w["starts_at"],
                "busy": busy,
            },
            rubric=[
                RubricItem(
                    id="window",
                    weight=85,
                    requirement=f"A {u_name} delivery order for the window starting {w['starts_at'][11:16]}",
                    check=KIT.sql(
                        """SELECT COUNT(*) FROM orders WHERE world_ref IS NULL AND store_id = ?
                                              AND fulfilment = 'delivery' AND window_start = ?""",
                        [u_pos, w["starts_at"]],
                        [[1]],
                    ),
                ),
                new_order(),
            ],
        )
    return out


def staples_around_calendar(task: Task, web: Web) -> str:
    """The staples list into the cart, checked out in the window the task names."""
    exp = task.expected
    key = exp["store_key"]
    staples = web.one(APP, "SELECT id FROM lists WHERE name = ?", (STAPLES_LIST,))
    basketful.post(web, "/api/lists", [("action", "to_cart"), ("list", str(staples)), ("store", key)])
    window = web.one(
        APP,
        "SELECT id FROM windows WHERE store_id = ? AND kind = 'delivery' AND starts_at = ?",
        (exp["store_id"], exp["window_start"]),
    )
    return f"Delivery at {exp['window_start'][11:16]}: " + basketful.checkout(web, key, "delivery", window, "300") + "."


SCENARIOS = [
    Scenario(
        home=APP,
        apps=(APP, "bank"),
        tasks=reorder_tasks,
        solvers={"reorder-last-basket": reorder_last_basket},
        after="tips-this-year",
        when=in_use,
    ),
    Scenario(
        home=APP,
        apps=(APP, "mail"),
        tasks=mail_tasks,
        solvers={"first-order-to-list": first_order_to_list},
        after="camping-list",
        when=in_use,
    ),
    Scenario(
        home=APP,
        apps=(APP, "calendar"),
        tasks=calendar_tasks,
        solvers={"staples-around-calendar": staples_around_calendar},
        after="camping-list",
        when=in_use,
    ),
]
