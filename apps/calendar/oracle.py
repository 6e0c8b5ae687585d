"""Reference solutions of Daybook's action tasks, through its HTTP routes (see builder.tasks.oracle).

The event form posts to ``/api/events`` (new) and ``/api/events/<id>`` (edit; ``scope=this`` with
``occ`` edits one occurrence of a series), the invitation buttons to ``/api/events/<id>/rsvp``.
Each answers 303 to the event's page with ``notice=...``, or back to the form with ``error=``.
"""

from __future__ import annotations

import datetime as dt
import urllib.parse

from builder.tasks.model import Task
from builder.tasks.oracle import OracleError, Web

APP = "calendar"


def _notice(location: str, want: str) -> str:
    query = urllib.parse.parse_qs(urllib.parse.urlsplit(location).query)
    if "error" in query or query.get("notice") != [want]:
        raise OracleError(f"Daybook did not confirm {want!r}: {location!r}")
    return urllib.parse.urlsplit(location).path


def _create(web: Web, **fields: str) -> str:
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
    _, location = web.post_form(APP, "/api/events", list(form.items()), expect=(303,))
    return _notice(location, "created")


def move_standup(task: Task, web: Web) -> str:
    exp = task.expected
    title, location, description, calendar, start, end = web.query(
        APP,
        "SELECT title, location, description, calendar_id, start_local, end_local FROM events WHERE id = ?",
        (exp["series"],),
    )[0]
    length = dt.datetime.fromisoformat(end) - dt.datetime.fromisoformat(start)
    new_start = dt.datetime.fromisoformat(exp["start"])
    new_end = new_start + length
    fields = [
        ("scope", "this"),
        ("occ", exp["recurrence_id"]),
        ("title", title),
        ("date", f"{new_start:%Y-%m-%d}"),
        ("start_time", f"{new_start:%H:%M}"),
        ("end_date", f"{new_end:%Y-%m-%d}"),
        ("end_time", f"{new_end:%H:%M}"),
        ("all_day", ""),
        ("timezone", ""),
        ("calendar", calendar),
        ("location", location or ""),
        ("description", description or ""),
        ("repeat", "none"),
        ("reminder", ""),
    ]
    _, where = web.post_form(APP, f"/api/events/{exp['series']}", fields, expect=(303,))
    _notice(where, "saved")
    return f"Moved {title} on {new_start:%A, %B %-d} to {new_start:%H:%M}; the other days are unchanged."


def decline_invitation(task: Task, web: Web) -> str:
    exp = task.expected
    _, where = web.post_form(APP, f"/api/events/{exp['event']}/rsvp", [("answer", "no")], expect=(303,))
    _notice(where, "rsvp")  # "rsvp_mail_failed" would mean the organizer got no reply
    return f"Declined; the reply went to {exp['organizer']}."


def delivery_to_calendar(task: Task, web: Web) -> str:
    exp = task.expected
    _create(
        web,
        title="Package delivery",
        date=exp["date"],
        end_date=exp["date"],
        all_day="1",
        calendar="personal",
        description=f"Order {exp['order_id']}",
    )
    return f'Added an all-day "Package delivery" on {exp["date"]}.'


def block_flight(task: Task, web: Web) -> str:
    exp = task.expected
    start = dt.datetime.strptime(exp["start_utc"], "%Y-%m-%dT%H:%M:%SZ")
    end = dt.datetime.strptime(exp["end_utc"], "%Y-%m-%dT%H:%M:%SZ")
    # The form's time zone field: the confirmation's times, entered in UTC.
    _create(
        web,
        title="Out of office - travel",
        date=f"{start:%Y-%m-%d}",
        start_time=f"{start:%H:%M}",
        end_date=f"{end:%Y-%m-%d}",
        end_time=f"{end:%H:%M}",
        timezone="UTC",
        calendar="work",
        description=exp["flight"],
    )
    return f"Blocked the work calendar for {exp['flight']}, {exp['start_utc']} to {exp['end_utc']}."


def weekly_lesson(task: Task, web: Web) -> str:
    first = dt.datetime.fromisoformat(task.expected["first"])
    _create(
        web,
        title="Piano lesson",
        date=f"{first:%Y-%m-%d}",
        start_time="17:00",
        end_date=f"{first:%Y-%m-%d}",
        end_time="17:30",
        calendar="personal",
        repeat="weekly",
    )
    return f"Added a weekly Piano lesson on Tuesdays, 17:00-17:30, from {first:%B %-d}."


SOLVERS = {
    "move-standup": move_standup,
    "decline-invitation": decline_invitation,
    "delivery-to-calendar": delivery_to_calendar,
    "block-flight": block_flight,
    "weekly-lesson": weekly_lesson,
}
