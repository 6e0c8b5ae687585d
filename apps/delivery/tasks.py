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
from builder.tasks.phrasing import last_month
from builder.world import World, delivery

from .steps import KIT, SLACK_MINUTES, window, scheduled, charge_pending, new_order

APP = "delivery"
#: Orders delivered less than this many days before now are unrated in the seed (apps/delivery/seed.py).
UNRATED_DAYS = 7
#: Minutes either side of a scheduled time that a check accepts.


def _done(world: World) -> list:
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


def _open_for(r: dict, slot: dt.datetime) -> bool:
    kitchen = slot - dt.timedelta(minutes=r["prep_minutes"][1] + 15)
    return r["opens"] <= kitchen.strftime("%H:%M") and slot.strftime("%H:%M") < r["closes"]


def usual_dinner(world: World) -> tuple[dict, dt.datetime, list[dict], dict] | None:
    """The persona's usual order, to arrive at 7 pm today: ``(restaurant, slot, items, quote)`` (the restaurant of the
    home catalogue, the naive local slot, the items as the cart posts them, :func:`quote` with the usual tip), or
    None without a usual order or when its restaurant is closed then."""
    usual = [e for e in _done(world) if e.data["usual"]]
    place = next((x for x in delivery.home_catalogue(world.persona) if x["usual"]), None)
    if not usual or not place:
        return None
    slot = dt.datetime.combine(world.now.date(), dt.time(19, 0))
    if not _open_for(place, slot):
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
    return bool(_done(world))


