"""Reference solutions of Mailbox's own action tasks, through its HTTP routes (see builder.tasks.oracle; its tasks
across apps have theirs beside them in ``scenarios/``).

The compose page posts to ``/api/compose`` (``mode`` reply / forward with ``reply_to``, the parent's
row id), the toolbar to ``/api/messages`` (``op`` on repeated ``id``). Each answers 303 with ``notice=`` when
done, ``error=`` when refused.
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


SOLVERS = {
    "reply-latest": reply_latest,
    "archive-newsletters": archive_newsletters,
}
