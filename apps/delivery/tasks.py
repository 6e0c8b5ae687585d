"""DashBite tasks derived from the world, each with its expected values and rubric.

Action checks read DashBite's (and the bank's) database end state. Rows the app writes are told apart from
seeded ones: an order placed in the app has ``world_ref IS NULL``, a rating given in the app sets
``rated_in_app = 1`` (the seed never does); so an agent that does nothing fails every action check. Check
queries are fixed SQL text with ``?`` placeholders; every world value travels in ``params``. Times in the
checks are naive local ISO (the app's storage); the guest's clock starts at the world's now (as_of 09:00).
"""

from __future__ import annotations

import datetime as dt
from collections import Counter

from builder.money import money
from builder.tasks import kit
from builder.tasks.model import Change, Check, RubricItem, Task
from builder.reference.delivery import catalogue as delivery
from builder.world import World

from .steps import KIT, new_order, window

APP = "delivery"
#: Orders delivered less than this many days before now are unrated in the seed (apps/delivery/seed.py).
UNRATED_DAYS = 7
#: Minutes either side of a scheduled time that a check accepts.


def done_orders(world: World) -> list:
    """The persona's DashBite orders that are done (delivered), oldest first."""
    return [e for e in world.of_kind("food_order") if e.status == "done"]


def quote(restaurant: dict, subtotal: int, tip_percent: int, discount: int = 0) -> dict:
    """What DashBite charges for ``subtotal`` at ``restaurant`` (web/lib/dash.ts price): ``{"subtotal_cents",
    "discount_cents", "delivery_fee_cents", "service_fee_cents", "small_order_fee_cents", "tip_cents",
    "total_cents"}``; the tip is ``tip_percent`` of the subtotal, floored."""
    f = delivery.fees(restaurant, subtotal)
    tip = subtotal * tip_percent // 100
    return {
        "subtotal_cents": subtotal,
        "discount_cents": discount,
        **f,
        "tip_cents": tip,
        "total_cents": subtotal
        - discount
        + f["delivery_fee_cents"]
        + f["service_fee_cents"]
        + f["small_order_fee_cents"]
        + tip,
    }


def open_for(r: dict, slot: dt.datetime) -> bool:
    """Whether restaurant ``r`` takes an order to arrive at ``slot`` (its kitchen open in time, not yet closed)."""
    kitchen = slot - dt.timedelta(minutes=r["prep_minutes"][1] + 15)
    return r["opens"] <= kitchen.strftime("%H:%M") and slot.strftime("%H:%M") < r["closes"]


def usual_dinner(world: World) -> tuple[dict, dt.datetime, list[dict], dict] | None:
    """The persona's usual order, to arrive at 7 pm today: ``(restaurant, slot, items, quote)`` (the restaurant of the
    home catalogue, the naive local slot, the items as the cart posts them, :func:`quote` with the usual tip), or
    None without a usual order or when its restaurant is closed then."""
    usual = [e for e in done_orders(world) if e.data["usual"]]
    place = next((x for x in delivery.home_catalogue(world.persona) if x["usual"]), None)
    if not usual or not place:
        return None
    slot = dt.datetime.combine(world.now.date(), dt.time(19, 0))
    if not open_for(place, slot):
        return None
    items = [
        {"dish_id": x["dish_id"], "qty": x["qty"], "option_ids": x.get("option_ids", [])}
        for x in usual[-1].data["items"]
    ]
    tp = world.persona.preferences.tipping_percent
    return place, slot, items, quote(place, sum(x["qty"] * x["price_cents"] for x in usual[-1].data["items"]), tp)


def in_use(world: World) -> bool:
    """Whether the persona has ordered on DashBite: without an order it has no tasks, nor do the scenarios homed
    there."""
    return bool(done_orders(world))


