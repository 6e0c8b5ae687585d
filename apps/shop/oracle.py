"""Reference solutions of Shopwell's action tasks, through its HTTP routes (see builder.tasks.oracle)."""

from __future__ import annotations

import urllib.parse

from builder.tasks.model import Task
from builder.tasks.oracle import OracleError, Web

APP = "shop"


def _ok(web: Web, path: str, fields: list[tuple[str, str]], marker: str) -> str:
    """Post a Shopwell form; its redirect, which must carry ``marker`` and no error."""
    _, location = web.post_form(APP, path, fields, expect=(303,))
    if marker not in location or "error=" in location:
        raise OracleError(f"Shopwell did not confirm {path} ({marker!r}): {urllib.parse.unquote_plus(location)}")
    return location


def _place_order(web: Web, card: int | None = None) -> tuple[str, int]:
    """Check out the cart to the home address; (order number, total cents) of the new order."""
    home = web.one(APP, "SELECT id FROM addresses WHERE label = 'Home' ORDER BY is_default DESC, id LIMIT 1")
    if card is None:
        card = web.one(APP, "SELECT id FROM cards ORDER BY is_default DESC, id LIMIT 1")
    _ok(web, "/api/orders", [("address", str(home)), ("card", str(card))], "placed=1")
    return web.query(
        APP, "SELECT order_number, total_cents FROM orders WHERE world_ref IS NULL ORDER BY id DESC LIMIT 1"
    )[0]


def return_item(task: Task, web: Web) -> str:
    exp = task.expected
    item = web.one(
        APP,
        "SELECT i.id FROM order_items i JOIN orders o ON o.id = i.order_id WHERE o.order_number = ? AND i.sku = ?",
        (exp["order"], exp["sku"]),
    )
    _ok(
        web,
        "/api/returns",
        [("item", str(item)), ("order", exp["order"]), ("reason", "no_longer_needed"), ("comment", "")],
        "returned=",
    )
    refund = web.one(APP, "SELECT refund_cents FROM returns WHERE order_item_id = ?", (item,))
    return f"Returned it; {refund / 100:,.2f} comes back to your card."


def reorder_item(task: Task, web: Web) -> str:
    exp = task.expected
    card = web.one(APP, "SELECT id FROM cards WHERE last4 = ?", (exp["card_last4"],))
    _ok(web, "/api/cart", [("action", "add"), ("sku", exp["sku"]), ("qty", str(exp["qty"]))], "")
    number, total = _place_order(web, card)
    return f"Ordered two more (order {number}); the order total is {total / 100:,.2f}."


def reorder_before_trip(task: Task, web: Web) -> str:
    _ok(web, "/api/reorder", [("order", task.expected["order"])], "reordered=")
    number, total = _place_order(web)
    return f"Ordered everything from {task.expected['order']} again: order {number}, {total / 100:,.2f}."


def subscribe(task: Task, web: Web) -> str:
    exp = task.expected
    _ok(
        web,
        "/api/subscriptions",
        [("action", "subscribe"), ("sku", exp["sku"]), ("weeks", str(exp["every_weeks"])), ("qty", "1")],
        "subscribed=",
    )
    return f"Subscribed, delivered every {exp['every_weeks']} weeks."


def review_product(task: Task, web: Web) -> str:
    exp = task.expected
    _ok(
        web,
        "/api/reviews",
        [
            ("product", exp["product_id"]),
            ("rating", str(exp["rating"])),
            ("headline", "Does the job well"),
            ("body", "Used it every day since it arrived; solid and well made."),
        ],
        "reviewed=1",
    )
    return f"Posted a {exp['rating']}-star review."


SOLVERS = {
    "return-item": return_item,
    "reorder-item": reorder_item,
    "reorder-before-trip": reorder_before_trip,
    "subscribe": subscribe,
    "review-product": review_product,
}
