"""The ordering apps under concurrency (issue 24): Shopwell (shop), Basketful (grocery), Bramblestay (stays) and
TableTime (dining), served once from the production build on copies of the default persona's databases.

For every route that moves money or consumes inventory: 50 simultaneous identical submissions (one ``_idem``
token) have one effect and all get the same answer; 50 simultaneous submissions with distinct tokens have exactly
as many effects as the cart, room, slot or booking allows, and the bank's card authorisations match the app's
records one to one. Plus a regression test per bug fixed (strict ids and amounts, a refund reason that is an
Object property, signed error banners, malformed bodies). Expected values come from the served databases as the
test found them (which room, which slot, how many tables), never from the answers.
"""

from __future__ import annotations

import datetime as dt
import html
import re
import sqlite3
import urllib.parse
import uuid

import pytest

from tests.app_e2e import Served, app
from tests.concurrency import Answer, burst, send

# Every test here serves the site build (tests/app_e2e.py): out of the fast lane.
pytestmark = pytest.mark.usefixtures("site_build")

N = 50

SHOP, GROCERY, STAYS, DINING = (app(n) for n in ("shop", "grocery", "stays", "dining"))


@pytest.fixture(scope="module")
def served(default_layer, world, tmp_path_factory):
    with Served(
        default_layer,
        tmp_path_factory.mktemp("hardening-orders"),
        now=world.now.isoformat(),
    ) as s:
        yield s


@pytest.fixture(scope="module")
def today(world) -> dt.date:
    return world.now.date()


def cookie_of(a, world) -> str:
    return f"{a.session_cookie}={a.module('seed').credentials(world)['session_token']}"


def token() -> str:
    return uuid.uuid4().hex


def rows(served, name: str, sql: str, *args) -> list[tuple]:
    """Rows of the served copy of app ``name``'s database (read only)."""
    con = sqlite3.connect(f"file:{served.database(name)}?mode=ro", uri=True, timeout=30)
    try:
        return con.execute(sql, args).fetchall()
    finally:
        con.close()


def one(served, name: str, sql: str, *args):
    r = rows(served, name, sql, *args)
    return r[0][0] if r else None


def bank(served, app_name: str, kind: str) -> dict[str, int]:
    """The bank's card authorisations of ``app_name`` of ``kind``: reference -> amount (cents)."""
    return dict(
        rows(
            served,
            "bank",
            "SELECT reference, amount_cents FROM card_authorizations WHERE app = ? AND kind = ?",
            app_name,
            kind,
        )
    )


def error_of(a: Answer) -> str:
    return urllib.parse.parse_qs(urllib.parse.urlsplit(a.location).query).get("error", [""])[0]


def signed(a: Answer) -> bool:
    q = urllib.parse.parse_qs(urllib.parse.urlsplit(a.location).query)
    return "error" in q and "es" in q


def post(served, a, world, path: str, form: dict, **kw) -> Answer:
    return send(served.port, a.domain, path, form=form, cookie=cookie_of(a, world), **kw)


def get(served, a, world, path: str) -> Answer:
    return send(served.port, a.domain, path, cookie=cookie_of(a, world), method="GET")


def shown(page: str) -> str:
    """A page's markup without its scripts: what the page shows (Next.js also carries the page's search params,
    a crafted ?error= included, inside its RSC payload script, which renders nothing)."""
    return html.unescape(re.sub(r"<script\b.*?</script>", "", page, flags=re.DOTALL))


def same(answers: list[Answer]) -> bool:
    return len({(x.status, x.location, x.body) for x in answers}) == 1


# --- Shopwell ---------------------------------------------------------------------------------------------------


def shop_user(served) -> int:
    return one(served, "shop", "SELECT id FROM users ORDER BY id LIMIT 1")


def shop_fill_cart(served, world, skus: list[str]) -> None:
    """Empty the persona's cart through the route, then put one of each sku in it."""
    for (sku,) in rows(
        served,
        "shop",
        "SELECT sku FROM cart_items WHERE user_id = ?",
        shop_user(served),
    ):
        assert (
            post(
                served,
                SHOP,
                world,
                "/api/cart",
                {"action": "update", "sku": sku, "qty": "0"},
            ).status
            == 303
        )
    for sku in skus:
        a = post(served, SHOP, world, "/api/cart", {"action": "add", "sku": sku, "qty": "1"})
        assert a.status == 303 and not error_of(a), a.location


def shop_checkout_form(served) -> dict:
    uid = shop_user(served)
    return {
        "address": str(
            one(
                served,
                "shop",
                "SELECT id FROM addresses WHERE user_id = ? ORDER BY is_default DESC, id",
                uid,
            )
        ),
        "card": str(
            one(
                served,
                "shop",
                "SELECT id FROM cards WHERE user_id = ? ORDER BY is_default DESC, id",
                uid,
            )
        ),
    }


def cheap_skus(served, n: int, offset: int = 0) -> list[str]:
    return [
        r[0]
        for r in rows(
            served,
            "shop",
            "SELECT sku FROM variants ORDER BY price_cents, sku LIMIT ? OFFSET ?",
            n,
            offset,
        )
    ]


def shop_new_orders(served) -> dict[str, int]:
    return dict(
        rows(
            served,
            "shop",
            "SELECT order_number, total_cents FROM orders WHERE world_ref IS NULL",
        )
    )


def test_shop_checkout_same_token_one_order(served, world):
    shop_fill_cart(served, world, cheap_skus(served, 2))
    before = shop_new_orders(served)
    form = {**shop_checkout_form(served), "_idem": token()}
    answers = burst(N, lambda i: post(served, SHOP, world, "/api/orders", form))
    assert same(answers), {(a.status, a.location) for a in answers}
    assert answers[0].status == 303 and "placed=1" in answers[0].location
    new = {k: v for k, v in shop_new_orders(served).items() if k not in before}
    assert len(new) == 1
    number = next(iter(new))
    assert answers[0].location.startswith(f"/orders/{number}")
    assert bank(served, "shop", "charge").get(number) == new[number]
    assert one(
        served,
        "shop",
        "SELECT authorization FROM orders WHERE order_number = ?",
        number,
    )
    assert (
        one(
            served,
            "shop",
            "SELECT COUNT(*) FROM cart_items WHERE user_id = ?",
            shop_user(served),
        )
        == 0
    )