def tasks(world: World) -> list[Task]:
    """Return DashBite's own tasks for ``world`` (lookups, aggregations, actions that need no other app; the ones with
    the bank and mail are scenarios homed here: scenarios/{checks,errands,pairs}/delivery.py), in a fixed order."""
    p = world.persona
    cur = world.currency
    orders = done_orders(world)
    out: list[Task] = []
    tp = p.preferences.tipping_percent
    cat = delivery.home_catalogue(p)

    task = KIT.adder(world, out)

    if not in_use(world):
        return out
    today = world.now.date()

    # 1. The usual tip (every order tips the same share of the subtotal).
    percents = Counter(
        round(e.data["tip_cents"] * 100 / e.data["subtotal_cents"]) for e in orders if e.data["subtotal_cents"]
    )
    usual_pct = min(percents.items(), key=lambda x: (-x[1], x[0]))[0]
    task(
        "usual-tip",
        ["delivery"],
        kind="aggregation",
        category="preference_inference",
        difficulty="easy",
        time_limit_seconds=300,
        instruction="What percentage do I usually tip on DashBite orders?",
        expected={"percent": usual_pct},
        rubric=[
            RubricItem(
                id="percent",
                weight=100,
                requirement=f"Says {usual_pct}% of the subtotal",
                check=kit.percent(usual_pct),
            )
        ],
    )

    # 3. The usual order: what is in it and what it costs.
    usual = [e for e in orders if e.data["usual"]]
    if usual:
        u = usual[-1].data
        names = [x["name"] for x in u["items"]]
        task(
            "usual-order",
            ["delivery"],
            kind="lookup",
            category="preference_inference",
            difficulty="easy",
            time_limit_seconds=240,
            instruction="What do I usually order on DashBite, from where, and what does it come to with fees and tip?",
            expected={"restaurant": u["restaurant"], "items": names, "total_cents": u["total_cents"]},
            rubric=[
                RubricItem(
                    id="restaurant",
                    weight=30,
                    requirement=f"Names {u['restaurant']}",
                    check=Check(type="answer_text", any_of=[u["restaurant"]]),
                ),
                RubricItem(
                    id="items",
                    weight=30,
                    requirement="Lists " + ", ".join(names),
                    check=Check(type="answer_list", items=[[x] for x in names]),
                ),
                RubricItem(
                    id="total",
                    weight=40,
                    requirement=f"States {money(u['total_cents'], cur)}",
                    check=kit.amount(u["total_cents"]),
                ),
            ],
        )

    # 5. The favourite restaurant besides the usual one, this year.
    year = world.now.year
    counts = Counter(e.data["restaurant"] for e in orders if not e.data["usual"] and e.at.year == year)
    if counts:
        fav, n = min(counts.items(), key=lambda x: (-x[1], x[0]))
        if list(counts.values()).count(n) == 1:
            task(
                "favourite-besides-usual",
                ["delivery"],
                kind="aggregation",
                category="preference_inference",
                difficulty="medium",
                time_limit_seconds=360,
                instruction=f"Apart from my usual place, which restaurant have I ordered from most on DashBite in {year}?",
                expected={"year": year, "restaurant": fav, "orders": n},
                rubric=[
                    RubricItem(
                        id="restaurant",
                        weight=80,
                        requirement=f"Names {fav}",
                        check=Check(type="answer_text", any_of=[fav]),
                    ),
                    RubricItem(
                        id="count",
                        weight=20,
                        requirement=f"Says {n} orders",
                        check=Check(type="answer_number", value=n),
                    ),
                ],
            )

    # 8. Lunch tomorrow with the best promo code the account has (SAVE5: the first-order code does not apply).
    slot = dt.datetime.combine(today + dt.timedelta(days=1), dt.time(12, 30))
    cuisine = (p.preferences.cuisines or ["American"])[-1]
    lunch = [x for x in cat if x["cuisine"] == cuisine and not x["usual"] and open_for(x, slot)] or [
        x for x in cat if not x["usual"] and open_for(x, slot)
    ]
    if lunch:
        from .seed import promos

        r = lunch[0]
        dish = (
            next(d for d in r["menu"] if d["section"] == "mains" and not any(g["pick"] == "one" for g in d["options"]))
            if any(d["section"] == "mains" and not any(g["pick"] == "one" for g in d["options"]) for d in r["menu"])
            else next(d for d in r["menu"] if not d["options"])
        )
        save5 = next(x for x in promos(world) if x["code"] == "SAVE5")
        qty = 2
        while qty * dish["price_cents"] < save5["min_subtotal_cents"]:
            qty += 1
        sub = qty * dish["price_cents"]
        q = quote(r, sub, tp, discount=min(save5["value"], sub))
        name = delivery.dish_name(dish, p.bank)
        task(
            "promo-lunch",
            ["delivery"],
            kind="action",
            difficulty="medium",
            time_limit_seconds=480,
            instruction=f"Order {qty} × {name} from {r['name']} on DashBite for lunch tomorrow, arriving at 12:30, "
            "and use whichever of my promo codes saves the most.",
            expected={
                "restaurant": r["name"],
                "items": [{"dish_id": dish["id"], "qty": qty, "option_ids": []}],
                "when": "later",
                "at": slot.strftime("%Y-%m-%dT%H:%M"),
                "tip": tp,
                "promo": "SAVE5",
                **q,
            },
            rubric=[
                RubricItem(
                    id="ordered",
                    weight=45,
                    requirement=f"A new order of {qty} × {name} from {r['name']} for 12:30 tomorrow",
                    check=KIT.sql(
                        """SELECT COUNT(*) FROM orders o JOIN order_items i ON i.order_id = o.id
                                              WHERE o.world_ref IS NULL AND o.restaurant_name = ?
                                              AND o.scheduled_for BETWEEN ? AND ? AND i.name = ? AND i.qty = ?""",
                        [r["name"], *window(slot), name, qty],
                        [[1]],
                    ),
                ),
                RubricItem(
                    id="promo",
                    weight=40,
                    requirement="It uses SAVE5 (the best code that applies)",
                    check=KIT.sql(
                        """SELECT COUNT(*) FROM orders WHERE world_ref IS NULL AND promo_code = ?
                                              AND discount_cents = ?""",
                        ["SAVE5", q["discount_cents"]],
                        [[1]],
                    ),
                ),
                new_order(1),
            ],
        )

    # 9. Rate the newest order (unrated in the seed).
    recent = [e for e in orders if e.at >= world.now - dt.timedelta(days=UNRATED_DAYS - 1)]
    if recent:
        e = recent[-1]
        task(
            "rate-last-order",
            ["delivery"],
            kind="action",
            difficulty="easy",
            time_limit_seconds=240,
            instruction=f"Rate my last DashBite order, from {e.data['restaurant']}, 5 stars with the comment "
            "“Arrived hot, thanks!”.",
            expected={"order_id": e.data["order_id"], "stars": 5, "comment": "Arrived hot, thanks!"},
            rubric=[
                RubricItem(
                    id="stars",
                    weight=55,
                    requirement="The order is rated 5 stars",
                    check=KIT.sql(
                        "SELECT COUNT(*) FROM orders WHERE order_id = ? AND rating = 5 AND rated_in_app = 1",
                        [e.data["order_id"]],
                        [[1]],
                    ),
                ),
                RubricItem(
                    id="comment",
                    weight=30,
                    requirement="With the comment",
                    check=KIT.sql(
                        "SELECT COUNT(*) FROM orders WHERE order_id = ? AND rated_in_app = 1 "
                        "AND instr(rating_comment, ?) > 0",
                        [e.data["order_id"], "Arrived hot"],
                        [[1]],
                    ),
                ),
                KIT.only(
                    "Nothing else changed at DashBite: only that order's rating",
                    Change(
                        table="orders",
                        op="update",
                        min=1,
                        max=1,
                        columns=["rating", "rating_comment", "rated_at", "rated_in_app"],
                    ),
                ),
            ],
        )
    out.extend(insight_tasks(world))
    return out


