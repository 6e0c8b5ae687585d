"""Reference solutions of Cairn's (the board's) action tasks, through its HTTP routes (see builder.tasks.oracle).

The ticket page's forms post to ``/api/tickets/<key>`` (edit: only the posted fields change),
``/api/tickets/<key>/status`` and ``/api/tickets/<key>/comments``; each answers 303 to the ticket's page with
``ok=`` when done.
"""

from __future__ import annotations

from builder.tasks.model import Task
from builder.tasks.oracle import Web

from .steps import post

APP = "board"


def _person(web: Web, name: str) -> str:
    return str(web.one(APP, "SELECT id FROM people WHERE name = ?", (name,)))


def move_to_review(task: Task, web: Web) -> str:
    exp = task.expected
    post(web, f"/api/tickets/{exp['key']}/status", [("status", "in_review")])
    return f"Moved {exp['key']} to In review."


def comment(task: Task, web: Web) -> str:
    exp = task.expected
    post(web, f"/api/tickets/{exp['key']}/comments", [("body", exp["body"])])
    return f"Commented on {exp['key']}."


def create_ticket(task: Task, web: Web) -> str:
    exp = task.expected
    project = web.one(APP, "SELECT id FROM projects WHERE name = ?", (exp["project"],))
    location = post(
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


SOLVERS = {
    "move-to-review": move_to_review,
    "comment": comment,
    "create-ticket": create_ticket,
}
