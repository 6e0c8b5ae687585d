"""What Tidewell makes other apps write (builder/tasks/effects.py; web/app/api/transfers/route.ts): every deposit
or withdrawal (a ``transfers`` row) moves money to or from checking at the bank (``bank-transfers``)."""

from __future__ import annotations

from builder.tasks.effects import Cause

CAUSES = (Cause("transfers", "insert", "bank-transfers"),)
