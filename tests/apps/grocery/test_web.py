"""Basketful (grocery) end to end: the production site on copies of the seeded databases.

Expected values come from the *world* (its ``grocery_order`` events) and from ``builder.reference.grocery.catalogue`` (the
catalogue, the stores' price rule, the fees), never from the database: the history's count and the last
order's total and items; a product's price at each store; a basket's subtotal at every store (the price
comparison); the fees and tip of a new order; the window that has one seat left (booked once, refused the second
time: the window_seats UNIQUE / capacity check); the pending charge in the bank and the confirmation mail. Also:
the catalogue's size and that every world basket names products the catalogue sells (100 %); the seed is
byte-identical twice and agrees with the world; the tasks hold their contract (do nothing 0, reference 100).
"""

from __future__ import annotations

import datetime as dt
import hashlib
import sqlite3
import urllib.error
import urllib.parse
import urllib.request

import pytest

from builder.money import money
from builder.reference.grocery import catalogue as grocery
from builder.world import payment_cards

from tests.app_e2e import Served, run_e2e

HOST = "basketful.test"


def _orders(world):
    return [e for e in world.of_kind("grocery_order") if e.status == "done"]


def _stores(world) -> list[dict]:
    from apps.grocery.seed import stores

    return stores(world)


def _windows(world) -> list[dict]:
    """The seed's windows with their ids (ids follow the seed's order)."""
    from apps.grocery.seed import windows

    return [dict(w, id=i) for i, w in enumerate(windows(world, _stores(world)), start=1)]


def _fees(subtotal: int, world, pickup: bool = False) -> dict:
    return grocery.fees(subtotal, world.persona.preferences.tipping_percent, pickup)


