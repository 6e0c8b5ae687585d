"""TableTime's look-ups through one other app (ids ``<persona>/dining/<slug>``): the meal out in the calendar, the
card charge of the latest dinner, who came to the latest dinner with company. They open TableTime's list, after its
next reservation when there is one."""

from __future__ import annotations

import datetime as dt
import unicodedata

from apps.dining import reader as tt
from apps.dining.tasks import APP, KIT, day_text, history, in_use, spellings, text
from builder.money import money
from builder.tasks.collect import Scenario
from builder.tasks.model import Check, RubricItem, Task
from builder.tasks.reader import Reading, See, Unreadable, reader, visible_text
from builder.tasks.dates import day_in
from builder.world import World

from builder.tasks.matching import amounts


def calendar_tasks(world: World) -> list[Task]:
    """What the meal out in the calendar on the day of the last upcoming reservation is (dining + calendar)."""
    out: list[Task] = []
    _, upcoming = history(world)
    if upcoming:
        last_up = upcoming[-1]
        d = last_up["at"].date()
        KIT.adder(world, out)(
            "dinner-on-calendar",
            [APP, "calendar"],
            kind="lookup",
            difficulty="easy",
            time_limit_seconds=300,
            instruction=f"I have a meal out in my calendar on {day_text(d, world.persona.bank)}. Which restaurant is "
            "it, and how many people is the table for?",
            expected={
                "restaurant": last_up["restaurant"],
                "party": last_up["party_size"],
                "confirmation": last_up["confirmation"],
                "day": d.isoformat(),
            },
            rubric=[
                RubricItem(
                    id="restaurant",
                    weight=70,
                    requirement=f"Names {last_up['restaurant']}",
                    check=text(last_up["restaurant"]),
                ),
                RubricItem(id="party", weight=30, requirement=f"Says a table for {last_up['party_size']}"),
            ],
        )
    return out


def bank_tasks(world: World) -> list[Task]:
    """What the latest dinner paid by card came to, tip included (dining + bank)."""
    out: list[Task] = []
    past, _ = history(world)
    paid = [b for b in past if b["paid"] is not None and b["paid"].status == "done"]
    if paid:
        b = paid[-1]
        amount = b["paid"].data["amount_cents"]
        d = b["at"].date()
        KIT.adder(world, out)(
            "last-dinner-cost",
            [APP, "bank"],
            kind="lookup",
            difficulty="medium",
            time_limit_seconds=360,
            instruction=f"How much did my meal at {b['restaurant']} on {day_text(d, world.persona.bank)} come to "
            "on my card, tip included?",
            expected={
                "confirmation": b["confirmation"],
                "amount_cents": amount,
                "tip_cents": b["paid"].data.get("tip_cents"),
                "restaurant": b["restaurant"],
                "day": d.isoformat(),
            },
            rubric=[
                RubricItem(
                    id="amount",
                    weight=100,
                    requirement=f"States {money(amount, world.currency)}",
                    check=Check(type="answer_amount", cents=amount),
                )
            ],
        )
    return out


def messaging_tasks(world: World) -> list[Task]:
    """Who came to the latest dinner with company (dining + messaging)."""
    out: list[Task] = []
    past, _ = history(world)
    company = [b for b in past if b["companions"]]
    if company:
        b = company[-1]
        d = b["at"].date()
        weight = 100 // len(b["companions"])
        items = [
            RubricItem(
                id=f"name-{i}",
                weight=weight + (100 - weight * len(b["companions"]) if i == 0 else 0),
                requirement=f"Names {n}",
                check=text(*spellings(world, n)),
            )
            for i, n in enumerate(b["companions"])
        ]
        KIT.adder(world, out)(
            "who-came",
            [APP, "messaging"],
            kind="lookup",
            difficulty="medium",
            time_limit_seconds=360,
            instruction=f"Who did I eat with at {b['restaurant']} on {day_text(d, world.persona.bank)}?",
            expected={
                "confirmation": b["confirmation"],
                "companions": b["companions"],
                "restaurant": b["restaurant"],
                "day": d.isoformat(),
            },
            rubric=items,
        )
    return out


