"""Reference solutions of Cairn's (the board's) action tasks, through its HTTP routes (see builder.tasks.oracle).

The ticket page's forms post to ``/api/tickets/<key>`` (edit: only the posted fields change),
``/api/tickets/<key>/status`` and ``/api/tickets/<key>/comments``; each answers 303 to the ticket's page with
``ok=`` when done.
"""

from __future__ import annotations

from apps.calendar import steps as daybook
from apps.mail import steps as mailbox
from apps.workchat import steps as huddle
from builder.tasks.model import Task
from builder.tasks.oracle import OracleError, Web

APP = "board"


def travel_handover(task: Task, web: Web) -> str:
    """Reassign the open tickets, post the handover in Huddle, set the status, block the work calendar, mail the lead."""

    exp = task.expected
    taker = web.one(APP, "SELECT id FROM people WHERE name = ?", (exp["taker"],))
    for key in exp["keys"]:
        _, location = web.post_form(APP, f"/api/tickets/{key}", [("assignee", str(taker))], expect=(303,))
        if "ok=" not in location:
            raise OracleError(f"the board did not reassign {key}: {location!r}")
    keys = ", ".join(exp["keys"])
    text = (
        f"Handover: I'm out of office from {exp['leave']} to {exp['back']}. {exp['taker'].split()[0]} is taking "
        f"over {keys}."
    )
    huddle.post(web, exp["channel"], text)
    huddle.set_status(web, ":airplane:", "Out of office", exp["back"])
    daybook.create(web, title="Out of office", date=exp["leave"], end_date=exp["back"], all_day="1", calendar="work")
    mailbox.send(
        web, exp["lead_email"], "Handover before my trip", f"Hi {exp['lead'].split()[0]},\n\n{text}\n\nThanks!"
    )
    return f"Reassigned {keys} to {exp['taker']}, posted the handover, set the status, blocked the calendar, mailed."


def _post(web: Web, path: str, fields: list[tuple[str, str]]) -> str:
    _, location = web.post_form(APP, path, fields, expect=(303,))
    if "error=" in location:
        raise OracleError(f"the board refused {path}: {location!r}")
    return location


def _person(web: Web, name: str) -> str:
    return str(web.one(APP, "SELECT id FROM people WHERE name = ?", (name,)))


def assign_mentioned(task: Task, web: Web) -> str:
    exp = task.expected
    _post(web, f"/api/tickets/{exp['key']}", [("assignee", _person(web, exp["assignee"]))])
    return f"Assigned {exp['key']} to you."


def move_to_review(task: Task, web: Web) -> str:
    exp = task.expected
    _post(web, f"/api/tickets/{exp['key']}/status", [("status", "in_review")])
    return f"Moved {exp['key']} to In review."


def comment(task: Task, web: Web) -> str:
    exp = task.expected
    _post(web, f"/api/tickets/{exp['key']}/comments", [("body", exp["body"])])
    return f"Commented on {exp['key']}."


def create_ticket(task: Task, web: Web) -> str:
    exp = task.expected
    project = web.one(APP, "SELECT id FROM projects WHERE name = ?", (exp["project"],))
    location = _post(
        web,
        "/api/tickets",
        [
            ("title", exp["title"]),
            ("project", str(project)),
            ("sprint", str(exp["sprint"])),
            ("priority", exp["priority"]),
            ("assignee", _person(web, exp["assignee"])),
        ],
    )
    return f'Created "{exp["title"]}" ({location.rsplit("/", 1)[-1].split("?")[0]}), assigned to {exp["assignee"]}.'


def backlog_pickup(task: Task, web: Web) -> str:
    """In progress on the board, the work-calendar block, the Huddle post, the mail to the lead."""
    exp = task.expected
    _post(web, f"/api/tickets/{exp['key']}/status", [("status", "in_progress")])
    daybook.create(
        web,
        title=f"{exp['key']}: {exp['title']}",
        date=exp["day"],
        start_time="14:00",
        end_time="16:00",
        calendar="work",
    )
    text = f"I'm picking up {exp['key']} ({exp['title']}) now."
    huddle.post(web, exp["channel"], text)
    mailbox.send(web, exp["lead_email"], f"Starting on {exp['key']}", f"Hi {exp['lead'].split()[0]},\n\n{text}\n")
    return f"Moved {exp['key']} to In progress, blocked {exp['day']} 14:00-16:00, posted in #{exp['channel']}, mailed."


SOLVERS = {
    "travel-handover": travel_handover,
    "backlog-pickup": backlog_pickup,
    "assign-mentioned": assign_mentioned,
    "move-to-review": move_to_review,
    "comment": comment,
    "create-ticket": create_ticket,
}
