"""Daybook's side of the services between apps (builder/tasks/effects.py).

It provides ``calendar``: an answer to an invitation told by the mail app (``calendar/rsvp``, web/lib/write.ts
``rsvpFromMail``) sets the persona's answer on the event (or adds them as its guest) and records the reply, without
mailing it (the mail app sent its own). The events "Add to calendar" brings in are the persona's own act, checked by
the task itself. It calls the mail app: an invitation answered here (a reply row, ``answerInvitation``) mails the
reply with its calendar file."""

from __future__ import annotations

from builder.tasks.effects import Call, Cause
from builder.tasks.model import Change

CALLS = {
    "calendar/rsvp": Call(
        noun=("answer to an invitation", "answers to invitations"),
        changes=(
            Change(table="attendees", op="update", min=0, max=1, columns=["partstat", "responded_at"]),
            Change(table="attendees", op="insert", min=0, max=1),
            Change(table="rsvp_replies", op="insert", min=1, max=1),
        ),
    ),
}
CAUSES = (Cause("rsvp_replies", "insert", "mail-delivery"),)
