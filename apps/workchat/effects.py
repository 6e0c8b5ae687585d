"""Huddle's side of the state_diff items of long tasks (builder/tasks/effects.py): reading a channel marks its
messages read."""

from __future__ import annotations

from builder.tasks.model import Change

VISITS = (Change(table="messages", op="update", min=0, columns=["is_read"]),)
