"""Larkspur Bank's two-app answer tasks (ids ``<persona>/bank/cx-...`` and ``cf-...``): a friend's paid-back claim
the bank does not show (and the balance had it been true), a mailed bill the autopay will not cover, the balance once
the friends who asked are paid back, the foreign fees a trip cost. Each needs the bank and one other app (chat,
mail, the airline); see :mod:`builder.tasks.pairs` for the shared rules."""

from __future__ import annotations

import datetime as dt
import re

from apps.bank import reader as B
from apps.bank.tasks import checking_words
from builder.money import money
from builder.reference import gazetteer
from builder.tasks import answers as A
from builder.tasks import pairs as P
from builder.tasks.collect import Scenario
from builder.tasks.dates import day_in
from builder.tasks.model import RubricItem, Task
from builder.tasks.reader import Reading, See, Unreadable, parse_money, reader, visible_text
from builder.world import World

#: Their place: right after the bank's own tasks, the last of them the world has (the bank's tasks() order,
#: backwards); the bank's preference tasks follow them.
AFTER = (
    "pay-card-in-full",
    "send-money",
    "bill-pay",
    "transfer-to-savings",
    "largest-purchase",
    "p2p-total",
    "card-statement",
    "coffee-last-month",
)


def pair_tasks(world: World) -> list[Task]:
    """The bank's pair tasks of ``world`` (empty when the world lacks their material)."""
    return P.collect(world, "bank", _build)


#: What a friend was paid back for, as the friend's chat says it in German (builder/world/planted.py), in the
#: English of a task's instruction: the pattern and its English (``{r}``: the restaurant).
_OWED_EN = (
    (re.compile(r"^das Essen bei (?P<r>.+)$"), "the meal at {r}"),
    (re.compile(r"^die Konzertkarten$"), "the concert tickets"),
)
#: The restaurant a meal's words name (English or German).
_PLACE = re.compile(r"^(?:dinner|lunch|the meal) at (?P<r>.+)$|^das Essen bei (?P<d>.+)$")


def _owed(text: str) -> tuple[str, str | None]:
    """``(what, restaurant)``: the planted ``owed_for`` in English, and the restaurant it names (``None``: no
    meal)."""
    for pattern, english in _OWED_EN:
        m = pattern.match(text)
        if m:
            text = english.format(**m.groupdict())
            break
    place = _PLACE.match(text)
    return text, (place.group("r") or place.group("d")) if place else None


