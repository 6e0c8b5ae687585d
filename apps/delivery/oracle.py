"""Reference solutions of DashBite's action tasks, through its HTTP routes (see builder.tasks.oracle)."""

from __future__ import annotations

import urllib.parse

from builder.tasks.model import Task
from builder.tasks.oracle import OracleError, Web

APP = "delivery"


def _expect(location: str, marker: str) -> None:
    if marker not in location or "error=" in location:
        raise OracleError(f"DashBite did not confirm ({marker!r} not in {urllib.parse.unquote(location)!r})")


def _order(task: Task, web: Web) -> str:
    """Put the task's dishes in the cart (with their options) and check out to home with the saved card."""
    exp = task.expected
    for it in exp["items"]:
        item = web.one(APP, "SELECT id FROM menu_items WHERE dish_id = ?", (it["dish_id"],))
        fields = [("action", "add"), ("item", str(item)), ("qty", str(it.get("qty", 1))), ("instructions", "")] + [
            ("option", o) for o in it.get("option_ids", [])
        ]
        _, location = web.post_form(APP, "/api/cart", fields, expect=(303,))
        if "error=" in location:
            raise OracleError(f"DashBite refused the cart: {urllib.parse.unquote(location)}")
    home = web.one(APP, "SELECT id FROM addresses WHERE world_ref = 'seed:home'")  # "Home", "Zuhause"...
    card = web.one(APP, "SELECT id FROM cards ORDER BY is_default DESC, id LIMIT 1")
    fields = [
        ("address", str(home)),
        ("when", exp["when"]),
        ("at", exp["at"]),
        ("tip", str(exp["tip"])),
        ("tip_amount", ""),
        ("promo", exp.get("promo", "")),
        ("card", str(card)),
        ("dropoff", ""),
    ]
    _, location = web.post_form(APP, "/api/orders", fields, expect=(303,))
    _expect(location, "placed=1")
    number, total = web.query(
        APP, "SELECT order_id, total_cents FROM orders WHERE world_ref IS NULL ORDER BY id DESC LIMIT 1"
    )[0]
    promo = f" with {exp['promo']}" if exp.get("promo") else ""
    return f"Ordered from {exp['restaurant']}{promo} for {exp['at'][11:]}, order {number}, total {total / 100:,.2f}."


def rate_last_order(task: Task, web: Web) -> str:
    exp = task.expected
    oid = web.one(APP, "SELECT id FROM orders WHERE order_id = ?", (exp["order_id"],))
    _, location = web.post_form(
        APP, f"/api/orders/{oid}/rate", [("stars", str(exp["stars"])), ("comment", exp["comment"])], expect=(303,)
    )
    _expect(location, "rated=1")
    return f"Rated order {exp['order_id']} {exp['stars']} stars."


SOLVERS = {
    "schedule-usual-dinner": _order,
    "reorder-from-mail": _order,
    "promo-lunch": _order,
    "rate-last-order": rate_last_order,
}
