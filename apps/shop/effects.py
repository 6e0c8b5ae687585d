"""What Shopwell makes other apps write (builder/tasks/effects.py; web/lib/shop.ts): an order is charged to the
card and a return refunded to it, and each is mailed to the persona."""

from __future__ import annotations

from builder.tasks.effects import Cause

CAUSES = (
    Cause("orders", "insert", "card-network"),
    Cause("orders", "insert", "mail-delivery"),
    Cause("returns", "insert", "card-network"),
    Cause("returns", "insert", "mail-delivery"),
)
#: The cart is the agent's scratch space, never compared.
IGNORE = ("sessions", "cart_items")