def test_shop_checkout_distinct_tokens_take_the_cart_once(served, world):
    skus = cheap_skus(served, 3, offset=5)
    shop_fill_cart(served, world, skus)
    expected_total = one(
        served,
        "shop",
        "SELECT SUM(price_cents) FROM variants WHERE sku IN (?, ?, ?)",
        *skus,
    )
    before = shop_new_orders(served)
    form = shop_checkout_form(served)
    answers = burst(
        N,
        lambda i: post(served, SHOP, world, "/api/orders", {**form, "_idem": token()}),
    )
    placed = [a for a in answers if "placed=1" in a.location]
    refused = [a for a in answers if error_of(a)]
    assert len(placed) == 1 and len(refused) == N - 1
    assert all(error_of(a) == "Your cart is empty." and signed(a) for a in refused)
    new = {k: v for k, v in shop_new_orders(served).items() if k not in before}
    assert len(new) == 1
    number, total = next(iter(new.items()))
    shipping = 0 if expected_total >= 3500 else 599
    assert total == expected_total + shipping
    assert (
        one(
            served,
            "shop",
            "SELECT COUNT(*) FROM order_items i JOIN orders o ON o.id = i.order_id WHERE o.order_number = ?",
            number,
        )
        == 3
    )
    # Every order the app placed in this module has exactly one charge in the bank, of its total, and no other.
    assert bank(served, "shop", "charge") == shop_new_orders(served)


def test_shop_declined_card_gives_the_cart_back(served, world):
    """Reserve first, undo on a refusal: an order the card cannot pay is removed and the cart is as it was."""
    uid = shop_user(served)
    dear = [
        r[0]
        for r in rows(
            served,
            "shop",
            "SELECT sku FROM variants ORDER BY price_cents DESC, sku LIMIT 10",
        )
    ]
    shop_fill_cart(served, world, [])
    for sku in dear:
        a = post(served, SHOP, world, "/api/cart", {"action": "add", "sku": sku, "qty": "10"})
        assert a.status == 303 and not error_of(a), a.location
    cart = dict(rows(served, "shop", "SELECT sku, qty FROM cart_items WHERE user_id = ?", uid))
    before, charges = shop_new_orders(served), bank(served, "shop", "charge")
    a = post(served, SHOP, world, "/api/orders", shop_checkout_form(served))
    assert error_of(a).startswith("Your card was declined") and signed(a), a.location
    assert shop_new_orders(served) == before and bank(served, "shop", "charge") == charges
    assert dict(rows(served, "shop", "SELECT sku, qty FROM cart_items WHERE user_id = ?", uid)) == cart
    shop_fill_cart(served, world, [])


def shop_returnable_items(served, world) -> list[tuple[int, str, int]]:
    """(item id, order number, refund cents) of delivered lines inside the 30-day window, not yet returned."""
    now = world.now.isoformat()
    out = []
    for item, number, delivered, refund in rows(
        served,
        "shop",
        """SELECT i.id, o.order_number, o.delivered_at, i.qty * i.price_cents FROM order_items i
            JOIN orders o ON o.id = i.order_id WHERE o.user_id = ? AND o.delivered_at <= ?
            AND i.id NOT IN (SELECT order_item_id FROM returns) ORDER BY i.id""",
        shop_user(served),
        now,
    ):
        until = dt.date.fromisoformat(delivered[:10]) + dt.timedelta(days=30)
        if until > world.now.date() + dt.timedelta(days=1):
            out.append((item, number, refund))
    return out


def test_shop_return_refunds_once(served, world):
    items = shop_returnable_items(served, world)
    assert len(items) >= 2, "the persona has too few returnable lines"
    (item, number, refund), (item2, number2, refund2) = items[0], items[1]
    # Distinct tokens: one return, one refund of qty x price; the others are told it was returned.
    answers = burst(
        N,
        lambda i: post(
            served,
            SHOP,
            world,
            "/api/returns",
            {
                "item": str(item),
                "order": number,
                "reason": "no_longer_needed",
                "_idem": token(),
            },
        ),
    )
    ok = [a for a in answers if "returned=" in a.location]
    assert len(ok) == 1
    assert sorted({error_of(a) for a in answers if a not in ok}) == ["This item has already been returned."]
    rma, cents, auth = rows(
        served,
        "shop",
        "SELECT rma, refund_cents, authorization FROM returns WHERE order_item_id = ?",
        item,
    )[0]
    assert cents == refund and auth
    # Same token: one effect, one answer.
    form = {"item": str(item2), "order": number2, "reason": "damaged", "_idem": token()}
    answers2 = burst(N, lambda i: post(served, SHOP, world, "/api/returns", form))
    assert same(answers2) and "returned=" in answers2[0].location
    rma2 = one(served, "shop", "SELECT rma FROM returns WHERE order_item_id = ?", item2)
    refunds = bank(served, "shop", "refund")
    assert refunds.get(rma) == refund and refunds.get(rma2) == refund2
    assert (
        dict(
            rows(
                served,
                "shop",
                "SELECT rma, refund_cents FROM returns WHERE created_at >= ?",
                world.now.isoformat(),
            )
        )
        == refunds
    )


def test_shop_return_reason_must_be_one_of_the_list(served, world):
    """Regression: `reason in RETURN_REASONS` took Object's own properties ("constructor") as a reason and refunded."""
    item, number, _ = shop_returnable_items(served, world)[0]
    for reason in ("constructor", "toString", "__proto__", "hasOwnProperty"):
        a = post(
            served,
            SHOP,
            world,
            "/api/returns",
            {"item": str(item), "order": number, "reason": reason},
        )
        assert a.status == 303 and error_of(a) == "Choose a reason for the return." and signed(a), (reason, a.location)
    assert one(served, "shop", "SELECT COUNT(*) FROM returns WHERE order_item_id = ?", item) == 0


def test_shop_ids_are_digits_only(served, world):
    shop_fill_cart(served, world, cheap_skus(served, 1, offset=9))
    form = shop_checkout_form(served)
    before = shop_new_orders(served)
    for field, value in (
        ("address", f"{form['address']} OR 1=1"),
        ("address", f" {form['address']}"),
        ("card", f"{form['card']}.0"),
        ("card", f"0x{int(form['card']):x}"),
        ("card", f"{form['card']}e0"),
    ):
        a = post(served, SHOP, world, "/api/orders", {**form, field: value})
        assert a.status == 303 and error_of(a) and a.location.startswith("/checkout?"), (field, value, a.location)
    assert shop_new_orders(served) == before
    item, number, _ = shop_returnable_items(served, world)[0]
    a = post(
        served,
        SHOP,
        world,
        "/api/returns",
        {"item": f"{item} OR 1=1", "order": number, "reason": "damaged"},
    )
    assert error_of(a) == "Choose an item to return."


