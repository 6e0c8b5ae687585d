"""DashBite (delivery) end to end: the production site on copies of the seeded databases.

Expected values come from the *world* (its ``food_order`` events) and from DashBite's catalogue
(``builder.reference.delivery.catalogue``: menu prices, option surcharges, the fee rules), never from the database:
the history's count and total, a month's orders, the last order to the cent; a cart with options priced by
the catalogue, promo codes refused (expired, first order only) and accepted (amount off), the tip rule;
placing it charges the card (the bank's ``card_authorizations`` has the pending line); reordering the usual
order in one click gives a new order whose total follows the catalogue and the persona's tip; a rating is
stored; bad input is refused with nothing written. Also: every world order's restaurant and dishes are in
the catalogue (100 %), the seed is byte-identical twice and agrees with the world; the tasks hold their
contract (do nothing 0, the reference solutions through the app's routes 100).
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import sqlite3
import urllib.error
import urllib.parse
import urllib.request

import pytest

from builder.money import money
from builder.reference.delivery import catalogue as delivery
from builder.world import payment_cards

from tests.app_e2e import Served, run_e2e

HOST = "dashbite.test"
PERSONAS = ["callum-brierley", "dana-whitfield", "jana-petersen", "jordan-lee"]


def _done(world):
    return [e for e in world.of_kind("food_order") if e.status == "done"]


def e2e_now(world) -> dt.datetime:
    """The e2e clock: the world's day at 18:30 (dinner time; the world's now is 09:00, before kitchens open)."""
    return world.now.replace(hour=18, minute=30, second=0, microsecond=0)


def price(restaurant: dict, subtotal: int, tip_percent: int, discount: int = 0, free_delivery: bool = False) -> dict:
    """The app's fee rules in Python (web/lib/dash.ts price): delivery, 10 % service half up, small-order fee,
    tip floored, the total."""
    f = delivery.fees(restaurant, subtotal)
    fee = 0 if free_delivery else f["delivery_fee_cents"]
    tip = subtotal * tip_percent // 100
    return {
        "subtotal_cents": subtotal,
        "discount_cents": discount,
        "delivery_fee_cents": fee,
        "service_fee_cents": f["service_fee_cents"],
        "small_order_fee_cents": f["small_order_fee_cents"],
        "tip_cents": tip,
        "total_cents": subtotal - discount + fee + f["service_fee_cents"] + f["small_order_fee_cents"] + tip,
    }


def _cart_choice(world) -> dict:
    """A restaurant of the persona's first cuisine (not the usual one) with a dish that has a priced required
    option and add-ons, and a dish without options; the chosen options, the quantities and the prices."""
    p = world.persona
    cat = delivery.home_catalogue(p)
    cuisine = (p.preferences.cuisines or ["American"])[0]
    ranked = [x for x in cat if x["cuisine"] == cuisine and not x["usual"]] + [x for x in cat if not x["usual"]]
    for r in ranked:
        rich = [
            d
            for d in r["menu"]
            if any(g["pick"] == "one" and any(c["price_cents"] for c in g["choices"]) for g in d["options"])
            and any(g["pick"] == "many" for g in d["options"])
        ]
        plain = [d for d in r["menu"] if not d["options"] and d["section"] != "mains"]
        if rich and plain:
            d, e = rich[0], plain[0]
            ids, labels, unit = [], [], d["price_cents"]
            for g in d["options"]:
                c = max(g["choices"], key=lambda c: c["price_cents"]) if g["pick"] == "one" else g["choices"][0]
                ids.append(f"{g['key']}:{c['id']}")
                labels.append(c["label"]["de"] if p.bank.startswith("de") else c["label"]["en"])
                unit += c["price_cents"]
            return {"restaurant": r, "dish": d, "plain": e, "option_ids": ids, "option_labels": labels, "unit": unit}
    raise AssertionError("no restaurant with options")


def world_facts(world) -> dict:
    """Every value the browser tests expect, from the world and DashBite's catalogue."""
    from apps.delivery.seed import credentials, promos, scale

    p = world.persona
    cur = world.currency
    tp = p.preferences.tipping_percent
    orders = _done(world)
    last = orders[-1]
    month = last.data["placed_local"][:7]
    cat = delivery.home_catalogue(p)
    usual_place = next(x for x in cat if x["usual"])
    usual_items = [x for x in orders if x.data["usual"]][-1].data["items"]
    usual_sub = sum(x["qty"] * x["price_cents"] for x in usual_items)
    pick = _cart_choice(world)
    r = pick["restaurant"]
    qty = 2
    save5 = next(x for x in promos(world) if x["code"] == "SAVE5")
    while qty * pick["unit"] + pick["plain"]["price_cents"] < save5["min_subtotal_cents"]:
        qty += 1
    cart_sub = qty * pick["unit"] + pick["plain"]["price_cents"]
    cart_tip = 15
    creds = credentials(world)
    card = payment_cards(world)[0]
    now = e2e_now(world)
    recent = [e for e in orders if e.at >= world.now - dt.timedelta(days=7)]
    return {
        "username": creds["username"],
        "password": creds["password"],
        "session_token": creds["session_token"],
        "now": now.isoformat(),
        "currency": cur,
        "city": p.identity.address.city,
        "tip_percent": tp,
        "history": {
            "count": len(orders),
            "total_cents": sum(e.data["total_cents"] for e in orders),
            "month": month,
            "month_count": sum(e.data["placed_local"][:7] == month for e in orders),
        },
        "last": {
            "order_id": last.data["order_id"],
            "restaurant": last.data["restaurant"],
            "items": [
                {
                    "name": x["name"],
                    "qty": x["qty"],
                    "options": x.get("options", []),
                    "line_cents": x["qty"] * x["price_cents"],
                }
                for x in last.data["items"]
            ],
            **{
                k: last.data[k]
                for k in (
                    "subtotal_cents",
                    "delivery_fee_cents",
                    "service_fee_cents",
                    "tip_cents",
                    "total_cents",
                    "delivery_address",
                )
            },
            "total_text": money(last.data["total_cents"], cur),
        },
        "usual": {
            "restaurant": usual_place["name"],
            "items": [x["name"] for x in usual_items],
            "reorder": price(usual_place, usual_sub, tp),
        },
        "cart": {
            "slug": r["id"],
            "restaurant": r["name"],
            "dish": delivery.dish_name(pick["dish"], p.bank),
            "dish_id": pick["dish"]["id"],
            "option_ids": pick["option_ids"],
            "option_labels": pick["option_labels"],
            "unit_cents": pick["unit"],
            "qty": qty,
            "plain": delivery.dish_name(pick["plain"], p.bank),
            "plain_id": pick["plain"]["id"],
            "plain_cents": pick["plain"]["price_cents"],
            "instructions": '<b>No onions</b> & "extra" lime',
            "tip_percent": cart_tip,
            "before": price(r, cart_sub, cart_tip),
            "with_save5": price(r, cart_sub, cart_tip, discount=min(save5["value"], cart_sub)),
            "dropoff": "Blue door, ring twice",
        },
        "search": {
            "q": usual_place["name"].split()[0].lower(),
            "expect": usual_place["name"],
            "cuisine": r["cuisine"],
            "cuisine_count": sum(x["cuisine"] == r["cuisine"] for x in cat),
        },
        "restaurant_count": len(cat),
        "rate": {"order_id": recent[-1].data["order_id"]} if recent else None,
        "card": {"last4": card["last4"], "account": card["account"]},
        "promo_min_text": money(scale(world, 2500), cur),
    }


