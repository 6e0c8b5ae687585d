"""Daybook's steps in the long tasks that chain apps: checks of what the persona did here and the
actions that do it through Daybook's own routes (see builder.tasks.steps for the shared rules).
"""

from __future__ import annotations

from builder.tasks import steps as S
from builder.tasks.model import Change, Check
from builder.tasks.oracle import OracleError, Web


def created(day: str, groups: list[list[str]], calendar: str | None = None) -> Check:
    """A Daybook event the persona created starting on ``day`` (local ``YYYY-MM-DD`` or a longer prefix of the local
    start), whose title holds one string of each group."""
    more, params = S.needles("title", groups)
    cal = " AND calendar_id = ?" if calendar else ""
    return S.sql(
        "calendar",
        f"""SELECT COUNT(*) > 0 FROM events WHERE world_ref IS NULL
                               AND substr(start_local, 1, ?) = ?{cal}{more}""",
        [len(day), day, *([calendar] if calendar else []), *params],
        [[1]],
    )


def new_events(n: int = 1, most: int | None = None) -> tuple[Change, ...]:
    """The rows ``n`` (to ``most``) events the persona adds to Daybook write (for a state_diff item): the events,
    their reminders (the form's, or a calendar file's) and the guests a calendar file names."""
    hi = n if most is None else most
    return (
        Change(table="events", op="insert", min=n, max=hi),
        Change(table="reminders", op="insert", min=0, max=hi),
        Change(table="attendees", op="insert", min=0),
    )


def moved_events(n: int = 1, most: int | None = None) -> tuple[Change, ...]:
    """The rows moving or editing ``n`` (to ``most``) existing Daybook events writes (for a state_diff item): the
    events, a repeating event's one-off change, the reminder the edit form sets anew."""
    hi = n if most is None else most
    return (
        Change(table="events", op="update", min=n, max=hi),
        Change(table="overrides", op="insert", min=0, max=hi),
        Change(table="overrides", op="update", min=0, max=hi),
        Change(table="reminders", op="insert", min=0, max=hi),
        Change(table="reminders", op="delete", min=0, max=hi),
    )


def create(web: Web, **fields: str) -> None:
    """Create a Daybook event with the new-event form's fields (``title``, ``date``, ``start_time``...)."""
    form = {
        "title": "",
        "date": "",
        "start_time": "",
        "end_date": "",
        "end_time": "",
        "all_day": "",
        "timezone": "",
        "calendar": "personal",
        "location": "",
        "description": "",
        "repeat": "none",
        "reminder": "",
        **fields,
    }
    _, location = web.post_form("calendar", "/api/events", list(form.items()), expect=(303,))
    if S.query_of(location).get("notice") != ["created"]:
        raise OracleError(f"Daybook did not create {fields.get('title')!r}: {location!r}")


def answer(web: Web, event_id: str, answer: str) -> None:
    """Answer the invitation ``event_id`` with the event page's button ``answer`` (``yes``, ``no``, ``maybe``); the
    reply goes to the organizer by mail."""
    _, location = web.post_form("calendar", f"/api/events/{event_id}/rsvp", [("answer", answer)], expect=(303,))
    query = S.query_of(location)
    if "error" in query or query.get("notice") != ["rsvp"]:  # "rsvp_mail_failed": the organizer got no reply
        raise OracleError(f"Daybook did not send the answer {answer!r}: {location!r}")