def _build(world: World, task) -> None:
    from builder.tasks.phrasing import day_phrase

    p = world.persona
    cur, today = world.currency, world.now.date()
    checking = world.closing_balance_cents("checking") if "checking" in world.account_kinds() else None
    chk = checking_words(world)
    it = A.planted(world, "contradiction/paid-back-claim")
    if it and checking is not None:
        first = it["contact"].split()[0]
        owed_for, place = _owed(it["owed_for"])
        claimed = dt.datetime.fromisoformat(it["claimed_at"])
        task(
            "cx-paid-back-claim",
            ["bank", "messaging"],
            kind="lookup",
            category="contradiction",
            rule="The bank's record of money received beats a friend's message that they sent it.",
            difficulty="medium",
            time_limit_seconds=420,
            instruction=f"{first} messaged me {day_phrase(claimed.date(), today)} saying they'd paid me back for "
            f"{owed_for}. Has that money actually reached my {chk}? How much did they "
            "say they sent?",
            expected={
                "friend": first,
                "owed_for": owed_for,
                "place": place,
                "claimed_on": claimed.date().isoformat(),
                "contact": it["contact"],
                "claimed_cents": it["amount_cents"],
                "arrived": False,
                "truth": "bank",
            },
            planted=[it["id"]],
            rubric=[
                RubricItem(
                    id="amount",
                    weight=50,
                    requirement=f"States the claimed {money(it['amount_cents'], cur)}",
                    check=A.amount(it["amount_cents"]),
                ),
                RubricItem(
                    id="who", weight=20, requirement=f"Names {it['contact']}", check=A.names([A.person(it["contact"])])
                ),
                RubricItem(
                    id="not-arrived",
                    weight=20,
                    requirement="Says no such payment has arrived",
                    # Words about the money not arriving; a bare "nothing" or "didn't" would pass an answer
                    # saying it came.
                    check=A.text(
                        *(
                            w.replace("'", q)
                            for w in (
                                "not arrived",
                                "hasn't arrived",
                                "has not arrived",
                                "didn't arrive",
                                "did not arrive",
                                "not received",
                                "haven't received",
                                "have not received",
                                "hasn't reached",
                                "has not reached",
                                "hasn't come",
                                "has not come",
                                "not come through",
                                "no payment",
                                "no such payment",
                                "no sign of",
                                "hasn't shown up",
                                "has not shown up",
                                "isn't there",
                                "is not there",
                                "not in your checking",
                                "not in my checking",
                                "not in your current account",
                                "not in my current account",
                                "not in your chequing",
                                "not in my chequing",
                                "no incoming",
                                "no transfer from",
                            )
                            for q in (("'", "’") if "'" in w else ("'",))
                        )
                    ),
                ),
                RubricItem(id="verdict", weight=10, requirement="Concludes the bank is right and the claim is not"),
            ],
        )
        task(
            "cf-claim-true",
            ["bank", "messaging"],
            kind="aggregation",
            category="counterfactual",
            difficulty="medium",
            time_limit_seconds=420,
            instruction=f"{first} says they already paid me back for {owed_for}. If that money really had come "
            f"in, what would my {chk} balance be right now?",
            expected={
                "friend": first,
                "owed_for": owed_for,
                "place": place,
                "balance_now_cents": checking,
                "claimed_cents": it["amount_cents"],
                "balance_if_cents": checking + it["amount_cents"],
            },
            planted=[it["id"]],
            rubric=[
                RubricItem(
                    id="balance",
                    weight=70,
                    requirement=f"States {money(checking + it['amount_cents'], cur)}",
                    check=A.amount(checking + it["amount_cents"]),
                ),
                RubricItem(
                    id="claimed",
                    weight=30,
                    requirement=f"Uses the claimed {money(it['amount_cents'], cur)}",
                    check=A.amount(it["amount_cents"]),
                ),
            ],
        )

    it = A.planted(world, "contradiction/bill-amount")
    if it:
        at = dt.datetime.fromisoformat(it["autopay_at"])
        short = it["bill_cents"] - it["autopay_cents"]
        task(
            "cx-autopay-vs-bill",
            ["bank", "mail"],
            kind="aggregation",
            category="contradiction",
            rule="The biller's newest bill states what is owed; the autopay takes only the amount it was set to take.",
            difficulty="medium",
            time_limit_seconds=420,
            instruction=f"{it['payee']} sent me my latest bill by email. Will the autopay my bank has scheduled "
            f"{day_phrase(at.date(), today)} cover it? Tell me the bill amount, the autopay amount and how "
            "much would be left unpaid.",
            expected={
                "payee": it["payee"],
                "autopay_on": at.date().isoformat(),
                "bill_cents": it["bill_cents"],
                "autopay_cents": it["autopay_cents"],
                "short_cents": short,
                "truth": "mail",
            },
            planted=[it["id"]],
            rubric=[
                RubricItem(
                    id="bill",
                    weight=30,
                    requirement=f"States the bill {money(it['bill_cents'], cur)}",
                    check=A.amount(it["bill_cents"]),
                ),
                RubricItem(
                    id="autopay",
                    weight=30,
                    requirement=f"States the autopay {money(it['autopay_cents'], cur)}",
                    check=A.amount(it["autopay_cents"]),
                ),
                RubricItem(
                    id="short",
                    weight=40,
                    requirement=f"States the shortfall {money(short, cur)}",
                    check=A.amount(short),
                ),
            ],
        )

    owed = A.planted_of(world, "pending", "pay_back")
    if owed and checking is not None:
        total = sum(x["amount_cents"] for x in owed)
        people = list(dict.fromkeys(x["contact"] for x in owed))  # one friend may have asked twice
        task(
            "cf-after-paybacks",
            ["bank", "messaging"],
            kind="aggregation",
            category="counterfactual",
            difficulty="medium",
            time_limit_seconds=480,
            instruction="A few friends have asked me to pay them back and I haven't yet. If I sent every one of them "
            f"what they asked for from my {chk} today, what would my {chk} balance be after?",
            expected={
                "people": [x["contact"] for x in owed],
                "total_cents": total,
                "balance_after_cents": checking - total,
            },
            planted=[x["id"] for x in owed],
            rubric=[
                RubricItem(
                    id="after",
                    weight=60,
                    requirement=f"States {money(checking - total, cur)}",
                    check=A.amount(checking - total),
                ),
                RubricItem(
                    id="total",
                    weight=20,
                    requirement=f"States the {money(total, cur)} owed in all",
                    check=A.amount(total),
                ),
                RubricItem(
                    id="who",
                    weight=20,
                    requirement="Names " + ", ".join(people),
                    check=A.names([A.person(n) for n in people]),
                ),
            ],
        )

    fees = [e for e in world.of_kind("card_fee") if e.status == "done" and e.data.get("trip") is not None]
    if fees:
        trip_i = fees[-1].data["trip"]
        on = [e for e in fees if e.data["trip"] == trip_i]
        fee_total = sum(e.data["amount_cents"] for e in on)
        # The trip as the apps (Meridian Air, Bramblestay) and an English sentence name it: its airport's city
        # ("Copenhagen", where the spec may say "Kopenhagen").
        trip = p.travel.trips[trip_i]
        served = gazetteer.airport(trip.airport)
        dest = served.city if served and served.city and "," not in served.city else trip.destination
        task(
            "cf-foreign-fees",
            ["bank", "airline"],
            kind="aggregation",
            category="counterfactual",
            difficulty="medium",
            time_limit_seconds=420,
            instruction=f"If I had paid on my {dest} trip with a card that charges no foreign transaction fees, how "
            "much would I have saved? And how many fee charges was that?",
            expected={"trip": trip_i, "destination": dest, "fees_cents": fee_total, "fees": len(on)},
            rubric=[
                RubricItem(
                    id="saved", weight=80, requirement=f"States {money(fee_total, cur)}", check=A.amount(fee_total)
                ),
                RubricItem(id="count", weight=20, requirement=f"Says {len(on)} fee charges", check=A.number(len(on))),
            ],
        )


