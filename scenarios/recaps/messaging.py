"""Parley's answers summed or compared over several apps: the party food against the guests' answers (a
contradiction, placed after Parley's own one), and catching up on a person across Parley, the bank and mail (ids
``<persona>/messaging/x-...``)."""

from __future__ import annotations

import datetime as dt
import re

from apps.mail.reader import found_messages
from apps.messaging.reader import conversations, direct, mentions, thread
from apps.messaging.tasks import APP, KIT
from builder.money import money
from builder.reference.banking import rail
from builder.tasks.collect import Scenario
from builder.tasks.model import RubricItem, Task
from builder.tasks.reader import Reading, See, Unreadable, reader
from builder.tasks.dates import clocks, days_in
from builder.world import World
from scenarios import RECAPS
from scenarios.errands.messaging import OWN_BEFORE
from scenarios.views import p2p_with


def contradiction_tasks(world: World) -> list[Task]:
    """The food ordered for the persona's party against the guests who said they come (chat, the caterer's mail, the
    calendar): how many it serves, how many it must, the order and until when it can change; none without the
    planted party."""
    from builder.tasks import answers as A
    from builder.tasks.phrasing import day_phrase

    today = world.now.date()
    out: list[Task] = []

    task = KIT.adder(world, out)

    it = A.planted(world, "chain/party-headcount")
    own = A.planted(world, "own_event/party")
    if it and own:
        start = dt.datetime.fromisoformat(own["start"])
        change_by = dt.date.fromisoformat(it["change_by"])
        task(
            "cx-party-headcount",
            ["messaging", "mail", "calendar"],
            kind="lookup",
            category="contradiction",
            difficulty="hard",
            time_limit_seconds=600,
            instruction=f"For “{own['title']}” {day_phrase(start.date(), today)}, which I'm hosting: how many people is the food I "
            "ordered for, and how many does it need to be for now, going by what my guests have told me? "
            "What's the order number, and until when can I still change it?",
            expected={
                "title": own["title"],
                "day": start.date().isoformat(),
                "order": it["order"],
                "ordered_for": it["ordered_for"],
                "needed": it["needed"],
                "change_by": it["change_by"],
            },
            planted=[it["id"], own["id"]],
            rule="The order serves the headcount it was placed for; a guest's later message (a plus-one) changes "
            "what it must serve.",
            rubric=[
                RubricItem(
                    id="ordered",
                    weight=25,
                    requirement=f"Says the order serves {it['ordered_for']}",
                    check=A.number(it["ordered_for"]),
                ),
                RubricItem(
                    id="needed",
                    weight=35,
                    requirement=f"Says it needs to serve {it['needed']}",
                    check=A.number(it["needed"]),
                ),
                RubricItem(
                    id="order",
                    weight=20,
                    requirement=f"Gives the order number {it['order']}",
                    check=A.text(it["order"]),
                ),
                RubricItem(
                    id="change-by",
                    weight=20,
                    requirement=f"Says changes are possible until {change_by:%B %-d}",
                    check=A.text(*A.date_forms(change_by)),
                ),
            ],
        )
    return out


