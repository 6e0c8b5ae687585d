"""What Bramblestay makes other apps write (builder/tasks/effects.py; web/lib/stays.ts): a booking is charged to
the card and mailed (with its calendar file); new dates (a ``booking_changes`` row) are mailed and, for a prepaid
stay, the difference charged or refunded; a cancellation is mailed, with up to two refunds and a late fee."""

from __future__ import annotations

from builder.tasks.effects import Cause

CAUSES = (
    Cause("bookings", "insert", "card-network"),
    Cause("bookings", "insert", "mail-delivery"),
    Cause("booking_changes", "insert", "mail-delivery"),
    Cause("booking_changes", "insert", "card-network", min=0),
    Cause("bookings", "update", "mail-delivery", column="cancelled_at"),
    Cause("bookings", "update", "card-network", column="cancelled_at", min=0, max=3),
)