# --- Independent readers (builder.tasks.reader): the bank's pages with Parley's chats, the mailbox and Meridian
# Air's trips, as the persona sees them.

# A friend's message asking to be paid back (builder/world/templates/requests): a share, a half, a price each...
_ASKS = re.compile(
    r"your share|your half|your portion|\beach\b|pay me back|for you\b|\bwhenever\b|when you get a sec|"
    r"dein Anteil|Ihr Anteil|deine Hälfte|pro Person|zahl's mir zurück|für dich|wann immer|wenn du Zeit hast",
    re.IGNORECASE,
)
# ...and not one saying they sent money themselves.
_SENT = re.compile(r"\bsent\b|paid you|geschickt|überwiesen|\braus\b", re.IGNORECASE)


def _chats(see: See) -> list[dict]:
    """Parley's direct conversations (the chat list): ``{id, name}``."""
    page = see.page("messaging", "/")
    return [
        {"id": a.get("data-id"), "name": a.get("data-name")}
        for a in page.xpath('//a[@data-testid="conversation"]')
        if a.get("data-kind") == "direct"
    ]


def _messages(see: See, chat: str, since: dt.datetime) -> list[dict]:
    """The messages of a conversation from ``since`` on (earlier pages loaded as needed), oldest first:
    ``{at, mine, text}``."""
    out: list[dict] = []
    params: dict = {}
    while True:
        page = see.page("messaging", f"/c/{chat}", params)
        got = [
            {
                "at": dt.datetime.fromisoformat(m.xpath(".//time")[0].get("datetime")[:19]),
                "mine": m.get("data-mine") == "1",
                "text": visible_text(m.xpath('.//*[@data-testid="message-text"]')[0]),
            }
            for m in page.xpath('//*[@data-testid="message"]')
        ]
        out = got + out
        more = page.xpath('//*[@data-testid="load-earlier"]')
        if not more or not got or got[0]["at"] < since:
            break
        params = {"before": more[0].get("href").split("before=")[-1]}
    return [m for m in out if m["at"] >= since]


