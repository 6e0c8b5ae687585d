"""Huddle's steps in the long tasks that chain apps: checks of what the persona did here and the
actions that do it through Huddle's own routes (see builder.tasks.steps for the shared rules).
"""

from __future__ import annotations

from builder.tasks import steps as S
from builder.tasks.model import Change, Check
from builder.tasks.oracle import OracleError, Web


def posted(channel: str, groups: list[list[str]] = ()) -> Check:
    """A Huddle message the persona posted in ``channel`` holding one string of each group."""
    more, params = S.needles("text", list(groups))
    return S.sql(
        "workchat",
        f"""SELECT COUNT(*) > 0 FROM messages WHERE world_ref IS NULL AND deleted = 0
                               AND sender_id = (SELECT id FROM people WHERE is_me = 1)
                               AND channel_id = (SELECT id FROM channels WHERE name = ?){more}""",
        [channel, *params],
        [[1]],
    )


def status_set(text_forms: list[str], until: str) -> Check:
    """The persona's Huddle status says one of ``text_forms`` and clears on ``until`` (a local date)."""
    marks = " OR ".join("instr(lower(status_text), lower(?)) > 0" for _ in text_forms)
    return S.sql(
        "workchat",
        f"""SELECT COUNT(*) FROM users WHERE status_set_at IS NOT NULL AND ({marks})
                               AND substr(status_expires_at, 1, 10) = ?""",
        [*text_forms, until],
        [[1]],
    )


#: The columns setting or clearing the persona's status writes.
STATUS = ["status_emoji", "status_text", "status_expires_at", "status_set_at"]


def new_posts(n: int = 1, most: int | None = None, *, status: bool = False) -> tuple[Change, ...]:
    """The rows ``n`` (to ``most``) posts of the persona write in Huddle (with the people they @-mention), and with
    ``status`` the status they set (for a state_diff item)."""
    hi = n if most is None else most
    posts = (
        (Change(table="messages", op="insert", min=n, max=hi), Change(table="mentions", op="insert", min=0))
        if hi
        else ()
    )
    return posts + ((Change(table="users", op="update", min=1, max=1, columns=STATUS),) if status else ())


def post(web: Web, channel: str, text: str) -> None:
    """Post ``text`` in Huddle's ``channel``."""
    _, location = web.post_form(
        "workchat", "/api/messages", [("channel", channel), ("text", text), ("thread", "")], expect=(303,)
    )
    if "posted=" not in location:
        raise OracleError(f"Huddle did not post in {channel}: {location!r}")


def set_status(web: Web, emoji: str, text: str, until: str) -> None:
    """Set the Huddle status, clearing at the end of ``until`` (a local date)."""
    _, location = web.post_form(
        "workchat", "/api/status", [("emoji", emoji), ("text", text), ("clear", "date"), ("date", until)], expect=(303,)
    )
    if "error" in S.query_of(location):
        raise OracleError(f"Huddle did not set the status: {location!r}")


def schedule(web: Web, channel: str, text: str, at: str) -> None:
    """Schedule ``text`` in Huddle's ``channel`` for ``at`` (local ``YYYY-MM-DDTHH:MM``), as the composer's Schedule
    button posts it."""
    _, location = web.post_form(
        "workchat",
        "/api/messages",
        [("channel", channel), ("text", text), ("thread", ""), ("when", "schedule"), ("at", at)],
        expect=(303,),
    )
    if "scheduled=" not in location:
        raise OracleError(f"Huddle did not schedule the message in {channel}: {location!r}")


def notifications(web: Web, channel: str, notify: str, muted: bool) -> None:
    """Set the notifications of Huddle's ``channel`` (its Details > Notifications form)."""
    fields = [("notify", notify), ("back", f"/c/{channel}?details=notifications")] + ([("muted", "1")] if muted else [])
    _, location = web.post_form("workchat", f"/api/channels/{channel}/notifications", fields, expect=(303,))
    if "error" in S.query_of(location):
        raise OracleError(f"Huddle did not save the notifications of {channel}: {location!r}")
