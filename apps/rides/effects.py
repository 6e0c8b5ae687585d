"""What ZipRide makes other apps write (builder/tasks/effects.py; web/lib/rides.ts): a ride is charged to the card
when it is booked, and a scheduled one mailed at once (every ride the tasks book is scheduled; a ride requested
now is mailed its receipt when it ends); a tip is charged (``tip_auth``); a cancellation is mailed and its fare
refunded when the app charged it (``refund_auth``)."""

from __future__ import annotations

from builder.tasks.effects import Cause

CAUSES = (
    Cause("rides", "insert", "card-network"),
    Cause("rides", "insert", "mail-delivery"),
    Cause("rides", "update", "card-network", column="tip_auth"),
    Cause("rides", "update", "card-network", column="refund_auth"),
    Cause("rides", "update", "mail-delivery", column="cancelled_at"),
)
