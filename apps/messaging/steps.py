"""Parley's steps in the long tasks that chain apps: checks of what the persona did here and the
actions that do it through Parley's own routes (see builder.tasks.steps for the shared rules).
"""

from __future__ import annotations

from builder.tasks import steps as S
from builder.tasks.model import Change, Check
from builder.tasks.oracle import OracleError, Web


def closest_contact(world):
    """The Parley contact the persona is closest to, to tell news (:func:`builder.tasks.steps.closest_contact`: Parley
    shows the spec's chat contacts)."""
    return S.closest_contact(world)


def sent_direct(contact: str, groups: list[list[str]] = ()) -> Check:
    """A text the persona sent in Parley to ``contact`` (one-to-one), holding one string of each group."""
    more, params = S.needles("m.body", list(groups))
    return S.sql(
        "messaging",
        f"""SELECT COUNT(*) > 0 FROM messages m JOIN conversations c ON c.id = m.conversation_id
                                WHERE c.kind = 'direct' AND c.contact_id = (SELECT id FROM contacts WHERE name = ?)
                                AND m.sender_id IS NULL AND m.world_ref IS NULL{more}""",
        [contact, *params],
        [[1]],
    )


def sent_group(members: list[str], groups: list[list[str]] = ()) -> Check:
    """A Parley group the persona started with exactly ``members``, with a text from the persona in it."""
    more, params = S.needles("m.body", list(groups))
    marks = ", ".join("?" for _ in members)
    return S.sql(
        "messaging",
        f"""SELECT COUNT(*) > 0 FROM conversations c WHERE c.kind = 'group' AND c.world_ref IS NULL
                                AND (SELECT COUNT(*) FROM members b WHERE b.conversation_id = c.id) = ?
                                AND (SELECT COUNT(*) FROM members b JOIN contacts k ON k.id = b.contact_id
                                     WHERE b.conversation_id = c.id AND k.name IN ({marks})) = ?
                                AND EXISTS (SELECT 1 FROM messages m WHERE m.conversation_id = c.id
                                            AND m.sender_id IS NULL AND m.world_ref IS NULL{more})""",
        [len(members), *members, len(members), *params],
        [[1]],
    )


def texts(min_sent: int, max_sent: int | None = None, *, groups: int = 0) -> tuple[Change, ...]:
    """The rows the persona's texts write in Parley (for a state_diff item): at least ``min_sent`` messages with the
    replies they draw, conversations opened and ``groups`` new groups with their members."""
    changes = (
        Change(table="messages", op="insert", min=min_sent, max=max_sent),
        Change(table="conversations", op="insert", min=groups, max=groups + 4),
    )
    return changes + ((Change(table="members", op="insert", min=2 * groups),) if groups else ())


def only_texts(min_sent: int, max_sent: int | None = None, *, groups: int = 0) -> Check:
    """Parley changed only by the persona's texts (:func:`texts`) and reads."""
    sent, *rest = texts(min_sent, max_sent, groups=groups)
    return S.diff("messaging", sent, Change(table="messages", op="update", min=0, columns=["read_at"]), *rest)


def conversation(web: Web, contact: str) -> int:
    """The one-to-one Parley conversation with ``contact`` (opened as the contact page's button does when none)."""
    rows = web.query(
        "messaging",
        "SELECT c.id FROM conversations c JOIN contacts k ON k.id = c.contact_id "
        "WHERE c.kind = 'direct' AND k.name = ? ORDER BY c.id LIMIT 1",
        (contact,),
    )
    if rows:
        return rows[0][0]
    cid = web.one("messaging", "SELECT id FROM contacts WHERE name = ?", (contact,))
    _, location = web.post_form("messaging", "/api/direct", [("contact", str(cid))], expect=(303,))
    if "/c/" not in location:
        raise OracleError(f"Parley opened no conversation with {contact}: {location!r}")
    return int(location.split("/c/")[1].split("?")[0].split("#")[0])


def send(web: Web, contact: str, text: str) -> None:
    """Text ``contact`` in Parley."""
    conv = conversation(web, contact)
    _, location = web.post_form(
        "messaging", "/api/messages", [("conversation", str(conv)), ("body", text)], expect=(303,)
    )
    if "error=" in location:
        raise OracleError(f"Parley refused the text to {contact}: {location!r}")


def group_post(web: Web, title: str, text: str) -> None:
    """Post ``text`` in the persona's Parley group ``title``."""
    conv = web.one("messaging", "SELECT id FROM conversations WHERE kind = 'group' AND title = ?", (title,))
    _, location = web.post_form(
        "messaging", "/api/messages", [("conversation", str(conv)), ("body", text)], expect=(303,)
    )
    if "error=" in location:
        raise OracleError(f"Parley refused the text to {title}: {location!r}")


def group_send(web: Web, title: str, members: list[str], text: str) -> None:
    """Start a Parley group ``title`` with ``members`` and post ``text`` in it."""
    ids = [str(web.one("messaging", "SELECT id FROM contacts WHERE name = ?", (m,))) for m in members]
    _, location = web.post_form(
        "messaging", "/api/groups", [("title", title), *[("member", i) for i in ids]], expect=(303,)
    )
    if "/c/" not in location or "error=" in location:
        raise OracleError(f"Parley did not create the group: {location!r}")
    conv = location.split("/c/")[1].split("?")[0].split("#")[0]
    web.post_form("messaging", "/api/messages", [("conversation", conv), ("body", text)], expect=(303,))
