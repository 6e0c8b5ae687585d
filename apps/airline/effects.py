"""What Meridian Air makes other apps write (builder/tasks/effects.py; web/lib/actions.ts): every card payment is
one ``payments`` row (a booking's charge, a flight change's difference, a cancelled fare's refund), and a booking,
a flight change and a cancellation each mail the persona (a calendar file with the first two)."""

from __future__ import annotations

from builder.tasks.effects import Cause

CAUSES = (
    Cause("payments", "insert", "card-network"),
    Cause("bookings", "insert", "mail-delivery"),
    Cause("bookings", "update", "mail-delivery", column="changed_at"),
    Cause("bookings", "update", "mail-delivery", column="cancelled_at"),
)
