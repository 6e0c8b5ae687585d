"""Mailbox's own tasks derived from the world, each with its expected values and rubric (its tasks across apps are
scenarios', ``scenarios/*/mail.py``, which build on :data:`KIT` and :data:`SENT_REPLY`).

Action checks read the mail database's end state. Rows the app writes have
``world_ref IS NULL`` (and ``origin = 'app'`` for what the user sent); seeded rows never do,
so an agent that does nothing fails every action check. Queries are fixed SQL text with ``?``
placeholders: every name, address, subject and id travels in ``params``.
"""

from __future__ import annotations

from collections import Counter

from builder.tasks import kit
from builder.tasks.model import Change, Check, RubricItem, Task
from builder.tasks.phrasing import last_month
from builder.world import World

from .effects import VISITS

APP = "mail"


def _text(*options: str) -> Check:
    return Check(type="answer_text", any_of=[o for o in options if o])


#: Reading mail marks it read: allowed in every action's state diff, whatever else the task changes.
KIT = kit.Kit(APP, nothing_else="Nothing else changed in the mailbox: only {}", allowed=VISITS)


#: A sent mail the user wrote in the app, answering message ``?`` and addressed to ``?``.
SENT_REPLY = """SELECT COUNT(*) FROM messages WHERE world_ref IS NULL AND origin = 'app' AND folder = 'sent'
                 AND in_reply_to = ? AND instr(lower(to_json), lower(?)) > 0"""


def tasks(world: World) -> list[Task]:
    """Return Mailbox's own tasks of ``world`` (a count, a reply, a clean-up in the mailbox alone), in a fixed order."""
    p = world.persona
    mails = [e for e in world.of_kind("email") if e.status == "done"]
    contacts = {c.email.lower(): c for c in p.contacts if c.email}
    out: list[Task] = []

    task = KIT.adder(world, out)

    # 1. How many mails one newsletter sent last month.
    m_start, m_end = last_month(world.now)
    in_month = [e for e in mails if m_start <= e.at.date() <= m_end]
    by_sender = Counter(e.data["from"]["email"] for e in in_month if "newsletters" in e.data["labels"])
    if by_sender:
        sender = sorted(by_sender, key=lambda s: (-by_sender[s], s))[0]
        name = next(e.data["from"]["name"] for e in in_month if e.data["from"]["email"] == sender)
        # Every mail from that name counts (a sign-in code from the same service too): what "send me" asks.
        n = sum(e.data["from"]["name"] == name for e in in_month)
        task(
            "newsletter-count",
            ["mail"],
            kind="aggregation",
            difficulty="easy",
            time_limit_seconds=240,
            instruction=f"How many emails did {name} send me in {m_start:%B %Y}?",
            expected={"sender": sender, "sender_name": name, "month": f"{m_start:%Y-%m}", "count": n},
            rubric=[
                RubricItem(
                    id="count",
                    weight=100,
                    requirement=f"Says {n} emails",
                    check=Check(type="answer_number", value=n),
                )
            ],
        )

    # 2. Reply to a contact's latest mail.
    from_contact = [e for e in mails if e.data["from"]["email"].lower() in contacts and "personal" in e.data["labels"]]
    if from_contact:
        last = from_contact[-1]
        c = contacts[last.data["from"]["email"].lower()]
        task(
            "reply-latest",
            ["mail"],
            kind="action",
            difficulty="easy",
            time_limit_seconds=300,
            instruction=f"Reply to {c.name}'s latest email and tell them I'll call this weekend.",
            expected={"contact": c.name, "email": c.email, "in_reply_to": last.data["message_id"]},
            rubric=[
                RubricItem(
                    id="reply",
                    weight=60,
                    requirement=f'A reply to {c.name}\'s mail "{last.data["subject"]}" was sent',
                    check=KIT.sql(SENT_REPLY, [last.data["message_id"], c.email], [[1]]),
                ),
                RubricItem(
                    id="says",
                    weight=25,
                    requirement="The reply mentions calling this weekend",
                    check=KIT.sql(
                        """SELECT COUNT(*) FROM messages WHERE world_ref IS NULL AND origin = 'app'
                                              AND in_reply_to = ? AND instr(lower(body), 'call') > 0
                                              AND instr(lower(body), 'weekend') > 0""",
                        [last.data["message_id"]],
                        [[1]],
                    ),
                ),
                KIT.only(
                    "the one reply sent (and the contact's answer to it arriving)",
                    Change(table="messages", op="insert", min=1, max=2),
                ),
            ],
        )

    # 3. Archive every newsletter from one sender.
    news = Counter(
        e.data["from"]["email"] for e in mails if "newsletters" in e.data["labels"] and e.data["folder"] == "inbox"
    )
    if news:
        sender = sorted(news, key=lambda s: (-news[s], s))[0]
        name = next(e.data["from"]["name"] for e in mails if e.data["from"]["email"] == sender)
        total = sum(e.data["from"]["email"] == sender for e in mails)
        task(
            "archive-newsletters",
            ["mail"],
            kind="action",
            difficulty="medium",
            time_limit_seconds=420,
            instruction=f"Clean up my inbox: archive every newsletter from {name} ({sender}). Don't delete them.",
            expected={"sender": sender, "archived": total, "were_in_inbox": news[sender]},
            rubric=[
                RubricItem(
                    id="inbox-empty",
                    weight=50,
                    requirement=f"No mail from {sender} is left in the Inbox",
                    check=KIT.sql(
                        "SELECT COUNT(*) FROM messages WHERE from_email = ? AND folder = 'inbox'", [sender], [[0]]
                    ),
                ),
                RubricItem(
                    id="archived",
                    weight=35,
                    requirement=f"All {total} of its mails are in Archive (none in Trash)",
                    check=KIT.sql(
                        "SELECT COUNT(*) FROM messages WHERE from_email = ? AND folder = 'archive'", [sender], [[total]]
                    ),
                ),
                KIT.only(
                    f"the {news[sender]} newsletters moved from the Inbox to Archive",
                    Change(
                        table="messages", op="update", min=news[sender], max=news[sender], columns=["folder", "is_read"]
                    ),
                ),
            ],
        )
    return out
