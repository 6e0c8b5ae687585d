"""Mailbox's answers summed or compared over several apps, among its own tasks: last month's food delivery receipts
and the latest payslip against the bank; after its clean-up, a meeting the mail moved but the calendar has not, the
invitations and documents still owed, and the unread round-up across mail, Parley and Huddle."""

from __future__ import annotations

import datetime as dt
import re
import unicodedata

from apps.calendar.reader import between
from apps.mail.reader import found_messages, mailbox, moved_by_mail, my_name
from apps.mail.tasks import KIT
from apps.messaging.reader import conversations, thread
from builder.money import money
from builder.tasks import answers as A
from builder.tasks.collect import FIRST, Scenario
from builder.tasks.model import Check, RubricItem, Task
from builder.tasks.phrasing import last_month
from builder.tasks.reader import Reading, See, Unreadable, parse_money, reader
from builder.tasks.dates import clock_text, day_in, first_day
from builder.world import World
from scenarios.views import bank_rows, huddle_recent, huddle_sidebar


def _date_forms(day: dt.date) -> list[str]:
    return [
        f"{day:%B} {day.day}",
        f"{day:%b} {day.day}",
        f"{day.month}/{day.day}",
        day.isoformat(),
        f"{day.day} {day:%B}",
    ]


def bank_tasks(world: World) -> list[Task]:
    """Last month's food delivery receipts (count and total, the card's charges agree) and the latest payslip's net
    pay against the checking deposit; none without their material."""
    cur = world.currency
    mails = [e for e in world.of_kind("email") if e.status == "done"]
    m_start, m_end = last_month(world.now)
    out: list[Task] = []
    task = KIT.adder(world, out)

    # 1. Food delivery receipts last month (mail receipts, the same charges in the bank).
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
            expected={"month": f"{m_start:%Y-%m}", "orders": len(food), "total_cents": total},
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
                    check=A.text(f"{len(food)} orders", f"{len(food)} food", f"{len(food)} deliver"),
                ),
            ],
        )

    # 2. The last payslip's net pay, and whether the bank deposit matches (mail + bank).
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
                    check=Check(type="answer_text", any_of=_date_forms(pc.at.date())),
                ),
                RubricItem(id="match", weight=20, requirement="Says the checking deposit matches the payslip"),
            ],
        )
    return out


def reasoning_tasks(world: World) -> list[Task]:
    """Mail's contradiction task (how far the organizer's mail moved a meeting the calendar still has at the old
    time), the invitations and documents still owed (mail and calendar) and the unread round-up across mail, Parley
    and Huddle (every ``unread`` item the world planted). Items the world lacks give no task."""
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
                    "calendar_day": cal.date().isoformat(),
                    "organizer": it["organizer"],
                    "right": it["mail_start"],
                    "end": end.isoformat(),
                    "stale": it["calendar_start"],
                    "truth": "mail",
                },
                planted=[it["id"]],
                rule="The organizer's newest mail about the meeting beats the calendar entry it has not updated yet.",
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
                instruction="Which invitations am I still supposed to answer by a date the host gave me, and which "
                "documents have people asked me to send? For each, tell me what it is and the deadline.",
                expected={"items": [{"what": w, "due": d} for w, d in items]},
                planted=[x["id"] for x in rsvp + docs],
                rubric=rubric,
            )
        )

    unread = A.planted_of(world, "unread")
    if unread:
        # People, not companies: whoever writes in Parley or Huddle (the workspace's colleagues too, not only the
        # spec's), the persona's contacts and colleagues, and a mail from a person's own address ("Philippe
        # Vallet" <philippe.vallet@...>: a client), as the world writes people's addresses.
        people = (
            {c.name for c in p.contacts}
            | set(p.work.colleagues if p.work and p.work.colleagues else [])
            | {e.data["sender"] for e in world.of_kind("work_chat_message")}
        )
        mails = {e.id: e for e in world.of_kind("email")}

        def by_person(x: dict) -> bool:
            if x["app"] in ("messaging", "workchat") or x["sender"] in people:
                return True
            e = next((mails[s["event_id"]] for s in x.get("shows_in", []) if s["event_id"] in mails), None)
            return e is not None and _is_person(x["sender"], e.data["from"].get("email") or "", set())

        who = list(dict.fromkeys(x["sender"] for x in unread if by_person(x)))
        people |= set(who)
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
                            check=A.names([A.person_among(n, people) for n in who]),
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


