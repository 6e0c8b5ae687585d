"""The mailbox's errands across apps: the bank's statement forwarded, a meeting invitation accepted (both among the
mailbox's own tasks), and plans that start in the mail (a housewarming, Thanksgiving, the Sunday sweep, a review
request) and run through chat, the calendar, rides, the shop, the bank and work chat; with their reference
solutions."""

from __future__ import annotations

import datetime as dt

from apps.bank import steps as larkspur
from apps.calendar import steps as daybook
from apps.mail import steps as mailbox
from apps.mail.steps import confirmed, message_of
from apps.grocery.tasks import order_rows
from apps.mail.tasks import APP, KIT, SENT_REPLY
from apps.messaging import steps as parley
from apps.rides import steps as zipride
from apps.shop import steps as shopwell
from apps.workchat import steps as huddle
from builder.tasks import answers, effects
from builder.tasks.collect import FIRST, Scenario
from builder.tasks.model import Change, Check, RubricItem, Task
from builder.tasks.oracle import OracleError, Web
from builder.world import World
from scenarios import ERRANDS


def _local(world: World, naive: dt.datetime) -> str:
    """A naive local time of the persona as ISO 8601 with its offset (how ZipRide keeps pickup times)."""
    from zoneinfo import ZoneInfo

    return naive.replace(tzinfo=ZoneInfo(world.persona.timezone)).isoformat()


def _mail_only(weight: int = 10) -> RubricItem:
    """Mailbox changed only by mails sent and received (confirmations of the other apps), reads and answers: the
    place and weight of the mailbox's item, which :func:`builder.tasks.effects.acting` then replaces with the exact
    one (the errand's own mail and answers, and the confirmations its other steps mail)."""
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


#: What answering an invitation from the mail writes in Mailbox: the answer, its reply mail with the reply
#: invitation attached (an answer changed once more: its second reply), and the organizer's reply engine's answer.
ANSWER = (
    Change(table="rsvps", op="insert", min=1, max=1),
    Change(table="rsvps", op="update", min=0, max=1),
    Change(table="messages", op="insert", min=1, max=3),
    Change(table="attachments", op="insert", min=1, max=2),
)


def statement_tasks(world: World) -> list[Task]:
    """Forward the latest Larkspur Bank statement mail to a close contact (the statement is the bank's); none without
    such a mail or a contact with an address."""
    p = world.persona
    mails = [e for e in world.of_kind("email") if e.status == "done"]
    out: list[Task] = []
    task = KIT.adder(world, out)
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
                    check=KIT.sql(SENT_REPLY, [st.data["message_id"], helper.email], [[1]]),
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
    return out


