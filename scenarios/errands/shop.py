"""Shopwell's errands across apps: an item returned and one ordered again with the bank's card lines, the last order
before a trip ordered again (each among Shopwell's own tasks), and after them a birthday present while away; with
their reference solutions."""

from __future__ import annotations

import datetime as dt

from apps.calendar import steps as daybook
from apps.dining import steps as tabletime
from apps.mail import steps as mailbox
from apps.messaging import steps as parley
from apps.shop import reader as shown
from apps.shop import steps as shopwell
from apps.shop.seed import orders, returnable_until, tracking_state
from apps.shop.tasks import APP, KIT, day, in_use, new_order
from builder.money import money
from builder.tasks import effects, kit
from builder.tasks.collect import Scenario
from builder.tasks.model import Change, RubricItem, Task
from builder.tasks.oracle import Web
from builder.tasks.reader import Reading, See, Unreadable, parse_money, reader, visible_text
from builder.reference.retail import catalogue as retail
from builder.world import World
from builder.world.accounts import payment_cards
from scenarios import ERRANDS


def long_tasks(world: World) -> list[Task]:
    """Shopwell's long-horizon chain: the parent's birthday falls while the persona is away on the next trip."""
    from builder.tasks import steps as S
    from builder.tasks.model import Change as _Change
    from builder.tasks.phrasing import day_phrase
    from builder.world.planted import airline_flights

    p = world.persona
    parent = next((c for c in p.contacts if c.relationship == "parent" and c.email), None)
    sibling = next((c for c in p.contacts if c.relationship == "sibling"), None)
    cards = payment_cards(world)
    present = shopwell.gift("cashmere-scarf")
    if not parent or not sibling or not cards or not present:
        return []
    moved = airline_flights(world)
    legs = [{**f.data, **moved.get(f.id, {})} for f in world.of_kind("flight")]
    now = world.now.isoformat()
    trips: dict[int, list[dict]] = {}
    for d in legs:
        trips.setdefault(d["trip"], []).append(d)
    first = parent.name.split()[0]
    bday = next(
        (
            e
            for e in world.of_kind("calendar_event")
            if e.data.get("source") == "birthday" and e.data["title"].startswith(f"{first}'s") and e.at > world.now
        ),
        None,
    )
    if not bday:
        return []
    away = next(
        (
            t
            for t in trips.values()
            if min(d["dep_local"] for d in t)[:19] > now
            and min(d["dep_local"] for d in t)[:10] <= bday.at.date().isoformat() <= max(d["arr_local"] for d in t)[:10]
        ),
        None,
    )
    places = tabletime.restaurants_by_visits(world, {sibling.name}) or tabletime.restaurants_by_visits(world)
    if not away or not places:
        return []
    back = dt.date.fromisoformat(max(d["arr_local"] for d in away)[:10])
    dinner = back + dt.timedelta(days=2)
    place, time, card, day = places[0], "19:00", cards[0], bday.at.date()
    dest = next(d["to"] for d in sorted(away, key=lambda d: d["dep_utc"]) if d.get("direction") == "outbound")
    from builder.reference.airports import airport_label

    task = Task(
        id=f"{p.id}/{APP}/birthday-while-away",
        persona=p.id,
        kind="action",
        category="long_horizon",
        apps_involved=[APP, "bank", "airline", "calendar", "dining", "mail", "messaging"],
        difficulty="hard",
        time_limit_seconds=1800,
        instruction=f"{first}'s birthday is {day_phrase(day, world.now.date())}, while I'm away. Order the "
        f"{present['title']} ({present['variant']}) from Shopwell for {first}, to my home, with my "
        f'{card["label"]}; put "Call {first}" in my calendar at 10 am on the birthday; book a table for '
        f"three ({first}, {sibling.name.split()[0]} and me) at the restaurant {sibling.name.split()[0]} and "
        f"I have booked together most, at 7 pm on the second day after I fly back; email {first} that I'll "
        f"call on the day and invite them to that dinner; and text {sibling.name.split()[0]} in Parley "
        "where and when the dinner is.",
        expected={
            "sku": present["sku"],
            "card_last4": card["last4"],
            "birthday": day.isoformat(),
            "parent": parent.name,
            "parent_email": parent.email,
            "sibling": sibling.name,
            "slug": place["slug"],
            "restaurant": place["name"],
            "day": dinner.isoformat(),
            "time": time,
            "party": 3,
            "away_to": airport_label(dest),
            "back": back.isoformat(),
        },
        rubric=[
            RubricItem(
                id="present",
                weight=15,
                requirement=f"A Shopwell order of {present['title']} ({present['sku']}) with {card['label']}",
                check=shopwell.bought(present["sku"], card["last4"]),
            ),
            RubricItem(
                id="call",
                weight=15,
                requirement=f'Daybook has "Call {first}" on {day} at 10:00',
                check=daybook.created(f"{day}T10:00", [["call"]]),
            ),
            RubricItem(
                id="booked",
                weight=20,
                requirement=f"{place['name']} booked for 3 on {dinner} at {time} (I fly back {back})",
                check=tabletime.booked(place["slug"], dinner.isoformat(), time, 3),
            ),
            RubricItem(
                id="mail",
                weight=15,
                requirement=f"A mail to {parent.name} ({parent.email}) names {place['name']}",
                check=mailbox.sent(parent.email, [[place["name"]]]),
            ),
            RubricItem(
                id="sibling",
                weight=15,
                requirement=f"{sibling.name} got a text naming {place['name']}",
                check=parley.sent_direct(sibling.name, [[place["name"]]]),
            ),
            RubricItem(
                id="says",
                weight=5,
                requirement="The mail says I'll call on the birthday and invites to the "
                "dinner with its day and time (judge: read it)",
            ),
            RubricItem(
                id="only-shop",
                weight=15,
                requirement="Nothing else changed at Shopwell: only the one order",
                check=S.diff(
                    "shop",
                    _Change(table="orders", op="insert", min=1, max=1),
                    _Change(table="order_items", op="insert", min=1, max=1),
                    _Change(table="cart_items", op="insert", min=0),
                    _Change(table="cart_items", op="delete", min=0),
                ),
            ),
        ],
    )
    return [
        effects.acting(
            task,
            ("calendar", f'"Call {first}" added', daybook.new_events(1)),
            ("dining", "the table booked", tabletime.new_booking()),
            ("mail", f"the mail to {parent.name} (and the answer it draws)", mailbox.new_mail(1)),
            ("messaging", f"the text to {sibling.name} (and the reply it draws)", parley.texts(1, 4)),
        )
    ]


