"""Mailbox tasks derived from the world, each with its expected values and rubric.

Action checks read the mail database's end state. Rows the app writes have
``world_ref IS NULL`` (and ``origin = 'app'`` for what the user sent); seeded rows never do,
so an agent that does nothing fails every action check. Queries are fixed SQL text with ``?``
placeholders: every name, address, subject and id travels in ``params``.
"""

from __future__ import annotations

import datetime as dt
from collections import Counter

from apps.bank import steps as larkspur
from apps.calendar import steps as daybook
from apps.mail import steps as mailbox
from apps.messaging import steps as parley
from apps.rides import steps as zipride
from apps.shop import steps as shopwell
from apps.workchat import steps as huddle
from builder.money import money
from builder.tasks import answers
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
    out += long_tasks(world) + review_request_task(world)
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


def _local(world: World, naive: dt.datetime) -> str:
    """A naive local time of the persona as ISO 8601 with its offset (how ZipRide keeps pickup times)."""
    from zoneinfo import ZoneInfo

    return naive.replace(tzinfo=ZoneInfo(world.persona.timezone)).isoformat()


def _mail_only(weight: int = 10) -> RubricItem:
    """Mailbox changed only by mails sent and received (confirmations of the other apps), reads and answers."""
    return RubricItem(
        id="only-mail",
        weight=weight,
        requirement="Nothing else changed in Mailbox: only mails sent or received, read, and answers",
        check=Check(
            type="state_diff",
            app=APP,
            ignore=["sessions"],
            changes=[
                Change(table="messages", op="insert", min=1),
                Change(table="attachments", op="insert", min=0),
                Change(table="messages", op="update", min=0, columns=["is_read"]),
                Change(table="rsvps", op="insert", min=0, max=1),
                Change(table="rsvps", op="update", min=0),
            ],
        ),
    )