def _p2p(see: See, name: str, start: dt.date, incoming: bool) -> list[dict]:
    """Checking's person-to-person lines from ``start`` on naming ``name``: money in (``incoming``) or out."""
    return [
        r
        for r in B.ledger(see, "checking", start, see.now.date(), q=name)
        if r["category"] == "Person to person"
        and (r["cents"] > 0) == incoming
        and name.upper() in r["description"].upper()
    ]


def _claim(see: See, given: dict) -> tuple[dict, dict]:
    """The chat and the message in which the friend (``friend``: a first name) says they sent money: on
    ``claimed_on`` when given, else the latest of the last 30 days; naming the restaurant ``place`` when given."""
    first, place = given["friend"], given.get("place")
    day = dt.date.fromisoformat(given["claimed_on"]) if given.get("claimed_on") else None
    since = dt.datetime.combine(day or (see.now - dt.timedelta(days=30)).date(), dt.time())
    found = []
    for chat in _chats(see):
        if chat["name"].split()[0] != first:
            continue
        for msg in _messages(see, chat["id"], since):
            if msg["mine"] or not _SENT.search(msg["text"]) or (place and place not in msg["text"]):
                continue
            try:
                parse_money(msg["text"])
            except Unreadable:
                continue
            if day is None or msg["at"].date() == day:
                found.append((chat, msg))
    what = f"{given['owed_for']!r}" + (f" at {place}" if place else "")
    if not found:
        raise Unreadable(f"no message from {first} saying they sent money for {what}")
    if len({c["id"] for c, _ in found}) > 1:
        raise Unreadable(f"more than one {first} says they sent money for {what}")
    return found[-1]


@reader("friend", "owed_for", "place", "claimed_on")
def _read_paid_back_claim(see: See, given: dict) -> Reading:
    chat, msg = _claim(see, given)
    claimed = parse_money(msg["text"])
    arrived = _p2p(see, chat["name"], msg["at"].date() - dt.timedelta(days=3), incoming=True)
    return Reading(
        values={
            "amount": claimed,
            "who": [chat["name"]],
            "not-arrived": "arrived" if arrived else "has not arrived",
        },
        steps=[
            f"Parley, {chat['name']} on {msg['at']}: {msg['text']!r}",
            f"Checking, money in from {chat['name']} since {msg['at'].date() - dt.timedelta(days=3)}: "
            f"{[(str(r['day']), r['cents']) for r in arrived]}",
        ],
    )


@reader("friend", "owed_for", "place")
def _read_claim_true(see: See, given: dict) -> Reading:
    chat, msg = _claim(see, given)
    claimed = parse_money(msg["text"])
    balance = B.accounts(see)["checking"]["balance"]
    return Reading(
        values={"balance": balance + claimed, "claimed": claimed},
        steps=[f"{chat['name']} says {msg['text']!r}; checking shows {balance}; with the claim {balance + claimed}"],
    )