@pytest.mark.parametrize("stem", PERSONAS)
def test_every_world_order_is_on_the_menu(stem):
    """100 % of the world's food orders name a DashBite restaurant of the home city and dishes it lists, at the
    menu price plus the chosen options' surcharges; the usual order is verbatim; two restaurants or more per cuisine."""
    from tests.conftest import _world

    persona, world = _world(stem)
    cat = {x["name"]: x for x in delivery.home_catalogue(persona)}
    assert len(cat) >= 2 * len(delivery.cuisines())
    usual = persona.routines.usual_order
    assert usual.restaurant in cat and all(
        any(i == delivery.dish_name(d, persona.bank) for d in cat[usual.restaurant]["menu"]) for i in usual.items
    )
    orders = _done(world)
    assert orders
    for e in orders:
        place = cat[e.data["restaurant"]]
        dishes = {d["id"]: d for d in place["menu"]}
        for it in e.data["items"]:
            d = dishes[it["dish_id"]]
            assert it["name"] == delivery.dish_name(d, persona.bank)
            extra = {f"{g['key']}:{c['id']}": c["price_cents"] for g in d["options"] for c in g["choices"]}
            assert it["price_cents"] == d["price_cents"] + sum(extra[x] for x in it["option_ids"]), (e.id, it)
        if not e.data["usual"]:
            assert e.data["delivery_fee_cents"] == place["delivery_fee_cents"]
            assert e.data["service_fee_cents"] == (e.data["subtotal_cents"] * 10 + 50) // 100
            assert e.data["subtotal_cents"] >= place["minimum_cents"]


