"""Shopwell (apps/shop) end to end: the production site on copies of the seeded databases.

Expected values come from the *world* (its ``retail_order`` events) and from the catalogue
(``builder.reference.retail.catalogue``: the same products.json the seed stores), never from the app's database. The site is
served with its clock at the world's now (``Served(..., now=...)``) so tracking states and the 30-day return
window are judged against the frozen clock. After the browser run the test reads what the app left behind: the
new order and the return in shop.sqlite, the bank's pending card lines (the order's charge, the return's
refund), and the confirmation and return mails in the mail app.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import http.client
import sqlite3
import urllib.parse

from builder.money import money
from builder.reference.retail import catalogue as retail

from tests.app_e2e import Served, run_e2e

HOST = "shopwell.test"


def _state(o: dict, now: dt.datetime) -> str:
    from apps.shop.seed import tracking_state

    return tracking_state(o, now)


def matches(product: dict, words: list[str], dept_name: str, locale: str) -> bool:
    """The shop's search rule: every word in the title, brand, department name or author (case-insensitive)."""
    hay = [
        retail.title(product, locale).lower(),
        product["brand"].lower(),
        dept_name.lower(),
        (product.get("author") or "").lower(),
    ]
    return all(any(w in h for h in hay) for w in words)


def world_facts(world) -> dict:
    """Every value the browser tests expect, from the world and the catalogue."""
    from apps.shop.seed import credentials, departments, orders, returnable_until
    from builder.world import payment_cards

    cur, loc, now = world.currency, world.persona.bank, world.now
    today = now.date()
    lang = 1 if loc.startswith("de") else 0
    names = {k: v[lang] for k, v in departments().items()}
    all_orders = orders(world)
    rows = []
    for o in sorted(all_orders, key=lambda o: (o["placed_at"], o["order_id"]), reverse=True):
        rows.append(
            {
                "order": o["order_id"],
                "total_cents": o["total_cents"],
                "state": _state(o, now),
                "items": len(o["items"]),
                "ship_address": o["shipping_address"],
                "ship_name": o["ship_name"],
                "tracking": o["tracking_number"],
                "carrier": o["carrier"],
            }
        )
    in_transit = [r["order"] for r in rows if r["state"] != "delivered"]
    inside = [o for o in all_orders if _state(o, now) == "delivered" and today <= returnable_until(o)]
    outside = [o for o in all_orders if _state(o, now) == "delivered" and today > returnable_until(o)]
    ret_order = inside[-1]
    ret_item = ret_order["items"][0]
    old = outside[-1]
    cat = retail.catalogue()
    # Search: a brand of the electronics department, its count, its count at 4 stars and up.
    brand = "Kestrel Audio"
    words = brand.lower().split()
    hits = [p for p in cat if matches(p, words, names[p["department"]], loc)]
    four = [p for p in hits if p["rating_x10"] >= 40]
    # What to buy: a product with at least two variants of different price, two of the cheaper one.
    buy = next(p for p in cat if p["department"] == "home" and len({v["price_usd"] for v in p["variants"]}) > 1)
    v2 = 1
    unit = retail.local_price(buy["variants"][v2]["price_usd"], cur)
    subtotal = 2 * unit
    shipping = retail.shipping(subtotal)
    sub = next(p for p in cat if p["subscribe"] and p["department"] == "household")
    card = payment_cards(world)[0]
    creds = credentials(world)
    p = world.persona
    return {
        "username": creds["username"],
        "password": creds["password"],
        "session_token": creds["session_token"],
        "first_name": p.identity.name.split()[0],
        "full_name": p.identity.name,
        "today": today.isoformat(),
        "orders": rows,
        "in_transit": in_transit,
        "catalogue": {"products": len(cat), "departments": len(names)},
        "search": {"q": brand, "count": len(hits), "four_up": len(four)},
        "buy": {
            "slug": buy["slug"],
            "sku": buy["variants"][v2]["sku"],
            "unit_cents": unit,
            "subtotal_cents": subtotal,
            "shipping_cents": shipping,
            "total_cents": subtotal + shipping,
            "total_text": money(subtotal + shipping, cur),
            "first_price_cents": retail.local_price(buy["variants"][0]["price_usd"], cur),
        },
        "return_inside": {
            "order": ret_order["order_id"],
            "sku": ret_item["sku"],
            "name": ret_item["name"],
            "refund_cents": ret_item["qty"] * ret_item["price_cents"],
            "slug": next(x["slug"] for x in cat if x["id"] == ret_item["product_id"]),
        },
        "return_outside": {"order": old["order_id"], "sku": old["items"][0]["sku"]},
        "subscribe": {"slug": sub["slug"], "sku": sub["variants"][0]["sku"]},
        "card": {"last4": card["last4"], "label": card["label"]},
        "gift_address": _gift_address(world),
    }