def return_tasks(world: World) -> list[Task]:
    """Return an item inside the 30-day window (the first such delivered order); the refund shows in the bank at
    once."""
    cur, now = world.currency, world.now
    today = now.date()
    delivered = [o for o in orders(world) if tracking_state(o, now) == "delivered"]
    out: list[Task] = []
    task = KIT.adder(world, out)

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
            expected={"order": o["order_id"], "sku": it["sku"], "refund_cents": refund, "item": it["name"]},
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
    return out


def reorder_tasks(world: World) -> list[Task]:
    """Two more of the first item of the latest delivered order whose first item is a catalogue product (not a listing
    of the spec's own), with the main card (total = catalogue price x 2 + shipping); the bank shows the charge."""
    cur, now = world.currency, world.now
    delivered = [o for o in orders(world) if tracking_state(o, now) == "delivered"]
    card = payment_cards(world)[0]
    out: list[Task] = []
    task = KIT.adder(world, out)

    last = next((o for o in reversed(delivered) if o["items"][0]["sku"] in retail.by_sku()), None)
    if last is None:
        return out
    again = last["items"][0]
    prod, k = retail.by_sku()[again["sku"]]
    unit = retail.local_price(prod["variants"][k]["price_usd"], cur)
    sub = 2 * unit
    total2 = sub + retail.shipping(sub)
    placed = dt.date.fromisoformat(last["placed_at"][:10])
    variant = f" ({again['variant']})" if again["variant"] else ""
    task(
        "reorder-item",
        [APP, "bank"],
        kind="action",
        difficulty="medium",
        time_limit_seconds=480,
        instruction=f"Order two more of the {again['name']}{variant} I bought on Shopwell on {day(placed)}, "
        f"delivered to my home and paid with my {card['label']}. What is the order total?",
        expected={
            "sku": again["sku"],
            "qty": 2,
            "card_last4": card["last4"],
            "total_cents": total2,
            "item": again["name"],
            "variant": again["variant"] or "",
            "placed": placed.isoformat(),
        },
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
            new_order(1, 1),
        ],
    )
    return out


