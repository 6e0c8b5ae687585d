"""What Guildline makes other apps write (builder/tasks/effects.py; web/lib/mail.ts): an application sent with Easy
Apply mails the persona that it was sent."""

from __future__ import annotations

from builder.tasks.effects import Cause

CAUSES = (Cause("applications", "insert", "mail-delivery"),)
