"""What Hunchline makes other apps write (builder/tasks/effects.py; web/lib/markets.ts): a deposit or a withdrawal
moves money to or from checking at the bank (``bank-transfers``). Both are ``activity`` rows, as trades are, so a
row may be one or none: a task that moves money says so with :func:`builder.tasks.effects.expect`."""

from __future__ import annotations

from builder.tasks.effects import Cause

CAUSES = (Cause("activity", "insert", "bank-transfers", min=0),)