def world_facts(world) -> dict:
    """Every value the browser tests expect, from the world and builder.reference.grocery.catalogue."""
    from apps.grocery.seed import credentials

    p = world.persona
    cur, loc = world.currency, p.bank
    orders = _orders(world)
    last = orders[-1].data
    stores = _stores(world)
    usual = grocery.usual_store(world.seed, loc)
    # The basket the browser builds at the usual store: three products of different aisles, 2 + 1 + 1.
    basket = [
        (grocery.by_staple()["Oat milk 64 oz"], 2),
        (grocery.by_staple()["Sourdough loaf"], 1),
        (next(x for x in grocery.catalogue() if x["aisle"] == "cheese" and not x["staple"]), 1),
    ]

    def subtotal_at(key: str) -> int:
        return sum(grocery.store_price(x, key, cur, loc) * q for x, q in basket)

    sub = subtotal_at(usual)
    fees = _fees(sub, world)
    now = world.now
    cutoff = now + dt.timedelta(minutes=60)
    ws = [
        w
        for w in _windows(world)
        if w["store"] == usual and w["kind"] == "delivery" and dt.datetime.fromisoformat(w["starts_at"]) >= cutoff
    ]
    lasts = [w for w in ws if w["capacity"] - w["taken"] == 1]
    one_left, race = lasts[0], lasts[1]
    full = next(w for w in ws if w["capacity"] == w["taken"])
    oat = basket[0][0]
    creds = credentials(world)
    return {
        "username": creds["username"],
        "password": creds["password"],
        "session_token": creds["session_token"],
        "now": now.isoformat(),
        "currency": cur,
        "stores": [{"key": s["key"], "name": s["name"]} for s in stores],
        "usual": usual,
        "history": {
            "count": len(orders),
            "last_id": last["order_id"],
            "last_total": money(last["total_cents"], cur),
            "last_store": last["store"],
            "last_items": len(last["items"]),
            "last_skus": sorted(x["sku"] for x in last["items"]),
        },
        "product": {
            "id": oat["id"],
            "title": grocery.title(oat, loc),
            "prices": {s["key"]: money(grocery.store_price(oat, s["key"], cur, loc), cur) for s in stores},
        },
        "basket": [{"id": x["id"], "qty": q} for x, q in basket],
        "compare": {s["key"]: money(subtotal_at(s["key"]), cur) for s in stores},
        "checkout": {
            "subtotal": money(sub, cur),
            "tip_cents": fees["tip_cents"],
            "total_cents": sub + fees["delivery_fee_cents"] + fees["service_fee_cents"] + fees["tip_cents"],
            "total": money(sub + fees["delivery_fee_cents"] + fees["service_fee_cents"] + fees["tip_cents"], cur),
            "total_tip10": money(sub + fees["delivery_fee_cents"] + fees["service_fee_cents"] + sub * 10 // 100, cur),
            "tip_percent": min(p.preferences.tipping_percent, grocery.TIP_CAP_PERCENT),
            # "Other amount": 7.25 typed; the total is the order's without a tip plus that.
            "tip_custom": money(725, cur),
            "total_custom": money(sub + fees["delivery_fee_cents"] + fees["service_fee_cents"] + 725, cur),
        },
        "window_one_left": one_left["id"],
        "window_full": full["id"],
        "window_race": race["id"],
        "card": payment_cards(world)[0]["last4"],
    }


def test_catalogue_size_and_world_baskets(any_world):
    """≥ 1,500 products; every item of every world basket is a catalogue product at its store's price (100 %)."""
    persona, world = any_world
    assert len(grocery.catalogue()) >= 1500
    assert len({p["department"] for p in grocery.catalogue()}) >= 10
    keys = {s["key"] for s in grocery.stores(persona.bank)}
    for e in world.of_kind("grocery_order"):
        d = e.data
        assert d["store_key"] in keys
        for x in d["items"]:
            prod = grocery.by_id()[x["sku"]]
            assert x["price_cents"] == grocery.store_price(prod, d["store_key"], world.currency, persona.bank)
            assert x["name"] == grocery.receipt_name(prod, persona.bank)
        assert d["subtotal_cents"] == sum(x["qty"] * x["price_cents"] for x in d["items"])
        assert (
            d["total_cents"] == d["subtotal_cents"] + d["delivery_fee_cents"] + d["service_fee_cents"] + d["tip_cents"]
        )


def test_seed_is_byte_identical_and_agrees_with_the_world(world, tmp_path):
    from apps.grocery.seed import seed

    a, b = seed(world, tmp_path / "a.sqlite"), seed(world, tmp_path / "b.sqlite")
    assert hashlib.sha256(a.read_bytes()).digest() == hashlib.sha256(b.read_bytes()).digest()
    con = sqlite3.connect(a)
    orders = _orders(world)
    rows = con.execute(
        "SELECT o.order_id, s.key, o.total_cents, o.tip_cents, (SELECT group_concat(product_id || ':' || qty, ',') "
        "FROM order_items i WHERE i.order_id = o.id) FROM orders o JOIN stores s ON s.id = o.store_id "
        "ORDER BY o.id"
    ).fetchall()
    assert [r[0] for r in rows] == [e.data["order_id"] for e in orders]
    for r, e in zip(rows, orders):
        d = e.data
        assert r[1:4] == (d["store_key"], d["total_cents"], d["tip_cents"])
        assert r[4] == ",".join(f"{x['sku']}:{x['qty']}" for x in d["items"])
    assert con.execute("SELECT COUNT(*) FROM products").fetchone() == (len(grocery.catalogue()),)
    assert con.execute("SELECT COUNT(*) FROM prices").fetchone() == (4 * len(grocery.catalogue()),)
    assert [c[0] for c in con.execute("SELECT last4 FROM cards ORDER BY id")] == [
        c["last4"] for c in payment_cards(world)
    ]
    assert con.execute("SELECT COUNT(*) FROM orders WHERE world_ref IS NULL").fetchone() == (0,)
    seat = con.execute("SELECT window_id, seat FROM window_seats ORDER BY id LIMIT 1").fetchone()
    with pytest.raises(sqlite3.IntegrityError):  # a window's seat is taken once
        con.execute("INSERT INTO window_seats (window_id, seat, order_id, world_ref) VALUES (?, ?, NULL, NULL)", seat)
    con.close()


def test_grocery_web_end_to_end(site_build, world, default_layer, tmp_path):
    facts = world_facts(world)
    with Served(default_layer, tmp_path, now=world.now.isoformat()) as served:
        print(run_e2e("grocery", facts, served, tmp_path)[-6000:])
        _check_writes(served, world, facts)
        _check_visits(served, world)


def _check_visits(served: Served, world) -> None:
    """The history hook's pages exist: each world order's page answers 200 to the persona's cookie."""
    import http.client

    from apps.grocery.seed import credentials, visits

    seen = visits(world)
    assert len(seen) == len(_orders(world))
    cookie = f"bf_session={credentials(world)['session_token']}"
    for v in seen[-3:]:
        conn = http.client.HTTPConnection("127.0.0.1", served.port, timeout=30)
        conn.request("GET", urllib.parse.urlsplit(v["url"]).path, headers={"Host": HOST, "Cookie": cookie})
        res = conn.getresponse()
        res.read()
        conn.close()
        assert res.status == 200, v


def _check_writes(served: Served, world, facts: dict) -> None:
    """What the browser did is what the app, the bank and the mail app wrote."""
    con = sqlite3.connect(served.database("grocery"))
    made = con.execute(
        "SELECT order_id, total_cents, tip_cents, window_id, fulfilment, charge_auth FROM orders "
        "WHERE world_ref IS NULL ORDER BY id"
    ).fetchall()
    assert len(made) == 2, made
    order_id, total, tip, window_id, fulfilment, auth = made[0]
    assert (total, tip, window_id, fulfilment) == (
        facts["checkout"]["total_cents"],
        facts["checkout"]["tip_cents"],
        facts["window_one_left"],
        "delivery",
    ) and auth
    assert made[1][3] == facts["window_race"], "one of the two racing checkouts got the last seat"
    for w in (facts["window_one_left"], facts["window_race"]):
        seats = con.execute(
            "SELECT w.capacity, COUNT(s.id) FROM windows w JOIN window_seats s ON s.window_id = w.id WHERE w.id = ?",
            (w,),
        ).fetchone()
        assert seats[0] == seats[1], "the booking filled the window"
    subs = con.execute(
        "SELECT substitution FROM order_items i JOIN orders o ON o.id = i.order_id "
        "WHERE o.order_id = ? ORDER BY i.position",
        (order_id,),
    ).fetchall()
    assert [s[0] for s in subs] == ["none", "best_match", "best_match"]
    con.close()
    bank = sqlite3.connect(served.database("bank"))
    lines = bank.execute(
        "SELECT kind, reference, amount_cents, status FROM card_authorizations WHERE app = 'grocery' ORDER BY id"
    ).fetchall()
    bank.close()
    assert lines[0] == ("charge", order_id, facts["checkout"]["total_cents"], "pending"), lines
    # What the card is left owing per order number: the placed orders' totals; the racing loser's charge (if it got
    # that far) is refunded in full.
    owed: dict[str, int] = {}
    for kind, ref, amount, status in lines:
        assert status == "pending"
        owed[ref] = owed.get(ref, 0) + (amount if kind == "charge" else -amount)
    assert {k: v for k, v in owed.items() if v} == {m[0]: m[1] for m in made}, lines
    mail = sqlite3.connect(served.database("mail"))
    mails = mail.execute(
        "SELECT subject, body FROM messages WHERE world_ref IS NULL AND from_email LIKE '%@basketful.test' ORDER BY id"
    ).fetchall()
    mail.close()
    assert [m[0] for m in mails] == [f"Your Basketful order {m[0]} is confirmed" for m in made], mails
    assert f"Total: {facts['checkout']['total']}, charged to" in mails[0][1], mails[0][1]


# --- tasks -------------------------------------------------------------------------------------------------


def _post(served: Served, path: str, fields: list[tuple[str, str]], cookie: str) -> tuple[int, str]:
    """POST a form to Basketful on the test server without following redirects: (status, Location)."""

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

    tasks = tasks_of("grocery")

    ts = tasks(world)
    actions = [t for t in ts if t.kind == "action"]
    assert len(ts) >= 8 and len(actions) >= 3 and sum(len(t.apps_involved) > 1 for t in ts) >= 4
