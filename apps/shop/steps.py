"""Shopwell's steps in the long tasks that chain apps: checks of what the persona did here and the
actions that do it through Shopwell's own routes (see builder.tasks.steps for the shared rules).
"""

from __future__ import annotations

import urllib.parse

from builder.tasks import steps as S
from builder.tasks.model import Change, Check
from builder.tasks.oracle import OracleError, Web


def confirm(web: Web, path: str, fields: list[tuple[str, str]], marker: str) -> str:
    """Post a Shopwell form; its redirect, which must carry ``marker`` and no error."""
    _, location = web.post_form("shop", path, fields, expect=(303,))
    if marker not in location or "error=" in location:
        raise OracleError(f"Shopwell did not confirm {path} ({marker!r}): {urllib.parse.unquote_plus(location)}")
    return location


def place_order(web: Web, card: int | None = None) -> tuple[str, int]:
    """Check out the cart to the home address (with the card of id ``card``, else the default card); (order number,
    total cents) of the new order."""
    home = web.one("shop", "SELECT id FROM addresses WHERE label = 'Home' ORDER BY is_default DESC, id LIMIT 1")
    if card is None:
        card = web.one("shop", "SELECT id FROM cards ORDER BY is_default DESC, id LIMIT 1")
    confirm(web, "/api/orders", [("address", str(home)), ("card", str(card))], "placed=1")
    return web.query(
        "shop", "SELECT order_number, total_cents FROM orders WHERE world_ref IS NULL ORDER BY id DESC LIMIT 1"
    )[0]


def order(web: Web, sku: str, qty: int, card_last4: str) -> str:
    """Order ``qty`` of ``sku`` on Shopwell to the home address with the card ending ``card_last4``; the order number."""
    _, location = web.post_form(
        "shop", "/api/cart", [("action", "add"), ("sku", sku), ("qty", str(qty))], expect=(303,)
    )
    if "error" in S.query_of(location):
        raise OracleError(f"Shopwell did not add {sku}: {location!r}")
    card = web.one("shop", "SELECT id FROM cards WHERE last4 = ?", (card_last4,))
    address = web.one("shop", "SELECT id FROM addresses ORDER BY is_default DESC, id LIMIT 1")
    _, location = web.post_form("shop", "/api/orders", [("address", str(address)), ("card", str(card))], expect=(303,))
    if "placed=1" not in location:
        raise OracleError(f"Shopwell did not place the order: {location!r}")
    return web.one("shop", "SELECT order_number FROM orders WHERE world_ref IS NULL ORDER BY id DESC LIMIT 1")


def order_rows(lines: int = 1, most: int | None = None) -> tuple[Change, ...]:
    """The rows one order of ``lines`` (to ``most``) lines writes in Shopwell (for a state_diff item)."""
    return (
        Change(table="orders", op="insert", min=1, max=1),
        Change(table="order_items", op="insert", min=lines, max=lines if most is None else most),
    )


def gift(slug_part: str) -> dict | None:
    """The first giftable Shopwell catalogue product whose slug holds ``slug_part``: ``{sku, title, variant,
    price_cents}`` of its first variant (the catalogue is fixed data, so the pick is stable)."""
    from builder.reference.retail import catalogue as retail

    for x in sorted(retail.catalogue(), key=lambda x: x["id"]):
        if x.get("gift") and slug_part in x["slug"]:
            v = x["variants"][0]
            label = v["label"].get("en") if isinstance(v["label"], dict) else v["label"]
            return {
                "sku": v["sku"],
                "title": x["title"]["en_US"],
                "variant": label or "",
                "price_cents": v["price_usd"],
            }
    return None


def bought(sku: str, card_last4: str) -> Check:
    """A Shopwell order the persona placed holding ``sku``, paid with the card ending ``card_last4``."""
    return S.sql(
        "shop",
        """SELECT COUNT(*) > 0 FROM orders o JOIN order_items i ON i.order_id = o.id
                          JOIN cards c ON c.id = o.card_id WHERE o.world_ref IS NULL AND i.sku = ? AND c.last4 = ?""",
        [sku, card_last4],
        [[1]],
    )
