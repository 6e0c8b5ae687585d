"""Reference solutions of Huddle's action tasks, through its HTTP routes (see builder.tasks.oracle).

The composer posts to ``/api/messages`` (``channel`` name, ``text``, ``thread`` = the root message's
id for a thread reply), a reaction to ``/api/messages/<id>/react``, the status dialog to
``/api/status``. Each answers 303 to ``back``, with ``error=`` when refused.
"""

from __future__ import annotations

import datetime as dt
import urllib.parse

from builder.tasks.model import Task
from builder.tasks.oracle import OracleError, Web

APP = "workchat"


def _post(web: Web, path: str, fields: dict[str, str]) -> None:
    _, location = web.post_form(APP, path, {**fields, "back": "/"}, expect=(303,))
    if "error=" in location:
        raise OracleError(f"Huddle refused {path}: {urllib.parse.unquote_plus(location)!r}")


def _message(web: Web, world_ref: str) -> int:
    return web.one(APP, "SELECT id FROM messages WHERE world_ref = ?", (world_ref,))


def _say(web: Web, channel: str, text: str) -> str:
    _post(web, "/api/messages", {"channel": channel, "text": text})
    return f"Posted in #{channel}."


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


def miss_meeting(task: Task, web: Web) -> str:
    exp = task.expected
    day = dt.datetime.fromisoformat(exp["start"])
    return _say(web, exp["channel"], f"Heads up: I'll miss the {exp['meeting']} on {day:%A, %B %-d}.")


def post_ooo_trip(task: Task, web: Web) -> str:
    exp = task.expected
    leave, back = dt.date.fromisoformat(exp["leave"]), dt.date.fromisoformat(exp["back"])
    return _say(web, exp["channel"], f"OOO: I'm out from {leave:%b %-d} to {back:%b %-d} (travelling).")


def share_meeting_notes(task: Task, web: Web) -> str:
    exp = task.expected
    items = "\n".join(f"- {i}" for i in exp["action_items"])
    return _say(web, exp["channel"], f"Action items from {exp['subject']}:\n{items}")


SOLVERS = {
    "reply-in-agenda-thread": reply_in_agenda_thread,
    "status-on-vacation": status_on_vacation,
    "react-tada": react_tada,
    "miss-meeting": miss_meeting,
    "post-ooo-trip": post_ooo_trip,
    "share-meeting-notes": share_meeting_notes,
}