def test_delivery_web_end_to_end(site_build, world, default_layer, tmp_path):
    facts = world_facts(world)
    with Served(default_layer, tmp_path, now=facts["now"]) as served:
        print(run_e2e("delivery", facts, served, tmp_path)[-6000:])
        _check_writes(served, facts)


def _check_writes(served: Served, facts: dict) -> None:
    """What the browser did is what the app and the bank wrote: two orders, their items, the charges, a rating."""
    con = sqlite3.connect(served.database("delivery"))
    made = con.execute(
        "SELECT order_id, restaurant_name, subtotal_cents, discount_cents, promo_code, tip_cents, "
        "total_cents, usual, dropoff_instructions FROM orders WHERE world_ref IS NULL ORDER BY id"
    ).fetchall()
    c, u = facts["cart"], facts["usual"]
    assert [(m[1], m[2], m[3], m[4], m[5], m[6], m[7], m[8]) for m in made] == [
        (
            c["restaurant"],
            c["with_save5"]["subtotal_cents"],
            c["with_save5"]["discount_cents"],
            "SAVE5",
            c["with_save5"]["tip_cents"],
            c["with_save5"]["total_cents"],
            0,
            c["dropoff"],
        ),
        (
            u["restaurant"],
            u["reorder"]["subtotal_cents"],
            0,
            None,
            u["reorder"]["tip_cents"],
            u["reorder"]["total_cents"],
            1,
            "",
        ),
    ], made
    lines = con.execute(
        "SELECT i.name, i.qty, i.unit_price_cents, i.option_ids, i.special_instructions FROM order_items i "
        "JOIN orders o ON o.id = i.order_id WHERE o.order_id = ? ORDER BY i.position",
        (made[0][0],),
    ).fetchall()
    assert [(x[0], x[1], x[2], json.loads(x[3]), x[4]) for x in lines] == [
        (c["dish"], c["qty"], c["unit_cents"], c["option_ids"], c["instructions"]),
        (c["plain"], 1, c["plain_cents"], [], ""),
    ], lines
    if facts["rate"]:
        assert con.execute(
            "SELECT rating, rated_in_app FROM orders WHERE order_id = ?", (facts["rate"]["order_id"],)
        ).fetchone() == (4, 1)
    assert con.execute("SELECT COUNT(*) FROM cart_items").fetchone() == (0,)
    con.close()
    mail = sqlite3.connect(served.database("mail"))
    subjects = [
        r[0]
        for r in mail.execute("SELECT subject FROM messages WHERE from_email = 'orders@dashbite.test' ORDER BY id")
        if made[0][0] in r[0] or made[1][0] in r[0]
    ]
    mail.close()
    assert subjects == [
        f"Your DashBite order from {c['restaurant']} ({made[0][0]})",
        f"Your DashBite order from {u['restaurant']} ({made[1][0]})",
    ], subjects
    bank = sqlite3.connect(served.database("bank"))
    auth = bank.execute(
        "SELECT c.kind, c.reference, c.amount_cents, c.status, a.kind FROM card_authorizations c "
        "JOIN accounts a ON a.id = c.account_id WHERE c.app = 'delivery' ORDER BY c.id"
    ).fetchall()
    bank.close()
    acct = facts["card"]["account"]
    assert auth == [
        ("charge", made[0][0], made[0][6], "pending", acct),
        ("charge", made[1][0], made[1][6], "pending", acct),
    ], auth