def trip_tasks(world: World) -> list[Task]:
    """Everything of the last order placed before the last trip, ordered again (the calendar and mail have the
    trip's dates; the bank shows the charge)."""
    p = world.persona
    today = world.now.date()
    all_orders = orders(world)
    out: list[Task] = []
    task = KIT.adder(world, out)

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
                new_order(len(set(skus)), len(skus)),
            ],
        )
    return out


def return_item(task: Task, web: Web) -> str:
    """Return the item; what comes back to the card."""
    exp = task.expected
    item = web.one(
        APP,
        "SELECT i.id FROM order_items i JOIN orders o ON o.id = i.order_id WHERE o.order_number = ? AND i.sku = ?",
        (exp["order"], exp["sku"]),
    )
    shopwell.confirm(
        web,
        "/api/returns",
        [("item", str(item)), ("order", exp["order"]), ("reason", "no_longer_needed"), ("comment", "")],
        "returned=",
    )
    refund = web.one(APP, "SELECT refund_cents FROM returns WHERE order_item_id = ?", (item,))
    return f"Returned it; {web.money(refund)} comes back to your card."


def reorder_item(task: Task, web: Web) -> str:
    """Two into the cart, checked out with the card the task names; the order total."""
    exp = task.expected
    card = web.one(APP, "SELECT id FROM cards WHERE last4 = ?", (exp["card_last4"],))
    shopwell.confirm(web, "/api/cart", [("action", "add"), ("sku", exp["sku"]), ("qty", str(exp["qty"]))], "")
    number, total = shopwell.place_order(web, card)
    return f"Ordered two more (order {number}); the order total is {web.money(total)}."


def reorder_before_trip(task: Task, web: Web) -> str:
    """Reorder that order from its page and check out."""
    shopwell.confirm(web, "/api/reorder", [("order", task.expected["order"])], "reordered=")
    number, total = shopwell.place_order(web)
    return f"Ordered everything from {task.expected['order']} again: order {number}, {web.money(total)}."


def birthday_while_away(task: Task, web: Web) -> str:
    """The present, the call in Daybook, the family dinner at TableTime, the mail to the parent, the sibling."""

    exp = task.expected
    shopwell.order(web, exp["sku"], 1, exp["card_last4"])
    first = exp["parent"].split()[0]
    daybook.create(
        web, title=f"Call {first}", date=exp["birthday"], start_time="10:00", end_date=exp["birthday"], end_time="10:30"
    )
    tabletime.book(web, exp["slug"], exp["day"], exp["time"], exp["party"])
    mailbox.send(
        web,
        exp["parent_email"],
        "Happy birthday soon!",
        f"I'm away on your birthday, so I'll call you that morning. And let's celebrate when I'm back: dinner "
        f"at {exp['restaurant']} on {exp['day']} at {exp['time']}, with {exp['sibling'].split()[0]}. Love you!",
    )
    parley.send(
        web,
        exp["sibling"],
        f"Birthday dinner for {first}: {exp['restaurant']}, {exp['day']} at "
        f"{exp['time']}. I booked for the three of us.",
    )
    return f"Ordered the present, added the call, booked {exp['restaurant']} and told both."


# --- readers (builder.tasks.reader): the order's page, the product's page, Shopwell's shipping terms -------------


