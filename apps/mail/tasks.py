"""Mailbox tasks derived from the world, each with its expected values and rubric.

Action checks read the mail database's end state. Rows the app writes have
``world_ref IS NULL`` (and ``origin = 'app'`` for what the user sent); seeded rows never do,
so an agent that does nothing fails every action check. Queries are fixed SQL text with ``?``
placeholders: every name, address, subject and id travels in ``params``.
"""

from __future__ import annotations

import datetime as dt
from collections import Counter

from builder.money import money
from builder.tasks.model import Check, RubricItem, Task
from builder.world import World

APP = "mail"


def _sql(query: str, params: list, expected: list[list]) -> Check:
    return Check(type="sql", app=APP, query=" ".join(query.split()), params=list(params), expected=expected)


def _text(*options: str) -> Check:
    return Check(type="answer_text", any_of=[o for o in options if o])


def _date_forms(day: dt.date) -> list[str]:
    return [f"{day:%B} {day.day}", f"{day:%b} {day.day}", f"{day.month}/{day.day}", day.isoformat(), f"{day.day} {day:%B}"]


def _last_month(world: World) -> tuple[dt.date, dt.date]:
    first = world.now.date().replace(day=1)
    end = first - dt.timedelta(days=1)
    return end.replace(day=1), end


#: A sent mail the user wrote in the app, answering message ``?`` and addressed to ``?``.
_SENT_REPLY = """SELECT COUNT(*) FROM messages WHERE world_ref IS NULL AND origin = 'app' AND folder = 'sent'
                 AND in_reply_to = ? AND instr(lower(to_json), lower(?)) > 0"""


