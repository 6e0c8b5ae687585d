"""DashBite's answers summed over several apps (ids ``<persona>/delivery/x-...``)."""

from __future__ import annotations

import datetime as dt

from apps.delivery.tasks import in_use
from builder.money import money
from builder.tasks.collect import Scenario
from builder.tasks.model import RubricItem, Task
from builder.tasks.reader import Reading, See, reader
from builder.world import World
from scenarios import RECAPS


def crossapp_tasks(world: World) -> list[Task]:
    """A month's food spending across DashBite, Basketful, TableTime meals and coffee (card) for the last two months,
    and last week's doorstep deliveries across DashBite, Basketful and Shopwell. Missing material gives no task."""
    from apps.bank.spending import service_spend
    from builder.tasks import answers as A
    from builder.tasks.crossapp import month_window
    from builder.tasks.phrasing import month_phrase

    p = world.persona
    pid, cur, today = p.id, world.currency, world.now.date()
    out: list[Task] = []
    asks = [
        (
            "How much did I spend on food {when}? Split it into DashBite takeout, Basketful groceries, meals out "
            "that I booked on TableTime (what my card was charged), and coffee shops on my cards, then the total."
        ),
        (
            "Food budget check: what went {when} on DashBite, on Basketful, on restaurant meals booked through "
            "TableTime (card charges) and on coffee? Each figure and the sum, please."
        ),
        (
            "Split my food spending {when} four ways: DashBite, Basketful, TableTime restaurant meals (as charged to "
            "my card) and coffee on my cards. What was each, and what did it add up to?"
        ),
    ]
    for back in (1, 2, 3):
        start, end = month_window(world, back)
        spends = {s.app: s for s in service_spend(world, start, end) if s.app in ("delivery", "grocery", "dining")}
        coffee = sum(
            e.data["amount_cents"]
            for e in world.of_kind("card_purchase")
            if e.status == "done" and e.data.get("category") == "coffee" and start <= e.at.date() <= end
        )
        if len(spends) < 3 or not coffee:
            continue
        parts = [
            ("delivery", "DashBite", spends["delivery"].total_cents),
            ("grocery", "Basketful", spends["grocery"].total_cents),
            ("dining", "TableTime meals", spends["dining"].total_cents),
            ("coffee", "Coffee", coffee),
        ]
        total = sum(x[2] for x in parts)
        when = month_phrase(start, today)
        out.append(
            Task(
                id=f"{pid}/delivery/x-food-month-{start:%Y-%m}",
                persona=pid,
                apps_involved=["bank", "delivery", "dining", "grocery"],
                kind="aggregation",
                difficulty="hard",
                time_limit_seconds=1200,
                instruction=asks[back - 1].format(when=when),
                expected={"month": f"{start:%Y-%m}", "parts_cents": {k: c for k, _, c in parts}, "total_cents": total},
                rubric=[
                    RubricItem(id=k, weight=18, requirement=f"{label}: {money(c, cur)}", check=A.amount(c))
                    for k, label, c in parts
                ]
                + [RubricItem(id="total", weight=28, requirement=f"Total {money(total, cur)}", check=A.amount(total))],
            )
        )

    # Last week (Monday to Sunday): what came to the door.
    monday = today - dt.timedelta(days=today.weekday() + 7)
    sunday = monday + dt.timedelta(days=6)

    def day_of(iso: str | None) -> dt.date | None:
        return dt.date.fromisoformat(iso[:10]) if iso else None

    food = [
        e
        for e in world.of_kind("food_order")
        if e.status == "done" and monday <= (day_of(e.data.get("delivered_local")) or e.at.date()) <= sunday
    ]
    groc = [
        e
        for e in world.of_kind("grocery_order")
        if e.status == "done" and monday <= day_of(e.data["delivery_window_start"]) <= sunday
    ]
    parcels = [
        e
        for e in world.of_kind("retail_delivery")
        if e.status == "done" and monday <= day_of(e.data["delivered_local"]) <= sunday
    ]
    got = [(k, n) for k, n in (("delivery", len(food)), ("grocery", len(groc)), ("shop", len(parcels))) if n]
    if len(got) >= 2 and food:
        label = {"delivery": "DashBite orders", "grocery": "Basketful grocery deliveries", "shop": "Shopwell parcels"}
        total = sum(n for _, n in got)
        ws = [25] * len(got)
        out.append(
            Task(
                id=f"{pid}/delivery/x-doorstep-last-week",
                persona=pid,
                apps_involved=sorted(k for k, _ in got),
                kind="aggregation",
                difficulty="medium",
                time_limit_seconds=900,
                instruction=f"How many deliveries came to my door last week ({monday:%A, %B %-d} to "
                f"{sunday:%A, %B %-d})? Count the DashBite orders, Basketful grocery deliveries and "
                "Shopwell parcels separately, then all together.",
                expected={"week": monday.isoformat(), "counts": dict(got), "total": total},
                rubric=[
                    RubricItem(id=k, weight=w, requirement=f"{n} {label[k]}", check=A.number(n))
                    for (k, n), w in zip(got, ws)
                ]
                + [RubricItem(id="total", weight=100 - sum(ws), requirement=f"{total} in all", check=A.number(total))],
            )
        )
    return out