def _gift_address(world) -> dict:
    """A present's recipient (a parent or sibling of the persona when there is one) and the line the shop writes."""
    c = next((c for c in world.persona.contacts if c.relationship in ("parent", "sibling")), None)
    name = c.name if c else "Alex Morgan"
    loc = world.persona.bank
    street, city, region, postcode = (
        ("14 Harbor Lane", "Salem", "OR", "97301")
        if loc == "en_US"
        else ("14 Harbour Lane", "York", "", "YO1 7HH")
        if loc == "en_GB"
        else ("Lindenweg 14", "Kiel", "", "24103")
    )
    line = (
        f"{street}, {city}, {region} {postcode}"
        if loc == "en_US"
        else f"{street}, {city} {postcode}"
        if loc == "en_GB"
        else f"{street}, {postcode} {city}"
    )
    return {
        "name": name,
        "street": street,
        "city": city,
        "region": region,
        "postcode": postcode,
        "label": name.split()[0],
        "line": line,
    }


def test_shop_catalogue_and_world_orders(any_world):
    """The catalogue has >= 800 products over departments, every item of every world order is a catalogue variant
    with the catalogue's name, variant and price (100 %), and the totals add up with the shipping rule."""
    _, world = any_world
    cat = retail.catalogue()
    assert len(cat) >= 800 and len({p["department"] for p in cat}) >= 10
    assert sum(len(p["variants"]) for p in cat) >= 2000
    skus = retail.by_sku()
    loc, cur = world.persona.bank, world.currency
    for e in world.of_kind("retail_order"):
        d = e.data
        for it in d["items"]:
            prod, k = skus[it["sku"]]
            assert it == retail.item(prod, k, loc, cur, it["qty"]), it
        assert d["subtotal_cents"] == sum(i["qty"] * i["price_cents"] for i in d["items"])
        assert d["total_cents"] == d["subtotal_cents"] + d["shipping_cents"]
        if "gift_for" not in d:
            assert d["shipping_cents"] == retail.shipping(d["subtotal_cents"])


def test_shop_seed_matches_world_and_is_byte_identical(any_world, tmp_path):
    """The seed's orders are the world's (number, placed, total, ship-to, carrier, tracking, items) and two seeds
    are byte-identical; the cards are the bank's."""
    from apps.shop.seed import orders, seed
    from builder.world import payment_cards

    _, world = any_world
    a, b = seed(world, tmp_path / "a.sqlite"), seed(world, tmp_path / "b.sqlite")
    assert hashlib.sha256(a.read_bytes()).hexdigest() == hashlib.sha256(b.read_bytes()).hexdigest()
    con = sqlite3.connect(a)
    rows = con.execute(
        "SELECT id, order_number, placed_at, total_cents, ship_address, carrier, tracking_number, world_ref "
        "FROM orders ORDER BY id"
    ).fetchall()
    want = orders(world)
    assert len(rows) == len(want)
    for row, o in zip(rows, want, strict=True):
        assert row[1:] == (
            o["order_id"],
            o["placed_at"],
            o["total_cents"],
            o["shipping_address"],
            o["carrier"],
            o["tracking_number"],
            o["event"],
        )
        items = con.execute(
            "SELECT sku, name, variant, qty, price_cents FROM order_items WHERE order_id = ? ORDER BY id", (row[0],)
        ).fetchall()
        assert items == [(i["sku"], i["name"], i["variant"], i["qty"], i["price_cents"]) for i in o["items"]]
    assert con.execute("SELECT COUNT(*) FROM products").fetchone()[0] == len(retail.catalogue())
    cards = con.execute("SELECT last4, label FROM cards ORDER BY id").fetchall()
    assert cards == [(c["last4"], c["label"]) for c in payment_cards(world)]
    assert con.execute("SELECT COUNT(*) FROM returns").fetchone()[0] == 0
    con.close()
    # History visits open the app's real pages: a product it sells, an order of the world.
    from apps.shop.seed import visits

    seen = visits(world)
    slugs = {p["slug"] for p in retail.catalogue()}
    numbers = {o["order_id"] for o in want}
    assert all(v["at"] <= world.now for v in seen) and seen == sorted(seen, key=lambda v: (v["at"], v["url"]))
    for v in seen:
        path = urllib.parse.urlsplit(v["url"]).path
        assert path.removeprefix("/p/") in slugs or path.removeprefix("/orders/") in numbers, v


