"""Reference solutions of Parley's action tasks, through its HTTP routes (see builder.tasks.oracle).

A conversation's composer posts to ``/api/messages`` (``conversation``, ``body``), a tapback to
``/api/reactions`` (``message``, ``emoji``), the new-group form to ``/api/groups`` (``title``,
repeated ``member``); each answers 303 to the conversation. Paying a friend back is the bank's
Send money form (``/api/send`` on Larkspur Bank), which answers 303 with ``done=<receipt>``.
"""

from __future__ import annotations

import datetime as dt
import urllib.parse

from builder.tasks.model import Task
from builder.tasks.oracle import OracleError, Web

APP = "messaging"


def _clock(t: dt.datetime) -> str:
    return f"{(t.hour - 1) % 12 + 1}:{t.minute:02d} {'AM' if t.hour < 12 else 'PM'}"


def _direct(web: Web, name: str) -> int:
    """The one-to-one conversation with contact ``name`` (the chat list's row)."""
    return web.one(
        APP,
        "SELECT c.id FROM conversations c JOIN contacts k ON k.id = c.contact_id "
        "WHERE k.name = ? AND c.kind <> 'group'",
        (name,),
    )


def _post(web: Web, path: str, fields: list[tuple[str, str]]) -> str:
    _, location = web.post_form(APP, path, fields, expect=(303,))
    if "error=" in location:
        raise OracleError(f"Parley refused {path}: {urllib.parse.unquote_plus(location)!r}")
    return location


def _send(web: Web, conversation: int, body: str) -> None:
    _post(web, "/api/messages", [("conversation", str(conversation)), ("body", body)])


def reply_question(task: Task, web: Web) -> str:
    exp = task.expected
    _send(web, _direct(web, exp["contact"]), "Not yet! I'm planning to this weekend, I'll let you know.")
    return f"Replied to {exp['contact']}."


def react(task: Task, web: Web) -> str:
    exp = task.expected
    message = web.one(APP, "SELECT id FROM messages WHERE world_ref = ?", (exp["world_ref"],))
    _post(web, "/api/reactions", [("message", str(message)), ("emoji", exp["emoji"])])
    return f"Reacted {exp['emoji']} to {exp['contact']}'s message."


def create_group(task: Task, web: Web) -> str:
    exp = task.expected
    members = [str(web.one(APP, "SELECT id FROM contacts WHERE name = ?", (n,))) for n in exp["members"]]
    _post(web, "/api/groups", [("title", exp["title"]), *[("member", m) for m in members]])
    return f"Created the group \u201c{exp['title']}\u201d with {' and '.join(exp['members'])}."


def pay_back(task: Task, web: Web) -> str:
    exp = task.expected
    contact = web.one("bank", "SELECT id FROM contacts WHERE name = ?", (exp["contact"],))
    checking = web.one("bank", "SELECT id FROM accounts WHERE kind = 'checking'")
    fields = [
        ("contact", str(contact)),
        ("from", str(checking)),
        ("amount", f"{exp['amount_cents'] / 100:.2f}"),
        ("memo", exp.get("memo") or ""),
    ]
    _, location = web.post_form("bank", "/api/send", fields, expect=(303,))
    if "done=" not in location:
        raise OracleError(f"Larkspur Bank refused the payment: {location!r}")
    return f"Sent {exp['contact']} {exp['amount_cents'] / 100:,.2f} from checking."


def flight_number(task: Task, web: Web) -> str:
    exp = task.expected
    _send(web, _direct(web, exp["contact"]), f"My flight to {exp['destination']} is {exp['flight']}.")
    return f"Texted {exp['contact']} the flight number {exp['flight']}."


def invite_group(task: Task, web: Web) -> str:
    exp = task.expected
    group = web.one(APP, "SELECT id FROM conversations WHERE kind = 'group' AND title = ?", (exp["group"],))
    at = dt.datetime.fromisoformat(exp["at"])
    _send(web, group, f"I booked {exp['restaurant']} for {at:%A, %B} {at.day} at {_clock(at)}. See you there!")
    return f"Told {exp['group']} about {exp['restaurant']} on {at:%A, %B} {at.day} at {_clock(at)}."


SOLVERS = {
    "reply-question": reply_question,
    "react": react,
    "create-group": create_group,
    "pay-back": pay_back,
    "flight-number": flight_number,
    "invite-group": invite_group,
}
