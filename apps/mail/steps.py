"""Mailbox's steps in the long tasks that chain apps: checks of what the persona did here and the
actions that do it through Mailbox's own routes (see builder.tasks.steps for the shared rules).
"""

from __future__ import annotations

import urllib.parse

from builder.tasks import steps as S
from builder.tasks.model import Change, Check
from builder.tasks.oracle import OracleError, Web

APP = "mail"


def sent(to_email: str, groups: list[list[str]] = ()) -> Check:
    """A mail the persona sent from Mailbox to ``to_email``, whose subject or body holds one string of each group."""
    more, params = S.needles("coalesce(subject, '') || ' ' || coalesce(body, '')", list(groups))
    return S.sql(
        "mail",
        f"""SELECT COUNT(*) > 0 FROM messages WHERE world_ref IS NULL AND origin = 'app'
                           AND folder = 'sent' AND instr(lower(to_json), lower(?)) > 0{more}""",
        [to_email, *params],
        [[1]],
    )


def new_mail(n: int = 1, most: int | None = None, *, attachments: int = 0) -> tuple[Change, ...]:
    """The rows ``n`` (to ``most``) mails the persona sends write in Mailbox, with the answers the contacts' reply
    engine may send back (up to one each), and ``attachments`` files forwarded with them (for a state_diff item)."""
    hi = n if most is None else most
    files = (Change(table="attachments", op="insert", min=0, max=attachments),) if attachments else ()
    return (Change(table="messages", op="insert", min=n, max=2 * hi), *files)


def send(web: Web, to: str, subject: str, body: str, *, reply_to: int | None = None) -> None:
    """Send a mail from Mailbox (a reply to the mail with row id ``reply_to`` when given)."""
    fields = [("action", "send"), ("cc", ""), ("to", to), ("subject", subject), ("body", body)]
    if reply_to is not None:
        fields += [("mode", "reply"), ("reply_to", str(reply_to))]
    _, location = web.post_form("mail", "/api/compose", fields, expect=(303,))
    if "error" in S.query_of(location) or "notice" not in S.query_of(location):
        raise OracleError(f"Mailbox did not send {subject!r}: {location!r}")


def forward(web: Web, message: int, to: str, subject: str, body: str) -> None:
    """Forward the mail with row id ``message`` from Mailbox (its attachments go along) to ``to``."""
    fields = [("action", "send"), ("cc", ""), ("mode", "forward"), ("reply_to", str(message))]
    fields += [("to", to), ("subject", subject), ("body", body)]
    _, location = web.post_form("mail", "/api/compose", fields, expect=(303,))
    confirmed(location, f"forward {subject!r}")


def add_to_calendar(web: Web, filename_part: str) -> None:
    """Add the newest .ics attachment of a mail the apps sent (name holding ``filename_part``) to Daybook, as the
    mail's "Add to Daybook" button does."""
    att = web.one(
        "mail",
        "SELECT a.id FROM attachments a JOIN messages m ON m.id = a.message_id WHERE m.world_ref IS NULL "
        "AND a.filename LIKE '%.ics' AND instr(a.filename, ?) > 0 ORDER BY a.id DESC LIMIT 1",
        (filename_part,),
    )
    _, location = web.post_form("mail", "/api/calendar-add", [("attachment", str(att)), ("back", "/")], expect=(303,))
    if "Daybook" not in urllib.parse.unquote_plus(location):
        raise OracleError(f"Mailbox did not add the event to Daybook: {location!r}")


def confirmed(location: str, what: str) -> None:
    """Raise :class:`OracleError` unless the mailbox's redirect ``location`` carries a notice and no error (``what``:
    the step, for the message)."""
    query = urllib.parse.parse_qs(urllib.parse.urlsplit(location).query)
    if "error" in query or "notice" not in query:
        raise OracleError(f"Mailbox did not {what}: {location!r}")


def message_of(web: Web, message_id: str) -> tuple[int, str]:
    """(row id, subject) of the mail with header Message-ID ``message_id``: the one a person opened."""
    rows = web.query(APP, "SELECT id, subject FROM messages WHERE message_id = ?", (message_id,))
    if len(rows) != 1:
        raise OracleError(f"no single mail {message_id!r}: {rows!r}")
    return rows[0]
