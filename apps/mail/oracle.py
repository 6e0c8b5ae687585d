"""Reference solutions of Mailbox's action tasks, through its HTTP routes (see builder.tasks.oracle).

The compose page posts to ``/api/compose`` (``mode`` reply / forward with ``reply_to``, the parent's
row id), the toolbar to ``/api/messages`` (``op`` on repeated ``id``), the invitation card's buttons
to ``/api/rsvp``. Each answers 303 with ``notice=`` when done, ``error=`` when refused.
"""

from __future__ import annotations

import datetime as dt
import urllib.parse

from apps.bank import steps as larkspur
from apps.calendar import steps as daybook
from apps.mail import steps as mailbox
from apps.messaging import steps as parley
from apps.rides import steps as zipride
from apps.shop import steps as shopwell
from apps.workchat import steps as huddle
from builder.tasks.model import Task
from builder.tasks.oracle import OracleError, Web

APP = "mail"


def _done(location: str, what: str) -> None:
    query = urllib.parse.parse_qs(urllib.parse.urlsplit(location).query)
    if "error" in query or "notice" not in query:
        raise OracleError(f"Mailbox did not {what}: {location!r}")


def _message(web: Web, message_id: str) -> tuple[int, str]:
    """(row id, subject) of the mail with header Message-ID ``message_id``: the one a person opened."""
    rows = web.query(APP, "SELECT id, subject FROM messages WHERE message_id = ?", (message_id,))
    if len(rows) != 1:
        raise OracleError(f"no single mail {message_id!r}: {rows!r}")
    return rows[0]


def _compose(web: Web, fields: list[tuple[str, str]], what: str) -> None:
    _, location = web.post_form(APP, "/api/compose", [("action", "send"), ("cc", ""), *fields], expect=(303,))
    _done(location, what)


def reply_latest(task: Task, web: Web) -> str:
    exp = task.expected
    parent, subject = _message(web, exp["in_reply_to"])
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
    parent, subject = _message(web, exp["in_reply_to"])
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
    _done(location, "archive the newsletters")
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
    _done(location, "send the answer")
    return f"Accepted the invitation; the answer went to {exp['organizer']}."


SOLVERS = {
    "reply-latest": reply_latest,
    "forward-statement": forward_statement,
    "archive-newsletters": archive_newsletters,
    "accept-invitation": accept_invitation,
}


# --- long-horizon chains (builder.tasks.steps performs the steps in the other apps) -------------------------


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
    _done(location, "send the answer")


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
    parent, subject = _message(web, exp["letter"])
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
            ("amount", f"{exp['bill_cents'] / 100:.2f}"),
            ("memo", ""),
        ],
    )
    _accept(web, exp["uid"])
    parley.send(web, exp["ask_contact"], "Not much planned this weekend, a climb and some errands. Want to meet up?")
    huddle.post(web, exp["channel"], "Sounds good, let's make time for the error states demo.")
    return "Paid back everyone, paid the bill, accepted the invitation and answered both messages."


SOLVERS.update(
    {"housewarming-plan": housewarming_plan, "thanksgiving-plan": thanksgiving_plan, "sunday-sweep": sunday_sweep}
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
    parent, subject = _message(web, exp["message_id"])
    mailbox.send(
        web,
        f"{exp['from']} <{exp['email']}>",
        f"Re: {subject}",
        f"Happy to! I've blocked {day} to review the {exp['thing']}; you'll have my notes by {exp['due']}.",
        reply_to=parent,
    )
    huddle.post(web, exp["dm"], f"The {exp['thing']} review is on my board, due {exp['due']}.")
    return "Created the ticket, blocked the time, replied and told them in Huddle."


SOLVERS.update({"review-request-plan": review_request_plan})
