"""Mailbox's side of the services between apps (builder/tasks/effects.py).

It provides ``mail-delivery`` (web/app/api/internal/deliver): one delivered mail is one ``messages`` row and its
attachment, if any (the apps that mail the persona attach one calendar file at most). Reading mail marks it read.
It calls the calendar: an answer to an invitation (``rsvps``, web/lib/invites.ts ``rsvp``) tells the calendar
(``calendar/rsvp``), and so does a changed answer. "Add to calendar" writes nothing here: the event it adds is the
persona's own act, which the task checks in the calendar itself."""

from __future__ import annotations

from builder.tasks.effects import Call, Cause
from builder.tasks.model import Change

CALLS = {
    "mail-delivery": Call(
        noun=("mail", "mails"),
        changes=(
            Change(table="messages", op="insert", min=1, max=1),
            Change(table="attachments", op="insert", min=0, max=1),
        ),
    ),
}
CAUSES = (
    Cause("rsvps", "insert", "calendar/rsvp"),
    Cause("rsvps", "update", "calendar/rsvp", column="partstat"),
)
VISITS = (Change(table="messages", op="update", min=0, columns=["is_read"]),)