def test_seed_is_byte_identical_and_agrees_with_the_world(world, tmp_path):
    from apps.delivery.seed import seed

    a, b = seed(world, tmp_path / "a.sqlite"), seed(world, tmp_path / "b.sqlite")
    assert hashlib.sha256(a.read_bytes()).digest() == hashlib.sha256(b.read_bytes()).digest()
    con = sqlite3.connect(a)
    orders = _done(world)
    rows = con.execute(
        "SELECT order_id, restaurant_name, subtotal_cents, delivery_fee_cents, service_fee_cents, "
        "tip_cents, total_cents, address, placed_at, delivered_at FROM orders ORDER BY id"
    ).fetchall()
    assert [r[0] for r in rows] == [e.data["order_id"] for e in orders]
    for r, e in zip(rows, orders):
        d = e.data
        assert r[1:8] == (
            d["restaurant"],
            d["subtotal_cents"],
            d["delivery_fee_cents"],
            d["service_fee_cents"],
            d["tip_cents"],
            d["total_cents"],
            d["delivery_address"],
        )
        assert (r[8], r[9]) == (d["placed_local"][:19], d["delivered_local"][:19])
    items = con.execute(
        "SELECT o.order_id, i.name, i.qty, i.unit_price_cents FROM order_items i JOIN orders o "
        "ON o.id = i.order_id ORDER BY o.id, i.position"
    ).fetchall()
    assert items == [
        (e.data["order_id"], x["name"], x["qty"], x["price_cents"]) for e in orders for x in e.data["items"]
    ]
    assert con.execute("SELECT COUNT(*) FROM restaurants").fetchone()[0] == len(delivery.home_catalogue(world.persona))
    assert [c[0] for c in con.execute("SELECT last4 FROM cards ORDER BY id")] == [
        c["last4"] for c in payment_cards(world)
    ]
    assert con.execute("SELECT COUNT(*) FROM orders WHERE world_ref IS NULL OR rated_in_app = 1").fetchone() == (0,)
    con.close()


# --- tasks -------------------------------------------------------------------------------------------------


def _post(served: Served, path: str, fields: list[tuple[str, str]], cookie: str) -> tuple[int, str]:
    """POST a form to DashBite on the test server without following redirects: (status, Location)."""

    class NoRedirect(urllib.request.HTTPRedirectHandler):
        def redirect_request(self, *a, **k):
            return None

    req = urllib.request.Request(
        f"http://127.0.0.1:{served.port}{path}",
        data=urllib.parse.urlencode(fields).encode(),
        headers={"Host": HOST, "Cookie": cookie, "Content-Type": "application/x-www-form-urlencoded"},
        method="POST",
    )
    try:
        with urllib.request.build_opener(NoRedirect).open(req, timeout=60) as res:
            return res.status, res.headers.get("Location", "")
    except urllib.error.HTTPError as exc:
        return exc.code, exc.headers.get("Location", "")


def test_tasks_contract(world):
    """≥ 8 tasks, ≥ 3 actions, ≥ 4 spanning two apps (tests/tasks/test_oracles.py runs the actions' reference solutions)."""
    from builder.tasks.collect import tasks_of

    tasks = tasks_of("delivery")

    ts = tasks(world)
    actions = [t for t in ts if t.kind == "action"]
    assert len(ts) >= 8 and len(actions) >= 3 and sum(len(t.apps_involved) > 1 for t in ts) >= 4