def paid_by_tasks(world: World) -> list[Task]:
    """Who paid the latest dinner a friend covered, and what the persona owes them (dining + bank + messaging): the
    reservation says who came, the card has no charge for it, and the friend who paid asked in Parley for the
    persona's share (builder/world/orders.py gives such a table to the friend; builder/world/requests.py asks)."""
    out: list[Task] = []
    asked = {e.data["ref"]: e for e in world.of_kind("money_request") if e.at <= world.now}
    bookings = [
        e for e in world.of_kind("restaurant_booking") if e.status == "done" and e.data.get("paid_by") and e.id in asked
    ]
    if not bookings:
        return out
    b = max(bookings, key=lambda e: e.data["reservation_local"])
    past, _ = history(world)
    row = next((x for x in past if x["confirmation"] == b.data["booking_id"]), None)
    if row is None:
        return out
    payer, share = b.data["paid_by"], asked[b.id].data["amount_cents"]
    d = row["at"].date()
    KIT.adder(world, out)(
        "who-paid",
        [APP, "bank", "messaging"],
        kind="lookup",
        difficulty="medium",
        time_limit_seconds=480,
        instruction=f"Who paid for our dinner at {row['restaurant']} on {day_text(d, world.persona.bank)}, and how "
        "much do I owe them for my part?",
        expected={
            "confirmation": row["confirmation"],
            "restaurant": row["restaurant"],
            "day": d.isoformat(),
            "payer": payer,
            "share_cents": share,
        },
        rubric=[
            RubricItem(id="payer", weight=50, requirement=f"Names {payer}", check=text(*spellings(world, payer))),
            RubricItem(
                id="share",
                weight=50,
                requirement=f"Owes {money(share, world.currency)}",
                check=Check(type="answer_amount", cents=share),
            ),
        ],
    )
    return out


# --- readers (builder.tasks.reader): TableTime's reservations, the calendar's day, the bank's card lines ----------


def _key(text: str) -> str:
    """A name folded for comparing a card line with a restaurant: letters and digits only, lower case, without
    accents ("Antep Sofrası" and the card's "ANTEP SOFRASI" alike)."""
    text = unicodedata.normalize("NFKD", text.replace("ı", "i").replace("İ", "I")).casefold()
    return "".join(ch for ch in text if ch.isalnum() and not unicodedata.combining(ch))


def _names_place(description: str, want: str) -> bool:
    """Whether a card line's ``description`` names the restaurant whose :func:`_key` is ``want``: after any words
    the bank writes first ("CARD PURCHASE", "DEBIT CARD"), its name, whole or cut short (at least six letters)."""
    words = description.split()
    for i in range(len(words)):
        rest = _key(" ".join(words[i:]))
        if len(rest) >= 6 and (want.startswith(rest) or rest.startswith(want)):
            return True
    return False


@reader("day")
def dinner_on_calendar(see: See, given: dict) -> Reading:
    """The TableTime reservation of that day the calendar's day view names."""
    day = given["day"]
    booked = [r for r in tt.rows(see, "upcoming") if r["day"] == day]
    agenda = visible_text(see.page("calendar", "/day", {"date": day}).xpath("//main")[0])
    hits = [r for r in booked if _key(r["name"]) in _key(agenda)]
    if len(hits) != 1:
        raise Unreadable(f"{len(hits)} of TableTime's reservations on {day} are in the calendar's day")
    return Reading(
        values={"restaurant": hits[0]["name"]},
        steps=[
            f"the calendar's {day} names {hits[0]['name']}",
            f"TableTime upcoming on {day}: {hits[0]['name']} at {hits[0]['time']} for {hits[0]['party']}",
        ],
    )


def card_lines(see: See, start: dt.date, end: dt.date) -> list[dict]:
    """Every posted line of every bank account between ``start`` and ``end`` (both included), as the account pages
    list them with their date filter: ``{account, date, description, cents}`` (cents negative for money out)."""
    accounts = sorted({a for a in see.page("bank", "/accounts").xpath("//a/@href") if a.startswith("/accounts/")})
    out = []
    for href in accounts:
        page_no = 1
        while True:
            params = {"from": start.isoformat(), "to": end.isoformat()}
            if page_no > 1:
                params["page"] = str(page_no)
            doc = see.page("bank", href, params)
            for tr in doc.xpath('//tr[@data-testid="txn-row"]'):
                cells = tr.xpath("./td")
                out.append(
                    {
                        "account": href,
                        "date": day_in(visible_text(cells[0])),
                        "description": visible_text(cells[1].xpath('.//*[contains(@class, "lb-desc")]')[0]),
                        "cents": int(tr.get("data-amount-cents")),
                    }
                )
            count = doc.xpath('//*[@data-testid="result-count"]')
            total = int(count[0].get("data-total")) if count else 0
            if page_no * 25 >= total:
                break
            page_no += 1
    return out