# --- independent readers (builder.tasks.reader): the mail in ~/Mail against the bank's ledger, Daybook, Parley and
# --- Huddle -------------------------------------------------------------------------------------------------------

#: What an order receipt and a pay statement say (English and German).
_RECEIPT_ORDER = re.compile(r"^(?:Order|Bestellung) (?P<order>[A-Z]{2}-\d+)\s*[-\u2013]\s*(?P<when>.+)$", re.M)
_RECEIPT_TOTAL = re.compile(r"^(?:Total|Gesamt):\s*(?P<amount>.+)$", re.M)
_NET = re.compile(r"^(?:Net pay|Netto):\s*(?P<amount>.+)$", re.M)
_PAY_DAY = re.compile(r"(?:pay date|Zahltag)\s+(?P<day>[^\n]+?\d{4})")


def _month(given: dict) -> tuple[dt.date, dt.date]:
    first = dt.date.fromisoformat(f"{given['month']}-01")
    return first, (first + dt.timedelta(days=32)).replace(day=1)


@reader("month")
def read_food_orders(see: See, given: dict) -> Reading:
    """DashBite's receipts in the mail for the month (their order lines' days), summed; the card's DashBite charges
    of the month in the bank checked against them."""
    first, nxt = _month(given)
    receipts = {}
    for m in found_messages(see, "DashBite", since=first - dt.timedelta(days=1), before=nxt + dt.timedelta(days=1)):
        order, total = _RECEIPT_ORDER.search(m["body"]), _RECEIPT_TOTAL.search(m["body"])
        if not order or not total:
            continue
        day = day_in(order.group("when"))
        if first <= day < nxt:
            receipts[order.group("order")] = (day, parse_money(total.group("amount")))
    if not receipts:
        raise Unreadable(f"no DashBite receipt for {given['month']} in the mail")
    total = sum(c for _, c in receipts.values())
    charges = [r for r in bank_rows(see, q="DashBite", since=first, until=nxt - dt.timedelta(days=1)) if r["cents"] < 0]
    charged = -sum(r["cents"] for r in charges)
    return Reading(
        values={"total": total, "count": f"{len(receipts)} orders"},
        steps=[
            f"~/Mail: {len(receipts)} DashBite receipts dated {given['month']}, {total / 100:.2f} in all",
            f"bank: {len(charges)} DashBite charges that month, {charged / 100:.2f}"
            + (" (the same)" if charged == total and len(charges) == len(receipts) else " (differs)"),
        ],
    )


@reader(unique=True)
def read_payslip(see: See, given: dict) -> Reading:
    """The newest pay statement in the mail (its net pay and pay date) and the checking deposit that day;
    ``margin``: the days between its pay date and the one before."""
    slips = [m for m in found_messages(see) if _NET.search(m["body"]) and _PAY_DAY.search(m["body"])]
    if not slips:
        raise Unreadable("no pay statement in the mail")
    m = slips[-1]
    net = parse_money(_NET.search(m["body"]).group("amount"))
    day = day_in(_PAY_DAY.search(m["body"]).group("day"))
    deposits = [r for r in bank_rows(see, since=day, until=day) if r["cents"] == net]
    before = [day_in(_PAY_DAY.search(x["body"]).group("day")) for x in slips[:-1]]
    return Reading(
        margin=(day - max(before)).days if before else 30,
        values={"net": net, "date": day.isoformat()},
        steps=[
            f"{m['from_name']}, {m['at']:%Y-%m-%d}: \u201c{m['subject']}\u201d: net {net / 100:.2f}, pay date {day}",
            "bank: "
            + (
                f"{deposits[0]['description']} {deposits[0]['cents'] / 100:+.2f} on {day}"
                if deposits
                else f"no deposit of that amount on {day}"
            ),
        ],
    )


