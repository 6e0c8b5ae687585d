"""Reference solutions of Parley's own action tasks, through its HTTP routes (see builder.tasks.oracle; its tasks
across apps have theirs beside them in ``scenarios/``).

A conversation's composer posts to ``/api/messages`` (``conversation``, ``body``, and ``quote``, the quoted
message's id, when replying to a message), a tapback to ``/api/reactions`` (``message``, ``emoji``), the new-group form to
``/api/groups`` (``title``, repeated ``member``); each answers 303 to the conversation.
"""

from __future__ import annotations

import urllib.parse

from builder.tasks.model import Task
from builder.tasks.oracle import OracleError, Web

APP = "messaging"


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


def quote_reply(task: Task, web: Web) -> str:
    exp = task.expected
    conversation = _direct(web, exp["contact"])
    quoted = web.one(APP, "SELECT id FROM messages WHERE world_ref = ?", (exp["world_ref"],))
    _post(
        web,
        "/api/messages",
        [
            ("conversation", str(conversation)),
            ("body", f"Ha, noted! The last place I ate out was {exp['restaurant']}."),
            ("quote", str(quoted)),
        ],
    )
    return f"Replied to {exp['contact']}'s message, quoting it."


def create_group(task: Task, web: Web) -> str:
    exp = task.expected
    members = [str(web.one(APP, "SELECT id FROM contacts WHERE name = ?", (n,))) for n in exp["members"]]
    _post(web, "/api/groups", [("title", exp["title"]), *[("member", m) for m in members]])
    return f"Created the group \u201c{exp['title']}\u201d with {' and '.join(exp['members'])}."


SOLVERS = {
    "reply-question": reply_question,
    "react": react,
    "create-group": create_group,
    "quote-reply": quote_reply,
}
