"""What DashBite makes other apps write (builder/tasks/effects.py; web/lib/dash.ts ``placeOrder``): an order is
charged to the card and its confirmation mailed."""

from __future__ import annotations

from builder.tasks.effects import Cause

CAUSES = (Cause("orders", "insert", "card-network"), Cause("orders", "insert", "mail-delivery"))
#: The cart is the agent's scratch space, never compared.
IGNORE = ("sessions", "cart_items")