def test_shop_reorder_same_token_adds_once(served, world):
    uid = shop_user(served)
    shop_fill_cart(served, world, [])
    number = one(
        served,
        "shop",
        """SELECT o.order_number FROM orders o WHERE o.user_id = ? AND
                 (SELECT MAX(qty) FROM order_items WHERE order_id = o.id) <= 5 ORDER BY o.placed_at DESC LIMIT 1""",
        uid,
    )
    lines = dict(
        rows(
            served,
            "shop",
            "SELECT i.sku, SUM(i.qty) FROM order_items i JOIN orders o ON o.id = i.order_id "
            "WHERE o.order_number = ? GROUP BY i.sku",
            number,
        )
    )
    form = {"order": number, "_idem": token()}
    answers = burst(N, lambda i: post(served, SHOP, world, "/api/reorder", form))
    assert same(answers) and "reordered=" in answers[0].location
    assert dict(rows(served, "shop", "SELECT sku, qty FROM cart_items WHERE user_id = ?", uid)) == lines
    # Distinct tokens: the cart fills up to the per-line limit and no further.
    burst(
        N,
        lambda i: post(served, SHOP, world, "/api/reorder", {"order": number, "_idem": token()}),
    )
    assert max(q for (q,) in rows(served, "shop", "SELECT qty FROM cart_items WHERE user_id = ?", uid)) <= 10


def test_shop_subscribe_and_cancel_once(served, world):
    uid = shop_user(served)
    sku = one(
        served,
        "shop",
        """SELECT v.sku FROM variants v JOIN products p ON p.id = v.product_id WHERE p.subscribe = 1
                AND v.sku NOT IN (SELECT sku FROM subscriptions WHERE status = 'active') ORDER BY v.sku LIMIT 1""",
    )
    answers = burst(
        N,
        lambda i: post(
            served,
            SHOP,
            world,
            "/api/subscriptions",
            {
                "action": "subscribe",
                "sku": sku,
                "weeks": "4",
                "qty": "1",
                "_idem": token(),
            },
        ),
    )
    assert sum("subscribed=" in a.location for a in answers) == 1
    assert {error_of(a) for a in answers if "subscribed=" not in a.location} == {"You already subscribe to this item."}
    sid = one(
        served,
        "shop",
        "SELECT id FROM subscriptions WHERE user_id = ? AND sku = ? AND status = 'active'",
        uid,
        sku,
    )
    assert (
        one(
            served,
            "shop",
            "SELECT COUNT(*) FROM subscriptions WHERE user_id = ? AND sku = ?",
            uid,
            sku,
        )
        == 1
    )
    answers = burst(
        N,
        lambda i: post(
            served,
            SHOP,
            world,
            "/api/subscriptions",
            {"action": "cancel", "id": str(sid), "_idem": token()},
        ),
    )
    assert sum("cancelled=1" in a.location for a in answers) == 1
    assert one(served, "shop", "SELECT status FROM subscriptions WHERE id = ?", sid) == "cancelled"
    # An id with trailing SQL is not read as the id.
    a = post(
        served,
        SHOP,
        world,
        "/api/subscriptions",
        {"action": "cancel", "id": f"{sid} OR 1=1"},
    )
    assert error_of(a) == "That subscription doesn't exist."


def test_shop_review_posts_once(served, world):
    uid = shop_user(served)
    product = one(
        served,
        "shop",
        """SELECT i.product_id FROM order_items i JOIN orders o ON o.id = i.order_id WHERE o.user_id = ?
                    AND o.delivered_at <= ? AND i.product_id NOT IN (SELECT product_id FROM reviews WHERE user_id = ?)
                    ORDER BY i.id LIMIT 1""",
        uid,
        world.now.isoformat(),
        uid,
    )
    form = {
        "product": product,
        "rating": "4",
        "headline": "Does the job",
        "body": "Sturdy and well made, would buy again.",
        "_idem": token(),
    }
    answers = burst(N, lambda i: post(served, SHOP, world, "/api/reviews", form))
    assert same(answers) and "reviewed=1" in answers[0].location
    assert (
        one(
            served,
            "shop",
            "SELECT COUNT(*) FROM reviews WHERE user_id = ? AND product_id = ?",
            uid,
            product,
        )
        == 1
    )


def test_shop_bad_bodies_and_banners(served, world):
    # A body that is not a form: a signed error redirect, never a 500, nothing written.
    for ctype, body in (
        ("multipart/form-data; boundary=x", b"garbage"),
        ("application/json", b'{"address": 1}'),
        ("text/plain", b"x"),
    ):
        a = send(
            served.port,
            SHOP.domain,
            "/api/orders",
            body=body,
            headers={"Content-Type": ctype},
            cookie=cookie_of(SHOP, world),
        )
        assert a.status == 303 and signed(a), (ctype, a.status, a.location)
    # A malformed idempotency token is refused with a message.
    a = post(served, SHOP, world, "/api/orders", {"address": "1", "card": "1", "_idem": "x"})
    assert a.status == 400 and "Idempotency-Key" in a.body
    # back= off the origin falls back to the product page.
    sku = cheap_skus(served, 1)[0]
    a = post(
        served,
        SHOP,
        world,
        "/api/cart",
        {"action": "add", "sku": sku, "qty": "99", "back": "/\t/evil.example"},
    )
    assert a.status == 303 and a.location.startswith("/cart?") and "evil" not in a.location
    # A crafted error is not shown; the app's own is.
    page = get(served, SHOP, world, "/orders?error=" + urllib.parse.quote("Call 555 0100 now"))
    assert "Call 555 0100 now" not in shown(page.body)
    page = get(served, SHOP, world, a.location)
    assert "Choose a quantity from 1 to 10." in shown(page.body)


# --- Basketful --------------------------------------------------------------------------------------------------


def grocery_store(served) -> tuple[int, str]:
    return rows(served, "grocery", "SELECT id, key FROM stores ORDER BY position LIMIT 1")[0]