def invitation_tasks(world: World) -> list[Task]:
    """Accept the latest meeting invitation in the Inbox, so the answer reaches the organizer and the calendar; none
    without one."""
    p = world.persona
    mails = [e for e in world.of_kind("email") if e.status == "done"]
    own = {p.identity.email.lower(), (p.work.email or "").lower() if p.work else ""}
    out: list[Task] = []
    task = KIT.adder(world, out)
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
                    check=KIT.sql(SENT_REPLY, [inv.data["message_id"], org["email"]], [[1]]),
                ),
                KIT.only(
                    "the one answer recorded and its reply mail with the reply invitation attached",
                    Change(table="rsvps", op="insert", min=1, max=1),
                    Change(table="messages", op="insert", min=1, max=1),
                    Change(table="attachments", op="insert", min=1, max=1),
                ),
            ],
        )
    return out


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
        task = Task(
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
                    check=KIT.sql("SELECT COUNT(*) FROM rsvps WHERE uid = ? AND partstat = 'ACCEPTED'", [uid], [[1]]),
                ),
                RubricItem(
                    id="calendar",
                    weight=10,
                    requirement="Daybook shows me as attending",
                    check=S.sql(
                        "calendar",
                        "SELECT COUNT(*) FROM attendees WHERE event_id = ? AND is_self = 1 AND partstat = 'ACCEPTED'",
                        [cal_id],
                        [[1]],
                    ),
                ),
                RubricItem(
                    id="gift",
                    weight=15,
                    requirement=f"A Shopwell order of {present['title']} ({present['sku']}) paid with {card['label']}",
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
        out.append(
            effects.acting(
                task,
                ("mail", "my answer to the invitation and its reply mail", ANSWER),
                ("shop", "the present ordered", shopwell.order_rows(1)),
                ("rides", "the ride there", zipride.new_rides(1)),
                ("messaging", f"the text to {host.name} (and the reply it draws)", parley.texts(1, 4)),
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
        task = Task(
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
                    requirement=f"A ZipRide Home -> {home_of} picks me up between {lo:%H:%M} and {hi:%H:%M} on {day}",
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
        out.append(
            effects.acting(
                task,
                ("mail", f"the reply to {mom} (and the answer it draws)", mailbox.new_mail(1)),
                ("calendar", "the day added", daybook.new_events(1)),
                ("rides", "the rides there and back", zipride.new_rides(2)),
                ("grocery", "the delivery for the pie", order_rows(len(items))),
                ("messaging", f"the text to {sibling.name} (and the reply it draws)", parley.texts(1, 4)),
            )
        )

    # 3. The Sunday sweep: pay back every friend who asked (each paid a table the persona's card did not) and tell
    #    them, the part of the mailed bill the autopay will not take (paying the whole bill pays it twice),
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
        task = Task(
            id=f"{p.id}/mail/sunday-sweep",
            persona=p.id,
            kind="action",
            category="long_horizon",
            apps_involved=[APP, "bank", "messaging", "calendar", "workchat"],
            difficulty="hard",
            time_limit_seconds=1800,
            planted=[x["id"] for x in paybacks] + [bill["id"], rsvp["id"]],
            instruction="Help me clear my backlog: pay back every friend who asked me for money (from checking) and "
            "text each of them the amount I sent; my latest " + payee + " bill they emailed me is more than "
            "my autopay for it takes, so pay just the difference through bill pay (the autopay still runs); "
            "accept " + rsvp["organizer"].split()[0] + "'s invitation "
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
                "autopay_cents": bill["autopay_cents"],
                "top_up_cents": bill["bill_cents"] - bill["autopay_cents"],
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
                    requirement=f"{payee} paid {(bill['bill_cents'] - bill['autopay_cents']) / 100:,.2f} by "
                    f"bill pay from checking: the mailed bill ({bill['bill_cents'] / 100:,.2f}) less what the "
                    f"autopay takes ({bill['autopay_cents'] / 100:,.2f}), so the bill is not paid twice",
                    check=S.sql(
                        "bank",
                        """SELECT COUNT(*) FROM transactions WHERE world_ref IS NULL
                                                     AND amount_cents = ? AND (counterparty = ?
                                                     OR instr(upper(description), upper(?)) > 0)""",
                        [-(bill["bill_cents"] - bill["autopay_cents"]), payee, payee],
                        [[1]],
                    ),
                ),
                RubricItem(
                    id="accepted",
                    weight=10,
                    requirement=f"{rsvp['title']} accepted in Mailbox",
                    check=KIT.sql("SELECT COUNT(*) FROM rsvps WHERE uid = ? AND partstat = 'ACCEPTED'", [uid], [[1]]),
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
        texts = len(people) + 1  # the friends paid back, and the answer
        out.append(
            effects.acting(
                task,
                ("mail", "my answer to the invitation and its reply mail", ANSWER),
                (
                    "messaging",
                    "the texts to the friends paid back and the answer (and the replies)",
                    parley.texts(texts, 2 * texts),
                ),
                ("workchat", f"the reply in #{team.data['channel']}", huddle.new_posts(1, 2)),
            )
        )
    return out


def _pie_items(world: World):
    """(store, delivery day, items) for the Thanksgiving pie: the usual Basketful store, the last day it has delivery
    windows (within the seeded week), and two baking items it sells; None when any is missing."""
    from builder.reference.grocery import catalogue as grocery

    key = grocery.usual_store(world.seed, world.persona.bank)
    store = next((dict(s, id=n + 1) for n, s in enumerate(grocery.stores(world.persona.bank)) if s["key"] == key), None)
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
    task = Task(
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
            RubricItem(id="reply-says", weight=5, requirement="The reply names the day of the review (judge: read it)"),
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
    return [
        effects.acting(
            task,
            ("calendar", "the hour blocked", daybook.new_events(1)),
            ("mail", f"the reply to {who.name} (and the answer it draws)", mailbox.new_mail(1)),
            ("workchat", f"the message to {first}", huddle.new_posts(1, 2)),
        )
    ]


def _invite_uid(world: World, event_id: str) -> str:
    """The UID of the invitation mail's iCalendar part for the calendar event ``event_id``, as the world's mail writes
    it (builder.world.mail.ics: the series or event id at the organizer's mail domain)."""
    from builder.world.mail import domain_of

    d = next(e for e in world.events if e.id == event_id).data
    return f"{d.get('series') or event_id}@{domain_of((d.get('organizer') or {}).get('email'))}"


def _accept(web: Web, uid: str) -> None:
    message = web.one(
        APP,
        "SELECT m.id FROM messages m JOIN attachments a ON a.message_id = m.id "
        "WHERE m.folder = 'inbox' AND a.content_type LIKE 'text/calendar%' "
        "AND instr(CAST(a.content AS TEXT), ?) > 0 ORDER BY m.id DESC LIMIT 1",
        (f"UID:{uid}",),
    )
    _, location = web.post_form(
        APP, "/api/rsvp", [("message", str(message)), ("answer", "yes"), ("back", "/")], expect=(303,)
    )
    confirmed(location, "send the answer")


def forward_statement(task: Task, web: Web) -> str:
    """The statement mail forwarded from the Mailbox with the original subject."""
    exp = task.expected
    parent, subject = message_of(web, exp["in_reply_to"])
    mailbox.forward(web, parent, exp["to"], f"Fwd: {subject}", "Here is my latest Larkspur Bank statement.")
    return f'Forwarded "{exp["subject"]}" to {exp["to"]}.'


def accept_invitation(task: Task, web: Web) -> str:
    """Yes on the invitation card; the answer goes to the organizer."""
    exp = task.expected
    _accept(web, exp["uid"])
    return f"Accepted the invitation; the answer went to {exp['organizer']}."


def housewarming_plan(task: Task, web: Web) -> str:
    exp = task.expected
    _accept(web, exp["uid"])
    shopwell.order(web, exp["sku"], 1, exp["card_last4"])
    lo, hi = (dt.datetime.fromisoformat(x) for x in exp["pickup_window"])
    zipride.schedule(web, "Home", exp["address"], (lo + (hi - lo) / 2).strftime("%Y-%m-%dT%H:%M"))
    parley.send(web, exp["host"], "I'm coming to your housewarming! Can't wait to see the place.")
    return "Accepted, ordered the present, booked the ride and told the host."


def thanksgiving_plan(task: Task, web: Web) -> str:
    exp = task.expected
    parent, subject = message_of(web, exp["letter"])
    mailbox.send(
        web,
        f"{exp['parent']} <{exp['parent_email']}>",
        f"Re: {subject}",
        "Yes, I'll be there for Thanksgiving, at 3 pm. I'm bringing a pie!",
        reply_to=parent,
    )
    day = exp["day"]
    daybook.create(
        web,
        title=f"Thanksgiving at {exp['parent'].split()[0]}'s",
        date=day,
        start_time="15:00",
        end_date=day,
        end_time="21:00",
        location=exp["address"],
    )
    lo, hi = (dt.datetime.fromisoformat(x) for x in exp["pickup_window"])
    zipride.schedule(web, "Home", exp["address"], (lo + (hi - lo) / 2).strftime("%Y-%m-%dT%H:%M"))
    zipride.schedule(web, exp["address"], "Home", exp["back_at"])
    key = exp["store_key"]
    for pid in exp["products"]:
        _, location = web.post_form(
            "grocery", "/api/cart", [("action", "add"), ("store", key), ("product", pid), ("qty", "1")], expect=(303,)
        )
        if "error=" in location:
            raise OracleError(f"Basketful did not add {pid}: {location!r}")
    window = web.one(
        "grocery",
        "SELECT id FROM windows WHERE store_id = ? AND kind = 'delivery' "
        "AND substr(starts_at, 1, 10) = ? AND (SELECT COUNT(*) FROM window_seats s "
        "WHERE s.window_id = windows.id) < capacity ORDER BY starts_at LIMIT 1",
        (exp["store_id"], exp["delivery_day"]),
    )
    card = web.one("grocery", "SELECT id FROM cards ORDER BY is_default DESC, id LIMIT 1")
    _, location = web.post_form(
        "grocery",
        "/api/checkout",
        [
            ("store", key),
            ("fulfilment", "delivery"),
            ("window", str(window)),
            ("tip", "300"),
            ("card", str(card)),
            ("instructions", ""),
        ],
        expect=(303,),
    )
    if "error=" in location:
        raise OracleError(f"Basketful did not check out: {location!r}")
    parley.send(
        web,
        exp["sibling"],
        "I'm going to Mom's for Thanksgiving at 3. Want to share the ZipRide? I'll be picked up around 2:30.",
    )
    return "Replied, added it to the calendar, booked both rides, ordered the pie things and asked about the ride."


def sunday_sweep(task: Task, web: Web) -> str:
    exp = task.expected
    for x in exp["paybacks"]:
        larkspur.send(web, x["contact"], x["amount_cents"], x["memo"])
        parley.send(web, x["contact"], f"Just sent you {x['amount_cents'] / 100:.2f} for {x['memo']}. Thanks!")
    payee = web.one("bank", "SELECT id FROM payees WHERE name = ?", (exp["payee"],))
    larkspur.post(
        web,
        "/api/bills",
        [
            ("payee", str(payee)),
            ("from", larkspur.account(web, "checking")),
            ("amount", f"{exp['top_up_cents'] / 100:.2f}"),
            ("memo", ""),
        ],
    )
    _accept(web, exp["uid"])
    parley.send(web, exp["ask_contact"], "Not much planned this weekend, a climb and some errands. Want to meet up?")
    huddle.post(web, exp["channel"], "Sounds good, let's make time for the error states demo.")
    return (
        "Paid back everyone, paid the part of the bill the autopay does not cover, accepted the invitation and "
        "answered both messages."
    )


def review_request_plan(task: Task, web: Web) -> str:
    exp = task.expected
    me = web.one("board", "SELECT id FROM people WHERE is_me = 1")
    project = web.one("board", "SELECT id FROM projects ORDER BY id LIMIT 1")
    _, location = web.post_form(
        "board",
        "/api/tickets",
        [
            ("title", f"Review the {exp['thing']}"),
            ("project", str(project)),
            ("assignee", str(me)),
            ("due", exp["due"]),
        ],
        expect=(303,),
    )
    if "ok=" not in location:
        raise OracleError(f"the board did not create the ticket: {location!r}")
    day = (dt.date.fromisoformat(exp["due"]) - dt.timedelta(days=1)).isoformat()
    daybook.create(
        web,
        title=f"Review the {exp['thing']}",
        date=day,
        start_time="10:00",
        end_date=day,
        end_time="11:00",
        calendar="work",
    )
    parent, subject = message_of(web, exp["message_id"])
    mailbox.send(
        web,
        f"{exp['from']} <{exp['email']}>",
        f"Re: {subject}",
        f"Happy to! I've blocked {day} to review the {exp['thing']}; you'll have my notes by {exp['due']}.",
        reply_to=parent,
    )
    huddle.post(web, exp["dm"], f"The {exp['thing']} review is on my board, due {exp['due']}.")
    return "Created the ticket, blocked the time, replied and told them in Huddle."


def errands(world: World) -> list[Task]:
    """The mailbox's long-horizon errands, then the review request's plan."""
    return long_tasks(world) + review_request_task(world)


SCENARIOS = [
    Scenario(
        home="mail",
        apps=("mail", "bank"),
        tasks=statement_tasks,
        solvers={"forward-statement": forward_statement},
        after=("reply-latest", "newsletter-count", FIRST),
    ),
    Scenario(
        home="mail",
        apps=("mail", "calendar"),
        tasks=invitation_tasks,
        solvers={"accept-invitation": accept_invitation},
        after=("archive-newsletters", "reply-latest", "newsletter-count", FIRST),
    ),
    Scenario(
        home="mail",
        apps=("mail", "calendar"),
        tasks=errands,
        solvers={
            "housewarming-plan": housewarming_plan,
            "thanksgiving-plan": thanksgiving_plan,
            "sunday-sweep": sunday_sweep,
            "review-request-plan": review_request_plan,
        },
        rank=ERRANDS,
    ),
]
