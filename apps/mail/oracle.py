"""Reference solutions of Mailbox's action tasks, through its HTTP routes (see builder.tasks.oracle).

The compose page posts to ``/api/compose`` (``mode`` reply / forward with ``reply_to``, the parent's
row id), the toolbar to ``/api/messages`` (``op`` on repeated ``id``), the invitation card's buttons
to ``/api/rsvp``. Each answers 303 with ``notice=`` when done, ``error=`` when refused.
"""

from __future__ import annotations


from builder.tasks.model import Task
from builder.tasks.oracle import OracleError, Web

from .steps import confirmed, message_of

APP = "mail"


def _compose(web: Web, fields: list[tuple[str, str]], what: str) -> None:
    _, location = web.post_form(APP, "/api/compose", [("action", "send"), ("cc", ""), *fields], expect=(303,))
    confirmed(location, what)


def reply_latest(task: Task, web: Web) -> str:
    exp = task.expected
    parent, subject = message_of(web, exp["in_reply_to"])
    re = subject if subject.lower().startswith("re:") else f"Re: {subject}"
    _compose(
        web,
        [
            ("mode", "reply"),
            ("reply_to", str(parent)),
            ("to", f"{exp['contact']} <{exp['email']}>"),
            ("subject", re),
            ("body", "Thanks for your note! I'll call you this weekend."),
        ],
        "send the reply",
    )
    return f"Replied to {exp['contact']}: I'll call this weekend."


def forward_statement(task: Task, web: Web) -> str:
    exp = task.expected
    parent, subject = message_of(web, exp["in_reply_to"])
    _compose(
        web,
        [
            ("mode", "forward"),
            ("reply_to", str(parent)),
            ("to", exp["to"]),
            ("subject", f"Fwd: {subject}"),
            ("body", "Here is my latest Larkspur Bank statement."),
        ],
        "forward the statement",
    )
    return f'Forwarded "{exp["subject"]}" to {exp["to"]}.'


def archive_newsletters(task: Task, web: Web) -> str:
    exp = task.expected
    ids = [
        i
        for (i,) in web.query(
            APP, "SELECT id FROM messages WHERE from_email = ? AND folder = 'inbox' ORDER BY id", (exp["sender"],)
        )
    ]
    if not ids:
        raise OracleError(f"no mail from {exp['sender']} in the Inbox")
    _, location = web.post_form(
        APP, "/api/messages", [("op", "archive"), ("back", "/"), *[("id", str(i)) for i in ids]], expect=(303,)
    )
    confirmed(location, "archive the newsletters")
    return f"Archived {len(ids)} newsletters from {exp['sender']}."


def accept_invitation(task: Task, web: Web) -> str:
    exp = task.expected
    message = web.one(
        APP,
        "SELECT m.id FROM messages m JOIN attachments a ON a.message_id = m.id "
        "WHERE m.folder = 'inbox' AND a.content_type LIKE 'text/calendar%' "
        "AND instr(CAST(a.content AS TEXT), ?) > 0 ORDER BY m.id DESC LIMIT 1",
        (f"UID:{exp['uid']}",),
    )
    _, location = web.post_form(
        APP, "/api/rsvp", [("message", str(message)), ("answer", "yes"), ("back", "/")], expect=(303,)
    )
    confirmed(location, "send the answer")
    return f"Accepted the invitation; the answer went to {exp['organizer']}."


SOLVERS = {
    "reply-latest": reply_latest,
    "forward-statement": forward_statement,
    "archive-newsletters": archive_newsletters,
    "accept-invitation": accept_invitation,
}


# --- long-horizon chains (builder.tasks.steps performs the steps in the other apps) -------------------------