def test_shop_web_end_to_end(site_build, world, default_layer, tmp_path):
    facts = world_facts(world)
    with Served(default_layer, tmp_path, now=world.now.isoformat()) as served:
        print(run_e2e("shop", facts, served, tmp_path)[-6000:])
        _check_state(served, facts)


def _check_state(served: Served, facts: dict) -> None:
    """What the browser run left: one new order (the world's catalogue prices), one return inside the window
    refunded, none outside; the bank holds the order's pending charge and the refund; the mails arrived."""
    con = sqlite3.connect(served.database("shop"))
    made = con.execute(
        "SELECT order_number, subtotal_cents, shipping_cents, total_cents, authorization FROM orders "
        "WHERE world_ref IS NULL"
    ).fetchall()
    assert len(made) == 1, made
    number, sub, ship, total, auth = made[0]
    assert (sub, ship, total) == (
        facts["buy"]["subtotal_cents"],
        facts["buy"]["shipping_cents"],
        facts["buy"]["total_cents"],
    )
    assert auth
    rets = con.execute(
        "SELECT r.rma, i.sku, r.refund_cents, o.order_number FROM returns r JOIN order_items i ON "
        "i.id = r.order_item_id JOIN orders o ON o.id = i.order_id"
    ).fetchall()
    inside = facts["return_inside"]
    assert [(x[1], x[2], x[3]) for x in rets] == [(inside["sku"], inside["refund_cents"], inside["order"])]
    rma = rets[0][0]
    assert con.execute("SELECT COUNT(*) FROM reviews WHERE world_ref IS NULL AND body LIKE '%<b>%'").fetchone()[0] == 1
    assert (
        con.execute(
            "SELECT COUNT(*) FROM subscriptions WHERE sku = ? AND status = 'cancelled'", (facts["subscribe"]["sku"],)
        ).fetchone()[0]
        == 1
    )
    g = facts["gift_address"]
    assert con.execute("SELECT name, line FROM addresses WHERE id > 1 AND name = ?", (g["name"],)).fetchall() == [
        (g["name"], g["line"])
    ]
    con.close()
    bank = sqlite3.connect(served.database("bank"))
    lines = bank.execute(
        "SELECT kind, reference, amount_cents, status FROM card_authorizations WHERE app = 'shop' ORDER BY id"
    ).fetchall()
    bank.close()
    assert lines == [("charge", number, total, "pending"), ("refund", rma, inside["refund_cents"], "pending")]
    mail = sqlite3.connect(served.database("mail"))
    subjects = [
        r[0]
        for r in mail.execute("SELECT subject FROM messages WHERE subject LIKE '%Shopwell%' OR subject LIKE '%RMA-%'")
    ]
    mail.close()
    assert any(number in s for s in subjects) and any(rma in s for s in subjects), subjects[-5:]


def _post(served: Served, path: str, fields: list[tuple[str, str]], cookie: str) -> tuple[int, str]:
    conn = http.client.HTTPConnection("127.0.0.1", served.port, timeout=30)
    conn.request(
        "POST",
        path,
        body=urllib.parse.urlencode(fields),
        headers={"Host": HOST, "Content-Type": "application/x-www-form-urlencoded", "Cookie": cookie},
    )
    res = conn.getresponse()
    res.read()
    conn.close()
    return res.status, res.getheader("Location") or ""


def test_tasks_contract(world):
    """>= 8 tasks, >= 3 actions, >= 4 spanning two apps (tests/tasks/test_oracles.py runs the actions' reference solutions)."""
    from builder.tasks.collect import tasks_of

    tasks = tasks_of("shop")

    ts = tasks(world)
    actions = [t for t in ts if t.kind == "action"]
    assert len(ts) >= 8 and len(actions) >= 3 and sum(len(t.apps_involved) > 1 for t in ts) >= 4