def grocery_fill_cart(served, world, store_key: str, store_id: int, n: int, offset: int = 0) -> list[str]:
    for (pid,) in rows(
        served,
        "grocery",
        "SELECT product_id FROM cart_items WHERE store_id = ?",
        store_id,
    ):
        post(
            served,
            GROCERY,
            world,
            "/api/cart",
            {"action": "update", "store": store_key, "product": pid, "qty": "0"},
        )
    ids = [
        r[0]
        for r in rows(
            served,
            "grocery",
            "SELECT product_id FROM prices WHERE store_id = ? ORDER BY price_cents, product_id LIMIT ? OFFSET ?",
            store_id,
            n,
            offset,
        )
    ]
    for pid in ids:
        a = post(
            served,
            GROCERY,
            world,
            "/api/cart",
            {"action": "add", "store": store_key, "product": pid, "qty": "1"},
        )
        assert a.status == 303 and not error_of(a), a.location
    return ids


def grocery_window(served, world, store_id: int) -> int:
    """A delivery window of the store at least a day ahead with a free seat."""
    after = (world.now + dt.timedelta(days=1)).isoformat()
    return one(
        served,
        "grocery",
        """SELECT w.id FROM windows w WHERE w.store_id = ? AND w.kind = 'delivery' AND w.starts_at > ?
                 AND (SELECT COUNT(*) FROM window_seats s WHERE s.window_id = w.id) < w.capacity ORDER BY w.starts_at LIMIT 1""",
        store_id,
        after,
    )


def grocery_checkout_form(served, store_key: str, window: int) -> dict:
    return {
        "store": store_key,
        "fulfilment": "delivery",
        "window": str(window),
        "tip": "100",
        "card": str(
            one(
                served,
                "grocery",
                "SELECT id FROM cards ORDER BY is_default DESC, id LIMIT 1",
            )
        ),
        "instructions": "",
    }


def grocery_app_orders(served) -> dict[str, int]:
    return dict(
        rows(
            served,
            "grocery",
            "SELECT order_id, total_cents FROM orders WHERE world_ref IS NULL",
        )
    )


def grocery_seats_within_capacity(served) -> bool:
    return not rows(
        served,
        "grocery",
        """SELECT w.id FROM windows w WHERE (SELECT COUNT(*) FROM window_seats s WHERE s.window_id = w.id) > w.capacity""",
    )


def test_grocery_checkout_same_token_one_order(served, world):
    sid, key = grocery_store(served)
    grocery_fill_cart(served, world, key, sid, 2)
    before = grocery_app_orders(served)
    form = {
        **grocery_checkout_form(served, key, grocery_window(served, world, sid)),
        "_idem": token(),
    }
    answers = burst(N, lambda i: post(served, GROCERY, world, "/api/checkout", form))
    assert same(answers) and "placed=1" in answers[0].location, {a.location for a in answers}
    new = {k: v for k, v in grocery_app_orders(served).items() if k not in before}
    assert len(new) == 1
    order_id, total = next(iter(new.items()))
    assert bank(served, "grocery", "charge").get(order_id) == total
    assert one(served, "grocery", "SELECT COUNT(*) FROM cart_items WHERE store_id = ?", sid) == 0


def test_grocery_checkout_distinct_tokens_take_the_cart_once(served, world):
    sid, key = grocery_store(served)
    grocery_fill_cart(served, world, key, sid, 3, offset=4)
    window = grocery_window(served, world, sid)
    seats = one(
        served,
        "grocery",
        "SELECT COUNT(*) FROM window_seats WHERE window_id = ?",
        window,
    )
    before = grocery_app_orders(served)
    form = grocery_checkout_form(served, key, window)
    answers = burst(
        N,
        lambda i: post(served, GROCERY, world, "/api/checkout", {**form, "_idem": token()}),
    )
    assert sum("placed=1" in a.location for a in answers) == 1
    assert {error_of(a) for a in answers if "placed=1" not in a.location} == {"Your cart at this store is empty."}
    assert all(signed(a) for a in answers if error_of(a))
    new = {k: v for k, v in grocery_app_orders(served).items() if k not in before}
    assert len(new) == 1
    assert (
        one(
            served,
            "grocery",
            "SELECT COUNT(*) FROM window_seats WHERE window_id = ?",
            window,
        )
        == seats + 1
    )
    assert grocery_seats_within_capacity(served)
    # Every order the app placed has exactly one charge in the bank, of its total, and no other.
    assert bank(served, "grocery", "charge") == grocery_app_orders(served)


def test_grocery_window_last_seat_once(served, world):
    """A window with one seat left, two stores' worth of orders racing is not possible (one cart per store), so the
    race is one cart against a window that the route must not overfill: its seats never exceed its capacity."""
    sid, key = grocery_store(served)
    grocery_fill_cart(served, world, key, sid, 1, offset=8)
    after = (world.now + dt.timedelta(days=1)).isoformat()
    window = one(
        served,
        "grocery",
        """SELECT w.id FROM windows w WHERE w.store_id = ? AND w.kind = 'delivery' AND w.starts_at > ?
                    AND (SELECT COUNT(*) FROM window_seats s WHERE s.window_id = w.id) = w.capacity ORDER BY w.starts_at LIMIT 1""",
        sid,
        after,
    )
    if window is None:
        pytest.skip("no full window to test against")
    form = grocery_checkout_form(served, key, window)
    answers = burst(
        10,
        lambda i: post(served, GROCERY, world, "/api/checkout", {**form, "_idem": token()}),
    )
    assert all(error_of(a) == "That window is full. Choose another one." for a in answers)
    assert grocery_seats_within_capacity(served)


def test_grocery_strict_ids_and_signed_errors(served, world):
    sid, key = grocery_store(served)
    grocery_fill_cart(served, world, key, sid, 1, offset=12)
    form = grocery_checkout_form(served, key, grocery_window(served, world, sid))
    before = grocery_app_orders(served)
    # Regression: the card was read with Number(...) (" 1", "1.0", "0x1" were card 1).
    for field, value in (
        ("card", f"{form['card']}.0"),
        ("card", f"0x{int(form['card']):x}"),
        ("card", f"{form['card']} OR 1=1"),
        ("window", f"{form['window']}.0"),
        ("window", f"{form['window']} OR 1=1"),
    ):
        a = post(served, GROCERY, world, "/api/checkout", {**form, field: value})
        assert a.status == 303 and error_of(a) and signed(a), (field, value, a.location)
    assert grocery_app_orders(served) == before
    # Regression: the error was put in the query by hand (unsigned, so the page now shows it only when signed).
    a = post(
        served,
        GROCERY,
        world,
        "/api/cart",
        {
            "action": "add",
            "store": key,
            "product": "BK00000000",
            "qty": "1",
            "back": "//evil.example/x",
        },
    )
    assert a.status == 303 and signed(a) and a.location.startswith("/cart?"), a.location
    assert "That product isn't in the catalogue." in shown(get(served, GROCERY, world, a.location).body)
    page = get(
        served,
        GROCERY,
        world,
        f"/cart?store={key}&error=" + urllib.parse.quote("Call 555 0100 now"),
    )
    assert "Call 555 0100 now" not in shown(page.body)
    # JSON callers get a 400 with a message for a body that is not a form.
    a = send(
        served.port,
        GROCERY.domain,
        "/api/checkout",
        body=b"{",
        headers={
            "Content-Type": "multipart/form-data; boundary=x",
            "Accept": "application/json",
        },
        cookie=cookie_of(GROCERY, world),
    )
    assert a.status == 400 and a.json()["error"]


