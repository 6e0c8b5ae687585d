"""DashBite's steps in the scenarios that chain apps: checks of what the persona did here and the actions
that do it through its own routes (see builder.tasks.steps for the shared rules). The app's whole testing interface:
its tasks.py and oracle.py use these too, and it imports no other app.
"""

from __future__ import annotations

import datetime as dt
import urllib.parse

from builder.tasks import kit
from builder.tasks.model import Change, Check, RubricItem, Task
from builder.tasks.oracle import OracleError, Web

APP = "delivery"
KIT = kit.Kit(APP, ignore=("sessions", "cart_items"))
SLACK_MINUTES = 15


def order(task: Task, web: Web) -> str:
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
    expect_confirmed(location, "placed=1")
    number, total = web.query(
        APP, "SELECT order_id, total_cents FROM orders WHERE world_ref IS NULL ORDER BY id DESC LIMIT 1"
    )[0]
    promo = f" with {exp['promo']}" if exp.get("promo") else ""
    return f"Ordered from {exp['restaurant']}{promo} for {exp['at'][11:]}, order {number}, total {total / 100:,.2f}."


def new_order(lines: int) -> RubricItem:
    """The state-diff item: one new DashBite order with ``lines`` item lines, nothing else (sessions and the cart
    aside)."""
    return KIT.only(
        "Nothing else changed at DashBite: only the one new order",
        Change(table="orders", op="insert", min=1, max=1),
        Change(table="order_items", op="insert", min=lines, max=lines),
    )


def scheduled(place: dict, slot: dt.datetime, items: list[dict], q: dict) -> Check:
    """A new order from ``place`` scheduled for ``slot`` (within the slack) with ``items``' lines and ``q``'s subtotal."""
    return KIT.sql(
        """SELECT COUNT(*) FROM orders o WHERE o.world_ref IS NULL
                   AND o.restaurant_name = ? AND o.scheduled_for BETWEEN ? AND ?
                   AND (SELECT COUNT(*) FROM order_items i WHERE i.order_id = o.id) = ?
                   AND o.subtotal_cents = ?""",
        [place["name"], *window(slot), len(items), q["subtotal_cents"]],
        [[1]],
    )


def charge_pending(q: dict) -> Check:
    """The bank holds ``q``'s total as a pending DashBite card charge."""
    return KIT.sql(
        """SELECT COUNT(*) FROM card_authorizations WHERE app = 'delivery'
                   AND kind = 'charge' AND amount_cents = ? AND status = 'pending'""",
        [q["total_cents"]],
        [[1]],
        app="bank",
    )


def window(at: dt.datetime) -> list[str]:
    """The ISO bounds of a scheduled delivery at ``at`` (naive local), ``SLACK_MINUTES`` either side."""
    lo, hi = at - dt.timedelta(minutes=SLACK_MINUTES), at + dt.timedelta(minutes=SLACK_MINUTES)
    return [lo.isoformat(), hi.isoformat()]


def expect_confirmed(location: str, marker: str) -> None:
    """Raise :class:`OracleError` unless DashBite's redirect ``location`` carries ``marker``."""
    if marker not in location or "error=" in location:
        raise OracleError(f"DashBite did not confirm ({marker!r} not in {urllib.parse.unquote(location)!r})")