def tasks(world: World) -> list[Task]:
    """Return the mail tasks of ``world`` (lookups, aggregations across mail and bank, and actions), in a fixed order."""
    p = world.persona
    pid = p.id
    cur = world.currency
    mails = [e for e in world.of_kind("email") if e.status == "done"]
    own = {p.identity.email.lower(), (p.work.email or "").lower() if p.work else ""}
    contacts = {c.email.lower(): c for c in p.contacts if c.email}
    out: list[Task] = []

    def task(slug: str, apps: list[str], **kw) -> None:
        out.append(Task(id=f"{pid}/mail/{slug}", persona=pid, apps_involved=apps, **kw))

    # 1. The PNR and fare of the latest flight booking (mail + bank).
    flights = [e for e in world.of_kind("flight_booking") if e.status == "done" and e.data.get("pnr")]
    if flights:
        f = flights[-1]
        d = f.data
        total = d.get("total_cents") or d.get("price_cents")
        task("flight-pnr", ["mail", "bank"], kind="lookup", difficulty="medium", time_limit_seconds=300,
             instruction=f"Find the booking confirmation for my flight to {d['destination']}. What is the confirmation "
                         "code (PNR), and how much did the card get charged for it?",
             expected={"pnr": d["pnr"], "total_cents": total},
             rubric=[RubricItem(id="pnr", weight=60, requirement=f"States the PNR {d['pnr']}", check=_text(d["pnr"])),
                     RubricItem(id="charge", weight=40, requirement=f"States the charge {money(total, cur)}",
                                check=Check(type="answer_amount", cents=total))])

    # 2. How many mails one newsletter sent last month.
    m_start, m_end = _last_month(world)
    in_month = [e for e in mails if m_start <= e.at.date() <= m_end]
    by_sender = Counter(e.data["from"]["email"] for e in in_month if "newsletters" in e.data["labels"])
    if by_sender:
        sender = sorted(by_sender, key=lambda s: (-by_sender[s], s))[0]
        name = next(e.data["from"]["name"] for e in in_month if e.data["from"]["email"] == sender)
        n = by_sender[sender]
        task("newsletter-count", ["mail"], kind="aggregation", difficulty="easy", time_limit_seconds=240,
             instruction=f"How many emails did {name} send me in {m_start:%B %Y}?",
             expected={"sender": sender, "count": n},
             rubric=[RubricItem(id="count", weight=100, requirement=f"Says {n} emails",
                                check=_text(f"{n} email", f"{n} mail", f"{n} message", f"{n} newsletter", f"{n} issue"))])

    # 3. Food delivery receipts last month (mail receipts, the same charges in the bank).
    food = [e for e in world.of_kind("food_order") if e.status == "done" and m_start <= e.at.date() <= m_end]
    if food:
        total = sum(e.data["total_cents"] for e in food)
        task("food-orders-month", ["mail", "bank"], kind="aggregation", difficulty="hard", time_limit_seconds=600,
             instruction=f"Add up my food delivery order receipts from {m_start:%B %Y}: how many orders and what was "
                         "the total? Check it against the card charges.",
             expected={"orders": len(food), "total_cents": total},
             rubric=[RubricItem(id="total", weight=70, requirement=f"States the total {money(total, cur)}",
                                check=Check(type="answer_amount", cents=total)),
                     RubricItem(id="count", weight=30, requirement=f"Says it was {len(food)} orders",
                                check=_text(f"{len(food)} orders", f"{len(food)} food", f"{len(food)} deliver"))])

    # 4. The last payslip's net pay, and whether the bank deposit matches (mail + bank).
    pay_mails = [e for e in mails if "payroll" in e.data["labels"] and e.data.get("ref")]
    paychecks = {e.id: e for e in world.of_kind("paycheck")}
    if pay_mails and pay_mails[-1].data["ref"] in paychecks:
        pc = paychecks[pay_mails[-1].data["ref"]]
        net = pc.data["net_cents"]
        task("payslip-vs-deposit", ["mail", "bank"], kind="lookup", difficulty="medium", time_limit_seconds=420,
             instruction="Open my latest pay statement from payroll: what net pay does it show, and did the same "
                         "amount arrive in my checking account?",
             expected={"net_cents": net, "pay_date": pc.at.date().isoformat(), "deposit_matches": True},
             rubric=[RubricItem(id="net", weight=60, requirement=f"States the net pay {money(net, cur)}",
                                check=Check(type="answer_amount", cents=net)),
                     RubricItem(id="date", weight=20, requirement=f"Gives the pay date {pc.at:%B %-d}",
                                check=_text(*_date_forms(pc.at.date()))),
                     RubricItem(id="match", weight=20, requirement="Says the checking deposit matches the payslip")])

    # 5. Reply to a contact's latest mail.
    from_contact = [e for e in mails if e.data["from"]["email"].lower() in contacts and "personal" in e.data["labels"]]
    if from_contact:
        last = from_contact[-1]
        c = contacts[last.data["from"]["email"].lower()]
        task("reply-latest", ["mail"], kind="action", difficulty="easy", time_limit_seconds=300,
             instruction=f"Reply to {c.name}'s latest email and tell them I'll call this weekend.",
             expected={"contact": c.name, "email": c.email, "in_reply_to": last.data["message_id"]},
             rubric=[RubricItem(id="reply", weight=70, requirement=f"A reply to {c.name}'s mail \"{last.data['subject']}\" was sent",
                                check=_sql(_SENT_REPLY, [last.data["message_id"], c.email], [[1]])),
                     RubricItem(id="says", weight=30, requirement="The reply mentions calling this weekend",
                                check=_sql("""SELECT COUNT(*) FROM messages WHERE world_ref IS NULL AND origin = 'app'
                                              AND in_reply_to = ? AND instr(lower(body), 'call') > 0
                                              AND instr(lower(body), 'weekend') > 0""",
                                           [last.data["message_id"]], [[1]]))])

    # 6. Forward the latest bank statement mail to a contact (mail; the statement is the bank's).
    statements_mail = [e for e in mails if "bank" in e.data["labels"]]
    helper = next((c for c in p.contacts if c.email and c.relationship in ("partner", "spouse", "parent", "sibling")),
                  next((c for c in p.contacts if c.email), None))
    if statements_mail and helper:
        st = statements_mail[-1]
        task("forward-statement", ["mail", "bank"], kind="action", difficulty="medium", time_limit_seconds=300,
             instruction=f"Forward the latest statement email from Larkspur Bank (\"{st.data['subject']}\") to {helper.name}.",
             expected={"to": helper.email, "in_reply_to": st.data["message_id"], "subject": st.data["subject"]},
             rubric=[RubricItem(id="forwarded", weight=80, requirement=f"The statement mail was forwarded to {helper.email}",
                                check=_sql(_SENT_REPLY, [st.data["message_id"], helper.email], [[1]])),
                     RubricItem(id="subject", weight=20, requirement="The forward keeps the original subject",
                                check=_sql("""SELECT COUNT(*) FROM messages WHERE world_ref IS NULL AND origin = 'app'
                                              AND in_reply_to = ? AND instr(subject, ?) > 0""",
                                           [st.data["message_id"], st.data["subject"]], [[1]]))])

    # 7. Archive every newsletter from one sender.
    news = Counter(e.data["from"]["email"] for e in mails if "newsletters" in e.data["labels"] and e.data["folder"] == "inbox")
    if news:
        sender = sorted(news, key=lambda s: (-news[s], s))[0]
        name = next(e.data["from"]["name"] for e in mails if e.data["from"]["email"] == sender)
        total = sum(e.data["from"]["email"] == sender for e in mails)
        task("archive-newsletters", ["mail"], kind="action", difficulty="medium", time_limit_seconds=420,
             instruction=f"Clean up my inbox: archive every newsletter from {name} ({sender}). Don't delete them.",
             expected={"sender": sender, "archived": total, "were_in_inbox": news[sender]},
             rubric=[RubricItem(id="inbox-empty", weight=60, requirement=f"No mail from {sender} is left in the Inbox",
                                check=_sql("SELECT COUNT(*) FROM messages WHERE from_email = ? AND folder = 'inbox'",
                                           [sender], [[0]])),
                     RubricItem(id="archived", weight=40, requirement=f"All {total} of its mails are in Archive (none in Trash)",
                                check=_sql("SELECT COUNT(*) FROM messages WHERE from_email = ? AND folder = 'archive'",
                                           [sender], [[total]]))])

    # 8. Accept a meeting invitation (mail + calendar).
    invites = [e for e in mails if e.data["folder"] == "inbox" and e.data["from"]["email"].lower() not in own
               and any(a["content_type"].startswith("text/calendar") for a in e.data["attachments"])]
    if invites:
        inv = invites[-1]
        ics = next(a["content"] for a in inv.data["attachments"] if a["content_type"].startswith("text/calendar"))
        uid = next(line[4:] for line in ics.split("\r\n") if line.startswith("UID:"))
        title = next(line[8:] for line in ics.split("\r\n") if line.startswith("SUMMARY:"))
        org = inv.data["from"]
        task("accept-invitation", ["mail", "calendar"], kind="action", difficulty="medium", time_limit_seconds=300,
             instruction=f"{org['name']} invited me to \"{title}\". Accept the invitation so they get my answer.",
             expected={"uid": uid, "partstat": "ACCEPTED", "organizer": org["email"]},
             rubric=[RubricItem(id="rsvp", weight=60, requirement=f"The invitation {uid} is answered Yes (ACCEPTED)",
                                check=_sql("SELECT COUNT(*) FROM rsvps WHERE uid = ? AND partstat = 'ACCEPTED'", [uid], [[1]])),
                     RubricItem(id="reply-mail", weight=40, requirement=f"An acceptance was mailed to {org['email']}",
                                check=_sql(_SENT_REPLY, [inv.data["message_id"], org["email"]], [[1]]))])
    return out