def long_tasks(world: World) -> list[Task]:
    """Mailbox's long-horizon chains: the housewarming invitation, Thanksgiving at the parent's, the Sunday sweep."""
    from builder.tasks import steps as S
    from builder.tasks.phrasing import day_phrase
    from builder.world.accounts import payment_cards

    p = world.persona
    out: list[Task] = []
    today = world.now.date()
    cards = payment_cards(world)

    # 1. The housewarming invitation: accept, gift, ride there, tell the host.
    rsvp = answers.planted(world, "pending/rsvp")
    host = next((c for c in p.contacts if rsvp and c.name == rsvp["organizer"]), None)
    where = S.street_address(host) if host else None
    cal_id = next((s["event_id"] for s in rsvp["shows_in"] if s["app"] == "calendar"), None) if rsvp else None
    present = shopwell.gift("mug-set")
    if rsvp and host and where and cal_id and present and cards:
        start = dt.datetime.fromisoformat(rsvp["start"])
        lo, hi = start - dt.timedelta(minutes=40), start - dt.timedelta(minutes=20)
        card = cards[0]
        uid = _invite_uid(world, cal_id)
        first = host.name.split()[0]
        out.append(
            Task(
                id=f"{p.id}/mail/housewarming-plan",
                persona=p.id,
                kind="action",
                category="long_horizon",
                apps_involved=[APP, "calendar", "shop", "bank", "rides", "messaging"],
                difficulty="hard",
                time_limit_seconds=1500,
                planted=[rsvp["id"]],
                instruction=f"I'm going to {first}'s housewarming {day_phrase(start.date(), today)}. Accept the invitation "
                f"in my mail so {first} gets my answer; order the {present['title']} ({present['variant']}) "
                f"from Shopwell as a present, to my home, with my {card['label']}; schedule a ZipRide from home "
                f"to {first}'s place that picks me up about half an hour before it starts; and text {first} "
                "in Parley that I'm coming.",
                expected={
                    "uid": uid,
                    "event": cal_id,
                    "start": rsvp["start"],
                    "organizer": host.email,
                    "host": host.name,
                    "address": where,
                    "sku": present["sku"],
                    "card_last4": card["last4"],
                    "pickup_window": [_local(world, lo), _local(world, hi)],
                },
                rubric=[
                    RubricItem(
                        id="accepted",
                        weight=20,
                        requirement=f"The invitation to {rsvp['title']} is accepted "
                        "in Mailbox (the answer mailed to the organizer)",
                        check=KIT.sql(
                            "SELECT COUNT(*) FROM rsvps WHERE uid = ? AND partstat = 'ACCEPTED'", [uid], [[1]]
                        ),
                    ),
                    RubricItem(
                        id="calendar",
                        weight=10,
                        requirement="Daybook shows me as attending",
                        check=S.sql(
                            "calendar",
                            "SELECT COUNT(*) FROM attendees WHERE event_id = ? AND is_self = 1 "
                            "AND partstat = 'ACCEPTED'",
                            [cal_id],
                            [[1]],
                        ),
                    ),
                    RubricItem(
                        id="gift",
                        weight=15,
                        requirement=f"A Shopwell order of {present['title']} "
                        f"({present['sku']}) paid with {card['label']}",
                        check=shopwell.bought(present["sku"], card["last4"]),
                    ),
                    RubricItem(
                        id="charged",
                        weight=5,
                        requirement="The order's charge reached the card",
                        check=larkspur.card_charged("shop"),
                    ),
                    RubricItem(
                        id="ride",
                        weight=20,
                        requirement=f"A ZipRide Home -> {where} picks me up between "
                        f"{lo:%H:%M} and {hi:%H:%M} on {start:%b %-d}",
                        check=zipride.booked("Home", where, _local(world, lo), _local(world, hi)),
                    ),
                    RubricItem(
                        id="told",
                        weight=15,
                        requirement=f"{host.name} got a text from me in Parley",
                        check=parley.sent_direct(host.name),
                    ),
                    RubricItem(id="told-says", weight=5, requirement="The text says I'm coming (judge: read it)"),
                    _mail_only(),
                ],
            )
        )

    # 2. Thanksgiving at the parent's: answer the letter, calendar, rides there and back, pie things, the sibling.
    parent = next((c for c in p.contacts if c.relationship == "parent" and c.email), None)
    sibling = next((c for c in p.contacts if c.relationship == "sibling"), None)
    letter = next(
        (
            e
            for e in sorted(world.of_kind("email"), key=lambda e: e.at, reverse=True)
            if parent
            and e.at <= world.now
            and e.data["from"].get("email") == parent.email
            and "thanksgiving" in e.data["subject"].lower()
            and not e.data["subject"].lower().startswith("re")
        ),
        None,
    )
    holiday = next(
        (e for e in world.of_kind("calendar_event") if e.data.get("title") == "Thanksgiving Day" and e.at > world.now),
        None,
    )
    home_of = S.street_address(parent) if parent else None
    pie = _pie_items(world)
    if letter and holiday and home_of and sibling and pie:
        day = holiday.at.date()
        arrive = dt.datetime.combine(day, dt.time(15, 0))
        lo, hi = arrive - dt.timedelta(minutes=40), arrive - dt.timedelta(minutes=20)
        back_lo, back_hi = dt.datetime.combine(day, dt.time(20, 50)), dt.datetime.combine(day, dt.time(21, 10))
        store, sunday, items = pie
        mom = parent.name.split()[0]
        names = "; ".join(f"{i['brand']} {i['title']} ({i['size']})" for i in items)
        marks = ",".join("?" for _ in items)
        out.append(
            Task(
                id=f"{p.id}/mail/thanksgiving-plan",
                persona=p.id,
                kind="action",
                category="long_horizon",
                apps_involved=[APP, "calendar", "rides", "grocery", "bank", "messaging"],
                difficulty="hard",
                time_limit_seconds=1500,
                instruction=f"{mom} asked by email whether I'm coming for Thanksgiving. Reply to that email that I'll be there "
                f'at 3 pm; put "Thanksgiving at {mom}\'s" in my calendar on {day_phrase(day, today, preposition=False)}'
                f" from 3 pm to 9 pm; schedule a ZipRide from home to her place picking me up 20 to 40 minutes "
                "before 3, and one from there back home at 9 pm; have these delivered from "
                f"{store['name']} {day_phrase(sunday, today)} for the pie I'm bringing: {names}; and ask "
                f"{sibling.name.split()[0]} in Parley whether they want to share the ride.",
                expected={
                    "parent": parent.name,
                    "parent_email": parent.email,
                    "letter": letter.data.get("message_id"),
                    "day": day.isoformat(),
                    "address": home_of,
                    "sibling": sibling.name,
                    "pickup_window": [_local(world, lo), _local(world, hi)],
                    "back_at": f"{day}T21:00",
                    "store_key": store["key"],
                    "store_id": store["id"],
                    "delivery_day": sunday.isoformat(),
                    "products": [i["id"] for i in items],
                },
                rubric=[
                    RubricItem(
                        id="reply",
                        weight=15,
                        requirement=f"A mail to {parent.name} ({parent.email}) was sent",
                        check=mailbox.sent(parent.email),
                    ),
                    RubricItem(id="reply-says", weight=5, requirement="It says I'm coming, at 3 pm (judge: read it)"),
                    RubricItem(
                        id="calendar",
                        weight=15,
                        requirement=f'Daybook has "Thanksgiving at {mom}\'s" on {day} from 15:00',
                        check=daybook.created(f"{day}T15:00", [["thanksgiving"]]),
                    ),
                    RubricItem(
                        id="ride-there",
                        weight=15,
                        requirement=f"A ZipRide Home -> {home_of} picks me up between "
                        f"{lo:%H:%M} and {hi:%H:%M} on {day}",
                        check=zipride.booked("Home", home_of, _local(world, lo), _local(world, hi)),
                    ),
                    RubricItem(
                        id="ride-back",
                        weight=10,
                        requirement=f"A ZipRide {home_of} -> Home around 21:00 on {day}",
                        check=zipride.booked(home_of, "Home", _local(world, back_lo), _local(world, back_hi)),
                    ),
                    RubricItem(
                        id="groceries",
                        weight=15,
                        requirement=f"A {store['name']} delivery on {sunday} holds {names}",
                        check=S.sql(
                            "grocery",
                            f"""SELECT COUNT(DISTINCT i.product_id) FROM orders o
                                                         JOIN order_items i ON i.order_id = o.id
                                                         WHERE o.world_ref IS NULL AND o.store_id = ?
                                                         AND o.fulfilment = 'delivery' AND substr(o.window_start, 1, 10) = ?
                                                         AND i.product_id IN ({marks})""",
                            [store["id"], sunday.isoformat(), *[i["id"] for i in items]],
                            [[len(items)]],
                        ),
                    ),
                    RubricItem(
                        id="sibling",
                        weight=10,
                        requirement=f"{sibling.name} got a text from me in Parley",
                        check=parley.sent_direct(sibling.name),
                    ),
                    RubricItem(id="sibling-says", weight=5, requirement="It offers to share the ride (judge: read it)"),
                    _mail_only(10),
                ],
            )
        )

    # 3. The Sunday sweep: pay back every friend who asked and tell them, the bill the biller's mail states,
    #    the pending invitation, the unread question in Parley and the team's message in Huddle.
    paybacks = [x for x in world.planted if x.get("kind") == "pending" and x.get("what") == "pay_back"]
    bill = answers.planted(world, "contradiction/bill-amount")
    ask = next(
        (
            e
            for e in sorted(world.of_kind("chat_message"), key=lambda e: e.at, reverse=True)
            if e.at <= world.now
            and e.data.get("sender") != "me"
            and "?" in e.data.get("text", "")
            and e.data.get("contact") == (sibling.name if sibling else None)
        ),
        None,
    )
    team = next(
        (
            e
            for e in sorted(world.of_kind("work_chat_message"), key=lambda e: e.at, reverse=True)
            if e.at <= world.now and not e.data.get("read", True) and e.data.get("channel_kind") != "dm"
        ),
        None,
    )
    if paybacks and bill and rsvp and cal_id and ask and team:
        uid = _invite_uid(world, cal_id)
        people = [(x["contact"], x["amount_cents"], x["memo"]) for x in paybacks]
        pay_items = [
            RubricItem(
                id=f"paid-{n}",
                weight=30 // len(people) + (30 % len(people) if n == 0 else 0),
                requirement=f"{who} was sent {amt / 100:,.2f} from checking",
                check=larkspur.sent(who, amt),
            )
            for n, (who, amt, _) in enumerate(people)
        ]
        told = [
            RubricItem(
                id=f"told-{n}",
                weight=16 // len(people) + (16 % len(people) if n == 0 else 0),
                requirement=f"{who} got a text in Parley saying it was sent ({amt / 100:,.2f})",
                check=parley.sent_direct(who, [[f"{amt / 100:.2f}", f"{amt / 100:,.2f}".replace(".", ",")]]),
            )
            for n, (who, amt, _) in enumerate(people)
        ]
        payee = bill["payee"]
        out.append(
            Task(
                id=f"{p.id}/mail/sunday-sweep",
                persona=p.id,
                kind="action",
                category="long_horizon",
                apps_involved=[APP, "bank", "messaging", "calendar", "workchat"],
                difficulty="hard",
                time_limit_seconds=1800,
                planted=[x["id"] for x in paybacks] + [bill["id"], rsvp["id"]],
                instruction="Help me clear my backlog: pay back every friend who asked me for money (from checking) and "
                "text each of them the amount I sent; pay my latest " + payee + " bill through bill pay, the "
                "amount on the bill they emailed me; accept " + rsvp["organizer"].split()[0] + "'s invitation "
                "from my mail; answer " + ask.data["contact"].split()[0] + "'s latest question in Parley; "
                "and reply in #"
                + team.data["channel"]
                + " on Huddle to "
                + team.data["sender"].split()[0]
                + "'s unread message.",
                expected={
                    "paybacks": [{"contact": w, "amount_cents": a, "memo": m} for w, a, m in people],
                    "payee": payee,
                    "bill_cents": bill["bill_cents"],
                    "uid": uid,
                    "ask_contact": ask.data["contact"],
                    "channel": team.data["channel"],
                    "team_sender": team.data["sender"],
                },
                rubric=[
                    *pay_items,
                    *told,
                    RubricItem(
                        id="bill",
                        weight=14,
                        requirement=f"{payee} paid {bill['bill_cents'] / 100:,.2f} by bill "
                        "pay from checking (the mailed bill, not the autopay's amount)",
                        check=S.sql(
                            "bank",
                            """SELECT COUNT(*) FROM transactions WHERE world_ref IS NULL
                                                     AND amount_cents = ? AND (counterparty = ?
                                                     OR instr(upper(description), upper(?)) > 0)""",
                            [-bill["bill_cents"], payee, payee],
                            [[1]],
                        ),
                    ),
                    RubricItem(
                        id="accepted",
                        weight=10,
                        requirement=f"{rsvp['title']} accepted in Mailbox",
                        check=KIT.sql(
                            "SELECT COUNT(*) FROM rsvps WHERE uid = ? AND partstat = 'ACCEPTED'", [uid], [[1]]
                        ),
                    ),
                    RubricItem(
                        id="answered",
                        weight=8,
                        requirement=f"{ask.data['contact']} got a text from me",
                        check=parley.sent_direct(ask.data["contact"]),
                    ),
                    RubricItem(
                        id="huddle",
                        weight=8,
                        requirement=f"I posted in #{team.data['channel']}",
                        check=huddle.posted(team.data["channel"]),
                    ),
                    RubricItem(
                        id="replies-fit",
                        weight=4,
                        requirement=f'The Parley answer fits "{ask.data["text"]}" and '
                        f'the Huddle reply fits "{team.data["text"]}" '
                        "(judge: read them)",
                    ),
                    RubricItem(
                        id="only-bank",
                        weight=10,
                        requirement="Nothing else changed in the bank: only the payments asked for",
                        check=S.diff(
                            "bank",
                            Change(table="transactions", op="insert", min=len(people) + 1, max=len(people) + 1),
                            Change(table="accounts", op="update", min=1, columns=["balance_cents"]),
                            Change(table="money_requests", op="update", min=0),
                        ),
                    ),
                ],
            )
        )
    return out


