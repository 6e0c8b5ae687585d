"""Reference solutions of Huddle's action tasks, through its HTTP routes (see builder.tasks.oracle).

The composer posts to ``/api/messages`` (``channel`` name, ``text``, ``thread`` = the root message's
id for a thread reply), a reaction to ``/api/messages/<id>/react``, the status dialog to
``/api/status``. Each answers 303 to ``back``, with ``error=`` when refused. The tasks that need the calendar or
mail too are solved beside them, in ``scenarios/errands/workchat.py``.
"""

from __future__ import annotations

import urllib.parse

from builder.tasks.model import Task
from builder.tasks.oracle import OracleError, Web

from .steps import notifications

APP = "workchat"


def _post(web: Web, path: str, fields: dict[str, str]) -> None:
    _, location = web.post_form(APP, path, {**fields, "back": "/"}, expect=(303,))
    if "error=" in location:
        raise OracleError(f"Huddle refused {path}: {urllib.parse.unquote_plus(location)!r}")


def _message(web: Web, world_ref: str) -> int:
    return web.one(APP, "SELECT id FROM messages WHERE world_ref = ?", (world_ref,))


def reply_in_agenda_thread(task: Task, web: Web) -> str:
    exp = task.expected
    _post(
        web,
        "/api/messages",
        {
            "channel": exp["channel"],
            "thread": str(_message(web, exp["root_ref"])),
            "text": f"I'll bring the {exp['phrase']} to the review.",
        },
    )
    return f"Replied in the agenda's thread in #{exp['channel']}."


def status_on_vacation(task: Task, web: Web) -> str:
    exp = task.expected
    _post(web, "/api/status", {"emoji": exp["emoji"], "text": exp["text"], "clear": "date", "date": exp["clears"]})
    return f"Status set to {exp['emoji']} {exp['text']} until {exp['clears']}."


def react_tada(task: Task, web: Web) -> str:
    exp = task.expected
    _post(web, f"/api/messages/{_message(web, exp['message_ref'])}/react", {"emoji": exp["emoji"]})
    return f"Reacted {exp['emoji']}."


def mute_random(task: Task, web: Web) -> str:
    notifications(web, "random", "mentions", muted=True)
    return "Muted #random; the other conversations are as they were."


SOLVERS = {
    "reply-in-agenda-thread": reply_in_agenda_thread,
    "status-on-vacation": status_on_vacation,
    "react-tada": react_tada,
    "mute-random": mute_random,
}