def test_grocery_reorder_same_token_adds_once(served, world):
    number, store_id = rows(
        served,
        "grocery",
        "SELECT order_id, store_id FROM orders WHERE world_ref IS NOT NULL ORDER BY placed_at DESC LIMIT 1",
    )[0]
    key = one(served, "grocery", "SELECT key FROM stores WHERE id = ?", store_id)
    for (pid,) in rows(
        served,
        "grocery",
        "SELECT product_id FROM cart_items WHERE store_id = ?",
        store_id,
    ):
        post(
            served,
            GROCERY,
            world,
            "/api/cart",
            {"action": "update", "store": key, "product": pid, "qty": "0"},
        )
    lines = dict(
        rows(
            served,
            "grocery",
            "SELECT i.product_id, MIN(24, SUM(i.qty)) FROM order_items i JOIN orders o ON o.id = i.order_id "
            "WHERE o.order_id = ? GROUP BY i.product_id",
            number,
        )
    )
    form = {"order": number, "_idem": token()}
    answers = burst(N, lambda i: post(served, GROCERY, world, "/api/reorder", form))
    assert same(answers) and "reordered=" in answers[0].location
    assert (
        dict(
            rows(
                served,
                "grocery",
                "SELECT product_id, qty FROM cart_items WHERE store_id = ?",
                store_id,
            )
        )
        == lines
    )


# --- Bramblestay ------------------------------------------------------------------------------------------------


def stays_offer(served, kind: str, min_units: int, max_units: int) -> tuple[str, int, str, int]:
    """(slug, room id, plan, units) of the cheapest room of a property of ``kind`` with that many units (its own
    policy as the plan): the persona's one card pays for every booking of the module."""
    return rows(
        served,
        "stays",
        """SELECT p.slug, r.id, p.policy, r.units FROM properties p JOIN rooms r ON r.property_id = p.id
                WHERE p.kind = ? AND r.units BETWEEN ? AND ? AND r.sleeps >= 2
                ORDER BY p.base_rate_cents * r.factor_pct + p.cleaning_fee_cents * 100, p.id, r.id LIMIT 1""",
        kind,
        min_units,
        max_units,
    )[0]


def stays_book_form(served, slug, room, plan, check_in: dt.date, nights: int) -> dict:
    return {
        "p": slug,
        "room": str(room),
        "plan": plan,
        "checkin": check_in.isoformat(),
        "checkout": (check_in + dt.timedelta(days=nights)).isoformat(),
        "guests": "2",
        "card": str(
            one(
                served,
                "stays",
                "SELECT id FROM cards ORDER BY is_default DESC, id LIMIT 1",
            )
        ),
        "request": "",
    }


def stays_app_bookings(served) -> dict[str, int]:
    return dict(
        rows(
            served,
            "stays",
            "SELECT confirmation, id FROM bookings WHERE world_ref IS NULL",
        )
    )


def stays_nights_within_units(served) -> bool:
    return not rows(
        served,
        "stays",
        """SELECT n.room_id, n.night FROM booking_nights n JOIN rooms r ON r.id = n.room_id
                        GROUP BY n.room_id, n.night HAVING COUNT(*) > MAX(r.units)""",
    )


def test_stays_listing_booked_once(served, world, today):
    slug, room, plan, _ = stays_offer(served, "rental", 1, 1)
    form = stays_book_form(served, slug, room, plan, today + dt.timedelta(days=120), 3)
    before = stays_app_bookings(served)
    answers = burst(
        N,
        lambda i: post(served, STAYS, world, "/api/bookings", {**form, "_idem": token()}),
    )
    booked = [a for a in answers if "booked=1" in a.location]
    assert len(booked) == 1
    assert {error_of(a) for a in answers if a not in booked} == {
        "Sorry, that room is no longer available for your dates."
    }
    new = [c for c in stays_app_bookings(served) if c not in before]
    assert len(new) == 1 and booked[0].location.startswith(f"/trips/{new[0]}")
    assert (
        one(
            served,
            "stays",
            "SELECT COUNT(*) FROM booking_nights n JOIN bookings b ON b.id = n.booking_id WHERE b.confirmation = ?",
            new[0],
        )
        == 3
    )
    assert one(
        served,
        "stays",
        "SELECT authorization FROM bookings WHERE confirmation = ?",
        new[0],
    )
    assert new[0] in bank(served, "stays", "charge")
    assert stays_nights_within_units(served)


def test_stays_hotel_room_booked_as_often_as_it_has_units(served, world, today):
    slug, room, plan, units = stays_offer(served, "hotel", 2, 4)
    form = stays_book_form(served, slug, room, plan, today + dt.timedelta(days=150), 1)
    before = stays_app_bookings(served)
    answers = burst(
        N,
        lambda i: post(served, STAYS, world, "/api/bookings", {**form, "_idem": token()}),
    )
    assert sum("booked=1" in a.location for a in answers) == units
    new = [c for c in stays_app_bookings(served) if c not in before]
    assert len(new) == units
    charges = bank(served, "stays", "charge")
    assert all(c in charges for c in new)
    assert stays_nights_within_units(served)
    # Every booking the app made has its card authorisation, and the bank charged no other booking.
    made = stays_app_bookings(served)
    assert not rows(
        served,
        "stays",
        "SELECT 1 FROM bookings WHERE world_ref IS NULL AND authorization IS NULL",
    )
    assert {r for r in charges if r.startswith("BR") and "-" not in r} == set(made)