@reader("title", "calendar_day", "organizer")
def read_meeting_email(see: See, given: dict) -> Reading:
    """The organizer's mail moving the meeting (the new start; the end keeps the meeting's length) against the
    calendar's slot."""
    title, day = given["title"], dt.date.fromisoformat(given["calendar_day"])
    on_cal = [o for o in between(see, day, day) if o["title"] == title and o["start"].date() == day]
    if not on_cal:
        raise Unreadable(f"no {title!r} on the calendar on {day}")
    cal = on_cal[0]
    mail, new = moved_by_mail(see, title, day)
    if mail["from_name"].split()[0] != given["organizer"].split()[0]:
        raise Unreadable(f"the mail moving {title!r} is from {mail['from_name']}, not {given['organizer']}")
    end = new + (cal["end"] - cal["start"])
    start, stale = clock_text(new), clock_text(cal["start"])
    return Reading(
        values={"start": start, "calendar": stale, "order": [start, stale], "end": clock_text(end)},
        steps=[
            f"{mail['from_name']}, {mail['at']:%Y-%m-%d %H:%M}: \u201c{mail['subject']}\u201d moves it to {new:%a %H:%M}",
            f"calendar still: {cal['start']:%a %Y-%m-%d %H:%M}-{cal['end']:%H:%M} ({cal['end'] - cal['start']} long, "
            f"so it now ends {end:%H:%M})",
        ],
    )


#: A reply asked for by a date ("let me know by", "RSVP by", "bis ... Bescheid") and a signed document asked for.
_REPLY_BY = re.compile(r"(?:let me know by|RSVP by|(?:Gib|Sagst) (?:du )?mir (?:bitte )?bis)\s+(?P<tail>.+)", re.I)
_SIGN = re.compile(r"\bsign|unterschr", re.I)
_FORM = re.compile(
    r"(?:your signed|(?<!signed )your) (?P<en>[^.]+?)(?:\.| hasn't come back)"
    r"|(?:dein|Ihr) (?:unterschriebenes )?(?P<de>.+?)(?:\.| (?:ist )?noch nicht)",
)
_BY = re.compile(r"\b(?:by|bis)\s+(?P<tail>.+)")


@reader()
def read_open_obligations(see: See, given: dict) -> Reading:
    """Daybook's invitations still waiting for an answer whose invitation mail asks for it by a date, then the
    mails asking for a signed document not answered since; each with its deadline."""
    items, steps = [], []
    since = see.now.date() - dt.timedelta(days=60)
    page = see.page("calendar", "/invitations")
    pending = list(dict.fromkeys(li.get("data-title") for li in page.xpath('//li[@data-testid="invitation"]')))
    steps.append(f"Daybook invitations waiting: {', '.join(pending)}")
    for title in pending:
        asks = []
        for m in found_messages(see, title, since=since, folders=("inbox", "archive")):
            body = re.sub(r"\s+", " ", m["body"])
            by = _REPLY_BY.search(body)
            due = first_day(by.group("tail"), see.now.date()) if by else None
            if due:
                asks.append((m, due))
        if asks:
            m, due = asks[-1]
            items.append((title, due))
            steps.append(f"{title}: {m['from_name']} asks for an answer by {due}")
    sent = found_messages(see, folders=("sent",), since=since)
    for m in found_messages(see, since=since, folders=("inbox", "archive")):
        body = re.sub(r"\s+", " ", m["body"])
        if not _SIGN.search(body):
            continue
        form, by = _FORM.search(body), _BY.search(body[_SIGN.search(body).start() :])
        due = first_day(by.group("tail"), see.now.date()) if by else None
        if not form or not due or due < see.now.date():
            continue
        what = (form.group("en") or form.group("de")).strip()
        subject = re.sub(r"^(re|aw):\s*", "", m["subject"], flags=re.I)
        if any(subject in s["subject"] and s["at"] > m["at"] for s in sent):
            steps.append(f"{what}: already answered")
            continue
        items.append((what, due))
        steps.append(f"{what}: {m['from_name']} asks for it by {due}")
    if not items:
        raise Unreadable("nothing waiting for an answer or a document")
    values = {}
    for i, (what, due) in enumerate(items):
        values[f"what-{i}"], values[f"due-{i}"] = what, due.isoformat()
    return Reading(values=values, steps=steps)