def crossapp_tasks(world: World) -> list[Task]:
    """For up to five contacts who text, email and exchange money with the persona: the day of their last text in
    Parley, of their last email, and the last payment between us (day, amount) by the country's person-to-person
    scheme (:func:`builder.reference.banking.rail`: Zelle in the US). Contacts lacking one of the three give no
    task."""
    from builder.tasks import answers as A

    p = world.persona
    pid, cur, now = p.id, world.currency, world.now
    out: list[Task] = []
    texts: dict[str, object] = {}
    for e in world.of_kind("chat_message"):
        if e.status == "done" and e.at <= now and e.data["sender"] == e.data["contact"]:
            texts[e.data["contact"]] = e
    mails: dict[str, object] = {}
    for e in world.of_kind("email"):
        if e.status == "done" and e.at <= now and e.data.get("folder") != "sent":
            mails[e.data["from"]["name"]] = e
    pays: dict[str, object] = {}
    for e in world.of_kind("p2p_payment"):
        if e.status == "done" and e.at <= now:
            pays[e.data["contact"]] = e
    openings = [
        "Catch me up on {first}",
        "When did I last hear from {first}?",
        "{first} check-in",
        "Remind me where things stand with {first}",
        "Quick one about {first}",
    ]
    people = [c.name for c in p.contacts if c.name in texts and c.name in mails and c.name in pays][:5]
    payment = rail(p.identity.address.country)["payment"]
    for i, name in enumerate(people):
        first = name.split()[0]
        t, m, z = texts[name], mails[name], pays[name]
        way = "I sent" if z.data["direction"] == "sent" else "I received"
        out.append(
            Task(
                id=f"{pid}/messaging/x-catch-up-{i + 1}",
                persona=pid,
                apps_involved=["bank", "mail", APP],
                kind="lookup",
                difficulty="medium",
                time_limit_seconds=900,
                instruction=openings[i % len(openings)].format(first=first)
                + f": on what day did {name} last text me in our one-to-one chat on Parley, on what day did their "
                f"last email come in, and what was the last {payment} between us (day, amount, and which way)?",
                expected={
                    "contact": name,
                    "text_day": t.at.date().isoformat(),
                    "mail_day": m.at.date().isoformat(),
                    "payment_day": z.at.date().isoformat(),
                    "payment_cents": z.data["amount_cents"],
                    "direction": z.data["direction"],
                },
                rubric=[
                    RubricItem(
                        id="text",
                        weight=25,
                        requirement=f"Last text {t.at:%B %-d, %Y}",
                        check=A.text(*A.date_forms(t.at)),
                    ),
                    RubricItem(
                        id="mail",
                        weight=25,
                        requirement=f"Last email {m.at:%B %-d, %Y}",
                        check=A.text(*A.date_forms(m.at)),
                    ),
                    RubricItem(
                        id="payment-day",
                        weight=20,
                        requirement=f"Last {payment} {z.at:%B %-d, %Y}",
                        check=A.text(*A.date_forms(z.at)),
                    ),
                    RubricItem(
                        id="payment-amount",
                        weight=20,
                        requirement=f"…of {money(z.data['amount_cents'], cur)}",
                        check=A.amount(z.data["amount_cents"]),
                    ),
                    RubricItem(id="payment-way", weight=10, requirement=f"…which {way}"),
                ],
            )
        )
    return out


# --- independent readers (builder.tasks.reader): Parley's chats, the caterer's mail, the bank's ledger -------------

#: A guest's answer to an invitation (en and de): yes, no or maybe.
_ANSWERS = {
    "yes": re.compile(r"count me in|i'll be there|\byes\b|bin dabei|ich komme|^ja\b", re.I),
    "no": re.compile(
        r"\bsorry\b|away that|next time|already have plans|work (thing|do)|nächstes mal|bin an dem wochenende weg"
        r"|schon was vor|was mit der arbeit",
        re.I,
    ),
    "maybe": re.compile(r"\bmaybe\b|\bprobably\b|vielleicht|wahrscheinlich", re.I),
}
#: Weekday names (en, de): an answer naming another day than the party's answers something else.
_WEEKDAYS = [
    ("monday", "montag"),
    ("tuesday", "dienstag"),
    ("wednesday", "mittwoch"),
    ("thursday", "donnerstag"),
    ("friday", "freitag"),
    ("saturday", "samstag"),
    ("sunday", "sonntag"),
]
#: A guest asking to bring someone along.
_PLUS = re.compile(r"if i brought|any room for|room for .* too|\bmitbringe\b|platz für", re.I)
_ORDER = re.compile(r"\b(?:order|Bestellung)\s+([A-Z]{2,}-\d{3,})")
_SERVES = re.compile(r"\bserves\s+(\d+)|\bfür\s+(\d+)\s+Personen", re.I)


def _about_other_day(text: str, day: dt.date) -> bool:
    """Whether ``text`` names a weekday other than ``day``'s (it answers another plan)."""
    low = text.lower()
    return any(any(w in low for w in names) for i, names in enumerate(_WEEKDAYS) if i != day.weekday())


def _answers_my_question(msgs: list[dict], x: dict, invitation: dict) -> bool:
    """Whether ``x`` (a message of theirs) answers a question I asked after ``invitation`` right before it ("how's
    the book going?" - "yes, cried twice"): my message just before it asks something and nothing of theirs came
    between, so its "yes" is not an answer to the invitation."""
    before = [m for m in msgs if m["at"] < x["at"] and m["at"] > invitation["at"]]
    return bool(before) and before[-1]["mine"] and "?" in before[-1]["text"]


def _answer(text: str) -> str | None:
    for kind in ("no", "maybe", "yes"):
        if _ANSWERS[kind].search(text):
            return kind
    return None