def test_stays_declined_card_keeps_nothing(served, world, today):
    """Reserve first, undo on a refusal: a stay the card cannot pay is not kept and its nights are free again."""
    slug, room, plan = rows(
        served,
        "stays",
        """SELECT p.slug, r.id, p.policy FROM properties p JOIN rooms r ON r.property_id = p.id WHERE r.sleeps >= 2
           ORDER BY p.base_rate_cents * r.factor_pct DESC, p.id, r.id LIMIT 1""",
    )[0]
    form = stays_book_form(served, slug, room, plan, today + dt.timedelta(days=300), 28)
    before = stays_app_bookings(served)
    charges = bank(served, "stays", "charge")
    a = post(served, STAYS, world, "/api/bookings", form)
    assert error_of(a).startswith("Your card was declined") and signed(a), a.location
    assert stays_app_bookings(served) == before
    assert bank(served, "stays", "charge") == charges
    assert not rows(
        served,
        "stays",
        "SELECT 1 FROM booking_nights WHERE room_id = ? AND night >= ?",
        room,
        form["checkin"],
    )


def test_stays_same_token_one_booking(served, world, today):
    slug, room, plan, _ = stays_offer(served, "hotel", 2, 50)
    form = {
        **stays_book_form(served, slug, room, plan, today + dt.timedelta(days=170), 1),
        "_idem": token(),
    }
    before = stays_app_bookings(served)
    answers = burst(N, lambda i: post(served, STAYS, world, "/api/bookings", form))
    assert same(answers) and "booked=1" in answers[0].location
    assert len([c for c in stays_app_bookings(served) if c not in before]) == 1


def stays_booking(served, world, today, days: int) -> str:
    slug, room, plan, _ = stays_offer(served, "rental", 1, 1)
    form = stays_book_form(served, slug, room, plan, today + dt.timedelta(days=days), 2)
    a = post(served, STAYS, world, "/api/bookings", form)
    assert "booked=1" in a.location, a.location
    return urllib.parse.urlsplit(a.location).path.rsplit("/", 1)[1]


def test_stays_cancellation_refunds_once(served, world, today):
    conf = stays_booking(served, world, today, 200)
    total = one(served, "stays", "SELECT total_cents FROM bookings WHERE confirmation = ?", conf)
    answers = burst(
        N,
        lambda i: post(
            served,
            STAYS,
            world,
            "/api/cancel",
            {"confirmation": conf, "confirm": "yes", "_idem": token()},
        ),
    )
    assert sum("cancelled=1" in a.location for a in answers) == 1
    assert all(error_of(a) for a in answers if "cancelled=1" not in a.location)
    status, refund = rows(
        served,
        "stays",
        "SELECT status, refund_cents FROM bookings WHERE confirmation = ?",
        conf,
    )[0]
    assert (status, refund) == ("cancelled", total)
    assert conf in bank(served, "stays", "refund")
    assert (
        one(
            served,
            "bank",
            "SELECT COUNT(*) FROM card_authorizations WHERE app = 'stays' AND reference LIKE ?",
            f"{conf}%",
        )
        == 2
    )
    assert (
        one(
            served,
            "stays",
            "SELECT COUNT(*) FROM booking_nights n JOIN bookings b ON b.id = n.booking_id WHERE b.confirmation = ?",
            conf,
        )
        == 0
    )


def test_stays_change_of_dates_once(served, world, today):
    conf = stays_booking(served, world, today, 230)
    new_in, new_out = today + dt.timedelta(days=231), today + dt.timedelta(days=235)
    form = {
        "confirmation": conf,
        "checkin": new_in.isoformat(),
        "checkout": new_out.isoformat(),
        "confirm": "yes",
    }
    answers = burst(
        N,
        lambda i: post(served, STAYS, world, "/api/change", {**form, "_idem": token()}),
    )
    assert sum("changed=1" in a.location for a in answers) == 1
    assert all(error_of(a) for a in answers if "changed=1" not in a.location)
    changes = rows(
        served,
        "stays",
        "SELECT c.reference, c.difference_cents, c.authorization FROM booking_changes c JOIN bookings b ON b.id = c.booking_id "
        "WHERE b.confirmation = ?",
        conf,
    )
    assert len(changes) == 1 and changes[0][0] == f"{conf}-C1" and changes[0][1] > 0 and changes[0][2]
    assert f"{conf}-C1" in bank(served, "stays", "charge")
    nights = [
        n
        for (n,) in rows(
            served,
            "stays",
            "SELECT night FROM booking_nights n JOIN bookings b ON b.id = n.booking_id "
            "WHERE b.confirmation = ? ORDER BY night",
            conf,
        )
    ]
    assert nights == [(new_in + dt.timedelta(days=k)).isoformat() for k in range(4)]
    assert stays_nights_within_units(served)


def test_stays_review_and_message_once(served, world, today):
    conf = one(
        served,
        "stays",
        """SELECT b.confirmation FROM bookings b WHERE b.check_out <= ? AND b.status = 'confirmed'
                   AND NOT EXISTS (SELECT 1 FROM reviews v WHERE v.booking_id = b.id) ORDER BY b.check_out DESC LIMIT 1""",
        today.isoformat(),
    )
    answers = burst(
        N,
        lambda i: post(
            served,
            STAYS,
            world,
            "/api/reviews",
            {
                "confirmation": conf,
                "rating": "5",
                "body": "Lovely stay, very quiet.",
                "_idem": token(),
            },
        ),
    )
    assert sum(not error_of(a) for a in answers) == 1
    assert (
        one(
            served,
            "stays",
            "SELECT COUNT(*) FROM reviews v JOIN bookings b ON b.id = v.booking_id WHERE b.confirmation = ?",
            conf,
        )
        == 1
    )
    form = {
        "confirmation": conf,
        "body": "Thanks again for the stay!",
        "_idem": token(),
    }
    answers = burst(N, lambda i: post(served, STAYS, world, "/api/messages", form))
    assert same(answers)
    assert (
        one(
            served,
            "stays",
            """SELECT COUNT(*) FROM messages m JOIN threads t ON t.id = m.thread_id JOIN bookings b ON b.id = t.booking_id
                  WHERE b.confirmation = ? AND m.sender = 'guest' AND m.body = ?""",
            conf,
            form["body"],
        )
        == 1
    )


def test_stays_strict_ids(served, world, today):
    slug, room, plan, _ = stays_offer(served, "hotel", 2, 50)
    form = stays_book_form(served, slug, room, plan, today + dt.timedelta(days=190), 1)
    before = stays_app_bookings(served)
    for field, value in (
        ("room", f"{room} OR 1=1"),
        ("room", f"{room}.0"),
        ("card", f"{form['card']} OR 1=1"),
        ("card", f" {form['card']}"),
    ):
        a = post(served, STAYS, world, "/api/bookings", {**form, field: value})
        assert a.status == 303 and error_of(a) and signed(a), (field, value, a.location)
    # Beyond the published horizon (500 days).
    a = post(
        served,
        STAYS,
        world,
        "/api/bookings",
        {
            **form,
            "checkin": (today + dt.timedelta(days=501)).isoformat(),
            "checkout": (today + dt.timedelta(days=502)).isoformat(),
        },
    )
    assert error_of(a) == "Bookings open up to 500 days ahead."
    assert stays_app_bookings(served) == before


