"""Reference solutions of Guildline's action tasks, through its HTTP routes (see builder.tasks.oracle).

The profile editor posts to ``/api/experience`` (``action=update`` with every field of the entry),
the invitation buttons to ``/api/invitations``, "Message" to ``/api/threads`` (answers 303 to
``/messaging/<thread>``) and the composer to ``/api/messages``, the post box to ``/api/posts``, the
job page's Save to ``/api/jobs``. Each answers 303, with ``error=`` when refused. Free times for a
call come from Daybook's occurrences (``GET /api/events`` on the calendar), as the week view shows them.
"""

from __future__ import annotations

import datetime as dt
import urllib.parse

from builder.tasks.model import Task
from builder.tasks.oracle import OracleError, Web

APP = "network"


def _post(web: Web, path: str, fields: list[tuple[str, str]]) -> str:
    _, location = web.post_form(APP, path, fields, expect=(303,))
    if "error" in urllib.parse.parse_qs(urllib.parse.urlsplit(location).query):
        raise OracleError(f"Guildline refused {path}: {urllib.parse.unquote_plus(location)!r}")
    return location


def _person(web: Web, name: str) -> int:
    return web.one(APP, "SELECT id FROM people WHERE name = ?", (name,))


def _message(web: Web, name: str, body: str) -> None:
    """Open (or start) the conversation with ``name`` and send ``body``."""
    location = _post(web, "/api/threads", [("person", str(_person(web, name)))])
    if not location.startswith("/messaging/"):
        raise OracleError(f"Guildline opened no conversation: {location!r}")
    _post(web, "/api/messages", [("thread", location.rsplit("/", 1)[1].split("?")[0]), ("body", body)])


def resume_title(task: Task, web: Web) -> str:
    exp = task.expected
    row = web.query(
        APP,
        "SELECT id, company, location, start_month, end_month, description FROM experience WHERE world_ref = 'exp-0'",
    )[0]
    _post(
        web,
        "/api/experience",
        [
            ("action", "update"),
            ("id", str(row[0])),
            ("title", exp["correct"]),
            ("company", row[1]),
            ("location", row[2] or ""),
            ("start", row[3]),
            ("end", row[4] or ""),
            ("description", row[5] or ""),
        ],
    )
    return (
        f"The Guildline profile said {exp['profile_was']}; the résumé's {exp['correct']} is right, so I "
        "corrected the profile."
    )


def _invitation(web: Web, name: str, action: str) -> None:
    invitation = web.one(
        APP, "SELECT i.id FROM invitations i JOIN people p ON p.id = i.person_id WHERE p.name = ?", (name,)
    )
    _post(web, "/api/invitations", [("invitation", str(invitation)), ("action", action)])


def accept_meetup(task: Task, web: Web) -> str:
    _invitation(web, task.expected["name"], "accept")
    return f"Accepted {task.expected['name']}'s invitation; the others are still pending."


def withdraw_oldest(task: Task, web: Web) -> str:
    _invitation(web, task.expected["name"], "withdraw")
    return f"Withdrew the invitation to {task.expected['name']}."


def _free_slots(web: Web, monday: dt.date, count: int = 2) -> list[dt.datetime]:
    """The first ``count`` free 30-minute slots in work hours (09:00-17:00, Monday to Friday), one per day."""
    r = web.get(
        "calendar",
        "/api/events",
        params={"from": monday.isoformat(), "to": (monday + dt.timedelta(days=5)).isoformat()},
    )
    if r.status_code != 200:
        raise OracleError(f"Daybook answered {r.status_code}: {r.text[:300]}")
    busy = [
        (dt.datetime.fromisoformat(o["start"]), dt.datetime.fromisoformat(o["end"]))
        for o in r.json()["occurrences"]
        if not o.get("allDay") and not o.get("all_day") and "T" in o["start"]
    ]
    out: list[dt.datetime] = []
    for d in range(5):
        day = monday + dt.timedelta(days=d)
        for half in range(2 * 9 + 2, 2 * 17 - 1):  # 10:00 .. 16:00 starts, away from the day's edges
            start = dt.datetime.combine(day, dt.time(half // 2, 30 * (half % 2)))
            end = start + dt.timedelta(minutes=30)
            if all(end <= b or start >= e for b, e in busy):
                out.append(start)
                break
        if len(out) == count:
            return out
    raise OracleError(f"no {count} free slots in the week of {monday}")


def recruiter_availability(task: Task, web: Web) -> str:
    exp = task.expected
    a, b = _free_slots(web, dt.date.fromisoformat(exp["week_of"]))
    times = f"{a:%A, %B %-d} at {a:%H:%M} or {b:%A, %B %-d} at {b:%H:%M}"
    _message(web, exp["recruiter"], f"Thanks for reaching out! I could do a 30-minute call {times}. Would either work?")
    return f"Offered {exp['recruiter']} {times}."


def post_milestone(task: Task, web: Web) -> str:
    project = task.expected["project"]
    _post(web, "/api/posts", [("body", f"Big week: our team just hit a milestone on {project}. Thanks, everyone!")])
    return f"Posted about the {project} milestone."


def save_best_job(task: Task, web: Web) -> str:
    exp = task.expected
    job = web.one(APP, "SELECT id FROM jobs WHERE slug = ?", (exp["job"],))
    _post(web, "/api/jobs", [("job", str(job)), ("action", "save")])
    return f"Saved {exp['title']} at {exp['company']}."


def thank_organizer(task: Task, web: Web) -> str:
    exp = task.expected
    _message(web, exp["name"], f"Thank you for organizing the {exp['meeting']} meeting, it was really useful!")
    return f"Thanked {exp['name']} for the {exp['meeting']}."


SOLVERS = {
    "resume-title": resume_title,
    "accept-meetup": accept_meetup,
    "recruiter-availability": recruiter_availability,
    "post-milestone": post_milestone,
    "save-best-job": save_best_job,
    "withdraw-oldest": withdraw_oldest,
    "thank-organizer": thank_organizer,
}