def _is_person(name: str, address: str, people: set[str]) -> bool:
    """A person, not a company: someone the persona chats with, or an address made of the sender's own name."""
    if name in people:
        return True
    fold = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode().lower()
    words = re.findall(r"[a-z]+", fold)
    return len(words) >= 2 and address.split("@")[0].lower() == ".".join(words)


@reader("apps")
def read_unread_people(see: See, given: dict) -> Reading:
    """Unread messages of the last three days in the apps the question names: the mail's unread files, Parley's
    unread badges (its newest messages from others), Huddle's direct-message badges and bold channels (the others'
    messages of those days there since my own last message in it)."""
    since = see.now - dt.timedelta(days=3)
    found: list[tuple[dt.datetime, str, str, str]] = []  # (at, sender, address, app)
    people: set[str] = set()
    steps = []
    if "mail" in given["apps"]:
        mails = [
            m
            for m in mailbox(see)
            if not m["seen"] and m["folder"] in ("inbox", "archive") and m["at"] and since <= m["at"] <= see.now
        ]
        found += [(m["at"], m["from_name"] or m["from_email"], m["from_email"], "mail") for m in mails]
        steps.append(f"~/Mail: {len(mails)} unread since {since:%Y-%m-%d %H:%M}")
    if "messaging" in given["apps"]:
        n = 0
        for c in conversations(see):
            msgs = thread(see, c["id"])
            people |= {m["sender"] for m in msgs if not m["mine"] and m["sender"]}
            if c["unread"]:
                new = [m for m in msgs if not m["mine"]][-c["unread"] :]
                new = [m for m in new if m["at"] >= since]
                found += [(m["at"], m["sender"], "", "messaging") for m in new]
                n += len(new)
        steps.append(f"Parley: {n} unread since then")
    if "workchat" in given["apps"]:
        n = 0
        for c in huddle_sidebar(see):
            if c["dm"]:
                people.add(c["label"])
            if not c["unread"] and not c["badge"]:
                continue
            recent = huddle_recent(see, c["name"], since)
            # what came after my own last message there (threads included): what I replied after, I have read
            mine = [m["at"] for m in recent if m["sender"] == my_name(see)]
            recent = [m for m in recent if m["sender"] != my_name(see) and (not mine or m["at"] > max(mine))]
            if c["dm"] and c["badge"]:
                recent = recent[-c["badge"] :]
            found += [(m["at"], m["sender"], "", "workchat") for m in recent]
            people |= {m["sender"] for m in recent}
            n += len(recent)
        steps.append(f"Huddle: {n} unread since then")
    found.sort()
    who = list(dict.fromkeys(s for _, s, a, _ in found if _is_person(s, a, people)))
    steps.append("people: " + ", ".join(who))
    return Reading(values={"people": who, "count": len(found)}, steps=steps)


SCENARIOS = [
    Scenario(
        home="mail",
        apps=("mail", "bank"),
        tasks=bank_tasks,
        readers={"food-orders-month": read_food_orders, "payslip-vs-deposit": read_payslip},
        after=("newsletter-count", FIRST),
    ),
    Scenario(
        home="mail",
        apps=("mail",),
        tasks=reasoning_tasks,
        readers={
            "cx-meeting-email": read_meeting_email,
            "open-obligations": read_open_obligations,
            "unread-people": read_unread_people,
        },
        after=("archive-newsletters", "reply-latest", "newsletter-count", FIRST),
    ),
]