# --- Reasoning tasks (contradiction, counterfactual, preference inference) ---------------------------------------


def insight_tasks(world: World) -> list[Task]:
    """DashBite's preference tasks: the cuisine besides the usual, the weekday the persona orders most. None without
    orders. (Last month's tips at another rate and without delivery fees, with the bank: scenarios/pairs/delivery.py.)"""
    from builder.tasks import answers as A

    orders = done_orders(world)
    out: list[Task] = []
    if not orders:
        return out

    task = KIT.adder(world, out)

    cuisines = Counter(e.data["cuisine"] for e in orders if not e.data["usual"] and e.data.get("cuisine"))
    top = cuisines.most_common(2)
    if top and (len(top) == 1 or top[0][1] > top[1][1]):
        c, n = top[0]
        # The cuisine as DashBite names it in the persona's language (Vietnamesisch on a German desktop) is as good.
        from builder.reference.delivery import cuisines as cuisine_names

        local = cuisine_names().get(c, {}).get("de")
        task(
            "pref-cuisine",
            ["delivery"],
            kind="aggregation",
            category="preference_inference",
            difficulty="medium",
            time_limit_seconds=480,
            instruction="When I don't get my usual on DashBite, which cuisine do I go for most? How many of those other "
            "orders were that cuisine?",
            expected={"cuisine": c, "orders": n},
            rubric=[
                RubricItem(
                    id="cuisine",
                    weight=70,
                    requirement=f"Says {c}",
                    check=A.text(c, *([local] if local and local != c else [])),
                ),
                RubricItem(id="count", weight=30, requirement=f"Says {n} orders", check=A.number(n)),
            ],
        )

    days = Counter(dt.datetime.fromisoformat(e.data["placed_local"]).strftime("%A") for e in orders)
    top = days.most_common(2)
    if top and (len(top) == 1 or top[0][1] > top[1][1]):
        day, n = top[0]
        task(
            "pref-order-day",
            ["delivery"],
            kind="aggregation",
            category="preference_inference",
            difficulty="medium",
            time_limit_seconds=480,
            instruction="On which day of the week do I order DashBite most often? Count all my orders, and tell me how "
            "many fell on that day.",
            expected={"weekday": day, "orders": n, "of": len(orders)},
            rubric=[
                RubricItem(
                    id="day",
                    weight=70,
                    requirement=f"Says {day}",
                    check=A.text(
                        day,
                        ["Montag", "Dienstag", "Mittwoch", "Donnerstag", "Freitag", "Samstag", "Sonntag"][
                            ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"].index(day)
                        ],
                    ),
                ),
                RubricItem(id="count", weight=30, requirement=f"Says {n} orders", check=A.number(n)),
            ],
        )
    return out


# --- Cross-app answer tasks: food spending, what came to the door ----------------------------------------------