_COFFEE = ("coffee", "kaffee", "café")


@reader("month")
def read_food_month(see: See, given: dict) -> Reading:
    """The month's food: DashBite's Orders filtered to the month; Basketful's orders placed that month; each
    TableTime reservation of the month (past tab) matched to the card line of its restaurant that day or the next;
    the card lines the bank files under Coffee."""
    from apps.delivery.reader import orders
    from scenarios.recaps.pages import basketful_orders, card_lines, tabletime_past

    month = given["month"]
    start = dt.date.fromisoformat(f"{month}-01")
    end = (start + dt.timedelta(days=32)).replace(day=1) - dt.timedelta(days=1)
    food = sum(o["cents"] for o in orders(see, month))
    groc = sum(o["cents"] for o in basketful_orders(see) if start <= o["placed"] <= end)
    lines = card_lines(see, start, end + dt.timedelta(days=1))
    coffee = sum(-x["cents"] for x in lines if x["category"].casefold() in _COFFEE and x["day"] <= end)
    meals, steps = 0, []
    used: set[int] = set()
    for b in tabletime_past(see):
        if not start <= b["day"] <= end:
            continue
        hit = next(
            (
                i
                for i, x in enumerate(lines)
                if i not in used
                and x["cents"] < 0
                and x["description"].casefold() == b["restaurant"].casefold()
                and b["day"] <= x["day"] <= b["day"] + dt.timedelta(days=1)
            ),
            None,
        )
        if hit is None:
            steps.append(f"  TableTime {b['restaurant']} {b['day']}: no card line")
            continue
        used.add(hit)
        meals += -lines[hit]["cents"]
        steps.append(f"  TableTime {b['restaurant']} {b['day']}: card {-lines[hit]['cents']}")
    total = food + groc + meals + coffee
    return Reading(
        values={"delivery": food, "grocery": groc, "dining": meals, "coffee": coffee, "total": total},
        steps=[f"{month}: DashBite {food}, Basketful {groc}, coffee on the cards {coffee}", *steps, f"total {total}"],
    )


@reader("week")
def read_doorstep(see: See, given: dict) -> Reading:
    """The week's deliveries: DashBite orders whose page says delivered that week, Basketful orders delivered in a
    window that week, Shopwell orders whose status says delivered that week."""
    from scenarios.recaps.pages import basketful_orders, dashbite_delivered, dashbite_orders, shop_delivered

    monday = dt.date.fromisoformat(given["week"])
    sunday = monday + dt.timedelta(days=6)
    food = [
        o
        for o in dashbite_orders(see)
        if monday - dt.timedelta(days=1) <= o["day"] <= sunday
        and monday <= dashbite_delivered(see, o["href"]) <= sunday
    ]
    groc = [
        o
        for o in basketful_orders(see)
        if o["window"]
        and monday <= o["window"] <= sunday
        and o["status"].casefold().startswith(("delivered", "gelief"))
    ]
    shop = shop_delivered(see, monday, sunday)
    total = len(food) + len(groc) + len(shop)
    return Reading(
        values={"delivery": len(food), "grocery": len(groc), "shop": len(shop), "total": total},
        steps=[
            f"{monday} to {sunday}: DashBite {len(food)} ({', '.join(o['restaurant'] for o in food)}), Basketful "
            f"{len(groc)}, Shopwell {len(shop)} ({', '.join(x['number'] for x in shop)})"
        ],
    )


SCENARIOS = [
    Scenario(
        home="delivery",
        apps=("delivery",),
        tasks=crossapp_tasks,
        rank=RECAPS,
        when=in_use,
        # One reader for every month a task can name (its id carries the month: a pattern key).
        readers={
            "x-food-month-*": read_food_month,
            "x-doorstep-last-week": read_doorstep,
        },
    )
]
