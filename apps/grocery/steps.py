"""Basketful's steps for its reference solutions and the scenarios homed here: the actions that post its forms as a
browser does (see builder.tasks.steps for the shared rules). It imports no other app.
"""

from __future__ import annotations

import urllib.parse

from builder.tasks.oracle import OracleError, Web

APP = "grocery"


def post(web: Web, path: str, fields: list[tuple[str, str]]) -> str:
    """Post a Basketful form; its redirect, refused when it carries an error."""
    _, location = web.post_form(APP, path, fields, expect=(303,))
    if "error=" in location:
        raise OracleError(f"Basketful refused {path}: {urllib.parse.unquote_plus(location)}")
    return location


def checkout(web: Web, store_key: str, fulfilment: str, window: int, tip: str, tip_amount: str = "") -> str:
    """Check out the cart of ``store_key`` in ``window`` with the default card and ``tip`` (cents, or ``"custom"``
    with ``tip_amount`` typed in the currency, "7.25"); ``"order <number>, total <amount>"``."""
    card = str(web.one(APP, "SELECT id FROM cards ORDER BY is_default DESC, id LIMIT 1"))
    post(
        web,
        "/api/checkout",
        [
            ("store", store_key),
            ("fulfilment", fulfilment),
            ("window", str(window)),
            ("tip", tip),
            ("tip_amount", tip_amount),
            ("card", card),
            ("instructions", ""),
        ],
    )
    number, total = web.query(
        APP, "SELECT order_id, total_cents FROM orders WHERE world_ref IS NULL ORDER BY id DESC LIMIT 1"
    )[0]
    return f"order {number}, total {total / 100:,.2f}"


def make_list(web: Web, name: str, items: list[tuple[str, int]]) -> str:
    """Create the shopping list ``name`` holding ``items`` (product id, quantity); what was made, in words."""
    location = post(web, "/api/lists", [("action", "create"), ("name", name)])
    list_id = urllib.parse.parse_qs(urllib.parse.urlsplit(location).query)["list"][0]
    for pid, qty in items:
        post(web, "/api/lists", [("action", "add"), ("list", list_id), ("product", pid), ("qty", str(qty))])
    return f"Made the list “{name}” with {len(items)} products."
