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
from builder.tasks import kit
from builder.tasks.model import Change, Check, RubricItem, Task
from builder.tasks.phrasing import last_month
from builder.world import World

APP = "mail"


def _text(*options: str) -> Check:
    return Check(type="answer_text", any_of=[o for o in options if o])


def _date_forms(day: dt.date) -> list[str]:
    return [
        f"{day:%B} {day.day}",
        f"{day:%b} {day.day}",
        f"{day.month}/{day.day}",
        day.isoformat(),
        f"{day.day} {day:%B}",
    ]


#: Reading mail marks it read: allowed in every action's state diff, whatever else the task changes.
_READ = Change(table="messages", op="update", min=0, columns=["is_read"])
KIT = kit.Kit(APP, nothing_else="Nothing else changed in the mailbox: only {}", allowed=(_READ,))


#: A sent mail the user wrote in the app, answering message ``?`` and addressed to ``?``.
_SENT_REPLY = """SELECT COUNT(*) FROM messages WHERE world_ref IS NULL AND origin = 'app' AND folder = 'sent'
                 AND in_reply_to = ? AND instr(lower(to_json), lower(?)) > 0"""


def tasks(world: World) -> list[Task]:
    """Return the mail tasks of ``world`` (lookups, aggregations across mail and bank, and actions), in a fixed order."""
    p = world.persona
    cur = world.currency
    mails = [e for e in world.of_kind("email") if e.status == "done"]
    own = {p.identity.email.lower(), (p.work.email or "").lower() if p.work else ""}
    contacts = {c.email.lower(): c for c in p.contacts if c.email}
    out: list[Task] = []

    task = KIT.adder(world, out)

    # 1. The PNR and fare of the latest flight booking (mail + bank).
    flights = [e for e in world.of_kind("flight_booking") if e.status == "done" and e.data.get("pnr")]
    if flights:
        f = flights[-1]
        d = f.data
        total = d.get("total_cents") or d.get("price_cents")
        task(
            "flight-pnr",
            ["mail", "bank"],
            kind="lookup",
            difficulty="medium",
            time_limit_seconds=300,
            instruction=f"Find the booking confirmation for my flight to {d['destination']}. What is the confirmation "
            "code (PNR), and how much did the card get charged for it?",
            expected={"pnr": d["pnr"], "total_cents": total},
            rubric=[
                RubricItem(id="pnr", weight=60, requirement=f"States the PNR {d['pnr']}", check=_text(d["pnr"])),
                RubricItem(
                    id="charge",
                    weight=40,
                    requirement=f"States the charge {money(total, cur)}",
                    check=Check(type="answer_amount", cents=total),
                ),
            ],
        )

    # 2. How many mails one newsletter sent last month.
    m_start, m_end = last_month(world.now)
    in_month = [e for e in mails if m_start <= e.at.date() <= m_end]
    by_sender = Counter(e.data["from"]["email"] for e in in_month if "newsletters" in e.data["labels"])
    if by_sender:
        sender = sorted(by_sender, key=lambda s: (-by_sender[s], s))[0]
        name = next(e.data["from"]["name"] for e in in_month if e.data["from"]["email"] == sender)
        n = by_sender[sender]
        task(
            "newsletter-count",
            ["mail"],
            kind="aggregation",
            difficulty="easy",
            time_limit_seconds=240,
            instruction=f"How many emails did {name} send me in {m_start:%B %Y}?",
            expected={"sender": sender, "count": n},
            rubric=[
                RubricItem(
                    id="count",
                    weight=100,
                    requirement=f"Says {n} emails",
                    check=_text(f"{n} email", f"{n} mail", f"{n} message", f"{n} newsletter", f"{n} issue"),
                )
            ],
        )

    # 3. Food delivery receipts last month (mail receipts, the same charges in the bank).
    food = [e for e in world.of_kind("food_order") if e.status == "done" and m_start <= e.at.date() <= m_end]
    if food:
        total = sum(e.data["total_cents"] for e in food)
        task(
            "food-orders-month",
            ["mail", "bank"],
            kind="aggregation",
            difficulty="hard",
            time_limit_seconds=600,
            instruction=f"Add up my food delivery order receipts from {m_start:%B %Y}: how many orders and what was "
            "the total? Check it against the card charges.",
            expected={"orders": len(food), "total_cents": total},
            rubric=[
                RubricItem(
                    id="total",
                    weight=70,
                    requirement=f"States the total {money(total, cur)}",
                    check=Check(type="answer_amount", cents=total),
                ),
                RubricItem(
                    id="count",
                    weight=30,
                    requirement=f"Says it was {len(food)} orders",
                    check=_text(f"{len(food)} orders", f"{len(food)} food", f"{len(food)} deliver"),
                ),
            ],
        )

    # 4. The last payslip's net pay, and whether the bank deposit matches (mail + bank).
    pay_mails = [e for e in mails if "payroll" in e.data["labels"] and e.data.get("ref")]
    paychecks = {e.id: e for e in world.of_kind("paycheck")}
    if pay_mails and pay_mails[-1].data["ref"] in paychecks:
        pc = paychecks[pay_mails[-1].data["ref"]]
        net = pc.data["net_cents"]
        task(
            "payslip-vs-deposit",
            ["mail", "bank"],
            kind="lookup",
            difficulty="medium",
            time_limit_seconds=420,
            instruction="Open my latest pay statement from payroll: what net pay does it show, and did the same "
            "amount arrive in my checking account?",
            expected={"net_cents": net, "pay_date": pc.at.date().isoformat(), "deposit_matches": True},
            rubric=[
                RubricItem(
                    id="net",
                    weight=60,
                    requirement=f"States the net pay {money(net, cur)}",
                    check=Check(type="answer_amount", cents=net),
                ),
                RubricItem(
                    id="date",
                    weight=20,
                    requirement=f"Gives the pay date {pc.at:%B %-d}",
                    check=_text(*_date_forms(pc.at.date())),
                ),
                RubricItem(id="match", weight=20, requirement="Says the checking deposit matches the payslip"),
            ],
        )

    # 5. Reply to a contact's latest mail.
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
                    check=KIT.sql(_SENT_REPLY, [last.data["message_id"], c.email], [[1]]),
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

    # 6. Forward the latest bank statement mail to a contact (mail; the statement is the bank's).
    statements_mail = [e for e in mails if "bank" in e.data["labels"]]
    helper = next(
        (c for c in p.contacts if c.email and c.relationship in ("partner", "spouse", "parent", "sibling")),
        next((c for c in p.contacts if c.email), None),
    )
    if statements_mail and helper:
        st = statements_mail[-1]
        task(
            "forward-statement",
            ["mail", "bank"],
            kind="action",
            difficulty="medium",
            time_limit_seconds=300,
            instruction=f'Forward the latest statement email from Larkspur Bank ("{st.data["subject"]}") to {helper.name}.',
            expected={"to": helper.email, "in_reply_to": st.data["message_id"], "subject": st.data["subject"]},
            rubric=[
                RubricItem(
                    id="forwarded",
                    weight=70,
                    requirement=f"The statement mail was forwarded to {helper.email}",
                    check=KIT.sql(_SENT_REPLY, [st.data["message_id"], helper.email], [[1]]),
                ),
                RubricItem(
                    id="subject",
                    weight=15,
                    requirement="The forward keeps the original subject",
                    check=KIT.sql(
                        """SELECT COUNT(*) FROM messages WHERE world_ref IS NULL AND origin = 'app'
                                              AND in_reply_to = ? AND instr(subject, ?) > 0""",
                        [st.data["message_id"], st.data["subject"]],
                        [[1]],
                    ),
                ),
                KIT.only(
                    "the one forward sent (with any attachment it carries, and an answer to it arriving)",
                    Change(table="messages", op="insert", min=1, max=2),
                    Change(table="attachments", op="insert", min=0),
                ),
            ],
        )

    # 7. Archive every newsletter from one sender.
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

    # 8. Accept a meeting invitation (mail + calendar).
    invites = [
        e
        for e in mails
        if e.data["folder"] == "inbox"
        and e.data["from"]["email"].lower() not in own
        and any(a["content_type"].startswith("text/calendar") for a in e.data["attachments"])
    ]
    if invites:
        inv = invites[-1]
        ics = next(a["content"] for a in inv.data["attachments"] if a["content_type"].startswith("text/calendar"))
        uid = next(line[4:] for line in ics.split("\r\n") if line.startswith("UID:"))
        title = next(line[8:] for line in ics.split("\r\n") if line.startswith("SUMMARY:"))
        org = inv.data["from"]
        task(
            "accept-invitation",
            ["mail", "calendar"],
            kind="action",
            difficulty="medium",
            time_limit_seconds=300,
            instruction=f'{org["name"]} invited me to "{title}". Accept the invitation so they get my answer.',
            expected={"uid": uid, "partstat": "ACCEPTED", "organizer": org["email"]},
            rubric=[
                RubricItem(
                    id="rsvp",
                    weight=50,
                    requirement=f"The invitation {uid} is answered Yes (ACCEPTED)",
                    check=KIT.sql("SELECT COUNT(*) FROM rsvps WHERE uid = ? AND partstat = 'ACCEPTED'", [uid], [[1]]),
                ),
                RubricItem(
                    id="reply-mail",
                    weight=35,
                    requirement=f"An acceptance was mailed to {org['email']}",
                    check=KIT.sql(_SENT_REPLY, [inv.data["message_id"], org["email"]], [[1]]),
                ),
                KIT.only(
                    "the one answer recorded and its reply mail with the reply invitation attached",
                    Change(table="rsvps", op="insert", min=1, max=1),
                    Change(table="messages", op="insert", min=1, max=1),
                    Change(table="attachments", op="insert", min=1, max=1),
                ),
            ],
        )
    out.extend(insight_tasks(world))
    return out