# --- TableTime --------------------------------------------------------------------------------------------------


def slots_of(time: str, party: int) -> list[str]:
    start = int(time[:2]) * 60 + int(time[3:5])
    return [f"{(start + k) // 60:02d}:{(start + k) % 60:02d}" for k in range(0, 120 if party > 4 else 90, 15)]


def fits(seats: int, party: int) -> bool:
    return party <= seats and (party > seats - 2 or seats == 2)


WEEKDAYS = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]


def dining_slot(served, day: dt.date, offset: int = 0) -> tuple[str, str]:
    """(slug, time) of a restaurant open for dinner on ``day`` with free tables then: its dinner opening time."""
    wd = WEEKDAYS[day.weekday()]
    found = rows(
        served,
        "dining",
        """SELECT r.slug, h.open FROM restaurants r JOIN hours h ON h.restaurant_id = r.id
                 WHERE h.service = 'dinner' AND (',' || h.days || ',') LIKE ? ORDER BY r.id LIMIT 1 OFFSET ?""",
        f"%,{wd},%",
        offset,
    )
    return found[0]


def dining_free_tables(served, slug: str, day: dt.date, time: str, party: int) -> int:
    tables = rows(
        served,
        "dining",
        "SELECT t.id, t.seats FROM dining_tables t JOIN restaurants r ON r.id = t.restaurant_id WHERE r.slug = ?",
        slug,
    )
    held = {
        (t, s)
        for t, s in rows(
            served,
            "dining",
            "SELECT table_id, slot FROM table_holds WHERE day = ?",
            day.isoformat(),
        )
    }
    return sum(fits(seats, party) and not any((tid, s) in held for s in slots_of(time, party)) for tid, seats in tables)


def dining_app_reservations(served) -> set[str]:
    return {
        c
        for (c,) in rows(
            served,
            "dining",
            "SELECT confirmation FROM reservations WHERE world_ref IS NULL",
        )
    }


def dining_holds_unique(served) -> bool:
    return not rows(
        served,
        "dining",
        "SELECT table_id, day, slot FROM table_holds GROUP BY table_id, day, slot HAVING COUNT(*) > 1",
    )


def test_dining_slot_given_out_as_often_as_it_has_tables(served, world, today):
    day = today + dt.timedelta(days=40)
    slug, time = dining_slot(served, day)
    capacity = dining_free_tables(served, slug, day, time, 2)
    assert 1 <= capacity < N
    before = dining_app_reservations(served)
    form = {
        "r": slug,
        "date": day.isoformat(),
        "time": time,
        "party": "2",
        "request": "",
    }
    answers = burst(
        N,
        lambda i: post(served, DINING, world, "/api/reservations", {**form, "_idem": token()}),
    )
    assert sum("done=booked" in a.location for a in answers) == capacity
    assert all(error_of(a).startswith("No table for 2 is left") for a in answers if "done=booked" not in a.location)
    new = dining_app_reservations(served) - before
    assert len(new) == capacity
    tables = {
        t
        for (t,) in rows(
            served,
            "dining",
            f"SELECT table_id FROM reservations WHERE confirmation IN ({','.join('?' * len(new))})",
            *new,
        )
    }
    assert len(tables) == capacity
    assert dining_free_tables(served, slug, day, time, 2) == 0
    assert dining_holds_unique(served)


def test_dining_same_submission_twice_is_one_reservation(served, world, today):
    day = today + dt.timedelta(days=41)
    slug, time = dining_slot(served, day, offset=1)
    before = dining_app_reservations(served)
    form = {
        "r": slug,
        "date": day.isoformat(),
        "time": time,
        "party": "2",
        "request": "",
        "_idem": token(),
    }
    answers = burst(N, lambda i: post(served, DINING, world, "/api/reservations", form))
    assert same(answers) and "done=booked" in answers[0].location
    assert len(dining_app_reservations(served) - before) == 1


def test_dining_back_and_submit_again_is_one_reservation(served, world, today):
    """The review page's form token is the same each time it shows the same table (pageToken): a person who goes back
    to it after booking (the browser reloads it) and submits again gets the first answer, not a second table; the
    same page for another party size is another review, with another token."""
    day = today + dt.timedelta(days=43)
    slug, time = dining_slot(served, day, offset=2)
    page = f"/book?{urllib.parse.urlencode({'r': slug, 'date': day.isoformat(), 'time': time, 'party': '2'})}"

    def form_token(path: str) -> str:
        a = get(served, DINING, world, path)
        assert a.status == 200, (path, a.status)
        return re.search(r'name="_idem" value="([0-9a-f]{32})"', a.body).group(1)

    first = form_token(page)
    assert form_token(page) == first
    assert form_token(page.replace("party=2", "party=3")) != first
    before = dining_app_reservations(served)
    form = {"r": slug, "date": day.isoformat(), "time": time, "party": "2", "request": "", "_idem": first}
    booked = post(served, DINING, world, "/api/reservations", form)
    assert "done=booked" in booked.location, booked
    again = post(served, DINING, world, "/api/reservations", {**form, "_idem": form_token(page)})
    assert (again.status, again.location) == (booked.status, booked.location)
    assert len(dining_app_reservations(served) - before) == 1


def dining_book(served, world, slug: str, day: dt.date, time: str, party: int = 2) -> str:
    a = post(
        served,
        DINING,
        world,
        "/api/reservations",
        {
            "r": slug,
            "date": day.isoformat(),
            "time": time,
            "party": str(party),
            "request": "",
        },
    )
    assert "done=booked" in a.location, a.location
    return urllib.parse.urlsplit(a.location).path.rsplit("/", 1)[1]