@reader("payee", "autopay_on")
def _read_autopay_vs_bill(see: See, given: dict) -> Reading:
    payee = given["payee"]
    bills = [
        m for m in see.mailbox() if (m["From"] and m["From"].addresses and m["From"].addresses[0].display_name == payee)
    ]
    if not bills:
        raise Unreadable(f"no mail from {payee}")
    latest = max(bills, key=lambda m: m["Date"].datetime)
    body = latest.get_body(preferencelist=("plain", "html")).get_content()
    bill = B.amount_after(body, "Amount due this month", "Amount due", "Rechnungsbetrag", "beträgt")
    # The bank lists no scheduled payment: the autopay takes what it took every month (all its lines agree).
    lines = [r for r in B.ledger(see, "checking", q=payee) if r["cents"] < 0]
    amounts = {-r["cents"] for r in lines}
    if len(amounts) != 1:
        raise Unreadable(f"{payee}'s {len(lines)} past payments differ ({sorted(amounts)}): no one autopay amount")
    autopay = amounts.pop()
    return Reading(
        values={"bill": bill, "autopay": autopay, "short": bill - autopay},
        steps=[
            f"Mail from {payee} of {latest['Date']}: {latest['Subject']!r}, amount due {bill}",
            f"Checking: {len(lines)} payments to {payee}, each {autopay} (the monthly autopay)",
        ],
    )


@reader()
def _read_after_paybacks(see: See, given: dict) -> Reading:
    since = see.now - dt.timedelta(days=30)
    mark = B.currency_mark(see)
    asks = []
    for chat in _chats(see):
        for msg in _messages(see, chat["id"], since):
            if msg["mine"] or not _ASKS.search(msg["text"]) or _SENT.search(msg["text"]):
                continue
            cents = B.money_beside(msg["text"], mark)  # an amount in the persona's money, not a time ("18:30")
            if cents is None:
                continue
            paid = [r for r in _p2p(see, chat["name"], msg["at"].date(), incoming=False) if -r["cents"] == cents]
            if not paid:
                asks.append((chat["name"], cents, msg))
    if not asks:
        raise Unreadable("no friend's unpaid request to be paid back in the last 30 days")
    total = sum(c for _, c, _ in asks)
    balance = B.accounts(see)["checking"]["balance"]
    return Reading(
        values={"after": balance - total, "total": total, "who": list(dict.fromkeys(n for n, _, _ in asks))},
        steps=[
            *(f"{n} on {m['at']:%Y-%m-%d}: {m['text']!r} -> {c}, nothing sent back since" for n, c, m in asks),
            f"checking {balance} less {total} = {balance - total}",
        ],
    )


@reader("destination")
def _read_foreign_fees(see: See, given: dict) -> Reading:
    trips = []
    for li in see.page("airline", "/", {"tab": "past"}).xpath('//li[@data-testid="trip"]'):
        city = visible_text(li.xpath('.//*[contains(@class, "ma-trip-city")]')[0])
        if city == given["destination"]:
            text = visible_text(li)
            span = text[text.index(city) + len(city) :]
            parts = span.split("–")
            trips.append((day_in(parts[0]), day_in(parts[1])))
    if not trips:
        raise Unreadable(f"no past Meridian Air trip to {given['destination']}")
    depart, back = max(trips)
    fees = B.fees(see, depart, back)
    total = -sum(r["cents"] for r in fees)
    return Reading(
        values={"saved": total, "count": len(fees)},
        steps=[f"Trip to {given['destination']} {depart}..{back}: {len(fees)} card fee lines, {total} cents"],
    )


READERS = {
    "cx-paid-back-claim": _read_paid_back_claim,
    "cf-claim-true": _read_claim_true,
    "cx-autopay-vs-bill": _read_autopay_vs_bill,
    "cf-after-paybacks": _read_after_paybacks,
    "cf-foreign-fees": _read_foreign_fees,
}


SCENARIOS = [Scenario(home="bank", apps=("bank",), tasks=pair_tasks, after=AFTER, readers=READERS)]