def tasks(world: World) -> list[Task]:
    """Return DashBite's tasks for ``world`` (lookups, aggregations, actions; several with the bank and mail),
    in a fixed order."""
    p = world.persona
    cur = world.currency
    orders = _done(world)
    out: list[Task] = []
    tp = p.preferences.tipping_percent
    cat = delivery.home_catalogue(p)
    by_name = {x["name"]: x for x in cat}

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

    # 2. Last month's takeout (the card lines say DASHBITE*<restaurant>).
    first_this = today.replace(day=1)
    last_month = (first_this - dt.timedelta(days=1)).strftime("%Y-%m")
    in_month = [e for e in orders if e.data["placed_local"][:7] == last_month]
    m_total = sum(e.data["total_cents"] for e in in_month)
    m_name = dt.date.fromisoformat(f"{last_month}-01").strftime("%B %Y")
    task(
        "last-month-takeout",
        ["delivery", "bank"],
        kind="aggregation",
        difficulty="medium",
        time_limit_seconds=420,
        instruction=f"How much did I spend on DashBite food delivery in {m_name}, and how many orders was that?",
        expected={"month": last_month, "orders": len(in_month), "total_cents": m_total},
        rubric=[
            RubricItem(id="total", weight=80, requirement=f"States {money(m_total, cur)}", check=kit.amount(m_total)),
            RubricItem(
                id="count",
                weight=20,
                requirement=f"Says {len(in_month)} orders",
                check=Check(type="answer_text", any_of=[f"{len(in_month)} order"]),
            ),
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

    # 4. The biggest order of the month of the last order (with the bank's card line).
    month = orders[-1].data["placed_local"][:7]
    big = max((e for e in orders if e.data["placed_local"][:7] == month), key=lambda e: (e.data["total_cents"], e.at))
    b_name = dt.date.fromisoformat(f"{month}-01").strftime("%B %Y")
    task(
        "biggest-order",
        ["delivery", "bank"],
        kind="lookup",
        difficulty="medium",
        time_limit_seconds=360,
        instruction=f"Which was my most expensive DashBite order in {b_name}: the restaurant and the amount charged "
        "to my card?",
        expected={
            "order_id": big.data["order_id"],
            "restaurant": big.data["restaurant"],
            "total_cents": big.data["total_cents"],
        },
        rubric=[
            RubricItem(
                id="restaurant",
                weight=50,
                requirement=f"Names {big.data['restaurant']}",
                check=Check(type="answer_text", any_of=[big.data["restaurant"]]),
            ),
            RubricItem(
                id="total",
                weight=50,
                requirement=f"States {money(big.data['total_cents'], cur)}",
                check=kit.amount(big.data["total_cents"]),
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
                expected={"restaurant": fav, "orders": n},
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

    # 6. Schedule the usual order for 7 pm tonight, with the usual tip (the bank shows the charge).
    plan = usual_dinner(world)
    if plan:
        place, slot, items, q = plan
        task(
            "schedule-usual-dinner",
            ["delivery", "bank"],
            kind="action",
            difficulty="medium",
            time_limit_seconds=420,
            instruction=f"Order my usual from {place['name']} on DashBite, scheduled to arrive at 7 pm tonight, "
            "to my home, with my usual tip.",
            expected={
                "restaurant": place["name"],
                "items": items,
                "when": "later",
                "at": slot.strftime("%Y-%m-%dT%H:%M"),
                "tip": tp,
                **q,
            },
            rubric=[
                RubricItem(
                    id="scheduled",
                    weight=45,
                    requirement=f"A new order from {place['name']} scheduled for {slot:%H:%M} today "
                    f"(within {SLACK_MINUTES} minutes) with the usual dishes",
                    check=scheduled(place, slot, items, q),
                ),
                RubricItem(
                    id="charged",
                    weight=40,
                    requirement=f"The bank shows {money(q['total_cents'], cur)} pending from DashBite",
                    check=charge_pending(q),
                ),
                new_order(len(items)),
            ],
        )
        # 6b. The sick day (the usual order, work chat and the calendar): scenarios/errands/delivery.py.

    # 7. Reorder the last non-usual order, found by its confirmation mail's date, for 7:30 pm tonight.
    other = [e for e in orders if not e.data["usual"] and e.data["restaurant"] in by_name]
    slot = dt.datetime.combine(today, dt.time(19, 30))
    other = [e for e in other if _open_for(by_name[e.data["restaurant"]], slot)]
    if other:
        e = other[-1]
        d = e.data
        items = [{"dish_id": x["dish_id"], "qty": x["qty"], "option_ids": x.get("option_ids", [])} for x in d["items"]]
        placed = dt.datetime.fromisoformat(d["placed_local"])
        task(
            "reorder-from-mail",
            ["delivery", "mail"],
            kind="action",
            difficulty="hard",
            time_limit_seconds=600,
            instruction=f"I got a DashBite order confirmation by email on {placed:%B %-d, %Y}. Order exactly the same "
            "again (same dishes, options and quantities), delivered to my home at 7:30 pm tonight.",
            expected={
                "order_id": d["order_id"],
                "restaurant": d["restaurant"],
                "items": items,
                "when": "later",
                "at": slot.strftime("%Y-%m-%dT%H:%M"),
                "tip": tp,
            },
            rubric=[
                RubricItem(
                    id="reordered",
                    weight=85,
                    requirement=f"A new order from {d['restaurant']} for {slot:%H:%M} today with the "
                    f"{len(items)} dishes of {d['order_id']} and a subtotal of "
                    f"{money(d['subtotal_cents'], cur)}",
                    check=KIT.sql(
                        """SELECT COUNT(*) FROM orders o WHERE o.world_ref IS NULL
                                              AND o.restaurant_name = ? AND o.scheduled_for BETWEEN ? AND ?
                                              AND o.subtotal_cents = ?
                                              AND (SELECT COUNT(*) FROM order_items i WHERE i.order_id = o.id) = ?""",
                        [d["restaurant"], *window(slot), d["subtotal_cents"], len(items)],
                        [[1]],
                    ),
                ),
                new_order(len(items)),
            ],
        )

    # 8. Lunch tomorrow with the best promo code the account has (SAVE5: the first-order code does not apply).
    slot = dt.datetime.combine(today + dt.timedelta(days=1), dt.time(12, 30))
    cuisine = (p.preferences.cuisines or ["American"])[-1]
    lunch = [x for x in cat if x["cuisine"] == cuisine and not x["usual"] and _open_for(x, slot)] or [
        x for x in cat if not x["usual"] and _open_for(x, slot)
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
        name = delivery.dish_name(dish, p.locale)
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
    """DashBite's counterfactual and preference tasks: last month's tips at another rate, last month without delivery
    fees, the weekday the persona orders most. None without orders."""
    from builder.tasks import answers as A
    from builder.tasks.phrasing import month_phrase

    p = world.persona
    _pid, cur, today = p.id, world.currency, world.now.date()
    orders = _done(world)
    out: list[Task] = []
    if not orders:
        return out

    task = KIT.adder(world, out)

    start, _ = last_month(today)
    month = [e for e in orders if start.isoformat()[:7] == e.data["placed_local"][:7]]
    tp = p.preferences.tipping_percent or 15
    alt = 15 if tp != 15 else 20
    if month:
        paid = sum(e.data["tip_cents"] for e in month)
        would = sum(e.data["subtotal_cents"] * alt // 100 for e in month)
        task(
            "cf-tip-rate",
            ["delivery", "bank"],
            kind="aggregation",
            category="counterfactual",
            difficulty="medium",
            time_limit_seconds=480,
            instruction=f"Had I tipped exactly {alt}% of the food subtotal (rounded down to the cent) on my DashBite "
            f"orders {month_phrase(start, today)}, what would I have tipped in total, compared with what I "
            "actually tipped? What's the difference?",
            expected={
                "orders": len(month),
                "tips_cents": paid,
                "alt_percent": alt,
                "alt_tips_cents": would,
                "difference_cents": would - paid,
            },
            rubric=[
                RubricItem(id="would", weight=50, requirement=f"States {money(would, cur)}", check=A.amount(would)),
                RubricItem(
                    id="paid", weight=25, requirement=f"States {money(paid, cur)} actually tipped", check=A.amount(paid)
                ),
                RubricItem(
                    id="difference",
                    weight=25,
                    requirement=f"States {money(abs(would - paid), cur)}",
                    check=A.amount(would - paid),
                ),
            ],
        )
        fees = sum(e.data["delivery_fee_cents"] for e in month)
        spent = sum(e.data["total_cents"] for e in month)
        task(
            "cf-no-delivery-fee",
            ["delivery", "bank"],
            kind="aggregation",
            category="counterfactual",
            difficulty="medium",
            time_limit_seconds=480,
            instruction=f"If DashBite had waived the delivery fee on all my orders {month_phrase(start, today)}, what "
            "would those orders have cost me in total, and how much of that is the delivery fees?",
            expected={
                "orders": len(month),
                "total_cents": spent,
                "delivery_fees_cents": fees,
                "without_cents": spent - fees,
            },
            rubric=[
                RubricItem(
                    id="without",
                    weight=60,
                    requirement=f"States {money(spent - fees, cur)}",
                    check=A.amount(spent - fees),
                ),
                RubricItem(
                    id="fees",
                    weight=40,
                    requirement=f"States {money(fees, cur)} of delivery fees",
                    check=A.amount(fees),
                ),
            ],
        )

    cuisines = Counter(e.data["cuisine"] for e in orders if not e.data["usual"] and e.data.get("cuisine"))
    top = cuisines.most_common(2)
    if top and (len(top) == 1 or top[0][1] > top[1][1]):
        c, n = top[0]
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
                RubricItem(id="cuisine", weight=70, requirement=f"Says {c}", check=A.text(c)),
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