@reader("order", "item")
def return_item_amount(see: See, given: dict) -> Reading:
    """The refund the order page's return form states for the item (else its quantity × price)."""
    o = shown.order(see, given["order"])
    lines = [
        x for x in o["lines"] if " ".join(x["name"].split()).casefold() == " ".join(given["item"].split()).casefold()
    ]
    if len(lines) != 1:
        raise Unreadable(f"order {given['order']} has {len(lines)} lines of {given['item']!r}")
    line = lines[0]
    refund = line["refund"] if line["refund"] is not None else line["qty"] * line["price"]
    return Reading(
        values={"amount": refund},
        steps=[
            f"order {given['order']}: {line['qty']} × {line['price']} cents; the return form's refund "
            + ("states it" if line["refund"] is not None else "is not open (no form): quantity × price")
        ],
    )


@reader("item", "variant", "placed", "qty")
def reorder_item_total(see: See, given: dict) -> Reading:
    """The item's price now (its product page, the ordered variant) × the quantity, plus shipping under the free-shipping line."""
    day = dt.date.fromisoformat(given["placed"])
    want = " ".join(given["item"].split()).casefold()
    hits = [
        o
        for o in shown.orders(see)
        if o["placed"] == day and any(" ".join(n.split()).casefold() == want for n in o["items"])
    ]
    if len(hits) != 1:
        raise Unreadable(f"{len(hits)} orders of {day} hold {given['item']!r}")
    line = next(
        x for x in shown.order(see, hits[0]["number"])["lines"] if " ".join(x["name"].split()).casefold() == want
    )
    if given["variant"] and given["variant"].casefold() not in line["variant"].casefold():
        raise Unreadable(
            f"order {hits[0]['number']} has {given['item']!r} as {line['variant']!r}, not {given['variant']!r}"
        )
    product = see.page(APP, f"/p/{line['slug']}", {"v": line["sku"]})
    unit = parse_money(visible_text(product.xpath('//*[@data-testid="price"]')[0]))
    sub = unit * int(given["qty"])
    foot = visible_text(product.xpath("//footer")[0])
    free_from = parse_money(foot.split("from", 1)[-1] if "from" in foot else foot.split(" ab ", 1)[-1])
    # The fee below the free-shipping line: what the latest order under it paid.
    fee = None
    for o in shown.orders(see):
        if o["total"] < free_from:
            paid = shown.order(see, o["number"])
            if paid["shipping"]:
                fee = paid["shipping"]
                break
    if sub < free_from and fee is None:
        raise Unreadable("no Shopwell order shows what shipping below the free-shipping line costs")
    ship = 0 if sub >= free_from else fee
    return Reading(
        values={"total": sub + ship},
        steps=[
            f"order {hits[0]['number']} of {day}: {line['name']} ({line['variant'] or 'one way'}), item {line['sku']}",
            f"its page now: {unit} cents each; {given['qty']} = {sub}",
            f"shipping: free from {free_from} cents, else {fee}: {ship}",
        ],
    )


SCENARIOS = [
    Scenario(
        home=APP,
        apps=(APP, "bank"),
        tasks=return_tasks,
        solvers={"return-item": return_item},
        readers={"return-item": return_item_amount},
        after=("charge-to-item", "item-price"),
        when=in_use,
    ),
    Scenario(
        home=APP,
        apps=(APP, "bank"),
        tasks=reorder_tasks,
        solvers={"reorder-item": reorder_item},
        readers={"reorder-item": reorder_item_total},
        after=("charge-to-item", "item-price"),
        when=in_use,
    ),
    Scenario(
        home=APP,
        apps=(APP, "calendar", "bank"),
        tasks=trip_tasks,
        solvers={"reorder-before-trip": reorder_before_trip},
        after=("review-product", "subscribe"),
        when=in_use,
    ),
    Scenario(
        home="shop",
        apps=("shop", "calendar"),
        tasks=long_tasks,
        solvers={"birthday-while-away": birthday_while_away},
        rank=ERRANDS,
        when=in_use,
    ),
]