def test_dining_modify_once(served, world, today):
    day = today + dt.timedelta(days=42)
    slug, time = dining_slot(served, day, offset=2)
    conf = dining_book(served, world, slug, day, time)
    later = f"{int(time[:2]) + 1:02d}:{time[3:]}"
    form = {"confirmation": conf, "date": day.isoformat(), "time": later, "party": "2"}
    answers = burst(
        N,
        lambda i: post(
            served,
            DINING,
            world,
            "/api/reservations/modify",
            {**form, "_idem": token()},
        ),
    )
    assert sum("done=modified" in a.location for a in answers) == 1
    assert {error_of(a) for a in answers if "done=modified" not in a.location} == {
        "That's the reservation you have. Change the date, time or party size."
    }
    rid, t = rows(
        served,
        "dining",
        "SELECT id, time FROM reservations WHERE confirmation = ?",
        conf,
    )[0]
    assert t == later
    assert sorted(
        s
        for (s,) in rows(
            served,
            "dining",
            "SELECT slot FROM table_holds WHERE reservation_id = ?",
            rid,
        )
    ) == slots_of(later, 2)


def test_dining_late_cancellation_fee_charged_once(served, world):
    """A reservation less than 24 hours ahead at a restaurant with a late-cancellation fee, cancelled 50 times at once
    with distinct tokens: cancelled once, the fee charged once."""
    tz = one(served, "dining", "SELECT value FROM meta WHERE key = 'timezone'")
    now = world.now
    conf = None
    for slug, fee, rzone in rows(
        served,
        "dining",
        "SELECT slug, late_cancel_cents, zone FROM restaurants WHERE late_cancel_cents > 0 ORDER BY id",
    ):
        if rzone != tz:
            continue
        for hours in range(3, 20):
            at = now + dt.timedelta(hours=hours)
            when = at.replace(minute=0, second=0, microsecond=0)
            a = post(
                served,
                DINING,
                world,
                "/api/reservations",
                {
                    "r": slug,
                    "date": when.date().isoformat(),
                    "time": when.strftime("%H:%M"),
                    "party": "2",
                    "request": "",
                },
            )
            if "done=booked" in a.location:
                conf = urllib.parse.urlsplit(a.location).path.rsplit("/", 1)[1]
                break
        if conf:
            break
    if conf is None:
        pytest.skip("no restaurant with a fee has a table in the next day")
    answers = burst(
        N,
        lambda i: post(
            served,
            DINING,
            world,
            "/api/reservations/cancel",
            {"confirmation": conf, "confirm": "yes", "_idem": token()},
        ),
    )
    assert sum("done=cancelled" in a.location for a in answers) == 1
    assert {error_of(a) for a in answers if "done=cancelled" not in a.location} == {"That reservation was cancelled."}
    status, charged, auth = rows(
        served,
        "dining",
        "SELECT status, cancel_fee_cents, fee_authorization FROM reservations WHERE confirmation = ?",
        conf,
    )[0]
    assert status == "cancelled" and charged == 2 * fee and auth
    assert bank(served, "dining", "charge").get(f"{conf}-LC") == 2 * fee
    assert (
        one(
            served,
            "bank",
            "SELECT COUNT(*) FROM card_authorizations WHERE app = 'dining' AND reference LIKE ?",
            f"{conf}%",
        )
        == 1
    )
    assert (
        one(
            served,
            "dining",
            "SELECT COUNT(*) FROM table_holds h JOIN reservations v ON v.id = h.reservation_id WHERE v.confirmation = ?",
            conf,
        )
        == 0
    )


def test_dining_cancel_without_fee_once(served, world, today):
    day = today + dt.timedelta(days=43)
    slug, time = dining_slot(served, day, offset=3)
    conf = dining_book(served, world, slug, day, time)
    answers = burst(
        N,
        lambda i: post(
            served,
            DINING,
            world,
            "/api/reservations/cancel",
            {"confirmation": conf, "confirm": "yes", "_idem": token()},
        ),
    )
    assert sum("done=cancelled" in a.location for a in answers) == 1
    assert (
        one(
            served,
            "dining",
            "SELECT status FROM reservations WHERE confirmation = ?",
            conf,
        )
        == "cancelled"
    )
    assert (
        one(
            served,
            "bank",
            "SELECT COUNT(*) FROM card_authorizations WHERE app = 'dining' AND reference LIKE ?",
            f"{conf}%",
        )
        == 0
    )


def test_dining_review_once_and_strict_numbers(served, world, today):
    conf = one(
        served,
        "dining",
        """SELECT v.confirmation FROM reservations v WHERE v.status = 'completed'
                   AND NOT EXISTS (SELECT 1 FROM reviews w WHERE w.reservation_id = v.id) ORDER BY v.day DESC LIMIT 1""",
    )
    # Regression: the rating was read with Number(...) ("5.0", " 5", "0x5" were 5 stars).
    for rating in ("5.0", " 5", "0x5", "5e0"):
        a = post(
            served,
            DINING,
            world,
            "/api/reviews",
            {"confirmation": conf, "rating": rating, "body": "A lovely evening out."},
        )
        assert error_of(a) == "Choose a rating from 1 to 5 stars.", (rating, a.location)
    answers = burst(
        N,
        lambda i: post(
            served,
            DINING,
            world,
            "/api/reviews",
            {
                "confirmation": conf,
                "rating": "5",
                "body": "A lovely evening out.",
                "_idem": token(),
            },
        ),
    )
    assert sum("done=reviewed" in a.location for a in answers) == 1
    assert (
        one(
            served,
            "dining",
            "SELECT COUNT(*) FROM reviews w JOIN reservations v ON v.id = w.reservation_id WHERE v.confirmation = ?",
            conf,
        )
        == 1
    )
    # Regression: the party was read with Number(...) ("2.0", "0x2", " 2" were two guests).
    day = today + dt.timedelta(days=44)
    slug, time = dining_slot(served, day, offset=4)
    before = dining_app_reservations(served)
    for party in ("2.0", "0x2", " 2", "2e0"):
        a = post(
            served,
            DINING,
            world,
            "/api/reservations",
            {
                "r": slug,
                "date": day.isoformat(),
                "time": time,
                "party": party,
                "request": "",
            },
        )
        assert error_of(a).startswith("Choose a party of 1 to 20 guests") and signed(a), (party, a.location)
    # Beyond the 90 days a restaurant takes bookings.
    far = today + dt.timedelta(days=120)
    a = post(
        served,
        DINING,
        world,
        "/api/reservations",
        {"r": slug, "date": far.isoformat(), "time": time, "party": "2", "request": ""},
    )
    assert "takes reservations up to 90 days ahead" in error_of(a)
    assert dining_app_reservations(served) == before
    page = get(
        served,
        DINING,
        world,
        "/reservations?error=" + urllib.parse.quote("Call 555 0100 now"),
    )
    assert "Call 555 0100 now" not in shown(page.body)