# --- Reasoning tasks (contradiction, counterfactual, preference inference) ---------------------------------------


def insight_tasks(world: World) -> list[Task]:
    """Mail's contradiction task (how far the organizer's mail moved a meeting the calendar still has at the old
    time) and the unread round-up across mail, Parley and Huddle (every ``unread`` item the world planted)."""
    from builder.tasks import answers as A

    p = world.persona
    pid = p.id
    out: list[Task] = []

    it = A.planted(world, "contradiction/meeting-moved")
    if it:
        cal, new = dt.datetime.fromisoformat(it["calendar_start"]), dt.datetime.fromisoformat(it["mail_start"])
        end = new + dt.timedelta(minutes=it.get("minutes") or 0)
        first = it["organizer"].split()[0]
        rubric = [
            RubricItem(
                id="start",
                weight=35,
                requirement=f"Gives the new start {new:%A %H:%M}",
                check=A.text(*A.time_forms(new)),
            ),
            RubricItem(
                id="calendar",
                weight=25,
                requirement=f"Says the calendar still shows {cal:%A %H:%M}",
                check=A.text(*A.time_forms(cal)),
            ),
            RubricItem(
                id="order",
                weight=25,
                requirement="Names the new time before the calendar's",
                check=A.names([A.time_forms(new), A.time_forms(cal)], ordered=True),
            ),
        ]
        if it.get("minutes"):
            rubric.append(
                RubricItem(
                    id="end", weight=15, requirement=f"Gives the end {end:%H:%M}", check=A.text(*A.time_forms(end))
                )
            )
        else:
            rubric[0] = rubric[0].model_copy(update={"weight": 50})
        out.append(
            Task(
                id=f"{pid}/mail/cx-meeting-email",
                persona=pid,
                apps_involved=["mail", "calendar"],
                kind="lookup",
                category="contradiction",
                difficulty="medium",
                time_limit_seconds=420,
                instruction=f"{first} emailed me about “{it['title']}”. According to that email, when does it "
                "start and end now, and what does my calendar still show? New time first.",
                expected={
                    "title": it["title"],
                    "right": it["mail_start"],
                    "end": end.isoformat(),
                    "stale": it["calendar_start"],
                    "truth": "mail",
                },
                planted=[it["id"]],
                rubric=rubric,
            )
        )

    rsvp, docs = A.planted_of(world, "pending", "rsvp"), A.planted_of(world, "pending", "send_document")
    if rsvp or docs:
        items = [(x["title"], x["rsvp_by"]) for x in rsvp] + [(x["form"], x["due"]) for x in docs]
        rubric = []
        for i, (what, due) in enumerate(items):
            rubric += [
                RubricItem(id=f"what-{i}", weight=1, requirement=f"Names {what}", check=A.text(what)),
                RubricItem(
                    id=f"due-{i}", weight=1, requirement=f"Gives the deadline {due}", check=A.text(*A.date_forms(due))
                ),
            ]
        share = 100 // len(rubric)
        rubric = [
            r.model_copy(update={"weight": share + (100 - share * len(rubric) if k == 0 else 0)})
            for k, r in enumerate(rubric)
        ]
        out.append(
            Task(
                id=f"{pid}/mail/open-obligations",
                persona=pid,
                apps_involved=["mail", "calendar"],
                kind="aggregation",
                difficulty="medium",
                time_limit_seconds=600,
                instruction="Which invitations am I still supposed to answer, and which documents have people "
                "asked me to send? For each, tell me what it is and the deadline.",
                expected={"items": [{"what": w, "due": d} for w, d in items]},
                planted=[x["id"] for x in rsvp + docs],
                rubric=rubric,
            )
        )

    unread = A.planted_of(world, "unread")
    if unread:
        people = {c.name for c in p.contacts} | set(p.work.colleagues if p.work and p.work.colleagues else [])
        who = list(dict.fromkeys(x["sender"] for x in unread if x["sender"] in people))
        apps = list(dict.fromkeys(x["app"] for x in unread))
        label = {"mail": "email", "messaging": "Parley", "workchat": "Huddle"}
        if who:
            out.append(
                Task(
                    id=f"{pid}/mail/unread-people",
                    persona=pid,
                    apps_involved=apps,
                    kind="aggregation",
                    difficulty="hard",
                    time_limit_seconds=900,
                    instruction="I've fallen behind on messages. Across "
                    + ", ".join(label.get(a, a) for a in apps)
                    + ", which people (not companies or newsletters) have written to me in the last "
                    "three days without me having read it yet? And how many unread messages is "
                    "that in total, companies included?",
                    expected={"people": who, "unread": len(unread), "apps": apps},
                    planted=[x["id"] for x in unread],
                    rubric=[
                        RubricItem(
                            id="people",
                            weight=70,
                            requirement="Names " + ", ".join(who),
                            check=A.names([A.person(n) for n in who]),
                        ),
                        RubricItem(
                            id="count",
                            weight=30,
                            requirement=f"Says {len(unread)} unread messages",
                            check=A.number(len(unread)),
                        ),
                    ],
                )
            )
    return out


# --- long-horizon chains that start from the mailbox ----------------------------------------------------