def _pie_items(world: World):
    """(store, delivery day, items) for the Thanksgiving pie: the usual Basketful store, the last day it has delivery
    windows (within the seeded week), and two baking items it sells; None when any is missing."""
    from builder.world import grocery

    key = grocery.usual_store(world.seed, world.persona.locale)
    store = next(
        (dict(s, id=n + 1) for n, s in enumerate(grocery.stores(world.persona.locale)) if s["key"] == key), None
    )
    if store is None:
        return None
    want = ["Heavy whipping cream", "Ground cinnamon"]
    items = []
    for title in want:
        x = next((x for x in sorted(grocery.catalogue(), key=lambda x: x["id"]) if x["title"]["en_US"] == title), None)
        if x is None:
            return None
        items.append({"id": x["id"], "brand": x["brand"], "title": title, "size": x["size"]["us"]})
    sunday = world.now.date() + dt.timedelta(days=(6 - world.now.weekday()) % 7 or 7)
    if (sunday - world.now.date()).days > 6:
        return None
    return store, sunday, items


def review_request_task(world: World) -> list[Task]:
    """A colleague's review request by mail, planned across the board, the calendar, Huddle and a reply."""
    import re

    from builder.tasks import steps as S
    from builder.tasks.phrasing import day_phrase

    p = world.persona
    colleagues = {c.email: c for c in p.contacts if c.relationship == "colleague" and c.email}
    ask = next(
        (
            e
            for e in sorted(world.of_kind("email"), key=lambda e: e.at, reverse=True)
            if e.at <= world.now
            and e.data["from"].get("email") in colleagues
            and e.data["subject"].startswith("Review request: ")
            and "end of next week" in e.data["body"]
        ),
        None,
    )
    if not ask:
        return []
    who = colleagues[ask.data["from"]["email"]]
    thing = re.sub(r"\s*\(.*\)$", "", ask.data["subject"][len("Review request: ") :]).strip()
    sent = ask.at.date()
    due = sent + dt.timedelta(days=7 - sent.weekday() + 4)  # Friday of the week after the mail
    today = world.now.date()
    if due <= today:
        return []
    dm = "dm-" + re.sub(r"[^a-z0-9]+", "-", who.name.lower()).strip("-")
    first = who.name.split()[0]
    return [
        Task(
            id=f"{p.id}/{APP}/review-request-plan",
            persona=p.id,
            kind="action",
            category="long_horizon",
            apps_involved=[APP, "board", "calendar", "workchat"],
            difficulty="hard",
            time_limit_seconds=1200,
            instruction=f'{first} emailed me a review request. Plan it: create a ticket "Review the {thing}" on the board, '
            f"assigned to me, due by {first}'s deadline; block an hour for it in my work calendar before then "
            f'(title it "Review the {thing}"); reply to the email with the day I\'ll do it; and let {first} '
            "know in our Huddle DM that it's on my board.",
            expected={
                "from": who.name,
                "email": who.email,
                "thing": thing,
                "due": due.isoformat(),
                "dm": dm,
                "message_id": ask.data.get("message_id"),
                "today": today.isoformat(),
                "when": day_phrase(due, today),
            },
            rubric=[
                RubricItem(
                    id="ticket",
                    weight=25,
                    requirement=f"A new ticket about the {thing}, assigned to me, due {due}",
                    check=S.sql(
                        "board",
                        """SELECT COUNT(*) > 0 FROM tickets t JOIN people p ON p.id = t.assignee_id
                                                   WHERE t.world_ref IS NULL AND p.is_me = 1 AND t.due = ?
                                                   AND instr(lower(t.title), lower(?)) > 0""",
                        [due.isoformat(), thing],
                        [[1]],
                    ),
                ),
                RubricItem(
                    id="block",
                    weight=20,
                    requirement=f"A work-calendar event about the {thing} between today and {due}",
                    check=S.sql(
                        "calendar",
                        """SELECT COUNT(*) > 0 FROM events WHERE world_ref IS NULL
                                                      AND calendar_id = 'work' AND instr(lower(title), lower(?)) > 0
                                                      AND substr(start_local, 1, 10) BETWEEN ? AND ?""",
                        [thing, today.isoformat(), due.isoformat()],
                        [[1]],
                    ),
                ),
                RubricItem(
                    id="reply",
                    weight=20,
                    requirement=f"A mail to {who.name} ({who.email}) was sent",
                    check=mailbox.sent(who.email),
                ),
                RubricItem(
                    id="dm", weight=15, requirement=f"A message to {first} in the Huddle DM", check=huddle.posted(dm)
                ),
                RubricItem(
                    id="reply-says", weight=5, requirement="The reply names the day of the review (judge: read it)"
                ),
                RubricItem(
                    id="only-board",
                    weight=15,
                    requirement="Nothing else changed on the board: only the new ticket",
                    check=S.diff(
                        "board",
                        Change(table="tickets", op="insert", min=1, max=1),
                        Change(table="activity", op="insert", min=0),
                        Change(table="ticket_labels", op="insert", min=0),
                    ),
                ),
            ],
        )
    ]


def _invite_uid(world: World, event_id: str) -> str:
    """The UID of the invitation mail's iCalendar part for the calendar event ``event_id``, as the world's mail writes
    it (builder.world.mail.ics: the series or event id at the organizer's mail domain)."""
    from builder.world.mail import domain_of

    d = next(e for e in world.events if e.id == event_id).data
    return f"{d.get('series') or event_id}@{domain_of((d.get('organizer') or {}).get('email'))}"