@reader("restaurant", "day")
def last_dinner_cost(see: See, given: dict) -> Reading:
    """The bank's card line of the restaurant within four days of the past reservation there."""
    day = dt.date.fromisoformat(given["day"])
    tt.booking_on(see, "past", given["restaurant"], given["day"])
    want = _key(given["restaurant"])
    lines = card_lines(see, day, day + dt.timedelta(days=4))
    hits = [x for x in lines if x["cents"] < 0 and _names_place(x["description"], want)]
    if len(hits) != 1:
        raise Unreadable(f"{len(hits)} card lines of {given['restaurant']} from {day} to four days after")
    hit = hits[0]
    return Reading(
        values={"amount": -hit["cents"]},
        steps=[
            f"TableTime: a past reservation at {given['restaurant']} on {day}",
            f"bank {hit['account']}: {hit['date']} {hit['description']} {hit['cents']}",
        ],
    )


@reader("restaurant", "day")
def who_came(see: See, given: dict) -> Reading:
    """The companions the past reservation's page names, in its order."""
    row = tt.booking_on(see, "past", given["restaurant"], given["day"])
    names = tt.detail(see, row["confirmation"])["companions"]
    if not names:
        raise Unreadable(f"reservation {row['confirmation']} names no one dining along")
    return Reading(
        values={f"name-{i}": n for i, n in enumerate(names)},
        steps=[
            f"TableTime {row['confirmation']} ({given['restaurant']}, {given['day']}): dining with {', '.join(names)}"
        ],
    )


@reader("restaurant", "day")
def who_paid(see: See, given: dict) -> Reading:
    """The card has no line of the restaurant in the four days from the dinner, so someone else paid; of those who
    came (the reservation's page), the one who asked in Parley for the persona's part of that dinner paid, and the
    amount is what they asked."""
    from apps.messaging import reader as parley

    day = dt.date.fromisoformat(given["day"])
    row = tt.booking_on(see, "past", given["restaurant"], given["day"])
    came = tt.detail(see, row["confirmation"])["companions"]
    want = _key(given["restaurant"])
    charged = [
        x
        for x in card_lines(see, day, day + dt.timedelta(days=4))
        if x["cents"] < 0 and _names_place(x["description"], want)
    ]
    if charged:
        raise Unreadable(f"the card paid {given['restaurant']}: {charged[0]['description']} {charged[0]['cents']}")
    asks = []
    for name in came:
        try:
            conv = parley.direct(see, name)
        except Unreadable:
            continue
        for m in parley.thread(see, conv["id"]):
            if m["mine"] or m["at"] is None or m["at"].date() < day or given["restaurant"] not in m["text"]:
                continue
            stated = amounts(m["text"])  # an amount of money, not "I'll be there at 6:15 PM"
            if len(stated) == 1:
                asks.append((name, stated.pop(), m))
    if len({(n, c) for n, c, _ in asks}) != 1:
        raise Unreadable(f"{len(asks)} asks about {given['restaurant']} from those who came ({came})")
    name, cents, m = asks[0]
    return Reading(
        values={"payer": name, "share": cents},
        steps=[
            f"TableTime {row['confirmation']}: dining with {', '.join(came)}; no card line of {given['restaurant']} "
            f"from {day} to four days after",
            f"Parley, {name} on {m['at']:%Y-%m-%d %H:%M}: {m['text']!r}",
        ],
    )


#: After the next reservation, or first when there is none; in this order.
_FIRST = ("next-reservation", "")

SCENARIOS = [
    Scenario(
        home=APP,
        apps=(APP, "calendar"),
        tasks=calendar_tasks,
        readers={"dinner-on-calendar": dinner_on_calendar},
        after=_FIRST,
        when=in_use,
    ),
    Scenario(
        home=APP,
        apps=(APP, "bank"),
        tasks=bank_tasks,
        readers={"last-dinner-cost": last_dinner_cost},
        after=_FIRST,
        when=in_use,
    ),
    Scenario(
        home=APP,
        apps=(APP, "bank", "messaging"),
        tasks=paid_by_tasks,
        readers={"who-paid": who_paid},
        after=_FIRST,
        when=in_use,
    ),
    Scenario(
        home=APP,
        apps=(APP, "messaging"),
        tasks=messaging_tasks,
        readers={"who-came": who_came},
        after=_FIRST,
        when=in_use,
    ),
]