@reader("title", "day")
def read_party_headcount(see: See, given: dict) -> Reading:
    """The caterer's confirmation (order, serves N, the last day to change it) and the guests' answers in Parley:
    the host, every yes and every maybe (as the order counted them), and each plus-one asked for since."""
    title, day = given["title"], dt.date.fromisoformat(given["day"])
    orders = []
    for words in (("serves",), ("Personen", "Abholung")):
        for m in found_messages(see, *words):
            order, serves = _ORDER.search(m["body"]), _SERVES.search(m["body"])
            days = days_in(m["body"], day)
            if order and serves and days and days[0] == day:
                orders.append((m, order.group(1), int(serves.group(1) or serves.group(2)), days[-1]))
    if not orders:
        raise Unreadable(f"no food order for pickup on {day} in the mail")
    m, order, serves, change_by = max(orders, key=lambda o: o[0]["at"])
    steps = [f"{m['from_name']}, {m['at']:%Y-%m-%d %H:%M}: order {order} serves {serves}, changes until {change_by}"]
    answers: dict[str, str] = {}
    plus: list[str] = []
    for c in conversations(see):
        if c["kind"] != "direct":
            continue
        msgs = thread(see, c["id"])
        invited = [x for x in msgs if x["mine"] and mentions(x["text"], title)]
        if not invited:
            continue
        since = invited[0]["at"]
        theirs = [x for x in msgs if not x["mine"] and x["at"] > since]
        reply = next(
            (
                x
                for x in theirs
                if x["at"] <= since + dt.timedelta(days=3)
                and not _answers_my_question(msgs, x, invited[0])
                and not clocks(x["text"])
                and not _about_other_day(x["text"], day)
                and _answer(x["text"])
            ),
            None,
        )
        answers[c["name"]] = _answer(reply["text"]) if reply else "no answer"
        steps.append(
            f"{c['name']}: " + (f"\u201c{reply['text']}\u201d ({answers[c['name']]})" if reply else "no answer")
        )
        for x in theirs:
            if _PLUS.search(x["text"]):
                plus.append(c["name"])
                steps.append(f"{c['name']}, {x['at']:%Y-%m-%d %H:%M}: \u201c{x['text']}\u201d (+1)")
    coming = 1 + sum(v in ("yes", "maybe") for v in answers.values())
    if coming != serves:
        steps.append(f"note: me + yes + maybe make {coming}, the order serves {serves}")
    needed = coming + len(plus)
    steps.append(f"needed: me + {coming - 1} yes/maybe + {len(plus)} plus-one(s) = {needed}")
    return Reading(
        values={"ordered": serves, "needed": needed, "order": order, "change-by": change_by.isoformat()},
        steps=steps,
    )


@reader("contact", unique=True)
def read_catch_up(see: See, given: dict) -> Reading:
    """The contact's last one-to-one text, last mail and last person-to-person payment; ``margin``: the days
    between that payment and the one before it (0: two payments on the last day, which is "the last" unclear)."""
    name = given["contact"]
    texts = [m for m in thread(see, direct(see, name)["id"]) if m["sender"] == name]
    if not texts:
        raise Unreadable(f"{name} never texted me one-to-one in Parley")
    mails = [m for m in found_messages(see, sender=name, folders=("inbox", "archive", "trash", "spam"))]
    if not mails:
        raise Unreadable(f"no email from {name}")
    pays = p2p_with(see, name)
    if not pays:
        raise Unreadable(f"no person-to-person payment with {name} in the bank")
    t, m, z = texts[-1]["at"].date(), max(x["at"] for x in mails).date(), pays[0]
    margin = (z["day"] - pays[1]["day"]).days if len(pays) > 1 else (see.now.date() - z["day"]).days + 1
    return Reading(
        margin=margin,
        values={
            "text": t.isoformat(),
            "mail": m.isoformat(),
            "payment-day": z["day"].isoformat(),
            "payment-amount": abs(z["cents"]),
        },
        steps=[
            f"Parley, one-to-one with {name}: their last message {texts[-1]['at']:%Y-%m-%d %H:%M}",
            f"~/Mail from {name} (any folder but Sent): {len(mails)} mail(s), the latest {m}",
            f"bank: {z['day']} {z['description']} {z['cents'] / 100:+.2f} ({z['direction']})",
        ],
    )


SCENARIOS = [
    Scenario(
        home="messaging",
        apps=("messaging", "mail", "calendar"),
        tasks=contradiction_tasks,
        readers={"cx-party-headcount": read_party_headcount},
        after=(
            "cx-plan-times",
            "p2p-amount",
            "invite-group",
            "trip-companion",
            "flight-number",
            "money-owed",
            "pay-back",
            *OWN_BEFORE,
        ),
    ),
    Scenario(
        home="messaging",
        apps=("messaging",),
        tasks=crossapp_tasks,
        readers={f"x-catch-up-{i}": read_catch_up for i in range(1, 6)},
        rank=RECAPS,
    ),
]
