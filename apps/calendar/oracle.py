"""Reference solutions of Daybook's own action tasks, through its HTTP routes (see builder.tasks.oracle; its tasks
across apps have theirs beside them in ``scenarios/``).

The event form posts to ``/api/events`` (new; a repeating event's end is ``ends`` ``never``/``on`` (``until``, a
date)/``after`` (``count``), its reminders the slots ``reminder``, ``reminder2``..``reminder5`` with
``reminders_form=1``, its colour ``color``, a palette name) and ``/api/events/<id>`` (edit; ``scope=this`` with
``occ`` edits one occurrence of a series). Each answers 303 to the event's page with ``notice=...``, or back to the form with ``error=``.
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


def physio_sessions(task: Task, web: Web) -> str:
    exp = task.expected
    first, end = dt.datetime.fromisoformat(exp["first"]), dt.datetime.fromisoformat(exp["end"])
    slots = {
        f"reminder{i + 1}" if i else "reminder": str(m) for i, m in enumerate(sorted(exp["reminders"], reverse=True))
    }
    _create(
        web,
        title="Physio session",
        date=f"{first:%Y-%m-%d}",
        start_time=f"{first:%H:%M}",
        end_date=f"{end:%Y-%m-%d}",
        end_time=f"{end:%H:%M}",
        calendar="personal",
        repeat="weekly",
        ends="after",
        count=str(exp["count"]),
        reminders_form="1",
        color=exp["color"],
        **slots,
    )
    return (
        f"Added Physio session on Wednesdays, {first:%H:%M}-{end:%H:%M}, from {first:%B %-d}, {exp['count']} times, "
        "with reminders 1 day and 1 hour before, in Sage."
    )


SOLVERS = {
    "move-standup": move_standup,
    "weekly-lesson": weekly_lesson,
    "physio-sessions": physio_sessions,
}
