"""What TableTime makes other apps write (builder/tasks/effects.py; web/lib/tabletime.ts): a reservation booked,
changed or cancelled mails the persona (with its calendar file); a late-cancellation fee is charged to the card
(``fee_authorization``)."""

from __future__ import annotations

from builder.tasks.effects import Cause

CAUSES = (
    Cause("reservations", "insert", "mail-delivery"),
    Cause("reservations", "update", "mail-delivery", column="modified_at"),
    Cause("reservations", "update", "mail-delivery", column="cancelled_at"),
    Cause("reservations", "update", "card-network", column="fee_authorization"),
)
